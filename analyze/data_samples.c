/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * samples.csv, read as untrusted input: every column is checked (a results directory may come
 * from anyone), an error names FILE:LINE, and a last line the writer did not finish (SIGKILL, a
 * full disk) is dropped with a warning wherever it was cut.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/csv.h"
#include "analyze/data_int.h"
#include "analyze/domain.h"
#include "analyze/units.h"
#include "harness/record_schema.h"

struct an_samples {
	struct lab_an_data *d;
	struct lab_an_csv r;
	double *metric;
	size_t *below; /* per metric: the metric it may not exceed in one row (nmetric: none) */
	/* (point, rep, line, ...) of every row, sorted at the end to find repeated (point, rep)
	 * pairs, then handed to d for threads.csv */
	struct lab_an_rowkey *key;
	size_t nkey, kcap, hint;
	size_t run_col; /* the run column (LAB_COL_RUN, the last one), 0 when absent */
	size_t prev;    /* 1 + the index of the previous row's point, 0 before the first row */
	/* the last row's params as written and sorted (a point's rows come one after another) */
	char *params, *canon;
	const char *dupkey; /* in canon: a key it names twice (dupkey_len bytes), or NULL */
	size_t dupkey_len;
	const char *badpair; /* canon's pair value when it names no two CPUs, or NULL */
	char pairbuf[64];
	const char *badsize; /* canon's first size param that is no size ("size=banana"), or NULL */
	char sizebuf[96];
	const char *baddur; /* its first duration param that is no duration ("cs_ns=banana") */
	char durbuf[96];
};

/* The params of keys hold what ok accepts: sizes in bytes (the kernels' LAB_P_SIZE keys the
 * views read as sizes: "size=1e308" made a ceiling "DRAM 1e308" and a ladder row of 309 digits,
 * and "size=banana" took a ladder row away without a word), or durations. "key=value", cut to
 * len, in buf when one does not; 1 when all do. */
static int an_values_ok(const char *canon, const char *const *keys, int (*ok)(const char *),
                        char *buf, size_t len)
{
	char v[64];

	for (size_t i = 0; keys[i]; i++)
		if (lab_an_params_get(canon, keys[i], v, sizeof(v)) &&
		    (strlen(v) >= sizeof(v) - 1 || !ok(v))) { /* no size is 63 long */
			snprintf(buf, len, "%s = '%.60s'", keys[i], v);
			return 0;
		}
	return 1;
}

/* A "pair" param (c2c's CPU pair) is absent or two different CPU numbers 0 .. 65535 as A-B:
 * 4294967297-1 read as the pair 1-1, 0-2000000000 as a grid of 2e9 CPUs. The value, cut to
 * len, in buf either way. */
static int an_pair_ok(const char *canon, char *buf, size_t len)
{
	unsigned long a, b;
	size_t na, nb;

	if (!lab_an_params_get(canon, "pair", buf, len))
		return 1;
	na = strspn(buf, "0123456789");
	nb = na && buf[na] == '-' ? strspn(buf + na + 1, "0123456789") : 0;
	if (!nb || buf[na + 1 + nb] || na > 5 || nb > 5)
		return 0;
	a = strtoul(buf, NULL, 10);
	b = strtoul(buf + na + 1, NULL, 10);
	return a <= 65535 && b <= 65535 && a != b;
}

/* The params of the row, sorted (lab_an_params_canon, kept for the rows after it); NULL when
 * memory runs out. */
static const char *an_samples_params(struct an_samples *s, const char *params)
{
	if (s->canon && !strcmp(s->params, params))
		return s->canon;
	free(s->params);
	free(s->canon);
	s->params = lab_an_strdup(params);
	s->canon = s->params ? lab_an_params_canon(params) : NULL;
	s->dupkey = NULL;
	s->dupkey_len = s->canon ? lab_an_params_dupkey(s->canon, &s->dupkey) : 0;
	if (!s->dupkey_len)
		s->dupkey = NULL;
	s->badpair =
	    s->canon && !an_pair_ok(s->canon, s->pairbuf, sizeof(s->pairbuf)) ? s->pairbuf : NULL;
	s->badsize = s->canon && !an_values_ok(s->canon, lab_an_size_keys, lab_an_size_ok,
	                                       s->sizebuf, sizeof(s->sizebuf))
	                 ? s->sizebuf
	                 : NULL;
	/* likewise durations, whose nonsense ("cs_ns=banana") split a series without a word */
	s->baddur = s->canon && !an_values_ok(s->canon, lab_an_duration_keys, lab_an_duration_ok,
	                                      s->durbuf, sizeof(s->durbuf))
	                ? s->durbuf
	                : NULL;
	return s->canon;
}

