/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The roofline's numbers (roofline.h): the candidate ceilings from the run's own bandwidth and
 * compute points (the choice among them: roofline_ceils.c), and each other point placed under
 * its roofs (the rates and FMA+add against FMA alone: roofline_pipes.c). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "analyze/rates.h"
#include "analyze/units.h"
#include "analyze/views/roofline.h"
#include "analyze/views/view.h"

int lab_an_rl_applies(const struct lab_an_view *v, const struct lab_an_data *d,
                      const struct lab_an_point *p)
{
	return lab_an_view_declared(d, p->experiment, v ? v->name : "roofline") == 1;
}

static const char *const an_level_names[] = {"", "L1", "L2", "L3", "L4", "L5", "DRAM"};

/* The cache level of a working set of size bytes: 1..5, 6 for DRAM, 0 when run.json records
 * no cache sizes or there is no size. The loader checked the cache table (each level once, a
 * whole level 1..5 and size > 0: data_host.c), so every entry counts. */
static int an_level(const struct lab_an_data *d, double size)
{
	const struct lab_an_json *host = lab_an_json_get(d->run, "host");
	const struct lab_an_json *c = lab_an_json_get(lab_an_json_get(host, "topology"), "caches");
	int lvl = 0;

	if (!c || c->type != LAB_AN_JSON_ARR || !c->n || !isfinite(size))
		return 0;
	for (size_t i = 0; i < c->n; i++) {
		double l = lab_an_json_num(&c->items[i], "level", 0);
		double s = lab_an_json_num(&c->items[i], "size", 0);

		if (l >= 1 && l <= 5 && s > 0 && size <= s && (!lvl || l < lvl))
			lvl = (int)l;
	}
	return lvl ? lvl : 6;
}

void lab_an_rl_levels_note(const struct lab_an_data *d, char *buf, size_t len)
{
	const struct lab_an_json *host = lab_an_json_get(d->run, "host");
	const struct lab_an_json *c = lab_an_json_get(lab_an_json_get(host, "topology"), "caches");
	size_t used = 0;

	buf[0] = 0;
	for (size_t i = 0; c && c->type == LAB_AN_JSON_ARR && i < c->n && used < len; i++) {
		const char *from = lab_an_json_str(&c->items[i], "size_from");
		double l = lab_an_json_num(&c->items[i], "level", 0);
		double s = lab_an_json_num(&c->items[i], "size", 0);
		double r = lab_an_json_num(&c->items[i], "reported_size", -1);
		bool measured = from && !strcmp(from, "measured");

		if (!from || (!measured && strcmp(from, "given")) || !(l >= 1 && l <= 5))
			continue;
		used +=
		    (size_t)snprintf(buf + used, len - used, "%sL%.0f is %.1f MiB %s",
		                     used ? "; " : "", l, s / 1048576.0,
		                     measured ? "as measured (one thread's loads slowed past it)"
		                              : "as given (--cache)");
		if (used < len && r >= 0 && r < 1e18)
			used += (size_t)snprintf(buf + used, len - used,
			                         ", where the topology reports %.1f MiB",
			                         r / 1048576.0);
	}
	if (used && used < len)
		snprintf(buf + used, len - used, ": the ceilings are named by these sizes");
}

/* Param key (else alt) of p into buf ("" when it has neither, or a value too long for buf: cut,
 * two ISAs of a hand-made file read as one); returns buf. */
static char *an_param(const struct lab_an_point *p, const char *key, const char *alt, char *buf,
                      size_t len)
{
	if ((!lab_an_params_get(p->params, key, buf, len) &&
	     (!alt || !lab_an_params_get(p->params, alt, buf, len))) ||
	    strlen(buf) + 1 >= len)
		buf[0] = 0;
	return buf;
}

/* The bytes of p's size param (its text into buf), NaN without one. */
static double an_size(const struct lab_an_point *p, char *buf, size_t len)
{
	return *an_param(p, "size", NULL, buf, len) ? lab_an_size_bytes(buf) : NAN;
}

