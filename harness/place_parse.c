/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Placement text: the policy grammar (compact, cores, scatter, pairs, node:N, list:CPUS,
 * expr:EXPR) read into a struct lab_placement, its canonical text, and the thread counts a
 * placement allows on any topology. Pure text: the planner that puts a placement onto a
 * topology (place.c) calls in here, never the other way.
 */
#include "harness/topo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cpuexpr.h"
#include "harness/param.h"
#include "harness/place_text.h"

#define PLACE_ALLOWED                                                                              \
	"allowed: compact, cores, scatter, pairs, node:N, list:CPUS such as list:0,2,4-7 or "      \
	"list:0-14:2, or expr:EXPR with likwid thread domains such as expr:S0:0-3@S1:0-3"
#define PLACE_LIST_ALLOWED                                                                         \
	"allowed: CPU numbers N, ranges A-B and A-B:STEP separated by commas, "                    \
	"e.g. list:0,2,4-7,16-30:2"

/* Reads a non-negative number at *s (LONG_MAX when it is larger); advances *s past it and the
 * blanks (spaces, tabs) around it. Returns -1 when there is none. The caller says which range it
 * allows: a number too large is a value out of range, not text that cannot be read. */
static long place_number(const char **s)
{
	char *end;
	long v;

	*s += strspn(*s, " \t");
	if (**s < '0' || **s > '9')
		return -1;
	v = strtol(*s, &end, 10); /* too large: LONG_MAX, end past every digit */
	*s = end + strspn(end, " \t");
	return v;
}

/*
 * Reads the CPU number at *s into *cpu. No topology has a CPU past LAB_TOPO_OS_MAX (topo.c
 * refuses one), so such a number is an error on any machine, said with the digits as written.
 */
static int place_cpu(const char **s, const char *text, long *cpu, struct lab_err *err)
{
	const char *digits = *s + strspn(*s, " \t");

	*cpu = place_number(s);
	if (*cpu <= LAB_TOPO_OS_MAX)
		return 0;
	return lab_err_set(err, LAB_ECONFIG,
	                   "placement '%s': cpu %.*s is past the highest CPU number (allowed 0 "
	                   ".. %d)",
	                   text, (int)strspn(digits, "0123456789"), digits, LAB_TOPO_OS_MAX);
}

/* Parses one item "N", "A-B" or "A-B:STEP" ending at ',' or the end, and appends its CPUs. */
static int place_list_item(const char **s, const char *text, struct lab_placement *p,
                           struct lab_err *err)
{
	const char *item = *s;
	long a, b, step = 1;
	int rc;

	if ((rc = place_cpu(s, text, &a, err)) < 0)
		return rc;
	if (a < 0)
		goto bad;
	b = a;
	if (**s == '-') {
		(*s)++;
		if ((rc = place_cpu(s, text, &b, err)) < 0)
			return rc;
		if (b < 0)
			goto bad;
		if (**s == ':') {
			(*s)++;
			/* A step past the highest CPU number takes the range's first CPU only, as
			 * the highest does: larger ones add nothing. */
			step = place_number(s);
			if (step < 1 || step > LAB_TOPO_OS_MAX)
				return lab_err_set(err, LAB_ECONFIG,
				                   "placement '%s': the step of a range must be a "
				                   "number from 1 to %d (%s)",
				                   text, LAB_TOPO_OS_MAX, PLACE_LIST_ALLOWED);
		}
		if (b < a)
			return lab_err_set(err, LAB_ECONFIG,
			                   "placement '%s': range %ld-%ld runs backwards (%s)",
			                   text, a, b, PLACE_LIST_ALLOWED);
	}
	if (**s != ',' && **s != '\0')
		goto bad;
	for (long c = a; c <= b; c += step) {
		if (p->nlist == LAB_PLACE_LIST_MAX)
			return lab_err_set(err, LAB_ECONFIG,
			                   "placement '%s': too many CPUs (allowed: at most %d)",
			                   text, LAB_PLACE_LIST_MAX);
		for (unsigned i = 0; i < p->nlist; i++)
			if (p->list[i] == c)
				return lab_err_set(
				    err, LAB_ECONFIG,
				    "placement '%s': cpu %ld is listed twice (each CPU once)", text,
				    c);
		p->list[p->nlist++] = (int)c;
	}
	return 0;
bad:
	return lab_err_set(err, LAB_ECONFIG, "placement '%s': cannot read '%.*s' (%s)", text,
	                   (int)strcspn(item, ","), item, PLACE_LIST_ALLOWED);
}

/* The placement policies named by a word alone. */
static const struct {
	const char *name;
	enum lab_place_kind kind;
} place_names[] = {
    {"compact", LAB_PLACE_COMPACT},
    {"cores", LAB_PLACE_CORES},
    {"scatter", LAB_PLACE_SCATTER},
    {"pairs", LAB_PLACE_PAIRS},
};

