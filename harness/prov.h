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
	char hypervisor[32];   /* lab_cpu_hypervisor: "" on bare metal */
	/* The Slurm job this run is part of ("" when not under Slurm): from SLURM_* variables. */
	struct {
		char job_id[32], array_job_id[32], array_task_id[32], procid[32];
		char node[64], partition[128], cpus_on_node[32], job_cpus[128];
	} slurm;
};

/* Fills p from /proc, /sys, uname, cpuid and a trial perf_event_open. Never fails (a bad
 * LAB_CPU_MASK masks nothing here; the planner reports it). */
void lab_prov_collect(struct lab_prov *p);

/* Writes the "host" object of run.json (topology facts from topo). */
void lab_prov_write_host(const struct lab_prov *p, const struct lab_topo *topo, struct lab_json *j);

/*
 * The CPUs the Slurm job gave this task when the lab runs under Slurm (SLURM_JOB_ID set) and
 * fewer than want may be used, as a hint for an error message ("the Slurm job 12 gives this
 * task 1 CPU on node n1: submit with --exclusive or -c 4"); otherwise buf is "". Returns buf.
 */
const char *lab_prov_slurm_hint(unsigned allowed, unsigned want, char *buf, size_t len);

/* Writes the "lab" object: version, git sha, compiler, flags, build type. */
void lab_prov_write_build(struct lab_json *j);

/* Writes topo's NUMA distance matrix as "numa_distances": [[10, 21], [21, 10]] (rows in node
 * order; nothing when the topology has none, as synthetic ones). */
void lab_prov_write_distances(struct lab_json *j, const struct lab_topo *topo);

/* Writes "numa_memory": [{"node": 0, "os_index": 0, "local_memory_bytes": N}, ...]. */
void lab_prov_write_numa_memory(struct lab_json *j, const struct lab_topo *topo);
/* "caches": the data cache levels (size in bytes, one instance's sharing PUs): hwloc's, or a
 * size measured or given here in place of the one it reports (size_from, reported_size). */
void lab_prov_write_caches(struct lab_json *j, const struct lab_topo *topo);

/*
 * Writes "cpu_features": {"detected": [...], "masked": [...], "usable": [...]} (names as
 * lab_cpu_name; masked = hidden by LAB_CPU_MASK, usable = what check() sees).
 */
void lab_prov_write_cpu_features(struct lab_json *j, unsigned detected, unsigned masked);

/* Why hardware counters are unavailable, or NULL when a cycles counter opens. */
const char *lab_prov_counters_probe(char *buf, size_t len);

#endif
