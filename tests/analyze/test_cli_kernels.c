/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `lab analyze` end to end on the c2c and lock fixtures: c2c_matrix.csv, analysis.json, the
 * text tables, the summary.csv modes column and the plots. */
#include <sys/stat.h>
#include <sys/wait.h>

#include "analyze/csv.h"
#include "analyze/jsonr.h"
#include "analyze/plots.h"
#include "tests/analyze/clitest.h"
#include "tests/testlib.h"

/* Copies fixture name into the tmpdir and runs `lab analyze name ARGS` there. */
static int ck_analyze(const char *name, const char *args, char **out, char **err)
{
	char cmd[2048];

	clitest_copy(name);
	snprintf(cmd, sizeof(cmd), "analyze %s %s", name, args);
	return clitest_run(NULL, cmd, out, err);
}

/* The columns of c2c_matrix.csv the tests read (the header is checked against them). */
enum {
	CK_PARAMS = 1,
	CK_A,
	CK_B,
	CK_ONE_WAY = 5,
	CK_LO = 7,
	CK_HI,
	CK_N,
	CK_MODES,
	CK_CENTERS,
	CK_WEIGHTS,
	CK_SMT = 14,
	CK_NUMA = 16,
	CK_LLC,
	CK_NCOL = 23
};

/* The c2c_matrix.csv row of (method, a, b) as fields; 0 when found. */
static int ck_csv_row(struct lab_an_csv *r, const char *method, const char *a, const char *b)
{
	struct lab_err e = {0};
	char m[64];

	snprintf(m, sizeof(m), "method=%s;", method);
	while (lab_an_csv_next(r, &e) == 1)
		if (r->nfield == CK_NCOL && strstr(r->field[CK_PARAMS], m) &&
		    !strcmp(r->field[CK_A], a) && !strcmp(r->field[CK_B], b))
			return 0;
	return -1;
}

/* The line of text that contains what, NUL-terminated into buf ("" when none). */
static const char *ck_line(const char *text, const char *what, char *buf, size_t len)
{
	const char *p = strstr(text, what), *b = p, *e = p;

	for (; b && b > text && b[-1] != '\n'; b--)
		;
	for (; e && *e && *e != '\n'; e++)
		;
	snprintf(buf, len, "%.*s", p ? (int)(e - b) : 0, p ? b : "");
	return buf;
}

/* c2c_matrix.csv's header names the columns the tests read where they expect them. */
static int ck_header(const struct lab_an_csv *r)
{
	static const struct {
		int col;
		const char *name;
	} want[] = {{0, "experiment"},
	            {CK_PARAMS, "params"},
	            {CK_A, "cpu_a"},
	            {CK_B, "cpu_b"},
	            {CK_ONE_WAY, "one_way"},
	            {CK_LO, "one_way_lo"},
	            {CK_HI, "one_way_hi"},
	            {CK_N, "one_way_n"},
	            {CK_MODES, "modes"},
	            {CK_CENTERS, "mode_centers"},
	            {CK_WEIGHTS, "mode_weights"},
	            {CK_SMT, "smt_siblings"},
	            {CK_NUMA, "same_numa"},
	            {CK_LLC, "same_llc"}};

	CHECK_EQ_U64(r->nfield, CK_NCOL);
	if (r->nfield != CK_NCOL)
		return 0;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		CHECK_EQ_STR(r->field[want[i].col], want[i].name);
	return 1;
}

