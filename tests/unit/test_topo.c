/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Topology and placement: the policies on synthetic and XML topologies (machine-independent),
 * list validation messages, pairs planning and sampling, and binding on this machine.
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/topo.h"
#include "tests/testlib.h"

#define SYN_2S "synthetic:\"pack:2 core:8 pu:2\""

static struct lab_topo *open_topo(const char *spec)
{
	struct lab_topo *t = NULL;
	struct lab_err err = {0};
	int rc = lab_topo_open(&t, spec, &err);
	if (rc != 0)
		fprintf(stderr, "open %s: %d %s\n", spec ? spec : "(this system)", rc, err.msg);
	return t;
}

static struct lab_topo *open_fixture(const char *name)
{
	char spec[1024];
	snprintf(spec, sizeof(spec), "xml:%s/configs/topologies/%s", testlib_srcdir(), name);
	return open_topo(spec);
}

static int plan(const struct lab_topo *t, const char *policy, unsigned n, int *cpus,
                struct lab_err *err)
{
	struct lab_placement p;
	int rc = lab_placement_parse(policy, &p, err);
	return rc < 0 ? rc : lab_topo_plan(t, &p, n, cpus, err);
}

static struct lab_pu_info info_of(const struct lab_topo *t, int cpu)
{
	struct lab_pu_info info = {.cpu = -1, .package = -9, .numa = -9, .core = -9};
	if (lab_topo_pu_info(t, cpu, &info) < 0)
		fprintf(stderr, "no PU %d\n", cpu);
	return info;
}

/* True when the first min(n, ncores) CPUs sit on distinct cores with SMT rank 0. */
static bool cores_first(const struct lab_topo *t, const int *cpus, unsigned n, unsigned ncores)
{
	bool used[1024] = {false};
	for (unsigned i = 0; i < n && i < ncores; i++) {
		struct lab_pu_info in = info_of(t, cpus[i]);
		if (in.core < 0 || in.core >= 1024 || used[in.core] || in.smt_rank != 0)
			return false;
		used[in.core] = true;
	}
	return true;
}

static bool distinct(const int *cpus, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		for (unsigned j = 0; j < i; j++)
			if (cpus[i] == cpus[j])
				return false;
	return true;
}

LAB_TEST(open_synthetic_facts)
{
	struct lab_topo *t = open_topo(SYN_2S);
	struct lab_topo *t2 = open_topo("synthetic:pack:2 core:8 pu:2");
	struct lab_env env = {0};
	int cpus[64];

	REQUIRE(t && t2);
	CHECK(!lab_topo_is_thissystem(t));
	CHECK_EQ_STR(lab_topo_summary(t), "2 packages, 1 NUMA node, 16 cores, 32 PUs (synthetic)");
	CHECK_EQ_STR(lab_topo_summary(t2), lab_topo_summary(t));
	CHECK_EQ_STR(lab_topo_source(t), SYN_2S);
	lab_topo_env(t, &env);
	CHECK_EQ_U64(env.ncpus, 32);
	CHECK_EQ_U64(env.packages, 2);
	CHECK_EQ_U64(env.numa_nodes, 1);
	CHECK_EQ_U64(env.cores, 16);
	CHECK_EQ_U64(env.pus, 32);
	CHECK(!env.thissystem);
	CHECK_EQ_U64(lab_topo_cpus_allowed(t, cpus, 64), 32);
	for (int i = 0; i < 32; i++)
		CHECK_EQ_I64(cpus[i], i);
	CHECK(lab_topo_cpu_allowed(t, 31));
	CHECK(!lab_topo_cpu_allowed(t, 32));
	CHECK(!lab_topo_cpu_allowed(t, -1));
	lab_topo_close(t);
	lab_topo_close(t2);
	lab_topo_close(NULL);
}

LAB_TEST(open_errors)
{
	struct lab_topo *t = (struct lab_topo *)&t;
	struct lab_err err = {0};

	CHECK_EQ_I64(lab_topo_open(&t, "xml:nope.xml", &err), -LAB_ETOPO);
	CHECK(t == NULL);
	CHECK_EQ_STR(err.msg,
	             "xml:nope.xml: cannot load the XML topology: No such file or directory");
	CHECK_EQ_I64(lab_topo_open(&t, "synthetic:\"pack:2 bogus:3\"", &err), -LAB_ETOPO);
	CHECK(strstr(err.msg, "synthetic:\"pack:2 bogus:3\": hwloc rejects") == err.msg);
	CHECK_EQ_I64(lab_topo_open(&t, "synthetic:", &err), -LAB_ETOPO);
	CHECK_EQ_I64(lab_topo_open(&t, "numa:2", &err), -LAB_ETOPO);
	CHECK(strstr(err.msg, "numa:2: unknown topology (allowed: synthetic:") == err.msg);
}

LAB_TEST(pu_info_synthetic)
{
	struct lab_topo *t = open_topo(SYN_2S);
	struct lab_pu_info in;

	REQUIRE(t);
	in = info_of(t, 1);
	CHECK_EQ_I64(in.package, 0);
	CHECK_EQ_I64(in.numa, 0);
	CHECK_EQ_I64(in.core, 0);
	CHECK_EQ_I64(in.smt_rank, 1);
	in = info_of(t, 18);
	CHECK_EQ_I64(in.cpu, 18);
	CHECK_EQ_I64(in.package, 1);
	CHECK_EQ_I64(in.core, 9);
	CHECK_EQ_I64(in.smt_rank, 0);
	CHECK_EQ_I64(lab_topo_pu_info(t, 99, &in), -LAB_EINVAL);
	CHECK_EQ_I64(lab_topo_pu_info(t, -1, &in), -LAB_EINVAL);
	lab_topo_close(t);
}

