/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The roofline's numbers (roofline.h): the ceilings from the run's own bandwidth and compute
 * points, and each other point placed under its roofs (the rates and FMA+add against FMA alone:
 * roofline_pipes.c). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "analyze/rates.h"
#include "analyze/units.h"
#include "analyze/views/roofline.h"
#include "analyze/views/view.h"

int lab_an_rl_applies(const struct lab_an_view *v, const struct lab_an_data *d,
                      const struct lab_an_point *p)
{
	return lab_an_view_declared(d, p->experiment, v ? v->name : "roofline") == 1;
}

static const char *const an_level_names[] = {"", "L1", "L2", "L3", "L4", "L5", "DRAM"};

/* The cache level of a working set of size bytes: 1..5, 6 for DRAM, 0 when run.json records
 * no cache sizes or there is no size. The loader checked the cache table (each level once, a
 * whole level 1..5 and size > 0: data_host.c), so every entry counts. */
static int an_level(const struct lab_an_data *d, double size)
{
	const struct lab_an_json *host = lab_an_json_get(d->run, "host");
	const struct lab_an_json *c = lab_an_json_get(lab_an_json_get(host, "topology"), "caches");
	int lvl = 0;

	if (!c || c->type != LAB_AN_JSON_ARR || !c->n || !isfinite(size))
		return 0;
	for (size_t i = 0; i < c->n; i++) {
		double l = lab_an_json_num(&c->items[i], "level", 0);
		double s = lab_an_json_num(&c->items[i], "size", 0);

		if (l >= 1 && l <= 5 && s > 0 && size <= s && (!lvl || l < lvl))
			lvl = (int)l;
	}
	return lvl ? lvl : 6;
}

void lab_an_rl_levels_note(const struct lab_an_data *d, char *buf, size_t len)
{
	const struct lab_an_json *host = lab_an_json_get(d->run, "host");
	const struct lab_an_json *c = lab_an_json_get(lab_an_json_get(host, "topology"), "caches");
	size_t used = 0;

	buf[0] = 0;
	for (size_t i = 0; c && c->type == LAB_AN_JSON_ARR && i < c->n && used < len; i++) {
		const char *from = lab_an_json_str(&c->items[i], "size_from");
		double l = lab_an_json_num(&c->items[i], "level", 0);
		double s = lab_an_json_num(&c->items[i], "size", 0);
		double r = lab_an_json_num(&c->items[i], "reported_size", -1);
		bool measured = from && !strcmp(from, "measured");

		if (!from || (!measured && strcmp(from, "given")) || !(l >= 1 && l <= 5))
			continue;
		used +=
		    (size_t)snprintf(buf + used, len - used, "%sL%.0f is %.1f MiB %s",
		                     used ? "; " : "", l, s / 1048576.0,
		                     measured ? "as measured (one thread's loads slowed past it)"
		                              : "as given (--cache)");
		if (used < len && r >= 0 && r < 1e18)
			used += (size_t)snprintf(buf + used, len - used,
			                         ", where the topology reports %.1f MiB",
			                         r / 1048576.0);
	}
	if (used && used < len)
		snprintf(buf + used, len - used, ": the ceilings are named by these sizes");
}

/* Param key (else alt) of p into buf ("" when it has neither, or a value too long for buf: cut,
 * two ISAs of a hand-made file read as one); returns buf. */
static char *an_param(const struct lab_an_point *p, const char *key, const char *alt, char *buf,
                      size_t len)
{
	if ((!lab_an_params_get(p->params, key, buf, len) &&
	     (!alt || !lab_an_params_get(p->params, alt, buf, len))) ||
	    strlen(buf) + 1 >= len)
		buf[0] = 0;
	return buf;
}

/* The bytes of p's size param (its text into buf), NaN without one. */
static double an_size(const struct lab_an_point *p, char *buf, size_t len)
{
	return *an_param(p, "size", NULL, buf, len) ? lab_an_size_bytes(buf) : NAN;
}

/* Candidate ceiling c of point p (rates r): its rate over its bytes (kind bandwidth) or flops
 * and its name, which names its group (a cache level, else the size; "isa precision", and
 * "adds" for an add peak). */
