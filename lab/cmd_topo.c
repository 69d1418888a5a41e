/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lab topo: the topology the lab sees, and the CPUs this process may use. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/coreclock.h"
#include "harness/env.h"
#include "harness/json.h"
#include "harness/prov.h"
#include "harness/topo.h"
#include "harness/topo_domain.h"
#include "lab/cli.h"

struct topo_args {
	const char *topology;
	bool json;
};

static const struct lab_opt topo_opts[] = {
    {"--topology", NULL, LAB_OPT_VALUE, "SPEC", offsetof(struct topo_args, topology), 0,
     "synthetic:\"pack:2 core:8 pu:2\" or xml:FILE instead of this\n"
     "machine (planning only: nothing binds on it)"},
    {"--json", NULL, LAB_OPT_FLAG, NULL, offsetof(struct topo_args, json), 0,
     "one JSON document on stdout"},
    LAB_OPTS_END,
};

static const struct lab_cmd_opts topo_cmd = {
    .name = "topo",
    .synopsis = "[--topology SPEC] [--json]",
    .about = "Shows the topology the lab plans on: packages, NUMA nodes, cores and their PUs\n"
             "(OS CPU numbers, SMT siblings together), the CPUs this process may use, the\n"
             "likwid thread domains that placement = expr:... indexes (N, S<i>, D<i>, C<i>,\n"
             "M<i>; D:INDICES physical cores first, E: core by core), and this CPU's\n"
             "features (SSE2 ... AVX-512;\n" LAB_CPU_MASK_ENV "=avx512f,avx2 hides some).\n",
    .opts = topo_opts,
};

/* The PUs of one core, "0,16", with the ones this process may not use marked by '!'. */
/* A PU's first NUMA node, and the other nodes its CPUs belong to (an HBM or CXL node shares its
 * package's CPUs: the tree left it out). */
static void topo_print_node(const struct lab_topo *topo, const struct lab_pu_info *pu)
{
	int os[8];
	unsigned n = lab_topo_pu_nodes(topo, pu->cpu, os, 8), k = 0;

	printf("  NUMA node %d", pu->numa_os);
	if (pu->numa_os != pu->numa)
		printf(" (logical %d)", pu->numa);
	for (unsigned i = 0; i < n && i < 8; i++)
		if (os[i] != pu->numa_os)
			printf("%s%d", k++ ? ", " : n > 2 ? "; nodes " : "; node ", os[i]);
	printf("%s%s\n", n > 8 ? ", ..." : "",
	       k > 1 ? " have these CPUs too"
	       : k   ? " has these CPUs too"
	             : "");
}

static void topo_print_core(const struct lab_topo *topo, const struct lab_pu_info *pus,
                            unsigned from, unsigned to)
{
	printf("    core %d: cpu%s", pus[from].core, to - from > 1 ? "s " : " ");
	for (unsigned i = from; i < to; i++)
		printf("%s%d%s", i > from ? "," : "", pus[i].cpu,
		       lab_topo_cpu_allowed(topo, pus[i].cpu) ? "" : "!");
	putchar('\n');
}

/* The firmware's NUMA distances (SLIT, 10 = local), one row per node in logical order, each
 * named by its OS number (the one configs give). */
static void topo_print_distances(const struct lab_topo *topo)
{
	static uint64_t d[64 * 64];
	static struct lab_numa_mem m[64];
	unsigned n = lab_topo_numa_distances(topo, d, 64 * 64),
	         nm = lab_topo_numa_memory(topo, m, 64);

	if (n == 0 || n > 64)
		return;
	printf("NUMA distances (10 = local; rows and columns in this order):\n");
	for (unsigned a = 0; a < n; a++) {
		printf("  node %d:", n == nm ? m[a].os_index : (int)a);
		for (unsigned b = 0; b < n; b++)
			printf(" %llu", (unsigned long long)d[a * n + b]);
		printf("\n");
	}
}

