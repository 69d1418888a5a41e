/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A point entry of run.json, checked before anything of it is used (data_int.h): its id, thread
 * count and status, its params, its CPUs, what its kernel found (point_facts), its run level
 * and precision, its work per unit. Every value a view prints or computes with is held to what
 * the harness writes, so a hand-edited file is refused with FILE:LINE instead of printing a
 * 309-digit CPU number or a page count of -1.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/data_int.h"
#include "harness/record_schema.h"

/* The largest whole number a double holds exactly: counts and ids above it lose units. */
#define AN_WHOLE_MAX 9007199254740992.0

/* v is a number, whole, in [lo, hi]. */
static int an_whole(const struct lab_an_json *v, double lo, double hi)
{
	return v->type == LAB_AN_JSON_NUM && v->num >= lo && v->num <= hi &&
	       v->num == floor(v->num);
}

/* A params item that would not survive the "k=v;k=v" form the points are matched by. */
static int an_param_bad(const char *key, const struct lab_an_json *v)
{
	if (!*key || strpbrk(key, ";="))
		return 1;
	if (v->type == LAB_AN_JSON_NUM)
		return 0;
	return v->type != LAB_AN_JSON_STR || strchr(v->str, ';');
}

/* "params": an object of at most LAB_AN_PARAMS_MAX items, each a key=value that survives. */
static int an_params_check(const char *path, const struct lab_an_json *jp, struct lab_err *err)
{
	const struct lab_an_json *v = lab_an_json_get(jp, LAB_KEY_PARAMS);

	if (v && v->type != LAB_AN_JSON_OBJ)
		return lab_err_set(err, LAB_EDATA, "%s:%u: \"%s\": allowed: an object", path,
		                   v->line, LAB_KEY_PARAMS);
	if (v && v->n > LAB_AN_PARAMS_MAX)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: \"%s\" holds %zu items, allowed: at most %d (a kernel "
		                   "declares fewer than 40 keys)",
		                   path, v->line, LAB_KEY_PARAMS, (size_t)v->n, LAB_AN_PARAMS_MAX);
	for (size_t i = 0; v && i < v->n; i++)
		if (an_param_bad(v->keys[i], &v->items[i]))
			return lab_err_set(
			    err, LAB_EDATA,
			    "%s:%u: param '%.64s': allowed: a key without ';' or '=' "
			    "and a string or number value without ';'",
			    path, v->items[i].line, v->keys[i]);
	/* the point's placement is matched against samples.csv's params as one: a number or an
	 * object there skipped that check */
	v = lab_an_json_get(jp, LAB_KEY_PLACEMENT);
	if (v && (v->type != LAB_AN_JSON_STR || !*v->str || strchr(v->str, ';')))
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: \"%s\": allowed: a placement's text (not empty, no ';')",
		                   path, v->line, LAB_KEY_PLACEMENT);
	return 0;
}

/* (CPU, index in "cpus"), sorted by CPU then index: a CPU listed twice follows itself. */
static int an_cpu_cmp(const void *a, const void *b)
{
	const long *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return (x[1] > y[1]) - (x[1] < y[1]);
}

/* The index of the first item of cpus (whole numbers) whose CPU an earlier item has, or
 * (size_t)-1 when each is there once; n log n. *oom set when memory runs out. */
static size_t an_cpus_repeat(const struct lab_an_json *cpus, int *oom)
{
	long *c = malloc(2 * (cpus->n ? cpus->n : 1) * sizeof(*c));
	size_t again = (size_t)-1;

	if (!(*oom = !c) && cpus->n > 1) {
		for (size_t i = 0; i < cpus->n; i++) {
			c[2 * i] = (long)cpus->items[i].num;
			c[2 * i + 1] = (long)i;
		}
		qsort(c, cpus->n, 2 * sizeof(*c), an_cpu_cmp);
		for (size_t i = 1; i < cpus->n; i++)
			if (c[2 * i] == c[2 * i - 2] && (size_t)c[2 * i + 1] < again)
				again = (size_t)c[2 * i + 1];
	}
	free(c);
	return again;
}

