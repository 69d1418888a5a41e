/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Where two CPUs sit relative to each other (SMT siblings, same package, same NUMA node), from
 * run.json's host.topology. With host.topology.pus_detail = [{cpu, package, numa, core, llc,
 * smt_rank}] (the shape `lab topo --json` prints; llc, the last-level cache, from labs that record
 * it) every relation is known; without it only what the summary counts prove (one package, one
 * NUMA node, no SMT) is known and the rest reads as unknown. Lookups on the parsed document,
 * through its PUs sorted by CPU once (a scan per lookup was quadratic in a hostile pus_detail).
 */
#ifndef LAB_ANALYZE_CPUREL_H
#define LAB_ANALYZE_CPUREL_H

#include "analyze/jsonr.h"

struct lab_an_cpurel {
	const struct lab_an_json *pus;     /* pus_detail array, or NULL */
	double *by_cpu;                    /* (cpu, index in pus) pairs sorted by cpu; NULL: scan */
	int one_package, one_numa, no_smt; /* 1 when the summary proves it */
};

/* Reads what run (may be NULL) says about the topology; lab_an_cpurel_free releases it. */
void lab_an_cpurel_init(struct lab_an_cpurel *r, const struct lab_an_json *run);
void lab_an_cpurel_free(struct lab_an_cpurel *r);

/* The relations of CPUs a and b (OS indices): each 1, 0, or -1 when unknown. */
void lab_an_cpurel_get(const struct lab_an_cpurel *r, int a, int b, int *smt_siblings,
                       int *same_package, int *same_numa, int *same_llc);

/* 1 when pus_detail is present (every relation of the CPUs it lists is known). */
int lab_an_cpurel_detailed(const struct lab_an_cpurel *r);

#endif
