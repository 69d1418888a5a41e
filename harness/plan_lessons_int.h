/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared by the planner's [lessons] files: plan_lessons.c takes the claims by name and calls
 * plan_claims.c to check each, which calls plan_cancels.c and plan_unjudged.c; not for other
 * files. */
#ifndef LAB_HARNESS_PLAN_LESSONS_INT_H
#define LAB_HARNESS_PLAN_LESSONS_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "harness/lessons.h"
#include "harness/plan_internal.h"
#include "harness/strmap.h"

/*
 * A did-you-mean for an unknown experiment costs an edit distance against every experiment. It
 * is worked out once per distinct name, for the first PL_SUGGEST_MAX names, and not once the
 * diagnostics are full (no one sees those lines): a suggestion per bad selector made 2000
 * experiments x 2000 lessons quadratic (39 s).
 */
#define PL_SUGGEST_MAX 16
/* The longest lesson name (harness/lessons.h). */
#define PL_NAME_MAX LAB_LESSON_NAME_MAX

struct lab__pl_ctx {
	struct lab_plan *plan;
	const struct lab_cfg *cfg;
	struct lab_diag *d;
	const struct lab_cfg_kv *kv;   /* the lesson being checked */
	struct lab_strmap exps;        /* experiment name -> index in plan->exp */
	struct lab__sel_index **index; /* per experiment, built when a selector first names it */
	unsigned errors;
	/* unknown experiment names already given a did-you-mean, and what it was (NULL: none) */
	char *tried[PL_SUGGEST_MAX];
	const char *tried_best[PL_SUGGEST_MAX];
	unsigned ntried;
	const struct lab_cfg_kv **first; /* the first definition of each lesson name in a file */
	unsigned nfirst;
};

/* A selector resolved to one planned point: its experiment and its index among that one's
 * points (PL_NOPOINT: none). */
#define PL_NOPOINT 0xffffffffu
struct lab__pl_at {
	unsigned exp, pt;
};

/* Checks the claim of kv (a [lessons] key or its --set) and adds it to x->plan when sound. */
void lab__plan_claim(struct lab__pl_ctx *x, const struct lab_cfg_kv *kv);

/* An error about the lesson x->kv: "FILE:LINE: [lessons] NAME: what" or "--set lessons.NAME:
 * what", its name cut to PL_NAME_MAX bytes; counts it in x->errors. */
__attribute__((format(printf, 2, 3))) void lab__plan_claim_error(struct lab__pl_ctx *x,
                                                                 const char *fmt, ...);

/* Whether c's verdict cannot depend on the data (its means cancel: plan_cancels.c), and then
 * why into why[len]; at[i] is where selector i resolved. */
bool lab__plan_claim_cancels(struct lab__pl_ctx *x, const struct lab_lesson_claim *c,
                             const struct lab__pl_at *at, char *why, size_t len);
/* Whether the ranges of c's quantities alone decide its verdict (plan_cancels.c), and then why
 * into why[len]. */
bool lab__plan_claim_fixed(const struct lab__pl_ctx *x, const struct lab_lesson_claim *c,
                           const struct lab__pl_at *at, char *why, size_t len);

/* harness/plan_unjudged.c: the experiment of x named name, or NULL. */
struct lab_experiment *lab__pl_experiment(const struct lab__pl_ctx *x, const char *name);
/* The thread count of a resolved threads value, or 0 when it does not parse. */
uint64_t lab__pl_threads(const struct lab_resolved *r, const char *val);
/* 1 when r, a threads key, has a value of 1 thread: speedup's baseline. */
bool lab__pl_sweeps_one(const struct lab_resolved *r);
/* Why the sound claim c, whose selectors resolved to at, cannot be judged on this plan (the
 * first selector of no planned point or of a skipped one, whole as the claim wrote it; a
 * speedup without its threads=1 baseline), or NULL; the caller frees it. */
char *lab__pl_unjudged(const struct lab__pl_ctx *x, const struct lab_lesson_claim *c,
                       const struct lab__pl_at *at);

#endif
