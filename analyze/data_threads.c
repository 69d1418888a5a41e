/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * threads.csv, read as untrusted input: every row is held to the sample it belongs to, then the
 * file is read for one thing: samples whose threads did identical work at clearly different
 * speeds (issue 21 finding 5: vCPU0 1.45x slower than vCPU1 on the same work, with no foreign
 * load, no run-queue wait and the same clock; interference no guard sees). A sample in which a
 * thread waited for its CPU (runq_wait above LAB_AN_ASYM_RUNQ_MAX) has a cause the guard sees
 * and is not counted. The file is optional. What a row is held to, each a data error with
 * FILE:LINE and what is allowed:
 *
 * - the header's columns (LAB_THREADS_COLUMNS first, the others named as samples.csv's metric
 *   columns: each once, plainly, none a fixed column's) in every row (the writer writes them
 *   all); a cut last line is dropped with a warning, as in samples.csv;
 * - point, rep, thread, cpu_start and cpu_end whole numbers, start_ns .. end_ns nanoseconds in
 *   order, work a count, runq_wait a share;
 * - a sample of samples.csv: the writer buffers threads.csv apart from samples.csv, so a run
 *   killed while writing may leave rows whose sample row never reached the disk; in a run that
 *   did not complete, rows at the end of the file without a sample are dropped with a warning,
 *   anywhere else (or in a complete run) they are refused;
 * - a thread of its point's team (0 .. threads - 1; 0 alone for an OpenMP point, whose one row
 *   is the harness worker), each once per sample, each sample's rows together, and every one
 *   of them: the writer writes a row for each worker of each sample it records, so a team of
 *   fewer rows is refused, but as the file's last in a run that did not complete (cut while
 *   writing it: warned, ignored); a sample without any row is let be (nothing is read of it);
 * - the sample's elapsed_ns E. The harness takes a sample in timed windows (run.json
 *   sample_windows). With one window, E = max(end_ns) - min(start_ns) of its threads: they
 *   span at most E. A long sample runs as chunks: E adds up the chunks' windows, while a
 *   thread's start_ns is its first chunk's and its end_ns its last chunk's, so its span also
 *   holds the untimed gaps between chunks, which have no bound (11 % of E under load here; a
 *   process stopped between two chunks adds any time). For any number of windows the threads'
 *   starts lie within E of each other (all in the first window), so do their ends (all in the
 *   last), and a whole team spans at least E. A file without sample_windows (written before it
 *   existed) is held to these alone;
 * - the samples one after another: a run takes one sample at a time and writes them in that
 *   order (fresh processes' times moved to the run's origin), so no row starts before the end
 *   of the sample written before it. This bounds a chunked sample's span too, but the last's:
 *   nothing lab writes bounds that one against elapsed_ns (a run stopped by Ctrl-Z between
 *   two chunks of its last sample writes the stop into its threads' spans, not into E).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze/csv.h"
#include "analyze/data_int.h"
#include "analyze/domain.h"
#include "harness/record_schema.h"

struct an_idmap {
	long id;
	size_t pt;
};

/* One sample's threads as they are read: the rows of one (point, rep) are written together. */
struct an_team {
	long id, rep;
	size_t line;                  /* its first row */
	struct lab_an_rowkey *sample; /* its row of samples.csv; NULL: none (a cut run's end) */
	struct lab_an_point *pt;      /* its point */
	long size;                    /* threads it may have */
	int omp;                      /* an OpenMP point: one row per sample, the harness worker */
	int team_unknown;             /* run.json has no record of its point: either kind of rows */
	int one_window;               /* run.json: elapsed_ns is one timed window */
	size_t n;
	double smin, smax, emin, emax;
	size_t emax_line;
	double work, tmin, tmax;        /* the first thread's work; the shortest and longest span */
	double wsum;                    /* its threads' work */
	int uneven;                     /* some thread did other work than the first */
	int waited;                     /* some thread waited for its CPU: a cause the guard sees */
	int untimed;                    /* some thread took no time: nothing to compare */
	const struct lab_an_json *cpus; /* run.json's "cpus" of its point, or NULL */
};

/* Where a thread index was last seen: in team gen, at line. */
struct an_seen {
	size_t gen, line;
};

struct an_threads {
	struct lab_an_data *d;
	struct lab_an_csv r;
	struct an_idmap *map;
	size_t nmap;
	int runq_col;
	struct lab_an_tcols cols; /* the columns after LAB_THREADS_COLUMNS */
	struct an_team t;
	struct an_seen *seen;
	size_t seen_cap, gen;
	double prev_end; /* the latest end_ns of the samples before t (-1: none), at prev_line */
	size_t prev_line;
	/* the rows without a sample (a cut run's end): the first one's team, and their count */
	long cut_id, cut_rep;
	size_t cut_line, cut_rows;
	/* rows whose thread ran off the CPU run.json planned for it: the first, and their count */
	size_t off_line, off_rows;
	long off_id, off_thread, off_cpu, off_plan;
};

static int an_idmap_cmp(const void *a, const void *b)
{
	const struct an_idmap *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* A point run.json or samples.csv lists with this id, or NULL. */
static struct lab_an_point *an_threads_point(const struct an_threads *s, long id)
{
	struct an_idmap key = {id, 0}, *m;

	m = s->nmap ? bsearch(&key, s->map, s->nmap, sizeof(*s->map), an_idmap_cmp) : NULL;
	return m ? &s->d->pt[m->pt] : NULL;
}

/* The samples.csv path for messages: DIR/samples.csv. */
static const char *an_samples_name(const struct an_threads *s, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", s->d->source, LAB_FILE_SAMPLES);
	return buf;
}

/* Counts the team's sample as asymmetric at its point when its threads did identical work
 * (work_scope team) at clearly different speeds. */
static void an_team_asym(const struct lab_an_data *d, const struct an_team *t)
{
	struct lab_an_point *p = t->pt;
	double ratio;

	if (!t->sample || t->n < 2 || t->uneven || t->waited || t->untimed || !(t->tmin > 0))
		return;
	if (p->threads < 2 || (size_t)p->threads != t->n || lab_an_cost_scope(d, p->experiment))
		return;
	ratio = t->tmax / t->tmin;
	if (!(ratio > LAB_AN_ASYM_RATIO))
		return;
	p->n_asym++;
	if (!(p->asym_ratio >= ratio))
		p->asym_ratio = ratio;
}

/* A team of fewer rows than threads: refused, but as the last rows of a run that did not
 * complete (cut while writing them), where it is dropped with a warning (*cut set). */
static int an_team_partial(struct an_threads *s, int last, int *cut, struct lab_err *err)
{
	const struct an_team *t = &s->t;
	long k = 0;

	/* with no record of the point in run.json (none, or of another schema: read without its
	 * requirements), one row may be an OpenMP point's, the worker's: it was refused, blaming
	 * threads.csv */
	if (!t->sample || (long)t->n == t->size || (t->team_unknown && t->n == 1))
		return 0;
	if (last && !lab_an_run_complete(s->d)) {
		lab_an_warn(&s->d->warn,
		            "%s:%zu: point %ld rep %ld: %zu of its %ld threads (the run was cut "
		            "while writing them): ignored",
		            s->r.path, t->line, t->id, t->rep, t->n, t->size);
		*cut = 1;
		return 0;
	}
	while ((size_t)k < s->seen_cap && s->seen[k].gen == s->gen)
		k++;
	return lab_err_set(err, LAB_EDATA,
	                   "%s:%zu: point %ld rep %ld: %zu of its %ld threads (thread %ld has no "
	                   "row), allowed: every thread of its team (lab writes a row for each "
	                   "worker of a sample)",
	                   s->r.path, t->line, t->id, t->rep, t->n, t->size, k);
}

/* The team read in full (last: the file's last): every thread of it, and a whole team spans
 * at least its sample's elapsed_ns (the timed windows lie inside its span). Then counted for
 * asymmetry; its end bounds the next start. */
static int an_team_close(struct an_threads *s, int last, struct lab_err *err)
{
	const struct an_team *t = &s->t;
	double e = t->sample ? t->sample->elapsed_ns : 0;
	char sp[1200];
	int cut = 0, rc;

	if (!t->n)
		return 0;
	if ((rc = an_team_partial(s, last, &cut, err)) || cut)
		return rc;
	if (t->sample && (long)t->n == t->size &&
	    t->emax - t->smin < e - e * LAB_AN_SPAN_SLACK_REL - LAB_AN_SPAN_SLACK_NS)
		return lab_err_set(
		    err, LAB_EDATA,
		    "%s:%zu: point %ld rep %ld: its %zu threads span %.15g ns, less than "
		    "the sample's elapsed_ns %.15g (%s:%zu), allowed: at least that "
		    "(elapsed_ns is the timed part of their span)",
		    s->r.path, t->line, t->id, t->rep, t->n, t->emax - t->smin, e,
		    an_samples_name(s, sp, sizeof(sp)), t->sample->line);
	/* the sample's work is its threads' total (the harness adds them up; whole counts, so
	 * equal to the unit below 2^53): unchecked, a work edited a thousandfold moved the
	 * point's cost with it (hostile46) */
	if (t->sample && (long)t->n == t->size && t->sample->work > 0 &&
	    fabs(t->wsum - t->sample->work) >
	        (t->sample->work < 0x1p53 ? 0.5 : 1e-12 * t->sample->work))
		return lab_err_set(
		    err, LAB_EDATA,
		    "%s:%zu: point %ld rep %ld: its %zu thread%s did %.17g units, the "
		    "sample's work is %.17g (%s:%zu), allowed: their sum (lab writes "
		    "the sample's work as its threads' total)",
		    s->r.path, t->line, t->id, t->rep, t->n, t->n == 1 ? "" : "s", t->wsum,
		    t->sample->work, an_samples_name(s, sp, sizeof(sp)), t->sample->line);
	an_team_asym(s->d, t);
	if (t->emax > s->prev_end) {
		s->prev_end = t->emax;
		s->prev_line = t->emax_line;
	}
	return 0;
}

/* A team without a sample row: refused in a complete run or for a point run.json does not
 * list, else the start of (or more of) the cut end of the file. */
static int an_team_cut(struct an_threads *s, const struct lab_an_trow *w, struct lab_err *err)
{
	const struct lab_an_csv *r = &s->r;
	int complete = lab_an_run_complete(s->d);

	if (!s->t.pt)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%zu: point %ld: not a point of run.json or samples.csv, "
		                   "allowed: the points they list",
		                   r->path, r->line, w->id);
	if (complete)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%zu: point %ld rep %ld has no row in samples.csv, allowed: "
		                   "the threads of its samples",
		                   r->path, r->line, w->id, w->rep);
	if (!s->cut_line) {
		s->cut_line = r->line;
		s->cut_id = w->id;
		s->cut_rep = w->rep;
	}
	return 0;
}