/* Each NUMA node's memory (hwloc's local memory; 0 where it does not know, as synthetic). */
static void topo_print_numa_memory(const struct lab_topo *topo)
{
	struct lab_numa_mem m[64];
	unsigned n = lab_topo_numa_memory(topo, m, 64);

	if (n == 0)
		return;
	printf("NUMA memory:\n");
	for (unsigned i = 0; i < n && i < 64; i++) {
		printf("  node %d", m[i].os_index);
		if (m[i].os_index != m[i].node)
			printf(" (logical %d)", m[i].node);
		if (m[i].local_memory == 0) /* an XML or a synthetic '[numa]' that says none */
			printf(": not recorded\n");
		else
			printf(": %.1f GiB (%llu bytes)\n",
			       (double)m[i].local_memory / (1024.0 * 1024 * 1024),
			       (unsigned long long)m[i].local_memory);
	}
}

/* The thread domains, each with its CPUs physical cores first: index i of D:INDICES is the i-th
 * CPU listed. E: walks the same CPUs core by core, the order the cores are listed above in. */
static void topo_print_domains(const struct lab_topo_domains *doms)
{
	char list[4096];

	printf("thread domains for placement = expr:... (index i of D:INDICES is a domain's i-th "
	       "CPU here: physical cores first, SMT siblings after; E: walks them core by core, "
	       "a core's CPUs together%s%s%s):\n",
	       doms->llc[0] ? "; C = " : "", doms->llc, doms->llc[0] ? " domains" : "");
	for (unsigned i = 0; i < doms->n; i++) {
		const struct lab_topo_domain *d = &doms->dom[i];
		lab_topo_cpulist_format(list, sizeof(list), d->cpus, d->ncpus);
		printf("  %-4s %u core%s, %u cpu%s: %s\n", d->name, d->ncores,
		       d->ncores == 1 ? "" : "s", d->ncpus, d->ncpus == 1 ? "" : "s", list);
	}
}

/* "caches (one instance each, as hwloc reports them): L1 48 KiB, L2 1 MiB, L3 508 MiB", and
 * under a hypervisor what one thread's loads say of the last level. */
static void topo_print_caches(const struct lab_topo *topo, const struct lab_cli_llc *llc)
{
	struct lab_cache_info c[LAB_CACHE_LEVELS];
	unsigned n = lab_topo_caches(topo, c, LAB_CACHE_LEVELS);
	char line[512], size[32];

	if (!n) {
		printf("caches: none recorded (sizes like L2/2 need --cache L2=SIZE)\n");
		return;
	}
	printf("caches (one instance each, as hwloc reports them):");
	for (unsigned i = 0; i < n; i++) {
		lab_cli_bytes_text(c[i].size, size, sizeof(size));
		printf("%s L%u %s", i ? "," : "", c[i].level, size);
	}
	printf("\n");
	if (llc->level) {
		lab_cli_llc_text(llc, line, sizeof(line));
		printf("  checked: %s\n", line);
	}
}

