/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/units.h"

#include <stddef.h>

const struct lab_unit_suffix lab_size_suffixes[] = {
    {"", 1},
    {"B", 1},
    {"K", 1024.0},
    {"k", 1024.0},
    {"KiB", 1024.0},
    {"M", 1048576.0},
    {"MiB", 1048576.0},
    {"G", 1073741824.0},
    {"GiB", 1073741824.0},
    {NULL, 0},
};
