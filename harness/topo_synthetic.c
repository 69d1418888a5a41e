/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A synthetic topology description (--topology synthetic:...) checked on its text before hwloc
 * builds it: its PU count is the product of its level arities and its indexes= are small
 * distinct numbers. hwloc would build a topology of millions of PUs for minutes, and takes an
 * index of 2^31 as a bitmap of 2^31 bits.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/topo_internal.h"

/* Past the ')' closing the attributes that open at c, or NULL when none closes them (hwloc
 * refuses the description then). */
static const char *topo_synthetic_attrs_end(const char *c)
{
	c = strchr(c, ')');
	return c ? c + 1 : NULL;
}

/*
 * At most LAB_TOPO_PUS_MAX PUs in the synthetic description desc (of --topology spec), before
 * hwloc builds it: 64 64 64 took over a minute and 1.2 GB inside hwloc. The PUs are the product
 * of every level's arity, read as hwloc's parser reads them (hwloc_backend_synthetic_init in
 * topology-synthetic.c): a level is "type:N" or a bare N (strtoul base 0, so 0x40 is 64),
 * attributes in () and attached memory in [] add none. What hwloc would refuse anyway ends the
 * count. Returns 0 or -LAB_ETOPO.
 */
static int topo_synthetic_check(const char *spec, const char *desc, struct lab_err *err)
{
	unsigned long long pus = 1;
	const char *c = desc;

	if (*c == '(' && !(c = topo_synthetic_attrs_end(c)))
		return 0;
	while (c && *c) {
		char *end;

		while (*c == ' ' || *c == '\n')
			c++;
		if (!*c)
			break;
		if (*c == '[') {
			c = strchr(c, ']');
			c = c ? c + 1 : NULL;
			continue;
		}
		/* hwloc takes the arity after the next ':' wherever it is */
		if ((*c < '0' || *c > '9') && !(c = strchr(c, ':')))
			break;
		c += *c == ':';
		unsigned long n = strtoul(c, &end, 0);
		if (end == c || !n)
			break;
		if (n > LAB_TOPO_PUS_MAX || (pus *= n) > LAB_TOPO_PUS_MAX)
			return lab_err_set(err, LAB_ETOPO,
			                   "%s: more than %d PUs (the lab plans topologies of at "
			                   "most %d PUs)",
			                   spec, LAB_TOPO_PUS_MAX, LAB_TOPO_PUS_MAX);
		c = *end == '(' ? topo_synthetic_attrs_end(end) : end;
	}
	return 0;
}

/*
 * One indexes= value v of len characters: whole numbers 0 .. LAB_TOPO_OS_MAX written in digits,
 * as XML os_index (hwloc's strtoul took 2147483648: a bitmap of 2^31 bits and a crash), and in
 * an explicit list none twice (indexes=0,0 made two PUs one). An interleaving of level names
 * (Core:PU) has no numbers: hwloc keeps what it makes below the level's width. Returns 0 or
 * -LAB_ETOPO.
 */
static int topo_synthetic_index_list(const char *spec, const char *v, size_t len,
                                     struct lab_err *err)
{
	uint64_t seen[(LAB_TOPO_OS_MAX + 1) / 64] = {0};
	bool list = !memchr(v, '*', len) && !memchr(v, ':', len); /* else steps as 4*2:1*2 */
	const char *p = v, *end = v + len;

	if (isalpha((unsigned char)*v))
		return 0;
	for (;;) {
		const char *num = p;
		unsigned long n = 0;

		while (p < end && isdigit((unsigned char)*p) && n <= LAB_TOPO_OS_MAX)
			n = n * 10 + (unsigned)(*p++ - '0');
		if (p == num || n > LAB_TOPO_OS_MAX ||
		    (p < end && !strchr(list ? "," : "*:", *p))) {
			size_t w = strcspn(num, ",*: )");
			return lab_err_set(err, LAB_ETOPO,
			                   "%s: index '%.*s' is out of range (allowed in indexes=: "
			                   "whole numbers 0 .. %d, e.g. indexes=0,2,1,3 or "
			                   "indexes=Core:PU)",
			                   spec, (int)(w < 24 ? w : 24), num, LAB_TOPO_OS_MAX);
		}
		if (list && seen[n / 64] & (1ull << (n % 64)))
			return lab_err_set(err, LAB_ETOPO,
			                   "%s: index %lu appears twice in one indexes= list "
			                   "(allowed: each object its own index)",
			                   spec, n);
		seen[n / 64] |= 1ull << (n % 64);
		if (p == end)
			return 0;
		p++;
	}
}

/* Every indexes= of the synthetic description desc, wherever it is (the root's, a level's, an
 * attached NUMA node's), read to where hwloc ends it. Returns 0 or -LAB_ETOPO. */
static int topo_synthetic_indexes(const char *spec, const char *desc, struct lab_err *err)
{
	static const char attr[] = "indexes=";

	for (const char *c = strstr(desc, attr); c; c = strstr(c + 1, attr)) {
		const char *v = c + sizeof(attr) - 1;
		int rc = topo_synthetic_index_list(spec, v, strcspn(v, " )"), err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int lab__topo_synthetic_check(const char *spec, const char *desc, struct lab_err *err)
{
	int rc = topo_synthetic_check(spec, desc, err);

	return rc < 0 ? rc : topo_synthetic_indexes(spec, desc, err);
}