int lab_an_parse_num(const char *s, double *v, int allow_empty)
{
	char *end;

	if (!*s) {
		*v = NAN;
		return allow_empty ? 0 : -1;
	}
	/* strtod also takes spaces, hex, "inf" and "nan": none is a number the lab writes */
	if (s[strspn(s, "+-0123456789.eE")])
		return -1;
	*v = strtod(s, &end) + 0.0; /* -0 read as 0: "-0" is no other number than 0 */
	return *end || !isfinite(*v) ? -1 : 0;
}

int lab_an_dec_above(const char *s, const char *limit, int *frac)
{
	const char *i = s + (*s == '+' || *s == '-'), *dot;
	size_t n, ln;
	int cmp;

	*frac = 0;
	if (!*i || i[strspn(i, "0123456789.")] || strchr(i, '.') != strrchr(i, '.'))
		return -1; /* an exponent (or no number): the caller checks its double */
	dot = strchr(i, '.');
	for (const char *d = dot ? dot + 1 : ""; *d; d++)
		*frac |= *d != '0';
	i += strspn(i, "0");
	n = dot ? (size_t)(dot - i) : strlen(i);
	ln = strlen(limit);
	if (*s == '-')
		return 0;
	cmp = n != ln ? (n > ln ? 1 : -1) : strncmp(i, limit, n);
	return cmp > 0 || (cmp == 0 && *frac);
}

int lab_an_parse_int(const char *s, long *v)
{
	char *end;

	if (!*s || s[strspn(s, "-0123456789")])
		return -1;
	errno = 0;
	*v = strtol(s, &end, 10);
	return *end || errno ? -1 : 0;
}

/* A params field is empty or k=v items separated by ';', each with a key, at most
 * LAB_AN_PARAMS_MAX of them (as run.json's "params"). */
static int an_params_ok(const char *s)
{
	size_t items = 0;

	for (const char *p = s; *p;) {
		const char *end = strchr(p, LAB_PARAMS_SEP), *eq = strchr(p, LAB_PARAMS_KV);
		size_t n = end ? (size_t)(end - p) : strlen(p);

		if (!eq || eq == p || (size_t)(eq - p) >= n || ++items > LAB_AN_PARAMS_MAX)
			return 0;
		if (!end)
			break;
		p = end + 1;
		if (!*p)
			return 0;
	}
	return 1;
}

/* 2^63 and 2^64 in decimal, the largest elapsed_ns and work (lab_an_dec_above) */
#define AN_2P63 "9223372036854775808"
#define AN_2P64 "18446744073709551615" /* 2^64 - 1: a uint64's largest */

#define AN_BAD(what, allowed)                                                                      \
	lab_err_set(err, LAB_EDATA, "%s:%zu: %s = '%s': %s", r->path, r->line, what, f[col],       \
	            allowed)

/* Checks the fixed columns of a row; the numbers come back in v (elapsed, work). */
static int an_row_check(const struct lab_an_csv *r, long *id, long *threads, long *rep, double *v,
                        struct lab_err *err)
{
	const char *const *f = (const char *const *)r->field;
	double foreign;
	int col, above, frac;