LAB_TEST(c2c_csv_json_and_text)
{
	char *out = NULL, *err = NULL, path[2048], line[1024];
	struct lab_an_csv r;
	struct lab_err e = {0};
	struct lab_an_json *j = NULL;
	const struct lab_an_json *x, *v, *m, *cell;

	REQUIRE(ck_analyze("results-c2c", "--no-plots", &out, &err) == 0);
	CHECK(strstr(out, "== c2c one-way latency (ns): c2c  "
	                  "layout=own_line;method=load_store;placement=pairs\n") != NULL);
	CHECK(strstr(out, " 29.9 M:29.1;109.7 ") != NULL); /* the grid: the pair's modes */
	/* pairs 0-2 and 0-1 (cpu_a, cpu_b, point): the modes in words, the SMT sibling pair */
	ck_line(out, "MULTIMODAL, 2 modes: 29.1 ns (60%), 109.7 ns (40%)", line, sizeof(line));
	CHECK(strncmp(line, "0      2      1 ", 16) == 0);
	ck_line(out, "SMT siblings", line, sizeof(line));
	CHECK(strncmp(line, "0      1      0      12.95 [", 28) == 0); /* the median's interval */
	CHECK(strstr(out, "== scaling: c2c") == NULL); /* no per-pair series tables */
	snprintf(path, sizeof(path), "%s/results-c2c/c2c_matrix.csv", testlib_tmpdir());
	REQUIRE(lab_an_csv_open(&r, path, &e) == 0);
	REQUIRE(lab_an_csv_next(&r, &e) == 1);
	REQUIRE(ck_header(&r));
	REQUIRE(ck_csv_row(&r, "load_store", "0", "2") == 0);
	CHECK(strstr(r.field[CK_PARAMS], "method=load_store") != NULL);
	CHECK(strstr(r.field[CK_PARAMS], "pair=") == NULL);
	CHECK_EQ_STR(r.field[CK_N], "20");
	CHECK_EQ_STR(r.field[CK_MODES], "2");
	CHECK_EQ_STR(r.field[CK_CENTERS], "29.1;109.7");
	CHECK_EQ_STR(r.field[CK_WEIGHTS], "0.6;0.4");
	CHECK_EQ_STR(r.field[CK_SMT], "0");
	REQUIRE(ck_csv_row(&r, "cas", "0", "1") == 0);
	CHECK_EQ_STR(r.field[CK_ONE_WAY], "12.95");
	CHECK_EQ_STR(r.field[CK_LO], "12.5");
	CHECK_EQ_STR(r.field[CK_HI], "13.4");
	CHECK_EQ_STR(r.field[CK_MODES], "1");
	CHECK_EQ_STR(r.field[CK_SMT], "1");
	lab_an_csv_close(&r);

	free(out);
	free(err);
	REQUIRE(ck_analyze("results-c2c", "--no-plots --json", &out, &err) == 0);
	REQUIRE(lab_an_json_parse("stdout", out, strlen(out), &j, &e) == 0);
	x = clitest_at(j, "experiments", 0);
	REQUIRE(x);
	CHECK_EQ_STR(lab_an_json_str(x, "kernel"), "c2c_latency");
	v = lab_an_json_get(x, "c2c");
	m = clitest_row(v, "method=load_store;", "summary", NULL, NULL);
	REQUIRE(m);
	CHECK_EQ_STR(lab_an_json_str(m, "method"), "load_store");
	CHECK_NEAR(lab_an_json_num(m, "multimodal", -1), 1, 0);
	cell = clitest_row(v, "method=load_store;", "pairs", "point", "1");
	REQUIRE(cell);
	CHECK_EQ_STR(lab_an_json_str(cell, "cpu_b"), "2");
	CHECK_NEAR(lab_an_json_num(cell, "modes", -1), 2, 0);
	CHECK_NEAR(lab_an_json_num(cell, "multimodal", -1), 1, 0);
	CHECK_EQ_STR(lab_an_json_str(cell, "mode_centers"), "29.1;109.7");
	cell = clitest_row(v, "method=load_store;", "pairs", "point", "0");
	REQUIRE(cell);
	CHECK_NEAR(lab_an_json_num(cell, "one_way", -1), 12.95, 1e-9);
	CHECK(clitest_at(cell, "one_way_ci95", 0) &&
	      clitest_at(cell, "one_way_ci95", 0)->num == 12.5);
	CHECK_EQ_STR(lab_an_json_str(cell, "one_way_ci95_of"), "median"); /* not the mean's */
	CHECK_NEAR(lab_an_json_num(cell, "smt_siblings", -1), 1, 0);
	lab_an_json_free(j);
	free(out);
	free(err);
}

