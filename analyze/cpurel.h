/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Where two CPUs sit relative to each other (SMT siblings, same package, same NUMA node), from
 * run.json's host.topology. With host.topology.pus_detail = [{cpu, package, numa, core,
 * smt_rank}] (the shape `lab topo --json` prints) every relation is known; without it only what
 * the summary counts prove (one package, one NUMA node, no SMT) is known and the rest reads as
 * unknown. Pure lookups on the parsed document.
 */
#ifndef LAB_ANALYZE_CPUREL_H
#define LAB_ANALYZE_CPUREL_H

#include "analyze/jsonr.h"

struct lab_an_cpurel {
	const struct lab_an_json *pus;     /* pus_detail array, or NULL */
	int one_package, one_numa, no_smt; /* 1 when the summary proves it */
};

/* Reads what run (may be NULL) says about the topology. */
void lab_an_cpurel_init(struct lab_an_cpurel *r, const struct lab_an_json *run);

/* The relations of CPUs a and b (OS indices): each 1, 0, or -1 when unknown. */
void lab_an_cpurel_get(const struct lab_an_cpurel *r, int a, int b, int *smt_siblings,
                       int *same_package, int *same_numa);

/* 1 when pus_detail is present (every relation of the CPUs it lists is known). */
int lab_an_cpurel_detailed(const struct lab_an_cpurel *r);

#endif
