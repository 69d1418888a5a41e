/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Lessons with verdicts: the claims of a config's [lessons] section (run.json "lessons", grammar
 * in harness/lessons.h) evaluated on the loaded data with 95 % intervals.
 *
 * A claim L CMP R is turned into one quantity Q compared with a constant c:
 *   - R (or L) is a constant: Q is the other side, c the constant (the comparison flips when
 *     the constant is on the left);
 *   - both sides hold data and L / R is a product of powers of point means (cost, throughput,
 *     speedup, metric, constants): Q = L / R, c = 1;
 *   - otherwise Q = L - R, c = 0.
 * Q's interval:
 *   - Q = k X / Y of two distinct point means: Fieller's interval of X / Y (Welch df), times k
 *     (speedup(sel) is cost(sel at threads = 1) / cost(sel), so a speedup is one such ratio);
 *   - Q = k X or k / X of one mean: X's t-interval, mapped;
 *   - anything else: the delta method (first-order Taylor, Q's variance = sum over the point
 *     means of (dQ/dx)^2 var(x)), t with Welch–Satterthwaite df. Points are independent; a point
 *     used twice is one variable, so its covariance with itself is counted.
 * Each point mean uses the samples the summary used (flagged ones only with --include-flagged);
 * with runs >= 2 its variance is the run-level one (lab_an_levels_apply).
 * Verdicts: holds (the whole interval satisfies Q CMP c), fails (the whole interval violates
 * it), inconclusive (the interval straddles c, or no interval: one sample, Fieller unbounded),
 * not run (a point is missing, skipped, failed, has no used samples, or the experiment was not
 * run), with the reason. Pure computation; the writers are in lessons_out.c.
 */
#ifndef LAB_ANALYZE_LESSONS_H
#define LAB_ANALYZE_LESSONS_H

#include <stdio.h>

#include "analyze/data.h"
#include "analyze/err.h"

enum lab_an_verdict {
	LAB_AN_HOLDS,
	LAB_AN_FAILS,
	LAB_AN_INCONCLUSIVE,
	LAB_AN_NOT_RUN,
};

struct lab_an_lesson {
	char *name, *claim;          /* as the config wrote them */
	char *file;                  /* the config file that states it ("" when not recorded) */
	char *checked;               /* the expr judged, where its selector values are written
	                              * otherwise than the claim's (L1/2 as 24K); NULL: the claim's */
	enum lab_an_verdict verdict; /* */
	char quantity[520];          /* what was compared: "cost(a) / cost(b)" ("" when not run) */
	const char *cmp;             /* ">=" ... */
	double bound;                /* the constant Q is compared with */
	double value, lo, hi;        /* Q and its 95 % interval; NaN when unknown */
	const char *method;          /* "fieller", "t", "delta", or NULL */
	/* one sentence: the verdict and why, then its notes (a quantity of 520 bytes, a reason
	 * of 400 and notes of 300 each fit: gcc -O1 saw 1024 could cut the reason) */
	char text[2048];
	/* of the samples its means are from, those flagged for foreign load (--include-flagged
	 * keeps them); more than half, or of one point's: the verdict is inconclusive */
	size_t flagged, samples;
	int loaded;    /* that share made the verdict inconclusive */
	int load_said; /* its sentence gives that share as the reason (else a note does) */
};

struct lab_an_lessons {
	struct lab_an_lesson *l;
	size_t n;
};

/*
 * Evaluates every lesson of d's run.json on d's points (d summarized, levels applied). The
 * loader refuses a results directory whose lessons a config could not state (data_lessons.c);
 * for a run.json that did not pass it, a lesson not described properly (no name, an expr that
 * does not parse, the name of an earlier lesson: the first of that name is judged) is "not
 * run" with that reason, as is a speedup whose point is at threads=1. Returns 0 or
 * -LAB_ENOMEM.
 */
int lab_an_lessons_eval(const struct lab_an_data *d, struct lab_an_lessons *out,
                        struct lab_err *err);

void lab_an_lessons_free(struct lab_an_lessons *ls);
/* The points compared with a lesson's selectors on this thread so far: selectors find their
 * points through an index of the run's points, never by scanning all of them (a scale test
 * reads this at n and 4n lessons and points). */
unsigned long long lab_an_lessons_probes(void);

/* "holds", "fails", "inconclusive", "not run". */
const char *lab_an_verdict_name(enum lab_an_verdict v);

struct lab_json;
/* Writes the top-level "lessons" array: name, claim, verdict, value, ci95, text (and the
 * quantity, bound and method). */
void lab_an_lessons_json(struct lab_json *w, const struct lab_an_lessons *ls);
/* Writes the lessons as text, one line each with its verdict first; nothing when there are none.
 */
void lab_an_lessons_text(FILE *f, const struct lab_an_lessons *ls);
/* Writes the lessons as an HTML section; nothing when there are none. */
void lab_an_lessons_html(FILE *f, const struct lab_an_lessons *ls);
/* The lessons the text and HTML writers have visited on this thread so far (a scale test reads
 * it at n and 4n lessons: each is visited a constant number of times). */
unsigned long long lab_an_lessons_out_visits(void);

#endif
