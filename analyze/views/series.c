/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The scaling series: per experiment and params, the cost at each thread count with speedup,
 * efficiency and the Karp-Flatt serial fraction, the rates a kernel's declared work gives, the
 * Amdahl, USL and Gustafson fits, and their figures. Every series the analysis computed that no
 * other view shows in its own way (the c2c matrix hides its per-pair series); it is the last
 * view of views.def so that those views are computed before it asks. A latency or overhead
 * series (cost_kind latency) shows no scaling metric: its note says why.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/flagged.h"
#include "analyze/levels.h"
#include "analyze/levels_out.h"
#include "analyze/views/series.h"
#include "analyze/views/view.h"

struct an_series_state {
	const struct lab_an_data *d;
	const struct lab_an_series **s;
	size_t n;
	int figures; /* 0: no plots are drawn, and nothing else shows the figures */
};

/* Every point is in a scaling series; which series a view hides, compute leaves out (the views
 * computed before it: views.def lists the series last). */
static int an_series_applies(const struct lab_an_view *v, const struct lab_an_data *d,
                             const struct lab_an_point *p)
{
	(void)v;
	(void)d;
	(void)p;
	return 1;
}

/* A series with the key it is shown in order by: the plan's order of its first point (point
 * ids count the config's experiments and sweeps in order), then its name and params. */
struct an_series_key {
	long first;
	const struct lab_an_series *s;
};

static int an_series_cmp(const void *x, const void *y)
{
	const struct an_series_key *a = x, *b = y;
	int c;

	if (a->first != b->first)
		return a->first < b->first ? -1 : 1;
	if ((c = strcmp(a->s->experiment, b->s->experiment)))
		return c;
	return strcmp(a->s->params, b->s->params);
}

/* st's series in the order they are shown: the hash order they were grouped in read as noise
 * (ch28: accumulators=8 before isa_by_size before accumulators=1). */
static int an_series_sort(struct an_series_state *st)
{
	struct an_series_key *k = malloc(st->n * sizeof(*k));

	if (!k)
		return -1;
	for (size_t i = 0; i < st->n; i++) {
		long first = LONG_MAX;

		for (size_t j = 0; j < st->s[i]->nrow; j++)
			if (st->s[i]->row[j].pt->id >= 0 && st->s[i]->row[j].pt->id < first)
				first = st->s[i]->row[j].pt->id;
		k[i] = (struct an_series_key){first, st->s[i]};
	}
	qsort(k, st->n, sizeof(*k), an_series_cmp);
	for (size_t i = 0; i < st->n; i++)
		st->s[i] = k[i].s;
	free(k);
	return 0;
}

static int an_series_compute(const struct lab_an_view *v, const struct lab_an_analysis *a,
                             void **state, struct lab_err *err)
{
	struct an_series_state *st;

	(void)v;
	*state = NULL;
	if (!a->ns)
		return 0;
	if (!(st = calloc(1, sizeof(*st))) || !(st->s = calloc(a->ns, sizeof(*st->s)))) {
		free(st);
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	}
	st->d = a->data;
	st->figures = !a->no_plots;
	for (size_t i = 0; i < a->ns; i++)
		if (!lab_an_series_hidden(a, &a->s[i]))
			st->s[st->n++] = &a->s[i];
	if (!st->n || an_series_sort(st)) {
		size_t n = st->n;

		free(st->s);
		free(st);
		return n ? lab_err_set(err, LAB_ENOMEM, "out of memory") : 0;
	}
	*state = st;
	return 0;
}

static void an_series_free(void *state)
{
	struct an_series_state *st = state;

	if (st)
		free(st->s);
	free(st);
}

/* An estimate with its interval (ci): "[lo, hi]"; unbounded where an end is not finite (a
 * rate whose cost interval reaches 0 keeps its lower end); "[no CI]" without one (too few
 * repetitions); no number: "-". */
