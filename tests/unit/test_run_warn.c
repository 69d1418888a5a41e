/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Issue 21 finding 9: `lab run` warns when a cause changed a result, once per cause, with
 * counts (lab/run_warn.c). Before, every config printed "a pinned thread was switched out"
 * at 0.07-0.3 % run-queue wait, and one line per point per cause (28 in one run).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/counters.h"
#include "lab/run_warn.h"
#include "tests/testlib.h"

/* A 2-thread point pinned to CPUs 0 and 1 with 3 samples; moved thread-samples off CPU. */
struct rw_fake {
	struct lab_point pt;
	int cpus[2];
	struct lab_thread_rec threads[6];
	struct lab_ctr_info ctr;
	struct lab_point_rec rec;
};

static void rw_fake(struct rw_fake *f, unsigned id, unsigned moved, unsigned cs, unsigned mig)
{
	memset(f, 0, sizeof(*f));
	f->cpus[0] = 0;
	f->cpus[1] = 1;
	f->pt.id = id;
	f->pt.cpus = f->cpus;
	for (unsigned i = 0; i < 6; i++) {
		f->threads[i].cpu_start = f->threads[i].cpu_end = (int)(i % 2);
		f->threads[i].runq_wait = 0.002; /* 0.2 %: switched out now and then */
	}
	for (unsigned i = 0; i < moved && i < 6; i++)
		f->threads[i].cpu_end = 5;
	f->ctr.cs_samples = cs;
	f->ctr.mig_samples = mig;
	f->ctr.samples = 3;
	f->rec.pt = &f->pt;
	f->rec.nthreads = f->rec.nworkers = 2;
	f->rec.nreps = 3;
	f->rec.threads = f->threads;
	f->rec.ctr = &f->ctr;
}

/* What lab_run_warn_print wrote for w, and its line count in *lines. */
static char *rw_print(const struct lab_run_warn *w, unsigned *lines)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*lines = lab_run_warn_print(f, w);
	fclose(f);
	return buf;
}

/* 28 points whose pinned threads were switched out in every sample, nothing flagged, nothing
 * migrated: no result changed, so no warning. */
LAB_TEST(switched_out_alone_is_quiet)
{
	struct lab_run_warn w = {0};
	struct rw_fake f;
	unsigned lines;
	char *out;

	for (unsigned i = 0; i < 28; i++) {
		rw_fake(&f, i, 0, 3, 0);
		lab_run_warn_add(&w, &f.rec);
	}
	out = rw_print(&w, &lines);
	CHECK_EQ_I64(lines, 0);
	CHECK_EQ_STR(out, "");
	free(out);
}

/* 5 points with threads off their CPU and 2 with migrations: one line per cause, counted. */
LAB_TEST(once_per_cause_with_counts)
{
	struct lab_run_warn w = {0};
	struct rw_fake f;
	unsigned lines;
	char *out;

	for (unsigned i = 0; i < 20; i++) {
		rw_fake(&f, i, i >= 3 && i < 8 ? 2 : 0, 1, i == 10 || i == 12 ? 1 : 0);
		lab_run_warn_add(&w, &f.rec);
	}
	out = rw_print(&w, &lines);
	CHECK_EQ_I64(lines, 2);
	CHECK(strstr(out,
	             "10 thread-samples in 5 points ran off their planned CPU (first: point 3") !=
	      NULL);
	CHECK(strstr(out, "migrated in 2 of 6 samples in 2 points") != NULL);
	CHECK(strstr(out, "switched out in") == NULL);
	free(out);
}

/* A point of runs = 3 has a record per run: its thread-samples add up, the point counts once
 * (the warning said "3 points" for one). */
LAB_TEST(a_point_of_runs_counts_once)
{
	static struct lab_run_warn w; /* its bitsets are large for a stack */
	struct rw_fake f;
	unsigned lines;
	char *out;

	for (unsigned run = 0; run < 3; run++) {
		rw_fake(&f, 7, 1, 0, 2);
		lab_run_warn_add(&w, &f.rec);
	}
	CHECK_EQ_U64(w.moved_points, 1);
	CHECK_EQ_U64(w.moved_thread_samples, 3);
	CHECK_EQ_U64(w.mig_points, 1);
	CHECK_EQ_U64(w.mig_samples, 6);
	out = rw_print(&w, &lines);
	CHECK(strstr(out, "3 thread-samples in 1 point ran off") != NULL);
	free(out);
}
