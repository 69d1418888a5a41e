/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/output.h"

#include "analyze/flagged.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "analyze/compare.h"
#include "analyze/jsonw.h"
#include "analyze/levels.h"
#include "analyze/levels_out.h"
#include "analyze/modes.h"
#include "analyze/render/render.h"
#include "analyze/views/views.h"
#include "analyze/wfile.h"
#include "harness/record_schema.h"

static void an_csv_num(FILE *f, double v)
{
	fputc(',', f);
	if (isfinite(v))
		lab_fput_g(f, 9, v);
}

/* The modes and mode_centers columns: both empty when the point has too few samples. */
static void an_csv_modes(FILE *f, const struct lab_an_modes *m)
{
	char buf[160];

	if (!m->count) {
		fputs(",,", f);
		return;
	}
	fprintf(f, ",%zu,", m->count);
	lab_an_csv_field(f, lab_an_modes_list(m, 0, 1, buf, sizeof(buf)));
}

/* A rate and its interval: three columns, empty where absent (+inf is an open end: empty). */
static void an_csv_rate(FILE *f, const struct lab_an_rate *r)
{
	an_csv_num(f, r->v);
	an_csv_num(f, r->lo);
	an_csv_num(f, r->hi);
}

static void an_summary_row(FILE *f, const struct lab_an_data *d, const struct lab_an_row *r)
{
	const struct lab_an_point *p = r->pt;
	const struct lab_an_stats *st = &p->st;
	int have = st->n > 0, by_runs = lab_an_point_by_runs(p);
	double ci = st->n > 1 ? 1 : NAN; /* one sample has no interval */
	/* se at the level of the interval beside it: of the run means with two or more runs */
	double se = by_runs ? p->levels.run_se : st->se;
	double v[] = {/* one sample has no spread either: its sd, se and CV were printed 0 */
	              st->mean,         st->sd * ci,      se * ci,          st->ci95_lo * ci,
	              st->ci95_hi * ci, st->ci99_lo * ci, st->ci99_hi * ci, st->median,
	              st->mad,          st->p95,          st->min,          st->max,
	              st->cv * ci};

	lab_an_csv_field(f, p->experiment);
	fprintf(f, ",%ld,", p->id);
	lab_an_csv_field(f, p->kernel ? p->kernel : "");
	fputc(',', f);
	lab_an_csv_field(f, p->params_written ? p->params_written : p->params);
	fprintf(f, ",%d,%s,%zu,%zu,%zu,", p->threads, lab_an_point_status(p), st->n, p->n_flagged,
	        lab_an_flagged_kept(p));
	lab_an_csv_field(f, lab_an_point_unit(d, p));
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		an_csv_num(f, have ? v[i] : NAN);
	fprintf(f, ",%zu,%zu", st->outliers_mild, st->outliers_severe);
	an_csv_modes(f, &p->modes);
	an_csv_rate(f, &r->rates.gbytes);
	an_csv_rate(f, &r->rates.gbytes_wa);
	an_csv_rate(f, &r->rates.gflops);
	an_csv_num(f, r->rates.flops_per_byte);
	fprintf(f, ",%zu,%s", p->levels.runs, !have ? "" : by_runs ? "runs" : "samples");
	for (size_t m = 0; m < d->nmetric; m++) {
		const struct lab_an_msum *ms = lab_an_msum_of(p, m);
		int has = ms && ms->n;

		an_csv_num(f, has ? ms->median : NAN);
		an_csv_num(f, has ? ms->mean : NAN);
		an_csv_num(f, has ? ms->ci95_lo : NAN);
		an_csv_num(f, has ? ms->ci95_hi : NAN);
	}
	fputc('\n', f);
}

