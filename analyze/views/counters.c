/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The counters view (counters.h): its points, their computation (counters_calc.c) and its
 * document: per experiment and params the events, derived metrics and top-down (a figure of
 * level 1), and the pinned-thread warning where the wait mattered. */
#include "analyze/views/counters.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "analyze/index.h"
#include "analyze/render/doc.h"
#include "analyze/views/view.h"

/* Any point with a value in a ctr_ column: no kernel declares the view. */
static int an_ctrs_applies(const struct lab_an_view *v, const struct lab_an_data *d,
                           const struct lab_an_point *p)
{
	(void)v;
	for (size_t m = 0; m < d->nmetric; m++)
		if (!strncmp(d->metric_name[m], "ctr_", 4) &&
		    strcmp(d->metric_name[m], "ctr_mux_ratio"))
			for (size_t i = 0; i < p->n; i++)
				if (!isnan(lab_an_metric(p, i, m)))
					return 1;
	return 0;
}

static void an_ctrs_free(void *state)
{
	struct lab_an_ctrs *c = state;

	if (c)
		lab_an_ctrs_free(c);
	free(c);
}

static int an_ctrs_compute(const struct lab_an_view *v, const struct lab_an_analysis *a,
                           void **state, struct lab_err *err)
{
	const struct lab_an_data *d = a->data;
	struct lab_an_ctrs *c = NULL;
	size_t maxn = 1, napply = 0;
	double *tmp = NULL;

	*state = NULL;
	for (size_t i = 0; i < d->npt; i++) {
		maxn = d->pt[i].n > maxn ? d->pt[i].n : maxn;
		napply += an_ctrs_applies(v, d, &d->pt[i]) == 1;
	}
	if (!napply) /* no counters recorded: nothing to hold (it held 2 KB a point) */
		return 0;
	if (!(c = calloc(1, sizeof(*c))) || lab_an_ctrs_init(d, c, napply) ||
	    !(tmp = malloc(2 * maxn * sizeof(*tmp)))) {
		an_ctrs_free(c);
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < d->npt; i++)
		if (an_ctrs_applies(v, d, &d->pt[i]))
			lab_an_ctrs_point(d, c, &d->pt[i], a->include_flagged, tmp);
	free(tmp);
	if (c->oom) {
		an_ctrs_free(c);
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	}
	if (!(*state = c->np ? c : NULL))
		an_ctrs_free(c);
	return 0;
}

/* A table of the columns in keys, separated by spaces: KEY or KEY:UNIT, of kind unless KEY
 * starts with '@' (a key), '#' (a count), '~' (a ratio) or '$' (a label). */
static struct lab_doc_table *an_table(struct lab_doc_section *s, const char *key, const char *title,
                                      enum lab_doc_kind kind, const char *keys, int params)
{
	static const enum lab_doc_kind kk[] = {LAB_DOC_KEY, LAB_DOC_COUNT, LAB_DOC_RATIO,
	                                       LAB_DOC_TEXT};
	struct lab_doc_table *t = lab_doc_table(s, key, title);
	char k[64], *u;

	for (int n = 0; sscanf(keys, "%63s%n", k, &n) == 1; keys += n) {
		const char *mark = strchr("@#~$", k[0]);

		if ((u = strchr(k, ':')))
			*u++ = '\0';
		lab_doc_col(t, k + !!mark, u, mark ? kk[mark - "@#~$"] : kind);
	}
	if (params) /* a section is an experiment: each row says its params, last */
		lab_doc_col(t, "params", NULL, LAB_DOC_TEXT);
	return t;
}

/* A new row of t for point e: its id and threads, then the n numbers v from column 2 on, and
 * its params in the last column. */
static void an_row(struct lab_doc *doc, struct lab_doc_table *t, const struct lab_an_ctr_pt *e,
                   const double *v, size_t n)
{
	lab_doc_row(t);
	lab_doc_str(doc, lab_doc_at(t, 0), lab_doc_printf(doc, "%ld", e->pt->id));
	lab_doc_str(doc, lab_doc_at(t, 1), lab_doc_printf(doc, "%d", e->pt->threads));
	for (size_t k = 0; k < n; k++)
		lab_doc_num(lab_doc_at(t, 2 + k), v[k]);
	if (t && !strcmp(t->col[t->ncol - 1].key, "params"))
		lab_doc_str(doc, lab_doc_at(t, t->ncol - 1), e->pt->params);
}

