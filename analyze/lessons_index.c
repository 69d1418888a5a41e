/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The points a lesson's selector may name, found without scanning every point for every
 * selector (lessons_int.h): a run.json with thousands of lessons over a run of 100 000 points
 * took minutes that way. Each point is listed under "EXPERIMENT<US>key=value" for every item
 * of its params and under "EXPERIMENT<US>threads=N"; a selector scans the shortest list among
 * its items, or no list at all when one of them names nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/jsonr.h"
#include "analyze/lessons_int.h"

static unsigned long long ev_probes;

/* Adds "EXP<US>ITEM" for point i as entry n; 0 or -1 out of memory. */
static int ev_px_entry(struct ev_pindex *x, const char *exp, const char *item, size_t len, size_t i,
                       size_t n)
{
	char *s = malloc(strlen(exp) + len + 2);
	size_t id;
	int added = 0;

	if (!s)
		return -1;
	sprintf(s, "%s\x1f%.*s", exp, (int)len, item);
	if ((id = lab_an_strset_add(&x->set, s, &added)) == (size_t)-1) {
		free(s);
		return -1;
	}
	if (!added)
		free(s);
	x->key[n] = id;
	x->pt[n] = i;
	return 0;
}

/* The entries of point p (its params items and its threads), from entry *n on. */
static int ev_px_point(struct ev_pindex *x, const struct lab_an_point *p, size_t i, size_t *n)
{
	char th[32];

	snprintf(th, sizeof(th), "threads=%d", p->threads);
	if (ev_px_entry(x, p->experiment, th, strlen(th), i, (*n)++))
		return -1;
	for (const char *s = p->params; s && *s;) {
		size_t len = strcspn(s, ";");

		if (len && ev_px_entry(x, p->experiment, s, len, i, (*n)++))
			return -1;
		s += len + (s[len] == ';');
	}
	return 0;
}

int lab__lesson_dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* x->pus from run.json's host.topology.pus_detail, sorted by cpu; 0 or -1 out of memory. */
static int ev_px_pus(struct ev_pindex *x, const struct lab_an_data *d)
{
	const struct lab_an_json *pus = lab_an_json_get(
	    lab_an_json_get(lab_an_json_get(d->run, "host"), "topology"), "pus_detail");

	if (!pus || pus->type != LAB_AN_JSON_ARR || !pus->n || pus->n > LAB_AN_LESSON_PUS_MAX)
		return 0;
	if (!(x->pus = malloc(3 * pus->n * sizeof(*x->pus))))
		return -1;
	for (size_t i = 0; i < pus->n; i++) {
		x->pus[3 * i] = lab_an_json_num(&pus->items[i], "cpu", -1);
		x->pus[3 * i + 1] = lab_an_json_num(&pus->items[i], "package", -1);
		x->pus[3 * i + 2] = lab_an_json_num(&pus->items[i], "core", -1);
	}
	qsort(x->pus, pus->n, 3 * sizeof(*x->pus), lab__lesson_dbl_cmp);
	x->npus = pus->n;
	return 0;
}

const double *lab__lesson_core(const struct ev_pindex *x, double cpu)
{
	const double *p =
	    x->npus ? bsearch(&cpu, x->pus, x->npus, 3 * sizeof(*x->pus), lab__lesson_dbl_cmp)
	            : NULL;

	return p && p[1] >= 0 && p[2] >= 0 ? p + 1 : NULL;
}

/* 1 when run.json's command_line is an array of strings without a --set (lab/cli_opts.c takes
 * "--set VAL" and "--set=VAL"); 0 when it has one or cannot tell. */
static int ev_px_no_set(const struct lab_an_data *d)
{
	const struct lab_an_json *cl = lab_an_json_get(d->run, "command_line");

	if (!cl || cl->type != LAB_AN_JSON_ARR)
		return 0;
	for (size_t i = 0; i < cl->n; i++)
		if (cl->items[i].type != LAB_AN_JSON_STR || !strcmp(cl->items[i].str, "--set") ||
		    !strncmp(cl->items[i].str, "--set=", 6))
			return 0;
	return 1;
}

