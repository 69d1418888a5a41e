/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Rendering the plots with gnuplot without writing through any name in plots/. A results
 * directory is untrusted: a name there may be a hard link to someone's file, and gnuplot opens
 * its outputs in place (O_TRUNC), so it never writes in plots/ itself. It runs in a private
 * directory made fresh for this analysis, plots/.render.PID-TAG.lab-tmp (mode 0700, a name
 * nobody else has, created by mkdir so it holds nothing planted), with the .gp and .dat files
 * found through `set loadpath '..'`; its .svg, .png and log land there, and each finished file
 * is renamed over its name in plots/ (rename replaces the name; a link's target is untouched).
 * The private directory is removed at the end, and by lab_an_plots_abort on a signal.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze/manifest.h"
#include "analyze/plots_int.h"
#include "harness/record_schema.h"

/* The script gnuplot runs in the private directory. */
#define AN_RENDER_BATCH "batch.gnuplot"
/* Failed gnuplot runs in a row, with nothing rendered between them, after which the rest is not
 * tried (a gnuplot without the cairo terminals fails on every plot). */
#define AN_GNUPLOT_GIVE_UP 8

/* The private directory: a handle on it and on plots/, its name in plots/, gnuplot's log. */
struct an_render {
	int fd, pfd, log;
	char name[64];
};

/* The gnuplot this process waits for (0: none) and the private directory in use (live: its
 * handles are set), for lab_an_plots_abort; stopped: lab_an_plots_stop was called, no other
 * gnuplot starts (the batch loop would start one for the plots after the one it ended). */
static volatile sig_atomic_t an_gnuplot_pid, an_render_live, an_render_stopped;
static struct an_render an_render_now;

/* Removes every entry of the private directory rfd, then the directory (its name in pfd).
 * Async-signal-safe (getdents64, unlinkat): lab_an_plots_abort calls it too. Only files are in
 * it, made by this process and its gnuplot. */
static void an_render_clear(int pfd, int rfd, const char *name)
{
	alignas(8) char buf[4096];

	for (int pass = 0, any = 1; any && pass < 8; pass++) {
		ssize_t n;

		any = 0;
		if (lseek(rfd, 0, SEEK_SET) != 0)
			break;
		while ((n = getdents64(rfd, buf, sizeof(buf))) > 0)
			for (ssize_t off = 0; off < n;) {
				struct dirent64 *e = (struct dirent64 *)(void *)(buf + off);

				off += e->d_reclen;
				if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
					unlinkat(rfd, e->d_name, 0);
					any = 1;
				}
			}
	}
	unlinkat(pfd, name, AT_REMOVEDIR);
}