int lab_an_summary_write(const struct lab_an_analysis *a, const char *path, struct lab_err *err)
{
	const struct lab_an_data *d = a->data;
	struct lab_an_wfile w;
	FILE *f = lab_an_wfile_open(&w, path, err);

	if (!f)
		return -LAB_EIO;
	fputs("experiment,point,kernel,params,threads,status,n,n_flagged,n_flagged_kept,unit,mean,"
	      "sd,se,"
	      "ci95_lo,ci95_hi,ci99_lo,ci99_hi,median,mad,p95,min,max,cv,outliers_mild,"
	      "outliers_severe,modes,mode_centers," LAB_AN_RATE_COLUMNS ",runs,ci_level",
	      f);
	for (size_t m = 0; m < d->nmetric; m++)
		fprintf(f, ",%s_median,%s_mean,%s_ci95_lo,%s_ci95_hi", d->metric_name[m],
		        d->metric_name[m], d->metric_name[m], d->metric_name[m]);
	fputc('\n', f);
	for (size_t i = 0; i < a->ns; i++)
		for (size_t j = 0; j < a->s[i].nrow; j++)
			an_summary_row(f, d, &a->s[i].row[j]);
	return lab_an_wfile_close(&w, 1, err);
}

static void an_json_rate(struct lab_json *w, const char *key, const struct lab_an_rate *r)
{
	char k[64];

	lab_json_num(w, key, r->v);
	snprintf(k, sizeof(k), "%s_ci95", key);
	/* An open upper end (the cost interval reaches 0) is null, like an unbounded speedup. */
	lab_json_pair(w, k, r->lo, r->hi);
}

static void an_json_rates(struct lab_json *w, const struct lab_an_rates *r)
{
	if (!r->has)
		return;
	an_json_rate(w, "gbytes_per_s", &r->gbytes);
	an_json_rate(w, "gbytes_per_s_wa", &r->gbytes_wa);
	an_json_rate(w, "gflops_per_s", &r->gflops);
	lab_json_num(w, "flops_per_byte", r->flops_per_byte);
}

static void an_json_point(struct lab_json *w, const struct lab_an_row *r)
{
	const struct lab_an_point *p = r->pt;
	const struct lab_an_stats *st = &p->st;
	int have = st->n > 0, ci = st->n > 1, sci = r->has_speedup && r->speedup.has_ci;
	char why[160];

	lab_json_obj_open(w, NULL);
	lab_json_int(w, "point", p->id);
	lab_json_int(w, "threads", p->threads);
	lab_json_str(w, "status", lab_an_point_status(p));
	if (p->reason || strcmp(lab_an_point_status(p), p->status))
		lab_json_str(w, "reason",
		             p->reason ? p->reason : lab_an_missing_why(p, why, sizeof(why)));
	lab_json_int(w, "n", (long long)st->n);
	lab_json_int(w, "n_flagged", (long long)p->n_flagged); /* left out */
	/* flagged and in the numbers (--include-flagged) */
	lab_json_int(w, "n_flagged_kept", (long long)lab_an_flagged_kept(p));
	lab_json_int(w, "asymmetric_samples", (long long)p->n_asym);
	if (p->n_asym)
		lab_json_num(w, "asymmetric_ratio", p->asym_ratio);
	lab_json_num(w, "mean", have ? st->mean : NAN);
	lab_json_pair(w, "mean_ci95", ci ? st->ci95_lo : NAN, ci ? st->ci95_hi : NAN);
	lab_json_num(w, "median", have ? st->median : NAN);
	lab_json_num(w, "sd", ci ? st->sd : NAN); /* one sample: no spread (it read 0) */
	lab_json_num(w, "cv", ci ? st->cv : NAN);
	lab_json_int(w, "outliers_mild", (long long)st->outliers_mild);
	lab_json_int(w, "outliers_severe", (long long)st->outliers_severe);
	lab_an_modes_json(w, &p->modes, 1);
	lab_json_num(w, "speedup", r->has_speedup ? r->speedup.est : NAN);
	lab_json_pair(w, "speedup_ci95", sci ? r->speedup.lo : NAN, sci ? r->speedup.hi : NAN);
	if (r->speedup.unbounded)
		lab_json_bool(w, "speedup_ci_unbounded", 1);
	lab_json_num(w, "efficiency", r->has_speedup ? r->eff : NAN);
	lab_json_pair(w, "efficiency_ci95", sci ? r->eff_lo : NAN, sci ? r->eff_hi : NAN);
	lab_json_num(w, "karp_flatt", r->kf);
	lab_json_pair(w, "karp_flatt_ci95", sci ? r->kf_lo : NAN, sci ? r->kf_hi : NAN);
	lab_json_str(w, "karp_flatt_why", r->kf_why);
	if (r->kf_note)
		lab_json_str(w, "karp_flatt_note", r->kf_note);
	if (r->has_speedup) {
		lab_json_bool(w, "superlinear", r->superlinear);
		lab_json_str(w, "speedup_level",
		             r->speedup_level); /* "runs", "mixed" or "samples" */
	}
	an_json_rates(w, &r->rates);
	lab_an_levels_json(w, p);
	lab_json_obj_close(w);
}

