/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Counters without a PMU: the hardware paths through a fake syscall layer (ENOENT, EACCES,
 * EINVAL on the fifth member, multiplexed reads, running = 0), the pure parts (scaling, read
 * parsing, the events parser, method selection) and the sysfs probe on a fixture tree.
 */
#include <errno.h>
#include <math.h>
#include <sys/stat.h>

#include "harness/counters.h"
#include "tests/testlib.h"

#define FAKE_FDS 256

/* A fake kernel: hands out fds, fails opens as told, answers group reads. */
struct fake {
	int fail_errno;     /* every hardware open fails with it (0: none) */
	bool fail_sw;       /* ... software ones too */
	bool eacces_kernel; /* EACCES for exclude_kernel = 0 */
	unsigned max_group; /* EINVAL when a group already holds this many (0: no limit) */
	uint64_t enabled, running;
	int next;
	int leader[FAKE_FDS]; /* -1: is a leader */
	uint64_t config[FAKE_FDS];
	unsigned members[FAKE_FDS];
	unsigned open_fds;
};

static struct fake *fake_of(void *ctx)
{
	return ctx;
}

static int fake_open(void *ctx, struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
                     unsigned long flags)
{
	struct fake *f = fake_of(ctx);

	(void)pid, (void)cpu, (void)flags;
	if (f->eacces_kernel && !attr->exclude_kernel)
		return -EACCES;
	if (f->fail_errno && (attr->type != PERF_TYPE_SOFTWARE || f->fail_sw))
		return -f->fail_errno;
	if (group_fd >= 0 && f->max_group && f->members[group_fd] + 1 >= f->max_group)
		return -EINVAL;
	int fd = f->next++;
	f->leader[fd] = group_fd;
	f->config[fd] = attr->config;
	f->members[fd] = 0;
	if (group_fd >= 0)
		f->members[group_fd]++;
	f->open_fds++;
	return fd;
}

static int fake_ioctl(void *ctx, int fd, unsigned long req, unsigned long arg)
{
	(void)ctx;
	if (req == PERF_EVENT_IOC_ID)
		*(uint64_t *)arg = 1000u + (unsigned)fd;
	return 0;
}

/* The group of leader fd: value of each member = 100 * (its config + 1), ids 1000 + fd. */
static ssize_t fake_read(void *ctx, int fd, void *buf, size_t len)
{
	struct fake *f = fake_of(ctx);
	uint64_t *w = buf;
	unsigned nr = 0;

	w[1] = f->enabled;
	w[2] = f->running;
	for (int m = 3; m < f->next; m++)
		if (m == fd || f->leader[m] == fd) {
			if ((3 + 2 * (nr + 1)) * sizeof(uint64_t) > len)
				return -ENOSPC;
			w[3 + 2 * nr] = 100 * (f->config[m] + 1);
			w[4 + 2 * nr] = 1000u + (unsigned)m;
			nr++;
		}
	w[0] = nr;
	return (ssize_t)((3 + 2 * nr) * sizeof(uint64_t));
}

static int fake_close(void *ctx, int fd)
{
	(void)fd;
	fake_of(ctx)->open_fds--;
	return 0;
}

static void fake_init(struct fake *f, struct lab_pe_ops *ops)
{
	memset(f, 0, sizeof(*f));
	f->next = 3;
	f->enabled = f->running = 1000000;
	*ops = (struct lab_pe_ops){fake_open, fake_ioctl, fake_read, fake_close, f};
}

static struct lab_ctr_host fake_host(enum lab_ctr_method m)
{
	struct lab_ctr_host h;

	memset(&h, 0, sizeof(h));
	snprintf(h.vendor, sizeof(h.vendor), "GenuineIntel");
	h.paranoid = 2;
	h.privileged = true;
	h.method = m;
	h.method_reason = m == LAB_TMA_NONE ? "no method in this test" : "";
	return h;
}

static unsigned ev(const char *name)
{
	int e = lab_ctr_event_find(name);

	if (e < 0) {
		fprintf(stderr, "no event %s\n", name);
		abort();
	}
	return (unsigned)e;
}

