/* SPDX-License-Identifier: GPL-3.0-or-later */
/* samples.csv, threads.csv and config.ini, and run.json's file (rewritten whole: temp file +
 * rename); what run.json says is results_json.c's. */
#include "harness/results.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/clock.h"
#include "harness/record_schema.h"
#include "harness/results_internal.h"

/* dir/name, malloc'd; NULL when out of memory. */
static char *results_path(const struct lab_results *res, const char *name)
{
	char *p = NULL;

	if (asprintf(&p, "%s/%s", res->dir, name) < 0)
		return NULL;
	return p;
}

/* Rewrites run.json (temp file + rename) with the given status. */
static int results_write_run(const struct lab_results *res, const char *status, struct lab_err *err)
{
	char *tmp = results_path(res, LAB_RESULTS_RUN_TMP);
	char *dst = results_path(res, LAB_FILE_RUN);
	FILE *f = NULL;
	int rc = 0, fd = -1;

	/* A name another process put there (a symlink out of the directory) is removed, not
	 * followed; O_EXCL | O_NOFOLLOW refuse one that comes back before the open. */
	if (tmp && (unlink(tmp) == 0 || errno == ENOENT))
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd >= 0 && !(f = fdopen(fd, "w")))
		close(fd);
	if (!f) {
		rc = lab_err_set(err, LAB_EIO, "create %s: %s", tmp ? tmp : "run.json",
		                 strerror(errno));
		goto out;
	}
	lab__results_run_json(f, res, status);
	if (ferror(f) | (fclose(f) != 0) || rename(tmp, dst) != 0) {
		rc = lab_err_set(err, LAB_EIO, "write %s: %s", dst, strerror(errno));
		unlink(tmp); /* a full disk must not leave a half-written temp file */
	}
out:
	free(tmp);
	free(dst);
	return rc;
}

/* The union of every experiment's metric names, in order of first appearance. */
static int results_metric_columns(struct lab_results *res)
{
	const struct lab_plan *plan = res->plan;

	res->col_of =
	    calloc((size_t)(plan->nexp ? plan->nexp : 1) * LAB_METRICS_MAX, sizeof(*res->col_of));
	res->cols =
	    calloc((size_t)(plan->nexp ? plan->nexp : 1) * LAB_METRICS_MAX, sizeof(*res->cols));
	if (!res->col_of || !res->cols)
		return -1;
	for (unsigned e = 0; e < plan->nexp; e++) {
		const struct lab_metric *m = plan->exp[e].kernel->metrics;
		for (unsigned k = 0; m && m[k].name && k < LAB_METRICS_MAX; k++) {
			unsigned c = 0;
			while (c < res->ncols && strcmp(res->cols[c], m[k].name) != 0)
				c++;
			if (c == res->ncols) {
				LAB_BUG_ON(res->ncols == LAB_RESULTS_COLS_MAX);
				res->cols[res->ncols++] = m[k].name;
			}
			res->col_of[e * LAB_METRICS_MAX + k] = c;
		}
	}
	return 0;
}

static void results_headers(struct lab_results *res)
{
	fputs(LAB_SAMPLES_COLUMNS, res->samples);
	fputs(LAB_THREADS_COLUMNS, res->threads);
	for (unsigned c = 0; c < res->ncols; c++) {
		fprintf(res->samples, ",%s", res->cols[c]);
		fprintf(res->threads, ",%s", res->cols[c]);
	}
	fputs("," LAB_COL_RUNQ_WAIT, res->samples);
	fputs("," LAB_COL_RUNQ_WAIT, res->threads);
	lab_ctr_columns_header(res->samples, res->ctr_mask);
	lab_ctr_columns_header(res->threads, res->ctr_mask);
	fputs("," LAB_COL_RUN, res->samples);
	fputc('\n', res->samples);
	fputc('\n', res->threads);
	fflush(res->samples);
	fflush(res->threads);
}

static int results_write_file(const struct lab_results *res, const char *name, const char *text,
                              struct lab_err *err)
{
	char *path = results_path(res, name);
	FILE *f = path ? fopen(path, "w") : NULL;
	int rc = 0;

	if (!f || fputs(text ? text : "", f) < 0 || fclose(f) != 0)
		rc = lab_err_set(err, LAB_EIO, "write %s: %s", path ? path : name, strerror(errno));
	free(path);
	return rc;
}

