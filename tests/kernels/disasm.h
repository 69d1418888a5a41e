/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Reads `objdump -d` (AT&T syntax) of the kernels library and describes the hot loop of one
 * function, soundly for any compiler and tuning:
 * - loops come from the control-flow graph: a back edge is an edge whose target dominates its
 *   source, and its natural loop is the target plus every block that reaches the source without
 *   passing the target. The hot loop is the innermost loop (no other loop's header inside) that
 *   does the most work. A jump back to code that does not dominate the jump (tail code after a
 *   loop) is no loop.
 * - elements per trip come from the loop's induction step: per memory stream (base, index,
 *   scale), the bytes its address advances in one trip (pointer increment + index increment x
 *   scale) divided by the element size; where no stream has a known step, from the union of
 *   the byte ranges each stream touches. Never from the sum of operand sizes: a loop that loads
 *   the same bytes twice (a ymm and a zmm load of one address) reads them once.
 * - memory relative to the stack (%rsp, or %rbp when it is the frame pointer) or to %rip is
 *   spills, reloaded constants and locals: counted apart, not as the kernel's traffic.
 */
#ifndef LAB_TESTS_KERNELS_DISASM_H
#define LAB_TESTS_KERNELS_DISASM_H

#include <stdbool.h>
#include <stdio.h>

struct disasm;

/* Disassembles lib (a path from the build system) once. NULL on failure, the cause printed. */
struct disasm *disasm_open(const char *lib);
/* Reads objdump -d text from f (tests feed it hand-written listings). NULL when out of memory. */
struct disasm *disasm_read(FILE *f);
void disasm_close(struct disasm *d);

/* Calls fn for every function whose name starts with prefix. */
void disasm_each(const struct disasm *d, const char *prefix,
                 void (*fn)(const char *name, void *arg), void *arg);

/*
 * Calls fn for every instruction of the function name, in address order: its mnemonic (prefixes
 * such as lock or cs dropped; objdump's "{vex}" kept) and operands as printed. Returns false
 * when name is not found.
 */
bool disasm_insns(const struct disasm *d, const char *name,
                  void (*fn)(const char *mn, const char *ops, void *arg), void *arg);

struct disasm_loop {
	unsigned ninsns;  /* instructions in the loop body */
	unsigned nblocks; /* basic blocks in the loop body */
	unsigned width;   /* widest vector register used: 0 (none), 16 (xmm), 32 (ymm), 64 (zmm) */
	unsigned packed;  /* packed arithmetic instructions (FP or integer) */
	unsigned fp_ops;  /* floating-point arithmetic instructions */
	unsigned fmas;    /* of which fused multiply-adds (vfmadd, vfnmsub, ...) */
	double flops;     /* FP operations: lanes, FMA counted twice */
	double mem_bytes; /* bytes of the kernel's memory operands, as written (duplicates too) */
	double store_bytes; /* of which written (the memory operand is the destination) */
	double load_span;   /* bytes read per trip: the union of ranges per stream */
	double store_span;  /* bytes written per trip: the union of ranges per stream */
	double local_bytes; /* stack and %rip operands: spills, reloaded constants (not counted) */
	double elems;       /* elements per trip (0: unknown); see elems_from */
	const char *elems_from; /* "step" (induction), "ranges" (byte ranges) or "none" */
	bool has_gather;        /* a hardware gather */
	unsigned calls;         /* call instructions: a library function's work is not the loop's */
	/* Encodings: vector instructions VEX or EVEX encoded (a 'v' mnemonic on xmm/ymm/zmm), and
	 * of those the ones only EVEX has (xmm16-31/ymm16-31, a mask register): an "sse2" loop
	 * has neither, an "avx2" loop no EVEX. */
	unsigned vex, evex;
};

/*
 * Describes name's hot loop into *out, elements of elem_bytes each. Returns false when name or
 * a loop is not found.
 */
bool disasm_loop(const struct disasm *d, const char *name, unsigned elem_bytes,
                 struct disasm_loop *out);

#endif
