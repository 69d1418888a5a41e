/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The canonical text of a placement value. The planner writes it into every point (run.json's
 * "placement", samples.csv's params) and de-duplicates a sweep on it; the analyzer holds a
 * lesson's claim to the expr the planner rewrote it into. Base code shared by both sides: text
 * only, no topology, so the analyzer links it without the runtime.
 *
 * Two texts are one placement when they give the same CPUs in the same order (thread i runs on
 * the i-th) on every topology:
 *   node:N     N in plain digits: node:007 is node:7;
 *   list:CPUS  the same CPU numbers in the same order: list:0,1,2,3, list:0-3 and
 *              list: 00-1 ,2-3 are list:0-3, list:0,2,4,6 is list:0-6:2; list:1,0 stays itself;
 *   expr:EXPR  the same indices of the same domains, in the same numbering, in the same
 *              order: S01 is S1, S0:0-1@S0:2-3 is S0:0-3, E:S0:4:2:2 is E:S0:4. Different
 *              domains stay apart (N:0 and S0:0 are one CPU on one machine and not on
 *              another), and so do E: and DOMAIN:INDICES: E: walks a domain core by core,
 *              indices number it physical cores first, so E:S0:4 is S0:0-3 only where a core
 *              has one CPU.
 * The canonical text is the shortest that writes that order, so it is never longer than any
 * text that reads to it; ties go by a fixed rule (place_text.c). compact, cores, scatter and
 * pairs are their own canonical text.
 */
#ifndef LAB_HARNESS_PLACE_TEXT_H
#define LAB_HARNESS_PLACE_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* The limits of the grammar this reads, the planner's own (place_parse.c checks they agree):
 * the highest CPU number, the CPUs of a list, the CPUs an expression selects, a number in an
 * expression and the highest NUMA node. */
#define LAB_PLACE_TEXT_CPU_MAX    65535
#define LAB_PLACE_TEXT_LIST_MAX   1024
#define LAB_PLACE_TEXT_PICKS_MAX  4096
#define LAB_PLACE_TEXT_NUMBER_MAX 1000000
#define LAB_PLACE_TEXT_NODE_MAX   4095

/*
 * Writes the canonical text of placement value text into buf (size bytes, NUL-terminated) and
 * returns true. Returns false, with text copied into buf as far as it fits, when text is not a
 * placement this reads (an unknown policy, a list or expression out of the grammar, a CPU or
 * domain index twice) or its canonical text does not fit in size. text and buf must not
 * overlap.
 */
bool lab_place_text_canon(const char *text, char *buf, size_t size);

#endif
