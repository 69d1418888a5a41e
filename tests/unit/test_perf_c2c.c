/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The perf c2c report parser on fixture text in perf's --stdio layout (tests/fixtures/perf_c2c):
 * lines with their HITM counts, offsets with shares, code addresses and symbols; broken input.
 */
#include "harness/fileio.h"
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
