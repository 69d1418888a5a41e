/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A point's levels and precision target in analysis.json and the text output. */
#include "analyze/levels_out.h"

#include <math.h>
#include <stdio.h>

#include "analyze/jsonw.h"
#include "harness/record_schema.h"

/* The relative half-width of p's interval as the analysis gives it (the wider side: a lower end
 * stopped at 0 is not a narrower interval); NaN without one. Not run.json's figure: the harness
 * decides while it samples, the analyzer's interval is the one the numbers are read with. */
static double lv_reached(const struct lab_an_point *p)
{
	double m = p->st.mean, lo = p->st.ci95_lo, hi = p->st.ci95_hi;

	/* one sample: its mean +- 0 is no interval ("+-0% reached"); one setup of a target over
	 * runs: its samples' interval is not the run-level one the target is judged on (it
	 * read "+-1.19% reached" from 3 samples of 1 of 59 runs, precision33) */
	if (p->st.n < 2 || !isfinite(lo) || !isfinite(hi) || !(m > 0) ||
	    lab_an_point_one_setup(p, NULL, NULL, NULL))
		return NAN;
	return fmax(hi - m, m - lo) / m;
}

/* Whether p met its precision target: by the analyzer's interval and by the run's own figure
 * (Stein's half-width may be the wider). 1 met; 0 not met by the analyzer's figure; -1 not met by
 * the run's figure alone (*run: it, NaN when the run reached no interval: run.json null). A
 * run.json without the figure (hand-made) leaves the analyzer's alone to decide. */
static int lv_met(const struct lab_an_point *p, double target, double got, double *run)
{
	const struct lab_an_json *r = lab_an_json_get(p->runjson, LAB_KEY_PRECISION_ACHIEVED);

	*run = lab_an_json_num(p->runjson, LAB_KEY_PRECISION_ACHIEVED, NAN);
	if (!(got <= target * (1 + 1e-9)))
		return 0;
	if (r && !(*run <= target * (1 + 1e-9)))
		return -1;
	return 1;
}

void lab_an_levels_json(struct lab_json *w, const struct lab_an_point *p)
{
	const struct lab_an_levels *lv = &p->levels;
	const struct lab_an_json *pr = p->runjson;
	char advice[320];
	int k2 = lv->runs >= 2;

	lab_json_int(w, LAB_KEY_RUNS, (long long)lv->runs);
	lab_json_num(w, "var_between", lv->var_between);
	lab_json_num(w, "var_within", lv->var_within);
	lab_json_num(w, "between_share", lv->between_share);
	lab_json_num(w, "run_mean_between_share", lv->mean_share);
	/* The point's interval: from run means with K >= 2 (also mean_ci95 then). */
	lab_json_pair(w, "run_ci95", k2 ? lv->run_ci95_lo : NAN, k2 ? lv->run_ci95_hi : NAN);
	lab_json_num(w, "run_ci95_df", k2 ? (double)(lv->runs - 1) : NAN);
	lab_json_pair(w, "within_run_ci95", lv->within_ci95_lo, lv->within_ci95_hi);
	lab_json_str(w, "interval_level", k2 ? "runs" : "within_run");
	lab_json_str(w, "variance_advice",
	             lv->n ? lab_an_levels_advice(lv, advice, sizeof(advice)) : NULL);
	/* What run.json says the point was to take, and took (runs above counts the runs with a
	 * used sample). */
	if (lab_an_json_get(pr, LAB_KEY_RUNS_PLANNED)) {
		lab_json_int(w, "runs_planned",
		             (long long)lab_an_json_num(pr, LAB_KEY_RUNS_PLANNED, 0));
		lab_json_int(w, "runs_recorded", (long long)lab_an_json_num(pr, LAB_KEY_RUNS, 0));
	}
	if (!pr || !lab_an_json_get(pr, LAB_KEY_PRECISION_TARGET))
		return;
	double target = lab_an_json_num(pr, LAB_KEY_PRECISION_TARGET, NAN), run;
	int met = lv_met(p, target, lv_reached(p), &run);

	lab_json_num(w, LAB_KEY_PRECISION_TARGET, target);
	lab_json_num(w, LAB_KEY_PRECISION_ACHIEVED, lv_reached(p));
	lab_json_num(w, "precision_achieved_run", run);
	/* met by both figures: the analyzer's interval and the run's own */
	lab_json_bool(w, "precision_met", met == 1);
	lab_json_num(w, LAB_KEY_SAMPLES, lab_an_json_num(pr, LAB_KEY_SAMPLES, NAN));
	const struct lab_an_json *ex = lab_an_json_get(pr, LAB_KEY_BUDGET_EXHAUSTED);
	lab_json_bool(w, LAB_KEY_BUDGET_EXHAUSTED,
	              ex && ex->type == LAB_AN_JSON_BOOL && ex->num != 0);
	ex = lab_an_json_get(pr, LAB_KEY_TOTAL_EXHAUSTED);
	if (ex && ex->type == LAB_AN_JSON_BOOL && ex->num != 0)
		lab_json_bool(w, LAB_KEY_TOTAL_EXHAUSTED, true);
}

