/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the compiler really emitted for every stamped variant of stream, peak and simd, read
 * from the built library with objdump (or from LAB_DISASM_LIB: the isa tests point it at the
 * same files built for other -march targets and compilers): the hot loop's register width
 * matches the ISA (xmm for sse2, ymm for avx2, zmm for avx512), the scalar variants have no
 * packed arithmetic at all, and per element (elements per trip from the loop's induction step)
 * the loop does the flops and reads and writes the bytes the kernel declares. auto is whatever
 * the compiler chose: its width, flops and bytes per element are printed, not asserted (the
 * declared work of the plain-C loops is checked apart, compiler-free, in test_kernel_work).
 * The reader itself is checked on hand-written listings of the cases that fooled it before.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cpufeat.h"
#include "kernels/peak_impl.h"
#include "kernels/simd_isa.h"
#include "tests/kernels/disasm.h"
#include "tests/kernels/kwork.h"
#include "tests/testlib.h"

#ifndef LAB_TEST_KERNELS_LIB
#define LAB_TEST_KERNELS_LIB ""
#endif

static const char *const dt_isas[] = {"scalar", "auto", "sse2", "avx2", "avx512"};

static struct disasm *dt_lib(void)
{
	static struct disasm *d;
	const char *lib = getenv("LAB_DISASM_LIB");

	if (!d)
		d = disasm_open(lib && *lib ? lib : LAB_TEST_KERNELS_LIB);
	return d;
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
	/* scalar is the x86-64 baseline whatever the build's flags: a global -march=x86-64-v4 gave
	 * clang's scalar dot and saxpy FMA chains (the FMA's latency, not the add's), another
	 * baseline for every speedup. peak's scalar chains are FMA by design: VEX, never EVEX. */
	bool peak = !strncmp(name, "peak_", 5);
	if (isa == 0 && (peak ? l->evex : l->vex)) {
		fprintf(stderr,
		        "%s: %u VEX/EVEX-encoded, %u EVEX-only instructions in a scalar loop\n",
		        name, l->vex, l->evex);
		CHECK_EQ_U64(peak ? l->evex : l->vex, 0);
	}
	/* the instructions the name says: a global -march=x86-64-v4 made the sse2 variant AVX-512
	 * code (vpternlogq on xmm) of the same width */
	if ((isa == 2 && l->vex) || (isa == 3 && l->evex)) {
		fprintf(stderr,
		        "%s: %u VEX/EVEX-encoded, %u EVEX-only instructions in an %s loop\n", name,
		        l->vex, l->evex, isa == 2 ? "SSE2" : "AVX2");
		CHECK_EQ_U64(isa == 2 ? l->vex : l->evex, 0);
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
 * Per element (elements per trip from the induction step): the declared flops, bytes read and
 * bytes written. auto's figures are printed: the compiler may peel, split or reorder the loop.
 */
static void dt_check_ratio(const char *name, int isa, const struct lab_work *w,
                           const struct disasm_loop *l, bool check_bytes)
{
	if (l->elems <= 0) {
		fprintf(stderr, "%s: no element count for the hot loop (no stream found)\n", name);
		CHECK(l->elems > 0);
		return;
	}
	double flops = l->flops / l->elems, rd = l->load_span / l->elems,
	       wr = l->store_span / l->elems;
	if (isa == 1) {
		bool same = flops == w->flops && rd == w->bytes_read && wr == w->bytes_written;
		printf("%-34s auto: %5.3g flops, %4.3g B read, %4.3g B written per element "
		       "(declared %g, %g, %g; %g elements per trip from %s): %s\n",
		       name, flops, rd, wr, w->flops, w->bytes_read, w->bytes_written, l->elems,
		       l->elems_from, same ? "as declared" : "differs");
		return;
	}
	if (flops != w->flops)
		fprintf(stderr,
		        "%s: the loop does %g flops for %g elements (from %s), declared %g per "
		        "element\n",
		        name, l->flops, l->elems, l->elems_from, w->flops);
	CHECK_NEAR(flops, w->flops, 1e-9);
	if (!check_bytes)
		return;
	if (rd != w->bytes_read || wr != w->bytes_written)
		fprintf(stderr,
		        "%s: the loop reads %g and writes %g bytes for %g elements, declared %g "
		        "and %g per element\n",
		        name, l->load_span, l->store_span, l->elems, w->bytes_read,
		        w->bytes_written);
	CHECK_NEAR(rd, w->bytes_read, 1e-9);
	CHECK_NEAR(wr, w->bytes_written, 1e-9);
}

struct dt_count {
	unsigned seen;
};

/* The destination registers of the vector ORs that read memory, one bit per register number. */
static void dt_or_dest(const char *mn, const char *ops, void *arg)
{
	const char *dst = strrchr(ops, '%');

	if (strcmp(mn, "por") && strncmp(mn, "vpor", 4))
		return;
	if (!strchr(ops, '(') || !dst || strlen(dst) < 4)
		return;
	*(uint64_t *)arg |= 1ULL << (strtoul(dst + 4, NULL, 10) % 64); /* %xmmN %ymmN %zmmN */
}

/* stream's load ORs what it reads into accumulators: one OR chain waits an OR latency per vector
 * and cannot keep up with the loads (clang 14 kept the source's single chain: its L1 load ceiling
 * was about half of gcc's). Two or more registers take the loads. */
static void dt_check_load_chains(const char *name)
{
	uint64_t dest = 0;

	REQUIRE(disasm_insns(dt_lib(), name, dt_or_dest, &dest));
	if (__builtin_popcountll(dest) < 2)
		fprintf(stderr, "%s: every OR of a load goes into one register (one chain)\n",
		        name);
	CHECK(__builtin_popcountll(dest) >= 2);
}

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
	REQUIRE(disasm_loop(dt_lib(), name, 8, &l));
	REQUIRE(kwork_declared("stream", kv, &w) == 0);
	dt_check_width(name, isa, &l);
	dt_check_ratio(name, isa, &w, &l, true);
	if (isa >= 2 && !strcmp(op, "load"))
		dt_check_load_chains(name);
}

LAB_TEST(stream_variants)
{
	struct dt_count c = {0};

	REQUIRE(dt_lib());
	disasm_each(dt_lib(), "stream_", dt_stream_one, &c);
	CHECK(c.seen >= 14); /* scalar and auto at least */
}

static const struct peak_variant *const dt_peak[] = {&peak_v_scalar, &peak_v_auto, &peak_v_sse2,
                                                     &peak_v_avx2, &peak_v_avx512};

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
	snprintf(kv_prec, sizeof(kv_prec), "type=%s", rest + n - 3);
	const char *kv[] = {kv_op, kv_isa, kv_prec, NULL};
	((struct dt_count *)arg)->seen++;
	REQUIRE(disasm_loop(dt_lib(), name, 8, &l));
	REQUIRE(kwork_declared("peak", kv, &w) == 0);
	dt_check_width(name, isa, &l);
	/* A compute ceiling times the core's arithmetic: auto built for x86-64 (no FMA) called
	 * libm's fma() in the loop, a ceiling of call overhead said to be "a multiply and an
	 * add" */
	if (l.calls)
		fprintf(stderr, "%s: %u calls in the loop\n", name, l.calls);
	CHECK_EQ_U64(l.calls, 0);
	/* fma_fused (run.json, the roofline's add-pipes verdict) says what the loop is: clang
	 * fused scalar chains that FP_FAST_FMA (which it never defines) had called unfused. The
	 * flag read is this binary's: only its own code is checked (the isa tests disassemble
	 * another build of the variant files). */
	const char *lib = getenv("LAB_DISASM_LIB");
	if ((!lib || !*lib) && !strcmp(op, "fma") && (l.fmas > 0) != (dt_peak[isa]->fused != 0))
		TL__FAIL("%s: %u FMA instructions in the loop, but fused = %u", name, l.fmas,
		         dt_peak[isa]->fused);
	/* No memory of the kernel's in the loop (constants reloaded from the stack, where 16
	 * registers are too few, are not its traffic): one trip is one or more whole units. */
	double units = l.flops / w.flops;
	if (isa == 1) {
		printf("%-34s auto: %g units per trip, %g bytes of memory (%g on the stack)\n",
		       name, units, l.mem_bytes, l.local_bytes);
		return;
	}
	if (units < 1 || units != (double)(long)units)
		fprintf(stderr, "%s: the loop does %g flops, declared %g per unit\n", name, l.flops,
		        w.flops);
	CHECK(units >= 1 && units == (double)(long)units);
	if (l.mem_bytes)
		fprintf(stderr, "%s: %g bytes of memory operands in the loop\n", name, l.mem_bytes);
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
	REQUIRE(disasm_loop(dt_lib(), name, type[1] == '6' ? 8 : 4, &l));
	REQUIRE(kwork_declared("simd", kv, &w) == 0);
	if (strcmp(op, "count_if") || isa != 0) /* scalar count_if may compare in xmm: fine */
		dt_check_width(name, isa, &l);
	/* gather's loads go through a vector index (its stream of x is not a stream here) */
	if (strcmp(op, "gather"))
		dt_check_ratio(name, isa, &w, &l, true);
}

LAB_TEST(simd_variants)
{
	struct dt_count c = {0};

	REQUIRE(dt_lib());
	disasm_each(dt_lib(), "simd_", dt_simd_one, &c);
	CHECK(c.seen >= 240);
}

/*
 * The auto files may use whatever -march=LAB_AUTO_MARCH allows, and check() lets them run where
 * the CPU has the extensions of lab_simd_auto_needs: so every instruction in them must be of an
 * extension the harness detects (and, built here, one the needs name), or a CPU without it
 * would fault instead of skipping. clang 14 emits popcnt for count_if at x86-64-v3.
 */
struct dt_ext {
	const char *mn; /* mnemonic, or its start when it ends in '*' */
	const char *ext;
	unsigned bit; /* the LAB_CPU_* bit that check() asks for; 0: not detected by the lab */
};

static const struct dt_ext dt_exts[] = {
    {"popcnt", "POPCNT", LAB_CPU_POPCNT},
    {"vpdp*", "AVX512-VNNI", LAB_CPU_AVX512VNNI},
    {"{vex}", "AVX-VNNI", 0},
    {"andn", "BMI1", 0},
    {"bextr", "BMI1", 0},
    {"blsi", "BMI1", 0},
    {"blsmsk", "BMI1", 0},
    {"blsr", "BMI1", 0},
    {"tzcnt", "BMI1", 0},
    {"bzhi", "BMI2", 0},
    {"mulx", "BMI2", 0},
    {"pdep", "BMI2", 0},
    {"pext", "BMI2", 0},
    {"rorx", "BMI2", 0},
    {"sarx", "BMI2", 0},
    {"shlx", "BMI2", 0},
    {"shrx", "BMI2", 0},
    {"lzcnt", "LZCNT", 0},
    {"movbe", "MOVBE", 0},
    {"vpconflict*", "AVX512CD", 0},
    {"vplzcnt*", "AVX512CD", 0},
    {"vpbroadcastm*", "AVX512CD", 0},
    {"vpermb", "AVX512VBMI", LAB_CPU_AVX512VBMI},
    {"vpermi2b", "AVX512VBMI", LAB_CPU_AVX512VBMI},
    {"vpermt2b", "AVX512VBMI", LAB_CPU_AVX512VBMI},
    {"vpmultishiftqb", "AVX512VBMI", LAB_CPU_AVX512VBMI},
    {"vpcompressb", "AVX512VBMI2", 0},
    {"vpcompressw", "AVX512VBMI2", 0},
    {"vpexpandb", "AVX512VBMI2", 0},
    {"vpexpandw", "AVX512VBMI2", 0},
    {"vpshld*", "AVX512VBMI2", 0},
    {"vpshrd*", "AVX512VBMI2", 0},
    {"vpopcnt*", "AVX512 VPOPCNTDQ/BITALG", 0},
    {"vpshufbitqmb", "AVX512BITALG", 0},
    {"vpmadd52*", "AVX512IFMA", 0},
    {"gf2p8*", "GFNI", 0},
    {"vgf2p8*", "GFNI", 0},
    {"aes*", "AES", 0},
    {"vaes*", "AES/VAES", 0},
    {"pclmul*", "PCLMUL", 0},
    {"vpclmul*", "PCLMUL/VPCLMULQDQ", 0},
    {"vcvtne2ps2bf16", "AVX512BF16", 0},
    {"vcvtneps2bf16", "AVX512BF16", 0},
    {"vdpbf16ps", "AVX512BF16", 0},
    {"vp2intersect*", "AVX512VP2INTERSECT", 0},
    {"tile*", "AMX", 0},
    {NULL, NULL, 0},
};

/* The extension entry of mn, or NULL: FP16 is every v...ph / v...sh (F16C's conversions too). */
static const struct dt_ext *dt_ext_of(const char *mn)
{
	static const struct dt_ext fp16 = {"v*ph", "AVX512FP16 or F16C", 0};
	size_t n = strlen(mn);

	for (const struct dt_ext *e = dt_exts; e->mn; e++) {
		size_t k = strlen(e->mn);
		if (e->mn[k - 1] == '*' ? !strncmp(mn, e->mn, k - 1) : !strcmp(mn, e->mn))
			return e;
	}
	if (mn[0] == 'v' && n > 2 && (!strcmp(mn + n - 2, "ph") || !strcmp(mn + n - 2, "sh")))
		return &fp16;
	return NULL;
}

struct dt_auto {
	const char *family; /* "simd", "peak" or "stream" */
	const char *fn;
	bool own_lib; /* the library built with simd_auto_needs.c (not an isa test's rebuild) */
	unsigned seen;
	void (*insn)(const char *mn, const char *ops, void *arg); /* per instruction */
};

static void dt_auto_insn(const char *mn, const char *ops, void *arg)
{
	struct dt_auto *a = arg;
	const struct dt_ext *e = dt_ext_of(mn);

	(void)ops;
	if (!e)
		return;
	if (!e->bit) {
		fprintf(stderr,
		        "%s: %s is %s, which the lab does not detect: a CPU without it "
		        "would fault in auto instead of skipping it\n",
		        a->fn, mn, e->ext);
		CHECK(e->bit != 0);
	} else if (a->own_lib && !(lab_simd_auto_needs & e->bit)) {
		fprintf(stderr, "%s: %s is %s, missing from lab_simd_auto_needs\n", a->fn, mn,
		        e->ext);
		CHECK(lab_simd_auto_needs & e->bit);
	}
}

static void dt_auto_one(const char *name, void *arg)
{
	struct dt_auto *a = arg;
	const char *rest;

	if (dt_isa(name, a->family, &rest) != 1)
		return;
	a->fn = name;
	a->seen++;
	REQUIRE(disasm_insns(dt_lib(), name, a->insn, a));
}

LAB_TEST(auto_uses_only_checked_extensions)
{
	const char *lib = getenv("LAB_DISASM_LIB");
	static const char *const families[] = {"simd", "peak", "stream"};
	struct dt_auto a = {NULL, NULL, !(lib && *lib), 0, dt_auto_insn};
	char prefix[16];

	REQUIRE(dt_lib());
	for (unsigned i = 0; i < 3; i++) {
		a.family = families[i];
		snprintf(prefix, sizeof(prefix), "%s_auto_", families[i]);
		disasm_each(dt_lib(), prefix, dt_auto_one, &a);
	}
	CHECK(a.seen >= 100);
	/* the table itself */
	CHECK(dt_ext_of("popcnt")->bit == LAB_CPU_POPCNT);
	CHECK(dt_ext_of("vpconflictd")->bit == 0);
	CHECK(dt_ext_of("vaddph") && dt_ext_of("vcvtps2ph") && dt_ext_of("vmovsh"));
	CHECK(!dt_ext_of("vaddpd") && !dt_ext_of("vpshufd") && !dt_ext_of("vpaddq"));
	CHECK(!dt_ext_of("vpshufb") && !dt_ext_of("vpunpckhwd") && !dt_ext_of("vpsubsw"));
}

/* The simd and stream auto files leave a * b + c a multiply and an add (-ffp-contract=off,
 * kernels/CMakeLists.txt): clang 14 fused them, so its auto dot chained FMAs where gcc's (ISO C
 * mode) chained adds, and the two compilers' auto points differed for no reason given. */
static void dt_fused_insn(const char *mn, const char *ops, void *arg)
{
	struct dt_auto *a = arg;

	(void)ops;
	if (!strncmp(mn, "vfmadd", 6) || !strncmp(mn, "vfnmadd", 7) || !strncmp(mn, "vfmsub", 6) ||
	    !strncmp(mn, "vfnmsub", 7)) {
		fprintf(stderr, "%s: %s: a multiply and add fused in plain C\n", a->fn, mn);
		CHECK(!"fused");
	}
}

LAB_TEST(auto_multiply_add_unfused)
{
	struct dt_auto a = {NULL, NULL, false, 0, dt_fused_insn};

	REQUIRE(dt_lib());
	a.family = "simd";
	disasm_each(dt_lib(), "simd_auto_", dt_auto_one, &a);
	a.family = "stream";
	disasm_each(dt_lib(), "stream_auto_", dt_auto_one, &a);
	CHECK(a.seen >= 50);
}

/* ---- the reader on hand-written listings ---- */

/* Describes the hot loop of function f in a hand-written listing; false when there is none. */
static bool dt_text_loop(const char *text, unsigned elem, struct disasm_loop *l)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct disasm *d = f ? disasm_read(f) : NULL;
	bool ok = d && disasm_loop(d, "f", elem, l);

	if (f)
		fclose(f);
	disasm_close(d);
	return ok;
}

