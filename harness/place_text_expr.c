/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The canonical text of an expr: placement (place_text.h, the rules in place_text.c): the
 * expression read into its (domain, index) picks in cpuexpr.c's order, then each run of picks
 * in one domain written as D:INDICES, or around the E: selection it holds where that is
 * shorter.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness/place_text_int.h"

/* One index of one domain: N (dom -1), or S, D, C, M and its number. */
struct pt_pick {
	char letter;
	long dom, idx;
};

struct pt_picks {
	struct pt_pick *v;
	unsigned n;
};

static bool pt_part_end(char c)
{
	return c == '\0' || c == '@';
}

static int pt_take(struct pt_picks *p, char letter, long dom, long idx)
{
	if (p->n == LAB_PLACE_TEXT_PICKS_MAX)
		return -1;
	p->v[p->n++] = (struct pt_pick){letter, dom, idx};
	return 0;
}

/* The domain at *s up to its ':' (N, or S, D, C, M and a number; blanks around it); *s is left
 * at the ':'. */
static int pt_domain(const char **s, char *letter, long *dom)
{
	const char *c = *s + strspn(*s, " ") + 1;

	*letter = c[-1];
	*dom = -1;
	if (*letter != 'N' && (!*letter || !strchr("SDCM", *letter) || *c < '0' || *c > '9' ||
	                       (*dom = pt_number(&c, LAB_PLACE_TEXT_NUMBER_MAX)) < 0))
		return -1;
	c += strspn(c, " ");
	*s = c;
	return *c == ':' ? 0 : -1;
}

/* A field ":NUMBER" of an E: part, 1 .. LAB_PLACE_TEXT_NUMBER_MAX; -1 when there is none. */
static long pt_field(const char **s)
{
	long v;

	if (**s != ':')
		return -1;
	(*s)++;
	v = pt_number(s, LAB_PLACE_TEXT_NUMBER_MAX);
	return v < 1 ? -1 : v;
}

/* E:DOMAIN:COUNT[:CHUNK:STRIDE], s past "E:"; the picks in cpuexpr.c's order. */
static int pt_expr_e(const char **s, struct pt_picks *p)
{
	long count, chunk = 1, stride = 1, dom;
	char letter;

	if (pt_domain(s, &letter, &dom) < 0 || (count = pt_field(s)) < 0)
		return -1;
	if (**s == ':' && ((chunk = pt_field(s)) < 0 || (stride = pt_field(s)) < 0))
		return -1;
	if (!pt_part_end(**s) || chunk > count || stride < chunk ||
	    count > LAB_PLACE_TEXT_PICKS_MAX)
		return -1;
	for (long taken = 0, start = 0; taken < count; start += stride)
		for (long i = 0; i < chunk && taken < count; i++, taken++)
			if (pt_take(p, letter, dom, start + i) < 0)
				return -1;
	return 0;
}

/* DOMAIN:INDICES, indices N and A-B separated by commas. */
static int pt_expr_indices(const char **s, struct pt_picks *p)
{
	char letter;
	long dom;

	if (pt_domain(s, &letter, &dom) < 0)
		return -1;
	do {
		(*s)++; /* the ':' or the ',' */
		long a = pt_number(s, LAB_PLACE_TEXT_NUMBER_MAX), b = a;
		if (a < 0)
			return -1;
		if (**s == '-') {
			(*s)++;
			if ((b = pt_number(s, LAB_PLACE_TEXT_NUMBER_MAX)) < a)
				return -1;
		}
		for (long i = a; i <= b; i++)
			if (pt_take(p, letter, dom, i) < 0)
				return -1;
	} while (**s == ',');
	return pt_part_end(**s) ? 0 : -1;
}