/* Starts the team of row w: its sample, point, size and windows. */
static int an_team_open(struct an_threads *s, const struct lab_an_trow *w, struct lab_err *err)
{
	struct an_team *t = &s->t;
	const struct lab_an_csv *r = &s->r;
	const char *team;
	int rc;

	*t = (struct an_team){.id = w->id, .rep = w->rep, .line = r->line};
	t->sample = lab_an_rowkey_find(s->d, w->id, w->rep);
	t->pt = t->sample ? &s->d->pt[t->sample->pt] : an_threads_point(s, w->id);
	if (!t->sample && (rc = an_team_cut(s, w, err)))
		return rc;
	if (t->sample && s->cut_line)
		return lab_err_set(
		    err, LAB_EDATA,
		    "%s:%zu: point %ld rep %ld has no row in samples.csv, yet samples "
		    "follow (line %zu), allowed: rows without one only at the end of "
		    "a cut run's file",
		    r->path, s->cut_line, s->cut_id, s->cut_rep, r->line);
	if (t->sample && t->sample->tline)
		return lab_err_set(
		    err, LAB_EDATA,
		    "%s:%zu: point %ld rep %ld again (first at line %zu), allowed: a "
		    "sample's threads in one run of rows",
		    r->path, r->line, w->id, w->rep, t->sample->tline);
	if (t->sample)
		t->sample->tline = r->line;
	team = lab_an_json_str(t->pt->runjson, LAB_KEY_TEAM);
	t->omp = team && !strcmp(team, "openmp");
	t->team_unknown = !t->pt->runjson;
	t->size = t->omp ? 1 : t->pt->threads;
	t->one_window = lab_an_json_num(t->pt->runjson, LAB_KEY_SAMPLE_WINDOWS, 0) == 1;
	t->cpus = lab_an_json_get(t->pt->runjson, "cpus");
	if (t->cpus && t->cpus->type != LAB_AN_JSON_ARR)
		t->cpus = NULL;
	s->gen++;
	return 0;
}

