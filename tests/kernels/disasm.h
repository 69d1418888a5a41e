/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Reads `objdump -d` of the kernels library and describes the hot loop of one function: the
 * largest innermost loop (a backward jump that contains no other). Enough x86 to count what the
 * tests need: the widest vector register, packed arithmetic, flops and memory elements.
 */
#ifndef LAB_TESTS_KERNELS_DISASM_H
#define LAB_TESTS_KERNELS_DISASM_H

#include <stdbool.h>
#include <stddef.h>

struct disasm;

/* Disassembles lib (a path from the build system) once. NULL on failure, the cause printed. */
struct disasm *disasm_open(const char *lib);
void disasm_close(struct disasm *d);

/* Calls fn for every function whose name starts with prefix. */
void disasm_each(const struct disasm *d, const char *prefix,
                 void (*fn)(const char *name, void *arg), void *arg);

struct disasm_loop {
	unsigned ninsns;  /* instructions in the loop body */
	unsigned width;   /* widest vector register used: 0 (none), 16 (xmm), 32 (ymm), 64 (zmm) */
	unsigned packed;  /* packed arithmetic instructions (FP or integer) */
	unsigned fp_ops;  /* floating-point arithmetic instructions */
	double flops;     /* FP operations: lanes, FMA counted twice */
	double mem_bytes; /* bytes read or written by instructions with a memory operand */
	double store_bytes; /* of which written (the memory operand is the destination) */
	bool has_gather;    /* a hardware gather */
};

/* Describes name's hot loop into *out. Returns false when name or a loop is not found. */
bool disasm_loop(const struct disasm *d, const char *name, struct disasm_loop *out);

#endif
