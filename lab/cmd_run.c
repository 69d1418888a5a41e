/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lab run: plan, self-check, run every point, write the result files, summarise. */
#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness/clock.h"
#include "harness/prov.h"
#include "harness/results.h"
#include "harness/runner.h"
#include "harness/selfcheck.h"
#include "lab/cli.h"
#include "lab/run_console.h"
#include "lab/run_fresh.h"

#include "build_info.h"

/* 0 until the first Ctrl-C, SIGTERM or SIGHUP; then that signal's number. */
static atomic_int run_interrupted;
/* The results directory's lock while this run holds it ("" before and after), and the temp
 * file run.json is rewritten through. */
static char run_lock_path[LAB_RUN_DIR_MAX + 16], run_tmp_path[LAB_RUN_DIR_MAX + 16];
/* 1 once run.json is closed: a second signal then has nothing left "running" to speak of. */
static volatile sig_atomic_t run_closed;

/* A second Ctrl-C, or a signal of another kind after the first, ends the process at once
 * (what was finished is already on disk), and takes the lock with it: left behind, it named a
 * dead process; and a run.json rewrite it cut short (async-signal-safe calls only). A repeat of
 * SIGTERM or SIGHUP is the same request twice: timeout(1) sends SIGTERM to the process and then
 * to its group, a hangup reaches the group and the shell passes it on; taken as a second
 * Ctrl-C, it left run.json "running" one time in four. The first signal's number is swapped in
 * at once: a repeat that another thread took meanwhile saw a flag without it and stopped. */
static void run_on_sigint(int sig)
{
	static const char msg[] = "\nlab: interrupted again: stopped at once; run.json still "
	                          "says \"running\" (lab analyze reads the points that "
	                          "finished)\n";
	static const char closed[] = "\nlab: interrupted again: stopped at once (run.json was "
	                             "already closed)\n";
	int first = 0;

	if (atomic_compare_exchange_strong(&run_interrupted, &first, sig))
		return;
	if (sig == SIGINT || sig != first) {
		if (run_lock_path[0]) {
			unlink(run_tmp_path);
			unlink(run_lock_path);
		}
		ssize_t w = run_closed ? write(STDERR_FILENO, closed, sizeof(closed) - 1)
		                       : write(STDERR_FILENO, msg, sizeof(msg) - 1);

		(void)w;
		_exit(130);
	}
}

/* Ctrl-C, SIGTERM and a closed terminal (SIGHUP) end the run as interrupted: run.json says so
 * and the lock goes. A reader of stdout that left (`| head -1`) does too, through EPIPE
 * (run_console.c), not a silent SIGPIPE death that left run.json "running". */
static void run_signals(void (*on)(int))
{
	signal(SIGINT, on);
	signal(SIGTERM, on);
	signal(SIGHUP, on);
	signal(SIGPIPE, SIG_IGN); /* also after: the closing lines meet EPIPE, not death */
}

/* Once run.json is closed, signals act as usual again, but for a repeat of the SIGTERM or
 * SIGHUP that interrupted the run: the same request, which may come just after the close
 * (timeout(1)'s to the group), and would turn an exit of 1 into a death by it. */
static void run_signals_closed(void)
{
	static const int sigs[] = {SIGTERM, SIGHUP, SIGINT};
	int first = atomic_load(&run_interrupted);

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], sigs[i] == first && first != SIGINT ? SIG_IGN : SIG_DFL);
}

static const struct lab_opt run_opts[] = {
    {"--output", "-o", LAB_OPT_VALUE, "DIR", offsetof(struct lab_cli_args, out_dir), 0,
     "write the results here (a new or empty directory)"},
    LAB_CLI_OPT_SET,
    LAB_CLI_OPT_ONLY,
    LAB_CLI_OPT_CACHE,
    {"--topology", NULL, LAB_OPT_VALUE, "SPEC", offsetof(struct lab_cli_args, topology), 0,
     "with --dry-run: plan for synthetic:\"...\" or xml:FILE"},
    {"--dry-run", NULL, LAB_OPT_FLAG, NULL, offsetof(struct lab_cli_args, dry_run), 0,
     "validate and print the plan; run nothing"},
    {"--no-progress", NULL, LAB_OPT_FLAG, NULL, offsetof(struct lab_cli_args, no_progress), 0,
     "no progress line on stderr"},
    {"--max-hours", NULL, LAB_OPT_VALUE, "N", offsetof(struct lab_cli_args, max_hours), 0,
     "refuse a plan estimated past N hours on a quiet machine\n"
     "(default 72; 0: no limit)"},
    LAB_OPTS_END,
};

