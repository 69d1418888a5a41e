/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The core clock under load, measured: a chain of dependent integer adds retires one add per
 * cycle on every x86 core of the last twenty years, so adds per nanosecond is the clock in GHz.
 * The TSC is no substitute: it ticks at a fixed rate (2.6 GHz on the build VMs, whose cores run
 * at about 3.65), so cycles must come from here.
 */
#ifndef LAB_HARNESS_CORECLOCK_H
#define LAB_HARNESS_CORECLOCK_H

#include <stdbool.h>
#include <stdint.h>

/* Dependent adds per trip of lab_coreclock_chain. */
#define LAB_CORECLOCK_ADDS_PER_LOOP 10

/* True where lab_coreclock_chain is a real dependent-add chain (x86-64); elsewhere no clock. */
bool lab_coreclock_available(void);

/* Runs loops x LAB_CORECLOCK_ADDS_PER_LOOP dependent 1-cycle adds on the calling thread. */
void lab_coreclock_chain(uint64_t loops);

/*
 * The calling thread's core clock in GHz: the best of five ~2 ms chains (the least disturbed
 * one), or NAN where no chain is available.
 */
double lab_coreclock_ghz(void);

#endif
