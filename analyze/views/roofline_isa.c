/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What a compute ceiling is, said from the data (roofline.h): one set by the FMA+add mix is named
 * so, with what FMAs alone reached; one no faster than a narrower ISA's of the same op says so.
 * On a Zen 4 guest the avx512 f64 ceiling read 86 GFLOP/s beside avx2's 62, as if the wider
 * vectors gave 1.38x, where FMAs alone ran 57.5 and 58.6: the gain was the mix's twelve add
 * chains beside twelve FMA chains, which 32 registers allow (avx46). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/data.h"
#include "analyze/index.h"
#include "analyze/views/roofline.h"

/* The ISAs of the peak kernel, narrowest first. */
static const char *const an_isas[] = {"scalar", "sse2", "avx2", "avx512"};
#define AN_NISA (sizeof(an_isas) / sizeof(an_isas[0]))

typedef char an_key[112];

/* The key of compute ceiling c under isa and op: its team, ISA, precision, add peak or not
 * and peak op, into buf (';' is in no param value). */
static const char *an_key_of(const struct lab_an_rl_ceil *c, const char *isa, const char *op,
                             char *buf, size_t len)
{
	snprintf(buf, len, "%d;%s;%s;%d;%s", c->threads, isa, c->precision, c->adds, op);
	return buf;
}

/* c's peak op param into buf, "" without one. */
static const char *an_op(const struct lab_an_rl_ceil *c, char *buf, size_t len)
{
	if (!lab_an_params_get(c->pt->params, "op", buf, len))
		buf[0] = '\0';
	return buf;
}

static int an_ci(const struct lab_an_rl_val *v)
{
	return isfinite(v->lo) && isfinite(v->hi);
}

/* Appends a sentence to c's note ("; " between); out of memory, c keeps what it had. */
static void an_note_add(struct lab_an_rl_ceil *c, const char *text)
{
	char *n = NULL;

	if (asprintf(&n, "%s%s%s", c->note ? c->note : "", c->note ? "; " : "", text) < 0)
		return;
	free(c->note);
	c->note = n;
}

/* The fastest FMA-only candidate (peak op=fma, with an interval) of each team, ISA and
 * precision, by key into best; set's keys live in key. Returns 0 or -LAB_ENOMEM. */
static int an_fma_index(const struct lab_an_rl_ceil *cand, size_t n, struct lab_an_strset *set,
                        an_key *key, size_t *best)
{
	char op[32];

	for (size_t i = 0; i < n; i++) {
		const struct lab_an_rl_ceil *c = &cand[i];
		int added = 0;
		size_t g;

		if (c->kind != LAB_AN_RL_COMPUTE || c->adds || !an_ci(&c->v) ||
		    strcmp(an_op(c, op, sizeof(op)), "fma"))
			continue;
		g = lab_an_strset_add(set, an_key_of(c, c->isa, op, key[i], sizeof(key[i])),
		                      &added);
		if (g == (size_t)-1)
			return -LAB_ENOMEM;
		if (added || c->v.median > cand[best[g]].v.median)
			best[g] = i;
	}
	return 0;
}

/* Each ceiling set by the FMA+add mix: named so, and where FMAs alone were clearly slower,
 * what they reached and the share of the roof a loop of FMAs alone can reach. */
static int an_mix_notes(struct lab_an_rl *s, const struct lab_an_rl_ceil *cand, size_t n)
{
	struct lab_an_strset set = {0};
	an_key *key = malloc((n ? n : 1) * sizeof(*key)), k;
	size_t *best = malloc((n ? n : 1) * sizeof(*best)), g;
	int rc = key && best ? an_fma_index(cand, n, &set, key, best) : -LAB_ENOMEM;
	char op[32], text[320];

	for (size_t i = 0; !rc && i < s->nc; i++) {
		struct lab_an_rl_ceil *c = &s->c[i];
		const struct lab_an_rl_ceil *f;

		if (c->kind != LAB_AN_RL_COMPUTE || c->adds ||
		    strcmp(an_op(c, op, sizeof(op)), "fma_add"))
			continue;
		snprintf(c->name + strlen(c->name), sizeof(c->name) - strlen(c->name), " fma+add");
		g = lab_an_strset_find(&set, an_key_of(c, c->isa, "fma", k, sizeof(k)));
		if (g == (size_t)-1 || !an_ci(&c->v) || !((f = &cand[best[g]])->v.hi < c->v.lo))
			continue;
		snprintf(text, sizeof(text),
		         "the FMA+add mix (peak op=fma_add): FMAs alone reached %.4g [%.4g, %.4g] "
		         "GFLOP/s, so a loop of FMAs alone (a dot) reaches at most %.0f %% of this "
		         "roof",
		         f->v.median, f->v.lo, f->v.hi, 100 * f->v.hi / c->v.median);
		an_note_add(c, text);
	}
	lab_an_strset_free(&set);
	free(key);
	free(best);
	return rc;
}

