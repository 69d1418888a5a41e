/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lab: the command line. A table of subcommands; each lives in lab/cmd_*.c. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lab/cli.h"
#include "lab/run_fresh.h"

struct lab_subcommand {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
	const char *summary;
};

/* Each usage is the command's own synopsis (`lab CMD --help`, its option table) on one line, so
 * this list names every option a command takes; tests/integration checks they agree. */
static const struct lab_subcommand lab_subcommands[] = {
    {"run", lab_cmd_run,
     "[CONFIG.ini ...] [-o DIR] [--set SEC.KEY=VAL]... [--only SEC]... "
     "[--cache LN=SIZE]... [--topology SPEC] [--dry-run] [--no-progress] [--max-hours N]",
     "run experiments (no config: the built-in quick set)"},
    {"plan", lab_cmd_plan,
     "CONFIG.ini [CONFIG.ini ...] [--topology SPEC] [--set SEC.KEY=VAL]... [--only SEC]... "
     "[--cache LN=SIZE]... [--json]",
     "print the expanded points and CPU lists; runs nothing"},
    {"topo", lab_cmd_topo, "[--topology SPEC] [--json]", "show the topology the lab sees"},
    {"counters", lab_cmd_counters, "[--json] [--record-fixture FILE [--events LIST]]",
     "which performance counters open here, and why not"},
    {"list", lab_cmd_list, "[--json]", "list the kernels"},
    {"describe", lab_cmd_describe, "KERNEL", "explain a kernel and its parameters"},
    {"analyze", lab_cmd_analyze,
     "DIR [--json] [--no-plots] [--include-flagged] [--objective O] | "
     "--csv FILE [--json] [--objective O]",
     "statistics, speedup, Amdahl/USL fits, plots"},
    {"report", lab_cmd_report, "DIR [--include-flagged]",
     "lab analyze without its text: the same files, one line naming report.html"},
    {"compare", lab_cmd_compare, "DIR_A DIR_B [--noise 0.01] [--json] [--include-flagged]",
     "per-point change between two runs"},
    {"fleet", lab_cmd_fleet,
     "CONFIG [--nodes N | --nodelist LIST] [--partition P] [--constraint C] [--time T] "
     "[--topology SPEC] [-o DIR] [--dry-run] | status DIR [--json]",
     "run a config on whole Slurm nodes and analyze the fleet"},
    {"version", lab_cmd_version, "", "print the version and build facts"},
};

#define LAB_NSUBCOMMANDS (sizeof(lab_subcommands) / sizeof(lab_subcommands[0]))

/* Where `lab --help` wraps a usage, and the indent of its next lines (under the usage). */
#define LAB_USAGE_WIDTH  96
#define LAB_USAGE_INDENT 16

/* The length of usage's first word, a blank outside brackets ending it ("[--nodes N | ...]" is
 * one), or, with alt set, of its first alternative (up to " | " outside brackets). */
static size_t lab_usage_span(const char *usage, int alt)
{
	const char *end = usage;
	int depth = 0;

	for (; *end; end++) {
		depth += (*end == '[') - (*end == ']');
		if (!depth && *end == ' ' && (!alt || !strncmp(end, " | ", 3)))
			break;
	}
	return (size_t)(end - usage);
}

/* Prints usage from column col, wrapped at LAB_USAGE_WIDTH between words (a new alternative
 * starts a line when it does not fit whole), then a newline. */
static void lab_usage_wrapped(FILE *f, const char *usage, size_t col)
{
	for (const char *p = usage; *p;) {
		size_t len = lab_usage_span(p, 0);
		int bar = p != usage && !strncmp(p, "| ", 2);

		if (p != usage && (bar ? col + 1 + lab_usage_span(p + 2, 1) + 2 > LAB_USAGE_WIDTH
		                       : col + 1 + len > LAB_USAGE_WIDTH)) {
			fprintf(f, "\n%*s", LAB_USAGE_INDENT, "");
			col = LAB_USAGE_INDENT;
		} else if (p != usage) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)len, p);
		col += len;
		p += p[len] ? len + 1 : len;
	}
	fputc('\n', f);
}

