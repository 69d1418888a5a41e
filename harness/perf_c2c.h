/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * perf c2c for one point (`perf_c2c = on`): whether it can run here, the record/report around
 * the point's samples (perf_c2c_run.c), and the pure parser of `perf c2c report --stdio`'s
 * "Shared Cache Line Distribution Pareto" table: the hottest shared cache lines with their HITM
 * counts and, per line, the offsets, code addresses and symbols that touched them.
 */
#ifndef LAB_HARNESS_PERF_C2C_H
#define LAB_HARNESS_PERF_C2C_H

#include <stddef.h>
#include <stdint.h>

#include "harness/err.h"

#define LAB_C2C_LINES_MAX 16
#define LAB_C2C_OFFS_MAX  64

struct lab_c2c_line {
	unsigned num;      /* perf's index: 0 is the line with the most HITMs */
	uint64_t addr;     /* the cache line's virtual address */
	uint64_t rmt_hitm; /* loads that hit a Modified line in another node's cache */
	uint64_t lcl_hitm; /* ... in another core's cache on the same node */
};

struct lab_c2c_off {
	unsigned line;      /* index into lines[] */
	uint64_t offset;    /* byte offset in the line */
	double rmt_pct;     /* this offset's share of the line's remote HITMs, % */
	double lcl_pct;     /* ... of its local HITMs, % */
	uint64_t code_addr; /* the instruction */
	char symbol[96];    /* "[.] name" ([k] for the kernel) */
	char object[64];    /* the shared object */
};

struct lab_c2c_report {
	struct lab_c2c_line lines[LAB_C2C_LINES_MAX];
	unsigned nlines;
	struct lab_c2c_off offs[LAB_C2C_OFFS_MAX];
	unsigned noffs;
	unsigned dropped; /* lines or offsets past the maxima */
};

/*
 * Parses the text of `perf c2c report --stdio` (len bytes, need not end in NUL) into *r.
 * Returns 0 (a report without shared lines gives nlines 0), or -LAB_EDATA when the Pareto
 * table is missing or a row does not read as one (the message quotes the line number).
 */
int lab_c2c_parse(const char *text, size_t len, struct lab_c2c_report *r, struct lab_err *err);

#endif