/* One section: an experiment. */
struct an_sec {
	struct lab_doc *doc;
	struct lab_doc_section *s;
	struct lab_doc_table *sw, *dv, *td;
	struct lab_doc_figure *f;
	struct lab_doc_curve *cv[5];
	size_t x, points, marked, matter, norq;
	double most; /* the longest run-queue wait recorded of the marked points that matter */
	int hw;      /* some point of the section has a hardware value */
};

/* The mark of a point whose samples were all load-flagged: the view takes them all then. */
#define AN_ALL_FLAGGED "(all samples load-flagged)"

/* Marks the current row of t where point e's samples were all load-flagged or a pinned thread
 * was switched out or migrated in some. */
static void an_marks(struct lab_doc_table *t, const struct lab_an_ctr_pt *e)
{
	if (e->csw_samples || e->mig_samples || e->all_flagged)
		lab_doc_rnote(t, "%s[switched out %zu/%zu, migrated %zu/%zu]",
		              e->all_flagged ? AN_ALL_FLAGGED " " : "", e->csw_samples, e->pt->n,
		              e->mig_samples, e->pt->n);
}

static void an_software(struct an_sec *x, const struct lab_an_ctr_pt *e)
{
	int marked = e->csw_samples || e->mig_samples;

	an_row(x->doc, x->sw, e,
	       (const double[]){(double)e->n, 100 * e->runq_med, (double)e->pt->n,
	                        (double)e->csw_samples, (double)e->mig_samples, e->mux_min},
	       6);
	lab_doc_str(x->doc, lab_doc_at(x->sw, 8), e->pt->status);
	an_marks(x->sw, e);
	x->points++;
	x->marked += marked;
	if (marked && !(e->runq_med <= LAB_AN_ASYM_RUNQ_MAX)) { /* NaN: not recorded */
		x->matter++;
		x->norq += isnan(e->runq_med);
		x->most = isnan(e->runq_med) ? x->most : fmax(x->most, e->runq_med);
	}
}

/* The nc event columns col, the params and a row per point of idx into t, whose columns so far
 * are point, threads and, with rq, the run-queue wait (then marked as in the software table). */
static void an_event_rows(struct an_sec *x, const struct lab_an_ctrs *c, struct lab_doc_table *t,
                          const size_t *idx, size_t n, const size_t *col, size_t nc, int rq)
{
	for (size_t j = 0; j < nc; j++) { /* task-clock counts ns; the others are counts */
		const char *name = c->col[col[j]], *key = name + 4;
		/* ctr_point keeps its prefix: "point" is the row's (a JSON row had it twice) */
		if (!strcmp(key, "point") || !strcmp(key, "threads") || !strcmp(key, "params") ||
		    !strcmp(key, "runq_wait"))
			key = name;
		lab_doc_col(t, key, !strcmp(name, "ctr_task_clock") ? "ns" : NULL, LAB_DOC_VALUE);
	}
	lab_doc_col(t, "params", NULL, LAB_DOC_TEXT);
	for (size_t i = 0; i < n; i++) {
		const struct lab_an_ctr_pt *e = &c->p[idx[i]];

		an_row(x->doc, t, e, (const double[]){100 * e->runq_med}, rq ? 1 : 0);
		for (size_t j = 0; j < nc; j++)
			if (e->nval[col[j]])
				lab_doc_num(lab_doc_at(t, 2 + (rq ? 1 : 0) + j), e->med[col[j]]);
		if (rq)
			an_marks(t, e);
		else if (e->all_flagged)
			lab_doc_rnote(t, "%s", AN_ALL_FLAGGED);
	}
}

/* From event *k on, the next events (at most LAB_DOC_MAXCOL - 4, a table's room) with a value in
 * the n points idx into col; *k moves past them. Returns how many. */
static size_t an_event_cols(const struct lab_an_ctrs *c, const size_t *idx, size_t n, size_t *k,
                            size_t *col)
{
	size_t nc = 0;

	for (; *k < c->ncol && nc < LAB_DOC_MAXCOL - 4; ++*k)
		for (size_t i = 0; i < n; i++)
			if (c->p[idx[i]].nval[*k]) {
				col[nc++] = *k;
				break;
			}
	return nc;
}