static void an_cand(const struct lab_an_data *d, int inc, const struct lab_an_point *p, int kind,
                    const struct lab_an_rates *r, struct lab_an_rl_ceil *c)
{
	char size[48];

	*c = (struct lab_an_rl_ceil){.kind = kind,
	                             .threads = p->threads,
	                             .pt = p,
	                             .size = NAN,
	                             .faster_unsure = NAN,
	                             .adds = kind == LAB_AN_RL_COMPUTE && r->adds_only};
	lab_an_rl_rate(p, kind == LAB_AN_RL_BW ? r->bytes : r->flops, inc, &c->v);
	if (kind == LAB_AN_RL_COMPUTE) {
		an_param(p, "precision", "type", c->precision, sizeof(c->precision));
		an_param(p, "isa", NULL, c->isa, sizeof(c->isa));
		snprintf(c->name, sizeof(c->name), "%s%s%s%s", *c->isa ? c->isa : "any",
		         *c->precision ? " " : "", c->precision, c->adds ? " adds" : "");
		return;
	}
	c->size = an_size(p, size, sizeof(size));
	c->level = an_level(d, c->size);
	snprintf(c->name, sizeof(c->name), "%s%s%s", an_level_names[c->level], c->level ? " " : "",
	         size);
}

/* The group key of candidate c: compute, its ISA, precision and add peak or not; bandwidth, its
 * level, or without one its name (its size as the config wrote it), into buf. */
static const char *an_group_key(const struct lab_an_rl_ceil *c, char *buf, size_t len)
{
	/* compute: its ISA, precision and whether an add peak, apart (';' is in no param value):
	 * by its name, an FMA peak of precision "f64 adds" took the add peak's group */
	if (c->kind == LAB_AN_RL_COMPUTE)
		snprintf(buf, len, "%d;%s;%s;%d", c->kind, c->isa, c->precision, c->adds);
	else if (c->level)
		snprintf(buf, len, "%d:%d", c->kind, c->level);
	else
		snprintf(buf, len, "%d:-:%s", c->kind, c->name);
	return buf;
}

/* 1 when candidate c makes a better ceiling than cur of its group and team. One with an interval
 * first: a point of one or two used samples is no roof to hold others under (a saxpy of 2
 * samples at 43.5 GB/s stood over a stream load of 35.3 [30.9, 41.2] and put the triad "above
 * its roof"). Then the faster, except in DRAM, where the larger working set wins first: a set a
 * few times the last level may still be partly held by it (a victim or shared L3 keeps part of
 * a stream: on an EPYC guest loads ran 1.3x faster at 4x its measured L3 than at 16x), so the
 * fastest DRAM point would be the least DRAM one. */
static int an_has_ci(const struct lab_an_rl_val *v)
{
	return isfinite(v->lo) && isfinite(v->hi);
}

static int an_better_ceil(const struct lab_an_rl_ceil *c, const struct lab_an_rl_ceil *cur)
{
	int ci = an_has_ci(&c->v), cur_ci = an_has_ci(&cur->v);

	if (ci != cur_ci)
		return ci;
	if (c->kind == LAB_AN_RL_BW && c->level == 6 && c->size != cur->size)
		return c->size > cur->size;
	return c->v.median > cur->v.median;
}

/* p's params but for size and placement (malloc'd; NULL out of memory): the same op at another
 * working set has the same. */
static char *an_rest(const struct lab_an_point *p)
{
	char *a = lab_an_params_without(p->params, "size");
	char *b = a ? lab_an_params_without(a, "placement") : NULL;

	free(a);
	return b;
}

/* 1 when candidate x is one thread's bandwidth, with an interval, of c's kernel and of rest,
 * c's params but for size and placement (an_rest). */
static int an_one_thread_peer(const struct lab_an_rl_ceil *x, const struct lab_an_rl_ceil *c,
                              const char *rest)
{
	char *r;
	int same;

	if (x->kind != LAB_AN_RL_BW || x->threads != 1 || !an_has_ci(&x->v) ||
	    strcmp(x->pt->kernel, c->pt->kernel))
		return 0;
	r = an_rest(x->pt);
	same = r && !strcmp(r, rest);
	free(r);
	return same;
}

/* A team's DRAM ceiling c may be partly cache: one thread of the same kernel ran clearly faster
 * (its interval above 1.1 x the other's) at a set no larger than the team's sets together than
 * at its largest set, which is larger (ch19 on a 2-vCPU guest: one thread's triad ran 1.5x
 * faster at 64 MiB than at 512 MiB, and the 2-thread DRAM roof of 2 x 64 MiB read 85 GB/s). The
 * roof is kept, with the evidence in c->note. O(n). */
