/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The cache sizes a plan's cache-relative sizes (size = L3/2) come from: hwloc's, a --cache
 * LEVEL=SIZE the user gave, or, under a hypervisor, the last level measured when its reported
 * size is one the loads contradict (harness/cacheprobe.h). Shared by lab run, lab plan and
 * lab __run-point, which is handed the parent's sizes so that it plans the same points.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness/cacheprobe.h"
#include "harness/cpufeat.h"
#include "harness/json.h"
#include "harness/param.h"
#include "kernels/registry.h"
#include "lab/cli.h"

/* "L3=32M" or "L3=reported" into *level and *bytes (0 for reported); 0, -1, or -2 for a size
 * outside LAB_TOPO_CACHE_MIN .. LAB_TOPO_CACHE_MAX (the bound of a described topology's caches:
 * L1=3 planned size = L1/4 as 0 bytes). */
static int cache_arg_parse(const char *arg, unsigned *level, uint64_t *bytes)
{
	struct lab_err err = {0};

	if ((arg[0] != 'L' && arg[0] != 'l') || arg[1] < '1' || arg[1] > '0' + LAB_CACHE_LEVELS ||
	    arg[2] != '=' || strpbrk(arg, "\r\n\v\f")) /* the size parser trims them */
		return -1;
	*level = (unsigned)(arg[1] - '0');
	*bytes = 0;
	if (!strcmp(arg + 3, "reported"))
		return 0;
	if (lab_parse_size(arg + 3, bytes, &err))
		return -1;
	return *bytes < LAB_TOPO_CACHE_MIN || *bytes > LAB_TOPO_CACHE_MAX ? -2 : 0;
}

/* Whether a value of the configs or of --set names a size relative to cache level: "L3" that
 * does not continue a word and ends the value or goes on with what a size may ("L3*4", "L3/2",
 * "L2..L3", "size=L3)"; not the perf event L1-dcache-load-misses). */
static bool cache_named_in(const char *v, unsigned level)
{
	for (const char *c = v; *c; c++)
		if ((*c == 'L' || *c == 'l') && c[1] == (char)('0' + level) &&
		    (c == v || !(isalnum((unsigned char)c[-1]) || c[-1] == '_')) &&
		    (!c[2] || strchr("*/.,;) \t", c[2])))
			return true;
	return false;
}

/* Whether kernel name's results go on a roofline, whose ceilings are named by the cache level
 * a point's size falls in: the levels must then be right whatever sizes the config gives (a
 * hypervisor's 508 MiB L3 put ch28's 256 MiB DRAM points under an L3 roof). */
static bool cache_roofline_kernel(const char *name)
{
	for (const struct lab_kernel *const *k = lab_kernels; *k; k++)
		if (!strcmp((*k)->name, name))
			for (const char *const *v = (*k)->views; v && *v; v++)
				if (!strcmp(*v, "roofline"))
					return true;
	return false;
}

/* Whether key = value needs the size of cache level: a size relative to it, or a kernel a
 * roofline shows. */
static bool cache_kv_needs(const struct lab_cfg_kv *kv, unsigned level)
{
	return cache_named_in(kv->value, level) ||
	       (!strcmp(kv->key, "kernel") && cache_roofline_kernel(kv->value));
}

/* Whether a value of the configs or of --set needs the size of cache level. */
static bool cache_needed(const struct lab_cfg *cfg, unsigned level)
{
	for (unsigned i = 0; i < cfg->nsec; i++)
		for (unsigned k = 0; k < cfg->sec[i].nkv; k++)
			if (cache_kv_needs(&cfg->sec[i].kv[k], level))
				return true;
	for (unsigned i = 0; i < cfg->nset; i++)
		if (cache_kv_needs(&cfg->set[i], level))
			return true;
	return false;
}

void lab_cli_bytes_text(uint64_t b, char *buf, size_t len)
{
	if (b >= (1u << 20) && b % (1u << 20) == 0)
		snprintf(buf, len, "%llu MiB", (unsigned long long)(b >> 20));
	else if (b >= (1u << 20))
		snprintf(buf, len, "%.1f MiB", (double)b / (1u << 20));
	else if (b >= 1024 && b % 1024 == 0)
		snprintf(buf, len, "%llu KiB", (unsigned long long)(b >> 10));
	else if (b >= 1024)
		snprintf(buf, len, "%.1f KiB", (double)b / 1024);
	else /* L3=1 printed "0 KiB" */
		snprintf(buf, len, "%llu B", (unsigned long long)b);
}

