/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Parser and resolver of likwid thread-domain expressions (cpuexpr.h). One pass does both: with
 * no domains it only checks what can be checked without a topology, so the planner rejects a
 * malformed expression at its line before it knows the machine, and the same code resolves it.
 */
#include "harness/cpuexpr.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "harness/place_text.h"

#define CX_PART_MAX   128     /* characters of one '@' part */
#define CX_NUMBER_MAX 1000000 /* far above any domain size or count */
_Static_assert(CX_NUMBER_MAX == LAB_PLACE_TEXT_NUMBER_MAX, "place_text.c reads these numbers too");

/* One index taken without a topology: the same index of the same domain (S1 and S01 alike) in
 * the same order is the same CPU on any topology. E: indices walk the domain core by core and
 * DOMAIN:INDICES physical cores first, so an E: index and an index of DOMAIN:INDICES are one CPU
 * on some topologies and not on others (index 1 of N is one on a machine without SMT): only the
 * topology can tell, and lab_cpuexpr_resolve does. */
struct cx_pick {
	bool e;           /* an E: index (topology order), not one of DOMAIN:INDICES */
	char letter;      /* N, S, D, C or M */
	long dom, idx;    /* the domain's number (-1 for N) and the index into it */
	unsigned seq;     /* position in the selection */
	unsigned at, len; /* the part it was read from: offset and length in the expression */
};

