/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The cross-host view: loading every node's results, matching points, the JSON document. */
#include "analyze/fleet_view.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze/fleet_builds.h"
#include "analyze/index.h"
#include "analyze/jsonw.h"
#include "analyze/levels.h"
#include "harness/record_schema.h"

/* A count of the host (sockets, nodes, cores, PUs, CPUs) as a whole number 1 .. 2^20, else
 * unknown (NaN): a run.json from elsewhere said 1e300 packages, -3 nodes and 2.5 cores. */
static double fleet_count(const struct lab_an_json *j, const char *key)
{
	double v = lab_an_json_num(j, key, NAN);

	return v >= 1 && v <= 1048576 && v == floor(v) ? v : NAN;
}

static void fleet_str(const struct lab_an_json *j, const char *key, char *buf, size_t len)
{
	const char *s = lab_an_json_str(j, key);

	snprintf(buf, len, "%s", s ? s : "");
}

/* A point's key among a host's: (experiment, params, threads). */
static uint64_t fleet_point_hash(const struct lab_an_point *p)
{
	uint64_t h = lab_an_hash_str(LAB_AN_HASH_INIT, p->experiment);

	return lab_an_hash_long(lab_an_hash_str(h, p->params), p->threads);
}
/* The provenance table's row of one host, from its run.json "host" object. */
static void fleet_prov(const struct lab_an_data *d, struct lab_an_fleet_prov *p)
{
	const struct lab_an_json *host = lab_an_json_get(d->run, "host");
	const struct lab_an_json *topo = lab_an_json_get(host, "topology");
	const struct lab_an_json *slurm = lab_an_json_get(host, "slurm");

	fleet_str(host, "hostname", p->hostname, sizeof(p->hostname));
	fleet_str(host, "cpu_model", p->cpu_model, sizeof(p->cpu_model));
	fleet_str(host, "governor", p->governor, sizeof(p->governor));
	p->packages = fleet_count(topo, "packages");
	p->numa_nodes = fleet_count(topo, "numa_nodes");
	p->cores = fleet_count(topo, "cores");
	p->pus = fleet_count(topo, "pus");
	/* a clock's step: positive and at most a second */
	p->clock_resolution_ns =
	    lab_an_json_num(lab_an_json_get(host, "clock"), "resolution_ns", NAN);
	if (!(p->clock_resolution_ns > 0 && p->clock_resolution_ns <= 1e9))
		p->clock_resolution_ns = NAN;
	fleet_str(slurm, "job_id", p->slurm_job, sizeof(p->slurm_job));
	fleet_str(slurm, "partition", p->slurm_partition, sizeof(p->slurm_partition));
	p->slurm_cpus = fleet_count(slurm, "cpus_allowed");
}

/* The task states in which a task did not end well (Slurm's, and MISSING: never started). */
static int fleet_state_failed(const char *state)
{
	static const char *bad[] = {"FAILED",    "CANCELLED", "TIMEOUT",  "NODE_FAIL", "OUT_OF_ME",
	                            "PREEMPTED", "BOOT_FAIL", "DEADLINE", "MISSING"};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!strncmp(state, bad[i], strlen(bad[i])))
			return 1;
	return 0;
}

/* A loaded host whose task failed or exited with an error (exit_code > 0, whatever its state
 * says), or whose run was interrupted or failed, is no healthy host, even with every file in
 * place: a cancelled fleet read as "ok" on every host. */
static void fleet_health(struct lab_an_fleet_host *h, int exit_code)
{
	const char *status = lab_an_json_str(h->d.run, "status");
	int run_bad = status && strcmp(status, "complete") != 0;

	if (!run_bad && !fleet_state_failed(h->state) && !(exit_code > 0))
		return;
	h->failed = 1;
	if (!run_bad && !fleet_state_failed(h->state))
		snprintf(h->why, sizeof(h->why),
		         "task %s exited with %d; its finished points are marked", h->state,
		         exit_code);
	else
		snprintf(h->why, sizeof(h->why), "task %s, run %s; its finished points are marked",
		         h->state, status ? status : "of unknown status");
}

