/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The lock plots: per conditions group, throughput, Jain fairness and p99 acquisition latency
 * vs threads, one curve per lock, 95 % CI bars. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/plots_int.h"
#include "analyze/views/locks.h"

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
			/* M/s; a missing bound draws a zero-length bar at the mean. */
			lab_an_dat_num(f, e->thr.mean / 1e6);
			lab_an_dat_num(f, (isfinite(e->thr_lo) ? e->thr_lo : e->thr.mean) / 1e6);
			lab_an_dat_num(f, (isfinite(e->thr_hi) ? e->thr_hi : e->thr.mean) / 1e6);
			for (int q = 0; q < 2; q++) {
				double lo = q ? ms[q]->ci95_lo : e->jain_lo;
				double hi = q ? ms[q]->ci95_hi : e->jain_hi;
				/* p99 on a log axis: a t-interval's lower bound may be <= 0 */
				if (q && !(lo > 0))
					lo = ms[q]->mean;
				has[q + 1] |= ms[q]->n > 0;
				lab_an_dat_num(f, ms[q]->n ? ms[q]->mean : NAN);
				lab_an_dat_num(f,
				               ms[q]->n ? (isfinite(lo) ? lo : ms[q]->mean) : NAN);
				lab_an_dat_num(f,
				               ms[q]->n ? (isfinite(hi) ? hi : ms[q]->mean) : NAN);
			}
			fputc('\n', f);
		}
	}
}

static const char *const an_lock_what[3] = {"throughput", "fairness", "p99"};
/* Short: gnuplot cuts a long y label at the image's edge. */
static const char *const an_lock_ylabel[3] = {"M acquisitions/s, all threads (95% CI)",
                                              "Jain fairness index (95% CI)",
                                              "p99 acquire latency, ns (log scale)"};

/* The legend entry of lock curve c: its name, and the thread counts it has no number at. */
static const char *an_lock_key(const struct lab_an_lock_curve *c, char *buf, size_t len)
{
	struct lab_an_key k;

	lab_an_key_begin(&k, buf, len, c->lock);
	for (size_t i = 0; i < c->npt; i++)
		if (!c->pt[i].thr.n)
			lab_an_key_missing(&k, c->pt[i].pt->threads, c->pt[i].pt);
	return lab_an_key_end(&k);
}

static void an_lock_gp(FILE *f, const struct lab_an_lock_group *g, const char *base,
                       const char *dat, int q)
{
	char title[512], key[256];

	/* Two lines: the conditions are long and would be cut off beside the key. */
	snprintf(title, sizeof(title), "%s: %s vs threads", g->experiment, an_lock_what[q]);
	lab_an_gp_head(f, base, title, g->params);
	fprintf(f, "set logscale x 2\nset xlabel 'threads'\nset ylabel '%s'\n", an_lock_ylabel[q]);
	if (q == 2)
		fputs("set logscale y 10\nset yrange [*:*]\n", f);
	else
		fprintf(f, "set yrange [0:%s]\n", q == 1 ? "1.05" : "*");
	/* Every lock kind in the key: one column outside the plot, small enough for 12 kinds. */
	fprintf(f, "set key outside right top vertical maxrows %zu samplen 2 spacing 1 font ',9'\n",
	        g->nc > 0 ? g->nc : 1);
	fputs("plot ", f);
	for (size_t j = 0; j < g->nc; j++)
	/* 8 colours, then dashes; a point shape per lock, so no two curves look alike. */
	{
		fprintf(
		    f,
		    "%s'%s.dat' index %zu using 1:%d:%d:%d with yerrorlines lc %zu pt %zu dt %zu "
		    "title ",
		    j ? ", " : "", dat, j, 2 + 3 * q, 3 + 3 * q, 4 + 3 * q, j % 8 + 1, j % 14 + 1,
		    j / 8 + 1);
		lab_an_gp_str(f, an_lock_key(&g->c[j], key, sizeof(key)));
	}
	fputc('\n', f);
	lab_an_gp_tail(f, base);
}

static int an_lock_group_plots(const struct lab_an_lock_group *g, size_t idx,
                               const struct lab_an_pdir *pdir, struct lab_an_plots *out,
                               struct lab_err *err)
{
	char slug[160], base[240], other[260], title[300];
	int has[3] = {0, 0, 0}, rc;
	FILE *f;

	snprintf(base, sizeof(base), "l%02zu-%.60s-%.100s", idx, g->experiment, g->params);
	lab_an_plot_slug(base, slug, sizeof(slug));
	snprintf(base, sizeof(base), "%s-throughput", slug);
	if (!(f = lab_an_open(pdir, base, "dat", err)))
		return -LAB_EIO;
	an_lock_dat(f, g, has);
	if ((rc = lab_an_close(f, base, err)))
		return rc;
	for (int q = 0; q < 3; q++) {
		if (!has[q])
			continue;
		snprintf(other, sizeof(other), "%s-%s", slug, an_lock_what[q]);
		if (!(f = lab_an_open(pdir, other, "gp", err)))
			return -LAB_EIO;
		an_lock_gp(f, g, other, base, q);
		snprintf(title, sizeof(title), "%.100s %.100s: %s", g->experiment, g->params,
		         an_lock_what[q]);
		if ((rc = lab_an_close(f, other, err)) ||
		    (rc = lab_an_plot_add(out, an_lock_what[q], title, other, "locks", idx - 1)))
			return rc;
	}
	return 0;
}

int lab_an_lock_plots(const void *state, const struct lab_an_data *d,
                      const struct lab_an_pdir *pdir, struct lab_an_plots *out, struct lab_err *err)
{
	const struct lab_an_locks *l = state;
	int rc = 0;

	(void)d;
	for (size_t i = 0; i < l->ng && !rc; i++)
		rc = an_lock_group_plots(&l->g[i], i + 1, pdir, out, err);
	return rc;
}
