/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Per-point comparison of two runs (research/analyzer.md §1.1, Criterion's rule): the relative
 * change of the mean cost, new/old - 1, with a Fieller 95 % interval and a Welch t-test.
 * Verdict: "no change" unless p < 0.05; then "improved" when the whole interval lies below
 * -noise, "regressed" when it lies above +noise, "within noise" when it lies inside +-noise,
 * else "changed (size unclear)". Lower cost is better. When both sides have two or more runs
 * (runs = K, analyze/levels.h) the means, variances and counts are those of the run means (K - 1
 * df): a difference smaller than the run-to-run noise is not called a change; one side with
 * runs lends the other its between-run variance, the test then at most its K - 1 df ("mixed",
 * lab_an_cost_moments). The caller computes the levels first (lab_an_levels_apply).
 */
#ifndef LAB_ANALYZE_COMPARE_H
#define LAB_ANALYZE_COMPARE_H

#include <stdio.h>

#include "analyze/data.h"

struct lab_an_cmp_row {
	const struct lab_an_point *old, *new_; /* new_ is NULL for a point only in old, etc. */
	double change, lo, hi;                 /* relative change of the mean cost */
	double p;
	const char *verdict;
	/* "runs": compared on run means (both sides K >= 2); "mixed": one side's run means, the
	 * other's samples with the first's between-run variance; else "samples" */
	const char *level;
	int lent; /* "mixed": the other side's between-run variance (above 0) was added */
	/* at level "runs", or with one_setup: what the samples alone would have said */
	const char *samples_verdict;
	/* a side planned 2+ runs kept fewer ("new: ONE SETUP: 1 of 3 runs kept"; both sides said
	 * when both): no verdict */
	char one_setup[224];
	/* more than half of a side's samples were flagged for foreign load (--include-flagged
	 * keeps them): "old: 30 of 30 samples load-flagged"; no verdict, as a lesson's */
	char loaded[160];
	/* the cost's unit (old's where both have one) and, where a view shows the point (on both
	 * sides, where both have it) and its cost is not that view's figure, what the cost is
	 * (lab_an_view.cost_is); NULL: none */
	const char *unit, *cost_is;
	/* Where the cost is not the view's figure (lab_an_view.figure: a construct's overhead
	 * beside its test + reference), that metric compared too: its means (run means where both
	 * sides have runs >= 2), the difference new - old in its unit with a Welch 95 % interval
	 * and p, and a verdict as the cost's (relative to old's mean where that is above 0); fig
	 * NULL when none; where the sides cannot be compared, verdict says why and the numbers are
	 * NaN. */
	struct lab_an_cmp_fig {
		const char *fig, *unit, *verdict;
		double old_mean, new_mean, diff, lo, hi, p;
	} fig;
};

/* room for lab_an_build_text (C flags are as long as the build made them; a longer text is cut) */
#define LAB_AN_BUILD_TEXT_MAX 2048
/* room for a build note (lab_an_build_sanitize_note, lab_an_build_auto_note) */
#define LAB_AN_BUILD_NOTE_MAX (LAB_AN_BUILD_TEXT_MAX + 200)

struct lab_an_compare {
	struct lab_an_cmp_row *row;
	size_t n;
	double noise;
	/* flagged: matched points not compared because one side's samples were all load-flagged
	 * and left out (not counted as unmatched; --include-flagged compares them); not_run:
	 * matched points without samples on a side (skipped or failed there); rows_gone: ones
	 * without samples on a side whose complete run says they ran ok (rows removed after) */
	size_t improved, regressed, within_noise, no_change, unmatched, flagged, not_run, rows_gone;
	size_t unclear; /* "changed (size unclear)": significant, its interval across +-noise */
	/* matched points with one sample (or one run mean) on a side: no interval, no test; not
	 * "no change", which a test would have to find */
	size_t untested;
	/* matched points a side of which planned two or more runs and kept fewer: one setup's
	 * samples, not the run-to-run spread, so not tested (row one_setup) */
	size_t one_setup;
	/* matched points most of a side's samples of which were load-flagged and kept
	 * (--include-flagged): a busy machine's numbers, not tested (row loaded) */
	size_t loaded;
	/* matched points whose costs are not one quantity: another kernel, unit or scope */
	size_t unlike;
	size_t by_runs; /* compared points whose both sides had K >= 2 runs (level "runs") */
	/* tested points of one run a side (level "samples"): the test knows no spread between
	 * runs, and reruns of one config were called changed by 20 % (p = 1e-9) */
	size_t by_samples;
	/* points whose keys were compared while matching: the work of the match, for the tests
	 * (linear in the points; a scan per point made it quadratic) */
	size_t compared;
	/* The build each run.json names (lab_an_build_text; "" for a --csv side) and whether
	 * they differ: a change may then be the build's, not the machine's */
	char build_old[LAB_AN_BUILD_TEXT_MAX], build_new[LAB_AN_BUILD_TEXT_MAX];
	int builds_differ;
	unsigned build_what; /* the parts that differ (lab_an_build_diff) */
	/* isa=auto points of each side: with none on either, a difference in the auto kernels'
	 * build changes no row (the note named it for runs without one) */
	size_t auto_old, auto_new;
	/* either side's lab built with sanitizers (lab_an_build_sanitize_pair), else "" */
	char sanitized[LAB_AN_BUILD_NOTE_MAX];
	/* The machine each run.json names (lab_an_host_text) and whether they differ */
	char host_old[300], host_new[300];
	int hosts_differ;
};

/* The machine run (a run.json) names: "HOSTNAME, CPU MODEL, N PUs" ("" without run.json or
 * one of them). */
void lab_an_host_text(const struct lab_an_json *run, char *buf, size_t len);
/* analyze/compare_build.c. The build run (a run.json) names: "lab VERSION (SHA[, dirty]),
 * COMPILER[, BUILD_TYPE][, C flags "FLAGS"][, sanitize=S][, OpenMP | no OpenMP][, OpenMP env
 * K=V ...], auto -march=FLAG[ EXTRA] (ARCH[, tune TUNE][, widest ISA])", "?" for the version,
 * sha, compiler, flag or arch it lacks (or has of another type than a text), and the bracketed
 * parts left out when it lacks them; "" without run. Each part is cut at a character boundary,
 * a cut marked "...". */
void lab_an_build_text(const struct lab_an_json *run, char *buf, size_t len);
/* As lab_an_build_text, beside the build other names (NULL: none): C flags that differ from
 * other's only past what the text keeps of them are shown from a little before the first
 * difference ("C flags (the first N bytes the same) \"...\""), so the two texts differ. */
void lab_an_build_text_vs(const struct lab_an_json *run, const struct lab_an_json *other, char *buf,
                          size_t len);
/* The parts of the builds two run.json name that differ, bit i for lab_an_build_part(i); 0 when
 * either is NULL or none differ (a part both lack is the same). */
unsigned lab_an_build_diff(const struct lab_an_json *a, const struct lab_an_json *b);
/* Part i's run.json key under "lab" ("c_flags", "auto_march.extra") or, with label, its name
 * ("C flags"); NULL past the last. */
const char *lab_an_build_part(unsigned i, int label);
/* Which points the build parts in what can change: "isa=auto" when they are all the auto
 * kernels' (-march, -m options, target, tuning, widest ISA: the other variants' files are
 * compiled alike), "openmp" when only the OpenMP environment differs (the OpenMP kernels'),
 * else "all". */
const char *lab_an_build_diff_scope(unsigned what);
/* What the notes of compare and a fleet say of a scope narrower than "all": the points that ran
 * code built differently ("only the isa=auto points ran code built differently (...)"), and into
 * *whose what a change there may be ("build's", "environment's"); NULL for "all". */
const char *lab_an_build_scope_clause(unsigned what, const char **whose);
/* The names of the parts in what, ", "-separated ("C flags, sanitizer"). */
void lab_an_build_diff_text(unsigned what, char *buf, size_t len);
/* run.json's lab.sanitize when the run's lab was built with sanitizers (its times are the
 * sanitizer's), else NULL. */
const char *lab_an_build_sanitize(const struct lab_an_json *run);
/* The note a run built with sanitizers carries, into buf: "sanitized (sanitize=S): the times
 * are the sanitizer's instrumented code's, ..." (S cut at a character boundary, "..." marking
 * the cut). Returns 1 when the run's lab was built with sanitizers, else 0 with buf "". */
int lab_an_build_sanitize_note(const struct lab_an_json *run, char *buf, size_t len);
/* The note a run with isa=auto points carries, into buf: "isa=auto is the compiler's code for
 * BUILD" (lab_an_build_text). Returns 1 when some point ran isa=auto and d has a run.json, else
 * 0 with buf "". */
int lab_an_build_auto_note(const struct lab_an_data *d, char *buf, size_t len);
/* How many points of d ran isa=auto. */
size_t lab_an_build_auto_points(const struct lab_an_data *d);
/* What compare says when either run's lab (or both) was built with sanitizers: "the old run
 * was built with sanitizers (sanitize=S): the verdicts are of ...", "both runs were ..." (one
 * sanitizer, or old's and new's). Returns 1 when either was, else 0 with buf "". */
int lab_an_build_sanitize_pair(const struct lab_an_json *old, const struct lab_an_json *new_,
                               char *buf, size_t len);

/* The reason run.json gives why side (0 old, 1 new) of a matched row did not run (skipped:
 * "needs avx512fp16; ..."; failed; not finished: "the run ended while this point ran; its
 * samples were not kept"), or NULL: the verdict says only "did not run in new (skipped)". */
const char *lab_an_cmp_not_run_reason(const struct lab_an_cmp_row *r, int side);

/* Pure verdict rule, exposed for tests. */
const char *lab_an_compare_verdict(double p, double lo, double hi, double noise);
/* Matches the points of two summarized data sets by (experiment, params, threads). */
int lab_an_compare_run(const struct lab_an_data *old, const struct lab_an_data *new_, double noise,
                       struct lab_an_compare *c, struct lab_err *err);
void lab_an_compare_json(const struct lab_an_compare *c, const char *old_dir, const char *new_dir,
                         FILE *f);
void lab_an_compare_free(struct lab_an_compare *c);

#endif
