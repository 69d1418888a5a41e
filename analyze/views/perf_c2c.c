/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * perf c2c per point (`perf_c2c = on`): the hottest shared cache lines the harness kept from
 * `perf c2c report` (point_facts perf_c2c, perf_c2c_lines, perf_c2c_top), or why perf could
 * not run there. Any experiment whose points recorded perf_c2c, whatever its kernel.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "analyze/jsonw.h"
#include "analyze/views/view.h"

struct an_pc_row {
	const struct lab_an_point *pt;
	const char *status; /* "ok" or "unavailable (...)": owned by d->run */
	const char *top;    /* NULL when none */
	double lines;       /* -1 when not recorded */
	size_t next;        /* the next row of the same experiment, or (size_t)-1 */
};

/* The rows in point order; the experiments in the order of their first row, each with its
 * first row, so the experiment hook costs O(1) and json O(rows of exp), never a scan. */
struct an_pc {
	struct an_pc_row *row;
	size_t n;
	struct lab_an_strset exp;
	size_t *first, *last, cap; /* per experiment of exp */
};

/* The loader attached run.json's point_facts to each point (p->facts): read, never searched. */
static int an_pc_applies(const struct lab_an_data *d, const struct lab_an_point *p)
{
	(void)d;
	return lab_an_json_str(p->facts, "perf_c2c") != NULL;
}

static void an_pc_free(void *state)
{
	struct an_pc *s = state;

	if (s) {
		free(s->row);
		free(s->first);
		free(s->last);
		lab_an_strset_free(&s->exp);
	}
	free(s);
}

/* Chains each row to the rows of its experiment. Returns 0, or -1 out of memory. */
static int an_pc_group(struct an_pc *s)
{
	for (size_t r = 0; r < s->n; r++) {
		int added;
		size_t cap = s->cap,
		       e = lab_an_strset_add(&s->exp, s->row[r].pt->experiment, &added);

		if (e == (size_t)-1 || lab_an_grow(&s->first, &cap, e + 1, sizeof(*s->first)))
			return -1;
		cap = s->cap;
		if (lab_an_grow(&s->last, &cap, e + 1, sizeof(*s->last)))
			return -1;
		s->cap = cap;
		s->row[r].next = (size_t)-1;
		if (added)
			s->first[e] = r;
		else
			s->row[s->last[e]].next = r;
		s->last[e] = r;
	}
	return 0;
}

static int an_pc_compute(const struct lab_an_data *d, int include_flagged, void **state,
                         struct lab_err *err)
{
	struct an_pc *s = calloc(1, sizeof(*s));

	(void)include_flagged;
	if (!s || !(s->row = calloc(d->npt ? d->npt : 1, sizeof(*s->row)))) {
		free(s);
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < d->npt; i++) {
		const struct lab_an_json *f = d->pt[i].facts;
		const char *st = lab_an_json_str(f, "perf_c2c");
		if (st)
			s->row[s->n++] =
			    (struct an_pc_row){.pt = &d->pt[i],
			                       .status = st,
			                       .top = lab_an_json_str(f, "perf_c2c_top"),
			                       .lines = lab_an_json_num(f, "perf_c2c_lines", -1)};
	}
	if (s->n == 0) {
		an_pc_free(s);
		return 0;
	}
	if (an_pc_group(s)) {
		an_pc_free(s);
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	}
	*state = s;
	return 0;
}

/* Each experiment once, in the order of its first point. */
static const char *an_pc_experiment(const void *state, size_t i)
{
	const struct an_pc *s = state;

	return i < s->exp.n ? s->exp.s[i] : NULL;
}

static void an_pc_json(struct lab_json *w, const void *state, const char *exp)
{
	const struct an_pc *s = state;

	size_t e = lab_an_strset_find(&s->exp, exp);

	lab_json_arr_open(w, "perf_c2c");
	for (size_t r = e == (size_t)-1 ? (size_t)-1 : s->first[e]; r != (size_t)-1;
	     r = s->row[r].next) {
		lab_json_obj_open(w, NULL);
		lab_json_int(w, "point", s->row[r].pt->id);
		lab_json_int(w, "threads", s->row[r].pt->threads);
		lab_json_str(w, "params", s->row[r].pt->params);
		lab_json_str(w, "perf_c2c", s->row[r].status);
		if (s->row[r].lines >= 0)
			lab_json_num(w, "lines", s->row[r].lines);
		lab_json_str(w, "top", s->row[r].top);
		lab_json_obj_close(w);
	}
	lab_json_arr_close(w);
}

/* Text from run.json (untrusted) onto a terminal: control characters become '?'. */
static void an_pc_put(FILE *f, const char *s)
{
	for (; s && *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
}

static void an_pc_text(FILE *f, const void *state)
{
	const struct an_pc *s = state;

	fprintf(f, "\nperf c2c: hottest shared cache lines per point (remote/local HITMs; per "
	           "offset its share of them)\n");
	for (size_t r = 0; r < s->n; r++) {
		const struct an_pc_row *w = &s->row[r];
		fprintf(f, "  %s point %ld, %d threads (", w->pt->experiment, w->pt->id,
		        w->pt->threads);
		an_pc_put(f, w->pt->params);
		fprintf(f, "): ");
		an_pc_put(f, w->status);
		if (w->lines >= 0)
			fprintf(f, ", %.0f shared lines", w->lines);
		fputc('\n', f);
		for (const char *t = w->top; t && *t;) {
			const char *end = strstr(t, "; ");
			size_t n = end ? (size_t)(end - t) : strlen(t);
			char line[2048];
			snprintf(line, sizeof(line), "%.*s",
			         (int)(n < sizeof(line) ? n : sizeof(line) - 1), t);
			fprintf(f, "    ");
			an_pc_put(f, line);
			fputc('\n', f);
			t = end ? end + 2 : t + n;
		}
	}
}

/* Until the view describes itself (view.h): its hooks without the view. */
static int an_view_applies(const struct lab_an_view *v, const struct lab_an_data *d,
                           const struct lab_an_point *p)
{
	(void)v;
	return an_pc_applies(d, p);
}

static int an_view_compute(const struct lab_an_view *v, const struct lab_an_analysis *a,
                           void **state, struct lab_err *err)
{
	(void)v;
	return an_pc_compute(a->data, a->include_flagged, state, err);
}

const struct lab_an_view lab_an_view_perf_c2c = {
    .name = "perf_c2c",
    .applies = an_view_applies,
    .compute = an_view_compute,
    .free = an_pc_free,
    .experiment = an_pc_experiment,
    .json = an_pc_json,
    .text = an_pc_text,
};