/* The largest power of two at or below x (1 below 2). */
static uint64_t cache_pow2_floor(double x)
{
	uint64_t u = 1;

	while ((double)u <= x / 2)
		u *= 2;
	return u;
}

/* lab_cli_llc_check of cache level (0: the last the topology has). */
static bool cache_llc_check(const struct lab_topo *topo, unsigned level, struct lab_cli_llc *out)
{
	struct lab_cache_info c[LAB_CACHE_LEVELS];
	unsigned n = lab_topo_caches(topo, c, LAB_CACHE_LEVELS), k = n ? n - 1 : 0;
	struct lab_err err = {0};

	while (level && k > 0 && c[k].level != level)
		k--;
	memset(out, 0, sizeof(*out));
	if (k < 1 || !lab_topo_is_thissystem(topo))
		return false;
	lab_cpu_hypervisor(out->hv, sizeof(out->hv));
	if (!out->hv[0])
		return false;
	out->level = c[k].level;
	/* the level below as hwloc reports it: a given size (L2=8M) moved the sweep into DRAM */
	unsigned long long below = c[k - 1].reported && c[k - 1].reported < c[k - 1].size
	                               ? c[k - 1].reported
	                               : c[k - 1].size;
	out->p = (struct lab_cache_probe){.reported = c[k].size, .below = below};
	out->use = c[k].size;
	if (lab_cache_probe_run(&out->p, &err) || !lab_cache_probe_contradicts(&out->p))
		return true;
	out->use = cache_pow2_floor((double)out->p.fits);
	return true;
}

bool lab_cli_llc_check(const struct lab_topo *topo, struct lab_cli_llc *out)
{
	return cache_llc_check(topo, 0, out);
}

/* The size another sweep of c may plan: the power of two of an end one quarter step (the
 * sweep's finest, 2^(1/4)) shorter or longer, when that is not c->use (on the EPYC guest sweeps
 * ended at 13.5 or 16 MiB and planned 8 or 16). 0 when both round to c->use. */
static uint64_t cache_other_use(const struct lab_cli_llc *c)
{
	double step = pow(2.0, 0.25), cut = 1.01; /* the steps were cut to whole pages */
	uint64_t shorter = cache_pow2_floor((double)c->p.fits / step * cut),
	         longer = cache_pow2_floor((double)c->p.fits * step * cut);

	if (!lab_cache_probe_contradicts(&c->p))
		return 0;
	return shorter != c->use ? shorter : longer != c->use ? longer : 0;
}

void lab_cli_llc_text(const struct lab_cli_llc *c, char *buf, size_t len)
{
	char rep[32], past[32], use[32], sweeps[32] = "";

	if (c->p.sweeps > 1)
		snprintf(sweeps, sizeof(sweeps), " (median of %u sweeps)", c->p.sweeps);
	lab_cli_bytes_text(c->p.reported, rep, sizeof(rep));
	lab_cli_bytes_text(c->p.fits, past, sizeof(past));
	lab_cli_bytes_text(c->use, use, sizeof(use));
	if (!c->p.sizes)
		snprintf(buf, len,
		         "L%u: the hypervisor (%s) reports %s; not checked (no room for a "
		         "plateau above L%u, or no memory for the sweep)",
		         c->level, c->hv, rep, c->level - 1);
	else if (!lab_cache_probe_contradicts(&c->p))
		snprintf(buf, len,
		         "L%u: the hypervisor (%s) reports %s; one thread's streaming loads keep "
		         "the level's speed (%.0f GB/s) as far as checked (%u working sets up to "
		         "a quarter of it; bandwidth only: a dependent load's latency is not "
		         "checked)",
		         c->level, c->hv, rep, c->p.inside_gbs, c->p.sizes);
	else {
		size_t n = (size_t)snprintf(
		    buf, len,
		    "L%u: the hypervisor (%s) reports %s, but one thread's streaming loads "
		    "slow from %.0f to %.0f GB/s past %s%s: sizes relative to L%u use %s here "
		    "(--cache L%u=reported keeps the report)",
		    c->level, c->hv, rep, c->p.inside_gbs, c->p.past_gbs, past, sweeps, c->level,
		    use, c->level);
		uint64_t other = cache_other_use(c);

		if (other && n < len) {
			char o[32], arg[32];
			unsigned long long u = (unsigned long long)c->use;

			lab_cli_bytes_text(other, o, sizeof(o));
			if (u % 1048576 == 0)
				snprintf(arg, sizeof(arg), "%lluM", u / 1048576);
			else if (u % 1024 == 0)
				snprintf(arg, sizeof(arg), "%lluK", u / 1024);
			else
				snprintf(arg, sizeof(arg), "%llu", u);
			snprintf(
			    buf + n, len - n,
			    "; a sweep one quarter step %s would use %s (--cache L%u=%s keeps %s)",
			    other < c->use ? "shorter" : "longer", o, c->level, arg, use);
		}
	}
}