	if (!*f[col = LAB_SCOL_EXPERIMENT] || !*f[col = LAB_SCOL_KERNEL])
		return AN_BAD(col ? "kernel" : "experiment", "empty, allowed: a name");
	if (lab_an_parse_int(f[col = LAB_SCOL_POINT], id) || *id < 0)
		return AN_BAD("point", "allowed: a whole number >= 0");
	if (!an_params_ok(f[col = LAB_SCOL_PARAMS]))
		return lab_err_set(
		    err, LAB_EDATA,
		    "%s:%zu: params = '%.64s%s': allowed: key=value items separated by ';' "
		    "(none empty or without '=', at most %d)",
		    r->path, r->line, f[col], strlen(f[col]) > 64 ? "..." : "", LAB_AN_PARAMS_MAX);
	if (lab_an_parse_int(f[col = LAB_SCOL_THREADS], threads) || *threads < 1 ||
	    *threads > LAB_AN_THREADS_MAX)
		return lab_err_set(err, LAB_EDATA, "%s:%zu: threads = '%s': allowed 1 .. %ld",
		                   r->path, r->line, f[col], LAB_AN_THREADS_MAX);
	if (lab_an_parse_int(f[col = LAB_SCOL_REP], rep) || *rep < 0)
		return AN_BAD("rep", "allowed: a whole number >= 0");
	/* lab writes whole ns; 1.5 was taken and printed as 2 by the thread-span check */
	/* the harness counts both in 64 bits: more is no count it wrote. Decimal text is held to
	 * the limits exactly (as a double 2^63 + 1 and 2^64 + 0.5 were the limits themselves) */
	if (lab_an_parse_num(f[col = LAB_SCOL_ELAPSED_NS], &v[0], 0) || !(v[0] > 0) ||
	    ((above = lab_an_dec_above(f[col], AN_2P63, &frac)) < 0
	         ? v[0] != floor(v[0]) || v[0] > 0x1p63
	         : above || frac))
		return AN_BAD("elapsed_ns", "allowed: a whole number of ns, 1 .. 2^63");
	/* a count of units in 64 bits: whole (0.5 doubled every cost) and below 2^64, which no
	 * uint64 holds (hostile46) */
	if (lab_an_parse_num(f[col = LAB_SCOL_WORK], &v[1], 0) || !(v[1] > 0) ||
	    ((above = lab_an_dec_above(f[col], AN_2P64, &frac)) < 0
	         ? v[1] != floor(v[1]) || v[1] >= 0x1p64
	         : above || frac))
		return AN_BAD("work", "allowed: a whole number of units, 1 .. 2^64 - 1");
	if (!LAB_AN_COST_OK(v[0] / v[1]))
		return lab_err_set(
		    err, LAB_EDATA,
		    "%s:%zu: elapsed_ns / work = %s / %s = %g: allowed a cost per unit "
		    "of %g .. %g (every derived value must stay finite)",
		    r->path, r->line, f[LAB_SCOL_ELAPSED_NS], f[LAB_SCOL_WORK], v[0] / v[1],
		    LAB_AN_COST_MIN, LAB_AN_COST_MAX);
	if (lab_an_parse_num(f[col = LAB_SCOL_FOREIGN_CPU], &foreign, 1) || foreign < 0)
		return AN_BAD("foreign_cpu", "allowed: a finite number >= 0 or empty");
	col = LAB_SCOL_FLAGGED;
	if (strcmp(f[col], "0") && strcmp(f[col], "1"))
		return AN_BAD("flagged", "allowed: 0 or 1");
	return 0;
}

static int an_unit(char **unit, const char *work_unit)
{
	return !*unit && !(*unit = lab_an_asprintf("ns/%s", *work_unit ? work_unit : "unit"));
}

/* The run of the sample just added to p: a file with the column has it on every whole row (an
 * empty one was read as run 0 and merged two runs into one without a word). */
static int an_samples_run(struct an_samples *s, struct lab_an_point *p, struct lab_err *err)
{
	const struct lab_an_csv *r = &s->r;
	const char *f = s->run_col < r->nfield ? r->field[s->run_col] : "";
	long run = 0;

	if (s->run_col >= r->nfield)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%zu: no run field, allowed: a run 0 .. 1000000 on every row "
		                   "(the header names the column)",
		                   r->path, r->line);
	if (lab_an_parse_int(f, &run) || run < 0 || run > 1000000)
		return lab_err_set(err, LAB_EDATA, "%s:%zu: run = '%s': allowed 0 .. 1000000",
		                   r->path, r->line, f);
	if (lab_an_grow(&p->run, &p->run_cap, p->n, sizeof(*p->run)))
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	p->run[p->n - 1] = (int)run;
	return 0;
}

/* The metric columns of the row into s->metric: each a finite number or empty, and inside
 * its metric's domain (a Jain index above 1 is no measurement; a time measured inside the
 * sample no longer than elapsed_ns). Returns 0 or -LAB_EDATA. */
static int an_row_metrics(struct an_samples *s, long threads, double elapsed_ns,
                          struct lab_err *err)
{
	const struct lab_an_data *d = s->d;
	const struct lab_an_csv *r = &s->r;
	const char *const *f = (const char *const *)r->field;
	char dom[96];

