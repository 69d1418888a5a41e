/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * perf c2c around one point: perf attaches to this process (-p), so it samples the point's
 * worker threads and nothing the lab does between points. perf runs as a child started with an
 * argument vector (never a shell); the child only redirects and execs, as after fork in a
 * threaded process only async-signal-safe calls are allowed.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/clock.h"
#include "harness/counters.h"
#include "harness/kernel_api.h"
#include "harness/perf_c2c.h"

#define C2C_REPORT_MAX (16u << 20)

bool lab_c2c_unavailable(const struct lab_ctr_host *h, bool perf_found, char *why, size_t len)
{
	bool intel = !strcmp(h->vendor, "GenuineIntel");
	bool amd = !strcmp(h->vendor, "AuthenticAMD") || !strcmp(h->vendor, "HygonGenuine");

	if (!perf_found)
		snprintf(why, len, "perf not found in PATH");
	else if (!h->privileged && h->paranoid > 1)
		snprintf(why, len,
		         "perf_event_paranoid=%d (perf c2c needs 1 or less, root or CAP_PERFMON)",
		         h->paranoid);
	else if (!(intel && h->cpu_pmu) && !(amd && strstr(h->pmus, "ibs_op")))
		snprintf(why, len,
		         "no PMU that samples memory accesses (%s%s; needs Intel's cpu PMU "
		         "or AMD's ibs_op)",
		         h->vendor, h->hypervisor ? ", under a hypervisor" : "");
	else
		return false;
	return true;
}

bool lab_c2c_perf_in_path(void)
{
	const char *path = getenv("PATH");
	char dir[4096], exe[4200];

	while (path && *path) {
		size_t n = strcspn(path, ":");
		snprintf(dir, sizeof(dir), "%.*s", (int)(n < sizeof(dir) ? n : sizeof(dir) - 1),
		         path);
		snprintf(exe, sizeof(exe), "%s/perf", n ? dir : ".");
		if (access(exe, X_OK) == 0)
			return true;
		path += n + (path[n] == ':');
	}
	return false;
}

/* fork + execvp argv with stdout to out_fd (-1: /dev/null) and stderr to /dev/null. */
static pid_t c2c_spawn(const char *const *argv, int out_fd)
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	int null = open("/dev/null", O_RDWR);
	if (null >= 0) {
		dup2(null, 0);
		dup2(out_fd >= 0 ? out_fd : null, 1);
		dup2(null, 2);
	}
	execvp(argv[0], (char *const *)argv); /* execvp does not write them */
	_exit(127);
}

/* Waits for pid until the deadline (lab_clock_ns), then kills it (and what it started): a perf
 * that ignored SIGINT, or a report stuck on symbols, held lab run. */
