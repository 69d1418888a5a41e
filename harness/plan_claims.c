/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * One [lessons] claim checked against the plan (plan_lessons_int.h): the grammar and what a
 * claim may say (harness/lessons.h), then every selector — the experiment exists, its keys are
 * point parameters (threads, placement, membind, perf_c2c or a kernel key), each value parses
 * for its key and names one value, and the selector names at most one planned point. Values are
 * rewritten in the form the points' params text uses (16KiB -> 16384 where the kernel formats
 * so), so the analyzer matches text. A selector that matches no planned point is an error only
 * where a value is not among those a fixed list of the config sweeps: `--set` may have narrowed
 * a sweep, or the machine decided it (threads = max), and the analyzer then says the lesson was
 * not run and why.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/lessons.h"
#include "harness/param.h"
#include "harness/plan_lessons_int.h"

static unsigned long long pl_suggest_probes;

/* s cut to PL_NAME_MAX bytes (at a UTF-8 character) with "..." when longer, into buf. */
static const char *pl_clip(const char *s, char buf[PL_NAME_MAX + 4])
{
	size_t n = strnlen(s, PL_NAME_MAX + 1);

	if (n <= PL_NAME_MAX)
		return s;
	n = PL_NAME_MAX;
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	memcpy(buf, s, n);
	memcpy(buf + n, "...", 4);
	return buf;
}

void lab__plan_claim_error(struct lab__pl_ctx *x, const char *fmt, ...)
{
	char what[LAB_ERR_MSG_MAX + 256], clip[PL_NAME_MAX + 4];
	const char *name = pl_clip(x->kv->key, clip);
	va_list ap;

	unsigned col;
	int at = 0;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	x->errors++;
	if (x->kv->line == 0) {
		lab_diag_add(x->d, "--set lessons.%s: %s", name, what);
		return;
	}
	/* a column of a claim on continuation lines is one of the line that holds it */
	if (x->kv->ncont && sscanf(what, "column %u:%n", &col, &at) == 1 && at > 0) {
		int line = lab_cfg_kv_line(x->kv, &col);
		lab_diag_add(x->d, "%s:%d: [lessons] %s: column %u:%s", x->kv->file, line, name,
		             col, what + at);
		return;
	}
	lab_diag_add(x->d, "%s:%d: [lessons] %s: %s", x->kv->file, x->kv->line, name, what);
}

/* An experiment section with that name exists (its own errors were reported already). The
 * index holds every section but [global] and [lessons] under owner 0. */
static int pl_section_exists(const struct lab_cfg *cfg, const char *name)
{
	unsigned s;

	return lab_strmap_get(&cfg->sec_index, 0, name, &s);
}

/* The experiment closest to name when it is close enough, or NULL (see PL_SUGGEST_MAX). */
static const char *pl_suggest(struct lab__pl_ctx *x, const char *name)
{
	const char *best = NULL;
	unsigned best_d = ~0u;

	for (unsigned i = 0; i < x->ntried; i++)
		if (!strcmp(x->tried[i], name))
			return x->tried_best[i];
	if (x->ntried == PL_SUGGEST_MAX || x->d->n >= LAB_DIAG_MAX ||
	    strlen(name) > LAB_EDIT_DISTANCE_MAX)
		return NULL;
	for (unsigned e = 0; e < x->plan->nexp; e++) {
		unsigned dist = lab_edit_distance(name, x->plan->exp[e].name);
		pl_suggest_probes++;
		if (dist < best_d) {
			best_d = dist;
			best = x->plan->exp[e].name;
		}
	}
	if (!best || best_d > strlen(name) / 3 + 1)
		best = NULL;
	if ((x->tried[x->ntried] = strdup(name)))
		x->tried_best[x->ntried++] = best;
	return best;
}

unsigned long long lab_plan_lesson_suggest_probes(void)
{
	return pl_suggest_probes;
}

