/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The record of what one analysis wrote into its directory: DIR/analysis-files.txt, one name a
 * line relative to DIR ("summary.csv", "locks_points.csv", "plots/locks00-lk-...svg"). The next
 * analysis of DIR removes every name the record lists that it does not write again, so the files
 * of an earlier analysis (other experiments, views or series) never stay beside the new ones
 * looking current.
 *
 * The record travels with the directory, so it is untrusted input: a name is honoured only when
 * it is one the analyzer writes (lab_an_manifest_name_ok: its fixed files, a view's CSV file, a
 * plot file named VIEWNN-... or fleet-NN-... with a plot extension, plots/gnuplot.log,
 * plots/render-batch.gnuplot; never an input file such as run.json or samples.csv, never a path
 * with another '/' or with ".."), and a name is removed only while it is a regular file, with
 * unlinkat relative to a handle on its directory: that removes the name, never a link's target,
 * never a directory, and only while the file has the size and modification time the record
 * says it had when written (a line is NAME, a tab, its size, a tab, its mtime in ns). A user's
 * own files (plots/notes.txt, plots/important.png) are never removed. Directories analyzed before
 * the record existed keep their old files until removed by hand.
 */
#ifndef LAB_ANALYZE_MANIFEST_H
#define LAB_ANALYZE_MANIFEST_H

#include <stddef.h>

#include "analyze/err.h"

/* The record's name in DIR (an output of the analyzer like summary.csv). */
#define LAB_AN_MANIFEST "analysis-files.txt"
/* A record larger than this is not read (a real one of 300 plots is about 100 KB). */
#define LAB_AN_MANIFEST_MAX ((size_t)4 << 20)

/* Names relative to DIR, in the order added, each with the size and modification time (ns)
 * the file had when the record was written: a name is removed only while its file still has
 * them (a user's file of a name a crafted record lists, made later, is not the one written). 0
 * and 0: not known (not removed). */
struct lab_an_manifest_entry {
	char *name;
	unsigned long long size, mtime_ns;
};

struct lab_an_manifest {
	struct lab_an_manifest_entry *e;
	size_t n, cap;
};

/* Adds "sub/name" (sub NULL: "name"). Returns 0 or -LAB_ENOMEM. */
int lab_an_manifest_add(struct lab_an_manifest *m, const char *sub, const char *name);
/* Removes the last entry equal to "sub/name", if any (a file written, then left out). */
void lab_an_manifest_drop(struct lab_an_manifest *m, const char *sub, const char *name);
void lab_an_manifest_free(struct lab_an_manifest *m);

/* 1 when name (relative to DIR) is one the analyzer writes, as described above; else 0. */
int lab_an_manifest_name_ok(const char *name);

/*
 * Reads DIR's record into m (empty when there is none). Names that fail
 * lab_an_manifest_name_ok are skipped (one warning counts them); a record that is larger than
 * LAB_AN_MANIFEST_MAX, holds a NUL byte or cannot be read is ignored with a warning. A record
 * that is a link or not a regular file is refused: -LAB_EIO with the cause in err (the caller
 * checks outputs with lab_an_outputs_check first, which refuses it the same way).
 */
int lab_an_manifest_read(const char *dir, struct lab_an_manifest *m, struct lab_an_warnings *warn,
                         struct lab_err *err);

/*
 * Ends an analysis of DIR: removes each name of old (the earlier record) that cur (what this
 * analysis wrote) lacks, when it passes lab_an_manifest_name_ok and is a regular file, then
 * writes cur as DIR's record (analyze/wfile.h). Called after a failed write too, so what stays
 * in DIR is what this analysis wrote. Returns 0; 1 when a file of old stays (it could not be
 * removed: said in warn); or -LAB_EIO / -LAB_ENOMEM with the cause in err (the record could not
 * be written).
 */
int lab_an_manifest_finish(const char *dir, const struct lab_an_manifest *old,
                           const struct lab_an_manifest *cur, struct lab_an_warnings *warn,
                           struct lab_err *err);

/* Says in warn that the n files an analysis wrote before it failed are not recorded (why:
 * late, the record's own error), so a later analysis will not remove them. */
void lab_an_manifest_unrecorded(struct lab_an_warnings *warn, const struct lab_err *late, size_t n);

/* 1 when DIR holds outputs of an earlier analysis (its record, summary.csv, analysis.json or
 * report.html, as regular files): for the message of an analysis that failed before writing
 * anything. */
int lab_an_manifest_earlier(const char *dir);

#endif