static int fleet_add_host(const char *dir, const char *node, const char *state, int exit_code,
                          int include_flagged, struct lab_an_fleet_view *v, size_t *cap)
{
	struct lab_err e;
	char path[4200];

	if (lab_an_grow(&v->h, cap, v->n + 1, sizeof(*v->h)))
		return -LAB_ENOMEM;
	struct lab_an_fleet_host *h = &v->h[v->n++];
	memset(h, 0, sizeof(*h));
	fleet_prov(&h->d, &h->prov); /* a host that does not load: unknown (NaN), not 0 */
	snprintf(h->node, sizeof(h->node), "%s", node);
	snprintf(h->state, sizeof(h->state), "%s", state);
	snprintf(path, sizeof(path), "%s/%s", dir, node);
	struct stat st;
	int found = lstat(path, &st) == 0;
	if (!found || !S_ISDIR(st.st_mode)) {
		/* A link is refused too: the per-host analysis writes into DIR/<node>, and a fleet
		 * directory from elsewhere must not point those writes at another directory. */
		snprintf(h->why, sizeof(h->why), "%s (task %s)",
		         !found ? "no results directory"
		         : S_ISLNK(st.st_mode)
		             ? "a symbolic link, not a results directory (refused)"
		             : "not a directory",
		         state);
		return 0;
	}
	/* as lab analyze DIR/<node> does: with runs >= 2 a point's interval is its run means' */
	if (lab_an_data_load_dir(&h->d, path, &e) ||
	    lab_an_data_summarize(&h->d, include_flagged, &e) ||
	    lab_an_levels_apply(&h->d, include_flagged, &e)) {
		snprintf(h->why, sizeof(h->why), "%s", e.msg);
		lab_an_data_free(&h->d);
		memset(&h->d, 0, sizeof(h->d));
		return e.code == LAB_ENOMEM ? -LAB_ENOMEM : 0;
	}
	h->ok = 1;
	fleet_prov(&h->d, &h->prov);
	fleet_health(h, exit_code);
	return 0;
}

/* Without tasks in fleet.json: every subdirectory with a run.json and a plain name. */
/* Names in byte order, whatever the locale (alphasort's strcoll is not). */
static int fleet_name_cmp(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* In name order: readdir's differs between file systems, and with it the hosts' order, the
 * rows' and the plots' numbers (a fleet copied from ext4 to tmpfs analyzed otherwise). */
static int fleet_scan(const char *dir, int include_flagged, struct lab_an_fleet_view *v,
                      size_t *cap)
{
	struct dirent **e = NULL;
	int n = scandir(dir, &e, NULL, fleet_name_cmp), rc = 0;
	char path[4200];
	struct stat st;

	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s/%s", dir, e[i]->d_name, LAB_FILE_RUN);
		if (!rc && lab_an_fleet_node_ok(e[i]->d_name) && stat(path, &st) == 0)
			rc = fleet_add_host(dir, e[i]->d_name, "UNKNOWN", -1, include_flagged, v,
			                    cap);
		free(e[i]);
	}
	free(e);
	return rc;
}

/* A row's first member, for the index's comparison: same (experiment, params, threads) and the
 * same quantity as the candidate. */
struct fleet_rows {
	const struct lab_an_fleet_view *v;
	const struct lab_an_fleet_member *rep; /* each row's first member */
	const struct lab_an_fleet_member *cand;
};

/* The same (experiment, params, threads) as a row's first member, whatever the quantity. */
static int fleet_same_key(const void *ctx, size_t item)
{
	const struct fleet_rows *x = ctx;
	const struct lab_an_point *p = x->rep[item].p, *q = x->cand->p;

	return q->threads == p->threads && !strcmp(q->experiment, p->experiment) &&
	       !strcmp(q->params, p->params);
}

/* The same key and the same quantity: the candidate belongs to that row. */
static int fleet_same_row(const void *ctx, size_t item)
{
	const struct fleet_rows *x = ctx;
	const struct lab_an_fleet_member *a = &x->rep[item], *b = x->cand;

	return fleet_same_key(ctx, item) &&
	       lab_an_fleet_same_quantity(&x->v->h[a->host].d, a->p, &x->v->h[b->host].d, b->p);
}

/* Each row's siblings: rows of its key that measured another quantity (another kernel, unit or
 * whose time), from keyof (each row's key's first row): the rows of the key (r->rows) and the
 * hosts in the others (r->others). Sums kept on each key's first row, then shared. */
static void fleet_siblings(struct lab_an_fleet_view *v, const size_t *keyof)
{
	for (size_t r = 0; r < v->nrow; r++) {
		v->row[keyof[r]].rows++;
		v->row[keyof[r]].others += v->row[r].n; /* for now: every host of the key */
	}
	/* backwards: a key's first row (keyof[r] <= r) is set after every row that reads it */
	for (size_t r = v->nrow; r-- > 0;) {
		const struct lab_an_fleet_row *k = &v->row[keyof[r]];
		v->row[r].rows = k->rows;
		v->row[r].others = k->others - v->row[r].n;
	}
}

/* Groups every loaded host's points into rows (v->row, v->mem): one hash index over all of
 * them, then a stable counting sort by row, so a row lists its hosts in host order. */
