/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Results directories are untrusted input (issue 12). Injection: experiment names, params and
 * work_unit crafted to run a command if gnuplot ever read them as code (backquote, a " or '
 * breakout followed by system, a newline, an @macro) go through a real `lab analyze` and
 * `lab report` with gnuplot installed, and no file named pwned may appear. HTML: <script> in
 * the same fields and in run.json's provenance strings never reaches report.html as markup.
 * The cases that need gnuplot exit 77 (skipped) without it.
 */
#include <ftw.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze/csv.h"
#include "analyze/plots.h"
#include "analyze/plots_int.h"
#include "harness/record_schema.h"
#include "tests/analyze/clitest.h"
#include "tests/testlib.h"

/* The fixtures and, per fixture, the text each field holds (experiment, a params value,
 * work_unit) that the payload replaces. */
static const struct ut_fix {
	const char *name, *exp, *param, *unit;
} ut_fix[] = {
    {"results-usl", "contend", "compact", "op"},
    {"results-locks", "locks", "mcs", "acquire"},
    {"results-c2c", "c2c", "load_store", "roundtrip"},
};

static char *ut_subst(const char *s, const char *needle, const char *with)
{
	const char *p = strstr(s, needle);
	char *out;

	if (!p)
		return strdup(s);
	out = malloc(strlen(s) + strlen(with) + 1);
	if (out)
		sprintf(out, "%.*s%s%s", (int)(p - s), s, with, p + strlen(needle));
	return out;
}

/* Writes s as the inside of a JSON string to f. */
static void ut_json_put(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
}

/* Rewrites DIR/run.json: each JSON string that is exactly needle[c] (c < n) becomes with[c]
 * (escaped). ut_edit_samples calls it so that both files still describe the same points (the
 * loader refuses a samples.csv that contradicts run.json). */
static void ut_edit_run(const char *dir, size_t n, const char *const *needle,
                        const char *const *with)
{
	char rel[1024], path[2048], *text;
	FILE *f;

	snprintf(rel, sizeof(rel), "%s/run.json", dir);
	snprintf(path, sizeof(path), "%s/%s", testlib_tmpdir(), rel);
	REQUIRE((text = clitest_read(rel)));
	REQUIRE((f = fopen(path, "w")));
	for (const char *p = text; *p;) {
		int hit = -1;

		for (int c = 0; c < (int)n && hit < 0; c++) {
			size_t nl = strlen(needle[c]);
			if (*p == '"' && !strncmp(p + 1, needle[c], nl) && p[1 + nl] == '"')
				hit = c;
		}
		if (hit < 0) {
			fputc(*p++, f);
			continue;
		}
		fputc('"', f);
		ut_json_put(f, with[hit]);
		fputc('"', f);
		p += strlen(needle[hit]) + 2;
	}
	REQUIRE(fclose(f) == 0);
	free(text);
}

/* Rewrites DIR/samples.csv: in every row, the first needle[c] of column col[c] becomes with. */
static void ut_edit_samples(const char *dir, const struct ut_fix *fx, const char *with)
{
	static const int col[3] = {0, 3, 8};
	const char *needle[3] = {fx->exp, fx->param, fx->unit};
	char path[2048], tmp[2100];
	struct lab_an_csv r;
	struct lab_err e = {0};
	FILE *f;
	/* A params value cannot hold ';' or '=' (the reader refuses them, exit 2): the payload
	 * goes in without them there, and whole everywhere else. */
	char pwith[256];

	snprintf(pwith, sizeof(pwith), "%s", with);
	for (char *q = pwith; *q; q++)
		if (*q == ';' || *q == '=')
			*q = ',';
	snprintf(path, sizeof(path), "%s/%s/samples.csv", testlib_tmpdir(), dir);
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	f = fopen(tmp, "w");
	if (!f || lab_an_csv_open(&r, path, &e)) {
		fprintf(stderr, "cannot rewrite %s\n", path);
		testlib_fail();
		return;
	}
	for (int line = 0; lab_an_csv_next(&r, &e) == 1; line++) {
		for (size_t i = 0; i < r.nfield; i++) {
			char *v = NULL;

			for (int c = 0; c < 3 && line; c++)
				if ((int)i == col[c])
					v = ut_subst(r.field[i], needle[c], c == 1 ? pwith : with);
			if (i)
				fputc(',', f);
			lab_csv_field(f, v ? v : r.field[i]);
			free(v);
		}
		fputc('\n', f);
	}
	lab_an_csv_close(&r);
	fclose(f);
	rename(tmp, path);
	ut_edit_run(dir, 3, needle, (const char *const[]){with, pwith, with});
}

