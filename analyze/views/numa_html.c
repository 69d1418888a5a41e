/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The report section of the numa view. Every text from the files goes through lab_an_html. */
#include <math.h>
#include <string.h>

#include "analyze/report_int.h"
#include "analyze/views/numa.h"

static void an_td(FILE *f, const struct lab_an_numa_row *r)
{
	if (!r || !r->n) {
		fputs("<td>&ndash;</td>", f);
		return;
	}
	fprintf(f, "<td%s>%s%.4g", r->placement_ok == 0 ? " class=\"warn\"" : "",
	        r->mean_ci && isfinite(r->lo) ? "mean " : "", r->med);
	if (isfinite(r->lo))
		fprintf(f, " <small>[%.4g, %.4g]</small>", r->lo, r->hi);
	fputs("</td>", f);
}

static void an_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "<td>%.4g</td>", v);
	else
		fputs("<td>&ndash;</td>", f);
}

static void an_marks(FILE *f, const struct lab_an_numa_group *g)
{
	for (size_t i = 0; g->kind == LAB_AN_NUMA_POLICY && i < g->nrow; i++) {
		if (g->row[i].same != (long)i)
			continue;
		fputs("<p class=\"warn\">", f);
		for (size_t k = i, first = 1; k < g->nrow; k++)
			if (g->row[k].same == (long)i) {
				fputs(first ? "" : ", ", f);
				lab_an_html(f, g->row[k].init);
				first = 0;
			}
		fprintf(f, " (threads=%d): " LAB_AN_NUMA_SAME ".</p>\n", g->row[i].pt->threads);
	}
	for (size_t k = 0; k < g->nrow; k++) {
		const struct lab_an_numa_row *r = &g->row[k];

		if (r->placement_ok == 0) {
			fprintf(f, "<p class=\"warn\">Point %ld: " LAB_AN_NUMA_MISMATCH ": ",
			        r->pt->id);
			lab_an_html(f, r->note ? r->note : "(no note recorded)");
			fputs("</p>\n", f);
		}
		if (!r->n && r->pt->reason &&
		    (g->kind != LAB_AN_NUMA_MATRIX ||
		     (r->cpu_node < g->nnode && r->mem_node < g->nnode))) {
			fprintf(f, "<p>Point %ld ", r->pt->id);
			lab_an_html(f, r->pt->status);
			fputs(": ", f);
			lab_an_html(f, r->pt->reason);
			fputs("</p>\n", f);
		}
	}
}

/* " n1: 1.6 (2.1)": a row's remote/local ratio to node j and the distance ratio; "-" unknown. */
static void an_ratio(FILE *f, int j, double r, double slit)
{
	fprintf(f, " n%d: ", j);
	fprintf(f, isfinite(r) ? "%.3g" : "-", r);
	fprintf(f, isfinite(slit) ? " (%.3g)" : " (-)", slit);
}

static void an_matrix(FILE *f, const struct lab_an_numa *v, const struct lab_an_numa_group *g)
{
	fputs("<table class=\"numa\"><tr><th>cpu \\ mem</th>", f);
	for (int j = 0; j < g->nnode; j++)
		fprintf(f, "<th>node %d</th>", j);
	fputs("<th>remote/local (distance ratio)</th><th>distances</th></tr>\n", f);
	for (int i = 0; i < g->nnode; i++) {
		fprintf(f, "<tr><th>node %d</th>", i);
		for (int j = 0; j < g->nnode; j++)
			an_td(f, lab_an_numa_cell(g, i, j));
		fputs("<td>", f);
		for (int j = 0; j < g->nnode; j++)
			if (j != i)
				an_ratio(f, j, lab_an_numa_ratio(g, i, j),
				         lab_an_numa_slit_ratio(v, i, j));
		fputs("</td><td>", f);
		for (int j = 0; i < v->ndist && j < v->ndist; j++)
			fprintf(f, "%.0f ", v->dist[i * v->ndist + j]);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void an_rows(FILE *f, const struct lab_an_numa_group *g)
{
	fputs("<table class=\"numa\"><tr>", f);
	if (g->kind == LAB_AN_NUMA_POLICY)
		fputs("<th>init</th><th>threads</th><th>cost median [95% CI]</th><th>GB/s</th>"
		      "<th>pages per node</th></tr>\n",
		      f);
	else
		fprintf(f, "%s<th>%s [95%% CI]</th></tr>\n",
		        g->kind == LAB_AN_NUMA_LADDER
		            ? "<th>size (bytes)</th>"
		            : "<th>threads</th><th>streams</th><th>stream GB/s</th>",
		        lab_an_numa_load_label(g));
	for (size_t k = 0; k < g->nrow; k++) {
		const struct lab_an_numa_row *r = &g->row[k];

		fputs("<tr>", f);
		if (g->kind == LAB_AN_NUMA_POLICY) {
			fputs("<td>", f);
			lab_an_html(f, r->init);
			fprintf(f, "</td><td>%d</td>", r->pt->threads);
			an_td(f, r);
			an_num(f, r->n ? r->gbs : NAN);
			fputs("<td>", f);
			if (r->pages_absent > 0)
				fprintf(f, "(+%.0f absent) ", r->pages_absent);
			for (size_t p = 0; r->pages && p < r->pages->n; p++)
				fprintf(f, "%s%.0f", p ? " / " : "", r->pages->items[p].num);
			fputs("</td>", f);
		} else if (g->kind == LAB_AN_NUMA_LADDER) {
			fprintf(f, "<td>%.0f</td>", r->size);
			an_td(f, r);
		} else {
			fprintf(f, "<td>%d</td><td>%d</td><td>%.4g</td>", r->pt->threads,
			        r->streams, r->gbs);
			an_td(f, r);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

void lab_an_numa_html(FILE *f, const void *state, const struct lab_an_plots *plots, const char *dir)
{
	static const char *const title[] = {"node &times; node", "page policy", "latency ladder",
	                                    "loaded latency"};
	const struct lab_an_numa *v = state;

	fputs("<h2>NUMA</h2>\n<p>Medians with a distribution-free 95&nbsp;% interval (with fewer "
	      "than 6 samples: the mean with its t-interval, marked). Matrix rows: "
	      "the node the threads ran on; columns: the node of the memory; the remote/local "
	      "ratio of a row stands beside the firmware's distance ratio (ACPI SLIT). Pages per "
	      "node are what the kernel found after setup (move_pages). Every cell is in "
	      "<code>numa_matrix.csv</code>.</p>\n",
	      f);
	for (size_t i = 0; i < v->ng; i++) {
		const struct lab_an_numa_group *g = &v->g[i];

		fprintf(f, "<h3>%s: ", title[g->kind]);
		lab_an_html(f, g->experiment);
		fputs(" <small>", f);
		lab_an_html(f, g->params);
		if (g->threads)
			fprintf(f, " threads=%d", g->threads);
		fputs(" [", f);
		lab_an_html(f, g->unit);
		fputs("]</small></h3>\n", f);
		if (g->kind == LAB_AN_NUMA_MATRIX && g->nnode <= 32)
			an_matrix(f, v, g);
		else if (g->kind != LAB_AN_NUMA_MATRIX)
			an_rows(f, g);
		an_marks(f, g);
		lab_an_report_view_imgs(f, plots, dir, "numa", i);
	}
}
