/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The limits --topology input is checked against before hwloc reads it (topo_input.c): a
 * synthetic description's PU count however its levels are written, its indexes= lists, and the
 * nesting depth of an XML file. Each case here was accepted, hung or crashed inside hwloc.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/topo.h"
#include "tests/testlib.h"

/* lab_topo_open(spec) fails with -LAB_ETOPO and the message want. */
static void check_refused(const char *spec, const char *want)
{
	struct lab_topo *t = NULL;
	struct lab_err err = {0};

	CHECK_EQ_I64(lab_topo_open(&t, spec, &err), -LAB_ETOPO);
	CHECK(t == NULL);
	CHECK_EQ_STR(err.msg, want);
	lab_topo_close(t);
}

/* The OS indices of the PUs of spec, in logical order, into cpus; returns how many (-1 when it
 * does not open). */
static int open_cpus(const char *spec, int *cpus, int max)
{
	struct lab_topo *t = NULL;
	struct lab_err err = {0};
	struct lab_pu_info in[8];
	unsigned n;

	if (lab_topo_open(&t, spec, &err) < 0) {
		fprintf(stderr, "open %s: %s\n", spec, err.msg);
		return -1;
	}
	n = lab_topo_pus(t, in, 8);
	for (unsigned i = 0; i < n && i < (unsigned)max && i < 8; i++)
		cpus[i] = in[i].cpu;
	lab_topo_close(t);
	return (int)n;
}

/* An index past 65535 (2147483648: 1.8 GB and a crash inside hwloc; printed as os -2147483648
 * on a NUMA level) or not written as digits is refused before hwloc sees it, as XML os_index. */
LAB_TEST(synthetic_indexes_range)
{
	static const char *const bad[][3] = {
	    {"synthetic:pack:2 numa:1(indexes=2147483648,0) pu:1", "2147483648", "out of range"},
	    {"synthetic:pu:2(indexes=65536,0)", "65536", "out of range"},
	    {"synthetic:pu:2(indexes=0,4294967297)", "4294967297", "out of range"},
	    {"synthetic:pu:2(indexes=-1,0)", "-1", "not a whole number"},
	    {"synthetic:pu:2(indexes=0,+1)", "+1", "not a whole number"},
	    {"synthetic:pu:2(indexes=0x1,0)", "0x1", "not a whole number"},
	    {"synthetic:pu:2(indexes=0,,1)", "", "not a whole number"},
	    {"synthetic:pu:1(indexes=)", "", "not a whole number"},
	    {"synthetic:pack:2 [numa(indexes=70000,0)] pu:1", "70000", "out of range"},
	    {"synthetic:(indexes=99999) pu:2", "99999", "out of range"},
	    {"synthetic:pu:8(indexes=4*2:99999*2:1*2)", "99999", "out of range"},
	    {"synthetic:pu:8(indexes=0x4*2:1*4)", "0x4", "not a whole number"},
	};
	char want[512];
	int cpus[8];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(want, sizeof(want),
		         "%s: index '%s' is %s (allowed in indexes=: whole numbers 0 .. 65535 in "
		         "decimal digits, e.g. indexes=0,2,1,3 or indexes=Core:Package)",
		         bad[i][0], bad[i][1], bad[i][2]);
		check_refused(bad[i][0], want);
	}
	CHECK_EQ_I64(open_cpus("synthetic:pu:2(indexes=65535,0)", cpus, 8), 2);
	CHECK_EQ_I64(cpus[0], 0);
	CHECK_EQ_I64(cpus[1], 65535);
	/* packages inside a core were planned as its SMT siblings */
	check_refused("synthetic:core:2 pack:2 pu:1",
	              "synthetic:core:2 pack:2 pu:1: a package inside a core (allowed: packages "
	              "above cores, cores above PUs, e.g. \"pack:2 core:8 pu:2\")");
	/* a NUMA node no node:N can name (node:0 .. node:4095) */
	check_refused("synthetic:pack:2 numa:2(indexes=9999,1,2,3) pu:1",
	              "synthetic:pack:2 numa:2(indexes=9999,1,2,3) pu:1: a NUMA node has OS index "
	              "9999 (allowed 0 .. 4095)");
	CHECK_EQ_I64(open_cpus("synthetic:pack:2 numa:2(indexes=4095,1,2,3) pu:1", cpus, 8), 4);
	/* The interleavings of hwloc's synthetic syntax stay allowed. */
	CHECK_EQ_I64(open_cpus("synthetic:pack:2 core:2 pu:2(indexes=4*2:2*2:1*2)", cpus, 8), 8);
	CHECK_EQ_I64(cpus[1], 4);
	CHECK_EQ_I64(open_cpus("synthetic:pack:2 core:2 pu:2(indexes=Core:Package)", cpus, 8), 8);
	CHECK_EQ_I64(cpus[1], 4); /* hwloc applied it: core 0's second PU is P#4 */
	CHECK_EQ_I64(open_cpus("synthetic:pack:2 core:2 pu:2(indexes=0,4,1,5,2,6,3,7)", cpus, 8),
	             8);
	CHECK_EQ_I64(cpus[1], 4);
}

/* A named interleaving hwloc cannot build it ignores without a word (hostile27: Core:PU on the PU
 * level, which the lab's own messages gave as the example, kept the default numbering): refused,
 * with what is wrong. */
