/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A CSV reader for the lab's result files and for external data: comma separated, fields with
 * ',', '"' or newlines quoted with '"' and inner quotes doubled (harness/record_schema.h). The
 * whole file is read into memory and records are split in place, so a field stays valid until
 * the reader is closed.
 */
#ifndef LAB_ANALYZE_CSV_H
#define LAB_ANALYZE_CSV_H

#include <stddef.h>

#include "analyze/err.h"

struct lab_an_csv {
	char *path;
	char *buf;
	size_t len, pos;
	size_t line;      /* the line the current record starts on (1-based) */
	size_t next_line; /* the line after it */
	char **field;
	size_t nfield, cap;
	int complete;   /* the current record ended with a newline (0: the file was cut) */
	int open_quote; /* the file was cut inside a quoted field of the current record */
};

/* Opens path and reads it whole, skipping a UTF-8 byte order mark. Returns 0 or a negative code
 * with the cause in err. */
int lab_an_csv_open(struct lab_an_csv *r, const char *path, struct lab_err *err);
/*
 * Splits the next record into r->field[0..r->nfield-1]. Returns 1 for a record, 0 at the end of
 * the file, or a negative code ("PATH:LINE: NUL byte ...") in err. Blank lines are skipped. A
 * last record without its newline is returned with complete = 0 (open_quote = 1 when the cut
 * fell inside a quoted field): the caller decides whether a cut record counts.
 */
int lab_an_csv_next(struct lab_an_csv *r, struct lab_err *err);
void lab_an_csv_close(struct lab_an_csv *r);
/* The index of the column named name in the current record (the header), or -1. */
int lab_an_csv_column(const struct lab_an_csv *r, const char *name);

/* The largest input file the analyzer reads (no real limit: results files grow with the run). */
#define LAB_AN_FILE_MAX ((size_t)1 << 36)

/* Reads a whole regular file into a NUL-terminated buffer (caller frees) with the base reader
 * (harness/fileio.h), in the analyzer's words: "cannot open PATH: cause" and "cannot read PATH:
 * cause" (-LAB_EIO), "reading PATH: out of memory"; a FIFO, device or directory is refused with
 * -LAB_EIO and the base reader's message. */
int lab_an_file_read(const char *path, char **out, size_t *len, struct lab_err *err);

#endif
