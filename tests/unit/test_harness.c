/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The harness's small parts: load guard, JSON writer, CSV fields, team, clock, errors. */
#include <math.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/clock.h"
#include "harness/err.h"
#include "harness/json.h"
#include "harness/load.h"
#include "harness/results.h"
#include "harness/team.h"
#include "harness/topo.h"
#include "tests/testlib.h"

static const char load_stat_a[] = "cpu  1000 0 500 8000 10 0 0 0 0 0\n"
                                  "cpu0 500 0 250 4000 5 0 0 0 0 0\n"
                                  "cpu1 500 0 250 4000 5 0 0 0 0 0\n"
                                  "intr 0\n";

LAB_TEST(load_parse_stat)
{
	uint64_t busy, total;
	unsigned ncpus;

	CHECK_EQ_I64(lab_load_parse_stat(load_stat_a, &busy, &total, &ncpus), 0);
	CHECK_EQ_U64(busy, 1500);
	CHECK_EQ_U64(total, 9510);
	CHECK_EQ_U64(ncpus, 2);
	/* Steal counts as busy: on a VM it is the host running someone else on our vCPU. */
	CHECK_EQ_I64(lab_load_parse_stat("cpu  1 2 3 4 5 6 7 8\n", &busy, &total, &ncpus), 0);
	CHECK_EQ_U64(busy, 1 + 2 + 3 + 6 + 7 + 8);
	CHECK_EQ_I64(lab_load_parse_stat("intr 5\n", &busy, &total, &ncpus), -LAB_EIO);
	CHECK_EQ_I64(lab_load_parse_stat("cpu  1 2\n", &busy, &total, &ncpus), -LAB_EIO);
}

/* schedstat: "cpu_time run_delay timeslices"; the second field is the run-queue wait. */
LAB_TEST(runq_parse_and_read)
{
	uint64_t ns = 0, again = 0;
	int fd;

	CHECK_EQ_I64(lab_runq_parse("123456 7890 42\n", &ns), 0);
	CHECK_EQ_U64(ns, 7890);
	CHECK_EQ_I64(lab_runq_parse("123456\n", &ns), -LAB_EIO);
	CHECK_EQ_I64(lab_runq_parse("x 1 2\n", &ns), -LAB_EIO);
	CHECK_EQ_I64(lab_runq_parse("", &ns), -LAB_EIO);
	CHECK_EQ_I64(lab_runq_read(-1, &ns), -LAB_EIO);
	/* This machine's own file, where the kernel has one: readable twice through one fd, and
	 * the total never goes back. */
	fd = lab_runq_open();
	if (fd < 0)
		SKIP("no /proc/thread-self/schedstat (kernel without CONFIG_SCHED_INFO): the read "
		     "half is not exercised");
	CHECK_EQ_I64(lab_runq_read(fd, &ns), 0);
	CHECK_EQ_I64(lab_runq_read(fd, &again), 0);
	CHECK(again >= ns);
	close(fd);
}

/* An injected clock, stat text and own CPU time: the guard's arithmetic, to the nanosecond. */
struct load_fake {
	uint64_t wall_ns, self_ns;
	unsigned long long busy_ticks;
	bool unreadable;
};

static int load_fake_stat(void *ctx, const char *path, char *buf, size_t cap)
{
	const struct load_fake *f = ctx;

	(void)path;
	if (f->unreadable)
		return -1;
	snprintf(buf, cap,
	         "cpu  %llu 0 0 100000 0 0 0 0 0 0\ncpu0 1 0 0 1 0 0 0 0\ncpu1 1 0 0 1 0 0 0 0\n",
	         f->busy_ticks);
	return 0;
}

static uint64_t load_fake_wall(void *ctx)
{
	return ((const struct load_fake *)ctx)->wall_ns;
}

static uint64_t load_fake_self(void *ctx)
{
	return ((const struct load_fake *)ctx)->self_ns;
}

static void load_fake_init(struct lab_load *g, struct load_fake *f)
{
	memset(f, 0, sizeof(*f));
	lab_load_init(g, "fake/stat");
	g->src = (struct lab_load_src){load_fake_stat, load_fake_wall, load_fake_self, f};
	g->tick_ns = 1e7; /* 100 Hz, whatever this machine's _SC_CLK_TCK */
}

/* Forgets g's snapshots (the runner keeps one history for the whole run). */
static void load_forget(struct lab_load *g)
{
	g->n = 0;
	g->head = 0;
}

/* Takes a snapshot at wall time ms with busy_ticks and own CPU time self_ms. */
static int load_at(struct lab_load *g, struct load_fake *f, unsigned ms, unsigned long long ticks,
                   unsigned self_ms)
{
	struct lab_err err;

	f->wall_ns = ms * 1000000ull;
	f->busy_ticks = ticks;
	f->self_ns = self_ms * 1000000ull;
	return lab_load_snap(g, &err);
}

