/* SPDX-License-Identifier: GPL-3.0-or-later */
/* peak, isa = auto: the plain-C chains at -O3 -march=LAB_AUTO_MARCH (kernels/CMakeLists.txt). */
#define PEAK_PREFIX peak_auto_
#define PEAK_TABLE  peak_v_auto
#include "kernels/peak_generic.h"