/*
 * The failure that started this (gcc 12, -march=native on Zen 5 = znver3 tuning + AVX-512): the
 * same 64 bytes loaded as a ymm and as a zmm, twice per trip, 32 floats summed. Counting
 * operand sizes gave 48 elements; the step of %rdi (128 bytes) and the byte ranges both say 32.
 */
LAB_TEST(same_bytes_loaded_twice_count_once)
{
	static const char text[] = "0000000000000ad0 <f>:\n"
	                           "     ad0:\tmov    %rdi,%rax\n"
	                           "     b80:\tvmovups (%rdi),%ymm6\n"
	                           "     b84:\tvmovups (%rdi),%zmm7\n"
	                           "     b8a:\tsub    $0xffffffffffffff80,%rdi\n"
	                           "     b8e:\tvmovups -0x40(%rdi),%ymm5\n"
	                           "     b93:\tvmovups -0x40(%rdi),%zmm3\n"
	                           "     b9a:\tvaddps %zmm7,%zmm0,%zmm0\n"
	                           "     ba0:\tvaddps %zmm3,%zmm1,%zmm1\n"
	                           "     cd6:\tcmp    %rdi,%rcx\n"
	                           "     cd9:\tjne    b80 <f+0xb0>\n"
	                           "     cdf:\tret\n";
	struct disasm_loop l;

	REQUIRE(dt_text_loop(text, 4, &l));
	CHECK_EQ_STR(l.elems_from, "step");
	CHECK_NEAR(l.elems, 32, 0);
	CHECK_NEAR(l.load_span, 128, 0); /* not 192: the ymm loads are inside the zmm ones */
	CHECK_NEAR(l.flops, 32, 0);
	CHECK_NEAR(l.flops / l.elems, 1, 0);
	CHECK_EQ_U64(l.width, 64);
}

