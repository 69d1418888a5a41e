/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/views/locks_delay.h"

#include "analyze/levels.h"
#include "analyze/stats.h"
#include "harness/units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A duration param's value in ns ("100ns", "1us", "0", a bare number as ns): NaN when absent,
 * -1 when it is no finite duration (a file's "inf", "0x10", "-5" or "100 " is not read as one,
 * nor one of 63 characters or more, which a buffer would cut). */
static double an_param_ns(const char *params, const char *key)
{
	char v[64];
	size_t n;
	double x;

	if (!lab_an_params_get(params, key, v, sizeof(v)))
		return NAN;
	/* a value that fills v may have been cut ("0...01000ns" read as 100) */
	if (strlen(v) >= sizeof(v) - 1 || !(n = lab_unit_decimal_len(v)) ||
	    !isfinite(x = strtod(v, NULL)))
		return -1;
	if (!v[n])
		return x;
	for (const struct lab_unit_suffix *u = lab_duration_suffixes; u->name; u++)
		if (!strcmp(v + n, u->name))
			return isfinite(x * u->mult) ? x * u->mult : -1;
	return -1;
}

/* x in whole units as the tables read them ("+20", "855"), or in %.3g past 1e6 (a file's
 * drift of 1e300 % printed 301 digits); plus: with its sign. */
static const char *an_num(double x, int plus, char *buf, size_t len)
{
	if (fabs(x) < 1e6)
		snprintf(buf, len, plus ? "%+.0f" : "%.0f", x);
	else
		snprintf(buf, len, plus ? "%+.3g" : "%.3g", x);
	return buf;
}

const char *lab_an_delay_flag(const char *params, const struct lab_an_delay *x, char *buf,
                              size_t len)
{
	double tol = LAB_AN_DELAY_TOL_PCT, cs_ns = an_param_ns(params, "cs_ns"), off = 0;
	char why[3][128] = {"", "", ""}, lock[64] = "", a[32], b[32];
	size_t used = 0;

	/* a drifted calibration matters only to a point that uses the delay (0 loops are 0; a
	 * point whose params do not say is taken as one that does) */
	if (x->drift_n && fabs(x->drift_median) > tol &&
	    !(cs_ns == 0 && an_param_ns(params, "think_ns") == 0))
		snprintf(why[0], sizeof(why[0]),
		         "delay calibration %s %% off the run's fastest (tolerance %.0f %%)",
		         an_num(x->drift_median, 1, a, sizeof(a)), tol);
	/* Within 50 ns a short section is the clock reads' noise, not drift; a section below
	 * the clock's resolution (NaN: the view's "not measurable") is not read as a time. Only a
	 * section shorter than asked says the delay did not hold: a longer one holds the
	 * protected data's move to the new holder at each hand-off (a fair lock's ticket at
	 * cs_ns = 100 ns read 224 ns, its line transfer, which is what ch26 teaches, not a
	 * fault), and a slower delay is the drift above. */
	if (cs_ns < 0)
		snprintf(why[1], sizeof(why[1]),
		         "cs_ns is no duration, so the section and the 1/cs_ns limit go unchecked");
	else if (x->cs_n && cs_ns > 0 && x->cs_median >= 0 &&
	         cs_ns - x->cs_median > LAB_AN_DELAY_RES_NS &&
	         (off = 100 * (x->cs_median / cs_ns - 1)) < -tol) /* >= -100: cs_median >= 0 */
		snprintf(why[1], sizeof(why[1]), "critical section achieved %s ns, %s %% off cs_ns",
		         an_num(x->cs_median, 0, a, sizeof(a)), an_num(off, 1, b, sizeof(b)));
	lab_an_params_get(params, "lock", lock, sizeof(lock));
	/* Readers share the lock: only exclusive locks are bounded by one section at a time. */
	if (x->thr_n && cs_ns > 0 && strcmp(lock, "rwlock_read") && x->thr_lo > 1e9 / cs_ns)
		snprintf(why[2], sizeof(why[2]), "%.3g M/s lies above the limit 1/cs_ns = %.3g M/s",
		         x->thr_lo / 1e6, 1e3 / cs_ns);
	buf[0] = 0;
	for (int i = 0; i < 3; i++)
		if (why[i][0])
			lab_an_cat(buf, len, &used, "%s%s",
			           used ? "; " : "DELAY FLAGGED: ", why[i]);
	return buf[0] ? buf : NULL;
}

