/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lab fleet's batch scripts, sbatch command lines and the files of DIR, and text for a terminal.
 * Paths enter a script only as single-quoted shell words; option values enter sbatch only as
 * --opt=value arguments of an argument vector.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/fileio.h"
#include "lab/fleet_int.h"
#include "lab/text_esc.h"

/* s as one shell word: inside single quotes, each ' written as '\''. */
void lab_fleet_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

/* A fresh "--name=value" (or "prefix" "value" "suffix") string, or NULL when out of memory. */
static char *fleet_arg(const char *a, const char *b, const char *c)
{
	char *s = NULL;

	return asprintf(&s, "%s%s%s", a, b, c) < 0 ? NULL : s;
}

int lab_fleet_argv(struct lab_fleet_argv *a, const struct fleet_opts *o, const char *dir,
                   int analyze, const char *job)
{
	const char *names[FLEET_NOPT] = {
	    "--nodes=", "--nodelist=", "--partition=", "--constraint=", "--time="};
	const char *vals[FLEET_NOPT] = {o->nodes      ? o->nodes
	                                : o->nodelist ? NULL
	                                              : "1",
	                                o->nodelist, o->partition, o->constraint, o->time};
	int n = 0, b = 0;

	memset(a, 0, sizeof(*a));
	a->av[n++] = "sbatch";
	a->av[n++] = "--parsable";
	a->av[n++] = analyze ? "--job-name=lab-fleet-analyze" : "--job-name=lab-fleet";
	/* Slurm requeues a job whose node went down, and every task of the rerun then fails on
	 * its non-empty DIR/<node>: a fleet job runs once. */
	if (!analyze) {
		a->av[n++] = "--exclusive";
		a->av[n++] = "--no-requeue";
	}
	for (int k = 0; k < FLEET_NOPT; k++) {
		if (!vals[k] || (analyze && k != 2))
			continue;
		if (!(a->buf[b] = fleet_arg(names[k], vals[k], "")))
			goto oom;
		a->av[n++] = a->buf[b++];
	}
	if (analyze) {
		a->av[n++] = "--nodes=1";
		if (!(a->buf[b] = fleet_arg("--dependency=afterany:", job, "")))
			goto oom;
		a->av[n++] = a->buf[b++];
		a->av[n++] = "--kill-on-invalid-dep=yes";
	}
	if (!(a->buf[b] = fleet_arg("--output=", dir,
	                            analyze ? "/logs/analyze-%j.out" : "/logs/fleet-%j.out")))
		goto oom;
	a->av[n++] = a->buf[b++];
	if (!(a->buf[b] = fleet_arg(dir, "/", analyze ? "analyze.sbatch" : "fleet.sbatch")))
		goto oom;
	a->av[n++] = a->buf[b++];
	a->av[n] = NULL;
	return 0;
oom:
	lab_fleet_argv_free(a);
	return -1;
}

void lab_fleet_argv_free(struct lab_fleet_argv *a)
{
	for (int i = 0; i < 8; i++)
		free(a->buf[i]);
	memset(a, 0, sizeof(*a));
}

void lab_fleet_put(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t n = strlen((const char *)p), len;
	unsigned cp;

	while (n) {
		/* what passes is lab_esc_classify's rule; the escapes here read back byte for byte
		 */
		enum lab_esc_kind kind = lab_esc_classify(p, n, true, &len, &cp);
		if (kind == LAB_ESC_PLAIN && *p != '\\')
			fwrite(p, 1, len, f);
		else if (*p == '\\')
			fputs("\\\\", f);
		else
			for (size_t i = 0; i < len; i++)
				fprintf(f, "\\x%02x", p[i]);
		p += len;
		n -= len;
	}
}

/* The columns s takes once escaped by lab_fleet_put: a shown character one, a backslash two,
 * each escaped byte four (\xNN). */
