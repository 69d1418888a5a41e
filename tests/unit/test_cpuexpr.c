/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * likwid thread-domain expressions (placement = expr:...): the domains of the 2-socket Intel
 * fixture (SMT), the 4-NUMA-node AMD fixture and a synthetic topology with dies and no SMT;
 * every row of cpuexpr_hwloc.txt resolved and compared with the CPUs hwloc-calc gives for the
 * same selection (cpuexpr_hwloc.sh checks that column against hwloc-calc itself); the error
 * messages of bad expressions; the placement and sweep layers around them.
 */
#include <stdbool.h>

#include "harness/cpuexpr.h"
#include "harness/plan.h"
#include "harness/topo.h"
#include "harness/topo_domain.h"
#include "tests/testlib.h"

#define INTEL "xml:configs/topologies/2s8c2t-intel.xml"
#define AMD   "xml:configs/topologies/2s4n-amd.xml"
#define DIES  "synthetic:pack:2 die:2 numa:1 l3:1 core:3 pu:1"
/* likwid-pin's documented example: 4 cores x 2 threads, sibling of n is n+4 */
#define SMT4 "synthetic:core:4 pu:2(indexes=0,4,1,5,2,6,3,7)"

/* Opens spec; an xml: path is relative to the source root. */
static struct lab_topo *open_topo(const char *spec)
{
	struct lab_topo *t = NULL;
	struct lab_err err = {0};
	char full[2048];

	if (!strncmp(spec, "xml:", 4))
		snprintf(full, sizeof(full), "xml:%s/%s", testlib_srcdir(), spec + 4);
	else
		snprintf(full, sizeof(full), "%s", spec);
	if (lab_topo_open(&t, full, &err) != 0)
		fprintf(stderr, "open %s: %s\n", full, err.msg);
	return t;
}

/* Resolves expr on spec into "a,b,c", or "error: MESSAGE". */
static void resolve(const char *spec, const char *expr, char *out, size_t size)
{
	struct lab_topo *t = open_topo(spec);
	struct lab_topo_domains *doms = NULL;
	struct lab_err err = {0};
	int cpus[LAB_CPUEXPR_MAX];
	size_t used = 0;

	snprintf(out, size, "error: cannot open %s", spec);
	if (!t)
		return;
	if (lab_topo_domains_list(t, &doms, &err) < 0) {
		snprintf(out, size, "error: %s", err.msg);
		goto out;
	}
	int n = lab_cpuexpr_resolve(expr, doms, cpus, LAB_CPUEXPR_MAX, &err);
	if (n < 0) {
		snprintf(out, size, "error: %s", err.msg);
		goto out;
	}
	out[0] = '\0';
	for (int i = 0; i < n && used < size; i++)
		used += (size_t)snprintf(out + used, size - used, "%s%d", i ? "," : "", cpus[i]);
out:
	lab_topo_domains_free(doms);
	lab_topo_close(t);
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n'))
		s[--n] = '\0';
	return s;
}

LAB_TEST(matches_hwloc_calc)
{
	char path[2048], line[1024], got[4096];
	unsigned rows = 0, topologies = 0;
	char last[256] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/unit/cpuexpr_hwloc.txt", testlib_srcdir());
	f = fopen(path, "r");
	REQUIRE(f != NULL);
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		char *col[4] = {line, NULL, NULL, NULL};
		for (int c = 1; c < 4; c++) {
			col[c] = strchr(col[c - 1], '|');
			if (!col[c])
				break;
			*col[c]++ = '\0';
		}
		if (!col[3]) {
			TL__FAIL("%s: a row without 4 columns: %s", path, line);
			continue;
		}
		const char *spec = trim(col[0]), *expr = trim(col[1]), *want = trim(col[3]);
		resolve(spec, expr, got, sizeof(got));
		if (strcmp(got, want) != 0)
			TL__FAIL("%s on %s: lab gives %s, hwloc-calc (%s) gives %s", expr, spec,
			         got, trim(col[2]), want);
		if (strcmp(last, spec) != 0) {
			topologies++;
			snprintf(last, sizeof(last), "%s", spec);
		}
		rows++;
	}
	fclose(f);
	CHECK(rows >= 30);
	CHECK(topologies >= 3);
}

