/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One point of the counters view: its medians and counts, then its derived metrics and top-down
 * from those medians (pure formulas in analyze/counters_derive.c and analyze/topdown.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/counters_derive.h"
#include "analyze/stats.h"
#include "analyze/views/counters.h"
#include "harness/record_schema.h"

/* The median of column name at point e of c (in scope). */
#define AN_M(name) lab_an_ctrs_med(c, e, name)

/* 1 when column col ("ctr_page_faults") is a software event or ctr_mux_ratio. */
static int an_is_sw(const char *col)
{
	char k[80];

	snprintf(k, sizeof(k), " %.70s ", col);
	return !!strstr(" ctr_task_clock ctr_page_faults ctr_context_switches ctr_cpu_migrations "
	                "ctr_mux_ratio ",
	                k);
}

/* s, kept once in c->why; "" for an empty s. */
static const char *an_keep(struct lab_an_ctrs *c, const char *s)
{
	size_t i;
	char *t = NULL;

	if (!*s)
		return "";
	if ((i = lab_an_strset_find(&c->why, s)) != (size_t)-1)
		return c->why.s[i];
	if (!(t = strdup(s)) || lab_an_strset_add(&c->why, t, NULL) == (size_t)-1) {
		free(t);
		c->oom = 1;
		return "";
	}
	return t;
}

static long an_metric(const struct lab_an_data *d, const char *name)
{
	for (size_t m = 0; m < d->nmetric; m++)
		if (!strcmp(d->metric_name[m], name))
			return (long)m;
	return -1;
}

double lab_an_ctrs_med(const struct lab_an_ctrs *c, const struct lab_an_ctr_pt *e, const char *name)
{
	for (size_t k = 0; k < c->ncol; k++)
		if (!strcmp(c->col[k], name))
			return e->med[k];
	return NAN;
}

/* Why column name has no value at point p: the status and reason of its event in run.json's
 * record of p (its entry in experiments[].points, which the loader keeps: looking it up by id
 * here scanned every point of the experiment for every point, quadratic in its points). */
static void an_why(const struct lab_an_ctrs *c, const struct lab_an_point *p, const char *name,
                   char *buf, size_t len)
{
	const struct lab_an_json *ev =
	    lab_an_json_get(lab_an_json_get(p->runjson, "counters"), "events");
	int known = 0;

	for (size_t k = 0; k < c->ncol && !known; k++)
		known = !strcmp(c->col[k], name);
	for (size_t i = 0; ev && ev->type == LAB_AN_JSON_ARR && i < ev->n; i++) {
		const char *col = lab_an_json_str(&ev->items[i], "column");
		const char *st = lab_an_json_str(&ev->items[i], "status");
		const char *why = lab_an_json_str(&ev->items[i], "reason");
		const char *en = lab_an_json_str(&ev->items[i], "name");

		if (col && !strcmp(col, name) && st && strcmp(st, "ok")) {
			snprintf(buf, len, "%s: %s%s%s", en ? en : name + 4, st,
			         why && *why ? ": " : "", why ? why : "");
			return;
		}
	}
	snprintf(buf, len, "%s: %s", name + 4,
	         known ? "not counted at this point" : "not requested (no column in samples.csv)");
}

/* num / den x scale from columns: NaN with the reason of the missing input, or the formula's. */
static void an_ratio(struct lab_an_ctrs *c, struct lab_an_ctr_pt *e, int k, const char *num,
                     const char *den, double scale)
{
	struct lab_an_ctr_val *v = &e->dv[k];
	double a = AN_M(num), b = AN_M(den);
	const char *why = NULL;
	char buf[200] = "";

	v->v = lab_an_ctr_ratio(a, b, scale, &why);
	if (isnan(a) || isnan(b))
		an_why(c, e->pt, isnan(a) ? num : den, buf, sizeof(buf));
	v->reason = an_keep(c, isnan(a) || isnan(b) ? buf : why ? why : "");
}

/* GHz from cycles, else the self-check's estimated core clock; cycles estimated without a
 * cycle counter. */
static void an_clock(struct lab_an_ctrs *c, struct lab_an_ctr_pt *e)
{
	struct lab_an_ctr_val *y = &e->dv[LAB_AN_CD_CYC_EST];
	const char *why = NULL;

	an_ratio(c, e, LAB_AN_CD_GHZ, "ctr_cycles", "ctr_task_clock", 1);
	y->v = isnan(AN_M("ctr_cycles"))
	           ? lab_an_ctr_cycles_estimated(AN_M("ctr_task_clock"), c->core_ghz, &why)
	           : NAN;
	y->estimated = !isnan(y->v);
	y->reason = an_keep(c, y->estimated ? "estimated: task-clock x the self-check's core clock"
	                       : why        ? why
	                                    : "cycles counted");
	if (isnan(AN_M("ctr_cycles")) && c->core_ghz > 0)
		e->dv[LAB_AN_CD_GHZ] = (struct lab_an_ctr_val){
		    c->core_ghz, 1, "estimated: the self-check's core clock (no cycle counter)"};
}

/* Level 1-2 by the method of intel_4wide, intel_perf_metrics or amd_pipeline (Zen 5, family
 * 0x1a, dispatches 8 ops a cycle and its latency event uses cmask 8; Zen 4: 6). */
static void an_tma(const struct lab_an_json *h, const struct lab_an_ctrs *c,
                   struct lab_an_ctr_pt *e)
{
	int zen5 = lab_an_json_num(h, "family", 0) == 0x1a;
	struct lab_an_tma_intel4_in i4 = {
	    .cpu_clk_unhalted_thread = AN_M("ctr_cpu_clk_unhalted_thread"),
	    .idq_uops_not_delivered_core = AN_M("ctr_idq_uops_not_delivered_core"),
	    .uops_issued_any = AN_M("ctr_uops_issued_any"),
	    .uops_retired_retire_slots = AN_M("ctr_uops_retired_retire_slots"),
	    .int_misc_recovery_cycles = AN_M("ctr_int_misc_recovery_cycles"),
	    .cycle_activity_stalls_mem_any = AN_M("ctr_cycle_activity_stalls_mem_any"),
	    .exe_activity_bound_on_stores = AN_M("ctr_exe_activity_bound_on_stores"),
	    .cycle_activity_stalls_total = AN_M("ctr_cycle_activity_stalls_total"),
	    .exe_activity_1_ports_util = AN_M("ctr_exe_activity_1_ports_util"),
	    .exe_activity_2_ports_util = AN_M("ctr_exe_activity_2_ports_util"),
	};
	struct lab_an_tma_pm_in pm = {
	    .slots = AN_M("ctr_slots"),
	    .retiring = AN_M("ctr_topdown_retiring"),
	    .bad_spec = AN_M("ctr_topdown_bad_spec"),
	    .fe_bound = AN_M("ctr_topdown_fe_bound"),
	    .be_bound = AN_M("ctr_topdown_be_bound"),
	    .heavy_ops = AN_M("ctr_topdown_heavy_ops"),
	    .br_mispredict = AN_M("ctr_topdown_br_mispredict"),
	    .fetch_lat = AN_M("ctr_topdown_fetch_lat"),
	    .mem_bound = AN_M("ctr_topdown_mem_bound"),
	};
	struct lab_an_tma_amd_in amd = {
	    .width = zen5 ? 8 : 6,
	    .ls_not_halted_cyc = AN_M("ctr_ls_not_halted_cyc"),
	    .no_ops_from_frontend = AN_M("ctr_de_no_dispatch_per_slot_no_ops_from_frontend"),
	    .backend_stalls = AN_M("ctr_de_no_dispatch_per_slot_backend_stalls"),
	    .smt_contention = AN_M("ctr_de_no_dispatch_per_slot_smt_contention"),
	    .ex_ret_ops = AN_M("ctr_ex_ret_ops"),
	    .de_src_op_disp_all = AN_M("ctr_de_src_op_disp_all"),
	    .load_not_complete = AN_M("ctr_ex_no_retire_load_not_complete"),
	    .not_complete = AN_M("ctr_ex_no_retire_not_complete"),
	    .no_ops_from_frontend_cmask =
	        AN_M(zen5 ? "ctr_de_no_dispatch_per_slot_no_ops_from_frontend_cmask8"
	                  : "ctr_de_no_dispatch_per_slot_no_ops_from_frontend_cmask6"),
	    .ex_ret_brn_misp = AN_M("ctr_ex_ret_brn_misp"),
	    .resyncs_or_nc_redirects = AN_M("ctr_resyncs_or_nc_redirects"),
	};

	if (!strcmp(c->method, "intel_4wide"))
		lab_an_tma_intel_4wide(&i4, &e->tma);
	else if (!strcmp(c->method, "intel_perf_metrics"))
		lab_an_tma_intel_perf_metrics(&pm, &e->tma);
	else
		lab_an_tma_amd_pipeline(&amd, &e->tma);
}

static void an_topdown(const struct lab_an_data *d, struct lab_an_ctrs *c, struct lab_an_ctr_pt *e)
{
	const struct lab_an_json *h = lab_an_json_get(lab_an_json_get(d->run, "host"), "counters");
	const char *why = lab_an_json_str(h, "topdown_reason");
	/* the first event level 1 needs (its reason when it was not counted) */
	const char *lead = !strcmp(c->method, "intel_4wide") ? "ctr_cpu_clk_unhalted_thread"
	                   : !strcmp(c->method, "intel_perf_metrics") ? "ctr_slots"
	                                                              : "ctr_ls_not_halted_cyc";
	char buf[200], why2[256];

	e->tma_reason = "";
	if (!strcmp(c->method, "intel_4wide") || !strcmp(c->method, "intel_perf_metrics") ||
	    !strcmp(c->method, "amd_pipeline"))
		an_tma(h, c, e);
	else
		lab_an_tma_unavailable(why && *why ? why
		                       : h         ? "no top-down method for this CPU"
		                                   : "run.json records no host.counters",
		                       &e->tma);
	if (e->tma.level == 0 && strcmp(c->method, "none")) {
		an_why(c, e->pt, lead, buf, sizeof(buf));
		snprintf(why2, sizeof(why2), "%s (%s)",
		         e->tma.reason ? e->tma.reason : "not computed", buf);
		e->tma_reason = an_keep(c, why2);
	} else if (e->tma.level < 2 && e->tma.reason) {
		e->tma_reason = an_keep(c, e->tma.reason);
	}
}

static void an_derive(const struct lab_an_data *d, struct lab_an_ctrs *c, struct lab_an_ctr_pt *e)
{
	an_ratio(c, e, LAB_AN_CD_IPC, "ctr_instructions", "ctr_cycles", 1);
	an_clock(c, e);
	an_ratio(c, e, LAB_AN_CD_CACHE_MPKI, "ctr_cache_misses", "ctr_instructions", 1000);
	an_ratio(c, e, LAB_AN_CD_BRANCH_MPKI, "ctr_branch_misses", "ctr_instructions", 1000);
	an_ratio(c, e, LAB_AN_CD_L1D_MPKI, "ctr_l1_dcache_load_misses", "ctr_instructions", 1000);
	an_topdown(d, c, e);
}

/* The median of the values of data metric m (-1: none) in the samples of p that inc (1: all)
 * or their flag admits; *nv: how many; tmp holds 2 p->n doubles. */
static double an_median(const struct lab_an_point *p, long m, int inc, double *tmp, size_t *nv)
{
	struct lab_an_stats st;
	size_t n = 0;

	for (size_t i = 0; m >= 0 && i < p->n; i++)
		if ((inc || !p->flagged[i]) && !isnan(lab_an_metric(p, i, (size_t)m)))
			tmp[n++] = lab_an_metric(p, i, (size_t)m);
	lab_an_stats_compute(tmp, *nv = n, tmp + p->n, &st);
	return n ? st.median : NAN;
}

/* Why point p has no hardware value: its first hardware column's status, else the host's. */
static void an_hw_why(const struct lab_an_data *d, const struct lab_an_ctrs *c,
                      const struct lab_an_point *p, char *buf, size_t len)
{
	const struct lab_an_json *h = lab_an_json_get(lab_an_json_get(d->run, "host"), "counters");
	const char *why = lab_an_json_str(h, "reason");
	const struct lab_an_json *av = lab_an_json_get(h, "available");

	for (size_t k = 0; k < c->ncol; k++)
		if (!an_is_sw(c->col[k])) {
			an_why(c, p, c->col[k], buf, len);
			return;
		}
	if (why && *why && av && av->type == LAB_AN_JSON_BOOL && !av->num)
		snprintf(buf, len, "%s", why);
	else
		snprintf(buf, len, "no hardware events requested (events = sw)");
}

int lab_an_ctrs_init(const struct lab_an_data *d, struct lab_an_ctrs *c, size_t npoints)
{
	const struct lab_an_json *h = lab_an_json_get(lab_an_json_get(d->run, "host"), "counters");
	long mux = an_metric(d, "ctr_mux_ratio");
	size_t ncol = 0, n, np = npoints + 1;
	char *b;

	for (size_t m = 0; m < d->nmetric; m++)
		ncol += !strncmp(d->metric_name[m], "ctr_", 4) && (long)m != mux;
	/* medians of the counter columns alone (all metrics' took 16 bytes a metric a point) */
	n = npoints * ncol + 1;
	b = calloc(1, np * sizeof(*c->p) + n * (sizeof(double) + sizeof(size_t)) +
	                  (ncol + 1) * (sizeof(size_t) + sizeof(char *)));
	c->method =
	    lab_an_json_str(h, "topdown_method") ? lab_an_json_str(h, "topdown_method") : "none";
	c->core_ghz = lab_an_json_num(lab_an_json_get(d->run, "self_check"), "core_ghz", NAN);
	/* a core clock no CPU runs at (a file's 1e300) estimates no cycles: none is estimated */
	if (!(c->core_ghz >= 0.01 && c->core_ghz <= 100))
		c->core_ghz = NAN;
	c->mux_m = mux;
	if (!(c->p = (void *)b)) /* one block, every part 8-byte aligned */
		return -1;
	c->medv = (double *)(b + np * sizeof(*c->p));
	c->mcol = (c->nvalv = (size_t *)(c->medv + n)) + n;
	c->col = (const char **)(c->mcol + ncol + 1);
	for (size_t m = 0; m < d->nmetric; m++)
		if (!strncmp(d->metric_name[m], "ctr_", 4) && (long)m != c->mux_m) {
			c->col[c->ncol] = d->metric_name[m];
			c->mcol[c->ncol++] = m;
		}
	return 0;
}

void lab_an_ctrs_free(struct lab_an_ctrs *c)
{
	lab_an_strset_free_owned(&c->why);
	free(c->p); /* and the columns and medians: one block */
}

void lab_an_ctrs_point(const struct lab_an_data *d, struct lab_an_ctrs *c,
                       const struct lab_an_point *p, int inc, double *tmp)
{
	long csw = an_metric(d, "ctr_context_switches"), mig = an_metric(d, "ctr_cpu_migrations");
	size_t nrq;
	struct lab_an_ctr_pt *e = &c->p[c->np++];

	e->pt = p;
	e->med = c->medv + (size_t)(e - c->p) * c->ncol;
	e->nval = c->nvalv + (size_t)(e - c->p) * c->ncol;
	for (size_t i = 0; i < p->n; i++)
		e->n += inc || !p->flagged[i];
	if ((e->all_flagged = !e->n && p->n))
		inc = 1, e->n = p->n;
	e->mux_min = NAN;
	for (size_t i = 0; i < p->n; i++) {
		double x = c->mux_m < 0 ? NAN : lab_an_metric(p, i, (size_t)c->mux_m);

		if ((inc || !p->flagged[i]) && !isnan(x) && !(x >= e->mux_min))
			e->mux_min = x;
		e->csw_samples += csw >= 0 && lab_an_metric(p, i, (size_t)csw) > 0;
		e->mig_samples += mig >= 0 && lab_an_metric(p, i, (size_t)mig) > 0;
	}
	e->runq_med = an_median(p, an_metric(d, LAB_COL_RUNQ_WAIT), inc, tmp, &nrq);
	for (size_t k = 0; k < c->ncol; k++) {
		e->med[k] = an_median(p, (long)c->mcol[k], inc, tmp, &e->nval[k]);
		e->has_hw |= e->nval[k] && !an_is_sw(c->col[k]);
	}
	e->hw_reason = "";
	if (!e->has_hw) {
		char buf[256];

		an_hw_why(d, c, p, buf, sizeof(buf));
		e->hw_reason = an_keep(c, buf);
	}
	if (!e->has_hw && !c->any_hw && !*c->hw_reason)
		snprintf(c->hw_reason, sizeof(c->hw_reason), "%s", e->hw_reason);
	c->any_hw |= e->has_hw;
	an_derive(d, c, e);
}
