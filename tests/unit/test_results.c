/* SPDX-License-Identifier: GPL-3.0-or-later */
/* harness/results.c: claiming the output directory, what a failure to open leaves, and what
 * run.json says of a point an interrupted run cut short. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/plan.h"
#include "harness/prov.h"
#include "harness/results.h"
#include "harness/topo.h"
#include "tests/testlib.h"

/* What lab_results_open needs: an empty plan and the facts run.json records. */
struct tr {
	struct lab_plan plan;
	struct lab_cfg cfg;
	struct lab_topo *topo;
	struct lab_prov prov;
	struct lab_results_info info;
};

static int tr_init(struct tr *t)
{
	struct lab_err err;
	static char a0[] = "lab", a1[] = "run", text[] = "[n]\nkernel = noop\n";
	static char *argv[] = {a0, a1, NULL};

	memset(t, 0, sizeof(*t));
	t->cfg.text = text;
	if (lab_topo_open(&t->topo, "synthetic:pack:1 core:2 pu:1", &err) != 0)
		return -1;
	lab_prov_collect(&t->prov);
	t->info = (struct lab_results_info){
	    .argc = 2, .argv = argv, .cfg = &t->cfg, .topo = t->topo, .prov = &t->prov};
	snprintf(t->info.started_utc, sizeof(t->info.started_utc), "2026-12-01T00:00:00Z");
	return 0;
}

/* Entries of dir other than "." and ".."; -1 when it cannot be read. */
static int tr_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

/*
 * Runs that start together on one directory: each child opens the results once the parent lets
 * them all go, keeps them open until every child has tried, and exits 0 when its open
 * succeeded. Returns how many succeeded, or -1.
 */
static int tr_race(struct tr *t, const char *dir, int nchild)
{
	int go[2], done[2], ok = 0;
	pid_t pid[16];

	if (nchild > 16 || pipe(go) != 0)
		return -1;
	if (pipe(done) != 0)
		return -1;
	for (int i = 0; i < nchild; i++) {
		pid[i] = fork();
		if (pid[i] < 0)
			return -1;
		if (pid[i] == 0) {
			struct lab_results *res = NULL;
			struct lab_err err;
			char c;
			close(go[1]);
			close(done[1]);
			(void)!read(go[0], &c, 1); /* EOF: the parent closed it, all start now */
			int rc = lab_results_open(&res, dir, &t->plan, &t->info, &err);
			(void)!read(done[0], &c, 1); /* hold the directory until all have tried */
			if (rc == 0)
				lab_results_close(res, "complete", NULL, &err);
			_exit(rc == 0 ? 0 : 2);
		}
	}
	close(go[0]);
	close(done[0]);
	usleep(20000);
	close(go[1]); /* every child's read returns at once */
	usleep(50000);
	close(done[1]);
	for (int i = 0; i < nchild; i++) {
		int st;
		if (waitpid(pid[i], &st, 0) != pid[i] || !WIFEXITED(st))
			return -1;
		ok += WEXITSTATUS(st) == 0;
	}
	return ok;
}

/*
 * Two runs given the same new or empty directory: exactly one gets it, every time (a check for
 * emptiness without O_EXCL let several through and one run's samples were lost).
 */
LAB_TEST(results_dir_claimed_by_one_run)
{
	struct tr t;
	char dir[4096];
	int races = 0;

	REQUIRE(tr_init(&t) == 0);
	for (int round = 0; round < 60; round++) {
		snprintf(dir, sizeof(dir), "%s/r%d", testlib_tmpdir(), round);
		/* Half the rounds into a directory that exists and is empty. */
		if (round % 2)
			REQUIRE(mkdir(dir, 0777) == 0);
		int ok = tr_race(&t, dir, 4);
		REQUIRE(ok >= 0);
		if (ok != 1)
			TL__FAIL("round %d: %d of 4 runs got %s (want exactly 1)", round, ok, dir);
		races += ok != 1;
		if (races > 3)
			break;
	}
	lab_topo_close(t.topo);
}

/* The claim is a lock file: while it exists another run is refused with one line; after
 * lab_results_close it is gone and the directory holds the result files only. */