/* The domain lists: names per kind, sizes, physical cores first and in topology order. */
LAB_TEST(domains_listed)
{
	static const struct {
		const char *spec, *names, *llc;
	} cases[] = {
	    {INTEL, "N, S0-S1, C0-C1, M0-M1", "L3"},
	    {AMD, "N, S0-S1, C0-C3, M0-M3", "L3"},
	    {DIES, "N, S0-S1, D0-D3, C0-C3, M0-M3", "L3"},
	    {"synthetic:pack:2 core:2 pu:2", "N, S0-S1, M0", ""},
	    {"synthetic:core:3 pu:1", "N, S0, M0", ""},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lab_topo *t = open_topo(cases[i].spec);
		struct lab_topo_domains *doms = NULL;
		struct lab_err err;
		char names[256];

		REQUIRE(t != NULL);
		CHECK_EQ_I64(lab_topo_domains_list(t, &doms, &err), 0);
		if (doms) {
			lab_topo_domains_names(doms, names, sizeof(names));
			CHECK_EQ_STR(names, cases[i].names);
			CHECK_EQ_STR(doms->llc, cases[i].llc);
		}
		lab_topo_domains_free(doms);
		lab_topo_close(t);
	}

	struct lab_topo *t = open_topo(INTEL);
	struct lab_topo_domains *doms = NULL;
	REQUIRE(t != NULL);
	REQUIRE(lab_topo_domains_list(t, &doms, NULL) == 0);
	const struct lab_topo_domain *s1 = lab_topo_domain_find(doms, "S1");
	REQUIRE(s1 != NULL);
	CHECK_EQ_U64(s1->ncpus, 16);
	CHECK_EQ_U64(s1->ncores, 8);
	CHECK_EQ_I64(s1->cpus[0], 8);
	CHECK_EQ_I64(s1->cpus[7], 15);
	CHECK_EQ_I64(s1->cpus[8], 24); /* the SMT sibling of S1:0 comes after every core */
	CHECK_EQ_I64(s1->tcpus[0], 8); /* E: walks core by core: S1's first core, both PUs */
	CHECK_EQ_I64(s1->tcpus[1], 24);
	CHECK_EQ_I64(s1->tcpus[2], 9);
	CHECK_EQ_I64(s1->tcpus[15], 31);
	CHECK(lab_topo_domain_find(doms, "D0") == NULL);
	lab_topo_domains_free(doms);
	lab_topo_close(t);
}

/*
 * likwid lists a NUMA node's cores by the OS number of each one's first CPU (its numa_hwloc.c),
 * not in topology order: with the sockets' CPUs interleaved under one node (even CPUs on socket
 * 0, sibling of n is n+16) M0 is 0,16,1,17,... where N is 0,16,2,18,... (cpuexpr33: M0:0-3 was
 * 0,2,4,6, likwid-pin's 0,1,2,3). The same with cores round-robin across two L3s.
 */
LAB_TEST(numa_domains_in_likwid_order)
{
	static const struct {
		const char *spec, *expr, *want;
	} cases[] = {
	    {"synthetic:pack:2 core:8 pu:2(indexes=Package:Core)", "M0:0-3", "0,1,2,3"},
	    {"synthetic:pack:2 core:8 pu:2(indexes=Package:Core)", "E:M0:4", "0,16,1,17"},
	    {"synthetic:pack:2 core:8 pu:2(indexes=Package:Core)", "E:M0:4:1:2", "0,1,2,3"},
	    {"synthetic:pack:2 core:8 pu:2(indexes=Package:Core)", "M0:16-17", "16,17"},
	    {"synthetic:pack:2 core:8 pu:2(indexes=Package:Core)", "N:0-3", "0,2,4,6"},
	    {"synthetic:pack:2 core:8 pu:2(indexes=Package:Core)", "E:N:4", "0,16,2,18"},
	    {"synthetic:pack:1 [numa] l3:2 core:4 pu:2(indexes=L3Cache:Core)", "M0:0-3", "0,1,2,3"},
	    {"synthetic:pack:1 [numa] l3:2 core:4 pu:2(indexes=L3Cache:Core)", "E:M0:4", "0,8,1,9"},
	    {"synthetic:pack:1 [numa] l3:2 core:4 pu:2(indexes=L3Cache:Core)", "C0:0-1", "0,2"},
	};
	char got[4096];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		resolve(cases[i].spec, cases[i].expr, got, sizeof(got));
		if (strcmp(got, cases[i].want))
			TL__FAIL("%s on %s: got %s, likwid-pin gives %s", cases[i].expr,
			         cases[i].spec, got, cases[i].want);
	}
}

