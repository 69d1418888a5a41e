/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the data shows, said in words next to the numbers: superlinear points, fits that turn
 * superlinear (f or sigma < 0), a USL peak past the measured range, a rejected Amdahl line and a
 * model that fails its lack-of-fit test. Text, report and analysis.json all print these.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "analyze/analysis.h"

static void an_find(struct lab_an_series *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void an_find(struct lab_an_series *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (s->nfinding >= LAB_AN_FINDINGS_MAX)
		return;
	va_start(ap, fmt);
	n = vasprintf(&s->finding[s->nfinding], fmt, ap);
	va_end(ap);
	if (n >= 0) /* out of memory: the sentence is not said */
		s->nfinding++;
}

/* Whether a threads = 1 point of s, the speedups' baseline, kept one setup. */
static int an_base_one_setup(const struct lab_an_series *s)
{
	for (size_t i = 0; i < s->nrow; i++)
		if (s->row[i].pt->threads == 1 &&
		    lab_an_point_one_setup(s->row[i].pt, NULL, NULL, NULL))
			return 1;
	return 0;
}

/* The thread counts of s's rows with an efficiency above 1, by kind: 0 superlinear, 1 its
 * interval holds 1, 2 no interval that says either, 3 superlinear on a side's one setup
 * (precision33: warned of with no caveat where the lesson on the same point was inconclusive
 * for it). */
static void an_above_one(const struct lab_an_series *s, char list[4][96], size_t at[4])
{
	int base_one = -1; /* a baseline kept one setup: asked at the first superlinear row */

	for (size_t i = 0; i < s->nrow; i++) {
		const struct lab_an_row *r = &s->row[i];
		int b = r->superlinear ? 0 : r->speedup.has_ci ? 1 : 2;

		if (b == 0 && base_one < 0)
			base_one = an_base_one_setup(s);
		if (b == 0 && (base_one || lab_an_point_one_setup(r->pt, NULL, NULL, NULL)))
			b = 3;
		if (!r->has_speedup || r->pt->threads <= 1 || !(r->eff > 1 + 1e-12))
			continue;
		if (at[b] + 16 < sizeof(list[b]))
			at[b] += (size_t)snprintf(list[b] + at[b], sizeof(list[b]) - at[b], "%s%d",
			                          at[b] ? ", " : "", r->pt->threads);
	}
}

/* Superlinear points (the efficiency interval above 1) with a cause the data supports:
 * asymmetric CPUs where the series has samples whose threads did identical work far apart
 * (threads.csv), else cache capacity only where the per-thread working set shrinks with threads,
 * which a weak series (fixed work per thread) rules out and nothing in the results declares yet;
 * points above 1 within noise are said to be so, not called superlinear, and points above 1
 * with no interval to judge them by (one sample per point) are said to have none: "its
 * interval holds 1" would be false there. */
static void an_find_superlinear(struct lab_an_series *s)
{
	char list[4][96] = {"", "", "", ""};
	size_t at[4] = {0, 0, 0, 0}, nasym = 0;
	double ratio = 0;

	an_above_one(s, list, at);
	for (size_t i = 0; i < s->nrow; i++) {
		nasym += s->row[i].pt->n_asym;
		ratio = s->row[i].pt->asym_ratio > ratio ? s->row[i].pt->asym_ratio : ratio;
	}
	if (at[0] && nasym)
		an_find(s,
		        "superlinear at N = %s (efficiency interval above 1): likely asymmetric "
		        "CPUs: in %zu sample%s threads doing identical work were up to %.2fx apart",
		        list[0], nasym, nasym == 1 ? "" : "s", ratio);
	else if (at[0])
		an_find(s, "superlinear at N = %s (efficiency interval above 1): %s", list[0],
		        s->weak
		            ? "not cache capacity (fixed work per thread); likely a slower or "
		              "disturbed CPU in a smaller team"
		            : "cache capacity only if the per-thread working set shrinks with "
		              "threads; else likely a slower or disturbed CPU in a smaller team");
	for (int b = 1; b <= 3; b++) {
		size_t was = s->nfinding;

		if (!at[b])
			continue;
		if (b == 1)
			an_find(s,
			        "efficiency above 1 at N = %s within noise (its interval holds 1)",
			        list[1]);
		else if (b == 3)
			an_find(
			    s,
			    "superlinear at N = %s on one setup's samples only (ONE SETUP: the "
			    "point or its baseline kept one of its planned runs, so its interval "
			    "says nothing of the other setups): rerun when the machine is quiet "
			    "before reading a cause into it",
			    list[3]);
		else
			an_find(s,
			        "efficiency above 1 at N = %s with no interval to judge it by (one "
			        "sample per point): measure each point twice or more to tell "
			        "superlinear from noise",
			        list[2]);
		if (s->nfinding > was && b != 3) /* 3 explains a SUPERLINEAR row, fitted or not */
			s->finding_info[was] = 1;
	}
	/* only beyond the noise: an estimate below 0 whose interval reaches 0 is linear */
	if (s->amdahl.ok && s->amdahl.x[1] < 0 && isnan(s->amdahl.lo[1]))
		an_find(s,
		        "Amdahl f = %.3g < 0 beyond its noise: the fit itself is superlinear, so "
		        "Amdahl gives no speedup bound",
		        s->amdahl.x[1]);
	if (s->usl.ok && s->usl.hi[1] < 0)
		an_find(s,
		        "USL sigma = %.3g [%.3g, %.3g] < 0: a superlinear contention term (cache "
		        "capacity?)",
		        s->usl.x[1], s->usl.lo[1], s->usl.hi[1]);
	char why[256];
	if (lab_an_usl_out_of_range(&s->usl, why, sizeof(why)))
		an_find(s, "%s", why);
}

static int an_max_threads(const struct lab_an_series *s)
{
	int m = 0;

	for (size_t i = 0; i < s->nrow; i++)
		if (s->row[i].pt->st.n > 0 && s->row[i].pt->threads > m)
			m = s->row[i].pt->threads;
	return m;
}

static void an_find_lof(struct lab_an_series *s, const struct lab_an_fit *fit, const char *name)
{
	char f[64];

	if (fit->ok && fit->lof.ok && fit->lof.p < 0.05)
		an_find(s,
		        "%s lacks fit (%s on %.0f and %.0f df, p = %.3g): the means scatter "
		        "around the curve more than the repetitions scatter around the means",
		        name, lab_an_lof_f_text(&fit->lof, f, sizeof(f)), fit->lof.df1,
		        fit->lof.df2, fit->lof.p);
}

void lab_an_series_findings_free(struct lab_an_series *s)
{
	for (size_t i = 0; i < s->nfinding; i++)
		free(s->finding[i]);
	s->nfinding = 0;
}

void lab_an_series_findings(struct lab_an_series *s)
{
	int nmax = an_max_threads(s);

	lab_an_series_findings_free(s);
	memset(s->finding_info, 0, sizeof(s->finding_info));
	an_find_superlinear(s);
	s->peak_beyond_data = s->peak.retrograde && s->peak.n_star > nmax;
	if (s->peak_beyond_data)
		an_find(s,
		        "the USL peak N* = %.1f lies beyond the largest measured N = %d: an "
		        "extrapolation; measure past it to confirm",
		        s->peak.n_star, nmax);
	if (s->amdahl_rejected)
		an_find(s,
		        "Amdahl rejected: the F-test for kappa = 0 gives p = %.3g, so its bound "
		        "1/f does not apply",
		        s->choice.p_value);
	if (!strcmp(s->model, "amdahl") || !strcmp(s->model, "usl"))
		an_find_lof(s, !strcmp(s->model, "usl") ? &s->usl : &s->amdahl, s->model);
}

const char *lab_an_amdahl_bound_text(const struct lab_an_series *s, char *buf, size_t len)
{
	const struct lab_an_fit *a = &s->amdahl;
	double f = a->x[1], lo = a->lo[1], hi = a->hi[1];

	if (!a->ok)
		snprintf(buf, len, "no fit");
	else if (isnan(lo) && f < 0)
		snprintf(buf, len, "no max speedup: f < 0 beyond its noise (superlinear)");
	else if (isnan(lo))
		snprintf(buf, len, "no speedup: f > 1 beyond its noise (slower with more threads)");
	else if (s->amdahl_rejected && f > 0 && f <= 1)
		snprintf(buf, len, "rejected: USL fits better; 1/f = %.3g does not apply", 1 / f);
	else if (s->amdahl_rejected)
		snprintf(buf, len, "rejected: USL fits better; no bound 1/f applies");
	else if (f == 0 && hi == 0)
		snprintf(buf, len, "no max speedup: f = 0 (linear)");
	else if (f == 1 && lo == 1)
		snprintf(buf, len, "no speedup: f = 1 (the cost does not fall with threads)");
	else if (lo <= 0 && hi >= 1)
		snprintf(buf, len, "max speedup not known: f's interval spans [0, 1]");
	else if (lo <= 0)
		snprintf(buf, len,
		         "max speedup at least %.3g, unbounded within the noise (f's "
		         "interval reaches 0)",
		         1 / hi);
	else if (hi >= 1)
		snprintf(buf, len,
		         "max speedup at most %.3g, none within the noise (f's interval "
		         "reaches 1)",
		         1 / lo);
	else
		snprintf(buf, len, "max speedup %.3g [%.3g, %.3g]", 1 / f, 1 / hi, 1 / lo);
	return buf;
}
