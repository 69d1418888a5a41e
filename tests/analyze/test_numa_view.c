/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The chapter-27 view "numa" end to end: `lab analyze` on the hand-made two-node fixture
 * (tests/analyze/gen_fixtures_numa.py holds the values and the hand computations) checks the
 * matrix cells with their intervals, the remote/local and distance ratios, the policy page
 * histograms, the marked placement mismatches, numa_matrix.csv and the report's escaping (on the
 * view's document: analysis.json's sections, tables and matrices, analyze/render/json.c); a
 * crafted point_facts is refused; then a tiny real one-node run shows the ladder and histogram.
 */
#include <math.h>
#include <stdio.h>

#include "analyze/csv.h"
#include "analyze/jsonr.h"
#include "analyze/views/numa.h"
#include "tests/analyze/clitest.h"
#include "tests/testlib.h"

#define FX "results-numa-2node"

/* `lab analyze FX --no-plots --json`: the parsed document. */
static struct lab_an_json *nv_json(void)
{
	char *out = NULL, *err = NULL;
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};

	clitest_copy(FX);
	CHECK_EQ_I64(clitest_run(NULL, "analyze " FX " --no-plots --json", &out, &err), 0);
	if (out && lab_an_json_parse("stdout", out, strlen(out), &j, &e))
		fprintf(stderr, "%s\n", e.msg);
	free(out);
	free(err);
	return j;
}

/* The numa object of experiment exp in analysis.json's experiments[]. */
static const struct lab_an_json *nv_view(const struct lab_an_json *j, const char *exp)
{
	const struct lab_an_json *e;

	for (size_t i = 0; (e = clitest_at(j, "experiments", i)); i++)
		if (lab_an_json_str(e, "name") && !strcmp(lab_an_json_str(e, "name"), exp))
			return lab_an_json_get(e, "numa");
	return NULL;
}

/* Section i of the numa document of experiment exp (one per group). */
static const struct lab_an_json *nv_sec(const struct lab_an_json *j, const char *exp, size_t i)
{
	return clitest_at(nv_view(j, exp), "sections", i);
}

/* Table key (the group's kind: matrix, policy, ladder, loaded) of the first section of exp. */
static const struct lab_an_json *nv_table(const struct lab_an_json *j, const char *exp,
                                          const char *key)
{
	return lab_an_json_get(lab_an_json_get(nv_sec(j, exp, 0), "tables"), key);
}

/* Row k of table key of the first section of experiment exp. */
static const struct lab_an_json *nv_row(const struct lab_an_json *j, const char *exp,
                                        const char *key, size_t k)
{
	return clitest_at(nv_table(j, exp, key), "rows", k);
}

/* The rows of table key of exp whose placement_ok is 0. */
static long long nv_mismatches(const struct lab_an_json *j, const char *exp, const char *key)
{
	const struct lab_an_json *r;
	long long n = 0;

	for (size_t k = 0; (r = nv_row(j, exp, key, k)); k++)
		n += lab_an_json_num(r, "placement_ok", -1) == 0;
	return n;
}

/* The findings of section 0 of exp whose text contains what. */
static size_t nv_findings(const struct lab_an_json *j, const char *exp, const char *what)
{
	const struct lab_an_json *f;
	size_t n = 0;

	for (size_t k = 0; (f = clitest_at(nv_sec(j, exp, 0), "findings", k)); k++)
		n += lab_an_json_str(f, "text") && strstr(lab_an_json_str(f, "text"), what);
	return n;
}

/* 1 when some line of text holds want with every run of blanks taken as one space (the text
 * tables pad their columns to the widest cell). */
static int nv_line(const char *text, const char *want)
{
	char line[4096];

	while (text && *text) {
		size_t k = 0;

		for (; *text && *text != '\n'; text++)
			if (k + 1 < sizeof(line) && (*text != ' ' || (k && line[k - 1] != ' ')))
				line[k++] = *text;
		line[k] = 0;
		text += *text == '\n';
		if (strstr(line, want))
			return 1;
	}
	return 0;
}

static double nv_at(const struct lab_an_json *o, const char *key, size_t i)
{
	const struct lab_an_json *a = clitest_at(o, key, i);

	return a ? a->num : NAN;
}

static char *nv_file(const char *rel)
{
	char path[2048], *text = NULL;
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", testlib_tmpdir(), rel);
	if (lab_an_file_read(path, &text, &len, NULL))
		return strdup("");
	return text;
}

