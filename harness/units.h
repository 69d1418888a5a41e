/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The unit suffixes of the config language, one table for the run side (harness/param.c parses
 * configs with it) and the analyzer (which reads the same values back from results files). A
 * base header: the analyzer may include it.
 */
#ifndef LAB_HARNESS_UNITS_H
#define LAB_HARNESS_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* A suffix and what it multiplies by; tables end with a NULL name. */
struct lab_unit_suffix {
	const char *name;
	double mult; /* a whole number up to LAB_UNIT_MULT_MAX where integers are read */
};

/* Sizes: "" and B (1), K k KiB (1024), M MiB (1024²), G GiB (1024³). */
extern const struct lab_unit_suffix lab_size_suffixes[];

/* Counts: "" (1), K k (1000), M (1000²), G (1000³). */
extern const struct lab_unit_suffix lab_count_suffixes[];

/* Durations in nanoseconds: ns (1), us (1000), ms, s; a bare number is no duration (0 aside,
 * which the run side reads as 0). */
extern const struct lab_unit_suffix lab_duration_suffixes[];

/* The largest multiplier lab_unit_scale_exact takes. */
#define LAB_UNIT_MULT_MAX 4294967296.0

/* What lab_unit_scale_exact found. */
enum lab_unit_exact {
	LAB_UNIT_EXACT_OK,       /* a whole number up to UINT64_MAX */
	LAB_UNIT_EXACT_LARGE,    /* past UINT64_MAX */
	LAB_UNIT_EXACT_FRACTION, /* 1 or more, with a fraction */
	LAB_UNIT_EXACT_UNDER,    /* more than 0, less than 1 */
};

/*
 * The length of the plain decimal at the start of s: [+]digits[.digits][(e|E)[+-]digits], at
 * least one digit before the exponent (".5" and "5." count). An 'e' without digits after it is
 * not part of the number. 0 when s does not start with one. strtod would also read hex, inf and
 * nan, which no config form allows.
 */
size_t lab_unit_decimal_len(const char *s);

/*
 * The value of the plain decimal s[0..len) (as lab_unit_decimal_len measured it) times mult (a
 * whole number, 1 .. LAB_UNIT_MULT_MAX), worked out on its decimal digits, so nothing is
 * rounded: 9007199254740993 stays itself and 1.0000000000000001 is not 1. Stores *out only on
 * LAB_UNIT_EXACT_OK.
 */
enum lab_unit_exact lab_unit_scale_exact(const char *s, size_t len, double mult, uint64_t *out);

#endif
