/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Resolution and validation of experiments: which key wins, from where, and is it valid. */
#include "harness/plan.h"

#include <stdlib.h>
#include <string.h>

#include "harness/counters.h"
#include "harness/env.h"
#include "harness/membind.h"
#include "harness/param.h"
#include "harness/plan_internal.h"
#include "harness/precision.h"

static void plan_unknown_key(struct lab_diag *d, const struct lab_experiment *e,
                             const struct lab_cfg_kv *kv)
{
	const char *near = lab__plan_closest(kv->key, e->kernel->params);
	char hint[128] = "";

	if (near)
		snprintf(hint, sizeof(hint), " (did you mean '%s'?)", near);
	else
		snprintf(hint, sizeof(hint), " (see `lab describe %s`)", e->kernel->name);
	if (kv->line == 0)
		lab_diag_add(d, "--set %s.%s=%s: unknown key '%s' for kernel '%s'%s", e->name,
		             kv->key, kv->value, kv->key, e->kernel->name, hint);
	else
		lab_diag_add(d, "%s:%d: [%s] unknown key '%s' for kernel '%s'%s", kv->file,
		             kv->line, e->name, kv->key, e->kernel->name, hint);
}

static void plan_apply(struct lab_experiment *e, const struct lab_cfg_kv *kv, enum lab_src src,
                       bool set_global)
{
	struct lab_resolved *r = lab__plan_key(e, kv->key);

	if (src == LAB_SRC_CLI && r->src != LAB_SRC_CLI)
		r->cfg_text = r->text;
	r->text = kv->value;
	r->src = src;
	r->set_global = set_global;
	r->file = kv->file;
	r->line = kv->line;
}

/* Applies one layer of keys (global, section or --set); unknown keys are errors unless lenient
 * (a [global] or --set global key may be another kernel's). */
static void plan_layer(struct lab_experiment *e, const struct lab_cfg_kv *kv, unsigned n,
                       enum lab_src src, bool lenient, struct lab_diag *d)
{
	bool set_global = src == LAB_SRC_CLI && lenient;

	for (unsigned i = 0; i < n; i++) {
		if (!strcmp(kv[i].key, "kernel") || kv[i].reported)
			continue;
		if (lab__plan_key(e, kv[i].key))
			plan_apply(e, &kv[i], src, set_global);
		else if (!lenient)
			plan_unknown_key(d, e, &kv[i]);
	}
}

/* The reason in msg without a leading "placement 'VALUE': " that would repeat the value. */
static const char *plan_reason(const char *msg, const char *value)
{
	size_t n = strlen(value);

	if (!strncmp(msg, "placement '", 11) && !strncmp(msg + 11, value, n) &&
	    !strncmp(msg + 11 + n, "': ", 3))
		return msg + 11 + n + 3;
	return msg;
}

/*
 * Reports the first bad value of a key. A value that came out of a sweep is named after the
 * text as written, so the message points at what is on the line.
 */
static void plan_value_error(struct lab_diag *d, const struct lab_experiment *e,
                             const struct lab_resolved *r, const char *value, const char *msg)
{
	char *what = NULL;

	if (r->nvals <= 1) {
		lab__plan_key_error(d, e, r, value, plan_reason(msg, value));
		return;
	}
	/* unbounded here: the diagnostic line is clipped as a whole, keeping the reason at its end
	 */
	if (asprintf(&what, "value %s: %s", value, plan_reason(msg, value)) >= 0)
		lab__plan_key_error(d, e, r, r->text, what);
	else
		lab__plan_diag_once(d, "lab: out of memory while planning");
	free(what);
}

/*
 * min_cpus more than the CPUs this process may use: e's points are all skipped (cpus_short), and
 * its keys expand as on a machine of min_cpus CPUs (threads = 2..max is one point, not an empty
 * range), through *scratch; else env itself. A bad or swept min_cpus is reported with the other
 * keys' errors.
 */
static const struct lab_env *plan_min_cpus(struct lab_experiment *e, const struct lab_env *env,
                                           struct lab_env *scratch)
{
	const struct lab_resolved *r = lab__plan_key(e, "min_cpus");
	struct lab_err err;
	uint64_t v;

	if (lab_parse_u64(r->text, &v, &err) || v > LAB_THREADS_MAX || v <= env->ncpus)
		return env;
	e->cpus_short = (unsigned)v;
	*scratch = *env;
	scratch->ncpus = (unsigned)v;
	return scratch;
}

