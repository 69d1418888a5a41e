/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The planner's [lessons]: every section's claims by name (a name is what a section name may
 * be; a name twice in the files is an error naming the first; --set lessons.NAME replaces one
 * or adds one), each checked against the plan by plan_claims.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/plan_lessons_int.h"

/* A lesson name is what a section name may be, and short (lab_lesson_name_ok, which the
 * analyzer holds run.json to as well); reports one that is not. */
static bool pl_name(struct lab__pl_ctx *x, const struct lab_cfg_kv *kv)
{
	if (lab_lesson_name_ok(kv->key))
		return true;
	x->kv = kv;
	lab__plan_claim_error(x,
	                      "bad lesson name (allowed letters, digits, '_', '.', '-'; at most %d "
	                      "characters)",
	                      PL_NAME_MAX);
	return false;
}

/* Indexes the --set lessons.NAME arguments by name, the last of each name (it wins). */
static void pl_sets(const struct lab_cfg *cfg, struct lab_strmap *sets, struct lab_diag *d)
{
	for (unsigned i = cfg->nset; i-- > 0;)
		if (!strcmp(cfg->set_section[i], "lessons") &&
		    lab_strmap_put(sets, 0, cfg->set[i].key, i))
			lab_diag_add(d, "out of memory checking lessons");
}

/* Remembers kv as the first definition of its name in files; false out of memory. */
static bool pl_first(struct lab__pl_ctx *x, struct lab_strmap *files, const struct lab_cfg_kv *kv)
{
	if (!(x->nfirst & (x->nfirst - 1))) { /* 0, 1, 2, 4...: room for twice as many */
		const struct lab_cfg_kv **grown =
		    realloc(x->first, (x->nfirst ? 2 * x->nfirst : 1) * sizeof(*grown));
		if (!grown)
			return false;
		x->first = grown;
	}
	x->first[x->nfirst] = kv;
	return !lab_strmap_put(files, 0, kv->key, x->nfirst++);
}

/* The lessons of the files' [lessons] sections, each replaced by its --set when there is one;
 * files maps each name to its first definition in a file. */
static void pl_files(struct lab__pl_ctx *x, const struct lab_strmap *sets, struct lab_strmap *files)
{
	const struct lab_cfg *cfg = x->cfg;
	unsigned l, set;

	for (unsigned s = 0; s < cfg->nsec; s++) {
		const struct lab_cfg_section *sec = &cfg->sec[s];
		if (strcmp(sec->name, "lessons") != 0)
			continue;
		for (unsigned k = 0; k < sec->nkv; k++) {
			const struct lab_cfg_kv *kv = &sec->kv[k];
			if (kv->reported || !pl_name(x, kv))
				continue;
			if (lab_strmap_get(files, 0, kv->key, &l)) {
				lab_diag_add(
				    x->d, "%s:%d: [lessons] %s: duplicate lesson (first at %s:%d)",
				    kv->file, kv->line, kv->key, x->first[l]->file,
				    x->first[l]->line);
				continue;
			}
			if (!pl_first(x, files, kv))
				lab_diag_add(x->d, "out of memory checking lessons");
			lab__plan_claim(x, lab_strmap_get(sets, 0, kv->key, &set) ? &cfg->set[set]
			                                                          : kv);
		}
	}
}

void lab__plan_lessons(struct lab_plan *plan, const struct lab_cfg *cfg, struct lab_diag *d)
{
	struct lab__pl_ctx x = {.plan = plan, .cfg = cfg, .d = d};
	struct lab_strmap files = {0}, sets = {0}; /* by name: no scan per key */
	unsigned l;

	if (!(x.index = calloc(plan->nexp + 1, sizeof(*x.index)))) {
		lab_diag_add(d, "out of memory checking lessons");
		return;
	}
	for (unsigned e = 0; e < plan->nexp; e++)
		if (lab_strmap_put(&x.exps, 0, plan->exp[e].name, e))
			lab_diag_add(d, "out of memory checking lessons");
	pl_sets(cfg, &sets, d);
	pl_files(&x, &sets, &files);
	/* --set lessons.NAME for a name no file has: a new lesson (the last --set of it). */
	for (unsigned i = 0; i < cfg->nset; i++)
		if (!strcmp(cfg->set_section[i], "lessons") &&
		    lab_strmap_get(&sets, 0, cfg->set[i].key, &l) && l == i &&
		    !lab_strmap_get(&files, 0, cfg->set[i].key, &l) && pl_name(&x, &cfg->set[i]))
			lab__plan_claim(&x, &cfg->set[i]);
	lab_strmap_free(&files);
	lab_strmap_free(&sets);
	for (unsigned e = 0; e < plan->nexp; e++)
		lab__sel_index_free(x.index[e]);
	free(x.index);
	lab_strmap_free(&x.exps);
	for (unsigned i = 0; i < x.ntried; i++)
		free(x.tried[i]);
	free(x.first);
}
