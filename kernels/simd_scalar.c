/* SPDX-License-Identifier: GPL-3.0-or-later */
/* simd, isa = scalar: built with the vectorizers off (kernels/CMakeLists.txt). */
#define SIMD_PREFIX simd_scalar_
#define SIMD_TABLE  simd_v_scalar
#include "kernels/simd_generic.h"
