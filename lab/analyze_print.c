/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "lab/analyze_print.h"

#include "analyze/flagged.h"
#include "analyze/levels_out.h"
#include "analyze/views/views.h"

#include <math.h>
#include <string.h>

static void lab_print_ci(FILE *f, int width, double v, double lo, double hi, int have_ci)
{
	char buf[96];

	if (!isfinite(v))
		snprintf(buf, sizeof(buf), "-");
	else if (!have_ci)
		/* "—" is 3 bytes and 1 column: widen the field by 2 so columns stay aligned. */
		width += snprintf(buf, sizeof(buf), "%.4g [—]", v) > 0 ? 2 : 0;
	else if (!isfinite(lo) || !isfinite(hi))
		snprintf(buf, sizeof(buf), "%.4g [unbounded]", v);
	else
		snprintf(buf, sizeof(buf), "%.4g [%.4g, %.4g]", v, lo, hi);
	fprintf(f, "  %-*s", width, buf);
}

/* Under a point measured in runs or to a precision target: where its variance lives, how the
 * next run should split its budget, and what the target came to. */
static void lab_print_levels(FILE *f, const struct lab_an_point *p)
{
	char buf[400];

	if (p->levels.runs >= 2)
		fprintf(f,
		        "          runs %zu: %s; within-run 95%% CI [%.4g, %.4g] (too narrow when "
		        "runs differ)\n",
		        p->levels.runs, lab_an_levels_advice(&p->levels, buf, sizeof(buf)),
		        p->levels.within_ci95_lo, p->levels.within_ci95_hi);
	if (lab_an_precision_line(p, buf, sizeof(buf)))
		fprintf(f, "          %s\n", buf);
}

/* One row of a series; scaling 0 (a latency): no speedup, efficiency or e(N) column. */
static void lab_print_row(FILE *f, const struct lab_an_row *r, int scaling)
{
	const struct lab_an_stats *st = &r->pt->st;
	int h = st->n > 0, c = r->has_speedup && r->speedup.has_ci;
	char flags[160] = "", modes[96];

	fprintf(f, "%7d %4zu", r->pt->threads, st->n);
	if (!h && r->pt->n_flagged) {
		fprintf(f, "  all %zu samples load-flagged (--include-flagged keeps them)\n",
		        r->pt->n_flagged);
		return;
	}
	if (!h) {
		fprintf(f, "  %s%s%s\n", r->pt->status, r->pt->reason ? ": " : "",
		        r->pt->reason ? r->pt->reason : "");
		return;
	}
	fprintf(f, "  %-10.4g", st->median);
	lab_print_ci(f, 30, st->mean, st->ci95_lo, st->ci95_hi, st->n > 1);
	if (!scaling)
		fputs("  ", f);
	else
		lab_print_ci(f, 26, r->has_speedup ? r->speedup.est : NAN, r->speedup.lo,
		             r->speedup.hi, c);
	if (!scaling)
		; /* no efficiency or e(N) either */
	else if (r->has_speedup)
		fprintf(f, "  %-6.3g", r->eff);
	else
		fprintf(f, "  %-6s", "-");
	if (scaling && isfinite(r->kf))
		fprintf(f, "  %-8.3g", r->kf);
	else if (scaling)
		fprintf(f, "  %-8s", "-");
	if (st->outliers_mild || st->outliers_severe)
		snprintf(flags, sizeof(flags), "outliers %zu/%zu ", st->outliers_mild,
		         st->outliers_severe);
	if (r->pt->n_flagged)
		snprintf(flags + strlen(flags), sizeof(flags) - strlen(flags), "load-flagged %zu ",
		         r->pt->n_flagged);
	if (r->has_speedup && r->superlinear)
		snprintf(flags + strlen(flags), sizeof(flags) - strlen(flags), "SUPERLINEAR ");
	if (lab_an_modes_multi(&r->pt->modes))
		snprintf(flags + strlen(flags), sizeof(flags) - strlen(flags), "MULTIMODAL %s",
		         lab_an_modes_list(&r->pt->modes, 0, 1, modes, sizeof(modes)));
	fprintf(f, "  %s\n", flags);
	lab_print_levels(f, r->pt);
}

/* The lack-of-fit test of one model, when there are replicates. */
static void lab_print_lof(FILE *f, const struct lab_an_fit *fit)
{
	if (fit->ok && fit->lof.ok)
		fprintf(f, "           lack of fit: F = %.3g (%.0f, %.0f df), p = %.3g\n",
		        fit->lof.F, fit->lof.df1, fit->lof.df2, fit->lof.p);
}

