/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Topology and placement. A struct lab_topo wraps an hwloc topology: the real machine, a
 * synthetic description or an XML file. The planner is a pure function (topology, policy, N) ->
 * CPU list and never binds; binding is the team's job, and only on the machine we run on.
 */
#ifndef LAB_HARNESS_TOPO_H
#define LAB_HARNESS_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/err.h"
#include "harness/kernel_api.h"

struct lab_topo;

/* The largest topology the lab plans: more PUs than this is refused when opened. */
#define LAB_TOPO_PUS_MAX 4096
/* The highest OS index of a PU the lab accepts (Linux: CONFIG_NR_CPUS is at most 8192). */
#define LAB_TOPO_OS_MAX 65535
/* The highest OS index of a NUMA node (Linux: at most 1024 nodes), as node:N can name it. */
#define LAB_TOPO_NODE_MAX 4095
/* The largest XML topology file read (a 4096-PU machine's lstopo XML is a few MiB). */
#define LAB_TOPO_XML_MAX (16 << 20)
/* The deepest nesting of elements in an XML topology (hwloc's parser recurses once a level; a
 * real machine's is under 20). */
#define LAB_TOPO_XML_DEPTH_MAX 256
/* The most elements of an XML topology: a 4096-PU machine with its cores, caches and NUMA nodes
 * has about 15,000 objects; hwloc's insertion grows faster than linearly (50,000 sibling Groups
 * of one cpuset took it 7 s, 150,000 over 90 s). */
#define LAB_TOPO_XML_OBJECTS_MAX 32768

/*
 * Opens a topology. spec is NULL or "" for this machine, "synthetic:<hwloc synthetic string>"
 * (e.g. synthetic:"pack:2 core:8 pu:2", the quotes optional) or "xml:<path>". Returns 0 and
 * *out, or -LAB_ETOPO with a message naming the spec. The caller closes it. An XML file must be
 * a regular file of at most LAB_TOPO_XML_MAX bytes, its OS indices 0 .. LAB_TOPO_OS_MAX and its
 * objects nested at most LAB_TOPO_XML_DEPTH_MAX deep, at most LAB_TOPO_XML_OBJECTS_MAX of them; a
 * synthetic description's indexes= are distinct numbers 0 .. LAB_TOPO_OS_MAX, a list of them one
 * per object of its level; a topology of more than LAB_TOPO_PUS_MAX PUs is refused, a synthetic one
 * before hwloc builds it.
 */
int lab_topo_open(struct lab_topo **out, const char *spec, struct lab_err *err);

/*
 * A stand-in for a --topology that did not open, so that a config is still checked for the
 * errors that do not depend on the machine: 1024 PUs (a team's largest size), one L1, L2 and L3
 * size for cache-relative sizes. The planner reports no error that only the stand-in's size
 * causes (a sweep of 1..max too large for it).
 */
int lab_topo_open_standin(struct lab_topo **out, struct lab_err *err);
/* True for the stand-in. */
bool lab_topo_is_standin(const struct lab_topo *topo);

/* Releases the topology; NULL is allowed. */
void lab_topo_close(struct lab_topo *topo);

/* True when the topology is the machine this process runs on (binding means something). */
bool lab_topo_is_thissystem(const struct lab_topo *topo);

/* Fills the topology facts of env (ncpus, packages, numa_nodes, cores, pus, thissystem). */
void lab_topo_env(const struct lab_topo *topo, struct lab_env *env);

/*
 * The OS indices of the CPUs this process may use, ascending: sched_getaffinity on this system
 * (so a cgroup or taskset limit shows), every PU of a synthetic/XML topology. Writes at most max
 * entries and returns the full count.
 */
unsigned lab_topo_cpus_allowed(const struct lab_topo *topo, int *cpus, unsigned max);

/* True when cpu is an OS index of a PU in the topology and this process may use it. */
bool lab_topo_cpu_allowed(const struct lab_topo *topo, int cpu);

/* Where one PU sits: logical indices of its package, NUMA node and core, and its SMT rank. */
struct lab_pu_info {
	int cpu;     /* OS index */
	int package; /* logical package index, -1 if none */
	int numa;    /* logical NUMA node index, -1 if none */
	/* its OS (kernel) number, as numactl -H, mbind and move_pages name it, -1 if none: the
	 * number placement = node:N, mem_node and membind = node:N mean (they differ from the
	 * logical ones where nodes are numbered out of topology order, memory-only nodes) */
	int numa_os;
	int core;     /* logical core index (machine-wide) */
	int llc;      /* logical index of its last-level cache (lab__topo_llc), -1 if none */
	int smt_rank; /* 0 for the first PU of its core, 1 for its first sibling, ... */
};

/* Describes PU cpu (OS index). Returns 0, or -LAB_EINVAL when cpu is not in the topology. */
int lab_topo_pu_info(const struct lab_topo *topo, int cpu, struct lab_pu_info *info);

/* A one-line summary: "2 packages, 2 NUMA nodes, 16 cores, 32 PUs (synthetic)". */
const char *lab_topo_summary(const struct lab_topo *topo);

