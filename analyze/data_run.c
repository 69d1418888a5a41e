/* SPDX-License-Identifier: GPL-3.0-or-later */
/* run.json: provenance, the status of every planned point, and skipped/failed points. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
	return v->type == LAB_AN_JSON_STR ? v->str : NULL;
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

/*
 * A point with rows in samples.csv (p) and its entry jp in run.json under experiment x say the
 * same: threads, params, kernel, unit of work, and (a finished point of a complete run) no more
 * samples than the reps run.json counted. Rows relabelled (lock=ticket for a tas point), added
 * (45 reps of a point of 5: a narrower interval) or of another kernel were analyzed as if
 * measured. 0, or an error naming both places.
 */
/* The runs samples.csv holds of a point agree with run.json's: no run past its "runs" (3 runs
 * of samples read "0 of 3 planned runs" with runs = 0, and were used as 3 run means with runs =
 * 1), and in a complete run no point still "planned", "running" or "not_run" has samples. */
static int an_run_point_runs(const struct lab_an_data *d, const struct lab_an_json *jp,
                             const struct lab_an_point *p, const char *status, const char *path,
                             struct lab_err *err)
{
	double runs = lab_an_json_num(jp, LAB_KEY_RUNS, NAN);
	double taken = lab_an_json_num(jp, LAB_KEY_SAMPLES, NAN);
	int last = 0;

	/* a precision point's "samples" are its rows in samples.csv: all of them once it finished
	 * in a complete run (a file's 0 or 1000 read "9 of 0 samples") */
	if (!isnan(taken) &&
	    ((double)p->n > taken ||
	     (lab_an_run_complete(d) && status && !strcmp(status, "ok") && (double)p->n != taken)))
		return lab_err_set(
		    err, LAB_EDATA,
		    "%s:%u: point %ld of [%s]: run.json counts %.0f samples, "
		    "samples.csv has %zu, allowed: the same (fewer in samples.csv only "
		    "while the run is not complete)",
		    path, jp->line, p->id, p->experiment, taken, p->n);
	if (!p->n)
		return 0;
	if (lab_an_run_complete(d) && status &&
	    (!strcmp(status, "planned") || !strcmp(status, "running") ||
	     !strcmp(status, "not_run")))
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: point %ld of [%s] is \"%s\" in a complete run, yet "
		                   "samples.csv has %zu samples of it, allowed: ok, skipped or "
		                   "failed",
		                   path, jp->line, p->id, p->experiment, status, p->n);
	for (size_t j = 0; p->run && j < p->n; j++)
		last = p->run[j] > last ? p->run[j] : last;
	if (!isnan(runs) && (double)last + 1 > runs)
		return lab_err_set(
		    err, LAB_EDATA,
		    "%s:%u: point %ld of [%s]: samples.csv has samples of its run %d, "
		    "run.json counts %.0f runs, allowed: runs 0 .. runs - 1",
		    path, jp->line, p->id, p->experiment, last, runs + 0.0 /* -0: 0 */);
	return 0;
}