LAB_TEST(compact_fills_sibling_pairs)
{
	struct lab_topo *t = open_topo(SYN_2S);
	struct lab_err err = {0};
	int cpus[32];

	REQUIRE(t);
	REQUIRE(plan(t, "compact", 32, cpus, &err) == 0);
	for (int i = 0; i < 32; i++)
		CHECK_EQ_I64(cpus[i], i);
	for (int i = 0; i < 32; i += 2)
		CHECK_EQ_I64(info_of(t, cpus[i]).core, info_of(t, cpus[i + 1]).core);
	lab_topo_close(t);
}

LAB_TEST(cores_smt_last)
{
	struct lab_topo *t = open_topo(SYN_2S);
	struct lab_err err = {0};
	int cpus[32];

	REQUIRE(t);
	for (unsigned n = 1; n <= 32; n++) {
		REQUIRE(plan(t, "cores", n, cpus, &err) == 0);
		CHECK(cores_first(t, cpus, n, 16));
		CHECK(distinct(cpus, n));
	}
	for (int i = 0; i < 16; i++)
		CHECK_EQ_I64(cpus[i], 2 * i);
	for (int i = 16; i < 32; i++)
		CHECK_EQ_I64(info_of(t, cpus[i]).smt_rank, 1);
	lab_topo_close(t);
}

LAB_TEST(scatter_both_packages)
{
	struct lab_topo *t = open_topo(SYN_2S);
	struct lab_err err = {0};
	int cpus[32], per_pkg[2] = {0, 0};

	REQUIRE(t);
	REQUIRE(plan(t, "scatter", 4, cpus, &err) == 0);
	for (int i = 0; i < 4; i++)
		per_pkg[info_of(t, cpus[i]).package & 1]++;
	CHECK_EQ_I64(per_pkg[0], 2);
	CHECK_EQ_I64(per_pkg[1], 2);
	CHECK_EQ_I64(info_of(t, cpus[0]).package, 0);
	CHECK_EQ_I64(info_of(t, cpus[1]).package, 1);
	for (unsigned n = 1; n <= 32; n++) {
		REQUIRE(plan(t, "scatter", n, cpus, &err) == 0);
		CHECK(cores_first(t, cpus, n, 16));
		CHECK(distinct(cpus, n));
	}
	lab_topo_close(t);
}

LAB_TEST(scatter_numa_nodes_amd)
{
	struct lab_topo *t = open_fixture("2s4n-amd.xml");
	struct lab_err err = {0};
	int cpus[32];
	const int numa[4] = {0, 2, 1, 3};

	REQUIRE(t);
	CHECK_EQ_STR(lab_topo_summary(t), "2 packages, 4 NUMA nodes, 16 cores, 32 PUs (xml)");
	REQUIRE(plan(t, "scatter", 32, cpus, &err) == 0);
	/* Packages alternate, and within a package its two NUMA nodes alternate. */
	for (int i = 0; i < 4; i++)
		CHECK_EQ_I64(info_of(t, cpus[i]).numa, numa[i]);
	for (int i = 0; i < 16; i++)
		CHECK_EQ_I64(info_of(t, cpus[i]).package, i % 2);
	CHECK(cores_first(t, cpus, 32, 16));
	CHECK(distinct(cpus, 32));
	lab_topo_close(t);
}

LAB_TEST(intel_fixture_numbering)
{
	struct lab_topo *t = open_fixture("2s8c2t-intel.xml");
	struct lab_err err = {0};
	int cpus[32];
	bool seen[16] = {false};

	REQUIRE(t);
	CHECK_EQ_STR(lab_topo_summary(t), "2 packages, 2 NUMA nodes, 16 cores, 32 PUs (xml)");
	for (int n = 0; n < 16; n++) {
		CHECK_EQ_I64(info_of(t, n).core, info_of(t, n + 16).core);
		CHECK_EQ_I64(info_of(t, n).smt_rank, 0);
		CHECK_EQ_I64(info_of(t, n + 16).smt_rank, 1);
		CHECK_EQ_I64(info_of(t, n).package, n / 8);
	}
	REQUIRE(plan(t, "cores", 16, cpus, &err) == 0);
	for (int i = 0; i < 16; i++) {
		REQUIRE(cpus[i] >= 0 && cpus[i] < 16);
		CHECK(!seen[cpus[i]]);
		seen[cpus[i]] = true;
	}
	REQUIRE(plan(t, "compact", 32, cpus, &err) == 0);
	for (int i = 0; i < 32; i += 2)
		CHECK_EQ_I64(cpus[i + 1], cpus[i] + 16);
	REQUIRE(plan(t, "scatter", 4, cpus, &err) == 0);
	CHECK_EQ_I64(info_of(t, cpus[0]).package, 0);
	CHECK_EQ_I64(info_of(t, cpus[1]).package, 1);
	CHECK_EQ_I64(info_of(t, cpus[2]).package, 0);
	CHECK_EQ_I64(info_of(t, cpus[3]).package, 1);
	lab_topo_close(t);
}

/* Even CPUs on package 0, as some BIOSes number them: catches arithmetic on CPU ids. */
LAB_TEST(interleaved_numbering)
{
	struct lab_topo *t = open_topo("synthetic:pack:2 core:8 pu:2(indexes=pack:core)");
	struct lab_err err = {0};
	int cpus[32];

	REQUIRE(t);
	REQUIRE(plan(t, "scatter", 2, cpus, &err) == 0);
	CHECK(info_of(t, cpus[0]).package != info_of(t, cpus[1]).package);
	for (unsigned n = 1; n <= 32; n++) {
		REQUIRE(plan(t, "cores", n, cpus, &err) == 0);
		CHECK(cores_first(t, cpus, n, 16));
		REQUIRE(plan(t, "scatter", n, cpus, &err) == 0);
		CHECK(cores_first(t, cpus, n, 16));
	}
	REQUIRE(plan(t, "compact", 32, cpus, &err) == 0);
	for (int i = 0; i < 32; i += 2)
		CHECK_EQ_I64(info_of(t, cpus[i]).core, info_of(t, cpus[i + 1]).core);
	lab_topo_close(t);
}