/* Bandwidth cells: GB/s = 8 bytes / median cost, the interval's ends swapped by the map. */
LAB_TEST(bw_matrix_cells_and_ratios)
{
	struct lab_an_json *j = nv_json();
	const struct lab_an_json *m, *r;

	REQUIRE(j);
	CHECK_EQ_STR(lab_an_json_str(nv_sec(j, "bw", 0), "title"), "numa node x node");
	REQUIRE(nv_table(j, "bw", "matrix"));
	m = lab_an_json_get(lab_an_json_get(nv_sec(j, "bw", 0), "matrices"), "cells");
	REQUIRE(m);
	CHECK_EQ_STR(lab_an_json_str(m, "unit"), "GB/s");
	CHECK(clitest_at(m, "row_labels", 1) && !clitest_at(m, "row_labels", 2)); /* 2 nodes */
	CHECK(clitest_at(m, "column_labels", 1) && !clitest_at(m, "column_labels", 2));
	CHECK_NEAR(clitest_at(m, "cells", 0)->items[1].num, 10, 1e-9);
	REQUIRE((r = nv_row(j, "bw", "matrix", 0)));
	CHECK_EQ_I64((long long)lab_an_json_num(r, "cpu_node", -1), 0);
	CHECK_EQ_I64((long long)lab_an_json_num(r, "mem_node", -1), 0);
	CHECK_NEAR(lab_an_json_num(r, "median", NAN), 20, 1e-9);
	CHECK_NEAR(nv_at(r, "median_ci95", 0), 8 / 0.408, 1e-6);
	CHECK_NEAR(nv_at(r, "median_ci95", 1), 8 / 0.392, 1e-6);
	REQUIRE((r = nv_row(j, "bw", "matrix", 1)));
	CHECK_EQ_I64((long long)lab_an_json_num(r, "mem_node", -1), 1);
	CHECK_NEAR(lab_an_json_num(r, "median", NAN), 10, 1e-9);
	CHECK_NEAR(lab_an_json_num(r, "ratio_to_local", NAN), 0.5, 1e-9);
	CHECK_NEAR(lab_an_json_num(r, "slit_ratio", NAN), 2.1, 1e-9);
	lab_an_json_free(j);
}

LAB_TEST(lat_matrix_ratios_and_distances)
{
	struct lab_an_json *j = nv_json();
	const struct lab_an_json *v, *r;

	REQUIRE(j);
	REQUIRE(
	    (v = lab_an_json_get(lab_an_json_get(nv_sec(j, "lat", 0), "matrices"), "distances")));
	CHECK_NEAR(clitest_at(v, "cells", 0)->items[1].num, 21, 0);
	CHECK_NEAR(clitest_at(v, "cells", 1)->items[1].num, 10, 0);
	REQUIRE((r = nv_row(j, "lat", "matrix", 1))); /* 0 -> 1 */
	CHECK_NEAR(lab_an_json_num(r, "median", NAN), 160, 1e-9);
	CHECK_NEAR(lab_an_json_num(r, "ratio_to_local", NAN), 1.6, 1e-9);
	REQUIRE((r = nv_row(j, "lat", "matrix", 2))); /* 1 -> 0 */
	CHECK_EQ_I64((long long)lab_an_json_num(r, "cpu_node", -1), 1);
	CHECK_NEAR(lab_an_json_num(r, "ratio_to_local", NAN), 1.7, 1e-9);
	CHECK_NEAR(nv_at(r, "median_ci95", 0), 166.6, 1e-9);
	CHECK_NEAR(nv_at(r, "median_ci95", 1), 173.4, 1e-9);
	lab_an_json_free(j);
}

/* The notes of the first section of exp that contain what. */
static size_t nv_notes(const struct lab_an_json *j, const char *exp, const char *what)
{
	const struct lab_an_json *n;
	size_t k = 0, found = 0;

	while ((n = clitest_at(nv_sec(j, exp, 0), "notes", k++)))
		found += n->type == LAB_AN_JSON_STR && strstr(n->str, what);
	return found;
}

/* The analysis (--json) of FX after its run.json gets host.hypervisor = "KVM" and, with
 * one_node, 1 NUMA node and no distance table. */
static struct lab_an_json *nv_json_vm(int one_node)
{
	struct lab_an_json *j = nv_json();
	char path[2048], *text = NULL, *out = NULL, *err = NULL;
	size_t len;
	struct lab_err e = {0};

	lab_an_json_free(j); /* FX copied afresh */
	j = NULL;
	snprintf(path, sizeof(path), "%s/" FX "/run.json", testlib_tmpdir());
	if (lab_an_file_read(path, &text, &len, NULL))
		return NULL;
	char *host = strstr(text, "\"host\": {"), *nodes = strstr(text, "\"numa_nodes\": 2"),
	     *dist = strstr(text, "\"numa_distances\"");
	FILE *f = host && nodes && dist ? fopen(path, "w") : NULL;
	if (f) {
		if (one_node) {
			memcpy(dist + 1, "numa_distanceX", 14); /* no such member: no table */
			nodes[strlen("\"numa_nodes\": ")] = '1';
		}
		fprintf(f, "%.*s\"host\": {\"hypervisor\": \"KVM\", %s", (int)(host - text), text,
		        host + strlen("\"host\": {"));
		fclose(f);
		CHECK_EQ_I64(clitest_run(NULL, "analyze " FX " --no-plots --json", &out, &err), 0);
		if (out && lab_an_json_parse("stdout", out, strlen(out), &j, &e))
			fprintf(stderr, "%s\n", e.msg);
	}
	free(text);
	free(out);
	free(err);
	return j;
}

/* A run in a virtual machine (host.hypervisor) says the distance table is the hypervisor's and
 * the nodes may split one node's memory; a run without says nothing of it. */
LAB_TEST(virtual_machine_noted)
{
	struct lab_an_json *j = nv_json();

	REQUIRE(j);
	CHECK_EQ_U64(nv_notes(j, "lat", "virtual machine"), 0);
	lab_an_json_free(j);
	REQUIRE((j = nv_json_vm(0)));
	CHECK_EQ_U64(nv_notes(j, "lat",
	                      "measured in a virtual machine (KVM): the distance table "
	                      "is what the hypervisor announces"),
	             1);
	lab_an_json_free(j);
}

