/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Parser and resolver of likwid thread-domain expressions (cpuexpr.h). One pass does both: with
 * no domains it only checks what can be checked without a topology, so the planner rejects a
 * malformed expression at its line before it knows the machine, and the same code resolves it.
 */
#include "harness/cpuexpr.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "harness/place_text.h"

#define CX_PART_MAX   128     /* characters of one '@' part */
#define CX_NUMBER_MAX 1000000 /* far above any domain size or count */
_Static_assert(CX_NUMBER_MAX == LAB_PLACE_TEXT_NUMBER_MAX, "place_text.c reads these numbers too");

/* One index taken without a topology: the same index of the same domain (S1 and S01 alike) is
 * the same CPU on any topology. */
struct cx_pick {
	char letter;      /* N, S, D, C or M */
	long dom, idx;    /* the domain's number (-1 for N) and the index into it */
	unsigned seq;     /* position in the selection */
	unsigned at, len; /* the part it was read from: offset and length in the expression */
};

struct cx {
	const struct lab_topo_domains *doms; /* NULL: syntax only */
	struct cx_pick *picks;               /* syntax only: every index taken (max of them) */
	char letter;                         /* the domain of the part being read: N, S, D, C, M */
	long dom;                            /* and its number (-1 for N) */
	unsigned part_at;                    /* offset of the part in the expression */
	int *cpus;
	unsigned n, max;
	unsigned char *seen; /* by CPU number: taken already (a scan of the taken was quadratic) */
	int nseen;           /* CPU numbers below this have a seen entry */
	const char *part;    /* the part being read, for messages */
	struct lab_err *err;
};

/* s past its spaces: blanks may stand around the separators (: , - @), as in list:. */
static const char *cx_blank(const char *s)
{
	return s + strspn(s, " ");
}

/* Reads a decimal number from *s up to CX_NUMBER_MAX, with the blanks around it; advances *s.
 * -1 when there is none. */
static long cx_number(const char **s)
{
	const char *p = cx_blank(*s);
	char *end;
	long v;

	if (*p < '0' || *p > '9')
		return -1;
	errno = 0;
	v = strtol(p, &end, 10);
	if (errno || v > CX_NUMBER_MAX)
		return -1;
	*s = cx_blank(end);
	return v;
}

static int cx_bad(struct cx *c, const char *what)
{
	return lab_err_set(c->err, LAB_ECONFIG, "in '%s': %s (%s)", c->part, what,
	                   LAB_CPUEXPR_ALLOWED);
}

/*
 * Reads a domain name ending at ':' from *s: N, or S, D, C, M and a number. With domains, finds
 * it (*dom). Returns 0 or the error.
 */
static int cx_domain(struct cx *c, const char **s, const struct lab_topo_domain **dom)
{
	const char *name = cx_blank(*s);
	size_t end = strcspn(name, ":"), len = end;
	char buf[32], what[160];
	const char *d = name + 1;

	*dom = NULL;
	while (len && name[len - 1] == ' ')
		len--;
	if (len == 0)
		return cx_bad(c, "no domain before ':'");
	long idx = -1;
	bool known = (*name == 'N' && len == 1) ||
	             (strchr("SDCM", *name) && len > 1 && d[0] >= '0' && d[0] <= '9' &&
	              (idx = cx_number(&d)) >= 0 && d == name + end);
	if (!known) {
		snprintf(what, sizeof(what), "unknown domain '%.*s'", (int)(len > 32 ? 32 : len),
		         name);
		return cx_bad(c, what);
	}
	*s = name + end;
	c->letter = *name;
	c->dom = idx;
	if (!c->doms)
		return 0;
	if (*name == 'N')
		snprintf(buf, sizeof(buf), "N");
	else /* S01 is S1, as in likwid (its indices are numbers) */
		snprintf(buf, sizeof(buf), "%c%ld", *name, idx);
	*dom = lab_topo_domain_find(c->doms, buf);
	if (!*dom) {
		char names[256];
		lab_topo_domains_names(c->doms, names, sizeof(names));
		return lab_err_set(c->err, LAB_ECONFIG,
		                   "in '%s': this topology has no domain %s (allowed here: %s)",
		                   c->part, buf, names);
	}
	return 0;
}

/* Appends index idx of dom to the selection (with domains; without, only counts). */
static int cx_take(struct cx *c, const struct lab_topo_domain *dom, long idx)
{
	if (c->n >= c->max)
		return lab_err_set(c->err, LAB_ECONFIG,
		                   "in '%s': the expression selects more than %u CPUs (allowed at "
		                   "most %u)",
		                   c->part, c->max, c->max);
	if (!dom) {
		if (c->picks)
			c->picks[c->n] = (struct cx_pick){.letter = c->letter,
			                                  .dom = c->dom,
			                                  .idx = idx,
			                                  .seq = c->n,
			                                  .at = c->part_at,
			                                  .len = (unsigned)strlen(c->part)};
		c->n++;
		return 0;
	}
	if (idx >= (long)dom->ncpus) {
		if (dom->ncpus == 0)
			return lab_err_set(c->err, LAB_ECONFIG,
			                   "in '%s': domain %s has no CPU this process may use",
			                   c->part, dom->name);
		return lab_err_set(c->err, LAB_ECONFIG,
		                   "in '%s': index %ld is past domain %s (allowed %s:0-%u: %u "
		                   "CPUs, %u physical cores first)",
		                   c->part, idx, dom->name, dom->name, dom->ncpus - 1, dom->ncpus,
		                   dom->ncores);
	}
	int cpu = dom->cpus[idx];
	LAB_BUG_ON(cpu < 0 || cpu >= c->nseen);
	if (c->seen[cpu])
		return lab_err_set(c->err, LAB_ECONFIG,
		                   "in '%s': cpu %d (%s:%ld) is selected twice (each thread "
		                   "needs its own CPU)",
		                   c->part, cpu, dom->name, idx);
	c->seen[cpu] = 1;
	c->cpus[c->n++] = cpu;
	return 0;
}

