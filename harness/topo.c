/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The topology handle: an hwloc topology (this machine, a synthetic description or an XML
 * file; topo_input.c loads it) with where every PU sits recorded once, answering the questions
 * the planner and the CLI ask. The planner itself lives in place.c and uses only the public
 * functions of topo.h.
 */
#include "harness/topo.h"

#include <errno.h>
#include <hwloc.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "harness/topo_internal.h"

struct lab_topo {
	hwloc_topology_t hw;
	bool thissystem, standin;
	char *source;
	char summary[160];
	unsigned npus, ncores, npackages, nnuma;
	struct lab_pu_info *pus; /* logical (topology) order */
	int *os_sorted;          /* OS indices of all PUs, ascending */
	int max_os;              /* highest OS index */
	int *os_to_pu;           /* OS index -> index in pus, -1 when absent; max_os + 1 entries */
	unsigned long long cache_set[LAB_CACHE_LEVELS]; /* lab_topo_cache_set, 0 where not set */
	bool cache_measured[LAB_CACHE_LEVELS];
};

/* The logical index of the first NUMA node whose cpuset covers pu, -1 if none. */
/* The NUMA node of pu: its logical index, and its OS number into *os. */
static int topo_pu_numa(hwloc_topology_t hw, hwloc_obj_t pu, int *os)
{
	hwloc_obj_t node =
	    hwloc_get_next_obj_covering_cpuset_by_type(hw, pu->cpuset, HWLOC_OBJ_NUMANODE, NULL);

	*os = node ? (int)node->os_index : -1;
	return node ? (int)node->logical_index : -1;
}

/* What the planner relies on of one PU: an OS index it can size tables by, a cpuset of that
 * index alone, and a core below its package. Returns 0 or -LAB_ETOPO. */
static int topo_pu_check(const struct lab_topo *topo, hwloc_obj_t pu, hwloc_obj_t pkg,
                         hwloc_obj_t core, struct lab_err *err)
{
	/* from an XML file: an index past any OS's would size os_to_pu (2^31: 8 GB) */
	if (pu->os_index > LAB_TOPO_OS_MAX)
		return lab_err_set(err, LAB_ETOPO, "%s: a PU has OS index %u (allowed 0 .. %d)",
		                   topo->source, pu->os_index, LAB_TOPO_OS_MAX);
	/* from an XML file: a PU whose cpuset is another CPU's made node:0 and M0 of one node
	 * disagree (os_index 7, cpuset bit 3) */
	if (hwloc_bitmap_weight(pu->cpuset) != 1 ||
	    hwloc_bitmap_first(pu->cpuset) != (int)pu->os_index) {
		char *set = NULL;
		int rc;

		if (hwloc_bitmap_list_asprintf(&set, pu->cpuset) < 0)
			set = NULL;
		rc = lab_err_set(err, LAB_ETOPO,
		                 "%s: PU os_index %u has cpuset %.40s (allowed: the PU's own bit, "
		                 "its os_index, alone)",
		                 topo->source, pu->os_index, set ? set : "?");
		free(set);
		return rc;
	}
	/* from an XML file: a PU no NUMA node covers was planned as node -1 (mem_node=far took
	 * any node for it) */
	if (strcmp(topo->source, "this system") &&
	    !hwloc_get_next_obj_covering_cpuset_by_type(topo->hw, pu->cpuset, HWLOC_OBJ_NUMANODE,
	                                                NULL))
		return lab_err_set(err, LAB_ETOPO,
		                   "%s: PU os_index %u is in no NUMA node (allowed: every PU under "
		                   "one)",
		                   topo->source, pu->os_index);
	/* "core:2 pack:2 pu:1": packages inside a core, planned as its SMT siblings */
	if (core && pkg && !hwloc_obj_is_in_subtree(topo->hw, core, pkg))
		return lab_err_set(err, LAB_ETOPO,
		                   "%s: a package inside a core (allowed: packages above cores, "
		                   "cores above PUs, e.g. \"pack:2 core:8 pu:2\")",
		                   topo->source);
	return 0;
}

/* Every NUMA node one node:N, membind or mem_node can name (an XML's os_index went up to
 * 65535). Returns 0 or -LAB_ETOPO. */
