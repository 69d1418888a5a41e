/* SPDX-License-Identifier: GPL-3.0-or-later */
/* run.json: provenance, the status of every planned point, and skipped/failed points. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/csv.h"
#include "analyze/data_int.h"
#include "harness/record_schema.h"

/* Builds the canonical params of a run.json point: its params object plus the placement. */
/* The text of a params value: a string as is, a number in %.17g; NULL for other types. */
static const char *an_param_text(const struct lab_an_json *v, char *num, size_t len)
{
	if (v->type == LAB_AN_JSON_NUM) {
		snprintf(num, len, "%.17g", v->num);
		return num;
	}
	return v->str;
}

/* Appends ";key=value" (no ';' first) at *k; out was sized by the caller. */
static void an_param_put(char *out, size_t *k, const char *key, const char *v)
{
	*k += (size_t)sprintf(out + *k, "%s%s=%s", *k ? ";" : "", key, v ? v : "");
}

/* Builds the canonical params of a run.json point: its params object plus the placement. One
 * buffer sized up front: appending item by item was quadratic in the number of params. */
static char *an_json_params(const struct lab_an_json *pt)
{
	const struct lab_an_json *pa = lab_an_json_get(pt, LAB_KEY_PARAMS);
	const char *placement = lab_an_json_str(pt, LAB_KEY_PLACEMENT);
	size_t n = pa && pa->type == LAB_AN_JSON_OBJ ? pa->n : 0, len = 1, k = 0;
	char *raw, *canon, num[64];
	int has_placement = 0;

	for (size_t i = 0; i < n; i++) {
		const char *v = an_param_text(&pa->items[i], num, sizeof(num));

		len += strlen(pa->keys[i]) + (v ? strlen(v) : 0) + 2;
	}
	len += placement ? strlen(placement) + 16 : 0;
	if (!(raw = malloc(len)))
		return NULL;
	raw[0] = 0;
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(pa->keys[i], LAB_KEY_THREADS))
			continue;
		has_placement |= !strcmp(pa->keys[i], LAB_KEY_PLACEMENT);
		an_param_put(raw, &k, pa->keys[i], an_param_text(&pa->items[i], num, sizeof(num)));
	}
	if (placement && !has_placement)
		an_param_put(raw, &k, LAB_KEY_PLACEMENT, placement);
	canon = lab_an_params_canon(raw);
	free(raw);
	return canon;
}

static int an_run_point(struct lab_an_data *d, const char *exp, const struct lab_an_json *jp)
{
	long id = (long)lab_an_json_num(jp, LAB_KEY_POINT, -1);
	const char *status = lab_an_json_str(jp, LAB_KEY_STATUS),
	           *reason = lab_an_json_str(jp, LAB_KEY_REASON);
	struct lab_an_point *p;
	size_t hint = 0;

	p = lab_an_point_by_id(d, exp, id);
	/* A point with rows in samples.csv that run.json still lists as to come (the run was
	 * killed between the two writes): the rows decide. "not_run" is the run's own word that
	 * the point's rows, if any, are not to be used. */
	if (p && status && (!strcmp(status, "planned") || !strcmp(status, "running")))
		status = NULL;
	if (!p) {
		char *params = an_json_params(jp);

		if (!params)
			return -LAB_ENOMEM;
		p = lab_an_point_find(d, exp, id, (int)lab_an_json_num(jp, LAB_KEY_THREADS, 0),
		                      params, &hint);
		free(params);
		if (!p)
			return -LAB_ENOMEM;
		if (status && !strcmp(status, "ok"))
			status = "missing";
		if (!reason && status && !strcmp(status, "missing"))
			reason = "no samples recorded (interrupted run?)";
	}
	if (status) {
		free(p->status);
		p->status = lab_an_strdup(status);
	}
	if (reason && !*reason)
		reason = NULL; /* the run side writes "" for "no reason" */
	if (reason && !p->reason)
		p->reason = lab_an_strdup(reason);
	if (!p->facts)
		p->facts = lab_an_json_get(jp, LAB_KEY_POINT_FACTS);
	if (!p->runjson)
		p->runjson = jp;
	p->flagged_runq = lab_an_json_num(jp, LAB_KEY_FLAGGED_RUNQ, 0);
	if (!p->kernel && lab_an_json_str(jp, LAB_KEY_KERNEL))
		p->kernel = lab_an_strdup(lab_an_json_str(jp, LAB_KEY_KERNEL));
	return p->status ? 0 : -LAB_ENOMEM;
}