/* The events with a value in the section's n points idx (task_clock in ns): a column each, one
 * row per point, its params last; past a table's room the next events are a table of their own
 * (events_2, ...: the 21st of a real catalogue went without a word, scale35). Without hardware
 * values the text reads one table instead of this and the software table (whose samples, mux
 * ratio and status say nothing more there): the run-queue wait and the events. */
static void an_events(struct an_sec *x, const struct lab_an_ctrs *c, const size_t *idx, size_t n)
{
	size_t col[LAB_DOC_MAXCOL], nc, k = 0;
	struct lab_doc_table *t;

	for (unsigned part = 1; (nc = an_event_cols(c, idx, n, &k, col)); part++) {
		const char *more = part == 1 ? "" : lab_doc_printf(x->doc, "_%u", part),
		           *of = part == 1 ? "" : lab_doc_printf(x->doc, " (part %u)", part);

		if (!(t = an_table(x->s, lab_doc_printf(x->doc, "events%s", more),
		                   lab_doc_printf(x->doc, "events%s: median per sample", of),
		                   LAB_DOC_VALUE, "@point @threads", 0)))
			return;
		t->audience = x->hw ? LAB_DOC_EVERYONE : LAB_DOC_TOOLS;
		an_event_rows(x, c, t, idx, n, col, nc, 0);
		if (x->hw || !(t = an_table(x->s, lab_doc_printf(x->doc, "software%s", more),
		                            lab_doc_printf(
		                                x->doc, "software events%s: median per sample", of),
		                            LAB_DOC_VALUE, "@point @threads runq_wait:%", 0)))
			continue;
		t->audience = LAB_DOC_PEOPLE;
		an_event_rows(x, c, t, idx, n, col, nc, 1);
	}
}

static void an_derived(struct an_sec *x, const struct lab_an_ctrs *c, const struct lab_an_ctr_pt *e)
{
	an_row(x->doc, x->dv, e, NULL, 0);
	for (size_t k = 0; k < LAB_AN_CD_N; k++) {
		struct lab_doc_cell *v = lab_doc_at(x->dv, 2 + k);

		lab_doc_num(v, e->dv[k].v);
		if (isnan(e->dv[k].v))
			lab_doc_why(x->doc, v, "%s", e->dv[k].reason);
		else if (e->dv[k].estimated)
			lab_doc_cnote(x->doc, v, "(%s)", e->dv[k].reason);
	}
	if (!e->has_hw && c->any_hw)
		lab_doc_rwhy(x->dv, "hardware counters unavailable: %s", e->hw_reason);
	if (e->mux_min < 1)
		lab_doc_rnote(x->dv, "%sMULTIPLEXED (counted %.0f%% of the time; scaled)",
		              e->all_flagged ? AN_ALL_FLAGGED " " : "", 100 * e->mux_min);
	else if (e->all_flagged)
		lab_doc_rnote(x->dv, "%s", AN_ALL_FLAGGED);
}

/* Without a PMU anywhere: the clock and the cycles the self-check's clock estimates. */
static void an_estimated(struct an_sec *x, const struct lab_an_ctr_pt *e)
{
	static const int k[] = {LAB_AN_CD_GHZ, LAB_AN_CD_CYC_EST};

	an_row(x->doc, x->dv, e, NULL, 0);
	for (size_t j = 0; j < sizeof(k) / sizeof(k[0]); j++) {
		struct lab_doc_cell *v = lab_doc_at(x->dv, 2 + j);

		lab_doc_num(v, e->dv[k[j]].v);
		if (isnan(e->dv[k[j]].v))
			lab_doc_why(x->doc, v, "%s", e->dv[k[j]].reason);
	}
	if (e->all_flagged)
		lab_doc_rnote(x->dv, "%s", AN_ALL_FLAGGED);
}

/* Top-down level 1 and 2 in the table, level 1 in the figure: a bar per point, its shares
 * stacked (x: the point's rank, its label names the bar). */
