/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Provenance: the conditions every number carries. Collected once per run; what cannot be read
 * is recorded as "unavailable", never guessed.
 */
#ifndef LAB_HARNESS_PROV_H
#define LAB_HARNESS_PROV_H

#include <stdbool.h>

#include "harness/json.h"
#include "harness/topo.h"

struct lab_prov {
	char hostname[128];
	char kernel[400];
	char cpu_model[128];
	char governor[64];
	char thp[64];
	char smt[32];
	double loadavg[3];
	double clock_resolution_ns;
	double clock_read_cost_ns;
	bool counters;
	char counters_reason[160];
	unsigned cpu_detected; /* enum lab_cpu_feature: what cpuid and xgetbv allow */
	unsigned cpu_masked;   /* detected features hidden by LAB_CPU_MASK */
};

/* Fills p from /proc, /sys, uname, cpuid and a trial perf_event_open. Never fails (a bad
 * LAB_CPU_MASK masks nothing here; the planner reports it). */
void lab_prov_collect(struct lab_prov *p);

/* Writes the "host" object of run.json (topology facts from topo). */
void lab_prov_write_host(const struct lab_prov *p, const struct lab_topo *topo, struct lab_json *j);

/* Writes the "lab" object: version, git sha, compiler, flags, build type. */
void lab_prov_write_build(struct lab_json *j);

/*
 * Writes "cpu_features": {"detected": [...], "masked": [...], "usable": [...]} (names as
 * lab_cpu_name; masked = hidden by LAB_CPU_MASK, usable = what check() sees).
 */
void lab_prov_write_cpu_features(struct lab_json *j, unsigned detected, unsigned masked);

/* Why hardware counters are unavailable, or NULL when a cycles counter opens. */
const char *lab_prov_counters_probe(char *buf, size_t len);

#endif
