/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The lessons as JSON, text and HTML (analyze/lessons.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/index.h"
#include "analyze/lessons.h"
#include "analyze/report_int.h"
#include "harness/json.h"

static _Thread_local unsigned long long an_lessons_visits;

unsigned long long lab_an_lessons_out_visits(void)
{
	return an_lessons_visits;
}

void lab_an_lessons_json(struct lab_json *w, const struct lab_an_lessons *ls)
{
	lab_json_arr_open(w, "lessons");
	for (size_t i = 0; i < ls->n; i++) {
		const struct lab_an_lesson *l = &ls->l[i];
		int ran = l->verdict != LAB_AN_NOT_RUN;
		lab_json_obj_open(w, NULL);
		lab_json_str(w, "name", l->name);
		lab_json_str(w, "claim", l->claim);
		lab_json_str(w, "checked_as", l->checked);
		lab_json_str(w, "file", *l->file ? l->file : NULL);
		lab_json_str(w, "verdict", lab_an_verdict_name(l->verdict));
		lab_json_num(w, "value", ran ? l->value : NAN);
		if (ran && !isnan(l->lo) && !isnan(l->hi) && (isfinite(l->lo) || isfinite(l->hi)))
			lab_json_pair(w, "ci95", l->lo, l->hi);
		else
			lab_json_null(w, "ci95");
		lab_json_str(w, "text", l->text);
		lab_json_str(w, "quantity", ran ? l->quantity : NULL);
		lab_json_str(w, "cmp", ran ? l->cmp : NULL);
		lab_json_num(w, "bound", ran ? l->bound : NAN);
		lab_json_str(w, "method", ran ? l->method : NULL);
		if (ran) { /* --include-flagged: how many of its samples ran under foreign load */
			lab_json_int(w, "samples", (long long)l->samples);
			lab_json_int(w, "flagged_samples", (long long)l->flagged);
		}
		lab_json_obj_close(w);
	}
	lab_json_arr_close(w);
}

static void an_lesson_text(FILE *f, const struct lab_an_lesson *l)
{
	/* name, claim and file are run.json's, and the sentence quotes the claim's selectors */
	fprintf(f, "%-12s ", lab_an_verdict_name(l->verdict));
	lab_render_text_line(f, l->name);
	fputs("\n             claim: ", f);
	lab_render_text_line(f, l->claim);
	if (l->checked) {
		fputs("\n        checked as: ", f);
		lab_render_text_line(f, l->checked);
	}
	fputs("\n             ", f);
	lab_render_text_line(f, l->text);
	fputc('\n', f);
}

/* The lessons grouped by config file: the files in the order they first appear, each file's
 * lessons in their own order (a run of several chapters shows the chapter's name over its own). */
struct an_lessons_groups {
	size_t *order, *end; /* lab_an_bucket's: file k's lessons are order[end[k - 1] .. end[k]) */
	size_t nfile; /* 0: one file, or out of memory: order is NULL, the lessons as given */
};

static void an_lessons_groups_free(struct an_lessons_groups *g)
{
	free(g->order);
	free(g->end);
	memset(g, 0, sizeof(*g));
}

/* Groups ls by file once (a set of the files, then a counting sort), so that neither writer
 * compares each lesson's file with every other's. */
static void an_lessons_groups(const struct lab_an_lessons *ls, struct an_lessons_groups *g)
{
	struct lab_an_strset files = {0};
	size_t *key = malloc(ls->n * sizeof(*key));
	int ok = !!key;

	memset(g, 0, sizeof(*g));
	for (size_t i = 0; ok && i < ls->n; i++) {
		an_lessons_visits++;
		ok = (key[i] = lab_an_strset_add(&files, ls->l[i].file, NULL)) != (size_t)-1;
	}
	if (ok && files.n > 1) {
		g->order = malloc(ls->n * sizeof(*g->order));
		g->end = malloc(files.n * sizeof(*g->end));
		if (g->order && g->end) {
			lab_an_bucket(key, ls->n, files.n, g->order, g->end);
			g->nfile = files.n;
		} else {
			an_lessons_groups_free(g);
		}
	}
	free(key);
	lab_an_strset_free(&files);
}

/* The k-th lesson in the order of g. */
static const struct lab_an_lesson *an_lessons_at(const struct lab_an_lessons *ls,
                                                 const struct an_lessons_groups *g, size_t k)
{
	an_lessons_visits++;
	return &ls->l[g->nfile ? g->order[k] : k];
}

/* The verdict counts of lessons k .. end of g's order. */
static void an_lessons_count(const struct lab_an_lessons *ls, const struct an_lessons_groups *g,
                             size_t k, size_t end, size_t count[4])
{
	memset(count, 0, 4 * sizeof(*count));
	for (; k < end; k++)
		count[an_lessons_at(ls, g, k)->verdict]++;
}

void lab_an_lessons_text(FILE *f, const struct lab_an_lessons *ls)
{
	struct an_lessons_groups g;
	size_t count[4];

	if (!ls->n)
		return;
	an_lessons_groups(ls, &g);
	an_lessons_count(ls, &g, 0, ls->n, count);
	fprintf(f, "== lessons: %zu hold, %zu fail, %zu inconclusive, %zu not run\n", count[0],
	        count[1], count[2], count[3]);
	/* per chapter, in the order the files were given; a file's lessons stay together */
	for (size_t file = 0, k = 0; file < (g.nfile ? g.nfile : 1); file++) {
		size_t end = g.nfile ? g.end[file] : ls->n;

		if (g.nfile) {
			an_lessons_count(ls, &g, k, end, count);
			fputs("-- ", f);
			lab_render_text_line(f, an_lessons_at(ls, &g, k)->file);
			fprintf(f, ": %zu hold, %zu fail, %zu inconclusive, %zu not run\n",
			        count[0], count[1], count[2], count[3]);
		}
		for (; k < end; k++)
			an_lesson_text(f, an_lessons_at(ls, &g, k));
	}
	fputc('\n', f);
	an_lessons_groups_free(&g);
}

void lab_an_lessons_html(FILE *f, const struct lab_an_lessons *ls)
{
	struct an_lessons_groups g;

	if (!ls->n)
		return;
	an_lessons_groups(ls, &g);
	fputs("<h2>Lessons</h2>\n<table class=\"lessons\"><tr><th>verdict</th><th>lesson</th>"
	      "<th>claim</th><th>what the data shows (95 % interval)</th></tr>\n",
	      f);
	for (size_t file = 0, k = 0; file < (g.nfile ? g.nfile : 1); file++) {
		size_t end = g.nfile ? g.end[file] : ls->n;

		if (g.nfile) {
			fputs("<tr><th colspan=\"4\">", f);
			lab_an_html(f, an_lessons_at(ls, &g, k)->file);
			fputs("</th></tr>\n", f);
		}
		for (; k < end; k++) {
			const struct lab_an_lesson *l = an_lessons_at(ls, &g, k);

			fputs("<tr><td><b>", f);
			lab_an_html(f, lab_an_verdict_name(l->verdict));
			fputs("</b></td><td>", f);
			lab_an_html(f, l->name);
			fputs("</td><td><code>", f);
			lab_an_html(f, l->claim);
			if (l->checked) {
				fputs("</code><br>checked as <code>", f);
				lab_an_html(f, l->checked);
			}
			fputs("</code></td><td>", f);
			lab_an_html(f, l->text);
			fputs("</td></tr>\n", f);
		}
	}
	fputs("</table>\n", f);
	an_lessons_groups_free(&g);
}