static void an_series_ratio(struct lab_doc_cell *c, double v, double lo, double hi, int ci)
{
	if (!isfinite(v))
		return;
	lab_doc_num(c, v);
	/* no interval: NaN; an interval that is not finite: unbounded */
	c->lo = ci ? (isfinite(lo) ? lo : -INFINITY) : NAN;
	c->hi = ci ? (isfinite(hi) && isfinite(lo) ? hi : INFINITY) : NAN;
}

/* The flags of a row: outliers, load-flagged samples, superlinear, several modes, one setup or
 * setups apart. */
static void an_series_flags(struct lab_doc_table *t, const struct lab_an_row *r, const char *unit)
{
	const struct lab_an_stats *st = &r->pt->st;
	char flags[448] = "", modes[256];
	size_t n = 0;

	/* mild: beyond Tukey's inner fences (1.5 IQR), within the outer (3 IQR); severe: beyond */
	if (st->outliers_mild || st->outliers_severe)
		n += (size_t)snprintf(flags + n, sizeof(flags) - n,
		                      "outliers: %zu mild, %zu severe (Tukey) ", st->outliers_mild,
		                      st->outliers_severe);
	if (lab_an_flagged_mark(r->pt, modes, sizeof(modes)) && n < sizeof(flags))
		n += (size_t)snprintf(flags + n, sizeof(flags) - n, "%s ", modes);
	if (r->has_speedup && r->superlinear && n < sizeof(flags))
		n += (size_t)snprintf(flags + n, sizeof(flags) - n, "SUPERLINEAR ");
	if (lab_an_modes_multi(&r->pt->modes) && n < sizeof(flags))
		n += (size_t)snprintf(flags + n, sizeof(flags) - n, "MULTIMODAL %s ",
		                      lab_an_modes_list(&r->pt->modes, 0, 1, modes, sizeof(modes)));
	/* its interval is one run's: nothing in it of the setup-to-setup spread */
	if (lab_an_one_setup_flag(r->pt, modes, sizeof(modes)) && n < sizeof(flags))
		n += (size_t)snprintf(flags + n, sizeof(flags) - n, "%s", modes);
	/* its setups fell apart: what the guest cannot see (the host's other vCPUs on its cores) */
	else if (lab_an_runs_apart_flag(r->pt, unit, modes, sizeof(modes)) && n < sizeof(flags))
		n += (size_t)snprintf(flags + n, sizeof(flags) - n, "%s", modes);
	while (n && n < sizeof(flags) && flags[n - 1] == ' ')
		flags[--n] = '\0';
	if (*flags)
		lab_doc_rnote(t, "%s", flags);
}

/* One row: threads, n, cost, CV, and (scaling) speedup, efficiency, e(N); flags after it; a
 * point without samples says why instead. */
static void an_series_row(struct lab_doc *doc, struct lab_doc_table *t, const struct lab_an_row *r,
                          const char *unit, int scaling)
{
	const struct lab_an_stats *st = &r->pt->st;
	int c = r->has_speedup && r->speedup.has_ci;

	lab_doc_row(t);
	lab_doc_str(doc, lab_doc_at(t, 0), lab_doc_printf(doc, "%d", r->pt->threads));
	if (!st->n && r->pt->n_flagged) {
		lab_doc_rwhy(t, "all %zu samples load-flagged (--include-flagged keeps them)",
		             r->pt->n_flagged);
		return;
	}
	if (!st->n) {
		lab_doc_rwhy(t, "%s%s%s", r->pt->status, r->pt->reason ? ": " : "",
		             r->pt->reason ? r->pt->reason : "");
		return;
	}
	lab_doc_num(lab_doc_at(t, 1), (double)st->n);
	lab_doc_ival(lab_doc_at(t, 2), st->median, st->mean, st->n > 1 ? st->ci95_lo : NAN,
	             st->n > 1 ? st->ci95_hi : NAN, st->n);
	lab_doc_num(lab_doc_at(t, 3), st->n > 1 ? 100 * st->cv : NAN);
	if (st->n < 2) /* one sample has no spread: its CV read 0 */
		lab_doc_why(doc, lab_doc_at(t, 3), "one sample");
	if (scaling) {
		an_series_ratio(lab_doc_at(t, 4), r->has_speedup ? r->speedup.est : NAN,
		                r->speedup.lo, r->speedup.hi, c);
		an_series_ratio(lab_doc_at(t, 5), r->has_speedup ? r->eff : NAN, r->eff_lo,
		                r->eff_hi, c);
		an_series_ratio(lab_doc_at(t, 6), r->kf, r->kf_lo, r->kf_hi,
		                c && isfinite(r->kf_lo));
		if (r->kf_why)
			lab_doc_why(doc, lab_doc_at(t, 6), "%s", r->kf_why);
		lab_doc_at(t, 6)->note = r->kf_note;
	}
	an_series_flags(t, r, unit);
}