LAB_TEST(summary_modes_column)
{
	char *out = NULL, *err = NULL, path[2048];
	struct lab_an_csv r;
	struct lab_err e = {0};
	int col, cen, seen = 0;

	REQUIRE(ck_analyze("results-c2c", "--no-plots", &out, &err) == 0);
	snprintf(path, sizeof(path), "%s/results-c2c/summary.csv", testlib_tmpdir());
	REQUIRE(lab_an_csv_open(&r, path, &e) == 0);
	REQUIRE(lab_an_csv_next(&r, &e) == 1);
	col = lab_an_csv_column(&r, "modes");
	cen = lab_an_csv_column(&r, "mode_centers");
	REQUIRE(col > 0 && cen > 0);
	while (lab_an_csv_next(&r, &e) == 1)
		if (!strcmp(r.field[1], "1")) { /* the bimodal pair: round trip 58.2 and 219.5 */
			CHECK_EQ_STR(r.field[col], "2");
			CHECK_EQ_STR(r.field[cen], "58.2;219.5");
			seen = 1;
		} else {
			CHECK_EQ_STR(r.field[col], "1");
		}
	CHECK(seen);
	lab_an_csv_close(&r);
	free(out);
	free(err);
}

/* The points table of section sec of the locks view in experiments[0] of j. */
static const struct lab_an_json *ck_lock_table(const struct lab_an_json *j, size_t sec)
{
	const struct lab_an_json *s =
	    clitest_at(lab_an_json_get(clitest_at(j, "experiments", 0), "locks"), "sections", sec);

	return lab_an_json_get(lab_an_json_get(s, "tables"), "points");
}

LAB_TEST(lock_text_and_json)
{
	char *out = NULL, *err = NULL, path[2048];
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};
	const struct lab_an_json *p, *col;
	struct lab_an_csv r;
	int seen = 0;

	REQUIRE(ck_analyze("results-locks", "--no-plots", &out, &err) == 0);
	CHECK(strstr(out,
	             "== Locks under contention: locks  cs_ns=100;placement=compact;think_ns=0") !=
	      NULL);
	CHECK(strstr(out, "171 | 171 [168.5, 173.5]") != NULL); /* M/s, log-scale interval */
	/* the t-interval 0.65 -+ 4.303 * 0.05 / sqrt(3), inside [1/2, 1]; summary.csv's the same */
	CHECK(strstr(out, "0.65 | 0.65 [0.5258, 0.7742]") != NULL);
	CHECK(strstr(out, "p50") == NULL);
	CHECK(strstr(out, "handoff_ratio") != NULL);
	free(out);
	free(err);
	/* The table's CSV: the tas 2-thread row, throughput in M/s. */
	snprintf(path, sizeof(path), "%s/results-locks/locks_points.csv", testlib_tmpdir());
	REQUIRE(lab_an_csv_open(&r, path, &e) == 0);
	REQUIRE(lab_an_csv_next(&r, &e) == 1);
	CHECK_EQ_STR(r.field[2], "lock");
	CHECK_EQ_STR(r.field[5], "throughput");
	while (lab_an_csv_next(&r, &e) == 1)
		if (!strcmp(r.field[2], "tas") && !strcmp(r.field[3], "2") &&
		    strstr(r.field[1], "think_ns=0")) {
			CHECK_EQ_STR(r.field[5], "87");
			seen = 1;
		}
	CHECK(seen);
	lab_an_csv_close(&r);
	REQUIRE(ck_analyze("results-locks", "--no-plots --json", &out, &err) == 0);
	REQUIRE(lab_an_json_parse("stdout", out, strlen(out), &j, &e) == 0);
	REQUIRE(clitest_at(j, "experiments", 0));
	CHECK_EQ_STR(lab_an_json_str(clitest_at(j, "experiments", 0), "kernel"), "lock");
	/* Rows run lock after lock, thread counts ascending: tas (the second lock), 2 threads. */
	p = clitest_at(ck_lock_table(j, 0), "rows", 3);
	REQUIRE(p);
	CHECK_EQ_STR(lab_an_json_str(p, "lock"), "tas");
	CHECK_EQ_STR(lab_an_json_str(p, "threads"), "2");
	CHECK_EQ_STR(lab_an_json_str(clitest_at(ck_lock_table(j, 0), "rows", 1), "lock"), "mcs");
	col = clitest_at(ck_lock_table(j, 0), "columns", 3);
	CHECK_EQ_STR(col ? lab_an_json_str(col, "unit") : NULL, "M acquisitions/s");
	CHECK_NEAR(lab_an_json_num(p, "throughput", -1), 87, 1e-9);
	CHECK_NEAR(lab_an_json_num(p, "jain_fairness", -1), 0.65, 1e-12);
	CHECK_NEAR(lab_an_json_num(p, "acq_lat_p99_ns", -1), 1000, 1e-9);
	CHECK(clitest_at(p, "jain_fairness_ci95", 1) &&
	      clitest_at(p, "jain_fairness_ci95", 1)->num <= 1 &&
	      fabs(clitest_at(p, "jain_fairness_ci95", 1)->num - 0.7742) < 1e-4);
	lab_an_json_free(j);
	free(out);
	free(err);
}