/* DOMAIN:INDICES, s just past the domain at ':'. */
static int cx_indices(struct cx *c, const char *s, const struct lab_topo_domain *dom)
{
	char what[160];
	int rc;

	if (*s != ':' || !*cx_blank(s + 1))
		return cx_bad(c, "a domain needs its indices, e.g. S0:0-3");
	s++;
	for (;;) {
		const char *item = s;
		long a = cx_number(&s), b;
		if (a < 0)
			goto bad;
		b = a;
		if (*s == '-') {
			s++;
			b = cx_number(&s);
			if (b < 0)
				goto bad;
			if (b < a) {
				snprintf(what, sizeof(what),
				         "empty range %ld-%ld (write A-B with A <= B)", a, b);
				return cx_bad(c, what);
			}
		}
		if (*s != ',' && *s != '\0')
			goto bad;
		for (long i = a; i <= b; i++)
			if ((rc = cx_take(c, dom, i)) < 0)
				return rc;
		if (*s == '\0')
			return 0;
		s++;
		continue;
	bad:
		snprintf(what, sizeof(what), "cannot read index '%.*s'",
		         (int)strcspn(item, ",") > 32 ? 32 : (int)strcspn(item, ","), item);
		return cx_bad(c, what);
	}
}

/* Reads ":NUMBER" of an E: part; name says which field for the message. */
static int cx_field(struct cx *c, const char **s, const char *name, long *v)
{
	char what[96];

	if (**s == ':') {
		(*s)++;
		*v = cx_number(s);
		if (*v >= 1 && (**s == ':' || **s == '\0'))
			return 0;
	}
	snprintf(what, sizeof(what), "%s must be a number from 1 to %d", name, CX_NUMBER_MAX);
	return cx_bad(c, what);
}

/*
 * An E: selection that runs past its domain, said in what the user wrote (COUNT, not the index
 * it reaches): the largest COUNT the domain holds with this CHUNK and STRIDE.
 */
static int cx_expression_fits(struct cx *c, const struct lab_topo_domain *dom, long count,
                              long chunk, long stride)
{
	long fits = 0;

	if (!dom || !dom->ncpus)
		return 0; /* no topology yet, or cx_take says the domain is empty */
	for (long start = 0; start < (long)dom->ncpus; start += stride)
		fits += chunk < (long)dom->ncpus - start ? chunk : (long)dom->ncpus - start;
	if (count <= fits)
		return 0;
	return lab_err_set(c->err, LAB_ECONFIG,
	                   "in '%s': COUNT %ld runs past domain %s (allowed COUNT 1 .. %ld%s: %s "
	                   "has %u CPUs, %u physical cores first)",
	                   c->part, count, dom->name, fits,
	                   chunk > 1 || stride > 1 ? " with this CHUNK and STRIDE" : "", dom->name,
	                   dom->ncpus, dom->ncores);
}

/* E:DOMAIN:COUNT[:CHUNK:STRIDE], s just past "E:". */
static int cx_expression(struct cx *c, const char *s)
{
	const struct lab_topo_domain *dom;
	long count, chunk, stride;
	char what[160];
	int rc = cx_domain(c, &s, &dom);

	if (rc < 0)
		return rc;
	if ((rc = cx_field(c, &s, "COUNT", &count)) < 0)
		return rc;
	chunk = stride = 1;
	if (*s == ':') {
		if ((rc = cx_field(c, &s, "CHUNK", &chunk)) < 0)
			return rc;
		if (*s != ':')
			return cx_bad(c, "E: takes COUNT, or COUNT:CHUNK:STRIDE");
		if ((rc = cx_field(c, &s, "STRIDE", &stride)) < 0)
			return rc;
		if (*s)
			return cx_bad(c, "E: takes COUNT, or COUNT:CHUNK:STRIDE");
	}
	if (chunk > count) {
		snprintf(what, sizeof(what),
		         "CHUNK %ld is larger than COUNT %ld (allowed 1 .. %ld)", chunk, count,
		         count);
		return lab_err_set(c->err, LAB_ECONFIG, "in '%s': %s", c->part, what);
	}
	if (stride < chunk) {
		snprintf(what, sizeof(what),
		         "STRIDE %ld is smaller than CHUNK %ld: the chunks would overlap (allowed "
		         "STRIDE >= %ld)",
		         stride, chunk, chunk);
		return lab_err_set(c->err, LAB_ECONFIG, "in '%s': %s", c->part, what);
	}
	if ((rc = cx_expression_fits(c, dom, count, chunk, stride)) < 0)
		return rc;
	for (long taken = 0, start = 0; taken < count; start += stride)
		for (long i = 0; i < chunk && taken < count; i++, taken++)
			if ((rc = cx_take(c, dom, start + i)) < 0)
				return rc;
	return 0;
}

