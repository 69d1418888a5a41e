/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The list of views (views.def) and the loops the central analyzer runs over it: compute and
 * describe, then the renderers on each document: JSON, CSV files, report sections and plots (the
 * text goes by chapter: lab/analyze_print.c). Nothing here knows a particular view.
 */
#ifndef LAB_ANALYZE_VIEWS_VIEWS_H
#define LAB_ANALYZE_VIEWS_VIEWS_H

#include <stdio.h>

#include "analyze/analysis.h"
#include "analyze/views/view.h"

/* Every view of views.def, in its order, NULL-terminated. */
extern const struct lab_an_view *const lab_an_views[];

/* The rank of view v in the text and the report: 0 the views kernels declare, 1 the scaling
 * series, 2 the other views that follow any run (counters, perf c2c). */
int lab_an_view_rank(const struct lab_an_view *v);

/* One computed view of an analysis. */
struct lab_an_view_run {
	const struct lab_an_view *v;
	void *state;         /* NULL: the view applies to nothing here */
	struct lab_doc *doc; /* what describe made of state; NULL: none (or an old-style view) */
	/* doc's sections by experiment: order[start[e] .. start[e + 1]) are experiment e's
	 * (the index of a->exps), bucket nexp the sections that span experiments. */
	size_t *order, *start, *exp;
};

/* Computes every view over a->data (a->include_flagged); fills a->views, then indexes them
 * (lab_an_views_index). Returns 0 or a negative code with err set. */
int lab_an_views_run(struct lab_an_analysis *a, struct lab_err *err);
/* Fills a->exps from the computed a->views: each experiment a view has a group of, once, in the
 * order first named, with the views that cover it and its kernel; O(groups + points). Called by
 * lab_an_views_run; exposed for tests. Returns 0 or -LAB_ENOMEM with err set. */
int lab_an_views_index(struct lab_an_analysis *a, struct lab_err *err);
/* Frees a->views and a->exps. */
void lab_an_views_free(struct lab_an_analysis *a);
/* The state of view name in a (its own struct, see its header), NULL when it applies to nothing. */
const void *lab_an_view_state(const struct lab_an_analysis *a, const char *name);

struct lab_json;
struct lab_an_pdir;
struct lab_an_plots;
/* "experiments": one entry per experiment a view's document has sections of (a->exps): name,
 * kernel, one object per view with those sections (analyze/render/json.c). */
void lab_an_views_json(struct lab_json *w, const struct lab_an_analysis *a);
/* The top-level keys of the views with sections that span experiments ("roofline"). */
void lab_an_views_json_top(struct lab_json *w, const struct lab_an_analysis *a);
struct lab_an_manifest;
/* The views' CSV files in dir: one per table key of each document (analyze/render/csv.c), each
 * added to wrote (NULL: not recorded). */
int lab_an_views_csv(const struct lab_an_analysis *a, const char *dir,
                     struct lab_an_manifest *wrote, struct lab_err *err);
/* Puts the names of the views' CSV files into names (at most max, each malloc'd), returns how
 * many. */
size_t lab_an_views_files(const struct lab_an_analysis *a, char **names, size_t max);
void lab_an_views_html(FILE *f, const struct lab_an_analysis *a, const struct lab_an_plots *plots,
                       const char *dir);
int lab_an_views_plots(const struct lab_an_analysis *a, const struct lab_an_pdir *pdir,
                       struct lab_an_plots *out, struct lab_err *err);

#endif
