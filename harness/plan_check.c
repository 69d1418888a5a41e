/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Whole-config checks of the planner: [global] keys, --only and --set names, each section's
 * kernel, did-you-mean.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/param.h"
#include "harness/plan_internal.h"

/* The closest known key to key, over the harness table and table, or NULL when none is close.
 * Never key itself: "did you mean 'kernel'?" for 'kernel' helps no one; nothing for a key too
 * long for lab_edit_distance. */
const char *lab__plan_closest(const char *key, const struct lab_param *table)
{
	const struct lab_param *tables[] = {lab_hparam_table, table};
	const char *best = NULL;
	unsigned best_d = ~0u, limit = strlen(key) / 3 + 1;

	if (limit < 2)
		limit = 2;
	if (strlen(key) > LAB_EDIT_DISTANCE_MAX) /* too long to measure: close to nothing */
		return NULL;
	for (unsigned t = 0; t < 2; t++)
		for (const struct lab_param *p = tables[t]; p && p->key; p++) {
			unsigned dist = lab_edit_distance(key, p->key);
			if (dist && dist < best_d) {
				best_d = dist;
				best = p->key;
			}
		}
	unsigned dist = lab_edit_distance(key, "kernel");
	if (dist && dist < best_d) {
		best_d = dist;
		best = "kernel";
	}
	return best_d <= limit ? best : NULL;
}

/* The closest key of any kernel of registry or the harness to key, or NULL when none is close. */
static const char *plan_closest_any(const char *key, const struct lab_kernel *const *registry)
{
	const char *best = lab__plan_closest(key, NULL);
	unsigned best_d = best ? lab_edit_distance(key, best) : ~0u;

	for (const struct lab_kernel *const *k = registry; *k; k++) {
		const char *near = lab__plan_closest(key, (*k)->params);
		if (near && lab_edit_distance(key, near) < best_d) {
			best_d = lab_edit_distance(key, near);
			best = near;
		}
	}
	return best;
}

/* Global keys that no kernel of the registry and no harness key knows. */
void lab__plan_check_globals(const struct lab_cfg *cfg, const struct lab_kernel *const *registry,
                             struct lab_diag *d)
{
	for (unsigned s = 0; s < cfg->nsec; s++) {
		const struct lab_cfg_section *g = &cfg->sec[s];
		if (strcmp(g->name, "global") != 0)
			continue;
		for (unsigned i = 0; i < g->nkv; i++) {
			const char *key = g->kv[i].key;
			bool known =
			    !strcmp(key, "kernel") || lab_param_find(lab_hparam_table, key);
			for (const struct lab_kernel *const *k = registry; *k && !known; k++)
				known = lab_param_find((*k)->params, key) != NULL;
			if (known)
				continue;
			const char *near = plan_closest_any(key, registry);
			if (near)
				lab_diag_add(
				    d, "%s:%d: [global] unknown key '%s' (did you mean '%s'?)",
				    g->kv[i].file, g->kv[i].line, key, near);
			else
				lab_diag_add(
				    d,
				    "%s:%d: [global] unknown key '%s' (allowed the harness "
				    "keys and any kernel's keys; see `lab describe KERNEL`)",
				    g->kv[i].file, g->kv[i].line, key);
		}
	}
}

/*
 * --set global.KEY sets KEY in every experiment that has it: KEY must be a harness key or a key
 * of some kernel, and not `kernel` (each experiment names its own).
 */
static void plan_check_set_global(const struct lab_cfg_kv *kv,
                                  const struct lab_kernel *const *registry, struct lab_diag *d)
{
	bool known = lab_param_find(lab_hparam_table, kv->key) != NULL;

	if (!strcmp(kv->key, "kernel")) {
		lab_diag_add(
		    d,
		    "--set global.kernel=%s: not allowed; set the kernel of one experiment "
		    "(--set NAME.kernel=%s)",
		    kv->value, kv->value);
		return;
	}
	for (const struct lab_kernel *const *k = registry; *k && !known; k++)
		known = lab_param_find((*k)->params, kv->key) != NULL;
	if (known)
		return;
	const char *near = plan_closest_any(kv->key, registry);
	if (near)
		lab_diag_add(d, "--set global.%s=%s: unknown key (did you mean '%s'?)", kv->key,
		             kv->value, near);
	else
		lab_diag_add(d,
		             "--set global.%s=%s: unknown key (allowed the harness keys and any "
		             "kernel's keys; see `lab describe KERNEL`)",
		             kv->key, kv->value);
}

/* "did you mean [x]? allowed: [a], [b], ..." for a name no experiment has: the closest (within
 * a third of its length, at least 2 edits, fewer than its letters) and the experiments, cut
 * with "..." past len. */