/* Without a known step (the pointer is reloaded), the union of byte ranges gives the count. */
LAB_TEST(ranges_when_no_step)
{
	static const char text[] = "0000000000000000 <f>:\n"
	                           "   0:\tmov    (%rsi),%rdi\n"
	                           "   3:\tvmovupd (%rdi),%ymm1\n"
	                           "   7:\tvmovupd 0x20(%rdi),%ymm2\n"
	                           "   c:\tvmovupd (%rdi),%ymm3\n"
	                           "  10:\tvaddpd %ymm1,%ymm0,%ymm0\n"
	                           "  14:\tvaddpd %ymm2,%ymm0,%ymm0\n"
	                           "  18:\tdec    %rcx\n"
	                           "  1b:\tjne    0 <f>\n"
	                           "  1d:\tret\n";
	struct disasm_loop l;

	REQUIRE(dt_text_loop(text, 8, &l));
	CHECK_EQ_STR(l.elems_from, "ranges");
	CHECK_NEAR(l.elems, 8, 0);
	CHECK_NEAR(l.flops, 8, 0);
}

/*
 * A jump back into code that does not dominate the jump is no loop: here the tail code at 0x30
 * is entered from the main loop's exit and from the entry, and `jmp 30` after it would have
 * been taken as a loop by a finder that trusts any backward jump.
 */
