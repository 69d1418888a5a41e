/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The roofline view: ceilings from the run's own bandwidth and compute points, the other points
 * placed under them (roofline.h). Output in roofline_out.c, the plot in roofline_plot.c. */
#include "analyze/views/roofline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
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

static const char *const an_level_names[] = {"", "L1", "L2", "L3", "L4", "DRAM"};

/* The cache level of a working set of size bytes: 1..4, 5 for DRAM, 0 when run.json records
 * no cache sizes or there is no size. */
static int an_level(const struct lab_an_data *d, double size)
{
	const struct lab_an_json *host = lab_an_json_get(d->run, "host");
	const struct lab_an_json *topo = lab_an_json_get(host, "topology");
	const struct lab_an_json *c = lab_an_json_get(topo, "caches");
	double best = INFINITY;
	int lvl = 0;

	if (!c || c->type != LAB_AN_JSON_ARR || !c->n || !isfinite(size))
		return 0;
	for (size_t i = 0; i < c->n; i++) {
		double l = lab_an_json_num(&c->items[i], "level", 0);
		double s = lab_an_json_num(&c->items[i], "size", 0);

		if (l >= 1 && l <= 4 && s > 0 && size <= s && l < best) {
			best = l;
			lvl = (int)l;
		}
	}
	return lvl ? lvl : 5;
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
	for (size_t i = 0; s && i < s->npipes; i++)
		free(s->pipes[i]);
	if (s) {
		free(s->c);
		free(s->p);
		free(s->pipes);
	}
	free(s);
}

/* The group key of a ceiling source (cache level, else size text; or "isa precision"), into
 * buf. */