static int an_run_point_agrees(const struct lab_an_data *d, const struct lab_an_json *x,
                               const struct lab_an_json *jp, const struct lab_an_point *p,
                               const char *path, struct lab_err *err)
{
	const char *kernel = lab_an_json_str(x, LAB_KEY_KERNEL),
	           *unit = lab_an_json_str(x, LAB_KEY_WORK_UNIT),
	           *status = lab_an_json_str(jp, LAB_KEY_STATUS);
	double threads = lab_an_json_num(jp, LAB_KEY_THREADS, NAN),
	       reps = lab_an_json_num(jp, LAB_KEY_REPS, NAN) + 0.0; /* -0 is said as 0 */
	const struct lab_an_json *pa = lab_an_json_get(jp, LAB_KEY_PARAMS);
	const char *placement = lab_an_json_str(jp, LAB_KEY_PLACEMENT);
	int same = isnan(threads) || threads == p->threads;
	char num[64];

	/* no param the two files both name has two values (a file may leave one out: older and
	 * hand-made files write fewer) */
	for (size_t i = 0; same && pa && pa->type == LAB_AN_JSON_OBJ && i < pa->n; i++) {
		const char *v = an_param_text(&pa->items[i], num, sizeof(num));

		same = !v || lab_an_params_is(p->params, pa->keys[i], v) != 0 ||
		       !strcmp(pa->keys[i], LAB_KEY_THREADS);
	}
	if (same && placement)
		same = lab_an_params_is(p->params, LAB_KEY_PLACEMENT, placement) != 0;
	if (same && kernel && p->kernel && strcmp(kernel, p->kernel))
		same = -1;
	if (same > 0 && unit && p->unit &&
	    (strncmp(p->unit, "ns/", 3) || strcmp(p->unit + 3, unit)))
		same = -2;
	if (same > 0 && d->run_lab) {
		int rc = lab_an_run_params_same(path, jp, p, err);
		if (rc)
			return rc;
	}
	if (same <= 0) {
		static const char *const what[] = {"threads and params differ", "kernel differs",
		                                   "unit of work differs"};
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: point %ld of [%s]: its %s from samples.csv:%zu's "
		                   "(threads = %d, params '%s'), allowed: the same point in both "
		                   "files",
		                   path, jp->line, p->id, p->experiment, what[-same], p->line,
		                   p->threads, p->params);
	}
	/* a finished point of a complete run: no more samples than the reps run.json counted,
	 * and none numbered past them (reps run 0 .. reps - 1 across the point's runs) */
	if (!lab_an_run_complete(d) || !status || strcmp(status, "ok") || isnan(reps))
		return an_run_point_runs(d, jp, p, status, path, err);
	if ((double)p->n > reps)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: point %ld of [%s]: samples.csv has %zu samples of it, "
		                   "run.json counts %.0f, allowed: at most that many",
		                   path, jp->line, p->id, p->experiment, p->n, reps);
	if ((double)p->rep_max + 1 > reps)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: point %ld of [%s]: samples.csv has its rep %ld, "
		                   "run.json counts %.0f reps, allowed: reps 0 .. reps - 1",
		                   path, jp->line, p->id, p->experiment, p->rep_max, reps);
	double runs = lab_an_json_num(jp, LAB_KEY_RUNS, NAN) + 0.0;
	if (runs > reps) /* every run of a finished point took a sample at least */
		return lab_err_set(
		    err, LAB_EDATA,
		    "%s:%u: point %ld of [%s]: run.json counts %.0f runs of %.0f reps, "
		    "allowed: runs <= reps (each run takes a sample)",
		    path, jp->line, p->id, p->experiment, runs, reps);
	return an_run_point_runs(d, jp, p, status, path, err);
}

/* A point's verify is none, pass or fail (absent in older files), and an ok point's is not
 * fail: its numbers were used as measured when an edit said ok over a failed check. */
static int an_run_point_verify(const struct lab_an_json *jp, long id, const char *status,
                               const char *path, struct lab_err *err)
{
	const struct lab_an_json *v = lab_an_json_get(jp, LAB_KEY_VERIFY);
	const char *s = lab_an_json_str(jp, LAB_KEY_VERIFY);

	if (v && (!s || (strcmp(s, "none") && strcmp(s, "pass") && strcmp(s, "fail"))))
		return lab_err_set(
		    err, LAB_EDATA,
		    "%s:%u: point %ld: verify = '%.64s': allowed: none, pass or fail", path,
		    v->line, id, s ? s : "(not a string)");
	if (s && !strcmp(s, "fail") && status && !strcmp(status, "ok"))
		return lab_err_set(
		    err, LAB_EDATA,
		    "%s:%u: point %ld is \"ok\" but its verify is \"fail\": allowed: "
		    "an ok point's verify is pass or none (a failed check makes it failed)",
		    path, v->line, id);
	return 0;
}

/* Merges run.json's entry jp of a point of experiment x into d's points; 0, or an error in err
 * (path:line). */
