/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the compiler really emitted for every stamped variant of stream, peak and simd, read
 * from the built library with objdump: the hot loop's register width matches the ISA (xmm for
 * sse2, ymm for avx2, zmm for avx512), the scalar variants have no packed arithmetic at all,
 * and the flops each kernel declares per element match the loop (flops per element, elements
 * counted from the loop's stores, or its loads where it stores nothing). auto is the compiler's
 * choice: its width is printed, not asserted, but its flops must still add up.
 */
#include <stdio.h>
#include <string.h>

#include "harness/param.h"
#include "kernels/registry.h"
#include "tests/kernels/disasm.h"
#include "tests/testlib.h"

#ifndef LAB_TEST_KERNELS_LIB
#define LAB_TEST_KERNELS_LIB ""
#endif

static const char *const dt_isas[] = {"scalar", "auto", "sse2", "avx2", "avx512"};

static struct disasm *dt_lib(void)
{
	static struct disasm *d;

	if (!d)
		d = disasm_open(LAB_TEST_KERNELS_LIB);
	return d;
}

static const struct lab_kernel *dt_kernel(const char *name)
{
	for (const struct lab_kernel *const *k = lab_kernels; *k; k++)
		if (!strcmp((*k)->name, name))
			return *k;
	return NULL;
}

/* Declared work of kernel for "key=value" settings. */
static int dt_work(const struct lab_kernel *k, const char *const *kv, struct lab_work *w)
{
	char params[512] = {0};
	struct lab_err err = {0};

	if (k->params_size > sizeof(params) || lab_param_defaults(k->params, params, &err))
		return -1;
	for (unsigned i = 0; kv[i]; i++) {
		char key[32];
		const char *eq = strchr(kv[i], '=');
		snprintf(key, sizeof(key), "%.*s", (int)(eq - kv[i]), kv[i]);
		const struct lab_param *p = lab_param_find(k->params, key);
		if (!p || lab_param_parse(p, eq + 1, params, &err))
			return fprintf(stderr, "%s: %s\n", kv[i], err.msg), -1;
	}
	memset(w, 0, sizeof(*w));
	k->work_per_unit(params, w);
	return 0;
}

/* Splits "<family>_<isa>_<rest>" into the isa index and rest. */
static int dt_isa(const char *name, const char *family, const char **rest)
{
	const char *s = name + strlen(family) + 1;

	for (int i = 4; i >= 0; i--) {
		size_t n = strlen(dt_isas[i]);
		if (!strncmp(s, dt_isas[i], n) && s[n] == '_') {
			*rest = s + n + 1;
			return i;
		}
	}
	return -1;
}

/* The width and packing rules shared by all three kernels. */
static void dt_check_width(const char *name, int isa, const struct disasm_loop *l)
{
	static const unsigned want[] = {0, 0, 16, 32, 64};

	if (isa == 0 && l->packed) {
		fprintf(stderr, "%s: %u packed arithmetic instructions in a scalar loop\n", name,
		        l->packed);
		CHECK_EQ_U64(l->packed, 0);
	}
	if (isa >= 2 && l->width != want[isa]) {
		fprintf(stderr, "%s: widest register %u bytes, want %u\n", name, l->width,
		        want[isa]);
		CHECK_EQ_U64(l->width, want[isa]);
	}
	if (isa == 1)
		printf("%-34s auto: %2u-byte registers, %u packed of %u FP ops\n", name, l->width,
		       l->packed, l->fp_ops);
}

/*
 * Elements per trip from the stores (or, for loops that only read, the loads), so a reloaded
 * constant or a spill does not count as an element; then flops per element must equal the
 * declared flops per unit (one unit = one element).
 */
static void dt_check_ratio(const char *name, const struct lab_work *w, double elem,
                           const struct disasm_loop *l)
{
	double elems = w->bytes_written > 0 ? l->store_bytes / w->bytes_written
	                                    : (l->mem_bytes - l->store_bytes) / w->bytes_read;

	(void)elem;
	if (elems <= 0) {
		fprintf(stderr, "%s: no memory access found in the hot loop\n", name);
		CHECK(elems > 0);
		return;
	}
	double got = l->flops / elems;
	if (got != w->flops)
		fprintf(stderr,
		        "%s: the loop does %g flops for %g elements, declared %g per element\n",
		        name, l->flops, elems, w->flops);
	CHECK_NEAR(got, w->flops, 1e-9);
}

struct dt_count {
	unsigned seen;
};

static void dt_stream_one(const char *name, void *arg)
{
	const char *rest;
	int isa = dt_isa(name, "stream", &rest);
	struct disasm_loop l;
	struct lab_work w;
	char op[32], kv_op[48], kv_isa[32];
	bool nt = strstr(rest, "_nt") != NULL;

	if (isa < 0)
		return;
	snprintf(op, sizeof(op), "%.*s", (int)strcspn(rest, "_"), rest);
	snprintf(kv_op, sizeof(kv_op), "op=%s", op);
	snprintf(kv_isa, sizeof(kv_isa), "isa=%s", dt_isas[isa]);
	const char *kv[] = {kv_op, kv_isa, nt ? "nt=on" : "nt=off", NULL};
	((struct dt_count *)arg)->seen++;
	REQUIRE(disasm_loop(dt_lib(), name, &l));
	REQUIRE(dt_work(dt_kernel("stream"), kv, &w) == 0);
	dt_check_width(name, isa, &l);
	dt_check_ratio(name, &w, 8, &l);
}

LAB_TEST(stream_variants)
{
	struct dt_count c = {0};

	REQUIRE(dt_lib());
	disasm_each(dt_lib(), "stream_", dt_stream_one, &c);
	CHECK(c.seen >= 14); /* scalar and auto at least */
}

static void dt_peak_one(const char *name, void *arg)
{
	const char *rest;
	int isa = dt_isa(name, "peak", &rest);
	struct disasm_loop l;
	struct lab_work w;
	char op[32], kv_op[48], kv_isa[32], kv_prec[32];

	if (isa < 0)
		return;
	size_t n = strlen(rest);
	snprintf(op, sizeof(op), "%.*s", (int)(n - 4), rest);
	snprintf(kv_op, sizeof(kv_op), "op=%s", op);
	snprintf(kv_isa, sizeof(kv_isa), "isa=%s", dt_isas[isa]);
	snprintf(kv_prec, sizeof(kv_prec), "precision=%s", rest + n - 3);
	const char *kv[] = {kv_op, kv_isa, kv_prec, NULL};
	((struct dt_count *)arg)->seen++;
	REQUIRE(disasm_loop(dt_lib(), name, &l));
	REQUIRE(dt_work(dt_kernel("peak"), kv, &w) == 0);
	dt_check_width(name, isa, &l);
	/* No memory in the loop: one trip is one or more whole units. */
	double units = l.flops / w.flops;
	if (units < 1 || units != (double)(long)units)
		fprintf(stderr, "%s: the loop does %g flops, declared %g per unit\n", name, l.flops,
		        w.flops);
	CHECK(units >= 1 && units == (double)(long)units);
	CHECK_EQ_U64((uint64_t)l.mem_bytes, 0);
}

LAB_TEST(peak_variants)
{
	struct dt_count c = {0};

	REQUIRE(dt_lib());
	disasm_each(dt_lib(), "peak_", dt_peak_one, &c);
	CHECK(c.seen >= 16);
}

static void dt_simd_one(const char *name, void *arg)
{
	const char *rest;
	int isa = dt_isa(name, "simd", &rest);
	struct disasm_loop l;
	struct lab_work w;
	char op[32], type[8], kv_op[48], kv_isa[32], kv_type[32], kv_acc[32];

	if (isa < 0)
		return;
	const char *a = strrchr(rest, 'a');          /* "_a4" */
	snprintf(type, sizeof(type), "%.3s", a - 4); /* "f64" */
	snprintf(op, sizeof(op), "%.*s", (int)(a - 5 - rest), rest);
	snprintf(kv_op, sizeof(kv_op), "op=%s", op);
	snprintf(kv_isa, sizeof(kv_isa), "isa=%s", dt_isas[isa]);
	snprintf(kv_type, sizeof(kv_type), "type=%s", type);
	snprintf(kv_acc, sizeof(kv_acc), "accumulators=%s", a + 1);
	const char *kv[] = {kv_op, kv_isa, kv_type, kv_acc, NULL};
	((struct dt_count *)arg)->seen++;
	REQUIRE(disasm_loop(dt_lib(), name, &l));
	REQUIRE(dt_work(dt_kernel("simd"), kv, &w) == 0);
	if (strcmp(op, "count_if") || isa != 0) /* scalar count_if may compare in xmm: fine */
		dt_check_width(name, isa, &l);
	/* gather's loads go through an index (not counted as memory operands here) */
	if (strcmp(op, "gather") && strcmp(op, "count_if"))
		dt_check_ratio(name, &w, type[1] == '6' ? 8 : 4, &l);
}

LAB_TEST(simd_variants)
{
	struct dt_count c = {0};

	REQUIRE(dt_lib());
	disasm_each(dt_lib(), "simd_", dt_simd_one, &c);
	CHECK(c.seen >= 240);
}