/* A params item that would not survive the "k=v;k=v" form the points are matched by. */
static int an_param_bad(const char *key, const struct lab_an_json *v)
{
	if (!*key || strpbrk(key, ";="))
		return 1;
	if (v->type == LAB_AN_JSON_NUM)
		return 0;
	return v->type != LAB_AN_JSON_STR || strchr(v->str, ';');
}

/* A point_facts value: a number, boolean, string, or an array of numbers (a histogram). */
static int an_fact_bad(const struct lab_an_json *v)
{
	if (v->type == LAB_AN_JSON_NUM || v->type == LAB_AN_JSON_BOOL || v->type == LAB_AN_JSON_STR)
		return 0;
	if (v->type != LAB_AN_JSON_ARR)
		return 1;
	for (size_t i = 0; i < v->n; i++)
		if (v->items[i].type != LAB_AN_JSON_NUM)
			return 1;
	return 0;
}

static int an_facts_check(const char *path, const struct lab_an_json *jp, struct lab_err *err)
{
	const struct lab_an_json *v = lab_an_json_get(jp, LAB_KEY_POINT_FACTS);

	if (v && v->type != LAB_AN_JSON_OBJ)
		return lab_err_set(err, LAB_EDATA, "%s:%zu: \"%s\": allowed: an object", path,
		                   v->line, LAB_KEY_POINT_FACTS);
	for (size_t i = 0; v && i < v->n; i++)
		if (an_fact_bad(&v->items[i]))
			return lab_err_set(err, LAB_EDATA,
			                   "%s:%zu: point fact '%s': allowed: a number, boolean, "
			                   "string or an array of numbers",
			                   path, v->items[i].line, v->keys[i]);
	return 0;
}

/* A member that is there and not a whole number 0 .. LAB_AN_COUNT_MAX. */
static int an_count_bad(const struct lab_an_json *v)
{
	return v && (v->type != LAB_AN_JSON_NUM || !(v->num >= 0) || v->num > LAB_AN_COUNT_MAX ||
	             v->num != floor(v->num));
}

/* A member that is there and not a boolean. */
static int an_bool_bad(const struct lab_an_json *v)
{
	return v && v->type != LAB_AN_JSON_BOOL;
}

/* The run level and precision members as the harness writes them (harness/results_json.c):
 * unchecked, a target of 1e308 printed "+-inf% asked" and samples = -3 "with -3 samples". */
static int an_prec_check(const char *path, const struct lab_an_json *jp, struct lab_err *err)
{
	static const char *const counts[] = {LAB_KEY_RUNS, LAB_KEY_RUNS_PLANNED, LAB_KEY_SAMPLES},
	                         *bools[] = {LAB_KEY_BUDGET_EXHAUSTED, LAB_KEY_TOTAL_EXHAUSTED};
	const struct lab_an_json *v;

	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		if (an_count_bad(v = lab_an_json_get(jp, counts[i])))
			return lab_err_set(err, LAB_EDATA,
			                   "%s:%zu: \"%s\": allowed: a whole number 0 .. %.0f",
			                   path, v->line, counts[i], LAB_AN_COUNT_MAX);
	for (size_t i = 0; i < 2; i++)
		if (an_bool_bad(v = lab_an_json_get(jp, bools[i])))
			return lab_err_set(err, LAB_EDATA, "%s:%zu: \"%s\": allowed: true or false",
			                   path, v->line, bools[i]);
	v = lab_an_json_get(jp, LAB_KEY_PRECISION_TARGET);
	if (v && (v->type != LAB_AN_JSON_NUM ||
	          !(v->num >= LAB_PREC_TARGET_MIN && v->num <= LAB_PREC_TARGET_MAX)))
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%zu: \"%s\": allowed: a fraction %g .. %g (what a config's "
		                   "precision may ask)",
		                   path, v->line, LAB_KEY_PRECISION_TARGET, LAB_PREC_TARGET_MIN,
		                   LAB_PREC_TARGET_MAX);
	v = lab_an_json_get(jp, LAB_KEY_PRECISION_ACHIEVED);
	if (v && v->type != LAB_AN_JSON_NULL &&
	    (v->type != LAB_AN_JSON_NUM || !(v->num >= 0) || !isfinite(v->num)))
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%zu: \"%s\": allowed: a finite number >= 0, or null "
		                   "(unknown)",
		                   path, v->line, LAB_KEY_PRECISION_ACHIEVED);
	return 0;
}