/* A [global] (or --set global.) value as one kernel's or the harness's key expanded it, for
 * every later experiment that inherits it: a [global] of long sweeps costs its expansion once,
 * not once per section. */
struct plan_memo {
	const struct lab_param *param;
	const char *text; /* the config's own string: one line, one pointer */
	unsigned ncpus;   /* of the env it expanded on (min_cpus can change it) */
	char **vals;      /* owned by the experiment that expanded it first */
	unsigned nvals;
	bool bad; /* reported, at the line of the value */
};

struct plan_memos {
	struct plan_memo *m;
	unsigned n, cap;
};

/* A [global] or --set global. value: expanded once, for every section that inherits it. */
static bool plan_inherited(const struct lab_resolved *r)
{
	return r->src == LAB_SRC_GLOBAL || (r->src == LAB_SRC_CLI && r->set_global);
}

static struct plan_memo *plan_memo_find(struct plan_memos *ms, const struct lab_resolved *r,
                                        const struct lab_env *env)
{
	if (!plan_inherited(r))
		return NULL;
	for (unsigned i = 0; i < ms->n; i++)
		if (ms->m[i].param == r->param && ms->m[i].text == r->text &&
		    ms->m[i].ncpus == env->ncpus)
			return &ms->m[i];
	return NULL;
}

/* Remembers r's expansion when it is inherited; without memory it is only not shared. */
static void plan_memo_add(struct plan_memos *ms, const struct lab_resolved *r,
                          const struct lab_env *env, bool bad)
{
	if (!plan_inherited(r))
		return;
	if (ms->n == ms->cap) {
		unsigned cap = ms->cap ? 2 * ms->cap : 16;
		struct plan_memo *grown = realloc(ms->m, cap * sizeof(*grown));
		if (!grown)
			return;
		ms->m = grown;
		ms->cap = cap;
	}
	ms->m[ms->n++] = (struct plan_memo){r->param, r->text, env->ncpus, r->vals, r->nvals, bad};
}

/* Expands and type-checks every value of r; returns false after reporting its first error. */
static bool plan_expand_key(struct lab_experiment *e, struct lab_resolved *r,
                            const struct lab_env *env, struct lab_diag *d)
{
	struct lab_err err;
	char scratch[4096] __attribute__((aligned(16)));
	struct lab_placement place;

	LAB_BUG_ON(e->kernel->params_size > sizeof(scratch) ||
	           sizeof(struct lab_hparams) > sizeof(scratch));
	int n = lab_sweep_expand(r->param, r->text, env, &r->vals, &err);
	if (n < 0) {
		lab__plan_key_error(d, e, r, r->text, err.msg);
		return false;
	}
	r->nvals = (unsigned)n;
	for (unsigned v = 0; v < r->nvals; v++) {
		const char *val = r->vals[v];
		if (lab_param_parse(r->param, val, scratch, &err) ||
		    (r->harness && !strcmp(r->param->key, "placement") &&
		     lab_placement_parse(val, &place, &err)) ||
		    (r->harness && !strcmp(r->param->key, "events") &&
		     lab_ctr_req_parse(val, NULL, &err)) ||
		    (r->harness && !strcmp(r->param->key, "membind") &&
		     lab_membind_parse(val, &(struct lab_membind){0}, &err)) ||
		    (r->harness && lab_prec_key_check(r->param->key, val, r->nvals, &err)) ||
		    (r->harness && !strcmp(r->param->key, "min_cpus") && r->nvals > 1 &&
		     lab_err_set(&err, LAB_ECONFIG, "does not sweep (allowed: one value)")) ||
		    /* the whole run's: a section's own was checked by its points alone while the
		     * estimate took the smallest */
		    (r->harness && !strcmp(r->param->key, "total_budget") &&
		     (r->src == LAB_SRC_SECTION || (r->src == LAB_SRC_CLI && !r->set_global)) &&
		     lab_err_set(
		         &err, LAB_ECONFIG,
		         "is the whole run's wall time (allowed: in [global] only, or --set "
		         "global.total_budget=...)")) ||
		    /* a run setting is no part of a point's identity: points that differ only in it
		     * (min_time = 2ms, 20ms) were one series and matched each other in compare */
		    (r->harness && r->nvals > 1 && !lab__plan_point_key(r->param->key) &&
		     lab_err_set(
		         &err, LAB_ECONFIG,
		         "does not sweep: points that differ only in a run setting cannot be "
		         "told apart (allowed: one value, or an experiment per value)"))) {
			plan_value_error(d, e, r, val, err.msg);
			return false; /* one error per key: a range would repeat it per value */
		}
	}
	return true;
}