/* Candidate ceiling c of point p (rates r): its rate over its bytes (kind bandwidth) or flops
 * and its name, which names its group (a cache level, else the size; "isa precision", and
 * "adds" for an add peak). */
static void an_cand(const struct lab_an_data *d, int inc, const struct lab_an_point *p, int kind,
                    const struct lab_an_rates *r, struct lab_an_rl_ceil *c)
{
	char size[48];

	*c = (struct lab_an_rl_ceil){.kind = kind,
	                             .threads = p->threads,
	                             .pt = p,
	                             .size = NAN,
	                             .faster_unsure = NAN,
	                             .adds = kind == LAB_AN_RL_COMPUTE && r->adds_only};
	lab_an_rl_rate(p, kind == LAB_AN_RL_BW ? r->bytes : r->flops, inc, &c->v);
	if (kind == LAB_AN_RL_COMPUTE) {
		an_param(p, "precision", "type", c->precision, sizeof(c->precision));
		an_param(p, "isa", NULL, c->isa, sizeof(c->isa));
		snprintf(c->name, sizeof(c->name), "%s%s%s%s", *c->isa ? c->isa : "any",
		         *c->precision ? " " : "", c->precision, c->adds ? " adds" : "");
		return;
	}
	c->size = an_size(p, size, sizeof(size));
	c->level = an_level(d, c->size);
	snprintf(c->name, sizeof(c->name), "%s%s%s", an_level_names[c->level], c->level ? " " : "",
	         size);
}

/* 1 when bandwidth ceiling c fits a point of size bytes better than cur: the smallest
 * measured size that holds the point, else (past them all, or no size) the largest. */
static int an_better_bw(const struct lab_an_rl_ceil *c, const struct lab_an_rl_ceil *cur,
                        double size)
{
	int holds = isfinite(size) && c->size >= size;

	if (!cur)
		return 1;
	if (holds != (isfinite(size) && cur->size >= size))
		return holds;
	return holds ? c->size < cur->size : c->size > cur->size;
}

/* The note of a point above its roof: the likely reason the ceiling does not bound it. */
static void an_above_note(struct lab_an_rl_pt *e, const char *other)
{
	static const char *const why[] = {
	    "that ceiling was measured below what the machine does (a narrower ISA, fewer "
	    "independent chains); measure peak with the point's ISA",
	    "the kernel is not bandwidth-bound, so its declared bytes are not what it moves "
	    "(reused lines, random accesses): its intensity is not its position",
	    "its data sits in a faster level than its size says, or the level's bandwidth kernels "
	    "were measured in other conditions"};
	const struct lab_an_rl_ceil *c = e->binds;
	int bw = c->kind == LAB_AN_RL_BW;
	const char *adds = "that ceiling is an add peak (op=add), about half of what FMAs reach: "
	                   "measure peak op=fma with the point's ISA";
	/* a loop of adds alone under its add peak: the peak is its roof, measured low */
	const char *add_low = "that add peak was measured below what the add pipes do (fewer "
	                      "independent chains, a busy machine): measure peak op=add with the "
	                      "point's ISA again";
	/* the roof is its group's best point with an interval: a faster one of too few samples
	 * for one, passed over, is the likelier reason where it would hold the point (within a
	 * rounding: the point itself, its rate over its bytes times its intensity, read an ulp
	 * below its rate over its flops in a third of cases: lessons37) */
	double unsure_roof = c->faster_unsure * (bw ? e->intensity : 1) * (1 + 1e-12);
	char unsure[200], pct[32], isa[32];
	/* the point's own ISA measured that peak: no narrower ISA to blame */
	const char *same = "that ceiling was measured below what the machine does (fewer "
	                   "independent chains, or a busy machine's samples): measure peak with "
	                   "this ISA again";
	int own = !bw && *c->isa && !strcmp(an_param(e->pt, "isa", NULL, isa, sizeof(isa)), c->isa);

	snprintf(unsure, sizeof(unsure),
	         "that ceiling is the best point with an interval; one ran at %.3g %s on too few "
	         "samples for one (raise reps; runs, where a point has runs >= 2)",
	         c->faster_unsure, bw ? "GB/s" : "GFLOP/s");
	e->above = 1;
	/* a roof of an absurd ceiling (bytes per unit near 0) gave "inf%" and 300 digits */
	snprintf(pct, sizeof(pct), e->fraction < 1e4 ? "%.0f%%" : "%.3g%%", 100 * e->fraction);
	snprintf(e->note, sizeof(e->note), "above its roof (%s of %s %s, measured by %s %s): %s",
	         pct, bw ? "bandwidth" : "compute", c->name, c->pt->experiment, c->pt->params,
	         e->gf.median <= unsure_roof ? unsure
	         : !bw && *other             ? other
	         : !bw && c->adds            ? (e->adds_only ? add_low : adds)
	         : own                       ? same
	                                     : why[bw ? 1 + (e->bandwidth_bound != 0) : 0]);
}