static int topo_nodes_check(const struct lab_topo *topo, struct lab_err *err)
{
	unsigned char seen[LAB_TOPO_NODE_MAX / 8 + 1] = {0};

	for (hwloc_obj_t node = hwloc_get_next_obj_by_type(topo->hw, HWLOC_OBJ_NUMANODE, NULL);
	     node; node = hwloc_get_next_obj_by_type(topo->hw, HWLOC_OBJ_NUMANODE, node)) {
		unsigned os = node->os_index;

		if (os > LAB_TOPO_NODE_MAX)
			return lab_err_set(err, LAB_ETOPO,
			                   "%s: a NUMA node has OS index %u (allowed 0 .. %d)",
			                   topo->source, os, LAB_TOPO_NODE_MAX);
		/* two of one number: node:0 took the CPUs of both, node:1 had none */
		if (seen[os / 8] & (1u << (os % 8)))
			return lab_err_set(
			    err, LAB_ETOPO,
			    "%s: two NUMA nodes have OS index %u (allowed: each node "
			    "its own)",
			    topo->source, os);
		seen[os / 8] |= (unsigned char)(1u << (os % 8));
	}
	return 0;
}

/* From an XML file: a package inside a package, a core inside a core (hwloc counts -1 of a
 * type at several depths: "4294967295 packages"). Returns 0 or -LAB_ETOPO. */
static int topo_depths_check(const struct lab_topo *topo, struct lab_err *err)
{
	static const hwloc_obj_type_t one_depth[] = {HWLOC_OBJ_PACKAGE, HWLOC_OBJ_CORE};
	static const char *const one_name[] = {"packages", "cores"};

	for (size_t i = 0; i < 2; i++)
		if (hwloc_get_type_depth(topo->hw, one_depth[i]) == HWLOC_TYPE_DEPTH_MULTIPLE)
			return lab_err_set(err, LAB_ETOPO,
			                   "%s: %s at several depths, one inside another (allowed: "
			                   "each at one depth, as a machine has them)",
			                   topo->source, one_name[i]);
	return 0;
}

/* Walks the PUs once: package, NUMA node, core and SMT rank of each, and the OS index map. */
static int topo_index(struct lab_topo *topo, struct lab_err *err)
{
	hwloc_topology_t hw = topo->hw;
	int nreal = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_CORE);
	int npu = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_PU);
	int *rank = NULL;
	int rc = 0;

	if ((rc = topo_depths_check(topo, err)) < 0)
		return rc;
	if (npu <= 0 || nreal < 0)
		return lab_err_set(err, LAB_ETOPO, "%s: the topology has no PUs", topo->source);
	if (npu > LAB_TOPO_PUS_MAX)
		return lab_err_set(err, LAB_ETOPO,
		                   "%s: %d PUs (the lab plans topologies of at most %d PUs)",
		                   topo->source, npu, LAB_TOPO_PUS_MAX);
	topo->npus = (unsigned)npu;
	topo->pus = calloc((size_t)npu, sizeof(*topo->pus));
	topo->os_sorted = calloc((size_t)npu, sizeof(int));
	rank = calloc((size_t)nreal + 1, sizeof(int));
	if (!topo->pus || !topo->os_sorted || !rank) {
		rc = lab_err_set(err, LAB_ENOMEM, "%s: out of memory", topo->source);
		goto out;
	}
	unsigned coreless = 0, llc_level;
	hwloc_obj_type_t llc = lab__topo_llc(hw, &llc_level);
	topo->max_os = -1;
	for (int i = 0; i < npu; i++) {
		hwloc_obj_t pu = hwloc_get_obj_by_type(hw, HWLOC_OBJ_PU, (unsigned)i);
		hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(hw, HWLOC_OBJ_PACKAGE, pu);
		hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(hw, HWLOC_OBJ_CORE, pu);
		struct lab_pu_info *info = &topo->pus[i];

		if ((rc = topo_pu_check(topo, pu, pkg, core, err)) < 0)
			goto out;
		info->cpu = (int)pu->os_index;
		info->package = pkg ? (int)pkg->logical_index : -1;
		info->numa = topo_pu_numa(hw, pu, &info->numa_os);
		hwloc_obj_t cache = llc_level ? hwloc_get_ancestor_obj_by_type(hw, llc, pu) : NULL;
		info->llc = cache ? (int)cache->logical_index : -1;
		if (core) {
			info->core = (int)core->logical_index;
			info->smt_rank = rank[core->logical_index]++;
		} else {
			/* No Core object above it: the PU is a core of its own. */
			info->core = nreal + (int)coreless++;
			info->smt_rank = 0;
		}
		if (info->cpu > topo->max_os)
			topo->max_os = info->cpu;
	}
	if ((rc = topo_nodes_check(topo, err)) < 0)
		goto out;
	topo->ncores = (unsigned)nreal + coreless;
	topo->os_to_pu = malloc(((size_t)topo->max_os + 1) * sizeof(int));
	if (!topo->os_to_pu) {
		rc = lab_err_set(err, LAB_ENOMEM, "%s: out of memory", topo->source);
		goto out;
	}
	for (int c = 0; c <= topo->max_os; c++)
		topo->os_to_pu[c] = -1;
	for (int i = 0; i < npu; i++) {
		if (topo->os_to_pu[topo->pus[i].cpu] >= 0) {
			rc = lab_err_set(err, LAB_ETOPO,
			                 "%s: two PUs have OS index %d (allowed: each PU its own)",
			                 topo->source, topo->pus[i].cpu);
			goto out;
		}
		topo->os_to_pu[topo->pus[i].cpu] = i;
	}
	for (int c = 0, k = 0; c <= topo->max_os; c++)
		if (topo->os_to_pu[c] >= 0)
			topo->os_sorted[k++] = c;
