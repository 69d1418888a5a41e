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

static const struct lab_enum_val plan_counters_choices[] = {
    {"off", LAB_CTR_OFF, "no counters"},
    {"auto", LAB_CTR_AUTO, "count what opens; record why the rest did not"},
    {"require", LAB_CTR_REQUIRE, "a point fails when a requested event cannot be counted"},
    {NULL, 0, NULL},
};

static const struct lab_enum_val plan_onoff_choices[] = {
    {"off", 0, "no"},
    {"on", 1, "yes"},
    {NULL, 0, NULL},
};

static const struct lab_enum_val plan_scaling_choices[] = {
    {"strong", LAB_SCALING_STRONG, "fixed total work; speedup = c(1)/c(N)"},
    {"weak", LAB_SCALING_WEAK, "fixed work per thread; Gustafson"},
    {NULL, 0, NULL},
};

const struct lab_param lab_hparam_table[] = {
    LAB_P_U64(struct lab_hparams, threads, "threads", "1", 1, LAB_THREADS_MAX, "threads",
              "Threads in the team; sweeps like 1..max or 1..64:x2; max = the CPUs this "
              "process may use."),
    LAB_P_STR(struct lab_hparams, placement, "placement", "compact",
              "Where threads go: compact, cores (SMT last), scatter (across packages), "
              "node:N (NUMA node N only), list:0,2,4-7, pairs, or expr:S0:0-3@S1:0-3 (likwid "
              "thread domains N, S, D, C, M; `lab topo` lists them)."),
    LAB_P_U64(struct lab_hparams, reps, "reps", "10", 1, 100000, "", "Timed samples per point."),
    LAB_P_DURATION(struct lab_hparams, warmup, "warmup", "20ms", 0, 60000000000ull,
                   "Untimed running before calibration (caches, frequency, page faults)."),
    LAB_P_DURATION(struct lab_hparams, min_time, "min_time", "20ms", 1000, 600000000000ull,
                   "Shortest sample; the iteration count is calibrated to reach it."),
    LAB_P_U64(struct lab_hparams, seed, "seed", "1", 0, UINT64_MAX, "",
              "Seed for anything random (pair sampling, kernel data)."),
    LAB_P_DOUBLE(struct lab_hparams, load_threshold, "load_threshold", "0.25", 0, 4096, "cpus",
                 "Foreign CPU load during a sample, beyond the CPUs the team leaves idle, above "
                 "which the sample is flagged (limit = load_threshold + CPUs - threads)."),
    LAB_P_DOUBLE(struct lab_hparams, max_runq_wait, "max_runq_wait", "0.05", 0, 1, "",
                 "Share of a sample a worker may wait, runnable, for its own CPU (another task "
                 "took it) before the sample is flagged; 1 never flags."),
    LAB_P_U64(struct lab_hparams, retry_flagged, "retry_flagged", "3", 0, 100, "",
              "Times a flagged sample is taken again (after quiet_wait) before it is kept "
              "flagged."),
    LAB_P_DURATION(struct lab_hparams, quiet_wait, "quiet_wait", "2s", 0, 60000000000ull,
                   "Longest wait for the foreign load to drop before retrying a flagged "
                   "sample."),
    LAB_P_ENUM(struct lab_hparams, scaling, "scaling", "strong", plan_scaling_choices,
               "Kind of scaling series for the analyzer: strong or weak."),
    LAB_P_U64(struct lab_hparams, max_pairs, "max_pairs", "0", 0, 1000000, "pairs",
              "With placement = pairs: sample at most this many CPU pairs (0 = all)."),
    LAB_P_ENUM(struct lab_hparams, counters, "counters", "auto", plan_counters_choices,
               "Performance counters per worker: off, auto or require."),
    LAB_P_STR(struct lab_hparams, events, "events", "sw ipc",
              "Counter presets (sw ipc cache branch topdown flops) and event names, separated "
              "by spaces or '+' (`lab counters` lists them)."),
    LAB_P_STR(struct lab_hparams, membind, "membind", "local",
              "Where the pages of kernel buffers go unless the kernel places them itself: local "
              "(the allocating thread's node), node:N (bound there), interleave (page by page "
              "over the nodes), first_touch (wherever each page is first written)."),
    LAB_P_ENUM(struct lab_hparams, perf_c2c, "perf_c2c", "off", plan_onoff_choices,
               "Run `perf c2c record` on the lab during the point and keep the hottest shared "
               "cache lines (HITMs, offsets, symbols); where perf, the PMU or the permission is "
               "missing the point records why and runs anyway."),
    LAB_P_U64(struct lab_hparams, runs, "runs", "1", 1, 1000, "",
              "Fresh setups of each point (new buffers, first touch, team re-pinned), points "
              "visited in an order shuffled per run; with 2 or more the point's interval comes "
              "from the run means."),
    LAB_P_ENUM(struct lab_hparams, fresh_process, "fresh_process", "off", plan_onoff_choices,
               "A new process per run: not supported yet (off only)."),
    LAB_P_STR(struct lab_hparams, precision, "precision", "off",
              "Target half-width of the 95 % interval of the mean, relative (2% or 0.02): "
              "samples (one run) or runs (runs >= 2) are added by Stein's two-stage rule "
              "until it is met or the budget is spent; off takes reps samples."),
    LAB_P_DURATION(struct lab_hparams, budget, "budget", "20s", 1000000, 86400000000000ull,
                   "Wall time per point a precision target may use, setups included."),
    LAB_P_DURATION(struct lab_hparams, total_budget, "total_budget", "0", 0, 86400000000000ull * 7,
                   "Wall time of the whole run after which precision targets add no more "
                   "samples or runs (set it in [global]; 0 = no total)."),
    LAB_PARAM_END,
};

