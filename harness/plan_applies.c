/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Keys that apply only at some values of another (false_sharing's stride: layout = stride): the
 * section's check, the count of the points they leave, and the combinations they collapse. */
#include <stdio.h>

#include "harness/param.h"
#include "harness/plan_internal.h"

/* The key r applies at some values of (false_sharing's stride: layout), or NULL where r is a
 * harness key or applies everywhere. */
static struct lab_resolved *plan_cond_key(struct lab_experiment *e, const struct lab_resolved *r)
{
	char key[64];

	return r->harness || !r->param->applies
	           ? NULL
	           : lab__plan_key(e, lab_param_applies_key(r->param, key, sizeof(key)));
}

/* Whether r applies at one of c's values vals[0..n). kparams: scratch. */
static bool plan_applies_any(const struct lab_experiment *e, const struct lab_resolved *r,
                             const struct lab_resolved *c, char **vals, unsigned n, void *kparams)
{
	struct lab_err err;

	for (unsigned v = 0; v < n; v++) {
		if (lab_param_parse(c->param, vals[v], kparams, &err) != 0)
			return true; /* a value a --set replaced, never checked: not r's error */
		if (lab_param_applies(e->kernel->params, r->param, kparams))
			return true;
	}
	return false;
}

/*
 * A kernel key that applies only at some values of another (false_sharing's stride: layout =
 * stride) is refused where set in the section for points none of which it applies to: it would
 * change nothing. Where a --set narrowed the key it depends on (layout = struct on a config that
 * sweeps stride), the config's own values count too: the config was written for them. A
 * [global] value is for the experiments whose points take it; a sweep of it plans the points it
 * does not apply to once (plan_combination). kparams: scratch.
 */
void lab__plan_applies_check(struct lab_experiment *e, const struct lab_env *env, void *kparams,
                             struct lab_diag *d)
{
	char where[128], what[400];

	for (unsigned k = 0; k < e->nkeys; k++) {
		const struct lab_resolved *r = &e->keys[k];
		const struct lab_resolved *c = NULL;
		bool applies = false;

		if (r->harness || !r->param->applies || r->src == LAB_SRC_DEFAULT ||
		    r->src == LAB_SRC_GLOBAL || (r->src == LAB_SRC_CLI && r->set_global))
			continue;
		c = plan_cond_key(e, r);
		LAB_BUG_ON(!c); /* tests/unit/test_registry: every applies names an enum key */
		applies = plan_applies_any(e, r, c, c->vals, c->nvals, kparams);
		if (!applies && c->src == LAB_SRC_CLI && r->src != LAB_SRC_CLI && c->cfg_text) {
			char **vals = NULL;
			struct lab_err err;
			int n = lab_sweep_expand(c->param, c->cfg_text, env, &vals, &err);
			applies = n <= 0 || plan_applies_any(e, r, c, vals, (unsigned)n, kparams);
			if (n > 0)
				lab_sweep_free(vals, (unsigned)n);
		}
		if (applies)
			continue;
		lab_param_applies_text(r->param, where, sizeof(where));
		snprintf(what, sizeof(what),
		         "changes nothing here: %s applies only where %s (this experiment has %s = "
		         "%s; allowed: leave %s out, or set %s)",
		         r->param->key, where, c->param->key, c->text, r->param->key, where);
		lab__plan_key_error(d, e, r, r->text, what);
	}
}

/*
 * The points of the combinations of e's swept keys order[0..nd) that plan_values keeps: a key
 * that applies only at some values of another counts its values where it applies and once
 * elsewhere (3 layouts x 512 strides are 512 + 2 points, not 1536). Summed over every
 * combination of the keys others depend on (enums: a few values each); total, the plain
 * product, when there are none or too many of those. kparams: scratch. Saturates.
 */
uint64_t lab__plan_applying_count(struct lab_experiment *e, const unsigned *order, unsigned nd,
                                  void *kparams, uint64_t total)
{
	bool cond[64] = {false};
	unsigned conds[64], nc = 0, idx[64] = {0};
	uint64_t combos = 1, sum = 0;
	struct lab_err err;

	for (unsigned i = 0; i < nd; i++) {
		const struct lab_resolved *r = &e->keys[order[i]];
		const struct lab_resolved *c = plan_cond_key(e, r);
		if (c && !cond[c - e->keys]) {
			cond[c - e->keys] = true;
			conds[nc++] = (unsigned)(c - e->keys);
			combos = combos > 4096 ? combos : combos * c->nvals; /* no wrap */
		}
	}
	if (!nc || combos > 4096)
		return total;
	for (uint64_t k = 0; k < combos; k++) {
		uint64_t rest = k, prod = 1;
		for (unsigned j = 0; j < nc; j++) {
			const struct lab_resolved *c = &e->keys[conds[j]];
			idx[j] = (unsigned)(rest % c->nvals);
			rest /= c->nvals;
			LAB_BUG_ON(lab_param_parse(c->param, c->vals[idx[j]], kparams, &err) != 0);
		}
		for (unsigned i = 0; i < nd; i++) {
			const struct lab_resolved *r = &e->keys[order[i]];
			uint64_t n = cond[order[i]] ? 1 : r->nvals;
			if (!r->harness && r->param->applies &&
			    !lab_param_applies(e->kernel->params, r->param, kparams))
				n = 1;
			if (__builtin_mul_overflow(prod, n, &prod))
				prod = UINT64_MAX;
		}
		sum = prod > UINT64_MAX - sum ? UINT64_MAX : sum + prod;
	}
	return sum;
}

void lab__plan_skip_init(struct lab__plan_skip *s, struct lab_experiment *e, void *kparams)
{
	struct lab_err err;

	for (unsigned k = 0; k < e->nkeys; k++) {
		const struct lab_resolved *r = &e->keys[k];
		const struct lab_resolved *c = plan_cond_key(e, r);
		s->cond[k] = c && c->nvals <= 64 ? (int)(c - e->keys) : -1;
		s->at[k] = 0;
		for (unsigned v = 0; s->cond[k] >= 0 && v < c->nvals; v++) {
			LAB_BUG_ON(lab_param_parse(c->param, c->vals[v], kparams, &err) != 0);
			if (lab_param_applies(e->kernel->params, r->param, kparams))
				s->at[k] |= 1ull << v;
		}
	}
}

/* Whether the combination vidx repeats a point plan_values drops (a value past the first of a
 * key where it does not apply), told without parsing a value: a sweep of 4,096 strides beside
 * struct layouts walked 1.5 million such combinations in 5 s. */
bool lab__plan_skipped(const struct lab__plan_skip *s, const struct lab_experiment *e,
                       const unsigned *vidx)
{
	for (unsigned k = 0; k < e->nkeys; k++)
		if (vidx[k] && s->cond[k] >= 0 && !(s->at[k] >> vidx[s->cond[k]] & 1))
			return true;
	return false;
}
