/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * threads.csv, read for one thing: samples whose threads did identical work at clearly
 * different speeds (issue 21 finding 5: vCPU0 1.45x slower than vCPU1 on the same work, with no
 * foreign load, no run-queue wait and the same clock; interference no guard sees). A sample in
 * which a thread waited for its CPU (runq_wait above LAB_AN_ASYM_RUNQ_MAX) has a cause the
 * guard sees and is not counted. The file is
 * optional; a row that does not parse is passed over, since no number is taken from it.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/csv.h"
#include "analyze/data_int.h"
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

/* Folds one row into the team being read; a new (point, rep) closes the previous one. */
static void an_team_row(struct lab_an_data *d, const struct an_idmap *map, size_t nmap,
                        struct an_team *t, char **f, int runq_col)
{
	long id, rep;
	double start, end, work, runq = NAN;

	if (lab_an_parse_int(f[0], &id) || lab_an_parse_int(f[1], &rep) ||
	    lab_an_parse_num(f[5], &start, 0) || lab_an_parse_num(f[6], &end, 0) ||
	    lab_an_parse_num(f[7], &work, 0) || !(end > start))
		return;
	if (!t->n || id != t->id || rep != t->rep) {
		an_team_close(d, map, nmap, t);
		*t = (struct an_team){id, rep, 0, work, end - start, end - start, 0, 0};
	}
	if (runq_col >= 0)
		lab_an_parse_num(f[runq_col], &runq, 1);
	t->waited |= runq > LAB_AN_ASYM_RUNQ_MAX;
	t->n++;
	t->uneven |= work != t->work;
	t->tmin = end - start < t->tmin ? end - start : t->tmin;
	t->tmax = end - start > t->tmax ? end - start : t->tmax;
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
		    (runq_col < 0 || (size_t)runq_col < r.nfield))
			an_team_row(d, map, nmap, &t, r.field, runq_col);
	if (!rc)
		an_team_close(d, map, nmap, &t);
out:
	lab_an_csv_close(&r);
	free(map);
	return rc < 0 ? rc : 0;
}