/* The spec the topology came from, "this system" for the real machine. */
const char *lab_topo_source(const struct lab_topo *topo);

/* The hwloc environment variable a topology without a spec is read from (HWLOC_SYNTHETIC, then
 * HWLOC_XMLFILE, as hwloc takes them; checked as --topology would be), NULL for this system: an
 * error loading it is the user's input, not the machine's. */
const char *lab_topo_hwloc_env(void);

/*
 * How many of the hwloc variables that change how it reads this machine are set
 * (HWLOC_COMPONENTS not empty; HWLOC_FSROOT other than "/", empty too; HWLOC_CPUID_PATH, empty
 * too), their names written "A, B" into buf. hwloc still calls what it reads then "this system"
 * where a backend failed or was left out (HWLOC_COMPONENTS=-linux read 2 packages from this
 * 1-package guest's CPUID), so the lab never binds by it (topo.c), and lab fleet refuses them.
 */
size_t lab_topo_discovery_env(char *buf, size_t len);

/*
 * Describes every PU of the topology, allowed or not, in topology (logical) order: the PUs of a
 * core are adjacent, cores follow their package and NUMA node. Writes at most max entries and
 * returns the full count.
 */
unsigned lab_topo_pus(const struct lab_topo *topo, struct lab_pu_info *pus, unsigned max);

/*
 * The OS numbers of every NUMA node whose CPUs include cpu, in topology order, into os (at most
 * max); returns how many there are. lab_pu_info's numa is the first of them; a high-bandwidth or
 * CXL memory node shares its package's CPUs with the DRAM node there, and node:N and the M
 * domains of expressions take those CPUs for it too.
 */
unsigned lab_topo_pu_nodes(const struct lab_topo *topo, int cpu, int *os, unsigned max);

/* One data (or unified) cache level: size in bytes, line size, and how many PUs share one
 * instance (the first one), as hwloc reports them unless lab_topo_cache_set gave the size. */
struct lab_cache_info {
	unsigned level;
	unsigned long long size;
	unsigned long long reported; /* hwloc's size (0: none) when the size was set, else = size */
	const char *size_from;       /* "hwloc", or lab_topo_cache_set's "measured" or "given" */
	unsigned linesize;
	unsigned pus_sharing;
};

/* The size a described cache (XML, synthetic) or a --cache may give: 1 KiB .. 1 TiB. */
#define LAB_TOPO_CACHE_MIN (1ULL << 10)
#define LAB_TOPO_CACHE_MAX (1ULL << 40)

/* The data cache levels L1..L5 that the topology records or that were set, ascending, at most
 * max; returns how many were written (0 when hwloc knows no caches, as for most synthetic
 * topologies, and none was set). */
unsigned lab_topo_caches(const struct lab_topo *topo, struct lab_cache_info *c, unsigned max);

/* Uses bytes (> 0) as the size of one instance of cache level (1..LAB_CACHE_LEVELS) from now
 * on, in place of what hwloc reports: a size measured here (measured) or given by the user (lab
 * run --cache). Returns 0 or -LAB_EINVAL. */
int lab_topo_cache_set(struct lab_topo *topo, unsigned level, unsigned long long bytes,
                       bool measured);

/*
 * Writes cpus as a list with ranges ("0-3,8,10-11"), "none" when n is 0; runs of consecutive
 * ascending values become ranges, any other order is kept as written. A list longer than size
 * is cut after a whole item and ends in "..." ("0-3,..."; a size under 4 gets "", and "none"
 * is cut as snprintf cuts); returns the length the whole list needs, as snprintf does.
 */
int lab_topo_cpulist_format(char *buf, size_t size, const int *cpus, unsigned n);

/*
 * The NUMA distance matrix (the firmware's SLIT as hwloc reports it; 10 = local) in logical
 * node order, row-major, into d (at most max values). Returns the number of nodes n (d holds
 * n * n values when max allows), or 0 when the topology has none (synthetic ones) or one of
 * some nodes only (an edited XML: its rows could not be placed by node).
 */
unsigned lab_topo_numa_distances(const struct lab_topo *topo, uint64_t *d, unsigned max);

/* One NUMA node's memory as hwloc reports it (0 bytes where it does not know: synthetic). */
struct lab_numa_mem {
	int node;              /* logical index (= Linux number on a real machine) */
	int os_index;          /* the OS's number for it */
	uint64_t local_memory; /* bytes attached to this node (hwloc's local_memory) */
};

/* The NUMA nodes in logical order into m (at most max); returns how many the topology has. */
unsigned lab_topo_numa_memory(const struct lab_topo *topo, struct lab_numa_mem *m, unsigned max);

/* ---- placement policies ---- */

enum lab_place_kind {
	LAB_PLACE_COMPACT, /* fill a core's PUs, then the next core, in topology order */
	LAB_PLACE_CORES,   /* one PU per core first (across all packages in order), SMT last */
	LAB_PLACE_SCATTER, /* round-robin across packages, then NUMA nodes, then cores; SMT last */
	LAB_PLACE_LIST,    /* the explicit CPU list, in the order written */
	LAB_PLACE_PAIRS,   /* two threads on each CPU pair of a matrix; see lab_topo_plan_pairs */
	LAB_PLACE_NODE,    /* the CPUs of one NUMA node only, one PU per core first, SMT last */
	LAB_PLACE_EXPR,    /* a likwid thread-domain expression (harness/cpuexpr.h) */
};

