/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze/compare.h"
#include "analyze/csv.h"
#include "analyze/flagged.h"
#include "analyze/report_int.h"
#include "analyze/views/views.h"
#include "analyze/wfile.h"
#include "harness/record_schema.h"

/* The longest provenance string and the most array items the report shows: run.json is
 * untrusted, and one hostname of 30 MB made a report of 30 MB. */
#define AN_PROV_STR_MAX   400
#define AN_PROV_ITEMS_MAX 300
/* and of the config as run (config.ini holds it whole) */
#define AN_PROV_CONFIG_MAX (256 * 1024)

/* s, cut to AN_PROV_STR_MAX bytes (whole UTF-8 characters) with how much was left out. */
static void an_html_cut(FILE *f, const char *s)
{
	size_t len = strlen(s);
	int fit = len > AN_PROV_STR_MAX ? lab_an_utf8_fit(s, AN_PROV_STR_MAX) : (int)len;
	char buf[AN_PROV_STR_MAX + 1];

	if (fit == (int)len) {
		lab_an_html(f, s);
		return;
	}
	memcpy(buf, s, (size_t)fit);
	buf[fit] = '\0';
	lab_an_html(f, buf);
	fprintf(f, " <i>... (%zu bytes more)</i>", len - (size_t)fit);
}

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
		an_html_cut(f, j->str);
		break;
	case LAB_AN_JSON_ARR:
		for (size_t i = 0; i < j->n && i < AN_PROV_ITEMS_MAX; i++) {
			fputs(i ? ", " : "", f);
			an_html_json(f, &j->items[i]);
		}
		if (j->n > AN_PROV_ITEMS_MAX)
			fprintf(f, " <i>... and %zu more</i>", (size_t)j->n - AN_PROV_ITEMS_MAX);
		break;
	case LAB_AN_JSON_OBJ:
		fputs("<dl>", f);
		for (size_t i = 0; i < j->n && i < AN_PROV_ITEMS_MAX; i++) {
			fputs("<dt>", f);
			an_html_cut(f, j->keys[i]);
			fputs("</dt><dd>", f);
			an_html_json(f, &j->items[i]);
			fputs("</dd>", f);
		}
		if (j->n > AN_PROV_ITEMS_MAX)
			fprintf(f, "<dt><i>... and %zu more</i></dt>",
			        (size_t)j->n - AN_PROV_ITEMS_MAX);
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
		const char *text = lab_an_json_str(cfg, "text");
		size_t len = strlen(text);
		int fit =
		    len > AN_PROV_CONFIG_MAX ? lab_an_utf8_fit(text, AN_PROV_CONFIG_MAX) : (int)len;
		char *cut = strndup(text, (size_t)fit);

		fputs("<details><summary>config as run</summary><pre>", f);
		lab_an_html(f, cut ? cut : "");
		if (fit < (int)len)
			fprintf(f, "\n<i>... (%zu bytes more: config.ini holds it whole)</i>",
			        len - (size_t)fit);
		fputs("</pre></details>\n", f);
		free(cut);
	}
}

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

/* One line of conditions up front: the machine, the build and the self-check. */
/* The build notes `lab analyze` prints ("build: sanitized (...)", "build: isa=auto is the
 * compiler's code for ..."), under the conditions: a sanitized run's times are the
 * instrumented code's, which the tables do not say. */
static void an_report_build_notes(FILE *f, const struct lab_an_data *d)
{
	char note[LAB_AN_BUILD_NOTE_MAX];

	if (lab_an_build_sanitize_note(d->run, note, sizeof(note))) {
		fputs("<p class=\"cond warn\">build: ", f);
		lab_an_html(f, note);
		fputs("</p>\n", f);
	}
	if (lab_an_build_auto_note(d, note, sizeof(note))) {
		fputs("<p class=\"cond\">build: ", f);
		lab_an_html(f, note);
		fputs("</p>\n", f);
	}
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
	/* a spin of 50 us reads past 0 and below a second, or the file's number is no reading
	 * (1e308 printed 309 digits, hostile38) */
	if (spin > 0 && spin < 1e9)
		fprintf(f, "; self-check: 50 us spin read %.3f us, overhead %.3g ns/iteration",
		        spin / 1e3, lab_an_json_num(sc, "overhead_ns_per_iter", NAN));
	else if (!isnan(spin))
		fprintf(f,
		        "; self-check: run.json's 50 us spin time (%.3g ns) is no reading of one",
		        spin);
	fputs(". Full provenance at the end.</p>\n", f);
	an_report_build_notes(f, d);
}

static const char an_css[] =
    "body{font-family:sans-serif;max-width:1100px;margin:1em auto;padding:0 1em;color:#222}"
    "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 6px;"
    "text-align:right}th{background:#f0f0f0}tr.skipped,tr.failed,tr.missing{color:#999}"
    "dl.prov dt{font-weight:bold}dl dd{margin-left:1.5em}figure{display:inline-block;"
    "margin:.5em}img{width:480px;height:auto;border:1px solid #ddd}.warn{color:#a60}"
    ".multi{background:#fde0dd;font-weight:bold}td.diag{background:#eee}"
    ".cond{background:#f6f6f6;padding:.4em .6em;border-left:3px solid #888}";

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
	/* The chapter-level views first, then every series in detail (the series view is the last
	 * of views.def), then provenance. */
	lab_an_views_html(f, a, plots, dir);
	an_report_provenance(f, d);
	fputs("</body></html>\n", f);
	rc = lab_an_wfile_close(&w, 1, err);
out:
	free(path);
	return rc;
}