/* A point placed on a CPU pair (params pair = "A-B", placement = pairs) ran on A and B: the c2c
 * matrix reads "cpus", which said 7 and 9 beside pair 0-1 and drew a pair that never ran. */
static int an_pair_check(const char *path, const struct lab_an_json *jp,
                         const struct lab_an_json *cpus, struct lab_err *err)
{
	const struct lab_an_json *pair =
	    lab_an_json_get(lab_an_json_get(jp, LAB_KEY_PARAMS), "pair");
	double a, b;
	int end = 0;

	if (!pair || pair->type != LAB_AN_JSON_STR || cpus->n != 2)
		return 0;
	if (sscanf(pair->str, "%lf-%lf%n", &a, &b, &end) != 2 || pair->str[end] ||
	    !((cpus->items[0].num == a && cpus->items[1].num == b) ||
	      (cpus->items[0].num == b && cpus->items[1].num == a)))
		return lab_err_set(
		    err, LAB_EDATA,
		    "%s:%u: \"cpus\" [%.0f, %.0f] beside params pair '%.40s', allowed: "
		    "the pair's two CPUs",
		    path, cpus->line, cpus->items[0].num, cpus->items[1].num, pair->str);
	return 0;
}

/* "cpus": the OS CPU of each thread as the planner placed it: whole numbers 0 .. LAB_AN_CPU_MAX,
 * one per thread (or none: a point skipped before it had CPUs), each CPU once. The c2c matrix,
 * the placement warnings and the lessons' SMT notes read them without another check. */
static int an_cpus_check(const char *path, const struct lab_an_json *jp, struct lab_err *err)
{
	const struct lab_an_json *v = lab_an_json_get(jp, "cpus"), *st;
	double threads = lab_an_json_num(jp, LAB_KEY_THREADS, 0);
	size_t again;
	int oom;

	if (!v)
		return 0;
	st = lab_an_json_get(jp, LAB_KEY_STATUS);
	/* none only where nothing ran: a point that ran had a CPU per thread (a run cut before
	 * its skipped points wrote them "not_run" with none: its analysis was refused) */
	int idle = st && st->type == LAB_AN_JSON_STR &&
	           (!strcmp(st->str, "skipped") || !strcmp(st->str, "not_run") ||
	            !strcmp(st->str, "planned") || !strcmp(st->str, "running"));
	if (v->type != LAB_AN_JSON_ARR || ((double)v->n != threads && (v->n || !idle)))
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: \"cpus\": allowed: an array of one CPU per thread "
		                   "(%.0f), or [] for a point skipped before it had CPUs or not "
		                   "run",
		                   path, v->line, threads);
	for (size_t i = 0; i < v->n; i++)
		if (!an_whole(&v->items[i], 0, LAB_AN_CPU_MAX))
			return lab_err_set(
			    err, LAB_EDATA,
			    "%s:%u: \"cpus\" item %zu: allowed: a whole number 0 .. %d "
			    "(an OS CPU number)",
			    path, v->items[i].line, i + 1, LAB_AN_CPU_MAX);
	again = an_cpus_repeat(v, &oom);
	if (oom)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	if (again != (size_t)-1)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: \"cpus\" lists CPU %.0f again, allowed: each CPU once "
		                   "(one thread per CPU)",
		                   path, v->items[again].line, v->items[again].num);
	return an_pair_check(path, jp, v, err);
}

/* The facts the lab's kernels write (with lab_ctx_fact_*, harness/facts.h) and what each may
 * hold; the numa view prints them as they are. Other keys: a number, boolean, string or an
 * array of numbers. */
enum an_fact_kind {
	AN_FACT_COUNT,
	AN_FACT_COUNTS,
	AN_FACT_NODE,
	AN_FACT_BOOL,
	AN_FACT_STR,
	AN_FACT_CHAINS,
	AN_FACT_PCT,
	AN_FACT_TOP
};

