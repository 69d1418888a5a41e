/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * run.json's "lessons", held to the rules the planner applies to a config's [lessons]
 * (harness/plan_lessons.c, plan_claims.c): each entry an object with a name a config may give
 * (harness/lessons.h lab_lesson_name_ok), each name once, a "claim" as written and its "expr"
 * (canonical values) that parse, an expr lab_lesson_check accepts and no speedup at threads=1
 * (1 by definition). The claim the text shows and the expr the verdict is computed on say the
 * same but for the form of the selector values the planner canonicalizes (stride=4K is
 * stride=4096; L1/2 is the machine's bytes): same functions, experiments, keys, metrics,
 * operators, numbers and comparison, and no value that is another quantity. Anything else was
 * edited by hand and is refused with FILE:LINE (data_int.h), before any verdict is judged.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analyze/data_int.h"
#include "analyze/index.h"
#include "harness/lessons.h"
#include "harness/place_text.h"
#include "harness/record_schema.h"
#include "harness/units.h"

/* Two numbers of a claim and its canonical form: the planner prints them with %.15g. */
static int an_num_same(double claim, double expr)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.15g", claim);
	return claim == expr || strtod(buf, NULL) == expr;
}

/* The value of s read with the suffixes of table t (a plain decimal, then a suffix of t), or
 * NaN when s is not one. */
static double an_read_units(const char *s, const struct lab_unit_suffix *t)
{
	size_t len = lab_unit_decimal_len(s);

	if (!len || s[0] == '+')
		return NAN;
	for (; t->name; t++)
		if (!strcmp(s + len, t->name))
			return strtod(s, NULL) * t->mult;
	return NAN;
}

/* 1 true, 0 false, -1 not a boolean: the forms lab_parse_bool reads. */
static int an_read_bool(const char *s)
{
	static const char *const forms[] = {"false", "no", "off", "0", "true", "yes", "on", "1"};

	for (int i = 0; i < 8; i++)
		if (!strcasecmp(s, forms[i]))
			return i >= 4;
	return -1;
}

/* Where a claim is checked: run.json (its host's caches and CPUs) and the experiment named. */
struct an_lctx {
	const struct lab_an_json *run;
	const char *experiment;
};

/* The bytes of the level's cache in run.json's host table, or 0 when it lists none. */
static double an_cache_bytes(const struct lab_an_json *run, int level)
{
	const struct lab_an_json *c =
	    lab_an_json_get(lab_an_json_get(lab_an_json_get(run, "host"), "topology"), "caches");

	for (size_t i = 0; c && c->type == LAB_AN_JSON_ARR && i < c->n; i++)
		if (lab_an_json_num(&c->items[i], "level", 0) == level)
			return lab_an_json_num(&c->items[i], "size", 0);
	return 0;
}

/* What the planner made of threads = max for the experiment: the CPUs the run could use
 * (host.topology.cpus_allowed), or its min_cpus where that was more (the points are skipped and
 * the sweep expands as on a machine of min_cpus CPUs). */
static int an_threads_max(const struct an_lctx *x, double v)
{
	const struct lab_an_json *cpus = lab_an_json_get(
	    lab_an_json_get(lab_an_json_get(x->run, "host"), "topology"), "cpus_allowed");
	const struct lab_an_json *exps = lab_an_json_get(x->run, LAB_KEY_EXPERIMENTS);
	double n = cpus && cpus->type == LAB_AN_JSON_ARR ? (double)cpus->n : NAN;

	if (v == n)
		return 1;
	for (size_t i = 0; exps && exps->type == LAB_AN_JSON_ARR && i < exps->n; i++) {
		const char *name = lab_an_json_str(&exps->items[i], LAB_KEY_NAME);
		const struct lab_an_json *m = lab_an_json_get(
		    lab_an_json_get(lab_an_json_get(&exps->items[i], "resolved"), "min_cpus"),
		    "value");

		if (name && !strcmp(name, x->experiment) && m && m->type == LAB_AN_JSON_STR)
			return strtod(m->str, NULL) == v && v > n;
	}
	return 0;
}

/* run.json's numa_memory as a map between logical node numbers ("node") and OS ones
 * ("os_index"): the want of the node whose key is v, or -1. */
static double an_node_map(const struct lab_an_json *mem, const char *key, double v,
                          const char *want)
{
	for (size_t k = 0; mem && mem->type == LAB_AN_JSON_ARR && k < mem->n; k++)
		if (lab_an_json_num(&mem->items[k], key, -1) == v)
			return lab_an_json_num(&mem->items[k], want, -1);
	return -1;
}

