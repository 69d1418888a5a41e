/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * External data for `lab analyze --csv`: threads,seconds[,series][,rep], or threads,throughput.
 * A throughput X(N) (work per time, the whole team's) is stored as the cost 1/X(N): time per unit
 * of work, which is what seconds of a fixed-work run are up to a constant. N/X(N) would be the
 * time per unit per thread and is wrong for speedup.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/csv.h"
#include "analyze/data_int.h"

/* Series x thread counts an external file may give, as many as the points of a lab run: each
 * costs its statistics and fits (500,000 one-row series took 2.5 GB). */
#define AN_EXT_POINTS_MAX 100000

/* (point, rep, line) of every row of a file with a rep column (lab_an_rowkey: id = pt = the
 * point's index), checked at the end for a repeated (series, threads, rep). */
struct an_ext_keys {
	struct lab_an_rowkey *key;
	size_t n, cap;
};

static int an_ext_unique(const struct lab_an_data *d, struct an_ext_keys *k, const char *path,
                         int has_series, struct lab_err *err)
{
	size_t i = lab_an_rowkey_sort_dup(k->key, k->n);
	const struct lab_an_rowkey *a, *b;
	const struct lab_an_point *p;

	if (!i)
		return 0;
	a = &k->key[i - 1];
	b = &k->key[i];
	p = &d->pt[b->pt];
	if (has_series)
		return lab_err_set(
		    err, LAB_EDATA,
		    "%s:%zu: series '%s' threads %d rep %ld again (first at line %zu), "
		    "allowed: one row per series, threads and rep",
		    path, b->line, p->experiment, p->threads, b->rep, a->line);
	return lab_err_set(err, LAB_EDATA,
	                   "%s:%zu: threads %d rep %ld again (first at line %zu), allowed: one row "
	                   "per threads and rep",
	                   path, b->line, p->threads, b->rep, a->line);
}

static int an_ext_row(struct lab_an_data *d, struct lab_an_csv *r, const int *col, size_t ncol,
                      size_t *hint, struct an_ext_keys *keys, struct lab_err *err)
{
	const char *series = col[2] >= 0 && (size_t)col[2] < r->nfield ? r->field[col[2]] : "";
	const char *ts, *ss;
	double sec;
	long threads, rep = 0;
	struct lab_an_point *p;
	size_t npt = d->npt;

	/* a field more was dropped without a word, as samples.csv refuses it */
	if (r->nfield != ncol)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%zu: %zu fields where the header has %zu (allowed: one per "
		                   "column)",
		                   r->path, r->line, r->nfield, ncol);
	if (col[2] >= 0 && !*series) /* it was merged with a series named csv */
		return lab_err_set(err, LAB_EDATA, "%s:%zu: series is empty (allowed: a name)",
		                   r->path, r->line);
	ts = r->field[col[0]];
	ss = r->field[col[1]];
	if (lab_an_parse_int(ts, &threads) || threads < 1 || threads > LAB_AN_THREADS_MAX)
		return lab_err_set(err, LAB_EDATA, "%s:%zu: threads = '%s': allowed 1 .. %ld",
		                   r->path, r->line, ts, LAB_AN_THREADS_MAX);
	if (lab_an_parse_num(ss, &sec, 0) || !(sec > 0) || !(1 / sec > 0))
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%zu: %s = '%s': not a positive finite number", r->path,
		                   r->line, d->throughput ? "throughput" : "seconds", ss);
	if (d->throughput)
		sec = 1 / sec;
	/* a throughput's bounds are the inverse's: it was quoted as "1/throughput = '1e-300'" */
	if (!LAB_AN_COST_OK(sec))
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%zu: %s = '%s': allowed %g .. %g (%s; every derived value "
		                   "must stay finite)",
		                   r->path, r->line, d->throughput ? "throughput" : "seconds", ss,
		                   d->throughput ? 1 / LAB_AN_COST_MAX : LAB_AN_COST_MIN,
		                   d->throughput ? 1 / LAB_AN_COST_MIN : LAB_AN_COST_MAX,
		                   d->throughput ? "its inverse is the cost per unit"
		                                 : "a cost per unit");
	if (col[3] >= 0 && (lab_an_parse_int(r->field[col[3]], &rep) || rep < 0))
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%zu: rep = '%s': allowed: a whole number >= 0", r->path,
		                   r->line, r->field[col[3]]);
	p = lab_an_point_find(d, *series ? series : "csv", -1, (int)threads, "", hint);
	if (!p || (!p->kernel && !(p->kernel = lab_an_strdup("external"))))
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	if (d->npt > npt && d->npt > AN_EXT_POINTS_MAX)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%zu: more than %d series x thread counts (allowed up to %d, "
		                   "as in a lab run)",
		                   r->path, r->line, AN_EXT_POINTS_MAX, AN_EXT_POINTS_MAX);
	d->nsamples++;
	if (lab_an_point_add(p, 0, sec, 0, NULL))
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	if (col[3] >= 0) {
		if (lab_an_grow(&keys->key, &keys->cap, keys->n + 1, sizeof(*keys->key)))
			return lab_err_set(err, LAB_ENOMEM, "out of memory");
		keys->key[keys->n++] = (struct lab_an_rowkey){.id = (long)(p - d->pt),
		                                              .rep = rep,
		                                              .line = r->line,
		                                              .pt = (size_t)(p - d->pt)};
	}
	return 0;
}

