/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lab fleet status: what the scheduler says about a fleet (squeue, scontrol, sacct; each with a
 * time limit) merged with each node's own task record under DIR/tasks/, written back into
 * DIR/fleet.json. Everything read here is untrusted: node names are checked before they name a
 * file, and a value that does not parse is left as it was.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze/csv.h"
#include "analyze/jsonr.h"
#include "lab/cli.h"
#include "lab/fleet_int.h"

/* Copies the value of "KEY=" in scontrol's one-line output into buf ("" when absent or when it
 * does not fit: never a cut value). */
static void fleet_field(const char *text, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);
	const char *p = text;

	buf[0] = '\0';
	while ((p = strstr(p, key)) != NULL) {
		if ((p == text || p[-1] == ' ') && p[klen] == '=') {
			p += klen + 1;
			size_t n = strcspn(p, " \n");
			if (n < len)
				snprintf(buf, len, "%.*s", (int)n, p);
			return;
		}
		p += klen;
	}
}

/* The first line of text (up to a '|') into buf; "" when it does not fit. */
static void fleet_first_line(const char *text, char *buf, size_t len)
{
	size_t n = strcspn(text, "\n|");

	buf[0] = '\0';
	if (n < len)
		snprintf(buf, len, "%.*s", (int)n, text);
}

/* Adds a task for every node of a Slurm host list ("n[1-4]"), expanded by scontrol. */
static void fleet_add_nodes(struct lab_an_fleet *f, const char *list)
{
	/* One line per node of the largest fleet, each name whole. */
	static char out[LAB_FLEET_TASKS_MAX * (LAB_FLEET_NAME_MAX + 1) + 1];

	if (!list[0] || !strcmp(list, "(null)") || !lab_an_fleet_arg_ok(list))
		return;
	const char *argv[] = {"scontrol", "show", "hostnames", list, NULL};
	int rc = lab_fleet_capture(argv, LAB_FLEET_CMD_TIMEOUT_S, out, sizeof(out), NULL, 0);
	if (rc == -3)
		fprintf(stderr,
		        "lab fleet: warning: scontrol show hostnames: more than %d nodes; "
		        "the job's nodes are not listed\n",
		        LAB_FLEET_TASKS_MAX);
	if (rc != 0)
		return;
	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		if (!lab_an_fleet_task_get(f, line)) {
			fputs("lab fleet: warning: node name '", stderr);
			lab_fleet_put(stderr, line);
			fputs(
			    "' from scontrol is not a plain name, is reserved (" LAB_FLEET_RESERVED
			    ") or is one too many; ignored\n",
			    stderr);
		}
	}
}

/*
 * Runs one of Slurm's client commands into out. Returns 1 when the scheduler answered (an
 * unknown job is an answer), else 0 with what happened added to note: a slurmctld that is down
 * or slow is not a scheduler that knows nothing of the job.
 */
static int fleet_ask(const char *const argv[], char *out, size_t len, char *note, size_t nlen)
{
	char err[512];
	int rc = lab_fleet_capture(argv, LAB_FLEET_CMD_TIMEOUT_S, out, len, err, sizeof(err));
	size_t used = strlen(note);

	if (rc == 0 || (rc > 0 && strstr(err, "Invalid job id")))
		return 1;
	err[strcspn(err, "\n")] = '\0';
	if (rc == -2)
		snprintf(note + used, nlen - used, "%s%s did not answer within %d s",
		         used ? "; " : "", argv[0], LAB_FLEET_CMD_TIMEOUT_S);
	else
		snprintf(note + used, nlen - used, "%s%s %s%s", used ? "; " : "", argv[0],
		         rc == -1   ? "could not be run"
		         : rc == -3 ? "answered more than it may"
		                    : "failed: ",
		         rc > 0 ? (err[0] ? err : "no message") : "");
	return 0;
}

/* Asks squeue, then scontrol, then sacct about the run job; sets f->state and the nodes.
 * Returns 1 when one of them answered, else 0 after a warning that says why. */