const char *lab_src_name(enum lab_src src)
{
	static const char *const names[] = {"default", "global", "section", "cli"};

	return names[src];
}

const struct lab_kernel *lab_plan_kernel_find(const struct lab_kernel *const *registry,
                                              const char *name)
{
	for (const struct lab_kernel *const *k = registry; *k; k++)
		if (!strcmp((*k)->name, name))
			return *k;
	return NULL;
}

/* Adds msg to d unless the same line is already there (sweeps repeat errors per point). */
void lab__plan_diag_once(struct lab_diag *d, const char *msg)
{
	for (unsigned i = 0; i < d->n; i++)
		if (!strcmp(d->msg[i], msg))
			return;
	lab_diag_add(d, "%s", msg);
}

/* True when value is text without its surrounding blanks. */
static bool plan_as_written(const char *text, const char *value)
{
	size_t n = strlen(value);

	text += strspn(text, " \t");
	return !strncmp(text, value, n) && !text[n + strspn(text + n, " \t")];
}

void lab__plan_key_error(struct lab_diag *d, const struct lab_experiment *e,
                         const struct lab_resolved *r, const char *value, const char *what)
{
	char *msg = NULL, *detail = NULL;
	int rc;

	/* "threads = 1000..1000" or "max" expand to a value that is not what the line says:
	 * quote the line and name the value. */
	if (!plan_as_written(r->text, value)) {
		if (asprintf(&detail, "value %s: %s", value, what) < 0)
			return;
		value = r->text;
		what = detail;
	}

	if (r->src == LAB_SRC_CLI)
		rc = asprintf(&msg, "--set %s.%s=%s: %s", e->name, r->param->key, value, what);
	else if (r->src == LAB_SRC_DEFAULT)
		rc = asprintf(&msg, "%s:%d: [%s] %s = %s (default): %s", e->file, e->line, e->name,
		              r->param->key, value, what);
	else /* the section that holds the line: [global] for inherited values (said once) */
		rc = asprintf(&msg, "%s:%d: [%s] %s = %s: %s", r->file, r->line,
		              r->src == LAB_SRC_GLOBAL ? "global" : e->name, r->param->key, value,
		              what);
	if (rc >= 0)
		lab__plan_diag_once(d, msg);
	free(msg);
	free(detail);
}

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