/* Points measured in runs: one note for the series with the share of a run mean's variance
 * that lies between runs, by thread count (each point's split, advice and within-run interval
 * are in analysis.json); a point that got fewer runs than planned: how many, and what its
 * interval is then; a point measured to a precision target: what the target came to. */
static void an_series_levels(struct lab_doc_section *sec, const struct lab_an_series *s)
{
	char shares[256] = "", buf[400];
	size_t used = 0, n = 0, runs = 0, fresh = 0, unknown = 0;

	for (size_t j = 0; j < s->nrow; j++) {
		const struct lab_an_levels *lv = &s->row[j].pt->levels;

		if (lv->runs < 2)
			continue;
		runs = lv->runs > runs ? lv->runs : runs;
		fresh += lab_an_json_get(s->row[j].pt->runjson, "processes") != NULL;
		unknown += isnan(lv->mean_share);
		if (n++ < 8 && used < sizeof(shares))
			used += (size_t)snprintf(
			    shares + used, sizeof(shares) - used,
			    isnan(lv->mean_share) ? "%s%d: -" : "%s%d: %.0f %%", used ? ", " : "",
			    s->row[j].pt->threads, 100 * lv->mean_share);
		else if (n == 9 && used < sizeof(shares))
			used += (size_t)snprintf(shares + used, sizeof(shares) - used, ", ...");
	}
	if (n)
		lab_doc_note(sec,
		             "runs: up to %zu per point%s, intervals from the run means; share of "
		             "a run mean's variance between runs at threads %s (above half: more "
		             "runs narrow the interval, not more samples; below: more samples per "
		             "run)%s",
		             runs,
		             fresh == n ? ", each in a new process (fresh_process)"
		             : fresh    ? ", some in a new process each (fresh_process)"
		                        : "",
		             shares,
		             unknown ? "; -: no split (one sample per run: no spread within runs "
		                       "to split against; or no spread at all)"
		                     : "");
	for (size_t j = 0; j < s->nrow; j++) {
		if (lab_an_runs_short_line(s->row[j].pt, buf, sizeof(buf)))
			lab_doc_note(sec, "threads %d: %s", s->row[j].pt->threads, buf);
		if (lab_an_precision_line(s->row[j].pt, buf, sizeof(buf)))
			lab_doc_note(sec, "threads %d: %s", s->row[j].pt->threads, buf);
		if (s->row[j].pt->same_cpus_as)
			lab_doc_note(sec,
			             "threads %d: ran on the same CPUs as placement=%s (not a "
			             "placement effect: this machine cannot tell them apart)",
			             s->row[j].pt->threads, s->row[j].pt->same_cpus_as);
	}
}

/* Every point of s at one thread count (a chapter that compares ISAs or sizes at threads = 1):
 * a speedup of 1 [1, 1] and "too few thread counts to fit" would only be noise. */
static int an_one_count(const struct lab_an_series *s)
{
	for (size_t j = 1; j < s->nrow; j++)
		if (s->row[j].pt->threads != s->row[0].pt->threads)
			return 0;
	return s->nrow > 0;
}

/* The points table; scaling: with speedup, efficiency and e(N) (not for a latency or an
 * overhead, whose note says why, nor at one thread count). */
