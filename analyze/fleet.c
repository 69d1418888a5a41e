/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fleet.json: the model of a fleet directory, its node names and its reading and writing. */
#include "analyze/fleet.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze/csv.h"
#include "analyze/fleet_view.h"
#include "analyze/jsonr.h"
#include "analyze/jsonw.h"
#include "analyze/manifest.h"
#include "analyze/wfile.h"
#include "harness/record_schema.h"

int lab_an_fleet_node_reserved(const char *name)
{
	static const char *const reserved[] = {
	    LAB_FLEET_FILE,  "config.ini", "fleet.sbatch", "analyze.sbatch", LAB_AN_FLEET_ANALYSIS,
	    LAB_AN_MANIFEST, "logs",       "tasks",        LAB_DIR_PLOTS,    LAB_FILE_RUN};

	for (size_t i = 0; name && i < sizeof(reserved) / sizeof(reserved[0]); i++)
		if (!strcmp(name, reserved[i]))
			return 1;
	return 0;
}

int lab_an_fleet_node_ok(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	if (n == 0 || n >= LAB_FLEET_NAME_MAX || name[0] == '.' || lab_an_fleet_node_reserved(name))
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		         (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-' || c == '+';
		if (!ok)
			return 0;
	}
	return 1;
}

int lab_an_fleet_state_ok(const char *s)
{
	size_t n = s ? strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") : 0;

	if (!n || strlen(s) > 31)
		return 0;
	n += s[n] == '+';
	if (!strncmp(s + n, " by ", 4) && s[n + 4])
		n += 4 + strspn(s + n + 4, "0123456789");
	return !s[n];
}

int lab_an_fleet_arg_ok(const char *s)
{
	if (!s || s[0] == '-')
		return 0;
	for (; *s; s++) {
		char c = *s;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      strchr("._+-:,[]&|*()", c)))
			return 0;
	}
	return 1;
}

int lab_an_fleet_job_ok(const char *s)
{
	size_t n = s ? strspn(s, "0123456789") : 0;

	if (n == 0)
		return 0;
	if (s[n] == '_') {
		size_t m = strspn(s + n + 1, "0123456789");
		if (m == 0)
			return 0;
		n += 1 + m;
	}
	return s[n] == '\0' && n < 32;
}

struct lab_an_fleet_task *lab_an_fleet_task_get(struct lab_an_fleet *f, const char *node)
{
	if (!lab_an_fleet_node_ok(node))
		return NULL;
	for (size_t i = 0; i < f->ntask; i++)
		if (!strcmp(f->task[i].node, node))
			return &f->task[i];
	if (f->ntask == LAB_FLEET_TASKS_MAX)
		return NULL;
	struct lab_an_fleet_task *t = &f->task[f->ntask++];
	snprintf(t->node, sizeof(t->node), "%s", node);
	snprintf(t->state, sizeof(t->state), "PENDING");
	t->exit_code = -1;
	return t;
}

/* Copies the string member key of j into buf ("" when absent or null); another type, or a
 * string that does not fit, is -LAB_EDATA, never read as "" (and written back so) or cut. */
static int fleet_copy(const struct lab_an_json *j, const char *key, char *buf, size_t len,
                      const char *path, struct lab_err *err)
{
	const struct lab_an_json *v = lab_an_json_get(j, key);
	const char *s = lab_an_json_str(j, key);
	size_t n = s ? strlen(s) : 0;

	if (v && !s && v->type != LAB_AN_JSON_NULL)
		return lab_err_set(err, LAB_EDATA, "%s:%u: \"%s\" is no string (allowed: a string)",
		                   path, v->line, key);
	if (n >= len)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: \"%s\" is %zu characters (allowed at most %zu)", path,
		                   lab_an_json_get(j, key)->line, key, n, len - 1);
	memcpy(buf, s ? s : "", n + 1);
	return 0;
}

