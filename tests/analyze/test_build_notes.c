/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The build notes (analyze/compare_build.c): a sanitized run is said so by analyze's text, the
 * report, analysis.json and compare; run.json's "lab" members of another type are read as
 * absent, never as a difference the texts cannot show; C flags differing past the text's cut,
 * the auto kernels' tuning and widest ISA and the OpenMP environment are compared; every part
 * is cut at a character boundary, the cut marked "...".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/compare.h"
#include "analyze/jsonr.h"
#include "tests/analyze/clitest.h"
#include "tests/testlib.h"

static struct lab_an_json *bn_parse(const char *text)
{
	struct lab_an_json *j = NULL;
	struct lab_err err = {0};

	if (lab_an_json_parse("run.json", text, strlen(text), &j, &err)) {
		fprintf(stderr, "fixture not parsed: %s\n", err.msg);
		abort();
	}
	return j;
}

/* {"lab": {LAB}} parsed */
static struct lab_an_json *bn_lab(const char *lab)
{
	char *text = malloc(strlen(lab) + 32);
	struct lab_an_json *j;

	if (!text)
		abort();
	sprintf(text, "{\"lab\": {%s}}", lab);
	j = bn_parse(text);
	free(text);
	return j;
}

/* the diff of two "lab" objects, as its labels */
static void bn_diff(const char *a, const char *b, char *buf, size_t len)
{
	struct lab_an_json *ja = bn_lab(a), *jb = bn_lab(b);

	lab_an_build_diff_text(lab_an_build_diff(ja, jb), buf, len);
	lab_an_json_free(ja);
	lab_an_json_free(jb);
}

/* A member of another type is absent: no "difference" with two identical texts. */
LAB_TEST(wrong_types_read_as_absent)
{
	char buf[LAB_AN_BUILD_TEXT_MAX], other[LAB_AN_BUILD_TEXT_MAX];
	struct lab_an_json *a = bn_lab("\"sanitize\": 5, \"auto_march\": \"native\""),
	                   *b = bn_lab("\"sanitize\": [\"address\"], \"git_dirty\": false");

	bn_diff("\"sanitize\": 5", "\"sanitize\": \"\"", buf, sizeof(buf));
	CHECK_EQ_STR(buf, "");
	bn_diff("\"sanitize\": [\"address\"]", "\"sanitize\": \"\"", buf, sizeof(buf));
	CHECK_EQ_STR(buf, "");
	bn_diff("\"git_dirty\": false", "\"version\": \"0.1.0\"", buf, sizeof(buf));
	CHECK_EQ_STR(buf, "lab version");
	bn_diff("\"git_dirty\": true", "\"git_dirty\": false", buf, sizeof(buf));
	CHECK_EQ_STR(buf, "git dirty flag");
	bn_diff("\"openmp\": \"yes\"", "", buf, sizeof(buf));
	CHECK_EQ_STR(buf, "");
	CHECK(lab_an_build_sanitize(a) == NULL);
	CHECK(lab_an_build_sanitize(b) == NULL);
	lab_an_build_text(a, buf, sizeof(buf));
	lab_an_build_text(b, other, sizeof(other));
	CHECK_EQ_STR(buf, other);
	CHECK_EQ_STR(buf, "lab ? (?), ?");
	CHECK(lab_an_build_diff(a, b) == 0);
	lab_an_json_free(a);
	lab_an_json_free(b);
}