static void an_series_points(struct lab_doc_section *sec, const struct lab_an_series *s,
                             const char *unit, int scaling)
{
	struct lab_doc_table *t = lab_doc_table(sec, "points", NULL);

	lab_doc_col(t, "threads", NULL, LAB_DOC_KEY);
	lab_doc_col(t, "n", NULL, LAB_DOC_COUNT);
	lab_doc_col(t, "cost", unit, LAB_DOC_INTERVAL);
	lab_doc_col(t, "CV", "%", LAB_DOC_VALUE);
	/* weak: the speedup is Gustafson's scaled one, and Karp-Flatt's fraction (fixed total
	 * work) is none of it: the Gustafson fit gives the serial share */
	if (scaling) {
		lab_doc_col(t, s->weak ? "scaled speedup" : "speedup", NULL, LAB_DOC_ESTIMATE);
		lab_doc_col(t, "efficiency", NULL, LAB_DOC_ESTIMATE);
		if (!s->weak)
			lab_doc_col(t, "e(N)", "Karp-Flatt", LAB_DOC_ESTIMATE);
	}
	for (size_t j = 0; j < s->nrow; j++)
		an_series_row(sec->doc, t, &s->row[j], unit, scaling);
}

/* A rate: its interval from the cost's, unbounded above when that reaches 0. */
static void an_series_rate(struct lab_doc_cell *c, const struct lab_an_rate *r)
{
	an_series_ratio(c, r->v, r->lo, r->hi, isfinite(r->lo));
}

/*
 * GB/s and GFLOP/s per point, for kernels that declare their work (GB = 1e9 bytes): only the
 * columns the kernel declares something for (no "0 GFLOP/s" rows for a kernel without flops;
 * the write-allocate column only where it differs), all threads together.
 */
static void an_series_rates(struct lab_doc_section *sec, const struct lab_an_series *s)
{
	int bytes = 0, wa = 0, flops = 0, bound = 0;
	struct lab_doc_table *t;

	for (size_t i = 0; i < s->nrow; i++) {
		const struct lab_an_rates *r = &s->row[i].rates;

		bytes |= r->has && r->bytes > 0;
		wa |= r->has && r->bytes_wa != r->bytes;
		flops |= r->has && r->flops > 0;
		bound |= r->has && r->bytes > 0 && r->bandwidth_bound != 0;
	}
	if (!bytes && !flops)
		return;
	/* false sharing's one counter "moved 57 GB/s" at one thread, read as memory bandwidth
	 * (teach46) */
	if (bytes && !bound)
		lab_doc_note(sec,
		             "GB/s r+w: the bytes the kernel declares per unit over the cost, the "
		             "rate its loop touched them; the kernel declares that loop bound by "
		             "something other than its bytes (work_per_unit.bandwidth_bound "
		             "false), so it is no memory bandwidth (a counter that stays in one "
		             "line reads tens of GB/s)");
	t = lab_doc_table(sec, "rates", NULL);
	lab_doc_col(t, "threads", NULL, LAB_DOC_KEY);
	if (bytes)
		lab_doc_col(t, "GB/s r+w", NULL, LAB_DOC_ESTIMATE);
	if (wa)
		lab_doc_col(t, "GB/s +write-alloc", NULL, LAB_DOC_ESTIMATE);
	if (flops)
		lab_doc_col(t, "GFLOP/s", NULL, LAB_DOC_ESTIMATE);
	if (bytes && flops)
		lab_doc_col(t, "flops/byte", NULL, LAB_DOC_VALUE);
	for (size_t i = 0; i < s->nrow; i++) {
		const struct lab_an_rates *r = &s->row[i].rates;
		size_t k = 1;

		if (!r->has)
			continue;
		lab_doc_row(t);
		lab_doc_str(sec->doc, lab_doc_at(t, 0),
		            lab_doc_printf(sec->doc, "%d", s->row[i].pt->threads));
		if (bytes)
			an_series_rate(lab_doc_at(t, k++), &r->gbytes);
		if (wa)
			an_series_rate(lab_doc_at(t, k++), &r->gbytes_wa);
		if (flops)
			an_series_rate(lab_doc_at(t, k++), &r->gflops);
		if (bytes && flops && isfinite(r->flops_per_byte))
			lab_doc_num(lab_doc_at(t, k), r->flops_per_byte);
	}
}