#define LAB_PLACE_LIST_MAX 1024
#define LAB_PLACE_EXPR_MAX 256 /* characters of an expr: expression, the NUL included */

struct lab_placement {
	enum lab_place_kind kind;
	int node;       /* LAB_PLACE_NODE: the NUMA node (hwloc logical = Linux number) */
	unsigned nlist; /* LAB_PLACE_LIST: number of CPUs in list */
	int list[LAB_PLACE_LIST_MAX];  /* LAB_PLACE_LIST: OS indices */
	char expr[LAB_PLACE_EXPR_MAX]; /* LAB_PLACE_EXPR: the expression after "expr:" */
	unsigned nexpr; /* LAB_PLACE_EXPR: the CPUs it selects, as many on any topology */
};

/*
 * Parses "compact", "cores", "scatter", "pairs", "node:N", "list:0,2,4-7" (ranges a-b,
 * a-b:step; CPU numbers and steps up to LAB_TOPO_OS_MAX, past which no topology has a CPU) or
 * "expr:S0:0-3@S1:0-3" (checked for what needs no topology: lab_cpuexpr_check). Returns 0, or
 * -LAB_ECONFIG with "what is allowed" in the message.
 */
int lab_placement_parse(const char *text, struct lab_placement *p, struct lab_err *err);

/* The placement text in buf as the plan records it: the canonical text of harness/place_text.h
 * (node:00 is node:0, list:0,1,2,3 is list:0-3, expr:E:S0:4 is expr:S0:0-3), so that one
 * placement written two ways is one point; a text that does not parse as given (the planner
 * reports it). */
void lab_placement_canon(const char *text, char *buf, size_t len);

/*
 * Checks n threads on p for what fails on any topology: a list or an expression of fewer than n
 * CPUs. Returns 0, or -LAB_ECONFIG with a message that says how many threads are allowed. For a
 * point that is skipped before its CPUs are planned; lab_topo_plan checks the same.
 */
int lab_placement_check_threads(const struct lab_placement *p, unsigned n, struct lab_err *err);

/*
 * Plans n threads: writes the OS CPU index of thread i to cpus[i]. Only CPUs this process may
 * use (lab_topo_cpus_allowed) are planned. Returns 0, or -LAB_ECONFIG when n exceeds the
 * usable CPUs or a listed CPU does not exist or is not allowed (the message names the CPU and
 * what is allowed). For LAB_PLACE_LIST, n must be <= nlist (the first n are used). For
 * LAB_PLACE_NODE, -LAB_EUNSUP when the node has no usable CPU (a machine with fewer nodes: the
 * planner skips such points with the reason) and -LAB_ECONFIG when n exceeds its usable CPUs.
 * For LAB_PLACE_EXPR, the first n CPUs the expression selects on topo's thread domains
 * (-LAB_ECONFIG when it is bad here or selects fewer than n, naming how many it does).
 * Pure: binds nothing.
 */
int lab_topo_plan(const struct lab_topo *topo, const struct lab_placement *p, unsigned n, int *cpus,
                  struct lab_err *err);

/*
 * lab_topo_plan in two steps, so a sweep over thread counts orders the CPUs once: the CPUs p
 * gives threads, in the order they take them, as many as there are (*count, into a new array
 * *order the caller frees), with the errors that do not depend on the thread count (a listed
 * CPU that does not exist, a bad expression here, a node without usable CPUs); then the first n
 * of them, with the errors that do (n above what there is, pairs of other than 2 threads).
 */
int lab_topo_plan_order(const struct lab_topo *topo, const struct lab_placement *p, int **order,
                        unsigned *count, struct lab_err *err);
int lab_topo_plan_take(const struct lab_topo *topo, const struct lab_placement *p, const int *order,
                       unsigned count, unsigned n, int *cpus, struct lab_err *err);

/*
 * Plans the CPU pairs of a core-to-core matrix: every unordered pair {a, b}, a < b, of usable
 * CPUs exactly once, in a stable order. When there are more than max_pairs (0 = no limit), a
 * deterministic sample of max_pairs drawn with seed, which keeps pairs of every kind present in
 * the full set (same core SMT siblings, same package, across packages, across NUMA nodes).
 * Writes at most max entries into pairs and returns the number planned (or a negative code).
 */
int lab_topo_plan_pairs(const struct lab_topo *topo, unsigned max_pairs, uint64_t seed,
                        int (*pairs)[2], unsigned max, struct lab_err *err);

/*
 * Binds the calling thread to OS CPU cpu (hwloc, strict, thread scope). Refuses with
 * -LAB_EUNSUP on a topology that is not this system (hwloc would silently do nothing there).
 */
int lab_topo_bind_self(const struct lab_topo *topo, int cpu, struct lab_err *err);

#endif
