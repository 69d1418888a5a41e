/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The loaded points and experiments, found by key: a params string in canonical order, the
 * point of (experiment, id, threads, params) appended when new, run.json's experiments by name.
 * The loaders (data_run.c, data_samples.c, data_csv.c) build the data set through these.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/data.h"
#include "analyze/data_int.h"
#include "analyze/units.h"
#include "harness/record_schema.h"
#include "harness/units.h"

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

size_t lab_an_params_dupkey(const char *canon, const char **key)
{
	/* sorted: the items of one key share the prefix "key=" and so stand together */
	for (const char *prev = NULL, *p = canon; p && *p;) {
		const char *eq = strchr(p, '='), *end = strchr(p, ';');

		if (eq && (!end || eq < end)) {
			if (prev && !strncmp(prev, p, (size_t)(eq - p) + 1)) {
				*key = p;
				return (size_t)(eq - p);
			}
			prev = p;
		}
		p = end ? end + 1 : NULL;
	}
	return 0;
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

int lab_an_params_is(const char *params, const char *key, const char *v)
{
	size_t kl = strlen(key);

	for (const char *p = params; p && *p;) {
		const char *end = strchr(p, ';');
		size_t il = end ? (size_t)(end - p) : strlen(p);

		if (il > kl && !strncmp(p, key, kl) && p[kl] == '=')
			return strlen(v) == il - kl - 1 && !strncmp(p + kl + 1, v, il - kl - 1);
		p = end ? end + 1 : NULL;
	}
	return -1;
}

int lab_an_params_has(const char *params, const char *item, size_t len)
{
	for (const char *p = params; p && *p; p = strchr(p, ';') ? strchr(p, ';') + 1 : NULL)
		if (strcspn(p, ";") == len && !strncmp(p, item, len))
			return 1;
	return 0;
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

/* The value of a size param in bytes, or a duration in ns, as "%.17g"; NULL for any other
 * value (or key) or one that does not parse. A duration key's bare number is ns (the planner
 * writes a zero duration bare, "cs_ns=0", and older results every one), and zero is "0" in any
 * unit (hostile37: a hand-edited cs_ns=0ns split a lock series into two); another key's bare
 * number is no amount (misalign=0 and misalign=0.0 are two values there, as 8 and 8.0 are). */
static const char *an_param_amount(const char *key, size_t klen, const char *v, size_t vlen,
                                   char *buf, size_t len)
{
	const struct lab_unit_suffix *units = lab_duration_suffixes;
	int bare = lab_an_key_in(lab_an_duration_keys, key, klen);
	char text[64], *end;
	double x;

	if (lab_an_key_in(lab_an_size_keys, key, klen))
		units = lab_size_suffixes;
	if (vlen >= sizeof(text))
		return NULL;
	memcpy(text, v, vlen);
	text[vlen] = '\0';
	if (units == lab_size_suffixes) {
		x = lab_an_size_bytes(text);
		return isnan(x) ? NULL : (snprintf(buf, len, "%.17g", x), buf);
	}
	x = strtod(text, &end);
	for (const struct lab_unit_suffix *u = units; end != text && *text != ' ' && u->name; u++)
		if (isfinite(x) && ((!*end && bare) || !strcmp(end, u->name))) {
			if (x == 0)
				snprintf(buf, len, "0");
			else
				snprintf(buf, len, "%.17gns", *end ? x * u->mult : x);
			return buf;
		}
	return NULL;
}

char *lab_an_params_amounts(const char *canon)
{
	size_t items = 1, n = 0;
	char *out, num[64];

	for (const char *p = canon; (p = strchr(p, ';')); p++)
		items++;
	/* an amount is at most 26 bytes ("%.17g" and "ns") */
	if (!(out = malloc(strlen(canon) + 32 * items)))
		return NULL;
	for (const char *p = canon; *p;) {
		const char *end = strchr(p, ';'), *eq = strchr(p, '=');
		size_t il = end ? (size_t)(end - p) : strlen(p), kl = eq ? (size_t)(eq - p) : il;
		const char *amt =
		    kl < il ? an_param_amount(p, kl, eq + 1, il - kl - 1, num, sizeof(num)) : NULL;

		n += (size_t)sprintf(out + n, "%.*s%s%s", (int)(amt ? kl + 1 : il), p,
		                     amt ? amt : "", end ? ";" : "");
		p += il + (end != NULL);
	}
	out[n] = '\0';
	return out;
}

struct an_cond_key {
	const struct lab_an_data *d;
	char *const *amounts; /* per point: its params with amounts in one unit */
	size_t i;
};

static uint64_t an_cond_hash(const struct an_cond_key *k)
{
	const struct lab_an_point *p = &k->d->pt[k->i];

	return lab_an_hash_str(
	    lab_an_hash_long(lab_an_hash_str(LAB_AN_HASH_INIT, p->experiment), p->threads),
	    k->amounts[k->i]);
}

static int an_cond_same(const void *ctx, size_t i)
{
	const struct an_cond_key *k = ctx;
	const struct lab_an_point *q = &k->d->pt[i], *p = &k->d->pt[k->i];

	return q->threads == p->threads && !strcmp(q->experiment, p->experiment) &&
	       !strcmp(k->amounts[i], k->amounts[k->i]);
}

/* The refusal of point p, whose conditions are point q's (spelled another way, it says so). */
static int an_points_same(const struct lab_an_data *d, const struct lab_an_point *p,
                          const struct lab_an_point *q, struct lab_err *err)
{
	char where[512], spelled[200] = "";

	lab__an_point_where(d, p, where, sizeof(where));
	if (strcmp(p->params, q->params))
		snprintf(spelled, sizeof(spelled), " ('%.80s' is '%.80s')", p->params, q->params);
	return lab_err_set(err, LAB_EDATA,
	                   "%s: point %ld of [%s] has the threads (%d) and params of point %ld%s, "
	                   "allowed: each (threads, params) once per experiment (points that "
	                   "differ in a run setting alone: one experiment per value)",
	                   where, p->id, p->experiment, p->threads, q->id, spelled);
}

int lab_an_points_distinct(const struct lab_an_data *d, struct lab_err *err)
{
	struct lab_an_index ix = {0};
	char **amounts = calloc(d->npt ? d->npt : 1, sizeof(*amounts));
	int rc = amounts ? 0 : lab_err_set(err, LAB_ENOMEM, "out of memory");

	for (size_t i = 0; i < d->npt && !rc; i++) {
		struct an_cond_key k = {d, amounts, i};
		uint64_t h;
		size_t j;

		if (!(amounts[i] = lab_an_params_amounts(d->pt[i].params))) {
			rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
			break;
		}
		h = an_cond_hash(&k);
		if ((j = lab_an_index_find(&ix, h, an_cond_same, &k)) != (size_t)-1)
			rc = an_points_same(d, &d->pt[i], &d->pt[j], err);
		else if (lab_an_index_add(&ix, h, i))
			rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
	}
	if (!rc)
		rc = lab__an_points_spelled_once(d, amounts, err);
	for (size_t i = 0; amounts && i < d->npt; i++)
		free(amounts[i]);
	free(amounts);
	lab_an_index_free(&ix);
	return rc;
}

/* Samples after which a point's columns stop being kept apart: a column new after them makes
 * the point's rows every column's (a file that adds one per sample costs rows x columns, no
 * more than it has bytes, not a copy per sample). */
#define AN_MCOL_ROWS 64

/* The most samples lab_an_point_reserve makes room for at once: past it the arrays grow by
 * doubling, so a point after a large one costs no more than a point's rows. */
#define AN_RESERVE_MAX AN_MCOL_ROWS

/* The place of column m in p's rows, or -1. */
static long an_mpos(const struct lab_an_point *p, size_t m)
{
	size_t lo = 0, hi = p->nmc;

	if (!p->mcol)
		return m < p->nmc ? (long)m : -1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->mcol[mid] < m)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->nmc && p->mcol[lo] == m ? (long)lo : -1;
}

double lab_an_metric(const struct lab_an_point *p, size_t i, size_t m)
{
	long k = an_mpos(p, m);

	return k < 0 ? NAN : p->metric[i * p->nmc + (size_t)k];
}

const struct lab_an_msum *lab_an_msum_of(const struct lab_an_point *p, size_t m)
{
	long k = p->msum ? an_mpos(p, m) : -1;

	return k < 0 ? NULL : &p->msum[k];
}

/* Makes p's rows hold the columns row has a value in (n of them new): a merged column list,
 * or every column (mcol NULL) past AN_MCOL_ROWS samples or half the columns; rows so far are
 * copied over, NaN in the new places. Room for p->cap rows. */
static int an_point_widen(struct lab_an_point *p, size_t nmetric, const double *row, size_t n)
{
	int dense = p->n > AN_MCOL_ROWS || p->nmc + n > nmetric / 2;
	size_t nn = dense ? nmetric : p->nmc + n, *col = dense ? NULL : malloc(nn * sizeof(*col));
	double *m = malloc((p->cap ? p->cap : 1) * nn * sizeof(*m));

	if (!m || (!dense && !col)) {
		free(m);
		free(col);
		return -LAB_ENOMEM;
	}
	for (size_t c = 0, k = 0; col && c < nmetric; c++)
		if (!isnan(row[c]) || an_mpos(p, c) >= 0)
			col[k++] = c;
	for (size_t i = 0; i < p->n; i++)
		for (size_t k = 0; k < nn; k++)
			m[i * nn + k] = lab_an_metric(p, i, col ? col[k] : k);
	free(p->metric);
	free(p->mcol);
	p->metric = m;
	p->mcol = col;
	p->nmc = nn;
	return 0;
}

int lab_an_point_reserve(struct lab_an_point *p, size_t cap, int runs)
{
	if (p->n || p->cap || p->run_cap || cap <= 8 || cap > AN_RESERVE_MAX)
		return 0;
	p->cost = malloc(cap * sizeof(*p->cost));
	p->flagged = malloc(cap);
	p->run = runs ? malloc(cap * sizeof(*p->run)) : NULL;
	if (!p->cost || !p->flagged || (runs && !p->run)) {
		free(p->cost);
		free(p->flagged);
		free(p->run);
		p->cost = NULL;
		p->flagged = NULL;
		p->run = NULL;
		return -LAB_ENOMEM;
	}
	p->cap = cap;
	p->run_cap = runs ? cap : 0;
	return 0;
}

int lab_an_point_add(struct lab_an_point *p, size_t nmetric, double cost, int flagged,
                     const double *metric)
{
	size_t cap = p->cap, n = 0;

	if (lab_an_grow(&p->cost, &cap, p->n + 1, sizeof(*p->cost)))
		return -LAB_ENOMEM;
	cap = p->cap;
	if (lab_an_grow(&p->flagged, &cap, p->n + 1, 1))
		return -LAB_ENOMEM;
	if (p->nmc) { /* the metric rows grow with the others, p->nmc wide */
		size_t mcap = p->cap;
		if (lab_an_grow(&p->metric, &mcap, p->n + 1, p->nmc * sizeof(*p->metric)))
			return -LAB_ENOMEM;
	}
	p->cap = cap;
	for (size_t c = 0; c < nmetric; c++)
		n += !isnan(metric[c]) && an_mpos(p, c) < 0;
	if (n && an_point_widen(p, nmetric, metric, n))
		return -LAB_ENOMEM;
	for (size_t k = 0; k < p->nmc; k++)
		p->metric[p->n * p->nmc + k] = metric[p->mcol ? p->mcol[k] : k];
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

struct an_order {
	long id;
	size_t at; /* the place it was read in: equal ids keep their order */
};

static int an_order_cmp(const void *a, const void *b)
{
	const struct an_order *x = a, *y = b;

	if (x->id != y->id)
		return (x->id > y->id) - (x->id < y->id);
	return (x->at > y->at) - (x->at < y->at);
}

/* The points in the plan's order (point ids count the config's experiments and sweeps in order),
 * not in the order their first sample was taken (the runner interleaves them), and the lookups
 * rebuilt over the new places. O(n log n). Returns 0 or -1 out of memory. */
int lab_an_points_plan_order(struct lab_an_data *d)
{
	struct an_order *o;
	struct lab_an_point *pt;
	size_t i;

	for (i = 1; i < d->npt && d->pt[i - 1].id <= d->pt[i].id; i++)
		;
	if (i >= d->npt)
		return 0;
	if (!(o = malloc(d->npt * sizeof(*o))) || !(pt = malloc(d->npt * sizeof(*pt)))) {
		free(o);
		return -1;
	}
	for (i = 0; i < d->npt; i++)
		o[i] = (struct an_order){d->pt[i].id, i};
	qsort(o, d->npt, sizeof(*o), an_order_cmp);
	for (i = 0; i < d->npt; i++)
		pt[i] = d->pt[o[i].at];
	memcpy(d->pt, pt, d->npt * sizeof(*pt));
	free(pt);
	free(o);
	lab_an_index_free(&d->ix_point);
	lab_an_index_free(&d->ix_id);
	for (i = 0; i < d->npt; i++) {
		const struct lab_an_point *p = &d->pt[i];
		struct an_point_key k = {d, p->experiment, p->params, p->id, p->threads};

		if (lab_an_index_add(&d->ix_point, an_point_hash(&k), i) ||
		    (!lab_an_point_by_id(d, p->experiment, p->id) &&
		     lab_an_index_add(&d->ix_id, an_id_hash(p->experiment, p->id), i)))
			return -1;
	}
	return 0;
}
