/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/placement.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/index.h"
#include "analyze/jsonr.h"

/* Two JSON values with the same strings and numbers in the same order (params, cpus). */
static int an_json_eq(const struct lab_an_json *a, const struct lab_an_json *b)
{
	if (!a || !b)
		return a == b;
	if (a->type != b->type || a->n != b->n)
		return 0;
	if (a->type == LAB_AN_JSON_STR)
		return !strcmp(a->str, b->str);
	if (a->type == LAB_AN_JSON_NUM || a->type == LAB_AN_JSON_BOOL)
		return a->num == b->num;
	for (size_t i = 0; i < a->n; i++)
		if ((a->keys && strcmp(a->keys[i], b->keys[i])) ||
		    !an_json_eq(&a->items[i], &b->items[i]))
			return 0;
	return 1;
}

static int an_item_cmp(const void *a, const void *b)
{
	const char *const *x = a, *const *y = b;

	return strcmp(x[0], y[0]);
}

/* The items of params object o but its placement, as (key, value) pairs sorted by key, in
 * fresh memory (2 pointers each; *n of them); NULL when memory runs out. */
static const void **an_params_sorted(const struct lab_an_json *o, size_t *n)
{
	const void **kv = malloc(2 * (o->n ? o->n : 1) * sizeof(*kv));

	*n = 0;
	for (size_t i = 0; kv && i < o->n; i++)
		if (strcmp(o->keys[i], "placement")) {
			kv[2 * *n] = o->keys[i];
			kv[2 * (*n)++ + 1] = &o->items[i];
		}
	if (kv && *n > 1)
		qsort(kv, *n, 2 * sizeof(*kv), an_item_cmp);
	return kv;
}

/* Two params objects equal but for their placement item, in any order: both sorted by key, so
 * a point of n params costs n log n (looking each key up in the other was n^2: a point of
 * 50,000 params took 54 s). Keys are once per object (the JSON reader refuses a repeat). */
static int an_params_eq(const struct lab_an_json *a, const struct lab_an_json *b)
{
	const void **x, **y;
	size_t na, nb;
	int eq;

	if (!a || !b || a->type != LAB_AN_JSON_OBJ || b->type != LAB_AN_JSON_OBJ)
		return a == b;
	x = an_params_sorted(a, &na);
	y = an_params_sorted(b, &nb);
	eq = x && y && na == nb;
	for (size_t i = 0; eq && i < na; i++)
		eq = !strcmp(x[2 * i], y[2 * i]) && an_json_eq(x[2 * i + 1], y[2 * i + 1]);
	free(x);
	free(y);
	return eq;
}

/* The warnings given, by their prefix (found in O(1): a scan of every earlier warning per group
 * was quadratic), and past AN_PL_WARN_MAX of them how many more there were, said in one line
 * (16,000 lines of these took most of an analysis of 32,000 points). */
#define AN_PL_WARN_MAX 20
struct an_pl_warned {
	struct lab_an_strset set;
	char **own; /* the set's strings */
	size_t n, cap, more;
	/* run.json's points that ran where an earlier point of another placement ran, and that
	 * placement (lab_an_point.same_cpus_as) */
	struct an_pl_mark {
		const struct lab_an_json *pt;
		const char *as;
	} * mark;
	size_t nmark, mcap;
};

/* 1 when prefix was warned of already, else records it (0; -1 out of memory). */
static int an_warned(struct an_pl_warned *w, const char *prefix)
{
	char *s;
	int added;

	if (lab_an_strset_find(&w->set, prefix) != (size_t)-1)
		return 1;
	if (lab_an_grow(&w->own, &w->cap, w->n + 1, sizeof(*w->own)) ||
	    !(s = lab_an_strdup(prefix)))
		return -1;
	w->own[w->n++] = s;
	return lab_an_strset_add(&w->set, s, &added) == (size_t)-1 ? -1 : 0;
}

