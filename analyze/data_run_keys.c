/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The keys `lab run` always writes, required of a run.json that says it is one (its "schema" is
 * LAB_SCHEMA_RUN): the run's status, each experiment's kernel and unit of work, each point's
 * status, reps and params, and params naming the same keys as samples.csv's. Without them the
 * checks that samples.csv agrees with run.json (data_run.c) were skipped: rows relabelled or
 * added passed once the key that would have shown it was deleted. A file with another schema,
 * or none, is read with a warning and without these requirements (hand-made data).
 */
#include <stdio.h>
#include <string.h>

#include "analyze/data_int.h"
#include "harness/record_schema.h"

/* Every status lab run gives a run (lab/cmd_run.c, harness/results.c). */
static const char *const an_run_statuses[] = {"running", "complete", "interrupted", "failed"};

int lab_an_run_status_check(const char *path, const struct lab_an_json *run, struct lab_err *err)
{
	const struct lab_an_json *v = lab_an_json_get(run, LAB_KEY_STATUS);

	for (size_t i = 0; v && v->type == LAB_AN_JSON_STR && i < 4; i++)
		if (!strcmp(v->str, an_run_statuses[i]))
			return 0;
	return lab_err_set(err, LAB_EDATA,
	                   "%s:%u: \"%s\" %s, allowed: running, complete, interrupted or failed "
	                   "(a %s file has it)",
	                   path, v ? v->line : run->line, LAB_KEY_STATUS,
	                   v ? "is none of them" : "missing", LAB_SCHEMA_RUN);
}

int lab_an_run_exp_keys(const char *path, const struct lab_an_json *x, struct lab_err *err)
{
	static const char *const keys[] = {LAB_KEY_KERNEL, LAB_KEY_WORK_UNIT};

	for (size_t i = 0; i < 2; i++) {
		const char *v = lab_an_json_str(x, keys[i]);

		if (!v || !*v)
			return lab_err_set(
			    err, LAB_EDATA,
			    "%s:%u: experiment '%s': \"%s\" %s, allowed: a name (a %s "
			    "file has it)",
			    path, x->line, lab_an_json_str(x, LAB_KEY_NAME), keys[i],
			    v ? "empty" : "missing", LAB_SCHEMA_RUN);
	}
	return 0;
}

int lab_an_run_point_keys(const char *path, const struct lab_an_json *jp, struct lab_err *err)
{
	static const char *const keys[] = {LAB_KEY_STATUS, LAB_KEY_REPS, LAB_KEY_PARAMS};

	/* their values are checked where every file's are (data_point_check.c) */
	for (size_t i = 0; i < 3; i++)
		if (!lab_an_json_get(jp, keys[i]))
			return lab_err_set(
			    err, LAB_EDATA,
			    "%s:%u: point %.0f: \"%s\" missing, allowed: a point with "
			    "it (a %s file has it)",
			    path, jp->line, lab_an_json_num(jp, LAB_KEY_POINT, -1), keys[i],
			    LAB_SCHEMA_RUN);
	return 0;
}

/* 1 when canonical params ("k=v;k=v") have an item of key (len bytes). */
static int an_params_has(const char *params, const char *key, size_t len)
{
	for (const char *p = params; p && *p; p = strchr(p, LAB_PARAMS_SEP), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, len) && p[len] == LAB_PARAMS_KV)
			return 1;
	return 0;
}

/* 1 when run.json point jp names param key (len bytes): in its params, or as its placement. */
static int an_json_has(const struct lab_an_json *jp, const char *key, size_t len)
{
	const struct lab_an_json *pa = lab_an_json_get(jp, LAB_KEY_PARAMS);

	if (len == strlen(LAB_KEY_PLACEMENT) && !strncmp(key, LAB_KEY_PLACEMENT, len) &&
	    lab_an_json_get(jp, LAB_KEY_PLACEMENT))
		return 1;
	for (size_t i = 0; pa && pa->type == LAB_AN_JSON_OBJ && i < pa->n; i++)
		if (strlen(pa->keys[i]) == len && !strncmp(pa->keys[i], key, len))
			return 1;
	return 0;
}

int lab_an_run_params_same(const char *path, const struct lab_an_json *jp,
                           const struct lab_an_point *p, struct lab_err *err)
{
	const struct lab_an_json *pa = lab_an_json_get(jp, LAB_KEY_PARAMS);
	const char *placement = lab_an_json_str(jp, LAB_KEY_PLACEMENT);

	for (const char *k = p->params; k && *k;) {
		size_t len = strcspn(k, "=");

		if (!an_json_has(jp, k, len))
			return lab_err_set(
			    err, LAB_EDATA,
			    "%s:%u: point %ld of [%s]: param '%.*s' of samples.csv:%zu is "
			    "not in its \"%s\", allowed: the same keys in both files (a "
			    "%s file lists every one)",
			    path, jp->line, p->id, p->experiment, (int)len, k, p->line,
			    LAB_KEY_PARAMS, LAB_SCHEMA_RUN);
		k = strchr(k, LAB_PARAMS_SEP);
		k = k ? k + 1 : NULL;
	}
	for (size_t i = 0; pa && pa->type == LAB_AN_JSON_OBJ && i <= pa->n; i++) {
		const char *key = i < pa->n ? pa->keys[i] : placement ? LAB_KEY_PLACEMENT : NULL;

		if (key && strcmp(key, LAB_KEY_THREADS) &&
		    !an_params_has(p->params, key, strlen(key)))
			return lab_err_set(
			    err, LAB_EDATA,
			    "%s:%u: point %ld of [%s]: param '%s' is not in samples.csv:"
			    "%zu's params, allowed: the same keys in both files (a %s "
			    "file lists every one)",
			    path, i < pa->n ? pa->items[i].line : jp->line, p->id, p->experiment,
			    key, p->line, LAB_SCHEMA_RUN);
	}
	return 0;
}