/* A run.json of one NUMA node has no distance table to give: its matrices said "firmware
 * distance table: not in run.json" (read as missing data) and, in a VM, that the nodes may
 * split one node's memory, which one node cannot. */
LAB_TEST(one_node_says_so_plainly)
{
	struct lab_an_json *j = nv_json_vm(1);

	REQUIRE(j);
	CHECK_EQ_U64(nv_notes(j, "lat", "one NUMA node on this machine: no distance table"), 1);
	CHECK_EQ_U64(nv_notes(j, "lat", "firmware distance table"), 0);
	CHECK_EQ_U64(nv_notes(j, "lat", "virtual machine"), 0);
	/* once, up front, with what still teaches */
	const char *note = lab_an_json_str(nv_view(j, "lat"), "note");
	CHECK(note && strstr(note, "this machine has one NUMA node: no remote memory") &&
	      strstr(note, "the latency ladder (caches against DRAM) and the loaded latency"));
	lab_an_json_free(j);
	j = nv_json_vm(0);
	REQUIRE(j);
	note = lab_an_json_str(nv_view(j, "lat"), "note");
	CHECK(note && !strstr(note, "one NUMA node"));
	lab_an_json_free(j);
}

/* Pages per node per init; a point whose pages are not where asked is kept and marked. */
LAB_TEST(policy_histogram_and_mismatch_marked)
{
	struct lab_an_json *j = nv_json();
	const struct lab_an_json *r;
	char *out = NULL, *err = NULL;

	REQUIRE(j);
	CHECK_EQ_I64(nv_mismatches(j, "policy", "policy"), 1);
	CHECK_EQ_I64((long long)nv_findings(j, "policy", "1 point whose pages are not where"), 1);
	REQUIRE((r = nv_row(j, "policy", "policy", 1)));
	CHECK_EQ_STR(lab_an_json_str(r, "init"), "serial");
	CHECK_EQ_STR(lab_an_json_str(r, "pages_per_node"), "768/0"); /* node 0, node 1 */
	CHECK_NEAR(lab_an_json_num(r, "median_cost", NAN), 2.0, 1e-9);
	CHECK_NEAR(lab_an_json_num(r, "gb_per_s", NAN), 12, 1e-9);
	REQUIRE((r = nv_row(j, "policy", "policy", 4)));
	CHECK_EQ_STR(lab_an_json_str(r, "init"), "preferred:1");
	CHECK(lab_an_json_get(r, "placement_ok")->num == 0);
	REQUIRE((r = nv_row(j, "policy", "policy", 5)));
	CHECK(lab_an_json_get(r, "median_cost") &&
	      lab_an_json_get(r, "median_cost")->type == LAB_AN_JSON_NULL);
	CHECK(!strncmp(lab_an_json_str(r, "median_cost_why") ?: "", "skipped: ", 9));
	lab_an_json_free(j);
	CHECK_EQ_I64(clitest_run(NULL, "analyze " FX " --no-plots", &out, &err), 0);
	REQUIRE(out);
	CHECK(strstr(out, "placement differs from what was asked: 700 pages on node 0, asked for "
	                  "node 1") != NULL);
	CHECK(strstr(out, "placement differs from what was asked: <b>pages on node 1 & 0</b>") !=
	      NULL);
	CHECK(nv_line(out, "serial 2 10 2 [1.96, 2.04] | 2 median 12 [11.76, 12.24] | 12 768/0"));
	/* bw, threads 1, cpu node 0, memory node 1: remote/local 0.5, distance 21, ratio 2.1 */
	CHECK(nv_line(out, "1 0 1 GB/s 1 10 [9.804, 10.2] | 10 median 0.5 21 2.1 0/16384"));
	free(out);
	free(err);
}

/* Issue 21 finding 2: ch27's policy table on one node, every row with pages 49152/0 and five
 * samples. The rows are said to be one placement (JSON, text, report) and every cost carries an
 * interval: with n = 5 the mean's t-interval (the hand values in gen_fixtures_numa.py). The
 * two-node policy rows, whose equal histograms 384/384 are spread over nodes, are not grouped. */
