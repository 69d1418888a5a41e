/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stream, isa = scalar: built with -fno-tree-vectorize (kernels/CMakeLists.txt). */
#define STREAM_PREFIX stream_scalar_
#define STREAM_TABLE  stream_v_scalar
#include "kernels/stream_generic.h"
