/* SPDX-License-Identifier: GPL-3.0-or-later */
/* report.html sections of kernel families: the c2c latency matrix and the lock tables. */
#include <math.h>
#include <string.h>

#include "analyze/report_int.h"

/* The plots whose names start with prefix ("c01-", "l02-"), inlined. */
static void an_imgs(FILE *f, const struct lab_an_plots *plots, const char *dir, const char *prefix)
{
	for (size_t k = 0; plots && plots->rendered && k < plots->n; k++)
		if (!strncmp(plots->name[k], prefix, strlen(prefix)))
			lab_an_report_img(f, dir, plots->name[k]);
}

static void an_c2c_cell(FILE *f, const struct lab_an_c2c_cell *c)
{
	if (!c || !c->n) {
		fputs("<td>&ndash;</td>", f);
		return;
	}
	if (lab_an_modes_multi(&c->modes)) {
		fputs("<td class=\"multi\" title=\"multimodal\">", f);
		for (size_t k = 0; k < c->modes.count; k++)
			fprintf(f, "%s%.3g <small>(%.0f%%)</small>", k ? " | " : "",
			        c->modes.mode[k].center, 100 * c->modes.mode[k].weight);
	} else {
		fprintf(f, "<td>%.3g", c->median_ns);
		if (isfinite(c->ci95_lo))
			fprintf(f, " <small>[%.3g, %.3g]</small>", c->ci95_lo, c->ci95_hi);
	}
	fprintf(f, "%s</td>",
	        c->smt_siblings == 1   ? " <small>SMT</small>"
	        : c->same_package == 0 ? " <small>pkg&ne;</small>"
	        : c->same_numa == 0    ? " <small>NUMA&ne;</small>"
	                               : "");
}

static void an_c2c_matrix(FILE *f, const struct lab_an_c2c_matrix *m)
{
	fputs("<table class=\"c2c\"><tr><th>cpu</th>", f);
	for (size_t j = 0; j < m->ncpu; j++)
		fprintf(f, "<th>%d</th>", m->cpu[j]);
	fputs("</tr>\n", f);
	for (size_t i = 0; i < m->ncpu; i++) {
		fprintf(f, "<tr><th>%d</th>", m->cpu[i]);
		for (size_t j = 0; j < m->ncpu; j++) {
			if (i == j)
				fputs("<td class=\"diag\"></td>", f);
			else
				an_c2c_cell(f, lab_an_c2c_find(m, m->cpu[i], m->cpu[j]));
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

void lab_an_report_c2c(FILE *f, const struct lab_an_analysis *a, const struct lab_an_plots *plots,
                       const char *dir)
{
	if (!a->c2c.nm)
		return;
	fputs("<h2>Core-to-core latency</h2>\n<p>One-way latency = elapsed / round trips / 2, "
	      "median of the samples of each pair with a distribution-free 95&nbsp;% interval "
	      "(order statistics). A pair whose samples form several modes (the host moving "
	      "vCPUs, SMT vs cross-core paths) shows its modes with their weights instead of one "
	      "number. Every value per pair is in <code>c2c_matrix.csv</code>.</p>\n",
	      f);
	if (!a->c2c.topo_detailed)
		fputs(
		    "<p class=\"warn\">run.json has no host.topology.pus_detail: SMT siblings "
		    "and NUMA nodes are marked only where the topology summary proves them.</p>\n",
		    f);
	for (size_t i = 0; i < a->c2c.nm; i++) {
		const struct lab_an_c2c_matrix *m = &a->c2c.m[i];
		char prefix[32];

		fputs("<h3>", f);
		lab_an_html(f, m->experiment);
		fputs(" <small>", f);
		lab_an_html(f, m->params);
		fprintf(f,
		        "</small></h3>\n<p>%zu pairs, medians %.4g&ndash;%.4g ns, %zu multimodal."
		        "</p>\n",
		        m->ncell, m->min_ns, m->max_ns, m->multimodal);
		if (m->ncpu <= 32)
			an_c2c_matrix(f, m);
		snprintf(prefix, sizeof(prefix), "c%02zu-", i + 1);
		an_imgs(f, plots, dir, prefix);
	}
}

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
	if (e->thr.n)
		fprintf(f, "<td>%.4g <small>[%.4g, %.4g]</small></td>", e->thr.mean, e->thr.ci95_lo,
		        e->thr.ci95_hi);
	else
		fputs("<td>&ndash;</td>", f);
	an_msum_cell(f, &e->m[LAB_AN_LK_JAIN], 1);
	an_msum_cell(f, &e->m[LAB_AN_LK_P50], 0);
	an_msum_cell(f, &e->m[LAB_AN_LK_P99], 0);
	an_msum_cell(f, &e->m[LAB_AN_LK_MAXMIN], 0);
	fputs("</tr>\n", f);
}

void lab_an_report_locks(FILE *f, const struct lab_an_analysis *a, const struct lab_an_plots *plots,
                         const char *dir)
{
	if (!a->locks.ng)
		return;
	fputs("<h2>Locks under contention</h2>\n<p>Throughput = acquisitions per second "
	      "(work / elapsed of each sample; mean and 95&nbsp;% t-interval). Jain's fairness "
	      "index over the threads' acquisition counts (1 = fair; mean and 95&nbsp;% "
	      "interval). Acquire latency p50/p99 and the max/min ratio of per-thread "
	      "acquisitions: medians over samples.</p>\n",
	      f);
	for (size_t i = 0; i < a->locks.ng; i++) {
		const struct lab_an_lock_group *g = &a->locks.g[i];
		char prefix[32];

		fputs("<h3>", f);
		lab_an_html(f, g->experiment);
		fputs(" <small>", f);
		lab_an_html(f, *g->params ? g->params : "-");
		fputs("</small></h3>\n<table><tr><th>lock</th><th>threads</th><th>n</th>"
		      "<th>acquisitions/s [95% CI]</th><th>Jain fairness [95% CI]</th>"
		      "<th>p50 ns</th><th>p99 ns</th><th>max/min</th></tr>\n",
		      f);
		for (size_t j = 0; j < g->nc; j++)
			for (size_t k = 0; k < g->c[j].npt; k++)
				an_lock_row(f, g->c[j].lock, &g->c[j].pt[k]);
		fputs("</table>\n", f);
		snprintf(prefix, sizeof(prefix), "l%02zu-", i + 1);
		an_imgs(f, plots, dir, prefix);
	}
}