LAB_TEST(backward_jump_into_tail_is_no_loop)
{
	static const char text[] = "0000000000000000 <f>:\n"
	                           "   0:\ttest   %rdx,%rdx\n"
	                           "   3:\tje     30 <f+0x30>\n"
	                           "   5:\tmov    %rdi,%rax\n"
	                           "  10:\tvmovupd (%rax),%zmm1\n"
	                           "  16:\tvaddpd %zmm1,%zmm0,%zmm0\n"
	                           "  1c:\tadd    $0x40,%rax\n"
	                           "  20:\tcmp    %rax,%rcx\n"
	                           "  23:\tjne    10 <f+0x10>\n"
	                           "  25:\tjmp    50 <f+0x50>\n"
	                           "  30:\tvaddsd (%rsi),%xmm0,%xmm0\n"
	                           "  34:\tvaddsd 0x8(%rsi),%xmm0,%xmm0\n"
	                           "  38:\tvaddsd 0x10(%rsi),%xmm0,%xmm0\n"
	                           "  3c:\tvaddsd 0x18(%rsi),%xmm0,%xmm0\n"
	                           "  40:\tvaddsd 0x20(%rsi),%xmm0,%xmm0\n"
	                           "  44:\tjmp    60 <f+0x60>\n"
	                           "  50:\tvmovsd %xmm0,(%r8)\n"
	                           "  55:\tjmp    30 <f+0x30>\n"
	                           "  60:\tret\n";
	struct disasm_loop l;

	REQUIRE(dt_text_loop(text, 8, &l));
	CHECK_EQ_U64(l.nblocks, 1);
	CHECK_EQ_U64(l.width, 64);
	CHECK_NEAR(l.elems, 8, 0);
	CHECK_NEAR(l.flops, 8, 0);
}

