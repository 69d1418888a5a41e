/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The roofline view (roofline.h; its numbers in roofline_roofs.c) as one section that spans
 * experiments: the ceilings, the points under them, findings, one figure per thread count. */
#include "analyze/views/roofline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "analyze/flagged.h"
#include "analyze/render/doc.h"
#include "analyze/views/view.h"

/* The most points of one plot that are labelled on it. */
#define AN_RL_LABELS 8

static void an_rl_free(void *state)
{
	struct lab_an_rl *s = state;

	if (s) {
		free(s->pipes);
		for (size_t i = 0; i < s->nc; i++)
			free(s->c[i].note);
		free(s->c);
		free(s->p);
	}
	free(s);
}

static int an_rl_compute(const struct lab_an_view *v, const struct lab_an_analysis *a, void **state,
                         struct lab_err *err)
{
	const struct lab_an_data *d = a->data;
	struct lab_an_rl *s = calloc(1, sizeof(*s));
	int rc = -LAB_ENOMEM;

	(void)v;
	*state = NULL;
	if (s && (s->c = calloc(d->npt + 1, sizeof(*s->c))) &&
	    (s->p = calloc(d->npt + 1, sizeof(*s->p))) &&
	    (s->pipes = calloc(d->npt + 1, sizeof(*s->pipes))))
		rc = lab_an_rl_roofs(d, a->include_flagged, s);
	if (rc == 0)
		lab_an_rl_levels_note(d, s->levels, sizeof(s->levels));
	if (rc || (!s->nc && !s->np)) {
		an_rl_free(s);
		return rc ? lab_err_set(err, LAB_ENOMEM, "out of memory") : 0;
	}
	*state = s;
	return 0;
}

/* A row's note: samples the load guard left out or kept in p, then note (NULL or "": none). */
static void an_rl_rnote(struct lab_doc_table *t, const struct lab_an_point *p, const char *note)
{
	char fl[96];
	const char *m = lab_an_flagged_mark(p, fl, sizeof(fl));
	int has = note && *note;

	if (m || has)
		lab_doc_rnote(t, "%s%s%s", m ? m : "", m && has ? "; " : "", has ? note : "");
}

/* A rate's cell: the median's interval, or with two or more runs the run means' (of the mean). */
static void an_rl_ival(struct lab_doc_cell *c, const struct lab_an_rl_val *v)
{
	if (v->runs)
		lab_doc_ival(c, v->median, v->mean, v->lo, v->hi, v->n);
	else
		lab_doc_ival_median(c, v->median, v->mean, v->lo, v->hi, v->n);
}

static void an_ceils_doc(struct lab_doc *doc, struct lab_doc_section *sec,
                         const struct lab_an_rl *s)
{
	struct lab_doc_table *t = lab_doc_table(
	    sec, "ceilings",
	    "Roofline: ceilings measured by this run (best median, 95% CI of the median, or of "
	    "the mean over run means)");

	lab_doc_col(t, "kind", NULL, LAB_DOC_KEY);
	lab_doc_col(t, "name", NULL, LAB_DOC_KEY);
	lab_doc_col(t, "threads", NULL, LAB_DOC_COUNT);
	lab_doc_col(t, "value", NULL, LAB_DOC_INTERVAL);
	lab_doc_col(t, "unit", NULL, LAB_DOC_TEXT);
	lab_doc_col(t, "by_experiment", NULL, LAB_DOC_TEXT);
	lab_doc_col(t, "by_params", NULL, LAB_DOC_TEXT);
	for (size_t i = 0; i < s->nc; i++) {
		const struct lab_an_rl_ceil *c = &s->c[i];
		int bw = c->kind == LAB_AN_RL_BW;

		lab_doc_row(t);
		lab_doc_str(doc, lab_doc_at(t, 0), bw ? "bandwidth" : "compute");
		lab_doc_str(doc, lab_doc_at(t, 1), c->name);
		lab_doc_num(lab_doc_at(t, 2), c->threads);
		an_rl_ival(lab_doc_at(t, 3), &c->v);
		lab_doc_str(doc, lab_doc_at(t, 4), bw ? "GB/s" : "GFLOP/s");
		lab_doc_str(doc, lab_doc_at(t, 5), c->pt->experiment);
		lab_doc_str(doc, lab_doc_at(t, 6), c->pt->params);
		an_rl_rnote(t, c->pt, c->note);
	}
}

