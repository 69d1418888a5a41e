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

void lab_run_warn_add(struct lab_run_warn *w, const struct lab_point_rec *rec)
{
	unsigned moved = run_warn_moved(rec);
	int mig = rec->ctr && rec->ctr->mig_samples;

	if ((moved || mig) && !w->any) {
		w->first_point = rec->pt->id;
		w->any = 1;
	}
	w->moved_points += moved > 0;
	w->moved_thread_samples += moved;
	if (mig) {
		w->mig_points++;
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
