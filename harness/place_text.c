/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Canonical placement text (place_text.h). A value is read into the order it gives — the CPU
 * numbers of a list, the (domain, index) picks of an expression — and that order is written
 * back in the shortest text. This reads the grammar of place_parse.c and cpuexpr.c again
 * rather than calling them because the analyzer links only the base, and cpuexpr.c resolves
 * on hwloc's domains; it only reads, the messages stay theirs, and tests/unit/test_place_text.c
 * holds every canonical text to them (same CPUs on several topologies).
 *
 * The shortest text, and the rule for ties:
 *   list  items N, A-B (two or more consecutive ascending CPUs) and A-B:STEP (ascending by a
 *         constant STEP >= 2); among the shortest texts the fewest A-B:STEP items (0,2,4 is
 *         not 0-4:2), then the fewest items (0-1 is not 0,1), then the longest first item;
 *   expr  one part per run of picks in one domain and one numbering. An E: part stays an E:
 *         part and indices stay indices, never merged: E: walks a domain core by core and
 *         DOMAIN:INDICES physical cores first, so E:N:4 and N:0-3 are the same CPUs only
 *         where a core has one CPU, and the text does not know the topology. Indices are
 *         written D:INDICES with A-B for two or more consecutive ascending indices (S0:0-1 and
 *         S0:2-3 are S0:0-3); an E: part E:D:COUNT when its CHUNK is its STRIDE or at least its
 *         COUNT (the selection is 0 .. COUNT-1: E:N:4:2:2 is E:N:4), else E:D:COUNT:CHUNK:STRIDE.
 *         Domains as numbers (S1 for S01), blanks removed.
 */
#include "harness/place_text.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/place_text_int.h"

/* The CPUs of a list (after "list:") in order into cpus; the count, or -1 when s is not a list
 * the planner takes (items N, A-B, A-B:STEP; each CPU once; at most LAB_PLACE_TEXT_LIST_MAX). */
static int pt_list_read(const char *s, int *cpus)
{
	static const long max = LAB_PLACE_TEXT_CPU_MAX;
	uint64_t seen[(LAB_PLACE_TEXT_CPU_MAX + 1) / 64] = {0};
	int n = 0;

	for (;;) {
		long a = pt_number(&s, max), b = a, step = 1;

		if (a < 0)
			return -1;
		if (*s == '-') {
			s++;
			if ((b = pt_number(&s, max)) < a)
				return -1;
			if (*s == ':') {
				s++;
				if ((step = pt_number(&s, max)) < 1)
					return -1;
			}
		}
		if (*s != ',' && *s != '\0')
			return -1;
		for (long c = a; c <= b; c += step) {
			if (n == LAB_PLACE_TEXT_LIST_MAX || seen[c / 64] & (1ull << (c % 64)))
				return -1;
			seen[c / 64] |= 1ull << (c % 64);
			cpus[n++] = (int)c;
		}
		if (*s++ == '\0')
			return n;
	}
}

/* What writing a list from one position on costs, compared in this order; next is where the
 * first item ends. */
struct pt_cost {
	size_t len;
	unsigned steps, items, next;
};

static bool pt_cost_less(const struct pt_cost *a, const struct pt_cost *b)
{
	if (a->len != b->len)
		return a->len < b->len;
	if (a->steps != b->steps)
		return a->steps < b->steps;
	return a->items < b->items;
}

/* One item for v[i..j): an ascending run with a constant step (j - i >= 2) or one CPU. */
static struct pt_cost pt_item(const int *v, unsigned i, unsigned j)
{
	long step = j - i > 1 ? v[i + 1] - v[i] : 0;
	struct pt_cost c = {.len = pt_digits(v[i]), .items = 1, .next = j};

	if (j - i > 1)
		c.len += 1 + pt_digits(v[j - 1]);
	if (step > 1) {
		c.len += 1 + pt_digits(step);
		c.steps = 1;
	}
	return c;
}

/*
 * Writes v[0..n) as the shortest list (the tie rule above), choosing from the end: best[i] is
 * the best writing of v[i..n), so each choice is a function of the CPUs alone. An item of two
 * or more CPUs from v[i] runs to the end of its step, end[i], or one short of it: ending it
 * sooner leaves CPUs of that step to the next items, and one item is shorter than those (0-3,4
 * or 0-2,3-4 against 0-4), so only those ends and the single CPU are tried (O(n), not O(n^2)).
 */
static bool pt_list_write(struct pt_out *o, const int *v, unsigned n)
{
	struct pt_cost *best = calloc(n + 1, sizeof(*best));
	unsigned *end = calloc(n + 1, sizeof(*end));

	if (!best || !end) {
		free(best);
		free(end);
		return false;
	}
	for (unsigned i = n; i-- > 0;) {
		bool up = i + 1 < n && v[i + 1] > v[i];
		end[i] = !up                                                   ? i + 1
		         : i + 2 < n && v[i + 2] - v[i + 1] == v[i + 1] - v[i] ? end[i + 1]
		                                                               : i + 2;
		unsigned ends[3] = {i + 1, end[i] - 1, end[i]};
		best[i].len = SIZE_MAX;
		for (int k = 0; k < 3; k++) {
			unsigned j = ends[k];
			if (k && (j < i + 2 || j == ends[k - 1]))
				continue;
			struct pt_cost c = pt_item(v, i, j);
			if (j < n) {
				c.len += 1 + best[j].len;
				c.steps += best[j].steps;
				c.items += best[j].items;
			}
			if (!pt_cost_less(&best[i], &c)) /* a tie: the longer first item */
				best[i] = c;
		}
	}
	for (unsigned i = 0; i < n; i = best[i].next) {
		unsigned j = best[i].next;
		pt_put(o, "%s%d", i ? "," : "", v[i]);
		if (j - i > 1)
			pt_put(o, "-%d", v[j - 1]);
		if (j - i > 1 && v[i + 1] - v[i] > 1)
			pt_put(o, ":%d", v[i + 1] - v[i]);
	}
	free(best);
	free(end);
	return true;
}

static bool pt_list_canon(const char *s, struct pt_out *o)
{
	int *cpus = malloc(LAB_PLACE_TEXT_LIST_MAX * sizeof(*cpus));
	int n = cpus ? pt_list_read(s, cpus) : -1;
	bool ok = n > 0;

	pt_put(o, "list:");
	ok = ok && pt_list_write(o, cpus, (unsigned)n);
	free(cpus);
	return ok;
}

bool lab_place_text_canon(const char *text, char *buf, size_t size)
{
	static const char *const plain[] = {"compact", "cores", "scatter", "pairs"};
	struct pt_out o = {buf, size, 0};
	const char *s = text ? text : "";
	bool ok = false;

	if (size)
		buf[0] = '\0';
	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
		if (!strcmp(s, plain[i])) {
			pt_put(&o, "%s", s);
			ok = true;
		}
	if (!strncmp(s, "node:", 5)) {
		const char *d = s + 5;
		long node = pt_number(&d, LAB_PLACE_TEXT_NODE_MAX);
		ok = node >= 0 && !*d;
		pt_put(&o, "node:%ld", node);
	} else if (!strncmp(s, "list:", 5)) {
		ok = pt_list_canon(s + 5, &o);
	} else if (!strncmp(s, "expr:", 5)) {
		ok = lab__place_text_expr(s + 5, &o);
	}
	if (ok && o.len < size)
		return true;
	if (size)
		snprintf(buf, size, "%s", s);
	return false;
}
