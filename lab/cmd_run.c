/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lab run: plan, self-check, run every point, write the result files, summarise. */
#include <errno.h>
#include <math.h>
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
#include "lab/run_fresh.h"
#include "lab/run_warn.h"

static atomic_int run_interrupted;

static void run_on_sigint(int sig)
{
	(void)sig;
	atomic_store(&run_interrupted, 1);
	/* A second Ctrl-C ends the process at once; what was finished is already on disk. */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
}

/* Ctrl-C, SIGTERM and a closed terminal (SIGHUP) end the run as interrupted: run.json says so
 * and the lock goes. A reader of stdout that left (`| head -1`) does too, through EPIPE
 * (run_stdout_check), not a silent SIGPIPE death that left run.json "running". */
static void run_signals(void (*on)(int))
{
	signal(SIGINT, on);
	signal(SIGTERM, on);
	signal(SIGHUP, on);
	signal(SIGPIPE, SIG_IGN); /* also after: the closing lines meet EPIPE, not death */
}

/* After a point's line: a reader that left ends the run as Ctrl-C would, once, with a word. */
static void run_stdout_check(void)
{
	static bool said;

	if (!ferror(stdout) || errno != EPIPE || said)
		return;
	said = true;
	atomic_store(&run_interrupted, 1);
	fprintf(stderr, "lab: standard output was closed (its reader left): the run stops as "
	                "interrupted\n");
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
    LAB_OPTS_END,
};

