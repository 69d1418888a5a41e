/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The c2c heatmap: one per matrix (CPU vs CPU, colour = the pair's median one-way latency,
 * multimodal cells labelled with their mode centers, since their colour is a median nobody
 * measured).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/plots_int.h"
#include "analyze/views/c2c.h"

/* Labels every cell of matrices up to this size; larger ones label only multimodal cells. */
#define AN_C2C_LABEL_ALL 16
/* Up to this many CPUs the .dat holds the whole CPU x CPU grid (drawn as an image: 512 CPUs
 * make a 6 MB file); past it, only the measured cells (drawn as boxes), so a file of a few
 * thousand pairs over as many CPUs stays small (the grid was 215 MB for 2,000 pairs). */
#define AN_C2C_DENSE_MAX 512

/* The position of cpu in m's CPU list (present: it came from a cell). */
static size_t an_c2c_pos(const struct lab_an_c2c_matrix *m, int cpu)
{
	size_t lo = 0, hi = m->ncpu;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->cpu[mid] <= cpu)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* One grid point of the .dat: the value (index 0) or the label (index 1, labels = 1). */
static void an_c2c_dat_at(FILE *f, const struct lab_an_c2c_matrix *m, size_t x, size_t y,
                          const struct lab_an_c2c_cell *c, int labels)
{
	int multi = c && lab_an_modes_multi(&c->modes);

	if (!labels) {
		fprintf(f, "%zu %zu", x, y);
		lab_an_dat_num(f, c && c->n ? c->median_ns : NAN);
		fputc('\n', f);
		return;
	}
	if (!c || !c->n || (!multi && m->ncpu > AN_C2C_LABEL_ALL))
		return;
	fprintf(f, "%zu %zu \"", x, y);
	if (multi)
		for (size_t k = 0; k < c->modes.count; k++)
			fprintf(f, "%s%.0f", k ? "|" : "M:", c->modes.mode[k].center);
	else
		fprintf(f, "%.3g", c->median_ns);
	fputs("\"\n", f);
}

/* The measured grid points only: each cell where lab_an_c2c_find shows it, both orders. */
static void an_c2c_dat_sparse(FILE *f, const struct lab_an_c2c_matrix *m, int labels)
{
	for (size_t i = 0; i < m->ncell; i++) {
		const struct lab_an_c2c_cell *c = &m->cell[i];

		if (c->cpu_a < 0 || c->cpu_b < 0 || c->cpu_a == c->cpu_b || !c->n)
			continue;
		for (int o = 0; o < 2; o++) {
			int a = o ? c->cpu_b : c->cpu_a, b = o ? c->cpu_a : c->cpu_b;

			if (lab_an_c2c_find(m, a, b) == c)
				an_c2c_dat_at(f, m, an_c2c_pos(m, a), an_c2c_pos(m, b), c, labels);
		}
	}
}

static void an_c2c_dat(FILE *f, const struct lab_an_c2c_matrix *m)
{
	int dense = m->ncpu <= AN_C2C_DENSE_MAX;

	fputs("# x y median_one_way_ns (x, y: positions in the CPU list of the .gp tics)\n", f);
	for (size_t i = 0; dense && i < m->ncpu; i++) {
		for (size_t j = 0; j < m->ncpu; j++)
			an_c2c_dat_at(f, m, j, i,
			              i == j ? NULL : lab_an_c2c_find(m, m->cpu[j], m->cpu[i]), 0);
		fputc('\n', f);
	}
	if (!dense)
		an_c2c_dat_sparse(f, m, 0);
	/* two blank lines end gnuplot's index 0 (each dense row ends in one) */
	fputs(dense ? "\n# x y label (multimodal cells: their mode centers)\n"
	            : "\n\n# x y label (multimodal cells: their mode centers)\n",
	      f);
	for (size_t i = 0; dense && i < m->ncpu; i++)
		for (size_t j = 0; j < m->ncpu; j++)
			if (i != j)
				an_c2c_dat_at(f, m, j, i, lab_an_c2c_find(m, m->cpu[j], m->cpu[i]),
				              1);
	if (!dense)
		an_c2c_dat_sparse(f, m, 1);
}