/* 1 when the only thing s's note says is that it has too few thread counts to fit (two or
 * three: one is no scaling series at all). */
static int an_few_counts(const struct lab_an_series *s)
{
	return !s->latency && strstr(s->note, "distinct thread counts") && !strchr(s->note, ';') &&
	       !an_one_count(s);
}

/* 1 when every point of s with samples ran one setup and planned no more (ONE SETUP marks
 * those that planned more); never for data without run.json (external --csv: no setups). */
static int an_one_setup_each(const struct lab_an_series *s)
{
	int any = 0;

	for (size_t j = 0; j < s->nrow; j++) {
		int one = lab_an_point_single_setup(s->row[j].pt);

		if (one < 0 || (!one && s->row[j].pt->st.n))
			return 0;
		any |= one;
	}
	return any;
}

/* Which level the speedups and fits of s used, when runs were involved (analyze/analysis.h). */
static void an_series_level_note(struct lab_doc_section *sec, const struct lab_an_series *s)
{
	int runs = 0, mixed = 0, fit_runs = s->fit_level && !strcmp(s->fit_level, "runs");

	for (size_t j = 0; j < s->nrow; j++) {
		const char *lv = s->row[j].has_speedup ? s->row[j].speedup_level : NULL;
		runs = runs || (lv && !strcmp(lv, "runs"));
		/* a one run of one sample took nothing and has no interval */
		mixed = mixed || (lv && !strcmp(lv, "mixed") && s->row[j].speedup.has_ci);
	}
	if (!s->latency && mixed)
		lab_doc_note(sec, "levels: where one point of a speedup has one run and the other "
		                  "several, the one run's mean also takes the other's between-run "
		                  "variance (relative): one setup's spread says nothing of setups");
	if (an_one_setup_each(s))
		lab_doc_note(sec, LAB_AN_ONE_SETUP_NOTE);
	if (s->latency || (!runs && !fit_runs))
		return;
	if (fit_runs && an_few_counts(s)) /* no fit to speak of */
		lab_doc_note(sec, "levels: speedup intervals from run means: run-to-run noise "
		                  "included");
	else if (fit_runs)
		lab_doc_note(sec,
		             "levels: speedup intervals and fits from run means (%zu in the fits): "
		             "run-to-run noise included",
		             s->n_fit);
	else /* no fits: nothing to say of them */
		lab_doc_note(
		    sec, "levels: speedup intervals from run means where both points have runs%s",
		    an_few_counts(s) ? "" : "; fits on samples (not every point has runs)");
}

/* One series: the lead (scaling, the cost and whose time it is, what the fits used), the
 * points, the rates, the notes, the fits and the figures. first: the experiment's first series
 * (whose time its cost is, and that a latency has no speedup, are said there once, not under
 * each of its series). */
