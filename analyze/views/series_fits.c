/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The scaling series' fits as notes and findings, and its figures (series.h). */
#include <math.h>
#include <string.h>

#include "analyze/views/series.h"

/* Points on each fitted curve: log-spaced from 1 to 1.5x the largest thread count. */
#define AN_SERIES_GRID 24

/* The lack-of-fit test of one model, when there are replicates. */
static void an_series_lof(struct lab_doc_section *sec, const char *model,
                          const struct lab_an_fit *fit)
{
	char f[64];

	if (fit->ok && fit->lof.ok)
		lab_doc_note(sec, "%s lack of fit: %s (%.0f, %.0f df), p = %.3g", model,
		             lab_an_lof_f_text(&fit->lof, f, sizeof(f)), fit->lof.df1, fit->lof.df2,
		             fit->lof.p);
}

/* Said of a fraction's estimate past a bound whose interval, kept inside [0, 1], reaches it. */
static const char *an_series_past(double x)
{
	return x < 0   ? " (the estimate is below 0 within its noise)"
	       : x > 1 ? " (the estimate is above 1 within its noise)"
	               : "";
}

/* 1 when a speedup of s used run means: some points kept runs, though the fits may not. */
static int an_series_some_runs(const struct lab_an_series *s)
{
	for (size_t j = 0; j < s->nrow; j++) {
		const char *lv = s->row[j].has_speedup ? s->row[j].speedup_level : NULL;
		if (lv && strcmp(lv, "samples"))
			return 1;
	}
	return 0;
}

void lab_an_series_fits(struct lab_doc_section *sec, const struct lab_an_series *s)
{
	const struct lab_an_fit *a = &s->amdahl, *u = &s->usl, *g = &s->gustafson;
	char text[256];

	lab_doc_note(sec, "fit: %s",
	             lab_an_objective_text(s->objective, s->domain, text, sizeof(text)));
	/* on run means the run-to-run noise is in the pure error already: what is left over is
	 * the curve's */
	int runs = s->fit_level && !strcmp(s->fit_level, "runs");
	if ((a->ok && a->by_means) || (u->ok && u->by_means))
		lab_doc_note(
		    sec,
		    "intervals of %s: from the scatter of the points' means (lack of fit: "
		    "%s)",
		    u->ok && u->by_means ? (a->ok && a->by_means ? "both models" : "USL")
		                         : "Amdahl",
		    runs ? "the curve misses the means by more than their runs scatter"
		    : an_series_some_runs(s)
		        ? "the curve misses the means, or each point carries noise of its "
		          "own; the fits are on samples, as not every point kept 2 runs or "
		          "more, so its runs cannot tell which"
		        : "the curve misses the means, or each point carries noise of its "
		          "own; runs = 3 or more tell which");
	if (a->ok && isnan(a->lo[1]))
		lab_doc_note(sec,
		             "Amdahl   f = %.4g, outside [0, 1] beyond its noise: no interval  "
		             "(%s)",
		             a->x[1], lab_an_amdahl_bound_text(s, text, sizeof(text)));
	else if (a->ok)
		lab_doc_note(sec, "Amdahl   f = %.4g [%.4g, %.4g]%s  (%s)", a->x[1], a->lo[1],
		             a->hi[1], an_series_past(a->x[1]),
		             lab_an_amdahl_bound_text(s, text, sizeof(text)));
	else
		lab_doc_note(sec, "Amdahl   no fit: %s", a->reason);
	an_series_lof(sec, "Amdahl", a);
	if (u->ok && s->peak.retrograde)
		lab_doc_note(sec,
		             "USL      sigma = %.4g [%.4g, %.4g]  kappa = %.4g [%.4g, %.4g]; peak "
		             "N* = %.1f [%.1f, %.1f]",
		             u->x[1], u->lo[1], u->hi[1], u->x[2], u->lo[2], u->hi[2],
		             s->peak.n_star, s->peak.lo, s->peak.hi);
	else if (u->ok)
		lab_doc_note(sec,
		             "USL      sigma = %.4g [%.4g, %.4g]  kappa = %.4g [%.4g, %.4g]; %s",
		             u->x[1], u->lo[1], u->hi[1], u->x[2], u->lo[2], u->hi[2],
		             s->peak.no_peak ? "no peak past N = 1 (sigma + kappa >= 1: a second "
		                               "thread adds no throughput)"
		             : u->hi[2] < 0  ? "kappa < 0 beyond its noise: no retrograde region, "
		                               "and no model of contention"
		                             : "no retrograde region (kappa not significantly > "
		                               "0)");
	else
		lab_doc_note(sec, "USL      no fit: %s", u->reason);
	an_series_lof(sec, "USL", u);
	if (s->weak && g->ok && isnan(g->lo[1]))
		lab_doc_note(
		    sec,
		    "Gustafson s = %.4g, outside [0, 1] beyond its noise: no interval (the "
		    "model does not describe this series)",
		    g->x[1]);
	else if (s->weak && g->ok)
		lab_doc_note(sec, "Gustafson s = %.4g [%.4g, %.4g]%s", g->x[1], g->lo[1], g->hi[1],
		             an_series_past(g->x[1]));
	else if (s->weak)
		lab_doc_note(sec, "Gustafson no fit: %s", g->reason);
	if (a->ok && u->ok) {
		/* the F-test decides; where AICc (lower is better) would pick the other, say so */
		const char *aicc = s->choice.aicc_amdahl < s->choice.aicc_usl ? "amdahl" : "usl";
		int differ = isfinite(s->choice.aicc_amdahl) && isfinite(s->choice.aicc_usl) &&
		             s->choice.aicc_amdahl != s->choice.aicc_usl &&
		             (!strcmp(s->model, "amdahl") || !strcmp(s->model, "usl")) &&
		             strcmp(aicc, s->model);
		lab_doc_note(sec, "model: %s (F-test p = %.3g; AICc Amdahl %.1f, USL %.1f%s)",
		             s->model, s->choice.p_value, s->choice.aicc_amdahl, s->choice.aicc_usl,
		             !differ                   ? ""
		             : !strcmp(aicc, "amdahl") ? ": AICc prefers Amdahl; the F-test decides"
		                                       : ": AICc prefers USL; the F-test decides");
	} else
		lab_doc_note(sec, "model: %s", s->model);
}