LAB_TEST(synthetic_named_interleavings)
{
	static const char *const bad[][3] = {
	    {"Bogus:PU", "Bogus:PU", "names no object type hwloc knows"},
	    {"Core:", "Core:", "names no object type hwloc knows"},
	    {"Core:Core", "Core:Core", "names one level twice"},
	    {"Core:PU", "Core:PU", "names a type that is no level above this one"},
	    {"PU:Core", "PU:Core", "names a type that is no level above this one"},
	};
	char spec[128], want[512];
	int cpus[8];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(spec, sizeof(spec), "synthetic:pack:2 core:2 pu:2(indexes=%s)", bad[i][0]);
		snprintf(
		    want, sizeof(want),
		    "%s: indexes=%s of level 'pu:2' %s, so hwloc would ignore it without a word "
		    "(allowed: types of distinct levels above it, e.g. indexes=Core:Package on a "
		    "pu level under core and pack)",
		    spec, bad[i][1], bad[i][2]);
		check_refused(spec, want);
	}
	/* what hwloc builds: names as it reads them, a cache level, a level alone */
	CHECK_EQ_I64(open_cpus("synthetic:pack:2 core:2 pu:2(indexes=core:pack)", cpus, 8), 8);
	CHECK_EQ_I64(cpus[1], 4);
	CHECK_EQ_I64(open_cpus("synthetic:pack:2 l3:1 core:2 pu:2(indexes=L3:Core)", cpus, 8), 8);
	CHECK_EQ_I64(cpus[1], 4);
	CHECK_EQ_I64(cpus[2], 2); /* Core:Package gives 1 */
	CHECK_EQ_I64(open_cpus("synthetic:pack:2 core:2 pu:2(indexes=Core)", cpus, 8), 8);
	CHECK_EQ_I64(cpus[1], 4);
	/* review red team: what hwloc 2.9 applies stays taken (a level's own type where it has
	 * children, Group depths and a NUMA level it gives itself) */
	CHECK_EQ_I64(open_cpus("synthetic:group:2 group:2 pu:2(indexes=Group1:Group2)", cpus, 8),
	             8);
	CHECK_EQ_I64(open_cpus("synthetic:pack:2 core:2 pu:2(indexes=Core:NUMANode)", cpus, 8), 8);
	CHECK_EQ_I64(open_cpus("synthetic:pack:2 core:4(indexes=Core) pu:1", cpus, 8), 8);
	/* hostile red team: attached memory's named interleaving aborted hwloc (SIGABRT); bare
	 * arities are typed by hwloc, not here; a level below is no loop */
	check_refused(
	    "synthetic:pack:2 [numa(indexes=Core)] core:2 pu:2",
	    "synthetic:pack:2 [numa(indexes=Core)] core:2 pu:2: indexes=Core of '[numa]' is "
	    "a named interleaving of attached memory, which hwloc 2.9 aborts on or ignores "
	    "(allowed there: an explicit list, one index per object, or STEP*COUNT loops)");
	check_refused(
	    "synthetic:2 2 2(indexes=Core:Package)",
	    "synthetic:2 2 2(indexes=Core:Package): indexes=Core:Package of level '2' is a "
	    "named interleaving of levels written without type names, whose types hwloc "
	    "picks (name them, as pack:2 core:2 pu:2) (allowed there: an explicit list, one "
	    "index per object, or STEP*COUNT loops)");
	/* review red team: a NUMANode beside attached memory, a Group where there is none: hwloc
	 * finds no level for them and ignores the interleaving */
	check_refused(
	    "synthetic:pack:2 [numa] core:2 pu:2(indexes=Core:NUMANode)",
	    "synthetic:pack:2 [numa] core:2 pu:2(indexes=Core:NUMANode): "
	    "indexes=Core:NUMANode of level 'pu:2' names a type that is no level above "
	    "this one, so hwloc would ignore it without a word (allowed: types of distinct "
	    "levels above it, e.g. indexes=Core:Package on a pu level under core and pack)");
	check_refused("synthetic:pack:2 core:2 pu:2(indexes=Group3:Core)",
	              "synthetic:pack:2 core:2 pu:2(indexes=Group3:Core): indexes=Group3:Core of "
	              "level 'pu:2' names a type that is no level above this one, so hwloc would "
	              "ignore it without a word (allowed: types of distinct levels above it, e.g. "
	              "indexes=Core:Package on a pu level under core and pack)");
	check_refused(
	    "synthetic:pack:2(indexes=Core) core:2 pu:1",
	    "synthetic:pack:2(indexes=Core) core:2 pu:1: indexes=Core of level 'pack:2' "
	    "names a level below this one, so hwloc would ignore it without a word "
	    "(allowed: types of distinct levels above it, e.g. indexes=Core:Package on a pu "
	    "level under core and pack)");
}

/* pu:2(indexes=0,0) was one PU: two objects of a level given one index is refused, as two PUs
 * with one XML os_index are. */
LAB_TEST(synthetic_indexes_duplicate)
{
	check_refused("synthetic:pu:2(indexes=0,0)",
	              "synthetic:pu:2(indexes=0,0): index 0 appears twice in one indexes= list "
	              "(allowed: each object its own index)");
	check_refused("synthetic:pack:2 core:2 pu:1(indexes=3,1,2,1)",
	              "synthetic:pack:2 core:2 pu:1(indexes=3,1,2,1): index 1 appears twice in "
	              "one indexes= list (allowed: each object its own index)");
	check_refused("synthetic:pack:3(indexes=65535,7,65535) pu:1",
	              "synthetic:pack:3(indexes=65535,7,65535) pu:1: index 65535 appears twice in "
	              "one indexes= list (allowed: each object its own index)");
}

