/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/memavail.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MEM_NODES 64

static struct {
	pthread_mutex_t lock;
	const char *path;     /* NULL: /proc/meminfo */
	const char *node_dir; /* NULL: /sys/devices/system/node */
	bool active;          /* a point's budget is open */
	size_t avail;         /* MemAvailable when the point began */
	size_t held;          /* bytes of the point's buffers alive now */
	/* per node, for buffers bound to it: what it could give when the point first bound one
	 * there (0: not read yet), and the point's bound buffers alive now */
	size_t node_avail[MEM_NODES], node_held[MEM_NODES];
} mem = {.lock = PTHREAD_MUTEX_INITIALIZER};

size_t lab_mem_available(void)
{
	char line[128];
	unsigned long long kb;
	size_t avail = SIZE_MAX;
	const char *path;

	pthread_mutex_lock(&mem.lock);
	path = mem.path ? mem.path : "/proc/meminfo";
	pthread_mutex_unlock(&mem.lock);
	FILE *f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
			avail = kb < SIZE_MAX / 1024 ? (size_t)(kb * 1024) : SIZE_MAX;
			break;
		}
	if (f)
		fclose(f);
	return avail;
}

void lab_mem_budget_begin(void)
{
	size_t avail = lab_mem_available();

	pthread_mutex_lock(&mem.lock);
	mem.active = true;
	mem.avail = avail;
	mem.held = 0;
	memset(mem.node_avail, 0, sizeof(mem.node_avail));
	memset(mem.node_held, 0, sizeof(mem.node_held));
	pthread_mutex_unlock(&mem.lock);
}

void lab_mem_budget_end(void)
{
	pthread_mutex_lock(&mem.lock);
	mem.active = false;
	mem.held = 0;
	memset(mem.node_held, 0, sizeof(mem.node_held));
	pthread_mutex_unlock(&mem.lock);
}

/* Under mem.lock: bytes out of budget, less *in_use (what the point holds; point 0: no point,
 * nothing held or taken); *other what the point held. 1 when it fits. */
static bool mem_take(bool point, size_t budget, size_t *in_use, size_t bytes, size_t *held,
                     size_t *other)
{
	*other = point ? (*in_use < budget ? *in_use : budget) : 0;
	if (bytes > budget - *other)
		return false;
	if (point) {
		*held = bytes;
		*in_use += bytes;
	}
	return true;
}

int lab_mem_reserve(size_t bytes, size_t *held, struct lab_err *err)
{
	size_t live = lab_mem_available(), avail, other = 0;
	bool ok;

	*held = 0;
	pthread_mutex_lock(&mem.lock);
	avail = mem.active ? mem.avail : live;
	ok = mem_take(mem.active, avail, &mem.held, bytes, held, &other);
	pthread_mutex_unlock(&mem.lock);
	if (ok)
		return 0;
	if (other)
		return lab_err_set(
		    err, LAB_ENOMEM,
		    "a buffer of %zu MiB: this machine had %zu MiB of memory available "
		    "(MemAvailable) when the point began, %zu MiB of it held by the "
		    "point's other buffers; allowed: a smaller size",
		    bytes >> 20, avail >> 20, other >> 20);
	return lab_err_set(err, LAB_ENOMEM,
	                   "a buffer of %zu MiB: this machine has %zu MiB of memory available "
	                   "(MemAvailable); allowed: a smaller size",
	                   bytes >> 20, avail >> 20);
}

void lab_mem_release(size_t held)
{
	pthread_mutex_lock(&mem.lock);
	if (mem.active)
		mem.held -= held < mem.held ? held : mem.held;
	pthread_mutex_unlock(&mem.lock);
}

void lab_mem_meminfo_path(const char *path)
{
	pthread_mutex_lock(&mem.lock);
	mem.path = path;
	pthread_mutex_unlock(&mem.lock);
}

size_t lab_mem_node_available(int node)
{
	char path[4200], line[160];
	unsigned long long kb, sum = 0;
	unsigned seen = 0;
	int n;

	pthread_mutex_lock(&mem.lock);
	snprintf(path, sizeof(path), "%s/node%d/meminfo",
	         mem.node_dir ? mem.node_dir : "/sys/devices/system/node", node);
	pthread_mutex_unlock(&mem.lock);
	FILE *f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		char key[32];
		if (sscanf(line, "Node %d %31s %llu kB", &n, key, &kb) != 3 || n != node)
			continue;
		if (!strcmp(key, "MemFree:") || !strcmp(key, "Active(file):") ||
		    !strcmp(key, "Inactive(file):") || !strcmp(key, "KReclaimable:")) {
			sum += kb;
			seen++;
		}
	}
	if (f)
		fclose(f);
	if (!seen)
		return SIZE_MAX;
	return sum < SIZE_MAX / 1024 ? (size_t)(sum * 1024) : SIZE_MAX;
}

int lab_mem_node_reserve(int node, size_t bytes, size_t *held, struct lab_err *err)
{
	size_t live = lab_mem_node_available(node), avail, other = 0, none = 0;
	bool point = node >= 0 && node < MEM_NODES, ok;

	*held = 0;
	pthread_mutex_lock(&mem.lock);
	point = point && mem.active;
	if (point && !mem.node_avail[node])
		mem.node_avail[node] = live ? live : 1; /* 0 is "not read" */
	avail = point ? mem.node_avail[node] : live;
	ok = mem_take(point, avail, point ? &mem.node_held[node] : &none, bytes, held, &other);
	pthread_mutex_unlock(&mem.lock);
	if (ok)
		return 0;
	if (other)
		return lab_err_set(
		    err, LAB_ENOMEM,
		    "a buffer of %zu MiB bound to NUMA node %d: that node had %zu MiB "
		    "free or reclaimable when the point first bound a buffer there, "
		    "%zu MiB of it held by the point's other buffers bound there; "
		    "allowed: a smaller size",
		    bytes >> 20, node, avail >> 20, other >> 20);
	return lab_err_set(err, LAB_ENOMEM,
	                   "a buffer of %zu MiB bound to NUMA node %d: that node has %zu MiB "
	                   "free or reclaimable (MemFree + file pages + reclaimable kernel "
	                   "memory); allowed: a smaller size",
	                   bytes >> 20, node, avail >> 20);
}

void lab_mem_node_release(int node, size_t held)
{
	pthread_mutex_lock(&mem.lock);
	if (mem.active && node >= 0 && node < MEM_NODES)
		mem.node_held[node] -= held < mem.node_held[node] ? held : mem.node_held[node];
	pthread_mutex_unlock(&mem.lock);
}

void lab_mem_node_dir(const char *dir)
{
	pthread_mutex_lock(&mem.lock);
	mem.node_dir = dir;
	pthread_mutex_unlock(&mem.lock);
}