/* A fresh copy of fixture fx with payload in its fields (ut_edit_samples), then `lab VERB DIR`
 * on it, which must succeed. */
static void ut_run_payload(const struct ut_fix *fx, const char *payload, const char *verb)
{
	char *out = NULL, *err = NULL, cmd[256];

	clitest_copy(fx->name);
	ut_edit_samples(fx->name, fx, payload);
	snprintf(cmd, sizeof(cmd), "%s %s", verb, fx->name);
	CHECK_EQ_I64(clitest_run("PATH=/nonexistent", cmd, &out, &err), 0);
	free(out);
	free(err);
}

static size_t ut_pwned;

static int ut_visit(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	if (!strncmp(path + ftw->base, "pwned", 5)) {
		fprintf(stderr, "found %s\n", path);
		ut_pwned++;
	}
	return 0;
}

/* Files named pwned* anywhere below the case's tmpdir. */
static size_t ut_count_pwned(void)
{
	ut_pwned = 0;
	nftw(testlib_tmpdir(), ut_visit, 16, FTW_PHYS);
	return ut_pwned;
}

/* The payload in every field of every fixture, analyzed and reported with gnuplot. */
static void ut_inject(const char *payload)
{
	char *out = NULL, *err = NULL, cmd[256];

	if (!lab_an_have_program("gnuplot")) {
		SKIP("needs gnuplot (scripts/deps.sh installs gnuplot-nox)");
	}
	for (size_t i = 0; i < sizeof(ut_fix) / sizeof(ut_fix[0]); i++) {
		clitest_copy(ut_fix[i].name);
		ut_edit_samples(ut_fix[i].name, &ut_fix[i], payload);
		snprintf(cmd, sizeof(cmd), "analyze %s", ut_fix[i].name);
		CHECK_EQ_I64(clitest_run(NULL, cmd, &out, &err), 0);
		CHECK(strstr(err, "gnuplot failed") == NULL);
		free(out);
		free(err);
		snprintf(cmd, sizeof(cmd), "report %s", ut_fix[i].name);
		CHECK_EQ_I64(clitest_run(NULL, cmd, &out, &err), 0);
		free(out);
		free(err);
		CHECK(clitest_exists(ut_fix[i].name));
	}
	CHECK_EQ_U64(ut_count_pwned(), 0);
}

LAB_TEST(gnuplot_backquote)
{
	ut_inject("n`touch pwned`");
}

LAB_TEST(gnuplot_double_quote_breakout)
{
	ut_inject("x\"; system \"touch pwned\"; print \"");
	ut_inject("x\".system(\"touch pwned\").\"");
}

LAB_TEST(gnuplot_single_quote_breakout)
{
	ut_inject("x'; system \"touch pwned\"; print '");
	ut_inject("x'.system(\"touch pwned\").'");
}

LAB_TEST(gnuplot_newline)
{
	ut_inject("x\n!touch pwned\nsystem \"touch pwned\"\n");
	ut_inject("x\r\nsystem \"touch pwned\" \\\n");
}

LAB_TEST(gnuplot_macro)
{
	ut_inject("x'; c = \"system('touch pwned')\"; @c; '");
	ut_inject("@c `touch pwned` @GPVAL_PWD");
}