	for (size_t m = 0; m < d->nmetric; m++) {
		const char *v =
		    LAB_SAMPLES_NCOLUMNS + m < r->nfield ? f[LAB_SAMPLES_NCOLUMNS + m] : "";
		enum lab_domain dm = (enum lab_domain)d->metric_dom[m];

		if (lab_an_parse_num(v, &s->metric[m], 1))
			return lab_err_set(err, LAB_EDATA,
			                   "%s:%zu: %s = '%s': allowed: a finite number or empty",
			                   r->path, r->line, d->metric_name[m], v);
		if (!isnan(s->metric[m]) && !lab_an_domain_allows(dm, threads, s->metric[m]))
			return lab_err_set(err, LAB_EDATA,
			                   "%s:%zu: %s = '%s' at %ld threads: allowed: %s", r->path,
			                   r->line, d->metric_name[m], v, threads,
			                   lab_an_domain_text(dm, threads, dom, sizeof(dom)));
		if (!isnan(s->metric[m]) && !lab_an_domain_fits(dm, s->metric[m], elapsed_ns)) {
			const char *e = f[LAB_SCOL_ELAPSED_NS];

			if (dm == LAB_DOM_SPAN)
				return lab_err_set(
				    err, LAB_EDATA,
				    "%s:%zu: %s = '%s': allowed: a time inside the "
				    "sample, 0 .. its elapsed_ns %s (+8 %% + 1 us for "
				    "the clock reads)",
				    r->path, r->line, d->metric_name[m], v, e);
			return lab_err_set(
			    err, LAB_EDATA,
			    "%s:%zu: %s = '%s': allowed: a difference of times inside "
			    "the sample, within its elapsed_ns: -%s .. %s (+8 %% + 1 us for the "
			    "clock reads)",
			    r->path, r->line, d->metric_name[m], v, e, e);
		}
	}
	return 0;
}

/* The ordered metrics of the row (lab_an_domain_below): a p10 above its p50 is no sample of
 * one distribution. */
static int an_row_order(const struct an_samples *s, struct lab_err *err)
{
	const struct lab_an_data *d = s->d;
	const char *const *f = (const char *const *)s->r.field;

	for (size_t m = 0; m < d->nmetric; m++) {
		size_t b = s->below[m];
		double x = s->metric[m], y = b < d->nmetric ? s->metric[b] : NAN;

		if (!isnan(x) && !isnan(y) && x > y + 1e-9 * fabs(y))
			return lab_err_set(err, LAB_EDATA,
			                   "%s:%zu: %s = '%s' above %s = '%s': allowed: %s <= %s "
			                   "in one sample",
			                   s->r.path, s->r.line, d->metric_name[m],
			                   f[LAB_SAMPLES_NCOLUMNS + m], d->metric_name[b],
			                   f[LAB_SAMPLES_NCOLUMNS + b], d->metric_name[m],
			                   d->metric_name[b]);
	}
	return 0;
}

/* Point id rep at line again (first at key i's line). */
static int an_samples_again(const struct an_samples *s, size_t i, size_t line, struct lab_err *err)
{
	return lab_err_set(err, LAB_EDATA,
	                   "%s:%zu: point %ld rep %ld again (first at line %zu), allowed: one "
	                   "row per point and rep",
	                   s->r.path, line, s->key[i].id, s->key[i].rep, s->key[i].line);
}

/* The refusal of the row's params (written: as samples.csv has them) that an_samples_params
 * found wrong, or 0. */
static int an_row_params_err(const struct an_samples *s, const char *written, struct lab_err *err)
{
	const struct lab_an_csv *r = &s->r;

	if (s->badpair)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%zu: params pair = '%s': allowed: two different CPU numbers "
		                   "0 .. 65535 as A-B (what placement = pairs plans)",
		                   r->path, r->line, s->badpair);
	if (s->badsize)
		return lab_err_set(
		    err, LAB_EDATA,
		    "%s:%zu: params %s: allowed: a size, a whole number of bytes 0 .. "
		    "2^40 with an optional B, K, KiB, M, MiB, G or GiB",
		    r->path, r->line, s->badsize);
	if (s->baddur)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%zu: params %s: allowed: a duration, a number >= 0 with ns, "
		                   "us, ms or s (0 bare)",
		                   r->path, r->line, s->baddur);
	if (s->dupkey) /* which value would count? run.json refuses a key twice, as here */
		return lab_err_set(
		    err, LAB_EDATA,
		    "%s:%zu: params = '%s': key '%.*s' twice, allowed: each key once", r->path,
		    r->line, written, (int)s->dupkey_len, s->dupkey);
	return 0;
}