struct cx {
	const struct lab_topo_domains *doms; /* NULL: syntax only */
	struct cx_pick *picks;               /* syntax only: every index taken (max of them) */
	bool e;                              /* the part is E: (its indices walk tcpus) */
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

/* s past its blanks: spaces and tabs may stand around the separators (: , - @), as in list:
 * and everywhere in a config. */
static const char *cx_blank(const char *s)
{
	return s + strspn(s, " \t");
}

/* Reads a decimal number from *s with the blanks around it and advances *s; LONG_MAX when it is
 * larger (the caller says what range it allows, a number too large being a value out of range,
 * not text that cannot be read). -1 when there is none. */
static long cx_number(const char **s)
{
	const char *p = cx_blank(*s);
	char *end;
	long v;

	if (*p < '0' || *p > '9')
		return -1;
	errno = 0;
	v = strtol(p, &end, 10); /* too large: LONG_MAX, end past every digit */
	*s = cx_blank(end);
	return v;
}

/* The digits of the number at s (past its blanks), for a message that quotes it as written. */
static int cx_digits_len(const char *s)
{
	size_t n = strspn(cx_blank(s), "0123456789");

	return n > 32 ? 32 : (int)n;
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
	while (len && (name[len - 1] == ' ' || name[len - 1] == '\t'))
		len--;
	if (len == 0)
		return cx_bad(c, "no domain before ':'");
	long idx = -1;
	bool known = (*name == 'N' && len == 1) ||
	             (strchr("SDCM", *name) && len > 1 && d[0] >= '0' && d[0] <= '9' &&
	              (idx = cx_number(&d)) >= 0 && idx <= CX_NUMBER_MAX && d == name + end);
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

/* Appends index idx of dom to the selection: of its physical-cores-first list, or of its
 * topology-order list in an E: part (with domains; without, only counts). */
static int cx_take(struct cx *c, const struct lab_topo_domain *dom, long idx)
{
	if (c->n >= c->max)
		return lab_err_set(c->err, LAB_ECONFIG,
		                   "in '%s': the expression selects more than %u CPUs (allowed at "
		                   "most %u)",
		                   c->part, c->max, c->max);
	if (!dom) {
		if (c->picks)
			c->picks[c->n] = (struct cx_pick){.e = c->e,
			                                  .letter = c->letter,
			                                  .dom = c->dom,
			                                  .idx = idx,
			                                  .seq = c->n,
			                                  .at = c->part_at,
			                                  .len = (unsigned)strlen(c->part)};
		c->n++;
		return 0;
	}
	if (idx >= (long)dom->ncpus) { /* DOMAIN:INDICES only: E: checked its COUNT */
		if (dom->ncpus == 0)
			return lab_err_set(c->err, LAB_ECONFIG,
			                   "in '%s': domain %s has no CPU this process may use",
			                   c->part, dom->name);
		return lab_err_set(c->err, LAB_ECONFIG,
		                   "in '%s': index %ld is past domain %s (allowed %s:0-%u: %u "
		                   "CPU%s, %u physical core%s first)",
		                   c->part, idx, dom->name, dom->name, dom->ncpus - 1, dom->ncpus,
		                   dom->ncpus == 1 ? "" : "s", dom->ncores,
		                   dom->ncores == 1 ? "" : "s");
	}
	int cpu = c->e ? dom->tcpus[idx] : dom->cpus[idx];
	LAB_BUG_ON(cpu < 0 || cpu >= c->nseen);
	if (c->seen[cpu] && c->e)
		return lab_err_set(c->err, LAB_ECONFIG,
		                   "in '%s': cpu %d (index %ld of E:%s, core by core) is selected "
		                   "twice (each thread needs its own CPU)",
		                   c->part, cpu, idx, dom->name);
	if (c->seen[cpu])
		return lab_err_set(c->err, LAB_ECONFIG,
		                   "in '%s': cpu %d (%s:%ld) is selected twice (each thread "
		                   "needs its own CPU)",
		                   c->part, cpu, dom->name, idx);
	c->seen[cpu] = 1;
	c->cpus[c->n++] = cpu;
	return 0;
}

/* An index past the largest domain there can be (the number at digits, as written). */
static int cx_index_big(struct cx *c, const char *digits)
{
	return lab_err_set(c->err, LAB_ECONFIG,
	                   "in '%s': index %.*s is too large (allowed 0 .. %d: no domain has more "
	                   "than %d CPUs)",
	                   c->part, cx_digits_len(digits), cx_blank(digits), LAB_CPUEXPR_MAX - 1,
	                   LAB_CPUEXPR_MAX);
}

/* A range written high to low, likwid's descending order: refused with the order written out
 * (one by one where it is short enough to copy: "3,2,...,0" is no expression). */
static int cx_descending(struct cx *c, long a, long b)
{
	char down[64], what[320];
	size_t n = 0;

	if (a - b < 8)
		for (long i = a; i >= b; i--)
			n += (size_t)snprintf(down + n, sizeof(down) - n, "%s%ld", i < a ? "," : "",
			                      i);
	if (a - b < 8)
		snprintf(
		    what, sizeof(what),
		    "descending range %ld-%ld (not taken: write %s for that order, or %ld-%ld)", a,
		    b, down, b, a);
	else
		snprintf(
		    what, sizeof(what),
		    "descending range %ld-%ld (not taken: write the indices one by one, %ld,%ld "
		    "and so on, for that order, or %ld-%ld)",
		    a, b, a, a - 1, b, a);
	return cx_bad(c, what);
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
		const char *item = s, *high;
		long a = cx_number(&s), b;
		if (a < 0)
			goto bad;
		if (a >= LAB_CPUEXPR_MAX)
			return cx_index_big(c, item);
		b = a;
		if (*s == '-') {
			high = ++s;
			b = cx_number(&s);
			if (b < 0)
				goto bad;
			if (b >= LAB_CPUEXPR_MAX)
				return cx_index_big(c, high);
			if (b < a)
				return cx_descending(c, a, b);
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

/* Reads ":NUMBER" of an E: part into *v (LONG_MAX when larger), *digits where it is written;
 * name and hi, the largest it may be, for the message when there is no number >= 1. */
static int cx_field(struct cx *c, const char **s, const char *name, long hi, long *v,
                    const char **digits)
{
	if (**s == ':') {
		*digits = cx_blank(++*s);
		*v = cx_number(s);
		if (*v >= 1 && (**s == ':' || **s == '\0'))
			return 0;
	}
	return lab_err_set(c->err, LAB_ECONFIG, "in '%s': %s must be a number from 1 to %ld (%s)",
	                   c->part, name, hi, LAB_CPUEXPR_ALLOWED);
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
	                   "has %u CPU%s on %u core%s, which E: walks core by core)",
	                   c->part, count, dom->name, fits,
	                   chunk > 1 || stride > 1 ? " with this CHUNK and STRIDE" : "", dom->name,
	                   dom->ncpus, dom->ncpus == 1 ? "" : "s", dom->ncores,
	                   dom->ncores == 1 ? "" : "s");
}

/* The fields of an E: part after its domain, s at the ':' before COUNT, each checked against
 * the most it may be, a number too large quoted as written: COUNT the CPUs an expression
 * selects, CHUNK the COUNT, STRIDE only CX_NUMBER_MAX (the canonical text reads no larger
 * number; a stride past the domain takes one chunk). */
static int cx_expression_fields(struct cx *c, const char *s, long *count, long *chunk, long *stride)
{
	const char *at = NULL;
	int rc;

	*chunk = *stride = 1;
	if ((rc = cx_field(c, &s, "COUNT", LAB_CPUEXPR_MAX, count, &at)) < 0)
		return rc;
	if (*count > LAB_CPUEXPR_MAX)
		return lab_err_set(
		    c->err, LAB_ECONFIG,
		    "in '%s': COUNT %.*s is too large (allowed 1 .. %d: an expression "
		    "selects at most %d CPUs)",
		    c->part, cx_digits_len(at), at, LAB_CPUEXPR_MAX, LAB_CPUEXPR_MAX);
	if (*s != ':')
		return 0;
	if ((rc = cx_field(c, &s, "CHUNK", *count, chunk, &at)) < 0)
		return rc;
	if (*chunk > *count)
		return lab_err_set(
		    c->err, LAB_ECONFIG,
		    "in '%s': CHUNK %.*s is larger than COUNT %ld (allowed 1 .. %ld)", c->part,
		    cx_digits_len(at), at, *count, *count);
	if (*s != ':')
		return cx_bad(c, "E: takes COUNT, or COUNT:CHUNK:STRIDE");
	if ((rc = cx_field(c, &s, "STRIDE", CX_NUMBER_MAX, stride, &at)) < 0)
		return rc;
	if (*s)
		return cx_bad(c, "E: takes COUNT, or COUNT:CHUNK:STRIDE");
	if (*stride > CX_NUMBER_MAX)
		return lab_err_set(c->err, LAB_ECONFIG,
		                   "in '%s': STRIDE %.*s is too large (allowed %ld .. %d)", c->part,
		                   cx_digits_len(at), at, *chunk, CX_NUMBER_MAX);
	if (*stride < *chunk)
		return lab_err_set(
		    c->err, LAB_ECONFIG,
		    "in '%s': STRIDE %ld is smaller than CHUNK %ld: the chunks would "
		    "overlap (allowed STRIDE >= %ld)",
		    c->part, *stride, *chunk, *chunk);
	return 0;
}

/* E:DOMAIN:COUNT[:CHUNK:STRIDE], s just past "E:": COUNT indices of the domain in topology
 * order (likwid-pin's processor list, a core's CPUs together), CHUNK at a time, each chunk
 * STRIDE indices after the start of the one before. */
static int cx_expression(struct cx *c, const char *s)
{
	const struct lab_topo_domain *dom;
	long count, chunk, stride;
	int rc = cx_domain(c, &s, &dom);

	if (rc < 0 || (rc = cx_expression_fields(c, s, &count, &chunk, &stride)) < 0 ||
	    (rc = cx_expression_fits(c, dom, count, chunk, stride)) < 0)
		return rc;
	c->e = true;
	for (long taken = 0, start = 0; taken < count; start += stride)
		for (long i = 0; i < chunk && taken < count; i++, taken++)
			if ((rc = cx_take(c, dom, start + i)) < 0)
				return rc;
	return 0;
}

/*
 * A likwid-pin form the lab does not take, s at the part's first character: L:DOMAIN:INDICES,
 * DOMAIN:scatter, DOMAIN:balanced... and DOMAIN:cbalanced..., a bare OS CPU list. Said with what to
 * write instead (an unknown domain 'L' would send the user looking for a domain); 0 when s is none
 * of them.
 */
static int cx_likwid_only(struct cx *c, const char *s)
{
	const char *after = strchr(s, ':');

	after = after ? cx_blank(after + 1) : "";
	if (*s == 'L' && *cx_blank(s + 1) == ':')
		return lab_err_set(c->err, LAB_ECONFIG,
		                   "in '%s': likwid's L: prefix is not supported (write %s: "
		                   "DOMAIN:INDICES is numbered physical cores first, as L: is)",
		                   c->part, after);
	static const char *const forms[] = {"scatter", "balanced", "cbalanced"};
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
		if (!strncmp(after, forms[i], strlen(forms[i])))
			return lab_err_set(
			    c->err, LAB_ECONFIG,
			    "in '%s': likwid's %s form is not supported (write "
			    "placement = scatter to spread threads over the packages, "
			    "or pick CPUs per domain such as S0:0-1@S1:0-1)",
			    c->part, forms[i]);
	if (*s >= '0' && *s <= '9')
		return lab_err_set(c->err, LAB_ECONFIG,
		                   "in '%s': a bare list of OS CPU numbers is not an expression "
		                   "(write placement = list:%s)",
		                   c->part, s);
	return 0;
}

/* One '@' part. */
static int cx_part(struct cx *c, const char *part)
{
	const struct lab_topo_domain *dom;
	const char *s = cx_blank(part);
	int rc;

	c->e = false;
	if (!*s)
		return cx_bad(c, "empty part (write parts like S0:0-3 joined with @)");
	if ((rc = cx_likwid_only(c, s)) < 0)
		return rc;
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

/* By CPU (index space, domain, then index), then in the order written. */
static int cx_pick_cmp(const void *a, const void *b)
{
	const struct cx_pick *x = a, *y = b;

	if (x->e != y->e)
		return x->e ? 1 : -1;
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
	return x->e == y->e && x->letter == y->letter && x->dom == y->dom && x->idx == y->idx;
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
	if (first->e)
		return lab_err_set(err, LAB_ECONFIG,
		                   "in '%.*s': index %ld of E:%s is selected twice (each thread "
		                   "needs its own CPU)",
		                   (int)first->len, expr + first->at, first->idx, dom);
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
