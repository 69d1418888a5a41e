/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The document of the curves (curves.h): per group, a table of the entries and its figures. */
#include <math.h>
#include <string.h>

#include "analyze/flagged.h"
#include "analyze/levels.h"
#include "analyze/levels_out.h"
#include "analyze/modes.h"
#include "analyze/render/doc.h"
#include "analyze/units.h"
#include "analyze/views/curves.h"
#include "analyze/views/view.h"

/* Why entry e has no numbers at all (not run, no samples, every sample left out), NULL when a
 * column has some. */
static const char *an_row_why(struct lab_doc *doc, const struct lab_an_cv_spec *s,
                              const struct lab_an_cv_pt *e)
{
	char buf[LAB_ERR_MSG_MAX + 64];

	for (size_t k = 0; k < s->ncol; k++)
		if (e->v[k].n)
			return NULL;
	if (strcmp(e->pt->status, "ok") || lab_an_flagged_all(e->pt) || !e->pt->n)
		return lab_doc_printf(doc, "%s", lab_an_missing_why(e->pt, buf, sizeof(buf)));
	/* a column empty for another reason (no baseline, no metric) says so itself */
	return e->pt->n_flagged > 0 ? "no used samples (load-flagged; --include-flagged keeps them)"
	                            : NULL;
}

static double an_scale(const struct lab_an_cv_col *col)
{
	return col->scale ? col->scale : 1;
}

/* The cost modes of a point: their count, and when there are several their centers (ns per
 * work unit) and weights. */
static void an_modes(struct lab_doc *doc, struct lab_doc_cell *c, const struct lab_an_modes *mo)
{
	char at[LAB_ERR_MSG_MAX], w[128];

	if (mo->count)
		lab_doc_num(c, (double)mo->count);
	if (mo->count > 1)
		lab_doc_cnote(doc, c, "%s at %s ns, weights %s",
		              lab_an_modes_multi(mo) ? "MULTIMODAL" : "close modes",
		              lab_an_modes_list(mo, 0, 1, at, sizeof(at)),
		              lab_an_modes_list(mo, 1, 1, w, sizeof(w)));
}

/* Column k of entry e into c; none: the group has no value in the column (its section says
 * so once). */
static void an_cell(struct lab_doc *doc, const struct lab_an_cv_spec *s, size_t k,
                    struct lab_doc_cell *c, const struct lab_an_cv_pt *e, int none)
{
	const struct lab_an_cv_val *v = &e->v[k];
	double sc = an_scale(&s->col[k]);
	char why[256];

	if (s->col[k].src == LAB_AN_CV_N)
		lab_doc_num(c, (double)e->pt->st.n);
	else if (s->col[k].src == LAB_AN_CV_MODES)
		an_modes(doc, c, &e->pt->modes);
	else if (s->col[k].src == LAB_AN_CV_POINT)
		lab_doc_num(c, (double)e->pt->id);
	else if (v->nobase && v->base)
		lab_doc_why(doc, c, "the %s=%s point at these params (point %ld): %s", s->curve[0],
		            s->base, v->base->id, lab_an_missing_why(v->base, why, sizeof(why)));
	else if (v->nobase)
		lab_doc_why(doc, c, "no %s=%s point at these params", s->curve[0], s->base);
	/* a mean at or below 0: below what the clock resolves, or noise that a few preempted
	 * reference loops made (a mean of -158 ns over differences of median +7.8 ns) */
	else if (v->below_res == 2 && isfinite(v->hi)) /* its unit and what bound (newcomer44) */
		lab_doc_why(
		    doc, c,
		    "not measurable (mean <= 0: below resolution or noise; the 95 %% interval "
		    "ends at %.4g%s%s)",
		    v->hi * sc, s->col[k].unit && !s->col[k].cost_unit ? " " : "",
		    s->col[k].unit && !s->col[k].cost_unit ? s->col[k].unit : "");
	else if (v->below_res == 2)
		lab_doc_why(doc, c, "not measurable (mean <= 0: below resolution or noise)");
	else if (v->n)
		lab_doc_ival(c, v->median * sc, v->mean * sc, v->below_res ? 0 : v->lo * sc,
		             v->hi * sc, v->n);
	/* samples used, none with this column where others have it (it was "-" without a word,
	 * hostile40) */
	else if (s->col[k].src == LAB_AN_CV_METRIC && e->pt->st.n && !none)
		lab_doc_why(doc, c, "no %s in its samples' rows", s->col[k].key);
	if (v->one_run && v->n)
		lab_doc_cnote(
		    doc, c,
		    "%sONE SETUP: values in one of the point's %zu kept runs; the interval "
		    "is that run's samples', without the run-to-run spread",
		    v->below_res == 1 ? "not clearly above 0; " : "", e->pt->levels.runs);
	else if (v->below_res == 1)
		/* the interval's lower end was below 0: the mean is not told from 0, whatever its
		 * size (a 2.9 ms overhead of four loaded samples is no value below a resolution) */
		lab_doc_cnote(doc, c, "not clearly above 0");
	else if (v->overflow)
		lab_doc_cnote(doc, c, "no interval: the samples' spread overflows a double");
	else if (v->mixed && v->n && !v->nobase)
		lab_doc_cnote(doc, c,
		              "one side has one run: the other's run-to-run spread is lent to it, "
		              "so this interval is wider than the costs' own");
}