/* Which level the speedups and fits of s used, when runs were involved (analyze/analysis.h). */
static void lab_print_series_levels(FILE *f, const struct lab_an_series *s)
{
	bool runs = false;

	for (size_t j = 0; j < s->nrow; j++)
		runs = runs || (s->row[j].has_speedup && s->row[j].speedup_level &&
		                !strcmp(s->row[j].speedup_level, "runs"));
	if (s->latency || (!runs && !(s->fit_level && !strcmp(s->fit_level, "runs"))))
		return;
	if (s->fit_level && !strcmp(s->fit_level, "runs"))
		fprintf(f,
		        "  levels: speedup intervals and fits from run means (%zu in the fits): "
		        "run-to-run noise included\n",
		        s->n_fit);
	else
		fprintf(f,
		        "  levels: speedup intervals from run means where both points have runs; "
		        "fits on samples (not every point has runs)\n");
}

static void lab_print_fits(FILE *f, const struct lab_an_series *s)
{
	const struct lab_an_fit *a = &s->amdahl, *u = &s->usl, *g = &s->gustafson;
	char text[256];

	fprintf(f, "  fit: %s\n",
	        lab_an_objective_text(s->objective, s->domain, text, sizeof(text)));
	if (a->ok)
		fprintf(f, "  Amdahl   f = %.4g [%.4g, %.4g]  (%s)\n", a->x[1], a->lo[1], a->hi[1],
		        lab_an_amdahl_bound_text(s, text, sizeof(text)));
	else
		fprintf(f, "  Amdahl   refused: %s\n", a->reason);
	lab_print_lof(f, a);
	if (u->ok) {
		fprintf(f, "  USL      sigma = %.4g [%.4g, %.4g]  kappa = %.4g [%.4g, %.4g]\n",
		        u->x[1], u->lo[1], u->hi[1], u->x[2], u->lo[2], u->hi[2]);
		if (s->peak.retrograde)
			fprintf(f, "           peak N* = %.1f [%.1f, %.1f]\n", s->peak.n_star,
			        s->peak.lo, s->peak.hi);
		else
			fprintf(f,
			        "           no retrograde region (kappa not significantly > 0)\n");
	} else {
		fprintf(f, "  USL      refused: %s\n", u->reason);
	}
	lab_print_lof(f, u);
	if (s->weak && g->ok)
		fprintf(f, "  Gustafson s = %.4g [%.4g, %.4g]\n", g->x[1], g->lo[1], g->hi[1]);
	else if (s->weak)
		fprintf(f, "  Gustafson refused: %s\n", g->reason);
	if (a->ok && u->ok)
		fprintf(f, "  model: %s (F-test p = %.3g; AICc Amdahl %.1f, USL %.1f)\n", s->model,
		        s->choice.p_value, s->choice.aicc_amdahl, s->choice.aicc_usl);
	else
		fprintf(f, "  model: %s\n", s->model);
	for (size_t i = 0; i < s->nfinding; i++)
		fprintf(f, "  ! %s\n", s->finding[i]);
}

/* A rate with its interval, "-" when absent. */
static void lab_print_rate(FILE *f, const struct lab_an_rate *r)
{
	char buf[96];

	if (isfinite(r->v) && isfinite(r->lo) && isinf(r->hi)) {
		/* The cost interval reaches 0: the rate has a lower bound only. */
		snprintf(buf, sizeof(buf), "%.4g [%.4g, unbounded]", r->v, r->lo);
		fprintf(f, "  %-28s", buf);
		return;
	}
	lab_print_ci(f, 28, r->v, r->lo, r->hi, isfinite(r->lo));
}

/*
 * GB/s and GFLOP/s per point, for kernels that declare their work (GB = 1e9 bytes): only the
 * columns the kernel declares something for (no "0 GFLOP/s" rows for a kernel without flops;
 * the write-allocate column only where it differs), all threads together.
 */
