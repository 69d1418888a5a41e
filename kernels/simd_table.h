/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The table of one ISA's simd functions (SIMD_TABLE), after all types were stamped. */
#define ST_ROW(op, tn)                                                                             \
	{                                                                                          \
		SA_NAME(SIMD_PREFIX, op, tn, 1), SA_NAME(SIMD_PREFIX, op, tn, 2),                  \
		    SA_NAME(SIMD_PREFIX, op, tn, 3), SA_NAME(SIMD_PREFIX, op, tn, 4),              \
		    SA_NAME(SIMD_PREFIX, op, tn, 5), SA_NAME(SIMD_PREFIX, op, tn, 6),              \
		    SA_NAME(SIMD_PREFIX, op, tn, 7), SA_NAME(SIMD_PREFIX, op, tn, 8)               \
	}
#define ST_OP(op)                                                                                  \
	{                                                                                          \
		[SIMD_F32] = ST_ROW(op, f32), [SIMD_F64] = ST_ROW(op, f64),                        \
		[SIMD_I32] = ST_ROW(op, i32)                                                       \
	}
#ifdef SIMD_I32_NO_MUL
/* No 32-bit lane multiply in this ISA: i32 dot and saxpy are left out (check() skips them). */
#define ST_OP_MUL(op)                                                                              \
	{                                                                                          \
		[SIMD_F32] = ST_ROW(op, f32), [SIMD_F64] = ST_ROW(op, f64)                         \
	}
#else
#define ST_OP_MUL(op) ST_OP(op)
#endif

const struct simd_variant SIMD_TABLE = {.fn = {
                                            [SIMD_SUM] = ST_OP(sum),
                                            [SIMD_DOT] = ST_OP_MUL(dot),
                                            [SIMD_SAXPY] = ST_OP_MUL(saxpy),
                                            [SIMD_COUNT_IF] = ST_OP(count_if),
                                            [SIMD_GATHER] = ST_OP(gather),
                                        }};
