/* SPDX-License-Identifier: GPL-3.0-or-later */
/* peak, isa = scalar: one lane per instruction, vectorizers off, FMA on (kernels/CMakeLists.txt).
 */
#define PEAK_PREFIX peak_scalar_
#define PEAK_TABLE  peak_v_scalar
#include "kernels/peak_generic.h"
