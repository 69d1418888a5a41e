/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The report section of the counters view: software events, derived metrics and top-down per
 * point, the top-down bars; one line instead of empty tables where the hardware counts nothing.
 * Everything from the files is HTML-escaped. */
#include <math.h>
#include <string.h>

#include "analyze/report_int.h"
#include "analyze/views/counters.h"

/* A cell: %.4g (g) or %.3f, "est." when estimated, a dash when missing. */
static void an_td(FILE *f, double v, int g, int est)
{
	if (isnan(v))
		fputs("<td>&ndash;</td>", f);
	else
		fprintf(f, g ? "<td>%.4g%s</td>" : "<td>%.3f%s</td>", v,
		        est ? " <small>est.</small>" : "");
}

static void an_sw_row(FILE *f, const struct lab_an_ctrs *c, const struct lab_an_ctr_pt *e)
{
	fprintf(f, "<tr><td>%ld</td><td>%d</td><td>%zu</td>", e->pt->id, e->pt->threads, e->n);
	an_td(f, lab_an_ctrs_med(c, e, "ctr_task_clock") / 1e6, 1, 0);
	an_td(f, lab_an_ctrs_med(c, e, "ctr_page_faults"), 1, 0);
	an_td(f, lab_an_ctrs_med(c, e, "ctr_context_switches"), 1, 0);
	an_td(f, lab_an_ctrs_med(c, e, "ctr_cpu_migrations"), 1, 0);
	an_td(f, 100 * e->runq_med, 1, 0);
	fputs("<td>", f);
	lab_an_html(f, e->pt->params);
	if (e->csw_samples || e->mig_samples)
		fprintf(f,
		        " <b>warning: a pinned thread was switched out in %zu and migrated in %zu "
		        "of %zu samples</b>",
		        e->csw_samples, e->mig_samples, e->pt->n);
	fputs("</td></tr>\n", f);
}

static void an_hw_row(FILE *f, const struct lab_an_ctr_pt *e)
{
	const struct lab_an_tma *t = &e->tma;

	fprintf(f, "<tr><td>%ld</td><td>%d</td>", e->pt->id, e->pt->threads);
	if (!e->has_hw) {
		fputs("<td colspan=\"9\">hardware counters unavailable: ", f);
		lab_an_html(f, e->hw_reason);
		fputs("</td></tr>\n", f);
		return;
	}
	an_td(f, e->dv[LAB_AN_CD_IPC].v, 0, 0);
	an_td(f, e->dv[LAB_AN_CD_GHZ].v, 0, e->dv[LAB_AN_CD_GHZ].estimated);
	an_td(f, e->dv[LAB_AN_CD_CACHE_MPKI].v, 0, 0);
	an_td(f, e->dv[LAB_AN_CD_BRANCH_MPKI].v, 0, 0);
	an_td(f, t->level >= 1 ? t->retiring : NAN, 0, 0);
	an_td(f, t->level >= 1 ? t->bad_speculation : NAN, 0, 0);
	an_td(f, t->level >= 1 ? t->frontend_bound : NAN, 0, 0);
	an_td(f, t->level >= 1 ? t->backend_bound : NAN, 0, 0);
	fputs("<td>", f);
	if (t->level >= 2)
		fprintf(f, "mem %.3f, core %.3f", t->memory_bound, t->core_bound);
	if (t->level < 2 && *e->tma_reason)
		lab_an_html(f, e->tma_reason);
	if (e->mux_min < 1)
		fprintf(f, " <b>multiplexed</b> (counted %.0f%% of the time; scaled)",
		        100 * e->mux_min);
	fputs("</td></tr>\n", f);
}

static void an_exp(FILE *f, const struct lab_an_ctrs *c, const char *exp)
{
	fputs("<h3>", f);
	lab_an_html(f, exp);
	fputs("</h3>\n<table><tr><th>point</th><th>threads</th><th>n</th><th>task-clock ms</th>"
	      "<th>page faults</th><th>context switches</th><th>migrations</th><th>waited for its "
	      "CPU %</th><th>params</th>"
	      "</tr>\n",
	      f);
	for (size_t i = 0; i < c->np; i++)
		if (!strcmp(c->p[i].pt->experiment, exp))
			an_sw_row(f, c, &c->p[i]);
	fputs("</table>\n", f);
	if (!c->any_hw)
		return;
	fputs("<table><tr><th>point</th><th>threads</th><th>IPC</th><th>GHz</th>"
	      "<th>cache MPKI</th><th>branch MPKI</th><th>retiring</th><th>bad spec.</th>"
	      "<th>front-end</th><th>back-end</th><th>level 2 / notes</th></tr>\n",
	      f);
	for (size_t i = 0; i < c->np; i++)
		if (!strcmp(c->p[i].pt->experiment, exp))
			an_hw_row(f, &c->p[i]);
	fputs("</table>\n", f);
}

void lab_an_ctrs_html(FILE *f, const void *state, const struct lab_an_plots *plots, const char *dir)
{
	const struct lab_an_ctrs *c = state;

	fputs("<h2>Counters</h2>\n<p>Medians per sample of the sum over threads. A pinned thread "
	      "switched out or migrated during a sample is a defect of that sample.</p>\n",
	      f);
	if (!c->any_hw) {
		fputs("<p class=\"unavailable\">hardware counters unavailable here: ", f);
		lab_an_html(f, c->hw_reason);
		if (c->core_ghz > 0)
			fprintf(f, " (core clock %.3g GHz, estimated by the self-check)",
			        c->core_ghz);
		fputs("</p>\n", f);
	}
	for (size_t i = 0; i < c->nexp; i++) {
		an_exp(f, c, c->exp[i]);
		lab_an_report_view_imgs(f, plots, dir, "counters", i);
	}
}
