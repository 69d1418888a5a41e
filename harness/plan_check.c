/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Whole-config checks of the planner: [global] keys, --only and --set names, did-you-mean. */
#include <stdbool.h>
#include <string.h>

#include "harness/param.h"
#include "harness/plan_internal.h"

/* The closest known key to key, over the harness table and table, or NULL when none is close. */
const char *lab__plan_closest(const char *key, const struct lab_param *table)
{
	const struct lab_param *tables[] = {lab_hparam_table, table};
	const char *best = NULL;
	unsigned best_d = ~0u, limit = strlen(key) / 3 + 1;

	if (limit < 2)
		limit = 2;
	for (unsigned t = 0; t < 2; t++)
		for (const struct lab_param *p = tables[t]; p && p->key; p++) {
			unsigned dist = lab_edit_distance(key, p->key);
			if (dist < best_d) {
				best_d = dist;
				best = p->key;
			}
		}
	if (lab_edit_distance(key, "kernel") < best_d) {
		best_d = lab_edit_distance(key, "kernel");
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

/* --only names and --set sections must name experiments. */
void lab__plan_check_names(const struct lab_cfg *cfg, const char *const *only, unsigned nonly,
                           struct lab_diag *d)
{
	for (unsigned i = 0; i < nonly + cfg->nset; i++) {
		const char *name = i < nonly ? only[i] : cfg->set_section[i - nonly];
		bool found = false;
		for (unsigned s = 0; s < cfg->nsec && !found; s++)
			found = !strcmp(cfg->sec[s].name, name) && strcmp(name, "global") != 0;
		if (found)
			continue;
		if (i < nonly)
			lab_diag_add(d, "--only %s: no experiment [%s] in the config", name, name);
		else
			lab_diag_add(d, "--set %s.%s=%s: no experiment [%s] in the config", name,
			             cfg->set[i - nonly].key, cfg->set[i - nonly].value, name);
	}
}