/* Creates the private directory in plots/ and gnuplot's log in it. 0 or -1 (errno). */
static int an_render_open(const struct lab_an_pdir *pdir, struct an_render *r)
{
	int made = -1;

	*r = (struct an_render){-1, -1, -1, ""};
	for (int tries = 0; tries < 16 && made != 0; tries++) {
		snprintf(r->name, sizeof(r->name), ".render.%ld-%016llx.lab-tmp", (long)getpid(),
		         (unsigned long long)lab_an_tmp_tag());
		made = mkdirat(pdir->fd, r->name, 0700);
		if (made != 0 && errno != EEXIST)
			return -1;
	}
	if (made != 0)
		return -1;
	r->fd = openat(pdir->fd, r->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	r->pfd = fcntl(pdir->fd, F_DUPFD_CLOEXEC, 0);
	if (r->fd >= 0)
		r->log =
		    openat(r->fd, LAB_AN_GNUPLOT_LOG,
		           O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_APPEND | O_CLOEXEC, 0644);
	if (r->fd < 0 || r->pfd < 0 || r->log < 0) {
		int e = errno;

		if (r->fd >= 0)
			an_render_clear(pdir->fd, r->fd, r->name);
		else
			unlinkat(pdir->fd, r->name, AT_REMOVEDIR);
		if (r->fd >= 0)
			close(r->fd);
		if (r->pfd >= 0)
			close(r->pfd);
		if (r->log >= 0)
			close(r->log);
		errno = e;
		return -1;
	}
	an_render_now = *r;
	an_render_live = 1; /* published last */
	return 0;
}

/* Moves gnuplot's log into plots/ (recorded), then removes the private directory. */
static int an_render_close(const struct lab_an_pdir *pdir, struct an_render *r)
{
	int rc = 0;

	an_render_live = 0;
	close(r->log);
	if (renameat(r->fd, LAB_AN_GNUPLOT_LOG, pdir->fd, LAB_AN_GNUPLOT_LOG) == 0 && pdir->wrote)
		rc = lab_an_manifest_add(pdir->wrote, LAB_DIR_PLOTS, LAB_AN_GNUPLOT_LOG);
	an_render_clear(r->pfd, r->fd, r->name);
	close(r->fd);
	close(r->pfd);
	return rc;
}

/* Writes the private directory's batch: the loadpath, then `load 'BASE.gp'` for plots [first,
 * n) (bases are the analyzer's slugs, so the quoted name is inert). A fresh file each time. */
static int an_render_batch(const struct an_render *r, const struct lab_an_plots *p, size_t first)
{
	int fd;
	FILE *f;

	unlinkat(r->fd, AN_RENDER_BATCH, 0);
	fd = openat(r->fd, AN_RENDER_BATCH, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	            0644);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	fputs("# Written by lab analyze: every plot's script and data are in the parent "
	      "directory\nset loadpath '..'\n",
	      f);
	for (size_t i = first; i < p->n; i++)
		fprintf(f, "load '%s.gp'\n", p->p[i].base);
	return ferror(f) | fclose(f) ? -1 : 0;
}

/* Runs `gnuplot batch.gnuplot` (an argument vector, no shell) in the private directory, stdin
 * from /dev/null, its output appended to the log there. gnuplot dies with this process
 * (PR_SET_PDEATHSIG) and lab_an_plots_abort can end it. Returns 0 when gnuplot exits 0. */
static int an_gnuplot_run(const struct an_render *r)
{
	static char prog[] = "gnuplot", script[] = AN_RENDER_BATCH;
	char *argv[] = {prog, script, NULL};
	pid_t parent = getpid(), pid;
	int status = -1;

	pid = fork();
	if (pid == 0) {
		int fd;

		if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent)
			_exit(127);
		if (fchdir(r->fd) != 0)
			_exit(127);
		fd = open("/dev/null", O_RDONLY);
		if (fd >= 0)
			dup2(fd, 0);
		dup2(r->log, 1);
		dup2(r->log, 2);
		execvp("gnuplot", argv);
		_exit(127);
	}
	if (pid < 0)
		return -1;
	an_gnuplot_pid = pid;
	if (an_render_stopped) /* stopped between the loop's check and the line above */
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			status = -1;
			break;
		}
	an_gnuplot_pid = 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

void lab_an_plots_stop(void)
{
	pid_t pid;

	an_render_stopped = 1;
	pid = an_gnuplot_pid;
	if (pid > 0)
		kill(pid, SIGKILL); /* its waiter reaps it and clears the private directory */
}

