/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The CLI's subcommands. Each takes the arguments after its name (argv[0] is the subcommand)
 * and returns the process exit code: 0 done (skips included), 1 a runtime failure, 2 bad usage
 * or bad config. Only lab/ prints to the user and decides exit codes.
 */
#ifndef LAB_LAB_CLI_H
#define LAB_LAB_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "harness/cacheprobe.h"
#include "harness/config.h"
#include "harness/plan.h"
#include "harness/topo.h"
#include "lab/cli_opts.h"

#define LAB_EXIT_OK      0
#define LAB_EXIT_FAILURE 1
#define LAB_EXIT_USAGE   2

/* The longest results directory name lab run takes, -o's or the lab's own, plus one (lab fleet
 * sizes its directory by it: every node runs lab run -o DIR/<node>). */
#define LAB_RUN_DIR_MAX 512

/* LAB_CPU_MASK hiding an extension the whole build's code may use (its C flags' -march): no CPU
 * without it could start this lab (cpu_guard.c), so the skips it shows would be of a machine
 * that cannot exist, and code of it still runs everywhere (an x86-64-v4 build's OpenMP points
 * ran under LAB_CPU_MASK=avx2). Returns 0, or LAB_EXIT_USAGE after saying so. */
int lab_cli_mask_check(const struct lab_env *env);

int lab_cmd_run(int argc, char **argv);
int lab_cmd_plan(int argc, char **argv);
int lab_cmd_topo(int argc, char **argv);
int lab_cmd_counters(int argc, char **argv); /* lab/cmd_counters.c */
int lab_cmd_list(int argc, char **argv);
int lab_cmd_describe(int argc, char **argv);
int lab_cmd_version(int argc, char **argv);
/* lab/cmd_fleet.c: fleet, fleet status (and the internal fleet task). */
int lab_cmd_fleet(int argc, char **argv);
/* Analyzes one results directory: lab analyze's arguments with DIR a host's directory. */
typedef int (*lab_fleet_host_fn)(int argc, char **argv);
/* lab analyze DIR when DIR is a fleet (lab/fleet_analyze.c): every host through analyze (lab
 * analyze itself), then the cross-host view. Takes lab analyze's arguments; returns the exit
 * code. */
int lab_fleet_analyze(int argc, char **argv, lab_fleet_host_fn analyze);

/*
 * Prints the build-time vectorization remarks kept for k's per-ISA files, if any; for a kernel
 * with an `isa` parameter in a build whose compiler keeps none (clang), says so.
 */
void lab_describe_remarks(const struct lab_kernel *k);
/* lab/cmd_analyze.c: analyze, report, compare. */
int lab_cmd_analyze(int argc, char **argv);
int lab_cmd_report(int argc, char **argv);
int lab_cmd_compare(int argc, char **argv);

/* ---- shared by run and plan (lab/cli_common.c) ---- */

#define LAB_CLI_LIST_MAX LAB_OPTS_LIST_MAX

/* What run and plan parse from their command lines (by the tables in cmd_run.c, cmd_plan.c). */
struct lab_cli_args {
	const char *configs[LAB_CLI_LIST_MAX];
	unsigned nconfigs;
	const char *sets[LAB_CLI_LIST_MAX];
	unsigned nsets;
	const char *only[LAB_CLI_LIST_MAX];
	unsigned nonly;
	const char *caches[LAB_CLI_LIST_MAX]; /* --cache L3=32M | L3=reported */
	unsigned ncaches;
	const char *topology;
	const char *out_dir;
	const char *point;     /* lab __run-point --point ID */
	const char *persist;   /* lab __run-point --persist N: lab_runner_persist's points */
	const char *max_hours; /* lab run --max-hours N */
	bool json, dry_run, no_progress;
};

/* Option rows run and plan share: --set, --only, --topology (help says what they do). */
#define LAB_CLI_OPT_SET                                                                            \
	{                                                                                          \
		"--set", NULL, LAB_OPT_LIST, "SEC.KEY=VAL", offsetof(struct lab_cli_args, sets),   \
		    offsetof(struct lab_cli_args, nsets),                                          \
		    "override a key of experiment SEC (repeatable; SEC may hold dots;\n"           \
		    "the last --set of a key wins)"                                                \
	}
#define LAB_CLI_OPT_ONLY                                                                           \
	{                                                                                          \
		"--only", NULL, LAB_OPT_LIST, "SEC", offsetof(struct lab_cli_args, only),          \
		    offsetof(struct lab_cli_args, nonly), "only experiment SEC (repeatable)"       \
	}

#define LAB_CLI_OPT_CACHE                                                                          \
	{                                                                                          \
		"--cache", NULL, LAB_OPT_LIST, "LN=SIZE", offsetof(struct lab_cli_args, caches),   \
		    offsetof(struct lab_cli_args, ncaches),                                        \
		    "size of cache level N for sizes like L3/2 (L3=32M), or\n"                     \
		    "LN=reported: the machine's figure, unchecked (repeatable)"                    \
	}

