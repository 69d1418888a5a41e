/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/plots.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze/plots_int.h"
#include "analyze/views/views.h"
#include "analyze/wfile.h"
#include "harness/record_schema.h"

/* gnuplot's output, in the plots directory. */
#define AN_GNUPLOT_LOG "gnuplot.log"
/* The script that loads the plots' scripts, in the plots directory (not a plot: another
 * extension than .gp). */
#define AN_GNUPLOT_BATCH "render-batch.gnuplot"
/* Failed gnuplot runs in a row, with nothing rendered between them, after which the rest is not
 * tried (a gnuplot without the cairo terminals fails on every plot). */
#define AN_GNUPLOT_GIVE_UP 8

/* The gnuplot this process waits for (0: none), for lab_an_plots_abort. */
static volatile sig_atomic_t an_gnuplot_pid;

/* Writes the batch script: `load 'BASE.gp'` for plots [first, n) (bases are the analyzer's
 * slugs, so the quoted name is inert). 0 or -1. */
static int an_gnuplot_batch(const struct lab_an_pdir *pdir, const struct lab_an_plots *p,
                            size_t first)
{
	int fd = openat(pdir->fd, AN_GNUPLOT_BATCH,
	                O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!f) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	fputs("# Written by lab analyze: renders every plot. Run: gnuplot " AN_GNUPLOT_BATCH "\n",
	      f);
	for (size_t i = first; i < p->n; i++)
		fprintf(f, "load '%s.gp'\n", p->p[i].base);
	return ferror(f) | fclose(f) ? -1 : 0;
}

/* Runs `gnuplot render-batch.gnuplot` (an argument vector, no shell) with the plots directory as
 * its working directory, stdin from /dev/null, its output appended to gnuplot.log. gnuplot dies
 * with this process (PR_SET_PDEATHSIG) and lab_an_plots_abort can end it. Returns 0 when
 * gnuplot exits 0. */
static int an_gnuplot_run(const struct lab_an_pdir *pdir)
{
	static char prog[] = "gnuplot", script[] = AN_GNUPLOT_BATCH;
	char *argv[] = {prog, script, NULL};
	pid_t parent = getpid(), pid;
	int status = -1;

	pid = fork();
	if (pid == 0) {
		int fd;

		if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent)
			_exit(127);
		if (fchdir(pdir->fd) != 0)
			_exit(127);
		fd = open("/dev/null", O_RDONLY);
		if (fd >= 0)
			dup2(fd, 0);
		fd = open(AN_GNUPLOT_LOG, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp("gnuplot", argv);
		_exit(127);
	}
	if (pid < 0)
		return -1;
	an_gnuplot_pid = pid;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			status = -1;
			break;
		}
	an_gnuplot_pid = 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

void lab_an_plots_abort(void)
{
	pid_t pid = an_gnuplot_pid;

	if (pid > 0)
		kill(pid, SIGTERM);
}

