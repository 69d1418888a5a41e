/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The unit suffixes of the config language, one table for the run side (harness/param.c parses
 * configs with it) and the analyzer (which reads the same values back from results files). A
 * base header: the analyzer may include it.
 */
#ifndef LAB_HARNESS_UNITS_H
#define LAB_HARNESS_UNITS_H

/* A suffix and what it multiplies by; tables end with a NULL name. */
struct lab_unit_suffix {
	const char *name;
	double mult;
};

/* Sizes: "" and B (1), K k KiB (1024), M MiB (1024²), G GiB (1024³). */
extern const struct lab_unit_suffix lab_size_suffixes[];

#endif
