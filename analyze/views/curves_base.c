/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The speedup column of the curves (curves.h): baseline cost / this cost, Fieller interval. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/levels.h"
#include "analyze/views/curves.h"
#include "analyze/views/view.h"

static int an_usable(const struct lab_an_point *q)
{
	return !strcmp(q->status, "ok") && q->st.n > 0 && q->st.mean > 0;
}

/* A baseline's key against slot: its point's experiment, params (without curve[0] in the base
 * index) and, when the spec asks, threads. */
struct an_bkey {
	const struct lab_an_cv_bases *b;
	int which, threads;
	const char *exp, *key;
};

static int an_base_same(const void *ctx, size_t slot)
{
	const struct an_bkey *k = ctx;
	size_t i = k->b->pt[k->which][slot];
	const struct lab_an_point *q = &k->b->d->pt[i];

	lab_an_view_probe();
	return !strcmp(q->experiment, k->exp) &&
	       !strcmp(k->which == 1 ? q->params : k->b->rest[i], k->key) &&
	       (!k->b->s->base_same_threads || q->threads == k->threads);
}

/* The slot of (exp, key, threads) in index which, or (size_t)-1; *h its hash. */
static size_t an_bfind(const struct lab_an_cv_bases *b, int which, const char *exp, const char *key,
                       int threads, uint64_t *h)
{
	struct an_bkey k = {b, which, threads, exp, key};

	*h = lab_an_view_key(exp, key, b->s->base_same_threads ? threads : 0);
	return lab_an_index_find(&b->ix[which], *h, an_base_same, &k);
}

/* Point i under key in index which: a new slot, or the slot's point when i has fewer threads
 * (the first seen of equal ones stays). Returns 0 or -LAB_ENOMEM. */
static int an_badd(struct lab_an_cv_bases *b, int which, size_t i, const char *key, size_t *cap)
{
	const struct lab_an_point *q = &b->d->pt[i];
	uint64_t h;
	size_t slot = an_bfind(b, which, q->experiment, key, q->threads, &h);

	if (slot != (size_t)-1) {
		if (q->threads < b->d->pt[b->pt[which][slot]].threads)
			b->pt[which][slot] = i;
		return 0;
	}
	if (lab_an_grow(&b->pt[which], cap, b->n[which] + 1, sizeof(size_t)) ||
	    lab_an_index_add(&b->ix[which], h, b->n[which]))
		return -LAB_ENOMEM;
	b->pt[which][b->n[which]++] = i;
	return 0;
}

int lab_an_cv_bases_init(struct lab_an_cv_bases *b, const struct lab_an_cv_spec *s,
                         const struct lab_an_data *d)
{
	size_t cap[3] = {0, 0, 0};
	int any = 0, rc = 0;
	char val[128];

	memset(b, 0, sizeof(*b));
	b->s = s;
	b->d = d;
	for (size_t c = 0; c < s->ncol; c++)
		any |= s->col[c].src == LAB_AN_CV_SPEEDUP;
	if (!any)
		return 0;
	if (!(b->rest = calloc(d->npt ? d->npt : 1, sizeof(*b->rest))))
		return -LAB_ENOMEM;
	for (size_t i = 0; i < d->npt && !rc; i++) {
		const struct lab_an_point *q = &d->pt[i];
		int usable = an_usable(q), w = usable ? 0 : 2;

		if (s->base && lab_an_params_get(q->params, s->curve[0], val, sizeof(val)) &&
		    !strcmp(val, s->base))
			rc = (b->rest[i] = lab_an_params_without(q->params, s->curve[0]))
			         ? an_badd(b, w, i, b->rest[i], &cap[w])
			         : -LAB_ENOMEM;
		if (!rc && usable && !s->base_same_threads)
			rc = an_badd(b, 1, i, q->params, &cap[1]);
	}
	return rc;
}

void lab_an_cv_bases_free(struct lab_an_cv_bases *b)
{
	for (size_t i = 0; b->rest && i < b->d->npt; i++)
		free(b->rest[i]);
	free(b->rest);
	for (int w = 0; w < 3; w++) {
		free(b->pt[w]);
		lab_an_index_free(&b->ix[w]);
	}
	memset(b, 0, sizeof(*b));
}

