/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Warnings and small helpers of the analyzer library. Errors are the lab's one type (base header
 * harness/err.h): functions return 0 on success and a negative LAB_E* code on failure with a
 * one-line message in a struct lab_err, LAB_EDATA when the input is malformed (bad CSV value, bad
 * JSON, wrong header), LAB_EIO when a file cannot be read or written; the analyzer never prints
 * and never exits. Warnings (a truncated last line, a missing plot tool) are collected in a
 * struct lab_an_warnings for the CLI to print.
 */
#ifndef LAB_ANALYZE_ERR_H
#define LAB_ANALYZE_ERR_H

#include <stddef.h>

#include "harness/err.h"

struct lab_an_warnings {
	char **msg;
	size_t n, cap;
};

/* Appends a formatted warning; silently drops it when memory runs out (a warning is optional). */
void lab_an_warn(struct lab_an_warnings *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void lab_an_warnings_free(struct lab_an_warnings *w);

/* Helpers shared by the analyzer's files: strdup/printf into fresh memory, NULL on ENOMEM. */
char *lab_an_strdup(const char *s);
char *lab_an_asprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Appends the formatted text to buf (len bytes, *used of them taken), cut at its end; *used
 * stays below len, so calls may follow one another without checks. */
void lab_an_cat(char *buf, size_t len, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The bytes of s's longest prefix of at most max bytes that ends on a character (never inside
 * a UTF-8 sequence): what "%.*s" may print of a file's text cut to max. */
int lab_an_utf8_fit(const char *s, size_t max);
/* Grows *p (an array of elem-byte items with capacity *cap) to hold at least need items. */
int lab_an_grow(void *p, size_t *cap, size_t need, size_t elem);

#endif