/* "cache_check": what one thread's loads say of the last level under a hypervisor (null
 * when nothing was measured: bare metal, another machine's topology). */
void lab_cli_llc_json(struct lab_json *j, const struct lab_cli_llc *llc)
{
	if (!llc->level) {
		lab_json_null(j, "cache_check");
		return;
	}
	lab_json_obj_open(j, "cache_check");
	lab_json_uint(j, "level", llc->level);
	lab_json_str(j, "hypervisor", llc->hv);
	lab_json_uint(j, "reported_size", llc->p.reported);
	lab_json_uint(j, "sets_measured", llc->p.sizes);
	lab_json_num(j, "plateau_gbs", llc->p.sizes ? llc->p.inside_gbs : NAN);
	lab_json_num(j, "past_gbs", llc->p.fits ? llc->p.past_gbs : NAN);
	lab_json_num(j, "fits", llc->p.fits ? (double)llc->p.fits : NAN);
	lab_json_bool(j, "contradicted", lab_cache_probe_contradicts(&llc->p));
	lab_json_uint(j, "size_plans_use", llc->use);
	/* what a sweep one quarter step shorter or longer would plan; null when the same */
	uint64_t other = cache_other_use(llc);

	lab_json_num(j, "size_plans_may_use", other ? (double)other : NAN);
	lab_json_obj_close(j);
}

/* 1 when a level below the last was given (--cache) a size at or above what the last level
 * measured: the plan's sizes would not grow with the level (L2=32M sized L2/2 at 16M and L3/2
 * at 8M), so the last level keeps its report, which cache_order checked against the given
 * sizes, and s->cache_note says so. */
static int cache_given_above(struct lab_cli_setup *s, const bool *given, struct lab_cli_llc *llc)
{
	struct lab_cache_info c[LAB_CACHE_LEVELS];
	unsigned n = lab_topo_caches(s->topo, c, LAB_CACHE_LEVELS);
	char past[32], at[32], rep[32];

	for (unsigned k = 0; k < n; k++)
		if (c[k].level < llc->level && given[c[k].level - 1] && c[k].size >= llc->use) {
			lab_cli_bytes_text(llc->p.fits, past, sizeof(past));
			lab_cli_bytes_text(c[k].size, at, sizeof(at));
			lab_cli_bytes_text(llc->p.reported, rep, sizeof(rep));
			snprintf(s->cache_note, sizeof(s->cache_note),
			         "L%u: one thread's loads slow past %s, but --cache L%u=%s is no "
			         "smaller: sizes relative to L%u keep the hypervisor's (%s) %s "
			         "(--cache L%u=SIZE sets it)",
			         llc->level, past, c[k].level, at, llc->level, llc->hv, rep,
			         llc->level);
			snprintf(s->cache_arg, sizeof(s->cache_arg), "L%u=reported", llc->level);
			llc->use = llc->p.reported;
			return 1;
		}
	return 0;
}

/*
 * Under a hypervisor, the last level hwloc reports is checked (lab_cli_llc_check) when the
 * configs name a size relative to it or run a kernel whose results a roofline places by cache
 * level, and the user gave the level no --cache; a contradicted
 * report is replaced. Either way the level's size goes to s->cache_arg for lab __run-point,
 * which must not sweep again.
 */
static void cache_check_last(struct lab_cli_setup *s, const bool *given, unsigned last)
{
	struct lab_cli_llc *llc = &s->llc;

	if (!last || given[last - 1] || !cache_needed(&s->cfg, last) ||
	    !cache_llc_check(s->topo, last, llc))
		return;
	if (!lab_cache_probe_contradicts(&llc->p)) {
		snprintf(s->cache_arg, sizeof(s->cache_arg), "L%u=reported", llc->level);
		return;
	}
	if (cache_given_above(s, given, llc)) /* kept the report; the note says why */
		return;
	lab_topo_cache_set(s->topo, llc->level, llc->use, true);
	snprintf(s->cache_arg, sizeof(s->cache_arg), "L%u=%llu", llc->level,
	         (unsigned long long)llc->use);
	lab_cli_llc_text(llc, s->cache_note, sizeof(s->cache_note));
}

