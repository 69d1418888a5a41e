/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Claiming a results directory for one run: created when absent, locked with run.lock (O_EXCL),
 * empty but for the lock (results_internal.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/results_internal.h"

/* An errno of mkdir or open that means the name given is wrong, not that the system failed. */
static int results_errno_code(int e)
{
	return e == ENOTDIR || e == ENAMETOOLONG || e == ELOOP ? LAB_EINVAL : LAB_EIO;
}

/* mkdir -p of dir's parents and of dir; *created when dir itself is new. */
static int results_mkdirs(const char *dir, bool *created, struct lab_err *err)
{
	char *copy = strdup(dir);

	if (!copy)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	for (char *p = copy + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(copy, 0777) != 0 && errno != EEXIST) {
			int e = errno;
			free(copy);
			return lab_err_set(err, results_errno_code(e), "create %s: %s", dir,
			                   strerror(e));
		}
		*p = '/';
	}
	free(copy);
	if (mkdir(dir, 0777) == 0)
		*created = true;
	else if (errno != EEXIST)
		return lab_err_set(err, results_errno_code(errno), "create %s: %s", dir,
		                   strerror(errno));
	return 0;
}

/* Entries of the directory dfd other than ".", ".." and the lock; -1 when it cannot be read. */
static int results_entries(int dfd)
{
	int dup = fcntl(dfd, F_DUPFD_CLOEXEC, 0), n = 0;
	DIR *d = dup >= 0 ? fdopendir(dup) : NULL;
	struct dirent *de;

	if (!d) {
		if (dup >= 0)
			close(dup);
		return -1;
	}
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		     strcmp(de->d_name, LAB_RESULTS_LOCK);
	closedir(d);
	return n;
}

/* Creates the lock in dfd (O_EXCL: only one run can) holding this process's id. */
static int results_lock(int dfd, const char *dir, struct lab_err *err)
{
	int fd = openat(dfd, LAB_RESULTS_LOCK, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	                0644);
	char pid[32];
	int n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());

	if (fd < 0 && errno == EEXIST)
		return lab_err_set(err, LAB_EINVAL,
		                   "%s is taken by another lab run (%s/%s exists; remove it if no "
		                   "run is writing there)",
		                   dir, dir, LAB_RESULTS_LOCK);
	if (fd < 0)
		return lab_err_set(err, LAB_EIO, "create %s/%s: %s", dir, LAB_RESULTS_LOCK,
		                   strerror(errno));
	errno = 0;
	if (write(fd, pid, (size_t)n) != n) {
		int e = errno ? errno : ENOSPC;
		close(fd);
		unlinkat(dfd, LAB_RESULTS_LOCK, 0);
		return lab_err_set(err, LAB_EIO, "write %s/%s: %s", dir, LAB_RESULTS_LOCK,
		                   strerror(e));
	}
	close(fd);
	return 0;
}

int lab__results_claim(const char *dir, bool *created, struct lab_err *err)
{
	int dfd = -1, rc, n;

	*created = false;
	/* results_mkdirs starts past the first byte: an empty name would read past the copy. */
	if (!*dir)
		return lab_err_set(err, LAB_EINVAL,
		                   "empty output directory name (give -o a directory, e.g. -o "
		                   "results/mine)");
	rc = results_mkdirs(dir, created, err);
	if (rc)
		return rc;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 && errno == ENOTDIR)
		return lab_err_set(err, LAB_EINVAL, "%s exists and is not a directory", dir);
	if (dfd < 0)
		return lab_err_set(err, LAB_EIO, "open %s: %s", dir, strerror(errno));
	rc = results_lock(dfd, dir, err);
	if (rc == 0 && (n = results_entries(dfd)) != 0) {
		unlinkat(dfd, LAB_RESULTS_LOCK, 0);
		rc = n < 0
		         ? lab_err_set(err, LAB_EIO, "read %s: %s", dir, strerror(errno))
		         : lab_err_set(
		               err, LAB_EINVAL,
		               "%s exists and is not empty (choose a new directory with -o)", dir);
	}
	close(dfd);
	if (rc && *created)
		rmdir(dir);
	return rc;
}

void lab__results_unclaim(const char *dir)
{
	char *p = NULL;

	if (asprintf(&p, "%s/%s", dir, LAB_RESULTS_LOCK) >= 0) {
		unlink(p);
		free(p);
	}
}