/* 1 when the gnuplot script results-locks/plots/BASE.gp holds text (its title). */
static int ck_plot_says(const char *base, const char *text)
{
	char path[2048], *buf = NULL;
	size_t len;
	int ok;

	snprintf(path, sizeof(path), "%s/results-locks/plots/%s.gp", testlib_tmpdir(), base);
	ok = lab_an_file_read(path, &buf, &len, NULL) == 0 && strstr(buf, text) != NULL;
	free(buf);
	return ok;
}

/* results-locks with its acq_lat_p50_ns column as handoff_ratio, every value 0.5. */
static void ck_handoff(FILE *out, const char *line, void *ctx)
{
	const char *c = strstr(line, "acq_lat_p50_ns"), *q = line;

	(void)ctx;
	if (c) {
		fprintf(out, "%.*shandoff_ratio%s\n", (int)(c - line), line,
		        c + strlen("acq_lat_p50_ns"));
		return;
	}
	for (int k = 0; k < 12 && q; k++) /* the 13th field, after the quoted params' 12 commas */
		q = strchr(q + (k > 0), ',');
	if (strncmp(line, "locks,", 6) || !q || !strchr(q + 1, ',')) {
		fprintf(out, "%s\n", line);
		return;
	}
	fprintf(out, "%.*s0.5%s\n", (int)(q + 1 - line), line, strchr(q + 1, ','));
}

/* plots40: the hand-off ratio the ch26 lessons read is drawn (no figure showed it). */
LAB_TEST(lock_handoff_drawn)
{
	char *out = NULL, *err = NULL, *l;

	clitest_copy("results-locks");
	REQUIRE(clitest_rewrite("results-locks/samples.csv", ck_handoff, NULL) == 0);
	CHECK_EQ_I64(clitest_run(NULL, "analyze results-locks", &out, &err), 0);
	CHECK(ck_plot_says("locks03-locks-handoff-cs_ns_100_placement_compact_think_ns_0",
	                   "hand-offs vs threads"));
	/* the column it reads: every point at 0.5 (review42); the 1-thread points not drawn, no
	 * measurement there (no other thread to hand off to) */
	REQUIRE(
	    (l = clitest_read("results-locks/plots/"
	                      "locks03-locks-handoff-cs_ns_100_placement_compact_think_ns_0.dat")));
	CHECK(strstr(l, " 2 0.5 ") != NULL && strstr(l, " 1 0.5 ") == NULL);
	free(l);
	free(out);
	free(err);
}

