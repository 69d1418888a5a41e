/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The roofline's analysis.json object, text tables and report section (roofline.h). Everything
 * from the files is HTML-escaped in the report. */
#include <math.h>
#include <string.h>

#include "analyze/report_int.h"
#include "analyze/views/roofline.h"
#include "harness/json.h"

static const char *an_kind(int kind)
{
	return kind == LAB_AN_RL_BW ? "bandwidth" : "compute";
}

static const char *an_unit(int kind)
{
	return kind == LAB_AN_RL_BW ? "GB/s" : "GFLOP/s";
}

void lab_an_rl_json(struct lab_json *w, const void *state)
{
	const struct lab_an_rl *s = state;

	lab_json_obj_open(w, "roofline");
	lab_json_bool(w, "write_allocate_counted", 0); /* intensity; intensity_wa counts it */
	lab_json_arr_open(w, "ceilings");
	for (size_t i = 0; i < s->nc; i++) {
		const struct lab_an_rl_ceil *c = &s->c[i];

		lab_json_obj_open(w, NULL);
		lab_json_str(w, "name", c->name);
		lab_json_str(w, "kind", an_kind(c->kind));
		lab_json_num(w, "value", c->value);
		lab_json_str(w, "unit", an_unit(c->kind));
		lab_json_int(w, "threads", c->threads);
		if (isnan(c->lo))
			lab_json_null(w, "ci95");
		else
			lab_json_pair(w, "ci95", c->lo, c->hi);
		lab_json_str(w, "experiment", c->pt->experiment);
		lab_json_str(w, "params", c->pt->params);
		lab_json_obj_close(w);
	}
	lab_json_arr_close(w);
	lab_json_arr_open(w, "points");
	for (size_t i = 0; i < s->np; i++) {
		const struct lab_an_rl_pt *e = &s->p[i];

		lab_json_obj_open(w, NULL);
		lab_json_str(w, "experiment", e->pt->experiment);
		lab_json_str(w, "params", e->pt->params);
		lab_json_int(w, "threads", e->pt->threads);
		lab_json_num(w, "intensity", e->intensity);
		lab_json_num(w, "intensity_wa", e->intensity_wa);
		lab_json_num(w, "gflops_per_s", e->gflops);
		if (isnan(e->lo))
			lab_json_null(w, "ci95");
		else
			lab_json_pair(w, "ci95", e->lo, e->hi);
		lab_json_str(w, "roof", e->binds ? e->binds->name : NULL);
		lab_json_str(w, "roof_kind", e->binds ? an_kind(e->binds->kind) : NULL);
		lab_json_num(w, "roof_gflops_per_s", e->roof);
		lab_json_num(w, "fraction", e->fraction);
		lab_json_bool(w, "above_roof", e->above);
		if (*e->note)
			lab_json_str(w, "note", e->note);
		else
			lab_json_null(w, "note");
		lab_json_obj_close(w);
	}
	lab_json_arr_close(w);
	lab_json_arr_open(w, "add_pipes"); /* FMA+add against FMA alone, from the data */
	for (size_t i = 0; i < s->npipes; i++)
		lab_json_str(w, NULL, s->pipes[i]);
	lab_json_arr_close(w);
	lab_json_obj_close(w);
}

/* "v [lo, hi]" with %.4g, "-" parts where missing. */
static void an_vci(FILE *f, double v, double lo, double hi, int width)
{
	char buf[96];

	if (isnan(v))
		snprintf(buf, sizeof(buf), "-");
	else if (isnan(lo))
		snprintf(buf, sizeof(buf), "%.4g", v);
	else
		snprintf(buf, sizeof(buf), "%.4g [%.4g, %.4g]", v, lo, hi);
	fprintf(f, "%-*s", width, buf);
}

void lab_an_rl_text(FILE *f, const void *state)
{
	const struct lab_an_rl *s = state;
	int notes = 0;

	fputs("\n== Roofline: ceilings measured by this run (best median, 95% CI of the median)\n",
	      f);
	fprintf(f, "  %-10s %-20s %7s  %-34s %-8s %s\n", "kind", "name", "threads",
	        "value [95% CI]", "unit", "measured by");
	for (size_t i = 0; i < s->nc; i++) {
		const struct lab_an_rl_ceil *c = &s->c[i];

		fprintf(f, "  %-10s %-20s %7d  ", an_kind(c->kind), c->name, c->threads);
		an_vci(f, c->value, c->lo, c->hi, 34);
		fprintf(f, " %-8s %s %s\n", an_unit(c->kind), c->pt->experiment, c->pt->params);
	}
	if (!s->nc)
		fputs(
		    "  (none: this run has no bandwidth-bound kernel and no point that does flops "
		    "without bytes; run configs/ch19-roofline.ini for the ceilings)\n",
		    f);
	for (size_t i = 0; i < s->npipes; i++)
		fprintf(f, "  %s\n", s->pipes[i]);
	if (!s->np)
		return;
	fputs("== Roofline: points (intensity = flops / bytes read+written, write-allocate not "
	      "counted; _wa counts it)\n",
	      f);
	fprintf(f, "  %-12s %3s %9s %9s  %-32s %8s %7s  %s\n", "experiment", "thr", "flop/B",
	        "flop/B_wa", "GFLOP/s [95% CI]", "roof", "% roof", "binds / params");
	for (size_t i = 0; i < s->np; i++) {
		const struct lab_an_rl_pt *e = &s->p[i];

		fprintf(f, "  %-12s %3d %9.4g %9.4g  ", e->pt->experiment, e->pt->threads,
		        e->intensity, e->intensity_wa);
		an_vci(f, e->gflops, e->lo, e->hi, 32);
		if (e->binds)
			fprintf(f, " %8.4g %6.1f%%%s %s %s / %s\n", e->roof, 100 * e->fraction,
			        e->above ? "!" : " ", an_kind(e->binds->kind), e->binds->name,
			        e->pt->params);
		else
			fprintf(f, " %8s %7s  roof not measured at %d thread%s / %s\n", "-", "-",
			        e->pt->threads, e->pt->threads == 1 ? "" : "s", e->pt->params);
		notes += *e->note != 0;
	}
	for (size_t i = 0; notes && i < s->np; i++)
		if (*s->p[i].note)
			fprintf(f, "  %s %s %s (%d thr): %s\n",
			        s->p[i].above ? "finding:" : "note:", s->p[i].pt->experiment,
			        s->p[i].pt->params, s->p[i].pt->threads, s->p[i].note);
}