/* One '@' part. */
static int cx_part(struct cx *c, const char *part)
{
	const struct lab_topo_domain *dom;
	const char *s = cx_blank(part);
	int rc;

	if (!*s)
		return cx_bad(c, "empty part (write parts like S0:0-3 joined with @)");
	if (*s == 'E' && *cx_blank(s + 1) == ':')
		return cx_expression(c, cx_blank(s + 1) + 1);
	rc = cx_domain(c, &s, &dom);
	return rc < 0 ? rc : cx_indices(c, s, dom);
}

static int cx_run(struct cx *c, const char *expr)
{
	char part[CX_PART_MAX + 1];
	const char *s = expr ? expr : "";
	int rc;

	if (!*s)
		return lab_err_set(c->err, LAB_ECONFIG, "the expression is empty (%s)",
		                   LAB_CPUEXPR_ALLOWED);
	for (;;) {
		size_t len = strcspn(s, "@");
		if (len > CX_PART_MAX)
			return lab_err_set(c->err, LAB_ECONFIG,
			                   "a part of '%.32s...' is longer than %d characters", s,
			                   CX_PART_MAX);
		memcpy(part, s, len);
		part[len] = '\0';
		c->part = part;
		c->part_at = (unsigned)(s - (expr ? expr : ""));
		if ((rc = cx_part(c, part)) < 0)
			return rc;
		if (!s[len])
			return (int)c->n;
		s += len + 1;
	}
}

/* By CPU (domain, then index), then in the order written. */
static int cx_pick_cmp(const void *a, const void *b)
{
	const struct cx_pick *x = a, *y = b;

	if (x->letter != y->letter)
		return x->letter < y->letter ? -1 : 1;
	if (x->dom != y->dom)
		return x->dom < y->dom ? -1 : 1;
	if (x->idx != y->idx)
		return x->idx < y->idx ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static bool cx_pick_same(const struct cx_pick *x, const struct cx_pick *y)
{
	return x->letter == y->letter && x->dom == y->dom && x->idx == y->idx;
}

/*
 * The first index of picks (n of them, sorted in place) taken again, in the order written (the
 * CPU lab_cpuexpr_resolve reports); -LAB_ECONFIG naming it, or 0. Sorted, not scanned per
 * pick: 4096 picks against each other were 8 million comparisons.
 */
static int cx_repeats(const char *expr, struct cx_pick *picks, unsigned n, struct lab_err *err)
{
	const struct cx_pick *first = NULL;
	char dom[32];

	qsort(picks, n, sizeof(*picks), cx_pick_cmp);
	for (unsigned i = 1; i < n; i++)
		if (cx_pick_same(&picks[i], &picks[i - 1]) && (!first || picks[i].seq < first->seq))
			first = &picks[i];
	if (!first)
		return 0;
	if (first->letter == 'N')
		snprintf(dom, sizeof(dom), "N");
	else
		snprintf(dom, sizeof(dom), "%c%ld", first->letter, first->dom);
	return lab_err_set(err, LAB_ECONFIG,
	                   "in '%.*s': %s:%ld is selected twice (each thread needs its own CPU)",
	                   (int)first->len, expr + first->at, dom, first->idx);
}

int lab_cpuexpr_count(const char *expr, struct lab_err *err)
{
	struct cx c = {.max = LAB_CPUEXPR_MAX, .err = err};
	int rc;

	if (!(c.picks = malloc(LAB_CPUEXPR_MAX * sizeof(*c.picks))))
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	rc = cx_run(&c, expr);
	if (rc > 0 && cx_repeats(expr, c.picks, c.n, err) < 0)
		rc = -LAB_ECONFIG;
	free(c.picks);
	return rc;
}

int lab_cpuexpr_check(const char *expr, struct lab_err *err)
{
	int rc = lab_cpuexpr_count(expr, err);

	return rc < 0 ? rc : 0;
}

int lab_cpuexpr_resolve(const char *expr, const struct lab_topo_domains *doms, int *cpus,
                        unsigned max, struct lab_err *err)
{
	struct cx c = {.doms = doms, .cpus = cpus, .max = max, .err = err};
	int rc;

	LAB_BUG_ON(!doms || !cpus);
	for (unsigned d = 0; d < doms->n; d++)
		for (unsigned i = 0; i < doms->dom[d].ncpus; i++)
			if (doms->dom[d].cpus[i] >= c.nseen)
				c.nseen = doms->dom[d].cpus[i] + 1;
	if (!(c.seen = calloc((size_t)c.nseen + 1, 1)))
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	rc = cx_run(&c, expr);
	free(c.seen);
	return rc;
}