/* perf_c2c_top: the hottest lines perf c2c found, as the harness writes them into 2048 bytes
 * (harness/perf_c2c_run.c); 100 000 lines in one point's string made 1.6 million lines of text
 * and a 169 MB analysis.json. */
#define AN_C2C_TOP_MAX 2047

/* The most chains of one op a peak variant runs (24 with AVX-512's 32 registers) */
#define AN_CHAINS_MAX 256

static const struct {
	const char *key;
	enum an_fact_kind kind;
	const char *allowed;
} an_facts[] = {
    {"pages_per_node", AN_FACT_COUNTS,
     "an array of at most 64 page counts (whole numbers 0 .. 2^53)"},
    {"threads_per_node", AN_FACT_COUNTS,
     "an array of at most 64 thread counts (whole numbers 0 .. 2^53)"},
    {"pages_absent", AN_FACT_COUNT, "a page count (a whole number 0 .. 2^53)"},
    {"pages_unknown", AN_FACT_COUNT, "a page count (a whole number 0 .. 2^53)"},
    {"streams", AN_FACT_COUNT, "a count of threads (a whole number 0 .. 2^53)"},
    {"cpu_node", AN_FACT_NODE, "a NUMA node number 0 .. 65535, or -1 (several)"},
    {"mem_node", AN_FACT_NODE, "a NUMA node number 0 .. 65535, or -1 (several)"},
    {"placement_ok", AN_FACT_BOOL, "true or false"},
    {"huge_pct", AN_FACT_PCT, "a percent of huge pages (a whole number 0 .. 100)"},
    {"placement_note", AN_FACT_STR, "a string"},
    {"init", AN_FACT_STR, "a string"},
    /* peak's: the roofline's add-pipes verdict reads them (mix_add 1e200 printed a 200-digit
     * gain) */
    {"fma_fused", AN_FACT_BOOL, "true or false"},
    {"mix_fma", AN_FACT_CHAINS, "a count of chains 0 .. 256"},
    {"mix_add", AN_FACT_CHAINS, "a count of chains 0 .. 256"},
    /* perf c2c's (harness/perf_c2c_run.c): lines is a count, -5 and 1e300 were printed */
    {"perf_c2c", AN_FACT_STR, "a string"},
    {"perf_c2c_lines", AN_FACT_COUNT, "a count of cache lines (a whole number 0 .. 2^53)"},
    {"perf_c2c_top", AN_FACT_TOP, "a string of at most 2047 bytes (the hottest lines)"},
};

/* NULL when v is what a fact of kind may hold, else the value that is not (v, or an item of
 * it), for its line. */
static const struct lab_an_json *an_fact_bad_value(enum an_fact_kind kind,
                                                   const struct lab_an_json *v)
{
	switch (kind) {
	case AN_FACT_COUNT:
		return an_whole(v, 0, AN_WHOLE_MAX) ? NULL : v;
	case AN_FACT_NODE:
		return an_whole(v, -1, LAB_AN_CPU_MAX) ? NULL : v;
	case AN_FACT_CHAINS:
		return an_whole(v, 0, AN_CHAINS_MAX) ? NULL : v;
	case AN_FACT_PCT:
		return an_whole(v, 0, 100) ? NULL : v;
	case AN_FACT_BOOL:
		return v->type == LAB_AN_JSON_BOOL ? NULL : v;
	case AN_FACT_STR:
		return v->type == LAB_AN_JSON_STR ? NULL : v;
	case AN_FACT_TOP:
		return v->type == LAB_AN_JSON_STR && strlen(v->str) <= AN_C2C_TOP_MAX ? NULL : v;
	case AN_FACT_COUNTS:
		if (v->type != LAB_AN_JSON_ARR || v->n > LAB_AN_FACT_NODES_MAX)
			return v;
		for (size_t i = 0; i < v->n; i++)
			if (!an_whole(&v->items[i], 0, AN_WHOLE_MAX))
				return &v->items[i];
		return NULL;
	}
	return v;
}

