/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * An analyzer view: the analysis of one kind of experiment (the scaling series, the c2c latency
 * matrix, lock curves, the stride chart, the roofline, the NUMA matrix, OpenMP schedules:
 * views.def lists them all). A view is one file analyze/views/NAME.c (helpers in NAME_*.c) defining
 * `const struct lab_an_view lab_an_view_NAME`, plus one line in views.def; the central analyzer
 * loops over the list and never names a view or a kernel.
 *
 * A view is chosen by what the run declares: run.json's experiments[].views (the kernel
 * descriptor's `views`; every kernel declares its list, tests/unit/test_registry.c checks the
 * names against views.def). The counters and perf_c2c views are declared by no kernel: they
 * follow any run that recorded counters or ran under perf c2c; nor is the series view (the
 * scaling series), which shows every point that no view with hides_series shows. For files without
 * that key (older results, external fixtures) a view may match on recorded properties instead
 * (lab_an_view_declared returns -1 then).
 */
#ifndef LAB_ANALYZE_VIEWS_VIEW_H
#define LAB_ANALYZE_VIEWS_VIEW_H

#include <stdint.h>

#include "analyze/data.h"
#include "analyze/err.h"

struct lab_an_analysis;
struct lab_doc;

struct lab_an_view {
	const char *name; /* as run.json "views" names it; also its key in analysis.json */
	/* The view's own description for a shared engine (curves: a struct lab_an_cv_spec);
	 * NULL: none. */
	const void *spec;
	/* 1 when the view shows point p of d. */
	int (*applies)(const struct lab_an_view *v, const struct lab_an_data *d,
	               const struct lab_an_point *p);
	/* 1: the points it shows are not printed or drawn as scaling series (c2c: one pair each).
	 */
	int hides_series;
	/* What its points' cost (elapsed_ns / work, what the scaling series and `lab compare`
	 * judge) is where it is not the view's figure ("test + reference per instance, not the
	 * construct's overhead_ns"); NULL: it is. */
	const char *cost_is;
	/* With cost_is: the metric column that is the view's figure, a cost too (lower is
	 * better; >= 0 in truth, so a mean at or below 0 is no value), which `lab compare`
	 * compares beside the cost ("overhead_ns"); NULL: none. */
	const char *figure;
	/* 1: no kernel declares it; it follows any run (counters, perf_c2c, the series). In the
	 * text a chapter shows the views its kernels declare first, then the series, then these. */
	int follows_any_run;
	/* Computes the view over the points of a->data it applies to (summarized with
	 * a->include_flagged; a->s, the series, and a->lessons are computed already). *state
	 * stays NULL when nothing applies. Returns 0 or a negative code with err set. */
	int (*compute)(const struct lab_an_view *v, const struct lab_an_analysis *a, void **state,
	               struct lab_err *err);
	void (*free)(void *state);
	/* Describes state as a document (analyze/render/doc.h) that the renderers write as text,
	 * HTML, JSON, CSV and plots: a view writes no file and no markup. Returns 0, or
	 * -LAB_ENOMEM when doc failed. */
	int (*describe)(const struct lab_an_view *v, const void *state, struct lab_doc *doc);
	/* Optional: what measured point p lacks of what the view reads ("no 'pair' param", in
	 * buf), NULL when it has it. A run.json that declares the view for an experiment with
	 * such a point is refused (lab_an_views_run): an edited "views" had the c2c view read
	 * false sharing costs as one-way latencies of 0.3 ns. */
	const char *(*misfit)(const struct lab_an_view *v, const struct lab_an_data *d,
	                      const struct lab_an_point *p, char *buf, size_t len);
};

/* 1 when run.json lists view name for experiment exp, 0 when it lists views without it, -1
 * when it records no views for exp (no run.json, an older file): match on properties then. */
int lab_an_view_declared(const struct lab_an_data *d, const char *exp, const char *name);
/*
 * Views find the group of a point (its experiment, its conditions and maybe a number: threads,
 * a kind) through a hash index (analyze/index.h), never by scanning the groups made so far: a
 * run with a group per point would take quadratic time (issue 19's rule, O(n log n) at any
 * input). lab_an_view_key is the key's hash; a view's same() callback counts each key it
 * compares with lab_an_view_probe, which the scale test reads at n and 4n points.
 */
uint64_t lab_an_view_key(const char *experiment, const char *params, long n);
void lab_an_view_probe(void);
unsigned long long lab_an_view_probes(void);

struct lab_an_series;
/* 1 when a view computed in a (before the asker) that hides series applies to s's points. */
int lab_an_series_hidden(const struct lab_an_analysis *a, const struct lab_an_series *s);

#endif
