/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What this machine's PMU is (CPUID, sysfs, procfs) and the real syscall layer. */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "harness/counters.h"
#include "harness/json.h"

static int pe_sys_open(void *ctx, struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
                       unsigned long flags)
{
	(void)ctx;
	long fd = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
	return fd < 0 ? -errno : (int)fd;
}

static int pe_sys_ioctl(void *ctx, int fd, unsigned long req, unsigned long arg)
{
	(void)ctx;
	return ioctl(fd, req, arg) < 0 ? -errno : 0;
}

static ssize_t pe_sys_read(void *ctx, int fd, void *buf, size_t len)
{
	(void)ctx;
	ssize_t n = read(fd, buf, len);
	return n < 0 ? -errno : n;
}

static int pe_sys_close(void *ctx, int fd)
{
	(void)ctx;
	return close(fd) < 0 ? -errno : 0;
}

const struct lab_pe_ops lab_pe_ops_sys = {pe_sys_open, pe_sys_ioctl, pe_sys_read, pe_sys_close,
                                          NULL};

static int host_read_int(const char *path, int dflt)
{
	FILE *f = fopen(path, "r");
	int v = dflt;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = dflt;
		fclose(f);
	}
	return v;
}

static bool host_exists(const char *root, const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return access(path, F_OK) == 0;
}

static void host_cpuid(struct lab_ctr_host *h)
{
	snprintf(h->vendor, sizeof(h->vendor), "unknown");
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	if (!__get_cpuid(0, &a, &b, &c, &d))
		return;
	memcpy(h->vendor, &b, 4);
	memcpy(h->vendor + 4, &d, 4);
	memcpy(h->vendor + 8, &c, 4);
	h->vendor[12] = '\0';
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return;
	unsigned fam = (a >> 8) & 0xf, model = (a >> 4) & 0xf;
	if (fam == 0xf)
		fam += (a >> 20) & 0xff;
	if (fam == 6 || fam >= 0xf)
		model |= ((a >> 16) & 0xf) << 4;
	h->family = fam;
	h->model = model;
	h->hypervisor = (c >> 31) & 1;
#endif
}

static void host_pmus(struct lab_ctr_host *h, const char *root)
{
	char path[512];
	DIR *d;
	struct dirent *de;

	snprintf(path, sizeof(path), "%s/bus/event_source/devices", root);
	if (!(d = opendir(path)))
		return;
	/* Sorted by insertion into a fixed buffer; readdir order is not stable, so sort. */
	char names[32][48];
	unsigned n = 0;
	while ((de = readdir(d)) && n < 32)
		if (de->d_name[0] != '.')
			snprintf(names[n++], sizeof(names[0]), "%.47s", de->d_name);
	closedir(d);
	for (unsigned i = 1; i < n; i++)
		for (unsigned k = i; k > 0 && strcmp(names[k - 1], names[k]) > 0; k--) {
			char t[48];
			memcpy(t, names[k], sizeof(t));
			memcpy(names[k], names[k - 1], sizeof(t));
			memcpy(names[k - 1], t, sizeof(t));
		}
	for (unsigned i = 0; i < n; i++) {
		size_t used = strlen(h->pmus);
		snprintf(h->pmus + used, sizeof(h->pmus) - used, "%s%s", used ? " " : "", names[i]);
		if (!strcmp(names[i], "cpu") || !strcmp(names[i], "cpu_core"))
			h->cpu_pmu = true;
	}
}

void lab_ctr_host_probe(struct lab_ctr_host *h, const char *sysfs_root)
{
	memset(h, 0, sizeof(*h));
	host_cpuid(h);
	host_pmus(h, sysfs_root);
	h->topdown_fe =
	    host_exists(sysfs_root, "bus/event_source/devices/cpu/events/topdown-fe-bound");
	h->topdown_mem =
	    host_exists(sysfs_root, "bus/event_source/devices/cpu/events/topdown-mem-bound");
	h->paranoid = host_read_int("/proc/sys/kernel/perf_event_paranoid", -100);
	h->nmi_watchdog = host_read_int("/proc/sys/kernel/nmi_watchdog", -1);
	h->privileged = geteuid() == 0;
	h->method = lab_ctr_method_select(h->vendor, h->family, h->model, h->topdown_fe,
	                                  h->topdown_mem, &h->method_reason);
	/* a hybrid Intel CPU's perf-metrics sit on cpu_core, which the method does not read */
	if (h->method == LAB_TMA_NONE && !strcmp(h->vendor, "GenuineIntel") &&
	    host_exists(sysfs_root, "bus/event_source/devices/cpu_core/events/topdown-fe-bound"))
		h->method_reason =
		    "a hybrid Intel CPU (cpu_core and cpu_atom PMUs): its perf-metrics "
		    "are on cpu_core, which the lab's top-down does not read";
}