static void lab_print_rates(FILE *f, const struct lab_an_series *s)
{
	int bytes = 0, wa = 0, flops = 0;

	for (size_t i = 0; i < s->nrow; i++) {
		const struct lab_an_rates *r = &s->row[i].rates;

		if (!r->has)
			continue;
		bytes |= r->bytes > 0;
		wa |= r->bytes_wa != r->bytes;
		flops |= r->flops > 0;
	}
	if (!bytes && !flops)
		return;
	fprintf(f, "%7s", "threads");
	if (bytes)
		fprintf(f, "  %-28s", "GB/s r+w [95% CI]");
	if (wa)
		fprintf(f, "  %-28s", "GB/s +write-alloc [95% CI]");
	if (flops)
		fprintf(f, "  %-28s", "GFLOP/s [95% CI]");
	fprintf(f, "%s\n", bytes && flops ? "  flops/byte" : "");
	for (size_t i = 0; i < s->nrow; i++) {
		const struct lab_an_rates *r = &s->row[i].rates;

		if (!r->has)
			continue;
		fprintf(f, "%7d", s->row[i].pt->threads);
		if (bytes)
			lab_print_rate(f, &r->gbytes);
		if (wa)
			lab_print_rate(f, &r->gbytes_wa);
		if (flops)
			lab_print_rate(f, &r->gflops);
		if (bytes && flops && isfinite(r->flops_per_byte))
			fprintf(f, "  %.4g", r->flops_per_byte);
		else if (bytes && flops)
			fprintf(f, "  -");
		fputc('\n', f);
	}
}

/* The config file experiment exp came from, when the run read several (one chapter each, `lab
 * run configs/ch25-*.ini configs/ch26-*.ini ...`); NULL for a run of one file. */
static const char *lab_print_chapter(const struct lab_an_analysis *a, const char *exp)
{
	const struct lab_an_json *files =
	    lab_an_json_get(lab_an_json_get(a->data->run, "config"), "files");

	if (!files || files->type != LAB_AN_JSON_ARR || files->n < 2)
		return NULL;
	return lab_an_json_str(lab_an_data_experiment(a->data, exp), "file");
}

/* One series' table, rates, notes and fits. */
static void lab_print_series(FILE *f, const struct lab_an_analysis *a,
                             const struct lab_an_series *s, int first)
{
	char unit[160];

	fprintf(f, "%s== %s  %s  (%s scaling, cost in %s)\n", first ? "" : "\n", s->experiment,
	        *s->params ? s->params : "-", s->weak ? "weak" : "strong",
	        lab_an_cost_label(a->data, s->nrow ? s->row[0].pt : NULL, unit, sizeof(unit)));
	if (s->latency)
		fprintf(f, "%7s %4s  %-10s  %-30s  %s\n", "threads", "n", "median", "mean [95% CI]",
		        "flags");
	else
		fprintf(f, "%7s %4s  %-10s  %-30s  %-26s  %-6s  %-8s  %s\n", "threads", "n",
		        "median", "mean [95% CI]", "speedup [95% CI]", "eff", "e(N)", "flags");
	for (size_t j = 0; j < s->nrow; j++)
		lab_print_row(f, &s->row[j], !s->latency);
	lab_print_rates(f, s);
	lab_print_series_levels(f, s);
	if (*s->note)
		fprintf(f, "  note: %s\n", s->note);
	if (s->n_excluded)
		fprintf(f,
		        "  %zu foreign-load-flagged samples excluded (--include-flagged "
		        "keeps them)\n",
		        s->n_excluded);
	/* The note already says why nothing was fitted; no need to repeat it per model. */
	if (!s->latency && (s->amdahl.ok || s->usl.ok || s->weak || !*s->note))
		lab_print_fits(f, s);
}

/* 1 when file is one of the run's config files (a string item of files). */
static int lab_print_file_known(const struct lab_an_json *files, const char *file)
{
	for (size_t i = 0; i < files->n; i++)
		if (files->items[i].type == LAB_AN_JSON_STR && !strcmp(files->items[i].str, file))
			return 1;
	return 0;
}

void lab_analyze_print(FILE *f, const struct lab_an_analysis *a)
{
	int first = 1;
	char line[256];
	const struct lab_an_json *files =
	    lab_an_json_get(lab_an_json_get(a->data->run, "config"), "files");
	size_t nfiles = files && files->type == LAB_AN_JSON_ARR && files->n >= 2 ? files->n : 0;

	lab_an_lessons_text(f, &a->lessons); /* the chapter's claims and verdicts lead */
	if (lab_an_flagged_line(a->data, a->include_flagged, line, sizeof(line))) {
		fprintf(f, "load: %s\n\n", line);
		first = 0;
	}
	if (lab_an_asym_line(a->data, line, sizeof(line))) {
		fprintf(f, "threads: %s\n\n", line);
		first = 0;
	}

	/* With several chapter configs, each file's tables under its name, in the files' order;
	 * chapter n == nfiles is the series of no file (and all of them for a run of one). */
	for (size_t n = 0; n <= nfiles; n++) {
		const char *want = n < nfiles ? files->items[n].str : NULL;
		int shown = 0;

		if (want && files->items[n].type != LAB_AN_JSON_STR)
			continue;

		for (size_t i = 0; i < a->ns; i++) {
			const struct lab_an_series *s = &a->s[i];
			const char *ch = nfiles ? lab_print_chapter(a, s->experiment) : NULL;

			if (lab_an_series_hidden(a, s))
				continue; /* a view below shows these points (the c2c matrix) */
			if (want ? !ch || strcmp(ch, want) : ch && lab_print_file_known(files, ch))
				continue;
			if (want && !shown++) {
				fprintf(f, "%s=== chapter: %s\n", first ? "" : "\n", want);
				first = 1; /* its first table follows without a blank line */
			}
			lab_print_series(f, a, s, first);
			first = 0;
		}
	}
	lab_an_views_text(f, a);
}