LAB_TEST(small_fixture_no_smt)
{
	struct lab_topo *t = open_fixture("1s4c.xml");
	const char *policies[] = {"compact", "cores", "scatter"};
	struct lab_err err = {0};
	int cpus[4];

	REQUIRE(t);
	CHECK_EQ_STR(lab_topo_summary(t), "1 package, 1 NUMA node, 4 cores, 4 PUs (xml)");
	for (int p = 0; p < 3; p++) {
		REQUIRE(plan(t, policies[p], 4, cpus, &err) == 0);
		for (int i = 0; i < 4; i++)
			CHECK_EQ_I64(cpus[i], i);
	}
	lab_topo_close(t);
}

LAB_TEST(placement_parse)
{
	struct lab_placement p;
	struct lab_err err = {0};
	const int want[] = {0, 2, 4, 5, 6, 7, 16, 20, 24};

	CHECK_EQ_I64(lab_placement_parse("compact", &p, &err), 0);
	CHECK_EQ_I64(p.kind, LAB_PLACE_COMPACT);
	CHECK_EQ_I64(lab_placement_parse("cores", &p, &err), 0);
	CHECK_EQ_I64(p.kind, LAB_PLACE_CORES);
	CHECK_EQ_I64(lab_placement_parse("scatter", &p, &err), 0);
	CHECK_EQ_I64(p.kind, LAB_PLACE_SCATTER);
	CHECK_EQ_I64(lab_placement_parse("pairs", &p, &err), 0);
	CHECK_EQ_I64(p.kind, LAB_PLACE_PAIRS);
	CHECK_EQ_I64(lab_placement_parse("list:0,2,4-7,16-26:4", &p, &err), 0);
	CHECK_EQ_I64(p.kind, LAB_PLACE_LIST);
	REQUIRE(p.nlist == 9);
	for (int i = 0; i < 9; i++)
		CHECK_EQ_I64(p.list[i], want[i]);
	CHECK_EQ_I64(lab_placement_parse("list: 3, 1", &p, &err), 0);
	CHECK_EQ_I64(p.nlist, 2);
	CHECK_EQ_I64(p.list[0], 3);
	CHECK_EQ_I64(p.list[1], 1);
}

