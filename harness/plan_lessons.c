/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The planner's check of [lessons] claims: the grammar (harness/lessons.h), then every selector
 * against the plan — the experiment exists, its keys are point parameters (threads, placement,
 * membind, perf_c2c or a kernel key), each value parses for its key and names one value, and
 * the selector names at most one planned point. Values are rewritten in the form the points'
 * params text uses (16KiB -> 16384 where the kernel formats so), so the analyzer matches text.
 * A selector that matches no planned point is not an error: `--set` may have narrowed a sweep,
 * and the analyzer then says the lesson was not run and why.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/lessons.h"
#include "harness/param.h"
#include "harness/plan_internal.h"
#include "harness/strmap.h"

struct pl_ctx {
	struct lab_plan *plan;
	const struct lab_cfg *cfg;
	struct lab_diag *d;
	const struct lab_cfg_kv *kv;   /* the lesson being checked */
	struct lab_strmap exps;        /* experiment name -> index in plan->exp */
	struct lab__sel_index **index; /* per experiment, built when a selector first names it */
	unsigned errors;
};

__attribute__((format(printf, 2, 3))) static void pl_error(struct pl_ctx *x, const char *fmt, ...)
{
	char what[LAB_ERR_MSG_MAX + 256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (x->kv->line == 0)
		lab_diag_add(x->d, "--set lessons.%s: %s", x->kv->key, what);
	else
		lab_diag_add(x->d, "%s:%d: [lessons] %s: %s", x->kv->file, x->kv->line, x->kv->key,
		             what);
	x->errors++;
}

static struct lab_experiment *pl_experiment(const struct pl_ctx *x, const char *name)
{
	unsigned e;

	return lab_strmap_get(&x->exps, 0, name, &e) ? &x->plan->exp[e] : NULL;
}

/* An experiment section with that name exists (its own errors were reported already). */
static int pl_section_exists(const struct lab_cfg *cfg, const char *name)
{
	for (unsigned s = 0; s < cfg->nsec; s++)
		if (!strcmp(cfg->sec[s].name, name))
			return strcmp(name, "global") && strcmp(name, "lessons");
	return 0;
}

static void pl_unknown_experiment(struct pl_ctx *x, const struct lab_lesson_sel *sel)
{
	const char *best = NULL;
	unsigned best_d = ~0u;

	for (unsigned e = 0; e < x->plan->nexp; e++) {
		unsigned dist = lab_edit_distance(sel->experiment, x->plan->exp[e].name);
		if (dist < best_d) {
			best_d = dist;
			best = x->plan->exp[e].name;
		}
	}
	if (best && best_d <= strlen(sel->experiment) / 3 + 1)
		pl_error(x, "column %u: unknown experiment '%s' (did you mean '%s'?)", sel->col,
		         sel->experiment, best);
	else
		pl_error(x,
		         "column %u: unknown experiment '%s' (a selector names a [section] of "
		         "the config)",
		         sel->col, sel->experiment);
}

/* The parameter key names in e: a point harness key or one of the kernel's; NULL when none. */
static const struct lab_param *pl_param(const struct lab_experiment *e, const char *key)
{
	if (lab__plan_point_key(key))
		return lab_param_find(lab_hparam_table, key);
	return lab_param_find(e->kernel->params, key);
}

/* Rewrites the value of item i of sel in canonical form; reports what is wrong with it. */
static int pl_value(struct pl_ctx *x, const struct lab_experiment *e, struct lab_lesson_sel *sel,
                    unsigned i)
{
	const struct lab_param *p = pl_param(e, sel->key[i]);
	char scratch[4096] __attribute__((aligned(16))), canon[256];
	struct lab_err err = {0};
	char **vals = NULL;

	if (!p && lab_param_find(lab_hparam_table, sel->key[i])) {
		pl_error(x,
		         "column %u: '%s' is a run setting, not a point parameter (allowed "
		         "threads, placement, membind, perf_c2c and the keys of kernel '%s')",
		         sel->col, sel->key[i], e->kernel->name);
		return -1;
	}
	if (!p) {
		const char *near = lab__plan_closest(sel->key[i], e->kernel->params);
		pl_error(x,
		         "column %u: [%s] has no point parameter '%s'%s%s%s (allowed threads, "
		         "placement, membind, perf_c2c and the keys of kernel '%s')",
		         sel->col, e->name, sel->key[i], near ? " (did you mean '" : "",
		         near ? near : "", near ? "'?)" : "", e->kernel->name);
		return -1;
	}
	int n = lab_sweep_expand(p, sel->value[i], &x->plan->env, &vals, &err);
	if (n != 1) {
		pl_error(x, "column %u: %s=%s: %s", sel->col, sel->key[i], sel->value[i],
		         n < 0 ? err.msg : "a selector names one value, not a sweep");
		if (n > 0)
			lab_sweep_free(vals, (unsigned)n);
		return -1;
	}
	memset(scratch, 0, sizeof(scratch));
	int rc = lab_param_parse(p, vals[0], scratch, &err);
	lab_sweep_free(vals, 1);
	if (rc) {
		pl_error(x, "column %u: %s=%s: %s", sel->col, sel->key[i], sel->value[i], err.msg);
		return -1;
	}
	lab_param_format(p, scratch, canon, sizeof(canon));
	char *dup = strdup(canon);
	if (!dup)
		return -1;
	free(sel->value[i]);
	sel->value[i] = dup;
	return 0;
}

/* The first key e sweeps that sel leaves open, or NULL; *setting when that key is a run setting
 * (reps, seed...), which no selector can name. */
static const char *pl_open_key(const struct lab_experiment *e, const struct lab_lesson_sel *sel,
                               bool *setting)
{
	const char *first_setting = NULL;

	for (unsigned k = 0; k < e->nkeys; k++) {
		const struct lab_resolved *r = &e->keys[k];
		unsigned given = 0;
		for (unsigned j = 0; j < sel->nparam; j++)
			given |= !strcmp(sel->key[j], r->param->key);
		if (r->nvals <= 1 || given)
			continue;
		if (!r->harness || lab__plan_point_key(r->param->key))
			return *setting = false, r->param->key;
		if (!first_setting)
			first_setting = r->param->key;
	}
	*setting = first_setting != NULL;
	return first_setting;
}

static void pl_sel(struct pl_ctx *x, struct lab_lesson_sel *sel)
{
	struct lab_experiment *e = pl_experiment(x, sel->experiment);
	unsigned before = x->errors;

	if (!e) {
		if (!pl_section_exists(x->cfg, sel->experiment))
			pl_unknown_experiment(x, sel);
		else
			x->errors++; /* its section's errors say why it has no plan */
		return;
	}
	for (unsigned i = 0; i < sel->nparam; i++)
		pl_value(x, e, sel, i);
	if (x->errors != before || !e->npoints)
		return;
	unsigned ei = (unsigned)(e - x->plan->exp);
	if (!x->index[ei] && !(x->index[ei] = lab__sel_index_new(x->plan, e))) {
		x->errors++;
		lab_diag_add(x->d, "out of memory checking lessons");
		return;
	}
	unsigned n = lab__sel_count(x->index[ei], sel);
	bool setting;
	const char *open = n > 1 ? pl_open_key(e, sel, &setting) : NULL;
	if (n > 1 && setting)
		pl_error(x,
		         "column %u: %s names %u points of [%s] that differ in the run setting "
		         "'%s', which a selector cannot name (allowed: sweep it in separate "
		         "experiments)",
		         sel->col, sel->experiment, n, e->name, open);
	else if (n > 1)
		pl_error(x, "column %u: %s names %u points of [%s] (add %s=VALUE: it sweeps)",
		         sel->col, sel->experiment, n, e->name, open ? open : "the swept keys");
}

static void pl_metric(struct pl_ctx *x, const struct lab_lesson_claim *c,
                      const struct lab_lesson_node *n)
{
	const struct lab_lesson_sel *sel = &c->sel[n->sel];
	const struct lab_experiment *e = pl_experiment(x, sel->experiment);
	char names[512] = "";
	size_t used = 0;

	if (!e || !e->kernel->metrics)
		goto none;
	for (const struct lab_metric *m = e->kernel->metrics; m->name; m++) {
		if (!strcmp(m->name, n->metric))
			return;
		used +=
		    (size_t)snprintf(names + used, used < sizeof(names) ? sizeof(names) - used : 0,
		                     "%s%s", used ? ", " : "", m->name);
		if (used >= sizeof(names))
			used = sizeof(names) - 1;
	}
none:
	if (!e)
		return; /* reported with the selector */
	pl_error(x, "column %u: kernel '%s' declares no metric '%s' (%s%s)", sel->col,
	         e->kernel->name, n->metric, *names ? "allowed " : "it declares none", names);
}

static void pl_lesson(struct pl_ctx *x, const struct lab_cfg_kv *kv)
{
	struct lab_lesson_claim c;
	struct lab_err err = {0};

	x->kv = kv;
	x->errors = 0;
	if (lab_lesson_parse(kv->value, &c, &err)) {
		pl_error(x, "%s", err.msg);
		return;
	}
	for (unsigned i = 0; i < c.nsel; i++)
		pl_sel(x, &c.sel[i]);
	for (unsigned i = 0; i < c.nnode && !x->errors; i++)
		if (c.node[i].op == LAB_LESSON_METRIC)
			pl_metric(x, &c, &c.node[i]);
	if (!x->errors) {
		struct lab_plan *plan = x->plan;
		size_t need = lab_lesson_format(&c, -1, NULL, 0) + 1;
		char *expr = malloc(need);
		struct lab_plan_lesson *grown =
		    realloc(plan->lessons, (plan->nlessons + 1) * sizeof(*grown));
		if (expr && grown) {
			lab_lesson_format(&c, -1, expr, need);
			plan->lessons = grown;
			plan->lessons[plan->nlessons++] =
			    (struct lab_plan_lesson){.name = kv->key,
			                             .claim = kv->value,
			                             .file = kv->file,
			                             .line = kv->line,
			                             .expr = expr};
		} else {
			if (grown)
				plan->lessons = grown;
			free(expr);
			lab_diag_add(x->d, "out of memory checking lessons");
		}
	}
	lab_lesson_claim_free(&c);
}

/* The --set lessons.NAME that replaces kv, or NULL. */
static const struct lab_cfg_kv *pl_overridden(const struct lab_cfg *cfg, const char *name)
{
	const struct lab_cfg_kv *last = NULL;

	for (unsigned i = 0; i < cfg->nset; i++)
		if (!strcmp(cfg->set_section[i], "lessons") && !strcmp(cfg->set[i].key, name))
			last = &cfg->set[i];
	return last;
}

/* Names the lessons of plan from *from on in names (a name already there stays first). */
static void pl_names(const struct lab_plan *plan, struct lab_strmap *names, unsigned *from,
                     struct lab_diag *d)
{
	for (; *from < plan->nlessons; (*from)++)
		if (lab_strmap_put(names, 0, plan->lessons[*from].name, *from))
			lab_diag_add(d, "out of memory checking lessons");
}

void lab__plan_lessons(struct lab_plan *plan, const struct lab_cfg *cfg, struct lab_diag *d)
{
	struct pl_ctx x = {.plan = plan, .cfg = cfg, .d = d};
	struct lab_strmap names = {0}; /* the lessons planned so far, by name: no scan per key */
	unsigned named = 0, l;

	if (!(x.index = calloc(plan->nexp + 1, sizeof(*x.index)))) {
		lab_diag_add(d, "out of memory checking lessons");
		return;
	}
	for (unsigned e = 0; e < plan->nexp; e++)
		if (lab_strmap_put(&x.exps, 0, plan->exp[e].name, e))
			lab_diag_add(d, "out of memory checking lessons");

	for (unsigned s = 0; s < cfg->nsec; s++) {
		const struct lab_cfg_section *sec = &cfg->sec[s];
		if (strcmp(sec->name, "lessons") != 0)
			continue;
		for (unsigned k = 0; k < sec->nkv; k++) {
			const struct lab_cfg_kv *kv = &sec->kv[k];
			pl_names(plan, &names, &named, d);
			if (lab_strmap_get(&names, 0, kv->key, &l))
				lab_diag_add(
				    d, "%s:%d: [lessons] %s: duplicate lesson (first at %s:%d)",
				    kv->file, kv->line, kv->key, plan->lessons[l].file,
				    plan->lessons[l].line);
			const struct lab_cfg_kv *set = pl_overridden(cfg, kv->key);
			pl_lesson(&x, set ? set : kv);
		}
	}
	lab_strmap_free(&names);
	/* --set lessons.NAME for a name no file has: a new lesson. */
	for (unsigned i = 0; i < cfg->nset; i++) {
		if (strcmp(cfg->set_section[i], "lessons") != 0 ||
		    pl_overridden(cfg, cfg->set[i].key) != &cfg->set[i])
			continue;
		int known = 0;
		for (unsigned s = 0; s < cfg->nsec && !known; s++)
			for (unsigned k = 0;
			     !strcmp(cfg->sec[s].name, "lessons") && k < cfg->sec[s].nkv; k++)
				known |= !strcmp(cfg->sec[s].kv[k].key, cfg->set[i].key);
		if (!known)
			pl_lesson(&x, &cfg->set[i]);
	}
	for (unsigned e = 0; e < plan->nexp; e++)
		lab__sel_index_free(x.index[e]);
	free(x.index);
	lab_strmap_free(&x.exps);
}