out:
	free(rank);
	return rc;
}

static const char *topo_plural(unsigned n)
{
	return n == 1 ? "" : "s";
}

int lab_topo_open(struct lab_topo **out, const char *spec, struct lab_err *err)
{
	struct lab_topo *topo = calloc(1, sizeof(*topo));
	int rc;

	*out = NULL;
	if (!topo)
		return lab_err_set(err, LAB_ENOMEM, "%s: out of memory",
		                   spec ? spec : "this system");
	rc = lab__topo_load(&topo->hw, &topo->source, spec, err);
	if (rc < 0)
		goto out;
	rc = topo_index(topo, err);
	if (rc < 0)
		goto out;
	/* a spec or hwloc's variables are another machine: HWLOC_THISSYSTEM=1 had a synthetic
	 * one bind threads by its made-up layout */
	char vars[96];
	bool env = lab_topo_discovery_env(vars, sizeof(vars)) > 0;

	topo->thissystem = !strcmp(topo->source, "this system") && !env &&
	                   hwloc_topology_is_thissystem(topo->hw) != 0;
	if (!topo->thissystem && (rc = lab__topo_sizes_check(topo->hw, topo->source, err)) < 0)
		goto out;
	/* another way than HWLOC_XMLFILE or HWLOC_SYNTHETIC (lab__topo_load names those) */
	if ((!spec || !*spec) && !topo->thissystem && !strcmp(topo->source, "this system")) {
		char named[sizeof(vars) + 32] = "hwloc environment";

		if (env) /* the names only: their values are the user's text */
			snprintf(named, sizeof(named), "hwloc environment (%s)", vars);
		free(topo->source);
		topo->source = strdup(named);
		if (!topo->source) {
			rc = lab_err_set(err, LAB_ENOMEM, "this system: out of memory");
			goto out;
		}
	}
	topo->npackages = (unsigned)hwloc_get_nbobjs_by_type(topo->hw, HWLOC_OBJ_PACKAGE);
	topo->nnuma = (unsigned)hwloc_get_nbobjs_by_type(topo->hw, HWLOC_OBJ_NUMANODE);
	/* HWLOC_XMLFILE or HWLOC_SYNTHETIC in the environment can replace this system. */
	const char *kind = spec && *spec      ? (!strncmp(spec, "xml:", 4) ? "xml" : "synthetic")
	                   : topo->thissystem ? "this system"
	                                      : "hwloc environment, not this system";
	snprintf(topo->summary, sizeof(topo->summary),
	         "%u package%s, %u NUMA node%s, %u core%s, %u PU%s (%s)", topo->npackages,
	         topo_plural(topo->npackages), topo->nnuma, topo_plural(topo->nnuma), topo->ncores,
	         topo_plural(topo->ncores), topo->npus, topo_plural(topo->npus), kind);
	*out = topo;
out:
	if (rc < 0)
		lab_topo_close(topo);
	return rc;
}

