/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Runs one point of a kernel through the real runner, as `lab run` would, on this machine's
 * first CPUs: params from the kernel's defaults plus "key=value" overrides, small reps and
 * min_time. For kernel tests that check status and verify, never timings.
 */
#ifndef LAB_TESTS_KERNELS_KPOINT_H
#define LAB_TESTS_KERNELS_KPOINT_H

#include <stdbool.h>

#include "harness/runner.h"

struct kpoint_opts {
	unsigned nthreads;
	unsigned reps;              /* 0: 3 */
	uint64_t min_time_ns;       /* 0: 10 ms */
	double clock_resolution_ns; /* 0: the real one; a fake value tests impossible results */
	/* A fake foreign-load source (lab_runner.foreign; NULL: the real guard) and the retry keys
	 * (0, 0: no retries, whatever the source). */
	double (*foreign)(void *ctx);
	void *foreign_ctx;
	/* A fake run-queue source (lab_runner.runq). With a fake foreign source and none here,
	 * the run-queue reading is unknown, so only the fake decides what is flagged. */
	int (*runq)(void *ctx, unsigned tid, uint64_t *ns);
	void *runq_ctx;
	double max_runq_wait;     /* 0: the harness default */
	unsigned load_persistent; /* preset: points of this size the load outlasted */
	unsigned retry_flagged;
	uint64_t quiet_wait_ns;
	const char *precision; /* a precision target ("1%"; NULL: none) within budget_ns */
	uint64_t budget_ns;
};

/*
 * Runs kernel k with the overrides kv ("key=value", NULL-terminated, may be NULL) into rec
 * (free with kpoint_free). Returns 0 when the point ran (rec says how it went), LAB_SKIP when
 * check() skipped it (reason printed), or -1 with the cause printed.
 */
int kpoint_run(const struct lab_kernel *k, const char *const *kv, const struct kpoint_opts *o,
               struct lab_point_rec *rec);

/* Why the last kpoint_run returned LAB_SKIP ("kernel: reason"); "" before any skip. */
const char *kpoint_skip_reason(void);

/* Frees rec's arrays. */
void kpoint_free(struct lab_point_rec *rec);

/* Units of work done by thread i over every sample of rec. */
uint64_t kpoint_thread_work(const struct lab_point_rec *rec, unsigned i);

/* The index of k's metric called name, or -1. */
int kpoint_metric(const struct lab_kernel *k, const char *name);

/* How many CPUs this process may use. */
unsigned kpoint_ncpus(void);

#endif
