/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/prov.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "build_git.h"
#include "build_info.h"
#include "harness/buffer.h"
#include "harness/clock.h"
#include "harness/counters.h"
#include "harness/cpufeat.h"
#include "harness/cpuid_isa.h"

#ifdef LAB_HAVE_OPENMP
static const bool prov_openmp = true;
#else
static const bool prov_openmp = false;
#endif

/* The first line of path without its newline, or "unavailable". */
static void prov_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	snprintf(buf, len, "unavailable");
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	else
		snprintf(buf, len, "unavailable");
	fclose(f);
}

/* "always madvise [never]" -> "never". */
static void prov_bracketed(char *buf, size_t len)
{
	char *open = strchr(buf, '['), *close = open ? strchr(open, ']') : NULL;

	if (open && close) {
		size_t n = (size_t)(close - open - 1);
		memmove(buf, open + 1, n);
		buf[n < len ? n : len - 1] = '\0';
	}
}

static void prov_cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	snprintf(buf, len, "unavailable");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10) != 0)
			continue;
		char *colon = strchr(line, ':');
		if (colon) {
			colon += colon[1] == ' ' ? 2 : 1;
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(buf, len, "%s", colon);
		}
		break;
	}
	fclose(f);
}

const char *lab_prov_counters_probe(char *buf, size_t len)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd >= 0) {
		close((int)fd);
		return NULL;
	}
	snprintf(buf, len, "perf_event_open(cycles) failed: %s%s", strerror(errno),
	         errno == ENOENT || errno == EOPNOTSUPP ? " (no hardware PMU: a VM without vPMU?)"
	         : errno == EACCES || errno == EPERM ? " (see /proc/sys/kernel/perf_event_paranoid)"
	                                             : "");
	return buf;
}

/* SLURM_<name> into buf ("" when unset); only printable ASCII is kept, the rest becomes '?'. */
static void prov_slurm_env(const char *name, char *buf, size_t len)
{
	const char *v = getenv(name);
	size_t i = 0;

	for (; v && v[i] && i + 1 < len; i++)
		buf[i] = v[i] > 0x20 && v[i] < 0x7f ? v[i] : '?';
	buf[i] = '\0';
}

static void prov_slurm(struct lab_prov *p)
{
	prov_slurm_env("SLURM_JOB_ID", p->slurm.job_id, sizeof(p->slurm.job_id));
	prov_slurm_env("SLURM_ARRAY_JOB_ID", p->slurm.array_job_id, sizeof(p->slurm.array_job_id));
	prov_slurm_env("SLURM_ARRAY_TASK_ID", p->slurm.array_task_id,
	               sizeof(p->slurm.array_task_id));
	prov_slurm_env("SLURM_PROCID", p->slurm.procid, sizeof(p->slurm.procid));
	prov_slurm_env("SLURMD_NODENAME", p->slurm.node, sizeof(p->slurm.node));
	prov_slurm_env("SLURM_JOB_PARTITION", p->slurm.partition, sizeof(p->slurm.partition));
	prov_slurm_env("SLURM_CPUS_ON_NODE", p->slurm.cpus_on_node, sizeof(p->slurm.cpus_on_node));
	prov_slurm_env("SLURM_JOB_CPUS_PER_NODE", p->slurm.job_cpus, sizeof(p->slurm.job_cpus));
}

const char *lab_prov_slurm_hint(unsigned allowed, unsigned want, char *buf, size_t len)
{
	struct lab_prov p;

	buf[0] = '\0';
	prov_slurm(&p);
	if (!p.slurm.job_id[0] || allowed >= want)
		return buf;
	snprintf(buf, len,
	         "the Slurm job %s gives this task %u CPU%s%s%s: submit with --exclusive or -c %u",
	         p.slurm.job_id, allowed, allowed == 1 ? "" : "s",
	         p.slurm.node[0] ? " on node " : "", p.slurm.node, want);
	return buf;
}