/* Row w's thread: one of the team's, not seen before in it. */
static int an_team_thread(struct an_threads *s, const struct lab_an_trow *w, struct lab_err *err)
{
	const struct lab_an_csv *r = &s->r;
	const struct an_team *t = &s->t;

	if (w->thread < 0 || w->thread >= t->size)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%zu: thread = '%s': allowed: 0 .. %ld (point %ld's %s)",
		                   r->path, r->line, r->field[2], t->size - 1, t->id,
		                   t->omp ? "one worker row: an OpenMP team" : "team");
	if ((size_t)w->thread >= s->seen_cap) {
		size_t cap = (size_t)t->size;
		struct an_seen *n = realloc(s->seen, cap * sizeof(*n));

		if (!n)
			return lab_err_set(err, LAB_ENOMEM, "out of memory");
		memset(n + s->seen_cap, 0, (cap - s->seen_cap) * sizeof(*n));
		s->seen = n;
		s->seen_cap = cap;
	}
	if (s->seen[w->thread].gen == s->gen)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%zu: thread %ld of point %ld rep %ld again (first at line "
		                   "%zu), allowed: each thread once per sample",
		                   r->path, r->line, w->thread, t->id, t->rep,
		                   s->seen[w->thread].line);
	s->seen[w->thread] = (struct an_seen){s->gen, r->line};
	return 0;
}