/* 16 registers were too few (AVX2): constants reloaded from the stack are not kernel memory. */
LAB_TEST(stack_reloads_are_not_traffic)
{
	static const char text[] = "0000000000000000 <f>:\n"
	                           "   0:\tpush   %rbp\n"
	                           "   1:\tmov    %rsp,%rbp\n"
	                           "  10:\tvaddpd -0x58(%rsp),%ymm2,%ymm2\n"
	                           "  16:\tvaddpd -0x30(%rbp),%ymm3,%ymm3\n"
	                           "  1c:\tvmulpd 0x0(%rip),%ymm4,%ymm4        # 24 <f+0x24>\n"
	                           "  24:\tvmovapd %ymm5,-0x78(%rsp)\n"
	                           "  2a:\tsub    $0x1,%rax\n"
	                           "  2e:\tjne    10 <f+0x10>\n"
	                           "  30:\tpop    %rbp\n"
	                           "  31:\tret\n";
	struct disasm_loop l;

	REQUIRE(dt_text_loop(text, 8, &l));
	CHECK_NEAR(l.mem_bytes, 0, 0);
	CHECK_NEAR(l.local_bytes, 128, 0);
	CHECK_NEAR(l.flops, 12, 0);
	CHECK_EQ_STR(l.elems_from, "none");
}