int lab__lesson_index(struct ev_pindex *x, const struct lab_an_data *d)
{
	size_t n = 0, cap = 0;

	memset(x, 0, sizeof(*x));
	for (size_t i = 0; i < d->npt; i++) {
		cap += 1;
		for (const char *s = d->pt[i].params; s && *s; s++)
			cap += *s == ';';
		cap += d->pt[i].params && *d->pt[i].params;
	}
	x->key = malloc((cap ? cap : 1) * sizeof(*x->key));
	x->pt = malloc((cap ? cap : 1) * sizeof(*x->pt));
	x->order = malloc((cap ? cap : 1) * sizeof(*x->order));
	if (!x->key || !x->pt || !x->order)
		return -1;
	for (size_t i = 0; i < d->npt; i++)
		if (ev_px_point(x, &d->pt[i], i, &n))
			return -1;
	if (!(x->max_team = calloc(d->npt ? d->npt : 1, sizeof(*x->max_team))))
		return -1;
	for (size_t i = 0, e; i < d->npt; i++) {
		if ((e = lab_an_strset_add(&x->exps, d->pt[i].experiment, NULL)) == (size_t)-1)
			return -1;
		if (d->pt[i].threads > x->max_team[e])
			x->max_team[e] = d->pt[i].threads;
	}
	for (size_t i = 0; i < d->nmetric; i++)
		if (lab_an_strset_add(&x->metrics, d->metric_name[i], NULL) == (size_t)-1)
			return -1;
	if (!(x->end = calloc(x->set.n ? x->set.n : 1, sizeof(*x->end))) || ev_px_pus(x, d))
		return -1;
	const struct lab_an_json *host = lab_an_json_get(d->run, "host");
	const char *hv = lab_an_json_str(host, "hypervisor");
	snprintf(x->hypervisor, sizeof(x->hypervisor), "%.*s", hv ? lab_an_utf8_fit(hv, 40) : 0,
	         hv ? hv : "");
	x->numa_nodes = (int)lab_an_json_num(lab_an_json_get(host, "topology"), "numa_nodes", 0);
	x->no_set = ev_px_no_set(d);
	lab_an_bucket(x->key, n, x->set.n, x->order, x->end);
	x->ok = 1;
	return 0;
}

void lab__lesson_index_free(struct ev_pindex *x)
{
	lab_an_strset_free_owned(&x->set);
	lab_an_strset_free_owned(&x->amt);
	free(x->amt_pt);
	lab_an_strset_free(&x->exps);
	free(x->max_team);
	lab_an_strset_free(&x->metrics);
	free(x->key);
	free(x->pt);
	free(x->order);
	free(x->end);
	free(x->pus);
	memset(x, 0, sizeof(*x));
}

/* The list of "EXP<US>key=value": *list and *n; 0 when there is no such entry. */
static int ev_px_list(const struct ev_pindex *x, const char *exp, const char *key,
                      const char *value, const size_t **list, size_t *n)
{
	char s[600];
	size_t id;

	if ((size_t)snprintf(s, sizeof(s), "%s\x1f%s=%s", exp, key, value) >= sizeof(s) ||
	    (id = lab_an_strset_find(&x->set, s)) == (size_t)-1)
		return 0;
	*list = x->order + (id ? x->end[id - 1] : 0);
	*n = x->end[id] - (id ? x->end[id - 1] : 0);
	return 1;
}

/* A key whose absence from a point's params also matches (lessons.c: ev_point_matches). */
static int ev_px_defaulted(const char *key, const char *want)
{
	return !*want || (!strcmp(key, "membind") && !strcmp(want, "local")) ||
	       (!strcmp(key, "perf_c2c") && !strcmp(want, "off"));
}

size_t lab__lesson_candidates(const struct ev_pindex *x, const struct lab_lesson_sel *sel,
                              int threads_at, const size_t **list)
{
	char th[32];
	const size_t *l;
	size_t best = (size_t)-1, n;

	*list = NULL;
	if (!x->ok)
		return best; /* no index: every point */
	if (threads_at >= 0) {
		snprintf(th, sizeof(th), "%d", threads_at);
		if (!ev_px_list(x, sel->experiment, "threads", th, list, &best))
			return 0;
	}
	for (unsigned i = 0; i < sel->nparam; i++) {
		const char *key = sel->key[i], *want = sel->value[i];
		int threads = !strcmp(key, "threads");

		if (threads && threads_at >= 0)
			continue;
		if (threads) /* compared as a number: "02" names threads=2 */
			snprintf(th, sizeof(th), "%ld", strtol(want, NULL, 10));
		/* points without the key match too, and a value past what a point's params are read
		 * with (255 bytes) is compared cut: no list holds them all */
		else if (ev_px_defaulted(key, want) || strlen(want) >= 255)
			continue;
		if (!ev_px_list(x, sel->experiment, key, threads ? th : want, &l, &n))
			return 0;
		if (n < best) {
			best = n;
			*list = l;
		}
	}
	return best;
}