static int an_run_point(struct lab_an_data *d, const struct lab_an_json *x,
                        const struct lab_an_json *jp, const char *path, struct lab_err *err)
{
	const char *exp = lab_an_json_str(x, LAB_KEY_NAME);
	long id = (long)lab_an_json_num(jp, LAB_KEY_POINT, -1);
	const char *status = lab_an_json_str(jp, LAB_KEY_STATUS),
	           *reason = lab_an_json_str(jp, LAB_KEY_REASON);
	struct lab_an_point *p;
	size_t hint = 0;
	int rc;

	if ((rc = an_run_point_verify(jp, id, status, path, err)))
		return rc;
	p = lab_an_point_by_id(d, exp, id);
	/* a point that never ran has no samples: one with rows was edited to read skipped */
	if (p && p->n && status && !strcmp(status, "skipped"))
		return lab_err_set(
		    err, LAB_EDATA,
		    "%s:%u: point %ld is \"skipped\" but samples.csv has %zu samples "
		    "of it (allowed: a skipped point has none)",
		    path, jp->line, p->id, p->n);
	/* none only where nothing ran (data_point_check.c): a point with rows had a CPU each */
	const struct lab_an_json *cpus = lab_an_json_get(jp, "cpus");
	if (p && p->n && cpus && cpus->type == LAB_AN_JSON_ARR && !cpus->n)
		return lab_err_set(
		    err, LAB_EDATA,
		    "%s:%u: point %ld has no \"cpus\" but samples.csv has %zu samples "
		    "of it (allowed: a CPU per thread for a point that ran)",
		    path, cpus->line, p->id, p->n);
	/* A point with rows in samples.csv that run.json still lists as to come (the run was
	 * killed between the two writes): the rows decide. "not_run" is the run's own word that
	 * the point's rows, if any, are not to be used. */
	if (p && status && (!strcmp(status, "planned") || !strcmp(status, "running")))
		status = NULL;
	if (p && p->n && (rc = an_run_point_agrees(d, x, jp, p, path, err)))
		return rc;
	if (!p) {
		char *params = an_json_params(jp);

		if (!params)
			return lab_err_set(err, LAB_ENOMEM, "out of memory");
		p = lab_an_point_find(d, exp, id, (int)lab_an_json_num(jp, LAB_KEY_THREADS, 0),
		                      params, &hint);
		free(params);
		if (!p)
			return lab_err_set(err, LAB_ENOMEM, "out of memory");
		if (status && !strcmp(status, "ok")) {
			status = "missing";
			/* a finished point of a complete run had rows: they were removed since */
			if (!reason && lab_an_json_str(d->run, "status") &&
			    !strcmp(lab_an_json_str(d->run, "status"), "complete"))
				reason = LAB_AN_REASON_ROWS_GONE;
		}
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
	return p->status ? 0 : lab_err_set(err, LAB_ENOMEM, "out of memory");
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

/* Member key of experiment x, when there, is one of the n names (a work_scope of "everyone"
 * or 5 was read as absent: the cost's label lost whose time it is without a word). */
static int an_run_enum(const char *path, const struct lab_an_json *x, const char *key,
                       const char *const *names, size_t n, struct lab_err *err)
{
	const struct lab_an_json *v = lab_an_json_get(x, key);

	for (size_t i = 0; v && v->type == LAB_AN_JSON_STR && i < n; i++)
		if (!strcmp(v->str, names[i]))
			return 0;
	if (!v)
		return 0;
	return lab_err_set(err, LAB_EDATA, "%s:%u: \"%s\": allowed: %s%s%s%s%s", path, v->line, key,
	                   names[0], n > 1 ? ", " : "", n > 1 ? names[1] : "", n > 2 ? ", " : "",
	                   n > 2 ? names[2] : "");
}

/* The analyzer's views (analyze/views/views.def), the names a "views" list may hold. */
static const char *const an_view_names[] = {
#define LAB_AN_VIEW(name) #name,
#include "analyze/views/views.def"
#undef LAB_AN_VIEW
};
#define AN_NVIEWS (sizeof(an_view_names) / sizeof(an_view_names[0]))

/* Experiment x's "views", when there, is an array of view names, each once: every view asks
 * for every point whether its experiment declares it, and 200,000 names in a 3 MB run.json
 * made 500 points take 6.7 s (0.1 s without). */
static int an_run_views(const char *path, const struct lab_an_json *x, struct lab_err *err)
{
	const struct lab_an_json *v = lab_an_json_get(x, LAB_KEY_VIEWS);
	char names[512] = "";
	unsigned char seen[AN_NVIEWS] = {0};
	size_t i = 0, k = AN_NVIEWS, at = 0;

	for (; v && v->type == LAB_AN_JSON_ARR && i < v->n; i++) {
		const struct lab_an_json *e = &v->items[i];

		k = AN_NVIEWS; /* a number or null is no view name */
		if (e->type == LAB_AN_JSON_STR)
			for (k = 0; k < AN_NVIEWS && strcmp(e->str, an_view_names[k]); k++)
				;
		if (k == AN_NVIEWS || seen[k]++)
			break;
	}
	if (!v || (v->type == LAB_AN_JSON_ARR && i == v->n))
		return 0;
	for (size_t j = 0; j < AN_NVIEWS && at < sizeof(names); j++)
		at += (size_t)snprintf(names + at, sizeof(names) - at, "%s%s", j ? ", " : "",
		                       an_view_names[j]);
	if (v->type != LAB_AN_JSON_ARR)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: \"%s\": allowed: an array of view names (%s)", path,
		                   v->line, LAB_KEY_VIEWS, names);
	return lab_err_set(err, LAB_EDATA,
	                   "%s:%u: \"%s\" item %zu: %s, allowed: each of %s at most once", path,
	                   v->items[i].line, LAB_KEY_VIEWS, i + 1,
	                   k == AN_NVIEWS ? "not a view name" : "a view named twice", names);
}

static int an_run_experiment(struct lab_an_data *d, const char *path, const struct lab_an_json *x,
                             long **ids, size_t *nid, size_t *cap, struct lab_err *err)
{
	const struct lab_an_json *pts = lab_an_json_get(x, LAB_KEY_POINTS);
	const char *name = lab_an_json_str(x, LAB_KEY_NAME), *kernel;
	int rc;

	if (!name || !*name)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: an experiment: allowed: an object with a \"%s\"", path,
		                   x->line, LAB_KEY_NAME);
	if (pts && pts->type != LAB_AN_JSON_ARR)
		return lab_err_set(err, LAB_EDATA, "%s:%u: \"%s\": allowed: an array", path,
		                   pts->line, LAB_KEY_POINTS);
	if ((rc = an_run_enum(path, x, LAB_KEY_WORK_SCOPE,
	                      (const char *const[])LAB_WORK_SCOPE_NAMES, 3, err)) ||
	    (rc = an_run_enum(path, x, LAB_KEY_COST_KIND, (const char *const[])LAB_COST_KIND_NAMES,
	                      2, err)) ||
	    (rc = an_run_enum(path, x, LAB_KEY_SCALING, (const char *const[]){"strong", "weak"}, 2,
	                      err)) ||
	    (rc = an_run_views(path, x, err)))
		return rc;
	if (d->run_lab && (rc = lab_an_run_exp_keys(path, x, err)))
		return rc;
	if (lab_an_exp_find(d, name) != (size_t)-1)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: experiment '%s' again, allowed: each name once", path,
		                   x->line, name);
	if (lab_an_exp_add(d, name,
	                   (size_t)(x - lab_an_json_get(d->run, LAB_KEY_EXPERIMENTS)->items)))
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	kernel = lab_an_json_str(x, LAB_KEY_KERNEL);
	for (size_t i = 0; pts && i < pts->n; i++) {
		size_t before = d->npt;

		if ((rc = lab_an_run_point_check(path, &pts->items[i], err)) ||
		    (d->run_lab && (rc = lab_an_run_point_keys(path, &pts->items[i], err))))
			return rc;
		if (lab_an_grow(ids, cap, *nid + 1, 2 * sizeof(**ids)))
			return lab_err_set(err, LAB_ENOMEM, "out of memory");
		(*ids)[2 * *nid] = (long)lab_an_json_num(&pts->items[i], LAB_KEY_POINT, -1);
		(*ids)[2 * *nid + 1] = (long)pts->items[i].line;
		(*nid)++;
		if ((rc = an_run_point(d, x, &pts->items[i], path, err)))
			return rc;
		if (d->npt > before && !d->pt[before].kernel &&
		    !(d->pt[before].kernel = lab_an_strdup(kernel ? kernel : "?")))
			return lab_err_set(err, LAB_ENOMEM, "out of memory");
	}
	return 0;
}

