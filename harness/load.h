/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The foreign-load guard: how much CPU others used while a sample ran. Busy time of the whole
 * machine (/proc/stat: user, nice, system, irq, softirq and steal, which on a VM is the host
 * running someone else on our vCPU) minus this process's own CPU time (getrusage), per second of
 * wall time, in vCPUs. /proc/stat counts in 10 ms ticks, so a window shorter than ~200 ms is
 * widened backwards over earlier snapshots of the same point to keep the reading meaningful.
 */
#ifndef LAB_HARNESS_LOAD_H
#define LAB_HARNESS_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "harness/err.h"

#define LAB_LOAD_WINDOW_NS 200000000ull
#define LAB_LOAD_HISTORY   64

/* One reading: wall clock, the machine's busy CPU time, and our own CPU time. */
struct lab_load_snap {
	uint64_t wall_ns;
	uint64_t busy_ns; /* all CPUs, since boot */
	uint64_t self_ns; /* this process, user + system */
};

/*
 * Where the guard's readings come from. lab_load_init fills in the machine's (/proc/stat, the
 * monotonic clock, getrusage); tests inject their own to step time and load exactly.
 */
struct lab_load_src {
	/* Reads the stat text of path into buf (at most cap - 1 bytes, NUL-terminated); 0, or
	 * -1 when it cannot be read. */
	int (*read_stat)(void *ctx, const char *path, char *buf, size_t cap);
	uint64_t (*wall_ns)(void *ctx); /* a monotonic clock */
	uint64_t (*self_ns)(void *ctx); /* this process's CPU time, user + system */
	void *ctx;
};

/* The real sources. */
extern const struct lab_load_src lab_load_src_sys;

struct lab_load {
	const char *stat_path; /* "/proc/stat"; tests point it at a fixture */
	struct lab_load_src src;
	unsigned ncpus; /* CPUs of the machine, for the clamp */
	unsigned n;     /* snapshots kept (ring) */
	unsigned head;
	struct lab_load_snap hist[LAB_LOAD_HISTORY];
	double tick_ns; /* length of a /proc/stat tick */
};

/* Sets up a guard reading stat_path (NULL = /proc/stat) through lab_load_src_sys. */
void lab_load_init(struct lab_load *g, const char *stat_path);

/*
 * Takes a snapshot now. Returns 0, or -LAB_EIO when the stat file cannot be read or parsed (the
 * guard is then unavailable and samples carry NaN).
 */
int lab_load_snap(struct lab_load *g, struct lab_err *err);

/*
 * Foreign CPU use, in vCPUs, from the newest snapshot back over a window of at least
 * LAB_LOAD_WINDOW_NS (or everything kept). NaN with fewer than two snapshots.
 */
double lab_load_foreign(const struct lab_load *g);

/* Parses the aggregate "cpu" line of a /proc/stat text into ticks; 0 or -LAB_EIO. */
int lab_load_parse_stat(const char *text, uint64_t *busy_ticks, uint64_t *total_ticks,
                        unsigned *ncpus);

/*
 * The run-queue guard, per worker: how long the calling thread was runnable but waiting for
 * its CPU (the kernel's sched_info run_delay, /proc/thread-self/schedstat: "cpu_time run_delay
 * timeslices" in ns). A pinned worker that waits for its CPU shares it with another task; the
 * machine-wide foreign-load reading misses that when the load would fit on idle CPUs but the
 * scheduler put it on ours. Voluntary sleep (a futex wait in pthread_mutex) is not run_delay.
 */
/* Opens the calling thread's schedstat; the fd, or -1 (errno) when the kernel has none. */
int lab_runq_open(void);
/* The run_delay of the thread behind fd, in ns; 0 or -LAB_EIO. */
int lab_runq_read(int fd, uint64_t *run_delay_ns);
/* Parses a schedstat text ("cpu_time run_delay timeslices"); 0 or -LAB_EIO. */
int lab_runq_parse(const char *text, uint64_t *run_delay_ns);

#endif