LAB_TEST(results_dir_lock_refuses_and_is_released)
{
	struct tr t;
	struct lab_results *res = NULL, *other = NULL;
	struct lab_err err = {0};
	char dir[4096], lock[4200];

	REQUIRE(tr_init(&t) == 0);
	snprintf(dir, sizeof(dir), "%s/out", testlib_tmpdir());
	snprintf(lock, sizeof(lock), "%s/run.lock", dir);
	REQUIRE(mkdir(dir, 0777) == 0);
	/* A lock another run made (or one a killed run left): refused, nothing written. */
	int fd = open(lock, O_WRONLY | O_CREAT | O_EXCL, 0644);
	REQUIRE(fd >= 0);
	close(fd);
	CHECK_EQ_I64(lab_results_open(&other, dir, &t.plan, &t.info, &err), -LAB_EINVAL);
	CHECK(strstr(err.msg, "taken by another lab run") != NULL);
	CHECK(strchr(err.msg, '\n') == NULL);
	CHECK_EQ_I64(tr_entries(dir), 1);
	REQUIRE(unlink(lock) == 0);
	/* Ours: the lock holds while the run writes and goes with lab_results_close. */
	REQUIRE(lab_results_open(&res, dir, &t.plan, &t.info, &err) == 0);
	CHECK(access(lock, F_OK) == 0);
	CHECK_EQ_I64(lab_results_open(&other, dir, &t.plan, &t.info, &err), -LAB_EINVAL);
	CHECK_EQ_I64(lab_results_close(res, "complete", NULL, &err), 0);
	CHECK(access(lock, F_OK) != 0);
	CHECK_EQ_I64(tr_entries(dir), 4); /* run.json, samples.csv, threads.csv, config.ini */
	/* Not empty now: refused as bad usage, and the files stay. */
	CHECK_EQ_I64(lab_results_open(&other, dir, &t.plan, &t.info, &err), -LAB_EINVAL);
	CHECK(strstr(err.msg, "not empty") != NULL);
	CHECK_EQ_I64(tr_entries(dir), 4);
	lab_topo_close(t.topo);
}

/* Writes dir/run.lock as a run of this host whose process is gone would have left it. */
static void tr_dead_lock(const char *dir)
{
	char host[256] = "", lock[4200];
	pid_t pid = fork();
	FILE *f;

	REQUIRE(pid >= 0);
	if (pid == 0)
		_exit(0);
	REQUIRE(waitpid(pid, NULL, 0) == pid);
	REQUIRE(gethostname(host, sizeof(host) - 1) == 0);
	snprintf(lock, sizeof(lock), "%s/run.lock", dir);
	REQUIRE((f = fopen(lock, "w")) != NULL);
	fprintf(f, "%ld %s\n", (long)pid, host);
	fclose(f);
}

/* A lock whose run was killed (its process is gone on this host): a directory holding only
 * that lock is taken over; one holding the killed run's files is refused, saying so. A lock
 * of a live process, or of another host, stays refused as taken. */
LAB_TEST(results_dir_stale_lock)
{
	struct tr t;
	struct lab_results *res = NULL, *other = NULL;
	struct lab_err err = {0};
	char dir[4096], file[4200];
	FILE *f;

	REQUIRE(tr_init(&t) == 0);
	snprintf(dir, sizeof(dir), "%s/stale", testlib_tmpdir());
	REQUIRE(mkdir(dir, 0777) == 0);
	tr_dead_lock(dir);
	REQUIRE(lab_results_open(&res, dir, &t.plan, &t.info, &err) == 0);
	CHECK_EQ_I64(lab_results_open(&other, dir, &t.plan, &t.info, &err), -LAB_EINVAL);
	CHECK(strstr(err.msg, "taken by another lab run") != NULL);
	CHECK_EQ_I64(lab_results_close(res, "complete", NULL, &err), 0);
	/* The killed run had written: refused, naming it, nothing touched. */
	snprintf(dir, sizeof(dir), "%s/stale2", testlib_tmpdir());
	REQUIRE(mkdir(dir, 0777) == 0);
	tr_dead_lock(dir);
	snprintf(file, sizeof(file), "%s/samples.csv", dir);
	REQUIRE((f = fopen(file, "w")) != NULL);
	fclose(f);
	CHECK_EQ_I64(lab_results_open(&other, dir, &t.plan, &t.info, &err), -LAB_EINVAL);
	CHECK(strstr(err.msg, "killed lab run") != NULL);
	CHECK(strchr(err.msg, '\n') == NULL);
	CHECK_EQ_I64(tr_entries(dir), 2);
	/* Another host's lock: its process cannot be asked, so it is taken. */
	snprintf(dir, sizeof(dir), "%s/stale3", testlib_tmpdir());
	REQUIRE(mkdir(dir, 0777) == 0);
	snprintf(file, sizeof(file), "%s/run.lock", dir);
	REQUIRE((f = fopen(file, "w")) != NULL);
	fprintf(f, "%d no-such-host.invalid\n", 999999);
	fclose(f);
	CHECK_EQ_I64(lab_results_open(&other, dir, &t.plan, &t.info, &err), -LAB_EINVAL);
	CHECK(strstr(err.msg, "taken by another lab run") != NULL);
	/* A dead run's lock that is a hard link of a file outside: not rewritten through its
	 * other name (hostile29: the outside file was truncated and rewritten) */
	char out[4200], before[512] = "", after[512] = "";
	snprintf(dir, sizeof(dir), "%s/stale4", testlib_tmpdir());
	REQUIRE(mkdir(dir, 0777) == 0);
	tr_dead_lock(dir);
	snprintf(file, sizeof(file), "%s/run.lock", dir);
	snprintf(out, sizeof(out), "%s/outside.lock", testlib_tmpdir());
	REQUIRE(rename(file, out) == 0 && link(out, file) == 0);
	REQUIRE((f = fopen(out, "r")) != NULL);
	CHECK(fgets(before, sizeof(before), f) != NULL);
	fclose(f);
	CHECK_EQ_I64(lab_results_open(&other, dir, &t.plan, &t.info, &err), -LAB_EINVAL);
	REQUIRE((f = fopen(out, "r")) != NULL);
	CHECK(fgets(after, sizeof(after), f) != NULL);
	fclose(f);
	CHECK_EQ_STR(after, before);
	lab_topo_close(t.topo);
}

