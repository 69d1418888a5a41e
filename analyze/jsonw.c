/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/jsonw.h"

#include <math.h>

#include "analyze/modes.h"

/* The length of the well-formed UTF-8 sequence at s (1..4), or 0 when it is not one: overlong
 * forms, surrogates and code points past U+10FFFF are not UTF-8 (RFC 3629). */
static size_t an_utf8_len(const unsigned char *s)
{
	unsigned c = s[0], lo = 0x80, hi = 0xBF;
	size_t n;

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		n = 2;
	else if (c >= 0xE0 && c <= 0xEF)
		n = 3;
	else if (c >= 0xF0 && c <= 0xF4)
		n = 4;
	else
		return 0;
	if (c == 0xE0)
		lo = 0xA0;
	else if (c == 0xED)
		hi = 0x9F;
	else if (c == 0xF0)
		lo = 0x90;
	else if (c == 0xF4)
		hi = 0x8F;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xBF)
			return 0;
	return n;
}

/* Text from result files may hold any bytes: control bytes are escaped and each byte that does
 * not start well-formed UTF-8 becomes U+FFFD, so the output is always valid JSON. */
void lab_an_json_escape(FILE *f, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	fputc('"', f);
	while (*u) {
		const unsigned char *run = u;
		size_t n;

		/* one fwrite per run of bytes that pass as they are: a call per byte was a fifth of
		 * the analyzer's time on large data sets */
		while (*u >= 0x20 && *u != '"' && *u != '\\' && *u != 0x7f && (n = an_utf8_len(u)))
			u += n;
		if (u > run)
			fwrite(run, 1, (size_t)(u - run), f);
		if (!*u)
			break;
		if (*u == '"' || *u == '\\')
			fprintf(f, "\\%c", *u);
		else if (*u == '\n')
			fputs("\\n", f);
		else if (*u == '\t')
			fputs("\\t", f);
		else if (*u < 0x20 || *u == 0x7f)
			fprintf(f, "\\u%04x", *u);
		else
			fputs("\\ufffd", f);
		u++;
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