LAB_TEST(placement_parse_errors)
{
	struct lab_placement p;
	struct lab_err err = {0};

	CHECK_EQ_I64(lab_placement_parse("spread", &p, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg,
	             "placement 'spread': unknown policy (allowed: compact, cores, "
	             "scatter, pairs, node:N, list:CPUS such as list:0,2,4-7 or list:0-14:2, or "
	             "expr:EXPR with likwid thread domains such as expr:S0:0-3@S1:0-3)");
	CHECK_EQ_I64(lab_placement_parse("list:", &p, &err), -LAB_ECONFIG);
	CHECK(strstr(err.msg, "placement 'list:': the list is empty (allowed: CPU numbers"));
	CHECK_EQ_I64(lab_placement_parse("list:0,,2", &p, &err), -LAB_ECONFIG);
	CHECK(strstr(err.msg, "placement 'list:0,,2': cannot read '' (allowed: CPU numbers N, "
	                      "ranges A-B and A-B:STEP"));
	CHECK_EQ_I64(lab_placement_parse("list:1,x", &p, &err), -LAB_ECONFIG);
	CHECK(strstr(err.msg, "cannot read 'x'"));
	CHECK_EQ_I64(lab_placement_parse("list:7-3", &p, &err), -LAB_ECONFIG);
	CHECK(strstr(err.msg, "range 7-3 runs backwards"));
	CHECK_EQ_I64(lab_placement_parse("list:0-8:0", &p, &err), -LAB_ECONFIG);
	CHECK(strstr(err.msg, "the step of a range must be a number from 1 to 65535 (allowed: "));
	/* a step too large is said as what is allowed, not as "a number >= 1" it is */
	CHECK_EQ_I64(lab_placement_parse("list:0-4095:18446744073709551615", &p, &err),
	             -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "placement 'list:0-4095:18446744073709551615': the step of a range "
	                      "must be a number from 1 to 65535 (allowed: CPU numbers N, ranges "
	                      "A-B and A-B:STEP separated by commas, e.g. list:0,2,4-7,16-30:2)");
	CHECK_EQ_I64(lab_placement_parse("list:0-8:65536", &p, &err), -LAB_ECONFIG);
	CHECK(strstr(err.msg, "the step of a range must be a number from 1 to 65535"));
	CHECK_EQ_I64(lab_placement_parse("list:0-8:65535", &p, &err), 0);
	CHECK_EQ_I64(p.nlist, 1);
	/* no topology has a CPU past LAB_TOPO_OS_MAX: an error on any machine */
	CHECK_EQ_I64(lab_placement_parse("list:70000", &p, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "placement 'list:70000': cpu 70000 is past the highest CPU number "
	                      "(allowed 0 .. 65535)");
	CHECK_EQ_I64(lab_placement_parse("list:65530-99999999999999999999", &p, &err),
	             -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "placement 'list:65530-99999999999999999999': cpu "
	                      "99999999999999999999 is past the highest CPU number (allowed 0 .. "
	                      "65535)");
	CHECK_EQ_I64(lab_placement_parse("list:65535", &p, &err), 0);
	CHECK_EQ_I64(lab_placement_parse("list:-1", &p, &err), -LAB_ECONFIG);
	CHECK_EQ_I64(lab_placement_parse("list:0-1:", &p, &err), -LAB_ECONFIG);
	CHECK_EQ_I64(lab_placement_parse("list:3,1-4", &p, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "placement 'list:3,1-4': cpu 3 is listed twice (each CPU once)");
	CHECK_EQ_I64(lab_placement_parse("list:0-5000", &p, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "placement 'list:0-5000': too many CPUs (allowed: at most 1024)");
	CHECK_EQ_I64(lab_placement_parse(NULL, &p, &err), -LAB_ECONFIG);
}

LAB_TEST(list_validation)
{
	struct lab_topo *t = open_topo(SYN_2S);
	struct lab_placement p = {.kind = LAB_PLACE_LIST, .nlist = 3, .list = {4, 2, 4}};
	struct lab_err err = {0};
	int cpus[8];

	REQUIRE(t);
	CHECK_EQ_I64(plan(t, "list:0,99", 2, cpus, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "cpu 99 does not exist (allowed 0-31)");
	CHECK_EQ_I64(lab_topo_plan(t, &p, 2, cpus, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "cpu 4 is listed twice (each thread needs its own CPU)");
	CHECK_EQ_I64(plan(t, "list:5,3,17", 4, cpus, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "4 threads but the placement list has only 3 CPUs (allowed: at most "
	                      "3 threads, or a longer list)");
	CHECK_EQ_I64(plan(t, "list:5,3,17", 2, cpus, &err), 0);
	CHECK_EQ_I64(cpus[0], 5);
	CHECK_EQ_I64(cpus[1], 3);
	lab_topo_close(t);
}

LAB_TEST(threads_exceed_cpus)
{
	struct lab_topo *t = open_topo(SYN_2S);
	struct lab_err err = {0};
	int cpus[40];

	REQUIRE(t);
	CHECK_EQ_I64(plan(t, "cores", 33, cpus, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "33 threads but only 32 CPUs can be used (allowed 0-31)");
	CHECK_EQ_I64(plan(t, "compact", 0, cpus, &err), 0);
	lab_topo_close(t);
}

/* Every unordered pair exactly once, a < b, ascending. */
static void check_all_pairs(const char *spec, int ncpus)
{
	struct lab_topo *t = open_topo(spec);
	struct lab_err err = {0};
	int pairs[128][2], seen[16][16] = {{0}};
	int want = ncpus * (ncpus - 1) / 2;

	REQUIRE(t);
	CHECK_EQ_I64(lab_topo_plan_pairs(t, 0, 1, pairs, 128, &err), want);
	CHECK_EQ_I64(lab_topo_plan_pairs(t, (unsigned)want, 1, pairs, 128, &err), want);
	for (int i = 0; i < want; i++) {
		REQUIRE(pairs[i][0] >= 0 && pairs[i][0] < pairs[i][1] && pairs[i][1] < ncpus);
		seen[pairs[i][0]][pairs[i][1]]++;
	}
	for (int a = 0; a < ncpus; a++)
		for (int b = a + 1; b < ncpus; b++)
			CHECK_EQ_I64(seen[a][b], 1);
	/* A short buffer still gets the full count back. */
	CHECK_EQ_I64(lab_topo_plan_pairs(t, 0, 1, pairs, 2, &err), want);
	lab_topo_close(t);
}

LAB_TEST(pairs_all_small)
{
	check_all_pairs("synthetic:pack:1 core:4 pu:1", 4);
	check_all_pairs("synthetic:pack:2 core:2 pu:2", 8);
	check_all_pairs("synthetic:pack:2 numa:2 core:2 pu:2", 16);
}

struct pair_kinds {
	int smt, xpkg, xnuma, xllc, near;
};

static struct pair_kinds count_kinds(const struct lab_topo *t, int (*pairs)[2], int n)
{
	struct pair_kinds k = {0};
	for (int i = 0; i < n; i++) {
		struct lab_pu_info a = info_of(t, pairs[i][0]), b = info_of(t, pairs[i][1]);
		if (a.core == b.core)
			k.smt++;
		else if (a.package != b.package)
			k.xpkg++;
		else if (a.numa != b.numa)
			k.xnuma++;
		else if (a.llc != b.llc)
			k.xllc++;
		else
			k.near++;
	}
	return k;
}

/* Pairs in one CCX and across CCXs of one node are kinds of their own: a Zen-like package of
 * 8 L3s of 8 cores (red team: 8 sampled pairs of 32,640 never held one in the same L3). */
LAB_TEST(pairs_sampling_llc)
{
	static int p[8][2];
	struct lab_topo *t = open_topo("synthetic:pack:2 l3:8 core:8 pu:2");
	struct lab_err err = {0};
	struct pair_kinds k;

	REQUIRE(t);
	REQUIRE(lab_topo_plan_pairs(t, 8, 5, p, 8, &err) == 8);
	k = count_kinds(t, p, 8);
	CHECK(k.smt >= 1 && k.xpkg >= 1 && k.xllc >= 1 && k.near >= 1);
	CHECK_EQ_I64(k.xnuma, 0);
	lab_topo_close(t);
}

LAB_TEST(pairs_sampling)
{
	static int p1[200][2], p2[200][2], p3[200][2];
	struct lab_topo *t = open_topo("synthetic:pack:2 core:32 pu:2");
	struct lab_err err = {0};
	struct pair_kinds k;

	REQUIRE(t);
	CHECK_EQ_I64(lab_topo_plan_pairs(t, 0, 7, NULL, 0, &err), 128 * 127 / 2);
	REQUIRE(lab_topo_plan_pairs(t, 200, 42, p1, 200, &err) == 200);
	REQUIRE(lab_topo_plan_pairs(t, 200, 42, p2, 200, &err) == 200);
	REQUIRE(lab_topo_plan_pairs(t, 200, 43, p3, 200, &err) == 200);
	CHECK(memcmp(p1, p2, sizeof(p1)) == 0);
	CHECK(memcmp(p1, p3, sizeof(p1)) != 0);
	for (int i = 0; i < 200; i++) {
		CHECK(p1[i][0] < p1[i][1]);
		/* stable order: ascending (a, b) and no repeats */
		if (i)
			CHECK(p1[i - 1][0] < p1[i][0] ||
			      (p1[i - 1][0] == p1[i][0] && p1[i - 1][1] < p1[i][1]));
	}
	k = count_kinds(t, p1, 200);
	CHECK(k.smt >= 1);
	CHECK(k.xpkg >= 1);
	CHECK(k.near >= 1);
	CHECK_EQ_I64(k.smt + k.xpkg + k.xnuma + k.near, 200);
	/* A tiny sample still keeps the rare kinds. */
	REQUIRE(lab_topo_plan_pairs(t, 3, 1, p1, 200, &err) == 3);
	k = count_kinds(t, p1, 3);
	CHECK(k.smt == 1 && k.xpkg == 1 && k.near == 1);
	lab_topo_close(t);
}

LAB_TEST(pairs_sampling_numa)
{
	int pairs[10][2];
	struct lab_topo *t = open_fixture("2s4n-amd.xml");
	struct lab_err err = {0};
	struct pair_kinds k;

	REQUIRE(t);
	REQUIRE(lab_topo_plan_pairs(t, 10, 5, pairs, 10, &err) == 10);
	k = count_kinds(t, pairs, 10);
	CHECK(k.smt >= 1 && k.xpkg >= 1 && k.xnuma >= 1 && k.near >= 1);
	lab_topo_close(t);
}

LAB_TEST(pairs_placement_plan)
{
	struct lab_topo *t = open_topo(SYN_2S);
	struct lab_topo *one = open_topo("synthetic:pack:1 core:1 pu:1");
	struct lab_err err = {0};
	int cpus[4], pairs[1][2];

	REQUIRE(t && one);
	CHECK_EQ_I64(plan(t, "pairs", 2, cpus, &err), 0);
	CHECK_EQ_I64(cpus[0], 0);
	CHECK_EQ_I64(cpus[1], 1);
	CHECK_EQ_I64(plan(t, "pairs", 3, cpus, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "placement pairs runs 2 threads per CPU pair, not 3");
	CHECK_EQ_I64(lab_topo_plan_pairs(one, 0, 1, pairs, 1, &err), -LAB_ECONFIG);
	lab_topo_close(t);
	lab_topo_close(one);
}

LAB_TEST(cpulist_format)
{
	const int a[] = {0, 1, 2, 3, 8, 10, 11};
	char buf[64];

	CHECK_EQ_I64(lab_topo_cpulist_format(buf, sizeof(buf), a, 7), 11);
	CHECK_EQ_STR(buf, "0-3,8,10-11");
	CHECK_EQ_I64(lab_topo_cpulist_format(buf, sizeof(buf), a, 0), 4);
	CHECK_EQ_STR(buf, "none");
	CHECK_EQ_I64(lab_topo_cpulist_format(buf, 9, a, 7), 11);
	CHECK_EQ_STR(buf, "0-3,...");
	/* Never half a number: "0-3,8,10" would name a CPU that is not in the list. */
	CHECK_EQ_I64(lab_topo_cpulist_format(buf, 11, a, 7), 11);
	CHECK_EQ_STR(buf, "0-3,8,...");
	CHECK_EQ_I64(lab_topo_cpulist_format(buf, 12, a, 7), 11);
	CHECK_EQ_STR(buf, "0-3,8,10-11");
	CHECK_EQ_I64(lab_topo_cpulist_format(buf, 4, a, 7), 11);
	CHECK_EQ_STR(buf, "...");
}

LAB_TEST(bind_refused_on_synthetic)
{
	struct lab_topo *t = open_topo(SYN_2S);
	struct lab_err err = {0};

	REQUIRE(t);
	CHECK_EQ_I64(lab_topo_bind_self(t, 0, &err), -LAB_EUNSUP);
	CHECK_EQ_STR(err.msg, "bind to cpu 0: the topology (" SYN_2S ") is not this system; it "
	                      "can be planned, not bound");
	lab_topo_close(t);
}

struct bind_result {
	struct lab_topo *topo;
	int cpu, rc, after, nallowed, first_allowed;
	struct lab_err err;
};

static void *bind_thread(void *arg)
{
	struct bind_result *r = arg;
	r->rc = lab_topo_bind_self(r->topo, r->cpu, &r->err);
	r->after = sched_getcpu();
	r->nallowed = (int)lab_topo_cpus_allowed(r->topo, &r->first_allowed, 1);
	return NULL;
}

LAB_TEST(bind_this_system)
{
	struct lab_topo *t = open_topo(NULL);
	struct bind_result r = {0};
	int cpus[1];
	pthread_t th;

	REQUIRE(t);
	CHECK(lab_topo_is_thissystem(t));
	CHECK_EQ_STR(lab_topo_source(t), "this system");
	REQUIRE(lab_topo_cpus_allowed(t, cpus, 1) >= 1);
	r.topo = t;
	r.cpu = lab_topo_cpu_allowed(t, 0) ? 0 : cpus[0];
	REQUIRE(pthread_create(&th, NULL, bind_thread, &r) == 0);
	pthread_join(th, NULL);
	CHECK_EQ_I64(r.rc, 0);
	if (r.rc)
		fprintf(stderr, "bind: %s\n", r.err.msg);
	CHECK_EQ_I64(r.after, r.cpu);
	CHECK_EQ_I64(r.nallowed, 1);
	CHECK_EQ_I64(r.first_allowed, r.cpu);
	CHECK_EQ_I64(lab_topo_bind_self(t, 100000, &r.err), -LAB_EINVAL);
	lab_topo_close(t);
}

struct affinity_result {
	struct lab_topo *topo;
	int set_rc, restore_rc, n, cpus[8], plan_rc, list_rc;
	bool allowed1;
	struct lab_env env;
	struct lab_err plan_err, list_err;
};

/* Narrows this thread's affinity to {0}, asks the topology, then restores the mask. */
static void *affinity_thread(void *arg)
{
	struct affinity_result *r = arg;
	cpu_set_t old, one;
	struct lab_placement p;
	int cpus[2];

	sched_getaffinity(0, sizeof(old), &old);
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	r->set_rc = sched_setaffinity(0, sizeof(one), &one);
	r->n = (int)lab_topo_cpus_allowed(r->topo, r->cpus, 8);
	r->allowed1 = lab_topo_cpu_allowed(r->topo, 1);
	lab_topo_env(r->topo, &r->env);
	lab_placement_parse("compact", &p, NULL);
	r->plan_rc = lab_topo_plan(r->topo, &p, 2, cpus, &r->plan_err);
	lab_placement_parse("list:1", &p, NULL);
	r->list_rc = lab_topo_plan(r->topo, &p, 1, cpus, &r->list_err);
	r->restore_rc = sched_setaffinity(0, sizeof(old), &old);
	return NULL;
}

LAB_TEST(allowed_follows_affinity)
{
	struct lab_topo *t = open_topo(NULL);
	struct affinity_result r = {0};
	pthread_t th;
	int all[1024];
	unsigned before;

	REQUIRE(t);
	before = lab_topo_cpus_allowed(t, all, 1024);
	REQUIRE(before >= 1 && lab_topo_cpu_allowed(t, 0));
	r.topo = t;
	REQUIRE(pthread_create(&th, NULL, affinity_thread, &r) == 0);
	pthread_join(th, NULL);
	CHECK_EQ_I64(r.set_rc, 0);
	CHECK_EQ_I64(r.restore_rc, 0);
	CHECK_EQ_I64(r.n, 1);
	CHECK_EQ_I64(r.cpus[0], 0);
	CHECK_EQ_U64(r.env.ncpus, 1);
	CHECK(!r.allowed1);
	CHECK_EQ_I64(r.plan_rc, -LAB_ECONFIG);
	CHECK_EQ_STR(r.plan_err.msg, "2 threads but only 1 CPU can be used (allowed 0)");
	if (lab_topo_pu_info(t, 1, &(struct lab_pu_info){0}) == 0) {
		CHECK_EQ_I64(r.list_rc, -LAB_ECONFIG);
		CHECK_EQ_STR(r.list_err.msg, "cpu 1 is not allowed for this process (allowed 0)");
	}
	/* The main thread's mask never changed. */
	CHECK_EQ_U64(lab_topo_cpus_allowed(t, NULL, 0), before);
	lab_topo_close(t);
}

/* /dev/zero grew to GBs inside hwloc and never ended: only regular files, at most 16 MiB. */
LAB_TEST(xml_regular_file_only)
{
	struct lab_topo *t = NULL;
	struct lab_err err = {0};
	char path[512];

	CHECK_EQ_I64(lab_topo_open(&t, "xml:/dev/zero", &err), -LAB_ETOPO);
	CHECK(t == NULL);
	CHECK(strstr(err.msg, "xml:/dev/zero: not a regular file") == err.msg);
	CHECK_EQ_I64(lab_topo_open(&t, "xml:/tmp", &err), -LAB_ETOPO);
	CHECK(strstr(err.msg, "xml:/tmp: not a regular file") == err.msg);
	/* A sparse file past the cap: refused by its size, without reading it. */
	snprintf(path, sizeof(path), "%s/big.xml", testlib_tmpdir());
	FILE *f = fopen(path, "w");
	REQUIRE(f != NULL);
	REQUIRE(ftruncate(fileno(f), LAB_TOPO_XML_MAX + 1) == 0);
	fclose(f);
	char spec[600];
	snprintf(spec, sizeof(spec), "xml:%s", path);
	CHECK_EQ_I64(lab_topo_open(&t, spec, &err), -LAB_ETOPO);
	CHECK(strstr(err.msg, "bytes (allowed at most 16 MiB)") != NULL);
	unlink(path);
}

/* pack:256 core:64 pu:4 took over a minute to plan: more than 4096 PUs is refused up front. */
LAB_TEST(synthetic_pu_cap)
{
	struct lab_topo *t = NULL;
	struct lab_err err = {0};

	CHECK_EQ_I64(lab_topo_open(&t, "synthetic:\"pack:256 core:64 pu:4\"", &err), -LAB_ETOPO);
	CHECK_EQ_STR(err.msg, "synthetic:\"pack:256 core:64 pu:4\": more than 4096 PUs (the lab "
	                      "plans topologies of at most 4096 PUs)");
	CHECK_EQ_I64(lab_topo_open(&t, "synthetic:pack:99999999999999999999 pu:1", &err),
	             -LAB_ETOPO);
	REQUIRE(lab_topo_open(&t, "synthetic:pack:16 core:64 pu:4", &err) == 0);
	CHECK_EQ_U64(lab_topo_cpus_allowed(t, NULL, 0), 4096);
	lab_topo_close(t);
}

/* node:N plans only the PUs of NUMA node N, one per core first; a missing node is EUNSUP (the
 * planner skips such points), too many threads for the node a config error. */
/* A sweep orders a placement's CPUs once (lab_topo_plan_order) and takes a prefix per thread
 * count: the same CPUs and errors as planning each count alone. */
LAB_TEST(plan_order_then_take_is_plan)
{
	static const char *const policies[] = {"compact", "cores",      "scatter",
	                                       "node:2",  "list:5,3,9", "expr:S1:0-5@S0:2"};
	struct lab_topo *t = open_fixture("2s4n-amd.xml");
	struct lab_err err = {0}, err2 = {0};
	struct lab_placement p;
	int cpus[40], cpus2[40], *order = NULL;
	unsigned count = 0;

	REQUIRE(t);
	for (unsigned k = 0; k < sizeof(policies) / sizeof(policies[0]); k++) {
		REQUIRE(lab_placement_parse(policies[k], &p, &err) == 0);
		REQUIRE(lab_topo_plan_order(t, &p, &order, &count, &err) == 0);
		for (unsigned n = 1; n <= 33; n++) {
			int a = lab_topo_plan(t, &p, n, cpus, &err);
			int b = lab_topo_plan_take(t, &p, order, count, n, cpus2, &err2);
			CHECK_EQ_I64(a, b);
			if (a == 0)
				CHECK(!memcmp(cpus, cpus2, n * sizeof(int)));
			else
				CHECK_EQ_STR(err.msg, err2.msg);
		}
		free(order);
	}
	lab_topo_close(t);
}

LAB_TEST(node_placement)
{
	struct lab_topo *t = open_fixture("2s4n-amd.xml");
	struct lab_err err = {0};
	int cpus[32];

	REQUIRE(t);
	REQUIRE(plan(t, "node:2", 4, cpus, &err) == 0);
	for (int i = 0; i < 4; i++)
		CHECK_EQ_I64(info_of(t, cpus[i]).numa, 2);
	CHECK(cores_first(t, cpus, 4, 4));
	CHECK(distinct(cpus, 4));
	CHECK_EQ_I64(plan(t, "node:7", 1, cpus, &err), -LAB_EUNSUP);
	CHECK_EQ_STR(err.msg, "placement node:7: NUMA node 7 has no CPU this process may use");
	CHECK_EQ_I64(plan(t, "node:0", 9, cpus, &err), -LAB_EUNSUP); /* the planner skips it */
	CHECK_EQ_STR(err.msg,
	             "9 threads but NUMA node 0 has only 8 usable CPUs (allowed threads 1 .. 8 "
	             "with node:0)");
	CHECK_EQ_I64(plan(t, "node:x", 1, cpus, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "placement 'node:x': node:N takes one NUMA node number (allowed "
	                      "node:0 .. node:4095)");
	lab_topo_close(t);
}

/* Two nodes share a package's CPUs (HBM or CXL memory beside DRAM): node:1 plans on them as
 * node:0 does, and the PU lists both nodes; it said "NUMA node 1 has no CPU". */
LAB_TEST(node_sharing_cpus_placement)
{
	struct lab_topo *t = NULL;
	struct lab_err err = {0};
	int cpus[8], os[4];

	REQUIRE(lab_topo_open(&t, "synthetic:pack:2 [numa] [numa] core:4 pu:2", &err) == 0);
	REQUIRE(plan(t, "node:1", 4, cpus, &err) == 0);
	for (int i = 0; i < 4; i++)
		CHECK_EQ_I64(info_of(t, cpus[i]).package, 0);
	CHECK(cores_first(t, cpus, 4, 4));
	REQUIRE(plan(t, "node:3", 2, cpus, &err) == 0);
	CHECK_EQ_I64(info_of(t, cpus[0]).package, 1);
	CHECK_EQ_U64(lab_topo_pu_nodes(t, 9, os, 4), 2);
	CHECK(os[0] == 2 && os[1] == 3);
	CHECK_EQ_U64(lab_topo_pu_nodes(t, 9, os, 1), 2); /* the count, past max */
	lab_topo_close(t);
}

/* The distance matrix of an XML fixture (firmware SLIT as hwloc keeps it); none on synthetic. */
LAB_TEST(numa_distances)
{
	struct lab_topo *t = open_fixture("2s4n-amd.xml");
	struct lab_topo *s = open_topo(SYN_2S);
	const uint64_t row1[4] = {12, 10, 32, 32};
	uint64_t d[16];

	REQUIRE(t && s);
	CHECK_EQ_U64(lab_topo_numa_distances(t, d, 16), 4);
	for (int i = 0; i < 4; i++)
		CHECK_EQ_U64(d[4 + i], row1[i]);
	CHECK_EQ_U64(lab_topo_numa_distances(s, d, 16), 0);
	lab_topo_close(t);
	lab_topo_close(s);
}

/*
 * Node numbers are the kernel's (numactl -H, mbind): on a topology whose NUMA nodes are numbered
 * out of topology order (package 0 holds OS nodes 2 and 3), node:0 is OS node 0 in package 1,
 * where mbind would put mem_node = 0 (red team: node:0 took logical node 0, so "local" memory
 * was remote); the distance matrix, listed by hwloc in the order 1 0 3 2, comes out in logical
 * order; far is OS node 3 (distance 40 from OS node 0).
 */
LAB_TEST(numa_numbers_are_the_kernels)
{
	char spec[1024];
	struct lab_topo *t;
	struct lab_err err = {0};
	struct lab_env env = {0};
	struct lab_pu_info pu;
	const uint64_t row0[4] = {10, 12, 32, 32}, row1[4] = {12, 10, 40, 32};
	uint64_t d[16];
	int cpus[2];

	snprintf(spec, sizeof(spec), "xml:%s/tests/fixtures/topologies/numa-os-order.xml",
	         testlib_srcdir());
	t = open_topo(spec);
	REQUIRE(t);
	REQUIRE(plan(t, "node:0", 2, cpus, &err) == 0);
	CHECK_EQ_I64(cpus[0], 4);
	CHECK_EQ_I64(cpus[1], 5);
	REQUIRE(lab_topo_pu_info(t, 0, &pu) == 0);
	CHECK_EQ_I64(pu.numa, 0);
	CHECK_EQ_I64(pu.numa_os, 2);
	CHECK_EQ_U64(lab_topo_numa_distances(t, d, 16), 4);
	for (int i = 0; i < 4; i++) {
		CHECK_EQ_U64(d[i], row0[i]);
		CHECK_EQ_U64(d[4 + i], row1[i]);
	}
	lab_topo_env(t, &env);
	CHECK_EQ_U64(env.numa_far0, 3);
	lab_topo_close(t);
}

/* A matrix of 3 of the 4 nodes (an edited XML) is none: its rows were labelled node 0, 1, 2 for
 * OS nodes 1, 2, 3, and far came from node 1's row. */
LAB_TEST(numa_distances_of_some_nodes_are_none)
{
	char src[2100], dst[2048], *text = NULL, *a, *b;
	size_t len;
	FILE *f;
	struct lab_topo *t;
	struct lab_env env = {0};
	uint64_t d[16];

	snprintf(src, sizeof(src), "%s/configs/topologies/2s4n-amd.xml", testlib_srcdir());
	snprintf(dst, sizeof(dst), "%s/dsub3.xml", testlib_tmpdir());
	REQUIRE((f = fopen(src, "r")));
	text = malloc(1 << 20);
	REQUIRE(text);
	len = fread(text, 1, (1 << 20) - 1, f);
	text[len] = '\0';
	fclose(f);
	REQUIRE((a = strstr(text, "  <distances2")) && (b = strstr(a, "</distances2>")));
	REQUIRE((f = fopen(dst, "w")));
	fprintf(f,
	        "%.*s  <distances2 type=\"NUMANode\" nbobjs=\"3\" kind=\"5\" name=\"NUMALatency\" "
	        "indexing=\"os\">\n    <indexes length=\"6\">1 2 3 </indexes>\n    <u64values "
	        "length=\"27\">10 20 40 20 10 20 40 20 10 </u64values>\n  %s",
	        (int)(a - text), text, b);
	fclose(f);
	free(text);
	snprintf(src, sizeof(src), "xml:%s", dst);
	REQUIRE((t = open_topo(src)));
	CHECK_EQ_U64(lab_topo_numa_distances(t, d, 16), 0);
	lab_topo_env(t, &env);
	CHECK_EQ_U64(env.numa_far0, 1); /* as without distances */
	lab_topo_close(t);
}

/* mem_node = far: the node farthest from node 0 (red team: ch27 compared node 0 with node 1,
 * its neighbour in the same package on this NPS2-like fixture, distance 12 against 32); the
 * lowest of ties; 1 without distances. */
LAB_TEST(numa_far_node)
{
	struct lab_topo *t = open_fixture("2s4n-amd.xml");
	struct lab_topo *s = open_topo(SYN_2S);
	struct lab_env env = {0};

	REQUIRE(t && s);
	lab_topo_env(t, &env);
	CHECK_EQ_U64(env.numa_far0, 2);
	lab_topo_env(s, &env);
	CHECK_EQ_U64(env.numa_far0, 1);
	lab_topo_close(t);
	lab_topo_close(s);
}

/* Each node's memory (hwloc's local_memory); max bounds what is written, not the count. */
LAB_TEST(numa_memory)
{
	struct lab_topo *t = open_fixture("2s4n-amd.xml");
	struct lab_numa_mem m[4] = {0};

	REQUIRE(t);
	CHECK_EQ_U64(lab_topo_numa_memory(t, m, 4), 4);
	for (int i = 0; i < 4; i++) {
		CHECK_EQ_I64(m[i].node, i);
		CHECK_EQ_I64(m[i].os_index, i);
		CHECK_EQ_U64(m[i].local_memory, 1u << 30);
	}
	m[1] = (struct lab_numa_mem){0};
	CHECK_EQ_U64(lab_topo_numa_memory(t, m, 1), 4);
	CHECK_EQ_U64(m[1].local_memory, 0);
	lab_topo_close(t);
}

/* hwloc loads some XML it calls invalid (PUs out of cpuset order) and says so in a banner of
 * its own on stderr: 9 lines for one error line. The banner is the error now, in one line, and
 * nothing reaches stderr. */
LAB_TEST(hwloc_banner_is_one_error)
{
	char spec[1024], path[1024], said[64] = "";
	struct lab_topo *t = NULL;
	struct lab_err err = {0};
	int saved = dup(2), fd;
	ssize_t n;

	snprintf(spec, sizeof(spec), "xml:%s/tests/fixtures/topologies/pu-out-of-order.xml",
	         testlib_srcdir());
	snprintf(path, sizeof(path), "%s/stderr.txt", testlib_tmpdir());
	REQUIRE(saved >= 0 && (fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600)) >= 0);
	fflush(stderr);
	dup2(fd, 2);
	int rc = lab_topo_open(&t, spec, &err);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(fd, said, sizeof(said) - 1, 0);
	close(fd);
	CHECK(rc < 0);
	CHECK(strstr(err.msg, "pu-out-of-order.xml: hwloc calls the topology invalid: hwloc has "
	                      "encountered an out-of-order XML topology load.") != NULL);
	CHECK(strstr(err.msg, "(allowed: an XML topology as hwloc writes it") != NULL);
	CHECK(!strchr(err.msg, '\n'));
	CHECK_EQ_I64(n, 0);
	if (rc == 0)
		lab_topo_close(t);
}

/* An XML hwloc refuses without a word (no NUMA node): the reason its verbose reader gives is the
 * error (it said "No such file or directory", errno of a file read, of a file that is there),
 * and a user's HWLOC_XML_VERBOSE does not make good XML "invalid". */
LAB_TEST(hwloc_refusal_says_why)
{
	char spec[1024];
	struct lab_topo *t = NULL;
	struct lab_err err = {0};

	/* first in this process: hwloc reads the variable once; verbose, it warns of the unknown
	 * attribute of this good XML, which read as a banner */
	snprintf(spec, sizeof(spec), "xml:%s/tests/fixtures/topologies/unknown-attr.xml",
	         testlib_srcdir());
	setenv("HWLOC_XML_VERBOSE", "7", 1);
	CHECK(lab_topo_open(&t, spec, &err) == 0);
	CHECK_EQ_STR(getenv("HWLOC_XML_VERBOSE"), "7"); /* given back */
	if (t)
		lab_topo_close(t);
	snprintf(spec, sizeof(spec), "xml:%s/tests/fixtures/topologies/no-numa-node.xml",
	         testlib_srcdir());
	CHECK(lab_topo_open(&t, spec, &err) < 0);
	CHECK(strstr(err.msg, "no-numa-node.xml: hwloc calls the topology invalid: Topology does "
	                      "not contain any NUMA node") != NULL);
	CHECK(!strchr(err.msg, '\n'));
	unsetenv("HWLOC_XML_VERBOSE");
}