/* The rank of isa among an_isas, -1: another. */
static int an_rank(const char *isa)
{
	for (size_t r = 0; r < AN_NISA; r++)
		if (!strcmp(isa, an_isas[r]))
			return (int)r;
	return -1;
}

/* Each ceiling of a wider ISA whose interval reaches down to a narrower one's of the same
 * team, precision and op says so: its vectors gain nothing at that op here. */
static int an_width_notes(struct lab_an_rl *s)
{
	struct lab_an_strset set = {0};
	an_key *key = malloc((s->nc ? s->nc : 1) * sizeof(*key)), k;
	size_t *at = malloc((s->nc ? s->nc : 1) * sizeof(*at)), g;
	char op[32], text[320];
	int rc = key && at ? 0 : -LAB_ENOMEM, added;

	for (size_t i = 0; !rc && i < s->nc; i++) { /* ceilings are one to a key */
		const struct lab_an_rl_ceil *c = &s->c[i];

		if (c->kind != LAB_AN_RL_COMPUTE)
			continue;
		g = lab_an_strset_add(
		    &set, an_key_of(c, c->isa, an_op(c, op, sizeof(op)), key[i], sizeof(key[i])),
		    &added);
		if (g == (size_t)-1)
			rc = -LAB_ENOMEM;
		else if (added)
			at[g] = i;
	}
	for (size_t i = 0; !rc && i < s->nc; i++) {
		struct lab_an_rl_ceil *c = &s->c[i];
		int r = an_rank(c->isa);

		if (c->kind != LAB_AN_RL_COMPUTE || r < 1 || !an_ci(&c->v) ||
		    !*an_op(c, op, sizeof(op)))
			continue;
		for (int q = r - 1; q >= 0; q--) {
			const struct lab_an_rl_ceil *d;

			g = lab_an_strset_find(&set, an_key_of(c, an_isas[q], op, k, sizeof(k)));
			d = g == (size_t)-1 ? NULL : &s->c[at[g]];
			if (!d || !an_ci(&d->v) || c->v.lo > d->v.hi)
				continue;
			/* clearly below is no "gained nothing" (review46) */
			if (c->v.hi < d->v.lo)
				snprintf(
				    text, sizeof(text),
				    "below the narrower %s ceiling, %.4g [%.4g, %.4g] GFLOP/s by "
				    "the same op (the intervals apart): the wider vectors lost at "
				    "this op here (a lower clock under wide vectors, or a peak "
				    "measured low: run it again)",
				    d->name, d->v.median, d->v.lo, d->v.hi);
			else
				snprintf(
				    text, sizeof(text),
				    "not clearly faster than the narrower %s ceiling, %.4g [%.4g, "
				    "%.4g] GFLOP/s by the same op (the intervals meet): the wider "
				    "vectors gained nothing clear at this op here (a core may run "
				    "a wide op as two narrower halves)",
				    d->name, d->v.median, d->v.lo, d->v.hi);
			an_note_add(c, text);
			break;
		}
	}
	lab_an_strset_free(&set);
	free(key);
	free(at);
	return rc;
}

int lab_an_rl_isa_notes(struct lab_an_rl *s, const struct lab_an_rl_ceil *cand, size_t n)
{
	int rc = an_mix_notes(s, cand, n);

	return rc ? rc : an_width_notes(s);
}
