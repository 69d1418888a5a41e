/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "lab/analyze_print.h"

#include "analyze/err.h"
#include "analyze/flagged.h"
#include "analyze/render/render.h"
#include "analyze/views/views.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The config file experiment exp came from, when the run read several (one chapter each, `lab
 * run configs/ch25-*.ini configs/ch26-*.ini ...`); NULL for a run of one file. */
static const char *lab_print_chapter(const struct lab_an_analysis *a, const char *exp)
{
	const struct lab_an_json *files =
	    lab_an_json_get(lab_an_json_get(a->data->run, "config"), "files");

	if (!files || files->type != LAB_AN_JSON_ARR || files->n < 2)
		return NULL;
	return lab_an_json_str(lab_an_data_experiment(a->data, exp), "file");
}

/* 1 when file is one of the run's config files (a string item of files). */
static int lab_print_file_known(const struct lab_an_json *files, const char *file)
{
	for (size_t i = 0; i < files->n; i++)
		if (files->items[i].type == LAB_AN_JSON_STR && !strcmp(files->items[i].str, file))
			return 1;
	return 0;
}

/* 1 when experiment exp belongs in chapter want (NULL: the chapter of no file, all of them for a
 * run of one file). */
static int lab_print_in_chapter(const struct lab_an_analysis *a, const struct lab_an_json *files,
                                const char *want, const char *exp)
{
	const char *ch = files ? lab_print_chapter(a, exp) : NULL;

	return want ? ch && !strcmp(ch, want) : !(ch && lab_print_file_known(files, ch));
}

/* The note of view i's document once all its sections are printed (done[i] counts them). */
static void lab_print_view_note(FILE *f, const struct lab_doc *d, size_t n, size_t done)
{
	if (n && done == d->ns && d->note) {
		fputs("  (", f);
		lab_render_text_line(f, d->note);
		fputs(")\n", f);
	}
}

/* The sections of view r that belong to chapter want, then its note once all are printed
 * (done[i] counts them). Returns how many it printed. *out: something is on the stream (a
 * section then follows a blank line); set when this prints. */
static size_t lab_print_view_chapter(FILE *f, const struct lab_an_analysis *a,
                                     const struct lab_an_json *files, const char *want, size_t i,
                                     size_t *done, int *out)
{
	const struct lab_doc *d = a->views[i].doc;
	size_t n = 0;

	for (size_t j = 0; d && j < d->ns; j++)
		if (d->s[j]->experiment &&
		    lab_print_in_chapter(a, files, want, d->s[j]->experiment)) {
			lab_render_text_section(f, d, j, *out);
			*out = 1;
			n++;
		}
	done[i] += n;
	lab_print_view_note(f, d, n, done[i]);
	return n;
}

/* Every view's sections of the experiments of chapter want, by rank, in views.def order within
 * one; the chapter's heading before the first. *printed: something was printed since the
 * lessons (the heading then follows a blank line); set when this prints. *out: as for
 * lab_print_view_chapter. */
static void lab_print_chapter_views(FILE *f, const struct lab_an_analysis *a,
                                    const struct lab_an_json *files, const char *want, size_t *done,
                                    int *printed, int *out)
{
	size_t n = 0;

	for (int rank = 0; rank < 3; rank++)
		for (size_t i = 0; i < a->nviews; i++) {
			const struct lab_doc *d = a->views[i].doc;
			size_t m = 0;

			if (!d || lab_an_view_rank(a->views[i].v) != rank)
				continue;
			/* the heading only when the chapter has a section */
			for (size_t j = 0; want && !n && j < d->ns; j++)
				m += d->s[j]->experiment &&
				     lab_print_in_chapter(a, files, want, d->s[j]->experiment);
			if (m) {
				fprintf(f, "%s=== chapter: ", *printed ? "\n" : "");
				lab_render_text_line(f, want);
				fputc('\n', f);
				*out = 1;
			}
			n += lab_print_view_chapter(f, a, files, want, i, done, out);
		}
	*printed |= n > 0;
}

/* After the chapters: the sections that span experiments (the roofline) with their notes. */
static void lab_print_rest(FILE *f, const struct lab_an_analysis *a, size_t *done, int *out)
{
	for (size_t i = 0; i < a->nviews; i++) {
		const struct lab_doc *d = a->views[i].doc;
		size_t n = 0;

		for (size_t j = 0; d && j < d->ns; j++)
			if (!d->s[j]->experiment) {
				lab_render_text_section(f, d, j, *out);
				*out = 1;
				n++;
			}
		done[i] += n;
		lab_print_view_note(f, d, n, done[i]);
	}
}

/* "build: ..." when some point ran isa=auto: what the compiler made of it depends on the build
 * (its -march), which the tables do not say (run.json's lab.auto_march); and when the lab was
 * built with sanitizers (lab.sanitize), whose instrumentation the times are. */
static int lab_print_auto_build(FILE *f, const struct lab_an_data *d)
{
	char note[LAB_AN_BUILD_NOTE_MAX];
	int said = 0;

	/* text from the file: one line, escaped by the stream; its parts cut (a 100 000-byte
	 * sanitizer list would otherwise be printed whole) */
	if (lab_an_build_sanitize_note(d->run, note, sizeof(note))) {
		fputs("build: ", f);
		lab_render_text_line(f, note);
		fputc('\n', f);
		said = 1;
	}
	if (lab_an_build_auto_note(d, note, sizeof(note))) {
		fputs("build: ", f);
		lab_render_text_line(f, note);
		fputc('\n', f);
		said = 1;
	}
	return said;
}

void lab_analyze_print(FILE *f, const struct lab_an_analysis *a)
{
	char line[256];
	const struct lab_an_json *files =
	    lab_an_json_get(lab_an_json_get(a->data->run, "config"), "files");
	size_t nfiles = files && files->type == LAB_AN_JSON_ARR && files->n >= 2 ? files->n : 0;
	size_t *done = calloc(a->nviews ? a->nviews : 1, sizeof(*done));
	int printed = 0; /* a line since the lessons: the first chapter heading after a blank */
	/* a line since the lessons (which end with a blank): a section then follows a blank */
	int out = 0;

	lab_an_lessons_text(f, &a->lessons); /* the chapter's claims and verdicts lead */
	if (lab_an_flagged_line(a->data, a->include_flagged, line, sizeof(line)))
		printed = fprintf(f, "load: %s\n", line) > 0;
	if (lab_an_asym_line(a->data, line, sizeof(line)))
		printed = fprintf(f, "threads: %s\n", line) > 0 || printed;
	printed = lab_print_auto_build(f, a->data) || printed;
	out |= printed;
	if (!done) {
		fprintf(f, "(out of memory: no tables)\n");
		return;
	}
	/* With several chapter configs, each file's sections under its name, in the files'
	 * order; chapter n == nfiles holds the experiments of no file (and all of them for a run
	 * of one). */
	for (size_t n = 0; n <= nfiles; n++) {
		if (n < nfiles && files->items[n].type != LAB_AN_JSON_STR)
			continue;
		lab_print_chapter_views(f, a, nfiles ? files : NULL,
		                        n < nfiles ? files->items[n].str : NULL, done, &printed,
		                        &out);
	}
	lab_print_rest(f, a, done, &out);
	free(done);
}

/* What the cost of experiment exp is where its view's figure is not it (a construct's test +
 * reference time, beside its overhead): the first of its rows from i on that says (compare.c,
 * from both sides' views: one side's alone had the text say the figure was compared where the
 * table had no row, hostile38). */
static void lab_compare_cost_is(FILE *f, const struct lab_an_compare *c, size_t i, const char *exp)
{
	const char *is = NULL;
	int fig = 0;

	for (; i < c->n && !fig; i++) {
		const struct lab_an_cmp_row *r = &c->row[i];
		const struct lab_an_point *p = r->old ? r->old : r->new_;

		if (r->cost_is && !strcmp(p->experiment, exp)) {
			is = is ? is : r->cost_is;
			fig = r->fig.fig != NULL;
		}
	}
	if (is) /* "compared below" only where the figure's table has a row of it (review39) */
		fprintf(f, "; the cost is %s%s", is, fig ? ", compared below" : "");
}

/* Whose time each experiment's mean is, once per experiment in table order; both sides' when
 * they differ (the rows then say "not comparable"). */
static void lab_compare_units(FILE *f, const struct lab_an_compare *c,
                              const struct lab_an_data *old, const struct lab_an_data *new_)
{
	const char *seen[32];
	size_t nseen = 0;
	char unit[160], unew[160];

	for (size_t i = 0; i < c->n && nseen < 32; i++) {
		const struct lab_an_cmp_row *r = &c->row[i];
		const struct lab_an_point *p = r->old ? r->old : r->new_;
		size_t k = 0;

		while (k < nseen && strcmp(seen[k], p->experiment))
			k++;
		if (k < nseen)
			continue;
		seen[nseen++] = p->experiment;
		fputs(nseen == 1 ? "\n" : "", f);
		lab_render_text_line(f, p->experiment);
		fputs(": mean cost in ", f);
		lab_render_text_line(f,
		                     lab_an_cost_label(r->old ? old : new_, p, unit, sizeof(unit)));
		if (r->old && r->new_ &&
		    strcmp(unit, lab_an_cost_label(new_, r->new_, unew, sizeof(unew)))) {
			fputs(" (old), ", f);
			lab_render_text_line(f, unew);
			fputs(" (new)", f);
		}
		lab_compare_cost_is(f, c, i, p->experiment);
		fputc('\n', f);
	}
}

/* The mean a row compared: of the run means at the run level, else of the samples. */
static double lab_compare_mean(const struct lab_an_cmp_row *r, const struct lab_an_point *p)
{
	return r->level && strcmp(r->level, "samples") ? lab_an_point_level_mean(p) : p->st.mean;
}

/* A change in percent, "+12.34%"; past a million percent in three digits ("+3.25e+201%", not
 * 200 digits of %f). */
static const char *lab_compare_pct(char buf[24], double pct)
{
	snprintf(buf, 24, fabs(pct) < 1e6 ? "%+.2f%%" : "%+.3g%%", pct);
	return buf;
}

/* The counts of c's verdicts, and how many were compared on run means. */
static void lab_compare_counts(FILE *f, const struct lab_an_compare *c)
{
	fprintf(f,
	        "\n%zu improved, %zu regressed, %zu within noise (+-%.3g%%), %zu no change, "
	        "%zu unmatched",
	        c->improved, c->regressed, c->within_noise, 100 * c->noise, c->no_change,
	        c->unmatched);
	if (c->unclear)
		fprintf(f,
		        ", %zu changed (size unclear: significant, but the interval reaches across "
		        "+-%.3g%%)",
		        c->unclear, 100 * c->noise);
	if (c->untested)
		fprintf(f, ", %zu untested: one sample on a side, so no interval and no test",
		        c->untested);
	if (c->one_setup)
		fprintf(f,
		        ", %zu untested: one setup on a side that planned runs >= 2, so no "
		        "run-to-run spread to test against",
		        c->one_setup);
	if (c->loaded)
		fprintf(f,
		        ", %zu untested: most samples of a side load-flagged (kept by "
		        "--include-flagged), a busy machine's numbers",
		        c->loaded);
	if (c->flagged)
		fprintf(f, ", %zu not compared: all samples load-flagged (--include-flagged)",
		        c->flagged);
	if (c->not_run)
		fprintf(f, ", %zu did not run (skipped, failed or not finished)", c->not_run);
	if (c->rows_gone)
		fprintf(f,
		        ", %zu not in a samples.csv whose complete run says they ran ok (removed "
		        "after the run?)",
		        c->rows_gone);
	if (c->unlike)
		fprintf(f, ", %zu not comparable (another kernel, unit of work or scope)",
		        c->unlike);
	fputc('\n', f);
	if (c->by_runs)
		fprintf(
		    f,
		    "%zu compared on run means (both sides runs >= 2, or one side's spread between "
		    "runs lent to the other's one setup): a change must exceed the run-to-run "
		    "noise; the others on samples\n",
		    c->by_runs);
	if (c->by_samples)
		fprintf(f,
		        "%zu compared on the samples of one run a side (runs = 1): the test knows "
		        "the spread within a run, not between runs, and a rerun of one config can "
		        "differ by more; with runs >= 2 on both sides a change is tested against "
		        "that\n",
		        c->by_samples);
}

/* The note when the two runs' builds differ: which parts, both builds, and which points that
 * can change (text from the files: one line, escaped). */
static void lab_compare_builds(FILE *f, const struct lab_an_compare *c)
{
	char what[400];
	const char *whose, *clause = lab_an_build_scope_clause(c->build_what, &whose);

	if (!c->builds_differ)
		return;
	lab_an_build_diff_text(c->build_what, what, sizeof(what));
	fprintf(f, "note: the runs were built differently, in %s (old: ", what);
	lab_render_text_line(f, c->build_old);
	fputs("; new: ", f);
	lab_render_text_line(f, c->build_new);
	if (clause && !strcmp(lab_an_build_diff_scope(c->build_what), "isa=auto") && !c->auto_old &&
	    !c->auto_new)
		fputs("): only isa=auto points ran code built differently, and these runs have "
		      "none: no row's change is the build's\n",
		      f);
	else if (clause)
		fprintf(f, "): %s: a change in those may be the %s, not the machine's\n", clause,
		        whose);
	else
		fputs(
		    "): a change may be the build's (its compiler, C flags, build type, sanitizer, "
		    "OpenMP, the -march of the auto kernels), not the machine's\n",
		    f);
}

/* The change of r with its interval, as its row says it: "+3% [1%, 5%]", "-" when none. */
static void lab_compare_change(const struct lab_an_cmp_row *r, char *ch, size_t len)
{
	char c0[24], c1[24], c2[24];

	if (isfinite(r->change) && isfinite(r->lo) && isfinite(r->hi))
		snprintf(ch, len, "%s [%s, %s]", lab_compare_pct(c0, 100 * r->change),
		         lab_compare_pct(c1, 100 * r->lo), lab_compare_pct(c2, 100 * r->hi));
	else if (isfinite(r->change) && isfinite(r->lo) && r->hi == INFINITY)
		snprintf(ch, len, "%s [%s, unbounded)", lab_compare_pct(c0, 100 * r->change),
		         lab_compare_pct(c1, 100 * r->lo)); /* Fieller's ray above 0 */
	else if (isfinite(r->change))                       /* one sample a side: no interval */
		snprintf(ch, len, "%s [no interval]", lab_compare_pct(c0, 100 * r->change));
	else
		snprintf(ch, len, "-");
}

/* The rows whose view's figure is not their cost (a construct's overhead), that figure's
 * change: the difference of its means in its unit, with its interval, p and verdict. */
static void lab_compare_figs(FILE *f, const struct lab_an_compare *c)
{
	static const char *const said[] = {"improved", "regressed", "within noise",
	                                   "changed (size unclear)", "no change"};
	size_t n[6] = {0}, head = 0;

	for (size_t i = 0; i < c->n; i++) {
		const struct lab_an_cmp_fig *g = &c->row[i].fig;
		const struct lab_an_point *p = c->row[i].old;
		char mo[32] = "-", mn[32] = "-", ch[96] = "-", pv[32] = "-", name[32], u[64],
		     fig[96];
		size_t k = 0;

		if (!g->fig)
			continue;
		if (!head++)
			fprintf(
			    f,
			    "\nwhere the cost is not the view's figure, the figure's change (new - "
			    "old, in its unit):\n%-24s %7s  %-18s %-11s %-11s  %-30s %-9s %s\n",
			    "experiment", "threads", "figure", "old mean", "new mean",
			    "difference [95% CI]", "p", "verdict");
		while (k < 5 && strcmp(g->verdict, said[k]))
			k++;
		n[k]++;
		if (isfinite(g->old_mean))
			snprintf(mo, sizeof(mo), "%.4g", g->old_mean);
		if (isfinite(g->new_mean))
			snprintf(mn, sizeof(mn), "%.4g", g->new_mean);
		if (isfinite(g->lo) && isfinite(g->hi))
			snprintf(ch, sizeof(ch), "%+.4g [%+.4g, %+.4g]", g->diff, g->lo, g->hi);
		else if (isfinite(g->diff))
			snprintf(ch, sizeof(ch), "%+.4g [no interval]", g->diff);
		if (isfinite(g->p))
			snprintf(pv, sizeof(pv), "%.3g", g->p);
		/* the unit from a file: cut at a character, escaped */
		if (g->unit) {
			int fit = lab_an_utf8_fit(g->unit, 12);
			snprintf(fig, sizeof(fig), "%.*s%s", fit, g->unit,
			         g->unit[fit] ? "..." : "");
			lab_render_line(fig, u, sizeof(u));
		}
		snprintf(fig, sizeof(fig), "%s%s%s%s", g->fig, g->unit ? " (" : "",
		         g->unit ? u : "", g->unit ? ")" : "");
		fprintf(f, "%-24.24s %7d  %-18s %-11s %-11s  %-30s %-9s %s",
		        lab_render_line(p->experiment, name, sizeof(name)), p->threads, fig, mo, mn,
		        ch, pv, g->verdict);
		fputs(*p->params ? "  " : "", f);
		lab_render_text_line(f, p->params);
		fputc('\n', f);
	}
	if (head)
		fprintf(f,
		        "figures: %zu improved, %zu regressed, %zu within noise, %zu changed (size "
		        "unclear), %zu no change, %zu not tested\n",
		        n[0], n[1], n[2], n[3], n[4], n[5]);
}

void lab_compare_print(FILE *f, const struct lab_an_compare *c, const struct lab_an_data *old,
                       const struct lab_an_data *new_)
{
	fprintf(f, "%-24s %7s  %-11s %-11s  %-28s %-9s %s\n", "experiment", "threads", "old mean",
	        "new mean", "change [95% CI]", "p", "verdict");
	for (size_t i = 0; i < c->n; i++) {
		const struct lab_an_cmp_row *r = &c->row[i];
		const struct lab_an_point *p = r->old ? r->old : r->new_;
		char ch[96];

		lab_compare_change(r, ch, sizeof(ch));

		char mo[32] = "-", mn[32] = "-", pv[32] = "-", name[32];
		if (r->old && r->old->st.n)
			snprintf(mo, sizeof(mo), "%.4g", lab_compare_mean(r, r->old));
		if (r->new_ && r->new_->st.n)
			snprintf(mn, sizeof(mn), "%.4g", lab_compare_mean(r, r->new_));
		if (isfinite(r->p))
			snprintf(pv, sizeof(pv), "%.3g", r->p);
		fprintf(f, "%-24.24s %7d  %-11s %-11s  %-28s %-9s %s",
		        lab_render_line(p->experiment, name, sizeof(name)), p->threads, mo, mn, ch,
		        pv, r->verdict);
		if (r->level && !strcmp(r->level, "runs")) /* means are of run means here */
			fprintf(f, " (run means, %zu vs %zu runs)", r->old->levels.runs,
			        r->new_->levels.runs);
		else if (r->level && !strcmp(r->level, "mixed"))
			fprintf(
			    f, " (%zu vs %zu runs%s)", r->old->levels.runs, r->new_->levels.runs,
			    r->lent
			        ? ": the one setup's mean with the other side's spread between runs"
			        : "");
		if (r->one_setup[0])
			fprintf(f, " (%s; the samples say %s)", r->one_setup, r->samples_verdict);
		if (r->loaded[0])
			fprintf(f, " (%s)", r->loaded);
		for (int side = 0; side < 2; side++) { /* from a file: escaped, on one line, cut */
			const char *why = lab_an_cmp_not_run_reason(r, side);
			char cut[512];
			if (!why)
				continue;
			int fit = lab_an_utf8_fit(why, 480);
			snprintf(cut, sizeof(cut), "%.*s%s", fit, why, why[fit] ? "..." : "");
			fputs(side ? " (new: " : " (old: ", f);
			lab_render_text_line(f, cut);
			fputc(')', f);
		}
		fputs(*p->params ? "  " : "", f);
		lab_render_text_line(f, p->params); /* from a file: a newline would forge a row */
		fputc('\n', f);
	}
	lab_compare_figs(f, c);
	lab_compare_counts(f, c);
	lab_compare_builds(f, c);
	if (*c->sanitized) { /* text from the files, likewise */
		fputs("note: ", f);
		lab_render_text_line(f, c->sanitized);
		fputc('\n', f);
	}
	if (c->hosts_differ) { /* text from the files, likewise */
		fputs("note: the runs were on different machines (old: ", f);
		lab_render_text_line(f, c->host_old);
		fputs("; new: ", f);
		lab_render_text_line(f, c->host_new);
		fputs("): a change may be the machine's, not the code's\n", f);
	}
	lab_compare_units(f, c, old, new_);
}