static int fleet_read_tasks(const struct lab_an_json *arr, struct lab_an_fleet *f, const char *path,
                            struct lab_err *err)
{
	if (!arr)
		return 0;
	if (arr->type != LAB_AN_JSON_ARR)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: \"tasks\" is not an array (allowed: an array)", path,
		                   arr->line);
	for (size_t i = 0; i < arr->n; i++) {
		const char *node = lab_an_json_str(&arr->items[i], "node");
		if (lab_an_fleet_node_reserved(node))
			return lab_err_set(
			    err, LAB_EDATA,
			    "%s:%u: task %zu: node name '%s' is one the fleet directory "
			    "uses itself (reserved: " LAB_FLEET_RESERVED ")",
			    path, arr->items[i].line, i + 1, node);
		if (!node || !lab_an_fleet_node_ok(node))
			return lab_err_set(
			    err, LAB_EDATA,
			    "%s:%u: task %zu: node name missing or not a plain name "
			    "(allowed 1 .. %d characters of [A-Za-z0-9._+-], no leading "
			    "'.')",
			    path, arr->items[i].line, i + 1, LAB_FLEET_NAME_MAX - 1);
		size_t before = f->ntask;
		struct lab_an_fleet_task *t = lab_an_fleet_task_get(f, node);
		if (t && f->ntask == before) /* two tasks of one node were merged into one */
			return lab_err_set(
			    err, LAB_EDATA,
			    "%s:%u: task %zu: node '%s' again (allowed: each node once)", path,
			    arr->items[i].line, i + 1, node);
		if (!t)
			return lab_err_set(
			    err, LAB_EDATA,
			    "%s:%u: task %zu: more than %d tasks (allowed at most %d, "
			    "the nodes lab fleet submits to)",
			    path, arr->items[i].line, i + 1, LAB_FLEET_TASKS_MAX,
			    LAB_FLEET_TASKS_MAX);
		if (fleet_copy(&arr->items[i], "state", t->state, sizeof(t->state), path, err))
			return -LAB_EDATA;
		if (t->state[0] && !lab_an_fleet_state_ok(t->state)) /* "": not recorded */
			return lab_err_set(
			    err, LAB_EDATA,
			    "%s:%u: task %zu: \"state\": allowed: a Slurm state (PENDING, "
			    "RUNNING, COMPLETED, FAILED, ...: capitals, '_', '+')",
			    path, arr->items[i].line, i + 1);
		/* null until the task ends, then what it exited with: 4294967296, -1 and "0" were
		 * read as no code */
		const struct lab_an_json *code = lab_an_json_get(&arr->items[i], "exit_code");
		if (code && code->type != LAB_AN_JSON_NULL &&
		    (code->type != LAB_AN_JSON_NUM || !(code->num >= 0 && code->num <= 255) ||
		     code->num != floor(code->num)))
			return lab_err_set(
			    err, LAB_EDATA,
			    "%s:%u: task %zu: \"exit_code\": allowed: null or a whole "
			    "number 0 .. 255",
			    path, code->line, i + 1);
		t->exit_code = code && code->type == LAB_AN_JSON_NUM ? (int)code->num : -1;
	}
	return 0;
}

/*
 * "jobs" holds both job ids as strings ("" before a job is submitted): a number or a missing
 * member was read as "" and written back so, and the job was lost. -LAB_EDATA with FILE:LINE.
 */
static int fleet_jobs_check(const struct lab_an_json *jobs, unsigned top, const char *path,
                            struct lab_err *err)
{
	static const char *keys[] = {"run", "analyze"};

	if (!jobs || jobs->type != LAB_AN_JSON_OBJ)
		return lab_err_set(
		    err, LAB_EDATA,
		    "%s:%u: \"jobs\" is %s (allowed: an object {\"run\": ID, "
		    "\"analyze\": ID}, each a string of digits, optionally _N, or \"\")",
		    path, jobs ? jobs->line : top, jobs ? "not an object" : "missing");
	for (int i = 0; i < 2; i++) {
		const struct lab_an_json *v = lab_an_json_get(jobs, keys[i]);
		if (!v)
			return lab_err_set(
			    err, LAB_EDATA,
			    "%s:%u: jobs.%s is missing (allowed: a string of digits, "
			    "optionally _N, or \"\" before it is submitted)",
			    path, jobs->line, keys[i]);
		if (v->type != LAB_AN_JSON_STR)
			return lab_err_set(err, LAB_EDATA,
			                   "%s:%u: jobs.%s is not a string (allowed: digits, "
			                   "optionally _N)",
			                   path, v->line, keys[i]);
	}
	return 0;
}

/*
 * A fleet directory is a directory that holds fleet.json (a link or special file there is the
 * reader's to refuse). Anything else is bad usage (-LAB_EDATA), named as what it is: no
 * directory, a results directory of lab run, or no fleet.json.
 */