/* Usage problems are -LAB_EINVAL (lab run exits 2); a failed write is -LAB_EIO (exit 1). */
LAB_TEST(results_open_error_codes)
{
	struct tr t;
	struct lab_results *res = NULL;
	struct lab_err err = {0};
	char path[4096];
	struct sigaction ign = {.sa_handler = SIG_IGN}, old;

	REQUIRE(tr_init(&t) == 0);
	CHECK_EQ_I64(lab_results_open(&res, "", &t.plan, &t.info, &err), -LAB_EINVAL);
	snprintf(path, sizeof(path), "%s/file", testlib_tmpdir());
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	REQUIRE(fd >= 0);
	close(fd);
	CHECK_EQ_I64(lab_results_open(&res, path, &t.plan, &t.info, &err), -LAB_EINVAL);
	CHECK(strstr(err.msg, "not a directory") != NULL);
	snprintf(path, sizeof(path), "%s/file/sub", testlib_tmpdir());
	CHECK_EQ_I64(lab_results_open(&res, path, &t.plan, &t.info, &err), -LAB_EINVAL);
	/* A full disk when the first files are written: -LAB_EIO, and nothing stays. */
	snprintf(path, sizeof(path), "%s/full", testlib_tmpdir());
	pid_t pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		struct rlimit lim = {0, 0};
		sigaction(SIGXFSZ, &ign, &old);
		setrlimit(RLIMIT_FSIZE, &lim);
		int rc = lab_results_open(&res, path, &t.plan, &t.info, &err);
		_exit(rc == -LAB_EIO && strstr(err.msg, "File too large") ? 0 : 1);
	}
	int st;
	REQUIRE(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK(access(path, F_OK) != 0);
	lab_topo_close(t.topo);
}

/* A symlink put in the directory as run.json's temp file while the run writes (the directory
 * may be shared): removed, not followed; the file it points to keeps its bytes. */
LAB_TEST(results_temp_symlink_not_followed)
{
	struct tr t;
	struct lab_results *res = NULL;
	struct lab_err err = {0};
	char dir[4096], victim[4200], tmp[4200], buf[16] = "";
	struct stat st;

	REQUIRE(tr_init(&t) == 0);
	snprintf(dir, sizeof(dir), "%s/linked", testlib_tmpdir());
	snprintf(victim, sizeof(victim), "%s/victim", testlib_tmpdir());
	snprintf(tmp, sizeof(tmp), "%s/run.json.tmp", dir);
	int fd = open(victim, O_WRONLY | O_CREAT | O_EXCL, 0644);
	REQUIRE(fd >= 0);
	REQUIRE(write(fd, "PRECIOUS", 8) == 8);
	close(fd);
	REQUIRE(lab_results_open(&res, dir, &t.plan, &t.info, &err) == 0);
	REQUIRE(symlink(victim, tmp) == 0);
	CHECK_EQ_I64(lab_results_close(res, "complete", NULL, &err), 0);
	fd = open(victim, O_RDONLY);
	REQUIRE(fd >= 0);
	CHECK_EQ_I64(read(fd, buf, sizeof(buf) - 1), 8);
	close(fd);
	CHECK_EQ_STR(buf, "PRECIOUS");
	snprintf(tmp, sizeof(tmp), "%s/run.json", dir);
	CHECK(lstat(tmp, &st) == 0 && S_ISREG(st.st_mode));
	lab_topo_close(t.topo);
}

