/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lab fleet's processes: Slurm's client commands run from an argument vector with a time limit
 * (never through a shell), and the per-node task that srun starts on every node of the fleet.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analyze/jsonr.h"
#include "analyze/jsonw.h"
#include "analyze/wfile.h"
#include "lab/cli.h"
#include "lab/fleet_int.h"

/*
 * The child's side: its own process group (a Ctrl-C at the terminal goes to lab's group, and an
 * sbatch killed halfway may have submitted a job whose id nobody learns; lab decides what to end),
 * stdin from /dev/null, stdout and stderr to the pipes, then exec.
 */
static void fleet_child(const char *const argv[], int out_fd, int err_fd)
{
	int null = open("/dev/null", O_RDWR);

	setpgid(0, 0);

	if (null >= 0)
		dup2(null, 0);
	dup2(out_fd, 1);
	dup2(err_fd >= 0 ? err_fd : null, 2);
	execvp(argv[0], (char *const *)argv);
	_exit(127);
}

/* Reads what fd has into buf at *used (what does not fit sets *cut); returns 0 at end of file,
 * 1 otherwise. */
static int fleet_drain(int fd, char *buf, size_t len, size_t *used, int *cut)
{
	char tmp[4096];
	ssize_t n = read(fd, tmp, sizeof(tmp));

	if (n <= 0)
		return n < 0 && errno == EINTR;
	size_t take = (size_t)n;
	if (buf && *used + take >= len) {
		take = len > *used + 1 ? len - *used - 1 : 0;
		*cut = 1;
	}
	if (buf && take) {
		memcpy(buf + *used, tmp, take);
		*used += take;
		buf[*used] = '\0';
	}
	return 1;
}

static long fleet_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

int lab_fleet_capture(const char *const argv[], int timeout_s, char *out, size_t len, char *errbuf,
                      size_t errlen)
{
	int po[2], pe[2], status = 0;
	size_t used_o = 0, used_e = 0;

	if (len)
		out[0] = '\0';
	if (errbuf && errlen)
		errbuf[0] = '\0';
	if (pipe2(po, O_CLOEXEC) != 0)
		return -1;
	if (pipe2(pe, O_CLOEXEC) != 0) {
		close(po[0]);
		close(po[1]);
		return -1;
	}
	pid_t pid = fork();
	if (pid == 0)
		fleet_child(argv, po[1], pe[1]);
	close(po[1]);
	close(pe[1]);
	if (pid < 0) {
		close(po[0]);
		close(pe[0]);
		return -1;
	}
	long deadline = fleet_now_ms() + timeout_s * 1000L;
	struct pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
	int open_fds = 2, timed_out = 0, cut[2] = {0, 0};
	while (open_fds > 0) {
		long left = deadline - fleet_now_ms();
		if (left <= 0) {
			timed_out = 1;
			kill(-pid, SIGKILL); /* its group: what it started too */
			kill(pid, SIGKILL);
			break;
		}
		if (poll(fds, 2, (int)left) < 0 && errno != EINTR)
			break;
		for (int i = 0; i < 2; i++)
			if (fds[i].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) &&
			    !fleet_drain(fds[i].fd, i ? errbuf : out, i ? errlen : len,
			                 i ? &used_e : &used_o, &cut[i])) {
				fds[i].fd = -1;
				open_fds--;
			}
	}
	close(po[0]);
	close(pe[0]);
	/* its pipes closed, the command may still not end (a squeue that closed its output and
	 * hung): the deadline holds here too */
	for (pid_t w; (w = waitpid(pid, &status, WNOHANG)) == 0 || (w < 0 && errno == EINTR);) {
		if (w == 0 && !timed_out && fleet_now_ms() >= deadline) {
			timed_out = 1;
			kill(-pid, SIGKILL); /* its group: what it started too */
			kill(pid, SIGKILL);
		}
		poll(NULL, 0, w ? 0 : 5);
	}
	if (timed_out || !WIFEXITED(status))
		return -2;
	if (WEXITSTATUS(status) == 127 && used_o == 0)
		return -1;
	return cut[0] ? -3 : WEXITSTATUS(status);
}

