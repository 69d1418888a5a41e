/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/load.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "harness/clock.h"

static int load_sys_read_stat(void *ctx, const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "r");

	(void)ctx;
	if (!f)
		return -1;
	size_t n = fread(buf, 1, cap - 1, f);
	fclose(f);
	buf[n] = '\0';
	return 0;
}

static uint64_t load_sys_wall_ns(void *ctx)
{
	(void)ctx;
	return lab_clock_ns();
}

static uint64_t load_sys_self_ns(void *ctx)
{
	struct rusage ru;

	(void)ctx;
	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return 0;
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ull +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ull;
}

const struct lab_load_src lab_load_src_sys = {
    .read_stat = load_sys_read_stat,
    .wall_ns = load_sys_wall_ns,
    .self_ns = load_sys_self_ns,
};

void lab_load_init(struct lab_load *g, const char *stat_path)
{
	long hz = sysconf(_SC_CLK_TCK);

	memset(g, 0, sizeof(*g));
	g->stat_path = stat_path ? stat_path : "/proc/stat";
	g->src = lab_load_src_sys;
	g->tick_ns = 1e9 / (double)(hz > 0 ? hz : 100);
}

int lab_load_parse_stat(const char *text, uint64_t *busy_ticks, uint64_t *total_ticks,
                        unsigned *ncpus)
{
	unsigned long long v[8] = {0};
	unsigned cpus = 0;

	if (strncmp(text, "cpu ", 4) != 0)
		return -LAB_EIO;
	/* user nice system idle iowait irq softirq steal */
	int got = sscanf(text + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
	                 &v[3], &v[4], &v[5], &v[6], &v[7]);
	if (got < 4)
		return -LAB_EIO;
	for (const char *p = strstr(text, "\ncpu"); p; p = strstr(p + 1, "\ncpu"))
		if (p[4] >= '0' && p[4] <= '9')
			cpus++;
	*busy_ticks = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	*total_ticks = *busy_ticks + v[3] + v[4];
	*ncpus = cpus ? cpus : 1;
	return 0;
}

int lab_load_snap(struct lab_load *g, struct lab_err *err)
{
	char buf[8192];
	uint64_t busy, total;

	if (g->src.read_stat(g->src.ctx, g->stat_path, buf, sizeof(buf)) != 0)
		return lab_err_set(err, LAB_EIO, "open %s failed", g->stat_path);
	if (lab_load_parse_stat(buf, &busy, &total, &g->ncpus))
		return lab_err_set(err, LAB_EIO, "%s: no aggregate cpu line", g->stat_path);
	struct lab_load_snap *s = &g->hist[g->head];
	s->wall_ns = g->src.wall_ns(g->src.ctx);
	s->busy_ns = (uint64_t)((double)busy * g->tick_ns);
	s->self_ns = g->src.self_ns(g->src.ctx);
	g->head = (g->head + 1) % LAB_LOAD_HISTORY;
	if (g->n < LAB_LOAD_HISTORY)
		g->n++;
	return 0;
}

double lab_load_foreign(const struct lab_load *g)
{
	if (g->n < 2)
		return NAN;
	const struct lab_load_snap *now =
	    &g->hist[(g->head + LAB_LOAD_HISTORY - 1) % LAB_LOAD_HISTORY];
	const struct lab_load_snap *then = NULL;
	for (unsigned back = 1; back < g->n; back++) {
		then = &g->hist[(g->head + LAB_LOAD_HISTORY - 1 - back) % LAB_LOAD_HISTORY];
		if (now->wall_ns - then->wall_ns >= LAB_LOAD_WINDOW_NS)
			break;
	}
	double wall = (double)(now->wall_ns - then->wall_ns);
	if (wall <= 0)
		return NAN;
	double busy = (double)now->busy_ns - (double)then->busy_ns;
	double self = (double)now->self_ns - (double)then->self_ns;
	double foreign = (busy - self) / wall;
	/* Tick rounding of both counters can push a quiet reading slightly below zero. */
	if (foreign < 0)
		foreign = 0;
	if (foreign > g->ncpus)
		foreign = g->ncpus;
	return foreign;
}

int lab_runq_open(void)
{
	return open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
}

int lab_runq_parse(const char *text, uint64_t *run_delay_ns)
{
	unsigned long long cpu, delay;
	int used = 0;

	if (sscanf(text, "%llu %llu%n", &cpu, &delay, &used) != 2 || used == 0)
		return -LAB_EIO;
	*run_delay_ns = delay;
	return 0;
}

int lab_runq_read(int fd, uint64_t *run_delay_ns)
{
	char buf[128];
	ssize_t n;

	if (fd < 0)
		return -LAB_EIO;
	/* A seq_file: reading from offset 0 again renders the current values. */
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return -LAB_EIO;
	buf[n] = 0;
	return lab_runq_parse(buf, run_delay_ns);
}