void lab_topo_close(struct lab_topo *topo)
{
	if (!topo)
		return;
	if (topo->hw)
		hwloc_topology_destroy(topo->hw);
	free(topo->source);
	free(topo->pus);
	free(topo->os_sorted);
	free(topo->os_to_pu);
	free(topo);
}

int lab_topo_open_standin(struct lab_topo **out, struct lab_err *err)
{
	int rc = lab_topo_open(out,
	                       "synthetic:pack:1 l3:1(size=32MB) l2:1024(size=1MB) "
	                       "l1d:1(size=48KB) core:1 pu:1",
	                       err);

	if (rc == 0)
		(*out)->standin = true;
	return rc;
}

unsigned lab_topo_pu_nodes(const struct lab_topo *topo, int cpu, int *os, unsigned max)
{
	unsigned n = 0;

	for (hwloc_obj_t node = hwloc_get_next_obj_by_type(topo->hw, HWLOC_OBJ_NUMANODE, NULL);
	     node && cpu >= 0;
	     node = hwloc_get_next_obj_by_type(topo->hw, HWLOC_OBJ_NUMANODE, node))
		if (node->cpuset && hwloc_bitmap_isset(node->cpuset, (unsigned)cpu) && n++ < max)
			os[n - 1] = (int)node->os_index;
	return n;
}

bool lab_topo_is_standin(const struct lab_topo *topo)
{
	return topo->standin;
}

bool lab_topo_is_thissystem(const struct lab_topo *topo)
{
	return topo->thissystem;
}

unsigned lab_topo_numa_distances(const struct lab_topo *topo, uint64_t *d, unsigned max)
{
	struct hwloc_distances_s *dist = NULL;
	unsigned nr = 1, n = 0;

	if (hwloc_distances_get_by_type(topo->hw, HWLOC_OBJ_NUMANODE, &nr, &dist,
	                                HWLOC_DISTANCES_KIND_MEANS_LATENCY, 0) != 0 ||
	    nr == 0)
		return 0;
	n = dist->nbobjs;
	/* hwloc lists the matrix's objects in its own order (an XML may list them in any):
	 * rows and columns go to the nodes' logical indexes. A matrix of some nodes only is none:
	 * rows in hwloc's order were labelled node 0, 1, 2 for OS nodes 1, 2, 3, and far came from
	 * the wrong row. */
	unsigned *at = malloc((n ? n : 1) * sizeof(*at));
	for (unsigned i = 0; at && i < n; i++)
		if ((at[i] = dist->objs[i]->logical_index) >= n) {
			free(at);
			at = NULL;
		}
	if (!at || n != topo->nnuma) {
		free(at);
		hwloc_distances_release(topo->hw, dist);
		return 0;
	}
	for (unsigned i = 0; i < n; i++)
		for (unsigned j = 0; j < n; j++) {
			size_t k = (size_t)at[i] * n + at[j];
			if (k < max)
				d[k] = dist->values[(size_t)i * n + j];
		}
	free(at);
	hwloc_distances_release(topo->hw, dist);
	return n;
}

unsigned lab_topo_numa_memory(const struct lab_topo *topo, struct lab_numa_mem *m, unsigned max)
{
	int n = hwloc_get_nbobjs_by_type(topo->hw, HWLOC_OBJ_NUMANODE);

	for (int i = 0; i < n && (unsigned)i < max; i++) {
		hwloc_obj_t o = hwloc_get_obj_by_type(topo->hw, HWLOC_OBJ_NUMANODE, (unsigned)i);
		m[i] = (struct lab_numa_mem){.node = i,
		                             .os_index = o ? (int)o->os_index : -1,
		                             .local_memory =
		                                 o && o->attr ? o->attr->numanode.local_memory : 0};
	}
	return n > 0 ? (unsigned)n : 0;
}

/* The node farthest from OS node 0 (lab_env.numa_far0), as an OS number: the matrix is in
 * logical order. 1 without distances. */
