/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The report section of the c2c view: the matrix table per method and the heatmaps. */
#include <math.h>
#include <string.h>

#include "analyze/report_int.h"
#include "analyze/views/c2c.h"

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

void lab_an_c2c_html(FILE *f, const void *state, const struct lab_an_plots *plots, const char *dir)
{
	const struct lab_an_c2c *c = state;

	if (!c->nm)
		return;
	fputs("<h2>Core-to-core latency</h2>\n<p>One-way latency = elapsed / round trips / 2, "
	      "median of the samples of each pair with a distribution-free 95&nbsp;% interval "
	      "(order statistics). A pair whose samples form several modes (the host moving "
	      "vCPUs, SMT vs cross-core paths) shows its modes with their weights instead of one "
	      "number. Every value per pair is in <code>c2c_matrix.csv</code>.</p>\n",
	      f);
	if (!c->topo_detailed)
		fputs(
		    "<p class=\"warn\">run.json has no host.topology.pus_detail: SMT siblings "
		    "and NUMA nodes are marked only where the topology summary proves them.</p>\n",
		    f);
	for (size_t i = 0; i < c->nm; i++) {
		const struct lab_an_c2c_matrix *m = &c->m[i];

		fputs("<h3>", f);
		lab_an_html(f, m->experiment);
		fputs(" <small>", f);
		lab_an_html(f, m->params);
		if (m->max_ns >= m->min_ns)
			fprintf(f,
			        "</small></h3>\n<p>%zu pairs, medians %.4g&ndash;%.4g ns, %zu "
			        "multimodal.</p>\n",
			        m->ncell, m->min_ns, m->max_ns, m->multimodal);
		else
			fprintf(f, "</small></h3>\n<p class=\"warn\">%zu pairs, %s.</p>\n",
			        m->ncell, lab_an_c2c_no_median(m));
		if (m->ncpu <= 32)
			an_c2c_matrix(f, m);
		lab_an_report_view_imgs(f, plots, dir, "c2c", i);
	}
}