/*
 * likwid-pin's own examples, on the machine its documentation describes: 4 cores with 2
 * hardware threads each, sibling of n is n+4, so `likwid-pin -p` lists N as 0,4,1,5,2,6,3,7.
 * E: walks that list; DOMAIN:INDICES numbers physical cores first. The old lab walked both
 * physical cores first and gave E:N:2 = 0,1 and E:N:4:1:2 = 0,2,4,6.
 */
LAB_TEST(likwid_pin_idioms)
{
	static const struct {
		const char *expr, *want;
	} cases[] = {
	    {"E:N:8", "0,4,1,5,2,6,3,7"}, /* the processor list itself */
	    {"E:N:2", "0,4"},             /* both threads of core 0 */
	    {"E:N:2:1:2", "0,1"},
	    {"E:N:4:1:2", "0,1,2,3"}, /* "the first four physical CPUs" */
	    {"E:N:4:2:4", "0,4,2,6"},
	    {"N:0-7", "0,1,2,3,4,5,6,7"}, /* physical cores first */
	    {"N:0,4", "0,4"},
	    {"E:S0:2@N:1", "0,4,1"}, /* E: index 1 and N:1 are other CPUs here */
	    {"E:N:2@N:4", "error: in 'N:4': cpu 4 (N:4) is selected twice (each thread needs its "
	                  "own CPU)"},
	    {"N:1@E:N:4:1:2", "error: in 'E:N:4:1:2': cpu 1 (index 2 of E:N, core by core) is "
	                      "selected twice (each thread needs its own CPU)"},
	};
	char got[4096];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		resolve(SMT4, cases[i].expr, got, sizeof(got));
		if (strcmp(got, cases[i].want))
			TL__FAIL("%s on %s: got %s, likwid-pin gives %s", cases[i].expr, SMT4, got,
			         cases[i].want);
	}
}

/* N:0-(n-1) is the `cores` policy: both put one thread on every core before any sibling. */
LAB_TEST(node_domain_is_cores_policy)
{
	static const char *const specs[] = {INTEL, AMD, DIES};

	for (size_t s = 0; s < sizeof(specs) / sizeof(specs[0]); s++) {
		struct lab_topo *t = open_topo(specs[s]);
		struct lab_placement p;
		struct lab_err err;
		int a[64], b[64];
		char expr[32];

		REQUIRE(t != NULL);
		unsigned n = lab_topo_pus(t, NULL, 0);
		REQUIRE(n <= 64);
		snprintf(expr, sizeof(expr), "expr:N:0-%u", n - 1);
		REQUIRE(lab_placement_parse(expr, &p, &err) == 0);
		CHECK_EQ_I64(p.kind, LAB_PLACE_EXPR);
		CHECK_EQ_I64(lab_topo_plan(t, &p, n, a, &err), 0);
		REQUIRE(lab_placement_parse("cores", &p, &err) == 0);
		CHECK_EQ_I64(lab_topo_plan(t, &p, n, b, &err), 0);
		for (unsigned i = 0; i < n; i++)
			if (a[i] != b[i])
				TL__FAIL("%s: thread %u: expr:N gives cpu %d, cores gives %d",
				         specs[s], i, a[i], b[i]);
		lab_topo_close(t);
	}
}

