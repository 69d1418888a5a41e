/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/jsonw.h"

#include <math.h>

#include "analyze/modes.h"

void lab_an_json_escape(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void lab_an_jw_init(struct lab_an_jw *w, FILE *f)
{
	w->f = f;
	w->depth = 0;
	w->count[0] = 0;
}

static void an_jw_item(struct lab_an_jw *w, const char *key)
{
	if (w->count[w->depth]++)
		fputc(',', w->f);
	if (w->depth) {
		fputc('\n', w->f);
		for (int i = 0; i < w->depth; i++)
			fputs("  ", w->f);
	}
	if (key) {
		lab_an_json_escape(w->f, key);
		fputs(": ", w->f);
	}
}

static void an_jw_open(struct lab_an_jw *w, const char *key, char c)
{
	an_jw_item(w, key);
	fputc(c, w->f);
	if (w->depth < 31)
		w->count[++w->depth] = 0;
}

void lab_an_jw_obj(struct lab_an_jw *w, const char *key)
{
	an_jw_open(w, key, '{');
}

void lab_an_jw_arr(struct lab_an_jw *w, const char *key)
{
	an_jw_open(w, key, '[');
}

void lab_an_jw_end(struct lab_an_jw *w, char close)
{
	int had = w->count[w->depth];

	if (w->depth > 0)
		w->depth--;
	if (had) {
		fputc('\n', w->f);
		for (int i = 0; i < w->depth; i++)
			fputs("  ", w->f);
	}
	fputc(close, w->f);
	if (w->depth == 0)
		fputc('\n', w->f);
}

void lab_an_jw_str(struct lab_an_jw *w, const char *key, const char *v)
{
	an_jw_item(w, key);
	if (v)
		lab_an_json_escape(w->f, v);
	else
		fputs("null", w->f);
}

static void an_jw_raw_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.10g", v);
	else
		fputs("null", f);
}

void lab_an_jw_num(struct lab_an_jw *w, const char *key, double v)
{
	an_jw_item(w, key);
	an_jw_raw_num(w->f, v);
}

void lab_an_jw_int(struct lab_an_jw *w, const char *key, long long v)
{
	an_jw_item(w, key);
	fprintf(w->f, "%lld", v);
}

void lab_an_jw_bool(struct lab_an_jw *w, const char *key, int v)
{
	an_jw_item(w, key);
	fputs(v ? "true" : "false", w->f);
}

void lab_an_jw_pair(struct lab_an_jw *w, const char *key, double lo, double hi)
{
	an_jw_item(w, key);
	fputc('[', w->f);
	an_jw_raw_num(w->f, lo);
	fputs(", ", w->f);
	an_jw_raw_num(w->f, hi);
	fputc(']', w->f);
}

void lab_an_modes_json(struct lab_an_jw *w, const struct lab_an_modes *m, double scale)
{
	if (!m->count) {
		lab_an_jw_str(w, "modes", NULL);
		return;
	}
	lab_an_jw_int(w, "modes", (long long)m->count);
	lab_an_jw_bool(w, "multimodal", m->count > 1);
	lab_an_jw_arr(w, "mode_centers");
	for (size_t i = 0; i < m->count; i++)
		lab_an_jw_num(w, NULL, m->mode[i].center * scale);
	lab_an_jw_end(w, ']');
	lab_an_jw_arr(w, "mode_weights");
	for (size_t i = 0; i < m->count; i++)
		lab_an_jw_num(w, NULL, m->mode[i].weight);
	lab_an_jw_end(w, ']');
}
