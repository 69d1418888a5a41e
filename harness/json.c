/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void json_indent(struct lab_json *j)
{
	/* the newline and the indent in one call (the spaces: pad + 1, 64 of them) */
	static const char pad[] =
	    "\n                                                                ";
	size_t sp = 2 * (size_t)j->depth, k = sp < 64 ? sp : 64;

	if (j->flat && j->depth >= j->flat) { /* inside a container written on one line */
		fputc(' ', j->f);
		return;
	}
	fwrite(pad, 1, 1 + k, j->f);
	for (sp -= k; sp; sp -= k) {
		k = sp < 64 ? sp : 64;
		fwrite(pad + 1, 1, k, j->f);
	}
}

/* The length of key when it is written as it is between quotes (printable ASCII but '"' and
 * '\\') and is short; 0 otherwise. */
static size_t json_plain_key(const char *key)
{
	size_t n = 0;

	for (; key[n]; n++)
		if (n == 128 || key[n] < 0x20 || key[n] > 0x7e || key[n] == '"' || key[n] == '\\')
			return 0;
	return n;
}

/* Writes the comma, newline, indent and key that come before any value: in one piece when the
 * key needs no escaping (they are the names in the code, nearly always). */
static void json_prefix(struct lab_json *j, const char *key)
{
	char buf[256];
	size_t n = 0, sp = 2 * (size_t)j->depth, k = key ? json_plain_key(key) : 0;

	if (j->depth > 0 && (k || !key) && sp <= 64) {
		if (!j->first[j->depth])
			buf[n++] = ',';
		j->first[j->depth] = false;
		if (j->flat && j->depth >= j->flat) /* inside a container written on one line */
			buf[n++] = ' ';
		else {
			buf[n++] = '\n';
			memset(buf + n, ' ', sp);
			n += sp;
		}
	} else if (j->depth > 0) {
		if (!j->first[j->depth])
			fputc(',', j->f);
		j->first[j->depth] = false;
		json_indent(j);
	}
	if (k) {
		buf[n++] = '"';
		memcpy(buf + n, key, k);
		n += k;
		memcpy(buf + n, "\": ", 3);
		n += 3;
	}
	if (n)
		fwrite(buf, 1, n, j->f);
	if (key && !k) {
		lab_json_write_string(j->f, key);
		fputs(": ", j->f);
	}
}

/* The length of the well-formed UTF-8 sequence at s (1..4), or 0 when it is not one: overlong
 * forms, surrogates and code points past U+10FFFF are not UTF-8 (RFC 3629). */
size_t lab_utf8_len(const unsigned char *s)
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

int lab_cp_escaped(unsigned cp)
{
	return (cp >= 0x80 && cp <= 0xa0) || cp == 0xad || cp == 0x061c || cp == 0x180e ||
	       (cp >= 0x2000 && cp <= 0x200a) || cp == 0x202f || cp == 0x205f ||
	       (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x2028 && cp <= 0x202e) ||
	       (cp >= 0x2060 && cp <= 0x206f) || cp == 0x115f || cp == 0x1160 || cp == 0x3164 ||
	       cp == 0xffa0 || cp == 0xfeff || (cp >= 0xfff9 && cp <= 0xfffb) ||
	       (cp >= 0xe0000 && cp <= 0xe007f);
}

unsigned lab_utf8_control_cp(const unsigned char *u, size_t n)
{
	unsigned cp;

	if (n < 2 || n > 4)
		return 0;
	cp = u[0] & (0x7fu >> n);
	for (size_t i = 1; i < n; i++)
		cp = cp << 6 | (u[i] & 0x3fu);
	return lab_cp_escaped(cp) ? cp : 0;
}