static FILE *results_fopen(const struct lab_results *res, const char *name, struct lab_err *err)
{
	char *path = results_path(res, name);
	FILE *f = path ? fopen(path, "w") : NULL;

	if (!f)
		lab_err_set(err, LAB_EIO, "create %s: %s", path ? path : name, strerror(errno));
	free(path);
	return f;
}

static void results_free(struct lab_results *res)
{
	if (res->samples)
		fclose(res->samples);
	if (res->threads)
		fclose(res->threads);
	for (unsigned i = 0; res->pts && i < res->plan->npts; i++) {
		free(res->pts[i].omp_cpus);
		free(res->pts[i].sample_attempts);
		free(res->pts[i].pids);
		free(res->pts[i].ctr);
		lab_facts_clear(res->pts[i].facts);
		free(res->pts[i].facts);
	}
	free(res->pts);
	free(res->cols);
	free(res->col_of);
	free(res->dir);
	free(res);
}

/* Removes what lab_results_open made after a failure, so nothing half-written stays. */
static void results_remove(struct lab_results *res, bool created)
{
	static const char *const names[] = {LAB_FILE_RUN,    LAB_FILE_SAMPLES,    LAB_FILE_THREADS,
	                                    LAB_FILE_CONFIG, LAB_RESULTS_RUN_TMP, LAB_RESULTS_LOCK};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char *p = results_path(res, names[i]);
		if (p)
			unlink(p);
		free(p);
	}
	if (created)
		rmdir(res->dir);
}

int lab_results_open(struct lab_results **out, const char *dir, const struct lab_plan *plan,
                     const struct lab_results_info *info, struct lab_err *err)
{
	struct lab_results *res = calloc(1, sizeof(*res));
	bool created = false;
	int rc;

	if (!res || !(res->dir = strdup(dir))) {
		free(res);
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	}
	res->plan = plan;
	res->info = *info;
	res->pts = calloc(plan->npts ? plan->npts : 1, sizeof(*res->pts));
	res->ctr_mask = lab_ctr_plan_mask(plan, lab_ctr_host_self());
	if (!res->pts || results_metric_columns(res)) {
		results_free(res);
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	}
	rc = lab__results_claim(dir, &created, err);
	if (rc) {
		results_free(res);
		return rc;
	}
	rc = results_write_file(res, LAB_FILE_CONFIG, info->cfg->text, err);
	if (rc == 0 && !(res->samples = results_fopen(res, LAB_FILE_SAMPLES, err)))
		rc = -LAB_EIO;
	if (rc == 0 && !(res->threads = results_fopen(res, LAB_FILE_THREADS, err)))
		rc = -LAB_EIO;
	if (rc == 0) {
		results_headers(res);
		/* A full disk shows here at the latest (results_headers flushed both files). */
		if (ferror(res->samples) || ferror(res->threads))
			rc = lab_err_set(err, LAB_EIO, "write %s/%s: %s", dir,
			                 ferror(res->samples) ? LAB_FILE_SAMPLES : LAB_FILE_THREADS,
			                 strerror(errno));
	}
	if (rc == 0)
		rc = results_write_run(res, "running", err);
	if (rc) {
		results_remove(res, created);
		results_free(res);
		return rc;
	}
	*out = res;
	return 0;
}

static void results_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ",%.9g", v);
	else
		fputc(',', f);
}

/* The metric columns of one row: the value where the experiment has the metric, else empty. */
static void results_metrics(const struct lab_results *res, FILE *f, unsigned exp, const double *m)
{
	double row[LAB_RESULTS_COLS_MAX];
	const struct lab_metric *decl = res->plan->exp[exp].kernel->metrics;

	for (unsigned c = 0; c < res->ncols; c++)
		row[c] = NAN;
	for (unsigned k = 0; decl && decl[k].name && k < LAB_METRICS_MAX; k++)
		row[res->col_of[exp * LAB_METRICS_MAX + k]] = m[k];
	for (unsigned c = 0; c < res->ncols; c++)
		results_num(f, row[c]);
}

