/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Errors and warnings of the analyzer library. Functions return 0 on success and a negative
 * LAB_AN_E* code on failure with a one-line message in a struct lab_an_err; the analyzer never
 * prints and never exits. Warnings (a truncated last line, a missing plot tool) are collected in a
 * struct lab_an_warnings for the CLI to print.
 */
#ifndef LAB_ANALYZE_ERR_H
#define LAB_ANALYZE_ERR_H

#include <stddef.h>

enum {
	LAB_AN_EIO = 1,   /* a file could not be read or written */
	LAB_AN_EDATA = 2, /* the input is malformed (bad CSV value, bad JSON, wrong header) */
	LAB_AN_ENOMEM = 3,
	LAB_AN_EMATH = 4, /* a numerical routine failed */
};

struct lab_an_err {
	int code;
	char msg[512];
};

/* Fills err (when non-NULL) with code and a printf-formatted message; returns -code. */
int lab_an_err_set(struct lab_an_err *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

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
/* Grows *p (an array of elem-byte items with capacity *cap) to hold at least need items. */
int lab_an_grow(void *p, size_t *cap, size_t need, size_t elem);

#endif