/* level: the series' fit_level ("runs": fitted on run means, the unit of the intervals unless
 * the lack of fit made it the points' means). */
static void an_json_fit_common(struct lab_json *w, const struct lab_an_fit *fit, const char *level)
{
	double c1, lo, hi;

	lab_json_bool(w, "ok", fit->ok);
	if (!fit->ok)
		lab_json_str(w, "reason", fit->reason);
	lab_an_fit_c1(fit, &c1, &lo, &hi);
	lab_json_num(w, "c1", c1);
	lab_json_pair(w, "c1_ci95", lo, hi);
	if (lab_an_model_is_throughput(fit->model)) {
		lab_json_num(w, "x1", fit->ok ? fit->x[0] : NAN);
		lab_json_pair(w, "x1_ci95", fit->ok ? fit->lo[0] : NAN, fit->ok ? fit->hi[0] : NAN);
	}
	lab_json_int(w, "n", (long long)fit->n);
	lab_json_int(w, "distinct_threads", (long long)fit->distinct);
	lab_json_num(w, "chi2", fit->ok ? fit->chi2 : NAN);
	lab_json_num(w, "dof", fit->ok ? fit->dof : NAN); /* n - p before the checks: -3 */
	/* the intervals' df, and their unit: the samples, or the points' means (analyze/fit.h) */
	lab_json_num(w, "interval_df", fit->ok ? fit->df_ci : NAN);
	if (fit->ok)
		lab_json_str(w, "interval_unit",
		             fit->by_means                     ? "point_means"
		             : level && !strcmp(level, "runs") ? "run_means"
		                                               : "samples");
	lab_json_num(w, "aicc", fit->ok ? fit->aicc : NAN);
	if (fit->ok && fit->lof.ok) {
		lab_json_obj_open(w, "lack_of_fit");
		lab_json_num(w, "F", fit->lof.F);
		lab_json_num(w, "df1", fit->lof.df1);
		lab_json_num(w, "df2", fit->lof.df2);
		lab_json_num(w, "p", fit->lof.p);
		lab_json_obj_close(w);
	} else {
		lab_json_str(w, "lack_of_fit", NULL);
	}
}

/* One parameter's estimate and interval under name and name_ci95; null when the fit failed. */
static void an_json_param(struct lab_json *w, const struct lab_an_fit *fit, size_t i,
                          const char *name)
{
	char key[64];

	lab_json_num(w, name, fit->ok ? fit->x[i] : NAN);
	snprintf(key, sizeof(key), "%s_ci95", name);
	lab_json_pair(w, key, fit->ok ? fit->lo[i] : NAN, fit->ok ? fit->hi[i] : NAN);
}