static const struct lab_cmd_opts run_cmd = {
    .name = "run",
    .synopsis =
        "[CONFIG.ini ...] [-o DIR] [--set SEC.KEY=VAL]... [--only SEC]...\n"
        "               [--cache LN=SIZE]... [--topology SPEC] [--dry-run] [--no-progress]\n"
        "               [--max-hours N]",
    .about = "Runs every experiment of the configs (none: the built-in quick set) with pinned\n"
             "threads, verifies each kernel's work and writes results/<UTC stamp>-<config>/:\n"
             "run.json (provenance, the plan, each point's status), samples.csv, threads.csv\n"
             "and config.ini. Points are written as they finish; Ctrl-C keeps what finished.\n",
    .after = "Then: lab analyze DIR\n",
    .opts = run_opts,
    .pos_at = offsetof(struct lab_cli_args, configs),
    .npos_at = offsetof(struct lab_cli_args, nconfigs),
    .pos_max = LAB_CLI_LIST_MAX,
    .pos_what = "config files",
};

static void run_default_dir(const char *stem, char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;
	char stamp[32];

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(buf, len, "results/%s-%s", stamp, stem);
}

/*
 * Opens the results in dir. A directory of its own name (not given with -o) that another run
 * took in the same second gets a suffix, -2 to -99, instead of failing.
 */
static int run_open(struct lab_results **res, char *dir, size_t len, bool own_name,
                    const struct lab_plan *plan, const struct lab_results_info *info,
                    struct lab_err *err)
{
	size_t base = strlen(dir);
	int rc = lab_results_open(res, dir, plan, info, err);

	/* another run's directory (it exists), not a name refused for itself (results a file) */
	for (unsigned k = 2; rc == -LAB_EINVAL && own_name && k < 100 && access(dir, F_OK) == 0;
	     k++) {
		snprintf(dir + base, len - base, "-%u", k);
		rc = lab_results_open(res, dir, plan, info, err);
	}
	return rc;
}

/* run_open with Ctrl-C, SIGTERM and SIGHUP held until the lock's path is known to the handler:
 * a second signal between the lock's creation and then left it behind, naming a dead process. */
static int run_open_locked(struct lab_results **res, char *dir, size_t len, bool own_name,
                           const struct lab_plan *plan, const struct lab_results_info *info,
                           struct lab_err *err)
{
	sigset_t hold, old;