static int pt_pick_cmp(const void *a, const void *b)
{
	const struct pt_pick *x = a, *y = b;

	if (x->letter != y->letter)
		return x->letter < y->letter ? -1 : 1;
	if (x->dom != y->dom)
		return x->dom < y->dom ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/* True when an index of a domain is taken twice (the planner refuses the expression). */
static bool pt_picks_repeat(const struct pt_picks *p)
{
	struct pt_pick *v = malloc(p->n * sizeof(*v));
	bool repeat = !v;

	if (v) {
		memcpy(v, p->v, p->n * sizeof(*v));
		qsort(v, p->n, sizeof(*v), pt_pick_cmp);
		for (unsigned i = 1; i < p->n && !repeat; i++)
			repeat = !pt_pick_cmp(&v[i - 1], &v[i]);
	}
	free(v);
	return repeat;
}

/* The picks of an expression (after "expr:") in order; -1 when s is not one the planner takes. */
static int pt_expr_read(const char *s, struct pt_picks *p)
{
	for (;;) {
		const char *e = s + strspn(s, " "); /* blanks around the separators, as cpuexpr.c */
		int rc = *e == 'E' && e[1 + strspn(e + 1, " ")] == ':'
		             ? (s = e + 1 + strspn(e + 1, " ") + 1, pt_expr_e(&s, p))
		             : pt_expr_indices(&s, p);
		if (rc < 0)
			return -1;
		if (*s++ == '\0')
			return p->n && !pt_picks_repeat(p) ? 0 : -1;
	}
}

/* Writes the domain of pick x: N, or its letter and number (S01 as S1). */
static void pt_put_domain(struct pt_out *o, const struct pt_pick *x)
{
	if (x->letter == 'N')
		pt_put(o, "N");
	else
		pt_put(o, "%c%ld", x->letter, x->dom);
}

static size_t pt_domain_len(const struct pt_pick *x)
{
	return x->letter == 'N' ? 1 : 1 + pt_digits(x->dom);
}

/* The end of the run of consecutive ascending indices that starts at v[i] (before n). */
static unsigned pt_run_end(const struct pt_pick *v, unsigned i, unsigned n)
{
	unsigned j = i + 1;

	while (j < n && v[j].idx == v[j - 1].idx + 1)
		j++;
	return j;
}

/* Writes the part D:INDICES of v[i..n) (one domain), or only counts its length (o->size 0). */
static void pt_put_indices(struct pt_out *o, const struct pt_pick *v, unsigned i, unsigned n)
{
	pt_put_domain(o, &v[i]);
	for (unsigned at = i, j; at < n; at = j) {
		j = pt_run_end(v, at, n);
		pt_put(o, "%c%ld", at == i ? ':' : ',', v[at].idx);
		if (j - at > 1)
			pt_put(o, "-%ld", v[j - 1].idx);
	}
}

/* The length of INDICES for v[j..n) with the ':' or ',' before each item, for every j:
 * tail[j] (n + 1 entries, malloc'd; NULL out of memory). D:INDICES of v[j..n) is the domain's
 * length and tail[j]. */
static size_t *pt_tails(const struct pt_pick *v, unsigned n)
{
	size_t *tail = malloc((n + 1) * sizeof(*tail));
	unsigned *end = malloc((n + 1) * sizeof(*end));

	if (tail && end) {
		tail[n] = 0;
		for (unsigned j = n; j-- > 0;) {
			end[j] = j + 1 < n && v[j + 1].idx == v[j].idx + 1 ? end[j + 1] : j + 1;
			tail[j] = 1 + pt_digits(v[j].idx) + tail[end[j]];
			if (end[j] - j > 1)
				tail[j] += 1 + pt_digits(v[end[j] - 1].idx);
		}
	} else {
		free(tail);
		tail = NULL;
	}
	free(end);
	return tail;
}

/* The E: selection a run may hold: v[p..p+count) is E:D:count:chunk:stride for every count in
 * chunk+1 .. max (none when max is 0). Only a selection that leaves its chunk can be shorter as
 * E: (E:D:4 is D:0-3), and it starts at index 0, which a domain holds once. */
struct pt_e {
	unsigned p, chunk, max;
	long stride;
};

static struct pt_e pt_e_find(const struct pt_pick *v, unsigned n)
{
	struct pt_e e = {0};
	unsigned k = 0, t;

	while (e.p < n && v[e.p].idx != 0)
		e.p++;
	while (e.p + k < n && v[e.p + k].idx == (long)k)
		k++;
	if (e.p + k >= n || v[e.p + k].idx <= (long)k)
		return (struct pt_e){0};
	e.chunk = k;
	e.stride = v[e.p + k].idx;
	for (t = k; e.p + t < n && v[e.p + t].idx == (long)(t / k) * e.stride + (long)(t % k); t++)
		;
	e.max = t;
	return e;
}

/* Writes one run of picks in one domain, v[0..n): as D:INDICES, or split around the E:
 * selection it holds where that is shorter (ties: D:INDICES, then the largest COUNT). False out
 * of memory. */
static bool pt_put_run(struct pt_out *o, const struct pt_pick *v, unsigned n)
{
	struct pt_e e = pt_e_find(v, n);
	size_t *tail = e.max ? pt_tails(v, n) : NULL, dlen = pt_domain_len(v), cost,
	       best = SIZE_MAX;
	unsigned count = 0;

	if (e.max && !tail)
		return false;
	for (unsigned c = e.chunk + 1; e.max && c <= e.max; c++) {
		/* the indices before it (no range runs into index 0 at p: tail[0] - tail[p] is
		 * theirs), E:D:COUNT:CHUNK:STRIDE, the indices after it */
		cost = (e.p ? dlen + tail[0] - tail[e.p] + 1 : 0) + 5 + dlen + pt_digits(c) +
		       pt_digits(e.chunk) + pt_digits(e.stride);
		if (e.p + c < n)
			cost += 1 + dlen + tail[e.p + c];
		if (cost <= best) {
			best = cost;
			count = c;
		}
	}
	if (!e.max || best >= dlen + tail[0]) {
		pt_put_indices(o, v, 0, n);
	} else {
		if (e.p) {
			pt_put_indices(o, v, 0, e.p);
			pt_put(o, "@");
		}
		pt_put(o, "E:");
		pt_put_domain(o, v);
		pt_put(o, ":%u:%u:%ld", count, e.chunk, e.stride);
		if (e.p + count < n) {
			pt_put(o, "@");
			pt_put_indices(o, v, e.p + count, n);
		}
	}
	free(tail);
	return true;
}

bool lab__place_text_expr(const char *s, struct pt_out *o)
{
	struct pt_picks p = {malloc(LAB_PLACE_TEXT_PICKS_MAX * sizeof(*p.v)), 0};
	bool ok = p.v && pt_expr_read(s, &p) == 0;

	pt_put(o, "expr:");
	for (unsigned i = 0, j; ok && i < p.n; i = j) {
		for (j = i + 1;
		     j < p.n && p.v[j].letter == p.v[i].letter && p.v[j].dom == p.v[i].dom; j++)
			;
		if (i)
			pt_put(o, "@");
		ok = pt_put_run(o, p.v + i, j - i);
	}
	free(p.v);
	return ok;
}