static unsigned topo_far0(const struct lab_topo *topo)
{
	unsigned nn = topo->nnuma, far = 1, n;
	uint64_t *d = nn >= 2 ? malloc((size_t)nn * nn * sizeof(*d)) : NULL;
	hwloc_obj_t z = hwloc_get_numanode_obj_by_os_index(topo->hw, 0), o;
	unsigned r = z ? z->logical_index : 0, best = r;

	n = d ? lab_topo_numa_distances(topo, d, nn * nn) : 0;
	for (unsigned j = 0; n >= 2 && n <= nn && r < n && j < n; j++)
		if (j != r && (best == r || d[r * n + j] > d[r * n + best]))
			best = j;
	o = best != r ? hwloc_get_obj_by_type(topo->hw, HWLOC_OBJ_NUMANODE, best) : NULL;
	if (o)
		far = o->os_index;
	free(d);
	return far;
}

void lab_topo_env(const struct lab_topo *topo, struct lab_env *env)
{
	env->ncpus = lab_topo_cpus_allowed(topo, NULL, 0);
	env->packages = topo->npackages;
	env->numa_nodes = topo->nnuma;
	env->cores = topo->ncores;
	env->pus = topo->npus;
	env->thissystem = topo->thissystem;
	env->numa_far0 = topo_far0(topo);
	struct lab_cache_info c[LAB_CACHE_LEVELS];
	unsigned n = lab_topo_caches(topo, c, LAB_CACHE_LEVELS);
	for (unsigned i = 0; i < n; i++)
		if (c[i].level >= 1 && c[i].level <= LAB_CACHE_LEVELS)
			env->cache_bytes[c[i].level - 1] = c[i].size;
}

/*
 * The calling thread's affinity mask, sized for the kernel's CPU count (sched_getaffinity fails
 * with EINVAL while the mask is too small). Returns NULL when it cannot be read.
 */
static cpu_set_t *topo_affinity(int max_os, size_t *size)
{
	int ncpu = max_os + 1 > CPU_SETSIZE ? max_os + 1 : CPU_SETSIZE;

	for (; ncpu <= (1 << 20); ncpu *= 2) {
		cpu_set_t *set = CPU_ALLOC((size_t)ncpu);
		if (!set)
			return NULL;
		*size = CPU_ALLOC_SIZE((size_t)ncpu);
		if (sched_getaffinity(0, *size, set) == 0)
			return set;
		CPU_FREE(set);
		if (errno != EINVAL)
			return NULL;
	}
	return NULL;
}

unsigned lab_topo_cpus_allowed(const struct lab_topo *topo, int *cpus, unsigned max)
{
	cpu_set_t *set = NULL;
	size_t size = 0;
	unsigned n = 0;

	if (topo->thissystem)
		set = topo_affinity(topo->max_os, &size);
	for (unsigned i = 0; i < topo->npus; i++) {
		int cpu = topo->os_sorted[i];
		/* Without a readable mask (never seen on Linux) every PU counts as allowed. */
		if (set && !CPU_ISSET_S((size_t)cpu, size, set))
			continue;
		if (n < max)
			cpus[n] = cpu;
		n++;
	}
	if (set)
		CPU_FREE(set);
	return n;
}

bool lab_topo_cpu_allowed(const struct lab_topo *topo, int cpu)
{
	cpu_set_t *set;
	size_t size = 0;
	bool ok;

	if (cpu < 0 || cpu > topo->max_os || topo->os_to_pu[cpu] < 0)
		return false;
	if (!topo->thissystem)
		return true;
	set = topo_affinity(topo->max_os, &size);
	if (!set)
		return true;
	ok = CPU_ISSET_S((size_t)cpu, size, set);
	CPU_FREE(set);
	return ok;
}

int lab_topo_pu_info(const struct lab_topo *topo, int cpu, struct lab_pu_info *info)
{
	if (cpu < 0 || cpu > topo->max_os || topo->os_to_pu[cpu] < 0)
		return -LAB_EINVAL;
	*info = topo->pus[topo->os_to_pu[cpu]];
	return 0;
}

