/* SPDX-License-Identifier: GPL-3.0-or-later */
/* counters.csv and the "counters" section of analysis.json. */
#include <math.h>
#include <string.h>

#include "analyze/jsonw.h"
#include "analyze/views/counters.h"
#include "analyze/wfile.h"
#include "harness/record_schema.h"

#define AN_CTR_CSV_COLUMNS                                                                         \
	"experiment,point,threads,n,task_clock_ns,page_faults,context_switches,cpu_migrations,"    \
	"samples_with_context_switches,samples_with_migrations,mux_ratio_min,ipc,ghz,"             \
	"ghz_estimated,cache_mpki,branch_mpki,l1d_mpki,topdown_method,retiring,"                   \
	"bad_speculation,frontend_bound,backend_bound,smt_contention,memory_bound,core_bound,"     \
	"hardware_reason,params"

static void an_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ",%.9g", v);
	else
		fputc(',', f);
}

static const char *const an_sw[] = {"ctr_task_clock", "ctr_page_faults", "ctr_context_switches",
                                    "ctr_cpu_migrations"};

static void an_csv_pt(FILE *f, const struct lab_an_ctrs *c, const struct lab_an_ctr_pt *e)
{
	const struct lab_an_tma *t = &e->tma;
	int td = t->level >= 1;

	lab_csv_field(f, e->pt->experiment);
	fprintf(f, ",%ld,%d,%zu", e->pt->id, e->pt->threads, e->n);
	for (int i = 0; i < 4; i++)
		an_num(f, lab_an_ctrs_med(c, e, an_sw[i]));
	fprintf(f, ",%zu,%zu", e->csw_samples, e->mig_samples);
	an_num(f, e->mux_min);
	an_num(f, e->dv[LAB_AN_CD_IPC].v);
	an_num(f, e->dv[LAB_AN_CD_GHZ].v);
	fprintf(f, ",%d", e->dv[LAB_AN_CD_GHZ].estimated);
	an_num(f, e->dv[LAB_AN_CD_CACHE_MPKI].v);
	an_num(f, e->dv[LAB_AN_CD_BRANCH_MPKI].v);
	an_num(f, e->dv[LAB_AN_CD_L1D_MPKI].v);
	fprintf(f, ",%s", t->method);
	an_num(f, td ? t->retiring : NAN);
	an_num(f, td ? t->bad_speculation : NAN);
	an_num(f, td ? t->frontend_bound : NAN);
	an_num(f, td ? t->backend_bound : NAN);
	an_num(f, td ? t->smt_contention : NAN);
	an_num(f, t->level >= 2 ? t->memory_bound : NAN);
	an_num(f, t->level >= 2 ? t->core_bound : NAN);
	fputc(',', f);
	lab_csv_field(f, e->has_hw ? "" : e->hw_reason);
	fputc(',', f);
	lab_csv_field(f, e->pt->params);
	fputc('\n', f);
}

int lab_an_ctrs_csv(const void *state, const char *path, struct lab_err *err)
{
	const struct lab_an_ctrs *c = state;
	struct lab_an_wfile w;
	FILE *f = lab_an_wfile_open(&w, path, err);

	if (!f)
		return -LAB_EIO;
	fputs(AN_CTR_CSV_COLUMNS "\n", f);
	for (size_t i = 0; i < c->np; i++)
		an_csv_pt(f, c, &c->p[i]);
	return lab_an_wfile_close(&w, 1, err);
}

/* A value that may be missing: {"value": x} or {"value": null, "reason": "..."}. */
static void an_json_val(struct lab_json *w, const char *key, const struct lab_an_ctr_val *v)
{
	lab_json_obj_open(w, key);
	lab_json_num(w, "value", v->v);
	if (v->estimated)
		lab_json_bool(w, "estimated", 1);
	if (isnan(v->v) || v->estimated)
		lab_json_str(w, "reason", v->reason);
	lab_json_obj_close(w);
}