/* The placed points; one above its roof has its fraction marked and a finding with the reason. */
static void an_points_doc(struct lab_doc *doc, struct lab_doc_section *sec,
                          const struct lab_an_rl *s)
{
	struct lab_doc_table *t = lab_doc_table(
	    sec, "points",
	    "Roofline: points (intensity = flops / bytes read+written, write-allocate not counted; "
	    "intensity_wa counts it)");

	lab_doc_col(t, "point_experiment", NULL, LAB_DOC_KEY);
	lab_doc_col(t, "point_params", NULL, LAB_DOC_KEY);
	lab_doc_col(t, "threads", NULL, LAB_DOC_COUNT);
	lab_doc_col(t, "intensity", "flop/B", LAB_DOC_VALUE);
	lab_doc_col(t, "intensity_wa", "flop/B", LAB_DOC_VALUE);
	lab_doc_col(t, "gflops_per_s", "GFLOP/s", LAB_DOC_INTERVAL);
	lab_doc_col(t, "roof_kind", NULL, LAB_DOC_TEXT);
	lab_doc_col(t, "roof", NULL, LAB_DOC_TEXT);
	lab_doc_col(t, "roof_gflops_per_s", "GFLOP/s", LAB_DOC_VALUE);
	lab_doc_col(t, "fraction", NULL, LAB_DOC_RATIO);
	for (size_t i = 0; i < s->np; i++) {
		const struct lab_an_rl_pt *e = &s->p[i];
		int th = e->pt->threads;

		lab_doc_row(t);
		lab_doc_str(doc, lab_doc_at(t, 0), e->pt->experiment);
		lab_doc_str(doc, lab_doc_at(t, 1), e->pt->params);
		lab_doc_num(lab_doc_at(t, 2), th);
		lab_doc_num(lab_doc_at(t, 3), e->intensity);
		lab_doc_num(lab_doc_at(t, 4), e->intensity_wa);
		an_rl_ival(lab_doc_at(t, 5), &e->gf);
		if (e->binds) {
			lab_doc_str(doc, lab_doc_at(t, 6),
			            e->binds->kind == LAB_AN_RL_BW ? "bandwidth" : "compute");
			lab_doc_str(doc, lab_doc_at(t, 7), e->binds->name);
		} else
			lab_doc_why(doc, lab_doc_at(t, 6), "roof not measured at %d thread%s", th,
			            th == 1 ? "" : "s");
		lab_doc_num(lab_doc_at(t, 8), e->roof);
		lab_doc_num(lab_doc_at(t, 9), e->fraction);
		an_rl_rnote(t, e->pt, e->note);
		if (e->above)
			lab_doc_cnote(doc, lab_doc_at(t, 9), "above its roof");
	}
	for (size_t i = 0; i < s->np; i++)
		if (s->p[i].above)
			lab_doc_finding(sec, LAB_DOC_INFO, NULL, "%s %s (%d thr): %s",
			                s->p[i].pt->experiment, s->p[i].pt->params,
			                s->p[i].pt->threads, s->p[i].note);
}

/* Whether the points of s at t that are drawn all have param item (len bytes of "key=value"):
 * said by the figure's other labels, not by each (four labels of 2 threads were alike up to the
 * 64 bytes a legend entry keeps, the size past them, plots43). */
static int an_shared(const struct lab_an_rl *s, int t, const char *item, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < s->np; i++) {
		const struct lab_an_rl_pt *e = &s->p[i];

		if (e->pt->threads != t || !(e->gf.median > 0) || !(e->intensity > 0))
			continue;
		if (!lab_an_params_has(e->pt->params, item, len))
			return 0;
		n++;
	}
	return n >= 2; /* a point alone keeps its params */
}

/* Point e's label among the points of s at t: its experiment and the params that differ. */
static void an_label(const struct lab_an_rl *s, int t, const struct lab_an_rl_pt *e, char *buf,
                     size_t len)
{
	size_t k = (size_t)snprintf(buf, len, "%s", e->pt->experiment);

	for (const char *q = e->pt->params; q && *q && k < len;
	     q = strchr(q, ';') ? strchr(q, ';') + 1 : "") {
		size_t n = strcspn(q, ";");

		if (n && !an_shared(s, t, q, n))
			k += (size_t)snprintf(buf + k, len - k, " %.*s", (int)n, q);
	}
}