static void topo_print_human(const struct lab_topo *topo, const struct lab_env *env,
                             const struct lab_pu_info *pus, unsigned npus, const int *allowed,
                             unsigned nallowed, const struct lab_topo_domains *doms,
                             const struct lab_cli_llc *llc)
{
	char list[4096];
	unsigned i = 0;

	printf("%s\n", lab_topo_summary(topo));
	fputs("source: ", stdout); /* a file name as the user gave it: escaped */
	lab_opts_puts_escaped(stdout, lab_topo_source(topo));
	printf("%s\n",
	       lab_topo_is_thissystem(topo) ? "" : " (not this machine: plans only, never binds)");
	while (i < npus) {
		unsigned j = i;
		bool new_pkg = i == 0 || pus[i].package != pus[i - 1].package;
		bool new_numa = new_pkg || pus[i].numa != pus[i - 1].numa;
		if (new_pkg && pus[i].package >= 0)
			printf("package %d\n", pus[i].package);
		if (new_numa)
			topo_print_node(topo, &pus[i]);
		while (j < npus && pus[j].core == pus[i].core)
			j++;
		topo_print_core(topo, pus, i, j);
		i = j;
	}
	lab_topo_cpulist_format(list, sizeof(list), allowed, nallowed);
	printf("cpus allowed: %s (%u of %u)%s\n", list, nallowed, npus,
	       nallowed < npus ? "; '!' marks the others" : "");
	topo_print_domains(doms);
	lab_cpu_format(env->cpu_features, list, sizeof(list));
	printf("cpu features%s: %s\n", lab_topo_is_thissystem(topo) ? "" : " (of this CPU)", list);
	if (env->cpu_features_masked) {
		lab_cpu_format(env->cpu_features_masked, list, sizeof(list));
		printf("hidden by %s: %s\n", LAB_CPU_MASK_ENV, list);
	}
	topo_print_caches(topo, llc);
	topo_print_numa_memory(topo);
	topo_print_distances(topo);
	if (lab_topo_is_thissystem(topo))
		printf(
		    "core clock: %.3g GHz (a dependent-add chain on this thread, now; the TSC may "
		    "tick at another rate)\n",
		    lab_coreclock_ghz());
}

static void topo_json_index(struct lab_json *j, const char *key, int v)
{
	if (v < 0)
		lab_json_null(j, key);
	else
		lab_json_int(j, key, v);
}

/* "thread_domains": [{"name": "S0", "kind": "S", "index": 0, "cores": 8, "cpus": [...]}] with
 * cpus in domain order, and "llc": the cache level of the C domains (null when none). */
static void topo_json_domains(struct lab_json *j, const struct lab_topo_domains *doms)
{
	if (doms->llc[0])
		lab_json_str(j, "llc", doms->llc);
	else
		lab_json_null(j, "llc");
	lab_json_arr_open(j, "thread_domains");
	for (unsigned i = 0; i < doms->n; i++) {
		const struct lab_topo_domain *d = &doms->dom[i];
		char kind[2] = {d->kind, '\0'};
		lab_json_obj_open(j, NULL);
		lab_json_str(j, "name", d->name);
		lab_json_str(j, "kind", kind);
		lab_json_uint(j, "index", d->index);
		lab_json_uint(j, "cores", d->ncores);
		lab_json_arr_open(j, "cpus");
		for (unsigned c = 0; c < d->ncpus; c++)
			lab_json_int(j, NULL, d->cpus[c]);
		lab_json_arr_close(j);
		lab_json_obj_close(j);
	}
	lab_json_arr_close(j);
}