/* C flags that differ only past byte 300 are named, and the texts show where they differ. */
LAB_TEST(flags_differing_past_the_cut)
{
	char flags[400], la[600], lb[600], ta[LAB_AN_BUILD_TEXT_MAX], tb[LAB_AN_BUILD_TEXT_MAX];
	struct lab_an_json *a, *b;

	memset(flags, 'x', 350);
	flags[350] = '\0';
	snprintf(la, sizeof(la), "\"c_flags\": \"%s -O2\"", flags);
	snprintf(lb, sizeof(lb), "\"c_flags\": \"%s -O0\"", flags);
	a = bn_lab(la);
	b = bn_lab(lb);
	lab_an_build_diff_text(lab_an_build_diff(a, b), ta, sizeof(ta));
	CHECK_EQ_STR(ta, "C flags");
	lab_an_build_text_vs(a, b, ta, sizeof(ta));
	lab_an_build_text_vs(b, a, tb, sizeof(tb));
	CHECK(strcmp(ta, tb) != 0);
	CHECK(strstr(ta, "C flags (the first 313 bytes the same) \"...") != NULL);
	CHECK(strstr(ta, "xx -O2\"") != NULL);
	CHECK(strstr(tb, "xx -O0\"") != NULL);
	/* alone, the flags are cut at 300 bytes, the cut marked */
	lab_an_build_text(a, ta, sizeof(ta));
	CHECK(strstr(ta, "xxx...\"") != NULL);
	lab_an_json_free(a);
	lab_an_json_free(b);
}

/* Any part that differs only past what its text keeps (a target of 310 'x' then A or B) is
 * shown from a little before the difference: the two texts read the same. */
LAB_TEST(any_part_differing_past_the_cut)
{
	char lab[2][512], buf[2][LAB_AN_BUILD_TEXT_MAX];
	struct lab_an_json *j[2];

	for (int i = 0; i < 2; i++) {
		int n = snprintf(lab[i], sizeof(lab[i]),
		                 "\"auto_march\": {\"flag\": \"native\", \"arch\": \"");
		memset(lab[i] + n, 'x', 310);
		snprintf(lab[i] + n + 310, sizeof(lab[i]) - (size_t)n - 310, "%c\"}", "AB"[i]);
		j[i] = bn_lab(lab[i]);
	}
	lab_an_build_text_vs(j[0], j[1], buf[0], sizeof(buf[0]));
	lab_an_build_text_vs(j[1], j[0], buf[1], sizeof(buf[1]));
	CHECK(strcmp(buf[0], buf[1]) != 0);
	CHECK(strstr(buf[0], "(the first 290 bytes the same) ...xxxxxxxxxxxxxxxxxxxxA") != NULL);
	lab_an_build_text(j[0], buf[1], sizeof(buf[1])); /* alone: clipped as before */
	CHECK(strstr(buf[1], "the same") == NULL);
	for (int i = 0; i < 2; i++)
		lab_an_json_free(j[i]);
	/* one a prefix of the other, both shown whole: each from its start */
	j[0] = bn_lab("\"auto_march\": {\"flag\": \"x86-64\"}, \"c_flags\": \"-O2\"");
	j[1] = bn_lab("\"auto_march\": {\"flag\": \"x86-64-v4\"}, \"c_flags\": \"-O2 -g\"");
	lab_an_build_text_vs(j[0], j[1], buf[0], sizeof(buf[0]));
	CHECK(strstr(buf[0], "the same") == NULL);
	CHECK(strstr(buf[0], "C flags \"-O2\"") && strstr(buf[0], "auto -march=x86-64 ("));
	for (int i = 0; i < 2; i++)
		lab_an_json_free(j[i]);
}

/* The auto kernels' tuning and widest ISA and the OpenMP environment are compared and shown. */
LAB_TEST(tune_isa_and_omp_env_compared)
{
	char buf[LAB_AN_BUILD_TEXT_MAX];
	struct lab_an_json *a;

	bn_diff("\"auto_march\": {\"tune\": \"znver3\", \"isa\": \"avx2\"}",
	        "\"auto_march\": {\"tune\": \"generic\", \"isa\": \"avx512\"}", buf, sizeof(buf));
	CHECK_EQ_STR(buf, "tuning of the auto kernels, widest ISA of the auto kernels");
	bn_diff("\"openmp_env\": {\"OMP_WAIT_POLICY\": \"active\"}", "\"openmp_env\": {}", buf,
	        sizeof(buf));
	CHECK_EQ_STR(buf, "OpenMP environment");
	bn_diff("\"openmp_env\": {\"GOMP_SPINCOUNT\": \"0\"}",
	        "\"openmp_env\": {\"GOMP_SPINCOUNT\": \"0\"}", buf, sizeof(buf));
	CHECK_EQ_STR(buf, "");
	a = bn_lab("\"openmp\": true, \"openmp_env\": {\"OMP_WAIT_POLICY\": \"passive\", "
	           "\"GOMP_SPINCOUNT\": \"0\"}, \"auto_march\": {\"flag\": \"native\", "
	           "\"arch\": \"znver3\", \"tune\": \"znver3\", \"isa\": \"avx2\"}");
	lab_an_build_text(a, buf, sizeof(buf));
	CHECK_EQ_STR(buf,
	             "lab ? (?), ?, OpenMP, OpenMP env OMP_WAIT_POLICY=passive "
	             "GOMP_SPINCOUNT=0, auto -march=native (znver3, tune znver3, widest avx2)");
	lab_an_json_free(a);
}