/* Hostile red team: hwloc ignored a numeric interleaving that numbers no object once (a loop
 * count of 0, counts multiplying to more than the level, steps that repeat an index) without a
 * word and kept its own numbering; refused as an explicit list of the wrong length is. */
LAB_TEST(synthetic_interleaving_checked)
{
	static const char *const bad[] = {"2*0:1*2", "3*2:1*2", "2*2:1*3", "0*2:1*2", "4*2"};
	char spec[128], want[512];
	int cpus[8];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(spec, sizeof(spec), "synthetic:pack:2 pu:2(indexes=%s)", bad[i]);
		snprintf(
		    want, sizeof(want),
		    "%s: indexes=%s of level 'pu:2' is no interleaving of its 4 objects (allowed: "
		    "STEP*COUNT loops, joined by ':', whose counts multiply to 4 and that number "
		    "each object once, e.g. indexes=2*2:1*2 for 4; hwloc ignores or misreads "
		    "another)",
		    spec, bad[i]);
		check_refused(spec, want);
	}
	/* a level's count too: pack:010 made 8 packages */
	check_refused("synthetic:pack:010 pu:1",
	              "synthetic:pack:010 pu:1: 'pack:010' has a leading 0, which hwloc reads as "
	              "octal (allowed: decimal counts without leading zeros, or hex as 0x40)");
	/* hwloc reads these numbers in C's bases: 08*2 it ignored, 010*2 is 8*2 */
	check_refused("synthetic:pack:2 pu:8(indexes=08*2:1*8)",
	              "synthetic:pack:2 pu:8(indexes=08*2:1*8): '08' in an indexes= interleaving "
	              "has a leading 0, which hwloc reads as octal (allowed: decimal numbers "
	              "without leading zeros, e.g. indexes=8*2:1*8)");
	/* hwloc's own: 2*2 misses a loop of step 1, added; 1*4 is the identity */
	CHECK_EQ_I64(open_cpus("synthetic:pack:2 pu:2(indexes=2*2)", cpus, 8), 4);
	CHECK_EQ_I64(cpus[1], 2);
	CHECK_EQ_I64(open_cpus("synthetic:pack:2 pu:2(indexes=1*4)", cpus, 8), 4);
	CHECK_EQ_I64(cpus[1], 1);
}

/* An explicit indexes= list numbers every object of its level in the whole machine: hwloc took
 * one of another length without a word and kept its own numbering (core:2(indexes=0,1) under
 * pack:2), or dropped the tail of a longer one. Attached NUMA nodes share one list. */
LAB_TEST(synthetic_indexes_count)
{
	static const char *const bad[][4] = {
	    {"synthetic:pack:2 core:2(indexes=0,1) pu:1", "level 'core:2'", "2 indexes", "4"},
	    {"synthetic:pack:2 core:2 pu:1(indexes=3,2,1,0,7)", "level 'pu:1'", "5 indexes", "4"},
	    {"synthetic:2 2(indexes=0,1,2) 2", "level '2'", "3 indexes", "4"},
	    {"synthetic:pack:2 numa:1(indexes=1) pu:1", "level 'numa:1'", "1 index", "2"},
	    {"synthetic:pack:2 [numa(indexes=5)] core:2 pu:1", "'[numa]'", "1 index", "2"},
	    {"synthetic:pack:2 [numa(indexes=3,2,1,0)] core:2 [numa] pu:1", "'[numa]'", "4 indexes",
	     "6"},
	    {"synthetic:(indexes=3,4) pack:2 pu:1", "the root", "2 indexes", "1"},
	    {"synthetic:pack:2 core:2(memory=1GB indexes=0,1) pu:1", "level 'core:2'", "2 indexes",
	     "4"},
	};
	char want[512];
	int cpus[8];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(want, sizeof(want),
		         "%s: indexes= of %s lists %s, but the machine has %s such object%s "
		         "(allowed: exactly %s, one per object, or an interleaving such as "
		         "indexes=Core:Package)",
		         bad[i][0], bad[i][1], bad[i][2], bad[i][3],
		         strcmp(bad[i][3], "1") ? "s" : "", bad[i][3]);
		check_refused(bad[i][0], want);
	}
	/* a list of the right length is taken: these PUs are 0, 2, 4 and 6 */
	CHECK_EQ_I64(open_cpus("synthetic:pack:2 core:2 pu:1(indexes=6,4,2,0)", cpus, 8), 4);
	CHECK_EQ_I64(cpus[1], 2);
	CHECK_EQ_I64(cpus[3], 6);
	CHECK_EQ_I64(open_cpus("synthetic:pack:2 core:2(memory=1GB indexes=3,2,1,0) pu:1", cpus, 8),
	             4);
	CHECK_EQ_I64(
	    open_cpus("synthetic:pack:2 [numa] [numa(indexes=3,2,1,0)] core:2 pu:1", cpus, 8), 4);
	CHECK_EQ_I64(open_cpus("synthetic:(indexes=7) pack:2 pu:1", cpus, 8), 2);
}

/* Levels written without a type name (64 64 64 hung for over a minute in 1.2 GB) or in another
 * base count as much as type:N ones: every level's arity multiplies the PUs before hwloc. */
