/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * How much memory a point's buffers may still take, so a size past the memory left is an error
 * with both sizes before anything is timed, not swapping or the OOM killer (size = 8G on a
 * 4 GiB machine). The measure is MemAvailable of /proc/meminfo: what the kernel says a new
 * allocation can get without swapping.
 *
 * The live reading alone misses two cases: pages a buffer has not touched yet (no_touch, the
 * membind = first_touch binding, an OpenMP team touching its blocks later) are not out of
 * MemAvailable yet, and the threads of a point allocate in thread_setup at the same time, each
 * seeing the memory the others are about to take. So while a point runs (lab_mem_budget_begin
 * .. lab_mem_budget_end, which the runner brackets through lab_membind_begin/end) every buffer
 * is checked against MemAvailable as it was when the point began, less every buffer the point
 * still holds, touched or not.
 */
#ifndef LAB_HARNESS_MEMAVAIL_H
#define LAB_HARNESS_MEMAVAIL_H

#include <stddef.h>

#include "harness/err.h"

/* MemAvailable in bytes, or SIZE_MAX when the file does not say (or cannot be read). */
size_t lab_mem_available(void);

/* Starts a point's budget: MemAvailable now, nothing held. */
void lab_mem_budget_begin(void);

/* Ends it: buffers are checked against the live MemAvailable again, one at a time. */
void lab_mem_budget_end(void);

/*
 * Takes bytes out of the point's budget (outside a point: checks bytes against the live
 * MemAvailable) and sets *held to what must be given back with lab_mem_release (0 outside a
 * point). Returns 0, or -LAB_ENOMEM with the buffer's size and the memory left in err; nothing
 * is taken then. Thread-safe.
 */
int lab_mem_reserve(size_t bytes, size_t *held, struct lab_err *err);

/* Gives back what lab_mem_reserve set in *held; does nothing once the point has ended. */
void lab_mem_release(size_t held);

/* For tests: read path instead of /proc/meminfo (NULL: /proc/meminfo again). The caller keeps
 * path alive while it is set. */
void lab_mem_meminfo_path(const char *path);

/* What node can still give a buffer bound to it: its MemFree, its page cache (Active(file) +
 * Inactive(file)) and its reclaimable kernel memory (KReclaimable), which the kernel reclaims,
 * in bytes; SIZE_MAX when its meminfo (in /sys/devices/system/node/nodeN) cannot be read. */
size_t lab_mem_node_available(int node);

/*
 * Takes a buffer of bytes bound to node (MPOL_BIND, which does not spill to another node: past
 * the node's memory the OOM killer ends the whole run) out of the point's budget for that node:
 * what it could give when the point first bound a buffer there, less the point's other
 * buffers bound there, touched or not (outside a point: the live reading). Sets *held to what
 * lab_mem_node_release gives back. Returns 0, or -LAB_ENOMEM with the sizes in err.
 */
int lab_mem_node_reserve(int node, size_t bytes, size_t *held, struct lab_err *err);
void lab_mem_node_release(int node, size_t held);

/* For tests: the directory holding nodeN/meminfo (NULL: /sys/devices/system/node again). */
void lab_mem_node_dir(const char *dir);

#endif
