/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * perf c2c per point (`perf_c2c = on`): the hottest shared cache lines the harness kept from
 * `perf c2c report` (point_facts perf_c2c, perf_c2c_lines, perf_c2c_top), or why perf could
 * not run there. Any experiment whose points recorded perf_c2c, whatever its kernel.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/jsonw.h"
#include "analyze/views/view.h"

struct an_pc_row {
	const struct lab_an_point *pt;
	const char *status; /* "ok" or "unavailable (...)": owned by d->run */
	const char *top;    /* NULL when none */
	double lines;       /* -1 when not recorded */
};

struct an_pc {
	struct an_pc_row *row;
	size_t n;
};

/* run.json's point_facts of point p, NULL when it has none. */
static const struct lab_an_json *an_pc_facts(const struct lab_an_data *d,
                                             const struct lab_an_point *p)
{
	const struct lab_an_json *exps = lab_an_json_get(d->run, "experiments");

	for (size_t e = 0; exps && exps->type == LAB_AN_JSON_ARR && e < exps->n; e++) {
		const char *n = lab_an_json_str(&exps->items[e], "name");
		const struct lab_an_json *pts = lab_an_json_get(&exps->items[e], "points");
		if (!n || strcmp(n, p->experiment) || !pts || pts->type != LAB_AN_JSON_ARR)
			continue;
		for (size_t i = 0; i < pts->n; i++)
			if (lab_an_json_num(&pts->items[i], "point", -1) == (double)p->id)
				return lab_an_json_get(&pts->items[i], "point_facts");
	}
	return NULL;
}

static int an_pc_applies(const struct lab_an_data *d, const struct lab_an_point *p)
{
	return lab_an_json_str(an_pc_facts(d, p), "perf_c2c") != NULL;
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
		const struct lab_an_json *f = an_pc_facts(d, &d->pt[i]);
		const char *st = lab_an_json_str(f, "perf_c2c");
		if (st)
			s->row[s->n++] =
			    (struct an_pc_row){.pt = &d->pt[i],
			                       .status = st,
			                       .top = lab_an_json_str(f, "perf_c2c_top"),
			                       .lines = lab_an_json_num(f, "perf_c2c_lines", -1)};
	}
	if (s->n == 0) {
		free(s->row);
		free(s);
		return 0;
	}
	*state = s;
	return 0;
}

static void an_pc_free(void *state)
{
	struct an_pc *s = state;

	if (s)
		free(s->row);
	free(s);
}

/* Each experiment once, in the order of its first point. */
static const char *an_pc_experiment(const void *state, size_t i)
{
	const struct an_pc *s = state;
	size_t k = 0;

	for (size_t r = 0; r < s->n; r++) {
		int seen = 0;
		for (size_t q = 0; q < r && !seen; q++)
			seen = !strcmp(s->row[q].pt->experiment, s->row[r].pt->experiment);
		if (!seen && k++ == i)
			return s->row[r].pt->experiment;
	}
	return NULL;
}

static void an_pc_json(struct lab_json *w, const void *state, const char *exp)
{
	const struct an_pc *s = state;

	lab_json_arr_open(w, "perf_c2c");
	for (size_t r = 0; r < s->n; r++) {
		if (strcmp(s->row[r].pt->experiment, exp))
			continue;
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

const struct lab_an_view lab_an_view_perf_c2c = {
    .name = "perf_c2c",
    .applies = an_pc_applies,
    .compute = an_pc_compute,
    .free = an_pc_free,
    .experiment = an_pc_experiment,
    .json = an_pc_json,
    .text = an_pc_text,
};
