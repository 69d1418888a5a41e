/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "lab/run_warn.h"

#include "harness/counters.h"

/* Thread-samples of rec that ran off their planned CPU (binding is checked at team creation;
 * this catches a thread found elsewhere during a sample). */
static unsigned run_warn_moved(const struct lab_point_rec *rec)
{
	const struct lab_point *pt = rec->pt;
	unsigned moved = 0;

	if (!rec->threads || !rec->nworkers)
		return 0;
	/* threads.csv rows are the harness workers: one for an OpenMP kernel (on cpus[0]). */
	for (unsigned i = 0; i < rec->nreps * rec->nworkers; i++) {
		int want = pt->cpus[i % rec->nworkers];
		moved += rec->threads[i].cpu_start != want || rec->threads[i].cpu_end != want;
	}
	for (unsigned i = 0; rec->omp_cpus && i < rec->nthreads; i++)
		moved += rec->omp_cpus[i] != pt->cpus[i];
	return moved;
}

/* 1 the first time point id is marked in set (ids past the plan's limit: every time). */
static int run_warn_first(unsigned char *set, unsigned id)
{
	int first = id >= LAB_POINTS_MAX || !(set[id / 8] & (1u << (id % 8)));

	if (id < LAB_POINTS_MAX)
		set[id / 8] |= (unsigned char)(1u << (id % 8));
	return first;
}

void lab_run_warn_add(struct lab_run_warn *w, const struct lab_point_rec *rec)
{
	unsigned moved = run_warn_moved(rec);
	int mig = rec->ctr && rec->ctr->mig_samples;

	if ((moved || mig) && !w->any) {
		w->first_point = rec->pt->id;
		w->any = 1;
	}
	w->moved_points += moved > 0 && run_warn_first(w->moved_seen, rec->pt->id);
	w->moved_thread_samples += moved;
	if (mig) {
		w->mig_points += run_warn_first(w->mig_seen, rec->pt->id);
		w->mig_samples += rec->ctr->mig_samples;
		w->mig_of += rec->ctr->samples;
		w->switched_samples += rec->ctr->cs_samples;
	}
}

unsigned lab_run_warn_print(FILE *f, const struct lab_run_warn *w)
{
	unsigned n = 0;

	if (w->moved_points) {
		fprintf(
		    f,
		    "lab: warning: %u thread-samples in %u point%s ran off their planned CPU "
		    "(first: point %u; threads.csv cpu_start/cpu_end): those points did not run "
		    "where their conditions say\n",
		    w->moved_thread_samples, w->moved_points, w->moved_points == 1 ? "" : "s",
		    w->first_point);
		n++;
	}
	if (w->mig_points) {
		fprintf(
		    f,
		    "lab: warning: a pinned thread migrated in %u of %u samples in %u point%s "
		    "(ctr_cpu_migrations; %u of them also switched out, ctr_context_switches)\n",
		    w->mig_samples, w->mig_of, w->mig_points, w->mig_points == 1 ? "" : "s",
		    w->switched_samples);
		n++;
	}
	return n;
}