/* The x of an entry as the table shows it: the param's own spelling, or the number read from it
 * (with xunit), or the thread count. */
static const char *an_x(struct lab_doc *doc, const struct lab_an_cv_spec *s,
                        const struct lab_an_cv_pt *e)
{
	char buf[64];

	if (s->x && s->x_ignored && s->x_ignored(e->pt))
		return "-";
	if (s->x && s->xunit && isfinite(e->x))
		return lab_doc_printf(doc, "%.9g", e->x);
	if (s->x && lab_an_params_get(e->pt->params, s->x, buf, sizeof(buf)))
		return lab_doc_printf(doc, "%s", buf);
	return lab_doc_printf(doc, "%d", e->pt->threads);
}

static void an_table_cols(const struct lab_an_cv_spec *s, const struct lab_an_cv_group *g,
                          struct lab_doc_table *t)
{
	for (size_t k = 0; k < (s->curve[1] ? 2u : 1u); k++)
		lab_doc_col(t, s->curve[k], NULL, LAB_DOC_KEY);
	lab_doc_col(t, s->x ? s->x : "threads", s->xunit ? s->xunit : s->xcolunit, LAB_DOC_KEY);
	for (size_t k = 0; k < s->ncol; k++)
		lab_doc_col(t, s->col[k].key, s->col[k].cost_unit ? g->unit : s->col[k].unit,
		            s->col[k].src > LAB_AN_CV_RATE ? LAB_DOC_COUNT : LAB_DOC_INTERVAL);
}

/* The figures of group g into f; returns how many. */
static size_t an_figures(struct lab_doc *doc, struct lab_doc_section *sec,
                         const struct lab_an_cv_spec *s, const struct lab_an_cv_group *g,
                         struct lab_doc_figure **f)
{
	size_t q;

	for (q = 0; q < LAB_AN_CV_MAXFIG && (!q || s->fig[q].key); q++) {
		const struct lab_an_cv_fig *fs = &s->fig[q];
		const struct lab_an_cv_col *col = &s->col[fs->col];
		const char *unit = col->cost_unit ? g->unit : col->unit ? col->unit : "";

		f[q] = lab_doc_figure(
		    sec, fs->key ? fs->key : "curves",
		    lab_doc_printf(doc, "%s: %s", g->experiment, fs->title ? fs->title : s->title),
		    s->xlabel,
		    fs->ylabel ? fs->ylabel
		               : lab_doc_printf(doc, "%s (%s; mean and 95%% CI)", col->key, unit));
		if (f[q]) {
			f[q]->logx = s->logx ? 2 : 0;
			f[q]->xbytes = s->x && lab_an_key_in(lab_an_size_keys, s->x, strlen(s->x));
			f[q]->dodge = 1;
			f[q]->logy = fs->logy ? 10 : 0;
			f[q]->ymin = fs->ymin;
			f[q]->ymax = fs->ymax;
		}
	}
	return q;
}

/* What a figure's legend says of entry e with no number (why: an_row_why's). */
static const char *an_gap_why(const struct lab_an_cv_pt *e, const char *why)
{
	return !why                                                 ? "no value, see the table"
	       : lab_an_flagged_all(e->pt)                          ? "load-flagged"
	       : e->pt->status && !strcmp(e->pt->status, "skipped") ? "skipped"
	       : e->pt->status && !strcmp(e->pt->status, "failed")  ? "failed"
	                                                            : "not run";
}

