/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The report section of the locks view: the tables and the plots. */
#include <math.h>
#include <string.h>

#include "analyze/flagged.h"
#include "analyze/report_int.h"
#include "analyze/views/locks.h"

static void an_msum_cell(FILE *f, const struct lab_an_msum *m, int ci)
{
	if (!m->n)
		fputs("<td>&ndash;</td>", f);
	else if (ci)
		fprintf(f, "<td>%.4g <small>[%.4g, %.4g]</small></td>", m->mean, m->ci95_lo,
		        m->ci95_hi);
	else
		fprintf(f, "<td>%.4g</td>", m->median);
}

static void an_lock_row(FILE *f, const char *lock, const struct lab_an_lock_pt *e)
{
	fputs("<tr><td>", f);
	lab_an_html(f, lock);
	fprintf(f, "</td><td>%d</td><td>%zu</td>", e->pt->threads, e->thr.n);
	if (!e->thr.n) {
		char why[LAB_ERR_MSG_MAX + 64];

		fputs("<td colspan=\"8\">", f);
		lab_an_html(f, lab_an_missing_why(e->pt, why, sizeof(why)));
		fputs("</td></tr>\n", f);
		return;
	}
	if (isfinite(e->thr_lo))
		fprintf(f, "<td>%.4g <small>[%.4g, %.4g]</small></td>", e->thr.mean / 1e6,
		        e->thr_lo / 1e6, e->thr_hi / 1e6);
	else if (e->thr.n)
		fprintf(f, "<td>%.4g</td>", e->thr.mean / 1e6);
	else
		fputs("<td>&ndash;</td>", f);
	if (e->m[LAB_AN_LK_JAIN].n && isfinite(e->jain_lo))
		fprintf(f, "<td>%.3f <small>[%.3f, %.3f]</small></td>", e->m[LAB_AN_LK_JAIN].mean,
		        e->jain_lo, e->jain_hi);
	else
		an_msum_cell(f, &e->m[LAB_AN_LK_JAIN], 0);
	an_msum_cell(f, &e->m[LAB_AN_LK_HANDOFF], 0);
	an_msum_cell(f, &e->m[LAB_AN_LK_P99], 0);
	an_msum_cell(f, &e->m[LAB_AN_LK_MAXMIN], 0);
	an_msum_cell(f, &e->cs, 0);
	an_msum_cell(f, &e->drift, 0);
	fputs("<td>", f);
	if (e->delay_why[0]) {
		fputs("<strong>delay flagged:</strong> ", f);
		lab_an_html(f, e->delay_why);
	}
	fputs("</td></tr>\n", f);
}

void lab_an_locks_html(FILE *f, const void *state, const struct lab_an_plots *plots,
                       const char *dir)
{
	const struct lab_an_locks *l = state;

	if (!l->ng)
		return;
	fputs("<h2>Locks under contention</h2>\n<p>Throughput = millions of acquisitions per "
	      "second, all threads together (work / elapsed of each sample; mean and 95&nbsp;% "
	      "interval on the log scale, so it stays positive). Jain's fairness index over the "
	      "threads' acquisition counts (1 = fair; mean and 95&nbsp;% interval inside "
	      "[1/threads, 1]). Hand-off ratio: the share of acquisitions that went to another "
	      "thread than the last holder (near 0: one thread keeps re-taking the lock). Acquire "
	      "latency p99 and the max/min ratio of per-thread acquisitions: medians over "
	      "samples. cs ns: the critical section achieved (<code>cs_achieved_ns</code>); drift: "
	      "the busy-loop calibration's change since the run's first "
	      "(<code>delay_drift_pct</code>). A point whose delay moved beyond 10&nbsp;% or whose "
	      "throughput exceeds 1/<code>cs_ns</code> is flagged with the reason.</p>\n",
	      f);
	for (size_t i = 0; i < l->ng; i++) {
		const struct lab_an_lock_group *g = &l->g[i];

		fputs("<h3>", f);
		lab_an_html(f, g->experiment);
		fputs(" <small>", f);
		lab_an_html(f, *g->params ? g->params : "-");
		fputs("</small></h3>\n<table><tr><th>lock</th><th>threads</th><th>n</th>"
		      "<th>acquisitions M/s [95% CI]</th><th>Jain fairness [95% CI]</th>"
		      "<th>hand-off</th><th>p99 ns</th><th>max/min</th><th>cs ns</th>"
		      "<th>drift %</th><th>delay</th></tr>\n",
		      f);
		for (size_t j = 0; j < g->nc; j++)
			for (size_t k = 0; k < g->c[j].npt; k++)
				an_lock_row(f, g->c[j].lock, &g->c[j].pt[k]);
		fputs("</table>\n", f);
		lab_an_report_view_imgs(f, plots, dir, "locks", i);
	}
}