static int fleet_ask_scheduler(struct lab_an_fleet *f)
{
	static char out[LAB_FLEET_NODELIST_MAX + 4096], nodes[LAB_FLEET_NODELIST_MAX];
	char state[32] = "", note[1600] = "";
	const char *job = f->run_job;
	int answered = 0;

	nodes[0] = '\0';
	if (!lab_an_fleet_job_ok(job)) /* lab_an_fleet_read checked it; never an option */
		return 0;
	const char *sq[] = {"squeue", "-h", "-j", job, "-o", "%T", NULL};
	if (fleet_ask(sq, out, sizeof(out), note, sizeof(note)) && ++answered)
		fleet_first_line(out, state, sizeof(state));
	const char *sc[] = {"scontrol", "-o", "show", "job", job, NULL};
	if (fleet_ask(sc, out, sizeof(out), note, sizeof(note)) && ++answered) {
		fleet_field(out, "JobState", state, sizeof(state));
		fleet_field(out, "NodeList", nodes, sizeof(nodes));
	}
	if (!state[0]) {
		/* Gone from slurmctld's memory (MinJobAge): only accounting still knows it. */
		const char *sa[] = {"sacct",          "-n", "-P", "-X", "-j", job, "-o",
		                    "State,NodeList", NULL};
		if (fleet_ask(sa, out, sizeof(out), note, sizeof(note)) && ++answered) {
			fleet_first_line(out, state, sizeof(state));
			char *bar = strpbrk(out, "|\n");
			if (bar && *bar != '|')
				bar = NULL;
			if (bar)
				fleet_first_line(bar + 1, nodes, sizeof(nodes));
		}
	}
	if (state[0] && lab_an_fleet_state_ok(state)) /* what fleet.json may hold */
		snprintf(f->state, sizeof(f->state), "%s", state);
	else if (!state[0] && answered)
		fprintf(stderr,
		        "lab fleet: warning: the scheduler knows nothing of job %s (squeue, "
		        "scontrol and sacct); using the tasks' own records\n",
		        job);
	if (!answered) {
		fputs("lab fleet: warning: the scheduler did not answer (", stderr);
		lab_fleet_put(stderr, note);
		fputs("); the recorded states are kept\n", stderr);
	}
	fleet_add_nodes(f, nodes);
	return answered;
}

/* "lab fleet: warning: DIR/tasks[/NAME]: WHY; REST" on stderr, the names escaped. */
static void fleet_record_warn(const char *dir, const char *name, const char *why, const char *rest)
{
	fputs("lab fleet: warning: ", stderr);
	lab_fleet_put(stderr, dir);
	fputs("/tasks", stderr);
	if (name) {
		fputc('/', stderr);
		lab_fleet_put(stderr, name);
	}
	fputs(": ", stderr);
	lab_fleet_put(stderr, why); /* a reader's error quotes the file */
	fprintf(stderr, "; %s\n", rest);
}

/*
 * Opens DIR/tasks as a directory of DIR: a link (perhaps out of DIR) or anything but a directory
 * is refused with a warning, and the records are then read relative to the descriptor, so no
 * name in them can lead elsewhere. Returns the descriptor, or -1 (no records).
 */
static int fleet_tasks_open(const char *dir)
{
	char path[4200];
	struct stat st;

	snprintf(path, sizeof(path), "%s/tasks", dir);
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 || errno == ENOENT)
		return fd;
	int e = errno;
	const char *why = lstat(path, &st) != 0  ? strerror(e)
	                  : S_ISLNK(st.st_mode)  ? "a symbolic link (refused: never followed)"
	                  : !S_ISDIR(st.st_mode) ? "not a directory"
	                                         : strerror(e);
	fleet_record_warn(dir, NULL, why, "no task record read");
	return -1;
}

/* Reads the record name of the tasks directory dfd into buf (NUL-terminated): 0, or -1 with
 * *why. A link is not followed and a FIFO, device or directory is refused without blocking. */
static int fleet_record_read(int dfd, const char *name, char *buf, size_t len, size_t *got,
                             const char **why)
{
	struct stat st = {0}; /* a failed fstat reads as "not a regular file" */
	size_t used = 0;
	ssize_t n = 0;
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	if (fd < 0) {
		*why =
		    errno == ELOOP ? "a symbolic link (refused: never followed)" : strerror(errno);
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		*why = S_ISDIR(st.st_mode)    ? "a directory, not a task record"
		       : S_ISFIFO(st.st_mode) ? "a FIFO, not a task record"
		                              : "not a regular file";
		close(fd);
		return -1;
	}
	while (used + 1 < len &&
	       ((n = read(fd, buf + used, len - 1 - used)) > 0 || (n < 0 && errno == EINTR)))
		used += n > 0 ? (size_t)n : 0;
	close(fd);
	buf[used] = '\0';
	*got = used;
	*why = n < 0 ? "cannot be read" : used + 1 >= len ? "too large for a task record" : NULL;
	return *why ? -1 : 0;
}

/* The state and exit code of a task record, both checked before either is taken (a refused
 * state beside a kept exit code made a row "MISSING 77"): 0, or -1 with *why. */
