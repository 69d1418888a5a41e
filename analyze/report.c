/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze/csv.h"
#include "analyze/flagged.h"
#include "analyze/report_int.h"
#include "analyze/views/views.h"
#include "analyze/wfile.h"
#include "harness/record_schema.h"

/* A JSON subtree as nested definition lists (provenance is whatever run.json recorded). */
static void an_html_json(FILE *f, const struct lab_an_json *j)
{
	switch (j->type) {
	case LAB_AN_JSON_NULL:
		fputs("<i>null</i>", f);
		break;
	case LAB_AN_JSON_BOOL:
		fputs(j->num ? "true" : "false", f);
		break;
	case LAB_AN_JSON_NUM:
		fprintf(f, "%.10g", j->num);
		break;
	case LAB_AN_JSON_STR:
		lab_an_html(f, j->str);
		break;
	case LAB_AN_JSON_ARR:
		for (size_t i = 0; i < j->n; i++) {
			fputs(i ? ", " : "", f);
			an_html_json(f, &j->items[i]);
		}
		break;
	case LAB_AN_JSON_OBJ:
		fputs("<dl>", f);
		for (size_t i = 0; i < j->n; i++) {
			fputs("<dt>", f);
			lab_an_html(f, j->keys[i]);
			fputs("</dt><dd>", f);
			an_html_json(f, &j->items[i]);
			fputs("</dd>", f);
		}
		fputs("</dl>", f);
		break;
	}
}

static void an_report_provenance(FILE *f, const struct lab_an_data *d)
{
	static const char *const keys[] = {"status",       "lab",  "started_utc", "finished_utc",
	                                   "command_line", "host", "self_check",  "load_guard"};
	const struct lab_an_json *cfg = lab_an_json_get(d->run, "config");

	fputs("<h2>Provenance</h2>\n", f);
	if (!d->run) {
		fprintf(f, "<p>%s</p>\n",
		        d->external ? "External data (no run.json)."
		                    : "No run.json: provenance unknown.");
		return;
	}
	fputs("<dl class=\"prov\">", f);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const struct lab_an_json *v = lab_an_json_get(d->run, keys[i]);

		if (!v)
			continue;
		fprintf(f, "<dt>%s</dt><dd>", keys[i]);
		an_html_json(f, v);
		fputs("</dd>\n", f);
	}
	fputs("</dl>\n", f);
	if (lab_an_json_str(cfg, "text")) {
		fputs("<details><summary>config as run</summary><pre>", f);
		lab_an_html(f, lab_an_json_str(cfg, "text"));
		fputs("</pre></details>\n", f);
	}
}

/* One line of conditions up front: the machine, the build and the self-check. */
/* The one line on what the load guard left out, above everything else. */
static void an_report_load_line(FILE *f, const struct lab_an_analysis *a)
{
	char line[256];

	if (lab_an_flagged_line(a->data, a->include_flagged, line, sizeof(line))) {
		fputs("<p class=\"warn\"><b>Foreign load:</b> ", f);
		lab_an_html(f, line);
		fputs(".</p>\n", f);
	}
	if (lab_an_asym_line(a->data, line, sizeof(line))) {
		fputs("<p class=\"warn\"><b>Asymmetric CPUs:</b> ", f);
		lab_an_html(f, line);
		fputs(".</p>\n", f);
	}
}

/* Why there are no plot images, when there are none: the real reason, not a guess. */
static void an_report_no_plots(FILE *f, const struct lab_an_plots *plots)
{
	const char *why = NULL;

	if (plots && plots->rendered)
		return;
	if (!plots || !plots->written)
		why = "No plot images: plots were not asked for (--no-plots).";
	else if (!plots->n)
		why = "No plots: nothing to plot (no series or view has a usable point).";
	else if (plots->no_gnuplot)
		why = "No plot images: gnuplot is not installed (apt-get install gnuplot-nox); the "
		      ".dat/.gp files are in plots/.";
	else
		why = "No plot images: gnuplot failed on every plot; see plots/gnuplot.log.";
	fprintf(f, "<p class=\"warn\">%s</p>\n", why);
}