/* The baseline of p: the base curve's point at p's other params with the fewest threads, else
 * (the base curve did not run there) p's own params with the fewest threads; NULL when neither
 * ran, or the base curve ran there without usable samples (a scan whose serial point was all
 * load-flagged read speedup 1 against itself without a word). With base_same_threads: the
 * base curve's point at p's other params and p's thread count, else NULL. */
/* The slot of p's base point in index which (0 or 2): at p's params without curve[0]; else,
 * where curve[1] is a key the base curve does not take (curve1_some: scan's tile), without it
 * too (results that recorded it on every curve match at their own value first). (size_t)-1
 * when there is none; *nomem when memory ran out. */
static size_t an_base_slot(const struct lab_an_cv_bases *b, int which, const struct lab_an_point *p,
                           int *nomem)
{
	const struct lab_an_cv_spec *s = b->s;
	char *rest = lab_an_params_without(p->params, s->curve[0]), *bare = NULL;
	size_t slot = (size_t)-1;
	uint64_t h;

	if (rest)
		slot = an_bfind(b, which, p->experiment, rest, p->threads, &h);
	if (rest && slot == (size_t)-1 && s->curve1_some &&
	    (bare = lab_an_params_without(rest, s->curve[1])))
		slot = an_bfind(b, which, p->experiment, bare, p->threads, &h);
	*nomem |= !rest || (s->curve1_some && slot == (size_t)-1 && !bare);
	free(rest);
	free(bare);
	return slot;
}

/* The baseline of p: the base curve's point at p's other params with the fewest threads, else
 * (the base curve did not run there) p's own params with the fewest threads; NULL when neither
 * ran, or the base curve ran there without usable samples (a scan whose serial point was all
 * load-flagged read speedup 1 against itself without a word). With base_same_threads: the
 * base curve's point at p's other params and p's thread count, else NULL. */
static const struct lab_an_point *an_base(const struct lab_an_cv_bases *b,
                                          const struct lab_an_point *p, int *nomem)
{
	const struct lab_an_cv_spec *s = b->s;
	size_t slot = (size_t)-1, lost = (size_t)-1;
	uint64_t h;

	if (s->base && (slot = an_base_slot(b, 0, p, nomem)) == (size_t)-1)
		lost = an_base_slot(b, 2, p, nomem);
	if (*nomem)
		return NULL;
	if (slot != (size_t)-1)
		return &b->d->pt[b->pt[0][slot]];
	if (s->base_same_threads || lost != (size_t)-1)
		return NULL;
	slot = an_bfind(b, 1, p->experiment, p->params, p->threads, &h);
	return slot != (size_t)-1 ? &b->d->pt[b->pt[1][slot]] : NULL;
}

/* The base curve's point of p when it has no usable samples (load-flagged, skipped or failed):
 * a row then says why, not that the point is missing. NULL when there is none. */
static const struct lab_an_point *an_base_unusable(const struct lab_an_cv_bases *b,
                                                   const struct lab_an_point *p, int *nomem)
{
	size_t slot = b->s->base ? an_base_slot(b, 2, p, nomem) : (size_t)-1;

	return slot == (size_t)-1 ? NULL : &b->d->pt[b->pt[2][slot]];
}

int lab_an_cv_speedup(const struct lab_an_cv_bases *b, const struct lab_an_point *p,
                      struct lab_an_cv_val *v)
{
	int nomem = 0;
	const struct lab_an_point *q = an_usable(p) ? an_base(b, p, &nomem) : NULL;
	struct lab_an_ratio r;

	v->n = 0;
	v->median = v->mean = v->lo = v->hi = NAN;
	v->nobase = !q && an_usable(p);
	v->base = v->nobase ? an_base_unusable(b, p, &nomem) : NULL;
	if (!q)
		return nomem ? -1 : 0;
	v->n = p->st.n;
	if (q == p) { /* the baseline over itself: exactly 1 (of one sample, no interval) */
		v->median = v->mean = 1;
		v->lo = v->hi = p->st.n >= 2 ? 1 : NAN;
		return 0;
	}
	/* run means where there are runs, as the cost column */
	int lent = 0;
	lab_an_cost_ratio(q, p, &r, &lent);
	v->median = p->st.median > 0 ? q->st.median / p->st.median : NAN;
	v->mean = r.est;
	v->mixed = lent;
	if (r.has_ci) { /* inside [0, inf); an unbounded one as its ray, [lo, unbounded) */
		lab_an_ratio_positive(&r);
		v->lo = r.lo;
		v->hi = r.hi;
	}
	return 0;
}