/* An unknown placement, with the policy name it is near ('core', 'scater': at most 2 edits,
 * as key typos get). Returns -LAB_ECONFIG. */
static int place_unknown(const char *text, struct lab_err *err)
{
	const char *near = NULL;
	unsigned best = 3;

	for (size_t i = 0; i < sizeof(place_names) / sizeof(place_names[0]); i++) {
		unsigned dist = lab_edit_distance(text, place_names[i].name);

		if (dist < best) {
			best = dist;
			near = place_names[i].name;
		}
	}
	if (near)
		return lab_err_set(err, LAB_ECONFIG,
		                   "placement '%s': unknown policy (did you mean '%s'? %s)", text,
		                   near, PLACE_ALLOWED);
	return lab_err_set(err, LAB_ECONFIG, "placement '%s': unknown policy (%s)", text,
	                   PLACE_ALLOWED);
}

int lab_placement_parse(const char *text, struct lab_placement *p, struct lab_err *err)
{
	const char *s;
	int rc;

	memset(p, 0, sizeof(*p));
	if (!text)
		text = "";
	for (size_t i = 0; i < sizeof(place_names) / sizeof(place_names[0]); i++) {
		if (!strcmp(text, place_names[i].name)) {
			p->kind = place_names[i].kind;
			return 0;
		}
	}
	if (!strncmp(text, "node:", 5)) {
		const char *d = text + 5;
		long node = place_number(&d);
		p->kind = LAB_PLACE_NODE;
		p->node = node < 0 || node > LAB_PLACE_TEXT_NODE_MAX ? -1 : (int)node;
		if (p->node < 0 || *d)
			return lab_err_set(err, LAB_ECONFIG,
			                   "placement '%s': node:N takes one NUMA node number "
			                   "(allowed node:0 .. node:4095)",
			                   text);
		return 0;
	}
	if (!strncmp(text, "expr:", 5)) {
		p->kind = LAB_PLACE_EXPR;
		if (strlen(text + 5) >= sizeof(p->expr))
			return lab_err_set(
			    err, LAB_ECONFIG,
			    "placement '%.40s...': the expression is longer than %zu "
			    "characters",
			    text, sizeof(p->expr) - 1);
		snprintf(p->expr, sizeof(p->expr), "%s", text + 5);
		rc = lab_cpuexpr_count(p->expr, err);
		if (rc < 0 && err)
			lab_err_prefix(err, "placement '%s': ", text);
		p->nexpr = rc < 0 ? 0 : (unsigned)rc;
		return rc < 0 ? rc : 0;
	}
	if (strncmp(text, "list:", 5) != 0)
		return place_unknown(text, err);
	p->kind = LAB_PLACE_LIST;
	s = text + 5;
	if (strspn(s, " \t") == strlen(s))
		return lab_err_set(err, LAB_ECONFIG, "placement '%s': the list is empty (%s)", text,
		                   PLACE_LIST_ALLOWED);
	for (;;) {
		rc = place_list_item(&s, text, p, err);
		if (rc < 0)
			return rc;
		if (*s == '\0')
			return 0;
		s++; /* the comma */
	}
}

/* The canonical text is written by the base (the analyzer reads it too), from the grammar read
 * again there: both must agree on what a placement may be. */
_Static_assert(LAB_PLACE_TEXT_CPU_MAX == LAB_TOPO_OS_MAX, "the highest CPU number");
_Static_assert(LAB_PLACE_TEXT_NODE_MAX == LAB_TOPO_NODE_MAX, "the highest NUMA node");
_Static_assert(LAB_PLACE_TEXT_LIST_MAX == LAB_PLACE_LIST_MAX, "the CPUs of a list");
_Static_assert(LAB_PLACE_TEXT_PICKS_MAX == LAB_CPUEXPR_MAX, "the CPUs of an expression");

void lab_placement_canon(const char *text, char *buf, size_t len)
{
	struct lab_placement p;

	if (lab_placement_parse(text, &p, NULL) < 0 || !lab_place_text_canon(text, buf, len))
		snprintf(buf, len, "%s", text);
}

int lab_placement_check_threads(const struct lab_placement *p, unsigned n, struct lab_err *err)
{
	if (p->kind == LAB_PLACE_LIST && n > p->nlist)
		return lab_err_set(err, LAB_ECONFIG,
		                   "%u threads but the placement list has only %u CPU%s (allowed: "
		                   "at most %u thread%s, or a longer list)",
		                   n, p->nlist, p->nlist == 1 ? "" : "s", p->nlist,
		                   p->nlist == 1 ? "" : "s");
	/* As place_expr says it, but for the CPUs: there are none before a topology. */
	if (p->kind == LAB_PLACE_EXPR && n > p->nexpr)
		return lab_err_set(err, LAB_ECONFIG,
		                   "%u threads but the expression yields only %u CPU%s (allowed: "
		                   "threads 1 .. %u, or a longer expression)",
		                   n, p->nexpr, p->nexpr == 1 ? "" : "s", p->nexpr);
	return 0;
}