/* One recorded sample on worker 0; returns its values. */
static void fake_sample(struct lab_ctr_point *cp, unsigned rep, double *vals, double *mux)
{
	lab_ctr_select_pass(cp, rep, true);
	lab_ctr_sample_start(cp, 0);
	lab_ctr_sample_stop(cp, 0, 0, 0);
	lab_ctr_thread_values(cp, 0, vals, mux);
	lab_ctr_sample_done(cp, 1);
}

LAB_TEST(ctr_enoent_marks_hardware_unsupported)
{
	struct fake f;
	struct lab_pe_ops ops;
	struct lab_ctr_host h = fake_host(LAB_TMA_NONE);
	struct lab_ctr_point *cp;
	struct lab_ctr_info info;
	struct lab_err err;
	double vals[LAB_CTR_EVENTS_MAX], mux;

	fake_init(&f, &ops);
	f.fail_errno = ENOENT;
	REQUIRE(lab_ctr_point_begin(&cp, LAB_CTR_AUTO, "sw ipc", &h, &ops, 1, &err) == 0);
	lab_ctr_thread_open(cp, 0);
	fake_sample(cp, 0, vals, &mux);
	CHECK(isnan(vals[ev("cycles")]));
	CHECK(!isnan(vals[ev("task-clock")]));
	REQUIRE(lab_ctr_point_end(cp, &info, &err) == 0);
	CHECK_EQ_U64(f.open_fds, 0);
	CHECK_EQ_STR(lab_ctr_status_name(info.av[ev("cycles")].st), "unsupported");
	CHECK_EQ_I64(info.av[ev("instructions")].err, ENOENT);
	CHECK(strstr(info.av[ev("cycles")].reason, "ENOENT") != NULL);
	CHECK_EQ_STR(lab_ctr_status_name(info.av[ev("task-clock")].st), "ok");
}

LAB_TEST(ctr_require_fails_with_the_reason)
{
	struct fake f;
	struct lab_pe_ops ops;
	struct lab_ctr_host h = fake_host(LAB_TMA_NONE);
	struct lab_ctr_point *cp = (void *)1;
	struct lab_err err;

	fake_init(&f, &ops);
	f.fail_errno = ENOENT;
	CHECK_EQ_I64(lab_ctr_point_begin(&cp, LAB_CTR_REQUIRE, "sw ipc", &h, &ops, 1, &err),
	             -LAB_EUNSUP);
	CHECK(cp == NULL);
	CHECK(strstr(err.msg, "counters = require: cycles: unsupported: ENOENT") != NULL);
	CHECK_EQ_U64(f.open_fds, 0);
	/* topdown on a CPU without a method: the method's reason. */
	fake_init(&f, &ops);
	CHECK_EQ_I64(lab_ctr_point_begin(&cp, LAB_CTR_REQUIRE, "topdown", &h, &ops, 1, &err),
	             -LAB_EUNSUP);
	CHECK(strstr(err.msg, "no method in this test") != NULL);
	/* Software events are there: require passes. */
	REQUIRE(lab_ctr_point_begin(&cp, LAB_CTR_REQUIRE, "sw", &h, &ops, 1, &err) == 0);
	CHECK(lab_ctr_point_end(cp, NULL, NULL) == 0);
}

LAB_TEST(ctr_eacces_is_permission)
{
	struct fake f;
	struct lab_pe_ops ops;
	struct lab_ctr_host h = fake_host(LAB_TMA_NONE);
	struct lab_ctr_point *cp;
	struct lab_ctr_info info;
	struct lab_err err;

	fake_init(&f, &ops);
	f.fail_errno = EACCES;
	f.fail_sw = true;
	REQUIRE(lab_ctr_point_begin(&cp, LAB_CTR_AUTO, "sw ipc", &h, &ops, 1, &err) == 0);
	REQUIRE(lab_ctr_point_end(cp, &info, &err) == 0);
	CHECK_EQ_STR(lab_ctr_status_name(info.av[ev("cycles")].st), "permission");
	CHECK(strstr(info.av[ev("cycles")].reason, "perf_event_paranoid=2") != NULL);
	CHECK_EQ_STR(lab_ctr_status_name(info.av[ev("task-clock")].st), "permission");
}

