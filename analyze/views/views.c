/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/views/views.h"

#include <stdlib.h>
#include <string.h>

#include "harness/json.h"

#define LAB_AN_VIEW(name) extern const struct lab_an_view lab_an_view_##name;
#include "analyze/views/views.def"
#undef LAB_AN_VIEW

const struct lab_an_view *const lab_an_views[] = {
#define LAB_AN_VIEW(name) &lab_an_view_##name,
#include "analyze/views/views.def"
#undef LAB_AN_VIEW
    NULL};

int lab_an_view_declared(const struct lab_an_data *d, const char *exp, const char *name)
{
	const struct lab_an_json *exps = lab_an_json_get(d->run, "experiments"), *v = NULL;

	for (size_t e = 0; exps && exps->type == LAB_AN_JSON_ARR && e < exps->n && !v; e++) {
		const char *n = lab_an_json_str(&exps->items[e], "name");

		if (n && !strcmp(n, exp))
			v = lab_an_json_get(&exps->items[e], "views");
	}
	if (!v || v->type != LAB_AN_JSON_ARR)
		return -1;
	for (size_t i = 0; i < v->n; i++)
		if (v->items[i].type == LAB_AN_JSON_STR && !strcmp(v->items[i].str, name))
			return 1;
	return 0;
}

int lab_an_views_run(struct lab_an_analysis *a, struct lab_err *err)
{
	size_t n = 0;
	int rc = 0;

	while (lab_an_views[n])
		n++;
	a->views = calloc(n ? n : 1, sizeof(*a->views));
	if (!a->views)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	for (size_t i = 0; i < n && !rc; i++) {
		a->views[i].v = lab_an_views[i];
		a->nviews = i + 1;
		rc = lab_an_views[i]->compute(a->data, a->include_flagged, &a->views[i].state, err);
	}
	return rc;
}

void lab_an_views_free(struct lab_an_analysis *a)
{
	for (size_t i = 0; i < a->nviews; i++)
		if (a->views[i].state)
			a->views[i].v->free(a->views[i].state);
	free(a->views);
	a->views = NULL;
	a->nviews = 0;
}

const void *lab_an_view_state(const struct lab_an_analysis *a, const char *name)
{
	for (size_t i = 0; i < a->nviews; i++)
		if (!strcmp(a->views[i].v->name, name))
			return a->views[i].state;
	return NULL;
}

int lab_an_series_hidden(const struct lab_an_analysis *a, const struct lab_an_series *s)
{
	for (size_t i = 0; i < a->nviews && s->nrow; i++)
		if (a->views[i].v->hides_series && a->views[i].state &&
		    a->views[i].v->applies(a->data, s->row[0].pt))
			return 1;
	return 0;
}

/* 1 when experiment exp came earlier in the views' groups (view vi, group gi). */
static int an_exp_seen(const struct lab_an_analysis *a, const char *exp, size_t vi, size_t gi)
{
	for (size_t i = 0; i <= vi; i++) {
		const struct lab_an_view_run *r = &a->views[i];
		const char *e;

		for (size_t g = 0; r->state && r->v->json && (i < vi || g < gi) &&
		                   (e = r->v->experiment(r->state, g));
		     g++)
			if (!strcmp(e, exp))
				return 1;
	}
	return 0;
}

/* The kernel of experiment exp's first point (what the run recorded). */
static const char *an_exp_kernel(const struct lab_an_data *d, const char *exp)
{
	for (size_t i = 0; i < d->npt; i++)
		if (!strcmp(d->pt[i].experiment, exp))
			return d->pt[i].kernel;
	return NULL;
}

static void an_json_experiment(struct lab_json *w, const struct lab_an_analysis *a, const char *exp)
{
	lab_json_obj_open(w, NULL);
	lab_json_str(w, "name", exp);
	lab_json_str(w, "kernel", an_exp_kernel(a->data, exp));
	for (size_t i = 0; i < a->nviews; i++) {
		const struct lab_an_view_run *r = &a->views[i];
		const char *e;
		int has = 0;

		for (size_t g = 0;
		     r->state && r->v->json && !has && (e = r->v->experiment(r->state, g)); g++)
			has = !strcmp(e, exp);
		if (has)
			r->v->json(w, r->state, exp);
	}
	lab_json_obj_close(w);
}

void lab_an_views_json(struct lab_json *w, const struct lab_an_analysis *a)
{
	lab_json_arr_open(w, "experiments");
	for (size_t i = 0; i < a->nviews; i++) {
		const struct lab_an_view_run *r = &a->views[i];
		const char *e;

		for (size_t g = 0; r->state && r->v->json && (e = r->v->experiment(r->state, g));
		     g++)
			if (!an_exp_seen(a, e, i, g))
				an_json_experiment(w, a, e);
	}
	lab_json_arr_close(w);
}

void lab_an_views_json_top(struct lab_json *w, const struct lab_an_analysis *a)
{
	for (size_t i = 0; i < a->nviews; i++)
		if (a->views[i].state && a->views[i].v->json_top)
			a->views[i].v->json_top(w, a->views[i].state);
}

int lab_an_views_csv(const struct lab_an_analysis *a, const char *dir, struct lab_err *err)
{
	int rc = 0;

	for (size_t i = 0; i < a->nviews && !rc; i++) {
		const struct lab_an_view_run *r = &a->views[i];
		char *path;

		if (!r->state || !r->v->csv)
			continue;
		if (!(path = lab_an_asprintf("%s/%s", dir, r->v->csv_name)))
			return lab_err_set(err, LAB_ENOMEM, "out of memory");
		rc = r->v->csv(r->state, path, err);
		free(path);
	}
	return rc;
}

size_t lab_an_views_files(const char **names, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; lab_an_views[i] && n < max; i++)
		if (lab_an_views[i]->csv_name)
			names[n++] = lab_an_views[i]->csv_name;
	return n;
}

void lab_an_views_text(FILE *f, const struct lab_an_analysis *a)
{
	for (size_t i = 0; i < a->nviews; i++)
		if (a->views[i].state && a->views[i].v->text)
			a->views[i].v->text(f, a->views[i].state);
}

void lab_an_views_html(FILE *f, const struct lab_an_analysis *a, const struct lab_an_plots *plots,
                       const char *dir)
{
	for (size_t i = 0; i < a->nviews; i++)
		if (a->views[i].state && a->views[i].v->html)
			a->views[i].v->html(f, a->views[i].state, plots, dir);
}

int lab_an_views_plots(const struct lab_an_analysis *a, const struct lab_an_pdir *pdir,
                       struct lab_an_plots *out, struct lab_err *err)
{
	int rc = 0;

	for (size_t i = 0; i < a->nviews && !rc; i++)
		if (a->views[i].state && a->views[i].v->plots)
			rc = a->views[i].v->plots(a->views[i].state, a->data, pdir, out, err);
	return rc;
}
