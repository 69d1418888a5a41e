/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Claiming a results directory for one run: created when absent, locked with run.lock (O_EXCL),
 * empty but for the lock (results_internal.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/results_internal.h"

/* What -o may name, for the messages of a directory that cannot be used. */
#define RESULTS_ALLOWED "allowed: -o a new directory, or an empty one this user can write"

/* An errno of mkdir or open that means the name given cannot be used (bad usage), not that
 * the system failed: no such parent (a dangling link on the way), no permission, a read-only
 * file system. */
static bool results_errno_usage(int e)
{
	return e == ENOTDIR || e == ENAMETOOLONG || e == ELOOP || e == ENOENT || e == EACCES ||
	       e == EPERM || e == EROFS;
}

/* "STEP DIR: CAUSE", with what is allowed when the name is what is wrong. */
static int results_errno_err(struct lab_err *err, const char *step, const char *dir, int e)
{
	if (results_errno_usage(e))
		return lab_err_set(err, LAB_EINVAL, "%s %s: %s (%s)", step, dir, strerror(e),
		                   RESULTS_ALLOWED);
	return lab_err_set(err, LAB_EIO, "%s %s: %s", step, dir, strerror(e));
}

/* Removes the parents of dir that results_mkdirs made (copy: a copy of dir; made: how many,
 * the deepest last at the '/' offsets in at), deepest first. */
static void results_unmake(char *copy, const size_t *at, unsigned made)
{
	while (made--) {
		copy[at[made]] = '\0';
		rmdir(copy);
	}
}

/* Why creating dir failed with e: ENOTDIR names the part of the path that is a file. */
static int results_mkdir_err(char *copy, const char *dir, int e, struct lab_err *err)
{
	struct stat st;

	strcpy(copy, dir);
	for (char *p = copy + 1; e == ENOTDIR && *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (stat(copy, &st) == 0 && !S_ISDIR(st.st_mode))
			return lab_err_set(err, LAB_EINVAL, "create %s: %s is not a directory (%s)",
			                   dir, copy, RESULTS_ALLOWED);
		*p = '/';
	}
	return results_errno_err(err, "create", dir, e);
}

/* mkdir -p of dir's parents and of dir; *created when dir itself is new. On failure the
 * parents it made are removed again (a refused -o left newp/q/ behind). */
static int results_mkdirs(const char *dir, bool *created, struct lab_err *err)
{
	char *copy = strdup(dir);
	size_t *at = calloc(strlen(dir) + 1, sizeof(*at)); /* one per '/' at most */
	unsigned made = 0;
	int rc = 0, e = 0;

	if (!copy || !at) {
		free(copy);
		free(at);
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	}
	for (char *p = copy + 1; *p && !e; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(copy, 0777) == 0)
			at[made++] = (size_t)(p - copy);
		else if (errno != EEXIST)
			e = errno;
		*p = '/';
	}
	if (!e && mkdir(dir, 0777) == 0)
		*created = true;
	else if (!e && errno != EEXIST)
		e = errno;
	if (e) {
		results_unmake(copy, at, made);
		rc = results_mkdir_err(copy, dir, e, err);
	}
	free(copy);
	free(at);
	return rc;
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

/* What a lock holds: "PID HOST\n", the run's process id and the host it ran on (a results
 * directory on a shared file system may be claimed from another node). */
static int results_lock_text(char *buf, size_t len)
{
	char host[256] = "";

	if (gethostname(host, sizeof(host) - 1) != 0 || strpbrk(host, " \n"))
		strcpy(host, "?");
	return snprintf(buf, len, "%ld %s\n", (long)getpid(), host);
}

/* The process id in the lock fd holds when a process of this host wrote it and that process
 * is gone (kill says ESRCH); 0 when it may be alive, was written elsewhere, or cannot be read
 * (an empty lock is one being written: taken). */
static long results_lock_dead(int fd)
{
	char buf[320], mine[320], *end;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	long pid;

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	results_lock_text(mine, sizeof(mine));
	pid = strtol(buf, &end, 10);
	if (pid <= 0 || end == buf || strcmp(end, strchr(mine, ' ')) != 0)
		return 0;
	return kill((pid_t)pid, 0) != 0 && errno == ESRCH ? pid : 0;
}

/* A lock a killed run left in a directory that holds nothing else becomes ours: under flock,
 * so that of two runs finding it one rewrites it and the other then reads a live process.
 * 0 when taken over; otherwise the one-line refusal (a live run, or a killed run's files). */
static int results_lock_stale(int dfd, const char *dir, struct lab_err *err)
{
	int fd = openat(dfd, LAB_RESULTS_LOCK, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	/* one name, a regular file: a lock hard-linked from elsewhere is not rewritten (its other
	 * name, outside dir, would be) */
	bool own = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink == 1;
	long pid = own && flock(fd, LOCK_EX | LOCK_NB) == 0 ? results_lock_dead(fd) : 0;
	char text[320];
	int n = results_lock_text(text, sizeof(text)), rc = 0;

	errno = 0;
	if (pid && results_entries(dfd) > 0)
		rc = lab_err_set(err, LAB_EINVAL,
		                 "%s holds what a killed lab run left (process %ld is gone, %s/%s "
		                 "remains): choose a new directory with -o",
		                 dir, pid, dir, LAB_RESULTS_LOCK);
	else if (!pid)
		rc = lab_err_set(err, LAB_EINVAL,
		                 "%s is taken by another lab run (%s/%s exists; remove it if no "
		                 "run is writing there)",
		                 dir, dir, LAB_RESULTS_LOCK);
	else if (ftruncate(fd, 0) != 0 || pwrite(fd, text, (size_t)n, 0) != n)
		rc = lab_err_set(err, LAB_EIO, "write %s/%s: %s", dir, LAB_RESULTS_LOCK,
		                 strerror(errno ? errno : ENOSPC));
	if (fd >= 0)
		close(fd); /* releases the flock */
	return rc;
}

/* Creates the lock in dfd (O_EXCL: only one run can) holding this process's id and host. */
static int results_lock(int dfd, const char *dir, struct lab_err *err)
{
	int fd = openat(dfd, LAB_RESULTS_LOCK, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	                0644);
	char text[320];
	int n = results_lock_text(text, sizeof(text));

	if (fd < 0 && errno == EEXIST)
		return results_lock_stale(dfd, dir, err);
	if (fd < 0) { /* a directory with things in it is that, whatever refused the lock */
		int e = errno;
		if (results_entries(dfd) > 0)
			return lab_err_set(
			    err, LAB_EINVAL,
			    "%s exists and is not empty (choose a new directory with "
			    "-o)",
			    dir);
		return results_errno_usage(e)
		           ? lab_err_set(err, LAB_EINVAL, "create %s/%s: %s (%s)", dir,
		                         LAB_RESULTS_LOCK, strerror(e), RESULTS_ALLOWED)
		           : lab_err_set(err, LAB_EIO, "create %s/%s: %s", dir, LAB_RESULTS_LOCK,
		                         strerror(e));
	}
	errno = 0;
	if (write(fd, text, (size_t)n) != n) {
		int e = errno ? errno : ENOSPC;
		close(fd);
		unlinkat(dfd, LAB_RESULTS_LOCK, 0);
		return lab_err_set(err, LAB_EIO, "write %s/%s: %s", dir, LAB_RESULTS_LOCK,
		                   strerror(e));
	}
	close(fd);
	return 0;
}

/* Why dir, which mkdir found in place, cannot be opened as a directory. */
static int results_open_err(const char *dir, int e, struct lab_err *err)
{
	struct stat st;

	if (e == ENOTDIR)
		return lab_err_set(err, LAB_EINVAL, "%s exists and is not a directory (%s)", dir,
		                   RESULTS_ALLOWED);
	if ((e == ENOENT || e == ELOOP) && lstat(dir, &st) == 0 && S_ISLNK(st.st_mode))
		return lab_err_set(err, LAB_EINVAL, "%s is a symbolic link to %s (%s)", dir,
		                   e == ELOOP ? "itself or a loop of links" : "nothing that exists",
		                   RESULTS_ALLOWED);
	return results_errno_err(err, "open", dir, e);
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
	if (dfd < 0)
		return results_open_err(dir, errno, err);
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

int lab_results_dir_check(const char *dir, struct lab_err *err)
{
	char *copy = strdup(dir);
	struct stat st;
	int dfd, n, rc = 0;

	if (!copy)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	if (!*dir) {
		free(copy);
		return lab_err_set(err, LAB_EINVAL,
		                   "empty output directory name (give -o a directory, e.g. -o "
		                   "results/mine)");
	}
	/* the parents: each one there a directory; the first one missing made by the run, in a
	 * directory this user can write */
	for (char *p = copy + 1; *p && !rc; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (stat(copy, &st) != 0) {
			int e = errno, dangling = e == ENOENT && lstat(copy, &st) == 0;
			char *up = strrchr(copy, '/');
			if (up)
				*up = '\0';
			if (dangling) /* a link to nothing: the run's mkdir fails there */
				rc = results_errno_err(err, "create", dir, ENOENT);
			else if (e == ENOENT && access(up ? (*copy ? copy : "/") : ".", W_OK) != 0)
				rc = results_errno_err(err, "create", dir, errno);
			else if (e != ENOENT)
				rc = results_mkdir_err(copy, dir, e, err);
			free(copy);
			return rc;
		}
		if (!S_ISDIR(st.st_mode))
			rc = lab_err_set(err, LAB_EINVAL, "create %s: %s is not a directory (%s)",
			                 dir, copy, RESULTS_ALLOWED);
		*p = '/';
	}
	if (!rc && lstat(dir, &st) != 0) { /* new: made by the run, in a parent it can write */
		char *up = strrchr(copy, '/');
		if (up)
			up[up == copy] = '\0'; /* "/x": "/" */
		int e = errno;
		if (e != ENOENT) /* a parent it cannot search: the run's mkdir fails there */
			rc = results_errno_err(err, "create", dir, e);
		else if (access(up ? copy : ".", W_OK | X_OK) != 0)
			rc = results_errno_err(err, "create", dir, errno);
		free(copy);
		return rc;
	}
	free(copy);
	if (rc)
		return rc;
	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return results_open_err(dir, errno, err);
	n = results_entries(dfd);
	close(dfd);
	if (n > 0)
		return lab_err_set(err, LAB_EINVAL,
		                   "%s exists and is not empty (choose a new directory with -o)",
		                   dir);
	if (access(dir, W_OK | X_OK) != 0) /* empty, and the run would write into it */
		return results_errno_err(err, "write into", dir, errno);
	return 0;
}