/* The header names each column it has once, and only columns the reader knows: a repeated or
 * misspelt column would otherwise be read under the first copy or silently ignored. */
static int an_ext_header(const struct lab_an_csv *r, struct lab_err *err)
{
	static const char *const known[] = {"threads", "seconds", "throughput", "series", "rep"};
	size_t nk = sizeof(known) / sizeof(known[0]);

	for (size_t i = 0; i < r->nfield; i++) {
		size_t k = 0;

		if (!*r->field[i])
			return lab_err_set(err, LAB_EDATA,
			                   "%s:%zu: column %zu has no name, allowed: threads, "
			                   "seconds or throughput, series, rep",
			                   r->path, r->line, i + 1);
		while (k < nk && strcmp(r->field[i], known[k]))
			k++;
		if (k == nk)
			return lab_err_set(
			    err, LAB_EDATA,
			    "%s:%zu: unknown column '%s', allowed: threads, seconds or "
			    "throughput, series, rep",
			    r->path, r->line, r->field[i]);
		for (size_t j = 0; j < i; j++) {
			if (!strcmp(r->field[i], r->field[j]))
				return lab_err_set(
				    err, LAB_EDATA,
				    "%s:%zu: column '%s' again (columns %zu and %zu), "
				    "allowed: each column once",
				    r->path, r->line, r->field[i], j + 1, i + 1);
			if ((k == 1 || k == 2) && !strcmp(r->field[j], known[3 - k]))
				return lab_err_set(err, LAB_EDATA,
				                   "%s:%zu: column '%s' beside '%s', allowed: one "
				                   "of seconds, throughput",
				                   r->path, r->line, r->field[i], r->field[j]);
		}
	}
	return 0;
}

int lab_an_data_load_csv(struct lab_an_data *d, const char *path, struct lab_err *err)
{
	struct lab_an_csv r;
	struct an_ext_keys keys = {0};
	int col[4], rc;
	size_t hint = 0, ncol;

	memset(d, 0, sizeof(*d));
	d->external = 1;
	d->source = lab_an_strdup(path);
	d->unit = lab_an_strdup("s");
	if (!d->source || !d->unit)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	if ((rc = lab_an_csv_open(&r, path, err)))
		goto out;
	rc = lab_an_csv_next(&r, err);
	if (rc <= 0) {
		if (rc == 0)
			rc = lab_err_set(err, LAB_EDATA, "%s:1: empty file", path);
		goto out;
	}
	if ((rc = an_ext_header(&r, err)))
		goto out;
	ncol = r.nfield;
	col[0] = lab_an_csv_column(&r, "threads");
	col[1] = lab_an_csv_column(&r, "seconds");
	col[2] = lab_an_csv_column(&r, "series");
	col[3] = lab_an_csv_column(&r, "rep");
	if (col[1] < 0 && (col[1] = lab_an_csv_column(&r, "throughput")) >= 0) {
		d->throughput = 1;
		free(d->unit);
		if (!(d->unit = lab_an_strdup("1/throughput"))) {
			rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
			goto out;
		}
	}
	if (col[0] < 0 || col[1] < 0) {
		rc = lab_err_set(err, LAB_EDATA,
		                 "%s:%zu: the header must name the columns threads and one of "
		                 "seconds, throughput (optional: series,rep)",
		                 path, r.line);
		goto out;
	}
	while ((rc = lab_an_csv_next(&r, err)) == 1) {
		/* a file cut inside a quoted field: its last line is not data; a quote left open
		 * over lines took every row after it (1,001 rows dropped with a warning, exit 0) */
		if (r.open_quote && !(r.nfield && strchr(r.field[r.nfield - 1], '\n'))) {
			lab_an_warn(&d->warn, "%s:%zu: incomplete last line ignored", path, r.line);
			break;
		}
		if (r.open_quote) {
			rc = lab_err_set(
			    err, LAB_EDATA,
			    "%s:%zu: a quoted field is not closed before the end of the file "
			    "(allowed: a field in \"...\", a quote inside it written \"\")",
			    path, r.line);
			goto out;
		}
		if ((rc = an_ext_row(d, &r, col, ncol, &hint, &keys, err)))
			goto out;
	}
	if (rc >= 0 && d->nsamples == 0) /* 1: stopped at a cut last line */
		rc = lab_err_set(err, LAB_EDATA, "%s: no data rows", path);
	if (rc >= 0)
		rc = an_ext_unique(d, &keys, path, col[2] >= 0, err);
out:
	free(keys.key);
	lab_an_csv_close(&r);
	return rc < 0 ? rc : 0;
}
