/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tests/testlib.h"

#include "lab/cpu_guard.h"

#include <ftw.h>
#include <stdarg.h>
#include <unistd.h>

#define TL_MAX 256

static struct {
	const char *name;
	testlib_fn fn;
} tl_cases[TL_MAX];
static int tl_ncases;
static int tl_failed;
static int tl_skipped;
static char tl_tmp[512];

void testlib_register(const char *name, testlib_fn fn)
{
	if (tl_ncases == TL_MAX) {
		fprintf(stderr, "testlib: too many cases\n");
		abort();
	}
	tl_cases[tl_ncases].name = name;
	tl_cases[tl_ncases].fn = fn;
	tl_ncases++;
}

void testlib_fail(void)
{
	tl_failed = 1;
}

void testlib_skip(const char *fmt, ...)
{
	va_list ap;

	/* stdout: the reason is in ctest's log and its JUnit file next to the case. */
	fflush(stderr);
	fputs("SKIPPED: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
	tl_skipped++;
}

const char *testlib_tmpdir(void)
{
	if (!tl_tmp[0]) {
		snprintf(tl_tmp, sizeof(tl_tmp), "%s/labtest-XXXXXX",
		         getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		if (!mkdtemp(tl_tmp)) {
			perror("mkdtemp");
			abort();
		}
	}
	return tl_tmp;
}

const char *testlib_srcdir(void)
{
	return LAB_TEST_SRCDIR;
}

const char *testlib_bindir(void)
{
	return LAB_TEST_BINDIR;
}

static int tl_rm(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int main(int argc, char **argv)
{
	/* linked in by lab_test(): the build's CPU check ran before this (lab/cpu_guard.c) */
	void (*volatile guard)(void) = lab_cpu_guard;
	int ran = 0;

	(void)guard;

	for (int i = 0; i < tl_ncases; i++) {
		if (argc > 1 && strcmp(argv[1], tl_cases[i].name) != 0)
			continue;
		tl_cases[i].fn();
		ran++;
	}
	if (!ran) {
		fprintf(stderr, "testlib: no case named '%s'\n", argc > 1 ? argv[1] : "");
		return 2;
	}
	if (tl_tmp[0] && !tl_failed && !getenv("LAB_TEST_KEEP"))
		nftw(tl_tmp, tl_rm, 16, FTW_DEPTH | FTW_PHYS);
	else if (tl_tmp[0])
		fprintf(stderr, "testlib: kept %s\n", tl_tmp);
	if (tl_failed)
		return 1;
	if (tl_skipped) {
		printf("testlib: %d part%s skipped here: Skipped, not Passed\n", tl_skipped,
		       tl_skipped == 1 ? "" : "s");
		return 77;
	}
	return 0;
}
