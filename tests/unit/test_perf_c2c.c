/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The perf c2c report parser on fixture text in perf's --stdio layout (tests/fixtures/perf_c2c):
 * lines with their HITM counts, offsets with shares, code addresses and symbols; broken input.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>

#include "harness/counters.h"
#include "harness/facts.h"
#include "harness/fileio.h"
#include "harness/kernel_api.h"
#include "harness/perf_c2c.h"
#include "tests/testlib.h"

LAB_TEST(fixture_lines_and_offsets)
{
	char *text = NULL;
	size_t len = 0;
	struct lab_err err = {0};
	static struct lab_c2c_report r;

	char path[1024];

	snprintf(path, sizeof(path), "%s/tests/fixtures/perf_c2c/report-stdio.txt",
	         testlib_srcdir());
	REQUIRE(lab_file_read(path, 1 << 20, &text, &len, &err) == 0);
	REQUIRE(lab_c2c_parse(text, len, &r, &err) == 0);
	REQUIRE(r.nlines == 3);
	CHECK_EQ_U64(r.lines[0].addr, 0x7f3a1c000040ull);
	CHECK_EQ_U64(r.lines[0].rmt_hitm, 706);
	CHECK_EQ_U64(r.lines[0].lcl_hitm, 2391);
	CHECK_EQ_U64(r.lines[2].num, 2);
	CHECK_EQ_U64(r.lines[2].rmt_hitm, 64);
	REQUIRE(r.noffs == 5);
	CHECK_EQ_U64(r.offs[1].line, 0);
	CHECK_EQ_U64(r.offs[1].offset, 8);
	CHECK(r.offs[1].rmt_pct > 38.94 && r.offs[1].rmt_pct < 38.96);
	CHECK(r.offs[1].lcl_pct > 47.25 && r.offs[1].lcl_pct < 47.27);
	CHECK_EQ_U64(r.offs[1].code_addr, 0x7f3a1f2a10c4ull);
	CHECK_EQ_STR(r.offs[1].symbol, "[.] fs_run_packed");
	CHECK_EQ_STR(r.offs[1].object, "liblab_kernels.so");
	CHECK_EQ_U64(r.offs[2].line, 1);
	CHECK_EQ_U64(r.offs[2].offset, 0x38);
	CHECK_EQ_STR(r.offs[4].symbol, "[k] native_queued_spin_lock_slowpath");
	CHECK_EQ_STR(r.offs[4].object, "[kernel.kallsyms]");
	CHECK_EQ_U64(r.dropped, 0);
	free(text);
}

LAB_TEST(no_pareto_or_bad_rows)
{
	static struct lab_c2c_report r;
	struct lab_err err = {0};
	const char *none = "  Total records : 0\n";
	const char *empty = "=====\n  Shared Cache Line Distribution Pareto\n=====\n#\n";
	const char *bad = "  Shared Cache Line Distribution Pareto\n"
	                  "  -------------------------------\n"
	                  "      0  4  9  0  0  0  0x1000\n"
	                  "  -------------------------------\n"
	                  "     12.5%  garbage here\n";
	const char *orphan =
	    "  Shared Cache Line Distribution Pareto\n"
	    "  50.00%  50.00%  0.00%  0x8  0  1  0x400000  1  2  3  4  2  [.] f  a.out  "
	    "a.c:1  0\n";

	CHECK_EQ_I64(lab_c2c_parse(none, strlen(none), &r, &err), -LAB_EDATA);
	CHECK(strstr(err.msg, "Pareto") != NULL);
	CHECK_EQ_I64(lab_c2c_parse(empty, strlen(empty), &r, &err), 0);
	CHECK_EQ_U64(r.nlines, 0);
	CHECK_EQ_I64(lab_c2c_parse(bad, strlen(bad), &r, &err), -LAB_EDATA);
	CHECK_EQ_STR(err.msg, "perf c2c report line 5: not a cache line or offset row");
	CHECK_EQ_I64(lab_c2c_parse(orphan, strlen(orphan), &r, &err), -LAB_EDATA);
	CHECK(strstr(err.msg, "before any cache line") != NULL);
}

