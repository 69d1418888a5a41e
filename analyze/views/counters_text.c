/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The text tables of the counters view: software events per point (with the pinned-thread
 * warnings), then derived metrics and top-down, or one line saying why there are none. */
#include <math.h>
#include <string.h>

#include "analyze/views/counters.h"

/* A column: %9.4g (g) or %9.3f, a dash when missing. */
static void an_cell(FILE *f, double v, int g)
{
	if (isnan(v))
		fprintf(f, "  %9s", "-");
	else
		fprintf(f, g ? "  %9.4g" : "  %9.3f", v);
}

static void an_sw_row(FILE *f, const struct lab_an_ctrs *c, const struct lab_an_ctr_pt *e)
{
	fprintf(f, "%5ld %7d %3zu", e->pt->id, e->pt->threads, e->n);
	an_cell(f, lab_an_ctrs_med(c, e, "ctr_task_clock") / 1e6, 1);
	an_cell(f, lab_an_ctrs_med(c, e, "ctr_page_faults"), 1);
	an_cell(f, lab_an_ctrs_med(c, e, "ctr_context_switches"), 1);
	an_cell(f, lab_an_ctrs_med(c, e, "ctr_cpu_migrations"), 1);
	an_cell(f, 100 * e->runq_med, 1);
	fprintf(f, "  %s%s", e->pt->params, e->all_flagged ? "  (all samples load-flagged)" : "");
	if (e->csw_samples || e->mig_samples)
		fprintf(f, "  [switched out %zu/%zu, migrated %zu/%zu]", e->csw_samples, e->pt->n,
		        e->mig_samples, e->pt->n);
	fputc('\n', f);
}

/* One line under the table for every point marked above, not a line per point: on a machine
 * whose CPUs the team fills, nearly every point is marked. */
static void an_warn(FILE *f, size_t marked, size_t points)
{
	if (!marked)
		return;
	fprintf(
	    f,
	    "  WARNING: in %zu of %zu points a pinned thread was switched out or migrated "
	    "(marked [...]: samples with it / samples): another task shared its CPU, a defect "
	    "in a contention lab. A team that fills every CPU shares them with the lab's own "
	    "main thread and the system; leave a CPU free, or read these points as disturbed.\n",
	    marked, points);
}

static void an_hw_row(FILE *f, const struct lab_an_ctr_pt *e)
{
	const struct lab_an_tma *t = &e->tma;

	fprintf(f, "%5ld %7d", e->pt->id, e->pt->threads);
	an_cell(f, e->dv[LAB_AN_CD_IPC].v, 0);
	an_cell(f, e->dv[LAB_AN_CD_GHZ].v, 0);
	an_cell(f, e->dv[LAB_AN_CD_CACHE_MPKI].v, 0);
	an_cell(f, e->dv[LAB_AN_CD_BRANCH_MPKI].v, 0);
	an_cell(f, e->dv[LAB_AN_CD_L1D_MPKI].v, 0);
	if (t->level >= 1) {
		fprintf(f, "  %5.3f %5.3f %5.3f %5.3f", t->retiring, t->bad_speculation,
		        t->frontend_bound, t->backend_bound);
		if (t->level >= 2)
			fprintf(f, "  %5.3f %5.3f", t->memory_bound, t->core_bound);
		else
			fprintf(f, "  %5s %5s", "-", "-");
	} else {
		fprintf(f, "  top-down: %s", e->tma_reason);
	}
	if (e->dv[LAB_AN_CD_GHZ].estimated)
		fputs("  (GHz estimated)", f);
	if (e->mux_min < 1)
		fprintf(f, "  MULTIPLEXED (counted %.0f%% of the time; scaled)", 100 * e->mux_min);
	fputc('\n', f);
}

static void an_exp(FILE *f, const struct lab_an_ctrs *c, const char *exp)
{
	fprintf(f, "\n== counters: %s  (medians per sample, sum over threads)\n", exp);
	fprintf(f, "%5s %7s %3s  %9s  %9s  %9s  %9s  %9s  %s\n", "point", "threads", "n", "task ms",
	        "pg-faults", "ctx-sw", "migr", "runq %", "params");
	size_t marked = 0, points = 0;

	for (size_t i = 0; i < c->np; i++)
		if (!strcmp(c->p[i].pt->experiment, exp)) {
			an_sw_row(f, c, &c->p[i]);
			marked += c->p[i].csw_samples || c->p[i].mig_samples;
			points++;
		}
	an_warn(f, marked, points);
	if (!c->any_hw)
		return;
	fprintf(f, "%5s %7s  %9s  %9s  %9s  %9s  %9s  %-23s  %s\n", "point", "threads", "IPC",
	        "GHz", "cache-MPKI", "br-MPKI", "L1D-MPKI", "RET   BS    FE    BE", "MEM   CORE");
	for (size_t i = 0; i < c->np; i++)
		if (!strcmp(c->p[i].pt->experiment, exp) && c->p[i].has_hw)
			an_hw_row(f, &c->p[i]);
	for (size_t i = 0; i < c->np; i++)
		if (!strcmp(c->p[i].pt->experiment, exp) && !c->p[i].has_hw)
			fprintf(f, "  point %ld: hardware counters unavailable: %s\n",
			        c->p[i].pt->id, c->p[i].hw_reason);
}

void lab_an_ctrs_text(FILE *f, const void *state)
{
	const struct lab_an_ctrs *c = state;

	for (size_t i = 0; i < c->nexp; i++)
		an_exp(f, c, c->exp[i]);
	if (!c->any_hw) {
		fprintf(f, "hardware counters unavailable here: %s\n", c->hw_reason);
		if (c->core_ghz > 0)
			fprintf(f,
			        "  core clock %.3g GHz (estimated by the self-check: cycles = "
			        "task-clock x this, labelled estimated)\n",
			        c->core_ghz);
	} else {
		fputs("  (IPC, GHz, MPKI: ratios of medians; top-down level 1 RET/BS/FE/BE and "
		      "level 2 MEM/CORE: fractions of pipeline slots, method ",
		      f);
		fprintf(f, "%s)\n", c->method);
	}
}