static void plan_experiments_text(const struct lab_cfg *cfg, const char *name, char *out,
                                  size_t len)
{
	const char *best = NULL;
	unsigned n = (unsigned)strlen(name), limit = n / 3 + 1 < 2 ? 2 : n / 3 + 1;
	unsigned best_d = (limit < n ? limit : n - 1) + 1; /* "z" is not "x" misspelt */
	size_t used = 0;

	for (unsigned s = 0; s < cfg->nsec; s++) {
		unsigned dist = lab_edit_distance(name, cfg->sec[s].name);
		if (strcmp(cfg->sec[s].name, "global") && strcmp(cfg->sec[s].name, "lessons") &&
		    dist < best_d) {
			best_d = dist;
			best = cfg->sec[s].name;
		}
	}
	out[0] = '\0';
	if (best)
		used = (size_t)snprintf(out, len, "did you mean [%s]? ", best);
	used += (size_t)snprintf(out + (used < len ? used : len - 1),
	                         len - (used < len ? used : len - 1), "allowed:");
	for (unsigned s = 0; s < cfg->nsec && used < len; s++) {
		if (!strcmp(cfg->sec[s].name, "global") || !strcmp(cfg->sec[s].name, "lessons"))
			continue;
		used += (size_t)snprintf(out + used, len - used, " [%s]", cfg->sec[s].name);
	}
	if (used >= len && len > 4)
		memcpy(out + len - 4, "...", 4);
}

/* --only names and --set sections must name experiments (or, for --set, global or lessons). */
void lab__plan_check_names(const struct lab_cfg *cfg, const char *const *only, unsigned nonly,
                           const struct lab_kernel *const *registry, struct lab_diag *d)
{
	for (unsigned i = 0; i < nonly + cfg->nset; i++) {
		const char *name = i < nonly ? only[i] : cfg->set_section[i - nonly];
		bool found = false;
		if (i >= nonly && !strcmp(name, "global")) {
			plan_check_set_global(&cfg->set[i - nonly], registry, d);
			continue;
		}
		if (i >= nonly && !strcmp(name, "lessons"))
			continue; /* --set lessons.NAME=CLAIM adds or replaces a claim */
		for (unsigned s = 0; s < cfg->nsec && !found; s++)
			found = !strcmp(cfg->sec[s].name, name) && strcmp(name, "global") != 0 &&
			        strcmp(name, "lessons") != 0;
		if (found)
			continue;
		char allowed[320];
		plan_experiments_text(cfg, name, allowed, sizeof(allowed));
		if (i < nonly)
			lab_diag_add(d, "--only %s: no experiment [%s] in the config (%s)", name,
			             name, allowed);
		else
			lab_diag_add(d, "--set %s.%s=%s: no experiment [%s] in the config (%s)",
			             name, cfg->set[i - nonly].key, cfg->set[i - nonly].value, name,
			             allowed);
	}
}

/* The kernel of section s: --set s.kernel (the last one), the section's, or [global]'s. */
static const char *plan_kernel_name(const struct lab_cfg *cfg, const struct lab_cfg_section *s,
                                    const struct lab_cfg_section *global,
                                    const struct lab_cfg_kv **at)
{
	const struct lab_cfg_section *layers[] = {s, global};

	for (unsigned i = cfg->nset; i-- > 0;)
		if (!strcmp(cfg->set[i].key, "kernel") && !strcmp(cfg->set_section[i], s->name)) {
			*at = &cfg->set[i];
			return cfg->set[i].value;
		}

	for (unsigned l = 0; l < 2; l++)
		for (unsigned i = 0; layers[l] && i < layers[l]->nkv; i++)
			if (!strcmp(layers[l]->kv[i].key, "kernel")) {
				*at = &layers[l]->kv[i];
				return layers[l]->kv[i].value;
			}
	return NULL;
}

static void plan_kernel_list(const struct lab_kernel *const *registry, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (const struct lab_kernel *const *k = registry; *k && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", k == registry ? "" : ", ",
		                         (*k)->name);
}

const char *lab_plan_kernel_hint(const struct lab_kernel *const *registry, const char *name,
                                 char *buf, size_t len)
{
	const char *best = NULL;
	unsigned best_d = strlen(name) / 3 + 2; /* the limit of plan_closest, plus one */
	char list[512];

	if (best_d < 3)
		best_d = 3;
	if (strlen(name) > LAB_EDIT_DISTANCE_MAX) /* too long to measure: close to nothing */
		best_d = 0;
	for (const struct lab_kernel *const *c = registry; *c; c++)
		if (lab_edit_distance(name, (*c)->name) < best_d) {
			best_d = lab_edit_distance(name, (*c)->name);
			best = (*c)->name;
		}
	plan_kernel_list(registry, list, sizeof(list));
	if (best)
		snprintf(buf, len, "did you mean '%s'?", best);
	else
		snprintf(buf, len, "kernels: %s", list);
	return buf;
}

/*
 * Reports an unknown kernel where it is written: a --set, the section's line, or [global]'s
 * line once for every section that inherits it.
 */