/* What point fact key with value v may hold when it does not (*at: the value that is not),
 * NULL when it does. */
static const char *an_fact_bad(const char *key, const struct lab_an_json *v,
                               const struct lab_an_json **at)
{
	static const char any[] = "a number, boolean, string or an array of numbers";

	*at = v;
	for (size_t k = 0; k < sizeof(an_facts) / sizeof(an_facts[0]); k++)
		if (!strcmp(key, an_facts[k].key))
			return (*at = an_fact_bad_value(an_facts[k].kind, v)) ? an_facts[k].allowed
			                                                      : NULL;
	if (v->type == LAB_AN_JSON_NUM || v->type == LAB_AN_JSON_BOOL || v->type == LAB_AN_JSON_STR)
		return NULL;
	if (v->type != LAB_AN_JSON_ARR)
		return any;
	for (size_t i = 0; i < v->n; i++)
		if (v->items[i].type != LAB_AN_JSON_NUM)
			return *at = &v->items[i], any;
	return NULL;
}

/* threads_per_node counts the point's threads by node (a thread on no known node in none):
 * no more than its threads in all ([1e10, 1] for 2 threads was printed as it was). */
static int an_fact_threads_check(const char *path, const struct lab_an_json *jp,
                                 const struct lab_an_json *tpn, struct lab_err *err)
{
	double sum = 0, threads = lab_an_json_num(jp, LAB_KEY_THREADS, NAN);

	for (size_t i = 0; tpn && i < tpn->n; i++)
		sum += tpn->items[i].num;
	if (tpn && sum > threads)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: point fact 'threads_per_node' counts %.0f threads, "
		                   "allowed: at most the point's %.0f",
		                   path, tpn->line, sum, threads);
	return 0;
}

static int an_facts_check(const char *path, const struct lab_an_json *jp, struct lab_err *err)
{
	const struct lab_an_json *v = lab_an_json_get(jp, LAB_KEY_POINT_FACTS), *at;
	const char *why;

	if (v && v->type != LAB_AN_JSON_OBJ)
		return lab_err_set(err, LAB_EDATA, "%s:%u: \"%s\": allowed: an object", path,
		                   v->line, LAB_KEY_POINT_FACTS);
	for (size_t i = 0; v && i < v->n; i++)
		if ((why = an_fact_bad(v->keys[i], &v->items[i], &at)))
			return lab_err_set(err, LAB_EDATA, "%s:%u: point fact '%.64s': allowed: %s",
			                   path, at->line, v->keys[i], why);
	return an_fact_threads_check(path, jp, lab_an_json_get(v, "threads_per_node"), err);
}

/* A member that is there and not a whole number 0 .. LAB_AN_COUNT_MAX. */
static int an_count_bad(const struct lab_an_json *v)
{
	return v && !an_whole(v, 0, LAB_AN_COUNT_MAX);
}

/* A member that is there and not a boolean. */
static int an_bool_bad(const struct lab_an_json *v)
{
	return v && v->type != LAB_AN_JSON_BOOL;
}

/* The run level and precision members as the harness writes them (harness/results_json.c):
 * unchecked, a target of 1e308 printed "+-inf% asked" and samples = -3 "with -3 samples". The
 * precision reached is printed as a percentage, which must be finite too. */