LAB_TEST(kernel_plots_exist)
{
	char *out = NULL, *err = NULL;

	if (!lab_an_have_program("gnuplot")) {
		SKIP("needs gnuplot (scripts/deps.sh installs gnuplot-nox)");
	}
	REQUIRE(ck_analyze("results-c2c", "", &out, &err) == 0);
	CHECK(strstr(err, "gnuplot failed") == NULL);
	CHECK(clitest_exists(
	    "results-c2c/plots/c2c00-c2c-layout_own_line_method_load_store_placement_pairs.svg"));
	CHECK(clitest_exists(
	    "results-c2c/plots/c2c01-c2c-layout_own_line_method_cas_placement_pairs.png"));
	CHECK_EQ_U64(clitest_count("results-c2c/plots", "series", NULL), 0); /* no pair plots */
	free(out);
	free(err);
	REQUIRE(ck_analyze("results-locks", "", &out, &err) == 0);
	CHECK(strstr(err, "gnuplot failed") == NULL);
	/* Four figures per group: throughput, fairness, p99, hand-offs (figure ids 0-3, then 4-7;
	 * the fixture has no handoff_ratio: no file of it). */
	CHECK(
	    clitest_exists("results-locks/plots/"
	                   "locks00-locks-throughput-cs_ns_100_placement_compact_think_ns_0.svg"));
	CHECK(ck_plot_says("locks00-locks-throughput-cs_ns_100_placement_compact_think_ns_0",
	                   "throughput vs threads"));
	CHECK(clitest_exists("results-locks/plots/"
	                     "locks01-locks-fairness-cs_ns_100_placement_compact_think_ns_0.svg"));
	CHECK(ck_plot_says("locks01-locks-fairness-cs_ns_100_placement_compact_think_ns_0",
	                   "fairness vs threads (2 or more)"));
	CHECK(clitest_exists("results-locks/plots/"
	                     "locks06-locks-p99-cs_ns_100_placement_compact_think_ns_500.png"));
	CHECK(ck_plot_says("locks06-locks-p99-cs_ns_100_placement_compact_think_ns_500",
	                   "p99 vs threads"));
	CHECK(!clitest_exists("results-locks/plots/"
	                      "locks07-locks-cs_ns_100_placement_compact_think_ns_500.png"));
	free(out);
	free(err);
}

/* samples.csv: the header and point 0's rows only (ctx non-NULL: point 1's too). */
static void ck_point0_only(FILE *out, const char *line, void *ctx)
{
	int with1 = ctx ? *(int *)ctx : 0; /* 1: point 1 too; 2: point 1 alone */

	if (!strncmp(line, "experiment,", 11) || (with1 != 2 && !strncmp(line, "c2c,0,", 6)) ||
	    (with1 && !strncmp(line, "c2c,1,", 6)))
		fprintf(out, "%s\n", line);
}

/* samples.csv: point 0's samples ten times as long (their round trips preempted), the kernel's
 * batch percentiles as they were. */
static void ck_point0_slow(FILE *out, const char *line, void *ctx)
{
	const char *rep = strstr(line, "\",2,"), *ns = rep ? strchr(rep + 4, ',') : NULL;
	char *end;
	long long v;

	(void)ctx;
	if (strncmp(line, "c2c,0,", 6) || !ns) {
		fprintf(out, "%s\n", line);
		return;
	}
	v = strtoll(ns + 1, &end, 10); /* elapsed_ns, after threads and rep */
	fprintf(out, "%.*s%lld%s\n", (int)(ns + 1 - line), line, v * 10, end);
}

/* A pair whose samples' round trips (preempted, kept with --include-flagged) put it at over twice
 * the kernel's batch median says the batches' figure beside it (3213 ns read as the pair's
 * latency where its batches' median was 212 ns). */