static void lab_usage(FILE *f)
{
	fprintf(f,
	        "usage: lab COMMAND [ARGS]\n\n"
	        "The contention lab: measures how multithreaded code behaves on this machine.\n\n");
	for (size_t i = 0; i < LAB_NSUBCOMMANDS; i++) {
		fprintf(f, "  lab %s", lab_subcommands[i].name);
		if (*lab_subcommands[i].usage) {
			fprintf(f, "%*s", 10 - (int)strlen(lab_subcommands[i].name), "");
			lab_usage_wrapped(f, lab_subcommands[i].usage, LAB_USAGE_INDENT);
		} else {
			fputc('\n', f);
		}
		fprintf(f, "%*s%s\n", LAB_USAGE_INDENT, "", lab_subcommands[i].summary);
	}
	fprintf(f, "\nExit codes: 0 done (skips included), 1 runtime failure, 2 bad usage or "
	           "config.\n`lab COMMAND --help` (or `lab help COMMAND`) for more.\n");
}

/* A standard descriptor the caller closed (`lab ... >&-`) is held by a read-only /dev/null, so
 * the first file the lab opens cannot become stdout (results written into it) and a write to
 * it fails, which lab_stdout_done reports. */
static void lab_std_fds_hold(void)
{
	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
			int null = open("/dev/null", O_RDONLY);

			if (null >= 0 && null != fd) {
				dup2(null, fd);
				close(null);
			}
		}
}

/* Output that never arrived is a failure: a full disk, a closed or unwritable stdout make the
 * exit 1 with a message, whatever the command did; EPIPE (the reader left, SIGPIPE ignored)
 * stays silent and leaves the command's own exit code. Returns the exit code. */
static int lab_stdout_done(int code)
{
	int failed = ferror(stdout), e = errno;
	struct pollfd p = {.fd = STDOUT_FILENO, .events = POLLOUT};

	if (fflush(stdout) != 0) {
		failed = 1;
		e = errno; /* fresh: this write failed */
	} else if (failed && e != ENOSPC && e != EBADF && e != EIO && e != EFBIG && e != EDQUOT &&
	           e != EPIPE) {
		e = 0; /* an earlier write failed; errno has moved on since */
	}
	if (!failed)
		return code;
	/* a pipe whose reader left reports POLLERR */
	if (e == 0 && poll(&p, 1, 0) == 1 && (p.revents & POLLERR))
		e = EPIPE;
	/* the reader left (`| head -1`): what it read is what it wanted, and the command's own
	 * code stands (it was 0 or 1 by the size of the output against the pipe's buffer) */
	if (e == EPIPE)
		return code;
	fprintf(stderr, "%s: cannot write standard output: %s\n", lab_self,
	        e ? strerror(e) : "write error");
	return code == LAB_EXIT_OK ? LAB_EXIT_FAILURE : code;
}

static int lab_main(int argc, char **argv)
{
	if (argc < 2) {
		lab_usage(stderr);
		return LAB_EXIT_USAGE;
	}
	/* `lab help run` (and `lab --help run`) is `lab run --help`: it printed the general usage,
	 * as did `lab help frobnicate`, exit 0 */
	int help = !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help");
	if (help && argc == 3 && strcmp(argv[2], "help") && strcmp(argv[2], "--help") &&
	    strcmp(argv[2], "-h")) {
		char opt[] = "--help", *sub[] = {argv[0], argv[2], opt, NULL};
		if (!strcmp(argv[2], "__run-point")) /* lab run's own, not a command to help with */
			sub[1] = opt + 2;
		return lab_main(3, sub);
	}
	if (help && argc > 3) {
		lab_opts_error("lab %s: one command at most (lab help COMMAND)", argv[1]);
		return LAB_EXIT_USAGE;
	}
	if (help) {
		lab_usage(stdout);
		return LAB_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version"))
		return lab_cmd_version(argc - 1, argv + 1);
	if (!strcmp(argv[1], "__run-point")) /* lab run's own, not listed: lab/run_fresh.c */
		return lab_cmd_run_point(argc - 1, argv + 1);
	for (size_t i = 0; i < LAB_NSUBCOMMANDS; i++)
		if (!strcmp(argv[1], lab_subcommands[i].name))
			return lab_subcommands[i].fn(argc - 1, argv + 1);
	char names[256] = "";
	size_t used = 0;
	for (size_t i = 0; i < LAB_NSUBCOMMANDS && used < sizeof(names); i++)
		used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s", i ? ", " : "",
		                         lab_subcommands[i].name);
	lab_opts_error("lab: unknown command '%s' (allowed: %s; see lab --help)", argv[1], names);
	return LAB_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	if (argc > 0 && argv[0] && *argv[0])
		lab_self = argv[0];
	lab_std_fds_hold();
	/* A reader of stdout that left (`lab analyze FLEET | head -1`) is EPIPE, never a death
	 * that leaves the files after the first printed part unwritten. */
	signal(SIGPIPE, SIG_IGN);
	return lab_stdout_done(lab_main(argc, argv));
}