void lab_prov_collect(struct lab_prov *p)
{
	struct utsname u;

	memset(p, 0, sizeof(*p));
	if (gethostname(p->hostname, sizeof(p->hostname) - 1) != 0)
		snprintf(p->hostname, sizeof(p->hostname), "unavailable");
	if (uname(&u) == 0)
		snprintf(p->kernel, sizeof(p->kernel), "%s %s %s", u.sysname, u.release, u.machine);
	prov_cpu_model(p->cpu_model, sizeof(p->cpu_model));
	lab_cpu_hypervisor(p->hypervisor, sizeof(p->hypervisor));
	prov_read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", p->governor,
	               sizeof(p->governor));
	prov_read_line("/sys/kernel/mm/transparent_hugepage/enabled", p->thp, sizeof(p->thp));
	prov_bracketed(p->thp, sizeof(p->thp));
	prov_read_line("/sys/devices/system/cpu/smt/control", p->smt, sizeof(p->smt));
	if (getloadavg(p->loadavg, 3) != 3)
		p->loadavg[0] = p->loadavg[1] = p->loadavg[2] = -1;
	p->clock_resolution_ns = lab_clock_resolution_ns();
	p->clock_read_cost_ns = lab_clock_read_cost_ns();
	p->counters =
	    lab_prov_counters_probe(p->counters_reason, sizeof(p->counters_reason)) == NULL;
	struct lab_err err;
	p->cpu_detected = lab_cpu_detect();
	if (lab_cpu_mask_from_env(&p->cpu_masked, &err) == 0)
		p->cpu_masked &= p->cpu_detected;
	prov_slurm(p);
}

/* "slurm": the job this run belongs to and the CPUs it was given, or null outside Slurm. */
static void prov_write_slurm(const struct lab_prov *p, unsigned allowed, struct lab_json *j)
{
	if (!p->slurm.job_id[0]) {
		lab_json_null(j, "slurm");
		return;
	}
	lab_json_obj_open(j, "slurm");
	lab_json_str(j, "job_id", p->slurm.job_id);
	lab_json_str(j, "array_job_id", p->slurm.array_job_id[0] ? p->slurm.array_job_id : NULL);
	lab_json_str(j, "array_task_id", p->slurm.array_task_id[0] ? p->slurm.array_task_id : NULL);
	lab_json_str(j, "procid", p->slurm.procid[0] ? p->slurm.procid : NULL);
	lab_json_str(j, "node", p->slurm.node);
	lab_json_str(j, "partition", p->slurm.partition);
	lab_json_str(j, "cpus_on_node", p->slurm.cpus_on_node);
	lab_json_str(j, "job_cpus_per_node", p->slurm.job_cpus);
	lab_json_uint(j, "cpus_allowed", allowed);
	lab_json_obj_close(j);
}

/* An array of feature names, so readers need not know the bit values. */
static void prov_cpu_list(struct lab_json *j, const char *key, unsigned set)
{
	lab_json_arr_open(j, key);
	for (unsigned bit = 1; bit & LAB_CPU_ALL; bit <<= 1)
		if (set & bit)
			lab_json_str(j, NULL, lab_cpu_name(bit));
	lab_json_arr_close(j);
}

/* Every extension cpuid_isa.c knows that this CPU has, the mask aside: an auto build may use
 * any (avx512ifma, gfni, ...), and the twelve above left them out of the record (avx46). */
static void prov_isa_list(struct lab_json *j)
{
	const char *names[96];
	size_t n = lab_cpuid_isa_present(names, sizeof(names) / sizeof(names[0]));

	lab_json_arr_open(j, "extensions");
	for (size_t i = 0; i < n && i < sizeof(names) / sizeof(names[0]); i++)
		lab_json_str(j, NULL, names[i]);
	lab_json_arr_close(j);
}

void lab_prov_write_cpu_features(struct lab_json *j, unsigned detected, unsigned masked)
{
	lab_json_obj_open(j, "cpu_features");
	prov_cpu_list(j, "detected", detected);
	prov_cpu_list(j, "masked", masked);
	prov_cpu_list(j, "usable", detected & ~masked);
	prov_isa_list(j);
	lab_json_obj_close(j);
}

/*
 * The OpenMP runtime settings found in the environment (only those set): they change what an
 * OpenMP kernel measures (libgomp spins GOMP_SPINCOUNT times before sleeping, libomp
 * KMP_BLOCKTIME, both set by OMP_WAIT_POLICY), so every result carries them.
 */