/* The literal itself: balanced quotes, nothing gnuplot would expand. */
LAB_TEST(gnuplot_literal)
{
	/* hostile29: the svg terminal keeps "&#x...;" and "]]>" as XML: a bidi override in the
	 * plot, or no XML at all */
	/* well-formed UTF-8 is kept (hostile45: each byte of "café" was a '?'); malformed bytes,
	 * a bidi override (U+202E), a C1 control (U+0085) and U+FFFE (no XML character) are not */
	static const char *const in[] = {"a'b",
	                                 "n`x`",
	                                 "@m",
	                                 "l1\nl2",
	                                 "caf\xc3\xa9 \xe2\x89\xa5 2 \xc2\xb5s",
	                                 "\\",
	                                 "lk&#x202e;gnp",
	                                 "a]]>b",
	                                 "]>",
	                                 "x\xc3(\xff\xe2\x80\xaey\xc2\x85z\xef\xbf\xbe"};
	static const char *const want[] = {"'a''b'",
	                                   "'n_x_'",
	                                   "'_m'",
	                                   "'l1 l2'",
	                                   "'caf\xc3\xa9 \xe2\x89\xa5 2 \xc2\xb5s'",
	                                   "'\\'",
	                                   "'lk+#x202e;gnp'",
	                                   "'a]]?b'",
	                                   "']>'",
	                                   "'x?(????y??"
	                                   "z??"
	                                   "?'"};
	char buf[256];

	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		FILE *f = fmemopen(buf, sizeof(buf), "w");

		REQUIRE(f);
		lab_an_gp_str(f, in[i]);
		fclose(f);
		CHECK_EQ_STR(buf, want[i]);
	}
}

/* report.html holds no markup from the files: no <script, no injected attribute. */
static void ut_html_check(const char *dir, int has_script)
{
	char path[2048], *html = NULL;
	size_t len;
	struct lab_err e = {0};

	snprintf(path, sizeof(path), "%s/%s/report.html", testlib_tmpdir(), dir);
	REQUIRE(lab_an_file_read(path, &html, &len, &e) == 0);
	for (char *p = html; *p; p++)
		if (!strncasecmp(p, "<script", 7) || !strncasecmp(p, "<img src=x", 10) ||
		    !strncasecmp(p, "\" onx=", 6) || !strncasecmp(p, "' onx=", 6)) {
			fprintf(stderr, "markup from the files at: %.60s\n", p);
			testlib_fail();
			break;
		}
	if (has_script)
		CHECK(strstr(html, "&lt;script&gt;") != NULL);
	free(html);
}

LAB_TEST(html_escapes_samples)
{
	static const char *const payload[] = {
	    "<script>alert(1)</script>",
	    "\"><img src=x onerror=alert(1)>\" onx=", "'><script>x</script>' onx="};
	for (size_t k = 0; k < sizeof(payload) / sizeof(payload[0]); k++)
		for (size_t i = 0; i < sizeof(ut_fix) / sizeof(ut_fix[0]); i++) {
			ut_run_payload(&ut_fix[i], payload[k], "report");
			ut_html_check(ut_fix[i].name, k != 1);
		}
}

/* Every CSV file written under dir holds no control byte but the line ends, no C1 control and
 * no bidi control (a file read in a terminal must not be driven by the results it came from). */
static int ut_csv_clean(const char *fpath, const struct stat *sb, int type, struct FTW *ftw)
{
	char *text = NULL;
	size_t len = 0;
	struct lab_err e = {0};

	(void)sb;
	(void)ftw;
	const char *base = strrchr(fpath, '/') ? strrchr(fpath, '/') + 1 : fpath;

	if (type != FTW_F || !strstr(base, ".csv") || !strcmp(base, "samples.csv") ||
	    !strcmp(base, "threads.csv") || lab_an_file_read(fpath, &text, &len, &e))
		return 0; /* the analyzer's own files, not its inputs */
	for (size_t i = 0; i < len; i++) {
		const unsigned char *u = (const unsigned char *)text + i;

		if ((*u < 0x20 && *u != '\n') || *u == 0x7f ||
		    (*u == 0xc2 && u[1] >= 0x80 && u[1] <= 0x9f) ||
		    (*u == 0xe2 && u[1] == 0x80 && u[2] >= 0xaa && u[2] <= 0xae)) {
			fprintf(stderr, "%s: byte 0x%02x at %zu\n", fpath, *u, i);
			ut_pwned++;
			break;
		}
	}
	free(text);
	return 0;
}

LAB_TEST(csv_escapes_controls)
{
	char dir[2048];

	for (size_t i = 0; i < sizeof(ut_fix) / sizeof(ut_fix[0]); i++) {
		ut_run_payload(&ut_fix[i],
		               "a\x1b[2Kb\rc\xc2\x9b"
		               "d\xe2\x80\xaeq\x7f",
		               "analyze --no-plots");
		snprintf(dir, sizeof(dir), "%s/%s", testlib_tmpdir(), ut_fix[i].name);
		ut_pwned = 0;
		nftw(dir, ut_csv_clean, 8, FTW_PHYS);
		CHECK_EQ_U64(ut_pwned, 0);
	}
}