LAB_TEST(c2c_batches_median_said_when_samples_interrupted)
{
	char *out = NULL, *err = NULL, *l;

	clitest_copy("results-c2c");
	REQUIRE(clitest_rewrite("results-c2c/samples.csv", ck_point0_slow, NULL) == 0);
	REQUIRE(clitest_run(NULL, "analyze results-c2c --no-plots", &out, &err) == 0);
	REQUIRE((l = strstr(out, "the kernel's batches put it at ")));
	CHECK(strstr(l, "ns (metric_one_way_p50_ns): the samples' whole round trips hold "
	                "interruptions"));
	CHECK(strstr(l + 1, "the kernel's batches put it at ") == NULL); /* point 0 only */
	/* the grid and heat map show the batches' number there, marked b: (plots40) */
	REQUIRE((l = strstr(out, "one-way latency, median (ns)\n")));
	CHECK(strstr(l, " b:") != NULL && strstr(l, " b:") < strstr(l, "per pair:"));
	free(out);
	free(err);
}

/* run.json: the host ran under a hypervisor (ctx: its name; NULL: KVM). */
static void ck_hypervisor(FILE *out, const char *line, void *ctx)
{
	fprintf(out, "%s\n", line);
	if (!strcmp(line, " \"host\": {"))
		fprintf(out, "  \"hypervisor\": \"%s\",\n", ctx ? (const char *)ctx : "KVM");
}

/* A matrix whose measured pairs are all of one kind (two vCPUs give one pair) says the
 * chapter's comparison of kinds is not in the data, and under a hypervisor that the relations
 * are what it reports (a 2-vCPU guest's one pair read "other last-level cache" as a fact). */
LAB_TEST(c2c_one_kind_and_hypervisor_said)
{
	char *out = NULL, *err = NULL;

	REQUIRE(ck_analyze("results-c2c", "--no-plots", &out, &err) == 0);
	CHECK(!strstr(out, "cannot be compared in this data") && !strstr(out, "hypervisor ("));
	/* one run: each interval bounds the median, and the header says so (it read "median |
	 * mean [95% CI]" over "2427 [1955, 3441] | 2724") */
	CHECK(strstr(out, "one_way (ns) median [95% CI] | mean ") != NULL);
	free(out);
	free(err);
	REQUIRE(clitest_rewrite("results-c2c/samples.csv", ck_point0_only, NULL) == 0);
	REQUIRE(clitest_rewrite("results-c2c/run.json", ck_hypervisor, NULL) == 0);
	REQUIRE(clitest_run(NULL, "analyze results-c2c --no-plots", &out, &err) == 0);
	CHECK(strstr(out, "finding: the one pair measured is ") &&
	      strstr(out, ": how latency depends on what two CPUs share (SMT core, last-level "
	                  "cache, package) cannot be compared in this data"));
	CHECK(strstr(out, "note: the pairs' relations are the topology the hypervisor (KVM) "
	                  "reports"));
	free(out);
	free(err);
	/* a long name is cut at a character (a byte cut printed "\xc3", hostile33) */
	static char long_hv[] = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\xc3\xa9\xc3\xa9";
	clitest_copy("results-c2c");
	REQUIRE(clitest_rewrite("results-c2c/samples.csv", ck_point0_only, NULL) == 0);
	REQUIRE(clitest_rewrite("results-c2c/run.json", ck_hypervisor, long_hv) == 0);
	REQUIRE(clitest_run(NULL, "analyze results-c2c --no-plots", &out, &err) == 0);
	CHECK(strstr(out, "hypervisor (AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA) reports") &&
	      !strstr(out, "\\xc3"));
	free(out);
	free(err);
	/* pairs 0-1 (SMT siblings) and 0-2 (its last-level cache unknown): maybe two kinds */
	clitest_copy("results-c2c");
	REQUIRE(clitest_rewrite("results-c2c/samples.csv", ck_point0_only, &(int){1}) == 0);
	REQUIRE(clitest_run(NULL, "analyze results-c2c --no-plots", &out, &err) == 0);
	CHECK(!strstr(out, "cannot be compared in this data"));
	free(out);
	free(err);
	/* pair 0-2 alone: one pair is one kind, whatever its relation */
	clitest_copy("results-c2c");
	REQUIRE(clitest_rewrite("results-c2c/samples.csv", ck_point0_only, &(int){2}) == 0);
	REQUIRE(clitest_run(NULL, "analyze results-c2c --no-plots", &out, &err) == 0);
	CHECK(strstr(out, "finding: the one pair measured is of a relation run.json's topology "
	                  "does not say: how latency depends"));
	free(out);
	free(err);
}