void lab_an_plots_abort(void)
{
	pid_t pid = an_gnuplot_pid;

	if (pid > 0) {
		kill(pid, SIGKILL); /* then reaped: it writes nothing while its directory goes */
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	if (an_render_live) {
		an_render_live = 0;
		an_render_clear(an_render_now.pfd, an_render_now.fd, an_render_now.name);
	}
}

/* The first plot from first on without its .png in the private directory (the last file each
 * script writes). */
static size_t an_first_unrendered(const struct an_render *r, const struct lab_an_plots *p,
                                  size_t first)
{
	char name[512];
	struct stat st;

	for (; first < p->n; first++) {
		snprintf(name, sizeof(name), "%s.png", p->p[first].base);
		if (fstatat(r->fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
			break;
	}
	return first;
}

/* 1 when the image name in directory fd is whole: a PNG ends with its IEND chunk, an SVG with
 * its closing tag. gnuplot exits 0 on a full disk, leaving empty or cut images behind. */
static int an_image_whole(int fd, const char *name, int png)
{
	static const char iend[] = "\0\0\0\0IEND\xae\x42\x60\x82";
	char tail[64];
	int f = openat(fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	off_t end = f >= 0 ? lseek(f, 0, SEEK_END) : -1;
	size_t want = end < (off_t)sizeof(tail) ? (size_t)(end > 0 ? end : 0) : sizeof(tail);
	ssize_t got = want && lseek(f, end - (off_t)want, SEEK_SET) >= 0 ? read(f, tail, want) : -1;

	if (f >= 0)
		close(f);
	if (got <= 0)
		return 0;
	while (!png && got && (tail[got - 1] == '\n' || tail[got - 1] == ' '))
		got--;
	if (png)
		return got >= 12 && !memcmp(tail + got - 12, iend, 12);
	return got >= 6 && !memcmp(tail + got - 6, "</svg>", 6);
}

/* Renames the .svg and .png gnuplot finished for plots [first, n) from the private directory
 * over their names in plots/, marking and recording each; an image that is not whole, or that
 * cannot take its name in plots/, counts in *lost. 0 or -LAB_ENOMEM. */
static int an_render_move(const struct lab_an_pdir *pdir, const struct an_render *r,
                          struct lab_an_plots *p, size_t first, size_t *lost)
{
	char name[512];
	struct stat st;
	int rc = 0;

	for (size_t i = first; i < p->n && !rc; i++)
		for (int png = 0; png < 2 && !rc; png++) {
			snprintf(name, sizeof(name), "%s.%s", p->p[i].base, png ? "png" : "svg");
			if (fstatat(r->fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
			    !S_ISREG(st.st_mode))
				continue;
			if (!an_image_whole(r->fd, name, png) ||
			    renameat(r->fd, name, pdir->fd, name) != 0) {
				++*lost;
				continue;
			}
			*(png ? &p->p[i].png : &p->p[i].svg) = 1;
			if (pdir->wrote)
				rc = lab_an_manifest_add(pdir->wrote, LAB_DIR_PLOTS, name);
		}
	return rc;
}

/* One gnuplot renders every plot through one script (one process per plot is slow, and one
 * argument per plot overflows the argument list). gnuplot stops at the first failing plot: that
 * plot (the first without its .png) counts as failed and a new batch starts after it. */
static int an_gnuplot_all(const struct lab_an_pdir *pdir, const struct an_render *r,
                          struct lab_an_plots *out, struct lab_an_warnings *warn)
{
	size_t failed = 0, first = 0, in_row = 0, stop, lost = 0;
	int rc = 0, ran;

	while (first < out->n && !rc && !an_render_stopped) {
		if (an_render_batch(r, out, first) != 0) {
			failed += out->n - first;
			break;
		}
		ran = an_gnuplot_run(r) == 0;
		stop = ran ? out->n : an_first_unrendered(r, out, first);
		rc = an_render_move(pdir, r, out, first, &lost);
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
	out->drawn = 0;
	for (size_t i = 0; i < out->n; i++)
		out->drawn += out->p[i].svg || out->p[i].png;
	out->rendered = out->drawn > 0;
	if (lost)
		lab_an_warn(
		    warn,
		    "%zu images left out of %s: cut short or empty (a full disk?), or their "
		    "name there is taken by something other than a file",
		    lost, pdir->path);
	if (failed)
		lab_an_warn(warn, "gnuplot failed on %zu of %zu plots; see %s/%s", failed, out->n,
		            pdir->path, LAB_AN_GNUPLOT_LOG);
	else if (!lost && out->drawn < out->n) /* it exited 0 without them */
		lab_an_warn(warn, "gnuplot drew no image for %zu of %zu plots; see %s/%s",
		            out->n - out->drawn, out->n, pdir->path, LAB_AN_GNUPLOT_LOG);
	return rc;
}

/* plots/render-batch.gnuplot: `gnuplot render-batch.gnuplot` in plots/ renders every plot. */
static int an_render_batch_user(const struct lab_an_pdir *pdir, const struct lab_an_plots *p,
                                struct lab_err *err)
{
	struct lab_an_wfile w;
	FILE *f = lab_an_open(&w, pdir, "render-batch", "gnuplot", err);

	if (!f)
		return -LAB_EIO;
	fputs("# Written by lab analyze: renders every plot. Run: gnuplot " LAB_AN_GNUPLOT_BATCH
	      "\n",
	      f);
	for (size_t i = 0; i < p->n; i++)
		fprintf(f, "load '%s.gp'\n", p->p[i].base);
	return lab_an_close(&w, pdir, err);
}

int lab_an_plots_render(const struct lab_an_pdir *pdir, struct lab_an_plots *out,
                        struct lab_an_warnings *warn, struct lab_err *err)
{
	struct an_render r;
	int rc;

	if (!out->n)
		return 0;
	if ((rc = an_render_batch_user(pdir, out, err)))
		return rc;
	out->no_gnuplot = !lab_an_have_program("gnuplot");
	if (out->no_gnuplot)
		return 0;
	if (an_render_open(pdir, &r) != 0) {
		lab_an_warn(warn, "no plot rendered: cannot make a private directory in %s: %s",
		            pdir->path, strerror(errno));
		return 0;
	}
	rc = an_gnuplot_all(pdir, &r, out, warn);
	if (an_render_close(pdir, &r) || rc)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	return 0;
}