/* The thread counts with a speedup (rows ascend in threads), and the largest count. */
static size_t an_series_counts(const struct lab_an_series *s, int *maxn)
{
	size_t counts = 0;

	*maxn = 1;
	for (size_t i = 0; i < s->nrow; i++) {
		int has = s->row[i].has_speedup && isfinite(s->row[i].speedup.est);

		counts += has && (i == 0 || s->row[i].pt->threads != s->row[i - 1].pt->threads);
		if (s->row[i].pt->threads > *maxn)
			*maxn = s->row[i].pt->threads;
	}
	return counts;
}

/* A fitted model's speedup with its 95 % band, on the grid. */
static void an_series_model(struct lab_doc_figure *f, const char *label,
                            const struct lab_an_fit *fit, int maxn, int color, int dash)
{
	double top = log2(fmax(2, 1.5 * maxn));
	struct lab_doc_curve *c;

	if (!fit->ok || !(c = lab_doc_curve(f, label, LAB_DOC_LINES)))
		return;
	c->color = color;
	c->dash = dash;
	for (int k = 0; k <= AN_SERIES_GRID; k++) {
		double n = exp2(top * k / AN_SERIES_GRID), v = NAN, lo = NAN, hi = NAN;

		lab_an_fit_speedup(fit, n, &v, &lo, &hi);
		lab_doc_point(c, n, v, lo, hi);
	}
}

/* A measured metric per thread count with its interval (a point without one: none). */
static void an_series_measured(struct lab_doc_curve *c, const struct lab_an_series *s, int which)
{
	for (size_t i = 0; c && i < s->nrow; i++) {
		const struct lab_an_row *r = &s->row[i];
		int h = r->has_speedup && r->pt->st.n,
		    ci = h && r->speedup.has_ci && !r->speedup.unbounded;
		double x = r->pt->threads;

		if (which == 0 && h)
			lab_doc_point(c, x, r->speedup.est, ci ? r->speedup.lo : NAN,
			              ci ? r->speedup.hi : NAN);
		else if (which == 1 && h)
			lab_doc_point(c, x, r->eff, ci ? r->eff_lo : NAN, ci ? r->eff_hi : NAN);
		else if (which == 2 && r->pt->st.n)
			lab_doc_point(c, x, r->kf, ci ? r->kf_lo : NAN, ci ? r->kf_hi : NAN);
	}
}

/* The figure's plot files say what they draw first (a long params string is cut after it), and
 * its subtitle the params. */
