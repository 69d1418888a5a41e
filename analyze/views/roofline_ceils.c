/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The roofline's ceilings (roofline.h): of the candidate points of each group (a cache level, an
 * ISA and precision), the best at one thread and at the group's largest team, and a team's DRAM
 * ceiling's note where one thread's data says it may be partly cache; the notes of read-only
 * points under a roof of read+write traffic. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/data.h"
#include "analyze/index.h"
#include "analyze/views/roofline.h"

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
 * (its interval above 1.1 x the other's) at a set past the last cache level and no larger than
 * the team's sets together than at its largest set, which is larger (ch19 on a 2-vCPU guest:
 * one thread's triad ran 1.5x faster at 64 MiB than at 512 MiB, and the 2-thread DRAM roof of
 * 2 x 64 MiB read 85 GB/s). A set in a cache says nothing of it (the L3 roof's own 8 MiB point
 * was cited). The roof is kept, with the evidence in c->note. O(n). */
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
		if (cand[i].level == 6 && cand[i].size <= team && cand[i].v.lo > 1.1 * big->v.hi &&
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
int lab_an_rl_ceilings(struct lab_an_rl *s, const struct lab_an_rl_ceil *cand, size_t n)
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
int lab_an_rl_reads_notes(struct lab_an_rl *s, const struct lab_an_rl_ceil *cand, size_t n)
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