static void prov_write_omp_env(struct lab_json *j)
{
	static const char *const vars[] = {
	    "OMP_WAIT_POLICY",  "OMP_PROC_BIND", "OMP_PLACES",      "OMP_DYNAMIC",
	    "OMP_THREAD_LIMIT", "OMP_SCHEDULE",  "OMP_NUM_THREADS", "GOMP_SPINCOUNT",
	    "KMP_BLOCKTIME",    "KMP_AFFINITY",
	};

	lab_json_obj_open(j, "openmp_env");
	for (size_t i = 0; i < sizeof(vars) / sizeof(*vars); i++) {
		const char *v = getenv(vars[i]);
		if (v)
			lab_json_str(j, vars[i], v);
	}
	lab_json_obj_close(j);
}

void lab_prov_write_build(struct lab_json *j)
{
	lab_json_obj_open(j, "lab");
	lab_json_str(j, "version", LAB_VERSION);
	lab_json_str(j, "git_sha", LAB_GIT_SHA);
	lab_json_bool(j, "git_dirty", LAB_GIT_DIRTY);
	lab_json_str(j, "compiler", LAB_COMPILER);
	lab_json_str(j, "c_flags", LAB_C_FLAGS);
	lab_json_str(j, "build_type", LAB_BUILD_TYPE);
	lab_json_str(j, "sanitize", LAB_SANITIZE);
	/* -march of the auto kernel variants and what the compiler took it for (native on a CPU
	 * newer than the compiler is an older tuning: gcc 12 on Zen 5 builds znver3 + AVX-512). */
	lab_json_obj_open(j, "auto_march");
	lab_json_str(j, "flag", LAB_AUTO_MARCH);
	/* the -m options of the C flags the auto files are built with too (-mno-avx, -mavx2) */
	lab_json_str(j, "extra", LAB_AUTO_EXTRA);
	lab_json_str(j, "arch", LAB_AUTO_ARCH);
	lab_json_str(j, "tune", LAB_AUTO_TUNE);
	lab_json_str(j, "isa", *LAB_AUTO_ISA ? LAB_AUTO_ISA : NULL);
	/* the width its loops use: AVX-512 on 256-bit vectors is isa avx2 (cmake/AutoArch.cmake) */
	lab_json_str(j, "vectors", *LAB_AUTO_VECTORS ? LAB_AUTO_VECTORS : NULL);
	lab_json_obj_close(j);
	lab_json_bool(j, "openmp", prov_openmp);
	prov_write_omp_env(j);
	lab_json_obj_close(j);
}

/* Where every PU sits, so the analyzer can mark SMT siblings and NUMA nodes of CPU pairs. */
static void prov_write_pus(const struct lab_topo *topo, struct lab_json *j)
{
	unsigned n = lab_topo_pus(topo, NULL, 0);
	struct lab_pu_info *pus = calloc(n ? n : 1, sizeof(*pus));

	lab_json_arr_open(j, "pus_detail");
	n = pus ? lab_topo_pus(topo, pus, n) : 0;
	for (unsigned i = 0; i < n; i++) {
		lab_json_obj_open(j, NULL);
		lab_json_int(j, "cpu", pus[i].cpu);
		lab_json_int(j, "package", pus[i].package);
		lab_json_int(j, "numa", pus[i].numa);
		lab_json_int(j, "numa_os", pus[i].numa_os); /* what node:N and mem_node name */
		lab_json_int(j, "llc", pus[i].llc);         /* its last-level cache, -1: none */
		lab_json_int(j, "core", pus[i].core);
		lab_json_int(j, "smt_rank", pus[i].smt_rank);
		lab_json_obj_close(j);
	}
	lab_json_arr_close(j);
	free(pus);
}

void lab_prov_write_caches(struct lab_json *j, const struct lab_topo *topo)
{
	struct lab_cache_info c[5];
	unsigned n = lab_topo_caches(topo, c, 5);

	lab_json_arr_open(j, "caches");
	for (unsigned i = 0; i < n; i++) {
		lab_json_obj_open(j, NULL);
		lab_json_uint(j, "level", c[i].level);
		lab_json_uint(j, "size", c[i].size);
		lab_json_str(j, "size_from", c[i].size_from);
		if (c[i].reported != c[i].size)
			lab_json_uint(j, "reported_size", c[i].reported);
		lab_json_uint(j, "linesize", c[i].linesize);
		lab_json_uint(j, "pus_sharing", c[i].pus_sharing);
		lab_json_obj_close(j);
	}
	lab_json_arr_close(j);
}