static void an_c2c_gp(FILE *f, const struct lab_an_c2c_matrix *m, const char *base, int labels)
{
	char title[512];
	size_t step = m->ncpu > 32 ? (m->ncpu + 31) / 32 : 1;

	snprintf(title, sizeof(title), "%s %s: one-way latency, median ns (M: multimodal: modes)",
	         m->experiment, *m->method ? m->method : m->params);
	lab_an_gp_head(f, base, title, NULL);
	fprintf(f,
	        "unset grid\nunset key\nset size ratio -1\nset xlabel 'cpu'\nset ylabel 'cpu'\n"
	        "set xrange [-0.5:%zu.5]\nset yrange [-0.5:%zu.5]\nset cblabel 'one-way ns'\n"
	        "set palette defined (0 '#ffffcc', 1 '#feb24c', 2 '#f03b20')\nset xtics (",
	        m->ncpu - 1, m->ncpu - 1);
	for (size_t i = 0; i < m->ncpu; i += step)
		fprintf(f, "%s\"%d\" %zu", i ? ", " : "", m->cpu[i], i);
	fputs(")\nset ytics (", f);
	for (size_t i = 0; i < m->ncpu; i += step)
		fprintf(f, "%s\"%d\" %zu", i ? ", " : "", m->cpu[i], i);
	if (m->ncpu <= AN_C2C_DENSE_MAX)
		fprintf(f, ")\nplot '%s.dat' index 0 using 1:2:3 with image pixels", base);
	else
		fprintf(f,
		        ")\nplot '%s.dat' index 0 using 1:2:(0.5):(0.5):3 with boxxyerror "
		        "fillstyle solid noborder linecolor palette",
		        base);
	if (labels)
		fprintf(f, ", '' index 1 using 1:2:3 with labels font ',%d' textcolor rgb 'black'",
		        m->ncpu > 8 ? 7 : 9);
	fputc('\n', f);
	lab_an_gp_tail(f, base);
}

static int an_c2c_has_labels(const struct lab_an_c2c_matrix *m)
{
	for (size_t i = 0; i < m->ncell; i++)
		if (m->cell[i].n &&
		    (m->ncpu <= AN_C2C_LABEL_ALL || lab_an_modes_multi(&m->cell[i].modes)))
			return 1;
	return 0;
}

int lab_an_c2c_plots(const void *state, const struct lab_an_data *d, const struct lab_an_pdir *pdir,
                     struct lab_an_plots *out, struct lab_err *err)
{
	const struct lab_an_c2c *c = state;

	(void)d;
	for (size_t i = 0; i < c->nm; i++) {
		const struct lab_an_c2c_matrix *m = &c->m[i];
		char slug[256], base[256], title[300];
		FILE *f;
		int rc;

		if (m->ncpu < 2 || !(m->max_ns >= m->min_ns))
			continue; /* nothing measured: gnuplot would stop on an empty image */
		snprintf(base, sizeof(base), "c%02zu-%.60s-%.100s-heatmap", i + 1, m->experiment,
		         *m->method ? m->method : m->params);
		lab_an_plot_slug(base, slug, sizeof(slug));
		if (!(f = lab_an_open(pdir, slug, "dat", err)))
			return -LAB_EIO;
		an_c2c_dat(f, m);
		if ((rc = lab_an_close(f, slug, err)))
			return rc;
		if (!(f = lab_an_open(pdir, slug, "gp", err)))
			return -LAB_EIO;
		an_c2c_gp(f, m, slug, an_c2c_has_labels(m));
		snprintf(title, sizeof(title), "%.100s %.100s: one-way latency", m->experiment,
		         *m->method ? m->method : m->params);
		if ((rc = lab_an_close(f, slug, err)) ||
		    (rc = lab_an_plot_add(out, "heatmap", title, slug, "c2c", i)))
			return rc;
	}
	return 0;
}

/* One block per lock: threads, throughput mean lo hi, Jain mean lo hi, p99 mean lo hi. */