/* argv[0] of this process, as the user typed it (for "next:" lines); "lab" until main sets it. */
extern const char *lab_self;

/*
 * The last cache level of this system under a hypervisor, checked by loads (harness/
 * cacheprobe.h): whether its reported size holds, and the size plans use where it does not:
 * the power of two at or below the largest working set that loaded at the level's speed (the
 * sweep's answer moves with the neighbours' share of a shared cache, 16 to 27 MiB on the EPYC
 * guest; the power of two much less, so runs on one machine plan the same sizes).
 */
struct lab_cli_llc {
	unsigned level;
	struct lab_cache_probe p;
	uint64_t use; /* bytes plans use: the report, unless the loads contradict it */
	char hv[32];  /* the hypervisor's name */
};

/* A loaded config, its topology and its plan. */
struct lab_cli_setup {
	struct lab_cfg cfg;
	struct lab_topo *topo;
	struct lab_plan *plan;
	char stem[128];         /* the first config's name without directory and .ini; "quick" */
	char cache_note[512];   /* why a reported cache size was replaced here; "" when none was */
	char cache_arg[40];     /* the checked level for lab __run-point: "L3=23068672" */
	struct lab_cli_llc llc; /* the last level's check (llc.level 0 when none ran) */
};

/* Whether this process may use fewer of this system's CPUs than it has; then the line that says
 * which ("cpus allowed: 1 (1 of 2): ...") into buf. False on other topologies. */
bool lab_cli_cpus_restricted(const struct lab_topo *topo, char *buf, size_t len);

/* The plan's quiet-machine estimate in seconds, precision targets' budgets aside (the figure
 * lab_cli_estimate_text says first). */
double lab_cli_estimate_seconds(const struct lab_plan *plan);

/* "12 s", "5 min", "1.5 h", "4 days", "857 years" into buf; returns buf. */
const char *lab_cli_duration(double s, char *buf, size_t len);

/* A config path's name for a results directory: no directory, no ".ini", each byte other than a
 * letter, digit, '.', '_' or '-' as '_'; "config" when nothing is left. */
void lab_cli_stem(const char *path, char *buf, size_t len);

/*
 * Loads the configs (the built-in quick config when there are none), applies --set, opens the
 * topology and builds the plan. Prints every config error as one line and a closing count on
 * stderr. Returns LAB_EXIT_OK, LAB_EXIT_USAGE (bad config) or LAB_EXIT_FAILURE.
 */
int lab_cli_prepare(const struct lab_cli_args *a, struct lab_cli_setup *s);

/*
 * lab/cli_caches.c: applies --cache to s->topo (LAB_EXIT_USAGE, said on stderr, for one that
 * does not parse) and, under a hypervisor, checks the last cache level the configs' sizes may
 * name (s->cache_note, s->cache_arg). Called by lab_cli_prepare before the plan is built.
 */
int lab_cli_caches(const struct lab_cli_args *a, struct lab_cli_setup *s);

/* False (nothing measured) on bare metal, for a topology not this system's or with fewer than
 * two cache levels; else true with *out filled (p.sizes 0 when the sweep could not run). */
bool lab_cli_llc_check(const struct lab_topo *topo, struct lab_cli_llc *out);
/* Bytes as "508 MiB", "19.5 MiB", "48 KiB". */
void lab_cli_bytes_text(uint64_t b, char *buf, size_t len);
/* One line on what the check found: "L3: the hypervisor (KVM) reports 508 MiB, but ...". */
void lab_cli_llc_text(const struct lab_cli_llc *c, char *buf, size_t len);
/* "cache_check": what the check found (null when nothing was measured), for lab topo --json
 * and lab plan --json. */
struct lab_json;
void lab_cli_llc_json(struct lab_json *j, const struct lab_cli_llc *llc);

/* Frees what lab_cli_prepare made. */
void lab_cli_release(struct lab_cli_setup *s);

/* Writes the plan as text (or JSON) on stdout. */
void lab_cli_print_plan(const struct lab_cli_setup *s, bool json);
/* The estimate lab plan and lab run print: "about 5 min", or "about 30 s, up to 15 min where
 * precision targets use their budget". */
void lab_cli_estimate_text(const struct lab_plan *plan, char *buf, size_t len);
/* ns of one run of pt on a quiet machine, as the estimate counts it (0 for a skipped point). */
double lab_cli_run_estimate_ns(const struct lab_plan *plan, const struct lab_point *pt);

/* The built-in quick config (generated from configs/quick.ini). */
extern const char lab_quick_ini[];
extern const size_t lab_quick_ini_len;

#endif