static void pl_unknown_experiment(struct lab__pl_ctx *x, const struct lab_lesson_sel *sel)
{
	const char *best = pl_suggest(x, sel->experiment);

	if (best)
		lab__plan_claim_error(x, "column %u: unknown experiment '%s' (did you mean '%s'?)",
		                      sel->col, sel->experiment, best);
	else
		lab__plan_claim_error(
		    x,
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

/* text, one value of p, in the form the points' params text records it; 0, or -1 with err. */
static int pl_canon(const struct lab_param *p, const char *text, char *canon, size_t len,
                    struct lab_err *err)
{
	char scratch[4096] __attribute__((aligned(16)));

	memset(scratch, 0, sizeof(scratch));
	if (lab_param_parse(p, text, scratch, err))
		return -1;
	lab_param_format(p, scratch, canon, len);
	if (!strcmp(p->key, "placement")) { /* as the points record it (plan_points.c) */
		char written[256];
		snprintf(written, sizeof(written), "%s", canon);
		lab_placement_canon(written, canon, len);
	}
	return 0;
}

/* Whether a value's text is relative to the machine: max, far, a cache level (L2/2). */
static bool pl_machine_relative(const char *text)
{
	for (const char *c = text; *c; c++)
		if ((*c == 'L' || *c == 'l') && c[1] >= '1' && c[1] <= '5')
			return true;
	return strcasestr(text, "max") || strcasestr(text, "far");
}

/* Rewrites the value of item i of sel in canonical form (keeping the written one where it was
 * relative to the machine); reports what is wrong with it. */
static int pl_value(struct lab__pl_ctx *x, const struct lab_experiment *e,
                    struct lab_lesson_sel *sel, unsigned i)
{
	const struct lab_param *p = pl_param(e, sel->key[i]);
	char canon[256];
	struct lab_err err = {0};
	char **vals = NULL;

	if (!strcmp(sel->key[i], "kernel")) {
		lab__plan_claim_error(
		    x,
		    "column %u: 'kernel' is [%s]'s kernel ('%s'), not a point parameter "
		    "(allowed threads, placement, membind, perf_c2c and the keys of kernel "
		    "'%s')",
		    sel->kcol[i], e->name, e->kernel->name, e->kernel->name);
		return -1;
	}
	if (!p && lab_param_find(lab_hparam_table, sel->key[i])) {
		lab__plan_claim_error(
		    x,
		    "column %u: '%s' is a run setting, not a point parameter (allowed "
		    "threads, placement, membind, perf_c2c and the keys of kernel '%s')",
		    sel->kcol[i], sel->key[i], e->kernel->name);
		return -1;
	}
	if (!p) {
		const char *near = lab__plan_closest(sel->key[i], e->kernel->params);
		lab__plan_claim_error(
		    x,
		    "column %u: [%s] has no point parameter '%s'%s%s%s (allowed threads, "
		    "placement, membind, perf_c2c and the keys of kernel '%s')",
		    sel->kcol[i], e->name, sel->key[i], near ? " (did you mean '" : "",
		    near ? near : "", near ? "'?)" : "", e->kernel->name);
		return -1;
	}
	/* the analyzer reads a lesson's values back without the kernels' key types: a count in
	 * plain digits, so 1K cannot mean 1000 here and 1024 for a size there */
	const char *v = sel->value[i];
	size_t digits = strspn(v, "0123456789.");
	if (p->type == LAB_PT_U64 && digits && v[digits] && strchr("KkMG", v[digits])) {
		lab__plan_claim_error(x,
		                      "column %u: %s=%s: a count in a lesson is written in digits "
		                      "(allowed: e.g. %s=1000, not 1K: K is 1000 for a count, 1024 "
		                      "for a size)",
		                      sel->kcol[i], sel->key[i], v, sel->key[i]);
		return -1;
	}
	int n = lab_sweep_expand(p, sel->value[i], &x->plan->env, &vals, &err);
	if (n != 1) {
		lab__plan_claim_error(x, "column %u: %s=%s: %s", sel->kcol[i], sel->key[i],
		                      sel->value[i],
		                      n < 0 ? err.msg : "a selector names one value, not a sweep");
		if (n > 0)
			lab_sweep_free(vals, (unsigned)n);
		return -1;
	}
	int rc = pl_canon(p, vals[0], canon, sizeof(canon), &err);
	lab_sweep_free(vals, 1);
	if (rc) {
		lab__plan_claim_error(x, "column %u: %s=%s: %s", sel->kcol[i], sel->key[i],
		                      sel->value[i], err.msg);
		return -1;
	}
	char *dup = strdup(canon);
	if (!dup)
		return -1;
	if (pl_machine_relative(sel->value[i]) && strcmp(sel->value[i], canon)) {
		sel->written[i] = sel->value[i];
		sel->value[i] = dup;
		return 0;
	}
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

/* Whether r's values are this config's own fixed list: not narrowed by --set, not one the
 * machine decides (threads = max, mem_node = far, a size relative to a cache). */
static bool pl_fixed_list(const struct lab_resolved *r)
{
	return r->src != LAB_SRC_CLI && r->text && !pl_machine_relative(r->text);
}

/* Whether item i of sel names a key that applies at none of the points sel can name (said):
 * the selector's own value of the key it depends on, else every value the experiment's fixed
 * list of that key has (a list a --set narrowed is not the config's: its lesson is not run). */
static bool pl_inapplicable(struct lab__pl_ctx *x, const struct lab_experiment *e,
                            const struct lab_lesson_sel *sel, unsigned i)
{
	const struct lab_param *p = lab_param_find(e->kernel->params, sel->key[i]);
	char key[64], where[128], canon[256], have[160] = "";
	const char *ck = p ? lab_param_applies_key(p, key, sizeof(key)) : NULL;
	const struct lab_resolved *c = NULL;
	struct lab_err err = {0};

	if (!ck)
		return false;
	for (unsigned j = 0; j < sel->nparam; j++)
		if (!strcmp(sel->key[j], ck)) {
			if (lab_param_applies_value(p, ck, sel->value[j]))
				return false;
			snprintf(have, sizeof(have), "not at %s=%s", ck, sel->value[j]);
		}
	for (unsigned k = 0; !*have && k < e->nkeys; k++)
		if (!e->keys[k].harness && !strcmp(e->keys[k].param->key, ck))
			c = &e->keys[k];
	if (c && !pl_fixed_list(c))
		return false; /* narrowed by --set: not run, and the analyzer says why */
	for (unsigned v = 0; c && v < c->nvals; v++)
		if (pl_canon(c->param, c->vals[v], canon, sizeof(canon), &err) ||
		    lab_param_applies_value(p, ck, canon))
			return false; /* a value that applies */
	if (c)
		snprintf(have, sizeof(have), "and [%s] has %s = %.100s", e->name, ck, c->text);
	lab_param_applies_text(p, where, sizeof(where));
	lab__plan_claim_error(x,
	                      "column %u: %s=%s names no point: %s applies only where %s, %s "
	                      "(allowed: leave %s out of this selector)",
	                      sel->kcol[i], sel->key[i], sel->value[i], sel->key[i], where, have,
	                      sel->key[i]);
	return true;
}

/*
 * A selector that names no planned point: an error when one of its values is not among those
 * a fixed list of the config sweeps (stride=9 where the sweep is 8, 128: the lesson could never
 * be judged). Otherwise not (a sweep narrowed by --set, or one the machine decides): the
 * analyzer says the lesson was not run and why.
 */
static void pl_unplanned(struct lab__pl_ctx *x, const struct lab_experiment *e,
                         const struct lab_lesson_sel *sel)
{
	/* stride=64 beside layout=struct, or in an experiment of struct layouts alone: the key
	 * has no effect there, and no value */
	for (unsigned i = 0; i < sel->nparam; i++)
		if (pl_inapplicable(x, e, sel, i))
			return;
	for (unsigned i = 0; i < sel->nparam; i++)
		for (unsigned k = 0; k < e->nkeys; k++) {
			const struct lab_resolved *r = &e->keys[k];
			char canon[256];
			struct lab_err err = {0};
			bool found = false;

			if (strcmp(r->param->key, sel->key[i]) || !pl_fixed_list(r))
				continue;
			for (unsigned v = 0; v < r->nvals && !found; v++)
				found =
				    !pl_canon(r->param, r->vals[v], canon, sizeof(canon), &err) &&
				    !strcmp(canon, sel->value[i]);
			if (found)
				break;
			lab__plan_claim_error(
			    x,
			    "column %u: %s=%s names no point of [%s], which sweeps "
			    "%s = %.120s (allowed one of these)",
			    sel->kcol[i], sel->key[i], sel->value[i], e->name, sel->key[i],
			    r->text);
			return;
		}
}

/* 1 when key (NULL: none) of e sweeps by a --set, not by the config. */
static int pl_swept_by_set(const struct lab_experiment *e, const char *key)
{
	for (unsigned k = 0; key && k < e->nkeys; k++)
		if (!strcmp(e->keys[k].param->key, key))
			return e->keys[k].src == LAB_SRC_CLI;
	return 0;
}

/* Checks sel and resolves it into *at. */
static void pl_sel(struct lab__pl_ctx *x, struct lab_lesson_sel *sel, struct lab__pl_at *at)
{
	struct lab_experiment *e = lab__pl_experiment(x, sel->experiment);
	unsigned before = x->errors;

	if (!e) {
		if (!pl_section_exists(x->cfg, sel->experiment))
			pl_unknown_experiment(x, sel);
		else
			x->errors++; /* its section's errors say why it has no plan */
		return;
	}
	unsigned ei = (unsigned)(e - x->plan->exp);
	at->exp = ei;
	for (unsigned i = 0; i < sel->nparam; i++)
		pl_value(x, e, sel, i);
	if (x->errors != before || !e->npoints)
		return;
	if (!x->index[ei] && !(x->index[ei] = lab__sel_index_new(x->plan, e))) {
		x->errors++;
		lab_diag_add(x->d, "out of memory checking lessons");
		return;
	}
	unsigned n = lab__sel_count(x->index[ei], sel, &at->pt);
	if (n != 1)
		at->pt = PL_NOPOINT;
	if (!n) {
		pl_unplanned(x, e, sel);
		return;
	}
	bool setting;
	const char *open = n > 1 ? pl_open_key(e, sel, &setting) : NULL;
	if (n > 1 && setting)
		lab__plan_claim_error(
		    x,
		    "column %u: %s names %u points of [%s] that differ in the run setting "
		    "'%s', which a selector cannot name (allowed: sweep it in separate "
		    "experiments)",
		    sel->col, sel->experiment, n, e->name, open);
	else if (n > 1)
		lab__plan_claim_error(
		    x, "column %u: %s names %u points of [%s] (add %s=VALUE: it sweeps%s)",
		    sel->col, sel->experiment, n, e->name, open ? open : "the swept keys",
		    pl_swept_by_set(e, open) ? ", as a --set made it" : "");
}

static void pl_metric(struct lab__pl_ctx *x, const struct lab_lesson_claim *c,
                      const struct lab_lesson_node *n)
{
	const struct lab_lesson_sel *sel = &c->sel[n->sel];
	const struct lab_experiment *e = lab__pl_experiment(x, sel->experiment);
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
	lab__plan_claim_error(x, "column %u: kernel '%s' declares no metric '%s' (%s%s)", sel->col,
	                      e->kernel->name, n->metric, *names ? "allowed " : "it declares none",
	                      names);
}

static unsigned long long pl_grows;

unsigned long long lab_plan_lesson_grows(void)
{
	return pl_grows;
}

/* Adds the checked claim c of x->kv to the plan, in canonical text. */
static void pl_keep(struct lab__pl_ctx *x, const struct lab_lesson_claim *c,
                    const struct lab__pl_at *at)
{
	struct lab_plan *plan = x->plan;
	const struct lab_cfg_kv *kv = x->kv;
	size_t need = lab_lesson_format(c, -1, NULL, 0) + 1;
	char *expr = malloc(need);
	unsigned n = plan->nlessons;
	/* The capacity is implicit: 8, then the next power of two (one realloc per lesson was
	 * quadratic in copies where realloc cannot grow in place). */
	bool full = n == 0 || (n >= 8 && !(n & (n - 1)));
	struct lab_plan_lesson *grown = plan->lessons;

	if (full) {
		pl_grows++;
		grown = realloc(plan->lessons, (n ? 2 * (size_t)n : 8) * sizeof(*grown));
	}
	if (grown)
		plan->lessons = grown;
	if (!expr || !grown) {
		free(expr);
		lab_diag_add(x->d, "out of memory checking lessons");
		return;
	}
	lab_lesson_format(c, -1, expr, need);
	plan->lessons[plan->nlessons++] =
	    (struct lab_plan_lesson){.name = kv->key,
	                             .claim = kv->value,
	                             .file = kv->file,
	                             .line = kv->line,
	                             .expr = expr,
	                             .unplanned = lab__pl_unjudged(x, c, at)};
}

/* speedup(sel) divides the point's cost at threads = 1 by its own: at 1 thread it is 1 by
 * definition, and an experiment whose config never runs 1 thread has no baseline. A --set
 * that narrowed threads is no error (as for any other swept key, pl_unplanned): the analyzer
 * says the lesson was not run and why. */
static void pl_speedup(struct lab__pl_ctx *x, const struct lab_lesson_sel *sel)
{
	struct lab_experiment *e = lab__pl_experiment(x, sel->experiment);
	const struct lab_resolved *r = e ? lab__plan_key(e, "threads") : NULL;
	const char *named = NULL;
	bool one = false, max = false;

	if (!r || !r->nvals)
		return;
	for (unsigned i = 0; i < sel->nparam; i++)
		if (!strcmp(sel->key[i], "threads")) {
			named = sel->value[i];
			max = sel->written[i] != NULL;
		}
	one = lab__pl_sweeps_one(r);
	/* threads=max (named, or the sweep's one value) is 1 on a 1-CPU machine only: the analyzer
	 * says "not run" there */
	if (named ? !max && lab__pl_threads(r, named) == 1
	          : r->nvals == 1 && one && !(r->text && pl_machine_relative(r->text)))
		lab__plan_claim_error(
		    x,
		    "column %u: speedup at threads=1 is 1 by definition (allowed: a selector "
		    "at threads=N with N > 1; its baseline is the same point at threads=1)",
		    sel->col);
	else if (!one && r->src != LAB_SRC_CLI)
		lab__plan_claim_error(
		    x,
		    "column %u: [%s] runs no point at threads=1, the baseline of speedup "
		    "(allowed: add 1 to its threads, or compare cost(...) at two thread "
		    "counts)",
		    sel->col, e->name);
}

void lab__plan_claim(struct lab__pl_ctx *x, const struct lab_cfg_kv *kv)
{
	struct lab_lesson_claim c;
	struct lab_err err = {0};
	struct lab__pl_at *at;
	char why[320];

	x->kv = kv;
	x->errors = 0;
	if (lab_lesson_parse(kv->value, &c, &err)) {
		lab__plan_claim_error(x, "%s", err.msg);
		return;
	}
	if (lab_lesson_check(&c, &err)) {
		lab__plan_claim_error(x, "%s", err.msg);
		lab_lesson_claim_free(&c);
		return;
	}
	if (!(at = calloc(c.nsel ? c.nsel : 1, sizeof(*at)))) {
		lab_diag_add(x->d, "out of memory checking lessons");
		lab_lesson_claim_free(&c);
		return;
	}
	for (unsigned i = 0; i < c.nsel; i++) {
		at[i].pt = PL_NOPOINT;
		pl_sel(x, &c.sel[i], &at[i]);
	}
	for (unsigned i = 0; i < c.nnode && !x->errors; i++)
		if (c.node[i].op == LAB_LESSON_SPEEDUP)
			pl_speedup(x, &c.sel[c.node[i].sel]);
	for (unsigned i = 0; i < c.nnode && !x->errors; i++)
		if (c.node[i].op == LAB_LESSON_METRIC)
			pl_metric(x, &c, &c.node[i]);
	if (!x->errors && lab__plan_claim_cancels(x, &c, at, why, sizeof(why)))
		lab__plan_claim_error(x,
		                      "column 1: %s (allowed: a claim that compares different "
		                      "points or metrics)",
		                      why);
	else if (!x->errors && lab__plan_claim_fixed(x, &c, at, why, sizeof(why)))
		lab__plan_claim_error(x,
		                      "column 1: %s (allowed: a bound that what is measured can "
		                      "fall on either side of)",
		                      why);
	if (!x->errors)
		pl_keep(x, &c, at);
	free(at);
	lab_lesson_claim_free(&c);
}