const char *lab_an_precision_line(const struct lab_an_point *p, char *buf, size_t len)
{
	const struct lab_an_json *pr = p->runjson, *ex, *tot;
	double target, got = lv_reached(p);
	char reached[128];

	if (!pr || !lab_an_json_get(pr, LAB_KEY_PRECISION_TARGET))
		return NULL;
	target = lab_an_json_num(pr, LAB_KEY_PRECISION_TARGET, NAN);
	ex = lab_an_json_get(pr, LAB_KEY_BUDGET_EXHAUSTED);
	tot = lab_an_json_get(pr, LAB_KEY_TOTAL_EXHAUSTED);
	/* the run's own figure (Stein's half-width may be the wider) decides "not met" as well:
	 * the text never says met where run.json says not, and names that figure when it alone
	 * decides (a figure below the target followed by "not met" read as a contradiction) */
	double run;
	int met = lv_met(p, target, got, &run);
	char why[64] = "";

	if (met == -1 && isnan(run))
		snprintf(why, sizeof(why), ": the run itself reached no interval");
	else if (met == -1)
		snprintf(why, sizeof(why), ": the run's own figure, +-%.3g%%", 100 * run);
	if (isnan(got) && lab_an_point_one_setup(p, NULL, NULL, NULL))
		snprintf(reached, sizeof(reached),
		         "no run-level interval (one setup kept: not met)");
	else if (isnan(got))
		snprintf(reached, sizeof(reached), "no interval");
	else
		snprintf(reached, sizeof(reached), "+-%.3g%% reached%s%s%s", 100 * got,
		         met == 1 ? "" : " (not met", why, met == 1 ? "" : ")");
	/* the samples and runs the interval is from, of those taken (flagged ones are left out) */
	snprintf(buf, len,
	         "precision: +-%.3g%% asked, %s with %zu of %.0f samples in %zu of %.0f "
	         "run(s)%s",
	         100 * target, reached, p->levels.n, lab_an_json_num(pr, LAB_KEY_SAMPLES, NAN),
	         p->levels.runs, lab_an_json_num(pr, LAB_KEY_RUNS, NAN),
	         tot && tot->type == LAB_AN_JSON_BOOL && tot->num != 0
	             ? "; the config's total_budget ran out first"
	         : ex && ex->type == LAB_AN_JSON_BOOL && ex->num != 0 ? "; the budget ran out first"
	                                                              : "");
	return buf;
}

const char *lab_an_runs_short_line(const struct lab_an_point *p, char *buf, size_t len)
{
	size_t runs, planned;

	if (!lab_an_point_runs_short(p, &runs, &planned))
		return NULL;
	/* with a precision target, planned is its cap: the target or the budget would have
	 * stopped far sooner ("9 of 100000 planned runs" said nothing) */
	int n =
	    p->runjson && lab_an_json_get(p->runjson, LAB_KEY_PRECISION_TARGET)
	        ? snprintf(buf, len,
	                   "%zu run%s (the run ended before the precision target or its "
	                   "budget did)",
	                   runs, runs == 1 ? "" : "s")
	        : snprintf(buf, len, "%zu of %zu planned runs (no more had run)", runs, planned);

	if (n < 0 || (size_t)n >= len)
		return buf;
	/* The runs with a used sample decide the interval (analyze/levels.h). */
	if (p->levels.runs >= 2)
		snprintf(buf + n, len - (size_t)n, ": the interval is from %zu run means",
		         p->levels.runs);
	else if (p->levels.runs == 1)
		snprintf(buf + n, len - (size_t)n,
		         ": the interval is from one run's samples, without the variance between "
		         "runs");
	return buf;
}