struct lab_resolved *lab__plan_key(struct lab_experiment *e, const char *key)
{
	for (unsigned i = 0; i < e->nkeys; i++)
		if (!strcmp(e->keys[i].param->key, key))
			return &e->keys[i];
	return NULL;
}

static void plan_apply(struct lab_experiment *e, const struct lab_cfg_kv *kv, enum lab_src src)
{
	struct lab_resolved *r = lab__plan_key(e, kv->key);

	r->text = kv->value;
	r->src = src;
	r->file = kv->file;
	r->line = kv->line;
}

/* Applies one layer of keys (global, section or --set); unknown keys are errors unless lenient. */
static void plan_layer(struct lab_experiment *e, const struct lab_cfg_kv *kv, unsigned n,
                       enum lab_src src, bool lenient, struct lab_diag *d)
{
	for (unsigned i = 0; i < n; i++) {
		if (!strcmp(kv[i].key, "kernel"))
			continue;
		if (lab__plan_key(e, kv[i].key))
			plan_apply(e, &kv[i], src);
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
	char what[LAB_ERR_MSG_MAX + 96];

	if (r->nvals <= 1) {
		lab__plan_key_error(d, e, r, value, plan_reason(msg, value));
		return;
	}
	snprintf(what, sizeof(what), "value %s: %s", value, plan_reason(msg, value));
	lab__plan_key_error(d, e, r, r->text, what);
}

/*
 * Expands and type-checks every value of every key; returns the number of bad keys. (Not the
 * number of lines added to d: a line already there, from a [global] value another experiment
 * shares, is not added again, and this experiment must still not be planned.)
 */
static unsigned plan_expand_keys(struct lab_experiment *e, const struct lab_env *env,
                                 struct lab_diag *d)
{
	unsigned bad = 0;
	struct lab_err err;
	char scratch[4096] __attribute__((aligned(16)));
	struct lab_placement place;

	LAB_BUG_ON(e->kernel->params_size > sizeof(scratch) ||
	           sizeof(struct lab_hparams) > sizeof(scratch));
	for (unsigned i = 0; i < e->nkeys; i++) {
		struct lab_resolved *r = &e->keys[i];
		int n = lab_sweep_expand(r->param, r->text, env, &r->vals, &err);
		if (n < 0) {
			lab__plan_key_error(d, e, r, r->text, err.msg);
			bad++;
			continue;
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
			    (r->harness &&
			     lab_prec_key_check(r->param->key, val, r->nvals, &err))) {
				plan_value_error(d, e, r, val, err.msg);
				bad++;
				break; /* one error per key: a range would repeat it per value */
			}
		}
	}
	return bad;
}

/* Builds e's resolved keys from the layers; returns false when e has errors. */
static bool plan_resolve(struct lab_experiment *e, const struct lab_cfg *cfg,
                         const struct lab_cfg_section *s, const struct lab_env *env,
                         struct lab_diag *d)
{
	const struct lab_cfg_section *global = lab_cfg_global(cfg, s->file);
	unsigned nh = 0, nk = 0, before = lab_diag_count(d);

	while (lab_hparam_table[nh].key)
		nh++;
	while (e->kernel->params[nk].key)
		nk++;
	e->keys = calloc(nh + nk, sizeof(*e->keys));
	if (!e->keys)
		return false;
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
	return plan_expand_keys(e, env, d) == 0 && lab_diag_count(d) == before;
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
	for (unsigned s = 0; s < cfg->nsec; s++) {
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
		if (!plan_resolve(e, cfg, sec, &plan->env, d))
			continue;
		if (plan_selected(sec->name, only, nonly))
			lab__plan_points(plan, e, topo, d);
	}
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
		for (unsigned k = 0; k < plan->exp[e].nkeys; k++)
			lab_sweep_free(plan->exp[e].keys[k].vals, plan->exp[e].keys[k].nvals);
		free(plan->exp[e].keys);
	}
	for (unsigned i = 0; i < plan->nlessons; i++)
		free(plan->lessons[i].expr);
	free(plan->lessons);
	free(plan->pts);
	free(plan->exp);
	free(plan);
}