LAB_TEST(policy_same_placement_grouped_with_intervals)
{
	struct lab_an_json *j = nv_json();
	const struct lab_an_json *r;
	char *out = NULL, *err = NULL, *html;
	static const char *const init[] = {"first_touch", "serial", "interleave", "bind:0"};
	static const double cost[] = {0.296, 0.487, 0.671, 0.728};

	REQUIRE(j);
	/* one shared placement: its inits in order, its pages */
	CHECK_EQ_I64((long long)nv_findings(j, "policy1", "one placement here"), 1);
	CHECK_EQ_I64((long long)nv_findings(j, "policy1",
	                                    "first_touch, serial, interleave, bind:0 (threads=2, "
	                                    "pages 49152/0): one placement here"),
	             1);
	for (size_t k = 0; k < 4; k++) {
		REQUIRE((r = nv_row(j, "policy1", "policy", k)));
		CHECK_EQ_STR(lab_an_json_str(r, "init"), init[k]);
		CHECK_EQ_STR(lab_an_json_str(r, "stat"), "mean");
		CHECK_NEAR(lab_an_json_num(r, "median_cost", NAN), cost[k], 1e-6);
		CHECK_NEAR(nv_at(r, "median_cost_ci95", 0), cost[k] * (1 - 0.0392649), 1e-5);
		CHECK_NEAR(nv_at(r, "median_cost_ci95", 1), cost[k] * (1 + 0.0392649), 1e-5);
		CHECK_EQ_I64(
		    (long long)lab_an_json_num(r, "same_placement_as", -1),
		    (long long)lab_an_json_num(nv_row(j, "policy1", "policy", 0), "point", -2));
	}
	REQUIRE(nv_table(j, "policy", "policy"));
	CHECK_EQ_I64((long long)nv_findings(j, "policy", "one placement here"), 0);
	for (size_t k = 0; (r = nv_row(j, "policy", "policy", k)); k++)
		CHECK(lab_an_json_get(r, "same_placement_as")->type == LAB_AN_JSON_NULL);
	CHECK_EQ_STR(lab_an_json_str(nv_row(j, "policy", "policy", 0), "stat"), "median");
	lab_an_json_free(j);
	CHECK_EQ_I64(clitest_run(NULL, "analyze " FX " --no-plots", &out, &err), 0);
	REQUIRE(out);
	CHECK(strstr(out, "first_touch, serial, interleave, bind:0 (threads=2, pages 49152/0): "
	                  "one placement here") != NULL);
	CHECK(nv_line(out, "first_touch 2 18 0.296 [0.2844, 0.3076] mean"));
	/* a column of means is not headed "median_cost" (lessons red team); the JSON key stays */
	CHECK(strstr(out, "cost (ns/element) mean [95% CI]") != NULL);
	CHECK(strstr(out, "median_cost") == NULL);
	html = nv_file(FX "/report.html");
	CHECK(strstr(html, "one placement here") != NULL);
	CHECK(strstr(html, "median_cost") == NULL);
	free(html);
	free(out);
	free(err);
}

LAB_TEST(loaded_curve)
{
	struct lab_an_json *j = nv_json();
	const struct lab_an_json *r;

	REQUIRE(j);
	CHECK_EQ_STR(lab_an_json_str(clitest_at(nv_sec(j, "loaded", 0), "figures", 0), "y"),
	             "ns per load of the chasing thread");
	REQUIRE((r = nv_row(j, "loaded", "loaded", 2)));
	CHECK_EQ_I64((long long)lab_an_json_num(r, "streams", -1), 2);
	CHECK_NEAR(lab_an_json_num(r, "stream_gb_per_s", NAN), 20, 1e-9);
	CHECK_NEAR(lab_an_json_num(r, "latency_ns", NAN), 300, 1e-9);
	CHECK_NEAR(nv_at(r, "latency_ns_ci95", 0), 294, 1e-9);
	/* the chase alone: no streams, no bandwidth (it read "0 [0, 0]", a measured zero) */
	REQUIRE((r = nv_row(j, "loaded", "loaded", 0)));
	CHECK_EQ_I64((long long)lab_an_json_num(r, "streams", -1), 0);
	CHECK(lab_an_json_get(r, "stream_gb_per_s")->type == LAB_AN_JSON_NULL);
	CHECK_EQ_STR(lab_an_json_str(r, "stream_gb_per_s_why"), "no streams: the chase alone");
	lab_an_json_free(j);
}

LAB_TEST(csv_and_report_escaped)
{
	char *out = NULL, *err = NULL, *csv, *html;

	clitest_copy(FX);
	CHECK_EQ_I64(clitest_run(NULL, "analyze " FX " --no-plots", &out, &err), 0);
	free(out);
	free(err);
	csv = nv_file(FX "/numa_matrix.csv");
#define NV_HEAD "experiment,params,threads,cpu_node,mem_node,quantity,point,median,median_mean,"
	CHECK(strncmp(csv, NV_HEAD "median_lo,median_hi,median_n,",
	              strlen(NV_HEAD "median_lo,median_hi,median_n,")) == 0);
	/* threads, cpu node, memory node, quantity, point, median, mean, interval, n */
	CHECK(strstr(csv, "bw,\"hugepages=off;op=read;size=64M\",1,0,1,GB/s,1,10,10,9.803921569,"
	                  "10.20408163,6,") != NULL);
	CHECK(strstr(csv, "lat,\"hugepages=off;size=256M\",1,1,0,ns,7,170,170,166.6,173.4,6,") !=
	      NULL);
	free(csv);
	html = nv_file(FX "/report.html");
	CHECK(strstr(html, "<h2>NUMA</h2>") != NULL);
	CHECK(strstr(html, "placement differs from what was asked: &lt;b&gt;pages on node 1 "
	                   "&amp; 0&lt;/b&gt;") != NULL);
	CHECK(strstr(html, "<b>pages") == NULL);
	free(html);
}

