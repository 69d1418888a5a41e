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
#include <stdint.h>

#include "analyze/err.h"

struct lab_an_csv {
	char *path;
	int fd;
	char *buf;        /* the bytes read and not yet consumed, from the current record on */
	size_t len, pos;  /* bytes in buf; where the next record starts */
	size_t cap, scan; /* buf's size; how far the record's end was looked for */
	int eof;          /* the file has no more bytes */
	uint64_t left; /* bytes to read: the file's size when opened (one growing is cut there) */
	size_t line;   /* the line the current record starts on (1-based) */
	size_t next_line; /* the line after it */
	char **field;
	size_t nfield, fcap;
	int complete;   /* the current record ended with a newline (0: the file was cut) */
	int open_quote; /* the file was cut inside a quoted field of the current record */
};

/* Opens path (a regular file, else the error of lab_an_input_open), skipping a UTF-8
 * byte order mark. Returns 0 or a negative code with the cause in err; close it either way. */
int lab_an_csv_open(struct lab_an_csv *r, const char *path, struct lab_err *err);
/* The same with LAB_AN_IN_* flags: LAB_AN_IN_NOFOLLOW for a file of a results directory. */
int lab_an_csv_open_flags(struct lab_an_csv *r, const char *path, unsigned flags,
                          struct lab_err *err);
/*
 * Splits the next record into r->field[0..r->nfield-1]. Returns 1 for a record, 0 at the end of
 * the file, or a negative code ("PATH:LINE: NUL byte ...", "PATH:LINE: a record longer than
 * 16 MiB ...", a read error) in err. Blank lines are skipped. A
 * last record without its newline is returned with complete = 0 (open_quote = 1 when the cut
 * fell inside a quoted field): the caller decides whether a cut record counts.
 */
int lab_an_csv_next(struct lab_an_csv *r, struct lab_err *err);
void lab_an_csv_close(struct lab_an_csv *r);
/* The index of the column named name in the current record (the header), or -1. */
int lab_an_csv_column(const struct lab_an_csv *r, const char *name);

/* The largest input file the analyzer reads whole (run.json, fleet.json): a run.json of 100,000
 * points of 128 threads is about 100 MB, so 1 GiB refuses only padding; CSV files are streamed
 * and have no limit but their size when opened (a file that grows while read is read that far). */
#define LAB_AN_FILE_MAX ((size_t)1 << 30)
/* The CSV reader's read size and its longest record (a header of 200,000 columns fits). */
#define LAB_AN_CSV_CHUNK      ((size_t)1 << 16)
#define LAB_AN_CSV_RECORD_MAX (16 << 20)

/* An input file inside a results directory is opened like the outputs: never through a symbolic
 * link (its data could be anyone's file outside DIR). */
#define LAB_AN_IN_NOFOLLOW 1u

/* Opens path for reading as a regular file: a FIFO, device or directory is refused without
 * blocking ("PATH: not a regular file (a FIFO; allowed: a regular file)"), a link with
 * LAB_AN_IN_NOFOLLOW ("PATH: a symbolic link ..."): both bad input, -LAB_EDATA (exit 2); else
 * "cannot open PATH: cause", -LAB_EIO. Returns the descriptor. */
int lab_an_input_open(const char *path, unsigned flags, struct lab_err *err);
/* Reads a regular file whole into a NUL-terminated buffer (caller frees), opened as
 * lab_an_input_open does; a NUL byte is refused where it is read ("PATH:LINE: NUL byte",
 * -LAB_EDATA), before the rest of the file. */
int lab_an_input_read(const char *path, unsigned flags, char **out, size_t *len,
                      struct lab_err *err);

/* Reads a whole regular file into a NUL-terminated buffer (caller frees) with the base reader
 * (harness/fileio.h), in the analyzer's words: "cannot open PATH: cause" and "cannot read PATH:
 * cause" (-LAB_EIO), "reading PATH: out of memory"; a FIFO, device or directory is refused with
 * -LAB_EIO and the base reader's message. */
int lab_an_file_read(const char *path, char **out, size_t *len, struct lab_err *err);

#endif
