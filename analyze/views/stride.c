/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Cost vs stride, one line per thread count: the false-sharing chart of ch25 (cost drops once
 * the stride puts each thread's counter on its own cache line). The view of kernels that declare
 * "stride"; in files without views, of every experiment with a `stride` param.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/plots_int.h"
#include "analyze/report_int.h"
#include "analyze/units.h"
#include "analyze/views/view.h"

/* params without the stride item, into buf. */
static void an_strip_stride(const char *params, char *buf, size_t len)
{
	size_t k = 0;

	for (const char *p = params; p && *p;) {
		const char *end = strchr(p, ';');
		size_t il = end ? (size_t)(end - p) : strlen(p);

		if (strncmp(p, "stride=", 7) && k + il + 2 < len) {
			if (k)
				buf[k++] = ';';
			memcpy(buf + k, p, il);
			k += il;
		}
		p = end ? end + 1 : NULL;
	}
	buf[k] = 0;
}

static double an_stride_of(const struct lab_an_point *p)
{
	char buf[64];

	/* As the config wrote it: "4K" is 4096 bytes, not 4. */
	if (!lab_an_params_get(p->params, "stride", buf, sizeof(buf)))
		return NAN;
	return lab_an_size_bytes(buf);
}

static int an_stride_applies(const struct lab_an_data *d, const struct lab_an_point *p);

struct an_sp {
	const struct lab_an_point *pt;
	double stride;
};

static int an_cmp_sp(const void *a, const void *b)
{
	const struct an_sp *x = a, *y = b;

	if (x->pt->threads != y->pt->threads)
		return x->pt->threads - y->pt->threads;
	return (x->stride > y->stride) - (x->stride < y->stride);
}

/* One chart for the points of experiment exp whose params minus stride equal rest. */
static int an_stride_chart(const struct lab_an_data *d, const char *exp, const char *rest,
                           size_t idx, const struct lab_an_pdir *pdir, struct lab_an_plots *out,
                           struct lab_err *err)
{
	struct an_sp *sp = calloc(d->npt, sizeof(*sp));
	size_t n = 0;
	char base[256], other[512], title[600], unit[160];
	FILE *f = NULL;
	int rc = -LAB_EIO;

	if (!sp)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	for (size_t i = 0; i < d->npt; i++) {
		const struct lab_an_point *p = &d->pt[i];

		an_strip_stride(p->params, other, sizeof(other));
		if (!strcmp(p->experiment, exp) && !strcmp(other, rest) && p->st.n &&
		    an_stride_applies(d, p))
			sp[n++] = (struct an_sp){p, an_stride_of(p)};
	}
	qsort(sp, n, sizeof(*sp), an_cmp_sp);
	snprintf(other, sizeof(other), "s%02zu-%.100s-stride", idx + 1, exp);
	lab_an_plot_slug(other, base, sizeof(base));
	if (!(f = lab_an_open(pdir, base, "dat", err)))
		goto out;
	fputs("# stride median mean ci95_lo ci95_hi (one block per thread count)\n", f);
	for (size_t i = 0; i < n; i++) {
		if (i && sp[i].pt->threads != sp[i - 1].pt->threads)
			fputs("\n\n", f);
		fprintf(f, "%.9g", sp[i].stride);
		lab_an_dat_num(f, sp[i].pt->st.median);
		lab_an_dat_num(f, sp[i].pt->st.mean);
		lab_an_dat_num(f, sp[i].pt->st.ci95_lo);
		lab_an_dat_num(f, sp[i].pt->st.ci95_hi);
		fputc('\n', f);
	}
	if ((rc = lab_an_close(f, base, err)))
		goto out;
	if (!(f = lab_an_open(pdir, base, "gp", err))) {
		rc = -LAB_EIO;
		goto out;
	}
	snprintf(title, sizeof(title), "%s %s: cost vs stride", exp, rest);
	lab_an_gp_head(f, base, title, NULL);
	snprintf(other, sizeof(other), "cost (%s; mean and 95%% CI)",
	         lab_an_cost_label(d, n ? sp[0].pt : NULL, unit, sizeof(unit)));
	fputs("set logscale x 2\nset xlabel 'stride (bytes)'\nset ylabel ", f);
	lab_an_gp_str(f, other);
	fputs("\nplot ", f);
	for (size_t i = 0, b = 0; i < n; i++) {
		if (i && sp[i].pt->threads == sp[i - 1].pt->threads)
			continue;
		fprintf(f,
		        "%s'%s.dat' index %zu using 1:3:4:5 with yerrorlines pt 7 title "
		        "'%d thread%s'",
		        b ? ", " : "", base, b, sp[i].pt->threads,
		        sp[i].pt->threads == 1 ? "" : "s");
		b++;
	}
	if (!n)
		fputs("0 notitle", f);
	fputc('\n', f);
	lab_an_gp_tail(f, base);
	if (!(rc = lab_an_close(f, base, err)))
		rc = lab_an_plot_add(out, "stride", title, base, "stride", idx);
out:
	free(sp);
	return rc;
}

/* Declared by the run, or (files without views) any point with a numeric stride param. */
static int an_stride_applies(const struct lab_an_data *d, const struct lab_an_point *p)
{
	int decl = lab_an_view_declared(d, p->experiment, "stride");

	return decl >= 0 ? decl && isfinite(an_stride_of(p)) : isfinite(an_stride_of(p));
}

/* The charts: one per (experiment, params without stride), in first-seen order. */
struct an_stride {
	char **exp, **rest;
	size_t n;
};

static void an_stride_free(void *state)
{
	struct an_stride *s = state;

	for (size_t i = 0; s && i < s->n; i++) {
		free(s->exp[i]);
		free(s->rest[i]);
	}
	if (s) {
		free(s->exp);
		free(s->rest);
	}
	free(s);
}

static int an_stride_add(struct an_stride *s, const struct lab_an_point *p)
{
	char rest[512];

	an_strip_stride(p->params, rest, sizeof(rest));
	for (size_t j = 0; j < s->n; j++)
		if (!strcmp(s->exp[j], p->experiment) && !strcmp(s->rest[j], rest))
			return 0;
	s->exp[s->n] = lab_an_strdup(p->experiment);
	s->rest[s->n] = lab_an_strdup(rest);
	return s->exp[s->n] && s->rest[s->n++] ? 0 : -LAB_ENOMEM;
}

static int an_stride_compute(const struct lab_an_data *d, int include_flagged, void **state,
                             struct lab_err *err)
{
	struct an_stride *s = calloc(1, sizeof(*s));
	int rc = 0;

	(void)include_flagged; /* the points' statistics already honour it */
	*state = NULL;
	if (!s || !(s->exp = calloc(d->npt + 1, sizeof(char *))) ||
	    !(s->rest = calloc(d->npt + 1, sizeof(char *))))
		rc = -LAB_ENOMEM;
	for (size_t i = 0; i < d->npt && !rc; i++)
		if (d->pt[i].st.n && an_stride_applies(d, &d->pt[i]))
			rc = an_stride_add(s, &d->pt[i]);
	if (rc || !s->n) {
		an_stride_free(s);
		return rc ? lab_err_set(err, LAB_ENOMEM, "out of memory") : 0;
	}
	*state = s;
	return 0;
}

static const char *an_stride_experiment(const void *state, size_t i)
{
	const struct an_stride *s = state;

	return i < s->n ? s->exp[i] : NULL;
}

static int an_stride_plots(const void *state, const struct lab_an_data *d,
                           const struct lab_an_pdir *pdir, struct lab_an_plots *out,
                           struct lab_err *err)
{
	const struct an_stride *s = state;
	int rc = 0;

	for (size_t i = 0; i < s->n && !rc; i++)
		rc = an_stride_chart(d, s->exp[i], s->rest[i], i, pdir, out, err);
	return rc;
}

static void an_stride_html(FILE *f, const void *state, const struct lab_an_plots *plots,
                           const char *dir)
{
	const struct an_stride *s = state;

	if (!plots || !plots->rendered)
		return;
	fputs("<h2>Cost vs stride</h2>\n", f);
	for (size_t i = 0; i < s->n; i++)
		lab_an_report_view_imgs(f, plots, dir, "stride", i);
}

const struct lab_an_view lab_an_view_stride = {
    .name = "stride",
    .applies = an_stride_applies,
    .compute = an_stride_compute,
    .free = an_stride_free,
    .experiment = an_stride_experiment,
    .html = an_stride_html,
    .plots = an_stride_plots,
};