static void an_td(FILE *f, double v, double lo, double hi)
{
	if (isnan(v))
		fputs("<td>&ndash;</td>", f);
	else if (isnan(lo))
		fprintf(f, "<td>%.4g</td>", v);
	else
		fprintf(f, "<td>%.4g <small>[%.4g, %.4g]</small></td>", v, lo, hi);
}

static void an_html_ceils(FILE *f, const struct lab_an_rl *s)
{
	fputs("<table>\n<tr><th>kind</th><th>name</th><th>threads</th><th>value [95% CI]</th>"
	      "<th>unit</th><th>measured by</th></tr>\n",
	      f);
	for (size_t i = 0; i < s->nc; i++) {
		const struct lab_an_rl_ceil *c = &s->c[i];

		fprintf(f, "<tr><td>%s</td><td>", an_kind(c->kind));
		lab_an_html(f, c->name);
		fprintf(f, "</td><td>%d</td>", c->threads);
		an_td(f, c->value, c->lo, c->hi);
		fprintf(f, "<td>%s</td><td>", an_unit(c->kind));
		lab_an_html(f, c->pt->experiment);
		fputs(" ", f);
		lab_an_html(f, c->pt->params);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void an_html_pts(FILE *f, const struct lab_an_rl *s)
{
	fputs("<table>\n<tr><th>experiment</th><th>params</th><th>threads</th><th>flop/byte</th>"
	      "<th>flop/byte with write-allocate</th><th>GFLOP/s [95% CI]</th><th>roof "
	      "GFLOP/s</th><th>% of roof</th><th>binding roof</th><th>note</th></tr>\n",
	      f);
	for (size_t i = 0; i < s->np; i++) {
		const struct lab_an_rl_pt *e = &s->p[i];

		fputs("<tr><td>", f);
		lab_an_html(f, e->pt->experiment);
		fputs("</td><td>", f);
		lab_an_html(f, e->pt->params);
		fprintf(f, "</td><td>%d</td><td>%.4g</td><td>%.4g</td>", e->pt->threads,
		        e->intensity, e->intensity_wa);
		an_td(f, e->gflops, e->lo, e->hi);
		an_td(f, e->roof, NAN, NAN);
		an_td(f, 100 * e->fraction, NAN, NAN);
		fprintf(f, "<td>%s ", e->binds ? an_kind(e->binds->kind) : "roof not measured");
		lab_an_html(f, e->binds ? e->binds->name : "");
		fputs("</td><td>", f);
		lab_an_html(f, e->note);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

void lab_an_rl_html(FILE *f, const void *state, const struct lab_an_plots *plots, const char *dir)
{
	const struct lab_an_rl *s = state;

	fputs(
	    "<h2>Roofline</h2>\n<p>Ceilings measured by this run, not typed in: bandwidth from "
	    "the best of the bandwidth-bound kernels, read-only or not (one per cache level the "
	    "working set fits in when the topology records cache sizes, else per size), "
	    "compute from points "
	    "that do flops but move no bytes (one per ISA and precision); each the best median "
	    "over its group at 1 thread and at the largest team. Every other point sits at its "
	    "intensity (flops per byte read + written, write-allocate not counted; the next "
	    "column counts it). Its roof is min(compute, bandwidth &times; intensity) at its "
	    "thread count; a point far below its roof is bound by something else (latency, "
	    "too few accumulators); one above its roof carries a note with the likely reason, and "
	    "one whose level has no bandwidth ceiling has no roof.</p>\n",
	    f);
	if (s->nc)
		an_html_ceils(f, s);
	else
		fputs(
		    "<p>No ceilings: this run has no bandwidth-bound kernel and no point that does "
		    "flops without bytes (run <code>configs/ch19-roofline.ini</code>).</p>\n",
		    f);
	for (size_t i = 0; i < s->npipes; i++) {
		fputs("<p>", f);
		lab_an_html(f, s->pipes[i]);
		fputs("</p>\n", f);
	}
	if (s->np)
		an_html_pts(f, s);
	for (size_t i = 0; plots && plots->rendered && i < s->nt; i++)
		lab_an_report_view_imgs(f, plots, dir, "roofline", i);
}