/* The figure at t: bandwidth roofs y = min(compute, bw x), flat compute roofs, the points with
 * their intervals, each labelled "experiment params"; x spans the points and the ridges, with
 * room for the labels. */
static void an_figure_doc(struct lab_doc *doc, struct lab_doc_section *sec,
                          const struct lab_an_rl *s, int t)
{
	struct lab_doc_figure *f = lab_doc_figure(
	    sec, lab_doc_printf(doc, "%dt", t),
	    lab_doc_printf(doc, "Roofline, %d thread%s: measured ceilings", t, t == 1 ? "" : "s"),
	    "flops per byte (read + written; write-allocate not counted)", "GFLOP/s");
	struct lab_doc_curve *c;
	double cmax = NAN, lo = INFINITY, hi = 0;
	int k = 0;
	size_t npt = 0;

	double bmax = NAN;

	for (size_t i = 0; i < s->nc; i++) {
		if (s->c[i].threads == t && s->c[i].kind == LAB_AN_RL_COMPUTE &&
		    !(s->c[i].v.median <= cmax))
			cmax = s->c[i].v.median;
		if (s->c[i].threads == t && s->c[i].kind == LAB_AN_RL_BW &&
		    !(s->c[i].v.median <= bmax))
			bmax = s->c[i].v.median;
	}
	for (size_t i = 0; f && i < s->nc; i++) {
		const struct lab_an_rl_ceil *e = &s->c[i];
		int bw = e->kind == LAB_AN_RL_BW;

		if (e->threads != t || !(c = lab_doc_curve(f, e->name, LAB_DOC_ROOF)))
			continue;
		c->label = lab_doc_printf(doc, "%s: %.4g %s", e->name, e->v.median,
		                          bw ? "GB/s" : "GFLOP/s");
		c->dash = k++;
		/* a compute ceiling from where it meets the fastest memory roof: drawn across the
		 * whole x range, ten ceilings made a mesh, not a roof (plots40) */
		c->a = bw ? cmax : e->v.median;
		c->b = bw ? e->v.median : bmax > 0 ? bmax : NAN;
		lo = bw && cmax > 0 ? fmin(lo, cmax / e->v.median) : lo;
		hi = bw && cmax > 0 ? fmax(hi, cmax / e->v.median) : hi;
	}
	/* Labels only where they can be read: beyond AN_RL_LABELS points they cover each other (the
	 * points table names every point). */
	for (size_t i = 0; i < s->np; i++)
		npt += s->p[i].pt->threads == t && s->p[i].gf.median > 0 && s->p[i].intensity > 0;
	c = lab_doc_curve(f,
	                  npt > AN_RL_LABELS ? "points (median, 95% CI; named in the points table)"
	                                     : "points (median, 95% CI)",
	                  LAB_DOC_POINTS);
	for (size_t i = 0; c && i < s->np; i++) {
		const struct lab_an_rl_pt *e = &s->p[i];
		char label[200];

		if (e->pt->threads != t || !(e->gf.median > 0) || !(e->intensity > 0))
			continue;
		/* an interval open above as such: no bar (NaN kept its lower end, a bar up to the
		 * point read as bounded: plots38) */
		lab_doc_point(c, e->intensity, e->gf.median, e->gf.lo, e->gf.hi);
		if (npt <= AN_RL_LABELS) {
			an_label(s, t, e, label, sizeof(label));
			lab_doc_flabel(f, e->intensity, e->gf.median, label);
		}
		lo = fmin(lo, e->intensity);
		hi = fmax(hi, e->intensity);
	}
	if (!f)
		return;
	/* its points and ceilings that hold load-flagged samples (--include-flagged): said
	 * under the title, as every other view's figures say it (plots44) */
	size_t kept = 0;

	for (size_t i = 0; i < s->np; i++)
		kept += s->p[i].pt->threads == t && lab_an_flagged_kept(s->p[i].pt) > 0;
	for (size_t i = 0; i < s->nc; i++)
		kept += s->c[i].threads == t && s->c[i].pt && lab_an_flagged_kept(s->c[i].pt) > 0;
	lab_doc_flagged(f, kept);
	f->logx = f->logy = 10;
	f->xmin = hi > 0 ? lo / 4 : 0.0025;
	f->xmax = hi > 0 ? hi * 12 : 1200; /* the labels sit right of their points */
}

