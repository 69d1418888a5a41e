/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The numa view's plots: a heatmap per node x node matrix (cpu node vs memory node, each cell
 * labelled with its median), the latency ladder (ns per load vs size, log x) and the
 * loaded-latency curve (ns per load vs achieved stream GB/s). Titles and keys from the files
 * go through lab_an_gp_str (gnuplot cannot expand them).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/plots_int.h"
#include "analyze/views/numa.h"

static void an_heat_dat(FILE *f, const struct lab_an_numa_group *g)
{
	fputs("# mem_node cpu_node median\n", f);
	for (int i = 0; i < g->nnode; i++) {
		for (int j = 0; j < g->nnode; j++) {
			const struct lab_an_numa_row *r = lab_an_numa_cell(g, i, j);

			fprintf(f, "%d %d", j, i);
			lab_an_dat_num(f, r && r->n ? r->med : NAN);
			fputc('\n', f);
		}
		fputc('\n', f);
	}
}

static void an_heat_gp(FILE *f, const struct lab_an_numa_group *g, const char *base,
                       const char *title)
{
	lab_an_gp_head(f, base, title, NULL);
	fprintf(f,
	        "unset grid\nunset key\nset size ratio -1\nset xlabel 'memory node'\n"
	        "set ylabel 'cpu node'\nset xrange [-0.5:%d.5]\nset yrange [-0.5:%d.5]\n"
	        "set xtics 1\nset ytics 1\nset cblabel ",
	        g->nnode - 1, g->nnode - 1);
	lab_an_gp_str(f, g->unit);
	fprintf(f,
	        "\nset palette defined (0 '#ffffcc', 1 '#feb24c', 2 '#f03b20')\n"
	        "plot '%s.dat' using 1:2:3 with image pixels, '' using 1:2:(sprintf('%%.3g', "
	        "$3)) with labels textcolor rgb 'black'\n",
	        base);
	lab_an_gp_tail(f, base);
}

/* x y lo hi per row: the ladder (size, ns) or the loaded curve (GB/s, ns). */
static void an_curve_dat(FILE *f, const struct lab_an_numa_group *g)
{
	fputs(g->kind == LAB_AN_NUMA_LADDER ? "# size_bytes ns_per_load lo hi\n"
	                                    : "# stream_gb_per_s ns_per_load lo hi\n",
	      f);
	for (size_t k = 0; k < g->nrow; k++) {
		const struct lab_an_numa_row *r = &g->row[k];

		if (!r->n)
			continue;
		lab_an_dat_num(f, g->kind == LAB_AN_NUMA_LADDER ? r->size : r->gbs);
		lab_an_dat_num(f, r->med);
		lab_an_dat_num(f, isfinite(r->lo) ? r->lo : r->med);
		lab_an_dat_num(f, isfinite(r->hi) ? r->hi : r->med);
		fputc('\n', f);
	}
}

static void an_curve_gp(FILE *f, const struct lab_an_numa_group *g, const char *base,
                        const char *title)
{
	lab_an_gp_head(f, base, title, NULL);
	if (g->kind == LAB_AN_NUMA_LADDER)
		fputs("set logscale x 2\nset format x '%.0b%B'\nset xlabel 'chain size (bytes)'\n",
		      f);
	else
		fputs("set xlabel 'achieved stream bandwidth (GB/s)'\n", f);
	fprintf(f, "set ylabel '%s'\nset key top left\n", lab_an_numa_load_label(g));
	fprintf(f, "plot '%s.dat' using 1:2:3:4 with yerrorlines title ", base);
	lab_an_gp_str(f, g->params);
	fputc('\n', f);
	lab_an_gp_tail(f, base);
}

static int an_has_value(const struct lab_an_numa_group *g)
{
	for (size_t k = 0; k < g->nrow; k++)
		if (g->row[k].n && isfinite(g->row[k].med) &&
		    (g->kind != LAB_AN_NUMA_LOADED || isfinite(g->row[k].gbs)))
			return 1;
	return 0;
}

static int an_plot(const struct lab_an_numa_group *g, size_t i, const struct lab_an_pdir *pdir,
                   struct lab_an_plots *out, struct lab_err *err)
{
	static const char *const kind[] = {"heatmap", "policy", "ladder", "loaded"};
	static const char *const what[] = {"node x node", "policy", "latency ladder",
	                                   "loaded latency"};
	char base[256], slug[256], title[400];
	FILE *f;
	int rc;

	snprintf(base, sizeof(base), "n%02zu-%.60s-%s", i + 1, g->experiment, kind[g->kind]);
	lab_an_plot_slug(base, slug, sizeof(slug));
	snprintf(title, sizeof(title), "%.100s %s (%.150s)", g->experiment, what[g->kind],
	         g->params);
	if (!(f = lab_an_open(pdir, slug, "dat", err)))
		return -LAB_EIO;
	if (g->kind == LAB_AN_NUMA_MATRIX)
		an_heat_dat(f, g);
	else
		an_curve_dat(f, g);
	if ((rc = lab_an_close(f, slug, err)))
		return rc;
	if (!(f = lab_an_open(pdir, slug, "gp", err)))
		return -LAB_EIO;
	if (g->kind == LAB_AN_NUMA_MATRIX)
		an_heat_gp(f, g, slug, title);
	else
		an_curve_gp(f, g, slug, title);
	if ((rc = lab_an_close(f, slug, err)))
		return rc;
	return lab_an_plot_add(out, kind[g->kind], title, slug, "numa", i);
}

int lab_an_numa_plots(const void *state, const struct lab_an_data *d,
                      const struct lab_an_pdir *pdir, struct lab_an_plots *out, struct lab_err *err)
{
	const struct lab_an_numa *v = state;
	int rc = 0;

	(void)d;
	for (size_t i = 0; i < v->ng && !rc; i++)
		if (v->g[i].kind != LAB_AN_NUMA_POLICY && an_has_value(&v->g[i]))
			rc = an_plot(&v->g[i], i, pdir, out, err);
	return rc;
}