/* What the planner made of mem_node = far (harness/topo.c): the first node farthest from OS
 * node 0 by run.json's distances (a matrix in logical order; numa_memory gives the OS numbers),
 * 1 without them (one node, or distances not read). */
static double an_far0(const struct lab_an_json *run)
{
	const struct lab_an_json *t = lab_an_json_get(lab_an_json_get(run, "host"), "topology"),
	                         *d = lab_an_json_get(t, "numa_distances"),
	                         *mem = lab_an_json_get(t, "numa_memory"), *row = NULL;
	size_t n = d && d->type == LAB_AN_JSON_ARR ? d->n : 0, r, best;
	double os = an_node_map(mem, "os_index", 0, "node");

	/* OS node 0's row: the first without numa_memory, none for a node number below 0 */
	r = os >= 0 ? (size_t)os : os == -1 ? 0 : n;
	if (n >= 2 && r < n)
		row = &d->items[r];
	if (!row || row->type != LAB_AN_JSON_ARR || row->n != n)
		return 1;
	best = r;
	for (size_t j = 0; j < n; j++) {
		const struct lab_an_json *dj = &row->items[j], *db = &row->items[best];

		if (dj->type != LAB_AN_JSON_NUM || db->type != LAB_AN_JSON_NUM)
			return 1;
		if (j != r && (best == r || dj->num > db->num))
			best = j;
	}
	os = best != r ? an_node_map(mem, "node", (double)best, "os_index") : -1;
	return os >= 0 ? os : 1;
}

/* A value the planner computes from the machine: a cache size (L1/2, l3*4) from run.json's
 * cache table, threads = max from its CPUs, or mem_node = far from its distances; -1 when claim
 * is no such value. */
static int an_machine_value(const struct an_lctx *x, const char *key, const char *claim,
                            const char *expr)
{
	double e = an_read_units(expr, lab_size_suffixes), base, k = 1;
	int digits = expr[0] && strspn(expr, "0123456789") == strlen(expr);

	if (!strcmp(key, "threads") && !strcmp(claim, "max"))
		return digits && an_threads_max(x, e);
	if (!strcmp(key, "mem_node") && !strcmp(claim, "far"))
		return digits && strtod(expr, NULL) == an_far0(x->run);
	if ((claim[0] != 'L' && claim[0] != 'l') || claim[1] < '1' || claim[1] > '5')
		return -1;
	if (claim[2] && (!strchr("*/", claim[2]) || !claim[3] ||
	                 strspn(claim + 3, "0123456789") != strlen(claim + 3)))
		return -1;
	if (claim[2])
		k = strtod(claim + 3, NULL);
	if (!(base = an_cache_bytes(x->run, claim[1] - '0')) || !(k >= 1))
		return 0;
	return e == (claim[2] == '*' ? base * k : claim[2] == '/' ? floor(base / k) : base);
}

/* Two placements that give the same CPUs in the same order: their canonical texts
 * (harness/place_text.h) are one text (list:0,1 and list:0-1, expr:E:S0:4:2:2 and expr:E:S0:4;
 * never expr:E:S0:4 and expr:S0:0-3, the same CPUs only without SMT). An older planner wrote the
 * claim's form in the expr: the same text, taken before this. One that wrote E:S0:4 as S0:0-3
 * walked E: physical cores first, so its run is not what E:S0:4 means now: refused. */
static int an_placement_same(const char *claim, const char *expr)
{
	char a[256], b[256];

	return lab_place_text_canon(claim, a, sizeof(a)) &&
	       lab_place_text_canon(expr, b, sizeof(b)) && !strcmp(a, b);
}

/* A selector value of the claim and the expr's: the same text, or the same value written as
 * the planner writes it, or the one it computed from the machine (L1/2, max), checked against
 * run.json's host. The planner writes a size with its largest exact binary suffix (4096 as 4K;
 * plain digits only for a size no whole K), a count in plain digits (a lesson's count takes no
 * K: 1000 for a count, 1024 for a size), a duration with its unit (1000ns as 1us), a boolean as
 * true or false, a placement in its canonical text (node:N, list:0-3, expr:S0:0-3), far as a
 * node number. Anything
 * else names other points (threads=1 for
 * threads=2, lock=mcs for lock=ticket, stride=1000 for stride=1K): refused. */