static int topo_print_json(const struct lab_topo *topo, const struct lab_env *env,
                           const struct lab_pu_info *pus, unsigned npus, const int *allowed,
                           unsigned nallowed, const struct lab_topo_domains *doms,
                           const struct lab_cli_llc *llc)
{
	struct lab_json j;

	lab_json_begin(&j, stdout);
	lab_json_obj_open(&j, NULL);
	lab_json_str(&j, "source", lab_topo_source(topo));
	lab_json_bool(&j, "thissystem", env->thissystem);
	lab_json_str(&j, "summary", lab_topo_summary(topo));
	lab_json_uint(&j, "packages", env->packages);
	lab_json_uint(&j, "numa_nodes", env->numa_nodes);
	lab_json_uint(&j, "cores", env->cores);
	lab_json_uint(&j, "pus", env->pus);
	lab_prov_write_cpu_features(&j, env->cpu_features | env->cpu_features_masked,
	                            env->cpu_features_masked);
	if (env->thissystem)
		lab_json_num(&j, "core_ghz", lab_coreclock_ghz());
	else
		lab_json_null(&j, "core_ghz");
	lab_json_arr_open(&j, "cpus_allowed");
	for (unsigned i = 0; i < nallowed; i++)
		lab_json_int(&j, NULL, allowed[i]);
	lab_json_arr_close(&j);
	lab_json_arr_open(&j, "pus_detail");
	for (unsigned i = 0; i < npus; i++) {
		lab_json_obj_open(&j, NULL);
		lab_json_int(&j, "cpu", pus[i].cpu);
		topo_json_index(&j, "package", pus[i].package);
		topo_json_index(&j, "numa", pus[i].numa);
		topo_json_index(&j, "numa_os", pus[i].numa_os);
		topo_json_index(&j, "llc", pus[i].llc);
		lab_json_int(&j, "core", pus[i].core);
		lab_json_int(&j, "smt_rank", pus[i].smt_rank);
		lab_json_bool(&j, "allowed", lab_topo_cpu_allowed(topo, pus[i].cpu));
		lab_json_obj_close(&j);
	}
	lab_json_arr_close(&j);
	topo_json_domains(&j, doms);
	lab_prov_write_distances(&j, topo);
	lab_prov_write_numa_memory(&j, topo);
	lab_prov_write_caches(&j, topo);
	lab_cli_llc_json(&j, llc);
	lab_json_obj_close(&j);
	return lab_json_end(&j);
}

int lab_cmd_topo(int argc, char **argv)
{
	struct topo_args a;
	struct lab_topo *topo = NULL;
	struct lab_env env;
	struct lab_pu_info *pus = NULL;
	struct lab_topo_domains *doms = NULL;
	int *allowed = NULL;
	struct lab_err err = {0};
	int rc = lab_opts_parse(&topo_cmd, argc, argv, &a, sizeof(a));

	if (rc)
		return rc == LAB_OPTS_HELP ? LAB_EXIT_OK : LAB_EXIT_USAGE;
	const char *spec = a.topology;
	bool json = a.json;
	if (lab_topo_open(&topo, spec, &err) < 0) {
		if (spec)
			lab_opts_error("lab: --topology %s", err.msg);
		else
			lab_opts_error("lab: %s", err.msg);
		return spec || lab_topo_hwloc_env() ? LAB_EXIT_USAGE : LAB_EXIT_FAILURE;
	}
	unsigned npus = lab_topo_pus(topo, NULL, 0);
	unsigned nallowed = lab_topo_cpus_allowed(topo, NULL, 0);
	pus = calloc(npus, sizeof(*pus));
	allowed = calloc(nallowed ? nallowed : 1, sizeof(int));
	if (!pus || !allowed) {
		fprintf(stderr, "lab topo: out of memory\n");
		rc = LAB_EXIT_FAILURE;
		goto out;
	}
	if (lab_env_probe(&env, topo, &err) != 0) {
		lab_opts_error("lab: %s", err.msg);
		rc = LAB_EXIT_USAGE;
		goto out;
	}
	/* a mask run and plan refuse is no CPU to show ("cpu features: none" for sse2) */
	if ((rc = lab_cli_mask_check(&env)) != 0)
		goto out;
	if (lab_topo_domains_list(topo, &doms, &err) < 0) {
		lab_opts_error("lab topo: %s", err.msg);
		rc = LAB_EXIT_FAILURE;
		goto out;
	}
	lab_topo_pus(topo, pus, npus);
	nallowed = lab_topo_cpus_allowed(topo, allowed, nallowed);
	struct lab_cli_llc llc;
	lab_cli_llc_check(topo, &llc);
	if (json) {
		if (topo_print_json(topo, &env, pus, npus, allowed, nallowed, doms, &llc) < 0)
			rc = LAB_EXIT_FAILURE;
	} else {
		topo_print_human(topo, &env, pus, npus, allowed, nallowed, doms, &llc);
	}
out:
	lab_topo_domains_free(doms);
	free(pus);
	free(allowed);
	lab_topo_close(topo);
	return rc;
}