/*
 * The points e's keys name, counted before any value of e's own is made: a range by its bounds,
 * a list by its items, before duplicates drop (as the limit of values per key counts them); an
 * inherited value already expanded, by its values. Saturates at UINT64_MAX. counted[k] is false
 * for a key whose text does not count (its expansion reports why).
 */
static uint64_t plan_count(const struct lab_experiment *e, const struct lab_env *env,
                           struct plan_memos *ms, bool *counted)
{
	uint64_t total = 1;
	struct lab_err err;

	for (unsigned k = 0; k < e->nkeys; k++) {
		const struct lab_resolved *r = &e->keys[k];
		const struct plan_memo *m = plan_memo_find(ms, r, env);
		uint64_t n = 1;

		counted[k] = true;
		if (m)
			n = m->nvals ? m->nvals : 1;
		else if (lab_sweep_count(r->param, r->text, env, &n, &err))
			counted[k] = false;
		if (!counted[k] || lab__plan_pairs_fixed(e, k))
			n = 1;
		if (__builtin_mul_overflow(total, n, &total))
			total = UINT64_MAX;
	}
	return total;
}

/*
 * Expands and type-checks every value of every key; returns the number of bad keys. (Not the
 * number of lines added to d: a line already there, from a [global] value another experiment
 * shares, is not added again, and this experiment must still not be planned.) *points: in, the
 * points e may have (UINT64_MAX: no limit); out, 0, or the points e's keys name when that is
 * more: then the values of e's own keys are not made (nvals 0), only the inherited ones, and
 * the keys whose text does not count, to report why.
 */
static unsigned plan_expand_keys(struct lab_experiment *e, const struct lab_env *env,
                                 struct plan_memos *ms, uint64_t *points, struct lab_diag *d)
{
	unsigned bad = 0;
	struct lab_env short_env;
	bool counted[64] = {0};

	LAB_BUG_ON(e->nkeys > 64);
	env = plan_min_cpus(e, env, &short_env);
	uint64_t total = *points == UINT64_MAX ? 0 : plan_count(e, env, ms, counted);
	bool refused = total > *points;
	*points = refused ? total : 0;
	for (unsigned i = 0; i < e->nkeys; i++) {
		struct lab_resolved *r = &e->keys[i];
		const struct plan_memo *m = plan_memo_find(ms, r, env);
		if (m) { /* its error, if any, is on d already, said once at the [global] line */
			r->vals = m->vals;
			r->nvals = m->nvals;
			r->shared = true;
			bad += m->bad;
			continue;
		}
		if (refused && counted[i] && !plan_inherited(r))
			continue; /* too many points: its values are not made */
		bool ok = plan_expand_key(e, r, env, d);
		bad += !ok;
		plan_memo_add(ms, r, env, !ok);
	}
	return bad;
}

/* Builds e's resolved keys from the layers: 0 when e has no error, 1 when every key e has took
 * a valid value but the section had another error (an unknown key: its points can still be
 * checked, so that one error does not hide the kernel's), -1 otherwise. *points as for
 * plan_expand_keys. */
static int plan_resolve(struct lab_experiment *e, const struct lab_cfg *cfg,
                        const struct lab_cfg_section *s, const struct lab_env *env,
                        struct plan_memos *ms, uint64_t *points, struct lab_diag *d)
{
	const struct lab_cfg_section *global = lab_cfg_global(cfg, s->file);
	unsigned nh = 0, nk = 0, before = lab_diag_count(d);

	while (lab_hparam_table[nh].key)
		nh++;
	while (e->kernel->params[nk].key)
		nk++;
	e->keys = calloc(nh + nk, sizeof(*e->keys));
	if (!e->keys)
		return -1;
	e->nkeys = nh + nk;
	for (unsigned i = 0; i < nh + nk; i++) {
		struct lab_resolved *r = &e->keys[i];
		r->harness = i < nh;
		r->param = r->harness ? &lab_hparam_table[i] : &e->kernel->params[i - nh];
		r->text = r->param->def;
		r->src = LAB_SRC_DEFAULT;
	}
	if (global)
		plan_layer(e, global->kv, global->nkv, LAB_SRC_GLOBAL, true, d);
	plan_layer(e, s->kv, s->nkv, LAB_SRC_SECTION, false, d);
	/* --set global.KEY: every experiment whose keys have KEY; --set NAME.KEY wins over it. */
	for (unsigned i = 0; i < cfg->nset; i++)
		if (!strcmp(cfg->set_section[i], "global"))
			plan_layer(e, &cfg->set[i], 1, LAB_SRC_CLI, true, d);
	for (unsigned i = 0; i < cfg->nset; i++)
		if (!strcmp(cfg->set_section[i], s->name))
			plan_layer(e, &cfg->set[i], 1, LAB_SRC_CLI, false, d);
	/* Unknown keys do not hide the other keys' errors: validation reports everything once. */
	if (plan_expand_keys(e, env, ms, points, d) != 0)
		return -1;
	return lab_diag_count(d) == before ? 0 : 1;
}

