/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The event catalogue, the presets and the `events =` parser. Raw configs follow the kernel's
 * perf JSON (tools/perf/pmu-events/arch/x86): config = event | umask << 8 | cmask << 24, plus
 * (event >> 8) << 32 on AMD. Each formula's events form one group.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "harness/counters.h"

struct ctr_def {
	const char *name;
	uint32_t type;
	uint64_t config;
};

#define SW(n, c)                                                                                   \
	{                                                                                          \
		n, PERF_TYPE_SOFTWARE, c                                                           \
	}
#define HW(n, c)                                                                                   \
	{                                                                                          \
		n, PERF_TYPE_HARDWARE, c                                                           \
	}
#define RAW(n, c)                                                                                  \
	{                                                                                          \
		n, PERF_TYPE_RAW, c                                                                \
	}

enum {
	E_TASK_CLOCK,
	E_PAGE_FAULTS,
	E_CSW,
	E_MIGRATIONS,
	E_CYCLES,
	E_INSTRUCTIONS,
	E_CACHE_REFS,
	E_CACHE_MISSES,
	E_BRANCHES,
	E_BRANCH_MISSES,
	E_L1D_MISSES,
	/* Intel Skylake-SP / Cascade Lake */
	E_SKX_CLK,
	E_SKX_IDQ_NOT_DELIV,
	E_SKX_ISSUED,
	E_SKX_RETIRE_SLOTS,
	E_SKX_RECOVERY,
	E_SKX_STALLS_MEM,
	E_SKX_STALLS_TOTAL,
	E_SKX_BOUND_STORES,
	E_SKX_1_PORTS,
	E_SKX_2_PORTS,
	/* Intel perf-metrics (Ice Lake and later) */
	E_SLOTS,
	E_TD_RET,
	E_TD_BAD,
	E_TD_FE,
	E_TD_BE,
	E_TD_HEAVY,
	E_TD_BRM,
	E_TD_FETCH_LAT,
	E_TD_MEM,
	/* Intel FP_ARITH_INST_RETIRED, double precision */
	E_FP_SD,
	E_FP_128PD,
	E_FP_256PD,
	E_FP_512PD,
	/* AMD Zen 4 / Zen 5 */
	E_AMD_CYC,
	E_AMD_RET_OPS,
	E_AMD_DISP,
	E_AMD_FE,
	E_AMD_FE_C6,
	E_AMD_FE_C8,
	E_AMD_BE,
	E_AMD_SMT,
	E_AMD_NOT_COMPL,
	E_AMD_LOAD_NC,
	E_AMD_MISP,
	E_AMD_RESYNC,
	E_AMD_FLOPS,
	E_COUNT
};