static int fleet_dir_check(const char *dir, struct lab_err *err)
{
	struct stat st;
	char path[4200];

	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return lab_err_set(
		    err, LAB_EDATA,
		    "%s: not a fleet directory (allowed: a directory lab fleet wrote)", dir);
	snprintf(path, sizeof(path), "%s/%s", dir, LAB_FLEET_FILE);
	if (lstat(path, &st) == 0 || errno != ENOENT)
		return 0;
	snprintf(path, sizeof(path), "%s/%s", dir, LAB_FILE_SAMPLES);
	if (stat(path, &st) == 0)
		return lab_err_set(err, LAB_EDATA,
		                   "%s: a results directory, not a fleet directory (allowed: a "
		                   "directory lab fleet wrote; lab analyze reads this one)",
		                   dir);
	return lab_err_set(err, LAB_EDATA,
	                   "%s: not a fleet directory (no %s; allowed: a directory lab fleet "
	                   "wrote)",
	                   dir, LAB_FLEET_FILE);
}

/* The fleet's state is a Slurm state and the request's values are such as lab fleet takes
 * (lab_an_fleet_arg_ok): both are written back, and the state decides which tasks are final. */
static int fleet_values_check(const struct lab_an_json *j, const struct lab_an_json *req,
                              const struct lab_an_fleet *f, const char *path, struct lab_err *err)
{
	const struct {
		const char *key;
		const char *val;
	} reqs[] = {{"nodes", f->nodes},
	            {"nodelist", f->nodelist},
	            {"partition", f->partition},
	            {"constraint", f->constraint},
	            {"time", f->time}};

	if (f->state[0] && !lab_an_fleet_state_ok(f->state))
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: \"state\": allowed: a Slurm state (PENDING, RUNNING, "
		                   "COMPLETED, FAILED, ...: capitals, '_', '+')",
		                   path, lab_an_json_get(j, "state")->line);
	for (size_t i = 0; i < sizeof(reqs) / sizeof(reqs[0]); i++)
		if (reqs[i].val[0] && !lab_an_fleet_arg_ok(reqs[i].val))
			return lab_err_set(err, LAB_EDATA,
			                   "%s:%u: request.%s: not a Slurm value (allowed letters, "
			                   "digits and ._+-:,[]&|*(), not starting with '-')",
			                   path, lab_an_json_get(req, reqs[i].key)->line,
			                   reqs[i].key);
	return 0;
}

int lab_an_fleet_read(const char *dir, struct lab_an_fleet *f, struct lab_err *err)
{
	char path[4200];
	char *text = NULL;
	size_t len = 0;
	struct lab_an_json *j = NULL;
	int rc;

	memset(f, 0, sizeof(*f));
	if ((rc = fleet_dir_check(dir, err)))
		return rc;
	snprintf(path, sizeof(path), "%s/%s", dir, LAB_FLEET_FILE);
	rc = lab_an_input_read(path, LAB_AN_IN_NOFOLLOW, &text, &len, err); /* never a link */
	if (rc)
		return rc;
	rc = lab_an_json_parse(path, text, len, &j, err);
	if (rc)
		goto out;
	const char *schema = lab_an_json_str(j, "schema");
	if (!schema || strcmp(schema, LAB_FLEET_SCHEMA)) {
		const struct lab_an_json *sv = lab_an_json_get(j, "schema");
		rc = lab_err_set(err, LAB_EDATA, "%s:%u: schema is not \"%s\" (allowed: \"%s\")",
		                 path, sv ? sv->line : j->line, LAB_FLEET_SCHEMA, LAB_FLEET_SCHEMA);
		goto out;
	}
	const struct lab_an_json *jobs = lab_an_json_get(j, "jobs");
	const struct lab_an_json *req = lab_an_json_get(j, "request");
	if ((rc = fleet_jobs_check(jobs, j->line, path, err)))
		goto out;
	if (req && req->type != LAB_AN_JSON_OBJ) {
		rc = lab_err_set(err, LAB_EDATA,
		                 "%s:%u: \"request\" is no object (allowed: {\"nodes\": ..., "
		                 "\"partition\": ...} as lab fleet writes it)",
		                 path, req->line);
		goto out;
	}
	const struct {
		const struct lab_an_json *obj;
		const char *key;
		char *buf;
		size_t len;
	} str[] = {
	    {j, "config", f->config, sizeof(f->config)},
	    {j, "config_source", f->config_source, sizeof(f->config_source)},
	    {j, "state", f->state, sizeof(f->state)},
	    {j, "submitted_utc", f->submitted_utc, sizeof(f->submitted_utc)},
	    {jobs, "run", f->run_job, sizeof(f->run_job)},
	    {jobs, "analyze", f->analyze_job, sizeof(f->analyze_job)},
	    {req, "nodes", f->nodes, sizeof(f->nodes)},
	    {req, "nodelist", f->nodelist, sizeof(f->nodelist)},
	    {req, "partition", f->partition, sizeof(f->partition)},
	    {req, "constraint", f->constraint, sizeof(f->constraint)},
	    {req, "time", f->time, sizeof(f->time)},
	};
	for (size_t i = 0; i < sizeof(str) / sizeof(str[0]); i++)
		if ((rc = fleet_copy(str[i].obj, str[i].key, str[i].buf, str[i].len, path, err)))
			goto out;
	if ((rc = fleet_values_check(j, req, f, path, err)))
		goto out;
	const char *ids[2][2] = {{"run", f->run_job}, {"analyze", f->analyze_job}};
	for (int i = 0; i < 2; i++)
		if (ids[i][1][0] && !lab_an_fleet_job_ok(ids[i][1])) {
			rc = lab_err_set(err, LAB_EDATA,
			                 "%s:%u: jobs.%s is not a Slurm job id (allowed digits, "
			                 "optionally _ and an array index)",
			                 path, lab_an_json_get(jobs, ids[i][0])->line, ids[i][0]);
			goto out;
		}
	rc = fleet_read_tasks(lab_an_json_get(j, "tasks"), f, path, err);
out:
	lab_an_json_free(j);
	free(text);
	return rc;
}

