/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The top-down bars: per experiment, one stacked bar of the level-1 fractions per point (a
 * rowstacked histogram). Tick labels are written into the .gp through lab_an_gp_str, never read
 * from the .dat as text. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/plots_int.h"
#include "analyze/views/counters.h"

static void an_td_dat(FILE *f, const struct lab_an_ctrs *c, const char *exp)
{
	fputs("# retiring bad_speculation frontend_bound backend_bound smt_contention "
	      "(one row per point with top-down)\n",
	      f);
	for (size_t i = 0; i < c->np; i++) {
		const struct lab_an_tma *t = &c->p[i].tma;

		if (strcmp(c->p[i].pt->experiment, exp) || t->level < 1)
			continue;
		lab_an_dat_num(f, t->retiring);
		lab_an_dat_num(f, t->bad_speculation);
		lab_an_dat_num(f, t->frontend_bound);
		lab_an_dat_num(f, t->backend_bound);
		lab_an_dat_num(f, isnan(t->smt_contention) ? 0 : t->smt_contention);
		fputc('\n', f);
	}
}

static void an_td_gp(FILE *f, const struct lab_an_ctrs *c, const char *exp, const char *base)
{
	static const char *const what[5] = {"retiring", "bad speculation", "front-end bound",
	                                    "back-end bound", "SMT contention"};
	char title[300], label[80];
	size_t k = 0;

	snprintf(title, sizeof(title), "%s: top-down level 1 (%s)", exp, c->method);
	lab_an_gp_head(f, base, title, NULL);
	fputs("set style data histograms\nset style histogram rowstacked\n"
	      "set style fill solid 0.8 border -1\nset boxwidth 0.7\nset yrange [0:1.05]\n"
	      "set ylabel 'fraction of pipeline slots'\nset key outside right top\n"
	      "set xtics noenhanced rotate by -30\nset xtics (",
	      f);
	for (size_t i = 0; i < c->np; i++) {
		const struct lab_an_ctr_pt *e = &c->p[i];

		if (strcmp(e->pt->experiment, exp) || e->tma.level < 1)
			continue;
		/* Short: the params are in the table beside the chart. */
		snprintf(label, sizeof(label), "point %ld, %d thr", e->pt->id, e->pt->threads);
		fputs(k ? ", " : "", f);
		lab_an_gp_str(f, label);
		fprintf(f, " %zu", k++);
	}
	fputs(")\nplot ", f);
	/* SMT contention is a category of the AMD method only. */
	for (int q = 0; q < (strcmp(c->method, "amd_pipeline") ? 4 : 5); q++)
		fprintf(f, "%s'%s.dat' using %d title '%s'", q ? ", " : "", base, q + 1, what[q]);
	fputc('\n', f);
	lab_an_gp_tail(f, base);
}

int lab_an_ctrs_plots(const void *state, const struct lab_an_data *d,
                      const struct lab_an_pdir *pdir, struct lab_an_plots *out, struct lab_err *err)
{
	const struct lab_an_ctrs *c = state;
	char name[200], base[200], title[300];
	int rc = 0;
	FILE *f;

	(void)d;
	for (size_t i = 0; i < c->nexp && !rc; i++) {
		int has = 0;

		for (size_t j = 0; j < c->np; j++)
			has |= !strcmp(c->p[j].pt->experiment, c->exp[i]) && c->p[j].tma.level >= 1;
		if (!has)
			continue;
		snprintf(name, sizeof(name), "t%02zu-%.100s-topdown", i + 1, c->exp[i]);
		lab_an_plot_slug(name, base, sizeof(base));
		if (!(f = lab_an_open(pdir, base, "dat", err)))
			return -LAB_EIO;
		an_td_dat(f, c, c->exp[i]);
		if ((rc = lab_an_close(f, base, err)))
			return rc;
		if (!(f = lab_an_open(pdir, base, "gp", err)))
			return -LAB_EIO;
		an_td_gp(f, c, c->exp[i], base);
		snprintf(title, sizeof(title), "%.200s: top-down level 1", c->exp[i]);
		if (!(rc = lab_an_close(f, base, err)))
			rc = lab_an_plot_add(out, "topdown", title, base, "counters", i);
	}
	return rc;
}
