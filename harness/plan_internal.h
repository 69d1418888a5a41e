/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared between plan.c (resolution) and plan_points.c (expansion); not for other folders. */
#ifndef LAB_HARNESS_PLAN_INTERNAL_H
#define LAB_HARNESS_PLAN_INTERNAL_H

#include "harness/plan.h"

/* Adds msg to d unless the same line is already there. */
void lab__plan_diag_once(struct lab_diag *d, const char *msg);

/* Reports "FILE:LINE: [exp] key = value: what" at the place r's value came from. */
void lab__plan_key_error(struct lab_diag *d, const struct lab_experiment *e,
                         const struct lab_resolved *r, const char *value, const char *what);

/* The resolved key named key of e, or NULL. */
struct lab_resolved *lab__plan_key(struct lab_experiment *e, const char *key);

/* Expands e's sweeps into plan->pts: CPU lists, kernel checks, params text. */
void lab__plan_points(struct lab_plan *plan, struct lab_experiment *e, const struct lab_topo *topo,
                      struct lab_diag *d);

#endif