/* Two OMP_PLACES lists that differ past the 40 bytes a value keeps read differently. */
LAB_TEST(omp_env_values_differing_late_read_differently)
{
	char ta[LAB_AN_BUILD_TEXT_MAX], tb[LAB_AN_BUILD_TEXT_MAX];
	struct lab_an_json *a = bn_lab("\"openmp_env\": {\"OMP_PLACES\": "
	                               "\"{0},{1},{2},{3},{4},{5},{6},{7},{8},{9},{10},{11}\"}"),
	                   *b = bn_lab("\"openmp_env\": {\"OMP_PLACES\": "
	                               "\"{0},{1},{2},{3},{4},{5},{6},{7},{8},{9},{10},{12}\"}");

	lab_an_build_text_vs(a, b, ta, sizeof(ta));
	lab_an_build_text_vs(b, a, tb, sizeof(tb));
	CHECK(strcmp(ta, tb) != 0);
	CHECK(strstr(ta, "OMP_PLACES=(the first 27 bytes the same) ...") != NULL);
	CHECK(strstr(ta, "{11}") != NULL && strstr(tb, "{12}") != NULL);
	lab_an_build_text(a, ta, sizeof(ta)); /* alone: from its start, cut */
	CHECK(strstr(ta, "OMP_PLACES={0},{1},") != NULL && strstr(ta, "...") != NULL);
	lab_an_json_free(a);
	lab_an_json_free(b);
}

/* Builds that differ only in the auto kernels' -march change only the isa=auto points (the
 * other variant files are compiled alike): compare said every row's change may be the build's.
 * Only the OpenMP environment: the OpenMP kernels' points. Anything else: all. */
static const char *bn_scope(const char *a, const char *b)
{
	struct lab_an_json *ja = bn_lab(a), *jb = bn_lab(b);
	const char *scope = lab_an_build_diff_scope(lab_an_build_diff(ja, jb));

	lab_an_json_free(ja);
	lab_an_json_free(jb);
	return scope;
}

LAB_TEST(build_difference_scope)
{
	CHECK_EQ_STR(bn_scope("\"auto_march\": {\"flag\": \"x86-64\", \"arch\": \"x86-64\"}",
	                      "\"auto_march\": {\"flag\": \"x86-64-v4\", \"arch\": \"x86-64-v4\"}"),
	             "isa=auto");
	CHECK_EQ_STR(
	    bn_scope("\"openmp_env\": {\"OMP_WAIT_POLICY\": \"active\"}", "\"openmp_env\": {}"),
	    "openmp");
	CHECK_EQ_STR(bn_scope("\"c_flags\": \"-O2\", \"auto_march\": {\"flag\": \"native\"}",
	                      "\"c_flags\": \"-O3\", \"auto_march\": {\"flag\": \"x86-64\"}"),
	             "all");
	CHECK_EQ_STR(bn_scope("\"openmp_env\": {}, \"auto_march\": {\"flag\": \"native\"}",
	                      "\"openmp_env\": {\"GOMP_SPINCOUNT\": \"0\"}, "
	                      "\"auto_march\": {\"flag\": \"x86-64\"}"),
	             "all");
	CHECK_EQ_STR(lab_an_build_diff_scope(0), "all");
}