static void an_series_section(struct lab_doc *doc, const struct an_series_state *st,
                              const struct lab_an_series *s, int first)
{
	const struct lab_an_data *d = st->d;
	const struct lab_an_point *p0 = s->nrow ? s->row[0].pt : NULL;
	struct lab_doc_section *sec =
	    lab_doc_section(doc, s->experiment, *s->params ? s->params : NULL);
	char label[160], fits[160] = "";
	int one = an_one_count(s);

	if (!sec)
		return;
	if (one && !s->latency) {
		sec->title = "points";
		snprintf(fits, sizeof(fits), "; threads = %d only: no scaling to show",
		         p0->threads);
	} else if (an_few_counts(s))
		snprintf(fits, sizeof(fits), "; no fit (fewer thread counts than a fit needs)%s",
		         s->fit_level && !strcmp(s->fit_level, "runs")
		             ? "; speedup intervals from run means"
		             : "");
	else if (!s->latency && s->fit_level && !strcmp(s->fit_level, "runs"))
		snprintf(fits, sizeof(fits),
		         "; %zu run means in the fits (speedup intervals from run means too)",
		         s->n_fit);
	else if (!s->latency)
		snprintf(fits, sizeof(fits), "; %zu samples in the fits", s->n_fit);
	if (one && !s->latency)
		lab_doc_lead(sec, "cost in %s%s", lab_an_cost_label(d, p0, label, sizeof(label)),
		             fits);
	else
		lab_doc_lead(sec, "%s scaling, cost in %s%s", s->weak ? "weak" : "strong",
		             lab_an_cost_label(d, p0, label, sizeof(label)), fits);
	an_series_points(sec, s, lab_an_point_unit(d, p0), !s->latency && !one);
	an_series_rates(sec, s);
	an_series_levels(sec, s);
	if (first && lab_an_cost_whose(d, p0))
		lab_doc_note(sec, "cost per unit of work in %s: %s", lab_an_point_unit(d, p0),
		             lab_an_cost_whose(d, p0));
	if (!one)
		an_series_level_note(sec, s);
	/* too few thread counts to fit, and nothing else: said once for all such series (the
	 * document's note) */
	if (*s->note && !an_few_counts(s) && !(one && strstr(s->note, "distinct thread counts")) &&
	    (first || strcmp(s->note, LAB_AN_LATENCY_NOTE)))
		lab_doc_note(sec, "%s", s->note);
	if (s->n_excluded)
		lab_doc_note(sec,
		             "%zu foreign-load-flagged samples excluded (--include-flagged keeps "
		             "them)",
		             s->n_excluded);
	/* The note already says why nothing was fitted; no need to repeat it per model. */
	int fitted = !s->latency && (s->amdahl.ok || s->usl.ok || s->weak || !*s->note);
	if (fitted)
		lab_an_series_fits(sec, s);
	/* after the fits, or alone where there are too few thread counts to fit (a SUPERLINEAR
	 * row is explained at 2 threads too); what is said for context only beside the fits */
	for (size_t i = 0; i < s->nfinding; i++)
		if (!s->finding_info[i] || fitted)
			lab_doc_finding(sec, s->finding_info[i] ? LAB_DOC_INFO : LAB_DOC_WARN, NULL,
			                "%s", s->finding[i]);
	if (!s->latency && st->figures) /* the document is data_elsewhere: only plots show them */
		lab_an_series_figures(sec, s);
}

static int an_series_describe(const struct lab_an_view *v, const void *state, struct lab_doc *doc)
{
	const struct an_series_state *st = state;
	size_t few = 0;

	(void)v;
	doc->title = "scaling";
	doc->data_elsewhere = 1; /* analysis.json's "series" and summary.csv hold it all */
	lab_doc_about(doc,
	              "Per experiment and params: the cost per unit of work at each thread count "
	              "(median, and the mean with its 95 % t-interval), the speedup over one "
	              "thread with its 95 % Fieller interval, the efficiency S/N, the Karp-Flatt "
	              "serial fraction e(N), and the Amdahl, USL and Gustafson fits with their "
	              "intervals.",
	              NULL);
	for (size_t i = 0; i < st->n; i++) {
		an_series_section(doc, st, st->s[i],
		                  !i || strcmp(st->s[i - 1]->experiment, st->s[i]->experiment));
		few += an_few_counts(st->s[i]);
	}
	if (few)
		doc->note =
		    lab_doc_printf(doc,
		                   "no fit in %zu series: they have fewer distinct thread counts "
		                   "than a fit needs (Amdahl 4, USL 5); sweep more threads, on "
		                   "more CPUs",
		                   few);
	return lab_doc_failed(doc) ? -LAB_ENOMEM : 0;
}

const struct lab_an_view lab_an_view_series = {
    .name = "series",
    .follows_any_run = 1,
    .applies = an_series_applies,
    .compute = an_series_compute,
    .free = an_series_free,
    .describe = an_series_describe,
};
