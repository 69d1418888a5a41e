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

/*
 * A did-you-mean for an unknown experiment costs an edit distance against every experiment. It
 * is worked out once per distinct name, for the first PL_SUGGEST_MAX names, and not once the
 * diagnostics are full (no one sees those lines): a suggestion per bad selector made 2000
 * experiments x 2000 lessons quadratic (39 s).
 */
#define PL_SUGGEST_MAX 16
/* The longest lesson name: it is a key of analysis.json and a line of the analyzer's text. */
#define PL_NAME_MAX 63

struct pl_ctx {
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

__attribute__((format(printf, 2, 3))) static void pl_error(struct pl_ctx *x, const char *fmt, ...)
{
	char what[LAB_ERR_MSG_MAX + 256], clip[PL_NAME_MAX + 4];
	const char *name = pl_clip(x->kv->key, clip);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (x->kv->line == 0)
		lab_diag_add(x->d, "--set lessons.%s: %s", name, what);
	else
		lab_diag_add(x->d, "%s:%d: [lessons] %s: %s", x->kv->file, x->kv->line, name, what);
	x->errors++;
}

static struct lab_experiment *pl_experiment(const struct pl_ctx *x, const char *name)
{
	unsigned e;

	return lab_strmap_get(&x->exps, 0, name, &e) ? &x->plan->exp[e] : NULL;
}

/* An experiment section with that name exists (its own errors were reported already). The
 * index holds every section but [global] and [lessons] under owner 0. */
static int pl_section_exists(const struct lab_cfg *cfg, const char *name)
{
	unsigned s;

	return lab_strmap_get(&cfg->sec_index, 0, name, &s);
}

/* The experiment closest to name when it is close enough, or NULL (see PL_SUGGEST_MAX). */
static const char *pl_suggest(struct pl_ctx *x, const char *name)
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

static void pl_unknown_experiment(struct pl_ctx *x, const struct lab_lesson_sel *sel)
{
	const char *best = pl_suggest(x, sel->experiment);

	if (best)
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

	if (!strcmp(sel->key[i], "kernel")) {
		pl_error(x,
		         "column %u: 'kernel' is [%s]'s kernel ('%s'), not a point parameter "
		         "(allowed threads, placement, membind, perf_c2c and the keys of kernel "
		         "'%s')",
		         sel->col, e->name, e->kernel->name, e->kernel->name);
		return -1;
	}
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

/* Adds the checked claim c of x->kv to the plan, in canonical text. */
static void pl_keep(struct pl_ctx *x, const struct lab_lesson_claim *c)
{
	struct lab_plan *plan = x->plan;
	const struct lab_cfg_kv *kv = x->kv;
	size_t need = lab_lesson_format(c, -1, NULL, 0) + 1;
	char *expr = malloc(need);
	struct lab_plan_lesson *grown =
	    realloc(plan->lessons, (plan->nlessons + 1) * sizeof(*grown));

	if (grown)
		plan->lessons = grown;
	if (!expr || !grown) {
		free(expr);
		lab_diag_add(x->d, "out of memory checking lessons");
		return;
	}
	lab_lesson_format(c, -1, expr, need);
	plan->lessons[plan->nlessons++] = (struct lab_plan_lesson){
	    .name = kv->key, .claim = kv->value, .file = kv->file, .line = kv->line, .expr = expr};
}

/* The thread count of a resolved threads value, or 0 when it does not parse. */
static uint64_t pl_threads(const struct lab_resolved *r, const char *val)
{
	struct lab_hparams h = {0};
	struct lab_err err;

	return lab_param_parse(r->param, val, &h, &err) ? 0 : h.threads;
}

/* speedup(sel) divides the point's cost at threads = 1 by its own: at 1 thread it is 1 by
 * definition, and an experiment that never runs 1 thread has no baseline. */
static void pl_speedup(struct pl_ctx *x, const struct lab_lesson_sel *sel)
{
	struct lab_experiment *e = pl_experiment(x, sel->experiment);
	const struct lab_resolved *r = e ? lab__plan_key(e, "threads") : NULL;
	const char *named = NULL;
	bool one = false;

	if (!r || !r->nvals)
		return;
	for (unsigned i = 0; i < sel->nparam; i++)
		if (!strcmp(sel->key[i], "threads"))
			named = sel->value[i];
	for (unsigned v = 0; v < r->nvals; v++)
		one |= pl_threads(r, r->vals[v]) == 1;
	if (named ? pl_threads(r, named) == 1 : r->nvals == 1 && one)
		pl_error(x,
		         "column %u: speedup at threads=1 is 1 by definition (allowed: a selector "
		         "at threads=N with N > 1; its baseline is the same point at threads=1)",
		         sel->col);
	else if (!one)
		pl_error(x,
		         "column %u: [%s] runs no point at threads=1, the baseline of speedup "
		         "(allowed: add 1 to its threads, or compare cost(...) at two thread "
		         "counts)",
		         sel->col, e->name);
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
	if (lab_lesson_check(&c, &err)) {
		pl_error(x, "%s", err.msg);
		lab_lesson_claim_free(&c);
		return;
	}
	for (unsigned i = 0; i < c.nsel; i++)
		pl_sel(x, &c.sel[i]);
	for (unsigned i = 0; i < c.nnode && !x->errors; i++)
		if (c.node[i].op == LAB_LESSON_SPEEDUP)
			pl_speedup(x, &c.sel[c.node[i].sel]);
	for (unsigned i = 0; i < c.nnode && !x->errors; i++)
		if (c.node[i].op == LAB_LESSON_METRIC)
			pl_metric(x, &c, &c.node[i]);
	if (!x->errors)
		pl_keep(x, &c);
	lab_lesson_claim_free(&c);
}

/* A lesson name is what a section name may be, and short; reports one that is not. */
static bool pl_name(struct pl_ctx *x, const struct lab_cfg_kv *kv)
{
	if (strnlen(kv->key, PL_NAME_MAX + 1) <= PL_NAME_MAX && lab_cfg_name_ok(kv->key))
		return true;
	x->kv = kv;
	pl_error(x,
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
static bool pl_first(struct pl_ctx *x, struct lab_strmap *files, const struct lab_cfg_kv *kv)
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
static void pl_files(struct pl_ctx *x, const struct lab_strmap *sets, struct lab_strmap *files)
{
	const struct lab_cfg *cfg = x->cfg;
	unsigned l, set;

	for (unsigned s = 0; s < cfg->nsec; s++) {
		const struct lab_cfg_section *sec = &cfg->sec[s];
		if (strcmp(sec->name, "lessons") != 0)
			continue;
		for (unsigned k = 0; k < sec->nkv; k++) {
			const struct lab_cfg_kv *kv = &sec->kv[k];
			if (!pl_name(x, kv))
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
			pl_lesson(x, lab_strmap_get(sets, 0, kv->key, &set) ? &cfg->set[set] : kv);
		}
	}
}

void lab__plan_lessons(struct lab_plan *plan, const struct lab_cfg *cfg, struct lab_diag *d)
{
	struct pl_ctx x = {.plan = plan, .cfg = cfg, .d = d};
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
			pl_lesson(&x, &cfg->set[i]);
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