static void an_report_conditions(FILE *f, const struct lab_an_data *d)
{
	const struct lab_an_json *host = lab_an_json_get(d->run, "host");
	const struct lab_an_json *topo = lab_an_json_get(host, "topology");
	const struct lab_an_json *lab = lab_an_json_get(d->run, "lab");
	const struct lab_an_json *sc = lab_an_json_get(d->run, "self_check");
	double spin = lab_an_json_num(sc, "spin_50us_ns", NAN);

	if (!d->run)
		return;
	fputs("<p class=\"cond\">", f);
	lab_an_html(f,
	            lab_an_json_str(host, "cpu_model") ? lab_an_json_str(host, "cpu_model") : "?");
	fputs("; ", f);
	lab_an_html(f, lab_an_json_str(topo, "summary") ? lab_an_json_str(topo, "summary") : "?");
	fputs("; lab ", f);
	lab_an_html(f, lab_an_json_str(lab, "version") ? lab_an_json_str(lab, "version") : "?");
	fputs(" (", f);
	lab_an_html(f, lab_an_json_str(lab, "git_sha") ? lab_an_json_str(lab, "git_sha") : "?");
	fputs(", ", f);
	lab_an_html(f, lab_an_json_str(lab, "compiler") ? lab_an_json_str(lab, "compiler") : "?");
	fputs("); started ", f);
	lab_an_html(f, lab_an_json_str(d->run, "started_utc")
	                   ? lab_an_json_str(d->run, "started_utc")
	                   : "?");
	if (isfinite(spin))
		fprintf(f, "; self-check: 50 us spin read %.3f us, overhead %.3g ns/iteration",
		        spin / 1e3, lab_an_json_num(sc, "overhead_ns_per_iter", NAN));
	fputs(". Full provenance at the end.</p>\n", f);
}

/* A number cell; pct prints it as a percentage. */
static void an_cell(FILE *f, double v, int pct)
{
	fputs("<td>", f);
	if (isfinite(v))
		fprintf(f, pct ? "%.2f%%" : "%.4g", v);
	else
		fputs("&ndash;", f);
	fputs("</td>", f);
}

static void an_cell_ci(FILE *f, double v, double lo, double hi)
{
	fputs("<td>", f);
	if (!isfinite(v))
		fputs("&ndash;", f);
	else if (isfinite(lo) && isfinite(hi))
		fprintf(f, "%.4g <small>[%.4g, %.4g]</small>", v, lo, hi);
	else
		fprintf(f, "%.4g <small>[unbounded]</small>", v);
	fputs("</td>", f);
}

/* The mode count, and the centers when there are several ("2: 28.1; 108"). */
static void an_cell_modes(FILE *f, const struct lab_an_modes *m)
{
	char buf[160];

	if (!m->count)
		fputs("<td>&ndash;</td>", f);
	else if (m->count == 1)
		fputs("<td>1</td>", f);
	else
		fprintf(f, "<td class=\"multi\">%zu: %s</td>", m->count,
		        lab_an_modes_list(m, 0, 1, buf, sizeof(buf)));
}