static void an_topdown(struct an_sec *x, const struct lab_an_ctrs *c, const struct lab_an_ctr_pt *e)
{
	static const char *const what[] = {"retiring", "bad speculation", "front-end bound",
	                                   "back-end bound", "SMT contention"};
	const struct lab_an_tma *t = &e->tma;
	const double v[] = {t->retiring,      t->bad_speculation,    t->frontend_bound,
	                    t->backend_bound, t->smt_contention,     t->bad_speculation_raw,
	                    t->memory_bound,  t->core_bound,         t->heavy_ops,
	                    t->light_ops,     t->branch_mispredicts, t->machine_clears,
	                    t->fetch_latency, t->fetch_bandwidth};

	an_row(x->doc, x->td, e, v, t->level >= 2 ? 14 : t->level ? 6 : 0);
	lab_doc_str(x->doc, lab_doc_at(x->td, 1), c->method); /* not threads: method */
	if (t->level < 1) {
		lab_doc_rwhy(x->td, "top-down: %s", e->tma_reason);
		return;
	}
	if (t->level < 2)
		lab_doc_rnote(x->td, "level 2: %s", e->tma_reason);
	if (!x->f)
		x->f = lab_doc_figure(x->s, "topdown",
		                      lab_doc_printf(x->doc, "%s: top-down level 1 (%s)",
		                                     e->pt->experiment, c->method),
		                      "point", "fraction of pipeline slots");
	/* SMT contention is a category of the AMD method only. */
	for (int q = 0; x->f && q < (strcmp(c->method, "amd_pipeline") ? 4 : 5); q++) {
		if (!x->cv[q] && (x->cv[q] = lab_doc_curve(x->f, what[q], LAB_DOC_STACK)))
			x->cv[q]->color = q;
		lab_doc_point(x->cv[q], (double)x->x, v[q], NAN, NAN);
	}
	lab_doc_flabel(x->f, (double)x->x++, 1.02,
	               lab_doc_printf(x->doc, "point %ld, %d thr", e->pt->id, e->pt->threads));
}

/* The pinned-thread warning: a finding where the wait for the CPU matters (over 1 % of the
 * sample, or not recorded), a plain count where it does not (issue 21, finding 9). */
static void an_pinned(struct an_sec *x)
{
	if (x->matter)
		lab_doc_finding(
		    x->s, LAB_DOC_WARN,
		    lab_doc_printf(
		        x->doc,
		        "longest median run-queue wait recorded: %.3g %%; %zu point%s without a "
		        "record of it",
		        100 * x->most, x->norq, x->norq == 1 ? "" : "s"),
		    "in %zu of %zu points a pinned thread was switched out or migrated "
		    "(marked [...]: samples with it / samples) and waited over 1 %% of the "
		    "sample for its CPU, or the wait was not recorded: another task shared "
		    "its CPU, a defect in a contention lab. A team that fills every CPU "
		    "shares them with the lab's own main thread and the system; leave a CPU "
		    "free, or read these points as disturbed.",
		    x->matter, x->points);
	if (x->marked > x->matter)
		lab_doc_note(
		    x->s,
		    "%zu of %zu points marked [...] waited under 1 %% of the sample for their "
		    "CPU: too little to change a result",
		    x->marked - x->matter, x->points);
}

/* The section of the n points idx of one experiment. Without hardware counters anywhere the
 * derived and top-down tables would repeat one reason in every cell: the document's note says
 * it once. Without them in this experiment (when others have them) those tables go to the
 * files alone, and the text reads the software events in one table (an_events). */