static int fleet_rows(struct lab_an_fleet_view *v)
{
	size_t total = 0, m = 0, *rowof = NULL, *order = NULL, *end = NULL, *keyof = NULL;
	struct lab_an_fleet_member *all = NULL, *rep = NULL;
	struct lab_an_index ix = {0};
	struct fleet_rows x = {.v = v};
	int rc = -LAB_ENOMEM;

	for (size_t i = 0; i < v->n; i++)
		total += v->h[i].ok ? v->h[i].d.npt : 0;
	if (!total)
		return 0;
	all = malloc(total * sizeof(*all));
	rep = malloc(total * sizeof(*rep));
	rowof = malloc(total * sizeof(*rowof));
	order = malloc(total * sizeof(*order));
	keyof = malloc(total * sizeof(*keyof));
	if (!all || !rep || !rowof || !order || !keyof)
		goto out;
	x.rep = rep;
	for (size_t i = 0; i < v->n; i++)
		for (size_t j = 0; v->h[i].ok && j < v->h[i].d.npt; j++, m++) {
			const struct lab_an_point *p = &v->h[i].d.pt[j];
			uint64_t hash = fleet_point_hash(p);
			all[m] = (struct lab_an_fleet_member){i, p};
			x.cand = &all[m];
			rowof[m] = lab_an_index_find(&ix, hash, fleet_same_row, &x);
			if (rowof[m] != (size_t)-1) /* a host has one point of a key (the loader) */
				continue;
			rowof[m] = v->nrow;
			rep[v->nrow] = all[m];
			/* the key's first row, whichever of its rows the index finds */
			keyof[v->nrow] = lab_an_index_find(&ix, hash, fleet_same_key, &x);
			keyof[v->nrow] =
			    keyof[v->nrow] == (size_t)-1 ? v->nrow : keyof[keyof[v->nrow]];
			if (lab_an_index_add(&ix, hash, v->nrow++))
				goto out;
		}
	v->row = malloc(v->nrow * sizeof(*v->row));
	v->mem = malloc(total * sizeof(*v->mem));
	end = malloc(v->nrow * sizeof(*end));
	if (!v->row || !v->mem || !end)
		goto out;
	lab_an_bucket(rowof, total, v->nrow, order, end);
	for (size_t k = 0; k < total; k++)
		v->mem[k] = all[order[k]];
	for (size_t r = 0; r < v->nrow; r++)
		v->row[r] = (struct lab_an_fleet_row){r ? end[r - 1] : 0,
		                                      end[r] - (r ? end[r - 1] : 0), 0, 0};
	fleet_siblings(v, keyof);
	rc = 0;
out:
	free(keyof);
	free(all);
	free(rep);
	free(rowof);
	free(order);
	free(end);
	lab_an_index_free(&ix);
	return rc;
}

int lab_an_fleet_view_load(const char *dir, const struct lab_an_fleet *f, int include_flagged,
                           struct lab_an_fleet_view *v, struct lab_err *err)
{
	size_t cap = 0;
	int rc = 0;

	memset(v, 0, sizeof(*v));
	for (size_t i = 0; i < f->ntask && !rc; i++)
		rc = fleet_add_host(dir, f->task[i].node, f->task[i].state, f->task[i].exit_code,
		                    include_flagged, v, &cap);
	if (!rc && f->ntask == 0)
		rc = fleet_scan(dir, include_flagged, v, &cap);
	if (!rc)
		rc = fleet_rows(v);
	if (rc)
		return lab_err_set(err, LAB_ENOMEM, "out of memory loading the fleet %s", dir);
	if (v->n == 0) /* submitted, not yet run (or not a fleet lab wrote): nothing to analyze */
		return lab_err_set(
		    err, LAB_EDATA,
		    "%s/%s: no tasks, and no node's results directory in %s (allowed: "
		    "a fleet whose nodes ran; lab fleet status %s records its tasks)",
		    dir, LAB_FLEET_FILE, dir, dir);
	return 0;
}

void lab_an_fleet_view_free(struct lab_an_fleet_view *v)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->h[i].ok)
			lab_an_data_free(&v->h[i].d);
	free(v->h);
	free(v->row);
	free(v->mem);
	memset(v, 0, sizeof(*v));
}

int lab_an_fleet_same_quantity(const struct lab_an_data *d, const struct lab_an_point *p,
                               const struct lab_an_data *e, const struct lab_an_point *q)
{
	return (!p->kernel || !q->kernel || !strcmp(p->kernel, q->kernel)) &&
	       !strcmp(lab_an_point_unit(d, p), lab_an_point_unit(e, q)) &&
	       lab_an_cost_scope(d, p->experiment) == lab_an_cost_scope(e, q->experiment);
}

size_t lab_an_fleet_absent(const struct lab_an_fleet_view *v, const struct lab_an_fleet_row *r,
                           size_t *out, size_t max)
{
	size_t n = 0, m = 0;

	for (size_t k = 0; k < v->n && n < max; k++) {
		if (m < r->n && v->mem[r->first + m].host == k)
			m++;
		else
			out[n++] = k;
	}
	return n;
}

