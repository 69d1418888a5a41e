/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The core clock under load, measured: a chain of dependent register adds retires one add per
 * cycle on every x86 core of the last twenty years, so adds per nanosecond of this thread's CPU
 * time is the clock in GHz (the chain: lab_coreclock_add_chain; lab counters also counts it as a
 * known workload). The TSC is no substitute: it ticks at a fixed rate (2.6 GHz on the AMD build
 * VMs, whose cores run at about 3.65), so cycles must come from here. Used by the self-check
 * (run.json core_ghz), lab topo and kernels that report cycles (peak).
 */
#ifndef LAB_HARNESS_CORECLOCK_H
#define LAB_HARNESS_CORECLOCK_H

#include <stdint.h>

#define LAB_CORECLOCK_CHAIN_BLOCK 64 /* dependent adds per block of lab_coreclock_add_chain */

/* blocks x LAB_CORECLOCK_CHAIN_BLOCK dependent adds: as many cycles on any core. */
void lab_coreclock_add_chain(uint64_t blocks);

/*
 * The calling thread's core clock in GHz: the fastest of seven ~2 ms chains timed in thread CPU
 * time (the least disturbed one; time other processes took the CPU is not counted), or NAN
 * where the clock cannot be read.
 */
double lab_coreclock_ghz(void);

#endif