static int c2c_wait(pid_t pid, const char *what, uint64_t deadline, struct lab_err *err)
{
	int st = 0, killed = 0;

	for (pid_t w; (w = waitpid(pid, &st, WNOHANG)) <= 0;) {
		if (w < 0 && errno != EINTR)
			return lab_err_set(err, LAB_ESYS, "%s: waitpid: %s", what, strerror(errno));
		if (w == 0 && !killed && lab_clock_ns() >= deadline) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			killed = 1;
		}
		nanosleep(&(struct timespec){.tv_nsec = 10000000}, NULL);
	}
	if (killed)
		return lab_err_set(err, LAB_ESYS, "%s did not end in time (killed)", what);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	if (WIFEXITED(st))
		return lab_err_set(err, LAB_ESYS, "%s exited with status %d%s", what,
		                   WEXITSTATUS(st),
		                   WEXITSTATUS(st) == 127 ? " (could not run perf)" : "");
	return lab_err_set(err, LAB_ESYS, "%s killed by signal %d", what,
	                   WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

static void c2c_cleanup(struct lab_c2c_session *s)
{
	if (s->data[0])
		unlink(s->data);
	if (s->dir[0])
		rmdir(s->dir);
	s->dir[0] = s->data[0] = '\0';
}

int lab_c2c_start(struct lab_c2c_session *s, struct lab_err *err)
{
	char pid[24];
	const char *tmp = getenv("TMPDIR");

	memset(s, 0, sizeof(*s));
	s->record_end_s = LAB_C2C_RECORD_END_S;
	s->report_s = LAB_C2C_REPORT_S;
	snprintf(s->dir, sizeof(s->dir), "%s/lab-c2c-XXXXXX",
	         tmp && *tmp && strlen(tmp) < 40 ? tmp : "/tmp");
	if (!mkdtemp(s->dir)) {
		s->dir[0] = '\0';
		return lab_err_set(err, LAB_ESYS, "perf c2c: temporary directory: %s",
		                   strerror(errno));
	}
	snprintf(s->data, sizeof(s->data), "%s/perf.data", s->dir);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	const char *argv[] = {"perf", "c2c", "record", "-o", s->data, "-p", pid, NULL};
	pid_t p = c2c_spawn(argv, -1);
	if (p < 0) {
		c2c_cleanup(s);
		return lab_err_set(err, LAB_ESYS, "perf c2c record: fork: %s", strerror(errno));
	}
	s->pid = (int)p;
	/* perf needs a moment to open its events; samples before that are simply not taken. */
	nanosleep(&(struct timespec){.tv_nsec = 200000000}, NULL);
	return 0;
}

/* Runs perf c2c report on s->data; its stdout into *text (malloc'd), *len bytes. */
static int c2c_report(struct lab_c2c_session *s, char **text, size_t *len, struct lab_err *err)
{
	int fd[2];
	size_t cap = 1 << 16;
	char *buf = malloc(cap);

	*text = NULL;
	*len = 0;
	if (!buf || pipe(fd) != 0) {
		free(buf);
		return lab_err_set(err, LAB_ESYS, "perf c2c report: pipe: %s", strerror(errno));
	}
	const char *argv[] = {"perf", "c2c", "report", "-i", s->data, "--stdio", NULL};
	pid_t p = c2c_spawn(argv, fd[1]);
	uint64_t deadline = lab_clock_ns() + s->report_s * 1000000000ull;
	close(fd[1]);
	for (ssize_t n = 1; p > 0 && n > 0;) {
		struct pollfd pf = {.fd = fd[0], .events = POLLIN};
		if (lab_clock_ns() >= deadline)
			break; /* c2c_wait kills it */
		if (poll(&pf, 1, 100) <= 0)
			continue;
		if (*len + 1 >= cap && cap < C2C_REPORT_MAX) {
			char *grown = realloc(buf, cap * 2);
			if (!grown)
				break;
			buf = grown;
			cap *= 2;
		}
		n = *len + 1 < cap ? read(fd[0], buf + *len, cap - 1 - *len) : 0;
		if (n > 0)
			*len += (size_t)n;
		else if (n < 0 && errno == EINTR)
			n = 1;
	}
	close(fd[0]);
	int rc = p < 0 ? lab_err_set(err, LAB_ESYS, "perf c2c report: fork: %s", strerror(errno))
	               : c2c_wait(p, "perf c2c report", deadline, err);
	if (rc) {
		free(buf);
		return rc;
	}
	*text = buf;
	return 0;
}

int lab_c2c_stop(struct lab_c2c_session *s, struct lab_c2c_report *r, struct lab_err *err)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	memset(r, 0, sizeof(*r));
	if (s->pid <= 0)
		return lab_err_set(err, LAB_ESYS, "perf c2c record was not started");
	kill(s->pid, SIGINT);
	rc = c2c_wait(s->pid, "perf c2c record", lab_clock_ns() + s->record_end_s * 1000000000ull,
	              err);
	s->pid = 0;
	if (rc == 0 && (rc = c2c_report(s, &text, &len, err)) == 0) {
		rc = lab_c2c_parse(text, len, r, err);
		free(text);
	}
	c2c_cleanup(s);
	return rc;
}

static void c2c_unavailable(struct lab_ctx *ctx, const char *why)
{
	char text[LAB_ERR_MSG_MAX + 32];

	snprintf(text, sizeof(text), "unavailable (%s)", why);
	lab_ctx_fact_str(ctx, "perf_c2c", text);
}

void lab_c2c_point_begin(struct lab_c2c_session *s, const struct lab_ctr_host *host,
                         struct lab_ctx *ctx)
{
	char why[LAB_ERR_MSG_MAX];
	struct lab_err err = {0};

	memset(s, 0, sizeof(*s));
	if (lab_c2c_unavailable(host, lab_c2c_perf_in_path(), why, sizeof(why)))
		c2c_unavailable(ctx, why);
	else if (lab_c2c_start(s, &err))
		c2c_unavailable(ctx, err.msg);
}

void lab_c2c_point_end(struct lab_c2c_session *s, struct lab_ctx *ctx)
{
	static struct lab_c2c_report r; /* 10 KiB; points run one at a time */
	struct lab_err err = {0};

	if (s->pid <= 0)
		return;
	if (lab_c2c_stop(s, &r, &err))
		c2c_unavailable(ctx, err.msg);
	else
		lab_c2c_facts(ctx, &r);
}

void lab_c2c_facts(struct lab_ctx *ctx, const struct lab_c2c_report *r)
{
	char top[2048];
	size_t used = 0;

	top[0] = '\0';
	for (unsigned l = 0; l < r->nlines && l < 4 && used < sizeof(top); l++) {
		const struct lab_c2c_line *cl = &r->lines[l];
		used +=
		    (size_t)snprintf(top + used, sizeof(top) - used,
		                     "%s0x%llx rmt_hitm=%llu lcl_hitm=%llu:", l ? "; " : "",
		                     (unsigned long long)cl->addr, (unsigned long long)cl->rmt_hitm,
		                     (unsigned long long)cl->lcl_hitm);
		for (unsigned o = 0; o < r->noffs && used < sizeof(top); o++)
			if (r->offs[o].line == l)
				used += (size_t)snprintf(top + used, sizeof(top) - used,
				                         " +0x%llx %.1f%%/%.1f%% %s (%s)",
				                         (unsigned long long)r->offs[o].offset,
				                         r->offs[o].rmt_pct, r->offs[o].lcl_pct,
				                         r->offs[o].symbol, r->offs[o].object);
	}
	lab_ctx_fact_str(ctx, "perf_c2c", "ok");
	lab_ctx_fact_int(ctx, "perf_c2c_lines", r->nlines);
	lab_ctx_fact_str(ctx, "perf_c2c_top", top);
}