/* What the compute roofs are, said where it matters: with none measured, every point sits under
 * bandwidth alone (a scalar sum at its add pipes' limit in L1 read "11 % of the L1 roof"); with
 * some, a ceiling is the fastest op peak of its ISA and precision, where an FMA counts 2 flops,
 * so a loop of adds alone reaches about half of it (ch19's scalar sum sat at 0.47 of its roof
 * at 100 % of the add peak) unless an add peak of its own was measured. */
static void an_compute_notes(struct lab_doc_section *sec, const struct lab_an_rl *s)
{
	size_t compute = 0, mix = 0;

	for (size_t i = 0; i < s->nc; i++) {
		compute += s->c[i].kind == LAB_AN_RL_COMPUTE;
		mix += s->c[i].kind == LAB_AN_RL_COMPUTE && strstr(s->c[i].name, " fma+add");
	}
	if (!s->np)
		return;
	if (!compute)
		lab_doc_note(sec,
		             "no compute ceiling in this run (no point with flops and no bytes): "
		             "points sit under bandwidth alone, so a loop bound by its arithmetic "
		             "(an add chain, the add pipes) reads as far below a memory roof; "
		             "configs/ch19-roofline.ini's [compute] measures the peaks");
	else
		lab_doc_note(
		    sec,
		    "a compute ceiling is the fastest peak op measured of its ISA and "
		    "precision, an FMA counting 2 flops: a loop of adds alone (a sum) "
		    "reaches about half of an FMA ceiling, so it sits under the add peak "
		    "(peak op=add, \"adds\") of its ISA and precision where one was "
		    "measured%s",
		    mix ? "; a ceiling named fma+add is the mix of FMA and add chains (peak "
		          "op=fma_add), which only code that keeps both busy reaches"
		        : "");
}

static int an_rl_describe(const struct lab_an_view *v, const void *state, struct lab_doc *doc)
{
	const struct lab_an_rl *s = state;
	struct lab_doc_section *sec = lab_doc_section(doc, NULL, NULL);

	(void)v;
	doc->title = "Roofline";
	lab_doc_about(
	    doc,
	    "Ceilings measured by this run, not typed in: bandwidth from the best bandwidth-bound "
	    "kernel per cache level (per size without cache sizes), compute from points with flops "
	    "and no bytes (per ISA and precision); each at 1 thread and at the largest team. Every "
	    "other point sits at its intensity (flops per byte read + written, write-allocate not "
	    "counted) under min(compute, bandwidth x intensity) at its thread count. Far below it, "
	    "something else binds (latency, too few accumulators); above it is a finding.",
	    "rates: declared work / median cost (mean: / mean cost); the interval is the 95% CI "
	    "of the median, none below 6 samples, or for a point of two or more runs of the mean "
	    "over its run means (n: the runs)");
	if (s->nc)
		an_ceils_doc(doc, sec, s);
	if (s->levels[0])
		lab_doc_note(sec, "%s", s->levels);
	if (!s->nc)
		lab_doc_note(
		    sec, "no ceilings: this run has no bandwidth-bound kernel and no point with "
		         "flops and no bytes (configs/ch19-roofline.ini measures them)");
	an_compute_notes(sec, s);
	for (size_t i = 0; i < s->npipes; i++)
		lab_doc_finding(sec, LAB_DOC_INFO, NULL, "%s", s->pipes[i]);
	if (s->np)
		an_points_doc(doc, sec, s);
	for (int t = 0, next = 1; next; t = next) { /* per thread count, ascending */
		next = 0;
		for (size_t i = 0; i < s->nc; i++)
			if (s->c[i].threads > t && (!next || s->c[i].threads < next))
				next = s->c[i].threads;
		if (next)
			an_figure_doc(doc, sec, s, next);
	}
	return lab_doc_failed(doc) ? -LAB_ENOMEM : 0;
}

const struct lab_an_view lab_an_view_roofline = {
    .name = "roofline",
    .applies = lab_an_rl_applies,
    .compute = an_rl_compute,
    .free = an_rl_free,
    .describe = an_rl_describe,
};