/* True when some experiment took kv's value (a value is its line's own string). */
static bool plan_value_taken(const struct lab_plan *plan, const struct lab_cfg_kv *kv)
{
	for (unsigned e = 0; e < plan->nexp; e++)
		for (unsigned k = 0; k < plan->exp[e].nkeys; k++)
			if (plan->exp[e].keys[k].text == kv->value)
				return true;
	return false;
}

/*
 * A [global] or --set global. value that no experiment takes (no kernel of the config has the
 * key, or every section sets its own) is still checked: it must be a valid value of the key for
 * at least one kernel that declares it (or the harness); else the first kernel's reason is
 * reported at its line. size = banana is a mistake whether or not a section uses it.
 */
static void plan_check_untaken(const struct lab_plan *plan, const struct lab_cfg_kv *kv, bool cli,
                               const struct lab_kernel *const *registry, struct lab_diag *d)
{
	struct lab_diag first = {0}, tmp = {0};
	bool ok = false;

	if (!strcmp(kv->key, "kernel") || kv->reported || plan_value_taken(plan, kv))
		return;
	for (const struct lab_kernel *const *k = registry; *k && !ok; k++) {
		const struct lab_param *p = lab_param_find(lab_hparam_table, kv->key);
		bool harness = p != NULL;
		if (!p)
			p = lab_param_find((*k)->params, kv->key);
		if (!p)
			continue;
		struct lab_experiment e = {.name = "global", .kernel = *k};
		struct lab_resolved r = {.param = p,
		                         .harness = harness,
		                         .text = kv->value,
		                         .src = cli ? LAB_SRC_CLI : LAB_SRC_GLOBAL,
		                         .set_global = cli,
		                         .file = kv->file,
		                         .line = kv->line};
		ok = plan_expand_key(&e, &r, &plan->env, first.n ? &tmp : &first);
		lab_sweep_free(r.vals, r.nvals);
		if (harness)
			break; /* one table for every kernel */
	}
	if (!ok && first.n)
		lab_diag_add_once(d, "%s", first.msg[0]);
	lab_diag_free(&first);
	lab_diag_free(&tmp);
}

/* plan_check_untaken for every [global] value and every --set global. value. */
static void plan_check_globals_untaken(const struct lab_plan *plan, const struct lab_cfg *cfg,
                                       const struct lab_kernel *const *registry, struct lab_diag *d)
{
	for (unsigned s = 0; s < cfg->nsec; s++)
		for (unsigned i = 0; !strcmp(cfg->sec[s].name, "global") && i < cfg->sec[s].nkv;
		     i++)
			plan_check_untaken(plan, &cfg->sec[s].kv[i], false, registry, d);
	for (unsigned i = 0; i < cfg->nset; i++)
		if (!strcmp(cfg->set_section[i], "global"))
			plan_check_untaken(plan, &cfg->set[i], true, registry, d);
}

static bool plan_selected(const char *name, const char *const *only, unsigned nonly)
{
	if (!nonly)
		return true;
	for (unsigned i = 0; i < nonly; i++)
		if (!strcmp(only[i], name))
			return true;
	return false;
}

