/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A synthetic topology description (--topology synthetic:...) checked on its text before hwloc
 * builds it: its PU count is the product of its level arities and its indexes= are small
 * distinct numbers, one per object of their level. hwloc would build a topology of millions of
 * PUs for minutes, takes an index of 2^31 as a bitmap of 2^31 bits, and ignores a list of
 * another length without a word.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

#include "harness/topo_internal.h"

/* Past the ')' closing the attributes that open at c, or NULL when none closes them (hwloc
 * refuses the description then). */
static const char *topo_synthetic_attrs_end(const char *c)
{
	c = strchr(c, ')');
	return c ? c + 1 : NULL;
}

/* One item of a synthetic description as hwloc's parser reads it (hwloc_backend_synthetic_init
 * in topology-synthetic.c): a level "type:N" or a bare N (strtoul base 0, so 0x40 is 64), or an
 * object attached in [] (a NUMA node); either may carry attributes in (). */
struct topo_syn_item {
	const char *name; /* core:2 of core:2(...), numa of [numa(...)] */
	int name_len;
	unsigned long arity;  /* objects under each object of the level above; 0: attached */
	const char *arity_at; /* its digits as written */
	const char *attrs;    /* the attributes inside (), NULL when none */
	size_t attrs_len;
};

/*
 * Reads the item at *c into *it and advances *c past it. False at the end of the description
 * and where hwloc would refuse it (it then reports the description as it reads it): what
 * follows is not read.
 */
static bool topo_syn_item_read(const char **c, struct topo_syn_item *it)
{
	const char *at = *c + strspn(*c, " \n"), *close;
	char *end;

	*it = (struct topo_syn_item){.name = at};
	if (*at == '[') {
		if (!(close = strchr(at, ']')))
			return false;
		const char *open = memchr(at, '(', (size_t)(close - at));
		it->name = at + 1;
		it->name_len = (int)((open ? open : close) - it->name);
		if (open && (end = strchr(open, ')'))) {
			it->attrs = open + 1;
			it->attrs_len = (size_t)(end - open - 1);
		}
		*c = close + 1;
		return true;
	}
	/* hwloc takes the arity after the next ':' wherever it is */
	if (!*at || ((*at < '0' || *at > '9') && !(at = strchr(at, ':'))))
		return false;
	at += *at == ':';
	if (*at < '0' || *at > '9') /* "-1" read as ULONG_MAX: "more than 4096 PUs" */
		return false;
	it->arity_at = at;
	it->arity = strtoul(at, &end, 0);
	if (end == at || !it->arity)
		return false;
	it->name_len = (int)(end - it->name);
	*c = end;
	if (*end == '(') { /* unclosed: hwloc refuses the description; nothing follows */
		close = strchr(end, ')');
		it->attrs = close ? end + 1 : NULL;
		it->attrs_len = close ? (size_t)(close - end - 1) : 0;
		*c = close ? close + 1 : "";
	}
	return true;
}

/* Past the root's attributes, "(...)" at the start of desc; NULL when they do not close. */
static const char *topo_syn_root_end(const char *desc)
{
	return *desc == '(' ? topo_synthetic_attrs_end(desc) : desc;
}

/*
 * At most LAB_TOPO_PUS_MAX PUs in the synthetic description desc (of --topology spec), before
 * hwloc builds it: 64 64 64 took over a minute and 1.2 GB inside hwloc. The PUs are the product
 * of every level's arity; attributes in () and attached memory in [] add none. What hwloc would
 * refuse anyway ends the count. Returns 0 or -LAB_ETOPO.
 */
static int topo_synthetic_check(const char *spec, const char *desc, struct lab_err *err)
{
	unsigned long long pus = 1;
	struct topo_syn_item it;
	const char *c = topo_syn_root_end(desc);

	while (c && topo_syn_item_read(&c, &it)) {
		if (!it.arity)
			continue;
		/* hwloc reads 010 as 8: a level of "010" packages made 8 */
		if (it.arity_at[0] == '0' && isdigit((unsigned char)it.arity_at[1]))
			return lab_err_set(err, LAB_ETOPO,
			                   "%s: '%.*s' has a leading 0, which hwloc reads as octal "
			                   "(allowed: decimal counts without leading zeros, or hex "
			                   "as 0x40)",
			                   spec, it.name_len > 40 ? 40 : it.name_len, it.name);
		if (it.arity > LAB_TOPO_PUS_MAX || (pus *= it.arity) > LAB_TOPO_PUS_MAX)
			return lab_err_set(err, LAB_ETOPO,
			                   "%s: more than %d PUs (the lab plans topologies of at "
			                   "most %d PUs)",
			                   spec, LAB_TOPO_PUS_MAX, LAB_TOPO_PUS_MAX);
	}
	return 0;
}