	sigemptyset(&hold);
	sigaddset(&hold, SIGINT);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &hold, &old);
	int rc = run_open(res, dir, len, own_name, plan, info, err);
	if (!rc) {
		snprintf(run_tmp_path, sizeof(run_tmp_path), "%s/%s", dir, LAB_RESULTS_RUN_TMP);
		snprintf(run_lock_path, sizeof(run_lock_path), "%s/%s", dir, LAB_RESULTS_LOCK);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

/* The self-check, on the first CPU of the first point (or the first allowed CPU). */
static void run_selfcheck(struct lab_runner *r, const struct lab_cli_setup *s,
                          struct lab_selfcheck *sc)
{
	struct lab_err err;
	int cpu = 0;

	if (s->plan->npts && s->plan->pts[0].ncpus)
		cpu = s->plan->pts[0].cpus[0];
	else
		lab_topo_cpus_allowed(s->topo, &cpu, 1);
	if (lab_selfcheck_run(r, cpu, sc, &err) != 0) {
		lab_opts_error("lab: warning: %s", err.msg);
		return;
	}
	fprintf(
	    stderr,
	    "self-check: harness overhead %.3f ns/iteration, 50 us spin reads %.3f us (%+.2f%%), "
	    "core clock ~%.2f GHz (estimated)\n",
	    sc->overhead_ns_per_iter, sc->spin_50us_ns / 1e3, 100 * sc->spin_error, sc->core_ghz);
	if (fabs(sc->spin_error) > 0.01)
		fprintf(stderr,
		        "lab: warning: the 50 us spin is off by more than 1%%: the machine is "
		        "busy or the clock is slow to read; treat short timings with care\n");
}

/* After the estimate, where the self-check found the machine busy (its 50 us spin off by more
 * than 25 %) and some point retries flagged samples: the run may take several times the
 * estimate (ch28 took 16 min against 2). */
static void run_busy_note(const struct lab_selfcheck *sc, const struct lab_plan *plan)
{
	bool retries = false;

	for (unsigned i = 0; i < plan->npts && !retries; i++)
		retries = plan->pts[i].h.retry_flagged > 0;
	if (!(sc->spin_error > 0.25) || !retries)
		return;
	fprintf(stderr,
	        "lab: this machine is busy now (the self-check's 50 us spin read %+.0f%%): samples "
	        "taken under foreign load are retried (retry_flagged, quiet_wait), so the run may "
	        "take several times the estimate; set global.retry_flagged=0 to keep them flagged "
	        "instead\n",
	        100 * sc->spin_error);
}

#define RUN_DIR_MAX LAB_RUN_DIR_MAX

/* What the plan says before it runs: its size, CPUs held back, caches, lessons it cannot judge. */
static void run_plan_notes(const struct lab_cli_setup *s, const char *dir)
{
	char cpus[512];

	lab_opts_error("lab: %u point%s into %s", s->plan->npts, s->plan->npts == 1 ? "" : "s",
	               dir);
	if (lab_cli_cpus_restricted(s->topo, cpus, sizeof(cpus)))
		lab_opts_error("lab: %s", cpus);
	if (s->cache_note[0])
		lab_opts_error("lab: caches: %s", s->cache_note);
	for (unsigned i = 0; i < s->plan->nlessons; i++) /* before the run, not after it */
		if (s->plan->lessons[i].unplanned)
			lab_opts_error("lab: note: lesson %s cannot be judged on this plan: %s",
			               s->plan->lessons[i].name, s->plan->lessons[i].unplanned);
}

static int run_execute(int argc, char **argv, const struct lab_cli_args *a, struct lab_cli_setup *s)
{
	struct lab_run_console con = {.s = s,
	                              .interrupted = &run_interrupted,
	                              .progress = !a->no_progress && isatty(STDERR_FILENO)};
	struct lab_results_info info = {
	    .argc = argc, .argv = argv, .cfg = &s->cfg, .topo = s->topo};
	struct lab_sink sink = {
	    .ctx = &con, .point = lab_run_console_point, .progress = lab_run_console_progress};
	struct lab_runner runner;
	struct lab_selfcheck sc;
	struct lab_prov prov;
	struct lab_err err = {0}, cerr = {0};
	char dir[RUN_DIR_MAX], est[320];

	lab_prov_collect(&prov);
	info.prov = &prov;
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(info.started_utc, sizeof(info.started_utc), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (a->out_dir)
		snprintf(dir, sizeof(dir), "%s", a->out_dir);
	else
		run_default_dir(s->stem, dir, sizeof(dir));
	/* Until the self-check has run, run.json says null for it (NaN). */
	sc.overhead_ns_per_iter = sc.spin_50us_ns = sc.spin_error = NAN;
	info.selfcheck = &sc;
	/* Before anything is written: Ctrl-C from here on ends with a run.json that says so. */
	run_signals(run_on_sigint);
	if (run_open_locked(&con.res, dir, sizeof(dir), !a->out_dir, s->plan, &info, &err)) {
		run_signals(SIG_DFL);
		lab_opts_error("lab: %s", err.msg);
		/* 2 only when -o named a directory that cannot be used; a failed write is 1. */
		return err.code == LAB_EINVAL ? LAB_EXIT_USAGE : LAB_EXIT_FAILURE;
	}
	lab_runner_init(&runner, s->topo, &s->plan->env, &run_interrupted);
	struct lab_run_fresh fresh = {.a = a,
	                              .cache_arg = s->cache_arg,
	                              .plan = s->plan,
	                              .origin_ns = runner.origin_ns,
	                              .interrupted = &run_interrupted,
	                              .runner = &runner};
	runner.elsewhere = lab_run_fresh_point;
	runner.elsewhere_ctx = &fresh;
	if (LAB_SANITIZE[0]) /* run.json says it too (lab.sanitize), and lab analyze */
		lab_opts_error(
		    "lab: note: this lab is built with sanitizers (%s): the times will be "
		    "the instrumented code's; measure with a build without sanitizers",
		    LAB_SANITIZE);
	run_selfcheck(&runner, s, &sc);
	run_plan_notes(s, dir);
	/* Up front, the same estimate as lab plan: the kernels' declared costs (issue 21). */
	lab_cli_estimate_text(s->plan, est, sizeof(est));
	fprintf(stderr, "estimated run time: %s on a quiet machine\n", est);
	run_busy_note(&sc, s->plan);
	con.t0_ns = lab_clock_ns();
	lab_run_console_begin(&con); /* the ETA's total and the point lines' widths */
	int rc = lab_runner_run(&runner, s->plan, &sink, &err);
	if (con.progress)
		fprintf(stderr, "\r\033[K");
	const char *status = rc == 0 ? "complete" : rc == -LAB_EINTR ? "interrupted" : "failed";
	int crc =
	    lab_results_close(con.res, status, rc && rc != -LAB_EINTR ? err.msg : NULL, &cerr);
	run_closed = crc == 0; /* a close that failed may have left it "running" */
	run_signals_closed();
	run_lock_path[0] = '\0';
	lab_run_console_report(&con, lab_self, dir, rc, &err, crc, &cerr);
	if (con.total_spent) /* harness/precision.h: lab_prec_total_spent */
		fprintf(
		    stderr,
		    "lab: total_budget spent: %u point%s stopped adding precision samples or runs "
		    "(run.json total_budget_exhausted)\n",
		    con.total_spent, con.total_spent == 1 ? "" : "s");
	return rc || crc || con.failed ? LAB_EXIT_FAILURE : LAB_EXIT_OK;
}

/* --max-hours N: 0 .. 876000 (a century), 72 when not given; -1 for a value that is none. */
static double run_max_hours(const char *text)
{
	char *end;
	unsigned long v;

	if (!text)
		return 72;
	if (!isdigit((unsigned char)text[0]) || strlen(text) > 6)
		return -1;
	v = strtoul(text, &end, 10);
	return *end || v > 876000 ? -1 : (double)v;
}

/* A plan past the limit is refused before anything is written: 857 years of sweep started. */
static int run_too_long(const struct lab_cli_setup *s, double hours)
{
	double sec = lab_cli_estimate_seconds(s->plan);
	char est[32];

	if (hours == 0 || sec <= hours * 3600)
		return 0;
	lab_opts_error(
	    "lab run: estimated run time about %s is past --max-hours %.0f; nothing was run "
	    "(narrow the sweep, lower reps and min_time, or give --max-hours more, or 0 "
	    "for no limit)",
	    lab_cli_duration(sec, est, sizeof(est)), hours);
	return 1;
}

/* --dry-run: the refusals of the run itself (-o, --max-hours), then the plan; nothing made. */
static int run_dry(const struct lab_cli_args *a, const struct lab_cli_setup *s, double hours)
{
	struct lab_err err = {0};

	if (a->out_dir && lab_results_dir_check(a->out_dir, &err)) {
		lab_opts_error("lab: %s", err.msg);
		return err.code == LAB_EINVAL ? LAB_EXIT_USAGE : LAB_EXIT_FAILURE;
	}
	if (run_too_long(s, hours))
		return LAB_EXIT_USAGE;
	lab_cli_print_plan(s, false);
	return LAB_EXIT_OK;
}

int lab_cmd_run(int argc, char **argv)
{
	struct lab_cli_args a;
	struct lab_cli_setup s;
	int rc = lab_opts_parse(&run_cmd, argc, argv, &a, sizeof(a));

	if (rc)
		return rc == LAB_OPTS_HELP ? LAB_EXIT_OK : LAB_EXIT_USAGE;
	if (a.out_dir && strlen(a.out_dir) >= RUN_DIR_MAX) { /* not cut short into another name */
		lab_opts_error("lab run: -o %.40s...: a name of %zu bytes (allowed at most %d)",
		               a.out_dir, strlen(a.out_dir), RUN_DIR_MAX - 1);
		return LAB_EXIT_USAGE;
	}
	double hours = run_max_hours(a.max_hours);
	if (hours < 0) {
		lab_opts_error(
		    "lab run: --max-hours %.40s: not a number of hours (allowed: a whole "
		    "number 0 .. 876000; 0: no limit)",
		    a.max_hours);
		return LAB_EXIT_USAGE;
	}
	rc = lab_cli_prepare(&a, &s);
	if (rc == LAB_EXIT_OK && a.dry_run)
		rc = run_dry(&a, &s, hours);
	else if (rc == LAB_EXIT_OK && !lab_topo_is_thissystem(s.topo)) {
		const char *src = lab_topo_source(s.topo);
		lab_opts_error(
		    "lab run: the topology %s is not this machine: nothing can run on it "
		    "(%suse lab plan or --dry-run)",
		    src, strstr(src, "HWLOC_") ? "unset the variables to run here, or " : "");
		rc = LAB_EXIT_USAGE;
	} else if (rc == LAB_EXIT_OK && run_too_long(&s, hours))
		rc = LAB_EXIT_USAGE;
	else if (rc == LAB_EXIT_OK)
		rc = run_execute(argc, argv, &a, &s);
	lab_cli_release(&s);
	return rc;
}
