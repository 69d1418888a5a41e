/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The lab's one streaming JSON writer (emit only), for run.json, analysis.json and every --json
 * document. It tracks nesting (at most LAB_JSON_DEPTH_MAX levels) to place commas, writes
 * non-finite numbers as null, and pretty-prints with two-space indents. Its output is always valid
 * JSON, whatever bytes the strings hold: control bytes are escaped and bytes that are not
 * well-formed UTF-8 become U+FFFD (results files are untrusted input). Errors of the underlying
 * FILE are sticky and reported by lab_json_end(). A base header: the analyzer uses it too.
 */
#ifndef LAB_HARNESS_JSON_H
#define LAB_HARNESS_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define LAB_JSON_DEPTH_MAX 32

struct lab_json {
	FILE *f;
	int depth;
	int digits;                     /* significant digits of numbers; 0: shortest exact */
	int flat;                       /* > 0: containers from this depth on are on one line */
	bool first[LAB_JSON_DEPTH_MAX]; /* no element written yet at this depth */
};

/* Starts a document on f (not owned); numbers are written with the fewest digits (15 or 17) that
 * read back exactly. */
void lab_json_begin(struct lab_json *j, FILE *f);
/* Starts a document whose numbers are written as printf's %.{digits}g (the analyzer's 10: its
 * figures carry no more). */
void lab_json_begin_digits(struct lab_json *j, FILE *f, int digits);
/* Ends the document with a newline; returns 0, or -1 when writing to the FILE failed. */
int lab_json_end(struct lab_json *j);

/* Containers: a key may be NULL inside arrays and at the top level. */
void lab_json_obj_open(struct lab_json *j, const char *key);
void lab_json_obj_close(struct lab_json *j);
/* An object written on one line with everything in it (a table's row): large documents stay
 * readable and a fraction of the size. */
void lab_json_obj_open_line(struct lab_json *j, const char *key);
void lab_json_arr_open(struct lab_json *j, const char *key);
void lab_json_arr_close(struct lab_json *j);

/* Values, with an optional key (NULL inside arrays). */
void lab_json_str(struct lab_json *j, const char *key, const char *s); /* NULL s writes null */
void lab_json_int(struct lab_json *j, const char *key, int64_t v);
void lab_json_uint(struct lab_json *j, const char *key, uint64_t v);
void lab_json_num(struct lab_json *j, const char *key, double v); /* %.17g trimmed; NaN = null */
void lab_json_bool(struct lab_json *j, const char *key, bool v);
void lab_json_null(struct lab_json *j, const char *key);
/* A two-element array [lo, hi] on one line (an interval); non-finite ends are null. */
void lab_json_pair(struct lab_json *j, const char *key, double lo, double hi);

/* Writes "k=v;k=v" text as an object {"k": "v", ...} (a params column, say). */
void lab_json_kvlist(struct lab_json *j, const char *key, const char *text);

/* The length of the well-formed UTF-8 sequence at s (1..4), or 0 when it is not one (RFC 3629:
 * no overlong forms, surrogates or code points past U+10FFFF). */
size_t lab_utf8_len(const unsigned char *s);
/* 1 when the writers of untrusted text show code point cp escaped (\uXXXX): it can move or
 * reorder shown text (C1 controls U+0080..009F, bidi marks, embeddings, overrides and isolates,
 * the line and paragraph separators), shows as a space that is none (no-break and the other
 * fixed-width spaces: "noop" + U+00A0 read as "noop" in "unknown kernel (did you mean
 * 'noop'?)") or shows as nothing (soft hyphen, zero-width space,
 * non-joiner and joiner, word joiner and invisible operators, the Hangul fillers, a BOM inside
 * text, the interlinear annotation marks, the tags):
 * "compact" followed by U+200B read as "compact" in an error saying it was no policy. */
int lab_cp_escaped(unsigned cp);
/* The code point of the well-formed UTF-8 character u (n bytes) when lab_cp_escaped, else 0. */
unsigned lab_utf8_control_cp(const unsigned char *u, size_t n);

/* Writes s as a JSON string literal (with quotes) to f: '"', '\\', \n, \r and \t as
 * two-character escapes, other control bytes and DEL as \u00XX, each byte that does not start
 * well-formed UTF-8 as \ufffd. */
void lab_json_write_string(FILE *f, const char *s);

/*
 * printf's "%.*g" of a double without printf: the analyzer writes millions of numbers
 * (analysis.json, the CSV files, the text and HTML tables) and printf's exact decimal
 * conversion (multi-precision arithmetic per number) was a fifth of its time. The result is
 * always the very bytes snprintf(buf, len, "%.*g", prec, v) writes in the C locale: a value whose
 * rounding this cannot decide for certain in double arithmetic (within a few units in the last
 * place of a tie), a non-finite value, a precision over LAB_FMT_G_MAX or a decimal exponent past
 * the exact powers of ten goes to snprintf.
 */
/* Precisions the fast path takes (the analyzer's 4, 9 and 10). */
#define LAB_FMT_G_MAX 12

/* Writes "%.*g" of v into buf (at most len bytes with the NUL) and returns the length of the
 * full text, as snprintf does (negative on an encoding error, as snprintf). A finite v within
 * 1e-4 of DBL_MAX gets 17 digits: rounded to fewer it would read back as inf. */
int lab_fmt_g(char *buf, size_t len, int prec, double v);

/* fputs of lab_fmt_g's text (what fprintf(f, "%.*g", prec, v) writes). */
void lab_fput_g(FILE *f, int prec, double v);

#endif