/* The amounts a point declares per unit of work (harness/results_json.c), which become its GB/s
 * and flops/byte: unchecked, bytes_read = -8 gave 0 GB/s [0, 0]. */
static int an_work_check(const char *path, const struct lab_an_json *jp, struct lab_err *err)
{
	static const char *const keys[] = {"bytes_read", "bytes_written", "flops",
	                                   "bytes_write_allocate"};
	const struct lab_an_json *w = lab_an_json_get(jp, LAB_KEY_WORK_PER_UNIT), *v;

	if (w && w->type != LAB_AN_JSON_OBJ)
		return lab_err_set(err, LAB_EDATA, "%s:%zu: \"%s\": allowed: an object", path,
		                   w->line, LAB_KEY_WORK_PER_UNIT);
	for (size_t i = 0; w && i < sizeof(keys) / sizeof(keys[0]); i++) {
		v = lab_an_json_get(w, keys[i]);
		if (v && (v->type != LAB_AN_JSON_NUM || !(v->num >= 0) ||
		          !(v->num <= LAB_AN_WORK_PER_UNIT_MAX)))
			return lab_err_set(err, LAB_EDATA,
			                   "%s:%zu: %s \"%s\": allowed: a number 0 .. %g per unit "
			                   "of work",
			                   path, v->line, LAB_KEY_WORK_PER_UNIT, keys[i],
			                   LAB_AN_WORK_PER_UNIT_MAX);
	}
	if (w && an_bool_bad(v = lab_an_json_get(w, "bandwidth_bound")))
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%zu: %s \"bandwidth_bound\": allowed: true "
		                   "or false",
		                   path, v->line, LAB_KEY_WORK_PER_UNIT);
	return 0;
}

/* A point entry of run.json, checked before anything of it is used. */
static int an_run_check(const char *path, const struct lab_an_json *jp, struct lab_err *err)
{
	const struct lab_an_json *v;
	const char *st;
	char list[] = "|" LAB_POINT_STATUSES "|", want[80];

	if (jp->type != LAB_AN_JSON_OBJ)
		return lab_err_set(err, LAB_EDATA, "%s:%zu: a point: allowed: an object", path,
		                   jp->line);
	v = lab_an_json_get(jp, LAB_KEY_POINT);
	if (!v || v->type != LAB_AN_JSON_NUM || !(v->num >= 0) || v->num > 9007199254740992.0 ||
	    v->num != (double)(long)v->num)
		return lab_err_set(err, LAB_EDATA, "%s:%zu: \"%s\": allowed: a whole number >= 0",
		                   path, v ? v->line : jp->line, LAB_KEY_POINT);
	v = lab_an_json_get(jp, LAB_KEY_THREADS);
	if (!v || v->type != LAB_AN_JSON_NUM || !(v->num >= 1) ||
	    v->num > (double)LAB_AN_THREADS_MAX || v->num != (double)(long)v->num)
		return lab_err_set(err, LAB_EDATA, "%s:%zu: \"%s\": allowed: 1 .. %ld", path,
		                   v ? v->line : jp->line, LAB_KEY_THREADS, LAB_AN_THREADS_MAX);
	v = lab_an_json_get(jp, LAB_KEY_STATUS);
	st = v && v->type == LAB_AN_JSON_STR ? v->str : NULL;
	snprintf(want, sizeof(want), "|%s|", st ? st : "");
	if (v && (!st || !*st || strchr(st, '|') || strlen(st) > 40 || !strstr(list, want)))
		return lab_err_set(err, LAB_EDATA, "%s:%zu: \"%s\": allowed: %s", path, v->line,
		                   LAB_KEY_STATUS, LAB_POINT_STATUSES);
	v = lab_an_json_get(jp, LAB_KEY_PARAMS);
	if (v && v->type != LAB_AN_JSON_OBJ)
		return lab_err_set(err, LAB_EDATA, "%s:%zu: \"%s\": allowed: an object", path,
		                   v->line, LAB_KEY_PARAMS);
	for (size_t i = 0; v && i < v->n; i++)
		if (an_param_bad(v->keys[i], &v->items[i]))
			return lab_err_set(err, LAB_EDATA,
			                   "%s:%zu: param '%s': allowed: a key without ';' or '=' "
			                   "and a string or number value without ';'",
			                   path, v->items[i].line, v->keys[i]);
	int rc = an_facts_check(path, jp, err);
	if (!rc)
		rc = an_prec_check(path, jp, err);
	return rc ? rc : an_work_check(path, jp, err);
}