static void an_group(const struct lab_an_data *d, const struct lab_an_point *p, int kind, char *buf,
                     size_t len)
{
	char isa[64], prec[32];
	int lvl;

	if (kind == LAB_AN_RL_BW) {
		an_param(p, "size", NULL, buf, len);
		lvl = *buf ? an_level(d, lab_an_size_bytes(buf)) : 0;
		if (lvl)
			snprintf(buf, len, "%s", an_level_names[lvl]);
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
	c->level = 0;
	if (kind == LAB_AN_RL_BW) {
		an_param(best->pt, "size", NULL, buf, sizeof(buf));
		c->size = *buf ? lab_an_size_bytes(buf) : NAN;
		c->level = an_level(d, c->size);
		c->name = c->level ? lab_an_asprintf("%s %s", an_level_names[c->level], buf)
		                   : lab_an_strdup(buf);
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

/* The bandwidth ceiling of point e at its thread count (roofline.h): the one of its cache
 * level, or by size without levels; NULL when its level has none. *slower is set to the best
 * ceiling of a slower level (a lower bound of the missing one), NULL when none. */
static const struct lab_an_rl_ceil *an_bw_of(const struct lab_an_rl *s,
                                             const struct lab_an_rl_pt *e,
                                             const struct lab_an_rl_ceil **slower)
{
	const struct lab_an_rl_ceil *bw = NULL;

	*slower = NULL;
	for (size_t i = 0; i < s->nc; i++) {
		const struct lab_an_rl_ceil *c = &s->c[i];

		if (c->kind != LAB_AN_RL_BW || c->threads != e->pt->threads || !(c->value > 0))
			continue;
		if (!e->level || !c->level) {
			if (an_better_bw(c, bw, e->size))
				bw = c;
		} else if (c->level == e->level) {
			bw = c;
		} else if (c->level > e->level && (!*slower || c->value > (*slower)->value)) {
			*slower = c;
		}
	}
	return bw;
}

/* The note of a point above its roof: the likely reason the ceiling does not bound it. */
static void an_above_note(struct lab_an_rl_pt *e)
{
	const struct lab_an_rl_ceil *c = e->binds;
	int n;

	e->above = 1;
	n = snprintf(e->note, sizeof(e->note),
	             "above its roof (%.0f%% of %s %s, measured by %s %s): ", 100 * e->fraction,
	             c->kind == LAB_AN_RL_BW ? "bandwidth" : "compute", c->name, c->pt->experiment,
	             c->pt->params);
	if (n < 0 || (size_t)n >= sizeof(e->note))
		return;
	if (c->kind == LAB_AN_RL_COMPUTE)
		snprintf(e->note + n, sizeof(e->note) - (size_t)n,
		         "that ceiling was measured below what the machine does (a narrower ISA, "
		         "fewer independent chains); measure peak with the point's ISA");
	else if (e->bandwidth_bound == 0)
		snprintf(
		    e->note + n, sizeof(e->note) - (size_t)n,
		    "the kernel is not bandwidth-bound, so its declared bytes are not what it "
		    "moves (reused lines, random accesses): its intensity is not its position");
	else
		snprintf(e->note + n, sizeof(e->note) - (size_t)n,
		         "its data sits in a faster level than its size says, or the level's "
		         "bandwidth kernels were measured in other conditions");
}

/* The roofs of point e at its thread count (roofline.h). */
static void an_place(const struct lab_an_rl *s, struct lab_an_rl_pt *e)
{
	const struct lab_an_rl_ceil *slower;
	char prec[32];
	int any_prec = 0;

	an_param(e->pt, "type", "precision", prec, sizeof(prec));
	for (size_t i = 0; i < s->nc; i++)
		any_prec |= s->c[i].kind == LAB_AN_RL_COMPUTE &&
		            s->c[i].threads == e->pt->threads && *prec &&
		            !strcmp(s->c[i].precision, prec);
	for (size_t i = 0; i < s->nc; i++) {
		const struct lab_an_rl_ceil *c = &s->c[i];

		if (c->kind == LAB_AN_RL_COMPUTE && c->threads == e->pt->threads && c->value > 0 &&
		    (!any_prec || !strcmp(c->precision, prec)) &&
		    (!e->cp || c->value > e->cp->value))
			e->cp = c;
	}
	e->bw = an_bw_of(s, e, &slower);
	e->roof = e->fraction = NAN;
	e->binds = NULL;
	if (e->bw) {
		e->roof = e->bw->value * e->intensity;
		e->binds = e->bw;
	}
	/* Without its bandwidth ceiling, compute binds only where a slower level's ceiling (a
	 * lower bound of the missing one) already reaches it: the ridge is not known. */
	if (e->cp && (e->bw ? !(e->roof <= e->cp->value)
	                    : slower && slower->value * e->intensity >= e->cp->value)) {
		e->roof = e->cp->value;
		e->binds = e->cp;
	}
	if (!e->binds) {
		snprintf(e->note, sizeof(e->note),
		         "roof not measured: no bandwidth ceiling%s%s at %d thread%s (run a "
		         "bandwidth-bound kernel at a size in that level)",
		         e->level ? " for " : "", e->level ? an_level_names[e->level] : "",
		         e->pt->threads, e->pt->threads == 1 ? "" : "s");
		return;
	}
	e->fraction = e->gflops / e->roof;
	if (e->fraction > 1 + 1e-9)
		an_above_note(e);
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
		/* A bandwidth source: declared bandwidth-bound, or (older results) bytes alone. */
		if (r.bytes > 0 ? r.bandwidth_bound == 1 || (r.bandwidth_bound < 0 && r.flops <= 0)
		                : r.flops > 0) {
			src[n].pt = p;
			src[n].kind = r.bytes > 0 ? LAB_AN_RL_BW : LAB_AN_RL_COMPUTE;
			lab_an_rl_rate(p, r.bytes > 0 ? r.bytes : r.flops, inc, &src[n].v,
			               &src[n].lo, &src[n].hi);
			an_group(d, p, src[n].kind, src[n].g, sizeof(src[n].g));
			n += isfinite(src[n].v) && src[n].v > 0;
		}
		if (r.bytes <= 0 || r.flops <= 0)
			continue;
		struct lab_an_rl_pt *e = &s->p[s->np++];

		e->pt = p;
		e->intensity = r.flops / r.bytes;
		e->intensity_wa = r.flops / r.bytes_wa;
		lab_an_rl_rate(p, r.flops, inc, &e->gflops, &e->lo, &e->hi);
		an_param(p, "size", NULL, buf, sizeof(buf));
		e->size = *buf ? lab_an_size_bytes(buf) : NAN;
		e->level = an_level(d, e->size);
		e->bandwidth_bound = r.bandwidth_bound;
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
	if (!rc)
		rc = lab_an_rl_pipes(d, inc, s);
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

/* Until the view describes itself (view.h): its hooks without the view. */
static int an_view_applies(const struct lab_an_view *v, const struct lab_an_data *d,
                           const struct lab_an_point *p)
{
	(void)v;
	return an_rl_applies(d, p);
}

static int an_view_compute(const struct lab_an_view *v, const struct lab_an_analysis *a,
                           void **state, struct lab_err *err)
{
	(void)v;
	return an_rl_compute(a->data, a->include_flagged, state, err);
}

const struct lab_an_view lab_an_view_roofline = {
    .name = "roofline",
    .applies = an_view_applies,
    .compute = an_view_compute,
    .free = an_rl_free,
    .experiment = an_rl_experiment,
    .json_top = lab_an_rl_json,
    .text = lab_an_rl_text,
    .html = lab_an_rl_html,
    .plots = lab_an_rl_plots,
};