/* 2 vCPUs of others' busy time per second of wall time read as 2 foreign vCPUs; ours is not. */
LAB_TEST(load_guard_foreign_from_injected_sources)
{
	struct lab_load g;
	struct load_fake f;

	load_fake_init(&g, &f);
	CHECK(isnan(lab_load_foreign(&g)));
	REQUIRE(load_at(&g, &f, 0, 0, 0) == 0);
	CHECK(isnan(lab_load_foreign(&g)));
	REQUIRE(load_at(&g, &f, 250, 50, 0) == 0); /* 0.5 s busy in 0.25 s */
	CHECK_NEAR(lab_load_foreign(&g), 2.0, 1e-12);
	CHECK_EQ_U64(g.ncpus, 2);
	/* Our own CPU time is subtracted: 0.3 s busy of which 0.15 s ours, over 0.3 s. */
	load_forget(&g);
	CHECK(isnan(lab_load_foreign(&g)));
	REQUIRE(load_at(&g, &f, 1000, 100, 0) == 0);
	REQUIRE(load_at(&g, &f, 1300, 130, 150) == 0);
	CHECK_NEAR(lab_load_foreign(&g), 0.5, 1e-12);
}

/* A short window is widened back over earlier snapshots to LAB_LOAD_WINDOW_NS (200 ms). */
LAB_TEST(load_guard_window_widens)
{
	struct lab_load g;
	struct load_fake f;

	load_fake_init(&g, &f);
	REQUIRE(load_at(&g, &f, 0, 0, 0) == 0);
	REQUIRE(load_at(&g, &f, 100, 5, 0) == 0);
	/* Less than 200 ms kept: everything, 0.05 s busy over 0.1 s. */
	CHECK_NEAR(lab_load_foreign(&g), 0.5, 1e-12);
	REQUIRE(load_at(&g, &f, 150, 10, 0) == 0);
	REQUIRE(load_at(&g, &f, 250, 20, 0) == 0);
	/* Newest back to the first snapshot at least 200 ms older (t = 0), not the last (t = 150):
	 * 0.2 s over 0.25 s, where the last 100 ms alone would say 1.0. */
	CHECK_NEAR(lab_load_foreign(&g), 0.8, 1e-12);
	/* The ring keeps LAB_LOAD_HISTORY snapshots; older ones are forgotten. */
	for (unsigned i = 0; i < 2 * LAB_LOAD_HISTORY; i++)
		REQUIRE(load_at(&g, &f, 300 + i, 20, 0) == 0);
	CHECK_EQ_U64(g.n, LAB_LOAD_HISTORY);
	CHECK_NEAR(lab_load_foreign(&g), 0.0, 1e-12);
}

/* Readings are clamped to [0, CPUs]; no wall time between snapshots is no reading. */
LAB_TEST(load_guard_clamps_and_no_wall_time)
{
	struct lab_load g;
	struct load_fake f;
	struct lab_err err;

	load_fake_init(&g, &f);
	REQUIRE(load_at(&g, &f, 0, 0, 0) == 0);
	REQUIRE(load_at(&g, &f, 300, 300, 0) == 0); /* 3 s busy in 0.3 s on 2 CPUs */
	CHECK_NEAR(lab_load_foreign(&g), 2.0, 1e-12);
	load_forget(&g);
	REQUIRE(load_at(&g, &f, 1000, 300, 0) == 0);
	REQUIRE(load_at(&g, &f, 1300, 310, 200) == 0); /* tick rounding: ours > machine's */
	CHECK_NEAR(lab_load_foreign(&g), 0.0, 1e-12);
	load_forget(&g);
	REQUIRE(load_at(&g, &f, 2000, 310, 0) == 0);
	REQUIRE(load_at(&g, &f, 2000, 320, 0) == 0);
	CHECK(isnan(lab_load_foreign(&g)));
	/* An unreadable source: -LAB_EIO naming the file, and nothing recorded. */
	f.unreadable = true;
	CHECK_EQ_I64(lab_load_snap(&g, &err), -LAB_EIO);
	CHECK(strstr(err.msg, "fake/stat") != NULL);
	CHECK_EQ_U64(g.n, 2);
}

/* The machine's own sources: /proc/stat parses, and a missing file is -LAB_EIO. */
LAB_TEST(load_guard_system_source)
{
	struct lab_load g;
	struct lab_err err;

	lab_load_init(&g, NULL);
	CHECK(g.src.read_stat == lab_load_src_sys.read_stat);
	CHECK(g.tick_ns > 0);
	if (access("/proc/stat", R_OK) == 0) {
		CHECK_EQ_I64(lab_load_snap(&g, &err), 0);
		CHECK(g.ncpus >= 1);
	} else {
		SKIP_PART("no readable /proc/stat: the real read is not exercised");
	}
	g.stat_path = "/nonexistent/stat";
	CHECK_EQ_I64(lab_load_snap(&g, &err), -LAB_EIO);
}