/* The first --cache of a whose level is no larger than the level above it, once every size is
 * set; -1 when they grow with the level. */
static int cache_order(const struct lab_cli_args *a, const struct lab_topo *topo, char *buf,
                       size_t len)
{
	struct lab_cache_info c[LAB_CACHE_LEVELS];
	unsigned n = lab_topo_caches(topo, c, LAB_CACHE_LEVELS);

	for (unsigned k = 1; k < n; k++)
		for (unsigned i = 0; c[k].size <= c[k - 1].size && i < a->ncaches; i++) {
			unsigned level;
			uint64_t bytes;
			if (!cache_arg_parse(a->caches[i], &level, &bytes) && bytes &&
			    (level == c[k].level || level == c[k - 1].level)) {
				char lo[32], hi[32];
				lab_cli_bytes_text(c[k - 1].size, lo, sizeof(lo));
				lab_cli_bytes_text(c[k].size, hi, sizeof(hi));
				/* sizes that print alike ("1.0 MiB", "1 MiB"; 1060K and 1030K both
				 * "1.0 MiB") in bytes */
				if ((c[k - 1].size | c[k].size) % 1024 || !strcmp(lo, hi) ||
				    strchr(lo, '.') || strchr(hi, '.')) {
					snprintf(lo, sizeof(lo), "%llu B",
					         (unsigned long long)c[k - 1].size);
					snprintf(hi, sizeof(hi), "%llu B",
					         (unsigned long long)c[k].size);
				}
				snprintf(buf, len, "L%u is %s, L%u %s", c[k - 1].level, lo,
				         c[k].level, hi);
				return (int)i;
			}
		}
	return -1;
}

int lab_cli_caches(const struct lab_cli_args *a, struct lab_cli_setup *s)
{
	bool given[LAB_CACHE_LEVELS] = {false};
	unsigned level[LAB_CLI_LIST_MAX];
	uint64_t bytes[LAB_CLI_LIST_MAX];
	char what[96];
	int bad;

	for (unsigned i = 0; i < a->ncaches; i++) {
		if ((bad = cache_arg_parse(a->caches[i], &level[i], &bytes[i])) == -2) {
			lab_opts_error(
			    "lab: --cache %s: an L%u cache of %llu bytes (allowed 1 KiB .. "
			    "1 TiB)",
			    a->caches[i], level[i], (unsigned long long)bytes[i]);
			return LAB_EXIT_USAGE;
		}
		if (bad) {
			lab_opts_error(
			    "lab: --cache %s: allowed: L1..L%d=SIZE in bytes with K, M or G "
			    "(e.g. L3=32M), or L1..L%d=reported",
			    a->caches[i], LAB_CACHE_LEVELS, LAB_CACHE_LEVELS);
			return LAB_EXIT_USAGE;
		}
		if (given[level[i] - 1]) { /* the last would have won without a word */
			lab_opts_error("lab: --cache %s: L%u given twice (allowed: one --cache a "
			               "level)",
			               a->caches[i], level[i]);
			return LAB_EXIT_USAGE;
		}
		given[level[i] - 1] = true;
	}
	if (lab_topo_is_standin(s->topo))
		return LAB_EXIT_OK;
	/* the last level hwloc reports, checked below unless given (a deeper level given or not) */
	struct lab_cache_info c[LAB_CACHE_LEVELS];
	unsigned n = lab_topo_caches(s->topo, c, LAB_CACHE_LEVELS), last = n ? c[n - 1].level : 0;
	for (unsigned i = 0; i < a->ncaches; i++)
		if (bytes[i])
			lab_topo_cache_set(s->topo, level[i], bytes[i], false);
	/* on the sizes reported and given, not on a measured one: the same answer every time */
	if ((bad = cache_order(a, s->topo, what, sizeof(what))) >= 0) {
		lab_opts_error("lab: --cache %s: %s: allowed: sizes that grow with the level",
		               a->caches[bad], what);
		return LAB_EXIT_USAGE;
	}
	cache_check_last(s, given, last);
	return LAB_EXIT_OK;
}
