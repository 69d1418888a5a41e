/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Cost vs stride, one line per thread count: the false-sharing chart of ch25 (cost drops once
 * the stride puts each thread's counter on its own cache line).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/plots_int.h"

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

	if (!lab_an_params_get(p->params, "stride", buf, sizeof(buf)))
		return NAN;
	return strtod(buf, NULL);
}

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
                           struct lab_an_err *err)
{
	struct an_sp *sp = calloc(d->npt, sizeof(*sp));
	size_t n = 0;
	char base[256], other[512], title[600];
	FILE *f = NULL;
	int rc = -LAB_AN_EIO;

	if (!sp)
		return lab_an_err_set(err, LAB_AN_ENOMEM, "out of memory");
	for (size_t i = 0; i < d->npt; i++) {
		const struct lab_an_point *p = &d->pt[i];

		an_strip_stride(p->params, other, sizeof(other));
		if (!strcmp(p->experiment, exp) && !strcmp(other, rest) && p->st.n &&
		    isfinite(an_stride_of(p)))
			sp[n++] = (struct an_sp){p, an_stride_of(p)};
	}
	qsort(sp, n, sizeof(*sp), an_cmp_sp);
	snprintf(other, sizeof(other), "s%02zu-%.100s-stride", idx, exp);
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
		rc = -LAB_AN_EIO;
		goto out;
	}
	snprintf(title, sizeof(title), "%s %s: cost vs stride", exp, rest);
	lab_an_gp_head(f, base, title, NULL);
	snprintf(other, sizeof(other), "cost (%s, mean and 95%% CI)",
	         lab_an_point_unit(d, n ? sp[0].pt : NULL));
	fputs("set logscale x 2\nset xlabel 'stride (bytes)'\nset ylabel ", f);
	lab_an_gp_str(f, other);
	fputs("\nplot ", f);
	for (size_t i = 0, b = 0; i < n; i++) {
		if (i && sp[i].pt->threads == sp[i - 1].pt->threads)
			continue;
		fprintf(f,
		        "%s'%s.dat' index %zu using 1:3:4:5 with yerrorlines pt 7 title "
		        "'%d threads'",
		        b ? ", " : "", base, b, sp[i].pt->threads);
		b++;
	}
	if (!n)
		fputs("0 notitle", f);
	fputc('\n', f);
	lab_an_gp_tail(f, base);
	if (!(rc = lab_an_close(f, base, err)))
		rc = lab_an_plot_add(out, base);
out:
	free(sp);
	return rc;
}

int lab_an_stride_plots(const struct lab_an_analysis *a, const struct lab_an_pdir *pdir,
                        struct lab_an_plots *out, struct lab_an_err *err)
{
	const struct lab_an_data *d = a->data;
	char **done = calloc(d->npt + 1, sizeof(*done));
	size_t ndone = 0;
	int rc = 0;

	if (!done)
		return lab_an_err_set(err, LAB_AN_ENOMEM, "out of memory");
	for (size_t i = 0; i < d->npt && !rc; i++) {
		const struct lab_an_point *p = &d->pt[i];
		char rest[512], *key;
		int seen = 0;

		if (!isfinite(an_stride_of(p)) || !p->st.n)
			continue;
		an_strip_stride(p->params, rest, sizeof(rest));
		key = lab_an_asprintf("%s\n%s", p->experiment, rest);
		if (!key) {
			rc = lab_an_err_set(err, LAB_AN_ENOMEM, "out of memory");
			break;
		}
		for (size_t j = 0; j < ndone && !seen; j++)
			seen = !strcmp(done[j], key);
		if (seen) {
			free(key);
			continue;
		}
		done[ndone++] = key;
		rc = an_stride_chart(d, p->experiment, rest, ndone, pdir, out, err);
	}
	for (size_t j = 0; j < ndone; j++)
		free(done[j]);
	free(done);
	return rc;
}