static int an_samples_row(struct an_samples *s, struct lab_err *err)
{
	struct lab_an_data *d = s->d;
	struct lab_an_csv *r = &s->r;
	const char *const *f = (const char *const *)r->field;
	long id = 0, threads = 0, rep = 0;
	double v[2] = {0, 0}; /* set by an_row_check when it returns 0 */
	struct lab_an_point *p;
	const char *params;
	int rc;

	if ((rc = an_row_check(r, &id, &threads, &rep, v, err)))
		return rc;
	if ((rc = an_row_metrics(s, threads, v[0], err)) || (rc = an_row_order(s, err)))
		return rc;
	/* a row repeated at once is refused there (one pasted a million times was read whole
	 * first); others, after the file (an_samples_unique) */
	if (s->nkey && s->key[s->nkey - 1].id == id && s->key[s->nkey - 1].rep == rep)
		return an_samples_again(s, s->nkey - 1, r->line, err);
	if (lab_an_grow(&s->key, &s->kcap, s->nkey + 1, sizeof(*s->key)))
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	s->key[s->nkey++] = (struct lab_an_rowkey){id, rep, r->line, 0, v[0], 0, v[1]};
	params = an_samples_params(s, f[LAB_SCOL_PARAMS]);
	if (!params)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	if ((rc = an_row_params_err(s, f[LAB_SCOL_PARAMS], err)))
		return rc;
	p = lab_an_point_find(d, f[LAB_SCOL_EXPERIMENT], id, (int)threads, params, &s->hint);
	if (!p || (!p->kernel && !(p->kernel = lab_an_strdup(f[LAB_SCOL_KERNEL]))) ||
	    (!p->params_written && !(p->params_written = lab_an_strdup(f[LAB_SCOL_PARAMS]))))
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	/* one point id, one (threads, params): else its rows would split into two points; the
	 * first row is named too (which of the two was edited, the reader cannot tell) */
	const struct lab_an_point *q = lab_an_point_by_id(d, f[LAB_SCOL_EXPERIMENT], id);
	if (q != p)
		return lab_err_set(
		    err, LAB_EDATA,
		    "%s:%zu: point %ld with threads = %ld, params = '%.200s', where "
		    "line %zu says threads = %d, params = '%.200s'; allowed: the same",
		    r->path, r->line, id, threads, f[LAB_SCOL_PARAMS], q ? q->line : 0,
		    q ? q->threads : 0, q && q->params_written ? q->params_written : "");
	/* Experiments of one run measure different units of work (increments, round trips). */
	if (an_unit(&d->unit, f[LAB_SCOL_WORK_UNIT]) || an_unit(&p->unit, f[LAB_SCOL_WORK_UNIT]))
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	/* one point, one kernel and one unit: a row of another kernel among a point's was averaged
	 * in */
	if (strcmp(p->kernel, f[LAB_SCOL_KERNEL]) ||
	    strcmp(p->unit + 3, *f[LAB_SCOL_WORK_UNIT] ? f[LAB_SCOL_WORK_UNIT] : "unit"))
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%zu: point %ld: kernel '%.64s', work_unit '%.64s', where an "
		                   "earlier row of it says '%.64s', '%.64s'; allowed: the same",
		                   r->path, r->line, id, f[LAB_SCOL_KERNEL], f[LAB_SCOL_WORK_UNIT],
		                   p->kernel, p->unit + 3);
	if (!p->n)
		p->line = r->line;
	p->rep_max = rep > p->rep_max ? rep : p->rep_max;
	s->key[s->nkey - 1].pt = (size_t)(p - d->pt);
	if (s->prev && s->prev - 1 != (size_t)(p - d->pt) &&
	    lab_an_point_reserve(p, d->pt[s->prev - 1].n, s->run_col != 0))
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	s->prev = (size_t)(p - d->pt) + 1;
	rc = lab_an_point_add(p, d->nmetric, v[0] / v[1], f[LAB_SCOL_FLAGGED][0] == '1', s->metric);
	if (rc)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	d->nsamples++;
	return s->run_col ? an_samples_run(s, p, err) : 0;
}