LAB_TEST(synthetic_pu_cap_any_level)
{
	static const char *const bad[] = {
	    "synthetic:64 64 2",
	    "synthetic:\"64 64 64\"",
	    "synthetic:pack:0x40 core:0x40 pu:2",
	    "synthetic:pack:2 numa:64(memory=1GB) pu:64",
	    "synthetic:(memory=1GB) 4097",
	    "synthetic:pack:64 [numa(memory=1GB)] core:64 pu:2",
	    "synthetic:pack:2 core:2 pu:1025(indexes=Core:Package)",
	    "synthetic:group:4294967296 pu:1",
	};
	char want[512];
	int cpus[8];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(want, sizeof(want),
		         "%s: more than 4096 PUs (the lab plans topologies of at most 4096 PUs)",
		         bad[i]);
		check_refused(bad[i], want);
	}
	/* a negative arity is no count of PUs (strtoul made -1 the largest): hwloc's to refuse */
	check_refused("synthetic:pack:-1",
	              "synthetic:pack:-1: hwloc rejects the synthetic "
	              "description 'pack:-1' (expected e.g. synthetic:\"pack:2 "
	              "core:8 pu:2\")");
	CHECK_EQ_I64(open_cpus("synthetic:2 2 2", cpus, 8), 8);
	CHECK_EQ_I64(open_cpus("synthetic:pack:2 numa:1(memory=1GB) core:2 pu:2", cpus, 8), 8);
	CHECK_EQ_I64(open_cpus("synthetic:(memory=4GB) 8", cpus, 8), 8);
}

/* Writes n nested Group objects around one PU to path. */
static int write_nested_decl(const char *path, int n, const char *decl, const char *deepest)
{
	static const char sets[] =
	    "cpuset=\"0x1\" complete_cpuset=\"0x1\" nodeset=\"0x1\" complete_nodeset=\"0x1\"";
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fprintf(f, "%s\n<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n<topology version=\"2.0\">\n",
	        decl);
	fprintf(f, "<object type=\"Machine\" os_index=\"0\" %s>\n", sets);
	/* a "/" inside a value does not close the tag: only "/>" does */
	fprintf(f, "<info name=\"lab\" value=\"a/b\"/>\n");
	fprintf(f, "<object type=\"NUMANode\" os_index=\"0\" %s local_memory=\"1073741824\"/>\n",
	        sets);
	for (int i = 0; i < n; i++)
		fprintf(f, "<object type=\"Group\" %s>\n", sets);
	fprintf(f, "%s<object type=\"PU\" os_index=\"0\" %s/>\n", deepest, sets);
	for (int i = 0; i < n; i++)
		fprintf(f, "</object>\n");
	fprintf(f, "</object>\n</topology>\n");
	return fclose(f);
}

static int write_nested(const char *path, int n)
{
	return write_nested_decl(path, n, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "");
}

/* What hwloc refuses without a line (a mistyped object type) says what it takes and how to see
 * where hwloc stopped: the message was "Invalid argument" alone. */
LAB_TEST(xml_hwloc_refusal_says_what_is_allowed)
{
	char path[512], spec[600], want[900];
	FILE *f;

	snprintf(path, sizeof(path), "%s/typo.xml", testlib_tmpdir());
	REQUIRE((f = fopen(path, "w")));
	fputs("<?xml version=\"1.0\"?>\n<topology><object type=\"Pacakge\"/></topology>\n", f);
	fclose(f);
	snprintf(spec, sizeof(spec), "xml:%s", path);
	snprintf(want, sizeof(want),
	         "%s: hwloc cannot load the topology: Invalid argument (allowed: an XML topology "
	         "as hwloc writes it, e.g. `lstopo --of xml FILE`; `HWLOC_XML_VERBOSE=1 "
	         "lstopo-no-graphics -i FILE` shows where hwloc stops reading)",
	         spec);
	check_refused(spec, want);
}

/* 20,000 nested objects overflowed hwloc's recursive XML parser: more than 256 levels (a real
 * topology has under 20) is refused at the line that passes the limit. */
LAB_TEST(xml_nesting_depth)
{
	char path[512], spec[600], want[700];
	struct lab_topo *t = NULL;
	struct lab_err err = {0};

	snprintf(path, sizeof(path), "%s/nested.xml", testlib_tmpdir());
	snprintf(spec, sizeof(spec), "xml:%s", path);
	/* topology and Machine are two levels: 254 Groups and the PU make 257 */
	REQUIRE(write_nested(path, 254) == 0);
	CHECK_EQ_I64(lab_topo_open(&t, spec, &err), -LAB_ETOPO);
	CHECK(t == NULL);
	snprintf(want, sizeof(want),
	         "%s:261: objects nested more than 256 deep (allowed: at most 256)", path);
	CHECK_EQ_STR(err.msg, want);
	REQUIRE(write_nested(path, 253) == 0);
	REQUIRE(lab_topo_open(&t, spec, &err) == 0);
	CHECK_EQ_U64(lab_topo_cpus_allowed(t, NULL, 0), 1);
	lab_topo_close(t);
	/* an apostrophe in the declaration (which hwloc skips) closed by one at the deepest level
	 * hid every object between them: 30,000 of them crashed hwloc */
	REQUIRE(write_nested_decl(path, 300, "<?xml version=\"1.0\" ' ?>",
	                          "<info name=\"x\" value=\"'\"/>") == 0);
	CHECK_EQ_I64(lab_topo_open(&t, spec, &err), -LAB_ETOPO);
	CHECK(strstr(err.msg, ": objects nested more than 256 deep") != NULL);
	/* CDATA holds '>' and quotes that are no markup: not read at all */
	REQUIRE(write_nested_decl(path, 2, "<?xml version=\"1.0\"?>", "<![CDATA[ ' > ]]>") == 0);
	CHECK_EQ_I64(lab_topo_open(&t, spec, &err), -LAB_ETOPO);
	CHECK(strstr(err.msg, "markup '<![CDATA[ ': allowed: elements, comments") != NULL);
	unlink(path);
}

