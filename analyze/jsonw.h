/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A small streaming JSON writer for analysis.json and the --json documents. Non-finite numbers
 * are written as null (JSON has no NaN or infinity). Nesting is limited to 32 levels.
 */
#ifndef LAB_ANALYZE_JSONW_H
#define LAB_ANALYZE_JSONW_H

#include <stdio.h>

struct lab_an_jw {
	FILE *f;
	int depth;
	int count[32]; /* items written at each level, for the commas */
};

void lab_an_jw_init(struct lab_an_jw *w, FILE *f);
/* key may be NULL inside arrays and at the top level. */
void lab_an_jw_obj(struct lab_an_jw *w, const char *key);
void lab_an_jw_arr(struct lab_an_jw *w, const char *key);
void lab_an_jw_end(struct lab_an_jw *w, char close);
void lab_an_jw_str(struct lab_an_jw *w, const char *key, const char *v); /* NULL -> null */
void lab_an_jw_num(struct lab_an_jw *w, const char *key, double v);
void lab_an_jw_int(struct lab_an_jw *w, const char *key, long long v);
void lab_an_jw_bool(struct lab_an_jw *w, const char *key, int v);
/* A two-element array [lo, hi]. */
void lab_an_jw_pair(struct lab_an_jw *w, const char *key, double lo, double hi);
struct lab_an_modes;
/* "modes": count (null when unknown), "multimodal", "mode_centers": [...] (times scale) and
 * "mode_weights": [...]. */
void lab_an_modes_json(struct lab_an_jw *w, const struct lab_an_modes *m, double scale);
/* Writes s as a JSON string literal (quotes included) to f. */
void lab_an_json_escape(FILE *f, const char *s);

#endif