/* The last line of run.json ("}") becomes the lessons array and then "}". */
static void ck_add_lessons(FILE *out, const char *line, void *ctx)
{
	fprintf(out, "%s\n", strcmp(line, "}") ? line : (const char *)ctx);
}

/* A lesson that reads a DELAY FLAGGED lock point says so after its verdict (a fairness lesson
 * held at 2.5 with no word where the tas point's 100 ns sections had run 48 to 65 ns); one on
 * points whose delay held says nothing of it. */
#define CK_TAS_FAST "cost(locks: lock=mcs, threads=2) / cost(locks: lock=tas, threads=2) >= 1"
#define CK_MCS_POS  "cost(locks: lock=mcs, threads=2) > 1"

LAB_TEST(lesson_on_delay_flagged_point_says_so)
{
	char *out = NULL, *err = NULL, *l, *m;
	static char lessons[] =
	    ",\"lessons\": [{\"name\": \"tas_fast\", \"claim\": \"" CK_TAS_FAST "\", "
	    "\"expr\": \"" CK_TAS_FAST "\"}, {\"name\": \"mcs_pos\", \"claim\": \"" CK_MCS_POS
	    "\", \"expr\": \"" CK_MCS_POS "\"}]}";

	clitest_copy("results-locks-drift");
	REQUIRE(clitest_rewrite("results-locks-drift/run.json", ck_add_lessons, lessons) == 0);
	REQUIRE(clitest_run(NULL, "analyze results-locks-drift --no-plots", &out, &err) == 0);
	REQUIRE((l = strstr(out, "holds        tas_fast")) &&
	        (m = strstr(l, "holds        mcs_pos")));
	m[-1] = 0; /* l: tas_fast's lines; m: mcs_pos's */
	CHECK(strstr(l, "): DELAY FLAGGED: delay calibration +20 % off the run's fastest "
	                "(tolerance 10 %)") != NULL);
	CHECK(strstr(l, "; note: the delay these means rest on moved, so they are not the "
	                "configured sections' (compare with care): point 0 (threads=2, "
	                "cs_ns=1000;lock=tas;"));
	*strchrnul(m, '\n') = 0; /* its name line */
	m += strlen(m) + 1;
	*strchrnul(strchrnul(m, '\n') + 1, '\n') = 0; /* its claim and verdict */
	CHECK(strstr(m, "holds: ") && !strstr(m, "DELAY"));
	free(out);
	free(err);
}

/* samples.csv: point 1's (mcs) achieved sections below the clock's resolution (-4 ns). */
static void ck_mcs_cs_negative(FILE *out, const char *line, void *ctx)
{
	const char *f = line;

	(void)ctx;
	for (int i = 0; i < 14 && f; i++) /* to the 15th field, cs_achieved_ns */
		f = strchr(f, ',') ? strchr(f, ',') + 1 : NULL;
	if (!strncmp(line, "locks,1,", 8) && f && !strncmp(f, "995,", 4))
		fprintf(out, "%.*s-4%s\n", (int)(f - line), line, f + 3);
	else
		fprintf(out, "%s\n", line);
}

/* A lesson and the locks view read a point's achieved section alike: below the clock's
 * resolution it is no time (the lesson said "DELAY FLAGGED: critical section achieved -4 ns,
 * -100 % off cs_ns" where the view's row said "not measurable (below resolution)"). */