/* point_facts are untrusted: a value of another shape stops the analysis with FILE:LINE. */
LAB_TEST(bad_point_facts_refused)
{
	char *out = NULL, *err = NULL, *text, path[2048];
	FILE *f;
	char *at;

	clitest_copy(FX);
	snprintf(path, sizeof(path), "%s/" FX "/run.json", testlib_tmpdir());
	text = nv_file(FX "/run.json");
	REQUIRE((at = strstr(text, "\"pages_absent\": 0")));
	REQUIRE((f = fopen(path, "w")));
	fprintf(f, "%.*s\"pages_absent\": {\"x\": 1}%s", (int)(at - text), text,
	        at + strlen("\"pages_absent\": 0"));
	fclose(f);
	free(text);
	CHECK(clitest_run(NULL, "analyze " FX " --no-plots", &out, &err) != 0);
	REQUIRE(err);
	CHECK(strstr(err, "point fact 'pages_absent': allowed: a page count (a whole number 0 .. "
	                  "2^53)") != NULL);
	CHECK(strstr(err, "run.json:") != NULL);
	free(out);
	free(err);
}

/* Writes FX/rel again with every from replaced by to. */
static void nv_replace(const char *rel, const char *from, const char *to)
{
	char path[2048], *text = nv_file(rel), *p, *at;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", testlib_tmpdir(), rel);
	REQUIRE(text && (f = fopen(path, "w")));
	for (p = text; (at = strstr(p, from)); p = at + strlen(from))
		fprintf(f, "%.*s%s", (int)(at - p), p, to);
	fputs(p, f);
	fclose(f);
	free(text);
}

/* Points on node 100 (the loader takes nodes up to 65535; a matrix shows 64): the bandwidth
 * kernel's points stayed out of the matrix and came out as a "latency ladder" in ns/element.
 * They are matrix points, in the table, counted in a note. */
LAB_TEST(node_past_matrix_stays_matrix)
{
	char *out = NULL, *err = NULL;
	struct lab_an_json *j = NULL;
	const struct lab_an_json *r, *notes;
	struct lab_err e = {0};
	int n100 = 0, said = 0;

	clitest_copy(FX);
	nv_replace(FX "/samples.csv", "placement=node:1;", "placement=node:100;");
	nv_replace(FX "/run.json", "\"placement\": \"node:1\"", "\"placement\": \"node:100\"");
	nv_replace(FX "/run.json", "\"cpu_node\": 1,", "\"cpu_node\": 100,");
	CHECK_EQ_I64(clitest_run(NULL, "analyze " FX " --no-plots --json", &out, &err), 0);
	REQUIRE(out && !lab_an_json_parse("stdout", out, strlen(out), &j, &e));
	CHECK(!nv_table(j, "bw", "ladder"));
	for (size_t k = 0; (r = nv_row(j, "bw", "matrix", k)); k++)
		n100 += lab_an_json_num(r, "cpu_node", -1) == 100;
	CHECK_EQ_I64(n100, 2);
	notes = lab_an_json_get(nv_sec(j, "bw", 0), "notes");
	for (size_t k = 0; notes && k < notes->n; k++)
		said += notes->items[k].type == LAB_AN_JSON_STR &&
		        strstr(notes->items[k].str, "2 points on nodes past node 63") != NULL;
	CHECK_EQ_I64(said, 1);
	lab_an_json_free(j);
	free(out);
	free(err);
}

/* A bandwidth whose t-interval stops at 0 says it is not clearly above 0 (ch27's loaded
 * latency read "21.25 [0, 94.39]" GB/s, as if measured); the others say nothing of it. */
LAB_TEST(interval_stopped_at_zero_said)
{
#define NV_P17                                                                                     \
	"loaded,17,loaded_latency,\"hugepages=off;placement=compact;size=256M;stream_size=64M;"    \
	"traffic=read\",3,"
	static const char *const row[][2] = {
	    {NV_P17 "0,294000000,1000000,load,0.01,0,294,19.6\n",
	     NV_P17 "0,294000000,1000000,load,0.01,0,294,1\n"},
	    {NV_P17 "1,297000000,1000000,load,0.01,0,297,19.8\n",
	     NV_P17 "1,297000000,1000000,load,0.01,0,297,1\n"},
	    {NV_P17 "2,300000000,1000000,load,0.01,0,300,20\n",
	     NV_P17 "2,300000000,1000000,load,0.01,0,300,60\n"},
	    {NV_P17 "3,300000000,1000000,load,0.01,0,300,20\n", ""},
	    {NV_P17 "4,303000000,1000000,load,0.01,0,303,20.2\n", ""},
	    {NV_P17 "5,306000000,1000000,load,0.01,0,306,20.4\n", ""}};
	const char *good = "10 [9.8, 10.2] | 10 ";
	char *out = NULL, *err = NULL;
	const char *at;

	clitest_copy(FX);
	for (size_t i = 0; i < sizeof(row) / sizeof(row[0]); i++)
		nv_replace(FX "/samples.csv", row[i][0], row[i][1]);
	CHECK_EQ_I64(clitest_run(NULL, "analyze " FX " --no-plots", &out, &err), 0);
	REQUIRE(out && (at = strstr(out, "== numa loaded latency")));
	CHECK(strstr(at, "20.67 [0, 105.3] not clearly above 0") != NULL);
	at = strstr(at, good);
	CHECK(at && strncmp(at + strlen(good), "not clearly", 11) != 0);
	free(out);
	free(err);
#undef NV_P17
}

/* A buffer asked for huge pages that got base pages (THP off or memory fragmented: the kernel's
 * huge_pct fact) says so in its row, beside a placement note; only a point of hugepages = on;
 * a percent past 100 is refused. */