static int an_cmp_rline(const void *a, const void *b)
{
	const long *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return (x[1] > y[1]) - (x[1] < y[1]);
}

/* Point ids are global to a run: one id twice would merge or hide a point. */
static int an_run_unique(const char *path, long *ids, size_t n, struct lab_err *err)
{
	if (n < 2)
		return 0; /* and qsort must not see a NULL array */
	qsort(ids, n, 2 * sizeof(*ids), an_cmp_rline);
	for (size_t i = 1; i < n; i++)
		if (ids[2 * i] == ids[2 * i - 2])
			return lab_err_set(err, LAB_EDATA,
			                   "%s:%ld: point %ld again (first at line %ld), allowed: "
			                   "each point once",
			                   path, ids[2 * i + 1], ids[2 * i], ids[2 * i - 1]);
	return 0;
}

static int an_run_experiment(struct lab_an_data *d, const char *path, const struct lab_an_json *x,
                             long **ids, size_t *nid, size_t *cap, struct lab_err *err)
{
	const struct lab_an_json *pts = lab_an_json_get(x, LAB_KEY_POINTS);
	const char *name = lab_an_json_str(x, LAB_KEY_NAME), *kernel;
	int rc;

	if (!name || !*name)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%zu: an experiment: allowed: an object with a \"%s\"", path,
		                   x->line, LAB_KEY_NAME);
	if (pts && pts->type != LAB_AN_JSON_ARR)
		return lab_err_set(err, LAB_EDATA, "%s:%zu: \"%s\": allowed: an array", path,
		                   pts->line, LAB_KEY_POINTS);
	if (lab_an_exp_find(d, name) != (size_t)-1)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%zu: experiment '%s' again, allowed: each name once", path,
		                   x->line, name);
	if (lab_an_exp_add(d, name,
	                   (size_t)(x - lab_an_json_get(d->run, LAB_KEY_EXPERIMENTS)->items)))
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	kernel = lab_an_json_str(x, LAB_KEY_KERNEL);
	for (size_t i = 0; pts && i < pts->n; i++) {
		size_t before = d->npt;

		if ((rc = an_run_check(path, &pts->items[i], err)))
			return rc;
		if (lab_an_grow(ids, cap, *nid + 1, 2 * sizeof(**ids)))
			return lab_err_set(err, LAB_ENOMEM, "out of memory");
		(*ids)[2 * *nid] = (long)lab_an_json_num(&pts->items[i], LAB_KEY_POINT, -1);
		(*ids)[2 * *nid + 1] = (long)pts->items[i].line;
		(*nid)++;
		if (an_run_point(d, name, &pts->items[i]))
			return lab_err_set(err, LAB_ENOMEM, "out of memory");
		if (d->npt > before && !d->pt[before].kernel &&
		    !(d->pt[before].kernel = lab_an_strdup(kernel ? kernel : "?")))
			return lab_err_set(err, LAB_ENOMEM, "out of memory");
	}
	return 0;
}

/* run.json's "lessons", when there, is an array (the analyzer judges each of its claims; a
 * lesson it does not describe properly is "not run" with the reason, analyze/lessons.h): any
 * other value hid every claim without a word. */
static int an_run_lessons(const char *path, const struct lab_an_json *ls, struct lab_err *err)
{
	if (ls && ls->type != LAB_AN_JSON_ARR)
		return lab_err_set(err, LAB_EDATA, "%s:%zu: \"lessons\": allowed: an array", path,
		                   ls->line);
	return 0;
}

