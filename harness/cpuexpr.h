/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * likwid-pin's thread-domain CPU expressions (placement = expr:EXPR), over the domains of
 * harness/topo_domain.h. EXPR is one or more parts joined with '@', each either
 *   DOMAIN:INDICES                 indices into the domain's numbering (physical cores first):
 *                                  N, A-B, separated by commas (S0:0-3, M1:0,2,4, N:0-7)
 *   E:DOMAIN:COUNT[:CHUNK:STRIDE]  COUNT CPUs of the domain walked as `likwid-pin -p` lists it,
 *                                  core by core with a core's hardware threads together: CHUNK
 *                                  consecutive ones, the next chunk STRIDE after the start of
 *                                  this one; without CHUNK:STRIDE the first COUNT. With 2
 *                                  threads per core E:N:4:1:2 is one CPU on each of the first 4
 *                                  cores and E:N:2 both CPUs of the first core
 * and selects the CPUs of its parts in the order written. DOMAIN is N, S<i>, D<i>, C<i> or M<i>.
 * A CPU selected twice, an index past its domain, a descending range (3-1), a CHUNK larger than
 * COUNT or a STRIDE smaller than CHUNK is an error; so are likwid's L: prefix, its scatter and
 * balanced (and cbalanced) forms and a bare OS CPU list, each with what to write instead.
 * docs/configs.md has the long version.
 */
#ifndef LAB_HARNESS_CPUEXPR_H
#define LAB_HARNESS_CPUEXPR_H

#include "harness/err.h"
#include "harness/topo_domain.h"

/* The most CPUs an expression may select (the most PUs the lab plans on). */
#define LAB_CPUEXPR_MAX LAB_TOPO_PUS_MAX

/* What an expression may be, for messages ("allowed: ..."). */
#define LAB_CPUEXPR_ALLOWED                                                                        \
	"allowed: DOMAIN:INDICES such as S0:0-3 or M1:0,2,4, or E:DOMAIN:COUNT[:CHUNK:STRIDE] "    \
	"such as E:S0:8:2:4, parts joined with @; DOMAIN is N, S<i>, D<i>, C<i> or M<i>"

/*
 * Checks expr for everything that does not depend on a topology: its syntax, the domain
 * letters, ranges that run forwards, COUNT/CHUNK/STRIDE, and a CPU selected twice on any
 * topology (the same index of the same domain in the same numbering: an E: index and one of
 * DOMAIN:INDICES meet only on some topologies, which resolving finds). Returns 0, or
 * -LAB_ECONFIG with a message that quotes the bad part and says what is allowed (-LAB_ENOMEM
 * out of memory).
 */
int lab_cpuexpr_check(const char *expr, struct lab_err *err);

/*
 * Checks expr as lab_cpuexpr_check does and returns how many CPUs it selects (>= 1): the same on
 * every topology where it resolves, because each index it names is one CPU. Negative as
 * lab_cpuexpr_check.
 */
int lab_cpuexpr_count(const char *expr, struct lab_err *err);

/*
 * Resolves expr on doms: writes the OS CPU indices it selects, in order, into cpus (room for
 * max) and returns how many (>= 1). Returns -LAB_ECONFIG with the message when expr is bad, names
 * a domain doms does not have (the message lists the ones there are), reaches past a domain,
 * selects a CPU twice or selects more than max CPUs. Pure: reads doms only.
 */
int lab_cpuexpr_resolve(const char *expr, const struct lab_topo_domains *doms, int *cpus,
                        unsigned max, struct lab_err *err);

#endif
