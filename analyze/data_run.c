/* SPDX-License-Identifier: GPL-3.0-or-later */
/* run.json: provenance, the status of every planned point, and skipped/failed points. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/csv.h"
#include "analyze/data_int.h"
#include "harness/record_schema.h"

/* Builds the canonical params of a run.json point: its params object plus the placement. */
static char *an_json_params(const struct lab_an_json *pt)
{
	const struct lab_an_json *pa = lab_an_json_get(pt, "params");
	const char *placement = lab_an_json_str(pt, "placement");
	char *raw = lab_an_strdup(""), *canon;
	int has_placement = 0;

	for (size_t i = 0; raw && pa && pa->type == LAB_AN_JSON_OBJ && i < pa->n; i++) {
		char *next, num[64];
		const char *v = pa->items[i].str;

		if (!strcmp(pa->keys[i], "threads"))
			continue;
		if (pa->items[i].type == LAB_AN_JSON_NUM) {
			snprintf(num, sizeof(num), "%.17g", pa->items[i].num);
			v = num;
		}
		has_placement |= !strcmp(pa->keys[i], "placement");
		next = lab_an_asprintf("%s%s%s=%s", raw, *raw ? ";" : "", pa->keys[i], v ? v : "");
		free(raw);
		raw = next;
	}
	if (raw && placement && !has_placement) {
		char *next = lab_an_asprintf("%s%splacement=%s", raw, *raw ? ";" : "", placement);

		free(raw);
		raw = next;
	}
	if (!raw)
		return NULL;
	canon = lab_an_params_canon(raw);
	free(raw);
	return canon;
}

static int an_run_point(struct lab_an_data *d, const char *exp, const struct lab_an_json *jp)
{
	long id = (long)lab_an_json_num(jp, "point", -1);
	const char *status = lab_an_json_str(jp, "status"), *reason = lab_an_json_str(jp, "reason");
	struct lab_an_point *p;
	size_t hint = 0;

	p = lab_an_point_by_id(d, exp, id);
	if (!p) {
		char *params = an_json_params(jp);

		if (!params)
			return -LAB_AN_ENOMEM;
		p = lab_an_point_find(d, exp, id, (int)lab_an_json_num(jp, "threads", 0), params,
		                      &hint);
		free(params);
		if (!p)
			return -LAB_AN_ENOMEM;
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
	if (!p->kernel && lab_an_json_str(jp, "kernel"))
		p->kernel = lab_an_strdup(lab_an_json_str(jp, "kernel"));
	return p->status ? 0 : -LAB_AN_ENOMEM;
}

int lab_an_run_points(struct lab_an_data *d, struct lab_an_err *err)
{
	const struct lab_an_json *exps = lab_an_json_get(d->run, "experiments");

	for (size_t e = 0; exps && exps->type == LAB_AN_JSON_ARR && e < exps->n; e++) {
		const struct lab_an_json *x = &exps->items[e], *pts = lab_an_json_get(x, "points");
		const char *name = lab_an_json_str(x, "name");

		for (size_t i = 0; name && pts && pts->type == LAB_AN_JSON_ARR && i < pts->n; i++) {
			size_t before = d->npt;

			if (an_run_point(d, name, &pts->items[i]))
				return lab_an_err_set(err, LAB_AN_ENOMEM, "out of memory");
			if (d->npt > before && !d->pt[before].kernel)
				d->pt[before].kernel = lab_an_strdup(
				    lab_an_json_str(x, "kernel") ? lab_an_json_str(x, "kernel")
				                                 : "?");
		}
	}
	return 0;
}

int lab_an_run_load(struct lab_an_data *d, const char *path, struct lab_an_err *err)
{
	char *text;
	size_t len;
	const char *schema;
	int rc = lab_an_file_read(path, &text, &len, err);

	if (rc) {
		lab_an_warn(&d->warn, "%s; provenance and point status unknown", err->msg);
		return 0;
	}
	rc = lab_an_json_parse(path, text, len, &d->run, err);
	free(text);
	if (rc)
		return rc;
	schema = lab_an_json_str(d->run, "schema");
	if (!schema || strcmp(schema, LAB_SCHEMA_RUN))
		lab_an_warn(&d->warn, "%s: schema is '%s', expected '%s'; reading it anyway", path,
		            schema ? schema : "(none)", LAB_SCHEMA_RUN);
	d->run_status = lab_an_json_str(d->run, "status");
	if (d->run_status && strcmp(d->run_status, "complete"))
		lab_an_warn(&d->warn, "%s: the run is '%s'; analyzing the points it finished", path,
		            d->run_status);
	return 0;
}
