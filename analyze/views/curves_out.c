/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The text tables and the report section of the curves (curves.h). */
#include <math.h>
#include <string.h>

#include "analyze/report_int.h"
#include "analyze/views/curves.h"

/* The x of an entry as the table shows it: the param's own spelling, or the thread count. */
static const char *an_x(const struct lab_an_cv_spec *s, const struct lab_an_cv_pt *e, char *buf,
                        size_t len)
{
	if (s->x && s->x_ignored && s->x_ignored(e->pt))
		snprintf(buf, len, "-");
	else if (!s->x || !lab_an_params_get(e->pt->params, s->x, buf, len))
		snprintf(buf, len, "%d", e->pt->threads);
	return buf;
}

/* 1 when e's point has samples and every one was left out (load-flagged): no column has a
 * value. A column empty for another reason (no baseline, a metric not recorded) says so itself. */
static int an_left_out(const struct lab_an_cv_spec *s, const struct lab_an_cv_pt *e)
{
	for (size_t k = 0; k < s->ncol; k++)
		if (e->v[k].n)
			return 0;
	return e->pt->n > 0 && e->pt->n_flagged > 0;
}

static void an_text_row(FILE *f, const struct lab_an_cv_spec *s, const struct lab_an_cv_curve *c,
                        const struct lab_an_cv_pt *e)
{
	char buf[128], x[64];

	fprintf(f, "%-28.28s %8.8s", c->label, an_x(s, e, x, sizeof(x)));
	if (strcmp(e->pt->status, "ok")) {
		fprintf(f, "  %s%s%s\n", e->pt->status, e->pt->reason ? ": " : "",
		        e->pt->reason ? e->pt->reason : "");
		return;
	}
	if (an_left_out(s, e)) {
		fputs("  no used samples (load-flagged; --include-flagged keeps them)\n", f);
		return;
	}
	for (size_t k = 0; k < s->ncol; k++) {
		const struct lab_an_cv_val *v = &e->v[k];

		if (v->nobase)
			snprintf(buf, sizeof(buf), "no %s=%s point at these params", s->curve[0],
			         s->base);
		else if (v->below_res == 2 && isfinite(v->hi))
			snprintf(buf, sizeof(buf), "not measurable (< %.4g, below resolution)",
			         v->hi);
		else if (v->below_res == 2)
			snprintf(buf, sizeof(buf), "not measurable (below resolution)");
		else if (v->below_res)
			snprintf(buf, sizeof(buf), "%.4g | %.4g [0, %.4g] below resolution",
			         v->median, v->mean, v->hi);
		else if (v->n && !isnan(v->lo))
			snprintf(buf, sizeof(buf), "%.4g | %.4g [%.4g, %.4g]", v->median, v->mean,
			         v->lo, v->hi);
		else if (v->n)
			snprintf(buf, sizeof(buf), "%.4g | %.4g [no CI]", v->median, v->mean);
		else
			snprintf(buf, sizeof(buf), "-");
		fprintf(f, "  %-36s", buf);
	}
	fputc('\n', f);
}

void lab_an_cv_text(FILE *f, const void *state)
{
	const struct lab_an_cv *v = state;
	const struct lab_an_cv_spec *s = v->spec;
	char h[96];

	for (size_t i = 0; i < v->ng; i++) {
		const struct lab_an_cv_group *g = &v->g[i];

		fprintf(f, "\n== %s: %s  %s\n", s->title, g->experiment,
		        *g->params ? g->params : "-");
		fprintf(f, "%-28s %8s", s->curve[1] ? "curve" : s->curve[0],
		        s->x ? s->x : "threads");
		for (size_t k = 0; k < s->ncol; k++) {
			snprintf(h, sizeof(h), "%s median | mean [95%% CI]", s->col[k].key);
			fprintf(f, "  %-36s", h);
		}
		fputc('\n', f);
		for (size_t j = 0; j < g->nc; j++)
			for (size_t k = 0; k < g->c[j].npt; k++)
				an_text_row(f, s, &g->c[j], &g->c[j].pt[k]);
	}
	if (v->ng && s->note)
		fprintf(f, "  (%s)\n", s->note);
}

static void an_html_cell(FILE *f, const struct lab_an_cv_spec *s, const struct lab_an_cv_val *v)
{
	if (v->nobase)
		fprintf(f, "<td colspan=\"2\">no <code>%s=%s</code> point at these params</td>",
		        s->curve[0], s->base);
	else if (v->below_res == 2 && isfinite(v->hi))
		fprintf(f, "<td colspan=\"2\">not measurable (&lt; %.4g, below resolution)</td>",
		        v->hi);
	else if (v->below_res == 2)
		fputs("<td colspan=\"2\">not measurable (below resolution)</td>", f);
	else if (v->below_res)
		fprintf(f, "<td>%.4g</td><td>%.4g <small>[0, %.4g] below resolution</small></td>",
		        v->median, v->mean, v->hi);
	else if (v->n && !isnan(v->lo))
		fprintf(f, "<td>%.4g</td><td>%.4g <small>[%.4g, %.4g]</small></td>", v->median,
		        v->mean, v->lo, v->hi);
	else if (v->n)
		fprintf(f, "<td>%.4g</td><td>%.4g <small>[no CI]</small></td>", v->median, v->mean);
	else
		fputs("<td>&ndash;</td><td>&ndash;</td>", f);
}

static void an_html_group(FILE *f, const struct lab_an_cv_spec *s, const struct lab_an_cv_group *g)
{
	char x[64];

	fputs("<h3>", f);
	lab_an_html(f, g->experiment);
	fputs(" <small>", f);
	lab_an_html(f, *g->params ? g->params : "-");
	fprintf(f, "</small></h3>\n<table><tr><th>%s</th><th>%s</th><th>n</th>",
	        s->curve[1] ? "curve" : s->curve[0], s->x ? s->x : "threads");
	for (size_t k = 0; k < s->ncol; k++)
		fprintf(f, "<th>%s median</th><th>%s mean [95%% CI]</th>", s->col[k].key,
		        s->col[k].key);
	fputs("</tr>\n", f);
	for (size_t j = 0; j < g->nc; j++)
		for (size_t k = 0; k < g->c[j].npt; k++) {
			const struct lab_an_cv_pt *e = &g->c[j].pt[k];

			fputs("<tr><td>", f);
			lab_an_html(f, g->c[j].label);
			fputs("</td><td>", f);
			lab_an_html(f, an_x(s, e, x, sizeof(x)));
			fprintf(f, "</td><td>%zu</td>", e->v[s->plot_col].n);
			for (size_t c = 0; c < s->ncol; c++)
				an_html_cell(f, s, &e->v[c]);
			fputs("</tr>\n", f);
		}
	fputs("</table>\n", f);
}

void lab_an_cv_html(FILE *f, const void *state, const struct lab_an_plots *plots, const char *dir)
{
	const struct lab_an_cv *v = state;
	const struct lab_an_cv_spec *s = v->spec;

	if (!v->ng)
		return;
	fprintf(f,
	        "<h2>%s</h2>\n<p>%s Per column: the median over the used samples, and their "
	        "mean with its 95&nbsp;%% t-interval.</p>\n",
	        s->title, s->about);
	for (size_t i = 0; i < v->ng; i++) {
		an_html_group(f, s, &v->g[i]);
		lab_an_report_view_imgs(f, plots, dir, s->view, i);
	}
}
