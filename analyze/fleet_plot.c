/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The cross-host view's files: DIR/fleet-analysis.json and the scaling plots with one line per
 * host (DIR/plots/fleet-NN-SLUG.{dat,gp,svg,png}), written and rendered as lab analyze writes
 * its own (fresh files renamed into place, gnuplot in a private directory) and recorded in DIR's
 * record (analyze/manifest.h), so the plots of series no host has any more are removed. Node
 * names, experiments and params come from files: file names are slugs, and every title goes
 * through lab_an_gp_str.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/fleet_view.h"
#include "analyze/manifest.h"
#include "analyze/plots.h"
#include "analyze/plots_int.h"
#include "analyze/wfile.h"
#include "analyze/wstale.h"
#include "harness/record_schema.h"

#define FLEET_PLOTS_MAX 200

/* A series: the points of one experiment and params, on any host. */
struct fleet_series {
	const struct lab_an_point *p; /* its first point */
	size_t host;                  /* the host that has it */
};

static int fleet_cmp_threads(const void *a, const void *b)
{
	const struct lab_an_point *x = *(const struct lab_an_point *const *)a;
	const struct lab_an_point *y = *(const struct lab_an_point *const *)b;

	return (x->threads > y->threads) - (x->threads < y->threads);
}

/* Host h's points of the series of p (of d), sorted by threads, into out (at most max); the
 * count. A host whose points measured another quantity (unit, kernel, scope) is not drawn on
 * the series' axis. */
static size_t fleet_series_points(const struct lab_an_fleet_host *h, const struct lab_an_data *d,
                                  const struct lab_an_point *p, const struct lab_an_point **out,
                                  size_t max)
{
	size_t n = 0;

	for (size_t i = 0; h->ok && i < h->d.npt && n < max; i++) {
		const struct lab_an_point *q = &h->d.pt[i];
		if (q->st.n && !strcmp(q->experiment, p->experiment) &&
		    !strcmp(q->params, p->params) && lab_an_fleet_same_quantity(d, p, &h->d, q))
			out[n++] = q;
	}
	qsort(out, n, sizeof(*out), fleet_cmp_threads);
	return n;
}

/* Writes BASE.dat (one block per host with points) and BASE.gp of one series; 1 (nothing
 * written) when no host has a usable point of it. */
static int fleet_plot_one(const struct lab_an_pdir *pdir, const struct lab_an_fleet_view *v,
                          const struct fleet_series *s, const char *base, struct lab_err *err)
{
	const struct lab_an_point *pts[512];
	struct lab_an_wfile wdat, wgp;
	FILE *dat = NULL, *gp;
	size_t block = 0, any = 0;
	char unit[160], title[LAB_FLEET_NAME_MAX + 16];

	for (size_t k = 0; k < v->n && !any; k++)
		any = fleet_series_points(&v->h[k], &v->h[s->host].d, s->p, pts, 512);
	if (!any) /* gnuplot stops on a plot with nothing to draw */
		return 1;
	if (!(dat = lab_an_open(&wdat, pdir, base, "dat", err)))
		return -LAB_EIO;
	if (!(gp = lab_an_open(&wgp, pdir, base, "gp", err))) {
		lab_an_wfile_close(&wdat, 0, NULL);
		return -LAB_EIO;
	}
	lab_an_gp_head(gp, base, s->p->experiment, s->p->params[0] ? s->p->params : NULL,
	               LAB_AN_GP_HEIGHT);
	fputs("set xlabel 'threads'\nset ylabel ", gp);
	lab_an_gp_str(gp, lab_an_cost_label(&v->h[s->host].d, s->p, unit, sizeof(unit)));
	fputs(" noenhanced\nset offsets 0.2, 0.2, 0, 0\nplot ", gp);
	for (size_t k = 0; k < v->n; k++) {
		size_t n = fleet_series_points(&v->h[k], &v->h[s->host].d, s->p, pts, 512);
		if (!n)
			continue;
		fprintf(dat, "%s# host %s: threads mean ci95_lo ci95_hi\n", block ? "\n\n" : "",
		        v->h[k].node);
		for (size_t i = 0; i < n; i++) {
			fprintf(dat, "%d", pts[i]->threads);
			lab_an_dat_num(dat, pts[i]->st.mean);
			lab_an_dat_num(dat, pts[i]->st.ci95_lo);
			lab_an_dat_num(dat, pts[i]->st.ci95_hi);
			fputc('\n', dat);
		}
		fprintf(gp, "%s'%s.dat' index %zu using 1:2:3:4 with yerrorlines title ",
		        block ? ", \\\n     " : "", base, block);
		snprintf(title, sizeof(title), "%s%s", v->h[k].node,
		         v->h[k].failed ? " (host failed)" : "");
		lab_an_gp_str(gp, title);
		block++;
	}
	fputs("\n", gp);
	lab_an_gp_tail(gp, base, LAB_AN_GP_HEIGHT);
	int rc = lab_an_close(&wdat, pdir, err);
	int rc2 = lab_an_close(&wgp, pdir, err);
	return rc ? rc : rc2;
}