static void an_series_name(struct lab_doc_figure *f, const struct lab_an_series *s,
                           const char *kind)
{
	f->name = lab_doc_printf(f->doc, "%s-%s", kind, *s->params ? s->params : "");
	f->sub = *s->params ? lab_doc_printf(f->doc, "%s", s->params) : NULL;
}

static void an_series_speedup(struct lab_doc_section *sec, const struct lab_an_series *s, int maxn)
{
	struct lab_doc *doc = sec->doc;
	struct lab_doc_figure *f =
	    lab_doc_figure(sec, "speedup", lab_doc_printf(doc, "%s: speedup", s->experiment),
	                   "threads", "speedup (cost per unit, 95% CI)");
	struct lab_doc_curve *c;

	if (!f)
		return;
	an_series_name(f, s, "speedup");
	f->logx = f->logy = 2;
	if ((c = lab_doc_curve(f, "ideal", LAB_DOC_ROOF))) {
		c->a = NAN; /* y = x */
		c->b = 1;
		c->dash = 2;
	}
	an_series_model(f, "USL (95% band)", &s->usl, maxn, 0, 0);
	an_series_model(f, "Amdahl (95% band)", &s->amdahl, maxn, 1, 1);
	if (s->weak)
		an_series_model(f, "Gustafson (95% band)", &s->gustafson, maxn, 2, 3);
	if ((c = lab_doc_curve(f, "measured", LAB_DOC_POINTS)))
		c->color = 7;
	an_series_measured(c, s, 0);
	if (s->usl.ok && s->peak.retrograde && isfinite(s->peak.n_star))
		lab_doc_flabel(f, s->peak.n_star, s->peak.n_star > 1 ? 1 : s->peak.n_star,
		               lab_doc_printf(doc, "N* = %.1f", s->peak.n_star));
}

static void an_series_efficiency(struct lab_doc_section *sec, const struct lab_an_series *s)
{
	struct lab_doc_figure *f = lab_doc_figure(
	    sec, "efficiency", lab_doc_printf(sec->doc, "%s: efficiency", s->experiment), "threads",
	    "efficiency S/N (95% CI)");
	struct lab_doc_curve *c;

	if (!f)
		return;
	an_series_name(f, s, "efficiency");
	f->logx = 2;
	if ((c = lab_doc_curve(f, "ideal", LAB_DOC_ROOF))) {
		c->a = 1; /* y = 1 */
		c->b = NAN;
		c->dash = 2;
	}
	if ((c = lab_doc_curve(f, "E(N)", LAB_DOC_LINES)))
		c->color = 7;
	an_series_measured(c, s, 1);
}

static void an_series_karpflatt(struct lab_doc_section *sec, const struct lab_an_series *s,
                                int maxn)
{
	struct lab_doc_figure *f = lab_doc_figure(
	    sec, "karpflatt",
	    lab_doc_printf(sec->doc, "%s: Karp-Flatt serial fraction", s->experiment), "threads",
	    "e(N) (95% CI)");
	struct lab_doc_curve *c;

	if (!f)
		return;
	an_series_name(f, s, "karpflatt");
	f->logx = 2;
	if ((c = lab_doc_curve(f, "e(N)", LAB_DOC_POINTS)))
		c->color = 7;
	an_series_measured(c, s, 2);
	if (s->usl.ok && (c = lab_doc_curve(f, "USL: sigma + kappa N", LAB_DOC_LINES)))
		for (int n = 2; n <= maxn; n *= 2)
			lab_doc_point(c, n, s->usl.x[1] + s->usl.x[2] * n, NAN, NAN);
	if (s->amdahl.ok && (c = lab_doc_curve(f, "Amdahl f", LAB_DOC_ROOF))) {
		c->a = s->amdahl.x[1]; /* y = f */
		c->b = NAN;
		c->dash = 1;
	}
}

void lab_an_series_figures(struct lab_doc_section *sec, const struct lab_an_series *s)
{
	int maxn, kf = 0;

	if (an_series_counts(s, &maxn) < LAB_AN_SERIES_MIN_COUNTS)
		return;
	for (size_t i = 0; i < s->nrow; i++)
		kf |= isfinite(s->row[i].kf);
	an_series_speedup(sec, s, maxn);
	an_series_efficiency(sec, s);
	if (kf)
		an_series_karpflatt(sec, s, maxn);
}
