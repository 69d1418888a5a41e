/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the foreign-load guard left out, said once at the top of analyze, report and compare,
 * and the reason a number is missing where it is missing because of it.
 */
#ifndef LAB_ANALYZE_FLAGGED_H
#define LAB_ANALYZE_FLAGGED_H

#include <stddef.h>

#include "analyze/data.h"

/* Samples of d flagged for foreign load (left out or not), and all samples of d. */
void lab_an_flagged_count(const struct lab_an_data *d, size_t *flagged, size_t *total);

/* Of the samples p's statistics are from, those flagged for foreign load: kept by
 * --include-flagged, else 0 (they were left out). Compare and the lessons hold back a verdict
 * on a point most of whose samples these are. */
size_t lab_an_flagged_kept(const struct lab_an_point *p);

/*
 * The top-level line about flagged samples into buf ("62 % of samples (31 of 50) ran under
 * foreign load and were left out; rerun when quiet or pass --include-flagged"), or, with
 * include_flagged, that they are in. Returns 1 when d has flagged samples (buf written), else 0
 * (buf empty).
 */
int lab_an_flagged_line(const struct lab_an_data *d, int include_flagged, char *buf, size_t len);

/*
 * The top-level line about samples with asymmetric threads into buf ("3 samples with
 * asymmetric threads: the slowest thread took 1.45x the fastest ..."): threads that did
 * identical work more than LAB_AN_ASYM_RATIO apart in one sample. Returns 1 when d has such
 * samples (buf written), else 0 (buf empty).
 */
int lab_an_asym_line(const struct lab_an_data *d, char *buf, size_t len);

/* The mark of a row whose point had samples flagged for foreign load, into buf: "load-flagged
 * N left out", or "load-flagged N kept (--include-flagged)" where they are in its numbers.
 * Returns buf, or NULL (buf empty) when there are none. */
const char *lab_an_flagged_mark(const struct lab_an_point *p, char *buf, size_t len);

/* 1 when p has no usable sample only because every sample was flagged and left out. */
int lab_an_flagged_all(const struct lab_an_point *p);

/*
 * The status summary.csv and analysis.json give p: "flagged" when every sample was flagged and
 * left out, "empty" when a point run.json calls ok has no sample, else run.json's status (so
 * that a row saying "ok" always has numbers).
 */
const char *lab_an_point_status(const struct lab_an_point *p);

/*
 * Why p has no number to show, into buf: "all 10 samples load-flagged (--include-flagged keeps
 * them)", its status and reason ("skipped: needs 2 or more NUMA nodes"), or "no samples".
 * Returns buf.
 */
const char *lab_an_missing_why(const struct lab_an_point *p, char *buf, size_t len);

#endif