static void an_json_fits(struct lab_json *w, const struct lab_an_series *s)
{
	const struct lab_an_fit *a = &s->amdahl, *u = &s->usl;
	char text[160];

	lab_json_obj_open(w, "amdahl");
	an_json_fit_common(w, a, s->fit_level);
	an_json_param(w, a, 1, "f");
	/* 1/f and the image of f's interval; an end where f's reaches 0 is unbounded (null); no
	 * estimate for an f past 1 (1/f below 1 is no bound, and lay outside its interval) */
	lab_json_num(w, "max_speedup", a->ok && a->x[1] > 0 && a->x[1] <= 1 ? 1 / a->x[1] : NAN);
	lab_json_pair(w, "max_speedup_ci95", a->ok && a->hi[1] > 0 ? 1 / a->hi[1] : NAN,
	              a->ok && a->lo[1] > 0 ? 1 / a->lo[1] : NAN);
	lab_json_str(w, "max_speedup_text", lab_an_amdahl_bound_text(s, text, sizeof(text)));
	lab_json_bool(w, "rejected", s->amdahl_rejected);
	lab_json_obj_close(w);
	lab_json_obj_open(w, "usl");
	an_json_fit_common(w, u, s->fit_level);
	an_json_param(w, u, 1, "sigma");
	an_json_param(w, u, 2, "kappa");
	lab_json_num(w, "n_star", s->peak.retrograde ? s->peak.n_star : NAN);
	lab_json_pair(w, "n_star_ci95", s->peak.retrograde ? s->peak.lo : NAN,
	              s->peak.retrograde ? s->peak.hi : NAN);
	if (u->ok)
		lab_json_bool(w, "retrograde", s->peak.retrograde);
	else
		lab_json_str(w, "retrograde", NULL); /* unknown without a fit */
	if (s->peak.retrograde)
		lab_json_bool(w, "n_star_beyond_data", s->peak_beyond_data);
	if (u->ok && s->peak.no_peak)
		lab_json_str(w, "peak", "none past N = 1 (sigma + kappa >= 1)");
	else if (u->ok && !s->peak.retrograde)
		lab_json_str(w, "peak", "no retrograde region");
	lab_json_obj_close(w);
	if (s->weak) {
		lab_json_obj_open(w, "gustafson");
		an_json_fit_common(w, &s->gustafson, s->fit_level);
		an_json_param(w, &s->gustafson, 1, "s");
		lab_json_obj_close(w);
	}
	lab_json_obj_open(w, "model_choice");
	lab_json_num(w, "f_stat", s->choice.f_stat);
	lab_json_num(w, "p_value", s->choice.p_value);
	lab_json_num(w, "aicc_amdahl", a->ok ? a->aicc : NAN);
	lab_json_num(w, "aicc_usl", u->ok ? u->aicc : NAN);
	lab_json_obj_close(w);
}

static void an_json_series(struct lab_json *w, const struct lab_an_data *d,
                           const struct lab_an_series *s)
{
	static const char *const scope[] = LAB_WORK_SCOPE_NAMES;
	const struct lab_an_point *p0 = s->nrow ? s->row[0].pt : NULL;
	int sc = p0 ? lab_an_cost_scope(d, p0->experiment) : -1;
	char text[256];

	lab_json_obj_open(w, NULL);
	lab_json_str(w, "experiment", s->experiment);
	lab_json_str(w, "params", s->params);
	lab_json_str(w, "scaling", s->weak ? "weak" : "strong");
	lab_json_str(w, "cost_unit", lab_an_point_unit(d, p0));
	/* Whose time the cost is (run.json work_scope): null when the run did not say. */
	lab_json_str(w, LAB_KEY_WORK_SCOPE, sc < 0 ? NULL : scope[sc]);
	lab_json_str(w, "cost_whose", lab_an_cost_whose(d, p0));
	/* run.json cost_kind: a latency's series has no speedup, efficiency or fits (null). */
	lab_json_str(w, LAB_KEY_COST_KIND, s->latency ? "latency" : "work");
	lab_json_str(w, "model", s->model);
	lab_json_str(w, "note", *s->note ? s->note : NULL);
	lab_json_str(w, "objective", lab_an_objective_name(s->objective));
	lab_json_str(w, "fit_domain", s->domain);
	lab_json_str(w, "error_model",
	             lab_an_objective_text(s->objective, s->domain, text, sizeof(text)));
	lab_json_arr_open(w, "findings");
	for (size_t i = 0; i < s->nfinding; i++)
		lab_json_str(w, NULL, s->finding[i]);
	lab_json_arr_close(w);
	lab_json_bool(w, "baseline", s->has_baseline);
	lab_json_int(w, "n_fit", (long long)s->n_fit);
	/* "runs": the fits are on run means and n_fit counts them (analyze/analysis.h) */
	lab_json_str(w, "fit_level", s->fit_level);
	lab_json_int(w, "n_excluded_flagged", (long long)s->n_excluded);
	lab_json_arr_open(w, "points");
	for (size_t i = 0; i < s->nrow; i++)
		an_json_point(w, &s->row[i]);
	lab_json_arr_close(w);
	if (!s->latency)
		an_json_fits(w, s);
	lab_json_obj_close(w);
}