static void an_team_dram_note(struct lab_an_rl_ceil *c, const struct lab_an_rl_ceil *cand, size_t n)
{
	const struct lab_an_rl_ceil *big = NULL, *fast = NULL;
	double team = c->size * c->threads;
	char *rest;

	if (c->kind != LAB_AN_RL_BW || c->level != 6 || c->threads < 2 || !isfinite(team) ||
	    !(rest = an_rest(c->pt)))
		return;
	for (size_t i = 0; i < n; i++) /* one thread's largest set of the same kernel */
		if ((!big || cand[i].size > big->size) && an_one_thread_peer(&cand[i], c, rest))
			big = &cand[i];
	for (size_t i = 0; big && big->size > team && i < n; i++)
		if (cand[i].size <= team && cand[i].v.lo > 1.1 * big->v.hi &&
		    (!fast || cand[i].size > fast->size) && an_one_thread_peer(&cand[i], c, rest))
			fast = &cand[i];
	free(rest);
	if (fast &&
	    asprintf(&c->note,
	             "may be partly cache: its %d sets come to %.0f MiB, and one thread ran "
	             "%.2gx faster at %.0f MiB than at %.0f MiB; a larger size per thread "
	             "measures DRAM",
	             c->threads, team / 1048576, fast->v.median / big->v.median,
	             fast->size / 1048576, big->size / 1048576) < 0)
		c->note = NULL; /* out of memory: the roof without its note */
}

/* The ceilings out of the n candidates cand into s->c: per group (first seen first) the best at
 * 1 thread and at the group's largest team (an_better_ceil); O(n) through a set of the groups'
 * keys (a sweep of many sizes without cache levels is a group per size). Returns 0 or
 * -LAB_ENOMEM. */
static int an_ceilings(struct lab_an_rl *s, const struct lab_an_rl_ceil *cand, size_t n)
{
	struct lab_an_strset set = {0};
	char(*key)[112] = malloc((n ? n : 1) * sizeof(*key));
	size_t *g = malloc((n ? n : 1) * sizeof(*g)),
	       *best = malloc(2 * (n ? n : 1) * sizeof(*best));
	int *tmax = calloc(n ? n : 1, sizeof(*tmax)),
	    rc = key && g && best && tmax ? 0 : -LAB_ENOMEM;

	for (size_t i = 0; !rc && i < n; i++) /* the group of each candidate, its largest team */
		if ((g[i] = lab_an_strset_add(&set, an_group_key(&cand[i], key[i], sizeof(key[i])),
		                              NULL)) == (size_t)-1)
			rc = -LAB_ENOMEM;
		else if (cand[i].threads > tmax[g[i]])
			tmax[g[i]] = cand[i].threads;
	for (size_t k = 0; !rc && k < 2 * set.n; k++)
		best[k] = (size_t)-1;
	for (size_t i = 0; !rc && i < n; i++) /* the first best of each, at 1 thread and at tmax */
		for (size_t t = 0; t < 2; t++) {
			size_t *b = &best[2 * g[i] + t];

			if (cand[i].threads == (t ? tmax[g[i]] : 1) && (!t || tmax[g[i]] > 1) &&
			    (*b == (size_t)-1 || an_better_ceil(&cand[i], &cand[*b])))
				*b = i;
		}
	for (size_t k = 0; !rc && k < 2 * set.n; k++)
		if (best[k] != (size_t)-1) {
			s->c[s->nc] = cand[best[k]];
			best[k] = s->nc++; /* now its place in s->c */
		}
	for (size_t i = 0; !rc && i < n; i++) /* faster than its best, passed over (no interval) */
		for (size_t t = 0; t < 2; t++) {
			size_t b = best[2 * g[i] + t];
			struct lab_an_rl_ceil *c = b == (size_t)-1 ? NULL : &s->c[b];

			if (c && cand[i].threads == c->threads && !an_has_ci(&cand[i].v) &&
			    an_has_ci(&c->v) && cand[i].v.median > c->v.median &&
			    (c->kind != LAB_AN_RL_BW || c->level != 6 || cand[i].size == c->size) &&
			    !(cand[i].v.median <= c->faster_unsure))
				c->faster_unsure = cand[i].v.median;
		}
	for (size_t k = 0; !rc && k < s->nc; k++)
		an_team_dram_note(&s->c[k], cand, n);
	lab_an_strset_free(&set);
	free(key);
	free(g);
	free(best);
	free(tmax);
	return rc;
}

