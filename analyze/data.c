/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/data.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/csv.h"
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

int lab_an_data_load_dir(struct lab_an_data *d, const char *dir, struct lab_err *err)
{
	char *path = NULL;
	int rc = -LAB_ENOMEM;

	memset(d, 0, sizeof(*d));
	if (!(d->source = lab_an_strdup(dir)))
		goto nomem;
	if (!(path = lab_an_asprintf("%s/%s", dir, LAB_FILE_SAMPLES)))
		goto nomem;
	if ((rc = lab_an_samples_load(d, path, err)))
		goto out;
	free(path);
	if (!(path = lab_an_asprintf("%s/%s", dir, LAB_FILE_RUN)))
		goto nomem;
	if ((rc = lab_an_run_load(d, path, err)))
		goto out;
	if (d->run && (rc = lab_an_run_points(d, err)))
		goto out;
	free(path);
	if (!(path = lab_an_asprintf("%s/%s", dir, LAB_FILE_THREADS)))
		goto nomem;
	if (d->run && (rc = lab_an_threads_load(d, path, err)))
		goto out;
	if (!d->unit && !(d->unit = lab_an_strdup("ns/unit")))
		goto nomem;
	goto out;
nomem:
	rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
out:
	free(path);
	return rc;
}

static void an_msum(const struct lab_an_point *p, size_t m, size_t nm, int inc, double *work,
                    double *tmp, struct lab_an_msum *ms)
{
	struct lab_an_stats st;
	size_t k = 0;

	for (size_t i = 0; i < p->n; i++) {
		double v = p->metric[i * nm + m];

		if (!isnan(v) && (inc || !p->flagged[i]))
			tmp[k++] = v;
	}
	lab_an_stats_compute(tmp, k, work, &st);
	ms->n = k;
	ms->median = k ? st.median : NAN;
	ms->mean = k ? st.mean : NAN;
	ms->ci95_lo = k ? st.ci95_lo : NAN;
	ms->ci95_hi = k ? st.ci95_hi : NAN;
}

int lab_an_data_summarize(struct lab_an_data *d, int include_flagged, struct lab_err *err)
{
	return lab_an_data_summarize_modes(d, include_flagged, 1, err);
}

int lab_an_data_summarize_modes(struct lab_an_data *d, int include_flagged, int modes,
                                struct lab_err *err)
{
	size_t maxn = 1;
	double *used, *work;
	int rc = 0;

	for (size_t i = 0; i < d->npt; i++)
		maxn = d->pt[i].n > maxn ? d->pt[i].n : maxn;
	used = malloc(maxn * sizeof(*used));
	work = malloc(maxn * sizeof(*work));
	if (!used || !work)
		goto nomem;
	for (size_t i = 0; i < d->npt; i++) {
		struct lab_an_point *p = &d->pt[i];
		size_t k = 0;

		p->n_flagged = 0;
		for (size_t j = 0; j < p->n; j++) {
			if (p->flagged[j] && !include_flagged)
				p->n_flagged++;
			else
				used[k++] = p->cost[j];
		}
		lab_an_stats_compute(used, k, work, &p->st);
		/* A cost is a time per unit, > 0: a t-interval reaching below 0 (few, spread
		 * samples) is clipped there, which keeps its coverage and never shows a negative
		 * time (the rates' upper ends then read unbounded). */
		if (p->st.ci95_lo < 0)
			p->st.ci95_lo = 0;
		if (p->st.ci99_lo < 0)
			p->st.ci99_lo = 0;
		/* modes of costs that are all > 0 or not: only running out of memory fails */
		memset(&p->modes, 0, sizeof(p->modes));
		if (modes && lab_an_modes_measured(used, k, &p->modes) == -LAB_ENOMEM)
			goto nomem;
		free(p->msum);
		p->msum = d->nmetric ? calloc(d->nmetric, sizeof(*p->msum)) : NULL;
		if (d->nmetric && !p->msum)
			goto nomem;
		for (size_t m = 0; m < d->nmetric; m++)
			an_msum(p, m, d->nmetric, include_flagged, work, used, &p->msum[m]);
	}
	goto out;
nomem:
	rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
out:
	free(used);
	free(work);
	return rc;
}