/* Sizes hwloc reads with strtoull: size=-5 was an L3 of 2^64 - 5 bytes (printed as 16 EiB),
 * memory=0x10 a node of 16 bytes, size=99999999999999999999 capped without a word; in XML
 * cache_size="-5" wrapped and "0x1000000" made the L3 disappear. Digits only in synthetic
 * attributes; every described cache 1 KiB .. 1 TiB, every node's memory up to 1 PiB. */
LAB_TEST(described_sizes)
{
	static const char *const digits[][2] = {
	    {"synthetic:pack:2 l3:1(size=-5) pu:2", "size=-5"},
	    {"synthetic:pack:2 [numa(memory=-1)] pu:2", "memory=-1"},
	    {"synthetic:pack:2 [numa(memory=0x10)] pu:2", "memory=0x10"},
	    {"synthetic:pack:2 l3:1(size=010) pu:2", "size=010"},
	    {"synthetic:(memory=+4GB) pu:2", "memory=+4GB"},
	};
	static const char *const xml[][2] = {
	    {"cache_size=\"-5\"", "an L2 cache of 18446744073709551611 bytes"},
	    {"cache_size=\"0x1000000\"", "an L2 cache of 0 bytes"},
	    {"cache_size=\"99999999999999999999\"", "an L2 cache of 18446744073709551615 bytes"},
	};
	char want[1024], spec[600], path[512];
	int cpus[8];

	for (size_t i = 0; i < sizeof(digits) / sizeof(digits[0]); i++) {
		snprintf(want, sizeof(want),
		         "%s: %s: allowed a whole number of bytes in decimal digits, a unit may "
		         "follow (size=32KB, memory=1GB)",
		         digits[i][0], digits[i][1]);
		check_refused(digits[i][0], want);
	}
	check_refused("synthetic:pack:2 l3:1(size=99999999999999999999) pu:2",
	              "synthetic:pack:2 l3:1(size=99999999999999999999) pu:2: an L3 cache of "
	              "18446744073709551615 bytes (allowed 1 KiB .. 1 TiB)");
	/* hwloc reads size=0 as no size and put its default, 16 MiB, in the plan (red team) */
	check_refused("synthetic:pack:2 l3:1(size=0) pu:2",
	              "synthetic:pack:2 l3:1(size=0) pu:2: size=0: allowed 1KB .. 1TB (hwloc "
	              "reads 0 as no size and gives its default, 16 MiB)");
	check_refused("synthetic:pack:2 l3:1(size=1) pu:2",
	              "synthetic:pack:2 l3:1(size=1) pu:2: an L3 cache of 1 bytes (allowed 1 KiB "
	              ".. 1 TiB)");
	check_refused("synthetic:pack:2 [numa(memory=2000000000000000000)] pu:2",
	              "synthetic:pack:2 [numa(memory=2000000000000000000)] pu:2: NUMA node 0 has "
	              "2000000000000000000 bytes of memory (allowed 0 .. 1 PiB)");
	CHECK_EQ_I64(open_cpus("synthetic:pack:2 [numa(memory=1GB)] l3:1(size=32MB) pu:2", cpus, 8),
	             4);
	CHECK_EQ_I64(open_cpus("synthetic:pack:1 l2:2(size=1024) pu:1", cpus, 8), 2);
	/* a level smaller than the one below it (size = L2 planned 1K under an L1 of 32K) */
	check_refused("synthetic:pack:1 l2:1(size=2KB) l1:2(size=32KB) pu:1",
	              "synthetic:pack:1 l2:1(size=2KB) l1:2(size=32KB) pu:1: an L1 cache of 32000 "
	              "bytes below an L2 of only 2000 (allowed: each level at least as large as "
	              "the one below it)");
	CHECK_EQ_I64(open_cpus("synthetic:pack:1 l2:1(size=32KB) l1:2(size=32KB) pu:1", cpus, 8),
	             2);
	snprintf(path, sizeof(path), "%s/sizes.xml", testlib_tmpdir());
	snprintf(spec, sizeof(spec), "xml:%s", path);
	for (size_t i = 0; i < sizeof(xml) / sizeof(xml[0]); i++) {
		FILE *f = fopen(path, "w");

		REQUIRE(f);
		fprintf(f,
		        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		        "<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n"
		        "<topology version=\"2.0\">\n"
		        "<object type=\"Machine\" os_index=\"0\" cpuset=\"0x1\" "
		        "complete_cpuset=\"0x1\" allowed_cpuset=\"0x1\" nodeset=\"0x1\" "
		        "complete_nodeset=\"0x1\" allowed_nodeset=\"0x1\" gp_index=\"1\">\n"
		        "<object type=\"NUMANode\" os_index=\"0\" cpuset=\"0x1\" "
		        "complete_cpuset=\"0x1\" nodeset=\"0x1\" complete_nodeset=\"0x1\" "
		        "gp_index=\"2\" local_memory=\"1073741824\"/>\n"
		        "<object type=\"L2Cache\" cpuset=\"0x1\" complete_cpuset=\"0x1\" "
		        "nodeset=\"0x1\" complete_nodeset=\"0x1\" gp_index=\"3\" %s "
		        "depth=\"2\" %s cache_associativity=\"8\" "
		        "cache_type=\"0\">\n"
		        "<object type=\"PU\" os_index=\"0\" cpuset=\"0x1\" complete_cpuset=\"0x1\" "
		        "nodeset=\"0x1\" complete_nodeset=\"0x1\" gp_index=\"4\"/>\n"
		        "</object>\n</object>\n</topology>\n",
		        xml[i][0], "cache_linesize=\"64\"");
		REQUIRE(fclose(f) == 0);
		snprintf(want, sizeof(want), "%s: %s (allowed 1 KiB .. 1 TiB)", spec, xml[i][1]);
		check_refused(spec, want);
	}
}

