/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared by counters.c (probing, opening) and counters_sample.c (enabling, reading). */
#ifndef LAB_HARNESS_COUNTERS_INTERNAL_H
#define LAB_HARNESS_COUNTERS_INTERNAL_H

#include <stdalign.h>
#include <sys/resource.h>

#include "harness/counters.h"

#define CTR_RFMT                                                                                   \
	(PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |     \
	 PERF_FORMAT_ID)

/* One thread's instance of a group: the events that opened, the first one leading. */
struct ctr_tgroup {
	unsigned n;
	int fd[LAB_CTR_GROUP_MAX];
	uint8_t ev[LAB_CTR_GROUP_MAX];
	uint64_t id[LAB_CTR_GROUP_MAX];
	uint64_t raw[LAB_CTR_GROUP_MAX]; /* UINT64_MAX: missing from the last read */
	uint64_t enabled, running;
	bool active; /* counted in the last sample */
};

struct ctr_thread {
	alignas(128) struct ctr_tgroup g[LAB_CTR_GROUPS_MAX];
	struct rusage ru0;
	double csw, mig; /* user-only software events: from getrusage and sched_getcpu */
	int open_err;    /* first errno of a failed open on this thread (0: none) */
	int open_err_ev;
};

struct lab_ctr_point {
	const struct lab_pe_ops *ops;
	const struct lab_ctr_host *host;
	struct lab_ctr_info info;
	struct lab_ctr_group g[LAB_CTR_GROUPS_MAX];
	unsigned ng;
	unsigned pass;
	bool record;
	int ev_csw, ev_mig;
	uint64_t counted;  /* events a recorded sample counted */
	unsigned recorded; /* recorded samples */
	unsigned nw;
	struct ctr_thread *t;
};

#endif
