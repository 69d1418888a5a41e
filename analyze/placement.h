/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Placements that the machine cannot tell apart: on 2 CPUs, compact, cores and scatter all put
 * 2 threads on CPUs 0 and 1, so their curves differ only by noise. Said once per set of
 * placements, so nobody reads a placement effect into them.
 */
#ifndef LAB_ANALYZE_PLACEMENT_H
#define LAB_ANALYZE_PLACEMENT_H

#include "analyze/data.h"

/*
 * Adds one warning to d->warn per experiment and set of placements whose points (same threads,
 * same params) ran on the same CPUs, from run.json; n log n in the points (points are grouped by
 * a hash, then compared). Nothing without run.json.
 */
void lab_an_placement_same(struct lab_an_data *d);

#endif
