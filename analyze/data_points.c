/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The loaded points and experiments, found by key: a params string in canonical order, the
 * point of (experiment, id, threads, params) appended when new, run.json's experiments by name.
 * The loaders (data_run.c, data_samples.c, data_csv.c) build the data set through these.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/data.h"
#include "analyze/data_int.h"
#include "harness/record_schema.h"

static int an_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorts the k=v items of a params string so the same set always reads the same. */
char *lab_an_params_canon(const char *params)
{
	char *copy = lab_an_strdup(params), *out = NULL, **item = NULL, *save = NULL, *tok;
	size_t n = 0, cap = 0, len = 0;

	if (!copy)
		return NULL;
	for (tok = strtok_r(copy, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
		if (lab_an_grow(&item, &cap, n + 1, sizeof(*item)))
			goto out;
		item[n++] = tok;
		len += strlen(tok) + 1;
	}
	if (n > 1)
		qsort(item, n, sizeof(*item), an_cmp_str);
	out = malloc(len + 1);
	if (!out)
		goto out;
	len = 0; /* now the write position: strcat from the start would be quadratic */
	for (size_t i = 0; i < n; i++) {
		size_t il = strlen(item[i]);

		if (i)
			out[len++] = ';';
		memcpy(out + len, item[i], il);
		len += il;
	}
	out[len] = 0;
out:
	free(item);
	free(copy);
	return out;
}

const char *lab_an_params_get(const char *params, const char *key, char *buf, size_t len)
{
	size_t kl = strlen(key);

	for (const char *p = params; p && *p;) {
		const char *end = strchr(p, ';');
		size_t il = end ? (size_t)(end - p) : strlen(p);

		if (il > kl && !strncmp(p, key, kl) && p[kl] == '=') {
			snprintf(buf, len, "%.*s", (int)(il - kl - 1), p + kl + 1);
			return buf;
		}
		p = end ? end + 1 : NULL;
	}
	return NULL;
}

char *lab_an_params_without(const char *params, const char *key)
{
	char *out = malloc(strlen(params) + 1);
	size_t k = 0, kl = strlen(key);

	if (!out)
		return NULL;
	for (const char *p = params; *p;) {
		const char *end = strchr(p, ';');
		size_t il = end ? (size_t)(end - p) : strlen(p);

		if (!(il > kl && !strncmp(p, key, kl) && p[kl] == '=')) {
			if (k)
				out[k++] = ';';
			memcpy(out + k, p, il);
			k += il;
		}
		p = end ? end + 1 : p + il;
	}
	out[k] = '\0';
	return out;
}

struct an_point_key {
	const struct lab_an_data *d;
	const char *exp, *params;
	long id;
	int threads;
};

static uint64_t an_id_hash(const char *exp, long id)
{
	return lab_an_hash_long(lab_an_hash_str(LAB_AN_HASH_INIT, exp), id);
}

static uint64_t an_point_hash(const struct an_point_key *k)
{
	return lab_an_hash_str(lab_an_hash_long(an_id_hash(k->exp, k->id), k->threads), k->params);
}

static int an_point_same(const void *ctx, size_t i)
{
	const struct an_point_key *k = ctx;
	const struct lab_an_point *p = &k->d->pt[i];

	return p->id == k->id && p->threads == k->threads && !strcmp(p->experiment, k->exp) &&
	       !strcmp(p->params, k->params);
}

static int an_id_same(const void *ctx, size_t i)
{
	const struct an_point_key *k = ctx;
	const struct lab_an_point *p = &k->d->pt[i];

	return p->id == k->id && !strcmp(p->experiment, k->exp);
}

struct lab_an_point *lab_an_point_by_id(const struct lab_an_data *d, const char *exp, long id)
{
	struct an_point_key k = {d, exp, NULL, id, 0};
	size_t i = lab_an_index_find(&d->ix_id, an_id_hash(exp, id), an_id_same, &k);

	return i == (size_t)-1 ? NULL : &d->pt[i];
}

/* Finds the point (experiment, id, threads, params) or appends it. The hash index keeps this
 * O(1) per row however many distinct points there are; *hint still saves the hashing when rows
 * come grouped by point, as the run side writes them. */
struct lab_an_point *lab_an_point_find(struct lab_an_data *d, const char *exp, long id, int threads,
                                       const char *params, size_t *hint)
{
	struct an_point_key k = {d, exp, params, id, threads};
	struct lab_an_point *p;
	uint64_t h;
	size_t i;

	if (*hint < d->npt && an_point_same(&k, *hint))
		return &d->pt[*hint];
	h = an_point_hash(&k);
	if ((i = lab_an_index_find(&d->ix_point, h, an_point_same, &k)) != (size_t)-1) {
		*hint = i;
		return &d->pt[i];
	}
	if (lab_an_grow(&d->pt, &d->cap, d->npt + 1, sizeof(*d->pt)) ||
	    lab_an_index_add(&d->ix_point, h, d->npt))
		return NULL;
	if (!lab_an_point_by_id(d, exp, id) &&
	    lab_an_index_add(&d->ix_id, an_id_hash(exp, id), d->npt))
		return NULL;
	p = &d->pt[d->npt];
	memset(p, 0, sizeof(*p));
	p->id = id;
	p->threads = threads;
	*hint = d->npt++;
	p->experiment = lab_an_strdup(exp);
	p->params = lab_an_strdup(params);
	p->status = lab_an_strdup("ok");
	if (!p->experiment || !p->params || !p->status)
		return NULL;
	return p;
}

int lab_an_point_add(struct lab_an_point *p, size_t nmetric, double cost, int flagged,
                     const double *metric)
{
	size_t cap = p->cap;

	if (lab_an_grow(&p->cost, &cap, p->n + 1, sizeof(*p->cost)))
		return -LAB_ENOMEM;
	cap = p->cap;
	if (lab_an_grow(&p->flagged, &cap, p->n + 1, 1))
		return -LAB_ENOMEM;
	if (nmetric) {
		cap = p->cap;
		if (lab_an_grow(&p->metric, &cap, (p->n + 1), nmetric * sizeof(*p->metric)))
			return -LAB_ENOMEM;
		memcpy(p->metric + p->n * nmetric, metric, nmetric * sizeof(*metric));
	}
	p->cap = cap;
	p->cost[p->n] = cost;
	p->flagged[p->n] = (unsigned char)(flagged != 0);
	p->n++;
	return 0;
}

struct an_exp_key {
	const struct lab_an_json *exps;
	const char *name;
};

static int an_exp_same(const void *ctx, size_t i)
{
	const struct an_exp_key *k = ctx;

	return !strcmp(lab_an_json_str(&k->exps->items[i], LAB_KEY_NAME), k->name);
}

/* Experiment names of run.json are unique (lab_an_run_points checks it) and indexed there, so
 * this is O(1) per series, not a scan of every experiment. */
size_t lab_an_exp_find(const struct lab_an_data *d, const char *experiment)
{
	struct an_exp_key k = {lab_an_json_get(d->run, LAB_KEY_EXPERIMENTS), experiment};

	if (!k.exps)
		return (size_t)-1;
	return lab_an_index_find(&d->ix_exp, lab_an_hash_str(LAB_AN_HASH_INIT, experiment),
	                         an_exp_same, &k);
}

int lab_an_exp_add(struct lab_an_data *d, const char *experiment, size_t e)
{
	return lab_an_index_add(&d->ix_exp, lab_an_hash_str(LAB_AN_HASH_INIT, experiment), e);
}
