/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The canonical text of a placement (harness/place_text.h): the forms it writes, the texts it
 * does not read, and, on generated texts, that it agrees with the planner's own grammar
 * (place_parse.c, cpuexpr.c) on what a placement may be, that its text plans the same CPUs on
 * the fixtures, is never longer than the text it came from, is the shortest there is for a
 * list, and reads back to itself.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "harness/cpuexpr.h"
#include "harness/place_text.h"
#include "harness/topo.h"
#include "harness/topo_domain.h"
#include "tests/testlib.h"

/* canon(text) is want (true), or text is not read (want NULL: false, text as given). */
static void canon_is(const char *text, const char *want)
{
	char buf[256];
	bool ok = lab_place_text_canon(text, buf, sizeof(buf));

	if (want && (!ok || strcmp(buf, want)))
		TL__FAIL("'%s': got '%s' (%s), want '%s'", text, buf, ok ? "read" : "not read",
		         want);
	if (!want && (ok || strcmp(buf, text)))
		TL__FAIL("'%s' should not read: got '%s' (%s)", text, buf,
		         ok ? "read" : "not read");
}

LAB_TEST(forms_of_one_order_are_one_text)
{
	static const char *const c[][2] = {
	    {"compact", "compact"},
	    {"pairs", "pairs"},
	    {"node:007", "node:7"},
	    {"node: 1", "node:1"},
	    {"list:0,1,2,3", "list:0-3"},
	    {"list: 00-1 ,2-3", "list:0-3"},
	    {"list:0-3", "list:0-3"},
	    {"list:0,1", "list:0-1"},
	    {"list:1,0", "list:1,0"}, /* thread 0 on CPU 1: another plan */
	    {"list:3,2,1,0", "list:3,2,1,0"},
	    {"list:0,2,4", "list:0,2,4"}, /* as short as 0-4:2: no step */
	    {"list:0,2,4,6", "list:0-6:2"},
	    {"list:0-7:2", "list:0-6:2"},
	    {"list:5-6:3", "list:5"},
	    {"list:0,1,3,5,7", "list:0,1-7:2"},
	    {"list:0,2,4-7", "list:0,2,4-7"},
	    {"list:0-14:2,1", "list:0-14:2,1"},
	    {"list:16-30:2,0", "list:16-30:2,0"},
	    {"expr:S01:0-3", "expr:S1:0-3"},
	    /* an E: part stays E: (core by core), indices stay indices (physical cores first) */
	    {"expr:E:S0:4", "expr:E:S0:4"},
	    {"expr:E:N:4:2:2", "expr:E:N:4"}, /* CHUNK == STRIDE: contiguous */
	    {"expr:E:N:4:4:8", "expr:E:N:4"}, /* CHUNK >= COUNT: contiguous */
	    {"expr:E:N:4:1:1", "expr:E:N:4"},
	    {"expr:E:N:3:2:4", "expr:E:N:3:2:4"},
	    {"expr:E : S01 : 4 : 2 : 4", "expr:E:S1:4:2:4"},
	    {"expr:E:N:2@N:2-3", "expr:E:N:2@N:2-3"},
	    {"expr:N:0-1@E:N:2", "expr:N:0-1@E:N:2"},
	    {"expr:E:S0:2@S0:0-1", "expr:E:S0:2@S0:0-1"},
	    {"expr:S0:0-1@S0:2-3", "expr:S0:0-3"},
	    {"expr:S0:0,1,2,3", "expr:S0:0-3"},
	    {"expr:S0:0-1@S1:0-1", "expr:S0:0-1@S1:0-1"},
	    {"expr:S1:0-1@S01:2", "expr:S1:0-2"},
	    {"expr:M1:0,2,4", "expr:M1:0,2,4"},
	    {"expr:E:N:8:2:4", "expr:E:N:8:2:4"},
	    {"expr:N:0,1,4,5,8,9,12,13", "expr:N:0-1,4-5,8-9,12-13"},
	    {"expr:E:N:2:1:5", "expr:E:N:2:1:5"},
	    {"expr:S0:3,0,1,4,5", "expr:S0:3,0-1,4-5"},
	    {"expr:N:7@E:N:6:1:2", "expr:N:7@E:N:6:1:2"},
	    {"expr:E:N:6:1:2@N:7", "expr:E:N:6:1:2@N:7"},
	    {"expr:N:0,2,4,6,8,10@N:7", "expr:N:0,2,4,6,8,10,7"},
	    {"expr:E:S0:4:2:4@M0:0", "expr:E:S0:4:2:4@M0:0"},
	    {"expr:E:S0:6:2:4@M0:0", "expr:E:S0:6:2:4@M0:0"},
	    /* blanks around the separators, as in list: */
	    {"expr:S0:0 ,1", "expr:S0:0-1"},
	    {"expr: S0 : 0 - 1 @ S1: 2", "expr:S0:0-1@S1:2"},
	    {"expr:E : N : 8 : 2 : 4", "expr:E:N:8:2:4"},
	    /* a tab is a blank as a space is */
	    {"expr:S0:\t0-1", "expr:S0:0-1"},
	    {"expr:S0\t:0 ,\t1", "expr:S0:0-1"},
	    {"expr:E\t:N:\t4", "expr:E:N:4"},
	    {"list:0,\t1", "list:0-1"},
	    {"node:\t3", "node:3"},
	    /* the largest lists and expressions */
	    {"list:0-1023", "list:0-1023"},
	    {"list:1-2047:2", "list:1-2047:2"},
	    {"expr:E:N:4096", "expr:E:N:4096"},
	    {"expr:N:0-4095", "expr:N:0-4095"},
	    {"expr:N:1@E:N:2048:1:2@N:4095", "expr:N:1@E:N:2048:1:2@N:4095"},
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		canon_is(c[i][0], c[i][1]);
}

/* What the planner refuses is not read: the planner reports it as written. */
LAB_TEST(what_does_not_parse_is_kept)
{
	static const char *const bad[] = {
	    "",
	    "Compact",
	    "node:",
	    "node:01x",
	    "node:4096",
	    "list:",
	    "list: ",
	    "list:0,,1",
	    "list:1,1",
	    "list:0-2,1",
	    "list:3-1",
	    "list:0-4:0",
	    "list:65536",
	    "list:0x1",
	    "list:-1",
	    "expr:",
	    "expr:Q0:1",
	    "expr:S0",
	    "expr:S0:",
	    "expr:N1:0",
	    "expr:S:0",
	    "expr:S0:0@S0:0",
	    "expr:S0:0@",
	    "expr:E:N:4:5:5",
	    "expr:E:N:4:2:1",
	    "expr:E:N",
	    "expr:E:N:0",
	    "expr:E:N:4:2",
	    "expr:S 0:0",
	    "expr:S0:3-1",
	    "expr:@",
	    "expr:N:0@S0:0,",
	    "expr:S1:0@S01:0",
	    "expr:S0:0 1",
	    "expr:E N:4",
	    "expr: @S0:0",
	    "expr:S0: ",
	    "expr:N:4096", /* past the largest domain there can be */
	    "expr:E:N:4097",
	    "expr:E:N:4:2:1000001",
	    "expr:E:N:2@E:N:1", /* index 0 of E:N twice */
	    "expr:L:N:0-3",     /* likwid forms the planner does not take */
	    "expr:S:scatter",
	    "expr:0,1",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		canon_is(bad[i], NULL);
}

/* E:N:2 and N:0-1 are the same CPUs without SMT and not with it (the Intel fixture: 0,16 and
 * 0,1), so they are two placements: a lesson that names one must not match a point of the
 * other. The old text wrote E:N:2 as N:0-1. */
LAB_TEST(e_and_indices_are_two_placements)
{
	static const char *const pairs[][2] = {
	    {"expr:E:N:2", "expr:N:0-1"},
	    {"expr:E:S0:4:1:2", "expr:S0:0,2,4,6"},
	    {"expr:E:N:8:2:4", "expr:N:0-1,4-5,8-9,12-13"},
	    {"expr:E:S1:4", "expr:S1:0-3"},
	};
	char a[256], b[256];

	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		REQUIRE(lab_place_text_canon(pairs[i][0], a, sizeof(a)));
		REQUIRE(lab_place_text_canon(pairs[i][1], b, sizeof(b)));
		if (!strcmp(a, b))
			TL__FAIL("'%s' and '%s' are one text '%s', but not one placement with SMT",
			         pairs[i][0], pairs[i][1], a);
	}
}

/* A buffer too small for the canonical text gets the text as given, cut, and false. */
LAB_TEST(small_buffer_is_not_a_canonical_text)
{
	char buf[9];

	/* "list:0-3" needs 9 bytes: in 8 it is no canonical text, the written one cut instead */
	CHECK(!lab_place_text_canon("list:0,1,2,3", buf, 8));
	CHECK_EQ_STR(buf, "list:0,");
	CHECK(lab_place_text_canon("list:0,1,2,3", buf, sizeof(buf)));
	CHECK_EQ_STR(buf, "list:0-3");
}

static uint64_t tp_rng = 0x9e3779b97f4a7c15ull;

static unsigned tp_rand(unsigned n)
{
	tp_rng ^= tp_rng << 13;
	tp_rng ^= tp_rng >> 7;
	tp_rng ^= tp_rng << 17;
	return (unsigned)(tp_rng % n);
}

/* A number, now and then with a leading zero. */
static int tp_num(char *s, size_t size, unsigned v)
{
	return snprintf(s, size, "%s%u", tp_rand(8) ? "" : "0", v);
}

/* A list of 1..6 items N, A-B or A-B:S over CPUs 0..23 (some repeat a CPU: refused). */
static void tp_list(char *s, size_t size)
{
	size_t used = (size_t)snprintf(s, size, "list:");
	unsigned items = 1 + tp_rand(6);

	for (unsigned i = 0; i < items && used < size; i++) {
		unsigned a = tp_rand(24), b = a + tp_rand(6), kind = tp_rand(3);
		used += (size_t)snprintf(s + used, size - used, "%s%s", i ? "," : "",
		                         tp_rand(10) ? "" : " ");
		used += (size_t)tp_num(s + used, size - used, a);
		if (kind && used < size) {
			used += (size_t)snprintf(s + used, size - used, "-");
			used += (size_t)tp_num(s + used, size - used, b);
		}
		if (kind == 2 && used < size)
			used += (size_t)snprintf(s + used, size - used, ":%u", 1 + tp_rand(4));
	}
}

/* The shortest writing of v[0..n) as list items, by trying every split (n small). */
static size_t tp_shortest(const int *v, unsigned n)
{
	size_t best = SIZE_MAX;
	char item[64];

	if (n == 0)
		return 0;
	for (unsigned j = 1; j <= n; j++) {
		int step = j > 1 ? v[1] - v[0] : 0;
		bool ap = j == 1 || step > 0;
		for (unsigned k = 2; ap && k < j; k++)
			ap = v[k] - v[k - 1] == step;
		if (!ap)
			break;
		int len = j == 1 ? snprintf(item, sizeof(item), "%d", v[0])
		          : step == 1
		              ? snprintf(item, sizeof(item), "%d-%d", v[0], v[j - 1])
		              : snprintf(item, sizeof(item), "%d-%d:%d", v[0], v[j - 1], step);
		size_t rest = tp_shortest(v + j, n - j);
		if ((size_t)len + (j < n) + rest < best)
			best = (size_t)len + (j < n) + rest;
	}
	return best;
}

/* Generated lists: read by both or by neither; the canonical text plans the same CPUs, is the
 * shortest writing of them, and is its own canonical text. */
LAB_TEST(generated_lists_agree_with_the_planner)
{
	struct lab_placement a, b;
	char text[128], canon[128], again[128];
	unsigned read = 0;

	for (int i = 0; i < 3000; i++) {
		tp_list(text, sizeof(text));
		bool parsed = lab_placement_parse(text, &a, NULL) == 0;
		bool ok = lab_place_text_canon(text, canon, sizeof(canon));
		if (parsed != ok) {
			TL__FAIL("'%s': planner %s, canonical text %s", text,
			         parsed ? "takes it" : "refuses it", ok ? "reads it" : "does not");
			continue;
		}
		if (!ok)
			continue;
		read++;
		REQUIRE(lab_placement_parse(canon, &b, NULL) == 0);
		CHECK(a.nlist == b.nlist && !memcmp(a.list, b.list, a.nlist * sizeof(int)));
		CHECK(strlen(canon) <= strlen(text));
		if (a.nlist <= 10 && strlen(canon) - 5 != tp_shortest(a.list, a.nlist))
			TL__FAIL("'%s' -> '%s': not the shortest (%zu characters)", text, canon,
			         tp_shortest(a.list, a.nlist));
		CHECK(lab_place_text_canon(canon, again, sizeof(again)));
		CHECK_EQ_STR(again, canon);
	}
	CHECK(read > 500); /* the generator makes valid lists too */
}

/* An expression of 1..3 parts over domains N, S0, S1, S01, M0-M3, C0 (indices or E:). */
static void tp_expr(char *s, size_t size)
{
	static const char *const doms[] = {"N", "S0", "S1", "S01", "M0", "M1", "M2", "M3", "C0"};
	size_t used = (size_t)snprintf(s, size, "expr:");
	unsigned parts = 1 + tp_rand(3);

	for (unsigned p = 0; p < parts && used < size; p++) {
		const char *d = doms[tp_rand(sizeof(doms) / sizeof(doms[0]))];
		if (p)
			used += (size_t)snprintf(s + used, size - used, "@");
		if (!tp_rand(3)) {
			unsigned count = 1 + tp_rand(8), chunk = 1 + tp_rand(3);
			if (tp_rand(2))
				used +=
				    (size_t)snprintf(s + used, size - used, "E:%s:%u", d, count);
			else
				used += (size_t)snprintf(s + used, size - used, "E:%s:%u:%u:%u", d,
				                         count, chunk, chunk + tp_rand(4));
			continue;
		}
		used += (size_t)snprintf(s + used, size - used, "%s:", d);
		for (unsigned i = 0, n = 1 + tp_rand(4); i < n && used < size; i++) {
			unsigned a = tp_rand(12);
			used += (size_t)snprintf(s + used, size - used, "%s", i ? "," : "");
			used += (size_t)tp_num(s + used, size - used, a);
			if (tp_rand(2) && used < size) {
				used += (size_t)snprintf(s + used, size - used, "-");
				used += (size_t)tp_num(s + used, size - used, a + tp_rand(4));
			}
		}
	}
}

/* s with a blank (a space or a tab) put before or after some of its separators (after
 * "expr:"), both readers taking them as list: does. */
static void tp_blanks(char *s, size_t size)
{
	char out[256];
	size_t o = 0;

	for (const char *c = s; *c && o + 3 < sizeof(out) && o + 3 < size; c++) {
		bool sep = c - s >= 5 && strchr(":,-@", *c);
		if (sep && !tp_rand(3))
			out[o++] = tp_rand(4) ? ' ' : '\t';
		out[o++] = *c;
		if (sep && !tp_rand(3))
			out[o++] = tp_rand(4) ? ' ' : '\t';
	}
	out[o] = '\0';
	memcpy(s, out, o + 1);
}

/* expr resolved on topo's domains as "a,b,c", or "error" (the messages name the text). */
static void tp_resolve(const struct lab_topo_domains *doms, const char *expr, char *out,
                       size_t size)
{
	static int cpus[LAB_CPUEXPR_MAX];
	int n = lab_cpuexpr_resolve(expr, doms, cpus, LAB_CPUEXPR_MAX, NULL);
	size_t used = 0;

	snprintf(out, size, "error");
	for (int i = 0; i < n && used < size; i++)
		used += (size_t)snprintf(out + used, size - used, "%s%d", i ? "," : "", cpus[i]);
}

static struct lab_topo_domains *tp_domains(const char *spec, struct lab_topo **t)
{
	struct lab_topo_domains *doms = NULL;
	struct lab_err err = {0};
	char full[2048];

	if (!strncmp(spec, "xml:", 4))
		snprintf(full, sizeof(full), "xml:%s/%s", testlib_srcdir(), spec + 4);
	else
		snprintf(full, sizeof(full), "%s", spec);
	if (lab_topo_open(t, full, &err) < 0 || lab_topo_domains_list(*t, &doms, &err) < 0)
		TL__FAIL("%s: %s", spec, err.msg);
	return doms;
}

/* Generated expressions: read by both or by neither; the canonical text selects as many CPUs,
 * the same ones on every fixture (or fails where the text fails), is no longer, and is its own
 * canonical text. */
LAB_TEST(generated_expressions_agree_with_the_planner)
{
	static const char *const specs[] = {"xml:configs/topologies/2s8c2t-intel.xml",
	                                    "xml:configs/topologies/2s4n-amd.xml",
	                                    "synthetic:pack:2 numa:2 l3:1 core:4 pu:2",
	                                    "xml:tests/fixtures/topologies/intel128.xml"};
	enum { NSPECS = sizeof(specs) / sizeof(specs[0]) };
	struct lab_topo *topo[NSPECS] = {0};
	struct lab_topo_domains *doms[NSPECS];
	struct lab_placement a, b;
	char text[256], canon[256], again[256], x[4096], y[4096];
	unsigned read = 0;

	for (int t = 0; t < NSPECS; t++)
		REQUIRE((doms[t] = tp_domains(specs[t], &topo[t])) != NULL);
	for (int i = 0; i < 3000; i++) {
		tp_expr(text, sizeof(text));
		if (i % 2)
			tp_blanks(text, sizeof(text));
		bool parsed = lab_placement_parse(text, &a, NULL) == 0;
		bool ok = lab_place_text_canon(text, canon, sizeof(canon));
		if (parsed != ok) {
			TL__FAIL("'%s': planner %s, canonical text %s", text,
			         parsed ? "takes it" : "refuses it", ok ? "reads it" : "does not");
			continue;
		}
		if (!ok)
			continue;
		read++;
		REQUIRE(lab_placement_parse(canon, &b, NULL) == 0);
		CHECK_EQ_I64(a.nexpr, b.nexpr);
		CHECK(strlen(canon) <= strlen(text));
		for (int t = 0; t < NSPECS; t++) {
			tp_resolve(doms[t], text + 5, x, sizeof(x));
			tp_resolve(doms[t], canon + 5, y, sizeof(y));
			if (strcmp(x, y))
				TL__FAIL("%s: '%s' gives %s, '%s' gives %s", specs[t], text, x,
				         canon, y);
		}
		CHECK(lab_place_text_canon(canon, again, sizeof(again)));
		CHECK_EQ_STR(again, canon);
	}
	CHECK(read > 500);
	for (int t = 0; t < NSPECS; t++) {
		lab_topo_domains_free(doms[t]);
		lab_topo_close(topo[t]);
	}
}