/* Two PUs of one os_index in an XML topology: refused at the second's line (it said no line,
 * after hwloc), an os_index out of range and a cache line of 3 bytes at their own. */
LAB_TEST(xml_pu_twice_at_its_line)
{
	char path[512], spec[600], want[1024];
	static const char pu[] = "<object type=\"PU\" os_index=\"%s\" cpuset=\"0x%d\" "
	                         "complete_cpuset=\"0x%d\" nodeset=\"0x1\" "
	                         "complete_nodeset=\"0x1\" gp_index=\"%d\"/>\n";

	snprintf(path, sizeof(path), "%s/twice.xml", testlib_tmpdir());
	snprintf(spec, sizeof(spec), "xml:%s", path);
	static const char *const want_k[] = {
	    "a second PU with os_index 0 (allowed: each PU its own)",
	    "an object's os_index is out of range (allowed a whole number 0 .. 65535)",
	    "an L2Cache line of 3 bytes (allowed 0 for not known, or a power of two 16 .. 4096)"};

	for (int k = 0; k < 3; k++) {
		FILE *f = fopen(path, "w");

		REQUIRE(f);
		fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		           "<topology version=\"2.0\">\n"
		           "<object type=\"Machine\" os_index=\"0\" cpuset=\"0x3\" "
		           "complete_cpuset=\"0x3\" allowed_cpuset=\"0x3\" nodeset=\"0x1\" "
		           "complete_nodeset=\"0x1\" allowed_nodeset=\"0x1\" gp_index=\"1\">\n");
		fprintf(f, pu, "0", 1, 1, 2);
		if (k == 2)
			fprintf(f, "<object type=\"L2Cache\" cache_size=\"65536\" depth=\"2\" "
			           "cache_linesize=\"3\"/>\n");
		else
			fprintf(f, pu, k ? "70000" : "0", 2, 2, 3);
		fprintf(f, "</object>\n</topology>\n");
		REQUIRE(fclose(f) == 0);
		snprintf(want, sizeof(want), "%s:5: %s", path, want_k[k]);
		check_refused(spec, want);
	}
}

/* hwloc reads HWLOC_XMLFILE and HWLOC_SYNTHETIC itself when no topology is given, without any
 * of the checks above (a file nested 30,000 deep crashed its parser, /dev/zero grew without
 * bound): the lab reads them as --topology would, names the variable in the error and in the
 * source, and HWLOC_SYNTHETIC wins as it does in hwloc. */
LAB_TEST(hwloc_environment_checked_as_topology)
{
	char path[512], want[700];
	struct lab_topo *t = NULL;
	struct lab_err err = {0};

	snprintf(path, sizeof(path), "%s/env-nested.xml", testlib_tmpdir());
	REQUIRE(write_nested(path, 254) == 0);
	REQUIRE(setenv("HWLOC_XMLFILE", path, 1) == 0);
	CHECK(lab_topo_hwloc_env() && !strcmp(lab_topo_hwloc_env(), "HWLOC_XMLFILE"));
	CHECK_EQ_I64(lab_topo_open(&t, NULL, &err), -LAB_ETOPO);
	CHECK(t == NULL);
	snprintf(want, sizeof(want),
	         "HWLOC_XMLFILE in the environment: %s:261: objects nested more than 256 deep "
	         "(allowed: at most 256)",
	         path);
	CHECK_EQ_STR(err.msg, want);
	REQUIRE(setenv("HWLOC_XMLFILE", "/dev/zero", 1) == 0);
	CHECK_EQ_I64(lab_topo_open(&t, NULL, &err), -LAB_ETOPO);
	CHECK(strstr(err.msg, "HWLOC_XMLFILE in the environment: xml:/dev/zero: not a regular "
	                      "file") == err.msg);
	REQUIRE(setenv("HWLOC_SYNTHETIC", "pack:2 pu:1", 1) == 0);
	CHECK(lab_topo_hwloc_env() && !strcmp(lab_topo_hwloc_env(), "HWLOC_SYNTHETIC"));
	REQUIRE(lab_topo_open(&t, NULL, &err) == 0);
	CHECK_EQ_STR(lab_topo_source(t), "synthetic:pack:2 pu:1 (HWLOC_SYNTHETIC)");
	CHECK_EQ_U64(lab_topo_pus(t, NULL, 0), 2);
	lab_topo_close(t);
	t = NULL;
	/* a spec given wins over the environment */
	REQUIRE(lab_topo_open(&t, "synthetic:pack:1 pu:3", &err) == 0);
	CHECK_EQ_U64(lab_topo_pus(t, NULL, 0), 3);
	lab_topo_close(t);
	unsetenv("HWLOC_SYNTHETIC");
	unsetenv("HWLOC_XMLFILE");
	CHECK(lab_topo_hwloc_env() == NULL);
	unlink(path);
}

/* HWLOC_COMPONENTS=-linux, or HWLOC_FSROOT or HWLOC_CPUID_PATH naming nothing, had hwloc read
 * this 1-package guest's CPUID as 2 packages and still call it this system: lab run bound
 * threads by that layout and run.json recorded it as the host's. Any of them set, the topology
 * is the hwloc environment's (plans only, never binds); HWLOC_FSROOT=/ is this system. */