static int an_prec_check(const char *path, const struct lab_an_json *jp, struct lab_err *err)
{
	static const char *const counts[] = {LAB_KEY_RUNS, LAB_KEY_RUNS_PLANNED, LAB_KEY_SAMPLES,
	                                     LAB_KEY_REPS},
	                         *bools[] = {LAB_KEY_BUDGET_EXHAUSTED, LAB_KEY_TOTAL_EXHAUSTED};
	const struct lab_an_json *v;

	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		if (an_count_bad(v = lab_an_json_get(jp, counts[i])))
			return lab_err_set(err, LAB_EDATA,
			                   "%s:%u: \"%s\": allowed: a whole number 0 .. %.0f", path,
			                   v->line, counts[i], LAB_AN_COUNT_MAX);
	/* a config plans at most 1000 runs, a precision target at most LAB_PREC_N_MAX: 1e9 read
	 * "3 of 1000000000 runs: the run ended first" of a complete run */
	if ((v = lab_an_json_get(jp, LAB_KEY_RUNS_PLANNED)) && v->num > LAB_RUNS_PLANNED_MAX)
		return lab_err_set(err, LAB_EDATA, "%s:%u: \"%s\": allowed: a whole number 0 .. %u",
		                   path, v->line, LAB_KEY_RUNS_PLANNED, LAB_RUNS_PLANNED_MAX);
	if (lab_an_json_num(jp, LAB_KEY_RUNS, 0) >
	    lab_an_json_num(jp, LAB_KEY_RUNS_PLANNED, INFINITY))
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: \"%s\": allowed: at most \"%s\" (a point gets no more "
		                   "runs than planned)",
		                   path, lab_an_json_get(jp, LAB_KEY_RUNS)->line, LAB_KEY_RUNS,
		                   LAB_KEY_RUNS_PLANNED);
	for (size_t i = 0; i < 2; i++)
		if (an_bool_bad(v = lab_an_json_get(jp, bools[i])))
			return lab_err_set(err, LAB_EDATA, "%s:%u: \"%s\": allowed: true or false",
			                   path, v->line, bools[i]);
	v = lab_an_json_get(jp, LAB_KEY_PRECISION_TARGET);
	if (v && (v->type != LAB_AN_JSON_NUM ||
	          !(v->num >= LAB_PREC_TARGET_MIN && v->num <= LAB_PREC_TARGET_MAX)))
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: \"%s\": allowed: a fraction %g .. %g (what a config's "
		                   "precision may ask)",
		                   path, v->line, LAB_KEY_PRECISION_TARGET, LAB_PREC_TARGET_MIN,
		                   LAB_PREC_TARGET_MAX);
	v = lab_an_json_get(jp, LAB_KEY_PRECISION_ACHIEVED);
	if (v && v->type != LAB_AN_JSON_NULL &&
	    (v->type != LAB_AN_JSON_NUM || !(v->num >= 0) || !isfinite(100 * v->num)))
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: \"%s\": allowed: a number >= 0 whose percentage is "
		                   "finite, or null (unknown)",
		                   path, v->line, LAB_KEY_PRECISION_ACHIEVED);
	return 0;
}

/* The amounts a point declares per unit of work (harness/results_json.c), which become its GB/s
 * and flops/byte: unchecked, bytes_read = -8 gave 0 GB/s [0, 0]. */
static int an_work_check(const char *path, const struct lab_an_json *jp, struct lab_err *err)
{
	static const char *const keys[] = {"bytes_read", "bytes_written", "flops",
	                                   "bytes_write_allocate"};
	const struct lab_an_json *w = lab_an_json_get(jp, LAB_KEY_WORK_PER_UNIT), *v;

	if (w && w->type != LAB_AN_JSON_OBJ)
		return lab_err_set(err, LAB_EDATA, "%s:%u: \"%s\": allowed: an object", path,
		                   w->line, LAB_KEY_WORK_PER_UNIT);
	for (size_t i = 0; w && i < sizeof(keys) / sizeof(keys[0]); i++) {
		v = lab_an_json_get(w, keys[i]);
		/* a subnormal count made a bandwidth ceiling of 1e-320 GB/s and a point "inf%"
		 * above it */
		if (v && (v->type != LAB_AN_JSON_NUM || !(v->num >= 0) ||
		          !(v->num <= LAB_AN_WORK_PER_UNIT_MAX) ||
		          (v->num > 0 && v->num < LAB_AN_WORK_PER_UNIT_MIN)))
			return lab_err_set(err, LAB_EDATA,
			                   "%s:%u: %s \"%s\": allowed: 0 or a number %g .. %g per "
			                   "unit of work",
			                   path, v->line, LAB_KEY_WORK_PER_UNIT, keys[i],
			                   LAB_AN_WORK_PER_UNIT_MIN, LAB_AN_WORK_PER_UNIT_MAX);
	}
	for (int k = 0; w && k < 2; k++)
		if (an_bool_bad(v = lab_an_json_get(w, k ? "adds_only" : "bandwidth_bound")))
			return lab_err_set(
			    err, LAB_EDATA, "%s:%u: %s \"%s\": allowed: true or false", path,
			    v->line, LAB_KEY_WORK_PER_UNIT, k ? "adds_only" : "bandwidth_bound");
	return 0;
}