static const struct lab_cmd_opts run_cmd = {
    .name = "run",
    .synopsis = "[CONFIG.ini ...] [-o DIR] [--set SEC.KEY=VAL]... [--only SEC]...\n"
                "               [--cache LN=SIZE]... [--topology SPEC] [--dry-run] [--no-progress]",
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

/* Console state: progress line, ETA, and the per-point summary lines. */
struct run_console {
	const struct lab_cli_setup *s;
	struct lab_results *res;
	bool progress;
	uint64_t t0_ns;
	/* Points, not runs: a point begins with its run 0 and is done with its last run. */
	unsigned begun, done;
	unsigned failed, skipped, flagged_points;
	unsigned samples, flagged, retried; /* kept samples, those kept flagged, those retried */
	unsigned flagged_runq; /* of the kept flagged ones: a worker waited for its CPU */
	int start_rc; /* lab_results_start failed: the next point reports it and the run stops */
	struct lab_err start_err;
	bool legend;              /* the line that says what the numbers are was printed */
	struct lab_run_warn warn; /* causes that changed results, said once at the end */
	unsigned total_spent;     /* points whose precision target met the config's total_budget */
	/* The ETA: estimated ns of every planned run, of those done, and the run under way. */
	double est_total, est_done;
	const struct lab_point *est_cur;
};

/* The sum of the plan's runs as the estimate counts them: the ETA weighs runs by it (a 2 GiB
 * point's fresh buffers outlast a hundred points in L1). */
static void run_eta_begin(struct run_console *c)
{
	const struct lab_plan *plan = c->s->plan;

	for (unsigned i = 0; i < plan->npts; i++) {
		const struct lab_point *pt = &plan->pts[i];
		c->est_total +=
		    lab_cli_run_estimate_ns(plan, pt) * (double)(pt->h.runs ? pt->h.runs : 1);
	}
}

/* Seconds left: the elapsed time scaled by the estimated work left over the work done; by
 * runs counted when the estimate has nothing to say (nothing done yet, or precision targets
 * adding runs past the plan). */
static double run_eta(struct run_console *c, unsigned done, unsigned total,
                      const struct lab_point *pt)
{
	double elapsed = (double)(lab_clock_ns() - c->t0_ns) / 1e9;

	if (c->est_cur)
		c->est_done += lab_cli_run_estimate_ns(c->s->plan, c->est_cur);
	c->est_cur = pt;
	if (c->est_done > 0 && c->est_total > c->est_done)
		return elapsed / c->est_done * (c->est_total - c->est_done);
	return done ? elapsed / done * (total - done) : NAN;
}

static void run_progress(void *ctx, unsigned done, unsigned total, const struct lab_point *pt)
{
	struct run_console *c = ctx;

	if (!c->start_rc)
		c->start_rc = lab_results_start(c->res, pt, &c->start_err);
	if (!c->progress)
		return;
	double eta = run_eta(c, done, total, pt);
	const struct lab_experiment *e = &c->s->plan->exp[pt->exp];
	fprintf(stderr, "\r\033[K[%u/%u] %s threads=%u %s", done + 1, total, e->name, pt->nthreads,
	        pt->params_text);
	if (isfinite(eta) && eta < 90)
		fprintf(stderr, "  ETA %.0fs", eta);
	else if (isfinite(eta))
		fprintf(stderr, "  ETA %.0f min", eta / 60);
	fflush(stderr);
}

static int run_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* One line per finished point: the median cost per unit of work and the rate. */
static void run_print_point(struct run_console *c, const struct lab_point_rec *rec)
{
	const struct lab_point *pt = rec->pt;
	const struct lab_experiment *e = &c->s->plan->exp[pt->exp];
	double *cost;

	if (c->progress)
		fprintf(stderr, "\r\033[K");
	if (!c->legend) {
		printf("# median ns per unit of work, all threads together ([shared]: a unit the "
		       "team does once; [thread 0]: its units only), and million units/s\n");
		c->legend = true;
	}
	printf("%-14s %-40s thr=%-3u ", e->name, pt->params_text, pt->nthreads);
	if (rec->status != LAB_STATUS_OK) {
		printf("%s: %s\n", rec->status == LAB_STATUS_SKIPPED ? "SKIPPED" : "FAILED",
		       rec->reason);
		fflush(stdout);
		run_stdout_check();
		return;
	}
	cost = calloc(rec->nreps ? rec->nreps : 1, sizeof(*cost));
	if (!cost)
		return;
	for (unsigned r = 0; r < rec->nreps; r++)
		cost[r] = rec->samples[r].work
		              ? (double)rec->samples[r].elapsed_ns / (double)rec->samples[r].work
		              : NAN;
	qsort(cost, rec->nreps, sizeof(cost[0]), run_cmp_double);
	double med = cost[rec->nreps / 2];
	free(cost);
	printf("%10.3f ns/%s%s  %9.2f M/s  verify %s", med, e->kernel->work_unit,
	       e->kernel->work_scope == LAB_WORK_SHARED ? " [shared]"
	       : e->kernel->work_scope == LAB_WORK_ONE  ? " [thread 0]"
	                                                : "",
	       1e3 / med, rec->verify == LAB_VERIFY_PASS ? "ok" : "-");
	/* The cause and count here; the run's totals once at the end (run_report_load). */
	if (rec->nflagged)
		printf("  (flagged: %u of %u samples, %s)", rec->nflagged, rec->nreps,
		       rec->nflagged_runq == rec->nflagged ? "run-queue wait"
		       : rec->nflagged_runq                ? "foreign load, run-queue wait"
		                                           : "foreign load");
	putchar('\n');
	fflush(stdout);
	run_stdout_check();
	/* Per-point causes are counted and said once at the end (run_report). */
	lab_run_warn_add(&c->warn, rec);
}

static int run_sink_point(void *ctx, const struct lab_point_rec *rec, struct lab_err *err)
{
	struct run_console *c = ctx;

	if (c->start_rc) {
		*err = c->start_err;
		return c->start_rc;
	}
	run_print_point(c, rec);
	c->failed += rec->status == LAB_STATUS_FAILED;
	c->skipped += rec->status == LAB_STATUS_SKIPPED;
	c->flagged_points += rec->nflagged > 0;
	c->samples += rec->nreps;
	c->flagged += rec->nflagged;
	c->flagged_runq += rec->nflagged_runq;
	c->total_spent += rec->last_run && rec->prec.total_exhausted;
	for (unsigned i = 0; rec->samples && i < rec->nreps; i++)
		c->retried += rec->samples[i].attempts > 1;
	int rc = lab_results_point(c->res, rec, err);
	c->begun += rc == 0 && rec->run == 0;
	c->done += rc == 0 && rec->last_run;
	return rc;
}

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

	for (unsigned k = 2; rc == -LAB_EINVAL && own_name && k < 100; k++) {
		snprintf(dir + base, len - base, "-%u", k);
		rc = lab_results_open(res, dir, plan, info, err);
	}
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

/* How the load guard went: samples retried, and what to do about those that stayed flagged. */
static void run_report_load(const struct run_console *con)
{
	if (con->retried)
		printf("load: %u of %u samples ran under foreign load and were taken again "
		       "(retry_flagged, quiet_wait)\n",
		       con->retried, con->samples);
	if (!con->flagged)
		return;
	printf("load: %u of %u samples (%.0f %%) were kept flagged (their retries ran out, or "
	       "their point's load had outlasted every retry once)",
	       con->flagged, con->samples, 100.0 * con->flagged / con->samples);
	if (con->flagged_runq)
		printf(", %u of them because a worker waited for its CPU (runq_wait above "
		       "max_runq_wait: another task ran on it)",
		       con->flagged_runq);
	printf(
	    "; the analyzer leaves them out. Rerun when the machine is quiet (see `uptime`, "
	    "`top`), raise retry_flagged or quiet_wait, or analyze with --include-flagged to use "
	    "them anyway\n");
}

/* Prints how the run ended, once, and tells the truth about what was kept. */
/* s as one word a shell reads back (the "next:" line is pasted): as it is when every byte is
 * plain, else in single quotes ('my dir': 'o;touch X' ran touch), or as $'...' where it holds
 * control bytes ('a\nb' in quotes is another directory's name); ./ before a leading '-' (an
 * option when pasted). */
static void run_put_word(const char *s)
{
	static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	                            "0123456789_./:@%+=,-";
	const char *dot = *s == '-' ? "./" : "";
	bool ctl = false;

	for (const char *q = s; *q; q++)
		ctl |= (unsigned char)*q < 0x20 || *q == 0x7f;
	if (*s && !s[strspn(s, plain)]) {
		fputs(dot, stdout);
		lab_opts_puts_escaped(stdout, s);
		return;
	}
	if (ctl) { /* bash's ANSI-C quoting: every byte said */
		printf("$'%s", dot);
		for (const unsigned char *q = (const unsigned char *)s; *q; q++)
			if (*q < 0x20 || *q >= 0x7f || *q == '\'' || *q == '\\')
				printf("\\x%02x", *q);
			else
				putchar(*q);
		putchar('\'');
		return;
	}
	printf("'%s", dot);
	for (const char *q = s; *q;) { /* runs between quotes whole: UTF-8 stays UTF-8 */
		size_t n = strcspn(q, "'");
		char *run = strndup(q, n);

		if (run)
			lab_opts_puts_escaped(stdout, run);
		free(run);
		q += n;
		if (*q == '\'') {
			fputs("'\\''", stdout);
			q++;
		}
	}
	putchar('\'');
}

static void run_report(const struct run_console *con, const char *self, const char *dir, int rc,
                       const struct lab_err *err, int crc, const struct lab_err *cerr)
{
	unsigned npts = con->s->plan->npts;

	if (rc && rc != -LAB_EINTR)
		lab_opts_error("lab: %s", err->msg);
	if (crc && (!rc || strcmp(cerr->msg, err->msg) != 0))
		lab_opts_error("lab: %s (run.json may still say \"running\")", cerr->msg);
	if (rc == -LAB_EINTR)
		lab_opts_error("lab: interrupted; the finished points are in %s", dir);
	/* the directory as -o named it: escaped, as in every message */
	fputs("\nresults: ", stdout);
	lab_opts_puts_escaped(stdout, dir);
	if (rc == 0 && crc == 0)
		printf(" (%u points, %u skipped, %u failed verification or setup)\n", npts,
		       con->skipped, con->failed);
	else {
		printf(" is incomplete: %u of %u points finished", con->done, npts);
		/* their finished runs are kept; run.json says runs < runs_planned */
		if (con->begun > con->done)
			printf(", %u more with fewer runs than planned", con->begun - con->done);
		printf(" (%s)\n", rc == -LAB_EINTR ? "interrupted" : "the run failed");
	}
	run_report_load(con);
	fflush(stdout);
	lab_run_warn_print(stderr, &con->warn);
	/* The binary as the user called it (build/lab/lab from the source tree), so the line
	 * works from where they are; plain `lab` when it came from the PATH. */
	printf("next: ");
	run_put_word(self && strchr(self, '/') ? self : "lab");
	fputs(" analyze ", stdout);
	run_put_word(dir);
	putchar('\n');
}

/* The longest results directory name, -o's or the lab's own, plus one. */
#define RUN_DIR_MAX 512

static int run_execute(int argc, char **argv, const struct lab_cli_args *a, struct lab_cli_setup *s)
{
	struct run_console con = {.s = s, .progress = !a->no_progress && isatty(STDERR_FILENO)};
	struct lab_results_info info = {
	    .argc = argc, .argv = argv, .cfg = &s->cfg, .topo = s->topo};
	struct lab_sink sink = {.ctx = &con, .point = run_sink_point, .progress = run_progress};
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
	if (run_open(&con.res, dir, sizeof(dir), !a->out_dir, s->plan, &info, &err)) {
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
	                              .interrupted = &run_interrupted};
	runner.elsewhere = lab_run_fresh_point;
	runner.elsewhere_ctx = &fresh;
	run_selfcheck(&runner, s, &sc);
	lab_opts_error("lab: %u points into %s", s->plan->npts, dir);
	if (s->cache_note[0])
		lab_opts_error("lab: caches: %s", s->cache_note);
	/* Up front, the same estimate as lab plan: the kernels' declared costs (issue 21). */
	lab_cli_estimate_text(s->plan, est, sizeof(est));
	fprintf(stderr, "estimated run time: %s on a quiet machine\n", est);
	con.t0_ns = lab_clock_ns();
	if (con.progress)
		run_eta_begin(&con);
	int rc = lab_runner_run(&runner, s->plan, &sink, &err);
	if (con.progress)
		fprintf(stderr, "\r\033[K");
	const char *status = rc == 0 ? "complete" : rc == -LAB_EINTR ? "interrupted" : "failed";
	int crc =
	    lab_results_close(con.res, status, rc && rc != -LAB_EINTR ? err.msg : NULL, &cerr);
	run_signals(SIG_DFL);
	run_report(&con, lab_self, dir, rc, &err, crc, &cerr);
	if (con.total_spent) /* harness/precision.h: lab_prec_total_spent */
		fprintf(
		    stderr,
		    "lab: total_budget spent: %u point%s stopped adding precision samples or runs "
		    "(run.json total_budget_exhausted)\n",
		    con.total_spent, con.total_spent == 1 ? "" : "s");
	return rc || crc || con.failed ? LAB_EXIT_FAILURE : LAB_EXIT_OK;
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
	rc = lab_cli_prepare(&a, &s);
	if (rc == LAB_EXIT_OK && a.dry_run)
		lab_cli_print_plan(&s, false);
	else if (rc == LAB_EXIT_OK && !lab_topo_is_thissystem(s.topo)) {
		lab_opts_error("lab run: --topology %s is not this machine: nothing can run on it "
		               "(use lab plan or --dry-run)",
		               a.topology);
		rc = LAB_EXIT_USAGE;
	} else if (rc == LAB_EXIT_OK)
		rc = run_execute(argc, argv, &a, &s);
	lab_cli_release(&s);
	return rc;
}
