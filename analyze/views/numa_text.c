/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The text tables of the numa view: matrices with the distance table, policy rows with their
 * page histograms, the latency ladder and the loaded-latency curve. */
#include <math.h>
#include <string.h>

#include "analyze/views/numa.h"

/* Matrices wider than this are left to numa_matrix.csv and the heatmap. */
#define AN_NUMA_PRINT_MAX 16

/* "1234 [1200, 1300]" or "-" into buf. */
static const char *an_val(const struct lab_an_numa_row *r, char *buf, size_t len)
{
	if (r && !r->n && r->pt->n && !strcmp(r->pt->status, "ok"))
		snprintf(buf, len, "flagged (--include-flagged)");
	else if (!r || !r->n)
		snprintf(buf, len, "-");
	else if (isfinite(r->lo))
		snprintf(buf, len, "%s%.4g [%.4g, %.4g]", r->mean_ci ? "mean " : "", r->med, r->lo,
		         r->hi);
	else
		snprintf(buf, len, "%.4g", r->med);
	return buf;
}

static void an_mismatch(FILE *f, const struct lab_an_numa_row *r)
{
	if (r->placement_ok == 0)
		fprintf(f, "     ! point %ld: " LAB_AN_NUMA_MISMATCH ": %s\n", r->pt->id,
		        r->note ? r->note : "(no note recorded)");
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
	char buf[96];
	size_t outside = 0;

	fprintf(f, "   rows: the threads' node; columns: the memory's node; median [95%% CI]\n");
	fprintf(f, "   %-6s", "cpu\\mem");
	for (int j = 0; j < g->nnode; j++) {
		snprintf(buf, sizeof(buf), "node%d", j);
		fprintf(f, " %24s", buf);
	}
	fprintf(f, "  remote/local (firmware distance ratio)\n");
	for (int i = 0; i < g->nnode; i++) {
		fprintf(f, "   node%-3d", i);
		for (int j = 0; j < g->nnode; j++) {
			const struct lab_an_numa_row *r = lab_an_numa_cell(g, i, j);

			an_val(r, buf, sizeof(buf) - 1);
			if (r && r->placement_ok == 0)
				strcat(buf, "!"); /* the "!" lines below say why */
			fprintf(f, " %24s", buf);
		}
		fputs(" ", f);
		for (int j = 0; j < g->nnode; j++)
			if (j != i)
				an_ratio(f, j, lab_an_numa_ratio(g, i, j),
				         lab_an_numa_slit_ratio(v, i, j));
		fputc('\n', f);
	}
	for (size_t k = 0; k < g->nrow; k++) {
		const struct lab_an_numa_row *r = &g->row[k];

		if (r->cpu_node >= g->nnode || r->mem_node >= g->nnode)
			outside++;
		else if (r->n == 0 && r->pt->reason)
			fprintf(f, "     point %ld (node%d, mem %d): %s: %s\n", r->pt->id,
			        r->cpu_node, r->mem_node, r->pt->status, r->pt->reason);
		an_mismatch(f, r);
	}
	if (outside)
		fprintf(f,
		        "     %zu points on nodes outside the matrix (not on this machine: their "
		        "reasons are in analysis.json)\n",
		        outside);
}

static void an_pages(FILE *f, const struct lab_an_numa_row *r)
{
	if (!r->pages) {
		fputs(" -", f);
		return;
	}
	for (size_t k = 0; k < r->pages->n; k++)
		fprintf(f, "%s%.0f", k ? "/" : " ", r->pages->items[k].num);
	if (r->pages_absent > 0)
		fprintf(f, " (+%.0f absent)", r->pages_absent);
}

/* The rows that share one placement (lab_an_numa_same), one line per placement. */
static void an_same(FILE *f, const struct lab_an_numa_group *g)
{
	for (size_t i = 0; i < g->nrow; i++) {
		if (g->row[i].same != (long)i)
			continue;
		fputs("   ", f);
		for (size_t k = i, first = 1; k < g->nrow; k++)
			if (g->row[k].same == (long)i) {
				fprintf(f, "%s%s", first ? "" : ", ", g->row[k].init);
				first = 0;
			}
		fprintf(f, " (threads=%d, pages", g->row[i].pt->threads);
		an_pages(f, &g->row[i]);
		fputs("): " LAB_AN_NUMA_SAME "\n", f);
	}
}