void lab_json_write_string(FILE *f, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned cp;

	fputc('"', f);
	while (*u) {
		const unsigned char *run = u;
		size_t n;

		/* one fwrite per run of bytes that pass as they are: a call per byte was a fifth of
		 * the analyzer's time on large data sets */
		while (*u >= 0x20 && *u != '"' && *u != '\\' && *u != 0x7f &&
		       (n = lab_utf8_len(u)) && !lab_utf8_control_cp(u, n))
			u += n;
		if (u > run)
			fwrite(run, 1, (size_t)(u - run), f);
		if (!*u)
			break;
		if (*u >= 0x80 && (n = lab_utf8_len(u)) && (cp = lab_utf8_control_cp(u, n))) {
			if (cp > 0xffff) /* a tag: its UTF-16 surrogate pair */
				fprintf(f, "\\u%04x\\u%04x", 0xd800 + ((cp - 0x10000) >> 10),
				        0xdc00 + ((cp - 0x10000) & 0x3ff));
			else
				fprintf(f, "\\u%04x", cp);
			u += n;
			continue;
		}
		if (*u == '"' || *u == '\\')
			fprintf(f, "\\%c", *u);
		else if (*u == '\n')
			fputs("\\n", f);
		else if (*u == '\r')
			fputs("\\r", f);
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

void lab_json_begin_digits(struct lab_json *j, FILE *f, int digits)
{
	j->f = f;
	j->depth = 0;
	j->flat = 0;
	j->digits = digits;
	j->first[0] = true;
}

void lab_json_begin(struct lab_json *j, FILE *f)
{
	lab_json_begin_digits(j, f, 0);
}

int lab_json_end(struct lab_json *j)
{
	fputc('\n', j->f);
	return ferror(j->f) ? -1 : 0;
}

static void json_open(struct lab_json *j, const char *key, char c)
{
	json_prefix(j, key);
	fputc(c, j->f);
	if (j->depth + 1 < LAB_JSON_DEPTH_MAX)
		j->depth++;
	j->first[j->depth] = true;
}

static void json_close(struct lab_json *j, char c)
{
	bool empty = j->first[j->depth], inline_ = j->flat && j->depth >= j->flat;

	if (j->depth > 0)
		j->depth--;
	if (!empty && inline_)
		fputc(' ', j->f);
	else if (!empty)
		json_indent(j);
	fputc(c, j->f);
	if (j->flat && j->depth < j->flat)
		j->flat = 0;
}

void lab_json_obj_open(struct lab_json *j, const char *key)
{
	json_open(j, key, '{');
}

void lab_json_obj_open_line(struct lab_json *j, const char *key)
{
	json_open(j, key, '{');
	if (!j->flat)
		j->flat = j->depth;
}

void lab_json_obj_close(struct lab_json *j)
{
	json_close(j, '}');
}

void lab_json_arr_open(struct lab_json *j, const char *key)
{
	json_open(j, key, '[');
}

void lab_json_arr_close(struct lab_json *j)
{
	json_close(j, ']');
}

void lab_json_str(struct lab_json *j, const char *key, const char *s)
{
	json_prefix(j, key);
	if (s)
		lab_json_write_string(j->f, s);
	else
		fputs("null", j->f);
}

/* The decimal digits of v, with a '-' when neg, written to f (printf's %lld / %llu). */
static void json_digits(FILE *f, uint64_t v, int neg)
{
	char buf[24];
	size_t k = sizeof(buf);

	do
		buf[--k] = (char)('0' + v % 10);
	while (v /= 10);
	if (neg)
		buf[--k] = '-';
	fwrite(buf + k, 1, sizeof(buf) - k, f);
}

void lab_json_int(struct lab_json *j, const char *key, int64_t v)
{
	json_prefix(j, key);
	json_digits(j->f, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, v < 0);
}

void lab_json_uint(struct lab_json *j, const char *key, uint64_t v)
{
	json_prefix(j, key);
	json_digits(j->f, v, 0);
}

static void json_raw_num(const struct lab_json *j, double v)
{
	char buf[40];

	if (!isfinite(v)) {
		fputs("null", j->f);
		return;
	}
	if (j->digits > 0) {
		lab_fput_g(j->f, j->digits, v);
		return;
	}
	/* The shortest of %.15g and %.17g that reads back exactly. */
	snprintf(buf, sizeof(buf), "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, sizeof(buf), "%.17g", v);
	fputs(buf, j->f);
}

void lab_json_num(struct lab_json *j, const char *key, double v)
{
	json_prefix(j, key);
	json_raw_num(j, v);
}

void lab_json_pair(struct lab_json *j, const char *key, double lo, double hi)
{
	json_prefix(j, key);
	fputc('[', j->f);
	json_raw_num(j, lo);
	fputs(", ", j->f);
	json_raw_num(j, hi);
	fputc(']', j->f);
}

void lab_json_bool(struct lab_json *j, const char *key, bool v)
{
	json_prefix(j, key);
	fputs(v ? "true" : "false", j->f);
}

void lab_json_null(struct lab_json *j, const char *key)
{
	json_prefix(j, key);
	fputs("null", j->f);
}

void lab_json_kvlist(struct lab_json *j, const char *key, const char *text)
{
	char *copy = strdup(text), *save = NULL;

	lab_json_obj_open(j, key);
	for (char *kv = copy ? strtok_r(copy, ";", &save) : NULL; kv;
	     kv = strtok_r(NULL, ";", &save)) {
		char *eq = strchr(kv, '=');
		if (eq) {
			*eq = '\0';
			lab_json_str(j, kv, eq + 1);
		}
	}
	lab_json_obj_close(j);
	free(copy);
}
