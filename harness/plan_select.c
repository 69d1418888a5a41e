/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The planned points a lesson selector names, counted through an index of one experiment
 * (plan_internal.h). Comparing every selector with every point, its values formatted afresh,
 * made `lab plan` of 20 000 lessons over an 8 192-point experiment take 20 s. The index numbers
 * each (key, value text) of the experiment's points once and lists the points under each
 * number; a selector walks the shortest list among its items and compares numbers, or no list
 * when one of its values names nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/lessons.h"
#include "harness/param.h"
#include "harness/plan_internal.h"
#include "harness/strmap.h"

/* Harness keys that are part of a point's identity (its params text and thread count). */
static const char *const ps_point_keys[] = {"threads", "placement", "membind", "perf_c2c", NULL};

struct lab__sel_index {
	const struct lab_experiment *e;
	unsigned nk, np; /* keys of e, planned points of e */
	unsigned *id;    /* id[j * nk + k]: the number of point j's value of key k, or PS_NONE */
	struct lab_strmap number; /* (key k, value text) -> number */
	char **text;              /* the value texts by number (owned: the map keeps pointers) */
	unsigned ntext;
	unsigned *start, *pts; /* the points with number v: pts[start[v] .. start[v + 1]) */
};

static unsigned long long ps_probes;

/* a key that is no part of a point's identity (reps, warmup...), or a kernel key that does not
 * apply there (stride of a struct layout: a selector naming it names no such point) */
#define PS_NONE 0xffffffffu

bool lab__plan_point_key(const char *key)
{
	for (const char *const *k = ps_point_keys; *k; k++)
		if (!strcmp(*k, key))
			return true;
	return false;
}

/* The value of key r in point pt as config text. */
static void ps_point_value(const struct lab_point *pt, const struct lab_resolved *r, char *buf,
                           size_t len)
{
	if (r->harness && !strcmp(r->param->key, "threads"))
		snprintf(buf, len, "%u", pt->nthreads);
	else
		lab_param_format(r->param, r->harness ? (const void *)&pt->h : pt->kparams, buf,
		                 len);
}

/* The number of value text in key k, added when new; -1 out of memory. */
static long ps_number(struct lab__sel_index *x, unsigned k, const char *text)
{
	unsigned v;

	if (lab_strmap_get(&x->number, k, text, &v))
		return v;
	if (x->ntext % 256 == 0) {
		char **grown = realloc(x->text, (x->ntext + 256) * sizeof(*grown));
		if (!grown)
			return -1;
		x->text = grown;
	}
	if (!(x->text[x->ntext] = strdup(text)) ||
	    lab_strmap_put(&x->number, k, x->text[x->ntext], x->ntext)) {
		free(x->text[x->ntext]);
		return -1;
	}
	return x->ntext++;
}

/* Numbers every point's values, then lists the points of each number; 0 or -1. */
static int ps_fill(struct lab__sel_index *x, const struct lab_plan *plan)
{
	char buf[256];

	for (unsigned j = 0; j < x->np; j++)
		for (unsigned k = 0; k < x->nk; k++) {
			const struct lab_resolved *r = &x->e->keys[k];
			long v = PS_NONE;
			const struct lab_point *pt = &plan->pts[x->e->first_point + j];
			if (r->harness
			        ? lab__plan_point_key(r->param->key)
			        : lab_param_applies(x->e->kernel->params, r->param, pt->kparams)) {
				ps_point_value(pt, r, buf, sizeof(buf));
				if ((v = ps_number(x, k, buf)) < 0)
					return -1;
			}
			x->id[(size_t)j * x->nk + k] = (unsigned)v;
		}
	if (!(x->start = calloc(x->ntext + 1, sizeof(*x->start))) ||
	    !(x->pts = malloc(((size_t)x->np * x->nk + 1) * sizeof(*x->pts))))
		return -1;
	for (size_t i = 0; i < (size_t)x->np * x->nk; i++)
		if (x->id[i] != PS_NONE)
			x->start[x->id[i] + 1]++;
	for (unsigned v = 0; v < x->ntext; v++)
		x->start[v + 1] += x->start[v];
	unsigned *next = malloc((x->ntext + 1) * sizeof(*next));
	if (!next)
		return -1;
	memcpy(next, x->start, (x->ntext + 1) * sizeof(*next));
	for (unsigned j = 0; j < x->np; j++)
		for (unsigned k = 0; k < x->nk; k++)
			if (x->id[(size_t)j * x->nk + k] != PS_NONE)
				x->pts[next[x->id[(size_t)j * x->nk + k]]++] = j;
	free(next);
	return 0;
}

struct lab__sel_index *lab__sel_index_new(const struct lab_plan *plan,
                                          const struct lab_experiment *e)
{
	struct lab__sel_index *x = calloc(1, sizeof(*x));

	if (!x)
		return NULL;
	x->e = e;
	x->nk = e->nkeys;
	x->np = e->npoints;
	if (!(x->id = calloc((size_t)x->np * x->nk + 1, sizeof(*x->id))) || ps_fill(x, plan)) {
		lab__sel_index_free(x);
		return NULL;
	}
	return x;
}

void lab__sel_index_free(struct lab__sel_index *x)
{
	if (!x)
		return;
	for (unsigned v = 0; v < x->ntext; v++)
		free(x->text[v]);
	free(x->text);
	lab_strmap_free(&x->number);
	free(x->id);
	free(x->start);
	free(x->pts);
	free(x);
}

unsigned lab__sel_count(const struct lab__sel_index *x, const struct lab_lesson_sel *sel,
                        unsigned *first)
{
	unsigned key[LAB_LESSON_PARAMS_MAX], want[LAB_LESSON_PARAMS_MAX], shortest = 0, n = 0;

	for (unsigned i = 0; i < sel->nparam; i++) {
		key[i] = x->nk;
		for (unsigned k = 0; k < x->nk; k++)
			if (!strcmp(x->e->keys[k].param->key, sel->key[i]))
				key[i] = k;
		if (key[i] == x->nk || !lab_strmap_get(&x->number, key[i], sel->value[i], &want[i]))
			return 0; /* no planned point has that value */
		if (x->start[want[i] + 1] - x->start[want[i]] <
		    x->start[want[shortest] + 1] - x->start[want[shortest]])
			shortest = i;
	}
	if (!sel->nparam) {
		if (first && x->np)
			*first = 0;
		return x->np;
	}
	for (unsigned p = x->start[want[shortest]]; p < x->start[want[shortest] + 1]; p++) {
		const unsigned *id = &x->id[(size_t)x->pts[p] * x->nk];
		int match = 1;
		ps_probes++;
		for (unsigned i = 0; i < sel->nparam && match; i++)
			match = id[key[i]] == want[i];
		if (match && !n++ && first)
			*first = x->pts[p];
	}
	return n;
}

unsigned long long lab_plan_lesson_probes(void)
{
	return ps_probes;
}