static void results_rows(struct lab_results *res, const struct lab_point_rec *rec)
{
	const struct lab_point *pt = rec->pt;
	const struct lab_experiment *e = &res->plan->exp[pt->exp];

	for (unsigned r = 0; r < rec->nreps; r++) {
		const struct lab_sample_rec *s = &rec->samples[r];
		fprintf(res->samples, "%s,%u,%s,", e->name, pt->id, e->kernel->name);
		lab_csv_field(res->samples, pt->params_text);
		fprintf(res->samples, ",%u,%u,%" PRIu64 ",%" PRIu64 ",%s", rec->nthreads,
		        rec->rep0 + r, s->elapsed_ns, s->work,
		        e->kernel->work_unit ? e->kernel->work_unit : "iter");
		results_num(res->samples, s->foreign_cpu);
		fprintf(res->samples, ",%d", s->flagged ? 1 : 0);
		results_metrics(res, res->samples, pt->exp, s->metric);
		results_num(res->samples, s->runq_wait);
		lab_ctr_columns_row(res->samples, res->ctr_mask, s->ctr, s->ctr_mux);
		fprintf(res->samples, ",%u\n", rec->run);
		for (unsigned t = 0; t < rec->nworkers; t++) {
			const struct lab_thread_rec *tr = &rec->threads[r * rec->nworkers + t];
			fprintf(res->threads, "%u,%u,%u,%d,%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64,
			        pt->id, rec->rep0 + r, t, tr->cpu_start, tr->cpu_end, tr->start_ns,
			        tr->end_ns, tr->work);
			results_metrics(res, res->threads, pt->exp, tr->metric);
			results_num(res->threads, tr->runq_wait);
			lab_ctr_columns_row(res->threads, res->ctr_mask, tr->ctr, tr->ctr_mux);
			fputc('\n', res->threads);
		}
	}
}

/*
 * Rewrites run.json while running, at most every LAB_RESULTS_WRITE_NS and never sooner than 9
 * times the last rewrite took after its end: it holds the whole plan, so a rewrite per point
 * would make a run of n short points write O(n^2) bytes (a plan of 95,000 skipped points wrote
 * its 49 MB run.json after each, longer than the fixed gap: minutes of writing for a run of
 * seconds). samples.csv is flushed per point regardless, and the analyzer trusts its rows over
 * a "running" or "planned" point that a killed run had no time to record.
 */
static int results_write_running(struct lab_results *res, struct lab_err *err)
{
	uint64_t now = lab_clock_ns(), took;
	int rc;

	if (res->written_ns && now - res->written_ns < res->write_gap_ns)
		return 0;
	rc = results_write_run(res, "running", err);
	res->written_ns = lab_clock_ns();
	took = res->written_ns - now;
	res->write_gap_ns = took > LAB_RESULTS_WRITE_NS / 9 ? 9 * took : LAB_RESULTS_WRITE_NS;
	return rc;
}

int lab_results_start(struct lab_results *res, const struct lab_point *pt, struct lab_err *err)
{
	res->pts[pt->id].running = true;
	res->pts[pt->id].started_ns = lab_clock_ns();
	return results_write_running(res, err);
}

/* The bool fact key of f: 1 or 0, -1 when f has none. */
static int results_fact_bool(const struct lab_facts *f, const char *key)
{
	for (unsigned i = 0; f && i < f->n; i++)
		if (f->f[i].kind == LAB_FACT_BOOL && !strcmp(f->f[i].key, key))
			return f->f[i].b;
	return -1;
}

/*
 * Run `run` (from 0) of a point put its pages elsewhere than asked where the first run's were
 * where asked (or could not be told): its facts stand for the point instead, its note saying
 * which run (numa30: seven of eight setups made while the bound node was full kept the first's
 * placement_ok).
 */
static void results_facts_misplaced(struct lab_results_pt *p, const struct lab_facts *later,
                                    unsigned run)
{
	struct lab_facts *f;

	if (results_fact_bool(p->facts, "placement_ok") == 0 ||
	    results_fact_bool(later, "placement_ok") != 0 || !(f = lab_facts_dup(later)))
		return;
	for (unsigned i = 0; i < f->n; i++) {
		char *note = NULL;
		if (f->f[i].kind != LAB_FACT_STR || strcmp(f->f[i].key, "placement_note") ||
		    asprintf(&note,
		             "in run %u of the point (the runs before had their pages where "
		             "asked, or could not tell): %s",
		             run + 1, f->f[i].s) < 0)
			continue;
		free(f->f[i].s);
		f->f[i].s = note;
	}
	lab_facts_clear(p->facts);
	free(p->facts);
	p->facts = f;
}

/*
 * A later run of a point already recorded: its samples add up, a failure fails the point, and
 * the first run's calibration, counters and facts stand for the point (but for a later run
 * whose pages were not where asked: results_facts_misplaced).
 */