static int an_cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* 1 when name is a metric column's: 1..64 letters, digits and '_' (what kernels declare and the
 * counter columns are), none of the names in fixed (",a,b,"). */
static int an_metric_name_ok(const char *name, const char *fixed)
{
	char key[80];
	size_t n = strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");

	if (!n || name[n] || n > 64)
		return 0;
	snprintf(key, sizeof(key), ",%s,", name);
	return !strstr(fixed, key);
}

int lab_an_metric_names(const char *path, char *const *name, size_t n, size_t first,
                        const char *fixed, struct lab_err *err)
{
	char **sorted = malloc((n + 1) * sizeof(*sorted));
	int rc = 0;

	if (!sorted)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	for (size_t m = 0; m < n && !rc; m++)
		if (!an_metric_name_ok(name[m], fixed))
			rc = lab_err_set(
			    err, LAB_EDATA,
			    "%s:1: column %zu = '%.64s': allowed: a metric name of 1 .. 64 "
			    "letters, digits and '_', not a name of the fixed columns or one "
			    "the analysis gives its own columns",
			    path, first + m + 1, name[m]);
	if (n)
		memcpy(sorted, name, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), an_cmp_name);
	for (size_t m = 1; m < n && !rc; m++)
		if (!strcmp(sorted[m - 1], sorted[m]))
			rc = lab_err_set(err, LAB_EDATA,
			                 "%s:1: column '%s' appears twice, allowed: each name once",
			                 path, sorted[m]);
	free(sorted);
	return rc;
}

static int an_samples_header(struct lab_an_data *d, struct lab_an_csv *r, size_t *run_col,
                             struct lab_err *err)
{
	char want[] = LAB_SAMPLES_COLUMNS, *save = NULL, *tok;
	size_t i = 0;

	for (tok = strtok_r(want, ",", &save); tok; tok = strtok_r(NULL, ",", &save), i++)
		if (i >= r->nfield || strcmp(r->field[i], tok))
			return lab_err_set(err, LAB_EDATA,
			                   "%s:%zu: expected column %zu to be '%s' (header %s)",
			                   r->path, r->line, i + 1, tok, LAB_SAMPLES_COLUMNS);
	/* The run column is last when present (older files lack it); it is not a metric. A column
	 * after it was blamed on run ("column 20 = 'run': ... not a name of the fixed columns"). */
	for (i = LAB_SAMPLES_NCOLUMNS; i + 1 < r->nfield; i++)
		if (!strcmp(r->field[i], LAB_COL_RUN))
			return lab_err_set(
			    err, LAB_EDATA,
			    "%s:%zu: column %zu = '%.64s': allowed: no column after %s "
			    "(column %zu: it is the last column)",
			    r->path, r->line, i + 2, r->field[i + 1], LAB_COL_RUN, i + 1);
	d->nmetric = r->nfield - LAB_SAMPLES_NCOLUMNS;
	*run_col = 0;
	if (d->nmetric && !strcmp(r->field[r->nfield - 1], LAB_COL_RUN)) {
		*run_col = r->nfield - 1;
		d->nmetric--;
	}
	d->metric_name = calloc(d->nmetric ? d->nmetric : 1, sizeof(char *));
	d->metric_dom = calloc(d->nmetric ? d->nmetric : 1, sizeof(int));
	if (!d->metric_name || !d->metric_dom)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	for (size_t m = 0; m < d->nmetric; m++) {
		if (!(d->metric_name[m] = lab_an_strdup(r->field[LAB_SAMPLES_NCOLUMNS + m])))
			return lab_err_set(err, LAB_ENOMEM, "out of memory");
		d->metric_dom[m] = (int)lab_domain_of(d->metric_name[m]);
	}
	/* the rates' names too: summary.csv's NAME_ci95_lo of a metric gbytes_per_s was a second
	 * column of the rate's name (output.h LAB_AN_RATE_COLUMNS) */
	return lab_an_metric_names(r->path, d->metric_name, d->nmetric, LAB_SAMPLES_NCOLUMNS,
	                           "," LAB_SAMPLES_COLUMNS "," LAB_COL_RUN
	                           ",gbytes_per_s,gbytes_per_s_wa,gflops_per_s,",
	                           err);
}

/* Per metric of d, the index of the metric it may not exceed (lab_an_domain_below), nmetric
 * when none; NULL when out of memory. */