LAB_TEST(unavailable_reasons)
{
	struct lab_ctr_host h = {.vendor = "GenuineIntel", .cpu_pmu = true, .paranoid = 2};
	char why[256];

	CHECK(lab_c2c_unavailable(&h, false, why, sizeof(why)));
	CHECK_EQ_STR(why, "perf not found in PATH");
	CHECK(lab_c2c_unavailable(&h, true, why, sizeof(why)));
	CHECK_EQ_STR(why, "perf_event_paranoid=2 (perf c2c needs 1 or less, root or CAP_PERFMON)");
	h.privileged = true;
	CHECK(!lab_c2c_unavailable(&h, true, why, sizeof(why)));
	h.cpu_pmu = false;
	h.hypervisor = true;
	CHECK(lab_c2c_unavailable(&h, true, why, sizeof(why)));
	CHECK(
	    strstr(why, "no PMU that samples memory accesses (GenuineIntel, under a hypervisor") ==
	    why);
	struct lab_ctr_host amd = {.vendor = "AuthenticAMD", .paranoid = 1, .pmus = "cpu ibs_op"};
	CHECK(!lab_c2c_unavailable(&amd, true, why, sizeof(why)));
}

/* Puts the stand-in perf (tests/fixtures/perf_c2c/bin) first in PATH and names its report;
 * returns the PATH before (a copy: setenv frees nothing, but it may move). */
static const char *pc_stand_in(void)
{
	static char before[4096];
	char path[8192], fixture[1024];
	const char *old = getenv("PATH");

	snprintf(before, sizeof(before), "%s", old ? old : "/usr/bin:/bin");
	snprintf(path, sizeof(path), "%s/tests/fixtures/perf_c2c/bin:%s", testlib_srcdir(), before);
	snprintf(fixture, sizeof(fixture), "%s/tests/fixtures/perf_c2c/report-stdio.txt",
	         testlib_srcdir());
	setenv("PATH", path, 1);
	setenv("LAB_C2C_FIXTURE", fixture, 1);
	return before;
}

/* The record/report path through a stand-in perf (tests/fixtures/perf_c2c/bin/perf): started
 * with an argument vector, stopped with SIGINT, its report parsed into the point's facts. */
LAB_TEST(record_and_report_through_a_stand_in)
{
	const char *old = pc_stand_in();
	struct lab_c2c_session s;
	static struct lab_c2c_report r;
	struct lab_err err = {0};
	struct lab_facts facts = {0};
	struct lab_ctx ctx = {.facts = &facts};

	CHECK(lab_c2c_perf_in_path());
	REQUIRE(lab_c2c_start(&s, &err) == 0);
	CHECK(s.pid > 0);
	REQUIRE(lab_c2c_stop(&s, &r, &err) == 0);
	CHECK_EQ_U64(r.nlines, 3);
	CHECK(s.dir[0] == '\0'); /* its temporary files are gone */
	lab_c2c_facts(&ctx, &r);
	REQUIRE(facts.n == 3);
	CHECK_EQ_STR(facts.f[0].s, "ok");
	CHECK_EQ_I64(facts.f[1].i, 3);
	CHECK(strstr(facts.f[2].s, "0x7f3a1c000040 rmt_hitm=706 lcl_hitm=2391: +0x0 61.0%/52.7% "
	                           "[.] fs_run_packed (liblab_kernels.so)") == facts.f[2].s);
	lab_facts_clear(&facts);

	/* A report that fails (nothing recorded): the reason, not a crash. */
	s = (struct lab_c2c_session){.pid = 0};
	CHECK_EQ_I64(lab_c2c_stop(&s, &r, &err), -LAB_ESYS);
	lab_c2c_point_end(&s, &ctx); /* never started: records nothing */
	CHECK_EQ_U64(facts.n, 0);
	setenv("PATH", old, 1);
}

/* A perf that ignores SIGINT, or a report that never answers, is killed at its deadline: the
 * point gets the reason and lab run goes on (it waited for ever). */
LAB_TEST(a_hung_perf_is_killed_at_its_deadline)
{
	static const char *const hang[] = {"record", "report"};
	static const char *const said[] = {"perf c2c record did not end in time (killed)",
	                                   "perf c2c report did not end in time (killed)"};
	const char *old = pc_stand_in();
	static struct lab_c2c_report r;

	for (size_t i = 0; i < 2; i++) {
		struct lab_c2c_session s;
		struct lab_err err = {0};
		int pid;

		setenv("LAB_C2C_HANG", hang[i], 1);
		REQUIRE(lab_c2c_start(&s, &err) == 0);
		CHECK_EQ_U64(s.record_end_s, LAB_C2C_RECORD_END_S);
		CHECK_EQ_U64(s.report_s, LAB_C2C_REPORT_S);
		s.record_end_s = s.report_s = 1;
		pid = s.pid;
		CHECK_EQ_I64(lab_c2c_stop(&s, &r, &err), -LAB_ESYS);
		CHECK_EQ_STR(err.msg, said[i]);
		CHECK(s.dir[0] == '\0');                    /* its temporary files are gone */
		CHECK(kill(pid, 0) != 0 && errno == ESRCH); /* and the record process, reaped */
	}
	unsetenv("LAB_C2C_HANG");
	setenv("PATH", old, 1);
}
