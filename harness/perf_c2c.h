/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * perf c2c for one point (`perf_c2c = on`): whether it can run here, the record/report around
 * the point's samples (perf_c2c_run.c), and the pure parser of `perf c2c report --stdio`'s
 * "Shared Cache Line Distribution Pareto" table: the hottest shared cache lines with their HITM
 * counts and, per line, the offsets, code addresses and symbols that touched them.
 */
#ifndef LAB_HARNESS_PERF_C2C_H
#define LAB_HARNESS_PERF_C2C_H

#include <stdbool.h>
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

struct lab_ctr_host;
struct lab_ctx;

/*
 * Pure: why perf c2c cannot run on host h (perf_found: a `perf` in PATH), into why; false when
 * nothing is known to stop it. Missing perf, perf_event_paranoid above 1 without privilege, or
 * no PMU that samples memory accesses (Intel's cpu PMU, AMD's ibs_op).
 */
bool lab_c2c_unavailable(const struct lab_ctr_host *h, bool perf_found, char *why, size_t len);

/* Whether an executable `perf` is in PATH. */
bool lab_c2c_perf_in_path(void);

/* A `perf c2c record -p <this process>` running in the background. */
struct lab_c2c_session {
	int pid; /* perf's; 0 when not started */
	char dir[64];
	char data[96];
	/* seconds perf c2c record gets to end after SIGINT, and report to answer, before they are
	 * killed (lab_c2c_start sets LAB_C2C_RECORD_END_S and LAB_C2C_REPORT_S) */
	unsigned record_end_s, report_s;
};

#define LAB_C2C_RECORD_END_S 120
#define LAB_C2C_REPORT_S     300

/*
 * Starts `perf c2c record -o <tmp>/perf.data -p <this pid>` (fork and exec with an argument
 * vector, no shell). Returns 0 or -LAB_ESYS.
 */
int lab_c2c_start(struct lab_c2c_session *s, struct lab_err *err);

/*
 * Stops the recording (SIGINT, as perf expects), runs `perf c2c report --stdio` on it, parses it
 * into *r and removes the temporary files. Returns 0, -LAB_ESYS (perf failed: the message says
 * how) or -LAB_EDATA (the report did not parse).
 */
int lab_c2c_stop(struct lab_c2c_session *s, struct lab_c2c_report *r, struct lab_err *err);

/*
 * Writes r into ctx's facts: perf_c2c ("ok"), perf_c2c_lines (how many shared lines), and
 * perf_c2c_top, the hottest lines and their offsets as text:
 * "0x7f3a1c000040 rmt_hitm=706 lcl_hitm=2391: +0x0 61.1%/52.7% [.] fs_run_packed (lib.so), ...;
 * ..."
 */
void lab_c2c_facts(struct lab_ctx *ctx, const struct lab_c2c_report *r);

/*
 * The runner's two calls around a point's samples with perf_c2c = on. begin probes host and
 * starts perf, or records `perf_c2c: unavailable (<reason>)` in ctx's facts; end stops it and
 * records the report (or, again, why not). end does nothing when begin did not start perf.
 */
void lab_c2c_point_begin(struct lab_c2c_session *s, const struct lab_ctr_host *host,
                         struct lab_ctx *ctx);
void lab_c2c_point_end(struct lab_c2c_session *s, struct lab_ctx *ctx);

#endif