/* The cost unit every point with samples shares (the data set's own when none has one), or
 * NULL when they differ: then each series' cost_unit says its own, and no unit of the first
 * kernel's rows labels the others. */
static const char *an_json_unit(const struct lab_an_data *d)
{
	const char *unit = NULL;

	for (size_t i = 0; i < d->npt; i++)
		if (d->pt[i].unit && !unit)
			unit = d->pt[i].unit;
		else if (d->pt[i].unit && strcmp(d->pt[i].unit, unit))
			return NULL;
	return unit ? unit : d->unit;
}

/* "build": the build run.json names (lab_an_build_text) and the notes analyze's text and the
 * report say of it (a sanitized build, the isa=auto code's build), each null when not said;
 * the member is null without run.json. */
static void an_json_build(struct lab_json *w, const struct lab_an_data *d)
{
	char text[LAB_AN_BUILD_NOTE_MAX];

	if (!d->run) {
		lab_json_null(w, "build");
		return;
	}
	lab_json_obj_open(w, "build");
	lab_an_build_text(d->run, text, sizeof(text));
	lab_json_str(w, "text", text);
	lab_json_str(w, "sanitize", lab_an_build_sanitize(d->run));
	lab_json_str(w, "sanitized",
	             lab_an_build_sanitize_note(d->run, text, sizeof(text)) ? text : NULL);
	lab_json_str(w, "auto", lab_an_build_auto_note(d, text, sizeof(text)) ? text : NULL);
	lab_json_obj_close(w);
}

void lab_an_analysis_json(const struct lab_an_analysis *a, FILE *f)
{
	const struct lab_an_data *d = a->data;
	struct lab_json w;

	lab_json_begin_digits(&w, f, 10);
	lab_json_obj_open(&w, NULL);
	lab_json_str(&w, "schema", LAB_SCHEMA_ANALYSIS);
	lab_json_str(&w, "source", d->source);
	lab_json_bool(&w, "external", d->external);
	lab_json_str(&w, "run_status", d->run_status);
	lab_json_str(&w, "unit", an_json_unit(d)); /* null: the series' units differ */
	lab_json_bool(&w, "include_flagged", a->include_flagged);
	lab_json_str(&w, "objective", lab_an_objective_name(a->objective));
	lab_json_str(&w, "input",
	             d->external ? (d->throughput ? "throughput" : "seconds") : "cost");
	lab_an_lessons_json(&w, &a->lessons); /* the chapter's claims first */
	lab_json_int(&w, "samples", (long long)d->nsamples);
	size_t fl, total;
	lab_an_flagged_count(d, &fl, &total);
	lab_json_int(&w, "samples_flagged", (long long)fl);
	an_json_build(&w, d);
	lab_json_arr_open(&w, "warnings");
	for (size_t i = 0; i < d->warn.n; i++)
		lab_json_str(&w, NULL, d->warn.msg[i]);
	lab_json_arr_close(&w);
	lab_json_arr_open(&w, "series");
	for (size_t i = 0; i < a->ns; i++)
		an_json_series(&w, a->data, &a->s[i]);
	lab_json_arr_close(&w);
	lab_an_views_json(&w, a); /* "experiments": what the views computed */
	lab_an_views_json_top(&w, a);
	lab_json_obj_close(&w);
	lab_json_end(&w); /* the closing newline; FILE errors are checked by the caller */
}

int lab_an_analysis_json_write(const struct lab_an_analysis *a, const char *path,
                               struct lab_err *err)
{
	struct lab_an_wfile w;
	FILE *f = lab_an_wfile_open(&w, path, err);

	if (!f)
		return -LAB_EIO;
	lab_an_analysis_json(a, f);
	return lab_an_wfile_close(&w, 1, err);
}