/* Row w's CPUs (-1: not known) against the one run.json planned for its thread; the first row
 * off it and their count are kept for one warning (cpu_start 0 for both threads of a c2c pair
 * left its matrix as it was, without a word). */
static void an_team_cpu(struct an_threads *s, const struct lab_an_trow *w)
{
	const struct an_team *t = &s->t;
	double plan;

	if (!t->cpus || (size_t)w->thread >= t->cpus->n)
		return;
	plan = t->cpus->items[w->thread].num;
	for (int k = 0; k < 2; k++)
		if (w->cpu[k] >= 0 && (double)w->cpu[k] != plan) {
			if (!s->off_rows++) {
				s->off_line = s->r.line;
				s->off_id = t->id;
				s->off_thread = w->thread;
				s->off_cpu = w->cpu[k];
				s->off_plan = (long)plan;
			}
			return;
		}
}

/* The team's times so far against its sample's elapsed_ns (see the top of the file). */
static int an_team_times(struct an_threads *s, struct lab_err *err)
{
	static const char *const what[] = {"span", "start", "end"},
	                         *why[] = {"a sample of one timed window holds its threads' times",
	                                   "every thread starts in its sample's first timed window",
	                                   "every thread ends in its sample's last timed window"};
	const struct an_team *t = &s->t;
	double e = t->sample->elapsed_ns,
	       lim = e + e * LAB_AN_SPAN_SLACK_REL + LAB_AN_SPAN_SLACK_NS;
	double got[] = {t->one_window ? t->emax - t->smin : 0, t->smax - t->smin,
	                t->emax - t->emin};
	char sp[1200];

	for (size_t k = 0; k < 3; k++)
		if (got[k] > lim)
			return lab_err_set(
			    err, LAB_EDATA,
			    "%s:%zu: point %ld rep %ld: its threads %s %.15g ns%s, more "
			    "than the sample's elapsed_ns %.15g (%s:%zu), allowed: at "
			    "most that (%s)",
			    s->r.path, s->r.line, t->id, t->rep, what[k], got[k], k ? " apart" : "",
			    e, an_samples_name(s, sp, sizeof(sp)), t->sample->line, why[k]);
	return 0;
}