/* 1 when bandwidth ceiling c fits a point of size bytes better than cur: the smallest
 * measured size that holds the point, else (past them all, or no size) the largest. */
static int an_better_bw(const struct lab_an_rl_ceil *c, const struct lab_an_rl_ceil *cur,
                        double size)
{
	int holds = isfinite(size) && c->size >= size;

	if (!cur)
		return 1;
	if (holds != (isfinite(size) && cur->size >= size))
		return holds;
	return holds ? c->size < cur->size : c->size > cur->size;
}

/* The note of a point above its roof: the likely reason the ceiling does not bound it. */
static void an_above_note(struct lab_an_rl_pt *e)
{
	static const char *const why[] = {
	    "that ceiling was measured below what the machine does (a narrower ISA, fewer "
	    "independent chains); measure peak with the point's ISA",
	    "the kernel is not bandwidth-bound, so its declared bytes are not what it moves "
	    "(reused lines, random accesses): its intensity is not its position",
	    "its data sits in a faster level than its size says, or the level's bandwidth kernels "
	    "were measured in other conditions"};
	const struct lab_an_rl_ceil *c = e->binds;
	int bw = c->kind == LAB_AN_RL_BW;
	const char *adds = "that ceiling is an add peak (op=add), about half of what FMAs reach: "
	                   "measure peak op=fma with the point's ISA";
	/* a loop of adds alone under its add peak: the peak is its roof, measured low */
	const char *add_low = "that add peak was measured below what the add pipes do (fewer "
	                      "independent chains, a busy machine): measure peak op=add with the "
	                      "point's ISA again";
	/* the roof is its group's best point with an interval: a faster one of too few samples
	 * for one, passed over, is the likelier reason where it would hold the point */
	double unsure_roof = c->faster_unsure * (bw ? e->intensity : 1);
	char unsure[200], pct[32], isa[32];
	/* the point's own ISA measured that peak: no narrower ISA to blame */
	const char *same = "that ceiling was measured below what the machine does (fewer "
	                   "independent chains, or a busy machine's samples): measure peak with "
	                   "this ISA again";
	int own = !bw && *c->isa && !strcmp(an_param(e->pt, "isa", NULL, isa, sizeof(isa)), c->isa);

	snprintf(unsure, sizeof(unsure),
	         "that ceiling is the best point with an interval; one ran at %.3g %s on too few "
	         "samples for one (fewer than 6: raise reps)",
	         c->faster_unsure, bw ? "GB/s" : "GFLOP/s");
	e->above = 1;
	/* a roof of an absurd ceiling (bytes per unit near 0) gave "inf%" and 300 digits */
	snprintf(pct, sizeof(pct), e->fraction < 1e4 ? "%.0f%%" : "%.3g%%", 100 * e->fraction);
	snprintf(e->note, sizeof(e->note), "above its roof (%s of %s %s, measured by %s %s): %s",
	         pct, bw ? "bandwidth" : "compute", c->name, c->pt->experiment, c->pt->params,
	         e->gf.median <= unsure_roof ? unsure
	         : !bw && c->adds            ? (e->adds_only ? add_low : adds)
	         : own                       ? same
	                                     : why[bw ? 1 + (e->bandwidth_bound != 0) : 0]);
}

/* Ceilings split for placing points: a sized bandwidth ceiling without a level (a sweep of
 * sizes on a machine whose caches are not known: one per size, maybe thousands) in sized[],
 * sorted by threads, size and index, searched by size; compute ceilings (one per ISA and
 * precision: any number; add peaks apart) in by[] sorted by threads, ISA and precision, one of
 * them or none, then speed and index, searched; every other bandwidth ceiling (a few per level)
 * in bw[] by threads and index, its thread count's run found by search and scanned. */
struct an_sz {
	int threads;
	double size;
	size_t i; /* in s->c */
};

struct an_cp {
	int threads;
	const char *key[2]; /* compute: ISA, precision ("" when not known) */
	double median;
	size_t i; /* in s->c */
};

/* The keys a sort and a search compare: ISA and precision, one of them, or none. */
enum { AN_K_NONE, AN_K_ISA, AN_K_PREC, AN_K_BOTH, AN_K_N };

struct an_split {
	struct an_sz *sized;
	size_t nsized;
	/* run.json's lab.auto_march.isa when it names one of the lab's variants, else "": an auto
	 * point's ISA where peak did not measure auto */
	const char *auto_isa;
	/* compute ceilings, the others' (set 0) and the add peaks' (set 1), each sorted on each
	 * set of keys (by[set][AN_K_...]); bw: threads and i only */
	struct an_cp *by[2][AN_K_N], *bw;
	size_t ncp[2], nbw;
};

