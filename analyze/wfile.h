/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Writing into a results directory that came from someone else. The analyzer writes only
 * regular files it creates itself and never follows a symbolic link inside DIR: a file is
 * written under a temporary name unique to the writer (.NAME.PID-RANDOM.lab-tmp, so two analyses
 * of one DIR never share one) created with O_EXCL|O_NOFOLLOW relative to a handle on its
 * directory, then renamed over the target, and a target that exists as anything but a regular
 * file (a link, a directory, a FIFO) is refused with an error (LAB_EIO: `lab analyze`
 * exits 1). A reader of the finished file never sees it half-written.
 */
#ifndef LAB_ANALYZE_WFILE_H
#define LAB_ANALYZE_WFILE_H

#include <stdint.h>
#include <stdio.h>

#include "analyze/err.h"

/* The stdio buffer of a file being written: the outputs run to hundreds of MB. */
#define LAB_AN_WFILE_BUF ((size_t)1 << 20)

struct lab_an_wfile {
	FILE *f;
	int dirfd;
	char *path;       /* as given, for messages */
	const char *name; /* the last component of path */
	char *tmp;        /* the temporary name in the same directory (unique per writer) */
	int slot;         /* its entry for lab_an_wfile_abort, or -1 */
	char *buf;        /* f's buffer (LAB_AN_WFILE_BUF bytes), or NULL: stdio's own */
};

/*
 * Starts writing path (DIR/NAME; DIR itself is the user's and may be reached through links).
 * Returns w->f, or NULL with the cause in err (NAME exists and is not a regular file, or it
 * cannot be created). Every successful open must end in lab_an_wfile_close.
 */
FILE *lab_an_wfile_open(struct lab_an_wfile *w, const char *path, struct lab_err *err);
/* Like lab_an_wfile_open for dir/name, dir given as an open directory handle (not owned). */
FILE *lab_an_wfile_openat(struct lab_an_wfile *w, int dirfd, const char *shown, const char *name,
                          struct lab_err *err);
/* Finishes the file: when keep and nothing failed, renames it over the target; otherwise removes
 * the temporary. Returns 0 or -LAB_EIO with the cause in err (unless err already holds one). */
int lab_an_wfile_close(struct lab_an_wfile *w, int keep, struct lab_err *err);

/* Removes the temporaries of every file being written (an interrupted analysis leaves none).
 * Async-signal-safe: for a SIGTERM/SIGINT handler, which then ends the process. */
void lab_an_wfile_abort(void);

/* A random 64-bit tag for a temporary name (getrandom; the clock and pid if it fails). */
uint64_t lab_an_tmp_tag(void);

/* 0 when name in dirfd is absent or a regular file; else -LAB_EIO naming shown/name. */
int lab_an_wfile_check(int dirfd, const char *shown, const char *name, struct lab_err *err);

/*
 * Opens DIR/sub as the analyzer's own directory (creating it when absent): refused when it is a
 * link or not a directory, or when any entry in it is a link or a non-regular file named like
 * an analyzer output. Returns the handle (O_DIRECTORY|O_NOFOLLOW) or -1 with err set.
 */
int lab_an_subdir_open(const char *dir, const char *sub, int create, struct lab_err *err);

/* Checks before anything is written that every name of the NULL-terminated files is absent or a
 * regular file in dir, and that dir/sub (when not NULL and present) passes lab_an_subdir_open's
 * test. Returns 0 or -LAB_EIO with the first refusal in err. */
int lab_an_outputs_check(const char *dir, const char *const *files, const char *sub,
                         struct lab_err *err);

#endif