int lab_an_point_runs_short(const struct lab_an_point *p, size_t *runs, size_t *planned)
{
	double got = lab_an_json_num(p->runjson, LAB_KEY_RUNS, NAN),
	       want = lab_an_json_num(p->runjson, LAB_KEY_RUNS_PLANNED, NAN);

	if (!p->runjson || !p->status || strcmp(p->status, "ok") || !(got < want))
		return 0;
	*runs = (size_t)got; /* whole numbers 0 .. LAB_AN_COUNT_MAX: data_point_check.c */
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
	if (!n)
		return;
	/* a precision target's planned count is its cap, not a plan ("43 of 100000 runs") */
	char got[96];
	if (lab_an_json_get(first->runjson, LAB_KEY_PRECISION_TARGET))
		snprintf(got, sizeof(got), "%zu run%s, before its precision target or budget", runs,
		         runs == 1 ? "" : "s");
	else
		snprintf(got, sizeof(got), "%zu of %zu runs", runs, planned);
	lab_an_warn(&d->warn,
	            "%s: %zu point%s got fewer runs than planned, %s (point %ld, [%s] "
	            "threads=%d: %s); their intervals come from fewer run means, or with one run "
	            "from its samples alone (no variance between runs)",
	            path, n, n == 1 ? "" : "s",
	            d->run_status && !strcmp(d->run_status, "running")
	                ? "so far (the run is still going, or was killed)"
	                : "the run ended first",
	            first->id, first->experiment, first->threads, got);
}