/* A part one side did not record is not known to differ: a run.json of before auto_march
 * against a newer one was "built differently, in -march of the auto kernels, ...", and a
 * run.json whose "lab" is no object differed in every part. */
LAB_TEST(unrecorded_parts_do_not_differ)
{
	char buf[LAB_AN_BUILD_TEXT_MAX];
	struct lab_an_json *a = bn_parse("{\"lab\": [1, 2]}"), *b = bn_lab("\"compiler\": \"gcc\"");

	bn_diff(
	    "\"compiler\": \"gcc\"",
	    "\"compiler\": \"gcc\", \"auto_march\": {\"flag\": \"native\", \"arch\": \"znver3\"}",
	    buf, sizeof(buf));
	CHECK_EQ_STR(buf, "");
	bn_diff("\"auto_march\": {\"flag\": \"x86-64\"}", "\"auto_march\": {\"flag\": \"native\"}",
	        buf, sizeof(buf));
	CHECK_EQ_STR(buf, "-march of the auto kernels");
	CHECK_EQ_U64(lab_an_build_diff(a, b), 0);
	lab_an_json_free(a);
	lab_an_json_free(b);
}

/* 1 when s is whole UTF-8 (no character cut) */
static int bn_utf8_whole(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		int n = *p < 0x80 ? 1 : (*p & 0xe0) == 0xc0 ? 2 : (*p & 0xf0) == 0xe0 ? 3 : 4;

		for (int k = 1; k < n; k++)
			if ((p[k] & 0xc0) != 0x80)
				return 0;
		p += n;
	}
	return 1;
}

/* Texts are cut at a character boundary, a cut marked; a 100 000-byte sanitizer list too. */
LAB_TEST(texts_cut_at_characters)
{
	size_t n = 100000;
	char *lab = malloc(n + 256), buf[LAB_AN_BUILD_NOTE_MAX];
	struct lab_an_json *a;

	REQUIRE(lab);
	strcpy(lab, "\"version\": \"x");
	for (size_t i = strlen(lab); i < n; i += 2)
		memcpy(lab + i, "\xc3\xa9", 2); /* é */
	strcpy(lab + n, "\", \"sanitize\": \"a");
	for (size_t i = n + strlen(lab + n); i < n + 200; i += 2)
		memcpy(lab + i, "\xc3\xa9", 2);
	strcpy(lab + n + 200, "\"");
	a = bn_lab(lab);
	lab_an_build_text(a, buf, sizeof(buf));
	CHECK(bn_utf8_whole(buf));
	CHECK(strstr(buf, "... (?)") != NULL);
	CHECK(strlen(buf) < 400);
	CHECK(lab_an_build_sanitize_note(a, buf, sizeof(buf)) == 1);
	CHECK(bn_utf8_whole(buf));
	CHECK(strstr(buf, "...): the times are") != NULL);
	lab_an_json_free(a);
	free(lab);
}

/* A whole text longer than its buffer (60 OpenMP variables of 30 two-byte characters) is cut at
 * a character too, the cut marked: it ended in half an "é" at every other buffer length. */
LAB_TEST(whole_text_cut_at_characters)
{
	char lab[8192], buf[LAB_AN_BUILD_TEXT_MAX];
	size_t at = (size_t)snprintf(lab, sizeof(lab), "\"openmp_env\": {");
	struct lab_an_json *a;

	for (int k = 0; k < 60; k++) {
		at += (size_t)snprintf(lab + at, sizeof(lab) - at, "%s\"OMP_%d\": \"",
		                       k ? ", " : "", k);
		for (int i = 0; i < 30; i++)
			at += (size_t)snprintf(lab + at, sizeof(lab) - at, "\xc3\xa9");
		at += (size_t)snprintf(lab + at, sizeof(lab) - at, "\"");
	}
	snprintf(lab + at, sizeof(lab) - at, "}");
	a = bn_lab(lab);
	for (size_t len = 16; len <= sizeof(buf); len += 7) {
		lab_an_build_text(a, buf, len);
		CHECK(bn_utf8_whole(buf));
		CHECK(strlen(buf) < len);
		/* every length cuts (the text is longer): marked, unless under 3 bytes were left */
		CHECK(!strcmp(buf + strlen(buf) - 3, "...") || strlen(buf) + 3 >= len);
	}
	lab_an_json_free(a);
}