void lab_prov_write_distances(struct lab_json *j, const struct lab_topo *topo)
{
	enum { MAXN = 64 };
	static uint64_t d[MAXN * MAXN]; /* 32 KiB: not on the stack */
	unsigned n = lab_topo_numa_distances(topo, d, MAXN * MAXN);

	if (n == 0 || n > MAXN)
		return;
	lab_json_arr_open(j, "numa_distances");
	for (unsigned a = 0; a < n; a++) {
		lab_json_arr_open(j, NULL);
		for (unsigned b = 0; b < n; b++)
			lab_json_uint(j, NULL, d[a * n + b]);
		lab_json_arr_close(j);
	}
	lab_json_arr_close(j);
}

void lab_prov_write_numa_memory(struct lab_json *j, const struct lab_topo *topo)
{
	struct lab_numa_mem m[LAB_BUF_NODES_MAX];
	unsigned n = lab_topo_numa_memory(topo, m, LAB_BUF_NODES_MAX);

	lab_json_arr_open(j, "numa_memory");
	for (unsigned i = 0; i < n && i < LAB_BUF_NODES_MAX; i++) {
		lab_json_obj_open(j, NULL);
		lab_json_int(j, "node", m[i].node);
		lab_json_int(j, "os_index", m[i].os_index);
		if (m[i].local_memory) /* none recorded (an XML's, a synthetic '[numa]'): null */
			lab_json_uint(j, "local_memory_bytes", m[i].local_memory);
		else
			lab_json_null(j, "local_memory_bytes");
		lab_json_obj_close(j);
	}
	lab_json_arr_close(j);
}

void lab_prov_write_host(const struct lab_prov *p, const struct lab_topo *topo, struct lab_json *j)
{
	struct lab_env env;
	int cpus[4096];
	unsigned n = lab_topo_cpus_allowed(topo, cpus, 4096);

	lab_topo_env(topo, &env);
	lab_json_obj_open(j, "host");
	lab_json_str(j, "hostname", p->hostname);
	lab_json_str(j, "kernel", p->kernel);
	lab_json_str(j, "cpu_model", p->cpu_model);
	lab_json_str(j, "hypervisor", p->hypervisor[0] ? p->hypervisor : NULL);
	lab_prov_write_cpu_features(j, p->cpu_detected, p->cpu_masked);
	lab_json_str(j, "governor", p->governor);
	lab_json_str(j, "thp", p->thp);
	lab_json_str(j, "smt", p->smt);
	lab_json_obj_open(j, "topology");
	lab_json_str(j, "source", lab_topo_source(topo));
	lab_json_str(j, "summary", lab_topo_summary(topo));
	lab_json_bool(j, "thissystem", env.thissystem);
	lab_json_uint(j, "packages", env.packages);
	lab_json_uint(j, "numa_nodes", env.numa_nodes);
	lab_json_uint(j, "cores", env.cores);
	lab_json_uint(j, "pus", env.pus);
	lab_json_arr_open(j, "cpus_allowed");
	for (unsigned i = 0; i < n && i < 4096; i++)
		lab_json_int(j, NULL, cpus[i]);
	lab_json_arr_close(j);
	prov_write_pus(topo, j);
	lab_prov_write_caches(j, topo);
	lab_prov_write_distances(j, topo);
	lab_prov_write_numa_memory(j, topo);
	lab_json_obj_close(j);
	lab_json_obj_open(j, "clock");
	lab_json_str(j, "source", "CLOCK_MONOTONIC");
	lab_json_num(j, "resolution_ns", p->clock_resolution_ns);
	lab_json_num(j, "read_cost_ns", p->clock_read_cost_ns);
	lab_json_obj_close(j);
	lab_json_obj_open(j, "counters");
	lab_json_bool(j, "available", p->counters);
	lab_json_str(j, "reason", p->counters ? "" : p->counters_reason);
	lab_ctr_host_json(j, lab_ctr_host_self());
	lab_json_obj_close(j);
	prov_write_slurm(p, n, j);
	lab_json_arr_open(j, "loadavg");
	for (int i = 0; i < 3; i++)
		lab_json_num(j, NULL, p->loadavg[i]);
	lab_json_arr_close(j);
	lab_json_obj_close(j);
}