/* Ceilings split for placing points: a sized bandwidth ceiling without a level (a sweep of
 * sizes on a machine whose caches are not known: one per size, maybe thousands) in sized[],
 * sorted by threads, size and index, searched by size; compute ceilings (one per ISA and
 * precision: any number; add peaks apart) in by[] sorted by threads, ISA and precision, one of
 * them or none, then speed and index, searched; every other bandwidth ceiling (a few per level)
 * in bw[] by threads and index, its thread count's run found by search and scanned. */
struct an_sz {
	int threads;
	double size;
	size_t i; /* in s->c */
};

struct an_cp {
	int threads;
	const char *key[2]; /* compute: ISA, precision ("" when not known) */
	double median;
	size_t i; /* in s->c */
};

/* The keys a sort and a search compare: ISA and precision, one of them, or none. */
enum { AN_K_NONE, AN_K_ISA, AN_K_PREC, AN_K_BOTH, AN_K_N };

struct an_split {
	struct an_sz *sized;
	size_t nsized;
	/* run.json's lab.auto_march.isa when it names one of the lab's variants, else "": an auto
	 * point's ISA where peak did not measure auto; auto_other: that isa when it names none
	 * ("avx": 256-bit code of no variant's peak), else "" */
	const char *auto_isa, *auto_other;
	const char *auto_vectors; /* "256-bit": AVX-512 code on ymm counts as avx2 (""; unknown) */
	/* compute ceilings, the others' (set 0) and the add peaks' (set 1), each sorted on each
	 * set of keys (by[set][AN_K_...]); bw: threads and i only */
	struct an_cp *by[2][AN_K_N], *bw;
	size_t ncp[2], nbw;
};

/* threads, then the keys of mask (AN_K_ISA, AN_K_PREC) of x against key. */
static int an_cmp_keys(const struct an_cp *x, int th, const char *const *key, int mask)
{
	int c = 0;

	if (x->threads != th)
		return x->threads < th ? -1 : 1;
	for (int k = 0; k < 2 && !c; k++)
		c = mask & (1 << k) ? strcmp(x->key[k], key[k]) : 0;
	return c;
}

