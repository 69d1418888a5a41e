/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Stamps stream's two loop sets (temporal and non-temporal stores) and the ISA's table. */
#include "kernels/stream_loops.h"
#undef STREAM_SFX
#undef STREAM_ST
#undef VFENCE
#define STREAM_NT_PASS 1
#define STREAM_SFX     _nt
#define STREAM_ST      VSTNT
#define VFENCE()       _mm_sfence()
#include "kernels/stream_loops.h"

#define ST_T(op)  SL_NAME3(STREAM_PREFIX, op, )
#define ST_NT(op) SL_NAME3(STREAM_PREFIX, op, _nt)
const struct stream_variant STREAM_TABLE = {
    .op = {ST_T(copy), ST_T(scale), ST_T(add), ST_T(triad), ST_T(load), ST_T(store), ST_T(update)},
    .op_nt = {ST_NT(copy), ST_NT(scale), ST_NT(add), ST_NT(triad), NULL, ST_NT(store),
              ST_NT(update)},
};