int lab_plan_build(struct lab_plan **out, const struct lab_cfg *cfg,
                   const struct lab_kernel *const *registry, const struct lab_topo *topo,
                   const char *const *only, unsigned nonly, struct lab_diag *d, struct lab_err *err)
{
	struct lab_plan *plan = calloc(1, sizeof(*plan));
	unsigned before = lab_diag_count(d);
	struct plan_memos memos = {0};

	if (!plan)
		return lab_err_set(err, LAB_ENOMEM, "out of memory planning");
	/* A bad LAB_CPU_MASK is a usage error like a bad key: reported, nothing runs. */
	if (lab_env_probe(&plan->env, topo, err) != 0)
		lab_diag_add(d, "%s", err->msg);
	plan->exp = calloc(cfg->nsec ? cfg->nsec : 1, sizeof(*plan->exp));
	if (!plan->exp) {
		free(plan);
		return lab_err_set(err, LAB_ENOMEM, "out of memory planning");
	}
	lab__plan_check_names(cfg, only, nonly, registry, d);
	lab__plan_check_globals(cfg, registry, d);
	lab__plan_global_kernels(cfg, registry, d);
	/* each experiment has a point: past the cap the rest cannot run, said before any is
	 * planned (100,001 sections took 3.4 s and 627 MB to be refused) */
	unsigned nexp = 0;
	for (unsigned s = 0; s < cfg->nsec && nexp <= LAB_POINTS_MAX; s++) {
		const struct lab_cfg_section *sec = &cfg->sec[s];
		if (strcmp(sec->name, "global") && strcmp(sec->name, "lessons") &&
		    ++nexp > LAB_POINTS_MAX)
			lab_diag_add(
			    d,
			    "%s:%d: [%s]: more than %d experiments (allowed at most %d points "
			    "in all, one at least per experiment)",
			    sec->file, sec->line, sec->name, LAB_POINTS_MAX, LAB_POINTS_MAX);
	}
	for (unsigned s = 0; s < cfg->nsec && nexp <= LAB_POINTS_MAX; s++) {
		const struct lab_cfg_section *sec = &cfg->sec[s];
		if (!strcmp(sec->name, "global") || !strcmp(sec->name, "lessons"))
			continue;
		const struct lab_kernel *k =
		    lab__plan_section_kernel(cfg, sec, lab_cfg_global(cfg, sec->file), registry, d);
		if (!k)
			continue;
		struct lab_experiment *e = &plan->exp[plan->nexp++];
		*e = (struct lab_experiment){
		    .name = sec->name, .file = sec->file, .line = sec->line, .kernel = k};
		/* A selected experiment's points are counted before its values are made (its
		 * combinations where a key does not apply everywhere: its points, fewer, are
		 * counted by lab__plan_points); not on the stand-in, whose 1024 CPUs can make too
		 * many of threads = 1..max: there the values are still checked, and
		 * lab__plan_points says nothing of the count. */
		bool selected = plan_selected(sec->name, only, nonly);
		uint64_t points = !selected || lab_topo_is_standin(topo) ? UINT64_MAX
		                  : lab_kernel_has_applies(k)            ? LAB_COMBOS_MAX
		                                              : LAB_POINTS_MAX - plan->npts;
		int resolved = plan_resolve(e, cfg, sec, &plan->env, &memos, &points, d);
		if (resolved < 0 || (resolved > 0 && points))
			continue;
		if (points)
			lab__plan_refuse(plan, e, topo, points, d);
		else if (selected)
			lab__plan_points(plan, e, topo, d);
	}
	free(memos.m);
	plan_check_globals_untaken(plan, cfg, registry, d);
	lab__plan_lessons(plan, cfg, d);
	if (lab_diag_count(d) == 0 && plan->nexp == 0)
		lab_diag_add(d, "%s: no experiments (add a section like [name] with kernel = noop)",
		             cfg->nfiles ? cfg->files[0] : "config");
	if (lab_diag_count(d) != before) {
		lab_plan_free(plan);
		return -LAB_ECONFIG;
	}
	*out = plan;
	return 0;
}

void lab_plan_free(struct lab_plan *plan)
{
	if (!plan)
		return;
	for (unsigned i = 0; i < plan->npts; i++) {
		free(plan->pts[i].kparams);
		free(plan->pts[i].cpus);
		free(plan->pts[i].params_text);
	}
	for (unsigned e = 0; e < plan->nexp; e++) {
		for (unsigned k = 0; k < plan->exp[e].nkeys; k++) {
			if (!plan->exp[e].keys[k].shared)
				lab_sweep_free(plan->exp[e].keys[k].vals,
				               plan->exp[e].keys[k].nvals);
			free(plan->exp[e].keys[k].refused);
		}
		free(plan->exp[e].keys);
	}
	for (unsigned i = 0; i < plan->nlessons; i++) {
		free(plan->lessons[i].expr);
		free(plan->lessons[i].unplanned);
	}
	free(plan->lessons);
	free(plan->pts);
	free(plan->exp);
	free(plan);
}
