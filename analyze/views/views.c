/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/views/views.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/render/render.h"
#include "harness/json.h"
#include "harness/record_schema.h"

#define LAB_AN_VIEW(name) extern const struct lab_an_view lab_an_view_##name;
#include "analyze/views/views.def"
#undef LAB_AN_VIEW

const struct lab_an_view *const lab_an_views[] = {
#define LAB_AN_VIEW(name) &lab_an_view_##name,
#include "analyze/views/views.def"
#undef LAB_AN_VIEW
    NULL};

static void an_exps_free(struct lab_an_view_exps *x);

/* The document of computed view r (r->doc). */
static int an_describe(struct lab_an_view_run *r, struct lab_err *err)
{
	if (!(r->doc = lab_doc_new(r->v->name, r->v->name)) ||
	    r->v->describe(r->v, r->state, r->doc) || lab_doc_failed(r->doc))
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	return 0;
}

/* The view named name, or NULL. */
static const struct lab_an_view *an_view_named(const char *name)
{
	for (size_t k = 0; lab_an_views[k]; k++)
		if (!strcmp(lab_an_views[k]->name, name))
			return lab_an_views[k];
	return NULL;
}

/* Each view declared for an experiment reads what its measured points recorded (misfit). The
 * experiment's "views" is looked up once per run of its points (plan order keeps them together):
 * per point, only the names it lists. */
static int an_views_fit(const struct lab_an_data *d, struct lab_err *err)
{
	const struct lab_an_json *views = NULL;
	const char *exp = NULL, *why;
	char buf[96];

	for (size_t i = 0; i < d->npt; i++) {
		const struct lab_an_point *p = &d->pt[i];

		if (!p->n)
			continue;
		if (!exp || strcmp(exp, p->experiment))
			views = lab_an_json_get(lab_an_data_experiment(d, exp = p->experiment),
			                        "views");
		for (size_t k = 0; views && views->type == LAB_AN_JSON_ARR && k < views->n; k++) {
			const struct lab_an_view *v = views->items[k].type == LAB_AN_JSON_STR
			                                  ? an_view_named(views->items[k].str)
			                                  : NULL;

			if (!v || !v->misfit || !(why = v->misfit(v, d, p, buf, sizeof(buf))))
				continue;
			return lab_err_set(
			    err, LAB_EDATA,
			    "%s/%s:%u: experiment '%s' declares view '%s', but its point %ld "
			    "has %s (what the view reads), allowed: the views of its kernel",
			    d->source, LAB_FILE_RUN, views->line, p->experiment, v->name, p->id,
			    why);
		}
	}
	return 0;
}

int lab_an_views_run(struct lab_an_analysis *a, struct lab_err *err)
{
	size_t n = 0;
	int rc = an_views_fit(a->data, err);

	if (rc)
		return rc;

	while (lab_an_views[n])
		n++;
	a->views = calloc(n ? n : 1, sizeof(*a->views));
	if (!a->views)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	for (size_t i = 0; i < n && !rc; i++) {
		a->views[i].v = lab_an_views[i];
		a->nviews = i + 1;
		rc = lab_an_views[i]->compute(lab_an_views[i], a, &a->views[i].state, err);
		if (!rc && a->views[i].state)
			rc = an_describe(&a->views[i], err);
	}
	return rc ? rc : lab_an_views_index(a, err);
}

void lab_an_views_free(struct lab_an_analysis *a)
{
	for (size_t i = 0; i < a->nviews; i++) {
		if (a->views[i].state)
			a->views[i].v->free(a->views[i].state);
		lab_doc_free(a->views[i].doc);
		free(a->views[i].order);
		free(a->views[i].start);
		free(a->views[i].exp);
	}
	free(a->views);
	a->views = NULL;
	a->nviews = 0;
	an_exps_free(a->exps);
	a->exps = NULL;
}

const void *lab_an_view_state(const struct lab_an_analysis *a, const char *name)
{
	for (size_t i = 0; i < a->nviews; i++)
		if (!strcmp(a->views[i].v->name, name))
			return a->views[i].state;
	return NULL;
}

/* The experiments the views' groups name, each once in the order first named, with the views
 * that have a group of it (bit i of has[e * words + i / 64] for view i) and its kernel. */
struct lab_an_view_exps {
	struct lab_an_strset set;
	uint64_t *has;
	size_t words, cap;
	const char **kernel; /* of the experiment's first point (what the run recorded) */
};

static void an_exps_free(struct lab_an_view_exps *x)
{
	if (x) {
		lab_an_strset_free(&x->set);
		free(x->has);
		free(x->kernel);
	}
	free(x);
}

/* Marks experiment e as covered by view i; its index in x->set, or -1. */
static size_t an_exps_mark(struct lab_an_view_exps *x, size_t i, const char *e)
{
	size_t k = lab_an_strset_add(&x->set, e, NULL), cap = x->cap;

	if (k == (size_t)-1 || lab_an_grow(&x->has, &cap, (k + 1) * x->words, sizeof(*x->has)))
		return (size_t)-1;
	if (cap != x->cap)
		memset(x->has + x->cap, 0, (cap - x->cap) * sizeof(*x->has));
	x->cap = cap;
	x->has[k * x->words + i / 64] |= 1ULL << (i % 64);
	return k;
}

/* r's sections bucketed by experiment (r->order from r->start[e] to r->start[e + 1]; bucket
 * nexp: the sections that span experiments): lab_an_bucket over exp (each section's index). */
