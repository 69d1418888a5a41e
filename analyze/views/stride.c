/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Cost vs stride, one line per thread count: the false-sharing chart of ch25 (cost drops once
 * the stride puts each thread's counter on its own cache line). The view of kernels that declare
 * "stride"; in files without views, of every experiment with a `stride` param.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "analyze/render/doc.h"
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

/* Declared by the run, or (files without views) any point with a numeric stride param. */
static int an_stride_applies(const struct lab_an_view *v, const struct lab_an_data *d,
                             const struct lab_an_point *p)
{
	int decl = lab_an_view_declared(d, p->experiment, v->name);

	return decl >= 0 ? decl && isfinite(an_stride_of(p)) : isfinite(an_stride_of(p));
}

/* One chart per (experiment, params without stride), in first-seen order; its points by
 * threads, then stride. */
struct an_sgroup {
	const char *exp;
	char rest[512], unit[160];
	struct an_sp *sp;
	size_t n, cap;
};

struct an_stride {
	struct an_sgroup *g;
	size_t n, cap;
};

static void an_stride_free(void *state)
{
	struct an_stride *s = state;

	for (size_t i = 0; s && i < s->n; i++)
		free(s->g[i].sp);
	if (s)
		free(s->g);
	free(s);
}

static int an_stride_add(struct an_stride *s, const struct lab_an_data *d,
                         const struct lab_an_point *p)
{
	struct an_sgroup *g = NULL;
	char rest[512];

	an_strip_stride(p->params, rest, sizeof(rest));
	for (size_t j = 0; j < s->n && !g; j++)
		if (!strcmp(s->g[j].exp, p->experiment) && !strcmp(s->g[j].rest, rest))
			g = &s->g[j];
	if (!g) {
		if (lab_an_grow(&s->g, &s->cap, s->n + 1, sizeof(*s->g)))
			return -LAB_ENOMEM;
		g = memset(&s->g[s->n++], 0, sizeof(*g));
		g->exp = p->experiment;
		snprintf(g->rest, sizeof(g->rest), "%s", rest);
		lab_an_cost_label(d, p, g->unit, sizeof(g->unit));
	}
	if (lab_an_grow(&g->sp, &g->cap, g->n + 1, sizeof(*g->sp)))
		return -LAB_ENOMEM;
	g->sp[g->n++] = (struct an_sp){p, an_stride_of(p)};
	return 0;
}

/* The points' statistics already honour a->include_flagged. */
static int an_stride_compute(const struct lab_an_view *v, const struct lab_an_analysis *a,
                             void **state, struct lab_err *err)
{
	const struct lab_an_data *d = a->data;
	struct an_stride *s = calloc(1, sizeof(*s));
	int rc = s ? 0 : -LAB_ENOMEM;

	*state = NULL;
	for (size_t i = 0; i < d->npt && !rc; i++)
		if (d->pt[i].st.n && an_stride_applies(v, d, &d->pt[i]))
			rc = an_stride_add(s, d, &d->pt[i]);
	if (rc || !s->n) {
		an_stride_free(s);
		return rc ? lab_err_set(err, LAB_ENOMEM, "out of memory") : 0;
	}
	for (size_t i = 0; i < s->n; i++)
		qsort(s->g[i].sp, s->g[i].n, sizeof(*s->g[i].sp), an_cmp_sp);
	*state = s;
	return 0;
}

/* Per chart: a table (threads, stride, cost) and the figure, one curve per thread count. */
static int an_stride_describe(const struct lab_an_view *v, const void *state, struct lab_doc *doc)
{
	const struct an_stride *s = state;

	(void)v;
	doc->title = "Cost vs stride";
	lab_doc_about(doc,
	              "The cost per unit of work against the stride between the threads' "
	              "counters, one curve per thread count: the cost drops once the stride puts "
	              "each thread's counter on its own cache line. Cost: median, and the mean "
	              "with its 95 % t-interval over the used samples.",
	              NULL);
	for (size_t i = 0; i < s->n; i++) {
		const struct an_sgroup *g = &s->g[i];
		struct lab_doc_section *sec = lab_doc_section(doc, g->exp, g->rest);
		struct lab_doc_table *t = lab_doc_table(sec, "points", NULL);
		struct lab_doc_figure *f = lab_doc_figure(
		    sec, "stride", lab_doc_printf(doc, "%s: cost vs stride", g->exp),
		    "stride (bytes)", lab_doc_printf(doc, "cost (%s; mean and 95%% CI)", g->unit));
		struct lab_doc_curve *c = NULL;

		if (f)
			f->logx = 2;
		lab_doc_col(t, "threads", NULL, LAB_DOC_KEY);
		lab_doc_col(t, "stride", "bytes", LAB_DOC_KEY);
		lab_doc_col(t, "cost", g->unit, LAB_DOC_INTERVAL);
		for (size_t k = 0; k < g->n; k++) {
			const struct lab_an_point *p = g->sp[k].pt;

			if (!k || p->threads != g->sp[k - 1].pt->threads) {
				c = lab_doc_curve(f,
				                  lab_doc_printf(doc, "%d thread%s", p->threads,
				                                 p->threads == 1 ? "" : "s"),
				                  LAB_DOC_LINES);
				if (c)
					c->color = (int)f->nc - 1;
			}
			lab_doc_row(t);
			lab_doc_str(doc, lab_doc_at(t, 0), lab_doc_printf(doc, "%d", p->threads));
			lab_doc_str(doc, lab_doc_at(t, 1),
			            lab_doc_printf(doc, "%.9g", g->sp[k].stride));
			lab_doc_ival(lab_doc_at(t, 2), p->st.median, p->st.mean, p->st.ci95_lo,
			             p->st.ci95_hi, p->st.n);
			lab_doc_point(c, g->sp[k].stride, p->st.mean, p->st.ci95_lo, p->st.ci95_hi);
		}
	}
	return lab_doc_failed(doc) ? -LAB_ENOMEM : 0;
}

const struct lab_an_view lab_an_view_stride = {
    .name = "stride",
    .applies = an_stride_applies,
    .compute = an_stride_compute,
    .free = an_stride_free,
    .describe = an_stride_describe,
};