LAB_TEST(ctr_emfile_names_the_limit)
{
	struct fake f;
	struct lab_pe_ops ops;
	struct lab_ctr_host h = fake_host(LAB_TMA_NONE);
	struct lab_ctr_point *cp;
	struct lab_ctr_info info;
	struct lab_err err;

	fake_init(&f, &ops);
	f.fail_errno = EMFILE;
	REQUIRE(lab_ctr_point_begin(&cp, LAB_CTR_AUTO, "ipc", &h, &ops, 1, &err) == 0);
	REQUIRE(lab_ctr_point_end(cp, &info, &err) == 0);
	CHECK_EQ_STR(lab_ctr_status_name(info.av[ev("cycles")].st), "error");
	CHECK(strstr(info.av[ev("cycles")].reason, "ulimit -n") != NULL);
}

/* Kernel-side software counting refused: user-only, switches and migrations from the OS. */
LAB_TEST(ctr_eacces_kernel_falls_back_to_user_only)
{
	struct fake f;
	struct lab_pe_ops ops;
	struct lab_ctr_host h = fake_host(LAB_TMA_NONE);
	struct lab_ctr_point *cp;
	struct lab_ctr_info info;
	struct lab_err err;
	double vals[LAB_CTR_EVENTS_MAX], mux;

	fake_init(&f, &ops);
	f.eacces_kernel = true;
	REQUIRE(lab_ctr_point_begin(&cp, LAB_CTR_AUTO, "sw", &h, &ops, 1, &err) == 0);
	lab_ctr_thread_open(cp, 0);
	fake_sample(cp, 0, vals, &mux);
	CHECK(vals[ev("cpu-migrations")] == 0);
	CHECK(vals[ev("context-switches")] >= 0);
	REQUIRE(lab_ctr_point_end(cp, &info, &err) == 0);
	CHECK(info.exclude_kernel_sw);
	CHECK_EQ_STR(info.av[ev("context-switches")].source, "getrusage");
	CHECK_EQ_STR(info.av[ev("cpu-migrations")].source, "sched_getcpu");
	CHECK_EQ_STR(lab_ctr_status_name(info.av[ev("page-faults")].st), "ok");
}

/* EINVAL on the fifth member: the group keeps four, the rest go to a new pass. */
LAB_TEST(ctr_einval_on_fifth_member_splits_the_group)
{
	struct fake f;
	struct lab_pe_ops ops;
	struct lab_ctr_host h = fake_host(LAB_TMA_INTEL_4WIDE);
	struct lab_ctr_point *cp;
	struct lab_ctr_info info;
	struct lab_err err;
	double vals[LAB_CTR_EVENTS_MAX], mux;
	unsigned clk = ev("cpu_clk_unhalted.thread"), rec = ev("int_misc.recovery_cycles");

	fake_init(&f, &ops);
	f.max_group = 4;
	REQUIRE(lab_ctr_point_begin(&cp, LAB_CTR_REQUIRE, "topdown", &h, &ops, 1, &err) == 0);
	lab_ctr_thread_open(cp, 0);
	for (unsigned rep = 0; rep < 4; rep++)
		fake_sample(cp, rep, vals, &mux);
	REQUIRE(lab_ctr_point_end(cp, &info, &err) == 0);
	CHECK_EQ_U64(info.npasses, 4); /* tma_l1: 4 + 1, tma_l2: 4 + 1 */
	CHECK_EQ_STR(lab_ctr_status_name(info.av[rec].st), "ok");
	CHECK(info.av[rec].pass != info.av[clk].pass);
	CHECK_EQ_U64(f.open_fds, 0);
}