LAB_TEST(huge_pages_not_got_said)
{
	char *out = NULL, *err = NULL;

	clitest_copy(FX);
	nv_replace(FX "/run.json", "\"placement_ok\": true",
	           "\"huge_pct\": 3, \"placement_ok\": true");
	/* a point that did not ask for huge pages says nothing of a file's fact */
	CHECK_EQ_I64(clitest_run(NULL, "analyze " FX " --no-plots", &out, &err), 0);
	CHECK(out && !strstr(out, "hugepages = on, yet"));
	free(out);
	free(err);
	nv_replace(FX "/run.json", "\"hugepages\": \"off\"", "\"hugepages\": \"on\"");
	nv_replace(FX "/samples.csv", "hugepages=off", "hugepages=on");
	CHECK_EQ_I64(clitest_run(NULL, "analyze " FX " --no-plots", &out, &err), 0);
	CHECK(out && strstr(out, "hugepages = on, yet 3 % of its memory was in huge pages "
	                         "(transparent huge pages off or memory fragmented): it measured "
	                         "base pages"));
	free(out);
	free(err);
	nv_replace(FX "/run.json", "\"huge_pct\": 3,", "\"huge_pct\": 60,");
	CHECK_EQ_I64(clitest_run(NULL, "analyze " FX " --no-plots", &out, &err), 0);
	CHECK(out && !strstr(out, "hugepages = on, yet"));
	free(out);
	free(err);
	nv_replace(FX "/run.json", "\"huge_pct\": 60,", "\"huge_pct\": 101,");
	CHECK_EQ_I64(clitest_run(NULL, "analyze " FX " --no-plots", &out, &err), 2);
	CHECK(err && strstr(err, "point fact 'huge_pct': allowed: a percent of huge pages (a whole "
	                         "number 0 .. 100)"));
	free(out);
	free(err);
}

/* Every point of the bandwidth matrix skipped (a two-node config on a one-node machine): no grid
 * of dashes and no heat map, a note that sends to the table's reasons. */
LAB_TEST(matrix_with_nothing_measured_is_a_note)
{
	char path[2048], *text, *out = NULL, *err = NULL, *a, *b, *at;
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};
	const char *ok = "\"status\": \"ok\",\n     \"reason\": \"\"";
	FILE *f;

	clitest_copy(FX);
	text = nv_file(FX "/run.json");
	snprintf(path, sizeof(path), "%s/" FX "/run.json", testlib_tmpdir());
	REQUIRE((a = strstr(text, "\"name\": \"bw\"")) && (b = strstr(a, "\"name\": \"lat\"")));
	REQUIRE((f = fopen(path, "w")));
	fprintf(f, "%.*s", (int)(a - text), text);
	for (char *p = a; p < b; p = at + strlen(ok)) {
		if (!(at = strstr(p, ok)) || at > b)
			at = b;
		fprintf(f, "%.*s", (int)(at - p), p);
		if (at < b)
			fputs("\"status\": \"skipped\", \"reason\": \"needs 2 NUMA nodes\"", f);
		else
			break;
	}
	fputs(b, f);
	fclose(f);
	free(text);
	text = nv_file(FX "/samples.csv");
	snprintf(path, sizeof(path), "%s/" FX "/samples.csv", testlib_tmpdir());
	REQUIRE((f = fopen(path, "w")));
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
		if (strncmp(line, "bw,", 3))
			fprintf(f, "%s\n", line);
	fclose(f);
	free(text);
	CHECK_EQ_I64(clitest_run(NULL, "analyze " FX " --no-plots --json", &out, &err), 0);
	REQUIRE(out && !lab_an_json_parse("stdout", out, strlen(out), &j, &e));
	CHECK(!lab_an_json_get(lab_an_json_get(nv_sec(j, "bw", 0), "matrices"), "cells"));
	CHECK(lab_an_json_get(lab_an_json_get(nv_sec(j, "bw", 0), "matrices"), "distances"));
	CHECK_EQ_U64(nv_notes(j, "bw", "no cell was measured"), 1);
	CHECK_EQ_U64(nv_notes(j, "lat", "no cell was measured"), 0);
	CHECK(lab_an_json_get(lab_an_json_get(nv_sec(j, "lat", 0), "matrices"), "cells"));
	lab_an_json_free(j);
	free(out);
	free(err);
}

