/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The analyzer's own JSON pieces, written with the lab's one writer (harness/json.h, a base
 * header). analysis.json and the --json documents use lab_json_begin_digits(w, f, 10).
 */
#ifndef LAB_ANALYZE_JSONW_H
#define LAB_ANALYZE_JSONW_H

#include "harness/json.h"

struct lab_an_modes;
/* "modes": count (null when unknown), "multimodal", "mode_centers": [...] (times scale) and
 * "mode_weights": [...]. */
void lab_an_modes_json(struct lab_json *w, const struct lab_an_modes *m, double scale);

#endif
