/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void json_indent(struct lab_json *j)
{
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* Writes the comma, newline, indent and key that come before any value. */
static void json_prefix(struct lab_json *j, const char *key)
{
	if (j->depth > 0) {
		if (!j->first[j->depth])
			fputc(',', j->f);
		j->first[j->depth] = false;
		json_indent(j);
	}
	if (key) {
		lab_json_write_string(j->f, key);
		fputs(": ", j->f);
	}
}

void lab_json_write_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

void lab_json_begin(struct lab_json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = true;
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
	bool empty = j->first[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (!empty)
		json_indent(j);
	fputc(c, j->f);
}

void lab_json_obj_open(struct lab_json *j, const char *key)
{
	json_open(j, key, '{');
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

void lab_json_int(struct lab_json *j, const char *key, int64_t v)
{
	json_prefix(j, key);
	fprintf(j->f, "%lld", (long long)v);
}

void lab_json_uint(struct lab_json *j, const char *key, uint64_t v)
{
	json_prefix(j, key);
	fprintf(j->f, "%llu", (unsigned long long)v);
}

void lab_json_num(struct lab_json *j, const char *key, double v)
{
	json_prefix(j, key);
	if (!isfinite(v)) {
		fputs("null", j->f);
		return;
	}
	char buf[40];
	/* The shortest of %.15g and %.17g that reads back exactly. */
	snprintf(buf, sizeof(buf), "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, sizeof(buf), "%.17g", v);
	fputs(buf, j->f);
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
