/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The vector extensions of the build's own flags (CMAKE_C_FLAGS), for test_isa: this file is in
 * a library of its own, so no per-file or per-target flag of test_isa's can reach it. */
#include "tests/kernels/isa_dot.h"

const unsigned isa_base_features = ISA_FILE_FEATURES;
