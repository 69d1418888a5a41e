/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The roofline view: ceilings from the run's own bandwidth and compute points, the other points
 * placed under them (roofline.h). Output in roofline_out.c, the plot in roofline_plot.c. */
#include "analyze/views/roofline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/rates.h"
#include "analyze/units.h"
#include "analyze/views/view.h"

static int an_cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void lab_an_rl_rate(const struct lab_an_point *p, double work, int inc, double *v, double *lo,
                    double *hi)
{
	double *c = malloc((p->n ? p->n : 1) * sizeof(*c)), clo, chi;
	size_t n = 0;

	*v = *lo = *hi = NAN;
	if (p->st.n && p->st.median > 0)
		*v = work / p->st.median;
	for (size_t i = 0; c && i < p->n; i++)
		if ((inc || !p->flagged[i]) && isfinite(p->cost[i]))
			c[n++] = p->cost[i];
	if (c && n) {
		qsort(c, n, sizeof(*c), an_cmp_dbl);
		if (!lab_an_median_ci(c, n, 0.95, &clo, &chi) && chi > 0) {
			*lo = work / chi;
			*hi = clo > 0 ? work / clo : INFINITY;
		}
	}
	free(c);
}

static int an_rl_applies(const struct lab_an_data *d, const struct lab_an_point *p)
{
	return lab_an_view_declared(d, p->experiment, "roofline") == 1;
}

/* The cache level of a working set of size bytes ("L1".."L4", "DRAM"), NULL when run.json
 * records no cache sizes. */
static const char *an_level(const struct lab_an_data *d, double size)
{
	static const char *const names[] = {"L1", "L2", "L3", "L4"};
	const struct lab_an_json *host = lab_an_json_get(d->run, "host");
	const struct lab_an_json *topo = lab_an_json_get(host, "topology");
	const struct lab_an_json *c = lab_an_json_get(topo, "caches");
	double best = INFINITY;
	int lvl = 0;

	if (!c || c->type != LAB_AN_JSON_ARR || !c->n || !isfinite(size))
		return NULL;
	for (size_t i = 0; i < c->n; i++) {
		double l = lab_an_json_num(&c->items[i], "level", 0);
		double s = lab_an_json_num(&c->items[i], "size", 0);

		if (l >= 1 && l <= 4 && s > 0 && size <= s && l < best) {
			best = l;
			lvl = (int)l;
		}
	}
	return lvl ? names[lvl - 1] : "DRAM";
}

static void an_param(const struct lab_an_point *p, const char *key, const char *alt, char *buf,
                     size_t len)
{
	if (!lab_an_params_get(p->params, key, buf, len) &&
	    (!alt || !lab_an_params_get(p->params, alt, buf, len)))
		buf[0] = 0;
}

static void an_rl_free(void *state)
{
	struct lab_an_rl *s = state;

	for (size_t i = 0; s && i < s->nc; i++) {
		free(s->c[i].name);
		free(s->c[i].group);
	}
	if (s) {
		free(s->c);
		free(s->p);
	}
	free(s);
}

/* The group key of a ceiling source (size text, or "isa precision"), into buf. */
static void an_group(const struct lab_an_point *p, int kind, char *buf, size_t len)
{
	char isa[64], prec[32];

	if (kind == LAB_AN_RL_BW) {
		an_param(p, "size", NULL, buf, len);
		return;
	}
	an_param(p, "isa", NULL, isa, sizeof(isa));
	an_param(p, "precision", "type", prec, sizeof(prec));
	snprintf(buf, len, "%s%s%s", *isa ? isa : "any", *prec ? " " : "", prec);
}

struct an_src {
	const struct lab_an_point *pt;
	int kind;
	double v, lo, hi;
	char g[128]; /* its group (an_group), computed once */
};

