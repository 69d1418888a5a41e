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

static void an_c2c_dat(FILE *f, const struct lab_an_c2c_matrix *m)
{
	fputs("# x y median_one_way_ns (x, y: positions in the CPU list of the .gp tics)\n", f);
	for (size_t i = 0; i < m->ncpu; i++) {
		for (size_t j = 0; j < m->ncpu; j++) {
			const struct lab_an_c2c_cell *c =
			    i == j ? NULL : lab_an_c2c_find(m, m->cpu[j], m->cpu[i]);

			fprintf(f, "%zu %zu", j, i);
			lab_an_dat_num(f, c && c->n ? c->median_ns : NAN);
			fputc('\n', f);
		}
		fputc('\n', f);
	}
	fputs("\n# x y label (multimodal cells: their mode centers)\n", f);
	for (size_t i = 0; i < m->ncpu; i++)
		for (size_t j = 0; j < m->ncpu; j++) {
			const struct lab_an_c2c_cell *c =
			    i == j ? NULL : lab_an_c2c_find(m, m->cpu[j], m->cpu[i]);
			int multi = c && lab_an_modes_multi(&c->modes);

			if (!c || !c->n || (!multi && m->ncpu > AN_C2C_LABEL_ALL))
				continue;
			fprintf(f, "%zu %zu \"", j, i);
			if (multi)
				for (size_t k = 0; k < c->modes.count; k++)
					fprintf(f, "%s%.0f",
					        k ? "|" : "M:", c->modes.mode[k].center);
			else
				fprintf(f, "%.3g", c->median_ns);
			fputs("\"\n", f);
		}
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
	fprintf(f, ")\nplot '%s.dat' index 0 using 1:2:3 with image pixels", base);
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