/* "team" and "sample_windows", which threads.csv's rows are held to (data_threads.c): "openmp"
 * has one worker row per sample, and elapsed_ns adds up that many timed windows. */
static int an_team_check(const char *path, const struct lab_an_json *jp, struct lab_err *err)
{
	const struct lab_an_json *v = lab_an_json_get(jp, LAB_KEY_TEAM);

	if (v &&
	    (v->type != LAB_AN_JSON_STR || (strcmp(v->str, "threads") && strcmp(v->str, "openmp"))))
		return lab_err_set(err, LAB_EDATA, "%s:%u: \"%s\": allowed: threads, openmp", path,
		                   v->line, LAB_KEY_TEAM);
	v = lab_an_json_get(jp, LAB_KEY_SAMPLE_WINDOWS);
	if (v && !an_whole(v, 1, LAB_AN_COUNT_MAX))
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: \"%s\": allowed: a whole number 1 .. %.0f (the timed "
		                   "windows of a sample)",
		                   path, v->line, LAB_KEY_SAMPLE_WINDOWS, LAB_AN_COUNT_MAX);
	return 0;
}

/* The point's id, thread count and status. */
static int an_point_id_check(const char *path, const struct lab_an_json *jp, struct lab_err *err)
{
	const struct lab_an_json *v = lab_an_json_get(jp, LAB_KEY_POINT);
	const char *st;
	char list[] = "|" LAB_POINT_STATUSES "|", want[80];

	if (!v || !an_whole(v, 0, AN_WHOLE_MAX) || v->num != (double)(long)v->num)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: \"%s\": allowed: a whole number 0 .. %.0f", path,
		                   v ? v->line : jp->line, LAB_KEY_POINT, AN_WHOLE_MAX);
	v = lab_an_json_get(jp, LAB_KEY_THREADS);
	if (!v || !an_whole(v, 1, (double)LAB_AN_THREADS_MAX))
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: \"%s\": allowed: a whole number 1 .. %ld", path,
		                   v ? v->line : jp->line, LAB_KEY_THREADS, LAB_AN_THREADS_MAX);
	v = lab_an_json_get(jp, LAB_KEY_STATUS);
	st = v && v->type == LAB_AN_JSON_STR ? v->str : NULL;
	snprintf(want, sizeof(want), "|%s|", st ? st : "");
	if (v && (!st || !*st || strchr(st, '|') || strlen(st) > 40 || !strstr(list, want)))
		return lab_err_set(err, LAB_EDATA, "%s:%u: \"%s\": allowed: %s", path, v->line,
		                   LAB_KEY_STATUS, LAB_POINT_STATUSES);
	return 0;
}

int lab_an_run_point_check(const char *path, const struct lab_an_json *jp, struct lab_err *err)
{
	int rc;

	if (jp->type != LAB_AN_JSON_OBJ)
		return lab_err_set(err, LAB_EDATA, "%s:%u: a point: allowed: an object", path,
		                   jp->line);
	if ((rc = an_point_id_check(path, jp, err)) || (rc = an_params_check(path, jp, err)) ||
	    (rc = an_cpus_check(path, jp, err)) || (rc = an_facts_check(path, jp, err)) ||
	    (rc = an_prec_check(path, jp, err)) || (rc = an_team_check(path, jp, err)))
		return rc;
	return an_work_check(path, jp, err);
}