/* The amount of key=value as the loader reads it, into buf; NULL when it is no amount or is
 * written as one already. */
static const char *ev_amount(const char *key, const char *value, char *buf, size_t len)
{
	char item[600];
	const char *got;

	if ((size_t)snprintf(item, sizeof(item), "%s=%s", key, value) >= sizeof(item))
		return NULL;
	char *amt = lab_an_params_amounts(item);
	got = amt ? lab_an_params_get(amt, key, buf, len) : NULL;
	got = got && strcmp(got, value) ? got : NULL;
	free(amt);
	return got;
}

/* Lists under x->amt the items of point i whose amount is written otherwise; 0 or -1. */
static int ev_amt_point(struct ev_pindex *x, const struct lab_an_point *p, size_t i)
{
	char *amt = lab_an_params_amounts(p->params);
	const char *v = p->params, *a = amt;
	int rc = amt ? 0 : -1;

	lab__lesson_probe();
	while (!rc && *v && *a) {
		size_t vl = strcspn(v, ";"), al = strcspn(a, ";"), id;
		int added = 0;

		if (vl != al || memcmp(v, a, vl)) {
			char *s = lab_an_asprintf("%s\x1f%.*s", p->experiment, (int)al, a);

			id = s ? lab_an_strset_add(&x->amt, s, &added) : (size_t)-1;
			if (!added)
				free(s);
			if (id == (size_t)-1 ||
			    lab_an_grow(&x->amt_pt, &x->amt_cap, x->amt.n, sizeof(*x->amt_pt)))
				rc = -1;
			else if (added)
				x->amt_pt[id] = i;
		}
		v += vl + (v[vl] == ';');
		a += al + (a[al] == ';');
	}
	free(amt);
	return rc;
}

int lab__lesson_spelled(struct ev_pindex *x, const struct lab_an_data *d, const char *exp,
                        const char *key, const char *want, char *have, size_t len)
{
	char ab[64], s[600], got[256];
	const char *amt = ev_amount(key, want, ab, sizeof(ab));
	const size_t *l;
	size_t n, id;

	if (!x->ok || !strcmp(key, "threads"))
		return 0;
	/* want is not as the loader writes its amount, and a point writes it that way */
	if (amt && ev_px_list(x, exp, key, amt, &l, &n)) {
		snprintf(have, len, "%s=%s", key, amt);
		return 1;
	}
	for (size_t i = 0; !x->amt_built && i < d->npt; i++)
		if (ev_amt_point(x, &d->pt[i], i))
			x->amt_built = -1;
	x->amt_built = x->amt_built ? x->amt_built : 1;
	/* a point writes the amount otherwise than want */
	if (x->amt_built < 0 ||
	    (size_t)snprintf(s, sizeof(s), "%s\x1f%s=%s", exp, key, amt ? amt : want) >=
	        sizeof(s) ||
	    (id = lab_an_strset_find(&x->amt, s)) == (size_t)-1 ||
	    !lab_an_params_get(d->pt[x->amt_pt[id]].params, key, got, sizeof(got)) ||
	    !strcmp(got, want))
		return 0;
	snprintf(have, len, "%s=%s", key, got);
	return 1;
}

long lab__lesson_max_team(const struct ev_pindex *x, const char *exp)
{
	size_t e = x->ok ? lab_an_strset_find(&x->exps, exp) : (size_t)-1;

	return e == (size_t)-1 ? 0 : x->max_team[e];
}

int lab__lesson_has_experiment(const struct ev_pindex *x, const char *exp)
{
	return x->ok && lab_an_strset_find(&x->exps, exp) != (size_t)-1;
}

void lab__lesson_probe(void)
{
	ev_probes++;
}

unsigned long long lab_an_lessons_probes(void)
{
	return ev_probes;
}