LAB_TEST(json_writer)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct lab_json j;

	lab_json_begin(&j, f);
	lab_json_obj_open(&j, NULL);
	lab_json_str(&j, "s", "a\"b\\c\n\x01");
	lab_json_num(&j, "nan", NAN);
	lab_json_num(&j, "x", 0.1);
	lab_json_int(&j, "i", -3);
	lab_json_arr_open(&j, "empty");
	lab_json_arr_close(&j);
	lab_json_arr_open(&j, "a");
	lab_json_bool(&j, NULL, true);
	lab_json_null(&j, NULL);
	lab_json_arr_close(&j);
	lab_json_obj_close(&j);
	CHECK_EQ_I64(lab_json_end(&j), 0);
	fclose(f);
	CHECK_EQ_STR(buf,
	             "{\n  \"s\": \"a\\\"b\\\\c\\n\\u0001\",\n  \"nan\": null,\n  \"x\": 0.1,\n"
	             "  \"i\": -3,\n  \"empty\": [],\n  \"a\": [\n    true,\n    null\n  ]\n}\n");
	free(buf);
}

LAB_TEST(csv_field_quoting)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	lab_csv_field(f, "plain");
	fputc('|', f);
	lab_csv_field(f, "a=1;b=2");
	fputc('|', f);
	lab_csv_field(f, "list:0,2 \"x\"");
	fclose(f);
	CHECK_EQ_STR(buf, "plain|\"a=1;b=2\"|\"list:0,2 \"\"x\"\"\"");
	free(buf);
}

struct team_probe {
	struct lab_team *team;
	atomic_uint arrived;
	atomic_uint after;
	int cpu[2];
};

static void team_probe_fn(void *arg, unsigned tid)
{
	struct team_probe *p = arg;

	atomic_fetch_add(&p->arrived, 1);
	lab_team_sync(p->team);
	/* Past the barrier every worker must have arrived. */
	if (atomic_load(&p->arrived) == 2)
		atomic_fetch_add(&p->after, 1);
	p->cpu[tid] = sched_getcpu();
}

LAB_TEST(team_runs_pinned_and_syncs)
{
	struct team_probe p = {0};
	struct lab_topo *topo;
	struct lab_err err;
	int cpus[2];

	REQUIRE(lab_topo_open(&topo, NULL, &err) == 0);
	if (lab_topo_cpus_allowed(topo, cpus, 2) < 2)
		cpus[1] = cpus[0];
	REQUIRE(lab_team_create(&p.team, topo, cpus, 2, true, &err) == 0);
	for (int round = 0; round < 50; round++) {
		atomic_store(&p.arrived, 0);
		atomic_store(&p.after, 0);
		lab_team_run(p.team, team_probe_fn, &p);
		CHECK_EQ_U64(atomic_load(&p.after), 2);
		CHECK_EQ_I64(p.cpu[0], cpus[0]);
		CHECK_EQ_I64(p.cpu[1], cpus[1]);
	}
	lab_team_destroy(p.team);
	lab_topo_close(topo);
}

LAB_TEST(team_bind_refused_elsewhere)
{
	struct lab_topo *topo;
	struct lab_team *team = NULL;
	struct lab_err err = {0};
	int cpus[1] = {5};

	REQUIRE(lab_topo_open(&topo, "synthetic:pack:2 core:4 pu:1", &err) == 0);
	CHECK(lab_team_create(&team, topo, cpus, 1, true, &err) < 0);
	CHECK(team == NULL);
	CHECK(strstr(err.msg, "bind thread 0 to cpu 5") != NULL);
	lab_topo_close(topo);
}

LAB_TEST(clock_facts)
{
	CHECK(lab_clock_resolution_ns() > 0);
	CHECK(lab_clock_read_cost_ns() > 0);
	/* The spin's contract (it returns once at least that long has passed), a lower bound no
	 * load can break: not a timing assertion. */
	uint64_t spent = lab_clock_spin_ns(100000);
	CHECK(spent >= 100000);
}

LAB_TEST(err_set_and_prefix)
{
	struct lab_err err;

	CHECK_EQ_I64(lab_err_set(&err, LAB_EIO, "read %s", "x"), -LAB_EIO);
	CHECK_EQ_I64(lab_err_prefix(&err, "load %d: ", 3), -LAB_EIO);
	CHECK_EQ_STR(err.msg, "load 3: read x");
}