static void plan_unknown_kernel(struct lab_diag *d, const struct lab_cfg_section *s,
                                const struct lab_cfg_kv *at, const char *hint)
{
	char *msg = NULL;
	bool in_section = false;
	int rc;

	for (unsigned i = 0; i < s->nkv && !in_section; i++)
		in_section = &s->kv[i] == at;

	if (!at->line)
		rc = asprintf(&msg, "--set %s.kernel=%s: unknown kernel (%s)", s->name, at->value,
		              hint);
	else
		rc = asprintf(&msg, "%s:%d: [%s] kernel = %s: unknown kernel (%s)", at->file,
		              at->line, in_section ? s->name : "global", at->value, hint);
	if (rc >= 0)
		lab__plan_diag_once(d, msg);
	free(msg);
}

/* Reports at's kernel when registry lacks it, with the closest name; returns the kernel. */
static const struct lab_kernel *plan_kernel_check(const struct lab_cfg_section *s,
                                                  const struct lab_cfg_kv *at,
                                                  const struct lab_kernel *const *registry,
                                                  struct lab_diag *d)
{
	const struct lab_kernel *k = lab_plan_kernel_find(registry, at->value);
	char hint[600];

	if (k)
		return k;
	plan_unknown_kernel(d, s, at,
	                    lab_plan_kernel_hint(registry, at->value, hint, sizeof(hint)));
	return NULL;
}

/* A section without a kernel: said with what was likely meant, a key one or two letters from
 * 'kernel' ("kernl", "Kernel", "KERNEL", "\ufeffkernel"), or [global] / [lessons] written
 * otherwise ([Global]). */
static void plan_missing_kernel(const struct lab_cfg *cfg, const struct lab_cfg_section *s,
                                const struct lab_kernel *const *registry, struct lab_diag *d)
{
	static const char *const special[] = {"global", "lessons"};
	char list[512];

	if (s->refused) /* its refused line may have been the kernel: said once, there */
		return;
	for (unsigned i = 0; i < cfg->nset; i++) /* --set a.KERNEL=noop */
		if (!strcmp(cfg->set_section[i], s->name) && strcmp(cfg->set[i].key, "kernel") &&
		    lab_cfg_kernel_distance(cfg->set[i].key, strlen(cfg->set[i].key)) <= 2) {
			lab_diag_add(
			    d,
			    "%s:%d: [%s]: missing 'kernel = ...' (--set %s.%s: did you mean "
			    "'kernel'?)",
			    s->file, s->line, s->name, s->name, cfg->set[i].key);
			return;
		}
	for (unsigned k = 0; k < s->nkv; k++) {
		if (strcmp(s->kv[k].key, "kernel") &&
		    lab_cfg_kernel_distance(s->kv[k].key, strlen(s->kv[k].key)) <= 2) {
			lab_diag_add(
			    d,
			    "%s:%d: [%s]: missing 'kernel = ...' (line %d has '%s': did you "
			    "mean 'kernel'?)",
			    s->file, s->line, s->name, s->kv[k].line, s->kv[k].key);
			return;
		}
	}
	for (unsigned i = 0; i < 2; i++) {
		unsigned dist = lab_edit_distance(s->name, special[i]);
		if (dist && dist <= 2) {
			lab_diag_add(
			    d,
			    "%s:%d: [%s]: missing 'kernel = ...' (did you mean [%s]? section "
			    "names are case-sensitive)",
			    s->file, s->line, s->name, special[i]);
			return;
		}
	}
	plan_kernel_list(registry, list, sizeof(list));
	lab_diag_add(d, "%s:%d: [%s]: missing 'kernel = ...' (kernels: %s)", s->file, s->line,
	             s->name, list);
}

/* Finds the section's kernel; reports a missing or unknown one. */
const struct lab_kernel *lab__plan_section_kernel(const struct lab_cfg *cfg,
                                                  const struct lab_cfg_section *s,
                                                  const struct lab_cfg_section *global,
                                                  const struct lab_kernel *const *registry,
                                                  struct lab_diag *d)
{
	const struct lab_cfg_kv *at = NULL;
	const char *name = plan_kernel_name(cfg, s, global, &at);

	if (!name) {
		plan_missing_kernel(cfg, s, registry, d);
		return NULL;
	}
	return plan_kernel_check(s, at, registry, d);
}

/* A [global] kernel is checked where it is written, even when every section names its own. */
void lab__plan_global_kernels(const struct lab_cfg *cfg, const struct lab_kernel *const *registry,
                              struct lab_diag *d)
{
	for (unsigned i = 0; i < cfg->nsec; i++) {
		const struct lab_cfg_section *g = &cfg->sec[i];
		for (unsigned k = 0; !strcmp(g->name, "global") && k < g->nkv; k++)
			if (!strcmp(g->kv[k].key, "kernel"))
				plan_kernel_check(g, &g->kv[k], registry, d);
	}
}