/* Entry e on curve dc of figure q: its point, or where it has no numbers (why) a gap. */
static void an_plot(struct lab_doc *doc, const struct lab_an_cv_spec *s, size_t q,
                    struct lab_doc_curve *dc, const struct lab_an_cv_pt *e, const char *why)
{
	const struct lab_an_cv_fig *fs = &s->fig[q];
	const struct lab_an_cv_val *v = &e->v[fs->col];
	double sc = an_scale(&s->col[fs->col]);

	if (e->pt->threads < fs->min_threads)
		return;
	/* an x that reads as no number (accumulators=abc in a hand-edited file) has no place on
	 * the axis: named, not left out without a word (review40) */
	if (s->x && !isfinite(e->x) && !(s->x_ignored && s->x_ignored(e->pt)))
		lab_doc_gap(dc, an_x(doc, s, e), "no number on this axis, see the table");
	else if (s->logx && !(e->x > 0) && isfinite(e->x)) /* 0 has no place on a log axis */
		lab_doc_gap(dc, an_x(doc, s, e), "not above 0, no place on a log axis");
	/* on a log axis a lower end <= 0 is not drawn */
	else if (v->n && isfinite(v->mean))
		lab_doc_point(dc, e->x, v->mean * sc, fs->logy && !(v->lo > 0) ? NAN : v->lo * sc,
		              v->hi * sc);
	else if (isfinite(e->x)) /* every gap named (a row of other numbers left one silently) */
		lab_doc_gap(dc, an_x(doc, s, e), an_gap_why(e, why));
}

/* 1 when no entry of c has an x (every point of schedule(static), which takes no chunk). */
static int an_no_x(const struct lab_an_cv_spec *s, const struct lab_an_cv_curve *c)
{
	if (!s->x || !s->x_ignored || !c->npt)
		return 0;
	for (size_t k = 0; k < c->npt; k++) {
		lab_an_view_probe(); /* the scale test's count: once a curve, not once a point */
		if (!s->x_ignored(c->pt[k].pt))
			return 0;
	}
	return 1;
}

/* The x that g's entries span (x0 > x1: none has one). */
static void an_xspan(const struct lab_an_cv_spec *s, const struct lab_an_cv_group *g, double *x0,
                     double *x1)
{
	*x0 = INFINITY;
	*x1 = -INFINITY;
	/* on a log axis only x > 0 (a span from 0 drew the flat line as one point, hostile42) */
	for (size_t j = 0; j < g->nc; j++)
		for (size_t k = 0; k < g->c[j].npt; k++)
			if (isfinite(g->c[j].pt[k].x) && (!s->logx || g->c[j].pt[k].x > 0)) {
				*x0 = fmin(*x0, g->c[j].pt[k].x);
				*x1 = fmax(*x1, g->c[j].pt[k].x);
			}
}

/* Curve c, whose entries take no x, on dc of figure q: its one value drawn flat across the x
 * the other curves span (x0..x1), its interval in its legend, a line to read the others
 * against (schedule(static) was in no figure of the chunked schedules, plots38); where it has
 * no value, or several, the legend says so. */
static void an_plot_flat(struct lab_doc *doc, const struct lab_an_cv_spec *s, size_t q,
                         struct lab_doc_curve *dc, const struct lab_an_cv_curve *c, double x0,
                         double x1)
{
	const struct lab_an_cv_pt *one = NULL;
	size_t nv = 0;

	for (size_t k = 0; k < c->npt; k++)
		if (c->pt[k].v[s->fig[q].col].n && isfinite(c->pt[k].v[s->fig[q].col].mean)) {
			one = &c->pt[k];
			nv++;
		}
	if (nv != 1 || !(x0 <= x1)) {
		lab_doc_gap(dc, "-",
		            nv > 1   ? "several points without an x, see the table"
		            : nv     ? "no other curve to draw it against, see the table"
		            : c->npt ? an_gap_why(&c->pt[0], an_row_why(doc, s, &c->pt[0]))
		                     : "not run");
		return;
	}
	const struct lab_an_cv_val *v = &one->v[s->fig[q].col];
	double sc = an_scale(&s->col[s->fig[q].col]);

	/* one x in all: a point with its interval, as the others (drawn as bars, review42) */
	if (x0 == x1) {
		struct lab_an_cv_pt e = *one;

		e.x = x0;
		dc->label = lab_doc_printf(doc, "%s (takes no %s)", c->label, s->x);
		an_plot(doc, s, q, dc, &e, NULL);
		return;
	}
	/* a line without bars, its interval in the legend: bars at both ends read as two
	 * measurements at the first and last chunk (review41) */
	dc->label = isfinite(v->lo) && isfinite(v->hi)
	                ? lab_doc_printf(doc, "%s (takes no %s: drawn flat; 95%% CI %.4g .. %.4g)",
	                                 c->label, s->x, v->lo * sc, v->hi * sc)
	                : lab_doc_printf(doc, "%s (takes no %s: drawn flat)", c->label, s->x);
	for (int end = 0; end < 2; end++)
		lab_doc_point(dc, end ? x1 : x0, v->mean * sc, NAN, NAN);
}