/* The first plot from first on without its .png (the last file each script writes). */
static size_t an_first_unrendered(const struct lab_an_pdir *pdir, const struct lab_an_plots *p,
                                  size_t first)
{
	char name[512];
	struct stat st;

	for (; first < p->n; first++) {
		snprintf(name, sizeof(name), "%s.png", p->p[first].base);
		if (fstatat(pdir->fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
			break;
	}
	return first;
}

/* One gnuplot renders every plot through one script (one process per plot is slow, and one
 * argument per plot overflows the argument list). gnuplot stops at the first failing plot: that
 * plot (the first without its .png) counts as failed and a new batch starts after it. */
static void an_gnuplot_all(const struct lab_an_pdir *pdir, struct lab_an_plots *out,
                           struct lab_an_warnings *warn)
{
	size_t failed = 0, first = 0, in_row = 0;

	while (first < out->n) {
		size_t stop;

		if (an_gnuplot_batch(pdir, out, first) != 0) {
			failed += out->n - first;
			break;
		}
		if (an_gnuplot_run(pdir) == 0)
			break;
		stop = an_first_unrendered(pdir, out, first);
		if (stop >= out->n)
			break; /* failed after the last plot: all rendered */
		in_row = stop == first ? in_row + 1 : 1;
		failed++;
		first = stop + 1;
		if (in_row >= AN_GNUPLOT_GIVE_UP) {
			failed += out->n - first;
			break;
		}
	}
	out->rendered = failed < out->n;
	if (failed)
		lab_an_warn(warn, "gnuplot failed on %zu of %zu plots; see %s/%s", failed, out->n,
		            pdir->path, AN_GNUPLOT_LOG);
}

/* Leaves out the plots past LAB_AN_PLOTS_MAX (their files too), counting them in omitted. */
static void an_plots_trim(const struct lab_an_pdir *pdir, struct lab_an_plots *out)
{
	char name[512];

	for (size_t i = LAB_AN_PLOTS_MAX; i < out->n; i++) {
		snprintf(name, sizeof(name), "%s.gp", out->p[i].base);
		unlinkat(pdir->fd, name, 0);
		snprintf(name, sizeof(name), "%s.dat", out->p[i].base);
		unlinkat(pdir->fd, name, 0);
		free(out->p[i].title);
		free(out->p[i].base);
		out->omitted++;
	}
	if (out->n > LAB_AN_PLOTS_MAX)
		out->n = LAB_AN_PLOTS_MAX;
}

/* plots/ belongs to the analyzer: files of an earlier analysis (another series set, another
 * --include-flagged choice) would otherwise linger beside the new ones. Only regular files
 * are removed, relative to the directory handle. */
static void an_plots_clean(const struct lab_an_pdir *pdir)
{
	static const char *const ext[] = {".gp", ".dat", ".svg", ".png", ".log", ".gnuplot"};
	int dup = fcntl(pdir->fd, F_DUPFD_CLOEXEC, 0);
	DIR *d = dup >= 0 ? fdopendir(dup) : NULL;
	struct dirent *e;
	struct stat st;

	if (!d && dup >= 0)
		close(dup);
	while (d && (e = readdir(d))) {
		size_t len = strlen(e->d_name);

		for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
			size_t el = strlen(ext[i]);

			if (len > el && !strcmp(e->d_name + len - el, ext[i]) &&
			    fstatat(pdir->fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISREG(st.st_mode)) {
				unlinkat(pdir->fd, e->d_name, 0);
				break;
			}
		}
	}
	if (d)
		closedir(d);
}

int lab_an_plots_write(const struct lab_an_analysis *a, const char *dir, int render,
                       struct lab_an_plots *out, struct lab_an_warnings *warn, struct lab_err *err)
{
	struct lab_an_pdir pd = {-1, lab_an_asprintf("%s/%s", dir, LAB_DIR_PLOTS)};
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->written = 1;
	if (!pd.path)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	if ((pd.fd = lab_an_subdir_open(dir, LAB_DIR_PLOTS, 1, err)) < 0) {
		rc = -LAB_EIO;
		goto out;
	}
	an_plots_clean(&pd);
	/* Every view draws through its document (the scaling series too); past the cap the
	 * plots are left out and counted. */
	if ((rc = lab_an_views_plots(a, &pd, out, err)))
		goto out;
	an_plots_trim(&pd, out);
	if (out->omitted)
		lab_an_warn(warn,
		            "%zu of %zu plots left out: at most %d per analysis (gnuplot renders a "
		            "few dozen a second and report.html embeds each); the tables, "
		            "summary.csv and analysis.json hold every series",
		            out->omitted, out->n + out->omitted, LAB_AN_PLOTS_MAX);
	if (!render || !out->n)
		goto out;
	out->no_gnuplot = !lab_an_have_program("gnuplot");
	if (out->no_gnuplot)
		lab_an_warn(warn,
		            "gnuplot not found: wrote the .dat/.gp files in %s but no "
		            "images (apt-get install gnuplot-nox)",
		            pd.path);
	else
		an_gnuplot_all(&pd, out, warn);
out:
	if (pd.fd >= 0)
		close(pd.fd);
	free((char *)pd.path);
	return rc;
}

void lab_an_plots_free(struct lab_an_plots *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->p[i].title);
		free(p->p[i].base);
	}
	free(p->p);
	memset(p, 0, sizeof(*p));
}
