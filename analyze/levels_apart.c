/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Run means that fall apart (levels.h lab_an_runs_apart): one setup far from the others, or
 * two clusters of setups. What the guest cannot see (the host running other guests' vCPUs on
 * the same cores: no run-queue wait, no steal) shows as setups at two speeds.
 */
#include <gsl/gsl_sort.h>
#include <math.h>
#include <string.h>

#include "analyze/data.h"
#include "analyze/levels.h"
#include "analyze/stats.h"

/* The means of point p's used samples per run, in run order, into m and their run numbers into
 * id (one pass); how many. The used ones are those the levels counted: every sample when their
 * count says flagged ones were kept. */
static int an_run_means(const struct lab_an_point *p, double *m, int *id)
{
	double sum[4 * LAB_AN_APART_RUNS];
	size_t cnt[4 * LAB_AN_APART_RUNS];
	int all = p->levels.n == p->n, nr = 0, top = -1;

	/* only the labels up to the highest are cleared and scanned: a point of 3 runs does not
	 * pay for the 1000 a config allows */
	for (size_t j = 0; j < p->n; j++)
		if (p->run[j] >= 0 && p->run[j] < 4 * LAB_AN_APART_RUNS && p->run[j] > top)
			top = p->run[j];
	memset(sum, 0, (size_t)(top + 1) * sizeof(*sum));
	memset(cnt, 0, (size_t)(top + 1) * sizeof(*cnt));
	for (size_t j = 0; j < p->n; j++)
		if (p->run[j] >= 0 && p->run[j] <= top && (all || !p->flagged[j])) {
			sum[p->run[j]] += p->cost[j];
			cnt[p->run[j]]++;
		}
	for (int r = 0; r <= top && nr < LAB_AN_APART_RUNS; r++)
		if (cnt[r]) {
			m[nr] = sum[r] / (double)cnt[r];
			id[nr++] = r;
		}
	return nr;
}

/* Whether the run means m[0..nr-1] fall into two clusters: sorted, the widest gap that leaves
 * 2 or more runs on each side is over 3 times the spread of either side, over 10 % of the
 * median and over noise (what the samples' spread within runs moves a run mean by). Fills c
 * (the low side's count, lowest, highest; the high side's) when they do. */
static int an_clusters(const double *m, int nr, double noise, double c[6])
{
	double s[LAB_AN_APART_RUNS];
	int cut = -1;

	memcpy(s, m, (size_t)nr * sizeof(*s));
	gsl_sort(s, 1, (size_t)nr);
	for (int i = 1; i + 2 < nr; i++)
		if (cut < 0 || s[i + 1] - s[i] > s[cut + 1] - s[cut])
			cut = i;
	if (cut < 0)
		return 0;
	double gap = s[cut + 1] - s[cut], med = lab_an_median_sorted(s, (size_t)nr);
	if (!(gap > 3 * (s[cut] - s[0]) && gap > 3 * (s[nr - 1] - s[cut + 1]) &&
	      gap > 0.1 * fabs(med) && gap > noise))
		return 0;
	c[0] = cut + 1;
	c[1] = s[0];
	c[2] = s[cut];
	c[3] = nr - cut - 1;
	c[4] = s[cut + 1];
	c[5] = s[nr - 1];
	return 1;
}

/* The value of item j of s[0..nr-1] without its item at p. */
static double an_without(const double *s, int p, int j)
{
	return s[j < p ? j : j + 1];
}

/* The run of m farthest from the median of the others, when that distance is over 3 times
 * their range, over 10 % of it and over noise; -1 when none is. The runs are sorted once and
 * each one's others read from that order: a sort per run took 34 ms a point at 1000 runs. */
static int an_far_run(const double *m, int nr, double noise)
{
	double s[LAB_AN_APART_RUNS], far = 0;
	int worst = -1, k = nr - 1;

	memcpy(s, m, (size_t)nr * sizeof(*s));
	gsl_sort(s, 1, (size_t)nr);
	for (int i = 0; i < nr; i++) {
		int p = 0, hi = nr - 1;

		while (p < hi) { /* its place in s: the first of its equals (any will do) */
			int mid = p + (hi - p) / 2;

			if (s[mid] < m[i])
				p = mid + 1;
			else
				hi = mid;
		}
		double med = k % 2 ? an_without(s, p, k / 2)
		                   : an_without(s, p, k / 2 - 1) / 2 + an_without(s, p, k / 2) / 2;
		double range = an_without(s, p, k - 1) - an_without(s, p, 0);
		double d = fabs(m[i] - med);
		if (d > 3 * range && d > 0.1 * fabs(med) && d > noise && d > far) {
			far = d;
			worst = i;
		}
	}
	return worst;
}

int lab_an_runs_apart(const struct lab_an_point *p, struct lab_an_apart *a)
{
	double m[LAB_AN_APART_RUNS];
	int id[LAB_AN_APART_RUNS], nr, worst;

	memset(a, 0, sizeof(*a));
	if (!p->run || p->levels.runs < 3 || (nr = an_run_means(p, m, id)) < 3)
		return 0;
	a->nruns = nr;
	/* 4 standard errors of a run mean from the spread within runs: 3 runs of 5 samples at
	 * a CV of 20 %, no setup apart, read "RUN APART" one time in three without it. Runs of
	 * one sample each have no such spread: a setup cannot be told from a noisy sample (3
	 * runs of one sample at a CV of 20 % read "RUN APART" one time in two), so none is
	 * called apart. */
	double se = sqrt(p->levels.var_within / fmax(p->levels.n_per_run, 1));
	if (!isfinite(se))
		return 0;
	double noise = 4 * se;
	if ((worst = an_far_run(m, nr, noise)) >= 0) {
		a->lo = INFINITY;
		a->hi = -INFINITY;
		for (int j = 0; j < nr; j++)
			if (j != worst) {
				a->lo = fmin(a->lo, m[j]);
				a->hi = fmax(a->hi, m[j]);
			}
		a->run = id[worst];
		a->mean = m[worst];
		return a->kind = LAB_AN_APART_FAR;
	}
	if (an_clusters(m, nr, noise, a->c))
		return a->kind = LAB_AN_APART_CLUSTERS;
	return 0;
}

const char *lab_an_runs_apart_flag(const struct lab_an_point *p, const char *unit, char *buf,
                                   size_t len)
{
	struct lab_an_apart a;
	/* run means of the cost, in its unit: beside columns of other units (makespan_ns) a bare
	 * number read as one of them */
	const char *u = unit ? unit : p->unit ? p->unit : "", *sp = *u ? " " : "";

	switch (lab_an_runs_apart(p, &a)) {
	case LAB_AN_APART_FAR:
		snprintf(buf, len,
		         "RUN APART: run %d at %.4g%s%s, the other %d at %.4g .. %.4g%s%s", a.run,
		         a.mean, sp, u, a.nruns - 1, a.lo, a.hi, sp, u);
		return buf;
	case LAB_AN_APART_CLUSTERS:
		snprintf(buf, len,
		         "RUNS IN 2 CLUSTERS: %.0f at %.4g .. %.4g%s%s, %.0f at %.4g .. %.4g%s%s",
		         a.c[0], a.c[1], a.c[2], sp, u, a.c[3], a.c[4], a.c[5], sp, u);
		return buf;
	default:
		return NULL;
	}
}