static void an_report_table(FILE *f, const struct lab_an_series *s, const char *unit)
{
	fputs("<table><tr><th>threads</th><th>status</th><th>n</th><th>median (", f);
	lab_an_html(f, unit);
	fputs(")</th><th>mean [95% CI]</th><th>CV</th>", f);
	if (!s->latency) /* a latency or overhead: no scaling metric (its note says why) */
		fputs("<th>speedup [95% CI]</th><th>efficiency</th><th>Karp&ndash;Flatt e(N)</th>",
		      f);
	fputs("<th>outliers mild/severe</th><th>flagged (excluded)</th><th>modes</th></tr>\n", f);
	for (size_t i = 0; i < s->nrow; i++) {
		const struct lab_an_row *r = &s->row[i];
		const struct lab_an_stats *st = &r->pt->st;
		int h = st->n > 0, c = r->has_speedup && r->speedup.has_ci && !r->speedup.unbounded;

		fputs("<tr class=\"", f);
		lab_an_html(f, r->pt->status);
		fprintf(f, "\"><td>%d</td><td>", r->pt->threads);
		lab_an_html(f, r->pt->status);
		if (r->pt->reason) {
			fputs(": ", f);
			lab_an_html(f, r->pt->reason);
		} else if (lab_an_flagged_all(r->pt)) {
			fprintf(f, " (all %zu samples load-flagged; --include-flagged keeps them)",
			        r->pt->n_flagged);
		}
		fprintf(f, "</td><td>%zu</td>", st->n);
		an_cell(f, h ? st->median : NAN, 0);
		if (st->n > 1)
			an_cell_ci(f, h ? st->mean : NAN, st->ci95_lo, st->ci95_hi);
		else
			an_cell(f, h ? st->mean : NAN, 0); /* one sample: no interval */
		an_cell(f, h ? 100 * st->cv : NAN, 1);
		if (s->latency) {
			/* no scaling columns */
		} else if (r->has_speedup && !r->speedup.has_ci) {
			/* Too few repetitions for an interval: the estimates alone. */
			an_cell(f, r->speedup.est, 0);
			an_cell(f, r->eff, 0);
			an_cell(f, r->kf, 0);
		} else {
			an_cell_ci(f, r->has_speedup ? r->speedup.est : NAN,
			           c ? r->speedup.lo : NAN, c ? r->speedup.hi : NAN);
			an_cell_ci(f, r->has_speedup ? r->eff : NAN, c ? r->eff_lo : NAN,
			           c ? r->eff_hi : NAN);
			an_cell_ci(f, r->kf, c ? r->kf_lo : NAN, c ? r->kf_hi : NAN);
		}
		fprintf(f, "<td>%zu/%zu</td><td>%zu</td>", st->outliers_mild, st->outliers_severe,
		        r->pt->n_flagged);
		an_cell_modes(f, &r->pt->modes);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* <li>what text</li>, text escaped. */
static void an_li(FILE *f, const char *what, const char *text)
{
	fprintf(f, "<li>%s", what);
	lab_an_html(f, text);
	fputs("</li>", f);
}

static void an_report_fits(FILE *f, const struct lab_an_series *s)
{
	const struct lab_an_fit *a = &s->amdahl, *u = &s->usl, *g = &s->gustafson;
	char text[256];

	fputs("<ul class=\"fits\">", f);
	fprintf(f, "<li>Error model: %s</li>",
	        lab_an_objective_text(s->objective, s->domain, text, sizeof(text)));
	if (a->ok)
		fprintf(f, "<li>Amdahl serial fraction f = %.4g [%.4g, %.4g] (%s)</li>", a->x[1],
		        a->lo[1], a->hi[1], lab_an_amdahl_bound_text(s, text, sizeof(text)));
	else
		an_li(f, "Amdahl: ", a->reason);
	if (u->ok) {
		fprintf(f, "<li>USL &sigma; = %.4g [%.4g, %.4g], &kappa; = %.4g [%.4g, %.4g]; ",
		        u->x[1], u->lo[1], u->hi[1], u->x[2], u->lo[2], u->hi[2]);
		if (s->peak.retrograde)
			fprintf(f, "peak N* = %.1f [%.1f, %.1f]</li>", s->peak.n_star, s->peak.lo,
			        s->peak.hi);
		else
			fputs("no retrograde region</li>", f);
	} else {
		an_li(f, "USL: ", u->reason);
	}
	if (s->weak && g->ok)
		fprintf(f, "<li>Gustafson serial fraction s = %.4g [%.4g, %.4g]</li>", g->x[1],
		        g->lo[1], g->hi[1]);
	else if (s->weak)
		an_li(f, "Gustafson: ", g->reason);
	if (s->choice.ok && a->ok && u->ok)
		fprintf(f, "<li>Model choice: F-test p = %.3g, AICc Amdahl %.1f vs USL %.1f</li>",
		        s->choice.p_value, s->choice.aicc_amdahl, s->choice.aicc_usl);
	fprintf(f, "<li><b>Model: %s</b></li>", s->model);
	for (size_t i = 0; i < s->nfinding; i++) {
		fputs("<li class=\"finding\">", f);
		lab_an_html(f, s->finding[i]);
		fputs("</li>", f);
	}
	fputs("</ul>\n", f);
}

static const char an_css[] =
    "body{font-family:sans-serif;max-width:1100px;margin:1em auto;padding:0 1em;color:#222}"
    "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 6px;"
    "text-align:right}th{background:#f0f0f0}tr.skipped,tr.failed,tr.missing{color:#999}"
    "dl.prov dt{font-weight:bold}dl dd{margin-left:1.5em}figure{display:inline-block;"
    "margin:.5em}img{width:480px;height:auto;border:1px solid #ddd}.warn{color:#a60}"
    ".multi{background:#fde0dd;font-weight:bold}td.diag{background:#eee}"
    ".cond{background:#f6f6f6;padding:.4em .6em;border-left:3px solid #888}";

static void an_report_series(FILE *f, const struct lab_an_analysis *a, size_t i,
                             const struct lab_an_plots *plots, const char *dir)
{
	const struct lab_an_series *s = &a->s[i];
	const struct lab_an_point *p0 = s->nrow ? s->row[0].pt : NULL;
	const char *whose = lab_an_cost_whose(a->data, p0);
	char unit[160];

	fputs("<h2>", f);
	lab_an_html(f, s->experiment);
	fputs(" <small>", f);
	lab_an_html(f, *s->params ? s->params : "(no params)");
	fprintf(f, "</small></h2>\n<p>%s scaling; cost per unit of work in ",
	        s->weak ? "weak" : "strong");
	lab_an_html(f, lab_an_point_unit(a->data, p0));
	if (whose) {
		fputs(": ", f);
		lab_an_html(f, whose);
	}
	fputs(".", f);
	if (!s->latency && s->fit_level && !strcmp(s->fit_level, "runs"))
		fprintf(f, " %zu run means in the fits (speedup intervals from run means too)",
		        s->n_fit);
	else if (!s->latency)
		fprintf(f, " %zu samples in the fits", s->n_fit);
	if (s->n_excluded)
		fprintf(f, "%s%zu foreign-load-flagged samples excluded", s->latency ? " " : ", ",
		        s->n_excluded);
	fputs(s->latency && !s->n_excluded ? "</p>\n" : ".</p>\n", f);
	if (*s->note) {
		fputs("<p class=\"warn\">", f);
		lab_an_html(f, s->note);
		fputs("</p>\n", f);
	}
	an_report_table(f, s, lab_an_cost_label(a->data, p0, unit, sizeof(unit)));
	if (!s->latency)
		an_report_fits(f, s);
	lab_an_report_view_imgs(f, plots, dir, NULL, i);
}

int lab_an_report_write(const struct lab_an_analysis *a, const struct lab_an_plots *plots,
                        const char *dir, struct lab_err *err)
{
	const struct lab_an_data *d = a->data;
	char *path = lab_an_asprintf("%s/%s", dir, LAB_FILE_REPORT);
	struct lab_an_wfile w;
	FILE *f;
	int rc = 0;

	if (!path)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	if (!(f = lab_an_wfile_open(&w, path, err))) {
		rc = -LAB_EIO;
		goto out;
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<title>lab report: ",
	      f);
	lab_an_html(f, d->source);
	fprintf(f, "</title><style>%s</style></head><body>\n<h1>lab report</h1>\n<p>", an_css);
	lab_an_html(f, d->source);
	fprintf(f, ": %zu samples, %zu points, %zu series.</p>\n", d->nsamples, d->npt, a->ns);
	lab_an_lessons_html(f, &a->lessons); /* the chapter's claims and verdicts lead */
	if (d->warn.n) {
		fputs("<ul class=\"warn\">", f);
		for (size_t i = 0; i < d->warn.n; i++) {
			fputs("<li>", f);
			lab_an_html(f, d->warn.msg[i]);
			fputs("</li>", f);
		}
		fputs("</ul>\n", f);
	}
	an_report_load_line(f, a);
	an_report_no_plots(f, plots);
	an_report_conditions(f, d);
	/* The chapter-level views first, then every series in detail, then provenance. */
	lab_an_views_html(f, a, plots, dir);
	for (size_t i = 0; i < a->ns; i++)
		if (!lab_an_series_hidden(a, &a->s[i]))
			an_report_series(f, a, i, plots, dir);
	an_report_provenance(f, d);
	fputs("</body></html>\n", f);
	rc = lab_an_wfile_close(&w, 1, err);
out:
	free(path);
	return rc;
}