static void results_point_more(struct lab_results_pt *p, const struct lab_point_rec *rec)
{
	results_facts_misplaced(p, &rec->facts, p->runs);
	unsigned *sa = realloc(p->sample_attempts, (p->nreps + rec->nreps + 1) * sizeof(*sa));

	if (sa) {
		for (unsigned i = 0; i < rec->nreps; i++)
			sa[p->nreps + i] = rec->samples[i].attempts;
		p->sample_attempts = sa;
	}
	p->runs++;
	p->runs_planned = rec->runs_planned;
	p->complete = rec->last_run;
	p->nreps += rec->nreps;
	p->nflagged += rec->nflagged;
	p->nflagged_runq += rec->nflagged_runq;
	p->attempts += rec->attempts;
	if (rec->prec.on)
		p->prec = rec->prec;
	if (rec->status == LAB_STATUS_FAILED && p->status != LAB_STATUS_FAILED) {
		p->status = LAB_STATUS_FAILED;
		p->verify = rec->verify;
		/* The reason as the run gave it; which run failed is in samples.csv's run. */
		memcpy(p->reason, rec->reason, sizeof(p->reason));
	}
}

int lab_results_point(void *ctx, const struct lab_point_rec *rec, struct lab_err *err)
{
	struct lab_results *res = ctx;
	struct lab_results_pt *p = &res->pts[rec->pt->id];
	unsigned had = p->done ? p->runs : 0;
	int *pids = rec->pt->h.fresh_process ? realloc(p->pids, (had + 1) * sizeof(*pids)) : NULL;

	if (pids) {
		p->pids = pids;
		pids[had] = rec->pid;
	}

	results_rows(res, rec);
	if (fflush(res->samples) != 0)
		return lab_err_set(err, LAB_EIO, "write %s/%s: %s", res->dir, LAB_FILE_SAMPLES,
		                   strerror(errno));
	if (fflush(res->threads) != 0)
		return lab_err_set(err, LAB_EIO, "write %s/%s: %s", res->dir, LAB_FILE_THREADS,
		                   strerror(errno));
	p->running = false;
	if (p->started_ns)
		p->wall_ns += lab_clock_ns() - p->started_ns;
	p->started_ns = 0;
	res->ndone += rec->last_run;
	if (p->done) {
		results_point_more(p, rec);
		return results_write_running(res, err);
	}
	p->done = true;
	p->runs = 1;
	p->runs_planned = rec->runs_planned;
	p->complete = rec->last_run;
	p->prec = rec->prec;
	p->status = rec->status;
	p->verify = rec->verify;
	p->iters = rec->iters;
	p->windows = rec->windows;
	p->nreps = rec->nreps;
	p->nflagged = rec->nflagged;
	p->nflagged_runq = rec->nflagged_runq;
	p->attempts = rec->attempts;
	p->load_limit = rec->load_limit;
	if (rec->nreps && (p->sample_attempts = malloc(rec->nreps * sizeof(unsigned))))
		for (unsigned i = 0; i < rec->nreps; i++)
			p->sample_attempts[i] = rec->samples[i].attempts;
	p->has_work = rec->has_work;
	if (rec->omp_cpus && (p->omp_cpus = malloc(rec->nthreads * sizeof(int))))
		memcpy(p->omp_cpus, rec->omp_cpus, rec->nthreads * sizeof(int));
	p->work = rec->work;
	if (rec->ctr && (p->ctr = malloc(sizeof(*p->ctr))))
		*p->ctr = *rec->ctr;
	p->facts = lab_facts_dup(&rec->facts);
	snprintf(p->reason, sizeof(p->reason), "%s", rec->reason);
	return results_write_running(res, err);
}

int lab_results_close(struct lab_results *res, const char *status, const char *error,
                      struct lab_err *err)
{
	snprintf(res->error, sizeof(res->error), "%s", error ? error : "");
	int rc = results_write_run(res, status, err);

	if (res->samples && fclose(res->samples) != 0 && rc == 0)
		rc = lab_err_set(err, LAB_EIO, "close %s: %s", LAB_FILE_SAMPLES, strerror(errno));
	if (res->threads && fclose(res->threads) != 0 && rc == 0)
		rc = lab_err_set(err, LAB_EIO, "close %s: %s", LAB_FILE_THREADS, strerror(errno));
	res->samples = res->threads = NULL;
	lab__results_unclaim(res->dir);
	results_free(res);
	return rc;
}