LAB_TEST(lesson_and_view_agree_on_a_section_below_resolution)
{
	char *out = NULL, *err = NULL, *l, *row;
	static char lessons[] = ",\"lessons\": [{\"name\": \"mcs_pos\", \"claim\": \"" CK_MCS_POS
	                        "\", \"expr\": \"" CK_MCS_POS "\"}]}";

	clitest_copy("results-locks-drift");
	REQUIRE(clitest_rewrite("results-locks-drift/run.json", ck_add_lessons, lessons) == 0);
	REQUIRE(clitest_rewrite("results-locks-drift/samples.csv", ck_mcs_cs_negative, NULL) == 0);
	REQUIRE(clitest_run(NULL, "analyze results-locks-drift --no-plots", &out, &err) == 0);
	REQUIRE((l = strstr(out, "\nmcs ")));
	REQUIRE((row = strndup(l, (size_t)(strchrnul(l + 1, '\n') - l))));
	CHECK(strstr(row, "not measurable (mean <= 0: below resolution or noise)") &&
	      !strstr(row, "FLAGGED"));
	free(row);
	REQUIRE((l = strstr(out, "holds        mcs_pos")) && strstr(l, "\n\n"));
	*strstr(l, "\n\n") = 0; /* its lines */
	CHECK(strstr(l, "holds: ") && !strstr(l, "DELAY") && !strstr(l, "-4 ns"));
	free(out);
	free(err);
}

/*
 * Issue 21 finding 6 (gen_fixtures_drift.py): the achieved critical section and the drift sit
 * next to every lock result; tas at 1.09 M/s with cs 855 ns and drift 20 % is flagged with its
 * reasons, mcs (cs 995 ns, drift 2 %) is not.
 */
LAB_TEST(lock_delay_drift_flagged)
{
	char *out = NULL, *err = NULL, *line;
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};
	const struct lab_an_json *p;

	REQUIRE(ck_analyze("results-locks-drift", "--no-plots", &out, &err) == 0);
	CHECK(strstr(out, "cs_achieved_ns (ns)") != NULL &&
	      strstr(out, "delay_drift_pct (%)") != NULL);
	REQUIRE((line = strstr(out, "\ntas ")));
	CHECK(strstr(line, "855") != NULL);
	CHECK(strstr(line, "DELAY FLAGGED: delay calibration +20 % off the run's fastest") != NULL);
	CHECK(strstr(line, "above the limit 1/cs_ns = 1 M/s") != NULL);
	/* no delay used (cs_ns = think_ns = 0): its calibration's drift of 30 % flags nothing */
	REQUIRE((line = strstr(out, "\nticket ")));
	line = strndup(line, (size_t)(strchrnul(line + 1, '\n') - line));
	CHECK(strstr(line, "30") != NULL);
	CHECK(strstr(line, "FLAGGED") == NULL);
	free(line);
	REQUIRE((line = strstr(out, "\nmcs ")));
	*strchrnul(line + 1, '\n') = '\0';
	CHECK(strstr(line, "995") != NULL);
	CHECK(strstr(line, "FLAGGED") == NULL);
	free(out);
	free(err);
	REQUIRE(ck_analyze("results-locks-drift", "--no-plots --json", &out, &err) == 0);
	REQUIRE(lab_an_json_parse("stdout", out, strlen(out), &j, &e) == 0);
	/* The row's note carries the delay flag: tas (row 0) flagged, mcs (row 1) not. */
	REQUIRE((p = clitest_at(ck_lock_table(j, 0), "rows", 0)));
	CHECK_EQ_STR(lab_an_json_str(p, "lock"), "tas");
	CHECK_NEAR(lab_an_json_num(p, "cs_achieved_ns", -1), 855, 1e-9);
	CHECK_NEAR(lab_an_json_num(p, "delay_drift_pct", -1), 20, 1e-9);
	CHECK(strstr(lab_an_json_str(p, "note") ?: "", "DELAY FLAGGED") != NULL);
	CHECK(strstr(lab_an_json_str(p, "note") ?: "", "-15 % off cs_ns") != NULL);
	REQUIRE((p = clitest_at(ck_lock_table(j, 0), "rows", 1)));
	CHECK_EQ_STR(lab_an_json_str(p, "lock"), "mcs");
	CHECK(lab_an_json_str(p, "note") == NULL);
	lab_an_json_free(j);
	free(out);
	free(err);
}