static size_t *an_samples_below(const struct lab_an_data *d)
{
	size_t *below = malloc((d->nmetric + 1) * sizeof(*below));

	for (size_t m = 0; below && m < d->nmetric; m++) {
		const char *name = lab_an_domain_below(d->metric_name[m]);

		below[m] = d->nmetric;
		for (size_t k = 0; name && k < d->nmetric; k++)
			if (!strcmp(d->metric_name[k], name))
				below[m] = k;
	}
	return below;
}

/* By (point, rep) alone: what lab_an_rowkey_find looks for. */
static int an_cmp_sample(const void *a, const void *b)
{
	const struct lab_an_rowkey *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return (x->rep > y->rep) - (x->rep < y->rep);
}

static int an_cmp_rowkey(const void *a, const void *b)
{
	const struct lab_an_rowkey *x = a, *y = b;
	int c = an_cmp_sample(a, b);

	return c ? c : (x->line > y->line) - (x->line < y->line);
}

struct lab_an_rowkey *lab_an_rowkey_find(const struct lab_an_data *d, long id, long rep)
{
	struct lab_an_rowkey key = {.id = id, .rep = rep};

	return d->nrowkey ? bsearch(&key, d->rowkey, d->nrowkey, sizeof(key), an_cmp_sample) : NULL;
}

size_t lab_an_rowkey_sort_dup(struct lab_an_rowkey *k, size_t n)
{
	if (n < 2)
		return 0; /* and qsort must not see a NULL array */
	qsort(k, n, sizeof(*k), an_cmp_rowkey);
	for (size_t i = 1; i < n; i++)
		if (k[i].id == k[i - 1].id && k[i].rep == k[i - 1].rep)
			return i;
	return 0;
}

static int an_samples_unique(struct an_samples *s, struct lab_err *err)
{
	size_t i = lab_an_rowkey_sort_dup(s->key, s->nkey);

	return i ? an_samples_again(s, i - 1, s->key[i].line, err) : 0;
}

/* One record: a cut last line is dropped with a warning, a whole one must have every column. */
static int an_samples_record(struct an_samples *s, struct lab_err *err)
{
	struct lab_an_csv *r = &s->r;
	size_t want = LAB_SAMPLES_NCOLUMNS + s->d->nmetric + (s->run_col != 0);

	if (!r->complete) { /* refused in a run that says it completed (lab_an_data_load_dir) */
		lab_an_warn(&s->d->warn, "%s:%zu: incomplete last line ignored", r->path, r->line);
		s->d->samples_cut = r->line;
		return 0;
	}
	/* trailing metric columns may be left out (empty); a column the header does not name,
	 * never */
	if (r->nfield < LAB_SAMPLES_NCOLUMNS || r->nfield > want)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%zu: %zu fields, allowed: %d .. %zu (the header's columns)",
		                   r->path, r->line, r->nfield, LAB_SAMPLES_NCOLUMNS, want);
	return an_samples_row(s, err);
}

int lab_an_samples_load(struct lab_an_data *d, const char *path, struct lab_err *err)
{
	struct an_samples s = {.d = d};
	int rc;

	if ((rc = lab_an_csv_open_flags(&s.r, path, LAB_AN_IN_NOFOLLOW, err)))
		goto out;
	if ((rc = lab_an_csv_next(&s.r, err)) <= 0 || !s.r.complete) {
		if (rc >= 0)
			rc = lab_err_set(err, LAB_EDATA, "%s:1: no header line", path);
		goto out;
	}
	if ((rc = an_samples_header(d, &s.r, &s.run_col, err)))
		goto out;
	s.metric = calloc(d->nmetric + 1, sizeof(*s.metric));
	s.below = an_samples_below(d);
	if (!s.metric || !s.below) {
		rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
		goto out;
	}
	while ((rc = lab_an_csv_next(&s.r, err)) == 1)
		if ((rc = an_samples_record(&s, err)))
			goto out;
	if (!rc)
		rc = an_samples_unique(&s, err);
	if (!rc) { /* sorted by an_samples_unique (or one row) */
		d->rowkey = s.key;
		d->nrowkey = s.nkey;
		s.key = NULL;
	}
out:
	free(s.metric);
	free(s.below);
	free(s.key);
	free(s.params);
	free(s.canon);
	lab_an_csv_close(&s.r);
	return rc < 0 ? rc : 0;
}
