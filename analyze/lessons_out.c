/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The lessons as JSON, text and HTML (analyze/lessons.h). */
#include <math.h>
#include <string.h>

#include "analyze/lessons.h"
#include "analyze/report_int.h"
#include "harness/json.h"

void lab_an_lessons_json(struct lab_json *w, const struct lab_an_lessons *ls)
{
	lab_json_arr_open(w, "lessons");
	for (size_t i = 0; i < ls->n; i++) {
		const struct lab_an_lesson *l = &ls->l[i];
		int ran = l->verdict != LAB_AN_NOT_RUN;
		lab_json_obj_open(w, NULL);
		lab_json_str(w, "name", l->name);
		lab_json_str(w, "claim", l->claim);
		lab_json_str(w, "file", *l->file ? l->file : NULL);
		lab_json_str(w, "verdict", lab_an_verdict_name(l->verdict));
		lab_json_num(w, "value", ran ? l->value : NAN);
		if (ran && isfinite(l->lo) && isfinite(l->hi))
			lab_json_pair(w, "ci95", l->lo, l->hi);
		else
			lab_json_null(w, "ci95");
		lab_json_str(w, "text", l->text);
		lab_json_str(w, "quantity", ran ? l->quantity : NULL);
		lab_json_str(w, "cmp", ran ? l->cmp : NULL);
		lab_json_num(w, "bound", ran ? l->bound : NAN);
		lab_json_str(w, "method", ran ? l->method : NULL);
		lab_json_obj_close(w);
	}
	lab_json_arr_close(w);
}

static void an_lesson_text(FILE *f, const struct lab_an_lesson *l)
{
	fprintf(f, "%-12s %s\n", lab_an_verdict_name(l->verdict), l->name);
	fprintf(f, "             claim: %s\n", l->claim);
	fprintf(f, "             %s\n", l->text);
}

/* 1 when the lessons come from more than one config file (a run of several chapters): they are
 * then shown per file, the chapter's name over its own. */
static int an_lessons_files(const struct lab_an_lessons *ls)
{
	for (size_t i = 1; i < ls->n; i++)
		if (strcmp(ls->l[i].file, ls->l[0].file))
			return 1;
	return 0;
}

/* The verdict counts of the lessons of file (all when file is NULL). */
static void an_lessons_count(const struct lab_an_lessons *ls, const char *file, size_t count[4])
{
	memset(count, 0, 4 * sizeof(*count));
	for (size_t i = 0; i < ls->n; i++)
		if (!file || !strcmp(ls->l[i].file, file))
			count[ls->l[i].verdict]++;
}

/* 1 when lesson i is the first of its file. */
static int an_lessons_first(const struct lab_an_lessons *ls, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (!strcmp(ls->l[k].file, ls->l[i].file))
			return 0;
	return 1;
}

void lab_an_lessons_text(FILE *f, const struct lab_an_lessons *ls)
{
	size_t count[4];
	int files = an_lessons_files(ls);

	if (!ls->n)
		return;
	an_lessons_count(ls, NULL, count);
	fprintf(f, "== lessons: %zu hold, %zu fail, %zu inconclusive, %zu not run\n", count[0],
	        count[1], count[2], count[3]);
	/* per chapter, in the order the files were given; a file's lessons stay together */
	for (size_t i = 0; files && i < ls->n; i++) {
		if (!an_lessons_first(ls, i))
			continue;
		an_lessons_count(ls, ls->l[i].file, count);
		fprintf(f, "-- %s: %zu hold, %zu fail, %zu inconclusive, %zu not run\n",
		        ls->l[i].file, count[0], count[1], count[2], count[3]);
		for (size_t k = i; k < ls->n; k++)
			if (!strcmp(ls->l[k].file, ls->l[i].file))
				an_lesson_text(f, &ls->l[k]);
	}
	for (size_t i = 0; !files && i < ls->n; i++)
		an_lesson_text(f, &ls->l[i]);
	fputc('\n', f);
}

void lab_an_lessons_html(FILE *f, const struct lab_an_lessons *ls)
{
	if (!ls->n)
		return;
	fputs("<h2>Lessons</h2>\n<table class=\"lessons\"><tr><th>verdict</th><th>lesson</th>"
	      "<th>claim</th><th>what the data shows (95 % interval)</th></tr>\n",
	      f);
	for (size_t i = 0; i < ls->n; i++) {
		const struct lab_an_lesson *l = &ls->l[i];
		if (an_lessons_files(ls) && (!i || strcmp(l->file, ls->l[i - 1].file))) {
			fputs("<tr><th colspan=\"4\">", f);
			lab_an_html(f, l->file);
			fputs("</th></tr>\n", f);
		}
		fputs("<tr><td><b>", f);
		lab_an_html(f, lab_an_verdict_name(l->verdict));
		fputs("</b></td><td>", f);
		lab_an_html(f, l->name);
		fputs("</td><td><code>", f);
		lab_an_html(f, l->claim);
		fputs("</code></td><td>", f);
		lab_an_html(f, l->text);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}