/* Folds row w into its team: thread, order after the sample before, times, asymmetry. */
static int an_team_add(struct an_threads *s, const struct lab_an_trow *w, struct lab_err *err)
{
	struct an_team *t = &s->t;
	double span = w->end - w->start;
	int rc;

	if ((rc = an_team_thread(s, w, err)))
		return rc;
	an_team_cpu(s, w);
	if (w->start < s->prev_end - LAB_AN_SPAN_SLACK_NS)
		return lab_err_set(
		    err, LAB_EDATA,
		    "%s:%zu: start_ns = '%s': before end_ns %.0f of the sample before "
		    "it (line %zu), allowed: samples one after another (a run takes "
		    "them in turn)",
		    s->r.path, s->r.line, s->r.field[5], s->prev_end, s->prev_line);
	if (!t->n++) {
		t->smin = t->smax = w->start;
		t->emin = t->emax = w->end;
		t->emax_line = s->r.line;
		t->work = w->work;
		t->tmin = t->tmax = span;
	}
	t->smin = fmin(t->smin, w->start);
	t->smax = fmax(t->smax, w->start);
	t->emin = fmin(t->emin, w->end);
	if (w->end > t->emax) {
		t->emax = w->end;
		t->emax_line = s->r.line;
	}
	t->wsum += w->work;
	t->waited |= w->runq > LAB_AN_ASYM_RUNQ_MAX;
	t->uneven |= w->work != t->work;
	t->untimed |= !(span > 0);
	t->tmin = fmin(t->tmin, span);
	t->tmax = fmax(t->tmax, span);
	if (!t->sample)
		s->cut_rows++;
	return t->sample ? an_team_times(s, err) : 0;
}

/* One record: a cut last line is dropped with a warning, a whole one has every column. */
static int an_threads_record(struct an_threads *s, size_t ncol, struct lab_err *err)
{
	const struct lab_an_csv *r = &s->r;
	struct lab_an_trow w;
	int rc;

	if (!r->complete && lab_an_run_complete(s->d))
		return lab_an_cut_line(r->path, r->line, err);
	if (!r->complete) {
		lab_an_warn(&s->d->warn, "%s:%zu: incomplete last line ignored", r->path, r->line);
		return 0;
	}
	if (r->nfield != ncol)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%zu: %zu fields, allowed: %zu (the header's columns)",
		                   r->path, r->line, r->nfield, ncol);
	if ((rc = lab_an_trow_parse(r, s->runq_col, &s->cols, &w, err)))
		return rc;
	if (!s->t.n || w.id != s->t.id || w.rep != s->t.rep)
		if ((rc = an_team_close(s, 0, err)) || (rc = an_team_open(s, &w, err)))
			return rc;
	return an_team_add(s, &w, err);
}