LAB_TEST(ctr_multiplexed_values_are_scaled_and_flagged)
{
	struct fake f;
	struct lab_pe_ops ops;
	struct lab_ctr_host h = fake_host(LAB_TMA_NONE);
	struct lab_ctr_point *cp;
	struct lab_ctr_info info;
	struct lab_err err;
	double vals[LAB_CTR_EVENTS_MAX], mux;

	fake_init(&f, &ops);
	f.enabled = 2000000;
	f.running = 500000;
	REQUIRE(lab_ctr_point_begin(&cp, LAB_CTR_AUTO, "ipc", &h, &ops, 1, &err) == 0);
	lab_ctr_thread_open(cp, 0);
	fake_sample(cp, 0, vals, &mux);
	/* cycles is config 0: raw 100, scaled x4; instructions config 1: raw 200. */
	CHECK_NEAR(vals[ev("cycles")], 400, 1e-9);
	CHECK_NEAR(vals[ev("instructions")], 800, 1e-9);
	CHECK_NEAR(mux, 0.25, 1e-12);
	REQUIRE(lab_ctr_point_end(cp, &info, &err) == 0);
	CHECK_EQ_U64(info.mux_samples, 1);
}

LAB_TEST(ctr_running_zero_is_not_counted)
{
	struct fake f;
	struct lab_pe_ops ops;
	struct lab_ctr_host h = fake_host(LAB_TMA_NONE);
	struct lab_ctr_point *cp;
	struct lab_ctr_info info;
	struct lab_err err;
	double vals[LAB_CTR_EVENTS_MAX], mux;

	fake_init(&f, &ops);
	f.running = 0;
	REQUIRE(lab_ctr_point_begin(&cp, LAB_CTR_REQUIRE, "ipc", &h, &ops, 1, &err) == 0);
	lab_ctr_thread_open(cp, 0);
	fake_sample(cp, 0, vals, &mux);
	CHECK(isnan(vals[ev("cycles")]));
	CHECK_EQ_I64(lab_ctr_point_end(cp, &info, &err), -LAB_EUNSUP);
	CHECK(strstr(err.msg, "cycles: not counted") != NULL);
	CHECK_EQ_STR(lab_ctr_status_name(info.av[ev("cycles")].st), "not_counted");
}

/* research/counters.md 7.4, the scaling row. */
LAB_TEST(ctr_scale_fixture)
{
	double ratio;

	CHECK_NEAR(lab_ctr_scale(1000, 2000000, 500000, &ratio), 4000, 1e-9);
	CHECK_NEAR(ratio, 0.25, 1e-12);
	CHECK(isnan(lab_ctr_scale(1000, 2000000, 0, &ratio)));
	CHECK_NEAR(ratio, 0, 0);
	/* No overflow where raw x enabled passes 2^64. */
	CHECK_NEAR(lab_ctr_scale(UINT64_C(1) << 40, UINT64_C(1) << 40, UINT64_C(1) << 39, &ratio),
	           (double)(UINT64_C(1) << 41), 1);
}

LAB_TEST(ctr_parse_read_maps_by_id)
{
	uint64_t buf[] = {2, 50, 40, 7, 900, 9, 800};
	uint64_t ids[] = {800, 900, 1}, vals[3], en, run;

	REQUIRE(lab_ctr_parse_read(buf, sizeof(buf), ids, 3, vals, &en, &run) == 0);
	CHECK_EQ_U64(vals[0], 9);
	CHECK_EQ_U64(vals[1], 7);
	CHECK_EQ_U64(vals[2], UINT64_MAX);
	CHECK_EQ_U64(en, 50);
	CHECK_EQ_U64(run, 40);
	CHECK_EQ_I64(lab_ctr_parse_read(buf, 16, ids, 3, vals, &en, &run), -LAB_EIO);
	CHECK_EQ_I64(lab_ctr_parse_read(buf, 5 * 8, ids, 3, vals, &en, &run), -LAB_EIO);
}

