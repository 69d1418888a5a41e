/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The range a metric can take (its domain), and the one rule intervals follow: the 95 %
 * interval of a mean is clipped to the range the mean can take. A mean of values inside a
 * range lies inside it, so clipping never cuts off the true mean and keeps the coverage; it
 * only removes the part of a symmetric t-interval that no value could reach (a negative
 * latency, a Jain index above 1, a max/min ratio below 1).
 *
 * The domains of the lab's own metrics are listed by name (lab_domain_of, harness/
 * metric_domain.h): samples.csv's
 * header carries only names. A value outside a bounded domain is a data error (the loader says
 * FILE:LINE and what is allowed). A metric the list does not know is clipped at 0 when every
 * used sample is >= 0 (a mean of non-negative values is non-negative), else left as it is.
 */
#ifndef LAB_ANALYZE_DOMAIN_H
#define LAB_ANALYZE_DOMAIN_H

#include <stddef.h>

#include "harness/metric_domain.h"

/* The metric whose value a sample's value of name may not exceed (one sample's p10 is no more
 * than its p50, a thread's least busy time no more than the mean): its name, or NULL. */
const char *lab_an_domain_below(const char *name);

/* 1 when a sample x may be written for a metric of domain dom at threads threads (with a
 * relative slack of 1e-9 for the rounding of a computed ratio); 0 otherwise. UNKNOWN and ANY allow
 * every value. */
int lab_an_domain_allows(enum lab_domain dom, long threads, double x);

/* 1 when x, a sample of a metric of domain dom, fits in the sample's elapsed_ns (SPAN: 0 .. it,
 * SPAN_DIFF: -it .. it, both with lab_an_domain_span_ok's slack; other domains: 1). */
int lab_an_domain_fits(enum lab_domain dom, double x, double elapsed_ns);

/* 1 when x, a value of a LAB_DOM_SPAN metric, fits in a sample of elapsed_ns (with a slack of
 * 8 % and 1 us: a latency histogram's bucket middle lies up to 1/16 above the value, and the
 * clocks' reads); 0 otherwise (a p99 latency of 1e308 ns in a 2 ms sample was taken as
 * measured). */
int lab_an_domain_span_ok(double x, double elapsed_ns);

/* What dom allows, for an error message: "a number in [0.25, 1]". Writes to buf (len bytes)
 * and returns it. */
const char *lab_an_domain_text(enum lab_domain dom, long threads, char *buf, size_t len);

/* Clips the interval [*lo, *hi] to dom's range at threads; for UNKNOWN and PCT_CHANGE, *lo is
 * raised to 0 when min (the least used sample) is >= 0. NaN ends stay NaN. */
void lab_an_domain_clip(enum lab_domain dom, long threads, double min, double *lo, double *hi);

#endif
