/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fresh_process = on: each run of a point measured by a new process of this binary (exec'd, so
 * its address layout, heap and pages are its own; Kalibera & Jones's process level). The
 * parent (lab run) starts `lab __run-point --point ID` with its own configs, --set and --only;
 * the child plans again, checks that its point is the parent's, measures it in one run and
 * writes the point's identity and its record (harness/runner_wire.c) to the pipe on its
 * stdout. No shell: an argument vector and posix_spawn.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/clock.h"
#include "harness/runner.h"
#include "lab/cli.h"
#include "lab/run_fresh.h"

extern char **environ;

/* What makes a planned point this one: its experiment, params, threads and CPUs. */
static void fresh_ident(const struct lab_plan *plan, const struct lab_point *pt, char *buf,
                        size_t len)
{
	const struct lab_hparams *h = &pt->h;
	size_t used = (size_t)snprintf(buf, len, "%u %s %u %s", pt->id, plan->exp[pt->exp].name,
	                               pt->nthreads, pt->params_text);

	for (unsigned i = 0; i < pt->ncpus && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, " %d", pt->cpus[i]);
	/* and how it is measured: reps = 7 written over reps = 2 mid-run went unnoticed */
	if (used < len)
		snprintf(
		    buf + used, len - used,
		    " | %llu %llu %llu %llu %.17g %.17g %llu %llu %d %.200s %.200s %d %llu %.64s "
		    "%llu",
		    (unsigned long long)h->reps, (unsigned long long)h->warmup,
		    (unsigned long long)h->min_time, (unsigned long long)h->seed, h->load_threshold,
		    h->max_runq_wait, (unsigned long long)h->retry_flagged,
		    (unsigned long long)h->quiet_wait, h->counters, h->events, h->membind,
		    h->perf_c2c, (unsigned long long)h->runs, h->precision,
		    (unsigned long long)h->budget);
}

/* Seconds an interrupted child gets to end its sample (and send the samples of its run) before
 * it is killed: a hung child; a second Ctrl-C ends lab run and it at once. */
#define FRESH_GRACE_S 60

/* All the child writes, into *buf; 0 or -1 (errno). A Ctrl-C or SIGTERM that reached lab run
 * alone (not the child's process group) is passed on, so the child stops at its next sample;
 * with SIGCONT (a stopped child kept it pending and lab run waited for ever), and SIGKILL when
 * the child has not ended FRESH_GRACE_S later. */
struct fresh_pass {
	int passed; /* 1: SIGTERM sent, 2: SIGKILL */
	uint64_t since;
};

/* Passes an interrupt on to child once, then SIGKILL FRESH_GRACE_S later. */
static void fresh_pass_on(pid_t child, const atomic_int *interrupted, struct fresh_pass *ps)
{
	if (!ps->passed && atomic_load(interrupted)) {
		kill(child, SIGTERM);
		kill(child, SIGCONT);
		ps->passed = 1;
		ps->since = lab_clock_ns();
	}
	if (ps->passed == 1 && lab_clock_ns() - ps->since > (uint64_t)FRESH_GRACE_S * 1000000000u) {
		kill(child, SIGKILL);
		ps->passed = 2;
	}
}

static int fresh_read_all(int fd, pid_t child, const atomic_int *interrupted, struct fresh_pass *ps,
                          char **buf, size_t *len)
{
	size_t cap = 1 << 16;
	char *b = malloc(cap);
	struct pollfd p = {.fd = fd, .events = POLLIN};

	*len = 0;
	if (!b)
		return -1;
	for (;;) {
		fresh_pass_on(child, interrupted, ps);
		int ready = poll(&p, 1, 100);
		if (ready < 0 && errno != EINTR) {
			free(b);
			return -1;
		}
		if (ready <= 0)
			continue;
		if (*len == cap) {
			char *g = cap < SIZE_MAX / 2 ? realloc(b, cap * 2) : NULL;
			if (!g) {
				free(b);
				errno = ENOMEM;
				return -1;
			}
			b = g;
			cap *= 2;
		}
		ssize_t n = read(fd, b + *len, cap - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(b);
			return -1;
		}
		if (n == 0)
			break;
		*len += (size_t)n;
	}
	*buf = b;
	return 0;
}

/* A run that did not come back: a failed record that says what its process did. */
static int fresh_failed(const struct lab_point *pt, struct lab_point_rec *rec, int pid,
                        const char *what)
{
	memset(rec, 0, sizeof(*rec));
	rec->status = LAB_STATUS_FAILED;
	rec->nthreads = pt->nthreads;
	rec->pid = pid;
	snprintf(rec->reason, sizeof(rec->reason), "the process of this run (pid %d) %.400s", pid,
	         what);
	return 0;
}

/* The child's bytes: its point's identity (checked against ours), what it knew of a persistent
 * load when it ended (lab_runner_persist's points, taken into ours), then the record. */
static int fresh_take(const struct lab_run_fresh *f, const struct lab_point *pt, const char *buf,
                      size_t len, int pid, struct lab_point_rec *rec, struct lab_err *err)
{
	char want[4096];
	uint64_t ilen, persist;

	fresh_ident(f->plan, pt, want, sizeof(want));
	if (len < sizeof(ilen) || (memcpy(&ilen, buf, sizeof(ilen)), ilen > len - sizeof(ilen)))
		return fresh_failed(pt, rec, pid, "sent no record");
	if (ilen != strlen(want) || memcmp(buf + sizeof(ilen), want, ilen))
		return fresh_failed(pt, rec, pid,
		                    "planned another point: a config changed on disk during the "
		                    "run, or the CPUs this process may use did");
	buf += sizeof(ilen) + ilen;
	len -= sizeof(ilen) + ilen;
	if (len < sizeof(persist))
		return fresh_failed(pt, rec, pid, "sent no record");
	memcpy(&persist, buf, sizeof(persist));
	if (f->runner) /* a count of runs of points in a row */
		lab_runner_persist(f->runner, pt->nthreads)->points =
		    (unsigned)(persist < 1u << 30 ? persist : 1u << 30);
	buf += sizeof(persist);
	len -= sizeof(persist);
	int rc = lab_point_rec_unpack(buf, len, f->origin_ns, rec, err);
	if (rc == -LAB_ENOMEM)
		return rc;
	if (rc) {
		char what[LAB_ERR_MSG_MAX + 16];
		snprintf(what, sizeof(what), "sent %s", err->msg);
		return fresh_failed(pt, rec, pid, what);
	}
	rec->pid = pid;
	return 0;
}

/* The child's argument vector: __run-point --point ID --persist N, the parent's --set, --only
 * and --cache, the cache level the parent checked (so the child plans the same sizes), then "--"
 * and the parent's configs. */
static const char **fresh_argv(const struct lab_cli_args *a, const char *cache_arg, const char *id,
                               const char *persist)
{
	size_t n = 0, max = 7 + a->nconfigs + 2 * (size_t)a->nsets + 2 * (size_t)a->nonly +
	                    2 * ((size_t)a->ncaches + 1) + 1;
	const char **v = calloc(max, sizeof(*v));

	if (!v)
		return NULL;
	v[n++] = lab_self;
	v[n++] = "__run-point";
	v[n++] = "--point";
	v[n++] = id;
	v[n++] = "--persist";
	v[n++] = persist;
	for (unsigned i = 0; i < a->nsets; i++) {
		v[n++] = "--set";
		v[n++] = a->sets[i];
	}
	for (unsigned i = 0; i < a->nonly; i++) {
		v[n++] = "--only";
		v[n++] = a->only[i];
	}
	for (unsigned i = 0; i < a->ncaches; i++) {
		v[n++] = "--cache";
		v[n++] = a->caches[i];
	}
	if (cache_arg && cache_arg[0]) {
		v[n++] = "--cache";
		v[n++] = cache_arg;
	}
	v[n++] = "--"; /* a config named "-x.ini" is a config */
	for (unsigned i = 0; i < a->nconfigs; i++)
		v[n++] = a->configs[i];
	return v;
}

int lab_run_fresh_point(void *ctx, const struct lab_point *pt, struct lab_point_rec *rec,
                        struct lab_err *err)
{
	const struct lab_run_fresh *f = ctx;
	char id[24], persist[24], *buf = NULL;
	const char **argv;
	int fds[2], status = 0, rc;
	size_t len = 0;
	pid_t pid;
	posix_spawn_file_actions_t fa;

	snprintf(id, sizeof(id), "%u", pt->id);
	snprintf(persist, sizeof(persist), "%u",
	         f->runner ? lab_runner_persist(f->runner, pt->nthreads)->points : 0);
	if (!(argv = fresh_argv(f->a, f->cache_arg, id, persist)))
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	if (pipe(fds)) {
		free(argv);
		return lab_err_set(err, LAB_ESYS, "fresh_process: pipe: %s", strerror(errno));
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	posix_spawn_file_actions_addclose(&fa, fds[1]);
	rc = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	free(argv);
	close(fds[1]);
	if (rc) {
		close(fds[0]);
		return lab_err_set(err, LAB_ESYS, "fresh_process: cannot start the lab again: %s",
		                   strerror(rc));
	}
	struct fresh_pass ps = {0};
	int rd = fresh_read_all(fds[0], pid, f->interrupted, &ps, &buf, &len), rerr = errno;
	close(fds[0]);
	/* its stdout closed, the child may still hang before it ends: interrupts are passed on */
	for (pid_t w; (w = waitpid(pid, &status, WNOHANG)) == 0 || (w < 0 && errno == EINTR);) {
		fresh_pass_on(pid, f->interrupted, &ps);
		poll(NULL, 0, w ? 0 : 2);
	}
	/* A process that measured its whole run and sent it before it saw the Ctrl-C is kept, as
	 * a run finished in this process is; one that stopped part way left nothing to keep. */
	if (atomic_load(f->interrupted) && (rd || !WIFEXITED(status) || WEXITSTATUS(status))) {
		free(buf);
		memset(rec, 0, sizeof(*rec));
		return lab_err_set(err, LAB_EINTR, "interrupted");
	}
	if (rd) {
		char what[128];
		snprintf(what, sizeof(what), "could not be read: %s", strerror(rerr));
		fresh_failed(pt, rec, (int)pid, what);
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		char how[96];
		if (WIFSIGNALED(status))
			snprintf(how, sizeof(how), "died of signal %d", WTERMSIG(status));
		else if (WEXITSTATUS(status) == 128 + SIGINT) /* fresh_child_run's own */
			snprintf(how, sizeof(how),
			         "was interrupted (SIGINT, SIGTERM or SIGHUP reached it)");
		else
			snprintf(how, sizeof(how), "exited with status %d (its error is on stderr)",
			         WEXITSTATUS(status));
		fresh_failed(pt, rec, (int)pid, how);
	} else if ((rc = fresh_take(f, pt, buf, len, (int)pid, rec, err))) {
		free(buf);
		return rc;
	}
	free(buf);
	return 0;
}

/* ---- the child: lab __run-point --point ID [CONFIG ...] [--set ...] [--only ...] [--cache ...]
 * ---- */

static atomic_int fresh_interrupted;

static void fresh_on_signal(int sig)
{
	(void)sig;
	atomic_store(&fresh_interrupted, 1);
}

static const struct lab_opt fresh_opts[] = {
    {"--point", NULL, LAB_OPT_VALUE, "ID", offsetof(struct lab_cli_args, point), 0,
     "the planned point to measure (its id in lab plan)"},
    {"--persist", NULL, LAB_OPT_VALUE, "N", offsetof(struct lab_cli_args, persist), 0,
     "points of its team size in a row whose load outlasted every retry (lab run's count)"},
    LAB_CLI_OPT_SET,
    LAB_CLI_OPT_ONLY,
    LAB_CLI_OPT_CACHE,
    LAB_OPTS_END,
};

static const struct lab_cmd_opts fresh_cmd = {
    .name = "__run-point",
    .synopsis = "--point ID [CONFIG.ini ...] [--set SEC.KEY=VAL]... [--only SEC]...\n"
                "                     [--cache LN=SIZE]...",
    .about = "Internal to lab run (fresh_process = on): plans the configs, measures one run of\n"
             "point ID in this new process and writes its record to standard output, which\n"
             "must not be a terminal.\n",
    .opts = fresh_opts,
    .pos_at = offsetof(struct lab_cli_args, configs),
    .npos_at = offsetof(struct lab_cli_args, nconfigs),
    .pos_max = LAB_CLI_LIST_MAX,
    .pos_what = "config files",
};

/* Writes n bytes to stdout; 0 or -1. */
static int fresh_write(const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t w = write(STDOUT_FILENO, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Measures point pt once and writes its identity and record; the exit code. */
static int fresh_child_run(const struct lab_cli_setup *s, const struct lab_point *pt,
                           unsigned persist)
{
	const struct lab_experiment *e = &s->plan->exp[pt->exp];
	struct lab_point_spec spec = {.kernel = e->kernel,
	                              .kparams = pt->kparams,
	                              .h = &pt->h,
	                              .cpus = pt->cpus,
	                              .n = pt->nthreads};
	struct lab_runner runner;
	struct lab_point_rec rec;
	struct lab_err err = {0};
	char ident[4096], *buf = NULL;
	size_t len = 0;

	signal(SIGINT, fresh_on_signal);
	signal(SIGTERM, fresh_on_signal);
	signal(SIGHUP, fresh_on_signal);
	/* lab run killed (SIGKILL, no handler, or a second Ctrl-C's _exit) ends its child too, not
	 * minutes later: SIGKILL, which a stopped child cannot leave pending (SIGTERM left one
	 * orphaned in state T); it writes nothing but the pipe its parent no longer reads */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1)
		return 128 + SIGINT;
	lab_runner_init(&runner, s->topo, &s->plan->env, &fresh_interrupted);
	lab_runner_persist(&runner, pt->nthreads)->points = persist;
	int rc = lab_runner_point(&runner, &spec, &rec, &err);
	uint64_t persist_after = lab_runner_persist(&runner, pt->nthreads)->points;
	if (rc == 0)
		rc = lab_point_rec_pack(&rec, runner.origin_ns, &buf, &len);
	lab_point_rec_free(&rec);
	if (rc == -LAB_EINTR) /* lab run was interrupted too: it says so */
		return 128 + SIGINT;
	if (rc) {
		lab_opts_error("lab __run-point: %s",
		               rc == -LAB_ENOMEM ? "out of memory" : err.msg);
		return LAB_EXIT_FAILURE;
	}
	fresh_ident(s->plan, pt, ident, sizeof(ident));
	uint64_t ilen = strlen(ident);
	rc = fresh_write(&ilen, sizeof(ilen)) || fresh_write(ident, ilen) ||
	     fresh_write(&persist_after, sizeof(persist_after)) || fresh_write(buf, len);
	free(buf);
	if (rc) {
		lab_opts_error("lab __run-point: write the record: %s", strerror(errno));
		return LAB_EXIT_FAILURE;
	}
	return LAB_EXIT_OK;
}

int lab_cmd_run_point(int argc, char **argv)
{
	struct lab_cli_args a;
	struct lab_cli_setup s;
	char *end = NULL;
	int rc = lab_opts_parse(&fresh_cmd, argc, argv, &a, sizeof(a));

	if (rc)
		return rc == LAB_OPTS_HELP ? LAB_EXIT_OK : LAB_EXIT_USAGE;
	if (isatty(STDOUT_FILENO)) {
		lab_opts_error("lab __run-point: standard output is a terminal (this command is "
		               "lab run's, with fresh_process = on)");
		return LAB_EXIT_USAGE;
	}
	errno = 0;
	unsigned long id = a.point ? strtoul(a.point, &end, 10) : 0;
	if (!a.point || a.point[0] < '0' || a.point[0] > '9' || *end || errno) {
		lab_opts_error("lab __run-point: --point ID: a point id (allowed 0, 1, ...)");
		return LAB_EXIT_USAGE;
	}
	unsigned long persist = a.persist ? strtoul(a.persist, &end, 10) : 0;
	if (a.persist &&
	    (a.persist[0] < '0' || a.persist[0] > '9' || *end || errno || persist > UINT_MAX)) {
		lab_opts_error(
		    "lab __run-point: --persist N: a count of points (allowed 0, 1, ...)");
		return LAB_EXIT_USAGE;
	}
	rc = lab_cli_prepare(&a, &s);
	if (rc == LAB_EXIT_OK && id >= s.plan->npts) {
		lab_opts_error("lab __run-point: --point %lu: the plan has %u points", id,
		               s.plan->npts);
		rc = LAB_EXIT_USAGE;
	}
	if (rc == LAB_EXIT_OK)
		rc = fresh_child_run(&s, &s.plan->pts[id], (unsigned)persist);
	lab_cli_release(&s);
	return rc;
}