/* Every series of the fleet once, in the order first seen. */
static size_t fleet_series_list(const struct lab_an_fleet_view *v, struct fleet_series *s,
                                size_t max)
{
	size_t n = 0;

	for (size_t k = 0; k < v->n; k++)
		for (size_t i = 0; v->h[k].ok && i < v->h[k].d.npt && n < max; i++) {
			const struct lab_an_point *p = &v->h[k].d.pt[i];
			size_t j = 0;
			while (j < n && (strcmp(s[j].p->experiment, p->experiment) ||
			                 strcmp(s[j].p->params, p->params)))
				j++;
			if (j == n)
				s[n++] = (struct fleet_series){p, k};
		}
	return n;
}

/* The fleet's distinct series (experiment and params), over every host: to say how many plots
 * the cap left out. 0 when memory runs out (nothing is said). */
static size_t fleet_series_count(const struct lab_an_fleet_view *v)
{
	struct lab_an_strset set = {0};
	size_t n = 0;
	int oom = 0;

	for (size_t k = 0; k < v->n && !oom; k++)
		for (size_t i = 0; v->h[k].ok && i < v->h[k].d.npt && !oom; i++) {
			const struct lab_an_point *p = &v->h[k].d.pt[i];
			char *key = NULL;
			int added = 0;

			if (asprintf(&key, "%s\x1f%s", p->experiment, p->params) < 0 ||
			    lab_an_strset_add(&set, key, &added) == (size_t)-1)
				oom = 1;
			if (!added) /* the set borrows the keys it keeps */
				free(key);
		}
	n = oom ? 0 : set.n;
	lab_an_strset_free_owned(&set);
	return n;
}

/* Writes and renders one plot per series into DIR/plots, recording them in wrote. */
static int fleet_plots(const char *dir, const struct lab_an_fleet_view *v,
                       struct lab_an_manifest *wrote, size_t *nplots, struct lab_an_warnings *warn,
                       struct lab_err *err)
{
	static struct fleet_series s[FLEET_PLOTS_MAX];
	size_t n = fleet_series_list(v, s, FLEET_PLOTS_MAX);
	int fd = lab_an_subdir_open(dir, LAB_DIR_PLOTS, 1, err), rc = 0;
	char path[4200], slug[64], base[96], label[512];
	struct lab_an_plots plots = {0};

	if (fd < 0)
		return -LAB_EIO;
	snprintf(path, sizeof(path), "%s/%s", dir, LAB_DIR_PLOTS);
	struct lab_an_pdir pdir = {fd, path, wrote};
	for (size_t i = 0; i < n && rc >= 0; i++) {
		snprintf(label, sizeof(label), "%s-%s", s[i].p->experiment, s[i].p->params);
		lab_an_plot_slug(label, slug, sizeof(slug));
		snprintf(base, sizeof(base), LAB_AN_FLEET_PLOT_PREFIX "%02zu-%s", i + 1, slug);
		rc = fleet_plot_one(&pdir, v, &s[i], base, err);
		if (rc == 0 && lab_an_plot_add(&plots, "curves", label, base, "fleet", i))
			rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
	}
	rc = rc < 0 ? rc : 0;
	size_t all = n == FLEET_PLOTS_MAX ? fleet_series_count(v) : n;
	if (!rc && all > n)
		lab_an_warn(
		    warn,
		    "%zu of %zu fleet plots left out: at most %d per fleet analysis (each "
		    "host's analysis plots its own series); fleet-analysis.json holds every "
		    "series",
		    all - n, all, FLEET_PLOTS_MAX);
	if (!rc)
		rc = lab_an_plots_render(&pdir, &plots, warn, err);
	*nplots = rc ? 0 : plots.n;
	lab_an_plots_free(&plots);
	close(fd);
	return rc;
}

int lab_an_fleet_view_write(const char *dir, const struct lab_an_fleet_view *v, int plots,
                            size_t *nplots, struct lab_an_warnings *warn, struct lab_err *err)
{
	const char *files[] = {LAB_AN_FLEET_ANALYSIS, LAB_AN_MANIFEST, NULL};
	struct lab_an_manifest old, wrote = {0};
	struct lab_an_wfile w;
	struct lab_err late = {0};
	char path[4200];
	int rc, rc2;

	*nplots = 0;
	if ((rc = lab_an_outputs_check(dir, files, plots ? LAB_DIR_PLOTS : NULL, err)) ||
	    (rc = lab_an_manifest_read(dir, &old, warn, err)))
		return rc;
	lab_an_stale_sweep(dir); /* what a killed analysis left; never fails this one */
	snprintf(path, sizeof(path), "%s/%s", dir, LAB_AN_FLEET_ANALYSIS);
	if (!lab_an_wfile_open(&w, path, err)) {
		rc = -LAB_EIO;
	} else {
		lab_an_fleet_view_json(v, w.f);
		rc = lab_an_wfile_close(&w, 1, err);
	}
	if (!rc && lab_an_manifest_add(&wrote, NULL, LAB_AN_FLEET_ANALYSIS))
		rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
	if (!rc && plots)
		rc = fleet_plots(dir, v, &wrote, nplots, warn, err);
	/* After a failure too: the earlier fleet analysis's other files do not stay. */
	rc2 = lab_an_manifest_finish(dir, &old, &wrote, warn, rc ? &late : err);
	if (rc && rc2 < 0) /* the first error is reported, and this one said */
		lab_an_manifest_unrecorded(warn, &late, wrote.n);
	lab_an_manifest_free(&old);
	lab_an_manifest_free(&wrote);
	return rc ? rc : rc2 < 0 ? rc2 : 0; /* 1: an earlier file stays, said in warn */
}
