/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/wstale.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness/record_schema.h"

#define AN_STALE_SUFFIX ".lab-tmp"
#define AN_STALE_TAG    16
#define AN_STALE_RENDER ".render."

long lab_an_stale_pid(const char *name)
{
	size_t n = strlen(name), sl = sizeof(AN_STALE_SUFFIX) - 1;
	const char *tag, *dash, *p;
	long pid = 0;

	/* '.', a stem, '.', a PID digit, '-', the tag, the suffix */
	if (name[0] != '.' || n < 5 + AN_STALE_TAG + sl || strcmp(name + n - sl, AN_STALE_SUFFIX))
		return 0;
	tag = name + n - sl - AN_STALE_TAG;
	for (int i = 0; i < AN_STALE_TAG; i++)
		if (!((tag[i] >= '0' && tag[i] <= '9') || (tag[i] >= 'a' && tag[i] <= 'f')))
			return 0;
	dash = tag - 1;
	if (*dash != '-')
		return 0;
	for (p = dash; p > name && p[-1] >= '0' && p[-1] <= '9'; p--)
		;
	if (p == dash || *p == '0' || p - 1 <= name + 1 || p[-1] != '.')
		return 0;
	for (; p < dash; p++) {
		pid = pid * 10 + (*p - '0');
		if (pid > INT_MAX)
			return 0;
	}
	return pid;
}

/* Stale: this user's, its process gone from this machine, untouched for a while. */
static bool an_stale(const struct stat *st, long pid, time_t now)
{
	return st->st_uid == geteuid() && pid != (long)getpid() && kill((pid_t)pid, 0) != 0 &&
	       errno == ESRCH && now - st->st_mtime >= LAB_AN_STALE_AGE_S;
}

/*
 * Removes gnuplot's private directory name in pfd: its regular files, then itself (which fails,
 * leaving it, when anything else is in it). Opened without following a link, checked to be a
 * directory of this user. Returns 1 when it is gone.
 */
static int an_stale_render(int pfd, const char *name)
{
	int fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = NULL;
	struct dirent *e;
	struct stat st;

	if (fd < 0)
		return 0;
	if (fstat(fd, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    !(d = fdopendir(fd))) {
		close(fd);
		return 0;
	}
	while ((e = readdir(d)))
		if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
			unlinkat(fd, e->d_name, 0);
	closedir(d);
	return unlinkat(pfd, name, AT_REMOVEDIR) == 0;
}

/* Sweeps the directory fd (plots: gnuplot's private directories may be there too). */
static size_t an_stale_dir(int fd, bool plots)
{
	int own = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = own >= 0 ? fdopendir(own) : NULL;
	time_t now = time(NULL);
	struct dirent *e;
	struct stat st;
	size_t removed = 0;
	long pid;

	if (!d) {
		if (own >= 0)
			close(own);
		return 0;
	}
	while ((e = readdir(d))) {
		if (!(pid = lab_an_stale_pid(e->d_name)) ||
		    fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !an_stale(&st, pid, now))
			continue;
		if (S_ISREG(st.st_mode))
			removed += unlinkat(fd, e->d_name, 0) == 0;
		else if (S_ISDIR(st.st_mode) && plots &&
		         !strncmp(e->d_name, AN_STALE_RENDER, sizeof(AN_STALE_RENDER) - 1))
			removed += (size_t)an_stale_render(fd, e->d_name);
	}
	closedir(d);
	return removed;
}

size_t lab_an_stale_sweep(const char *dir)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), pfd;
	size_t removed;

	if (dfd < 0)
		return 0;
	removed = an_stale_dir(dfd, false);
	/* plots/ itself must be a directory, not a link to one elsewhere. */
	pfd = openat(dfd, LAB_DIR_PLOTS, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (pfd >= 0) {
		removed += an_stale_dir(pfd, true);
		close(pfd);
	}
	close(dfd);
	return removed;
}
