/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Kernel-specific plots. c2c: one heatmap per matrix (CPU vs CPU, colour = the pair's median
 * one-way latency, multimodal cells labelled with their mode centers, since their colour is a
 * median nobody measured). lock: per conditions group, throughput, Jain fairness and p99
 * acquisition latency vs threads, one curve per lock, 95 % CI bars.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/plots_int.h"

/* Labels every cell of matrices up to this size; larger ones label only multimodal cells. */
#define AN_C2C_LABEL_ALL 16

/* The grid (index 0: x y ns, scan lines split by blank lines) and the labels (index 1). */
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

int lab_an_c2c_plots(const struct lab_an_analysis *a, const struct lab_an_pdir *pdir,
                     struct lab_an_plots *out, struct lab_an_err *err)
{
	for (size_t i = 0; i < a->c2c.nm; i++) {
		const struct lab_an_c2c_matrix *m = &a->c2c.m[i];
		char slug[256], base[256];
		FILE *f;
		int rc;

		if (m->ncpu < 2 || !(m->max_ns >= m->min_ns))
			continue; /* nothing measured: gnuplot would stop on an empty image */
		snprintf(base, sizeof(base), "c%02zu-%.60s-%.100s-heatmap", i + 1, m->experiment,
		         *m->method ? m->method : m->params);
		lab_an_plot_slug(base, slug, sizeof(slug));
		if (!(f = lab_an_open(pdir, slug, "dat", err)))
			return -LAB_AN_EIO;
		an_c2c_dat(f, m);
		if ((rc = lab_an_close(f, slug, err)))
			return rc;
		if (!(f = lab_an_open(pdir, slug, "gp", err)))
			return -LAB_AN_EIO;
		an_c2c_gp(f, m, slug, an_c2c_has_labels(m));
		if ((rc = lab_an_close(f, slug, err)) || (rc = lab_an_plot_add(out, slug)))
			return rc;
	}
	return 0;
}

/* One block per lock: threads, throughput mean lo hi, Jain mean lo hi, p99 mean lo hi. */
static void an_lock_dat(FILE *f, const struct lab_an_lock_group *g, int *has)
{
	fputs("# threads acq_per_s lo hi jain lo hi p99_ns lo hi (one block per lock)\n", f);
	for (size_t j = 0; j < g->nc; j++) {
		char name[64];

		lab_an_plot_slug(g->c[j].lock, name, sizeof(name)); /* a comment: one line */
		fprintf(f, "%s# lock %s\n", j ? "\n\n" : "", name);
		for (size_t k = 0; k < g->c[j].npt; k++) {
			const struct lab_an_lock_pt *e = &g->c[j].pt[k];
			const struct lab_an_msum *ms[2] = {&e->m[LAB_AN_LK_JAIN],
			                                   &e->m[LAB_AN_LK_P99]};

			if (!e->thr.n)
				continue;
			has[0] = 1;
			fprintf(f, "%d", e->pt->threads);
			lab_an_dat_num(f, e->thr.mean);
			lab_an_dat_num(f, e->thr.ci95_lo);
			lab_an_dat_num(f, e->thr.ci95_hi);
			for (int q = 0; q < 2; q++) {
				has[q + 1] |= ms[q]->n > 0;
				lab_an_dat_num(f, ms[q]->n ? ms[q]->mean : NAN);
				lab_an_dat_num(f, ms[q]->n ? ms[q]->ci95_lo : NAN);
				lab_an_dat_num(f, ms[q]->n ? ms[q]->ci95_hi : NAN);
			}
			fputc('\n', f);
		}
	}
}

static const char *const an_lock_what[3] = {"throughput", "fairness", "p99"};
static const char *const an_lock_ylabel[3] = {
    "acquisitions/s (mean, 95% CI)", "Jain fairness index (mean, 95% CI)",
    "acquire latency p99, ns (mean over samples, 95% CI)"};

static void an_lock_gp(FILE *f, const struct lab_an_lock_group *g, const char *base,
                       const char *dat, int q)
{
	char title[512];

	/* Two lines: the conditions are long and would be cut off beside the key. */
	snprintf(title, sizeof(title), "%s: %s vs threads", g->experiment, an_lock_what[q]);
	lab_an_gp_head(f, base, title, g->params);
	fprintf(f, "set logscale x 2\nset xlabel 'threads'\nset ylabel '%s'\nset yrange [0:%s]\n",
	        an_lock_ylabel[q], q == 1 ? "1.05" : "*");
	fprintf(f, "%sset key outside right top\nplot ", q == 0 ? "set format y '%.0s%c'\n" : "");
	for (size_t j = 0; j < g->nc; j++)
	/* 8 colours, then dashes; a point shape per lock, so no two curves look alike. */
	{
		fprintf(
		    f,
		    "%s'%s.dat' index %zu using 1:%d:%d:%d with yerrorlines lc %zu pt %zu dt %zu "
		    "title ",
		    j ? ", " : "", dat, j, 2 + 3 * q, 3 + 3 * q, 4 + 3 * q, j % 8 + 1, j % 14 + 1,
		    j / 8 + 1);
		lab_an_gp_str(f, g->c[j].lock);
	}
	fputc('\n', f);
	lab_an_gp_tail(f, base);
}

static int an_lock_group_plots(const struct lab_an_lock_group *g, size_t idx,
                               const struct lab_an_pdir *pdir, struct lab_an_plots *out,
                               struct lab_an_err *err)
{
	char slug[160], base[240], other[260];
	int has[3] = {0, 0, 0}, rc;
	FILE *f;

	snprintf(base, sizeof(base), "l%02zu-%.60s-%.100s", idx, g->experiment, g->params);
	lab_an_plot_slug(base, slug, sizeof(slug));
	snprintf(base, sizeof(base), "%s-throughput", slug);
	if (!(f = lab_an_open(pdir, base, "dat", err)))
		return -LAB_AN_EIO;
	an_lock_dat(f, g, has);
	if ((rc = lab_an_close(f, base, err)))
		return rc;
	for (int q = 0; q < 3; q++) {
		if (!has[q])
			continue;
		snprintf(other, sizeof(other), "%s-%s", slug, an_lock_what[q]);
		if (!(f = lab_an_open(pdir, other, "gp", err)))
			return -LAB_AN_EIO;
		an_lock_gp(f, g, other, base, q);
		if ((rc = lab_an_close(f, other, err)) || (rc = lab_an_plot_add(out, other)))
			return rc;
	}
	return 0;
}

int lab_an_lock_plots(const struct lab_an_analysis *a, const struct lab_an_pdir *pdir,
                      struct lab_an_plots *out, struct lab_an_err *err)
{
	int rc = 0;

	for (size_t i = 0; i < a->locks.ng && !rc; i++)
		rc = an_lock_group_plots(&a->locks.g[i], i + 1, pdir, out, err);
	return rc;
}