int lab_an_point_runs_short(const struct lab_an_point *p, size_t *runs, size_t *planned)
{
	double got = lab_an_json_num(p->runjson, LAB_KEY_RUNS, NAN),
	       want = lab_an_json_num(p->runjson, LAB_KEY_RUNS_PLANNED, NAN);

	if (!p->runjson || !p->status || strcmp(p->status, "ok") || !(got < want))
		return 0;
	*runs = (size_t)got; /* whole numbers 0 .. LAB_AN_COUNT_MAX: an_prec_check */
	*planned = (size_t)want;
	return 1;
}

/* One warning for the points that got fewer runs than planned, naming the first of them. */
static void an_run_short_warn(struct lab_an_data *d, const char *path)
{
	size_t n = 0, runs = 0, planned = 0, r, k;
	const struct lab_an_point *first = NULL;

	for (size_t i = 0; i < d->npt; i++)
		if (lab_an_point_runs_short(&d->pt[i], &r, &k) && !n++) {
			first = &d->pt[i];
			runs = r;
			planned = k;
		}
	if (n)
		lab_an_warn(
		    &d->warn,
		    "%s: %zu point%s got fewer runs than planned, the run ended first (point "
		    "%ld, [%s] threads=%d: %zu of %zu runs); their intervals come from "
		    "fewer run means, or with one run from its samples alone (no variance "
		    "between runs)",
		    path, n, n == 1 ? "" : "s", first->id, first->experiment, first->threads, runs,
		    planned);
}

int lab_an_run_points(struct lab_an_data *d, struct lab_err *err)
{
	const struct lab_an_json *exps = lab_an_json_get(d->run, LAB_KEY_EXPERIMENTS);
	char *path = lab_an_asprintf("%s/%s", d->source, LAB_FILE_RUN);
	long *ids = NULL;
	size_t nid = 0, cap = 0;
	int rc = 0;

	if (!path)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	if (d->run->type != LAB_AN_JSON_OBJ || (exps && exps->type != LAB_AN_JSON_ARR))
		rc = lab_err_set(err, LAB_EDATA,
		                 "%s:%zu: allowed: an object whose \"%s\" is an array", path,
		                 exps ? exps->line : d->run->line, LAB_KEY_EXPERIMENTS);
	for (size_t e = 0; !rc && exps && e < exps->n; e++)
		rc = an_run_experiment(d, path, &exps->items[e], &ids, &nid, &cap, err);
	if (!rc)
		rc = an_run_unique(path, ids, nid, err);
	if (!rc)
		rc = an_run_lessons(path, lab_an_json_get(d->run, "lessons"), err);
	if (!rc)
		an_run_short_warn(d, path);
	free(ids);
	free(path);
	return rc;
}

int lab_an_run_load(struct lab_an_data *d, const char *path, struct lab_err *err)
{
	char *text;
	size_t len;
	const char *schema;
	/* never through a link out of DIR; a NUL byte is refused where it is read */
	int rc = lab_an_input_read(path, LAB_AN_IN_NOFOLLOW, &text, &len, err);

	if (rc == -LAB_EDATA || rc == -LAB_ENOMEM)
		return rc;
	if (rc) {
		lab_an_warn(&d->warn, "%s; provenance and point status unknown", err->msg);
		return 0;
	}
	rc = lab_an_json_parse(path, text, len, &d->run, err);
	free(text);
	if (rc)
		return rc;
	schema = lab_an_json_str(d->run, LAB_KEY_SCHEMA);
	if (!schema || strcmp(schema, LAB_SCHEMA_RUN))
		lab_an_warn(&d->warn, "%s: schema is '%s', expected '%s'; reading it anyway", path,
		            schema ? schema : "(none)", LAB_SCHEMA_RUN);
	d->run_status = lab_an_json_str(d->run, LAB_KEY_STATUS);
	if (d->run_status && strcmp(d->run_status, "complete"))
		lab_an_warn(&d->warn, "%s: the run is '%s'; analyzing the points it finished", path,
		            d->run_status);
	return 0;
}
