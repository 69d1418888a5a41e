/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The typed parameter layer: text -> typed value stored at an offset of a params struct, through
 * a struct lab_param table (harness/kernel_api.h). Kernel keys and harness keys share it, so the
 * config file, --set and `lab describe` all read the same table.
 */
#ifndef LAB_HARNESS_PARAM_H
#define LAB_HARNESS_PARAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/err.h"
#include "harness/kernel_api.h"

/*
 * Parses text as a value of p and stores it into base + p->offset. Checks bounds. Returns 0, or
 * -LAB_ECONFIG with a message "what is wrong (what is allowed)", e.g.
 * "out of range (allowed 1 .. 4096 bytes)". Leading and trailing blanks are ignored.
 */
int lab_param_parse(const struct lab_param *p, const char *text, void *base, struct lab_err *err);

/* Stores the default of every entry of table into base. Returns 0 or the first parse error. */
int lab_param_defaults(const struct lab_param *table, void *base, struct lab_err *err);

/* The entry named key, or NULL. */
const struct lab_param *lab_param_find(const struct lab_param *table, const char *key);

/* Writes the value of p held in base as config text (what lab_param_parse reads back). */
void lab_param_format(const struct lab_param *p, const void *base, char *buf, size_t len);

/* Whether p has effect at the values in base of the table it is in (p->applies; always
 * without). */
bool lab_param_applies(const struct lab_param *table, const struct lab_param *p, const void *base);

/* Whether p has effect where key (an enum key of p's table) reads value: 1 or 0; -1 when key is
 * not what p's effect depends on. */
int lab_param_applies_value(const struct lab_param *p, const char *key, const char *value);

/* The key p's effect depends on, into buf ("layout"); NULL when it always has effect. */
const char *lab_param_applies_key(const struct lab_param *p, char *buf, size_t len);

/* Where p has effect, as a reader sees it: "layout = stride", "schedule = dynamic or guided";
 * "" when always. */
void lab_param_applies_text(const struct lab_param *p, char *buf, size_t len);

/* Whether a key of kernel k applies only at some values of another (LAB_APPLIES). */
bool lab_kernel_has_applies(const struct lab_kernel *k);

/* Writes what p allows: "1 .. 4096 bytes", "one of: plain, atomic", "true or false". */
void lab_param_allowed(const struct lab_param *p, char *buf, size_t len);

/* The name of p's type as shown to users: "size", "duration", "integer", ... */
const char *lab_param_type_name(enum lab_ptype type);

/* Parsers of the value grammar, usable alone. Each returns 0 or -LAB_ECONFIG with a reason. */
int lab_parse_u64(const char *text, uint64_t *out, struct lab_err *err);
int lab_parse_size(const char *text, uint64_t *out, struct lab_err *err);
int lab_parse_duration(const char *text, uint64_t *out, struct lab_err *err);
int lab_parse_double(const char *text, double *out, struct lab_err *err);
int lab_parse_bool(const char *text, bool *out, struct lab_err *err);

/* The longest text lab_edit_distance measures. */
#define LAB_EDIT_DISTANCE_MAX 100

/* Levenshtein distance of a and b; LAB_EDIT_DISTANCE_MAX when either is longer than that (no
 * distance is worked out: a caller must not take it as "close"). */
unsigned lab_edit_distance(const char *a, const char *b);

#endif