static int an_cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* p->run sorted in a copy. */
size_t lab_an_point_runs_seen(const struct lab_an_point *p)
{
	int *r = p->run && p->n ? malloc(p->n * sizeof(*r)) : NULL;
	size_t seen = p->n && !p->run; /* no run column: one run */

	if (!r)
		return p->run && p->n ? SIZE_MAX : seen;
	memcpy(r, p->run, p->n * sizeof(*r));
	qsort(r, p->n, sizeof(*r), an_cmp_int);
	for (size_t j = 0; j < p->n; j++)
		seen += !j || r[j] != r[j - 1];
	free(r);
	return seen;
}

/* One warning for the "ok" points of a complete run with fewer samples in samples.csv than
 * run.json counts, or samples of fewer runs than it counts (rows removed or relabelled in a
 * copy: the statistics would pass as the whole point), naming the first. The run itself writes
 * a point's rows before its record. */
static void an_run_rows_missing_warn(struct lab_an_data *d, const char *path)
{
	size_t n = 0, had = 0;
	double reps, runs, counted = 0;
	const struct lab_an_point *first = NULL;
	const char *what = "samples"; /* the first's: "samples", or "runs" (of samples) */

	if (!lab_an_run_complete(d))
		return;
	for (size_t i = 0; i < d->npt; i++) {
		const struct lab_an_point *p = &d->pt[i];
		const char *st = p->runjson ? lab_an_json_str(p->runjson, LAB_KEY_STATUS) : NULL;
		size_t seen = 0;
		int few;

		if (!st || strcmp(st, "ok"))
			continue;
		reps = lab_an_json_num(p->runjson, LAB_KEY_REPS, NAN);
		runs = lab_an_json_num(p->runjson, LAB_KEY_RUNS, NAN);
		few = (double)p->n < reps;
		if (!few && p->n && runs >= 2 && (double)(seen = lab_an_point_runs_seen(p)) < runs)
			few = 2;
		if (few && !n++) {
			first = p;
			had = few == 2 ? seen : p->n;
			counted = few == 2 ? runs : reps;
			what = few == 2 ? "runs of samples" : "samples";
		}
	}
	if (n)
		lab_an_warn(&d->warn,
		            "%s: %zu point%s of this complete run ha%s fewer %s in %s than it "
		            "counts (point %ld, [%s] threads=%d: %zu of %.0f): rows were removed "
		            "or changed after the run; the statistics use what is left",
		            path, n, n == 1 ? "" : "s", n == 1 ? "s" : "ve", what, LAB_FILE_SAMPLES,
		            first->id, first->experiment, first->threads, had, counted);
}

/* 1 when run.json lists the points of some experiment, as every run.json `lab run` writes does:
 * then rows of a point it does not list (of an experiment it lists, of one it lists without
 * points, or of one it does not name) were not measured by this run. A hand-made file that
 * lists no points (declaring views) leaves samples.csv alone to describe its experiments. */
static int an_run_lists_points(const struct lab_an_json *exps)
{
	for (size_t e = 0; e < exps->n; e++) {
		const struct lab_an_json *pts = lab_an_json_get(&exps->items[e], LAB_KEY_POINTS);

		if (pts && pts->type == LAB_AN_JSON_ARR && pts->n > 0)
			return 1;
	}
	return 0;
}