/* first, then note after "; " (note may be NULL), in doc's memory. */
static const char *an_note_before(struct lab_doc *doc, const char *first, const char *note)
{
	return note ? lab_doc_printf(doc, "%s; %s", first, note) : lab_doc_printf(doc, "%s", first);
}

static void an_row(struct lab_doc *doc, const struct lab_an_cv_spec *s, struct lab_doc_table *t,
                   const struct lab_an_cv_curve *c, const struct lab_an_cv_pt *e, const char *why,
                   unsigned none)
{
	size_t nkey = s->curve[1] ? 2 : 1;
	const char *note = s->rnote ? s->rnote(doc, e) : NULL;
	char one[256];

	/* its interval is one run's: nothing in it of the setup-to-setup spread; or its setups
	 * fell apart (what the guest cannot see: the host's other vCPUs on its cores) */
	if (lab_an_one_setup_flag(e->pt, one, sizeof(one)) ||
	    lab_an_runs_apart_flag(e->pt, NULL, one, sizeof(one)))
		note = an_note_before(doc, one, note);
	/* samples the load guard left out, or kept: a number a busy machine may have moved (a
	 * row without numbers says why instead) */
	if (!why && lab_an_flagged_mark(e->pt, one, sizeof(one)))
		note = an_note_before(doc, one, note);

	lab_doc_row(t);
	for (size_t q = 0; q < nkey; q++)
		if (*c->key[q]) /* else "-", null: a key that does not apply there */
			lab_doc_str(doc, lab_doc_at(t, q), c->key[q]);
	if (!s->x || !s->x_ignored || !s->x_ignored(e->pt)) /* else "-", null */
		lab_doc_str(doc, lab_doc_at(t, nkey), an_x(doc, s, e));
	for (size_t q = 0; q < s->ncol; q++)
		an_cell(doc, s, q, lab_doc_at(t, nkey + 1 + q), e, (none >> q) & 1);
	if (why)
		lab_doc_rwhy(t, "%s", why);
	if (note)
		lab_doc_rnote(t, "%s", note);
}

/* Each point's precision target as the series say it (lab_an_precision_line): what was asked,
 * what the interval in the table reached, from how many samples and runs. */
static void an_group_precision(struct lab_doc *doc, const struct lab_an_cv_spec *s,
                               const struct lab_an_cv_group *g, struct lab_doc_section *sec)
{
	char buf[320];

	for (size_t j = 0; j < g->nc; j++)
		for (size_t k = 0; k < g->c[j].npt; k++) {
			const struct lab_an_cv_pt *e = &g->c[j].pt[k];
			if (e->pt && lab_an_precision_line(e->pt, buf, sizeof(buf)))
				lab_doc_note(sec, "%s, %s %s: %s", g->c[j].label,
				             s->xlabel ? s->xlabel : "x", an_x(doc, s, e), buf);
		}
}

/* The metric columns (bit k: column k) in which no entry of g has a value, and of those the
 * ones where some entry used samples (*said: the section says so once, not every row: an
 * older run's files without the column, review40). */
static unsigned an_none(const struct lab_an_cv_spec *s, const struct lab_an_cv_group *g,
                        unsigned *said)
{
	unsigned none = 0;

	*said = 0;
	for (size_t k = 0; k < s->ncol; k++) {
		int any = 0, used = 0;

		for (size_t j = 0; j < g->nc && !any; j++)
			for (size_t q = 0; q < g->c[j].npt && !any; q++) {
				any = g->c[j].pt[q].v[k].n > 0;
				used |= g->c[j].pt[q].pt->st.n > 0;
			}
		if (s->col[k].src == LAB_AN_CV_METRIC && !any) {
			none |= 1u << k;
			*said |= (unsigned)used << k;
		}
	}
	return none;
}