LAB_TEST(html_escapes_provenance)
{
	static const char *const needle[] = {
	    "Synthetic CPU @ 2.6GHz", "fixture", "gcc 12.2.0", "6.1.0", "-O2 -g",
	    "2026-11-29T10:00:00Z"};
	const char *with[sizeof(needle) / sizeof(needle[0])];
	char *out = NULL, *err = NULL;

	for (size_t i = 0; i < sizeof(needle) / sizeof(needle[0]); i++)
		with[i] = "<script>alert(1)</script>\" onx=";
	clitest_copy("results-usl");
	ut_edit_run("results-usl", sizeof(needle) / sizeof(needle[0]), needle, with);
	CHECK_EQ_I64(clitest_run("PATH=/nonexistent", "report results-usl", &out, &err), 0);
	ut_html_check("results-usl", 1);
	free(out);
	free(err);
}

/* 1 when CSV field f (unquoted, len bytes) would be a formula to a spreadsheet. */
static int ut_formula(const char *f, size_t len)
{
	char num[64], *end;

	if (!len || (*f != '=' && *f != '@' && *f != '+' && *f != '-'))
		return 0;
	if (*f == '=' || *f == '@' || len >= sizeof(num))
		return 1;
	memcpy(num, f, len);
	num[len] = '\0';
	(void)strtod(num, &end);
	return end == num || *end;
}

/* Every field of every CSV file the analyzer wrote under dir: none a spreadsheet would run. */
static int ut_csv_no_formula(const char *fpath, const struct stat *sb, int type, struct FTW *ftw)
{
	struct lab_an_csv r;
	struct lab_err e = {0};
	const char *base = strrchr(fpath, '/') ? strrchr(fpath, '/') + 1 : fpath;

	(void)sb;
	(void)ftw;
	if (type != FTW_F || !strstr(base, ".csv") || !strcmp(base, "samples.csv") ||
	    !strcmp(base, "threads.csv") || lab_an_csv_open(&r, fpath, &e))
		return 0;
	while (lab_an_csv_next(&r, &e) == 1)
		for (size_t i = 0; i < r.nfield; i++)
			if (ut_formula(r.field[i], strlen(r.field[i]))) {
				fprintf(stderr, "%s: a formula field: %s\n", fpath, r.field[i]);
				ut_pwned++;
			}
	lab_an_csv_close(&r);
	return 0;
}

/* A name, param or unit from the files that a spreadsheet reads as a formula (a link, a
 * command) was written to summary.csv as it was; now it starts with an apostrophe. */
LAB_TEST(csv_formula_is_text)
{
	static const char *const payload[] = {"=HYPERLINK(\"http://evil.example/x\",\"y\")",
	                                      "@SUM(A1)", "+cmd|' /C calc'!A0", "-2+3"};
	char dir[2048];

	for (size_t k = 0; k < sizeof(payload) / sizeof(payload[0]); k++)
		for (size_t i = 0; i < sizeof(ut_fix) / sizeof(ut_fix[0]); i++) {
			ut_run_payload(&ut_fix[i], payload[k], "analyze --no-plots");
			snprintf(dir, sizeof(dir), "%s/%s", testlib_tmpdir(), ut_fix[i].name);
			ut_pwned = 0;
			nftw(dir, ut_csv_no_formula, 8, FTW_PHYS);
			CHECK_EQ_U64(ut_pwned, 0);
		}
}

/* Bytes of no valid UTF-8 and bidi controls in run.json reached report.html raw (the text output
 * escaped them): an RLO reorders what follows it on the page, a zero-width space hides. Now as
 * in the text: \xHH, \uXXXX. */
LAB_TEST(html_escapes_bidi_and_bad_utf8)
{
	static const char *const needle[] = {"Synthetic CPU @ 2.6GHz", "fixture"};
	static const char *const with[] = {"cpu\xff\xfe\xc0\x80z",
	                                   "vm\xe2\x80\xae"
	                                   "evil\xe2\x81\xa6x\xe2\x80\x8by"};
	char *out = NULL, *err = NULL, path[2048], *html = NULL;
	size_t len;
	struct lab_err e = {0};

	clitest_copy("results-usl");
	ut_edit_run("results-usl", 2, needle, with);
	CHECK_EQ_I64(clitest_run("PATH=/nonexistent", "report results-usl", &out, &err), 0);
	snprintf(path, sizeof(path), "%s/results-usl/report.html", testlib_tmpdir());
	REQUIRE(lab_an_file_read(path, &html, &len, &e) == 0);
	CHECK(strstr(html, "cpu\\xff\\xfe\\xc0\\x80z") != NULL);
	CHECK(strstr(html, "vm\\u202eevil\\u2066x\\u200by") != NULL);
	CHECK(memchr(html, 0xff, len) == NULL);
	CHECK(strstr(html, "\xe2\x80\xae") == NULL);
	CHECK(strstr(html, "\xe2\x81\xa6") == NULL);
	free(html);
	free(out);
	free(err);
}