int lab_fleet_sbatch(const char *const *av, char *job, size_t len)
{
	char out[256], err[2048];
	int rc = lab_fleet_capture(av, 60, out, sizeof(out), err, sizeof(err));
	size_t n = strspn(out, "0123456789");

	if (rc == 0 && n > 0 && n < len && (!out[n] || strchr(";\n", out[n]))) {
		snprintf(job, len, "%.*s", (int)n, out);
		return 0;
	}
	err[strcspn(err, "\n")] = '\0';
	if (rc == -1) {
		fprintf(stderr, "lab fleet: sbatch: cannot run it (is Slurm's client installed and "
		                "on PATH?); nothing was submitted\n");
		return -1;
	}
	fprintf(stderr, "lab fleet: sbatch %s: ",
	        rc == -2              ? "timed out"
	        : rc == 0 || rc == -3 ? "answered"
	                              : "failed");
	lab_fleet_put(stderr, rc == 0 || rc == -3 || !err[0] ? "no job id in its output" : err);
	fputc('\n', stderr);
	return -1;
}

void lab_fleet_scancel(const char *job)
{
	char out[256];
	const char *av[] = {"scancel", job, NULL};

	lab_fleet_capture(av, LAB_FLEET_CMD_TIMEOUT_S, out, sizeof(out), NULL, 0);
}

/* Writes DIR/tasks/NODE.json: the task's own record of its state and exit code. */
static int fleet_task_record(const char *dir, const char *node, const char *state, int code)
{
	struct lab_an_wfile w;
	struct lab_err err;
	struct lab_json j;
	char path[4200];
	const char *job = getenv("SLURM_JOB_ID");

	snprintf(path, sizeof(path), "%s/tasks", dir);
	if (mkdir(path, 0755) != 0 && errno != EEXIST)
		return -1;
	snprintf(path, sizeof(path), "%s/tasks/%s.json", dir, node);
	if (!lab_an_wfile_open(&w, path, &err)) {
		fprintf(stderr, "lab fleet task: %s\n", err.msg);
		return -1;
	}
	lab_json_begin_digits(&j, w.f, 10);
	lab_json_obj_open(&j, NULL);
	lab_json_str(&j, "node", node);
	lab_json_str(&j, "job_id", job ? job : "");
	lab_json_str(&j, "state", state);
	if (code >= 0)
		lab_json_int(&j, "exit_code", code);
	else
		lab_json_str(&j, "exit_code", NULL);
	lab_json_obj_close(&j);
	lab_json_end(&j);
	return lab_an_wfile_close(&w, 1, &err);
}

int lab_fleet_task(int argc, char **argv)
{
	const char *node = getenv("SLURMD_NODENAME");
	char exe[4096], config[4200], out[4200];
	int status = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: lab fleet task DIR (started by the fleet job's srun)\n");
		return LAB_EXIT_USAGE;
	}
	if (strlen(argv[1]) > LAB_FLEET_DIR_MAX) {
		fprintf(stderr,
		        "lab fleet task: DIR is %zu characters (allowed at most %d); nothing was "
		        "run\n",
		        strlen(argv[1]), LAB_FLEET_DIR_MAX);
		return LAB_EXIT_USAGE;
	}
	if (lab_an_fleet_node_reserved(node)) {
		fprintf(stderr,
		        "lab fleet task: node name '%s' is one the fleet directory uses itself "
		        "(reserved: " LAB_FLEET_RESERVED "); nothing was run\n",
		        node);
		return LAB_EXIT_USAGE;
	}
	if (!lab_an_fleet_node_ok(node)) {
		fprintf(stderr,
		        "lab fleet task: SLURMD_NODENAME is missing or not a plain name (allowed "
		        "1 .. %d characters of [A-Za-z0-9._+-], no leading '.'); nothing was run\n",
		        LAB_FLEET_NAME_MAX - 1);
		return LAB_EXIT_USAGE;
	}
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		fprintf(stderr, "lab fleet task: cannot find the lab binary: %s\n",
		        strerror(errno));
		return LAB_EXIT_FAILURE;
	}
	exe[n] = '\0';
	snprintf(config, sizeof(config), "%s/config.ini", argv[1]);
	snprintf(out, sizeof(out), "%s/%s", argv[1], node);
	fleet_task_record(argv[1], node, "RUNNING", -1);
	pid_t pid = fork();
	if (pid == 0) {
		/* the job's --time bounds it, not lab run's own limit on its estimate */
		const char *child[] = {exe,           "run", config, "-o", out, "--no-progress",
		                       "--max-hours", "0",   NULL};
		execv(exe, (char *const *)child);
		_exit(127);
	}
	/* A cancelled or timed-out job sends SIGTERM to every process of the step: lab run keeps
	 * what it finished, and this waits for it so the record says how it ended. */
	signal(SIGTERM, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (pid < 0) {
		fleet_task_record(argv[1], node, "FAILED", LAB_EXIT_FAILURE);
		return LAB_EXIT_FAILURE;
	}
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	fleet_task_record(argv[1], node, code == 0 ? "COMPLETED" : "FAILED", code);
	return code;
}