/* Adds the ceiling of group g (sources of one kind and group) at threads t, if any ran there. */
static int an_add_ceil(const struct lab_an_data *d, struct lab_an_rl *s, const struct an_src *src,
                       size_t n, const char *g, int kind, int t)
{
	const struct an_src *best = NULL;
	char buf[64];
	struct lab_an_rl_ceil *c;
	const char *lvl;

	for (size_t i = 0; i < n; i++)
		if (src[i].kind == kind && src[i].pt->threads == t && !strcmp(src[i].g, g) &&
		    (!best || src[i].v > best->v))
			best = &src[i];
	if (!best)
		return 0;
	c = &s->c[s->nc];
	c->kind = kind;
	c->threads = t;
	c->value = best->v;
	c->lo = best->lo;
	c->hi = best->hi;
	c->pt = best->pt;
	c->size = NAN;
	if (kind == LAB_AN_RL_BW) {
		c->size = lab_an_size_bytes(g);
		lvl = an_level(d, c->size);
		c->name = lvl ? lab_an_asprintf("%s %s", lvl, g) : lab_an_strdup(g);
	} else {
		an_param(best->pt, "precision", "type", buf, sizeof(buf));
		snprintf(c->precision, sizeof(c->precision), "%.15s", buf);
		c->name = lab_an_strdup(g);
	}
	c->group = lab_an_strdup(g);
	s->nc++;
	return c->name && c->group ? 0 : -LAB_ENOMEM;
}

/* The ceilings: per kind and group, at 1 thread and at the group's largest team. */
static int an_ceilings(const struct lab_an_data *d, struct lab_an_rl *s, const struct an_src *src,
                       size_t n)
{
	int rc = 0;

	for (size_t i = 0; i < n && !rc; i++) {
		int seen = 0, tmax = 1;

		for (size_t j = 0; j < i && !seen; j++)
			seen = src[j].kind == src[i].kind && !strcmp(src[i].g, src[j].g);
		if (seen)
			continue;
		for (size_t j = i; j < n; j++)
			if (src[j].kind == src[i].kind && !strcmp(src[i].g, src[j].g) &&
			    src[j].pt->threads > tmax)
				tmax = src[j].pt->threads;
		rc = an_add_ceil(d, s, src, n, src[i].g, src[i].kind, 1);
		if (!rc && tmax > 1)
			rc = an_add_ceil(d, s, src, n, src[i].g, src[i].kind, tmax);
	}
	return rc;
}

/* 1 when bandwidth ceiling c fits a point of size bytes better than cur: the smallest
 * measured size that holds the point, else (past them all, or no size) the largest. */
static int an_better_bw(const struct lab_an_rl_ceil *c, const struct lab_an_rl_ceil *cur,
                        double size)
{
	int holds, cur_holds;

	if (!cur)
		return 1;
	holds = isfinite(size) && c->size >= size;
	cur_holds = isfinite(size) && cur->size >= size;
	if (holds != cur_holds)
		return holds;
	return holds ? c->size < cur->size : c->size > cur->size;
}

/* The roofs of point e at its thread count (roofline.h). */
static void an_place(const struct lab_an_rl *s, struct lab_an_rl_pt *e)
{
	char prec[32];
	int any_prec = 0;

	an_param(e->pt, "type", "precision", prec, sizeof(prec));
	for (size_t i = 0; i < s->nc; i++)
		any_prec |= s->c[i].kind == LAB_AN_RL_COMPUTE &&
		            s->c[i].threads == e->pt->threads && *prec &&
		            !strcmp(s->c[i].precision, prec);
	for (size_t i = 0; i < s->nc; i++) {
		const struct lab_an_rl_ceil *c = &s->c[i];

		if (c->threads != e->pt->threads || !(c->value > 0))
			continue;
		if (c->kind == LAB_AN_RL_COMPUTE) {
			if ((!any_prec || !strcmp(c->precision, prec)) &&
			    (!e->cp || c->value > e->cp->value))
				e->cp = c;
			continue;
		}
		if (an_better_bw(c, e->bw, e->size))
			e->bw = c;
	}
	e->roof = NAN;
	if (e->bw) {
		e->roof = e->bw->value * e->intensity;
		e->binds = e->bw;
	}
	if (e->cp && !(e->roof <= e->cp->value)) {
		e->roof = e->cp->value;
		e->binds = e->cp;
	}
	e->fraction = e->roof > 0 ? e->gflops / e->roof : NAN;
}

