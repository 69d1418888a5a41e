/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * report.html in headless Chromium (Debian's chromium package): the page loads without console
 * messages, every plot image decodes (a copy of the page with a checking script appended reports
 * loaded/total images in its title), and the report itself holds no script. Exits 77 (ctest:
 * skipped) with a message when chromium or gnuplot is not installed.
 */
#include <sys/wait.h>

#include "analyze/csv.h"
#include "analyze/plots.h"
#include "tests/testlib.h"

static const char rp_check[] =
    "<script>window.addEventListener('load', function () { var im = document.images, ok = 0;"
    " for (var i = 0; i < im.length; i++) if (im[i].complete && im[i].naturalWidth > 0) ok++;"
    " document.title = 'LABCHECK imgs=' + im.length + ' ok=' + ok + ' END'; });</script>";

static const char *rp_browser(void)
{
	static const char *const names[] = {"chromium", "chromium-browser", "google-chrome"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (lab_an_have_program(names[i]))
			return names[i];
	return NULL;
}

/* Loads file:// page in the browser; the dumped DOM and the log land in the tmpdir. */
static int rp_load(const char *browser, const char *page, char **dom, char **log)
{
	char cmd[4096];
	size_t len;
	int st;

	snprintf(
	    cmd, sizeof(cmd),
	    "cd %s && timeout 120 %s --headless --no-sandbox --disable-gpu "
	    "--virtual-time-budget=5000 --enable-logging=stderr --v=0 --dump-dom 'file://%s/%s' "
	    ">dom.txt 2>log.txt",
	    testlib_tmpdir(), browser, testlib_tmpdir(), page);
	st = system(cmd);
	snprintf(cmd, sizeof(cmd), "%s/dom.txt", testlib_tmpdir());
	lab_an_file_read(cmd, dom, &len, NULL);
	snprintf(cmd, sizeof(cmd), "%s/log.txt", testlib_tmpdir());
	lab_an_file_read(cmd, log, &len, NULL);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

LAB_TEST(report_renders_in_chromium)
{
	const char *browser = rp_browser();
	char cmd[4096], *html = NULL, *dom = NULL, *log = NULL, *body;
	int imgs = -1, ok = -2;
	size_t len;
	FILE *f;

	if (!browser || !lab_an_have_program("gnuplot")) {
		SKIP("needs %s (scripts/deps.sh --ci installs chromium and gnuplot-nox)",
		     !browser ? "chromium" : "gnuplot");
	}
	snprintf(cmd, sizeof(cmd),
	         "cp -r %s/tests/fixtures/results-usl %s/ && %s/lab/lab report "
	         "%s/results-usl >/dev/null",
	         testlib_srcdir(), testlib_tmpdir(), testlib_bindir(), testlib_tmpdir());
	REQUIRE(system(cmd) == 0);
	snprintf(cmd, sizeof(cmd), "%s/results-usl/report.html", testlib_tmpdir());
	REQUIRE(lab_an_file_read(cmd, &html, &len, NULL) == 0);
	CHECK(strstr(html, "<script") == NULL);
	CHECK(strstr(html, "http://") == NULL && strstr(html, "https://") == NULL);

	CHECK_EQ_I64(rp_load(browser, "results-usl/report.html", &dom, &log), 0);
	CHECK(dom && strstr(dom, "lab report") != NULL);
	CHECK(log && strstr(log, ":CONSOLE") == NULL);
	free(dom);
	free(log);

	body = strstr(html, "</body>");
	REQUIRE(body);
	snprintf(cmd, sizeof(cmd), "%s/check.html", testlib_tmpdir());
	f = fopen(cmd, "w");
	REQUIRE(f);
	fwrite(html, 1, (size_t)(body - html), f);
	fputs(rp_check, f);
	fputs(body, f);
	fclose(f);
	/* check.html sits beside results-usl/, which does not matter: the images are data URIs. */
	CHECK_EQ_I64(rp_load(browser, "check.html", &dom, &log), 0);
	body = dom ? strstr(dom, "<title>LABCHECK") : NULL;
	REQUIRE(body);
	CHECK(sscanf(body, "<title>LABCHECK imgs=%d ok=%d", &imgs, &ok) == 2);
	fprintf(stderr, "chromium: %d of %d images decoded\n", ok, imgs);
	CHECK(imgs >= 10);
	CHECK_EQ_I64(ok, imgs);
	CHECK(log && strstr(log, ":CONSOLE") == NULL);
	free(dom);
	free(log);
	free(html);
}