/* The note under a table where some value is a mean (too few samples for a median's CI). */
static void an_mean_note(FILE *f, const struct lab_an_numa_group *g)
{
	for (size_t k = 0; k < g->nrow; k++)
		if (g->row[k].n && g->row[k].mean_ci) {
			fputs("   mean [95% t CI]: fewer than 6 samples, too few for a median's "
			      "interval\n",
			      f);
			return;
		}
}

static void an_policy(FILE *f, const struct lab_an_numa_group *g)
{
	char buf[96];

	fprintf(f, "   %-14s %7s %30s %10s  pages per node (node0/node1/...)\n", "init", "threads",
	        "cost median [95% CI]", "GB/s");
	for (size_t k = 0; k < g->nrow; k++) {
		const struct lab_an_numa_row *r = &g->row[k];

		fprintf(f, "   %-14s %7d %30s", r->init, r->pt->threads,
		        an_val(r, buf, sizeof(buf)));
		if (r->n && isfinite(r->gbs))
			fprintf(f, " %10.4g ", r->gbs);
		else
			fprintf(f, " %10s ", "-");
		if (strcmp(r->pt->status, "ok"))
			fprintf(f, " %s: %s", r->pt->status, r->pt->reason ? r->pt->reason : "");
		else
			an_pages(f, r);
		fputc('\n', f);
		an_mismatch(f, r);
	}
	an_same(f, g);
}

static void an_ladder(FILE *f, const struct lab_an_numa_group *g)
{
	char buf[96];

	fprintf(f, "   %12s %32s median [95%% CI]\n", "size (bytes)", lab_an_numa_load_label(g));
	for (size_t k = 0; k < g->nrow; k++) {
		fprintf(f, "   %12.0f %32s\n", g->row[k].size,
		        an_val(&g->row[k], buf, sizeof(buf)));
		an_mismatch(f, &g->row[k]);
	}
}

static void an_loaded(FILE *f, const struct lab_an_numa_group *g)
{
	char buf[96];

	fprintf(f, "   %7s %8s %14s %32s median [95%% CI]\n", "threads", "streams", "stream GB/s",
	        lab_an_numa_load_label(g));
	for (size_t k = 0; k < g->nrow; k++) {
		const struct lab_an_numa_row *r = &g->row[k];

		if (r->n && isfinite(r->gbs))
			fprintf(f, "   %7d %8d %14.4g", r->pt->threads, r->streams, r->gbs);
		else
			fprintf(f, "   %7d %8d %14s", r->pt->threads, r->streams, "-");
		fprintf(f, " %32s\n", an_val(r, buf, sizeof(buf)));
	}
}

static void an_dist(FILE *f, const struct lab_an_numa *v)
{
	if (!v->ndist) {
		fputs("   firmware distance table: not in run.json\n", f);
		return;
	}
	fputs("   firmware distance table (ACPI SLIT, host.topology.numa_distances):\n", f);
	for (int i = 0; i < v->ndist && i < AN_NUMA_PRINT_MAX; i++) {
		fprintf(f, "   node%-3d", i);
		for (int j = 0; j < v->ndist && j < AN_NUMA_PRINT_MAX; j++)
			fprintf(f, " %5.0f", v->dist[i * v->ndist + j]);
		fputc('\n', f);
	}
}

void lab_an_numa_text(FILE *f, const void *state)
{
	static const char *const title[] = {"node x node", "page policy", "latency ladder",
	                                    "loaded latency"};
	const struct lab_an_numa *v = state;

	for (size_t i = 0; i < v->ng; i++) {
		const struct lab_an_numa_group *g = &v->g[i];

		fprintf(f, "\n== numa %s: %s  (%s)", title[g->kind], g->experiment, g->params);
		if (g->threads)
			fprintf(f, " threads=%d", g->threads);
		fprintf(f, "  [%s]\n", g->unit);
		if (g->kind == LAB_AN_NUMA_MATRIX && g->nnode <= AN_NUMA_PRINT_MAX) {
			an_matrix(f, v, g);
			an_dist(f, v);
		} else if (g->kind == LAB_AN_NUMA_MATRIX) {
			fprintf(f, "   %d nodes: see numa_matrix.csv and the heatmap\n", g->nnode);
		} else if (g->kind == LAB_AN_NUMA_POLICY) {
			an_policy(f, g);
		} else if (g->kind == LAB_AN_NUMA_LADDER) {
			an_ladder(f, g);
		} else {
			an_loaded(f, g);
		}
		an_mean_note(f, g);
	}
}