/* Each expr is refused before a topology with a message that starts with msg. */
struct refusal {
	const char *expr, *msg;
};

static void check_refused(const struct refusal *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct lab_err err = {0};
		int rc = lab_cpuexpr_check(cases[i].expr, &err);
		if (rc != -LAB_ECONFIG || strncmp(err.msg, cases[i].msg, strlen(cases[i].msg)))
			TL__FAIL("'%s': rc %d, message\n  \"%s\"\n  want it to start \"%s\"",
			         cases[i].expr, rc, err.msg, cases[i].msg);
	}
}

/* A number too large says the real limit, quoting the number as written (it said "cannot read
 * index" and "COUNT must be a number from 1 to 1000000"); a likwid-pin form the lab does not
 * take says what to write instead (it said "unknown domain 'L'"). */
LAB_TEST(limits_and_likwid_forms)
{
	static const struct refusal cases[] = {
	    /* a number too large says the real limit, quoting it as written */
	    {"E:N:4294967297", "in 'E:N:4294967297': COUNT 4294967297 is too large (allowed 1 .. "
	                       "4096: an expression selects at most 4096 CPUs)"},
	    {"E:N:99999999", "in 'E:N:99999999': COUNT 99999999 is too large (allowed 1 .. 4096: "
	                     "an expression selects at most 4096 CPUs)"},
	    {"E:N:5000", "in 'E:N:5000': COUNT 5000 is too large (allowed 1 .. 4096"},
	    {"E:N:4:99999999999999999999:8", "in 'E:N:4:99999999999999999999:8': CHUNK "
	                                     "99999999999999999999 is larger than COUNT 4 (allowed "
	                                     "1 .. 4)"},
	    {"E:N:4:2:1000001", "in 'E:N:4:2:1000001': STRIDE 1000001 is too large (allowed 2 .. "
	                        "1000000)"},
	    {"S0:0-2000000", "in 'S0:0-2000000': index 2000000 is too large (allowed 0 .. 4095: no "
	                     "domain has more than 4096 CPUs)"},
	    {"N:0-1000001", "in 'N:0-1000001': index 1000001 is too large (allowed 0 .. 4095"},
	    {"S0:99999999999999999999", "in 'S0:99999999999999999999': index "
	                                "99999999999999999999 is too large (allowed 0 .. 4095"},
	    {"N:4096", "in 'N:4096': index 4096 is too large (allowed 0 .. 4095"},
	    /* likwid forms the lab does not take: what to write instead */
	    {"L:N:0-3", "in 'L:N:0-3': likwid's L: prefix is not supported (write N:0-3: "
	                "DOMAIN:INDICES is numbered physical cores first, as L: is)"},
	    {"S:scatter", "in 'S:scatter': likwid's scatter form is not supported (write "
	                  "placement = scatter to spread threads over the packages, or pick CPUs "
	                  "per domain such as S0:0-1@S1:0-1)"},
	    {"M:scatter", "in 'M:scatter': likwid's scatter form is not supported (write placement "
	                  "= scatter"},
	    {"S:balanced:4", "in 'S:balanced:4': likwid's balanced form is not supported (write "
	                     "placement = scatter"},
	    {"S:cbalanced:2", "in 'S:cbalanced:2': likwid's cbalanced form is not supported (write "
	                      "placement = scatter"},
	    {"0,1", "in '0,1': a bare list of OS CPU numbers is not an expression (write placement "
	            "= list:0,1)"},
	    {"S0:0@4-7", "in '4-7': a bare list of OS CPU numbers is not an expression (write "
	                 "placement = list:4-7)"},
	};

	check_refused(cases, sizeof(cases) / sizeof(cases[0]));
}