static void fleet_json_hosts(struct lab_json *w, const struct lab_an_fleet_view *v)
{
	lab_json_arr_open(w, "hosts");
	for (size_t i = 0; i < v->n; i++) {
		const struct lab_an_fleet_host *h = &v->h[i];
		const struct lab_an_fleet_prov *p = &h->prov;
		lab_json_obj_open(w, NULL);
		lab_json_str(w, "node", h->node);
		lab_json_str(w, "task_state", h->state);
		lab_json_str(w, "status", h->failed ? "failed" : h->ok ? "ok" : "missing");
		lab_json_str(w, "reason", h->ok && !h->failed ? NULL : h->why);
		lab_json_str(w, "hostname", p->hostname);
		lab_json_str(w, "cpu_model", p->cpu_model);
		lab_json_num(w, "packages", p->packages);
		lab_json_num(w, "numa_nodes", p->numa_nodes);
		lab_json_num(w, "cores", p->cores);
		lab_json_num(w, "pus", p->pus);
		lab_json_str(w, "governor", p->governor);
		lab_json_num(w, "clock_resolution_ns", p->clock_resolution_ns);
		lab_json_str(w, "slurm_job", p->slurm_job);
		lab_json_str(w, "slurm_partition", p->slurm_partition);
		lab_json_num(w, "slurm_cpus", p->slurm_cpus);
		lab_json_obj_close(w);
	}
	lab_json_arr_close(w);
}

/* One point, the mean and interval of every host that has it side by side; the others counted
 * (hosts[] names every host). */
static void fleet_json_point(struct lab_json *w, const struct lab_an_fleet_view *v,
                             const struct lab_an_fleet_row *r)
{
	const struct lab_an_fleet_member *m0 = &v->mem[r->first];
	const struct lab_an_data *d0 = &v->h[m0->host].d;
	const struct lab_an_point *p = m0->p;

	lab_json_obj_open(w, NULL);
	lab_json_str(w, "experiment", p->experiment);
	lab_json_str(w, "params", p->params);
	lab_json_int(w, "threads", p->threads);
	lab_json_str(w, "unit", lab_an_point_unit(d0, p));
	lab_json_str(w, "cost_whose", lab_an_cost_whose(d0, p));
	lab_json_str(w, "kernel", p->kernel); /* rows of one key may differ in it alone */
	lab_json_int(w, "hosts_without", (long long)(v->n - r->n - r->others));
	/* hosts that measured this point as another quantity: their row is another */
	lab_json_int(w, "hosts_other_quantity", (long long)r->others);
	lab_json_arr_open(w, "hosts");
	for (size_t k = 0; k < r->n; k++) {
		const struct lab_an_fleet_member *m = &v->mem[r->first + k];
		const struct lab_an_point *q = m->p;
		char flag[96];

		lab_json_obj_open(w, NULL);
		lab_json_str(w, "node", v->h[m->host].node);
		lab_json_str(w, "status", q->status);
		lab_json_bool(w, "host_failed", v->h[m->host].failed);
		lab_json_int(w, "n", (long long)q->st.n);
		lab_json_int(w, "n_flagged", (long long)q->n_flagged);
		lab_json_num(w, "mean", q->st.n ? q->st.mean : NAN);
		lab_json_num(w, "median", q->st.n ? q->st.median : NAN);
		/* one sample has no interval (stats gives it [mean, mean]) */
		lab_json_pair(w, "ci95", q->st.n > 1 ? q->st.ci95_lo : NAN,
		              q->st.n > 1 ? q->st.ci95_hi : NAN);
		/* "runs": the interval is of the run means (levels.c), "samples": of the samples */
		lab_json_int(w, "runs", (long long)q->levels.runs);
		lab_json_str(w, "interval_of",
		             q->st.n < 2           ? NULL
		             : q->levels.runs >= 2 ? "runs"
		                                   : "samples");
		lab_json_str(w, "one_setup", lab_an_one_setup_flag(q, flag, sizeof(flag)));
		lab_json_obj_close(w);
	}
	lab_json_arr_close(w);
	lab_json_obj_close(w);
}

void lab_an_fleet_view_json(const struct lab_an_fleet_view *v, FILE *f)
{
	struct lab_json w;

	lab_json_begin_digits(&w, f, 10);
	lab_json_obj_open(&w, NULL);
	lab_json_str(&w, "schema", "lab.fleet-analysis/2");
	fleet_json_hosts(&w, v);
	lab_an_fleet_builds_json(&w, v); /* analyze/fleet_builds.c */
	lab_json_arr_open(&w, "points");
	for (size_t r = 0; r < v->nrow; r++)
		fleet_json_point(&w, v, &v->row[r]);
	lab_json_arr_close(&w);
	lab_json_obj_close(&w);
	lab_json_end(&w);
}