/* The points by id, for rows without a sample (a point id is global to a run). */
static int an_threads_map(struct an_threads *s, struct lab_err *err)
{
	const struct lab_an_data *d = s->d;

	if (!(s->map = malloc((d->npt ? d->npt : 1) * sizeof(*s->map))))
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	for (size_t i = 0; i < d->npt; i++)
		if (d->pt[i].id >= 0)
			s->map[s->nmap++] = (struct an_idmap){d->pt[i].id, i};
	if (s->nmap > 1)
		qsort(s->map, s->nmap, sizeof(*s->map), an_idmap_cmp);
	return 0;
}

/* A complete run with samples wrote threads.csv in full (lab run writes a row per thread of each
 * sample): without it the checks it feeds were skipped without a word (a deleted or emptied
 * file). A missing file is said only of a run.json with "progress" (the lab that writes it
 * writes threads.csv beside it): older, hand-made and external results have none. */
static void an_threads_missing(struct lab_an_data *d, const char *path, const char *what,
                               int missing)
{
	size_t n = 0;

	for (size_t i = 0; i < d->npt && !n; i++)
		n = d->pt[i].n;
	if (n && lab_an_run_complete(d) &&
	    (!missing || lab_an_json_get(d->run, LAB_KEY_PROGRESS) != NULL))
		lab_an_warn(
		    &d->warn,
		    "%s: %s, though run.json says the run completed: where each thread ran "
		    "(the placement kept or not: c2c pairs, NUMA nodes, SMT) and the threads' "
		    "spans are not checked",
		    path, what);
}

int lab_an_threads_load(struct lab_an_data *d, const char *path, struct lab_err *err)
{
	struct an_threads s = {.d = d, .runq_col = -1, .prev_end = -INFINITY};
	size_t ncol;
	int rc;

	struct stat st;

	/* lstat: a link that leads nowhere is a link, refused below as every other one */
	if (lstat(path, &st) && errno == ENOENT) {
		an_threads_missing(d, path, "missing", 1);
		return 0;
	}
	if ((rc = an_threads_map(&s, err)) ||
	    (rc = lab_an_csv_open_flags(&s.r, path, LAB_AN_IN_NOFOLLOW, err)))
		goto out;
	if ((rc = lab_an_csv_next(&s.r, err)) <= 0 || !s.r.complete) {
		if (rc >= 0) /* an empty file, or a cut header: no rows */
			an_threads_missing(d, path, rc ? "its header is cut" : "empty", 0);
		goto out;
	}
	if ((rc = lab_an_threads_header(&s.r, &s.cols, err)))
		goto out;
	s.runq_col = lab_an_csv_column(&s.r, LAB_COL_RUNQ_WAIT);
	ncol = s.r.nfield;
	size_t rows = 0;
	while ((rc = lab_an_csv_next(&s.r, err)) > 0) {
		rows++;
		if ((rc = an_threads_record(&s, ncol, err)))
			break;
	}
	if (!rc && !rows)
		an_threads_missing(d, path, "a header without rows", 0);
	if (!rc)
		rc = an_team_close(&s, 1, err);
	if (!rc && s.off_rows)
		lab_an_warn(
		    &d->warn,
		    "%s:%zu: %zu thread row%s ran on another CPU than run.json planned for "
		    "the thread (first: point %ld thread %ld on CPU %ld, planned %ld): the "
		    "placement was not kept (a cpuset, pinning refused), so what depends on "
		    "it (c2c pairs, NUMA nodes, SMT) may not be what it says",
		    path, s.off_line, s.off_rows, s.off_rows == 1 ? "" : "s", s.off_id,
		    s.off_thread, s.off_cpu, s.off_plan);
	if (!rc && s.cut_rows)
		lab_an_warn(&d->warn,
		            "%s:%zu: %zu rows from here on have no row in samples.csv (the run was "
		            "cut while writing them): ignored",
		            path, s.cut_line, s.cut_rows);
out:
	lab_an_csv_close(&s.r);
	lab_an_tcols_free(&s.cols);
	free(s.map);
	free(s.seen);
	return rc < 0 ? rc : 0;
}