/* by[set][mask]'s order: an_cmp_keys, then the fastest first, then by index. */
static int an_cmp_cp(const struct an_cp *x, const struct an_cp *y, int mask)
{
	int c = an_cmp_keys(x, y->threads, y->key, mask);

	if (c)
		return c;
	if (x->median != y->median)
		return x->median > y->median ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static int an_cmp_none(const void *a, const void *b)
{
	return an_cmp_cp(a, b, AN_K_NONE);
}

static int an_cmp_isa(const void *a, const void *b)
{
	return an_cmp_cp(a, b, AN_K_ISA);
}

static int an_cmp_prec(const void *a, const void *b)
{
	return an_cmp_cp(a, b, AN_K_PREC);
}

static int an_cmp_both(const void *a, const void *b)
{
	return an_cmp_cp(a, b, AN_K_BOTH);
}

/* The first of the n entries of a (sorted on mask's keys) at threads th with those keys, or
 * n. */
static size_t an_cp_lower(const struct an_cp *a, size_t n, int th, const char *const *key, int mask)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		lab_an_view_probe();
		if (an_cmp_keys(&a[mid], th, key, mask) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !an_cmp_keys(&a[lo], th, key, mask) ? lo : n;
}

/* The compute ceiling of a point of ISA and precision key ("": not known) at th: the fastest of
 * its ISA and precision (a scalar loop's roof is the scalar peak, not the widest ISA's), else of
 * its ISA alone (ISAs differ by more than precisions do), else of its precision, else the
 * fastest; at each of these the ceilings of set first (0 the others, 1 the add peaks), then the
 * other set's; NULL when none is at th. */
static const struct lab_an_rl_ceil *an_compute(const struct lab_an_rl *s, const struct an_split *sp,
                                               int set, int th, const char *const *key)
{
	int mask = (*key[0] ? AN_K_ISA : 0) | (*key[1] ? AN_K_PREC : 0);
	const int order[][4] = {[AN_K_NONE] = {AN_K_NONE, -1, -1, -1},
	                        [AN_K_ISA] = {AN_K_ISA, AN_K_NONE, -1, -1},
	                        [AN_K_PREC] = {AN_K_PREC, AN_K_NONE, -1, -1},
	                        [AN_K_BOTH] = {AN_K_BOTH, AN_K_ISA, AN_K_PREC, AN_K_NONE}};

	for (int t = 0; t < 8 && order[mask][t / 2] >= 0; t++) {
		int in = t % 2 ? !set : set;
		const struct an_cp *a = sp->by[in][order[mask][t / 2]];
		size_t k = an_cp_lower(a, sp->ncp[in], th, key, order[mask][t / 2]);

		if (k < sp->ncp[in])
			return &s->c[a[k].i];
	}
	return NULL;
}

static int an_cmp_sz(const void *a, const void *b)
{
	const struct an_sz *x = a, *y = b;

	if (x->threads != y->threads)
		return x->threads < y->threads ? -1 : 1;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* The first of the sized ceilings at threads th whose size is at least z, or the end of th's
 * run (z = -INFINITY: its start). */
static size_t an_lower(const struct an_split *sp, int th, double z)
{
	size_t lo = 0, hi = sp->nsized;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct an_sz *c = &sp->sized[mid];

		lab_an_view_probe();
		if (c->threads < th || (c->threads == th && c->size < z))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The sized ceiling without a level that fits a point of size z at th: the smallest size that
 * holds it, else (z NaN too) the largest, the first of equal sizes; NULL when none is at th. */
static const struct lab_an_rl_ceil *an_sized(const struct lab_an_rl *s, const struct an_split *sp,
                                             int th, double z)
{
	size_t first = an_lower(sp, th, -INFINITY), end = an_lower(sp, th + 1, -INFINITY);
	size_t k = isfinite(z) ? an_lower(sp, th, z) : end;

	if (first == end)
		return NULL;
	if (k < end)
		return &s->c[sp->sized[k].i];
	return &s->c[sp->sized[an_lower(sp, th, sp->sized[end - 1].size)].i];
}

/* The bandwidth ceiling of point e at its thread count: its level's (by size without levels);
 * *slow the best ceiling of a slower level, a lower bound of a missing one. */
static const struct lab_an_rl_ceil *an_bandwidth(const struct lab_an_rl *s,
                                                 const struct an_split *sp,
                                                 const struct lab_an_rl_pt *e,
                                                 const struct lab_an_rl_ceil **slow)
{
	const struct lab_an_rl_ceil *bw = NULL, *sz;
	int th = e->pt->threads;

	for (size_t r = an_cp_lower(sp->bw, sp->nbw, th, NULL, AN_K_NONE);
	     r < sp->nbw && sp->bw[r].threads == th; r++) {
		const struct lab_an_rl_ceil *c = &s->c[sp->bw[r].i];

		lab_an_view_probe();
		if (!e->level || !c->level)
			bw = an_better_bw(c, bw, e->size) ? c : bw;
		else if (c->level == e->level)
			bw = c;
		else if (c->level > e->level && (!*slow || c->v.median > (*slow)->v.median))
			*slow = c;
	}
	/* a ceiling without a level fits any point: the sized ones by search (one without a size
	 * fits only where nothing else does) */
	if ((sz = an_sized(s, sp, th, e->size)) &&
	    (!bw || !isfinite(bw->size) || an_better_bw(sz, bw, e->size)))
		bw = sz;
	return bw;
}

/* 1 when key names isa=auto and no auto peak of it (of its precision, own: AN_K_BOTH, or
 * any, AN_K_ISA) was measured at th threads, FMA or adds. */
static int an_auto_unmeasured(const struct an_split *sp, int th, const char *const *key, int own)
{
	return !strcmp(key[0], "auto") &&
	       an_cp_lower(sp->by[0][own], sp->ncp[0], th, key, own) == sp->ncp[0] &&
	       an_cp_lower(sp->by[1][own], sp->ncp[1], th, key, own) == sp->ncp[1];
}

/* Where compute ceiling cp is of another ISA or precision than the point's keys (an_compute
 * fell back: its own peak was not measured, or all its samples were left out), why that
 * ceiling is no roof of its own into buf, else "". A point above such a ceiling was told to
 * measure the peak again (an avx512 sum at 147 % of avx2's add peak, an f32 one at 166 % of
 * f64's), and an auto point under a narrower ISA's ceiling got no word. The peak to run is the
 * point's own kind: add for adds alone (adds), else FMA. */
static const char *an_other_ceiling(const struct lab_an_rl_ceil *cp, const char *const *key,
                                    int adds, int th, char *buf, size_t len)
{
	int isa = *cp->isa && *key[0] && strcmp(cp->isa, key[0]);
	int prec = *cp->precision && *key[1] && strcmp(cp->precision, key[1]);

	buf[0] = '\0';
	if (isa || prec)
		snprintf(buf, len,
		         "under the %s ceiling, another %s, whose lanes are not its own: no "
		         "%s%s%s%s peak was measured at %d thread%s (run peak%s%s%s%s%s)",
		         cp->name,
		         isa && prec ? "ISA's and precision's"
		         : isa       ? "ISA's"
		                     : "precision's",
		         isa ? key[0] : "", isa && prec ? " " : "", prec ? key[1] : "",
		         adds ? " add" : " FMA", th, th == 1 ? "" : "s",
		         adds ? " op=add" : " op=fma", isa ? " isa=" : "", isa ? key[0] : "",
		         prec ? " type=" : "", prec ? key[1] : "");
	return buf;
}

/* A triad's stores read their lines first beyond L1 (32 bytes moved for 24 declared); under
 * the ceiling bw of a saxpy, which moves what it declares, it read 73 % at DRAM bandwidth: the
 * note of a point with write-allocate under bw without it says where it is with those bytes. */
#define AN_WA_HEAD                                                                                 \
	"its stores read each line first (write-allocate), which the kernel of ceiling %s does "   \
	"not: counted with those bytes (intensity_wa %.3g flop/B) it is at %.0f %% of this roof"

static void an_wa_note(struct lab_an_rl_pt *e, const struct lab_an_rl_ceil *bw)
{
	double k = e->intensity / e->intensity_wa, f = 100 * e->fraction * k,
	       lo = 100 * e->gf.lo * k / e->roof;

	if (e->binds != bw || !bw->no_wa || e->level < 2 ||
	    !(e->intensity_wa < e->intensity * (1 - 1e-9)))
		return;
	/* above 100 % it says what that is, and within noise where its interval reaches the roof
	 * (it read "at 128 % of this roof" as a fact, lessons34) */
	if (f > 100 && lo <= 100)
		snprintf(e->note, sizeof(e->note),
		         AN_WA_HEAD ", within noise: its interval reaches down to %.0f %%",
		         bw->name, e->intensity_wa, f, lo);
	else
		snprintf(e->note, sizeof(e->note), AN_WA_HEAD "%s", bw->name, e->intensity_wa, f,
		         !(f > 100)  ? ""
		         : isnan(lo) ? ", with no interval to tell it from the roof"
		                     : ": this level passes its read+write traffic faster than the "
		                       "read-only kernel of the roof (the ceilings are ranked by "
		                       "declared bytes)");
}

/* The roof of point e at its thread count (roofline.h): from its compute ceiling cp (the
 * highest of its ISA and precision, an_compute) and its bandwidth ceiling bw (its level's, by size
 * without levels); slow is the best ceiling of a slower level, a lower bound of a missing bw. */
/* A point's "fma_fused" fact: 1 its multiply-adds are FMAs, 0 a multiply and an add, -1 not
 * said (an older run, or a loop without them). */
static int an_fused(const struct lab_an_point *p)
{
	const struct lab_an_json *fu = p ? lab_an_json_get(p->facts, "fma_fused") : NULL;

	return fu && fu->type == LAB_AN_JSON_BOOL ? fu->num != 0 : -1;
}

/* A multiply and an add under a ceiling of fused FMAs: on a core whose multiplies and adds
 * share the FMA pipes the loop reaches half of it, so "50 % of its roof" would be its limit
 * (march44: auto's and scalar's dot under avx2's and scalar's FMA peaks). */
static void an_unfused_note(struct lab_an_rl_pt *e, const struct lab_an_rl_ceil *cp)
{
	size_t k = strlen(e->note);

	if (!cp || e->binds != cp || cp->adds || an_fused(e->pt) != 0 || an_fused(cp->pt) != 1)
		return;
	snprintf(e->note + k, sizeof(e->note) - k,
	         "%sits multiply-adds are a multiply and an add, not fused, under a ceiling of "
	         "FMAs (%s): where a core's multiplies and adds share its FMA pipes they reach "
	         "about half of it",
	         k ? "; " : "", cp->name);
}

static void an_place(const struct lab_an_rl *s, const struct an_split *sp, struct lab_an_rl_pt *e)
{
	const struct lab_an_rl_ceil *bw, *cp, *slow = NULL;
	char prec[sizeof(s->c->precision)], isa[sizeof(s->c->isa)];
	const char *key[2] = {an_param(e->pt, "isa", NULL, isa, sizeof(isa)),
	                      an_param(e->pt, "type", "precision", prec, sizeof(prec))};
	int th = e->pt->threads;

	/* auto without an auto peak: the widest variant its build may use (an x86-64 build's SSE2
	 * loop fell to AVX-512's ceiling, bandwidth-bound under a roof it cannot reach); built for
	 * an ISA no variant measured (AVX without AVX2 and FMA): no compute roof (sse2's was half
	 * of what its 256-bit code can reach) */
	int bare = an_auto_unmeasured(sp, th, key, *prec ? AN_K_BOTH : AN_K_ISA);
	int as_build = bare && *sp->auto_isa, no_cp = bare && *sp->auto_other;

	if (as_build)
		key[0] = sp->auto_isa;
	/* adds alone: the add peak of its ISA and precision first; any other point the others'
	 * ceilings first (an add peak faster than an FMA run of too few chains is no roof for a
	 * loop with multiplies), an add peak where none of those is of its keys */
	cp = no_cp ? NULL : an_compute(s, sp, e->adds_only, th, key);
	char other[300] = "";
	if (cp)
		an_other_ceiling(cp, key, e->adds_only, th, other, sizeof(other));
	bw = an_bandwidth(s, sp, e, &slow);
	e->roof = (e->binds = bw) ? bw->v.median * e->intensity : NAN;
	/* Without its bandwidth ceiling, compute binds only where a slower level's ceiling already
	 * reaches it: the ridge is not known. */
	if (cp && (bw ? !(e->roof <= cp->v.median)
	              : slow && slow->v.median * e->intensity >= cp->v.median))
		e->roof = (e->binds = cp)->v.median;
	e->fraction = e->gf.median / e->roof;
	if (!e->binds)
		snprintf(e->note, sizeof(e->note),
		         "roof not measured: no bandwidth ceiling%s%s at %d thread%s (run a "
		         "bandwidth-bound kernel at a size in that level)",
		         e->level ? " for " : "", an_level_names[e->level], th, th == 1 ? "" : "s");
	else if (e->fraction > 1 + 1e-9 && e->gf.lo <= e->roof)
		snprintf(e->note, sizeof(e->note),
		         "at %.0f %% of its roof (%s), within noise: its interval reaches down to "
		         "%.3g GFLOP/s",
		         100 * e->fraction, e->binds->name, e->gf.lo);
	else if (e->fraction > 1 + 1e-9)
		an_above_note(e, e->binds == cp ? other : "");
	else if (e->binds == cp && *other)
		snprintf(e->note, sizeof(e->note), "%s", other);
	else if (!e->adds_only && e->binds == cp && cp->adds)
		snprintf(
		    e->note, sizeof(e->note),
		    "under an add peak (%s), about half of what FMAs reach: no FMA peak of its "
		    "ISA and precision at %d thread%s (peak op=fma)",
		    cp->name, th, th == 1 ? "" : "s");
	else if (e->adds_only && e->binds == cp && !cp->adds)
		snprintf(
		    e->note, sizeof(e->note),
		    "adds alone under an FMA ceiling (%s): the add pipes reach about half of it; "
		    "no add peak of its ISA and precision at %d thread%s (peak op=add)",
		    cp->name, th, th == 1 ? "" : "s");
	else if (as_build && e->binds == cp && !strcmp(cp->isa, sp->auto_isa))
		snprintf(
		    e->note, sizeof(e->note),
		    "isa=auto: no auto peak of its precision was measured; its roof is %s's, the "
		    "widest variant its build%s%s%s (run.json lab.auto_march)",
		    sp->auto_isa, *sp->auto_vectors ? "'s " : " may use", sp->auto_vectors,
		    *sp->auto_vectors ? " vectors reach" : "");
	else if (no_cp)
		snprintf(e->note, sizeof(e->note),
		         "isa=auto: built for %.16s, wider than sse2 and no variant of the lab's, "
		         "and no auto peak of its precision was measured: no compute roof, the "
		         "bandwidth's alone (run peak isa=auto)",
		         sp->auto_other);
	an_unfused_note(e, cp);
	if (!*e->note)
		an_wa_note(e, bw);
}

static void an_split_free(struct an_split *sp)
{
	free(sp->sized);
	for (int m = 0; m < 2 * AN_K_N; m++)
		free(sp->by[m / AN_K_N][m % AN_K_N]);
	free(sp->bw);
}

/* Every point of s placed under its roof: O((points + ceilings) log ceilings). Returns 0 or
 * -LAB_ENOMEM. */
static int an_place_all(const struct lab_an_data *d, struct lab_an_rl *s)
{
	static const char *const isas[] = {"scalar", "sse2", "avx2", "avx512"};
	static const char *const widths[] = {"128-bit", "256-bit", "512-bit"};
	const struct lab_an_json *am =
	    lab_an_json_get(lab_an_json_get(d->run, "lab"), "auto_march");
	const char *auto_isa = lab_an_json_str(am, "isa"),
	           *auto_vec = lab_an_json_str(am, "vectors");
	static int (*const cmp[AN_K_N])(const void *, const void *) = {an_cmp_none, an_cmp_isa,
	                                                               an_cmp_prec, an_cmp_both};
	size_t n = s->nc + 1;
	struct an_split sp = {.sized = malloc(n * sizeof(*sp.sized)),
	                      .auto_isa = "",
	                      .auto_other = "",
	                      .auto_vectors = "",
	                      .bw = malloc(n * sizeof(*sp.bw))};
	int ok = sp.sized && sp.bw;

	for (size_t k = 0; auto_isa && k < sizeof(isas) / sizeof(isas[0]); k++)
		sp.auto_isa = strcmp(auto_isa, isas[k]) ? sp.auto_isa : isas[k]; /* from a file */
	if (auto_isa && !*sp.auto_isa && !strcmp(auto_isa, "avx"))
		sp.auto_other = "avx";
	for (size_t k = 0; auto_vec && k < sizeof(widths) / sizeof(widths[0]); k++)
		sp.auto_vectors = strcmp(auto_vec, widths[k]) ? sp.auto_vectors : widths[k];

	for (int m = 0; m < 2 * AN_K_N; m++)
		ok &= (sp.by[m / AN_K_N][m % AN_K_N] = malloc(n * sizeof(struct an_cp))) != NULL;
	if (!ok) {
		an_split_free(&sp);
		return -LAB_ENOMEM;
	}
	for (size_t i = 0; i < s->nc; i++) {
		const struct lab_an_rl_ceil *c = &s->c[i];

		if (!(c->v.median > 0))
			continue;
		if (c->kind == LAB_AN_RL_COMPUTE)
			sp.by[!!c->adds][0][sp.ncp[!!c->adds]++] =
			    (struct an_cp){c->threads, {c->isa, c->precision}, c->v.median, i};
		else if (!c->level && isfinite(c->size))
			sp.sized[sp.nsized++] = (struct an_sz){c->threads, c->size, i};
		else /* by threads, then in index order (the order they are weighed in) */
			sp.bw[sp.nbw++] = (struct an_cp){c->threads, {"", ""}, 0, i};
	}
	for (int set = 0; set < 2; set++) {
		for (int m = 1; m < AN_K_N; m++) {
			memcpy(sp.by[set][m], sp.by[set][0], sp.ncp[set] * sizeof(struct an_cp));
			qsort(sp.by[set][m], sp.ncp[set], sizeof(struct an_cp), cmp[m]);
		}
		qsort(sp.by[set][0], sp.ncp[set], sizeof(struct an_cp), cmp[0]);
	}
	qsort(sp.sized, sp.nsized, sizeof(*sp.sized), an_cmp_sz);
	qsort(sp.bw, sp.nbw, sizeof(*sp.bw), an_cmp_none);
	for (size_t i = 0; i < s->np; i++)
		an_place(s, &sp, &s->p[i]);
	an_split_free(&sp);
	return 0;
}

int lab_an_rl_roofs(const struct lab_an_data *d, int inc, struct lab_an_rl *s)
{
	struct lab_an_rl_ceil *cand = calloc(d->npt + 1, sizeof(*cand));
	size_t n = 0;
	int rc = cand ? 0 : -LAB_ENOMEM;
	char buf[64];

	for (size_t i = 0; cand && i < d->npt; i++) {
		const struct lab_an_point *p = &d->pt[i];
		struct lab_an_rl_pt *e = &s->p[s->np];
		struct lab_an_rates r;

		if (!p->st.n || strcmp(p->status, "ok") || !lab_an_rl_applies(NULL, d, p))
			continue;
		lab_an_rates_compute(d, p, &r);
		if (!r.has || (r.bytes <= 0 && r.flops <= 0))
			continue;
		/* A bandwidth source: declared bandwidth-bound, or (older results) bytes alone. */
		if (r.bytes <= 0 || r.bandwidth_bound == 1 ||
		    (r.bandwidth_bound < 0 && r.flops <= 0)) {
			an_cand(d, inc, p, r.bytes > 0 ? LAB_AN_RL_BW : LAB_AN_RL_COMPUTE, &r,
			        &cand[n]);
			cand[n].reads_only = r.bytes > 0 && r.bytes_written <= 0;
			cand[n].no_wa = !(r.bytes_wa > r.bytes);
			n += cand[n].v.median > 0 && isfinite(cand[n].v.median);
		}
		if (r.bytes <= 0 || r.flops <= 0)
			continue;
		*e = (struct lab_an_rl_pt){.pt = p,
		                           .intensity = r.flops / r.bytes,
		                           .intensity_wa = r.flops / r.bytes_wa,
		                           .size = an_size(p, buf, sizeof(buf)),
		                           .bandwidth_bound = r.bandwidth_bound,
		                           .reads_only = r.bytes_written <= 0,
		                           .adds_only = r.adds_only};
		lab_an_rl_rate(p, r.flops, inc, &e->gf);
		e->level = an_level(d, e->size);
		s->np++;
	}
	if (!rc)
		rc = lab_an_rl_ceilings(s, cand, n);
	if (!rc)
		rc = lab_an_rl_isa_notes(s, cand, n);
	if (!rc)
		rc = an_place_all(d, s);
	if (!rc)
		rc = lab_an_rl_reads_notes(s, cand, n);
	free(cand);
	return rc ? rc : lab_an_rl_pipes(d, inc, s);
}