unsigned lab_topo_pus(const struct lab_topo *topo, struct lab_pu_info *pus, unsigned max)
{
	for (unsigned i = 0; i < topo->npus && i < max; i++)
		pus[i] = topo->pus[i];
	return topo->npus;
}

const char *lab_topo_summary(const struct lab_topo *topo)
{
	return topo->summary;
}

hwloc_topology_t lab__topo_hwloc(const struct lab_topo *topo)
{
	return topo->hw;
}

unsigned lab_topo_caches(const struct lab_topo *topo, struct lab_cache_info *c, unsigned max)
{
	struct lab_cache_info hw[LAB_CACHE_LEVELS];
	unsigned nhw = lab__topo_caches(topo->hw, hw, LAB_CACHE_LEVELS), n = 0, j = 0;

	for (unsigned level = 1; level <= LAB_CACHE_LEVELS && n < max; level++) {
		unsigned long long set = topo->cache_set[level - 1];
		while (j < nhw && hw[j].level < level)
			j++;
		if (j < nhw && hw[j].level == level) {
			c[n] = hw[j];
			c[n].reported = hw[j].size;
		} else if (set) {
			c[n] = (struct lab_cache_info){.level = level};
		} else {
			continue;
		}
		c[n].size_from = "hwloc";
		if (set) {
			c[n].size = set;
			c[n].size_from = topo->cache_measured[level - 1] ? "measured" : "given";
		}
		n++;
	}
	return n;
}

int lab_topo_cache_set(struct lab_topo *topo, unsigned level, unsigned long long bytes,
                       bool measured)
{
	if (level < 1 || level > LAB_CACHE_LEVELS || !bytes)
		return -LAB_EINVAL;
	topo->cache_set[level - 1] = bytes;
	topo->cache_measured[level - 1] = measured;
	return 0;
}

const char *lab_topo_source(const struct lab_topo *topo)
{
	return topo->source;
}

int lab_topo_cpulist_format(char *buf, size_t size, const int *cpus, unsigned n)
{
	size_t len = 0, out = 0;
	bool cut = false;

	if (size)
		buf[0] = '\0';
	if (n == 0)
		return snprintf(buf, size, "none");
	for (unsigned i = 0; i < n;) {
		unsigned j = i;
		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		char item[32];
		int w;
		if (j == i)
			w = snprintf(item, sizeof(item), "%s%d", i ? "," : "", cpus[i]);
		else
			w = snprintf(item, sizeof(item), "%s%d-%d", i ? "," : "", cpus[i], cpus[j]);
		/* An item goes in whole with room left for ",..." after it, the last one whole. */
		size_t room = j + 1 < n ? 4 : 0;
		if (!cut && out + (size_t)w + room < size) {
			memcpy(buf + out, item, (size_t)w + 1);
			out += (size_t)w;
		} else if (!cut) {
			cut = true;
			if (out + 4 <= size)
				snprintf(buf + out, size - out, "%s...", out ? "," : "");
		}
		len += (size_t)w;
		i = j + 1;
	}
	return (int)len;
}

int lab_topo_bind_self(const struct lab_topo *topo, int cpu, struct lab_err *err)
{
	const struct hwloc_topology_support *sup = hwloc_topology_get_support(topo->hw);
	hwloc_obj_t pu;

	if (!topo->thissystem)
		return lab_err_set(
		    err, LAB_EUNSUP,
		    "bind to cpu %d: the topology (%s) is not this system; it can be "
		    "planned, not bound",
		    cpu, topo->source);
	if (!sup->cpubind->set_thread_cpubind)
		return lab_err_set(err, LAB_EUNSUP,
		                   "bind to cpu %d: hwloc cannot bind threads on this system", cpu);
	pu = cpu >= 0 ? hwloc_get_pu_obj_by_os_index(topo->hw, (unsigned)cpu) : NULL;
	if (!pu)
		return lab_err_set(err, LAB_EINVAL, "bind to cpu %d: no such CPU in %s", cpu,
		                   topo->source);
	if (hwloc_set_cpubind(topo->hw, pu->cpuset, HWLOC_CPUBIND_THREAD | HWLOC_CPUBIND_STRICT) <
	    0)
		return lab_err_set(err, LAB_ESYS, "bind to cpu %d: %s", cpu, strerror(errno));
	return 0;
}