/* The summary of p's metric column named name, NULL when p has none. */
static const struct lab_an_msum *an_msum_named(const struct lab_an_data *d,
                                               const struct lab_an_point *p, const char *name)
{
	for (size_t m = 0; m < d->nmetric; m++)
		if (!strcmp(d->metric_name[m], name))
			return lab_an_msum_of(p, m);
	return NULL;
}

/*
 * The lower end of p's throughput (acquisitions/s, all threads) as the locks view computes it
 * (curves.c, LAB_AN_CV_RATE): 1e9 / the upper end of the mean cost's 95 % interval on the log
 * scale, from the run means with two or more runs; 1e9 / the mean where there is no interval,
 * NaN without samples. The samples are those p's summary used (all, or the unflagged:
 * st.n tells). A lesson and the view then flag the same points (the lesson's 1e9 / the cost's
 * upper end missed one the view flagged). 0, or -1 out of memory.
 */
static int an_rate_lo(const struct lab_an_point *p, double *lo, size_t *n)
{
	double *x = malloc((4 * p->n + 1) * sizeof(*x)), clo, hi;
	int *run = p->run ? malloc((p->n + 1) * sizeof(*run)) : NULL;
	int inc = p->st.n == p->n;
	struct lab_an_stats st;
	struct lab_an_levels lv;
	size_t k = 0;

	*lo = NAN;
	*n = 0;
	if (!x || (p->run && !run)) {
		free(x);
		free(run);
		return -1;
	}
	for (size_t i = 0; i < p->n; i++)
		if ((inc || !p->flagged[i]) && p->cost[i] > 0) {
			if (run)
				run[k] = p->run[i];
			x[k++] = p->cost[i];
		}
	if (k) {
		lab_an_stats_compute(x, k, x + p->n, &st);
		if (run && p->levels.runs >= 2 &&
		    !lab_an_levels_compute(x, run, k, x + p->n, &lv) && lv.runs >= 2 &&
		    isfinite(lv.run_se)) {
			st.se = lv.run_se;
			st.mean = lv.mean;
			st.n = lv.runs;
		}
		*lo = k >= 2 && !lab_an_stats_ci_log(&st, 0.95, &clo, &hi) && isfinite(hi)
		          ? 1e9 / hi
		          : 1e9 / st.mean;
		*n = k;
	}
	free(x);
	free(run);
	return 0;
}

const char *lab_an_delay_point(const struct lab_an_data *d, const struct lab_an_point *p, char *buf,
                               size_t len)
{
	const struct lab_an_msum *cs = an_msum_named(d, p, "cs_achieved_ns"),
	                         *drift = an_msum_named(d, p, "delay_drift_pct");
	struct lab_an_delay x = {.thr_lo = NAN};

	if (!cs && !drift)
		return NULL;
	/* as the view's column reads it (curves.c, col.resolution): a mean at or below 0 is below
	 * the clock's resolution, no time; a median below 0 is 0 */
	if (cs && cs->n)
		x = (struct lab_an_delay){.cs_median = !(cs->mean > 0)  ? NAN
		                                       : cs->median < 0 ? 0
		                                                        : cs->median,
		                          .cs_n = cs->n,
		                          .thr_lo = NAN};
	if (drift && drift->n) {
		x.drift_median = drift->median;
		x.drift_n = drift->n;
	}
	if (an_rate_lo(p, &x.thr_lo, &x.thr_n))
		return NULL; /* out of memory: no note rather than a wrong one */
	return lab_an_delay_flag(p->params, &x, buf, len);
}
