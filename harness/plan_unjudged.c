/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the planner knows of a lesson's selectors beyond their checks: the experiment a name
 * names, the thread counts a threads key sweeps, and why a sound claim cannot be judged on this
 * plan (a selector of no planned point, or of a skipped one; a speedup without its threads=1
 * baseline), which lab plan and lab run say before anything runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/param.h"
#include "harness/plan_lessons_int.h"

struct lab_experiment *lab__pl_experiment(const struct lab__pl_ctx *x, const char *name)
{
	unsigned e;

	return lab_strmap_get(&x->exps, 0, name, &e) ? &x->plan->exp[e] : NULL;
}

uint64_t lab__pl_threads(const struct lab_resolved *r, const char *val)
{
	struct lab_hparams h = {0};
	struct lab_err err;

	return lab_param_parse(r->param, val, &h, &err) ? 0 : h.threads;
}

bool lab__pl_sweeps_one(const struct lab_resolved *r)
{
	for (unsigned v = 0; r && v < r->nvals; v++)
		if (lab__pl_threads(r, r->vals[v]) == 1)
			return true;
	return false;
}

/* "[e] k=v, k=\"v,w\"": selector sel as the claim wrote it (mem_node=far, not this machine's
 * 1), whole, quoted where a value holds what ends one; NULL without memory. */
static char *pl_sel_text(const struct lab_experiment *e, const struct lab_lesson_sel *sel)
{
	char *text = NULL, *next;

	if (asprintf(&text, "[%s]", e->name) < 0)
		return NULL;
	for (unsigned k = 0; k < sel->nparam; k++) {
		const char *v = sel->written[k] ? sel->written[k] : sel->value[k];
		const char *q = strpbrk(v, " \t,()") ? "\"" : "";
		int n = asprintf(&next, "%s%s %s=%s%s%s", text, k ? "," : "", sel->key[k], q, v, q);
		free(text);
		if (n < 0)
			return NULL;
		text = next;
	}
	return text;
}

char *lab__pl_unjudged(const struct lab__pl_ctx *x, const struct lab_lesson_claim *c,
                       const struct lab__pl_at *at)
{
	char *why = NULL;

	for (unsigned i = 0; i < c->nsel && !why; i++) {
		const struct lab_experiment *e = lab__pl_experiment(x, c->sel[i].experiment);
		const struct lab_point *pt =
		    e && at[i].pt != PL_NOPOINT ? &x->plan->pts[e->first_point + at[i].pt] : NULL;
		char *sel;

		if (!e || (pt && pt->state != LAB_POINT_SKIPPED) ||
		    !(sel = pl_sel_text(e, &c->sel[i])))
			continue;
		if (asprintf(&why, pt ? "%s is point %u, skipped: %s" : "%s: no planned point", sel,
		             pt ? pt->id : 0, pt ? pt->reason : "") < 0)
			why = NULL;
		free(sel);
	}
	for (unsigned i = 0; i < c->nnode && !why; i++) { /* a speedup's baseline */
		struct lab_experiment *e =
		    c->node[i].op == LAB_LESSON_SPEEDUP
		        ? lab__pl_experiment(x, c->sel[c->node[i].sel].experiment)
		        : NULL;
		const struct lab_resolved *r = e ? lab__plan_key(e, "threads") : NULL;

		if (r && !lab__pl_sweeps_one(r) &&
		    asprintf(&why, "[%s] threads=1, the baseline of speedup: no planned point",
		             e->name) < 0)
			why = NULL;
	}
	return why;
}