void lab_an_fleet_json(const struct lab_an_fleet *f, FILE *out)
{
	struct lab_json w;

	lab_json_begin_digits(&w, out, 10);
	lab_json_obj_open(&w, NULL);
	lab_json_str(&w, "schema", LAB_FLEET_SCHEMA);
	lab_json_str(&w, "config", f->config);
	lab_json_str(&w, "config_source", f->config_source);
	lab_json_str(&w, "submitted_utc", f->submitted_utc);
	lab_json_obj_open(&w, "request");
	lab_json_str(&w, "nodes", f->nodes);
	lab_json_str(&w, "nodelist", f->nodelist);
	lab_json_str(&w, "partition", f->partition);
	lab_json_str(&w, "constraint", f->constraint);
	lab_json_str(&w, "time", f->time);
	lab_json_obj_close(&w);
	lab_json_obj_open(&w, "jobs");
	lab_json_str(&w, "run", f->run_job);
	lab_json_str(&w, "analyze", f->analyze_job);
	lab_json_obj_close(&w);
	lab_json_str(&w, "state", f->state);
	lab_json_arr_open(&w, "tasks");
	for (size_t i = 0; i < f->ntask; i++) {
		lab_json_obj_open(&w, NULL);
		lab_json_str(&w, "node", f->task[i].node);
		lab_json_str(&w, "results", f->task[i].node);
		lab_json_str(&w, "state", f->task[i].state);
		if (f->task[i].exit_code >= 0)
			lab_json_int(&w, "exit_code", f->task[i].exit_code);
		else
			lab_json_str(&w, "exit_code", NULL);
		lab_json_obj_close(&w);
	}
	lab_json_arr_close(&w);
	lab_json_obj_close(&w);
	lab_json_end(&w);
}

int lab_an_fleet_write(const char *dir, const struct lab_an_fleet *f, struct lab_err *err)
{
	struct lab_an_wfile w;
	char path[4200];

	snprintf(path, sizeof(path), "%s/%s", dir, LAB_FLEET_FILE);
	if (!lab_an_wfile_open(&w, path, err))
		return -LAB_EIO;
	lab_an_fleet_json(f, w.f);
	return lab_an_wfile_close(&w, 1, err);
}

int lab_an_fleet_is_dir(const char *dir)
{
	char path[4200];
	struct stat st;

	/* any fleet.json: one that is no regular file is refused by its reader, by its name (a
	 * FIFO here was called a results directory without samples.csv) */
	snprintf(path, sizeof(path), "%s/%s", dir, LAB_FLEET_FILE);
	if (lstat(path, &st) != 0)
		return 0;
	snprintf(path, sizeof(path), "%s/%s", dir, LAB_FILE_RUN);
	return stat(path, &st) != 0;
}