static int an_value_same(const struct an_lctx *x, const char *key, const char *claim,
                         const char *expr)
{
	size_t ne = lab_unit_decimal_len(expr);
	double c, e;
	int b;

	if (!strcmp(claim, expr))
		return 1;
	if (!strcmp(key, LAB_KEY_PLACEMENT))
		return an_placement_same(claim, expr);
	if ((b = an_machine_value(x, key, claim, expr)) >= 0)
		return b;
	if (ne && expr[ne] && !isnan(e = an_read_units(expr, lab_duration_suffixes)))
		return an_read_units(claim, lab_duration_suffixes) == e;
	if (ne && expr[ne] && !isnan(e = an_read_units(expr, lab_size_suffixes)))
		return an_read_units(claim, lab_size_suffixes) == e;
	if (ne && !expr[ne]) { /* plain digits: a count, or a size of no whole K */
		size_t nc = lab_unit_decimal_len(claim);

		e = strtod(expr, NULL);
		if (!isnan(c = an_read_units(claim, lab_duration_suffixes)))
			return c == e && e == 0; /* a duration of 0 is written 0 */
		c = an_read_units(claim, lab_size_suffixes);
		if (nc && (!claim[nc] || !strcmp(claim + nc, "B")))
			return c == e;
		return c == e && fmod(c, 1024) != 0;
	}
	if ((b = an_read_bool(claim)) >= 0 && b == an_read_bool(expr))
		return 1;
	return 0;
}

/* Two selectors alike but for the form of their values: experiment, keys and their order, and
 * values that are not different quantities. */
static int an_sel_same(const struct lab_an_json *run, const struct lab_lesson_sel *a,
                       const struct lab_lesson_sel *b)
{
	struct an_lctx x = {run, a->experiment};

	if (strcmp(a->experiment, b->experiment) || a->nparam != b->nparam)
		return 0;
	for (unsigned i = 0; i < a->nparam; i++)
		if (strcmp(a->key[i], b->key[i]) ||
		    !an_value_same(&x, a->key[i], a->value[i], b->value[i]))
			return 0;
	return 1;
}

/* Node i of claim a says what node j of claim b says, selector values aside. Recursion as deep
 * as the tree, at most LAB_LESSON_NODES_MAX. */
static int an_node_same(const struct lab_an_json *run, const struct lab_lesson_claim *a, int i,
                        const struct lab_lesson_claim *b, int j)
{
	const struct lab_lesson_node *x = &a->node[i], *y = &b->node[j];

	if (x->op != y->op)
		return 0;
	switch (x->op) {
	case LAB_LESSON_NUM:
		return an_num_same(x->num, y->num);
	case LAB_LESSON_COST:
	case LAB_LESSON_THROUGHPUT:
	case LAB_LESSON_SPEEDUP:
	case LAB_LESSON_METRIC:
		return (x->op != LAB_LESSON_METRIC || !strcmp(x->metric, y->metric)) &&
		       an_sel_same(run, &a->sel[x->sel], &b->sel[y->sel]);
	case LAB_LESSON_NEG:
		return an_node_same(run, a, x->a, b, y->a);
	default:
		return an_node_same(run, a, x->a, b, y->a) && an_node_same(run, a, x->b, b, y->b);
	}
}

/* The column of a speedup whose selector names threads=1 in c, or 0: the planner refuses it
 * (its baseline is itself; harness/plan_claims.c). A value as the selectors match it. */
static unsigned an_speedup_one(const struct lab_lesson_claim *c)
{
	for (unsigned i = 0; i < c->nnode; i++) {
		if (c->node[i].op != LAB_LESSON_SPEEDUP)
			continue;
		const struct lab_lesson_sel *sel = &c->sel[c->node[i].sel];
		for (unsigned k = 0; k < sel->nparam; k++)
			if (!strcmp(sel->key[k], "threads") && strtol(sel->value[k], NULL, 10) == 1)
				return sel->col;
	}
	return 0;
}

/* A lesson's name, claim and expr are there with their types, its name a config's. The name
 * is quoted only once known to be plain. */
static int an_lesson_members(const char *path, const struct lab_an_json *jl, struct lab_err *err)
{
	static const char *const strs[] = {"claim", "expr", "file"};
	const struct lab_an_json *v = lab_an_json_get(jl, "name");

	if (!v || v->type != LAB_AN_JSON_STR || !lab_lesson_name_ok(v->str))
		return lab_err_set(
		    err, LAB_EDATA,
		    "%s:%u: a lesson's \"name\": allowed: letters, digits, '_', '.', "
		    "'-', at most %d of them (what a config's [lessons] may name)",
		    path, v ? v->line : jl->line, LAB_LESSON_NAME_MAX);
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
		const struct lab_an_json *s = lab_an_json_get(jl, strs[i]);

		if ((s || i < 2) && (!s || s->type != LAB_AN_JSON_STR))
			return lab_err_set(err, LAB_EDATA,
			                   "%s:%u: lesson '%s': \"%s\": allowed: a string%s", path,
			                   s ? s->line : jl->line, v->str, strs[i],
			                   i < 2 ? " (every lesson has one)" : "");
		if (s && strlen(s->str) > LAB_LESSON_CLAIM_MAX) /* a 2 MB claim was judged */
			return lab_err_set(
			    err, LAB_EDATA,
			    "%s:%u: lesson '%s': \"%s\" of %zu bytes, allowed: at most "
			    "%d (what a config value may hold)",
			    path, s->line, v->str, strs[i], strlen(s->str), LAB_LESSON_CLAIM_MAX);
	}
	return 0;
}