/*
 * One indexes= value v of len characters: whole numbers 0 .. LAB_TOPO_OS_MAX written in digits,
 * as XML os_index (hwloc's strtoul took 2147483648: a bitmap of 2^31 bits and a crash), and in
 * an explicit list none twice (indexes=0,0 made two PUs one). An interleaving of level names
 * (Core:Package) has no numbers: topo_syn_named_check checks it. Returns 0 or
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

		/* hwloc reads an interleaving's numbers in C's bases: 010 is 8, 08 is no number */
		if (!list && p + 1 < end && *p == '0' && isdigit((unsigned char)p[1]))
			return lab_err_set(
			    err, LAB_ETOPO,
			    "%s: '%.*s' in an indexes= interleaving has a leading 0, which "
			    "hwloc reads as octal (allowed: decimal numbers without "
			    "leading zeros, e.g. indexes=8*2:1*8)",
			    spec, (int)(strcspn(p, "*: )") < 24 ? strcspn(p, "*: )") : 24), p);
		while (p < end && isdigit((unsigned char)*p) && n <= LAB_TOPO_OS_MAX)
			n = n * 10 + (unsigned)(*p++ - '0');
		if (p == num || n > LAB_TOPO_OS_MAX ||
		    (p < end && !strchr(list ? "," : "*:", *p))) {
			size_t w = strcspn(num, ",*: )");
			return lab_err_set(err, LAB_ETOPO,
			                   "%s: index '%.*s' is %s (allowed in indexes=: "
			                   "whole numbers 0 .. %d in decimal digits, e.g. "
			                   "indexes=0,2,1,3 or indexes=Core:Package)",
			                   spec, (int)(w < 24 ? w : 24), num,
			                   n > LAB_TOPO_OS_MAX ? "out of range"
			                                       : "not a whole number",
			                   LAB_TOPO_OS_MAX);
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

/* The last indexes= among the attributes attrs (len characters), as hwloc keeps it, or NULL;
 * *vlen is its length. */
static const char *topo_syn_index_attr(const char *attrs, size_t len, size_t *vlen)
{
	const char *v = NULL, *end = attrs + len;

	for (const char *a = attrs; a < end; a += strcspn(a, " ") + 1)
		if (!strncmp(a, "indexes=", 8) && a + 8 <= end) {
			v = a + 8;
			*vlen = strcspn(v, " )");
		}
	return v;
}

/* A numeric interleaving v (vlen characters: STEP*COUNT loops joined by ':', digits checked by
 * topo_synthetic_index_list) of a level of objects objects numbers each of them once, as hwloc
 * builds it: object j gets the sum over loops of ((j / STEP) % COUNT) x the product of the
 * counts before; where the counts multiply to less, one loop of step 1 is added when the
 * smallest step is what is missing. hwloc ignores any other without a word (2*0:1*2, 3*2:1*2
 * and 2*2:1*3 on 4 PUs kept its own numbering). 1 when it does. */
static int topo_syn_interleaving_ok(const char *v, size_t vlen, unsigned long long objects)
{
	unsigned long long step[64], nb[64], total = 1, minstep = ~0ull;
	size_t nloops = 0;
	const char *p = v, *end = v + vlen;
	unsigned char *seen;
	int ok = 1;

	while (p < end) {
		char *e;
		if (nloops == 63) /* a 4096-object level has at most 12 loops of count 2 or more */
			return 0;
		step[nloops] = strtoull(p, &e, 10);
		if (e >= end || *e != '*')
			return 0;
		nb[nloops] = strtoull(e + 1, &e, 10);
		if (!step[nloops] || !nb[nloops] || nb[nloops] > objects || (e < end && *e != ':'))
			return 0;
		minstep = step[nloops] < minstep ? step[nloops] : minstep;
		total *= nb[nloops++];
		if (total > objects)
			return 0;
		p = e + 1;
	}
	if (!nloops || objects % total)
		return 0;
	if (total != objects) { /* hwloc's one missing loop */
		if (minstep != objects / total)
			return 0;
		step[nloops] = 1;
		nb[nloops++] = objects / total;
	}
	if (!(seen = calloc(objects, 1)))
		return 1; /* out of memory: hwloc's to check, as before */
	for (unsigned long long j = 0; ok && j < objects; j++) {
		unsigned long long idx = 0, mul = 1;
		for (size_t i = 0; i < nloops; i++) {
			idx += (j / step[i]) % nb[i] * mul;
			mul *= nb[i];
		}
		ok = idx < objects && !seen[idx];
		if (ok)
			seen[idx] = 1;
	}
	free(seen);
	return ok;
}

/* An explicit list among attrs (not an interleaving) has as many numbers as objects, and a
 * numeric interleaving numbers each once; what names the objects for the message. Returns 0
 * or -LAB_ETOPO. */
static int topo_syn_index_count(const char *spec, const char *attrs, size_t len,
                                unsigned long long objects, const char *what, struct lab_err *err)
{
	size_t vlen = 0;
	const char *v = attrs ? topo_syn_index_attr(attrs, len, &vlen) : NULL;
	unsigned long long n = 1;

	if (v && strspn(v, "0123456789*:") == vlen && memchr(v, '*', vlen) &&
	    !topo_syn_interleaving_ok(v, vlen, objects))
		return lab_err_set(
		    err, LAB_ETOPO,
		    "%s: indexes=%.*s of %s is no interleaving of its %llu object%s "
		    "(allowed: STEP*COUNT loops, joined by ':', whose counts multiply "
		    "to %llu and that number each object once, e.g. indexes=2*2:1*2 "
		    "for 4; hwloc ignores or misreads another)",
		    spec, (int)(vlen > 40 ? 40 : vlen), v, what, objects, objects == 1 ? "" : "s",
		    objects);
	if (!v || strspn(v, "0123456789,") < vlen)
		return 0;
	for (size_t i = 0; i < vlen; i++)
		n += v[i] == ',';
	if (n == objects)
		return 0;
	return lab_err_set(err, LAB_ETOPO,
	                   "%s: indexes= of %s lists %llu index%s, but the machine has %llu such "
	                   "object%s (allowed: exactly %llu, one per object, or an interleaving "
	                   "such as indexes=Core:Package)",
	                   spec, what, n, n == 1 ? "" : "es", objects, objects == 1 ? "" : "s",
	                   objects);
}

/* A level of the description as a named interleaving finds it: hwloc's type for its name and
 * its objects in the whole machine. Level 0 is the root (Machine, 1 object). */
struct topo_syn_level {
	hwloc_obj_type_t type;
	unsigned group_depth; /* a Group's depth attribute, (unsigned)-1 when not given */
	bool known;           /* a bare arity ("2 8 2") is typed by hwloc: not known here */
	unsigned long long width;
	bool attached; /* lv[0] alone: the description attaches memory in [] */
};

#define TOPO_SYN_LEVELS_MAX 64

/* The type hwloc reads from text of len characters (as "Core", "l2", "group1"); false when it
 * names none. */
static bool topo_syn_type(const char *text, size_t len, hwloc_obj_type_t *type, unsigned *gdepth)
{
	union hwloc_obj_attr_u attr;
	char name[48];

	if (!len || len >= sizeof(name))
		return false;
	memcpy(name, text, len);
	name[len] = '\0';
	attr.group.depth = (unsigned)-1;
	if (hwloc_type_sscanf(name, type, &attr, sizeof(attr)) < 0)
		return false;
	*gdepth = *type == HWLOC_OBJ_GROUP ? attr.group.depth : (unsigned)-1;
	return true;
}

/*
 * A named interleaving v (vlen characters, "Core:Package") of level lv[depth], as hwloc builds
 * it (hwloc 2.9): each name the type of a distinct level of objects with children (the root,
 * any level but the bottom one), this level or one above (a Group's depth as given), loop k of
 * step width / width(k) and count width(k) / width(the deepest listed level above k). Written out
 * as STEP*COUNT loops into num, it must number each object once (topo_syn_interleaving_ok), or
 * hwloc ignores it without a word: indexes=Core:PU on the PU level, Bogus:PU, Core:Core. nlev:
 * the levels of the description (lv[nlev] the bottom one). 1 when it holds, 0 when not (*why says
 * why), -1 when a level has no type name, 2 when hwloc decides what the lab cannot see (a NUMA
 * level it adds, a Group's depth it gives).
 */
static int topo_syn_named_ok(const char *v, size_t vlen, const struct topo_syn_level *lv,
                             unsigned depth, unsigned nlev, const char **why)
{
	unsigned at[TOPO_SYN_LEVELS_MAX], n = 0;
	char num[TOPO_SYN_LEVELS_MAX * 44] = "";
	size_t used = 0;

	for (unsigned i = 1; i <= nlev; i++)
		if (!lv[i].known)
			return -1;
	if (v[vlen - 1] == ':') /* hwloc reads the empty name after it */
		return *why = "names no object type hwloc knows", 0;
	for (const char *p = v, *end = v + vlen; p < end && n < TOPO_SYN_LEVELS_MAX; n++) {
		size_t len = strcspn(p, ":");
		hwloc_obj_type_t type;
		unsigned gdepth, i = 0;

		len = len < (size_t)(end - p) ? len : (size_t)(end - p);
		if (!topo_syn_type(p, len, &type, &gdepth))
			return *why = "names no object type hwloc knows", 0;
		while (i < nlev && (lv[i].type != type ||
		                    (gdepth != (unsigned)-1 && lv[i].group_depth != (unsigned)-1 &&
		                     lv[i].group_depth != gdepth)))
			i++;
		if (i < nlev && i > depth)
			return *why = "names a level below this one", 0;
		if (i == nlev && type == HWLOC_OBJ_NUMANODE && !lv[0].attached)
			return 2; /* the NUMA level hwloc adds where none is attached */
		for (unsigned g = 1; i == nlev && type == HWLOC_OBJ_GROUP && g < nlev; g++)
			if (lv[g].type == HWLOC_OBJ_GROUP && lv[g].group_depth == (unsigned)-1)
				return 2; /* a Group whose depth hwloc numbers */
		if (i == nlev)
			return *why = "names a type that is no level above this one", 0;
		if (type == HWLOC_OBJ_GROUP && gdepth != (unsigned)-1 &&
		    lv[i].group_depth == (unsigned)-1)
			return 2;
		for (unsigned k = 0; k < n; k++)
			if (at[k] == i)
				return *why = "names one level twice", 0;
		at[n] = i;
		p += len + 1;
	}
	for (unsigned k = 0; k < n; k++) {
		unsigned prev = 0;
		for (unsigned j = 0; j < n; j++)
			if (at[j] < at[k] && at[j] > prev)
				prev = at[j];
		used += (size_t)snprintf(num + used, sizeof(num) - used, "%s%llu*%llu",
		                         k ? ":" : "", lv[depth].width / lv[at[k]].width,
		                         lv[at[k]].width / lv[prev].width);
	}
	if (topo_syn_interleaving_ok(num, used, lv[depth].width))
		return 1;
	return *why = "does not number each object once", 0;
}

/* A named indexes= among attrs of level lv[depth] (what names it), checked as hwloc builds it.
 * Returns 0 or -LAB_ETOPO. */
static int topo_syn_named_check(const char *spec, const char *attrs, size_t len,
                                const struct topo_syn_level *lv, unsigned depth, unsigned nlev,
                                const char *what, struct lab_err *err)
{
	size_t vlen = 0;
	const char *v = attrs ? topo_syn_index_attr(attrs, len, &vlen) : NULL, *why = NULL;
	int ok;

	if (!v || !isalpha((unsigned char)*v))
		return 0;
	/* attached memory (depth 0 here): hwloc 2.9 aborts on some (an assertion: [numa(indexes=
	 * Core)] under pack), ignores others; levels it typed itself, or past the lab's 64, are
	 * not known here: refused rather than passed on */
	ok = depth == 0 || nlev >= TOPO_SYN_LEVELS_MAX
	         ? 0
	         : topo_syn_named_ok(v, vlen, lv, depth, nlev, &why);
	if (ok > 0)
		return 0;
	if (ok < 0 || depth == 0 || nlev >= TOPO_SYN_LEVELS_MAX)
		return lab_err_set(
		    err, LAB_ETOPO,
		    "%s: indexes=%.*s of %s is a named interleaving of %s (allowed "
		    "there: an explicit list, one index per object, or STEP*COUNT "
		    "loops)",
		    spec, (int)(vlen > 40 ? 40 : vlen), v, what,
		    depth == 0 ? "attached memory, which hwloc 2.9 aborts on or ignores"
		    : ok < 0   ? "levels written without type names, whose types hwloc "
		                 "picks (name them, as pack:2 core:2 pu:2)"
		               : "a level more than 63 deep");
	return lab_err_set(err, LAB_ETOPO,
	                   "%s: indexes=%.*s of %s %s, so hwloc would ignore it without a word "
	                   "(allowed: types of distinct levels above it, e.g. "
	                   "indexes=Core:Package on a pu level under core and pack)",
	                   spec, (int)(vlen > 40 ? 40 : vlen), v, what, why);
}

/*
 * Every explicit indexes= list of desc numbers every object of its level in the whole machine
 * (a level's objects are the product of the arities down to it): hwloc ignores a list of
 * another length without a word (core:2(indexes=0,1) under pack:2 kept its own numbering) and
 * the tail of a longer one. The NUMA nodes attached in [] share one list over all of them.
 * An interleaving, numbered (4*2:1*2) or named (Core:Package), must number each object once as
 * hwloc builds it. Returns 0 or -LAB_ETOPO.
 */
static int topo_synthetic_counts(const char *spec, const char *desc, struct lab_err *err)
{
	unsigned long long width = 1, attached = 0;
	struct topo_syn_item it;
	struct topo_syn_level lv[TOPO_SYN_LEVELS_MAX];
	unsigned depth = 0, nlev = 0;
	char what[96];
	const char *c = topo_syn_root_end(desc);
	int rc = 0;

	if (!c)
		return 0;
	lv[0] = (struct topo_syn_level){HWLOC_OBJ_MACHINE, (unsigned)-1, true, 1, false};
	while (topo_syn_item_read(&c, &it)) {
		if (!it.arity) {
			attached += width; /* one node under each object of the level above */
			lv[0].attached = true;
			continue;
		}
		width *= it.arity;
		if (++nlev < TOPO_SYN_LEVELS_MAX) { /* the levels a named interleaving names */
			struct topo_syn_level *l = &lv[nlev];
			size_t tl = strcspn(it.name, ":"); /* its type's name, before ':' */
			tl = tl < (size_t)it.name_len ? tl : (size_t)it.name_len;
			l->width = width;
			l->known = topo_syn_type(it.name, tl, &l->type, &l->group_depth) &&
			           (size_t)it.name_len > tl;
		}
	}
	if (*desc == '(')
		rc = topo_syn_index_count(spec, desc + 1, strcspn(desc + 1, ")"), 1, "the root",
		                          err);
	width = 1;
	for (c = topo_syn_root_end(desc); rc == 0 && topo_syn_item_read(&c, &it);) {
		int n = it.name_len > 40 ? 40 : it.name_len;
		if (it.arity) {
			width *= it.arity;
			depth++;
			snprintf(what, sizeof(what), "level '%.*s'", n, it.name);
		} else {
			snprintf(what, sizeof(what), "'[%.*s]'", n, it.name);
		}
		rc = topo_syn_index_count(spec, it.attrs, it.attrs_len, it.arity ? width : attached,
		                          what, err);
		if (rc == 0) /* attached memory at depth 0 */
			rc = topo_syn_named_check(spec, it.attrs, it.attrs_len, lv,
			                          it.arity ? depth : 0, nlev, what, err);
	}
	return rc;
}

/* Every size= and memory= attribute of desc in decimal digits (a unit may follow): hwloc reads
 * them with strtoull base 0, so -5 wraps to 2^64 - 5, 0x10 is 16 and 010 is 8. Returns 0 or
 * -LAB_ETOPO. */
static int topo_synthetic_numbers(const char *spec, const char *desc, struct lab_err *err)
{
	static const char *const keys[] = {"size=", "memory="};

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		for (const char *a = desc; (a = strstr(a, keys[k])); a++) {
			const char *v = a + strlen(keys[k]);
			int vlen = (int)strcspn(v, " )");

			if (a > desc && a[-1] != '(' && a[-1] != ' ')
				continue;
			/* hwloc reads a cache's size=0 as unset and puts its default (16 MiB)
			 * in its place: a size the user never gave */
			if (k == 0 && v[0] == '0' && !isalnum((unsigned char)v[1]))
				return lab_err_set(err, LAB_ETOPO,
				                   "%s: size=0: allowed 1KB .. 1TB (hwloc reads 0 "
				                   "as no size and gives its default, 16 MiB)",
				                   spec);
			if (isdigit((unsigned char)v[0]) &&
			    !(v[0] == '0' && isalnum((unsigned char)v[1])))
				continue;
			return lab_err_set(err, LAB_ETOPO,
			                   "%s: %s%.*s: allowed a whole number of bytes in decimal "
			                   "digits, a unit may follow (size=32KB, memory=1GB)",
			                   spec, keys[k], vlen > 40 ? 40 : vlen, v);
		}
	return 0;
}

int lab__topo_synthetic_check(const char *spec, const char *desc, struct lab_err *err)
{
	int rc = topo_synthetic_check(spec, desc, err);

	if (rc == 0)
		rc = topo_synthetic_numbers(spec, desc, err);
	if (rc == 0)
		rc = topo_synthetic_indexes(spec, desc, err);
	return rc < 0 ? rc : topo_synthetic_counts(spec, desc, err);
}