static int an_exps_bucket(struct lab_an_view_run *r, const size_t *exp, size_t nexp)
{
	size_t ns = r->doc->ns;

	if (!(r->start = calloc(nexp + 2, sizeof(*r->start))) ||
	    !(r->order = calloc(ns ? ns : 1, sizeof(*r->order))))
		return -1;
	lab_an_bucket(exp, ns, nexp + 1, r->order, r->start + 1); /* start[0] = 0 */
	return 0;
}

/* The experiments of view i's document: marked, and its sections bucketed. */
static int an_exps_doc(struct lab_an_view_exps *x, struct lab_an_view_run *r, size_t i)
{
	const struct lab_doc *d = r->doc;
	size_t *exp = calloc(d->ns ? d->ns : 1, sizeof(*exp));

	if (!exp)
		return -1;
	for (size_t j = 0; j < d->ns; j++)
		if ((exp[j] = d->s[j]->experiment ? an_exps_mark(x, i, d->s[j]->experiment)
		                                  : SIZE_MAX) == (size_t)-1 &&
		    d->s[j]->experiment) {
			free(exp);
			return -1;
		}
	r->exp = exp;
	return 0;
}

static int an_exps_collect(struct lab_an_view_exps *x, const struct lab_an_analysis *a)
{
	x->words = a->nviews / 64 + 1;
	for (size_t i = 0; i < a->nviews; i++) {
		struct lab_an_view_run *r = &a->views[i];

		free(r->order);
		free(r->start);
		r->order = r->start = NULL;
		if (r->doc && !r->doc->data_elsewhere && an_exps_doc(x, r, i))
			return -1;
	}
	for (size_t i = 0; i < a->nviews; i++) {
		struct lab_an_view_run *r = &a->views[i];

		/* a spanning section goes into the last bucket */
		for (size_t j = 0; r->exp && j < r->doc->ns; j++)
			if (r->exp[j] == SIZE_MAX)
				r->exp[j] = x->set.n;
		if (r->exp && an_exps_bucket(r, r->exp, x->set.n))
			return -1;
		free(r->exp);
		r->exp = NULL;
	}
	if (!(x->kernel = calloc(x->set.n ? x->set.n : 1, sizeof(*x->kernel))))
		return -1;
	for (size_t i = 0; a->data && i < a->data->npt; i++) {
		size_t e = lab_an_strset_find(&x->set, a->data->pt[i].experiment);

		if (e != (size_t)-1 && !x->kernel[e])
			x->kernel[e] = a->data->pt[i].kernel;
	}
	return 0;
}

int lab_an_views_index(struct lab_an_analysis *a, struct lab_err *err)
{
	struct lab_an_view_exps *x = calloc(1, sizeof(*x));

	an_exps_free(a->exps);
	a->exps = NULL;
	if (!x || an_exps_collect(x, a)) {
		an_exps_free(x);
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	}
	a->exps = x;
	return 0;
}

/* View run r's sections of experiment bucket e (the last: those spanning experiments). */
static void an_view_json(struct lab_json *w, const struct lab_an_view_run *r, size_t e)
{
	if (r->doc && r->start)
		lab_render_json(w, r->doc, r->order + r->start[e], r->start[e + 1] - r->start[e]);
}

void lab_an_views_json(struct lab_json *w, const struct lab_an_analysis *a)
{
	const struct lab_an_view_exps *x = a->exps;

	lab_json_arr_open(w, "experiments");
	for (size_t e = 0; x && e < x->set.n; e++) {
		lab_json_obj_open(w, NULL);
		lab_json_str(w, "name", x->set.s[e]);
		lab_json_str(w, "kernel", x->kernel[e]);
		for (size_t i = 0; i < a->nviews; i++)
			if (x->has[e * x->words + i / 64] >> (i % 64) & 1)
				an_view_json(w, &a->views[i], e);
		lab_json_obj_close(w);
	}
	lab_json_arr_close(w);
}

void lab_an_views_json_top(struct lab_json *w, const struct lab_an_analysis *a)
{
	size_t e = a->exps ? a->exps->set.n : 0;

	for (size_t i = 0; i < a->nviews; i++)
		an_view_json(w, &a->views[i], e);
}

int lab_an_views_csv(const struct lab_an_analysis *a, const char *dir,
                     struct lab_an_manifest *wrote, struct lab_err *err)
{
	int rc = 0;

	for (size_t i = 0; i < a->nviews && !rc; i++)
		if (a->views[i].doc && !a->views[i].doc->data_elsewhere)
			rc = lab_render_csv(a->views[i].doc, dir, wrote, err);
	return rc;
}

size_t lab_an_views_files(const struct lab_an_analysis *a, char **names, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < a->nviews && n < max; i++)
		if (a->views[i].doc && !a->views[i].doc->data_elsewhere)
			n += lab_render_csv_names(a->views[i].doc, names + n, max - n);
	return n;
}

int lab_an_view_rank(const struct lab_an_view *v)
{
	return !v->follows_any_run ? 0 : !strcmp(v->name, "series") ? 1 : 2;
}

void lab_an_views_html(FILE *f, const struct lab_an_analysis *a, const struct lab_an_plots *plots,
                       const char *dir)
{
	for (int rank = 0; rank < 3; rank++)
		for (size_t i = 0; i < a->nviews; i++)
			if (a->views[i].doc && lab_an_view_rank(a->views[i].v) == rank)
				lab_render_html(f, a->views[i].doc, plots, dir);
}

int lab_an_views_plots(const struct lab_an_analysis *a, const struct lab_an_pdir *pdir,
                       struct lab_an_plots *out, struct lab_err *err)
{
	int rc = 0;

	for (size_t i = 0; i < a->nviews && !rc; i++)
		if (a->views[i].doc)
			rc = lab_render_gnuplot(a->views[i].doc, pdir, out, err);
	return rc;
}
