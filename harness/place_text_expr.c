/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The canonical text of an expr: placement (place_text.h, the rules in place_text.c): the
 * expression read into its picks in cpuexpr.c's order, each an index of a domain in one of two
 * numberings (E:'s core by core, DOMAIN:INDICES's physical cores first), then each run of picks
 * in one domain and numbering written back: an E: part as E:, indices as D:INDICES. The two
 * numberings name the same CPUs on some topologies only, so a run never crosses from one to the
 * other (E:N:2 and N:0-1 are two placements).
 */
#include <stdlib.h>
#include <string.h>

#include "harness/place_text_int.h"

/* One index of one domain: N (dom -1), or S, D, C, M and its number; e: in E:'s numbering. */
struct pt_pick {
	bool e;
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

static int pt_take(struct pt_picks *p, bool e, char letter, long dom, long idx)
{
	if (p->n == LAB_PLACE_TEXT_PICKS_MAX)
		return -1;
	p->v[p->n++] = (struct pt_pick){e, letter, dom, idx};
	return 0;
}

/* The domain at *s up to its ':' (N, or S, D, C, M and a number; blanks around it); *s is left
 * at the ':'. */
static int pt_domain(const char **s, char *letter, long *dom)
{
	const char *c = *s + strspn(*s, PT_BLANKS) + 1;

	*letter = c[-1];
	*dom = -1;
	if (*letter != 'N' && (!*letter || !strchr("SDCM", *letter) || *c < '0' || *c > '9' ||
	                       (*dom = pt_number(&c, LAB_PLACE_TEXT_NUMBER_MAX)) < 0))
		return -1;
	c += strspn(c, PT_BLANKS);
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
			if (pt_take(p, true, letter, dom, start + i) < 0)
				return -1;
	return 0;
}

/* DOMAIN:INDICES, indices N and A-B separated by commas, each below the most CPUs a domain
 * has (cpuexpr.c refuses a larger one on any topology). */
static int pt_expr_indices(const char **s, struct pt_picks *p)
{
	char letter;
	long dom;

	if (pt_domain(s, &letter, &dom) < 0)
		return -1;
	do {
		(*s)++; /* the ':' or the ',' */
		long a = pt_number(s, LAB_PLACE_TEXT_PICKS_MAX - 1), b = a;
		if (a < 0)
			return -1;
		if (**s == '-') {
			(*s)++;
			if ((b = pt_number(s, LAB_PLACE_TEXT_PICKS_MAX - 1)) < a)
				return -1;
		}
		for (long i = a; i <= b; i++)
			if (pt_take(p, false, letter, dom, i) < 0)
				return -1;
	} while (**s == ',');
	return pt_part_end(**s) ? 0 : -1;
}

static int pt_pick_cmp(const void *a, const void *b)
{
	const struct pt_pick *x = a, *y = b;

	if (x->e != y->e)
		return x->e ? 1 : -1;
	if (x->letter != y->letter)
		return x->letter < y->letter ? -1 : 1;
	if (x->dom != y->dom)
		return x->dom < y->dom ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/* True when an index of a domain is taken twice in one numbering (the planner refuses the
 * expression). */
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
		const char *e =
		    s + strspn(s, PT_BLANKS); /* blanks around separators, as cpuexpr.c */
		int rc = *e == 'E' && e[1 + strspn(e + 1, PT_BLANKS)] == ':'
		             ? (s = e + 1 + strspn(e + 1, PT_BLANKS) + 1, pt_expr_e(&s, p))
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

/* Writes the E: part whose picks are v[0..n): the first CHUNK indices run 0, 1, ... and the
 * next chunk starts at STRIDE, so the picks give CHUNK and STRIDE back; E:D:COUNT when they run
 * 0 .. COUNT-1 (CHUNK == STRIDE or CHUNK >= COUNT). Two E: parts of one domain both start at
 * index 0, so a run of E: picks is one part. */
static void pt_put_e(struct pt_out *o, const struct pt_pick *v, unsigned n)
{
	unsigned chunk = pt_run_end(v, 0, n);

	pt_put(o, "E:");
	pt_put_domain(o, v);
	pt_put(o, ":%u", n);
	if (chunk < n)
		pt_put(o, ":%u:%ld", chunk, v[chunk].idx);
}

bool lab__place_text_expr(const char *s, struct pt_out *o)
{
	struct pt_picks p = {malloc(LAB_PLACE_TEXT_PICKS_MAX * sizeof(*p.v)), 0};
	bool ok = p.v && pt_expr_read(s, &p) == 0;

	pt_put(o, "expr:");
	for (unsigned i = 0, j; ok && i < p.n; i = j) {
		for (j = i + 1; j < p.n && p.v[j].e == p.v[i].e && p.v[j].letter == p.v[i].letter &&
		                p.v[j].dom == p.v[i].dom;
		     j++)
			;
		if (i)
			pt_put(o, "@");
		if (p.v[i].e)
			pt_put_e(o, p.v + i, j - i);
		else
			pt_put_indices(o, p.v, i, j);
	}
	free(p.v);
	return ok;
}