static void an_json_tma(struct lab_json *w, const struct lab_an_ctr_pt *e)
{
	const struct lab_an_tma *t = &e->tma;

	if (t->level < 1) {
		lab_json_str(w, "topdown", NULL);
		lab_json_str(w, "topdown_reason", e->tma_reason);
		return;
	}
	lab_json_obj_open(w, "topdown");
	lab_json_str(w, "method", t->method);
	lab_json_obj_open(w, "level1");
	lab_json_num(w, "retiring", t->retiring);
	lab_json_num(w, "bad_speculation", t->bad_speculation);
	lab_json_num(w, "frontend_bound", t->frontend_bound);
	lab_json_num(w, "backend_bound", t->backend_bound);
	if (!isnan(t->smt_contention))
		lab_json_num(w, "smt_contention", t->smt_contention);
	lab_json_num(w, "bad_speculation_raw", t->bad_speculation_raw);
	lab_json_num(w, "sum", lab_an_tma_l1_sum(t));
	lab_json_obj_close(w);
	if (t->level < 2) {
		lab_json_str(w, "level2", NULL);
		lab_json_str(w, "level2_reason", e->tma_reason);
	} else {
		lab_json_obj_open(w, "level2");
		lab_json_num(w, "memory_bound", t->memory_bound);
		lab_json_num(w, "core_bound", t->core_bound);
		lab_json_num(w, "heavy_ops", t->heavy_ops);
		lab_json_num(w, "light_ops", t->light_ops);
		lab_json_num(w, "branch_mispredicts", t->branch_mispredicts);
		lab_json_num(w, "machine_clears", t->machine_clears);
		lab_json_num(w, "fetch_latency", t->fetch_latency);
		lab_json_num(w, "fetch_bandwidth", t->fetch_bandwidth);
		lab_json_obj_close(w);
	}
	lab_json_obj_close(w);
}

static void an_json_pt(struct lab_json *w, const struct lab_an_ctrs *c,
                       const struct lab_an_ctr_pt *e)
{
	lab_json_obj_open(w, NULL);
	lab_json_int(w, "point", e->pt->id);
	lab_json_int(w, "threads", e->pt->threads);
	lab_json_str(w, "params", e->pt->params);
	lab_json_str(w, "status", e->pt->status);
	lab_json_int(w, "n", (long long)e->n);
	lab_json_bool(w, "from_load_flagged_samples", e->all_flagged);
	lab_json_obj_open(w, "events");
	for (size_t k = 0; k < c->ncol; k++)
		lab_json_num(w, c->col[k] + 4, e->med[k]);
	lab_json_obj_close(w);
	lab_json_num(w, "mux_ratio_min", e->mux_min);
	lab_json_bool(w, "multiplexed", e->mux_min < 1);
	lab_json_int(w, "samples_with_context_switches", (long long)e->csw_samples);
	lab_json_int(w, "samples_with_migrations", (long long)e->mig_samples);
	lab_json_num(w, "runq_wait_median", e->runq_med);
	lab_json_bool(w, "hardware", e->has_hw);
	if (!e->has_hw)
		lab_json_str(w, "hardware_reason", e->hw_reason);
	lab_json_obj_open(w, "derived");
	for (int k = 0; k < LAB_AN_CD_N; k++)
		an_json_val(w, lab_an_ctr_derived_name[k], &e->dv[k]);
	lab_json_obj_close(w);
	an_json_tma(w, e);
	lab_json_obj_close(w);
}

void lab_an_ctrs_json(struct lab_json *w, const void *state, const char *exp)
{
	const struct lab_an_ctrs *c = state;

	lab_json_obj_open(w, "counters");
	lab_json_str(w, "events", "median per sample of the sum over threads (used samples)");
	lab_json_str(w, "derived", "ratios of the medians; value null with a reason when missing");
	lab_json_str(w, "topdown_method", c->method);
	lab_json_num(w, "core_ghz_estimated", c->core_ghz);
	lab_json_bool(w, "hardware", c->any_hw);
	if (!c->any_hw)
		lab_json_str(w, "hardware_reason", c->hw_reason);
	lab_json_arr_open(w, "points");
	for (size_t i = 0; i < c->np; i++)
		if (!strcmp(c->p[i].pt->experiment, exp))
			an_json_pt(w, c, &c->p[i]);
	lab_json_arr_close(w);
	lab_json_obj_close(w);
}
