/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A few dozen lines of test support. A test file defines cases with LAB_TEST(name) { ... };
 * tests/CMakeLists.txt finds the names with a regex and registers one ctest entry per case, so
 * `ctest -R param` works and the summary counts real cases. A failed CHECK prints both operands
 * and the case goes on; REQUIRE stops the case. What this machine cannot run is never a pass:
 * SKIP(reason) ends the case, SKIP_PART(reason) notes a part left out and goes on; a case that
 * did not fail but skipped something exits 77, which ctest reports as Skipped (lab_test sets
 * SKIP_RETURN_CODE 77), after one "SKIPPED: reason" line per skip.
 */
#ifndef LAB_TESTS_TESTLIB_H
#define LAB_TESTS_TESTLIB_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*testlib_fn)(void);
void testlib_register(const char *name, testlib_fn fn);
void testlib_fail(void);
/* Records that this case left something out here, and why (printed "SKIPPED: reason"). */
void testlib_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A scratch directory unique to this case, created on first use and removed at exit if passed. */
const char *testlib_tmpdir(void);
/* The source tree root (for fixtures and configs). */
const char *testlib_srcdir(void);
/* The build tree root (for the lab binary). */
const char *testlib_bindir(void);

#define LAB_TEST(name)                                                                             \
	static void test_##name(void);                                                             \
	__attribute__((constructor)) static void testlib_reg_##name(void)                          \
	{                                                                                          \
		testlib_register(#name, test_##name);                                              \
	}                                                                                          \
	static void test_##name(void)

#define TL__FAIL(...)                                                                              \
	do {                                                                                       \
		fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                                    \
		fprintf(stderr, __VA_ARGS__);                                                      \
		fputc('\n', stderr);                                                               \
		testlib_fail();                                                                    \
	} while (0)

#define CHECK(c)                                                                                   \
	do {                                                                                       \
		if (!(c))                                                                          \
			TL__FAIL("CHECK(%s) failed", #c);                                          \
	} while (0)
#define REQUIRE(c)                                                                                 \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			TL__FAIL("REQUIRE(%s) failed", #c);                                        \
			return;                                                                    \
		}                                                                                  \
	} while (0)
/* Nothing more of this case can run here: record why and end the case (Skipped unless failed). */
#define SKIP(...)                                                                                  \
	do {                                                                                       \
		testlib_skip(__VA_ARGS__);                                                         \
		return;                                                                            \
	} while (0)
/* One part cannot run here: record why and go on with the rest (the case then says Skipped). */
#define SKIP_PART(...) testlib_skip(__VA_ARGS__)
#define CHECK_EQ_I64(a, b)                                                                         \
	do {                                                                                       \
		long long tl_a = (long long)(a), tl_b = (long long)(b);                            \
		if (tl_a != tl_b)                                                                  \
			TL__FAIL("%s == %s failed: %lld != %lld", #a, #b, tl_a, tl_b);             \
	} while (0)
#define CHECK_EQ_U64(a, b)                                                                         \
	do {                                                                                       \
		unsigned long long tl_a = (unsigned long long)(a), tl_b = (unsigned long long)(b); \
		if (tl_a != tl_b)                                                                  \
			TL__FAIL("%s == %s failed: %llu != %llu", #a, #b, tl_a, tl_b);             \
	} while (0)
#define CHECK_EQ_STR(a, b)                                                                         \
	do {                                                                                       \
		const char *tl_a = (a), *tl_b = (b);                                               \
		if (!tl_a || !tl_b || strcmp(tl_a, tl_b) != 0)                                     \
			TL__FAIL("%s == %s failed:\n  \"%s\"\n  \"%s\"", #a, #b,                   \
			         tl_a ? tl_a : "(null)", tl_b ? tl_b : "(null)");                  \
	} while (0)
#define CHECK_NEAR(a, b, tol)                                                                      \
	do {                                                                                       \
		double tl_a = (double)(a), tl_b = (double)(b), tl_t = (double)(tol);               \
		if (!(fabs(tl_a - tl_b) <= tl_t))                                                  \
			TL__FAIL("%s ~= %s failed: %.17g vs %.17g (tol %g)", #a, #b, tl_a, tl_b,   \
			         tl_t);                                                            \
	} while (0)

#endif