/* Topology-free checks: each message quotes the part and says what is allowed. */
LAB_TEST(syntax_errors)
{
	static const struct refusal cases[] = {
	    {"", "the expression is empty ("},
	    {"X0:1", "in 'X0:1': unknown domain 'X0' (allowed: DOMAIN:INDICES"},
	    {"S:1", "in 'S:1': unknown domain 'S' ("},
	    {"Sx:1", "in 'Sx:1': unknown domain 'Sx' ("},
	    {"N1:0", "in 'N1:0': unknown domain 'N1' ("},
	    {":1", "in ':1': no domain before ':' ("},
	    {"S0", "in 'S0': a domain needs its indices, e.g. S0:0-3 ("},
	    {"S0:", "in 'S0:': a domain needs its indices, e.g. S0:0-3 ("},
	    {"S0:3-1", "in 'S0:3-1': descending range 3-1 (not taken: write 3,2,1 for that "
	               "order, or 1-3) ("},
	    {"N:1-0", "in 'N:1-0': descending range 1-0 (not taken: write 1,0 for that order, or "
	              "0-1) ("},
	    {"N:9-2", "in 'N:9-2': descending range 9-2 (not taken: write 9,8,7,6,5,4,3,2 for "
	              "that order, or 2-9) ("},
	    {"N:20-2", "in 'N:20-2': descending range 20-2 (not taken: write the indices one by "
	               "one, 20,19 and so on, for that order, or 2-20) ("},
	    {"S0:1,,2", "in 'S0:1,,2': cannot read index '' ("},
	    {"S0:a", "in 'S0:a': cannot read index 'a' ("},
	    {"S0:1-", "in 'S0:1-': cannot read index '1-' ("},
	    {"S0:0@", "in '': empty part (write parts like S0:0-3 joined with @) ("},
	    {"S0:0@@S1:0", "in '': empty part ("},
	    {"E:S0:2:4:4", "in 'E:S0:2:4:4': CHUNK 4 is larger than COUNT 2 (allowed 1 .. 2)"},
	    {"E:S0:8:2:1", "in 'E:S0:8:2:1': STRIDE 1 is smaller than CHUNK 2: the chunks would "
	                   "overlap (allowed STRIDE >= 2)"},
	    {"E:S0:8:2", "in 'E:S0:8:2': E: takes COUNT, or COUNT:CHUNK:STRIDE ("},
	    {"E:S0:8:2:4:1", "in 'E:S0:8:2:4:1': E: takes COUNT, or COUNT:CHUNK:STRIDE ("},
	    {"E:S0:0", "in 'E:S0:0': COUNT must be a number from 1 to 4096 ("},
	    {"E:S0", "in 'E:S0': COUNT must be a number from 1 to 4096 ("},
	    {"E:S0:4:0:1", "in 'E:S0:4:0:1': CHUNK must be a number from 1 to 4 ("},
	    {"E:S0:4:2:0", "in 'E:S0:4:2:0': STRIDE must be a number from 1 to 1000000 ("},
	    {"E:Q1:4", "in 'E:Q1:4': unknown domain 'Q1' ("},
	    /* the same index of the same domain is the same CPU on any topology */
	    {"N:0@N:0", "in 'N:0': N:0 is selected twice (each thread needs its own CPU)"},
	    {"S0:1,1", "in 'S0:1,1': S0:1 is selected twice (each thread needs its own CPU)"},
	    {"S0:0-3@S1:0@S00:2", "in 'S00:2': S0:2 is selected twice (each thread needs its own "
	                          "CPU)"},
	    {"M1:5@M1:0-5", "in 'M1:0-5': M1:5 is selected twice (each thread needs its own "
	                    "CPU)"},
	    /* E: indices against E: indices of the same domain: the same numbering */
	    {"E:M1:8:2:4@E:M1:1", "in 'E:M1:1': index 0 of E:M1 is selected twice (each thread "
	                          "needs its own CPU)"},
	    {"E:N:4:1:2@E:S0:1@E:N:3", "in 'E:N:3': index 0 of E:N is selected twice ("},
	};

	check_refused(cases, sizeof(cases) / sizeof(cases[0]));
	static const char *const good[] = {
	    "N:0", "S0:0-3@S1:0-3", "M1:0,2,4", "C0:0-7", "D1:0", "E:S0:8:2:4", "E:N:4", "S01:2",
	    "E:S0:4:4:4", "E:S0:2@S1:0-1",
	    /* the same CPU on some topologies, not on all */
	    "N:0@S0:0", "S0:0@S1:0", "M0:0-3@C0:0-3",
	    /* E: and indices number a domain differently */
	    "E:N:4:2:2@N:3", "M1:5@E:M1:8:2:4", "E:N:2@N:0-1",
	    /* blanks are spaces and tabs, as in a config */
	    "S0:\t0-1", "S0\t:0-1", "E\t:\tN:4 :\t2:2", "S0:0 ,\t1", "N:4095"};
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct lab_err err = {0};
		if (lab_cpuexpr_check(good[i], &err) != 0)
			TL__FAIL("'%s' refused: %s", good[i], err.msg);
	}
}

