/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * threads.csv, read for one thing: samples whose threads did identical work at clearly
 * different speeds (issue 21 finding 5: vCPU0 1.45x slower than vCPU1 on the same work, with no
 * foreign load, no run-queue wait and the same clock; interference no guard sees). A sample in
 * which a thread waited for its CPU (runq_wait above LAB_AN_ASYM_RUNQ_MAX) has a cause the
 * guard sees and is not counted. The file is optional; a number in it that does not parse
 * (work = nan) is an input error with FILE:LINE, as in samples.csv, not a row passed over.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/csv.h"
#include "analyze/data_int.h"
#include "analyze/domain.h"
#include "harness/record_schema.h"

/* One sample's threads as they are read: the rows of one (point, rep) are written together. */
struct an_team {
	long id, rep;
	size_t n;
	double work, tmin, tmax;
	int uneven; /* some thread did other work than the first */
	int waited; /* some thread waited for its CPU: a cause the guard sees, not asymmetry */
};

struct an_idmap {
	long id;
	size_t pt;
};

static int an_idmap_cmp(const void *a, const void *b)
{
	const struct an_idmap *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* The point of id whose kernel's work is the team's (work_scope team), or NULL. */
static struct lab_an_point *an_team_point(struct lab_an_data *d, const struct an_idmap *map,
                                          size_t n, long id)
{
	struct an_idmap key = {id, 0}, *m = bsearch(&key, map, n, sizeof(*map), an_idmap_cmp);
	struct lab_an_point *p = m ? &d->pt[m->pt] : NULL;

	return p && p->threads >= 2 && lab_an_cost_scope(d, p->experiment) == 0 ? p : NULL;
}

static void an_team_close(struct lab_an_data *d, const struct an_idmap *map, size_t nmap,
                          const struct an_team *t)
{
	struct lab_an_point *p;
	double ratio;

	if (t->n < 2 || t->uneven || t->waited || !(t->tmin > 0))
		return;
	if (!(p = an_team_point(d, map, nmap, t->id)) || (size_t)p->threads != t->n)
		return;
	ratio = t->tmax / t->tmin;
	if (!(ratio > LAB_AN_ASYM_RATIO))
		return;
	p->n_asym++;
	if (!(p->asym_ratio >= ratio))
		p->asym_ratio = ratio;
}

/* Field i of r (named by LAB_THREADS_COLUMNS, or runq_wait) into *v: a finite number (empty too
 * with allow_empty; NaN then); else an input error. */
static int an_threads_num(const struct lab_an_csv *r, size_t i, double *v, int allow_empty,
                          struct lab_err *err)
{
	static const char *const names[] = {"point",   "rep",      "thread", "cpu_start",
	                                    "cpu_end", "start_ns", "end_ns", "work"};

	if (!lab_an_parse_num(r->field[i], v, allow_empty))
		return 0;
	return lab_err_set(err, LAB_EDATA, "%s:%zu: %s = '%s': allowed: a finite number%s", r->path,
	                   r->line, i < LAB_THREADS_NCOLUMNS ? names[i] : LAB_COL_RUNQ_WAIT,
	                   r->field[i], allow_empty ? " or empty" : "");
}

/* Folds row r into the team being read; a new (point, rep) closes the previous one. */
static int an_team_row(struct lab_an_data *d, const struct an_idmap *map, size_t nmap,
                       struct an_team *t, const struct lab_an_csv *r, int runq_col,
                       struct lab_err *err)
{
	long id, rep;
	double start, end, work, runq = NAN;
	int rc;

	if (lab_an_parse_int(r->field[0], &id) || lab_an_parse_int(r->field[1], &rep))
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%zu: point, rep = '%s', '%s': allowed: whole "
		                   "numbers",
		                   r->path, r->line, r->field[0], r->field[1]);
	if ((rc = an_threads_num(r, 5, &start, 0, err)) ||
	    (rc = an_threads_num(r, 6, &end, 0, err)) ||
	    (rc = an_threads_num(r, 7, &work, 0, err)) ||
	    (runq_col >= 0 && (rc = an_threads_num(r, (size_t)runq_col, &runq, 1, err))))
		return rc;
	/* nanoseconds of CLOCK_MONOTONIC: 0 .. 2^63 and in order (an end_ns of 1e308 printed a
	 * thread 1e300 times slower than another) */
	if (!(start >= 0 && end <= 9223372036854775807.0 && end >= start))
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%zu: start_ns, end_ns = '%s', '%s': allowed: nanoseconds "
		                   "0 .. 2^63, the end not before the start",
		                   r->path, r->line, r->field[5], r->field[6]);
	if (!(work >= 0))
		return lab_err_set(err, LAB_EDATA, "%s:%zu: work = '%s': allowed: a count >= 0",
		                   r->path, r->line, r->field[7]);
	if (!isnan(runq) && !lab_an_domain_allows(LAB_AN_DOM_UNIT, 0, runq))
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%zu: %s = '%s': allowed: a share from 0 to 1, or empty",
		                   r->path, r->line, LAB_COL_RUNQ_WAIT, r->field[runq_col]);
	if (!(end > start))
		return 0; /* no time to compare */
	if (!t->n || id != t->id || rep != t->rep) {
		an_team_close(d, map, nmap, t);
		*t = (struct an_team){id, rep, 0, work, end - start, end - start, 0, 0};
	}
	t->waited |= runq > LAB_AN_ASYM_RUNQ_MAX;
	t->n++;
	t->uneven |= work != t->work;
	t->tmin = end - start < t->tmin ? end - start : t->tmin;
	t->tmax = end - start > t->tmax ? end - start : t->tmax;
	return 0;
}

int lab_an_threads_load(struct lab_an_data *d, const char *path, struct lab_err *err)
{
	struct lab_an_csv r = {0};
	struct an_team t = {0};
	struct an_idmap *map;
	size_t nmap = 0;
	int rc, runq_col = -1;

	if (access(path, F_OK) && errno == ENOENT)
		return 0; /* an older run, or external data: nothing to say */
	if (!(map = malloc((d->npt ? d->npt : 1) * sizeof(*map))))
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	for (size_t i = 0; i < d->npt; i++)
		if (d->pt[i].id >= 0)
			map[nmap++] = (struct an_idmap){d->pt[i].id, i};
	qsort(map, nmap, sizeof(*map), an_idmap_cmp);
	if ((rc = lab_an_csv_open_flags(&r, path, LAB_AN_IN_NOFOLLOW, err)) ||
	    (rc = lab_an_csv_next(&r, err)) <= 0)
		goto out; /* an empty file has no header and nothing to say either */
	runq_col = lab_an_csv_column(&r, LAB_COL_RUNQ_WAIT);
	while ((rc = lab_an_csv_next(&r, err)) > 0)
		if (r.complete && r.nfield >= LAB_THREADS_NCOLUMNS &&
		    (runq_col < 0 || (size_t)runq_col < r.nfield) &&
		    (rc = an_team_row(d, map, nmap, &t, &r, runq_col, err)))
			break;
	if (!rc)
		an_team_close(d, map, nmap, &t);
out:
	lab_an_csv_close(&r);
	free(map);
	return rc < 0 ? rc : 0;
}