static void an_tcounts(struct lab_an_rl *s)
{
	for (size_t i = 0; i < s->nc; i++) {
		size_t k = 0;

		while (k < s->nt && s->tcount[k] < s->c[i].threads)
			k++;
		if ((k < s->nt && s->tcount[k] == s->c[i].threads) || s->nt == 16)
			continue;
		memmove(&s->tcount[k + 1], &s->tcount[k], (s->nt - k) * sizeof(int));
		s->tcount[k] = s->c[i].threads;
		s->nt++;
	}
}

/* Sorts the points into ceiling sources and placed points. */
static size_t an_sources(const struct lab_an_data *d, int inc, struct lab_an_rl *s,
                         struct an_src *src)
{
	size_t hint[2] = {0, 0}, n = 0;
	char buf[64];

	for (size_t i = 0; i < d->npt; i++) {
		const struct lab_an_point *p = &d->pt[i];
		struct lab_an_rates r;

		if (!p->st.n || strcmp(p->status, "ok") || !an_rl_applies(d, p))
			continue;
		lab_an_rates_compute(d, p, &r, hint);
		if (!r.has || (r.bytes <= 0 && r.flops <= 0))
			continue;
		if (r.bytes <= 0 || r.flops <= 0) {
			src[n].pt = p;
			src[n].kind = r.flops > 0 ? LAB_AN_RL_COMPUTE : LAB_AN_RL_BW;
			lab_an_rl_rate(p, r.flops > 0 ? r.flops : r.bytes, inc, &src[n].v,
			               &src[n].lo, &src[n].hi);
			an_group(p, src[n].kind, src[n].g, sizeof(src[n].g));
			n += isfinite(src[n].v) && src[n].v > 0;
			continue;
		}
		struct lab_an_rl_pt *e = &s->p[s->np++];

		e->pt = p;
		e->intensity = r.flops / r.bytes;
		e->intensity_wa = r.flops / r.bytes_wa;
		lab_an_rl_rate(p, r.flops, inc, &e->gflops, &e->lo, &e->hi);
		an_param(p, "size", NULL, buf, sizeof(buf));
		e->size = *buf ? lab_an_size_bytes(buf) : NAN;
	}
	return n;
}

static int an_rl_compute(const struct lab_an_data *d, int inc, void **state, struct lab_err *err)
{
	struct lab_an_rl *s = calloc(1, sizeof(*s));
	struct an_src *src = calloc(d->npt + 1, sizeof(*src));
	size_t n;
	int rc = 0;

	*state = NULL;
	if (!s || !src || !(s->c = calloc(2 * d->npt + 1, sizeof(*s->c))) ||
	    !(s->p = calloc(d->npt + 1, sizeof(*s->p)))) {
		free(src);
		an_rl_free(s);
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	}
	n = an_sources(d, inc, s, src);
	rc = an_ceilings(d, s, src, n);
	free(src);
	if (rc) {
		an_rl_free(s);
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	}
	an_tcounts(s);
	for (size_t i = 0; i < s->np; i++)
		an_place(s, &s->p[i]);
	if (!s->nc && !s->np) {
		an_rl_free(s);
		return 0;
	}
	*state = s;
	return 0;
}

static const char *an_rl_experiment(const void *state, size_t i)
{
	(void)state;
	(void)i;
	return NULL; /* one document across experiments: analysis.json's top-level "roofline" */
}

const struct lab_an_view lab_an_view_roofline = {
    .name = "roofline",
    .applies = an_rl_applies,
    .compute = an_rl_compute,
    .free = an_rl_free,
    .experiment = an_rl_experiment,
    .json_top = lab_an_rl_json,
    .text = lab_an_rl_text,
    .html = lab_an_rl_html,
    .plots = lab_an_rl_plots,
};
