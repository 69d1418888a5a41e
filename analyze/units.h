/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Reading parameter values the way the lab's configs write them. A size is a number with an
 * optional suffix: B (1), K, k, KiB (1024), M, MiB (1024²), G, GiB (1024³), the same rules as
 * the run side (README "Configs"); run.json and samples.csv carry params as written.
 */
#ifndef LAB_ANALYZE_UNITS_H
#define LAB_ANALYZE_UNITS_H

#include <stddef.h>

/* The bytes of size text ("64", "4K", "1MiB"), or NaN when it is not a size. */
double lab_an_size_bytes(const char *text);

/* The largest size a results file may name: past every kernel's range (64 GiB at most). */
#define LAB_AN_SIZE_MAX ((double)(1ull << 40))

/* 1 when text is a size of a whole number of bytes, 0 .. LAB_AN_SIZE_MAX ("1e308", "1.5" and
 * "-5" are not: a roofline ceiling named "DRAM 1e308" was drawn from one), else 0. */
int lab_an_size_ok(const char *text);

/* The params that hold sizes in bytes (the kernels' LAB_P_SIZE keys), NULL-terminated. */
extern const char *const lab_an_size_keys[];

/* 1 when key (klen bytes, not NUL-terminated there) is one of the NULL-terminated keys
 * (lab_an_size_keys, lab_an_duration_keys). */
int lab_an_key_in(const char *const *keys, const char *key, size_t klen);

/* The params that hold durations (the kernels' LAB_P_DURATION keys), NULL-terminated. */
extern const char *const lab_an_duration_keys[];

/* 1 when text is a duration as results files write it: a finite number >= 0 with ns, us, ms or
 * s, or bare (0 as the planner writes it; a number of ns in older results), else 0
 * ("banana", "0 ns" and "0Ns" split a lock series into two tables: hostile38). */
int lab_an_duration_ok(const char *text);

#endif