int lab_an_run_points(struct lab_an_data *d, struct lab_err *err)
{
	const struct lab_an_json *exps = lab_an_json_get(d->run, LAB_KEY_EXPERIMENTS);
	char *path = lab_an_asprintf("%s/%s", d->source, LAB_FILE_RUN);
	long *ids = NULL;
	size_t nid = 0, cap = 0;
	int rc = 0, lists;

	if (!path)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	if (d->run->type != LAB_AN_JSON_OBJ || (exps && exps->type != LAB_AN_JSON_ARR))
		rc = lab_err_set(err, LAB_EDATA,
		                 "%s:%u: allowed: an object whose \"%s\" is an array", path,
		                 exps ? exps->line : d->run->line, LAB_KEY_EXPERIMENTS);
	if (!rc && d->run_lab)
		rc = lab_an_run_status_check(path, d->run, err);
	for (size_t e = 0; !rc && exps && e < exps->n; e++)
		rc = an_run_experiment(d, path, &exps->items[e], &ids, &nid, &cap, err);
	if (!rc)
		rc = an_run_unique(path, ids, nid, err);
	lists = !rc && exps && an_run_lists_points(exps);
	for (size_t i = 0; lists && !rc && i < d->npt; i++)
		if (d->pt[i].n && !d->pt[i].runjson)
			rc =
			    lab_err_set(err, LAB_EDATA,
			                "%s/%s:%zu: point %ld of [%s] is not in run.json, allowed: "
			                "the points run.json lists",
			                d->source, LAB_FILE_SAMPLES, d->pt[i].line, d->pt[i].id,
			                d->pt[i].experiment);
	if (!rc)
		rc = lab_an_run_host_check(path, d->run, err);
	if (!rc)
		rc = lab_an_run_lessons_check(path, d->run, err);
	if (!rc) {
		an_run_short_warn(d, path);
		an_run_rows_missing_warn(d, path);
	}
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

	struct stat st;

	/* only a directory without run.json is hand-made data: one that cannot be read (EACCES)
	 * was a warning, and the points it says failed their verification read as good */
	if (rc == -LAB_EIO && lstat(path, &st) && errno == ENOENT) {
		lab_an_warn(&d->warn,
		            "%s; provenance and point status unknown (a point that failed its "
		            "verification reads as good)",
		            err->msg);
		return 0;
	}
	if (rc)
		return rc;
	rc = lab_an_json_parse(path, text, len, &d->run, err);
	free(text);
	if (rc)
		return rc;
	schema = lab_an_json_str(d->run, LAB_KEY_SCHEMA);
	d->run_lab = schema && !strcmp(schema, LAB_SCHEMA_RUN);
	if (!d->run_lab)
		lab_an_warn(&d->warn, "%s: schema is '%s', expected '%s'; reading it anyway", path,
		            schema ? schema : "(none)", LAB_SCHEMA_RUN);
	d->run_status = lab_an_json_str(d->run, LAB_KEY_STATUS);
	if (d->run_status && strcmp(d->run_status, "complete"))
		lab_an_warn(&d->warn, "%s: the run is '%s'; analyzing the points it finished", path,
		            d->run_status);
	/* numa30: a NUMA guest's views read as the costs of a machine (remote 2.66x faster
	 * than local); only the lessons said whose times they were */
	const char *hv = lab_an_json_str(lab_an_json_get(d->run, "host"), "hypervisor");
	if (hv && !strcmp(hv, "QEMU TCG"))
		lab_an_warn(&d->warn,
		            "%s: measured on an emulated CPU (QEMU TCG): every time and rate here "
		            "is the emulator's, not any hardware's (where pages went, and the "
		            "verification, still hold)",
		            path);
	return 0;
}

int lab_an_run_complete(const struct lab_an_data *d)
{
	return d->run_status && !strcmp(d->run_status, "complete");
}

int lab_an_cut_line(const char *path, size_t line, struct lab_err *err)
{
	return lab_err_set(err, LAB_EDATA,
	                   "%s:%zu: the last line has no newline (cut short or edited?), allowed: "
	                   "whole lines (run.json says the run completed: lab wrote every line "
	                   "whole)",
	                   path, line);
}