/* A real run on this (one-node) machine: the ladder and the policy histogram on node 0. */
LAB_TEST(real_run_ladder_and_histogram)
{
	char path[2048], *out = NULL, *err = NULL;
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};
	const struct lab_an_json *g, *r;
	FILE *f;

	snprintf(path, sizeof(path), "%s/numa.ini", testlib_tmpdir());
	REQUIRE((f = fopen(path, "w")));
	fputs("[global]\nreps = 2\nwarmup = 1ms\nmin_time = 1ms\n"
	      "[ladder]\nkernel = numa_lat\nthreads = 1\nsize = 16K, 256K\n"
	      "[policy]\nkernel = numa_policy\nthreads = 1\ninit = first_touch, serial\n"
	      "size = 256K\n",
	      f);
	fclose(f);
	REQUIRE(clitest_run(NULL, "run numa.ini -o run --no-progress --only ladder --only policy",
	                    &out, &err) == 0);
	free(out);
	free(err);
	REQUIRE(clitest_run(NULL, "analyze run --no-plots --include-flagged --json", &out, &err) ==
	        0);
	REQUIRE(out && lab_an_json_parse("stdout", out, strlen(out), &j, &e) == 0);
	free(out);
	free(err);
	REQUIRE((g = nv_sec(j, "ladder", 0)));
	CHECK_EQ_STR(lab_an_json_str(g, "title"), "numa latency ladder");
	/* 1 thread: a latency */
	CHECK_EQ_STR(lab_an_json_str(clitest_at(g, "figures", 0), "y"), "ns per load");
	/* "EXPERIMENT: what", the experiment once in the caption ("ladder: ladder latency
	 * ladder", plots40) */
	CHECK_EQ_STR(lab_an_json_str(clitest_at(g, "figures", 0), "title"),
	             "ladder: latency ladder");
	REQUIRE((r = nv_row(j, "ladder", "ladder", 1)));
	CHECK_NEAR(lab_an_json_num(r, "size_bytes", NAN), 262144, 0);
	CHECK(lab_an_json_num(r, "median_ns", NAN) > 0);
	REQUIRE((r = nv_row(j, "policy", "policy", 1)));
	CHECK_EQ_STR(lab_an_json_str(r, "init"), "serial");
	/* node 0's pages: 3 arrays of 256 KiB in 4 KiB pages or more */
	CHECK(strtod(lab_an_json_str(r, "pages_per_node") ?: "0", NULL) >= 64);
	CHECK(lab_an_json_get(r, "placement_ok") && lab_an_json_get(r, "placement_ok")->num == 1);
	lab_an_json_free(j);
	REQUIRE(clitest_run(NULL, "analyze run --include-flagged", &out, &err) == 0);
	CHECK(strstr(out, "== numa latency ladder: ladder") != NULL);
	CHECK(strstr(out, "== numa page policy: policy") != NULL);
	free(out);
	free(err);
}

/* Each line with every `from` (ctx: {from, to}) put as `to`. */
static void nv_swap(FILE *out, const char *line, void *ctx)
{
	const char *const *ft = ctx, *at;

	for (; (at = strstr(line, ft[0])); line = at + strlen(ft[0]))
		fprintf(out, "%.*s%s", (int)(at - line), line, ft[1]);
	fprintf(out, "%s\n", line);
}

/* plots40: hugepages off and on were two figures with two y scales; the sections of one
 * experiment share one, a curve each named by what differs, its conditions what they share. */
LAB_TEST(ladder_sections_share_a_figure)
{
	char path[2048], *out = NULL, *err = NULL, *gp;
	FILE *f;

	snprintf(path, sizeof(path), "%s/numa.ini", testlib_tmpdir());
	REQUIRE((f = fopen(path, "w")));
	fputs("[global]\nreps = 2\nwarmup = 1ms\nmin_time = 1ms\n"
	      "[ladder]\nkernel = numa_lat\nthreads = 1\nsize = 16K, 256K\n"
	      "hugepages = off, on\n",
	      f);
	fclose(f);
	REQUIRE(clitest_run(NULL, "run numa.ini -o run --no-progress", &out, &err) == 0);
	free(out);
	free(err);
	REQUIRE(clitest_run("PATH=/nonexistent", "analyze run --include-flagged", &out, &err) == 0);
	CHECK_EQ_U64(clitest_count("run/plots", "numa", "-ladder-", ".gp", NULL), 1);
	REQUIRE((gp = clitest_read("run/plots/numa00-ladder-mem_node_0_placement_compact.gp")));
	CHECK(strstr(gp, "title 'hugepages=off'") != NULL);
	CHECK(strstr(gp, "title 'hugepages=on'") != NULL);
	/* "load-flagged samples kept in N points; " may come first on a busy machine */
	CHECK(strstr(gp, "set title 'ladder: latency ladder'.\"\\n\".'") != NULL);
	CHECK(strstr(gp, "mem_node=0;placement=compact' noenhanced") != NULL);
	free(gp);
	free(out);
	free(err);
	/* hostile44: a hand-made size of 0 was drawn at 0 on the log axis, which gnuplot dropped
	 * unsaid: the legend says it */
	static const char *const csv[2] = {"\"size=16K;", "\"size=0;"};
	static const char *const json[2] = {"\"size\": \"16K\"", "\"size\": \"0\""};
	REQUIRE(clitest_rewrite("run/samples.csv", nv_swap, (void *)csv) == 0);
	REQUIRE(clitest_rewrite("run/run.json", nv_swap, (void *)json) == 0);
	REQUIRE(clitest_run("PATH=/nonexistent", "analyze run --include-flagged", &out, &err) == 0);
	REQUIRE((gp = clitest_read("run/plots/numa00-ladder-mem_node_0_placement_compact.gp")));
	CHECK(strstr(gp, "title 'hugepages=off [no data at 0: not above 0, no place on a") != NULL);
	free(gp);
	free(out);
	free(err);
}

/* Whose time a ladder's ns per load is: one thread's chain is a latency; more threads chase
 * their own chains at once, so the cost per load is of all of them together. */