/* Figures whose points hold load-flagged samples (--include-flagged) say so under their title:
 * a PNG copied into slides looked like clean data (plots40). */
static void an_flagged_sub(const struct lab_an_cv_group *g, struct lab_doc_figure **f, size_t nf)
{
	size_t kept = 0;

	for (size_t j = 0; j < g->nc; j++)
		for (size_t k = 0; k < g->c[j].npt; k++)
			kept += lab_an_flagged_kept(g->c[j].pt[k].pt) > 0;
	for (size_t q = 0; q < nf; q++)
		lab_doc_flagged(f[q], kept);
}

/* The placement every point of c ran the CPUs of (lab_an_point.same_cpus_as), NULL: not all
 * (on 2 CPUs compact, cores and scatter ran on CPUs 0,1: three curves apart by noise read as a
 * placement effect, newcomer44). */
static const char *an_curve_as(const struct lab_an_cv_curve *c)
{
	const char *as = c->npt ? c->pt[0].pt->same_cpus_as : NULL;

	for (size_t k = 1; as && k < c->npt; k++)
		if (!c->pt[k].pt->same_cpus_as || strcmp(c->pt[k].pt->same_cpus_as, as))
			return NULL;
	return as;
}

/* The group's points that ran on another placement's CPUs: a note for each placement (four at
 * most), and where all of them did, their figures say so under the title. */
static void an_same_cpus(struct lab_doc *doc, const struct lab_an_cv_group *g,
                         struct lab_doc_section *sec, struct lab_doc_figure **f, size_t nf)
{
	const char *said[4], *first = g->nc && g->c[0].npt ? g->c[0].pt[0].pt->same_cpus_as : NULL;
	size_t ns = 0, all = first != NULL, more = 0;
	char pl[128];

	for (size_t j = 0; j < g->nc; j++)
		for (size_t k = 0; k < g->c[j].npt; k++) {
			const struct lab_an_point *p = g->c[j].pt[k].pt;
			size_t i = 0;

			all &= p->same_cpus_as && first && !strcmp(p->same_cpus_as, first);
			if (!p->same_cpus_as ||
			    !lab_an_params_get(p->params, "placement", pl, sizeof(pl)))
				continue;
			/* each placement and thread count once (the first alone hid threads=2
			 * behind threads=1, review44) */
			char key[160];

			snprintf(key, sizeof(key), "%s@%d", pl, p->threads);
			while (i < ns && strcmp(said[i], key))
				i++;
			more += i == ns && ns == 4; /* counted, not named (hostile45) */
			if (i < ns || ns == 4 || !(said[ns] = lab_doc_printf(doc, "%s", key)))
				continue;
			ns++;
			lab_doc_note(
			    sec,
			    "placement=%s ran on the same CPUs as placement=%s (threads %d): "
			    "this machine cannot tell them apart, so their numbers measure the "
			    "same thing, not a placement effect",
			    pl, p->same_cpus_as, p->threads);
		}
	if (more)
		lab_doc_note(sec,
		             "%zu more point%s ran on the same CPUs as another placement's (not "
		             "named here)",
		             more, more == 1 ? "" : "s");
	for (size_t q = 0; all && q < nf; q++)
		if (f[q])
			f[q]->sub =
			    lab_doc_printf(doc, "on the CPUs of placement=%s%s%s", first,
			                   f[q]->sub ? "; " : "", f[q]->sub ? f[q]->sub : "");
}

/* The levels note of g where every point with samples ran one setup and planned no more: a
 * chapter view printed tight intervals on setup-to-setup noise without a word (ch29's scan at 1
 * thread read 0.79 [0.789, 0.798] of serial, then 1.499 [1.32, 1.573], teach46); the series
 * tables said it. */
static void an_one_setup(const struct lab_an_cv_group *g, struct lab_doc_section *sec)
{
	int any = 0;

	for (size_t j = 0; j < g->nc; j++)
		for (size_t k = 0; k < g->c[j].npt; k++) {
			int one = lab_an_point_single_setup(g->c[j].pt[k].pt);

			if (one < 0 || (!one && g->c[j].pt[k].pt->st.n))
				return;
			any |= one;
		}
	if (any)
		lab_doc_note(sec, LAB_AN_ONE_SETUP_NOTE);
}