/* tests/fixtures REL (copied) with its first from replaced by to */
static void bn_patch(const char *rel, const char *from, const char *to)
{
	char path[2048], *text, *at;
	FILE *f;

	REQUIRE((text = clitest_read(rel)));
	REQUIRE((at = strstr(text, from)));
	*at = '\0';
	snprintf(path, sizeof(path), "%s/%s", testlib_tmpdir(), rel);
	REQUIRE((f = fopen(path, "w")));
	fprintf(f, "%s%s%s", text, to, at + strlen(from));
	fclose(f);
	free(text);
}

/* A sanitized run is said so by the report and analysis.json, as by analyze's text. */
LAB_TEST(report_and_json_say_sanitized)
{
	char *out = NULL, *err = NULL, *html;
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};
	const struct lab_an_json *b;

	clitest_copy("results-compare-b");
	bn_patch("results-compare-b/run.json", "\"sanitize\": \"\",",
	         "\"sanitize\": \"address,undefined\",");
	REQUIRE(clitest_run(NULL, "analyze results-compare-b --no-plots", &out, &err) == 0);
	CHECK(strstr(out, "build: sanitized (sanitize=address,undefined): the times are") != NULL);
	free(out);
	free(err);
	REQUIRE((html = clitest_read("results-compare-b/report.html")));
	CHECK(strstr(html, "build: sanitized (sanitize=address,undefined): the times are") != NULL);
	free(html);
	REQUIRE((out = clitest_read("results-compare-b/analysis.json")));
	REQUIRE(lab_an_json_parse("analysis.json", out, strlen(out), &j, &e) == 0);
	b = lab_an_json_get(j, "build");
	CHECK_EQ_STR(lab_an_json_str(b, "sanitize"), "address,undefined");
	CHECK(lab_an_json_str(b, "sanitized") != NULL);
	CHECK(strstr(lab_an_json_str(b, "text"), "sanitize=address,undefined") != NULL);
	lab_an_json_free(j);
	free(out);
}

/* compare says a sanitized side, and both (identically), beside its verdicts. */
LAB_TEST(compare_says_sanitized)
{
	char *out = NULL, *err = NULL;
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};

	clitest_copy("results-compare-a");
	clitest_copy("results-compare-b");
	bn_patch("results-compare-b/run.json", "\"sanitize\": \"\",", "\"sanitize\": \"thread\",");
	REQUIRE(clitest_run(NULL, "compare results-compare-a results-compare-b", &out, &err) == 0);
	CHECK(strstr(out, "note: the new run was built with sanitizers (sanitize=thread): the "
	                  "verdicts are of the sanitizer's instrumented code") != NULL);
	free(out);
	free(err);
	bn_patch("results-compare-a/run.json", "\"sanitize\": \"\",", "\"sanitize\": \"thread\",");
	REQUIRE(clitest_run(NULL, "compare results-compare-a results-compare-b", &out, &err) == 0);
	CHECK(strstr(out, "note: both runs were built with sanitizers (sanitize=thread)") != NULL);
	CHECK(strstr(out, "built differently") == NULL);
	free(out);
	free(err);
	REQUIRE(clitest_run(NULL, "compare results-compare-a results-compare-b --json", &out,
	                    &err) == 0);
	REQUIRE(lab_an_json_parse("stdout", out, strlen(out), &j, &e) == 0);
	CHECK(strstr(lab_an_json_str(lab_an_json_get(j, "builds"), "sanitized"), "both runs") !=
	      NULL);
	lab_an_json_free(j);
	free(out);
	free(err);
}