static void an_section(struct lab_doc *doc, const struct lab_an_ctrs *c, const size_t *idx,
                       size_t n)
{
	const struct lab_an_point *p0 = c->p[idx[0]].pt;
	struct an_sec x = {.doc = doc, .s = lab_doc_section(doc, p0->experiment, NULL)};

	for (size_t i = 0; i < n; i++)
		x.hw |= c->p[idx[i]].has_hw;
	lab_doc_lead(x.s, "medians per sample of the sum over threads, over the used samples");
	x.sw = an_table(x.s, "points", "software events", LAB_DOC_VALUE,
	                "@point @threads #n runq_wait:% #samples #samples_with_context_switches "
	                "#samples_with_migrations ~mux_ratio_min $status",
	                1);
	if (x.sw) {
		x.sw->csv = "counters"; /* counters.csv, the name users know */
		x.sw->audience = x.hw ? LAB_DOC_EVERYONE : LAB_DOC_TOOLS;
	}
	if (c->any_hw)
		x.dv = an_table(x.s, "derived", "derived metrics: ratios of the medians",
		                LAB_DOC_VALUE,
		                "@point @threads ~ipc ghz:GHz cycles_estimated ~cache_mpki "
		                "~branch_mpki ~l1d_mpki",
		                1);
	else if (c->core_ghz > 0) /* no PMU anywhere: what the note promises, and no more */
		x.dv = an_table(x.s, "derived",
		                "estimated: cycles = task-clock x the self-check's core clock (no "
		                "cycle counter)",
		                LAB_DOC_VALUE, "@point @threads ghz:GHz cycles_estimated", 1);
	if (c->any_hw) {
		x.td =
		    an_table(x.s, "topdown", "top-down: fractions of pipeline slots", LAB_DOC_RATIO,
		             "@point @method retiring bad_speculation frontend_bound backend_bound "
		             "smt_contention bad_speculation_raw memory_bound core_bound heavy_ops "
		             "light_ops "
		             "branch_mispredicts machine_clears fetch_latency fetch_bandwidth",
		             0);           /* 16 columns: the params are in the other tables */
		if (!x.hw && x.dv && x.td) /* rows that would each say "unavailable" */
			x.dv->audience = x.td->audience = LAB_DOC_TOOLS;
	}
	for (size_t i = 0; i < n; i++) {
		an_software(&x, &c->p[idx[i]]);
		if (x.dv && c->any_hw)
			an_derived(&x, c, &c->p[idx[i]]);
		else if (x.dv)
			an_estimated(&x, &c->p[idx[i]]);
		if (c->any_hw)
			an_topdown(&x, c, &c->p[idx[i]]);
	}
	an_events(&x, c, idx, n);
	an_pinned(&x);
}

/* A section per experiment, experiments in the order first seen: the points bucketed by the
 * project's string set and a counting sort, O(n). Returns 0 or -LAB_ENOMEM. */
static int an_ctrs_sections(struct lab_doc *doc, const struct lab_an_ctrs *c)
{
	struct lab_an_strset set = {0};
	size_t *e = malloc((c->np ? c->np : 1) * sizeof(*e)),
	       *idx = malloc((c->np ? c->np : 1) * sizeof(*idx)), *end = NULL;
	int rc = -LAB_ENOMEM;

	for (size_t i = 0; e && idx && i < c->np; i++)
		if ((e[i] = lab_an_strset_add(&set, c->p[i].pt->experiment, NULL)) == (size_t)-1)
			goto out;
	if (!e || !idx || !(end = calloc(set.n ? set.n : 1, sizeof(*end))))
		goto out;
	lab_an_bucket(e, c->np, set.n, idx, end);
	for (size_t k = 0; k < set.n; k++)
		an_section(doc, c, idx + (k ? end[k - 1] : 0), end[k] - (k ? end[k - 1] : 0));
	rc = 0;
out:
	lab_an_strset_free(&set);
	free(end);
	free(idx);
	free(e);
	return rc;
}

static int an_ctrs_describe(const struct lab_an_view *v, const void *state, struct lab_doc *doc)
{
	const struct lab_an_ctrs *c = state;

	(void)v;
	doc->title = "Counters";
	lab_doc_about(
	    doc,
	    "Medians per sample of the sum over threads, over the used samples (all of "
	    "them, marked, when every sample was load-flagged). A pinned thread switched "
	    "out or migrated during a sample is a defect of it when it waited for its CPU "
	    "long enough to matter.",
	    c->any_hw
	        ? "IPC, GHz, MPKI: ratios of medians; top-down level 1 and 2: "
	          "fractions of pipeline slots"
	        : lab_doc_printf(doc, "hardware counters unavailable here: %s", c->hw_reason));
	if (!c->any_hw && c->core_ghz > 0)
		doc->note = lab_doc_printf(doc,
		                           "%s; core clock %.3g GHz (estimated by the self-check: "
		                           "cycles = task-clock x this, in each section's "
		                           "estimated table)",
		                           doc->note, c->core_ghz);
	if (!c->any_hw && c->np)
		doc->note = lab_doc_printf(doc, "%s; top-down (%s): %s", doc->note, c->method,
		                           c->p[0].tma_reason);
	if (an_ctrs_sections(doc, c))
		return -LAB_ENOMEM;
	return lab_doc_failed(doc) ? -LAB_ENOMEM : 0;
}

const struct lab_an_view lab_an_view_counters = {
    .name = "counters",
    .follows_any_run = 1,
    .applies = an_ctrs_applies,
    .compute = an_ctrs_compute,
    .free = an_ctrs_free,
    .describe = an_ctrs_describe,
};