/* Parses the string member key of lesson jl (named name) into c, with the planner's check
 * when check; -LAB_EDATA with the reason. */
static int an_lesson_parse(const char *path, const struct lab_an_json *jl, const char *name,
                           const char *key, int check, struct lab_lesson_claim *c,
                           struct lab_err *err)
{
	const struct lab_an_json *v = lab_an_json_get(jl, key);
	struct lab_err why = {0};

	if (lab_lesson_parse(v->str, c, &why) == 0) {
		if (!check || lab_lesson_check(c, &why) == 0)
			return 0;
		lab_lesson_claim_free(c);
	}
	return lab_err_set(err, LAB_EDATA,
	                   "%s:%u: lesson '%s': \"%s\" %s, allowed: a claim a config may state "
	                   "(the planner's rules)",
	                   path, v->line, name, key, why.msg);
}

/* One lesson entry: an object whose members a config could have written, claim and expr alike
 * but for selector values. c and e are scratch claims (large: on the heap). */
static int an_lesson_check(const char *path, const struct lab_an_json *run,
                           const struct lab_an_json *jl, struct lab_lesson_claim *c,
                           struct lab_lesson_claim *e, struct lab_err *err)
{
	const char *name;
	unsigned col;
	int rc;

	if (jl->type != LAB_AN_JSON_OBJ)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: a lesson: allowed: an object {name, claim, expr, file, "
		                   "line}",
		                   path, jl->line);
	if ((rc = an_lesson_members(path, jl, err)))
		return rc;
	name = lab_an_json_str(jl, "name");
	if ((rc = an_lesson_parse(path, jl, name, "expr", 1, e, err)))
		return rc;
	if ((col = an_speedup_one(e)))
		rc =
		    lab_err_set(err, LAB_EDATA,
		                "%s:%u: lesson '%s': \"expr\" column %u: speedup at threads=1 is 1 "
		                "by definition, allowed: a selector at threads=N with N > 1 (its "
		                "baseline is the same point at threads=1)",
		                path, lab_an_json_get(jl, "expr")->line, name, col);
	else if (!(rc = an_lesson_parse(path, jl, name, "claim", 0, c, err)) &&
	         (c->cmp != e->cmp || !an_node_same(run, c, c->lhs, e, e->lhs) ||
	          !an_node_same(run, c, c->rhs, e, e->rhs)))
		rc = lab_err_set(err, LAB_EDATA,
		                 "%s:%u: lesson '%s': \"claim\" and \"expr\" say different things, "
		                 "allowed: the claim as written and its canonical form (only the "
		                 "form of selector values may differ: 4K for 4096)",
		                 path, lab_an_json_get(jl, "claim")->line, name);
	lab_lesson_claim_free(c);
	lab_lesson_claim_free(e);
	return rc;
}

/* The second lesson named as an earlier one, through a set of the names: O(1) per lesson. */
static int an_lesson_once(const char *path, struct lab_an_strset *names,
                          const struct lab_an_json *jl, struct lab_err *err)
{
	const char *name = lab_an_json_str(jl, "name");
	int added = 0;

	if (lab_an_strset_add(names, name, &added) == (size_t)-1)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	if (!added)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: lesson '%s' again, allowed: each name once (a config "
		                   "names each lesson once)",
		                   path, jl->line, name);
	return 0;
}

int lab_an_run_lessons_check(const char *path, const struct lab_an_json *run, struct lab_err *err)
{
	const struct lab_an_json *ls = lab_an_json_get(run, "lessons");
	struct lab_lesson_claim *c = calloc(2, sizeof(*c));
	struct lab_an_strset names = {0}; /* borrowed from run.json */
	int rc = 0;

	if (ls && ls->type != LAB_AN_JSON_ARR)
		rc = lab_err_set(err, LAB_EDATA, "%s:%u: \"lessons\": allowed: an array", path,
		                 ls->line);
	else if (!c)
		rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
	for (size_t i = 0; !rc && ls && i < ls->n; i++)
		if (!(rc = an_lesson_check(path, run, &ls->items[i], &c[0], &c[1], err)))
			rc = an_lesson_once(path, &names, &ls->items[i], err);
	lab_an_strset_free(&names);
	free(c);
	return rc;
}
