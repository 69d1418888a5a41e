/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stream, isa = auto: the plain C loops at -O3 -march=LAB_AUTO_MARCH (kernels/CMakeLists.txt). */
#define STREAM_PREFIX stream_auto_
#define STREAM_TABLE  stream_v_auto
#include "kernels/stream_generic.h"
