/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Between-run and within-run variance of a point (analyze/levels.h has the model). */
#include "analyze/levels.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/data.h"
#include "analyze/jsonr.h"
#include "analyze/stats.h"
#include "harness/record_schema.h"

/* Welford over x[0..n-1]: mean and the sum of squared deviations. */
static void lv_moments(const double *x, size_t n, double *mean, double *ss)
{
	double m = 0, s = 0;

	for (size_t i = 0; i < n; i++) {
		double d = x[i] - m;
		m += d / (double)(i + 1);
		s += d * (x[i] - m);
	}
	*mean = m;
	*ss = s;
}

/* t-interval of the mean of x[0..n-1] at level cl; NaN when n < 2. */
static void lv_tci(const double *x, size_t n, double cl, double *lo, double *hi)
{
	double m, ss, half;

	*lo = *hi = NAN;
	if (n < 2)
		return;
	lv_moments(x, n, &m, &ss);
	half = lab_an_t_quantile(cl, (double)(n - 1)) * sqrt(ss / (double)(n - 1) / (double)n);
	*lo = m - half;
	*hi = m + half;
}

static _Thread_local unsigned long long lv_compares;

unsigned long long lab_an_levels_compares(void)
{
	return lv_compares;
}

/* A sample's run label and its index: sorted by both, a run's samples come together, first
 * the earliest. */
struct lv_pair {
	int run;
	size_t i;
};