/* What depends on the topology: domains it lacks, indices past a domain, CPUs taken twice. */
LAB_TEST(topology_errors)
{
	static const struct {
		const char *spec, *expr, *want;
	} cases[] = {
	    {INTEL, "S2:0",
	     "error: in 'S2:0': this topology has no domain S2 (allowed here: N, "
	     "S0-S1, C0-C1, M0-M1)"},
	    {INTEL, "D0:0",
	     "error: in 'D0:0': this topology has no domain D0 (allowed here: N, "
	     "S0-S1, C0-C1, M0-M1)"},
	    {INTEL, "S1:0-16",
	     "error: in 'S1:0-16': index 16 is past domain S1 (allowed "
	     "S1:0-15: 16 CPUs, 8 physical cores first)"},
	    {INTEL, "N:4095",
	     "error: in 'N:4095': index 4095 is past domain N (allowed N:0-31: 32 CPUs, 16 "
	     "physical cores first)"},
	    {DIES, "D0:3",
	     "error: in 'D0:3': index 3 is past domain D0 (allowed D0:0-2: 3 CPUs, "
	     "3 physical cores first)"},
	    /* an E: selection past its domain is said in its COUNT, as written */
	    {AMD, "E:M0:8:2:8",
	     "error: in 'E:M0:8:2:8': COUNT 8 runs past domain M0 (allowed COUNT 1 .. 2 with "
	     "this CHUNK and STRIDE: M0 has 8 CPUs on 4 cores, which E: walks core by core)"},
	    {INTEL, "E:S0:17",
	     "error: in 'E:S0:17': COUNT 17 runs past domain S0 (allowed COUNT 1 .. 16: S0 has "
	     "16 CPUs on 8 cores, which E: walks core by core)"},
	    {INTEL, "E:S0:16", "0,16,1,17,2,18,3,19,4,20,5,21,6,22,7,23"},
	    /* E: and indices meet only on a topology: index 2 of E:N is core 1's first CPU, N:1 */
	    {INTEL, "E:N:4:2:2@N:1",
	     "error: in 'N:1': cpu 1 (N:1) is selected twice (each thread needs its own CPU)"},
	    {INTEL, "E:N:4:2:2@N:2", "0,16,1,17,2"},
	    {DIES, "N:1@E:N:2",
	     "error: in 'E:N:2': cpu 1 (index 1 of E:N, core by core) is selected twice (each "
	     "thread needs its own CPU)"},
	    /* a tab is a blank like a space */
	    {INTEL, "S1\t:\t0-1 ,\t3", "8,9,11"},
	    {INTEL, "S0:0@N:0",
	     "error: in 'N:0': cpu 0 (N:0) is selected twice (each thread "
	     "needs its own CPU)"},
	    {INTEL, "S0:1,1",
	     "error: in 'S0:1,1': cpu 1 (S0:1) is selected twice (each thread "
	     "needs its own CPU)"},
	    {"synthetic:core:2 pu:1", "C0:0",
	     "error: in 'C0:0': this topology has no domain C0 (allowed here: N, S0, M0)"},
	    {INTEL, "S01:0", "8"},
	};
	char got[4096];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		resolve(cases[i].spec, cases[i].expr, got, sizeof(got));
		CHECK_EQ_STR(got, cases[i].want);
	}
}

