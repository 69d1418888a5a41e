/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared by the planner's files (plan.c resolves; plan_keys.c, plan_check.c, plan_points.c (with
 * plan_applies.c) and plan_lessons.c do the parts it calls; plan_claims.c
 * counts a selector's points with plan_select.c); not for other folders. */
#ifndef LAB_HARNESS_PLAN_INTERNAL_H
#define LAB_HARNESS_PLAN_INTERNAL_H

#include "harness/plan.h"

/* ---- plan_keys.c ---- */

/* Adds msg to d unless the same line is already there. */
void lab__plan_diag_once(struct lab_diag *d, const char *msg);

/* Reports "FILE:LINE: [exp] key = value: what" at the place r's value came from. */
void lab__plan_key_error(struct lab_diag *d, const struct lab_experiment *e,
                         const struct lab_resolved *r, const char *value, const char *what);

/* The resolved key named key of e, or NULL. */
struct lab_resolved *lab__plan_key(struct lab_experiment *e, const char *key);

/* ---- plan_check.c ---- */

/* The closest known key to key over the harness table and table (may be NULL), or NULL. */
const char *lab__plan_closest(const char *key, const struct lab_param *table);

/* Reports [global] keys that no harness key and no kernel of registry knows. */
void lab__plan_check_globals(const struct lab_cfg *cfg, const struct lab_kernel *const *registry,
                             struct lab_diag *d);

/* The kernel of section s (--set, section, then [global]); reports a missing or unknown one. */
const struct lab_kernel *lab__plan_section_kernel(const struct lab_cfg *cfg,
                                                  const struct lab_cfg_section *s,
                                                  const struct lab_cfg_section *global,
                                                  const struct lab_kernel *const *registry,
                                                  struct lab_diag *d);

/* Reports a [global] kernel that names no kernel, at its line, even if no section uses it. */
void lab__plan_global_kernels(const struct lab_cfg *cfg, const struct lab_kernel *const *registry,
                              struct lab_diag *d);

/* --only and --set names name experiments; --set global.KEY names a known key. */
void lab__plan_check_names(const struct lab_cfg *cfg, const char *const *only, unsigned nonly,
                           const struct lab_kernel *const *registry, struct lab_diag *d);

/* plan_points.c: expands e's sweeps into plan->pts: CPU lists, kernel checks, params text. */
void lab__plan_points(struct lab_plan *plan, struct lab_experiment *e, const struct lab_topo *topo,
                      struct lab_diag *d);

/* plan_points.c: a pairs kernel always runs two threads: a threads sweep it inherits (key k of
 * e) does not multiply its points. */
bool lab__plan_pairs_fixed(const struct lab_experiment *e, unsigned k);

/* plan_points.c: e's sweeps expand to total points, more than the room left: none is planned,
 * the count is added to plan->asked and reported (unless topo is the stand-in). */
void lab__plan_refuse(struct lab_plan *plan, struct lab_experiment *e, const struct lab_topo *topo,
                      uint64_t total, struct lab_diag *d);

/* ---- plan_applies.c: keys that apply only at some values of another ---- */

/* Refuses a kernel key set in e's section that applies at none of the values the points take
 * (nor, where a --set narrowed the key it depends on, at the config's own). kparams: scratch. */
void lab__plan_applies_check(struct lab_experiment *e, const struct lab_env *env, void *kparams,
                             struct lab_diag *d);

/* The points the combinations of e's swept keys order[0..nd) leave (total: their product).
 * kparams: scratch. Saturates. */
uint64_t lab__plan_applying_count(struct lab_experiment *e, const unsigned *order, unsigned nd,
                                  void *kparams, uint64_t total);

/* Where each key that applies only at some values of another applies: at[k] bit v set when key
 * k applies at value v of key cond[k] (-1: k applies everywhere, or its key has more than 64
 * values, and plan_values decides). */
struct lab__plan_skip {
	int cond[64];
	uint64_t at[64];
};

void lab__plan_skip_init(struct lab__plan_skip *s, struct lab_experiment *e, void *kparams);

/* Whether the combination vidx (a value index per key) repeats a point already planned. */
bool lab__plan_skipped(const struct lab__plan_skip *s, const struct lab_experiment *e,
                       const unsigned *vidx);

/* plan_lessons.c (with plan_claims.c): checks the claims of every [lessons] section against the
 * plan's experiments (syntax, names, keys, values) into plan->lessons; problems go to d as
 * FILE:LINE lines. */
void lab__plan_lessons(struct lab_plan *plan, const struct lab_cfg *cfg, struct lab_diag *d);

/* ---- plan_select.c: the points of one experiment that a lesson selector names ---- */
struct lab_lesson_sel;
struct lab__sel_index;

/* A harness key that is part of a point's identity: threads, placement, membind, perf_c2c. */
bool lab__plan_point_key(const char *key);

/* Indexes the planned points of e by their values; NULL out of memory. */
struct lab__sel_index *lab__sel_index_new(const struct lab_plan *plan,
                                          const struct lab_experiment *e);
void lab__sel_index_free(struct lab__sel_index *x);

/* How many planned points have every key=value of sel (values in canonical form); the first of
 * them (its index among e's points) into *first when there is one and first is not NULL. */
unsigned lab__sel_count(const struct lab__sel_index *x, const struct lab_lesson_sel *sel,
                        unsigned *first);

#endif