LAB_TEST(hwloc_discovery_variables_not_this_system)
{
	static const char *const vars[] = {"HWLOC_COMPONENTS", "HWLOC_FSROOT", "HWLOC_CPUID_PATH"};
	static const char *const vals[] = {"-linux", "/nonexistent", "/nonexistent"};
	struct lab_topo *t = NULL;
	struct lab_err err = {0};
	char want[128];

	for (int i = 0; i < 3; i++) {
		REQUIRE(setenv(vars[i], vals[i], 1) == 0);
		REQUIRE(lab_topo_open(&t, NULL, &err) == 0);
		CHECK(!lab_topo_is_thissystem(t));
		snprintf(want, sizeof(want), "hwloc environment (%s)", vars[i]);
		CHECK_EQ_STR(lab_topo_source(t), want);
		CHECK(strstr(lab_topo_summary(t), "(hwloc environment, not this system)") != NULL);
		lab_topo_close(t);
		t = NULL;
		unsetenv(vars[i]);
	}
	/* empty, HWLOC_FSROOT and HWLOC_CPUID_PATH fail the Linux backend as well */
	for (int i = 1; i < 3; i++) {
		REQUIRE(setenv(vars[i], "", 1) == 0);
		REQUIRE(lab_topo_open(&t, NULL, &err) == 0);
		CHECK(!lab_topo_is_thissystem(t));
		lab_topo_close(t);
		t = NULL;
		unsetenv(vars[i]);
	}
	REQUIRE(setenv("HWLOC_FSROOT", "/", 1) == 0);
	REQUIRE(lab_topo_open(&t, NULL, &err) == 0);
	CHECK(lab_topo_is_thissystem(t));
	CHECK_EQ_STR(lab_topo_source(t), "this system");
	lab_topo_close(t);
	unsetenv("HWLOC_FSROOT");
}

/* 150,000 sibling Groups of one cpuset (8.7 MB, under the size cap and 3 deep) kept hwloc's
 * insertion busy for over 90 s: more objects than a 4096-PU machine has are refused at the line
 * of the first one too many. */
LAB_TEST(xml_object_count)
{
	static const char sets[] =
	    "cpuset=\"0x1\" complete_cpuset=\"0x1\" nodeset=\"0x1\" complete_nodeset=\"0x1\"";
	char path[512], spec[600];
	struct lab_topo *t = NULL;
	struct lab_err err = {0};
	FILE *f;

	snprintf(path, sizeof(path), "%s/groups.xml", testlib_tmpdir());
	snprintf(spec, sizeof(spec), "xml:%s", path);
	REQUIRE((f = fopen(path, "w")));
	fprintf(f,
	        "<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n"
	        "<object type=\"Machine\" os_index=\"0\" %s>\n",
	        sets);                                     /* line 3: object 1 */
	for (int i = 0; i < LAB_TOPO_XML_OBJECTS_MAX; i++) /* lines 4 .. : objects 2 .. */
		fprintf(f, "<object type=\"Group\" %s/>\n", sets);
	fprintf(f, "<object type=\"PU\" os_index=\"0\" %s/>\n</object>\n</topology>\n", sets);
	REQUIRE(fclose(f) == 0);
	CHECK_EQ_I64(lab_topo_open(&t, spec, &err), -LAB_ETOPO);
	CHECK(t == NULL);
	/* object 32769 is on line 3 + 32768 */
	CHECK(strstr(err.msg, ":32771: more than 32768 objects (allowed: at most 32768") != NULL);
	unlink(path);
}

/* Writes a machine of n PUs under one NUMA node: PU i has os_index osidx[i] and cpuset bit
 * bit[i] (an empty cpuset for -1); the machine's allowed_cpuset is allowed (NULL: all). */
static int write_pus(const char *path, int n, const int *osidx, const int *bit, const char *allowed)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fprintf(f,
	        "<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n<object type=\"Machine\" "
	        "os_index=\"0\" cpuset=\"0xff\" complete_cpuset=\"0xff\" nodeset=\"0x1\" "
	        "complete_nodeset=\"0x1\" allowed_cpuset=\"%s\" allowed_nodeset=\"0x1\">\n",
	        allowed ? allowed : "0xff");
	fprintf(f, "<object type=\"NUMANode\" os_index=\"0\" cpuset=\"0xff\" "
	           "complete_cpuset=\"0xff\" nodeset=\"0x1\" complete_nodeset=\"0x1\" "
	           "local_memory=\"1073741824\"/>\n");
	for (int i = 0; i < n; i++)
		fprintf(
		    f,
		    "<object type=\"PU\" os_index=\"%d\" cpuset=\"0x%x\" complete_cpuset=\"0x%x\" "
		    "nodeset=\"0x1\" complete_nodeset=\"0x1\"/>\n",
		    osidx[i], bit[i] < 0 ? 0 : 1u << bit[i], bit[i] < 0 ? 0 : 1u << bit[i]);
	fprintf(f, "</object>\n</topology>\n");
	return fclose(f);
}

/* Cpusets that disagree with the tree loaded without a word: a PU of os_index 7 on bit 3 (node:0
 * and M0 then named different CPUs), a PU of an empty cpuset (hwloc dropped it); and a file's
 * allowed_cpuset (an lstopo run in a cgroup) planned on that part of the machine alone. */
