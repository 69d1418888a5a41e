/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A results directory loaded (samples.csv, run.json, threads.csv: the loaders of data_samples.c,
 * data_run.c and data_threads.c), each point summarized, and the whole freed. Points are found
 * and added in data_points.c; what run.json says of an experiment is data_cost.c's.
 */
#include "analyze/data.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze/csv.h"
#include "analyze/data_int.h"
#include "analyze/domain.h"
#include "analyze/fleet.h"
#include "analyze/levels.h"
#include "harness/fileio.h"
#include "harness/record_schema.h"

/*
 * A results directory is a directory that holds samples.csv (a link or a special file there is
 * the reader's to refuse). Anything else is bad usage (-LAB_EDATA), named as what it is: no
 * directory, a fleet directory (its hosts are its results directories), or no samples.csv.
 */
static int an_results_dir(const char *dir, const char *samples, struct lab_err *err)
{
	struct stat st;
	char fleet[4200];

	int gone = stat(dir, &st) != 0; /* say why: gone, or what it is */
	if (gone || !S_ISDIR(st.st_mode))
		return lab_err_set(err, LAB_EDATA,
		                   "%s: not a results directory (%s; allowed: a directory lab run "
		                   "wrote)",
		                   dir, gone ? strerror(errno) : lab_file_kind(st.st_mode));
	if (lstat(samples, &st) == 0 || errno != ENOENT)
		return 0;
	snprintf(fleet, sizeof(fleet), "%s/%s", dir, LAB_FLEET_FILE);
	if (stat(fleet, &st) == 0 && S_ISREG(st.st_mode))
		return lab_err_set(err, LAB_EDATA,
		                   "%s: a fleet directory, not a results directory (allowed: a "
		                   "directory lab run wrote, such as one host's %s/NODE)",
		                   dir, dir);
	return lab_err_set(err, LAB_EDATA,
	                   "%s: not a results directory (no %s; allowed: a directory lab run "
	                   "wrote)",
	                   dir, LAB_FILE_SAMPLES);
}

/* A point without samples (skipped, not reached) takes its unit from its experiment's
 * work_unit in run.json, not the data set's first one: `lab compare` called a point skipped on
 * one side "another unit of work". The data set's unit, with no sample at all, is the first
 * experiment's. Returns 0 or -1 (out of memory). */
static int an_units_from_run(struct lab_an_data *d)
{
	const struct lab_an_json *exps = lab_an_json_get(d->run, LAB_KEY_EXPERIMENTS);

	for (size_t i = 0; exps && i < d->npt; i++) {
		struct lab_an_point *p = &d->pt[i];
		size_t e = p->unit ? (size_t)-1 : lab_an_exp_find(d, p->experiment);
		const char *wu =
		    e == (size_t)-1 ? NULL : lab_an_json_str(&exps->items[e], LAB_KEY_WORK_UNIT);

		if (wu && *wu && !(p->unit = lab_an_asprintf("ns/%s", wu)))
			return -1;
		if (wu && *wu && !d->unit && !(d->unit = lab_an_strdup(p->unit)))
			return -1;
	}
	return 0;
}

/* The samples of points that run.json says did not end ok (a failed verify: the runner keeps
 * the rows it took) are left out, once every file has been checked against them: every table
 * then says the status and reason instead of numbers (a failed point printed its cost and GB/s
 * as any other row). One warning counts them. */
static void an_points_not_ok(struct lab_an_data *d)
{
	size_t n = 0, rows = 0;
	const struct lab_an_point *first = NULL;

	for (size_t i = 0; i < d->npt; i++) {
		struct lab_an_point *p = &d->pt[i];

		if (!p->n || !strcmp(p->status, "ok"))
			continue;
		first = n++ ? first : p;
		rows += p->n;
		p->n = 0;
	}
	if (n)
		lab_an_warn(&d->warn,
		            "%s/%s: %zu point%s that did not end ok (point %ld, [%s] threads=%d: "
		            "%s%s%s) ha%s %zu samples: left out, the tables give the status",
		            d->source, LAB_FILE_RUN, n, n == 1 ? "" : "s", first->id,
		            first->experiment, first->threads, first->status,
		            first->reason ? ": " : "", first->reason ? first->reason : "",
		            n == 1 ? "s" : "ve", rows);
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
	if ((rc = an_results_dir(dir, path, err)) || (rc = lab_an_samples_load(d, path, err)))
		goto out;
	free(path);
	if (!(path = lab_an_asprintf("%s/%s", dir, LAB_FILE_RUN)))
		goto nomem;
	if ((rc = lab_an_run_load(d, path, err)))
		goto out;
	if (d->samples_cut && lab_an_run_complete(d)) {
		free(path);
		if (!(path = lab_an_asprintf("%s/%s", dir, LAB_FILE_SAMPLES)))
			goto nomem;
		rc = lab_an_cut_line(path, d->samples_cut, err);
		goto out;
	}
	if (d->run && (rc = lab_an_run_points(d, err)))
		goto out;
	if (d->run && an_units_from_run(d))
		goto nomem;
	free(path);
	if (!(path = lab_an_asprintf("%s/%s", dir, LAB_FILE_THREADS)))
		goto nomem;
	if (d->run && (rc = lab_an_threads_load(d, path, err)))
		goto out;
	if ((rc = lab_an_points_distinct(d, err)))
		goto out;
	an_points_not_ok(d);
	free(d->rowkey); /* only threads.csv's rows needed them (indices into d->pt as read) */
	d->rowkey = NULL;
	d->nrowkey = 0;
	if (lab_an_points_plan_order(d))
		goto nomem;
	if (!d->unit && !(d->unit = lab_an_strdup("ns/unit")))
		goto nomem;
	goto out;
nomem:
	rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
out:
	free(path);
	return rc;
}