/* The placement layer: expr: parsed, planned, and an expression shorter than the team. */
LAB_TEST(placement_expr)
{
	struct lab_topo *t = open_topo(INTEL);
	struct lab_placement p;
	struct lab_err err = {0};
	int cpus[32];

	REQUIRE(t != NULL);
	REQUIRE(lab_placement_parse("expr:S1:0-3@S0:0-3", &p, &err) == 0);
	CHECK_EQ_STR(p.expr, "S1:0-3@S0:0-3");
	CHECK_EQ_I64(lab_topo_plan(t, &p, 5, cpus, &err), 0);
	CHECK_EQ_I64(cpus[0], 8);
	CHECK_EQ_I64(cpus[3], 11);
	CHECK_EQ_I64(cpus[4], 0);
	CHECK_EQ_I64(lab_topo_plan(t, &p, 9, cpus, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg,
	             "9 threads but the expression yields only 8 CPUs (8-11,0-3) (allowed: "
	             "threads 1 .. 8, or a longer expression)");
	CHECK_EQ_I64(lab_placement_parse("expr:S0:3-1", &p, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg,
	             "placement 'expr:S0:3-1': in 'S0:3-1': descending range 3-1 (not "
	             "taken: write 3,2,1 for that order, or 1-3) (" LAB_CPUEXPR_ALLOWED ")");
	CHECK_EQ_I64(lab_placement_parse("expr:", &p, NULL), -LAB_ECONFIG);
	REQUIRE(lab_placement_parse("expr:S2:0", &p, &err) == 0); /* the topology decides */
	CHECK_EQ_I64(lab_topo_plan(t, &p, 1, cpus, &err), -LAB_ECONFIG);
	lab_topo_close(t);
}

/* A sweep of placements keeps an expression's commas: "expr:S0:0,2@S1:0,2, compact". */
LAB_TEST(sweep_keeps_expression_commas)
{
	const struct lab_param *p = NULL;
	struct lab_err err = {0};
	char **vals = NULL;

	for (const struct lab_param *q = lab_hparam_table; q->key; q++)
		if (!strcmp(q->key, "placement"))
			p = q;
	REQUIRE(p != NULL);
	int n = lab_sweep_expand(
	    p, "expr:S0:0,2@S1:0,2, compact, expr:M1:0, 1,list:0,1, expr:E:N:4", NULL, &vals, &err);
	REQUIRE(n == 5);
	CHECK_EQ_STR(vals[0], "expr:S0:0,2@S1:0,2");
	CHECK_EQ_STR(vals[1], "compact");
	CHECK_EQ_STR(vals[2], "expr:M1:0,1");
	CHECK_EQ_STR(vals[3], "list:0,1");
	CHECK_EQ_STR(vals[4], "expr:E:N:4");
	lab_sweep_free(vals, (unsigned)n);
	n = lab_sweep_expand(p, "expr:E:N:4, expr:N:0", NULL, &vals, &err);
	REQUIRE(n == 2);
	CHECK_EQ_STR(vals[1], "expr:N:0");
	lab_sweep_free(vals, (unsigned)n);
	/* blanks around the separators after a comma, as in the first item (cpuexpr33: "1 @ S1:0"
	 * was a second placement, "unknown policy") */
	n = lab_sweep_expand(p, "expr:S0:0,1 @ S1:0, expr:S0:0, 2 - 3,list:0, 2 - 3,\t1, compact",
	                     NULL, &vals, &err);
	REQUIRE(n == 4);
	CHECK_EQ_STR(vals[0], "expr:S0:0,1 @ S1:0");
	CHECK_EQ_STR(vals[1], "expr:S0:0,2 - 3");
	CHECK_EQ_STR(vals[2], "list:0,2 - 3,1");
	CHECK_EQ_STR(vals[3], "compact");
	lab_sweep_free(vals, (unsigned)n);
}