static int lv_pair_cmp(const void *a, const void *b)
{
	const struct lv_pair *x = a, *y = b;

	lv_compares++;
	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/*
 * Numbers the runs of run[0..n-1] (NULL: one run) 0, 1, ... in the order they first appear,
 * sample i's into id[i]; returns how many. O(n log n): a point may hold one run per sample
 * (hostile input), and a search per sample made that quadratic. pr holds n pairs.
 */
static size_t lv_number(const int *run, size_t n, size_t *id, struct lv_pair *pr)
{
	size_t k = 0, head = 0;

	for (size_t i = 0; i < n; i++)
		pr[i] = (struct lv_pair){run ? run[i] : 0, i};
	if (run)
		qsort(pr, n, sizeof(*pr), lv_pair_cmp);
	for (size_t g = 0; g < n; g++) { /* id: the first sample of the run */
		if (g == 0 || pr[g].run != pr[g - 1].run)
			head = pr[g].i;
		id[pr[g].i] = head;
	}
	/* id[i] < i names a run met before, whose first sample already holds its number */
	for (size_t i = 0; i < n; i++)
		id[i] = id[i] == i ? k++ : id[id[i]];
	return k;
}

/* Groups x by run into runs (numbered by lv_number): each run's sum and size, the sums in
 * sample order. Returns how many. */
static size_t lv_group(const double *x, const int *run, size_t n, double *sum, double *cnt,
                       size_t *id, struct lv_pair *pr)
{
	size_t k = lv_number(run, n, id, pr);

	for (size_t j = 0; j < k; j++)
		sum[j] = cnt[j] = 0;
	for (size_t i = 0; i < n; i++) {
		sum[id[i]] += x[i];
		cnt[id[i]] += 1;
	}
	return k;
}

int lab_an_levels_compute(const double *x, const int *run, size_t n, double *scratch,
                          struct lab_an_levels *lv)
{
	double *sum = scratch, *cnt = scratch + n, *means = scratch + 2 * n;
	size_t *id = malloc(n * sizeof(*id));
	struct lv_pair *pr = malloc(n * sizeof(*pr));
	double N = (double)n, ssw = 0, ssb = 0, grand, ss, sumsq = 0;
	size_t k;

	*lv = (struct lab_an_levels){.n = n,
	                             .n_per_run = NAN,
	                             .var_between = NAN,
	                             .var_within = NAN,
	                             .between_share = NAN,
	                             .mean_share = NAN,
	                             .mean = NAN,
	                             .run_ci95_lo = NAN,
	                             .run_ci95_hi = NAN,
	                             .run_ci99_lo = NAN,
	                             .run_ci99_hi = NAN,
	                             .within_ci95_lo = NAN,
	                             .within_ci95_hi = NAN,
	                             .run_se = NAN};
	if (!n || !id || !pr) {
		free(id);
		free(pr);
		return -1;
	}
	k = lv_group(x, run, n, sum, cnt, id, pr);
	free(pr);
	lv->runs = k;
	for (size_t j = 0; j < k; j++)
		means[j] = sum[j] / cnt[j];
	for (size_t i = 0; i < n; i++)
		ssw += (x[i] - means[id[i]]) * (x[i] - means[id[i]]);
	free(id);
	lv_tci(x, n, 0.95, &lv->within_ci95_lo, &lv->within_ci95_hi);
	lv_moments(x, n, &grand, &ss);
	if (k < 2) {
		lv->mean = grand;
		lv->n_per_run = N;
		lv->var_within = n > 1 ? ss / (N - 1) : NAN;
		return 0;
	}
	for (size_t j = 0; j < k; j++) {
		ssb += cnt[j] * (means[j] - grand) * (means[j] - grand);
		sumsq += cnt[j] * cnt[j];
	}
	double msb = ssb / (double)(k - 1);
	double msw = n > k ? ssw / (N - (double)k) : NAN;
	lv->n_per_run = (N - sumsq / N) / (double)(k - 1);
	lv->var_within = msw;
	lv->var_between = isnan(msw) ? NAN : fmax(0, (msb - msw) / lv->n_per_run);
	double tot = lv->var_between + lv->var_within;
	lv->between_share = tot > 0 ? lv->var_between / tot : NAN;
	double per_mean = lv->var_between + lv->var_within / (N / (double)k);
	lv->mean_share = per_mean > 0 ? lv->var_between / per_mean : NAN;
	lv_moments(means, k, &lv->mean, &ss);
	/* A run mean varies by at least its samples' share, var_within / n_j, so the mean of the K
	 * run means by at least var_within x sum(1 / n_j) / K^2: run means that agree closer than
	 * that (a quantised metric, 800 or 864 ns, whose 3 run means came out equal) gave [816,
	 * 816] over samples of 800 and 864, and claims on both sides of 816 held. */
	double se2 = ss / (double)(k - 1) / (double)k, inv = 0;
	for (size_t j = 0; j < k; j++)
		inv += 1 / cnt[j];
	if (isfinite(msw) && se2 < msw * inv / ((double)k * (double)k))
		se2 = msw * inv / ((double)k * (double)k);
	lv->run_se = sqrt(se2);
	for (int c = 0; c < 2; c++) {
		double half = lab_an_t_quantile(c ? 0.99 : 0.95, (double)(k - 1)) * lv->run_se;
		*(c ? &lv->run_ci99_lo : &lv->run_ci95_lo) = lv->mean - half;
		*(c ? &lv->run_ci99_hi : &lv->run_ci95_hi) = lv->mean + half;
	}
	return 0;
}

double lab_an_levels_n_opt(const struct lab_an_levels *lv, double cost_ratio)
{
	if (!(lv->runs >= 2) || isnan(lv->var_between) || isnan(lv->var_within))
		return NAN;
	if (lv->var_between <= 0)
		return INFINITY;
	return fmax(1, sqrt(cost_ratio * lv->var_within / lv->var_between));
}

const char *lab_an_levels_advice(const struct lab_an_levels *lv, char *buf, size_t len)
{
	if (lv->runs >= 2 && !isnan(lv->var_within) && isnan(lv->mean_share)) {
		snprintf(buf, len, "no spread within or between the %zu runs: nothing to split",
		         lv->runs); /* every sample the same */
		return buf;
	}
	if (lv->runs >= 2 && isnan(lv->mean_share)) {
		snprintf(
		    buf, len,
		    "one sample per run: the within-run variance is unknown, so how much lives "
		    "between runs cannot be told; the interval is from the %zu run means "
		    "(reps = 2 or more measures the split)",
		    lv->runs);
		return buf;
	}
	if (lv->runs < 2) {
		snprintf(buf, len,
		         "one run: the between-run variance is unknown and the interval is "
		         "within-run only (runs = 3 or more measures it)");
		return buf;
	}
	double r = lv->var_between > 0 ? sqrt(lv->var_within / lv->var_between) : INFINITY;
	if (lv->mean_share >= 0.5)
		snprintf(buf, len,
		         "variance lives between runs (%.0f%% of a run mean's, %.0f%% of a "
		         "sample's): spend the next budget on more runs, not samples; beyond "
		         "sqrt(c_run/c_sample) x %.2g samples per run add little",
		         100 * lv->mean_share, 100 * lv->between_share, r);
	else
		snprintf(buf, len,
		         "variance lives within runs (%.0f%% of a run mean's is within, between "
		         "share %.0f%% of a sample's): more samples per run narrow the interval; "
		         "%zu runs are enough to watch the setups",
		         100 * (1 - lv->mean_share), 100 * lv->between_share, lv->runs);
	return buf;
}

int lab_an_levels_apply(struct lab_an_data *d, int include_flagged, struct lab_err *err)
{
	size_t maxn = 1;
	double *x, *scratch;
	int *run;
	int rc = 0;

	for (size_t i = 0; i < d->npt; i++)
		maxn = d->pt[i].n > maxn ? d->pt[i].n : maxn;
	x = malloc(maxn * sizeof(*x));
	scratch = malloc(3 * maxn * sizeof(*scratch));
	run = malloc(maxn * sizeof(*run));
	if (!x || !scratch || !run) {
		rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < d->npt; i++) {
		struct lab_an_point *p = &d->pt[i];
		size_t k = 0;

		for (size_t j = 0; j < p->n; j++)
			if (!p->flagged[j] || include_flagged) {
				x[k] = p->cost[j];
				run[k++] = p->run ? p->run[j] : 0;
			}
		if (lab_an_levels_compute(x, run, k, scratch, &p->levels))
			continue;
		/* A cost is > 0, as in the summary: so is the within-run interval's lower end,
		 * with one run as with several (NaN, one sample, stays unknown). */
		if (!isnan(p->levels.within_ci95_lo))
			p->levels.within_ci95_lo = fmax(0, p->levels.within_ci95_lo);
		if (p->levels.runs < 2)
			continue;
		/* The point's interval is the run-level one, and its mean that interval's centre,
		 * the mean of the run means the speedup is from (runs of unequal size put the
		 * pooled mean outside its own interval: 10.01 [10.9, 11.03]). */
		p->st.mean = p->levels.mean;
		p->levels.run_ci95_lo = fmax(0, p->levels.run_ci95_lo);
		p->levels.run_ci99_lo = fmax(0, p->levels.run_ci99_lo);
		p->st.ci95_lo = fmax(0, p->levels.run_ci95_lo);
		p->st.ci95_hi = p->levels.run_ci95_hi;
		p->st.ci99_lo = fmax(0, p->levels.run_ci99_lo);
		p->st.ci99_hi = p->levels.run_ci99_hi;
	}
out:
	free(x);
	free(scratch);
	free(run);
	return rc;
}

int lab_an_point_one_setup(const struct lab_an_point *p, size_t *kept, double *runs,
                           double *planned)
{
	double r = p->runjson ? lab_an_json_num(p->runjson, LAB_KEY_RUNS, 1) : 1,
	       pl = p->runjson ? lab_an_json_num(p->runjson, LAB_KEY_RUNS_PLANNED, 1) : 1;

	if (kept)
		*kept = p->levels.runs;
	if (runs)
		*runs = r;
	if (planned)
		*planned = pl;
	/* a point that did not end ok says its status, not how many setups it kept */
	if (p->status && strcmp(p->status, "ok"))
		return 0;
	return p->levels.runs < 2 && (r >= 2 || pl >= 2);
}

int lab_an_point_single_setup(const struct lab_an_point *p)
{
	double runs, planned;
	size_t kept;

	if (!p->runjson)
		return -1;
	if (!p->st.n)
		return 0;
	lab_an_point_one_setup(p, &kept, &runs, &planned);
	return kept < 2 && runs < 2 && planned < 2;
}

const char *lab_an_one_setup_flag(const struct lab_an_point *p, char *buf, size_t len)
{
	double runs, planned;
	size_t kept;

	if (!lab_an_point_one_setup(p, &kept, &runs, &planned))
		return NULL;
	if (!kept && runs >= 2) /* every run's samples flagged: no setup at all */
		snprintf(buf, len, "NO SETUP: 0 of %.0f runs kept", runs);
	else if (!kept)
		snprintf(buf, len, "NO SETUP: 0 of %.0f planned runs", planned);
	else if (runs >= 2)
		snprintf(buf, len, "ONE SETUP: %zu of %.0f runs kept", kept, runs);
	else
		snprintf(buf, len, "ONE SETUP: %zu of %.0f planned runs", kept, planned);
	return buf;
}

int lab_an_point_by_runs(const struct lab_an_point *p)
{
	return p->levels.runs >= 2 && isfinite(p->levels.run_se);
}

/* p's mean cost, the variance of that mean and its observations, at p's own level. */
static void lv_point_moments(const struct lab_an_point *p, double *m, double *v, size_t *n)
{
	if (lab_an_point_by_runs(p)) {
		*m = p->levels.mean;
		*v = p->levels.run_se * p->levels.run_se;
		*n = p->levels.runs;
	} else {
		*m = p->st.mean;
		*v = p->st.se * p->st.se;
		*n = p->st.n;
	}
}

double lab_an_point_level_mean(const struct lab_an_point *p)
{
	return lab_an_point_by_runs(p) ? p->levels.mean : p->st.mean;
}

const char *lab_an_cost_moments(const struct lab_an_point *a, const struct lab_an_point *b,
                                struct lab_an_moments *m)
{
	int ra = lab_an_point_by_runs(a), rb = lab_an_point_by_runs(b);
	double ma, va, mb, vb;
	size_t na, nb;
	int lent = 0;
	double df_max = INFINITY;

	lv_point_moments(a, &ma, &va, &na);
	lv_point_moments(b, &mb, &vb, &nb);
	if (ra != rb) {
		const struct lab_an_levels *many = ra ? &a->levels : &b->levels;
		/* one sample a run leaves sb^2 unknown: the run means' own variance bounds it */
		double sb2 = isfinite(many->var_between)
		                 ? many->var_between
		                 : many->run_se * many->run_se * (double)many->runs;
		double rel = sb2 / (many->mean * many->mean);
		/* a one-setup side of one sample has no variance of its own to add to: it stays
		 * without an interval (it took the other's run count, and 8 of 12 points of one
		 * sample each read "regressed") */
		if (isfinite(rel) && rel > 0 && (ra ? nb : na) >= 2) {
			*(ra ? &vb : &va) += rel * (ra ? mb * mb : ma * ma);
			*(ra ? &nb : &na) = many->runs;
			lent = 1;
			df_max = (double)many->runs - 1;
		}
	}
	*m = (struct lab_an_moments){ma, va, na, mb, vb, nb, lent, df_max};
	return ra && rb ? "runs" : ra || rb ? "mixed" : "samples";
}

const char *lab_an_cost_ratio(const struct lab_an_point *a, const struct lab_an_point *b,
                              struct lab_an_ratio *r, int *lent)
{
	struct lab_an_moments m;
	const char *level = lab_an_cost_moments(a, b, &m);

	lab_an_ratio_fieller_cap(m.ma, m.va, m.na, m.mb, m.vb, m.nb, m.df_max, 0.95, r);
	if (lent)
		*lent = m.lent;
	return level;
}
