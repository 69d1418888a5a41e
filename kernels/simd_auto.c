/* SPDX-License-Identifier: GPL-3.0-or-later */
/* simd, isa = auto: the plain C at -O3 -march=LAB_AUTO_MARCH (kernels/CMakeLists.txt). */
#define SIMD_PREFIX simd_auto_
#define SIMD_TABLE  simd_v_auto
#include "kernels/simd_generic.h"
