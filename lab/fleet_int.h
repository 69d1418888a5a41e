/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared by lab/cmd_fleet.c and lab/fleet_*.c: running Slurm's commands, the per-node tasks. */
#ifndef LAB_LAB_FLEET_INT_H
#define LAB_LAB_FLEET_INT_H

#include <stddef.h>
#include <stdio.h>

#include "analyze/fleet.h"

/* What `lab fleet CONFIG ...` was given (NULL: not given). nodes points into nodes_buf: the
 * count in canonical decimal once checked. */
struct fleet_opts {
	const char *config, *out, *nodes, *nodelist, *partition, *constraint, *time, *topology;
	int dry_run;
	char nodes_buf[16];
};

/* Parses `lab fleet CONFIG ...` into o: 0, 1 after --help, -1 after an error on stderr. */
int lab_fleet_parse(int argc, char **argv, struct fleet_opts *o);
/* Checks what the scripts will contain; one line on stderr for the first problem. */
int lab_fleet_check(struct fleet_opts *o);
/*
 * Reads CONFIG once into *text (a regular file of at most LAB_CFG_FILE_MAX bytes: a FIFO, a
 * device or a directory is refused before anything is read from it), then loads, validates and
 * plans it for --topology (default: this machine), as `lab plan` does. Returns LAB_EXIT_OK with
 * *text (the caller frees it), or the exit code after the errors on stderr.
 */
int lab_fleet_validate(const struct fleet_opts *o, char **text, size_t *len);

/* The longest absolute fleet directory: every node runs lab run -o DIR/<node>, and that name,
 * with the longest node name, must fit lab run's -o (LAB_RUN_DIR_MAX in lab/cli.h); a longer DIR
 * was submitted and then failed on every node. */
#define LAB_FLEET_DIR_MAX (LAB_RUN_DIR_MAX - 1 - 1 - (LAB_FLEET_NAME_MAX - 1))
/* The longest fleet directory lab fleet status reads: DIR/tasks/<node>.json must still fit the
 * 4096-byte PATH_MAX of the system calls that open it. */
#define LAB_FLEET_READ_DIR_MAX 3800

/* The option values that go to sbatch, in order, with their sbatch names. */
#define FLEET_NOPT 5

/* s as one shell word: inside single quotes, each ' written as '\''. */
void lab_fleet_quote(FILE *f, const char *s);
/* An sbatch argument vector: av is NULL-terminated; buf holds the --opt=value texts (owned). */
struct lab_fleet_argv {
	char *buf[8];
	const char *av[16];
};
/* The sbatch argument vector of the fleet job (analyze = 0) or of the analysis job that depends
 * on job (analyze = 1): every value whole. Returns 0, or -1 when out of memory (a is then freed).
 * Free with lab_fleet_argv_free. */
int lab_fleet_argv(struct lab_fleet_argv *a, const struct fleet_opts *o, const char *dir,
                   int analyze, const char *job);
void lab_fleet_argv_free(struct lab_fleet_argv *a);
/* av as one line a shell would read back as the same words. */
void lab_fleet_print_argv(FILE *f, const char **av);
/* The fleet job's and the analysis job's batch scripts for the lab binary lab and fleet dir. */
void lab_fleet_script_run(FILE *f, const char *lab, const char *dir);
void lab_fleet_script_analyze(FILE *f, const char *lab, const char *dir);

/* What a submission created in the file system, so that a failure removes exactly that. */
struct lab_fleet_made {
	int results, dir; /* results/ and DIR were created here (were not there before) */
};
/* Checks that DIR (-o DIR when given) is absent or an empty directory: a link, another kind of
 * file or a directory with entries is -2 (bad usage), a directory that cannot be read -1, each
 * after one line on stderr; else 0. Nothing is created. */
int lab_fleet_dir_check(const char *dir, int given);
/* Creates DIR (new, or an empty directory used as it is, mode and group kept) and DIR/logs (so
 * two fleets cannot both take it). 0, or -2 (bad usage: lab_fleet_dir_check) or -1 after one
 * line on stderr. */
int lab_fleet_dir_make(const char *dir, int given, struct lab_fleet_made *m);
/* Removes what a failed submission wrote in DIR, DIR itself and results/ when they were made
 * here: nothing is left behind. */
void lab_fleet_dir_unwind(const char *dir, const struct lab_fleet_made *m);
/* Writes DIR/name (a new file, never an existing one) through fn, or as the len bytes of text
 * when fn is NULL; every write, the flush, fsync and close are checked. 0, or -1 after one line
 * on stderr. */
int lab_fleet_file_write(const char *dir, const char *name, const char *lab, const char *text,
                         size_t len, void (*fn)(FILE *, const char *, const char *));

/*
 * s for a terminal: what lab_esc_classify (lab/text_esc.h) does not pass (C0, DEL, bytes of no
 * valid UTF-8, the C1 and bidi controls) written byte for byte as \xNN and a backslash as \\, so
 * text read from files cannot move the cursor, erase a line, fake one or reorder it.
 * lab_fleet_esc returns a fresh string (the caller frees it), or a constant "(out of memory)"
 * that must not be freed: use lab_fleet_esc_free.
 */
void lab_fleet_put(FILE *f, const char *s);
/* s as lab_fleet_put writes it, in a column of width characters: padded with spaces, or, when
 * longer, cut at a character (never inside a UTF-8 sequence or an escape) and ended by "...". */
void lab_fleet_put_cut(FILE *f, const char *s, int width);
char *lab_fleet_esc(const char *s);
void lab_fleet_esc_free(char *e);

/* Seconds a Slurm client command may take before it is killed (a dead slurmctld makes squeue
 * and scontrol retry for tens of seconds). */
#define LAB_FLEET_CMD_TIMEOUT_S 15

/*
 * Runs argv (argv[0] looked up in PATH, no shell) with stdin from /dev/null, its stdout captured
 * into out (NUL-terminated) and its stderr into errbuf (when errbuf is not NULL, else discarded;
 * cut at errlen-1: it is only shown). Kills it after timeout_s seconds. Returns its exit status
 * (0..255), -1 when it could not be started, -2 when it timed out or died by a signal and -3 when
 * its stdout did not fit len-1 bytes (never a silently cut answer).
 */
int lab_fleet_capture(const char *const argv[], int timeout_s, char *out, size_t len, char *errbuf,
                      size_t errlen);

/* Runs sbatch av; the job id (digits before any ";cluster") into job. 0, or -1 after one line
 * on stderr. */
int lab_fleet_sbatch(const char *const *av, char *job, size_t len);
/* scancel job, best effort. */
void lab_fleet_scancel(const char *job);

/* lab fleet status DIR [--json]: asks the scheduler, updates DIR/fleet.json, prints the table. */
int lab_fleet_status(int argc, char **argv);

/* lab fleet task DIR: one node's task, started by srun inside the fleet job. */
int lab_fleet_task(int argc, char **argv);

/* Updates f's tasks and state from the scheduler and DIR/tasks/. Prints warnings on stderr. */
void lab_fleet_refresh(const char *dir, struct lab_an_fleet *f);

#endif