/* threads, then the keys of mask (AN_K_ISA, AN_K_PREC) of x against key. */
static int an_cmp_keys(const struct an_cp *x, int th, const char *const *key, int mask)
{
	int c = 0;

	if (x->threads != th)
		return x->threads < th ? -1 : 1;
	for (int k = 0; k < 2 && !c; k++)
		c = mask & (1 << k) ? strcmp(x->key[k], key[k]) : 0;
	return c;
}

/* by[set][mask]'s order: an_cmp_keys, then the fastest first, then by index. */
static int an_cmp_cp(const struct an_cp *x, const struct an_cp *y, int mask)
{
	int c = an_cmp_keys(x, y->threads, y->key, mask);

	if (c)
		return c;
	if (x->median != y->median)
		return x->median > y->median ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static int an_cmp_none(const void *a, const void *b)
{
	return an_cmp_cp(a, b, AN_K_NONE);
}

static int an_cmp_isa(const void *a, const void *b)
{
	return an_cmp_cp(a, b, AN_K_ISA);
}

static int an_cmp_prec(const void *a, const void *b)
{
	return an_cmp_cp(a, b, AN_K_PREC);
}

static int an_cmp_both(const void *a, const void *b)
{
	return an_cmp_cp(a, b, AN_K_BOTH);
}

/* The first of the n entries of a (sorted on mask's keys) at threads th with those keys, or
 * n. */
static size_t an_cp_lower(const struct an_cp *a, size_t n, int th, const char *const *key, int mask)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		lab_an_view_probe();
		if (an_cmp_keys(&a[mid], th, key, mask) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !an_cmp_keys(&a[lo], th, key, mask) ? lo : n;
}

/* The compute ceiling of a point of ISA and precision key ("": not known) at th: the fastest of
 * its ISA and precision (a scalar loop's roof is the scalar peak, not the widest ISA's), else of
 * its ISA alone (ISAs differ by more than precisions do), else of its precision, else the
 * fastest; at each of these the ceilings of set first (0 the others, 1 the add peaks), then the
 * other set's; NULL when none is at th. */
static const struct lab_an_rl_ceil *an_compute(const struct lab_an_rl *s, const struct an_split *sp,
                                               int set, int th, const char *const *key)
{
	int mask = (*key[0] ? AN_K_ISA : 0) | (*key[1] ? AN_K_PREC : 0);
	const int order[][4] = {[AN_K_NONE] = {AN_K_NONE, -1, -1, -1},
	                        [AN_K_ISA] = {AN_K_ISA, AN_K_NONE, -1, -1},
	                        [AN_K_PREC] = {AN_K_PREC, AN_K_NONE, -1, -1},
	                        [AN_K_BOTH] = {AN_K_BOTH, AN_K_ISA, AN_K_PREC, AN_K_NONE}};

	for (int t = 0; t < 8 && order[mask][t / 2] >= 0; t++) {
		int in = t % 2 ? !set : set;
		const struct an_cp *a = sp->by[in][order[mask][t / 2]];
		size_t k = an_cp_lower(a, sp->ncp[in], th, key, order[mask][t / 2]);

		if (k < sp->ncp[in])
			return &s->c[a[k].i];
	}
	return NULL;
}

static int an_cmp_sz(const void *a, const void *b)
{
	const struct an_sz *x = a, *y = b;

	if (x->threads != y->threads)
		return x->threads < y->threads ? -1 : 1;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* The first of the sized ceilings at threads th whose size is at least z, or the end of th's
 * run (z = -INFINITY: its start). */
static size_t an_lower(const struct an_split *sp, int th, double z)
{
	size_t lo = 0, hi = sp->nsized;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct an_sz *c = &sp->sized[mid];

		lab_an_view_probe();
		if (c->threads < th || (c->threads == th && c->size < z))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The sized ceiling without a level that fits a point of size z at th: the smallest size that
 * holds it, else (z NaN too) the largest, the first of equal sizes; NULL when none is at th. */
static const struct lab_an_rl_ceil *an_sized(const struct lab_an_rl *s, const struct an_split *sp,
                                             int th, double z)
{
	size_t first = an_lower(sp, th, -INFINITY), end = an_lower(sp, th + 1, -INFINITY);
	size_t k = isfinite(z) ? an_lower(sp, th, z) : end;

	if (first == end)
		return NULL;
	if (k < end)
		return &s->c[sp->sized[k].i];
	return &s->c[sp->sized[an_lower(sp, th, sp->sized[end - 1].size)].i];
}

/* The roof of point e at its thread count (roofline.h): from its compute ceiling cp (the
 * highest of its ISA and precision, an_compute) and its bandwidth ceiling bw (its level's, by size
 * without levels); slow is the best ceiling of a slower level, a lower bound of a missing bw. */
static void an_place(const struct lab_an_rl *s, const struct an_split *sp, struct lab_an_rl_pt *e)
{
	const struct lab_an_rl_ceil *bw = NULL, *cp, *slow = NULL, *sz;
	char prec[sizeof(s->c->precision)], isa[sizeof(s->c->isa)];
	const char *key[2] = {an_param(e->pt, "isa", NULL, isa, sizeof(isa)),
	                      an_param(e->pt, "type", "precision", prec, sizeof(prec))};
	int th = e->pt->threads;

	/* auto without an auto peak: the widest variant its build may use (an x86-64 build's SSE2
	 * loop fell to AVX-512's ceiling, bandwidth-bound under a roof it cannot reach) */
	int own = *prec ? AN_K_BOTH : AN_K_ISA; /* an auto peak of the point's precision */
	int as_build = !strcmp(isa, "auto") && *sp->auto_isa &&
	               an_cp_lower(sp->by[0][own], sp->ncp[0], th, key, own) == sp->ncp[0] &&
	               an_cp_lower(sp->by[1][own], sp->ncp[1], th, key, own) == sp->ncp[1];

	if (as_build)
		key[0] = sp->auto_isa;
	/* adds alone: the add peak of its ISA and precision first; any other point the others'
	 * ceilings first (an add peak faster than an FMA run of too few chains is no roof for a
	 * loop with multiplies), an add peak where none of those is of its keys */
	cp = an_compute(s, sp, e->adds_only, th, key);
	for (size_t r = an_cp_lower(sp->bw, sp->nbw, th, NULL, AN_K_NONE);
	     r < sp->nbw && sp->bw[r].threads == th; r++) {
		const struct lab_an_rl_ceil *c = &s->c[sp->bw[r].i];

		lab_an_view_probe();
		if (!e->level || !c->level)
			bw = an_better_bw(c, bw, e->size) ? c : bw;
		else if (c->level == e->level)
			bw = c;
		else if (c->level > e->level && (!slow || c->v.median > slow->v.median))
			slow = c;
	}
	/* a ceiling without a level fits any point: the sized ones by search (one without a size
	 * fits only where nothing else does) */
	if ((sz = an_sized(s, sp, th, e->size)) &&
	    (!bw || !isfinite(bw->size) || an_better_bw(sz, bw, e->size)))
		bw = sz;
	e->roof = (e->binds = bw) ? bw->v.median * e->intensity : NAN;
	/* Without its bandwidth ceiling, compute binds only where a slower level's ceiling already
	 * reaches it: the ridge is not known. */
	if (cp && (bw ? !(e->roof <= cp->v.median)
	              : slow && slow->v.median * e->intensity >= cp->v.median))
		e->roof = (e->binds = cp)->v.median;
	e->fraction = e->gf.median / e->roof;
	if (!e->binds)
		snprintf(e->note, sizeof(e->note),
		         "roof not measured: no bandwidth ceiling%s%s at %d thread%s (run a "
		         "bandwidth-bound kernel at a size in that level)",
		         e->level ? " for " : "", an_level_names[e->level], th, th == 1 ? "" : "s");
	else if (e->fraction > 1 + 1e-9 && e->gf.lo <= e->roof)
		snprintf(e->note, sizeof(e->note),
		         "at %.0f %% of its roof (%s), within noise: its interval reaches down to "
		         "%.3g GFLOP/s",
		         100 * e->fraction, e->binds->name, e->gf.lo);
	else if (e->fraction > 1 + 1e-9)
		an_above_note(e);
	else if (!e->adds_only && e->binds == cp && cp->adds)
		snprintf(
		    e->note, sizeof(e->note),
		    "under an add peak (%s), about half of what FMAs reach: no FMA peak of its "
		    "ISA and precision at %d thread%s (peak op=fma)",
		    cp->name, th, th == 1 ? "" : "s");
	else if (e->adds_only && e->binds == cp && !cp->adds)
		snprintf(
		    e->note, sizeof(e->note),
		    "adds alone under an FMA ceiling (%s): the add pipes reach about half of it; "
		    "no add peak of its ISA and precision at %d thread%s (peak op=add)",
		    cp->name, th, th == 1 ? "" : "s");
	else if (as_build && e->binds == cp && !strcmp(cp->isa, sp->auto_isa))
		snprintf(
		    e->note, sizeof(e->note),
		    "isa=auto: no auto peak of its precision was measured; its roof is %s's, the "
		    "widest variant its build may use (run.json lab.auto_march)",
		    sp->auto_isa);
}

static void an_split_free(struct an_split *sp)
{
	free(sp->sized);
	for (int m = 0; m < 2 * AN_K_N; m++)
		free(sp->by[m / AN_K_N][m % AN_K_N]);
	free(sp->bw);
}

/* Every point of s placed under its roof: O((points + ceilings) log ceilings). Returns 0 or
 * -LAB_ENOMEM. */
static int an_place_all(const struct lab_an_data *d, struct lab_an_rl *s)
{
	static const char *const isas[] = {"scalar", "sse2", "avx2", "avx512"};
	const char *auto_isa =
	    lab_an_json_str(lab_an_json_get(lab_an_json_get(d->run, "lab"), "auto_march"), "isa");
	static int (*const cmp[AN_K_N])(const void *, const void *) = {an_cmp_none, an_cmp_isa,
	                                                               an_cmp_prec, an_cmp_both};
	size_t n = s->nc + 1;
	struct an_split sp = {.sized = malloc(n * sizeof(*sp.sized)),
	                      .auto_isa = "",
	                      .bw = malloc(n * sizeof(*sp.bw))};
	int ok = sp.sized && sp.bw;

	for (size_t k = 0; auto_isa && k < sizeof(isas) / sizeof(isas[0]); k++)
		sp.auto_isa = strcmp(auto_isa, isas[k]) ? sp.auto_isa : isas[k]; /* from a file */

	for (int m = 0; m < 2 * AN_K_N; m++)
		ok &= (sp.by[m / AN_K_N][m % AN_K_N] = malloc(n * sizeof(struct an_cp))) != NULL;
	if (!ok) {
		an_split_free(&sp);
		return -LAB_ENOMEM;
	}
	for (size_t i = 0; i < s->nc; i++) {
		const struct lab_an_rl_ceil *c = &s->c[i];

		if (!(c->v.median > 0))
			continue;
		if (c->kind == LAB_AN_RL_COMPUTE)
			sp.by[!!c->adds][0][sp.ncp[!!c->adds]++] =
			    (struct an_cp){c->threads, {c->isa, c->precision}, c->v.median, i};
		else if (!c->level && isfinite(c->size))
			sp.sized[sp.nsized++] = (struct an_sz){c->threads, c->size, i};
		else /* by threads, then in index order (the order they are weighed in) */
			sp.bw[sp.nbw++] = (struct an_cp){c->threads, {"", ""}, 0, i};
	}
	for (int set = 0; set < 2; set++) {
		for (int m = 1; m < AN_K_N; m++) {
			memcpy(sp.by[set][m], sp.by[set][0], sp.ncp[set] * sizeof(struct an_cp));
			qsort(sp.by[set][m], sp.ncp[set], sizeof(struct an_cp), cmp[m]);
		}
		qsort(sp.by[set][0], sp.ncp[set], sizeof(struct an_cp), cmp[0]);
	}
	qsort(sp.sized, sp.nsized, sizeof(*sp.sized), an_cmp_sz);
	qsort(sp.bw, sp.nbw, sizeof(*sp.bw), an_cmp_none);
	for (size_t i = 0; i < s->np; i++)
		an_place(s, &sp, &s->p[i]);
	an_split_free(&sp);
	return 0;
}

/* The key of read-only bandwidth candidates in the group of c at its threads, into buf. */
static const char *an_reads_key(const struct lab_an_rl_ceil *c, char *buf, size_t len)
{
	char group[112];

	snprintf(buf, len, "%d|%s", c->threads, an_group_key(c, group, sizeof(group)));
	return buf;
}

/* A read-only point held under a ceiling of read+write traffic (a sum under triad's L1 or
 * saxpy's DRAM) read "far below its roof" at its read bandwidth: its note says what the
 * read-only kernels of that group and team reach and its share of that. Through a set of the
 * groups' keys, O(points + candidates). Returns 0 or -LAB_ENOMEM. */
static int an_reads_notes(struct lab_an_rl *s, const struct lab_an_rl_ceil *cand, size_t n)
{
	struct lab_an_strset set = {0};
	char(*key)[128] = malloc((n ? n : 1) * sizeof(*key)), k[128];
	size_t *best = malloc((n ? n : 1) * sizeof(*best)), g;
	int rc = key && best ? 0 : -LAB_ENOMEM;
	double share;

	for (size_t i = 0; !rc && i < n; i++) {
		int added = 0;

		if (cand[i].kind != LAB_AN_RL_BW || !cand[i].reads_only)
			continue;
		g = lab_an_strset_add(&set, an_reads_key(&cand[i], key[i], sizeof(key[i])), &added);
		if (g == (size_t)-1)
			rc = -LAB_ENOMEM;
		else if (added || an_better_ceil(&cand[i], &cand[best[g]]))
			best[g] = i;
	}
	for (size_t i = 0; !rc && i < s->np; i++) {
		struct lab_an_rl_pt *e = &s->p[i];
		const struct lab_an_rl_ceil *c = e->binds, *r;

		if (!c || c->kind != LAB_AN_RL_BW || c->reads_only || !e->reads_only || *e->note ||
		    (g = lab_an_strset_find(&set, an_reads_key(c, k, sizeof(k)))) == (size_t)-1 ||
		    !((r = &cand[best[g]])->v.median < c->v.median))
			continue;
		share = 100 * e->gf.median / (r->v.median * e->intensity);
		snprintf(e->note, sizeof(e->note),
		         "reads only, under the roof of read+write traffic (%.3g GB/s, %s %s); "
		         "read-only loads here reach %.3g GB/s (%s %s): %s %.0f %%%s",
		         c->v.median, c->pt->experiment, c->pt->params, r->v.median,
		         r->pt->experiment, r->pt->params,
		         share <= 100 ? "it is at" : "it reads faster, at", share,
		         share <= 100 ? " of that" : " of them: those loads do not bound it");
	}
	lab_an_strset_free(&set);
	free(key);
	free(best);
	return rc;
}

int lab_an_rl_roofs(const struct lab_an_data *d, int inc, struct lab_an_rl *s)
{
	struct lab_an_rl_ceil *cand = calloc(d->npt + 1, sizeof(*cand));
	size_t n = 0;
	int rc = cand ? 0 : -LAB_ENOMEM;
	char buf[64];

	for (size_t i = 0; cand && i < d->npt; i++) {
		const struct lab_an_point *p = &d->pt[i];
		struct lab_an_rl_pt *e = &s->p[s->np];
		struct lab_an_rates r;

		if (!p->st.n || strcmp(p->status, "ok") || !lab_an_rl_applies(NULL, d, p))
			continue;
		lab_an_rates_compute(d, p, &r);
		if (!r.has || (r.bytes <= 0 && r.flops <= 0))
			continue;
		/* A bandwidth source: declared bandwidth-bound, or (older results) bytes alone. */
		if (r.bytes <= 0 || r.bandwidth_bound == 1 ||
		    (r.bandwidth_bound < 0 && r.flops <= 0)) {
			an_cand(d, inc, p, r.bytes > 0 ? LAB_AN_RL_BW : LAB_AN_RL_COMPUTE, &r,
			        &cand[n]);
			cand[n].reads_only = r.bytes > 0 && r.bytes_written <= 0;
			n += cand[n].v.median > 0 && isfinite(cand[n].v.median);
		}
		if (r.bytes <= 0 || r.flops <= 0)
			continue;
		*e = (struct lab_an_rl_pt){.pt = p,
		                           .intensity = r.flops / r.bytes,
		                           .intensity_wa = r.flops / r.bytes_wa,
		                           .size = an_size(p, buf, sizeof(buf)),
		                           .bandwidth_bound = r.bandwidth_bound,
		                           .reads_only = r.bytes_written <= 0,
		                           .adds_only = r.adds_only};
		lab_an_rl_rate(p, r.flops, inc, &e->gf);
		e->level = an_level(d, e->size);
		s->np++;
	}
	if (!rc)
		rc = an_ceilings(s, cand, n);
	if (!rc)
		rc = an_place_all(d, s);
	if (!rc)
		rc = an_reads_notes(s, cand, n);
	free(cand);
	return rc ? rc : lab_an_rl_pipes(d, inc, s);
}