static int fleet_record_parse(const char *name, const char *text, size_t len, char *state,
                              size_t slen, int *code, const char **why)
{
	static char bad_json[LAB_ERR_MSG_MAX + 32];
	struct lab_an_json *j = NULL;
	struct lab_err err;

	*why = "not a task record (allowed: {\"state\": A SLURM STATE, \"exit_code\": 0..255 or "
	       "null})";
	if (lab_an_json_parse(name, text, len, &j, &err)) { /* all of it: a NUL is no end */
		/* what the reader found (a key twice, a cut text) at its line */
		snprintf(bad_json, sizeof(bad_json), "not a task record: %s", err.msg);
		*why = bad_json;
		return -1;
	}
	const char *st = lab_an_json_str(j, "state");
	const struct lab_an_json *c = lab_an_json_get(j, "exit_code");
	int ok = st && strlen(st) < slen && lab_an_fleet_state_ok(st) && c &&
	         (c->type == LAB_AN_JSON_NULL || (c->type == LAB_AN_JSON_NUM && c->num >= 0 &&
	                                          c->num <= 255 && c->num == (int)c->num));
	if (ok) {
		snprintf(state, slen, "%s", st);
		*code = c->type == LAB_AN_JSON_NUM ? (int)c->num : -1;
	}
	lab_an_json_free(j);
	return ok ? 0 : -1;
}

/* Reads DIR/tasks/NODE.json records written by `lab fleet task`; a record that is not one is
 * dropped whole with a warning, and adds no task. */
static void fleet_read_records(const char *dir, struct lab_an_fleet *f)
{
	static char text[65536];
	int dfd = fleet_tasks_open(dir);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	struct dirent *e;
	unsigned full = 0;

	if (dfd >= 0 && !d)
		close(dfd);
	while (d && (e = readdir(d)) != NULL) {
		char node[LAB_FLEET_NAME_MAX + 8], state[32];
		size_t n = strlen(e->d_name), len = 0;
		const char *why;
		int code;

		if (n < 6 || n - 5 >= LAB_FLEET_NAME_MAX || strcmp(e->d_name + n - 5, ".json"))
			continue;
		snprintf(node, sizeof(node), "%.*s", (int)(n - 5), e->d_name);
		if (!lab_an_fleet_node_ok(node) || lab_an_fleet_node_reserved(node))
			continue;
		if (fleet_record_read(dfd, e->d_name, text, sizeof(text), &len, &why) ||
		    fleet_record_parse(e->d_name, text, len, state, sizeof(state), &code, &why)) {
			fleet_record_warn(dir, e->d_name, why, "not read");
			continue;
		}
		struct lab_an_fleet_task *t = lab_an_fleet_task_get(f, node);
		if (t) {
			snprintf(t->state, sizeof(t->state), "%s", state);
			t->exit_code = code;
		} else if (!full++) { /* which ones are left depends on the directory's order */
			char why_full[96];
			snprintf(why_full, sizeof(why_full), "a node beyond the fleet's %d tasks",
			         LAB_FLEET_TASKS_MAX);
			fleet_record_warn(dir, e->d_name, why_full,
			                  "no record of a node beyond them is read");
		}
	}
	if (d)
		closedir(d);
}

static int fleet_state_final(const char *s)
{
	return s[0] && strcmp(s, "PENDING") && strcmp(s, "RUNNING") && strcmp(s, "CONFIGURING") &&
	       strcmp(s, "COMPLETING") && strcmp(s, "SUSPENDED") && strcmp(s, "REQUEUED");
}

void lab_fleet_refresh(const char *dir, struct lab_an_fleet *f)
{
	/* Only a scheduler that answered may change a recorded state: an unreachable one turned
	 * tasks recorded COMPLETED into MISSING. The tasks' own records still count. */
	int answered = f->run_job[0] ? fleet_ask_scheduler(f) : 1;

	for (size_t i = 0; answered && i < f->ntask; i++) {
		snprintf(f->task[i].state, sizeof(f->task[i].state), "UNKNOWN");
		f->task[i].exit_code = -1;
	}
	fleet_read_records(dir, f);
	if (!answered)
		return;
	int final = fleet_state_final(f->state);
	for (size_t i = 0; i < f->ntask; i++) {
		struct lab_an_fleet_task *t = &f->task[i];
		if (!strcmp(t->state, "UNKNOWN") || !strcmp(t->state, "PENDING"))
			/* No record of its own: it never started (yet). */
			snprintf(t->state, sizeof(t->state), "%s",
			         final                             ? "MISSING"
			         : lab_an_fleet_state_ok(f->state) ? f->state
			                                           : "UNKNOWN");
		else if (!strcmp(t->state, "RUNNING") && final)
			/* Started but never wrote its end: killed with the job. */
			snprintf(t->state, sizeof(t->state), "%s",
			         strcmp(f->state, "COMPLETED") && lab_an_fleet_state_ok(f->state)
			             ? f->state
			             : "FAILED");
	}
}