/* Whose time each experiment's mean is, once per experiment in table order. */
static void lab_compare_units(FILE *f, const struct lab_an_compare *c,
                              const struct lab_an_data *old, const struct lab_an_data *new_)
{
	const char *seen[32];
	size_t nseen = 0;
	char unit[160];

	for (size_t i = 0; i < c->n && nseen < 32; i++) {
		const struct lab_an_cmp_row *r = &c->row[i];
		const struct lab_an_point *p = r->old ? r->old : r->new_;
		size_t k = 0;

		while (k < nseen && strcmp(seen[k], p->experiment))
			k++;
		if (k < nseen)
			continue;
		seen[nseen++] = p->experiment;
		fprintf(f, "%s%s: mean cost in %s\n", nseen == 1 ? "\n" : "", p->experiment,
		        lab_an_cost_label(r->old ? old : new_, p, unit, sizeof(unit)));
	}
}

/* The mean a row compared: of the run means at the run level, else of the samples. */
static double lab_compare_mean(const struct lab_an_cmp_row *r, const struct lab_an_point *p)
{
	return r->level && !strcmp(r->level, "runs") ? p->levels.mean : p->st.mean;
}

void lab_compare_print(FILE *f, const struct lab_an_compare *c, const struct lab_an_data *old,
                       const struct lab_an_data *new_)
{
	fprintf(f, "%-24s %7s  %-11s %-11s  %-28s %-9s %s\n", "experiment", "threads", "old mean",
	        "new mean", "change [95% CI]", "p", "verdict");
	for (size_t i = 0; i < c->n; i++) {
		const struct lab_an_cmp_row *r = &c->row[i];
		const struct lab_an_point *p = r->old ? r->old : r->new_;
		char ch[96] = "-";

		if (isfinite(r->change) && isfinite(r->lo) && isfinite(r->hi))
			snprintf(ch, sizeof(ch), "%+.2f%% [%+.2f%%, %+.2f%%]", 100 * r->change,
			         100 * r->lo, 100 * r->hi);
		else if (isfinite(r->change)) /* one sample a side: no interval */
			snprintf(ch, sizeof(ch), "%+.2f%% [no interval]", 100 * r->change);
		char mo[32] = "-", mn[32] = "-", pv[32] = "-";
		if (r->old && r->old->st.n)
			snprintf(mo, sizeof(mo), "%.4g", lab_compare_mean(r, r->old));
		if (r->new_ && r->new_->st.n)
			snprintf(mn, sizeof(mn), "%.4g", lab_compare_mean(r, r->new_));
		if (isfinite(r->p))
			snprintf(pv, sizeof(pv), "%.3g", r->p);
		fprintf(f, "%-24.24s %7d  %-11s %-11s  %-28s %-9s %s", p->experiment, p->threads,
		        mo, mn, ch, pv, r->verdict);
		if (r->level && !strcmp(r->level, "runs")) /* means are of run means here */
			fprintf(f, " (run means, %zu vs %zu runs)", r->old->levels.runs,
			        r->new_->levels.runs);
		fprintf(f, "%s%s\n", *p->params ? "  " : "", p->params);
	}
	fprintf(f,
	        "\n%zu improved, %zu regressed, %zu within noise (+-%.3g%%), %zu no change, "
	        "%zu unmatched",
	        c->improved, c->regressed, c->within_noise, 100 * c->noise, c->no_change,
	        c->unmatched);
	if (c->flagged)
		fprintf(f, ", %zu not compared: all samples load-flagged (--include-flagged)",
		        c->flagged);
	if (c->not_run)
		fprintf(f, ", %zu did not run (skipped or failed)", c->not_run);
	fputc('\n', f);
	if (c->by_runs)
		fprintf(
		    f,
		    "%zu compared on run means (both sides runs >= 2): a change must exceed the "
		    "run-to-run noise; the others on samples\n",
		    c->by_runs);
	lab_compare_units(f, c, old, new_);
}
