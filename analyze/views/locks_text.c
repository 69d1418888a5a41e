/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The text tables of the locks view: per conditions, per lock and thread count, throughput,
 * fairness, latency. */
#include <math.h>
#include <string.h>

#include "analyze/flagged.h"
#include "analyze/views/locks.h"

static void lab_lock_num(FILE *f, const struct lab_an_msum *m)
{
	if (m->n)
		fprintf(f, "  %-9.4g", m->median);
	else
		fprintf(f, "  %-9s", "-");
}

static void lab_lock_row(FILE *f, int w, const char *lock, const struct lab_an_lock_pt *e)
{
	char buf[LAB_ERR_MSG_MAX + 64];

	fprintf(f, "%-*.*s %7d %3zu", w, w, lock, e->pt->threads, e->thr.n);
	if (!e->thr.n) {
		fprintf(f, "  %s\n", lab_an_missing_why(e->pt, buf, sizeof(buf)));
		return;
	}
	if (isfinite(e->thr_lo))
		snprintf(buf, sizeof(buf), "%.4g [%.4g, %.4g]", e->thr.mean / 1e6, e->thr_lo / 1e6,
		         e->thr_hi / 1e6);
	else
		snprintf(buf, sizeof(buf), "%.4g", e->thr.mean / 1e6);
	fprintf(f, "  %-26s", buf);
	if (e->m[LAB_AN_LK_JAIN].n && isfinite(e->jain_lo))
		snprintf(buf, sizeof(buf), "%.3f [%.3f, %.3f]", e->m[LAB_AN_LK_JAIN].mean,
		         e->jain_lo, e->jain_hi);
	else if (e->m[LAB_AN_LK_JAIN].n)
		snprintf(buf, sizeof(buf), "%.3f", e->m[LAB_AN_LK_JAIN].mean);
	else
		snprintf(buf, sizeof(buf), "-");
	fprintf(f, "  %-22s", buf);
	lab_lock_num(f, &e->m[LAB_AN_LK_HANDOFF]);
	lab_lock_num(f, &e->m[LAB_AN_LK_P99]);
	lab_lock_num(f, &e->m[LAB_AN_LK_MAXMIN]);
	lab_lock_num(f, &e->cs);
	lab_lock_num(f, &e->drift);
	if (e->delay_why[0])
		fprintf(f, "  DELAY FLAGGED: %s", e->delay_why);
	if (lab_an_modes_multi(&e->pt->modes))
		fprintf(f, "  MULTIMODAL %s",
		        lab_an_modes_list(&e->pt->modes, 0, 1, buf, sizeof(buf)));
	fputc('\n', f);
}

void lab_an_locks_text(FILE *f, const void *state)
{
	const struct lab_an_locks *l = state;

	for (size_t i = 0; i < l->ng; i++) {
		const struct lab_an_lock_group *g = &l->g[i];

		int w = 12; /* the longest lock name of the group, whole (pthread_mutex: 13) */

		for (size_t j = 0; j < g->nc; j++)
			if ((int)strlen(g->c[j].lock) > w)
				w = strlen(g->c[j].lock) < 40 ? (int)strlen(g->c[j].lock) : 40;
		fprintf(f, "\n== locks: %s  %s\n", g->experiment, *g->params ? g->params : "-");
		fprintf(f, "%-*s %7s %3s  %-26s  %-22s  %-9s  %-9s  %-9s  %-9s  %-9s\n", w, "lock",
		        "threads", "n", "acquisitions M/s [95% CI]", "Jain fairness [95% CI]",
		        "hand-off", "p99 ns", "max/min", "cs ns", "drift %");
		for (size_t j = 0; j < g->nc; j++)
			for (size_t k = 0; k < g->c[j].npt; k++)
				lab_lock_row(f, w, g->c[j].lock, &g->c[j].pt[k]);
	}
	if (l->ng)
		fprintf(
		    f,
		    "  (throughput: mean of work/elapsed per sample, all threads together, "
		    "interval on the log scale; Jain: mean of the per-sample index, interval "
		    "inside [1/threads, 1]; hand-off: share of acquisitions that went to "
		    "another thread; hand-off, p99, max/min: medians over samples; cs ns: the "
		    "critical section achieved (cs_achieved_ns), drift %%: the busy-loop "
		    "calibration's change since the run's first (delay_drift_pct); a point whose "
		    "delay moved beyond %.0f %% or whose throughput exceeds 1/cs_ns is DELAY "
		    "FLAGGED: compare it with care)\n",
		    LAB_AN_LK_DELAY_TOL_PCT);
}