/* Prints s escaped (lab_fleet_put), then spaces up to width columns. */
static void fleet_cell(const char *s, int width)
{
	char *e = lab_fleet_esc(s);

	printf("%-*s", width, e);
	lab_fleet_esc_free(e);
}

/* The table. Every string here was read from files or from the scheduler: printed escaped, so
 * a control byte in fleet.json cannot erase a line or fake one. */
static void fleet_print(const char *dir, const struct lab_an_fleet *f)
{
	fputs("fleet ", stdout);
	lab_fleet_put(stdout, dir);
	fputs("\n  config ", stdout);
	lab_fleet_put(stdout, f->config_source);
	fputs("\n  job ", stdout);
	lab_fleet_put(stdout, f->run_job[0] ? f->run_job : "-");
	fputs(": ", stdout);
	lab_fleet_put(stdout, f->state[0] ? f->state : "unknown");
	fputs("; analysis job ", stdout);
	lab_fleet_put(stdout, f->analyze_job[0] ? f->analyze_job : "-");
	putchar('\n');
	if (!f->ntask) {
		printf("  no nodes known yet\n");
		return;
	}
	printf("  %-20s %-12s %4s  %s\n", "node", "state", "exit", "results");
	for (size_t i = 0; i < f->ntask; i++) {
		const struct lab_an_fleet_task *t = &f->task[i];
		char code[16] = "-";
		if (t->exit_code >= 0)
			snprintf(code, sizeof(code), "%d", t->exit_code);
		fputs("  ", stdout);
		fleet_cell(t->node, 20);
		putchar(' ');
		fleet_cell(t->state, 12);
		printf(" %4s  ", code);
		lab_fleet_put(stdout, dir);
		putchar('/');
		lab_fleet_put(stdout, t->node);
		putchar('\n');
	}
}

static const char fleet_status_help[] =
    "usage: lab fleet status DIR [--json]\n\n"
    "Asks Slurm (squeue, scontrol, sacct) how the fleet in DIR is doing, updates DIR/fleet.json\n"
    "and prints the job's state and, per node, its task's state, exit code and results\n"
    "directory.\n\n"
    "  --json  print the updated fleet.json on stdout instead of the table\n";

int lab_fleet_status(int argc, char **argv)
{
	const char *dir = NULL;
	int json = 0;
	struct lab_err err;
	static struct lab_an_fleet f;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = 1;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(fleet_status_help, stdout);
			return LAB_EXIT_OK;
		} else if (argv[i][0] == '-' || dir) {
			fputs("lab fleet status: unexpected '", stderr);
			lab_fleet_put(stderr, argv[i]);
			fputs("' (usage: lab fleet status DIR [--json])\n", stderr);
			return LAB_EXIT_USAGE;
		} else
			dir = argv[i];
	}
	if (!dir) {
		fprintf(stderr,
		        "lab fleet status: give the fleet directory (lab fleet status DIR)\n");
		return LAB_EXIT_USAGE;
	}
	if (strlen(dir) > LAB_FLEET_READ_DIR_MAX) {
		fprintf(stderr, "lab fleet status: DIR is %zu characters (allowed at most %d)\n",
		        strlen(dir), LAB_FLEET_READ_DIR_MAX);
		return LAB_EXIT_USAGE;
	}
	if (lab_an_fleet_read(dir, &f, &err)) {
		fputs("lab fleet status: ", stderr);
		lab_fleet_put(stderr, err.msg);
		fputc('\n', stderr);
		return err.code == LAB_EDATA ? LAB_EXIT_USAGE : LAB_EXIT_FAILURE;
	}
	lab_fleet_refresh(dir, &f);
	if (lab_an_fleet_write(dir, &f, &err)) {
		fputs("lab fleet status: ", stderr);
		lab_fleet_put(stderr, err.msg);
		fputc('\n', stderr);
		return LAB_EXIT_FAILURE;
	}
	if (json)
		lab_an_fleet_json(&f, stdout);
	else
		fleet_print(dir, &f);
	return LAB_EXIT_OK;
}