LAB_TEST(ladder_label_says_whose_time)
{
	CHECK_EQ_STR(lab_an_numa_load_label(LAB_AN_NUMA_LADDER, 1), "ns per load");
	CHECK_EQ_STR(lab_an_numa_load_label(LAB_AN_NUMA_LADDER, 4),
	             "ns per load, all threads together (not a latency)");
	CHECK_EQ_STR(lab_an_numa_load_label(LAB_AN_NUMA_LOADED, 4),
	             "ns per load of the chasing thread");
}

/* Red team: a point of runs = 3 (run means 90, 100, 110 of a 100 ns cell) has the run means'
 * interval, of the mean, said in a note: on the 18 samples (within-run noise 0.1 %) the
 * median's interval was about [90, 110], as if the setups did not vary. */
LAB_TEST(matrix_cell_of_several_runs_uses_run_means)
{
	char *out = NULL, *err = NULL;
	struct lab_an_json *j = NULL;
	const struct lab_an_json *r, *s;
	struct lab_err e = {0};

	clitest_copy("results-numa-runs");
	REQUIRE(clitest_run(NULL, "analyze results-numa-runs --no-plots --json", &out, &err) == 0);
	REQUIRE(lab_an_json_parse("stdout", out, strlen(out), &j, &e) == 0);
	REQUIRE((r = nv_row(j, "lat", "matrix", 0)));
	CHECK_EQ_STR(lab_an_json_str(r, "stat"), "mean");
	CHECK_NEAR(lab_an_json_num(r, "median_mean", NAN), 100, 0.1);
	CHECK_NEAR(nv_at(r, "median_ci95", 0), 75.16, 0.05);
	CHECK_NEAR(nv_at(r, "median_ci95", 1), 124.84, 0.05);
	s = clitest_at(nv_sec(j, "lat", 0), "notes", 0);
	CHECK(s && s->type == LAB_AN_JSON_STR &&
	      strstr(s->str, "the mean of its run means") != NULL);
	lab_an_json_free(j);
	free(out);
	free(err);
}

/* plots43: the shared ladder and loaded figures say when their points keep load-flagged
 * samples (--include-flagged), as the curves views do; without it the flagged go, unsaid. */
LAB_TEST(loaded_figure_says_flagged_samples_kept)
{
	char path[2048], *csv, *at, *out = NULL, *err = NULL, *gp;
	FILE *f;

	clitest_copy(FX);
	REQUIRE((csv = clitest_read(FX "/samples.csv")));
	/* the first sample of the chase alone, flagged: a foreign load of half a CPU */
	REQUIRE((at = strstr(csv, "traffic=read\",1,0,98000000,1000000,load,0.01,0,")));
	memcpy(strstr(at, ",0.01,0,"), ",0.50,1,", 8);
	snprintf(path, sizeof(path), "%s/" FX "/samples.csv", testlib_tmpdir());
	REQUIRE((f = fopen(path, "w")));
	fputs(csv, f);
	fclose(f);
	free(csv);
	REQUIRE(clitest_run("PATH=/nonexistent", "analyze " FX " --include-flagged", &out, &err) ==
	        0);
	REQUIRE((gp = clitest_read(FX "/plots/numa02-loaded-hugepages_off_placement_compact_size_"
	                              "256M_stream_size_64M_traffic_read.gp")));
	CHECK(strstr(gp, "'load-flagged samples kept in 1 point; hugepages=off") != NULL);
	/* one curve: named by its experiment, its params are the title's (newcomer44) */
	CHECK(strstr(gp, "with yerrorlines lc 1 pt 1 dt 1 title 'loaded'\n") != NULL);
	free(gp);
	free(out);
	free(err);
	REQUIRE(clitest_run("PATH=/nonexistent", "analyze " FX, &out, &err) == 0);
	REQUIRE((gp = clitest_read(FX "/plots/numa02-loaded-hugepages_off_placement_compact_size_"
	                              "256M_stream_size_64M_traffic_read.gp")));
	CHECK(strstr(gp, "load-flagged") == NULL);
	free(gp);
	free(out);
	free(err);
}

/* Every sample of the loaded point at 2 threads flagged. */
static void nv_flag_loaded_2(FILE *out, const char *line, void *ctx)
{
	const char *at = strstr(line, ",0.01,0,");

	(void)ctx;
	if (!strncmp(line, "loaded,16,", 10) && at)
		fprintf(out, "%.*s,0.50,1,%s\n", (int)(at - line), line, at + 8);
	else
		fprintf(out, "%s\n", line);
}

/* plots46: the loaded figure said "[no data at 2: ok]" of a point whose samples were all
 * load-flagged, "2" a thread count on a GB/s axis. */
LAB_TEST(loaded_gap_says_threads_and_why)
{
	char *out = NULL, *err = NULL, *gp;

	clitest_copy(FX);
	REQUIRE(clitest_rewrite(FX "/samples.csv", nv_flag_loaded_2, NULL) == 0);
	REQUIRE(clitest_run("PATH=/nonexistent", "analyze " FX, &out, &err) == 0);
	REQUIRE((gp = clitest_read(FX "/plots/numa02-loaded-hugepages_off_placement_compact_size_"
	                              "256M_stream_size_64M_traffic_read.gp")));
	CHECK(strstr(gp, "[no data at threads=2: load-flagged]") != NULL);
	CHECK(strstr(gp, ": ok]") == NULL);
	free(gp);
	free(out);
	free(err);
}
