/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * An analysis written into its results directory: summary.csv, analysis.json, the views' CSV
 * files, plots/ and report.html, each a fresh regular file renamed into place (analyze/wfile.h),
 * then the record of what was written (analyze/manifest.h), which also removes what the earlier
 * analysis of the directory wrote and this one did not.
 */
#ifndef LAB_ANALYZE_WRITE_DIR_H
#define LAB_ANALYZE_WRITE_DIR_H

#include "analyze/analysis.h"
#include "analyze/err.h"
#include "analyze/plots.h"

/* Checks before anything is written that no output name in dir (plots/ too when plots) is a
 * link or a special file (lab_an_outputs_check). Returns 0 or -LAB_EIO with the refusal. */
int lab_an_dir_check(const struct lab_an_analysis *a, const char *dir, int plots,
                     struct lab_err *err);

/*
 * Writes a into dir, after lab_an_dir_check: the files above, plots/ only when plots (rendered
 * when gnuplot is on PATH; out gets them, free with lab_an_plots_free). Whether it succeeds or
 * fails part-way, it ends by removing the names of the earlier record this analysis did not
 * write and recording what it wrote, so what stays in dir is this analysis's alone; when it
 * fails before writing any file, dir is left as it was (the earlier analysis's files and
 * record). *nwritten gets the number of files written; *clean 1 when the record was written
 * and no file of the earlier analysis stays (one that could not be removed, or a record that
 * could not be written, is said in warn). Warnings go to warn. Returns 0 or a negative code
 * with the first cause in err.
 */
int lab_an_dir_write(const struct lab_an_analysis *a, const char *dir, int plots,
                     struct lab_an_plots *out, size_t *nwritten, int *clean,
                     struct lab_an_warnings *warn, struct lab_err *err);

/* Async-signal-safe, for a handler while lab_an_dir_writing(): the writing stops after the
 * file under way (gnuplot is ended), records what it wrote as on a failure part-way, and
 * returns -LAB_EINTR. */
void lab_an_dir_interrupt(void);

/* Whether lab_an_dir_write is under way (from a signal handler: whether to interrupt it or to
 * end the process, which leaves nothing of this analysis). */
int lab_an_dir_writing(void);

#endif
