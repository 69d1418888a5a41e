/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The text tables of the c2c view: a grid of pair medians (mode centers when multimodal) and
 * the multimodal pairs in words. */
#include <math.h>
#include <string.h>

#include "analyze/views/c2c.h"

/* Matrices with more CPUs than this are left to c2c_matrix.csv and the heatmap. */
#define LAB_C2C_PRINT_MAX 16

/* One cell: the median, or the mode centers "29/110" when multimodal; 's' marks SMT siblings,
 * 'x' another package, 'n' another NUMA node of the same package. */
static void lab_c2c_cell_text(const struct lab_an_c2c_cell *c, char *buf, size_t len)
{
	size_t k = 0;

	if (!c || !c->n) {
		snprintf(buf, len, "-");
		return;
	}
	if (lab_an_modes_multi(&c->modes))
		for (size_t i = 0; i < c->modes.count && k < len; i++)
			k += (size_t)snprintf(buf + k, len - k, "%s%.0f", i ? "/" : "",
			                      c->modes.mode[i].center);
	else
		k = (size_t)snprintf(buf, len, "%.4g", c->median_ns);
	if (k < len)
		snprintf(buf + k, len - k, "%s",
		         c->smt_siblings == 1   ? "s"
		         : c->same_package == 0 ? "x"
		         : c->same_numa == 0    ? "n"
		                                : "");
}

static void lab_c2c_grid(FILE *f, const struct lab_an_c2c_matrix *m)
{
	char buf[64];

	fprintf(f, "%6s", "");
	for (size_t j = 0; j < m->ncpu; j++) {
		snprintf(buf, sizeof(buf), "cpu%d", m->cpu[j]);
		fprintf(f, " %11s", buf);
	}
	fputc('\n', f);
	for (size_t i = 0; i < m->ncpu; i++) {
		snprintf(buf, sizeof(buf), "cpu%d", m->cpu[i]);
		fprintf(f, "%6s", buf);
		for (size_t j = 0; j < m->ncpu; j++) {
			if (i == j)
				snprintf(buf, sizeof(buf), ".");
			else
				lab_c2c_cell_text(lab_an_c2c_find(m, m->cpu[i], m->cpu[j]), buf,
				                  sizeof(buf));
			fprintf(f, " %11s", buf);
		}
		fputc('\n', f);
	}
}

/* Multimodal pairs in words, at most this many (the rest: c2c_matrix.csv). */
#define LAB_C2C_PRINT_MULTI 20

static void lab_c2c_multimodal(FILE *f, const struct lab_an_c2c_matrix *m)
{
	size_t shown = 0;

	for (size_t i = 0; i < m->ncell; i++) {
		const struct lab_an_c2c_cell *c = &m->cell[i];

		if (!lab_an_modes_multi(&c->modes))
			continue;
		if (shown++ == LAB_C2C_PRINT_MULTI) {
			fprintf(f, "  ... and %zu more multimodal pairs (c2c_matrix.csv)\n",
			        m->multimodal - LAB_C2C_PRINT_MULTI);
			break;
		}
		fprintf(f, "  cpus %d-%d: MULTIMODAL, %zu modes:", c->cpu_a, c->cpu_b,
		        c->modes.count);
		for (size_t k = 0; k < c->modes.count; k++)
			fprintf(f, "%s %.4g ns (%.0f%%)", k ? "," : "", c->modes.mode[k].center,
			        100 * c->modes.mode[k].weight);
		fprintf(f, " (the median %.4g ns describes none of them)\n", c->median_ns);
	}
}

void lab_an_c2c_text(FILE *f, const void *state)
{
	const struct lab_an_c2c *c = state;

	for (size_t i = 0; i < c->nm; i++) {
		const struct lab_an_c2c_matrix *m = &c->m[i];

		fprintf(f, "\n== c2c one-way latency (ns): %s  method=%s  (%s)\n", m->experiment,
		        *m->method ? m->method : "?", m->params);
		fprintf(f,
		        "   median of the samples per pair (95%% CIs in c2c_matrix.csv); a/b = "
		        "the modes of a multimodal pair; s = SMT siblings, x = other package, n = "
		        "other NUMA node%s\n",
		        c->topo_detailed ? "" : " (topology detail not in run.json)");
		if (m->ncpu <= LAB_C2C_PRINT_MAX)
			lab_c2c_grid(f, m);
		else
			fprintf(f, "  %zu CPUs, %zu pairs: see c2c_matrix.csv and the heatmap\n",
			        m->ncpu, m->ncell);
		if (m->max_ns >= m->min_ns)
			fprintf(f,
			        "  range of pair medians %.4g .. %.4g ns; %zu of %zu pairs "
			        "multimodal\n",
			        m->min_ns, m->max_ns, m->multimodal, m->ncell);
		else
			fprintf(f, "  %s\n", lab_an_c2c_no_median(m));
		lab_c2c_multimodal(f, m);
	}
}