static void an_group_doc(struct lab_doc *doc, const struct lab_an_cv_spec *s,
                         const struct lab_an_cv_group *g)
{
	struct lab_doc_section *sec = lab_doc_section(doc, g->experiment, g->params);
	struct lab_doc_table *t = lab_doc_table(sec, "points", NULL);
	struct lab_doc_figure *f[LAB_AN_CV_MAXFIG];
	size_t nf = an_figures(doc, sec, s, g, f);
	double x0, x1;
	unsigned said, none = an_none(s, g, &said);

	an_xspan(s, g, &x0, &x1);
	an_table_cols(s, g, t);
	/* a second curve key of one value in the whole group (team=openmp on all 11 curves) is
	 * said once, after the conditions, not in every legend entry (plots40) */
	int one1 = s->curve[1] && g->nc > 0;

	for (size_t j = 1; one1 && j < g->nc; j++)
		one1 = !strcmp(g->c[j].key[1], g->c[0].key[1]);
	/* (none of them has it, curve1_some: nothing to say) */
	for (size_t q = 0; one1 && *g->c[0].key[1] && q < nf; q++)
		if (f[q])
			f[q]->sub = lab_doc_printf(doc, "%s%s%s=%s", g->params ? g->params : "",
			                           g->params && *g->params ? ";" : "", s->curve[1],
			                           g->c[0].key[1]);
	for (size_t j = 0; j < g->nc; j++) {
		const struct lab_an_cv_curve *c = &g->c[j];
		struct lab_doc_curve *dc[LAB_AN_CV_MAXFIG];
		const char *as = an_curve_as(c),
		           *label = one1 ? lab_doc_printf(doc, "%.*s", (int)c->lab0, c->label)
		                         : c->label;

		/* a curve keyed by its placement says whose CPUs it ran on */
		if (as && ((s->curve[0] && !strcmp(s->curve[0], "placement")) ||
		           (s->curve[1] && !strcmp(s->curve[1], "placement") && !one1)))
			label = lab_doc_printf(doc, "%s (same CPUs as %s)", label, as);
		/* one key: 8 colours, then dashes; two: a colour per key[0], a dash per key[1] */
		for (size_t q = 0; q < nf; q++)
			if ((dc[q] = lab_doc_curve(f[q], label, LAB_DOC_LINES))) {
				dc[q]->color = c->style[0];
				dc[q]->dash = s->curve[1] ? c->style[1] : c->style[0] / 8;
			}
		int nox = an_no_x(s, c); /* once a curve (per point: quadratic, review40) */

		for (size_t k = 0; k < c->npt; k++) {
			const char *why = an_row_why(doc, s, &c->pt[k]);

			an_row(doc, s, t, c, &c->pt[k], why, none);
			for (size_t q = 0; q < nf && !nox; q++)
				an_plot(doc, s, q, dc[q], &c->pt[k], why);
		}
		for (size_t q = 0; q < nf && nox; q++)
			if (dc[q])
				an_plot_flat(doc, s, q, dc[q], c, x0, x1);
	}
	for (size_t k = 0; k < s->ncol; k++)
		if ((said >> k) & 1)
			lab_doc_note(sec, "no %s in these points' samples' rows", s->col[k].key);
	an_flagged_sub(g, f, nf);
	an_same_cpus(doc, g, sec, f, nf);
	an_group_precision(doc, s, g, sec);
	an_one_setup(g, sec);
}

int lab_an_cv_describe(const struct lab_an_view *view, const void *state, struct lab_doc *doc)
{
	const struct lab_an_cv *v = state;
	const struct lab_an_cv_spec *s = view->spec;
	int speedup = 0;

	for (size_t c = 0; c < s->ncol; c++)
		speedup |= s->col[c].src == LAB_AN_CV_SPEEDUP;
	doc->title = s->title;
	lab_doc_about(doc,
	              s->about_own ? s->about
	                           : lab_doc_printf(doc,
	                                            "%s Per column: the median over the used "
	                                            "samples, and their mean with its 95 %% "
	                                            "t-interval (over the run means for a point "
	                                            "of two or more runs)%s.",
	                                            s->about,
	                                            speedup ? " (a speedup: the ratio of mean "
	                                                      "costs with its Fieller interval)"
	                                                    : ""),
	              s->note);
	for (size_t i = 0; i < v->ng; i++)
		an_group_doc(doc, v->g[i].spec ? v->g[i].spec : s, &v->g[i]);
	return lab_doc_failed(doc) ? -LAB_ENOMEM : 0;
}