static void tr_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	(void)ctx;
	for (uint64_t i = 0; i < t->iters; i++)
		lab_do_not_optimize(i);
}

static const struct lab_param tr_no_params[] = {LAB_PARAM_END};
static const struct lab_kernel tr_plain = {
    .abi = LAB_KERNEL_ABI,
    .name = "tr_plain",
    .summary = "test",
    .description = "test",
    .params = tr_no_params,
    .work_unit = "unit",
    .run = tr_run,
};
/* Its pages where asked in the first run of each point only, as a bound node that fills up. */
static atomic_int tr_setups;

static int tr_moving_setup(struct lab_ctx *ctx, struct lab_err *err)
{
	(void)err;
	bool first = atomic_fetch_add(&tr_setups, 1) == 0;
	lab_ctx_fact_bool(ctx, "placement_ok", first);
	if (!first)
		lab_ctx_fact_str(ctx, "placement_note", "expected n1=4, found n0=3 n1=1");
	return 0;
}

static const struct lab_kernel tr_moving = {
    .abi = LAB_KERNEL_ABI,
    .name = "tr_moving",
    .summary = "test",
    .description = "test",
    .params = tr_no_params,
    .work_unit = "unit",
    .setup = tr_moving_setup,
    .run = tr_run,
};
static const struct lab_kernel *const tr_registry[] = {&tr_plain, &tr_moving, NULL};

/* The results as the runner's sink; Ctrl-C (stop) once the first run is handed over. */
struct tr_sink {
	struct lab_results *res;
	atomic_int stop;
};

static int tr_sink_point(void *ctx, const struct lab_point_rec *rec, struct lab_err *err)
{
	struct tr_sink *s = ctx;

	atomic_store(&s->stop, 1);
	return lab_results_point(s->res, rec, err);
}

/* The whole text of path into buf (NUL-terminated); its length, or -1. */
static long tr_slurp(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	size_t n = 0;
	ssize_t r;

	if (fd < 0)
		return -1;
	while (n + 1 < len && (r = read(fd, buf + n, len - 1 - n)) > 0)
		n += (size_t)r;
	close(fd);
	buf[n] = '\0';
	return (long)n;
}

/* lab run of text (two points), interrupted once the first run of the first point is handed
 * over; run.json's text into json. */
static void tr_interrupt_runs(const char *text, char *json, size_t len)
{
	struct tr t;
	struct lab_cfg cfg = {0};
	struct lab_diag d = {0};
	struct lab_plan *plan = NULL;
	struct lab_err err = {0};
	struct lab_runner r;
	struct tr_sink s = {0};
	struct lab_sink sink = {.ctx = &s, .point = tr_sink_point};
	char dir[4096], path[4200];
	static int k;

	REQUIRE(tr_init(&t) == 0);
	REQUIRE(lab_cfg_load_text(&cfg, "tr.ini", text, strlen(text), &d, &err) == 0);
	REQUIRE(lab_plan_build(&plan, &cfg, tr_registry, t.topo, NULL, 0, &d, &err) == 0);
	REQUIRE(plan->npts == 2);
	snprintf(dir, sizeof(dir), "%s/runs%d", testlib_tmpdir(), k++);
	REQUIRE(lab_results_open(&s.res, dir, plan, &t.info, &err) == 0);
	lab_runner_init(&r, t.topo, &plan->env, &s.stop);
	CHECK_EQ_I64(lab_runner_run(&r, plan, &sink, &err), -LAB_EINTR);
	CHECK_EQ_I64(lab_results_close(s.res, "interrupted", NULL, &err), 0);
	snprintf(path, sizeof(path), "%s/run.json", dir);
	REQUIRE(tr_slurp(path, json, len) > 0);
	lab_plan_free(plan);
	lab_cfg_free(&cfg);
	lab_diag_free(&d);
	lab_topo_close(t.topo);
}