static int fleet_esc_width(const unsigned char *p, size_t n, size_t *len)
{
	unsigned cp;
	enum lab_esc_kind kind = lab_esc_classify(p, n, true, len, &cp);

	return kind == LAB_ESC_PLAIN && *p != '\\' ? 1 : *p == '\\' ? 2 : 4 * (int)*len;
}

void lab_fleet_put_cut(FILE *f, const char *s, int width)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t n = strlen((const char *)p), off = 0, cut = n, len;
	int used = 0, upto = 0;

	/* Cut the raw text before the character (or byte to escape) that would leave no room
	 * for "...": never inside a UTF-8 sequence or an escape. */
	while (off < n) {
		int w = fleet_esc_width(p + off, n - off, &len);
		if (cut == n && used + w > width - 3) {
			cut = off;
			upto = used;
		}
		used += w;
		off += len;
	}
	if (used <= width) {
		lab_fleet_put(f, (const char *)p);
		fprintf(f, "%*s", width - used, "");
		return;
	}
	char *head = strndup((const char *)p, cut);
	lab_fleet_put(f, head ? head : "");
	free(head);
	fprintf(f, "...%*s", width - 3 - (head ? upto : 0), "");
}

static char fleet_oom[] = "(out of memory)";

char *lab_fleet_esc(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return fleet_oom;
	lab_fleet_put(f, s);
	if (fclose(f) != 0 || !buf) {
		free(buf);
		return fleet_oom;
	}
	return buf;
}

void lab_fleet_esc_free(char *e)
{
	if (e != fleet_oom)
		free(e);
}

