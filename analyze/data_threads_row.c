/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * One row of threads.csv, read as the writer writes it (harness/results.c): its header names
 * LAB_THREADS_COLUMNS first, and a row's whole numbers, times, work and run-queue share are
 * checked here; what a row is held to against its sample is data_threads.c's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/csv.h"
#include "analyze/data_int.h"
#include "analyze/domain.h"
#include "harness/record_schema.h"

/* The domain a thread's value of metric name is held to: its metric's, but for a figure of
 * the team (Jain's index, max/min, max/mean), which one thread's value is not. */
static enum lab_domain an_thread_dom(const char *name)
{
	enum lab_domain dm = lab_domain_of(name);

	return dm == LAB_DOM_JAIN || dm == LAB_DOM_ATLEAST1 || dm == LAB_DOM_MAX_MEAN ? LAB_DOM_ANY
	                                                                              : dm;
}

int lab_an_threads_header(const struct lab_an_csv *r, struct lab_an_tcols *c, struct lab_err *err)
{
	char want[] = LAB_THREADS_COLUMNS, *save = NULL, *tok;
	size_t i = 0, n;
	int rc;

	memset(c, 0, sizeof(*c));
	for (tok = strtok_r(want, ",", &save); tok; tok = strtok_r(NULL, ",", &save), i++)
		if (i >= r->nfield || strcmp(r->field[i], tok))
			return lab_err_set(err, LAB_EDATA,
			                   "%s:%zu: expected column %zu to be '%s' (header %s)",
			                   r->path, r->line, i + 1, tok, LAB_THREADS_COLUMNS);
	/* the columns after them as samples.csv's: an unnamed one, or runq_wait twice (only
	 * the first was read), was taken without a word */
	n = r->nfield - LAB_THREADS_NCOLUMNS;
	if ((rc = lab_an_metric_names(r->path, r->field + LAB_THREADS_NCOLUMNS, n,
	                              LAB_THREADS_NCOLUMNS, "," LAB_THREADS_COLUMNS ",", err)))
		return rc;
	if (!(c->name = calloc(n + 1, sizeof(*c->name))) || !(c->dom = malloc(n + 1)))
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	for (c->n = 0; c->n < n; c->n++) {
		const char *name = r->field[LAB_THREADS_NCOLUMNS + c->n];

		if (!(c->name[c->n] = lab_an_strdup(name)))
			return lab_err_set(err, LAB_ENOMEM, "out of memory");
		c->dom[c->n] = (unsigned char)an_thread_dom(name);
	}
	return 0;
}

void lab_an_tcols_free(struct lab_an_tcols *c)
{
	for (size_t i = 0; c->name && i < c->n; i++)
		free(c->name[i]);
	free(c->name);
	free(c->dom);
	memset(c, 0, sizeof(*c));
}

/* The columns of row r after LAB_THREADS_COLUMNS but runq_wait's (lab_an_trow_parse's): each a
 * finite number or empty, in its domain (ctr_mux_ratio = 2, a count of -1 or 1e400 were taken,
 * though samples.csv refuses them). */
static int an_row_extra(const struct lab_an_csv *r, int runq_col, const struct lab_an_tcols *c,
                        struct lab_err *err)
{
	char dom[96];
	double x;

	for (size_t k = 0; k < c->n && LAB_THREADS_NCOLUMNS + k < r->nfield; k++) {
		const char *v = r->field[LAB_THREADS_NCOLUMNS + k];
		enum lab_domain dm = (enum lab_domain)c->dom[k];

		if ((int)(LAB_THREADS_NCOLUMNS + k) == runq_col)
			continue;
		if (lab_an_parse_num(v, &x, 1))
			return lab_err_set(err, LAB_EDATA,
			                   "%s:%zu: %s = '%s': allowed: a finite number or empty",
			                   r->path, r->line, c->name[k], v);
		if (!isnan(x) && !lab_an_domain_allows(dm, 0, x))
			return lab_err_set(err, LAB_EDATA,
			                   "%s:%zu: %s = '%s': allowed: %s (one thread's value)",
			                   r->path, r->line, c->name[k], v,
			                   lab_an_domain_text(dm, 0, dom, sizeof(dom)));
	}
	return 0;
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

/* The whole numbers of row r (point, rep, thread, the CPUs) into w. */
static int an_row_ids(const struct lab_an_csv *r, struct lab_an_trow *w, struct lab_err *err)
{
	if (lab_an_parse_int(r->field[0], &w->id) || lab_an_parse_int(r->field[1], &w->rep) ||
	    w->id < 0 || w->rep < 0)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%zu: point, rep = '%s', '%s': allowed: whole numbers >= 0",
		                   r->path, r->line, r->field[0], r->field[1]);
	if (lab_an_parse_int(r->field[2], &w->thread) || w->thread < 0)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%zu: thread = '%s': allowed: a whole number >= 0", r->path,
		                   r->line, r->field[2]);
	/* sched_getcpu's answer, -1 when it had none */
	for (int i = 0; i < 2; i++)
		if (lab_an_parse_int(r->field[3 + i], &w->cpu[i]) || w->cpu[i] < -1 ||
		    w->cpu[i] > LAB_AN_CPU_MAX)
			return lab_err_set(err, LAB_EDATA,
			                   "%s:%zu: cpu_start, cpu_end = '%s', '%s': allowed: CPU "
			                   "numbers 0 .. %d, or -1 (unknown)",
			                   r->path, r->line, r->field[3], r->field[4],
			                   LAB_AN_CPU_MAX);
	return 0;
}

int lab_an_trow_parse(const struct lab_an_csv *r, int runq_col, const struct lab_an_tcols *c,
                      struct lab_an_trow *w, struct lab_err *err)
{
	int rc, frac;

	w->runq = NAN;
	if ((rc = an_row_ids(r, w, err)) || (rc = an_threads_num(r, 5, &w->start, 0, err)) ||
	    (rc = an_threads_num(r, 6, &w->end, 0, err)) ||
	    (rc = an_threads_num(r, 7, &w->work, 0, err)) ||
	    (runq_col >= 0 && (rc = an_threads_num(r, (size_t)runq_col, &w->runq, 1, err))))
		return rc;
	/* nanoseconds of CLOCK_MONOTONIC: 0 .. 2^63 and in order (an end_ns of 1e308 printed a
	 * thread 1e300 times slower than another); decimal text held to 2^63 exactly */
	if (!(w->start >= 0 && w->end <= 9223372036854775807.0 && w->end >= w->start) ||
	    lab_an_dec_above(r->field[6], "9223372036854775808", &frac) > 0)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%zu: start_ns, end_ns = '%s', '%s': allowed: nanoseconds "
		                   "0 .. 2^63, the end not before the start",
		                   r->path, r->line, r->field[5], r->field[6]);
	if (!(w->work >= 0))
		return lab_err_set(err, LAB_EDATA, "%s:%zu: work = '%s': allowed: a count >= 0",
		                   r->path, r->line, r->field[7]);
	if (!isnan(w->runq) && !lab_an_domain_allows(LAB_DOM_UNIT, 0, w->runq))
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%zu: %s = '%s': allowed: a share from 0 to 1, or empty",
		                   r->path, r->line, LAB_COL_RUNQ_WAIT, r->field[runq_col]);
	return an_row_extra(r, runq_col, c, err);
}
