/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A small streaming JSON writer (emit only). It tracks nesting to place commas, escapes strings,
 * writes non-finite numbers as null, and pretty-prints with two-space indents. Errors of the
 * underlying FILE are sticky and reported by lab_json_end().
 */
#ifndef LAB_HARNESS_JSON_H
#define LAB_HARNESS_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define LAB_JSON_DEPTH_MAX 32

struct lab_json {
	FILE *f;
	int depth;
	bool first[LAB_JSON_DEPTH_MAX]; /* no element written yet at this depth */
};

/* Starts a document on f (not owned). */
void lab_json_begin(struct lab_json *j, FILE *f);
/* Ends the document with a newline; returns 0, or -1 when writing to the FILE failed. */
int lab_json_end(struct lab_json *j);

/* Containers: a key may be NULL inside arrays and at the top level. */
void lab_json_obj_open(struct lab_json *j, const char *key);
void lab_json_obj_close(struct lab_json *j);
void lab_json_arr_open(struct lab_json *j, const char *key);
void lab_json_arr_close(struct lab_json *j);

/* Values, with an optional key (NULL inside arrays). */
void lab_json_str(struct lab_json *j, const char *key, const char *s); /* NULL s writes null */
void lab_json_int(struct lab_json *j, const char *key, int64_t v);
void lab_json_uint(struct lab_json *j, const char *key, uint64_t v);
void lab_json_num(struct lab_json *j, const char *key, double v); /* %.17g trimmed; NaN = null */
void lab_json_bool(struct lab_json *j, const char *key, bool v);
void lab_json_null(struct lab_json *j, const char *key);

/* Writes "k=v;k=v" text as an object {"k": "v", ...} (a params column, say). */
void lab_json_kvlist(struct lab_json *j, const char *key, const char *text);

/* Writes s as a JSON string literal (with quotes) to f. */
void lab_json_write_string(FILE *f, const char *s);

#endif