/* A victim file outside the results directory, its content, and a link to it at DIR/rel. */
static void ut_link(const char *rel, const char *target)
{
	char path[2048];

	snprintf(path, sizeof(path), "%s/results-usl/%s", testlib_tmpdir(), rel);
	if (symlink(target, path) != 0) {
		fprintf(stderr, "symlink %s: failed\n", path);
		testlib_fail();
	}
}

static void ut_victim(void)
{
	char path[2048];
	FILE *f;

	snprintf(path, sizeof(path), "%s/victim", testlib_tmpdir());
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/victim/keep.png", testlib_tmpdir());
	f = fopen(path, "w");
	if (f) {
		fputs("precious\n", f);
		fclose(f);
	}
}

/* The victim is intact and the refusal says why; exit 1, nothing written. */
static void ut_refused(const char *cmd, const char *what)
{
	char *out = NULL, *err = NULL, path[2048], *buf = NULL;
	size_t len;
	struct lab_err e = {0};

	CHECK_EQ_I64(clitest_run(NULL, cmd, &out, &err), 1);
	CHECK(strstr(err, what) != NULL);
	CHECK(strstr(err, "symbolic link") != NULL);
	snprintf(path, sizeof(path), "%s/victim/keep.png", testlib_tmpdir());
	REQUIRE(lab_an_file_read(path, &buf, &len, &e) == 0);
	CHECK_EQ_STR(buf, "precious\n");
	if (!strstr(what, "report.html")) /* else stat follows the link to the victim */
		CHECK(!clitest_exists("results-usl/report.html"));
	CHECK(!clitest_exists("results-usl/plots/series00-contend-speedup-placement_compact.gp"));
	free(buf);
	free(out);
	free(err);
}

LAB_TEST(symlink_plots_dir)
{
	clitest_copy("results-usl");
	ut_victim();
	ut_link("plots", "../victim");
	ut_refused("analyze results-usl", "results-usl/plots");
	CHECK(!clitest_exists("results-usl/summary.csv"));
}

LAB_TEST(symlink_in_plots_dir)
{
	char path[2048];

	clitest_copy("results-usl");
	ut_victim();
	snprintf(path, sizeof(path), "%s/results-usl/plots", testlib_tmpdir());
	mkdir(path, 0755);
	ut_link("plots/series00-contend-speedup-placement_compact.svg", "../../victim/keep.png");
	ut_refused("report results-usl", "plots/series00-contend-speedup-placement_compact.svg");
}

LAB_TEST(symlink_summary_csv)
{
	clitest_copy("results-usl");
	ut_victim();
	ut_link("summary.csv", "../victim/keep.png");
	ut_refused("analyze results-usl", "results-usl/summary.csv");
}

LAB_TEST(symlink_analysis_json)
{
	clitest_copy("results-usl");
	ut_victim();
	ut_link("analysis.json", "../victim/keep.png");
	ut_refused("analyze results-usl --no-plots", "results-usl/analysis.json");
	CHECK(!clitest_exists("results-usl/summary.csv"));
}

LAB_TEST(symlink_report_html)
{
	clitest_copy("results-usl");
	ut_victim();
	ut_link("report.html", "../victim/keep.png");
	ut_refused("report results-usl", "results-usl/report.html");
	CHECK(!clitest_exists("results-usl/summary.csv"));
}

/* A dangling link is refused too (O_CREAT would otherwise create its target). */
LAB_TEST(symlink_dangling_summary)
{
	clitest_copy("results-usl");
	ut_victim();
	ut_link("summary.csv", "../victim/created");
	ut_refused("analyze results-usl", "results-usl/summary.csv");
	CHECK(!clitest_exists("victim/created"));
}