LAB_TEST(xml_cpusets_agree_with_the_tree)
{
	static const int os[] = {0, 1, 2, 7}, bit_moved[] = {0, 1, 2, 3},
	                 bit_empty[] = {0, 1, 2, -1}, os_ok[] = {0, 1, 2, 3};
	char path[512], spec[600];
	struct lab_topo *t = NULL;
	struct lab_err err = {0};

	snprintf(path, sizeof(path), "%s/pus.xml", testlib_tmpdir());
	snprintf(spec, sizeof(spec), "xml:%s", path);
	REQUIRE(write_pus(path, 4, os, bit_moved, NULL) == 0);
	CHECK_EQ_I64(lab_topo_open(&t, spec, &err), -LAB_ETOPO);
	CHECK(strstr(err.msg, ": PU os_index 7 has cpuset 3 (allowed: the PU's own bit") != NULL);
	REQUIRE(write_pus(path, 4, os_ok, bit_empty, NULL) == 0);
	CHECK_EQ_I64(lab_topo_open(&t, spec, &err), -LAB_ETOPO);
	CHECK(strstr(err.msg, ": the file lists 4 PUs, hwloc kept 3 of them") != NULL);
	REQUIRE(write_pus(path, 4, os_ok, bit_moved, "0x1") == 0);
	REQUIRE(lab_topo_open(&t, spec, &err) == 0);
	CHECK_EQ_U64(lab_topo_pus(t, NULL, 0), 4);
	CHECK_EQ_U64(lab_topo_cpus_allowed(t, NULL, 0), 4);
	lab_topo_close(t);
	unlink(path);
}

/* An object of cpuset mask m (its nodeset 0x1), opening (close: self-closing) or not. */
static void xml_obj(FILE *f, const char *type, unsigned os, unsigned m, int close)
{
	fprintf(f,
	        "<object type=\"%s\" os_index=\"%u\" cpuset=\"0x%x\" complete_cpuset=\"0x%x\" "
	        "nodeset=\"0x1\" complete_nodeset=\"0x1\"%s%s>\n",
	        type, os, m, m, strcmp(type, "NUMANode") ? "" : " local_memory=\"1073741824\"",
	        close ? "/" : "");
}

/* Machine > 2 x (Package > [NUMANode node[i]], Core > PU i); nested: the two packages inside a
 * third that holds the one node. */
static int write_two(const char *path, const unsigned node[2], int nested)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs("<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n", f);
	xml_obj(f, "Machine", 0, 3, 0);
	if (nested) {
		xml_obj(f, "Package", 0, 3, 0);
		xml_obj(f, "NUMANode", 0, 3, 1);
	}
	for (unsigned i = 0; i < 2; i++) {
		xml_obj(f, "Package", nested + i, 1u << i, 0);
		if (!nested)
			xml_obj(f, "NUMANode", node[i], 1u << i, 1);
		xml_obj(f, "Core", i, 1u << i, 0);
		xml_obj(f, "PU", i, 1u << i, 1);
		fputs("</object>\n</object>\n", f);
	}
	fputs(nested ? "</object>\n</object>\n</topology>\n" : "</object>\n</topology>\n", f);
	return fclose(f);
}

/* Red team: two NUMA nodes of one number (node:0 took the CPUs of both, node:1 none), a package
 * inside a package ("4294967295 packages") are refused; two distinct nodes load. */
LAB_TEST(xml_nodes_distinct_and_packages_at_one_depth)
{
	static const unsigned same[2] = {0, 0}, apart[2] = {0, 1};
	char path[512], spec[600];
	struct lab_topo *t = NULL;
	struct lab_err err = {0};

	snprintf(path, sizeof(path), "%s/two.xml", testlib_tmpdir());
	snprintf(spec, sizeof(spec), "xml:%s", path);
	REQUIRE(write_two(path, same, 0) == 0);
	CHECK_EQ_I64(lab_topo_open(&t, spec, &err), -LAB_ETOPO);
	CHECK(strstr(err.msg, ": two NUMA nodes have OS index 0 (allowed: each node its own)"));
	REQUIRE(write_two(path, apart, 1) == 0);
	CHECK_EQ_I64(lab_topo_open(&t, spec, &err), -LAB_ETOPO);
	CHECK(strstr(err.msg, ": packages at several depths, one inside another"));
	REQUIRE(write_two(path, apart, 0) == 0);
	REQUIRE(lab_topo_open(&t, spec, &err) == 0);
	CHECK(strstr(lab_topo_summary(t), "2 packages, 2 NUMA nodes") == lab_topo_summary(t));
	lab_topo_close(t);
	unlink(path);
}

/* A topology of hwloc's variables is another machine even under HWLOC_THISSYSTEM=1 (threads
 * were bound by a synthetic layout), and HWLOC_FSROOT, which hwloc takes before them, leaves
 * them to hwloc. */
LAB_TEST(hwloc_environment_is_never_this_system)
{
	struct lab_topo *t = NULL;
	struct lab_err err = {0};

	REQUIRE(setenv("HWLOC_THISSYSTEM", "1", 1) == 0);
	REQUIRE(setenv("HWLOC_SYNTHETIC", "pack:2 pu:2", 1) == 0);
	REQUIRE(lab_topo_open(&t, NULL, &err) == 0);
	CHECK(!lab_topo_is_thissystem(t));
	lab_topo_close(t);
	t = NULL;
	REQUIRE(lab_topo_open(&t, "synthetic:pack:1 pu:2", &err) == 0);
	CHECK(!lab_topo_is_thissystem(t));
	lab_topo_close(t);
	unsetenv("HWLOC_THISSYSTEM");
	REQUIRE(setenv("HWLOC_FSROOT", "/", 1) == 0);
	CHECK(lab_topo_hwloc_env() == NULL);
	unsetenv("HWLOC_FSROOT");
	CHECK(lab_topo_hwloc_env() != NULL);
	unsetenv("HWLOC_SYNTHETIC");
}