/*
 * runs = 3, interrupted once the first run of the first point is handed over: that run is kept
 * and its point says it got 1 of its 3 planned runs (it read "ok", "runs": 1 and nothing more);
 * no point counts as done; the other point never ran.
 */
LAB_TEST(interrupted_runs_marked)
{
	static char json[1 << 20];

	tr_interrupt_runs("[global]\nreps = 1\nwarmup = 0\nmin_time = 1ms\nthreads = 1\n"
	                  "runs = 3\n[a]\nkernel = tr_plain\n[b]\nkernel = tr_plain\n",
	                  json, sizeof(json));
	CHECK(strstr(json, "\"points_done\": 0,") != NULL);
	CHECK(strstr(json, "\"status\": \"ok\",\n") != NULL);
	CHECK(
	    strstr(json, "\"reason\": \"the run ended after 1 of this point's 3 planned runs\"") !=
	    NULL);
	CHECK(strstr(json, "\"runs\": 1,\n") != NULL);
	CHECK(strstr(json, "\"runs_planned\": 3") != NULL);
	/* min_time 1 ms: one timed window per sample (the analyzer's exact span check) */
	CHECK(strstr(json, "\"sample_windows\": 1,\n") != NULL);
	CHECK(strstr(json, "\"status\": \"not_run\"") != NULL);
}

/* numa30: a later run whose pages were not where asked stands for the point's placement (the
 * first run's facts hid it), its note naming the run. */
LAB_TEST(later_run_misplaced_facts)
{
	static char json[1 << 20];
	struct tr t;
	struct lab_cfg cfg = {0};
	struct lab_diag d = {0};
	struct lab_plan *plan = NULL;
	struct lab_err err = {0};
	struct lab_runner r;
	struct lab_results *res = NULL;
	struct lab_sink sink = {.point = lab_results_point};
	atomic_int stop = 0;
	char dir[4096], path[4200];
	const char *text = "[m]\nkernel = tr_moving\nreps = 1\nwarmup = 0\nmin_time = 1ms\n"
	                   "threads = 1\nruns = 3\nretry_flagged = 0\n";

	REQUIRE(tr_init(&t) == 0);
	REQUIRE(lab_cfg_load_text(&cfg, "tr.ini", text, strlen(text), &d, &err) == 0);
	REQUIRE(lab_plan_build(&plan, &cfg, tr_registry, t.topo, NULL, 0, &d, &err) == 0);
	snprintf(dir, sizeof(dir), "%s/moving", testlib_tmpdir());
	REQUIRE(lab_results_open(&res, dir, plan, &t.info, &err) == 0);
	sink.ctx = res;
	atomic_store(&tr_setups, 0);
	lab_runner_init(&r, t.topo, &plan->env, &stop);
	CHECK_EQ_I64(lab_runner_run(&r, plan, &sink, &err), 0);
	CHECK_EQ_I64(lab_results_close(res, "complete", NULL, &err), 0);
	snprintf(path, sizeof(path), "%s/run.json", dir);
	REQUIRE(tr_slurp(path, json, sizeof(json)) > 0);
	CHECK(atomic_load(&tr_setups) == 3);
	CHECK(strstr(json, "\"placement_ok\": false") != NULL);
	CHECK(strstr(json, "\"placement_note\": \"in run 2 of the point (the runs before had their "
	                   "pages where asked, or could not tell): expected n1=4, found n0=3 "
	                   "n1=1\"") != NULL);
	lab_plan_free(plan);
	lab_cfg_free(&cfg);
	lab_diag_free(&d);
	lab_topo_close(t.topo);
}

/* With a precision target, runs_planned is the target's cap: "the run ended after 1 of this
 * point's 100000 planned runs" said nothing; what ended it is said instead. */
LAB_TEST(interrupted_precision_runs_marked)
{
	static char json[1 << 20];

	tr_interrupt_runs("[global]\nreps = 2\nwarmup = 0\nmin_time = 1ms\nthreads = 1\n"
	                  "runs = 2\nprecision = 0.01%\nbudget = 2s\n[a]\nkernel = tr_plain\n"
	                  "[b]\nkernel = tr_plain\n",
	                  json, sizeof(json));
	CHECK(strstr(json, "\"reason\": \"the run ended after 1 of this point's runs, before its "
	                   "precision target or budget did\"") != NULL);
	CHECK(strstr(json, "planned runs") == NULL);
}
