/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The heap of lab analyze, report and compare: a large results directory grows the analyzer's
 * arrays to hundreds of MB, and where a page fault is dear (10 us in a PVM guest, against
 * well under 1 us on bare metal) faulting them in page by page is a sixth of the analysis.
 */
#ifndef LAB_LAB_AN_HEAP_H
#define LAB_LAB_AN_HEAP_H

#include <stddef.h>

/* Sets glibc's heap up for an analysis of the files named (samples.csv and run.json of each
 * directory, or a --csv file; NULL entries and files that cannot be read are left out):
 * allocations under 32 MiB from the heap, freed memory kept, and when the inputs are large, the
 * heap grown at once by about what the analysis will use, with transparent huge pages asked
 * for. Returns the bytes grown ahead (0: none). */
size_t lab_an_heap_setup(const char *const *files, size_t nfiles);

#endif