/* Scratch of an_msum for points of up to n samples. */
struct an_scratch {
	double *work, *tmp, *lv; /* n, n and 3 n */
	int *run;                /* n */
};

/* The summary of the k-th of p's metric columns. With runs, the interval is from the run means:
 * samples of one run share its setup, and their spread alone covered a metric's run-to-run
 * truth 4 times in 10. */
static void an_msum(const struct lab_an_point *p, size_t c, enum lab_domain dom, int inc,
                    const struct an_scratch *s, struct lab_an_msum *ms)
{
	struct lab_an_stats st;
	struct lab_an_levels lv;
	size_t k = 0;

	for (size_t i = 0; i < p->n; i++) {
		double v = p->metric[i * p->nmc + c];

		if (!isnan(v) && (inc || !p->flagged[i])) {
			s->run[k] = p->run ? p->run[i] : 0;
			s->tmp[k++] = v;
		}
	}
	memset(ms, 0, sizeof(*ms));
	if (p->run && k && lab_an_levels_compute(s->tmp, s->run, k, s->lv, &lv) == 0 &&
	    lv.runs >= 2 && isfinite(lv.run_se))
		ms->runs = lv.runs;
	lab_an_stats_compute(s->tmp, k, s->work, &st); /* sorts tmp: after the levels */
	ms->n = k;
	ms->median = k ? st.median : NAN;
	ms->mean = ms->runs ? lv.mean : k ? st.mean : NAN;
	ms->ci95_lo = ms->runs ? lv.run_ci95_lo : k ? st.ci95_lo : NAN;
	ms->ci95_hi = ms->runs ? lv.run_ci95_hi : k ? st.ci95_hi : NAN;
	ms->se = ms->runs ? lv.run_se : k > 1 ? st.se : NAN;
	if (k) /* inside the range the metric's mean can take (analyze/domain.h) */
		lab_an_domain_clip(dom, p->threads, st.min, &ms->ci95_lo, &ms->ci95_hi);
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
	struct an_scratch s;
	int rc = 0;

	for (size_t i = 0; i < d->npt; i++)
		maxn = d->pt[i].n > maxn ? d->pt[i].n : maxn;
	used = malloc(maxn * sizeof(*used));
	work = malloc(maxn * sizeof(*work));
	s = (struct an_scratch){work, used, malloc(3 * maxn * sizeof(double)),
	                        malloc(maxn * sizeof(int))};
	if (!used || !work || !s.lv || !s.run)
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
		p->msum = p->nmc ? calloc(p->nmc, sizeof(*p->msum)) : NULL;
		if (p->nmc && !p->msum)
			goto nomem;
		for (size_t c = 0; c < p->nmc; c++) {
			size_t m = p->mcol ? p->mcol[c] : c;
			an_msum(p, c,
			        d->metric_dom ? (enum lab_domain)d->metric_dom[m] : LAB_DOM_UNKNOWN,
			        include_flagged, &s, &p->msum[c]);
		}
	}
	goto out;
nomem:
	rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
out:
	free(used);
	free(work);
	free(s.lv);
	free(s.run);
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
		free(p->mcol);
		free(p->run);
		free(p->msum);
	}
	free(d->pt);
	for (size_t m = 0; m < d->nmetric; m++)
		free(d->metric_name[m]);
	free(d->metric_name);
	free(d->metric_dom);
	free(d->source);
	free(d->unit);
	free(d->rowkey);
	lab_an_json_free(d->run);
	lab_an_warnings_free(&d->warn);
	lab_an_index_free(&d->ix_point);
	lab_an_index_free(&d->ix_id);
	lab_an_index_free(&d->ix_exp);
	memset(d, 0, sizeof(*d));
}