static struct lab_ctr_host host_self;
static pthread_once_t host_once = PTHREAD_ONCE_INIT;

static void host_self_init(void)
{
	lab_ctr_host_probe(&host_self, "/sys");
}

const struct lab_ctr_host *lab_ctr_host_self(void)
{
	pthread_once(&host_once, host_self_init);
	return &host_self;
}

const char *lab_ctr_paranoid_meaning(int p)
{
	if (p == -100)
		return "unknown (perf_event_paranoid unreadable)";
	if (p <= -1)
		return "everything, for every user";
	if (p == 0)
		return "per-process and CPU-wide counting, kernel included";
	if (p == 1)
		return "per-process counting, user and kernel; no CPU-wide";
	if (p == 2)
		return "per-process counting of user space only (context switches and migrations "
		       "read 0: the lab takes them from getrusage and sched_getcpu)";
	return "nothing for unprivileged users (a distribution patch); root or CAP_PERFMON needed";
}

void lab_ctr_host_json(struct lab_json *j, const struct lab_ctr_host *h)
{
	lab_json_str(j, "vendor", h->vendor);
	lab_json_uint(j, "family", h->family);
	lab_json_uint(j, "model", h->model);
	lab_json_bool(j, "hypervisor", h->hypervisor);
	lab_json_str(j, "pmus", h->pmus);
	lab_json_bool(j, "core_pmu", h->cpu_pmu);
	lab_json_int(j, "perf_event_paranoid", h->paranoid);
	lab_json_str(j, "paranoid_allows", lab_ctr_paranoid_meaning(h->paranoid));
	lab_json_int(j, "nmi_watchdog", h->nmi_watchdog);
	lab_json_bool(j, "privileged", h->privileged);
	lab_json_str(j, "api", "perf_event_open, per thread (pid 0, cpu -1), self-opened");
	lab_json_str(j, "topdown_method", lab_ctr_method_name(h->method));
	lab_json_str(j, "topdown_reason", h->method_reason);
	lab_json_str(j, "libpfm", "not built in");
}

void lab_ctr_info_json(struct lab_json *j, const struct lab_ctr_info *info)
{
	static const char *const modes[] = {"off", "auto", "require"};

	lab_json_obj_open(j, "counters");
	lab_json_str(j, "mode", modes[info->mode]);
	lab_json_uint(j, "passes", info->npasses);
	lab_json_bool(j, "hw_exclude_kernel", true);
	lab_json_bool(j, "sw_exclude_kernel", info->exclude_kernel_sw);
	lab_json_obj_open(j, "topdown");
	lab_json_str(j, "method", info->topdown_method);
	lab_json_str(j, "reason", info->topdown_reason);
	lab_json_obj_close(j);
	lab_json_str(j, "flops_reason", info->flops_reason);
	lab_json_arr_open(j, "events");
	for (unsigned e = 0; e < lab_ctr_nevents(); e++) {
		const struct lab_ctr_avail *a = &info->av[e];
		if (!(info->requested >> e & 1))
			continue;
		lab_json_obj_open(j, NULL);
		lab_json_str(j, "name", lab_ctr_event_name(e));
		lab_json_str(j, "column", lab_ctr_event_column(e));
		lab_json_str(j, "status", lab_ctr_status_name(a->st));
		lab_json_str(j, "reason", a->reason);
		lab_json_int(j, "errno", a->err);
		lab_json_str(j, "source", a->source[0] ? a->source : "perf");
		if (a->st == LAB_CTR_ST_OK && !lab_ctr_event_is_sw(e))
			lab_json_uint(j, "pass", a->pass);
		else
			lab_json_null(j, "pass");
		lab_json_obj_close(j);
	}
	lab_json_arr_close(j);
	lab_json_obj_open(j, "warnings");
	lab_json_uint(j, "samples_with_context_switches", info->cs_samples);
	lab_json_uint(j, "samples_with_migrations", info->mig_samples);
	lab_json_uint(j, "thread_samples_multiplexed", info->mux_samples);
	lab_json_obj_close(j);
	lab_json_obj_close(j);
}

void lab_ctr_event_json(struct lab_json *j, unsigned ev, uint64_t id, uint64_t raw)
{
	struct perf_event_attr attr;
	char config[32];

	lab_ctr_event_attr(ev, &attr);
	snprintf(config, sizeof(config), "0x%llx", (unsigned long long)attr.config);
	lab_json_obj_open(j, NULL);
	lab_json_str(j, "name", lab_ctr_event_name(ev));
	lab_json_uint(j, "type", attr.type);
	lab_json_str(j, "config", config);
	lab_json_uint(j, "id", id);
	if (raw == UINT64_MAX)
		lab_json_null(j, "raw");
	else
		lab_json_uint(j, "raw", raw);
	lab_json_obj_close(j);
}