/* The CPUs of a point as "0,1" (cut short past len). */
static void an_cpus_text(const struct lab_an_json *cpus, char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = '\0';
	for (size_t i = 0; cpus && i < cpus->n && k + 16 < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%.0f", i ? "," : "", cpus->items[i].num);
}

/* A point, with the hash of what must match (threads, CPUs, params but the placement). */
struct an_pl {
	uint64_t hash;
	const struct lab_an_json *pt;
	const char *placement;
};

/* NULL when p cannot take part (no placement, no CPUs, or one thread: a thread alone runs on
 * the first CPU under every placement, which a note in every section said, review44). */
static const char *an_pl_key(const struct lab_an_json *p, uint64_t *hash)
{
	const char *pl = lab_an_json_str(p, "placement");
	const struct lab_an_json *cpus = lab_an_json_get(p, "cpus"), *par;
	uint64_t h = lab_an_hash_long(LAB_AN_HASH_INIT, (long)lab_an_json_num(p, "threads", -1));

	if (!pl || !cpus || cpus->type != LAB_AN_JSON_ARR || cpus->n < 2)
		return NULL;
	for (size_t i = 0; i < cpus->n; i++)
		h = lab_an_hash_long(h, (long)cpus->items[i].num);
	par = lab_an_json_get(p, "params");
	/* Order-free over the params (a sum of per-item hashes), as an_params_eq compares. */
	for (size_t i = 0; par && par->type == LAB_AN_JSON_OBJ && i < par->n; i++)
		if (strcmp(par->keys[i], "placement"))
			h += lab_an_hash_str(
			    lab_an_hash_str(LAB_AN_HASH_INIT, par->keys[i]),
			    par->items[i].type == LAB_AN_JSON_STR ? par->items[i].str : "");
	*hash = h;
	return pl;
}

static int an_pl_cmp(const void *a, const void *b)
{
	const struct an_pl *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return x->pt < y->pt ? -1 : x->pt > y->pt; /* run.json's order: placements named in it */
}

/* Points a and b: same threads and params, same CPUs (the hash only narrowed them down). */
static int an_pl_same(const struct an_pl *a, const struct an_pl *b)
{
	const struct lab_an_json *ca = lab_an_json_get(a->pt, "cpus");

	return a->hash == b->hash &&
	       lab_an_json_num(a->pt, "threads", -1) == lab_an_json_num(b->pt, "threads", -2) &&
	       an_json_eq(ca, lab_an_json_get(b->pt, "cpus")) &&
	       an_params_eq(lab_an_json_get(a->pt, "params"), lab_an_json_get(b->pt, "params"));
}

/* The "%.*s%s" arguments of s cut to 60 bytes with "..." (an_pl_group). */
#define AN_PL_CUT(s) lab_an_utf8_fit(s, 60), s, strlen(s) > 60 ? "..." : ""

/*
 * One group of points that ran the same thing on the same CPUs: if it holds two or more
 * placements, one warning naming them all (once per experiment and set of placements).
 */
static void an_pl_group(struct lab_an_data *d, struct an_pl_warned *w, const char *name,
                        const struct an_pl *g, size_t n)
{
	const char *seen[8];
	size_t ns = 0, k;
	char prefix[512], cpus[128];
	int len;

	for (size_t i = 0; i < n; i++) {
		if (!an_pl_same(&g[0], &g[i]))
			continue;
		if (strcmp(g[i].placement, g[0].placement) &&
		    !lab_an_grow(&w->mark, &w->mcap, w->nmark + 1, sizeof(*w->mark)))
			w->mark[w->nmark++] = (struct an_pl_mark){g[i].pt, g[0].placement};
		if (ns == 8)
			continue;
		for (k = 0; k < ns && strcmp(seen[k], g[i].placement); k++)
			;
		if (k == ns)
			seen[ns++] = g[i].placement;
	}
	if (ns < 2)
		return;
	/* names of at most 60 bytes, and past the room a count: long placement lists made the
	 * warning go unsaid (hostile45) */
	len = snprintf(prefix, sizeof(prefix), "[%.*s%s] placement %.*s%s", AN_PL_CUT(name),
	               AN_PL_CUT(seen[0]));
	for (k = 1; k < ns && len > 0 && (size_t)len + 80 < sizeof(prefix) - 32; k++)
		len += snprintf(prefix + len, sizeof(prefix) - (size_t)len, "%s%.*s%s",
		                k + 1 == ns ? " and " : ", ", AN_PL_CUT(seen[k]));
	if (len < 0 || (size_t)len >= sizeof(prefix) - 32)
		return;
	if (k < ns)
		len +=
		    snprintf(prefix + len, sizeof(prefix) - (size_t)len, " and %zu more", ns - k);
	snprintf(prefix + len, sizeof(prefix) - (size_t)len, " ran on the same CPUs");
	if (an_warned(w, prefix))
		return;
	if (w->n > AN_PL_WARN_MAX) {
		w->more++;
		return;
	}
	an_cpus_text(lab_an_json_get(g[0].pt, "cpus"), cpus, sizeof(cpus));
	lab_an_warn(&d->warn,
	            "%s (threads=%.0f: cpus %s): this machine cannot tell them apart, so their "
	            "results measure the same thing, not a placement effect",
	            prefix, lab_an_json_num(g[0].pt, "threads", 0), cpus);
}

/* The points an_pl_first_cmp's group starts index (qsort passes no context). */
static _Thread_local const struct an_pl *an_pl_sorting;

/* Groups by where their first point is in run.json (the hash sort's tie-break put it first). */
static int an_pl_first_cmp(const void *a, const void *b)
{
	const struct lab_an_json *x = an_pl_sorting[*(const size_t *)a].pt;
	const struct lab_an_json *y = an_pl_sorting[*(const size_t *)b].pt;

	return x < y ? -1 : x > y;
}

/* Points of one experiment grouped by hash (sorted), so a run of n points costs n log n. */
static void an_pl_exp(struct lab_an_data *d, struct an_pl_warned *w, const char *name,
                      const struct lab_an_json *pts)
{
	struct an_pl *v = malloc(pts->n * sizeof(*v));
	size_t n = 0;

	if (!v)
		return; /* a warning the analysis can do without */
	for (size_t i = 0; i < pts->n; i++) {
		v[n].pt = &pts->items[i];
		if ((v[n].placement = an_pl_key(v[n].pt, &v[n].hash)))
			n++;
	}
	qsort(v, n, sizeof(*v), an_pl_cmp);
	/* the groups in run.json's order of their first points, not the hash's: it is keyed
	 * afresh in each process, and the warnings (at most AN_PL_WARN_MAX) must not vary */
	size_t *start = malloc((n + 1) * sizeof(*start)), ng = 0;
	for (size_t i = 0, j; start && i < n; i = j) {
		for (j = i + 1; j < n && v[j].hash == v[i].hash; j++)
			;
		start[ng++] = i;
	}
	if (start) {
		an_pl_sorting = v;
		qsort(start, ng, sizeof(*start), an_pl_first_cmp);
		for (size_t g = 0; g < ng; g++) {
			size_t j = start[g] + 1;
			while (j < n && v[j].hash == v[start[g]].hash)
				j++;
			an_pl_group(d, w, name, v + start[g], j - start[g]);
		}
	}
	free(start);
	free(v);
}

static int an_mark_cmp(const void *a, const void *b)
{
	const struct an_pl_mark *x = a, *y = b;

	return x->pt < y->pt ? -1 : x->pt > y->pt;
}

/* Each point of d that ran where a point of another placement ran says which (a point's
 * run.json entry found among the marks by a binary search). */
static void an_pl_marks_apply(struct lab_an_data *d, struct an_pl_warned *w)
{
	if (w->nmark) /* never qsort(NULL, 0): UBSan stopped every analysis (hostile45) */
		qsort(w->mark, w->nmark, sizeof(*w->mark), an_mark_cmp);
	for (size_t i = 0; w->nmark && i < d->npt; i++) {
		struct an_pl_mark key = {d->pt[i].runjson, NULL}, *m;

		m = bsearch(&key, w->mark, w->nmark, sizeof(*w->mark), an_mark_cmp);
		d->pt[i].same_cpus_as = m ? m->as : NULL;
	}
	free(w->mark);
}

void lab_an_placement_same(struct lab_an_data *d)
{
	const struct lab_an_json *ex = d->run ? lab_an_json_get(d->run, "experiments") : NULL;
	struct an_pl_warned w = {0};

	for (size_t e = 0; ex && ex->type == LAB_AN_JSON_ARR && e < ex->n; e++) {
		const struct lab_an_json *pts = lab_an_json_get(&ex->items[e], "points");
		const char *name = lab_an_json_str(&ex->items[e], "name");
		if (name && pts && pts->type == LAB_AN_JSON_ARR && pts->n)
			an_pl_exp(d, &w, name, pts);
	}
	if (w.more)
		lab_an_warn(&d->warn,
		            "%zu more sets of placements ran on the same CPUs as each other (not "
		            "listed): their results measure the same thing, not a placement effect",
		            w.more);
	an_pl_marks_apply(d, &w);
	for (size_t i = 0; i < w.n; i++)
		free(w.own[i]);
	free(w.own);
	lab_an_strset_free(&w.set);
}