LAB_TEST(ctr_events_parser)
{
	struct lab_ctr_req r;
	struct lab_err err;

	REQUIRE(lab_ctr_req_parse("sw ipc+cache  branch-misses", &r, &err) == 0);
	CHECK_EQ_U64(r.presets, LAB_CTR_P_SW | LAB_CTR_P_IPC | LAB_CTR_P_CACHE);
	CHECK_EQ_U64(r.events, UINT64_C(1) << ev("branch-misses"));
	CHECK_EQ_I64(lab_ctr_req_parse("ipc cylces", &r, &err), -LAB_ECONFIG);
	CHECK(strstr(err.msg, "unknown event 'cylces' (allowed: presets") != NULL);
	CHECK_EQ_I64(lab_ctr_req_parse("amd64_fam19h_zen4::RETIRED_OPS", &r, &err), -LAB_ECONFIG);
	CHECK(strstr(err.msg, "libpfm4 not built in") != NULL);
	CHECK_EQ_I64(lab_ctr_req_parse("  ", &r, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(lab_ctr_event_column(ev("L1-dcache-load-misses")),
	             "ctr_l1_dcache_load_misses");
}

LAB_TEST(ctr_method_selection)
{
	const char *why;

	CHECK_EQ_I64(lab_ctr_method_select("GenuineIntel", 6, 0x55, false, false, &why),
	             LAB_TMA_INTEL_4WIDE);
	CHECK_EQ_I64(lab_ctr_method_select("GenuineIntel", 6, 0x6a, true, false, &why),
	             LAB_TMA_INTEL_PERF_METRICS);
	CHECK_EQ_I64(lab_ctr_method_select("GenuineIntel", 6, 0x8f, true, true, &why),
	             LAB_TMA_INTEL_PERF_METRICS2);
	CHECK_EQ_I64(lab_ctr_method_select("AuthenticAMD", 0x19, 0x11, false, false, &why),
	             LAB_TMA_AMD_ZEN4);
	CHECK_EQ_I64(lab_ctr_method_select("AuthenticAMD", 0x1a, 0x02, false, false, &why),
	             LAB_TMA_AMD_ZEN5);
	CHECK_EQ_I64(lab_ctr_method_select("AuthenticAMD", 0x19, 0x01, false, false, &why),
	             LAB_TMA_NONE);
	CHECK(strstr(why, "Zen 3") != NULL);
	/* what CPUID reads, not what the CPU is: KVM shows model 0x01 on a Zen 5 host (probes42) */
	CHECK(strstr(why, "CPUID reads") != NULL && strstr(why, "virtual machine") != NULL);
	CHECK_EQ_I64(lab_ctr_method_select("GenuineIntel", 6, 0xa7, false, false, &why),
	             LAB_TMA_NONE);
	CHECK(why[0] != '\0');
	CHECK_EQ_I64(lab_ctr_method_select("HygonGenuine", 0x18, 0, false, false, &why),
	             LAB_TMA_NONE);
	CHECK(strstr(why, "Hygon") != NULL);
	/* red team (an Intel guest): the Skylake client cores are 4-wide as Skylake-SP is */
	CHECK_EQ_I64(lab_ctr_method_select("GenuineIntel", 6, 0x5e, false, false, &why),
	             LAB_TMA_INTEL_4WIDE);
	CHECK_EQ_I64(lab_ctr_method_select("GenuineIntel", 6, 0x9e, false, false, &why),
	             LAB_TMA_INTEL_4WIDE);
	CHECK_EQ_I64(lab_ctr_method_select("GenuineIntel", 6, 0x3c, false, false, &why),
	             LAB_TMA_NONE); /* Haswell */
}

static void touch(const char *dir, const char *rel)
{
	char path[700], *slash;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (slash = strchr(path + strlen(dir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0777);
		*slash = '/';
	}
	FILE *f = fopen(path, "w");
	if (f)
		fclose(f);
}

/* A sysfs fixture of a perf-metrics Intel machine: the core PMU and its topdown aliases. */
LAB_TEST(ctr_host_probe_on_fixture)
{
	const char *root = testlib_tmpdir();
	struct lab_ctr_host h;

	touch(root, "bus/event_source/devices/software/type");
	touch(root, "bus/event_source/devices/cpu/events/topdown-fe-bound");
	touch(root, "bus/event_source/devices/cpu/events/topdown-mem-bound");
	lab_ctr_host_probe(&h, root);
	CHECK(h.cpu_pmu);
	CHECK(h.topdown_fe);
	CHECK(h.topdown_mem);
	CHECK_EQ_STR(h.pmus, "cpu software");
	lab_ctr_host_probe(&h, "/nonexistent");
	CHECK(!h.cpu_pmu);
	CHECK_EQ_STR(h.pmus, "");
}
