/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Sweep values: lists, dense, stepped and geometric ranges, "max", empty and backwards ranges,
 * too many values, placement lists that hold commas, blanks, and sizes relative to a cache
 * (this file's machine: L1 48 KiB, L2 2 MiB, no L3).
 */
#include <stdlib.h>
#include <string.h>

#include "harness/param.h"
#include "harness/plan.h"
#include "tests/testlib.h"

struct ts_params {
	uint64_t n;
	uint64_t bytes;
	uint64_t wait;
	int mode;
	char text[LAB_STR_MAX];
	uint64_t mem_node;
};

static const struct lab_enum_val ts_modes[] = {
    {"a", 0, "a"},
    {"b", 1, "b"},
    {NULL, 0, NULL},
};

static const struct lab_param ts_table[] = {
    LAB_P_U64(struct ts_params, n, "n", "1", 0, UINT64_MAX, "", "A count."),
    LAB_P_SIZE(struct ts_params, bytes, "bytes", "8", 0, UINT64_MAX, "A size."),
    LAB_P_DURATION(struct ts_params, wait, "wait", "0", 0, UINT64_MAX, "A duration."),
    LAB_P_ENUM(struct ts_params, mode, "mode", "a", ts_modes, "A choice."),
    LAB_P_STR(struct ts_params, text, "text", "", "A text."),
    LAB_P_U64(struct ts_params, mem_node, "mem_node", "0", 0, 63, "node", "A NUMA node."),
    LAB_PARAM_END,
};

static const struct lab_param *threads_param(void)
{
	return lab_param_find(lab_hparam_table, "threads");
}

static const struct lab_param *placement_param(void)
{
	return lab_param_find(lab_hparam_table, "placement");
}

/* Expands text and checks the values joined with '|' against want. */
static void expands_to(const struct lab_param *p, const char *text, unsigned ncpus,
                       const char *want)
{
	char **vals = NULL, got[8192];
	struct lab_err err = {0};
	struct lab_env env = {.ncpus = ncpus, .cache_bytes = {48 << 10, 2 << 20, 0, 0, 0}};
	int n = lab_sweep_expand(p, text, &env, &vals, &err);
	size_t used = 0;

	if (n < 0) {
		fprintf(stderr, "%s = '%s': %s\n", p->key, text, err.msg);
		testlib_fail();
		return;
	}
	got[0] = '\0';
	for (int i = 0; i < n; i++)
		used +=
		    (size_t)snprintf(got + used, sizeof(got) - used, "%s%s", i ? "|" : "", vals[i]);
	lab_sweep_free(vals, (unsigned)n);
	CHECK_EQ_STR(got, want);
}

/* Expects text to be rejected with message want. */
static void rejected_on(const struct lab_param *p, const char *text, unsigned ncpus,
                        const char *want)
{
	char **vals = NULL;
	struct lab_err err = {0};
	struct lab_env env = {.ncpus = ncpus, .cache_bytes = {48 << 10, 2 << 20, 0, 0, 0}};
	int n = lab_sweep_expand(p, text, &env, &vals, &err);

	if (n >= 0) {
		fprintf(stderr, "%s = '%s': accepted with %d values\n", p->key, text, n);
		lab_sweep_free(vals, (unsigned)n);
		testlib_fail();
		return;
	}
	CHECK_EQ_I64(n, -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, want);
}

static void rejected(const struct lab_param *p, const char *text, const char *want)
{
	rejected_on(p, text, 4, want);
}

static int count_of(const struct lab_param *p, const char *text, unsigned ncpus)
{
	char **vals = NULL;
	struct lab_err err = {0};
	struct lab_env env = {.ncpus = ncpus};
	int n = lab_sweep_expand(p, text, &env, &vals, &err);

	if (n > 0)
		lab_sweep_free(vals, (unsigned)n);
	return n;
}

LAB_TEST(single_values)
{
	expands_to(&ts_table[0], "5", 4, "5");
	expands_to(&ts_table[0], "  5  ", 4, "5");
	expands_to(&ts_table[3], "b", 4, "b");
	/* The shape is checked here, the type later: a bad number passes through as text. */
	expands_to(&ts_table[0], "abc", 4, "abc");
}

LAB_TEST(lists)
{
	expands_to(&ts_table[0], "1,2,4", 4, "1|2|4");
	expands_to(&ts_table[0], " 1 , 2 ,\t4 ", 4, "1|2|4");
	/* a value given again is one point (a lesson naming it names one point) */
	expands_to(&ts_table[3], "a,b,a", 4, "a|b");
	expands_to(&ts_table[0], "1,2..3,1,3", 4, "1|2|3");
	expands_to(&ts_table[1], "8, 4K, 1MiB", 4, "8|4K|1M");
}

/* Values are written as they read (the form points and lessons carry), so one value written
 * two ways is one point: threads = 1, 01 and size = 16K, 16384 were two identical points each. */
LAB_TEST(one_value_written_two_ways_is_one)
{
	expands_to(threads_param(), "1, 01, 2", 4, "1|2");
	expands_to(&ts_table[1], "16K, 16384, 16KiB, L1/3", 4, "16K");
	expands_to(&ts_table[2], "1000ns, 1us, 0.001ms", 4, "1us");
	/* a placement stays as first written (the planner's messages quote it); its point
	 * records the canonical text (test_plan: placements_written_two_ways_are_one_point) */
	expands_to(placement_param(), "node:00, node:0, compact, list:1,0", 4,
	           "node:00|compact|list:1,0");
	/* what does not read stays as written, for the planner to report */
	expands_to(&ts_table[0], "01x", 4, "01x");
	expands_to(&ts_table[2], "1us, 1000", 4, "1us|1000"); /* a duration has a unit */
}

/* One order of CPUs written two ways is one placement: list:0,1 and list:0-1, list:00,1 and
 * list: 0 ,1; expr:S0:0-3, expr:S00:0,1,2,3 and expr:S0:0-1@S0:2-3; expr:E:S0:4 and
 * expr:E:S0:4:2:2. The order is the plan (thread i on the i-th CPU): list:1,0 is another
 * placement, as expr:S0:1,0 is, and so is E: against indices (E: walks a domain core by core,
 * indices number it physical cores first: E:S0:4 is S0:0-3 only without SMT). */
LAB_TEST(placement_written_two_ways_is_one)
{
	expands_to(placement_param(), "list:0,1, list:0-1, list:00,1, list: 0 ,1, list:1,0", 4,
	           "list:0,1|list:1,0");
	expands_to(placement_param(), "list:0-6:2, list:0,2,4,6, list:0-7:2", 4, "list:0-6:2");
	expands_to(placement_param(),
	           "expr:E:S0:4, expr:S0:0-3, expr:S00:0,1,2,3, expr:S0:0-1@S0:2-3, expr:S0:1,0, "
	           "expr:E:S0:4:2:2",
	           4, "expr:E:S0:4|expr:S0:0-3|expr:S0:1,0");
	expands_to(placement_param(), "expr:E:N:8:2:4, expr:N:0-1,4-5,8-9,12-13", 4,
	           "expr:E:N:8:2:4|expr:N:0-1,4-5,8-9,12-13");
	/* different domains are different placements, even where they are one CPU here */
	expands_to(placement_param(), "expr:N:0, expr:S0:0, expr:M0:0", 4,
	           "expr:N:0|expr:S0:0|expr:M0:0");
}

LAB_TEST(dense_and_stepped_ranges)
{
	expands_to(&ts_table[0], "1..4", 4, "1|2|3|4");
	expands_to(&ts_table[0], "3..3", 4, "3");
	expands_to(&ts_table[0], "0..2", 4, "0|1|2");
	expands_to(&ts_table[0], "8..64:+8", 4, "8|16|24|32|40|48|56|64");
	expands_to(&ts_table[0], "1..10:3", 4, "1|4|7|10");
	expands_to(&ts_table[0], "1..9:+3", 4, "1|4|7");
	expands_to(&ts_table[0], " 1 .. 3 ", 4, "1|2|3");
	expands_to(&ts_table[0], "1..2,10..11", 4, "1|2|10|11");
}

LAB_TEST(geometric_ranges)
{
	expands_to(&ts_table[0], "1..64:x2", 4, "1|2|4|8|16|32|64");
	expands_to(&ts_table[0], "1..100:x10", 4, "1|10|100");
	expands_to(&ts_table[0], "3..50:x2", 4, "3|6|12|24|48");
	expands_to(&ts_table[0], "1..8:*2", 4, "1|2|4|8");
	/* Sizes keep their unit and are written back with the largest exact suffix. */
	expands_to(&ts_table[1], "1K..8K:x2", 4, "1K|2K|4K|8K");
	expands_to(&ts_table[1], "512..2K:x2", 4, "512|1K|2K");
	expands_to(&ts_table[1], "64..256:+64", 4, "64|128|192|256");
	expands_to(&ts_table[2], "1us..1ms:x10", 4, "1us|10us|100us|1ms");
	/* Stops before overflowing 64 bits. */
	expands_to(&ts_table[0], "4611686018427387904..18446744073709551615:x2", 4,
	           "4611686018427387904|9223372036854775808");
	/* 3 * (2^63 + 1) wraps to 2^63 + 3, above its start: still past the end, not a value. */
	expands_to(&ts_table[0], "9223372036854775809..18446744073709551615:x3", 4,
	           "9223372036854775809");
	expands_to(&ts_table[0], "18446744073709551610..18446744073709551615:+4", 4,
	           "18446744073709551610|18446744073709551614");
}

LAB_TEST(max_for_threads)
{
	expands_to(threads_param(), "max", 32, "32");
	expands_to(threads_param(), " max ", 32, "32");
	expands_to(threads_param(), "1..max", 4, "1|2|3|4");
	expands_to(threads_param(), "1..max:x2", 32, "1|2|4|8|16|32");
	expands_to(threads_param(), "1..max:x2", 6, "1|2|4");
	expands_to(threads_param(), "1,2,max", 16, "1|2|16");
	/* Only threads knows max. */
	expands_to(&ts_table[0], "max", 4, "max");
	rejected(&ts_table[0], "1..max",
	         "in range '1..max': not a number (expected an integer, e.g. 1000 or 10M)");
	/* A described topology may have more CPUs than a team has threads: said of max, not of a
	 * value 1025 the user never wrote (red team). */
	rejected_on(threads_param(), "1,max", 4096,
	            "'max' is 4096 CPUs here, more than a team's 1024 threads: allowed thread "
	            "counts 1 .. 1024 (threads = 1..1024, say)");
	rejected_on(threads_param(), "1..max", 4096,
	            "in range '1..max': 'max' is 4096 CPUs here, more than a team's 1024 threads: "
	            "allowed thread counts 1 .. 1024 (threads = 1..1024, say)");
}

/* mem_node = far: the node farthest from node 0 (lab_env.numa_far0), 1 where the environment
 * has not read one; only mem_node knows far. */
LAB_TEST(far_for_mem_node)
{
	const struct lab_param *mn = lab_param_find(ts_table, "mem_node");
	struct lab_env env = {.ncpus = 4, .numa_far0 = 2};
	struct lab_err err = {0};
	char **vals = NULL;
	int n;

	REQUIRE(mn);
	n = lab_sweep_expand(mn, "0, 1, far", &env, &vals, &err);
	REQUIRE(n == 3);
	CHECK_EQ_STR(vals[2], "2");
	lab_sweep_free(vals, (unsigned)n);
	expands_to(mn, "0, far", 4, "0|1");
	expands_to(mn, "1, far", 4, "1"); /* one value written two ways is one */
	expands_to(&ts_table[0], "far", 4, "far");
}

LAB_TEST(empty_values)
{
	const char *msg = "empty value in the list (write values separated by commas, e.g. 1,2,4)";

	rejected(&ts_table[0], "1,,2", msg);
	rejected(&ts_table[0], "1,2,", msg);
	rejected(&ts_table[0], ",1", msg);
	rejected(&ts_table[0], "", msg);
	rejected(&ts_table[0], "  ", msg);
	rejected(&ts_table[0], "1, ,2", msg);
}

LAB_TEST(backwards_and_bad_ranges)
{
	rejected(&ts_table[0], "8..1", "empty range '8..1' (the start is past the end)");
	rejected(threads_param(), "max..1", "empty range 'max..1' (the start is past the end)");
	rejected(&ts_table[0], "1..",
	         "in range '1..': empty value (expected an integer, e.g. 1000 or 10M)");
	rejected(&ts_table[0], "..4",
	         "in range '..4': empty value (expected an integer, e.g. 1000 or 10M)");
	rejected(&ts_table[0], "0..8:x2", "geometric range '0..8:x2' cannot start at 0");
}

LAB_TEST(bad_steps)
{
	rejected(&ts_table[0], "1..64:x1",
	         "bad step 'x1' in range '1..64:x1' (allowed :xK or :*K with K >= 2, :+K or :K "
	         "with K >= 1)");
	rejected(&ts_table[0], "1..64:x0",
	         "bad step 'x0' in range '1..64:x0' (allowed :xK or :*K with K >= 2, :+K or :K "
	         "with K >= 1)");
	rejected(&ts_table[0], "1..64:+0",
	         "bad step '+0' in range '1..64:+0' (allowed :xK or :*K with K >= 2, :+K or :K "
	         "with K >= 1)");
	rejected(&ts_table[0], "1..64:",
	         "bad step '' in range '1..64:' (allowed :xK or :*K with K >= 2, :+K or :K with K "
	         ">= 1): empty value (expected an integer, e.g. 1000 or 10M)");
	rejected(&ts_table[0], "1..64:x",
	         "bad step 'x' in range '1..64:x' (allowed :xK or :*K with K >= 2, :+K or :K with "
	         "K >= 1)");
	rejected(&ts_table[0], "1..64:y2",
	         "bad step 'y2' in range '1..64:y2' (allowed :xK or :*K with K >= 2, :+K or :K "
	         "with K >= 1): not a number (expected an integer, e.g. 1000 or 10M)");
	/* hostile46: a duration's step needs its unit, and the message says so */
	rejected(&ts_table[2], "1ns..1us:+1",
	         "bad step '+1' in range '1ns..1us:+1' (allowed :xK or :*K with K >= 2, :+K or "
	         ":K with K >= 1): missing unit (expected a duration with unit ns, us, ms or s, "
	         "e.g. 50us)");
}

LAB_TEST(too_many_values)
{
	char text[64];

	snprintf(text, sizeof(text), "1..%d", LAB_SWEEP_MAX);
	CHECK_EQ_I64(count_of(&ts_table[0], text, 4), LAB_SWEEP_MAX);
	snprintf(text, sizeof(text), "1..%d", LAB_SWEEP_MAX + 1);
	rejected(&ts_table[0], text,
	         "range '1..4097' has more than 4096 values (allowed at most 4096 values per key)");
	rejected(&ts_table[0], "0..18446744073709551615",
	         "range '0..18446744073709551615' has more than 4096 values (allowed at most 4096 "
	         "values per key)");
	/* Several ranges together count too. */
	snprintf(text, sizeof(text), "1..4000,1..97");
	CHECK_EQ_I64(count_of(&ts_table[0], text, 4), 4097 > LAB_SWEEP_MAX ? -LAB_ECONFIG : 4097);
}

LAB_TEST(ranges_only_for_numbers)
{
	/* Enums and text never expand "..": the value goes through and fails its type check. */
	expands_to(&ts_table[3], "a..b", 4, "a..b");
	expands_to(&ts_table[4], "x..y", 4, "x..y");
}

LAB_TEST(placement_lists_keep_their_commas)
{
	expands_to(placement_param(), "list:0,2,4-7", 4, "list:0,2,4-7");
	expands_to(placement_param(), "compact, list:0,2,4-7", 4, "compact|list:0,2,4-7");
	expands_to(placement_param(), "list:0,1, scatter", 4, "list:0,1|scatter");
	expands_to(placement_param(), "list:0-14:2,1, cores", 4, "list:0-14:2,1|cores");
	expands_to(placement_param(), "list:0 , 2 , list:4,5", 4, "list:0,2|list:4,5");
	expands_to(placement_param(), "compact,cores,scatter", 4, "compact|cores|scatter");
	/* Only placement-like text keys join: a number after "list:" in an enum stays alone. */
	expands_to(&ts_table[3], "list:0,1", 4, "list:0|1");
	rejected(placement_param(), "list:0,,1",
	         "empty value in the list (write values separated by commas, e.g. 1,2,4)");
}

/* Sizes relative to the caches hwloc reports, as values and as range bounds, resolved to
 * bytes; a level the machine does not report is an error that says which it does. */
LAB_TEST(cache_relative_sizes)
{
	const struct lab_param *b = &ts_table[1];

	expands_to(b, "L1/2, L2, L2*4", 4, "24K|2M|8M");
	expands_to(b, "l1", 4, "48K");
	expands_to(b, "L1/2..L2:x4", 4, "24K|96K|384K|1536K");
	rejected(b, "L3/2",
	         "'L3/2': this topology reports no L3 cache (it reports L1, L2); give the size in "
	         "bytes (e.g. 32K, 1M), or the cache with --cache L3=SIZE");
	rejected(b, "L1/0",
	         "'L1/0': a cache size takes *K or /K with a whole K >= 1 (e.g. L1/2, "
	         "L3*4)");
	rejected(b, "L1/x",
	         "'L1/x': a cache size takes *K or /K with a whole K >= 1 (e.g. L1/2, "
	         "L3*4)");
	/* Only sizes: a count or a text keeps the letters as they are. */
	expands_to(&ts_table[4], "L1/2", 4, "L1/2");
}

/* lab_sweep_count names as many values as lab_sweep_expand makes before duplicates drop,
 * without making them. */
LAB_TEST(count_without_making)
{
	struct lab_env env = {.ncpus = 4, .cache_bytes = {48 << 10, 2 << 20, 0, 0, 0}};
	struct lab_err err = {0};
	uint64_t n = 0;
	unsigned long long made = lab_sweep_values_made();

	CHECK_EQ_I64(lab_sweep_count(&ts_table[0], "1..4096", &env, &n, &err), 0);
	CHECK_EQ_U64(n, 4096);
	CHECK_EQ_I64(lab_sweep_count(&ts_table[0], "1, 2, 8..64:x2, 0..10:+5", &env, &n, &err), 0);
	CHECK_EQ_U64(n, 2 + 4 + 3);
	CHECK_EQ_I64(lab_sweep_count(&ts_table[1], "L1/2, 1K, 1K", &env, &n, &err), 0);
	CHECK_EQ_U64(n, 3);
	CHECK_EQ_I64(lab_sweep_count(placement_param(), "list:0,2,4-7, compact", &env, &n, &err),
	             0);
	CHECK_EQ_U64(n, 2);
	CHECK_EQ_I64(lab_sweep_count(threads_param(), "1..max", &env, &n, &err), 0);
	CHECK_EQ_U64(n, 4);
	CHECK_EQ_U64(lab_sweep_values_made() - made, 0);
	CHECK_EQ_I64(lab_sweep_count(&ts_table[0], "1..4096, 5", &env, &n, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "more than 4096 values (allowed at most 4096 values per key)");
	CHECK_EQ_I64(lab_sweep_count(&ts_table[0], "0..18446744073709551615, 1", &env, &n, &err),
	             -LAB_ECONFIG);
	CHECK_EQ_I64(lab_sweep_count(&ts_table[0], "5..1", &env, &n, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "empty range '5..1' (the start is past the end)");
}

/* A list grows geometrically: 30,000 items (a long list over continuation lines) or a range of
 * 4096 values cost a few dozen reallocations, not one per item (quadratic in copies where
 * realloc cannot grow in place: a minute and 1.6 GB under AddressSanitizer). */
LAB_TEST(long_list_grows_geometrically)
{
	struct lab_env env = {.ncpus = 4};
	struct lab_err err = {0};
	size_t n = 30000;
	char *text = malloc(2 * n);
	char **vals = NULL;
	uint64_t count = 0;

	REQUIRE(text != NULL);
	for (size_t i = 0; i < n; i++)
		memcpy(text + 2 * i, i + 1 < n ? "8," : "8", 2);
	text[2 * n - 1] = '\0';
	unsigned long long grows = lab_sweep_list_grows();
	CHECK_EQ_I64(lab_sweep_count(&ts_table[0], text, &env, &count, &err), -LAB_ECONFIG);
	CHECK(lab_sweep_list_grows() - grows < 64);
	grows = lab_sweep_list_grows();
	CHECK_EQ_I64(lab_sweep_expand(&ts_table[0], "1..4096", &env, &vals, &err), 4096);
	CHECK(lab_sweep_list_grows() - grows < 64);
	lab_sweep_free(vals, 4096);
	/* a placement list:0,1,... of 30,000 CPUs is one token that its fragments extend: the
	 * token grows geometrically too (a copy of it per fragment: --set with 60,000 took 14 s) */
	memcpy(text, "list:", 5);
	for (size_t i = 0; i < n - 3; i++)
		memcpy(text + 5 + 2 * i, i + 4 < n ? "0," : "0", 2);
	text[5 + 2 * (n - 3) - 1] = '\0';
	grows = lab_sweep_list_grows();
	CHECK_EQ_I64(lab_sweep_count(placement_param(), text, &env, &count, &err), 0);
	CHECK_EQ_U64(count, 1);
	CHECK(lab_sweep_list_grows() - grows < 64);
	free(text);
}