void lab_an_data_free(struct lab_an_data *d)
{
	for (size_t i = 0; i < d->npt; i++) {
		struct lab_an_point *p = &d->pt[i];

		free(p->experiment);
		free(p->kernel);
		free(p->unit);
		free(p->params);
		free(p->params_written);
		free(p->status);
		free(p->reason);
		free(p->cost);
		free(p->flagged);
		free(p->metric);
		free(p->run);
		free(p->msum);
	}
	free(d->pt);
	for (size_t m = 0; m < d->nmetric; m++)
		free(d->metric_name[m]);
	free(d->metric_name);
	free(d->source);
	free(d->unit);
	lab_an_json_free(d->run);
	lab_an_warnings_free(&d->warn);
	lab_an_index_free(&d->ix_point);
	lab_an_index_free(&d->ix_id);
	lab_an_index_free(&d->ix_exp);
	memset(d, 0, sizeof(*d));
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

const struct lab_an_json *lab_an_data_experiment(const struct lab_an_data *d,
                                                 const char *experiment)
{
	size_t e = lab_an_exp_find(d, experiment);

	return e == (size_t)-1 ? NULL : &lab_an_json_get(d->run, LAB_KEY_EXPERIMENTS)->items[e];
}

int lab_an_data_is_weak(const struct lab_an_data *d, const char *experiment)
{
	size_t e = lab_an_exp_find(d, experiment);
	const char *sc;

	if (e == (size_t)-1)
		return 0;
	sc = lab_an_json_str(&lab_an_json_get(d->run, LAB_KEY_EXPERIMENTS)->items[e],
	                     LAB_KEY_SCALING);
	return sc && !strcmp(sc, "weak");
}

const char *lab_an_point_unit(const struct lab_an_data *d, const struct lab_an_point *p)
{
	return p && p->unit ? p->unit : d->unit;
}

/* Per enum lab_work_scope: the short qualifier and the sentence that explains it. */
static const char *const an_scope_name[] = LAB_WORK_SCOPE_NAMES;
static const char *const an_scope_short[] = {
    "all threads together",
    "one unit for the whole team",
    "thread 0's units only",
};
static const char *const an_scope_long[] = {
    ("wall time per unit of the whole team's work, all threads together; one thread's own "
     "time per unit is about this times the threads"),
    "wall time per unit; each unit involves the whole team and is counted once",
    "wall time per unit that thread 0 did; the other threads' work is not counted",
};

int lab_an_cost_scope(const struct lab_an_data *d, const char *experiment)
{
	size_t e = lab_an_exp_find(d, experiment);
	const char *v;

	if (e == (size_t)-1)
		return -1;
	v = lab_an_json_str(&lab_an_json_get(d->run, LAB_KEY_EXPERIMENTS)->items[e],
	                    LAB_KEY_WORK_SCOPE);
	for (int i = 0; v && i < (int)(sizeof(an_scope_name) / sizeof(an_scope_name[0])); i++)
		if (!strcmp(v, an_scope_name[i]))
			return i;
	return -1;
}

int lab_an_cost_latency(const struct lab_an_data *d, const char *experiment)
{
	size_t e = lab_an_exp_find(d, experiment);
	const char *v;

	if (e == (size_t)-1)
		return 0;
	v = lab_an_json_str(&lab_an_json_get(d->run, LAB_KEY_EXPERIMENTS)->items[e],
	                    LAB_KEY_COST_KIND);
	return v && !strcmp(v, "latency");
}

const char *lab_an_cost_label(const struct lab_an_data *d, const struct lab_an_point *p, char *buf,
                              size_t len)
{
	const char *unit = lab_an_point_unit(d, p);
	int sc = p ? lab_an_cost_scope(d, p->experiment) : -1;

	if (sc < 0)
		snprintf(buf, len, "%s", unit);
	else
		snprintf(buf, len, "%s, %s", unit, an_scope_short[sc]);
	return buf;
}

const char *lab_an_cost_whose(const struct lab_an_data *d, const struct lab_an_point *p)
{
	int sc = p ? lab_an_cost_scope(d, p->experiment) : -1;

	return sc < 0 ? NULL : an_scope_long[sc];
}