static const struct ctr_def ctr_defs[E_COUNT] = {
    [E_TASK_CLOCK] = SW("task-clock", PERF_COUNT_SW_TASK_CLOCK),
    [E_PAGE_FAULTS] = SW("page-faults", PERF_COUNT_SW_PAGE_FAULTS),
    [E_CSW] = SW("context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES),
    [E_MIGRATIONS] = SW("cpu-migrations", PERF_COUNT_SW_CPU_MIGRATIONS),
    [E_CYCLES] = HW("cycles", PERF_COUNT_HW_CPU_CYCLES),
    [E_INSTRUCTIONS] = HW("instructions", PERF_COUNT_HW_INSTRUCTIONS),
    [E_CACHE_REFS] = HW("cache-references", PERF_COUNT_HW_CACHE_REFERENCES),
    [E_CACHE_MISSES] = HW("cache-misses", PERF_COUNT_HW_CACHE_MISSES),
    [E_BRANCHES] = HW("branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS),
    [E_BRANCH_MISSES] = HW("branch-misses", PERF_COUNT_HW_BRANCH_MISSES),
    [E_L1D_MISSES] = {"L1-dcache-load-misses", PERF_TYPE_HW_CACHE,
                      PERF_COUNT_HW_CACHE_L1D | PERF_COUNT_HW_CACHE_OP_READ << 8 |
                          PERF_COUNT_HW_CACHE_RESULT_MISS << 16},
    [E_SKX_CLK] = RAW("cpu_clk_unhalted.thread", 0x3c),
    [E_SKX_IDQ_NOT_DELIV] = RAW("idq_uops_not_delivered.core", 0x019c),
    [E_SKX_ISSUED] = RAW("uops_issued.any", 0x010e),
    [E_SKX_RETIRE_SLOTS] = RAW("uops_retired.retire_slots", 0x02c2),
    [E_SKX_RECOVERY] = RAW("int_misc.recovery_cycles", 0x010d),
    [E_SKX_STALLS_MEM] = RAW("cycle_activity.stalls_mem_any", 0x140014a3),
    [E_SKX_STALLS_TOTAL] = RAW("cycle_activity.stalls_total", 0x040004a3),
    [E_SKX_BOUND_STORES] = RAW("exe_activity.bound_on_stores", 0x40a6),
    [E_SKX_1_PORTS] = RAW("exe_activity.1_ports_util", 0x02a6),
    [E_SKX_2_PORTS] = RAW("exe_activity.2_ports_util", 0x04a6),
    [E_SLOTS] = RAW("slots", 0x0400),
    [E_TD_RET] = RAW("topdown-retiring", 0x8000),
    [E_TD_BAD] = RAW("topdown-bad-spec", 0x8100),
    [E_TD_FE] = RAW("topdown-fe-bound", 0x8200),
    [E_TD_BE] = RAW("topdown-be-bound", 0x8300),
    [E_TD_HEAVY] = RAW("topdown-heavy-ops", 0x8400),
    [E_TD_BRM] = RAW("topdown-br-mispredict", 0x8500),
    [E_TD_FETCH_LAT] = RAW("topdown-fetch-lat", 0x8600),
    [E_TD_MEM] = RAW("topdown-mem-bound", 0x8700),
    [E_FP_SD] = RAW("fp_arith_inst_retired.scalar_double", 0x01c7),
    [E_FP_128PD] = RAW("fp_arith_inst_retired.128b_packed_double", 0x04c7),
    [E_FP_256PD] = RAW("fp_arith_inst_retired.256b_packed_double", 0x10c7),
    [E_FP_512PD] = RAW("fp_arith_inst_retired.512b_packed_double", 0x40c7),
    [E_AMD_CYC] = RAW("ls_not_halted_cyc", 0x76),
    [E_AMD_RET_OPS] = RAW("ex_ret_ops", 0xc1),
    [E_AMD_DISP] = RAW("de_src_op_disp.all", 0x07aa),
    [E_AMD_FE] = RAW("de_no_dispatch_per_slot.no_ops_from_frontend", 0x1000001a0ull),
    [E_AMD_FE_C6] = RAW("de_no_dispatch_per_slot.no_ops_from_frontend.cmask6", 0x1060001a0ull),
    [E_AMD_FE_C8] = RAW("de_no_dispatch_per_slot.no_ops_from_frontend.cmask8", 0x1080001a0ull),
    [E_AMD_BE] = RAW("de_no_dispatch_per_slot.backend_stalls", 0x100001ea0ull),
    [E_AMD_SMT] = RAW("de_no_dispatch_per_slot.smt_contention", 0x1000060a0ull),
    [E_AMD_NOT_COMPL] = RAW("ex_no_retire.not_complete", 0x02d6),
    [E_AMD_LOAD_NC] = RAW("ex_no_retire.load_not_complete", 0xa2d6),
    [E_AMD_MISP] = RAW("ex_ret_brn_misp", 0xc3),
    [E_AMD_RESYNC] = RAW("resyncs_or_nc_redirects", 0x96),
    [E_AMD_FLOPS] = RAW("fp_ret_sse_avx_ops.all", 0x1f03),
};

_Static_assert(E_COUNT <= LAB_CTR_EVENTS_MAX, "the catalogue outgrew the event mask");

static char ctr_columns[E_COUNT][80];
static pthread_once_t ctr_columns_once = PTHREAD_ONCE_INIT;

static void ctr_columns_init(void)
{
	for (unsigned i = 0; i < E_COUNT; i++) {
		char *c = ctr_columns[i];
		snprintf(c, sizeof(ctr_columns[i]), "ctr_%s", ctr_defs[i].name);
		for (; *c; c++)
			*c = *c == '-' || *c == '.' ? '_' : (char)tolower((unsigned char)*c);
	}
}

unsigned lab_ctr_nevents(void)
{
	return E_COUNT;
}

const char *lab_ctr_event_name(unsigned ev)
{
	return ev < E_COUNT ? ctr_defs[ev].name : "?";
}

const char *lab_ctr_event_column(unsigned ev)
{
	pthread_once(&ctr_columns_once, ctr_columns_init);
	return ev < E_COUNT ? ctr_columns[ev] : "ctr_unknown";
}

bool lab_ctr_event_is_sw(unsigned ev)
{
	return ev < E_COUNT && ctr_defs[ev].type == PERF_TYPE_SOFTWARE;
}

void lab_ctr_event_attr(unsigned ev, struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = ctr_defs[ev].type;
	attr->config = ctr_defs[ev].config;
}

int lab_ctr_event_find(const char *name)
{
	for (unsigned i = 0; i < E_COUNT; i++)
		if (!strcmp(ctr_defs[i].name, name))
			return (int)i;
	return -1;
}

const char *lab_ctr_method_name(enum lab_ctr_method m)
{
	static const char *const names[] = {
	    "none",         "intel_4wide", "intel_perf_metrics", "intel_perf_metrics",
	    "amd_pipeline", "amd_pipeline"};

	return names[m];
}

/* Zen 4 models of family 0x19 (Genoa, Raphael, Phoenix, Bergamo/Siena); the rest is Zen 3. */
static bool ctr_is_zen4(unsigned model)
{
	return (model >= 0x10 && model <= 0x1f) || (model >= 0x60 && model <= 0x7f) ||
	       (model >= 0xa0 && model <= 0xaf);
}

enum lab_ctr_method lab_ctr_method_select(const char *vendor, unsigned family, unsigned model,
                                          bool topdown_fe, bool topdown_mem, const char **why)
{
	*why = "";
	if (!strcmp(vendor, "GenuineIntel")) {
		if (topdown_fe)
			return topdown_mem ? LAB_TMA_INTEL_PERF_METRICS2
			                   : LAB_TMA_INTEL_PERF_METRICS;
		/* Skylake-SP/Cascade Lake, and the Skylake client cores (Skylake, Kaby, Coffee,
		 * Whiskey, Comet Lake): 4 slots a cycle, the same events */
		if (family == 6 &&
		    (model == 0x55 || model == 0x4e || model == 0x5e || model == 0x8e ||
		     model == 0x9e || model == 0xa5 || model == 0xa6))
			return LAB_TMA_INTEL_4WIDE;
		*why =
		    "Intel CPU without the perf-metrics PMU (cpu/events/topdown-fe-bound) and not "
		    "of the Skylake family: no built-in top-down";
		return LAB_TMA_NONE;
	}
	if (!strcmp(vendor, "AuthenticAMD")) {
		if (family == 0x1a)
			return LAB_TMA_AMD_ZEN5;
		if (family == 0x19 && ctr_is_zen4(model))
			return LAB_TMA_AMD_ZEN4;
		/* what CPUID says, not what the CPU is: a virtual machine may show another model
		 * than its host's (KVM's "AMD EPYC" reads family 0x19 model 0x01 on a Zen 5 host,
		 * probes42) */
		*why = family == 0x19
		           ? "CPUID reads AMD Zen 3 (family 0x19; a virtual machine may report a "
		             "model "
		             "other than its host's), which lacks dispatch-slot events: no top-down"
		           : "CPUID reads AMD before Zen 4 (a virtual machine may report a model "
		             "other "
		             "than its host's), which lacks dispatch-slot events: no top-down";
		return LAB_TMA_NONE;
	}
	if (!strcmp(vendor, "HygonGenuine")) {
		*why = "Hygon (a Zen 1 derivative) lacks dispatch-slot events: no top-down";
		return LAB_TMA_NONE;
	}
	*why = "unknown CPU vendor: no built-in top-down";
	return LAB_TMA_NONE;
}

struct ctr_preset {
	const char *name;
	unsigned bit;
	const char *help;
};

static const struct ctr_preset ctr_presets[] = {
    {"sw", LAB_CTR_P_SW, "task-clock, page-faults, context-switches, cpu-migrations"},
    {"ipc", LAB_CTR_P_IPC, "cycles, instructions"},
    {"cache", LAB_CTR_P_CACHE, "instructions, cache-references, cache-misses, L1D misses"},
    {"branch", LAB_CTR_P_BRANCH, "instructions, branches, branch-misses"},
    {"topdown", LAB_CTR_P_TOPDOWN, "top-down level 1 and 2 for this CPU's method"},
    {"flops", LAB_CTR_P_FLOPS, "retired floating-point operations (double precision)"},
};

int lab_ctr_req_parse(const char *text, struct lab_ctr_req *req, struct lab_err *err)
{
	struct lab_ctr_req r = {0, 0};
	const char *s = text;

	for (;;) {
		while (*s && (isspace((unsigned char)*s) || *s == '+'))
			s++;
		if (!*s)
			break;
		size_t n = strcspn(s, " \t+");
		char tok[80];
		snprintf(tok, sizeof(tok), "%.*s", (int)(n < sizeof(tok) - 1 ? n : sizeof(tok) - 1),
		         s);
		s += n;
		bool found = false;
		for (size_t p = 0; p < sizeof(ctr_presets) / sizeof(ctr_presets[0]); p++)
			if (!strcmp(tok, ctr_presets[p].name)) {
				r.presets |= ctr_presets[p].bit;
				found = true;
			}
		int ev = found ? -1 : lab_ctr_event_find(tok);
		if (ev >= 0)
			r.events |= 1ull << ev;
		else if (!found && strchr(tok, ':'))
			return lab_err_set(
			    err, LAB_ECONFIG,
			    "event '%s': libpfm4 not built in (allowed: presets sw, ipc, "
			    "cache, branch, topdown, flops, or an event `lab counters` "
			    "lists)",
			    tok);
		else if (!found)
			return lab_err_set(
			    err, LAB_ECONFIG,
			    "unknown event '%s' (allowed: presets sw, ipc, cache, branch, "
			    "topdown, flops, or an event `lab counters` lists, separated "
			    "by spaces or '+')",
			    tok);
	}
	if (!r.presets && !r.events)
		return lab_err_set(
		    err, LAB_ECONFIG,
		    "no events (allowed: presets sw, ipc, cache, branch, topdown, flops, "
		    "or event names)");
	if (req)
		*req = r;
	return 0;
}

static unsigned ctr_add(struct lab_ctr_group *g, unsigned *n, unsigned max, const char *formula,
                        bool sw, const uint8_t *ev, unsigned nev)
{
	if (*n >= max || nev == 0)
		return 0;
	struct lab_ctr_group *x = &g[(*n)++];
	memset(x, 0, sizeof(*x));
	x->formula = formula;
	x->sw = sw;
	x->n = nev;
	memcpy(x->ev, ev, nev);
	return 1;
}

#define ADD(formula, sw, ...)                                                                      \
	do {                                                                                       \
		static const uint8_t ev_[] = {__VA_ARGS__};                                        \
		ctr_add(g, &n, max, formula, sw, ev_, sizeof(ev_));                                \
	} while (0)

static void ctr_topdown_groups(enum lab_ctr_method m, struct lab_ctr_group *g, unsigned *np,
                               unsigned max)
{
	unsigned n = *np;

	switch (m) {
	case LAB_TMA_INTEL_4WIDE:
		ADD("tma_l1", false, E_SKX_CLK, E_SKX_IDQ_NOT_DELIV, E_SKX_ISSUED,
		    E_SKX_RETIRE_SLOTS, E_SKX_RECOVERY);
		ADD("tma_l2", false, E_SKX_STALLS_MEM, E_SKX_STALLS_TOTAL, E_SKX_BOUND_STORES,
		    E_SKX_1_PORTS, E_SKX_2_PORTS);
		break;
	case LAB_TMA_INTEL_PERF_METRICS:
		ADD("tma_l1", false, E_SLOTS, E_TD_RET, E_TD_BAD, E_TD_FE, E_TD_BE);
		break;
	case LAB_TMA_INTEL_PERF_METRICS2:
		ADD("tma_l1l2", false, E_SLOTS, E_TD_RET, E_TD_BAD, E_TD_FE, E_TD_BE, E_TD_HEAVY,
		    E_TD_BRM, E_TD_FETCH_LAT, E_TD_MEM);
		break;
	case LAB_TMA_AMD_ZEN4:
		ADD("tma_l1", false, E_AMD_CYC, E_AMD_FE, E_AMD_BE, E_AMD_SMT, E_AMD_RET_OPS,
		    E_AMD_DISP);
		ADD("tma_l2", false, E_AMD_CYC, E_AMD_NOT_COMPL, E_AMD_LOAD_NC, E_AMD_FE_C6,
		    E_AMD_MISP, E_AMD_RESYNC);
		break;
	case LAB_TMA_AMD_ZEN5:
		ADD("tma_l1", false, E_AMD_CYC, E_AMD_FE, E_AMD_BE, E_AMD_SMT, E_AMD_RET_OPS,
		    E_AMD_DISP);
		ADD("tma_l2", false, E_AMD_CYC, E_AMD_NOT_COMPL, E_AMD_LOAD_NC, E_AMD_FE_C8);
		break;
	case LAB_TMA_NONE:
		break;
	}
	*np = n;
}

unsigned lab_ctr_req_groups(const struct lab_ctr_req *req, enum lab_ctr_method method,
                            struct lab_ctr_group *g, unsigned max)
{
	unsigned n = 0;
	uint8_t sw[LAB_CTR_GROUP_MAX], hw[LAB_CTR_GROUP_MAX];
	unsigned nsw = 0, nhw = 0;

	/*
	 * page-faults leads: under a task-clock leader it stops counting after the first
	 * disable/enable cycle (seen on Linux 6.18; tests/kernels/test_counters_sw.c).
	 */
	if (req->presets & LAB_CTR_P_SW)
		ADD("sw", true, E_PAGE_FAULTS, E_TASK_CLOCK, E_CSW, E_MIGRATIONS);
	if (req->presets & LAB_CTR_P_IPC)
		ADD("ipc", false, E_CYCLES, E_INSTRUCTIONS);
	if (req->presets & LAB_CTR_P_CACHE)
		ADD("cache", false, E_INSTRUCTIONS, E_CACHE_REFS, E_CACHE_MISSES, E_L1D_MISSES);
	if (req->presets & LAB_CTR_P_BRANCH)
		ADD("branch", false, E_INSTRUCTIONS, E_BRANCHES, E_BRANCH_MISSES);
	if (req->presets & LAB_CTR_P_TOPDOWN)
		ctr_topdown_groups(method, g, &n, max);
	if ((req->presets & LAB_CTR_P_FLOPS) &&
	    (method == LAB_TMA_INTEL_4WIDE || method == LAB_TMA_INTEL_PERF_METRICS ||
	     method == LAB_TMA_INTEL_PERF_METRICS2))
		ADD("flops", false, E_FP_SD, E_FP_128PD, E_FP_256PD, E_FP_512PD);
	if ((req->presets & LAB_CTR_P_FLOPS) &&
	    (method == LAB_TMA_AMD_ZEN4 || method == LAB_TMA_AMD_ZEN5))
		ADD("flops", false, E_AMD_FLOPS);
	/* Single events: software ones in their own group (a software group always counts). */
	for (unsigned e = 0; e < E_COUNT; e++) {
		if (!(req->events >> e & 1))
			continue;
		if (lab_ctr_event_is_sw(e) && nsw < LAB_CTR_GROUP_MAX)
			sw[nsw++] = (uint8_t)e;
		else if (!lab_ctr_event_is_sw(e) && nhw < LAB_CTR_GROUP_MAX)
			hw[nhw++] = (uint8_t)e;
	}
	ctr_add(g, &n, max, "events_sw", true, sw, nsw);
	ctr_add(g, &n, max, "events", false, hw, nhw);
	return n;
}

uint64_t lab_ctr_req_mask(const struct lab_ctr_req *req, enum lab_ctr_method method)
{
	struct lab_ctr_group g[LAB_CTR_GROUPS_MAX];
	unsigned n = lab_ctr_req_groups(req, method, g, LAB_CTR_GROUPS_MAX);
	uint64_t mask = 0;

	for (unsigned i = 0; i < n; i++)
		for (unsigned k = 0; k < g[i].n; k++)
			mask |= 1ull << g[i].ev[k];
	return mask;
}