void lab_fleet_print_argv(FILE *f, const char **av)
{
	for (int i = 0; av[i]; i++) {
		if (i)
			fputc(' ', f);
		if (strspn(av[i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
		                  "-_=.,:/%[]") == strlen(av[i]))
			fputs(av[i], f);
		else
			lab_fleet_quote(f, av[i]);
	}
	fputc('\n', f);
}

void lab_fleet_script_run(FILE *f, const char *lab, const char *dir)
{
	fputs("#!/bin/sh\n"
	      "# Written by `lab fleet`: the fleet job. One task per node on whole nodes; each\n"
	      "# task runs `lab run DIR/config.ini -o DIR/<Slurm node name>` (lab fleet task)\n"
	      "# and records its state and exit code in DIR/tasks/<node>.json.\n"
	      "# --cpu-bind=none: the lab pins its own threads to the CPUs of the whole node.\n"
	      "set -eu\n"
	      "exec srun --nodes=\"$SLURM_JOB_NUM_NODES\" --ntasks-per-node=1 "
	      "--ntasks=\"$SLURM_JOB_NUM_NODES\" \\\n"
	      "\t--whole --cpu-bind=none --kill-on-bad-exit=0 \\\n\t",
	      f);
	lab_fleet_quote(f, lab);
	fputs(" fleet task ", f);
	lab_fleet_quote(f, dir);
	fputc('\n', f);
}

void lab_fleet_script_analyze(FILE *f, const char *lab, const char *dir)
{
	fputs("#!/bin/sh\n"
	      "# Written by `lab fleet`: runs after every task of the fleet job has ended "
	      "(afterany),\n"
	      "# so a failed node still leaves the others analyzed.\n",
	      f);
	lab_fleet_quote(f, lab);
	fputs(" fleet status ", f);
	lab_fleet_quote(f, dir);
	fputs(" || true\nexec ", f);
	lab_fleet_quote(f, lab);
	fputs(" analyze ", f);
	lab_fleet_quote(f, dir);
	fputc('\n', f);
}

/* "lab fleet: -o DIR: WHY..." (or "the fleet directory DIR" when -o was not given). */
static void fleet_dir_say(const char *dir, int given, const char *why, const char *kind)
{
	fprintf(stderr, "lab fleet: %s", given ? "-o " : "the fleet directory ");
	lab_fleet_put(stderr, dir);
	fprintf(stderr, ": %s%s%s%s (allowed: a new or empty directory)\n", why, kind ? " (" : "",
	        kind ? kind : "", kind ? ")" : "");
}

int lab_fleet_dir_check(const char *dir, int given)
{
	struct stat st;
	struct dirent *e;
	DIR *d;
	int n = 0;

	if (lstat(dir, &st) != 0) { /* new: made in a directory that exists (no parents made) */
		int why = errno;
		char parent[4200];
		struct stat ps;
		snprintf(parent, sizeof(parent), "%s", dir);
		char *cut = strrchr(parent, '/');
		while (cut && cut > parent && !cut[1]) { /* "a/b/": b's parent is a */
			*cut = '\0';
			cut = strrchr(parent, '/');
		}
		if (cut)
			cut[cut == parent] = '\0'; /* "/x": its parent is "/" */
		/* the default (results/NAME): the run makes results/ first */
		if (why == ENOENT &&
		    (!given || (stat(cut ? parent : ".", &ps) == 0 && S_ISDIR(ps.st_mode))))
			return 0;
		fleet_dir_say(dir, given,
		              why == ENOENT ? "its parent directory does not exist" : strerror(why),
		              NULL);
		return -2;
	}
	if (S_ISLNK(st.st_mode)) {
		fleet_dir_say(dir, given, "a symbolic link, never followed", NULL);
		return -2;
	}
	if (!S_ISDIR(st.st_mode)) {
		fleet_dir_say(dir, given, "not a directory", lab_file_kind(st.st_mode));
		return -2;
	}
	if (!(d = opendir(dir))) {
		fprintf(stderr, "lab fleet: %s: cannot read: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) != NULL)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	if (n)
		fleet_dir_say(dir, given, "not empty", NULL);
	return n ? -2 : 0;
}

int lab_fleet_dir_make(const char *dir, int given, struct lab_fleet_made *m)
{
	char path[4200];
	int rc;

	/* A bad path is bad usage, as --dry-run says. An existing empty directory is used as it
	 * is, its mode and group kept (taking it by rmdir and mkdir made a private directory
	 * world-readable). Two fleets cannot both take it: the second one's mkdir of logs/ fails.
	 */
	if ((rc = lab_fleet_dir_check(dir, given)))
		return rc;
	m->dir = mkdir(dir, 0755) == 0;
	if (!m->dir && errno != EEXIST) {
		fprintf(stderr, "lab fleet: %s: cannot create: %s\n", dir, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/logs", dir);
	if (mkdir(path, 0755) != 0) {
		fprintf(stderr, "lab fleet: %s: cannot create: %s\n", path, strerror(errno));
		if (m->dir)
			rmdir(dir);
		return -1;
	}
	return 0;
}

void lab_fleet_dir_unwind(const char *dir, const struct lab_fleet_made *m)
{
	static const char *names[] = {"config.ini", "fleet.sbatch", "analyze.sbatch", "fleet.json",
	                              "logs"};
	char path[4200];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		(i + 1 < sizeof(names) / sizeof(names[0]) ? unlink : rmdir)(path);
	}
	if (m->dir)
		rmdir(dir);
	if (m->results)
		rmdir("results");
}

int lab_fleet_file_write(const char *dir, const char *name, const char *lab, const char *text,
                         size_t len, void (*fn)(FILE *, const char *, const char *))
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "wx");
	if (!f) {
		fprintf(stderr, "lab fleet: %s: cannot create: %s\n", path, strerror(errno));
		return -1;
	}
	int ok = 1, saved = 0;
	if (fn)
		fn(f, lab, dir);
	else if (len && fwrite(text, 1, len, f) != len)
		ok = 0, saved = errno;
	if (ok && (ferror(f) || fflush(f) != 0 || fsync(fileno(f)) != 0))
		ok = 0, saved = errno;
	if (fclose(f) != 0 && ok)
		ok = 0, saved = errno;
	if (ok && fn && chmod(path, 0755) != 0)
		ok = 0, saved = errno;
	if (!ok) {
		fprintf(stderr, "lab fleet: %s: cannot write: %s\n", path,
		        strerror(saved ? saved : EIO));
		return -1;
	}
	return 0;
}
