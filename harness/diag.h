/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A list of one-line diagnostics. Config validation collects every error here before anything
 * runs; the CLI prints them and exits 2.
 */
#ifndef LAB_HARNESS_DIAG_H
#define LAB_HARNESS_DIAG_H

#include "harness/err.h"

#define LAB_DIAG_MAX 200
/* The longest line kept, in bytes: a longer one keeps its start and its end around "..." (a
 * 100 000-character --set key made a 200 KB line). */
#define LAB_DIAG_LINE_MAX 1024

struct lab_diag {
	unsigned n;       /* messages kept */
	unsigned dropped; /* messages past LAB_DIAG_MAX */
	char **msg;
	/* lab_diag_add_once past LAB_DIAG_MAX: the hashes of the lines dropped (open addressing,
	 * 0 empty), so a line repeated there is counted once */
	unsigned long long *seen;
	size_t nseen, capseen;
};

/* Appends a formatted line, clipped to LAB_DIAG_LINE_MAX. Keeps the first LAB_DIAG_MAX; counts
 * the rest. */
void lab_diag_add(struct lab_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The same, unless the same line (as clipped) is already there. */
void lab_diag_add_once(struct lab_diag *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Total number of errors added. */
unsigned lab_diag_count(const struct lab_diag *d);

/* Frees the messages and resets the list. */
void lab_diag_free(struct lab_diag *d);

#endif
