/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/wfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *an_kind(mode_t m)
{
	return S_ISLNK(m)    ? "a symbolic link"
	       : S_ISDIR(m)  ? "a directory"
	       : S_ISFIFO(m) ? "a FIFO"
	       : S_ISREG(m)  ? "a regular file"
	                     : "a special file";
}

int lab_an_wfile_check(int dirfd, const char *shown, const char *name, struct lab_err *err)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return errno == ENOENT ? 0
		                       : lab_err_set(err, LAB_EIO, "cannot check %s/%s: %s", shown,
		                                     name, strerror(errno));
	if (S_ISREG(st.st_mode))
		return 0;
	return lab_err_set(err, LAB_EIO,
	                   "refusing to write %s/%s: it is %s (the analyzer writes only regular "
	                   "files it creates itself; remove it)",
	                   shown, name, an_kind(st.st_mode));
}

/*
 * The temporaries being written, for lab_an_wfile_abort (a signal handler): a slot holds a copy
 * of the directory handle and the name, published by setting used last and cleared before the
 * temporary is renamed or removed.
 */
#define AN_TMP_SLOTS 8
static struct {
	volatile sig_atomic_t used;
	int dirfd;
	char name[200];
} an_tmp_slot[AN_TMP_SLOTS];

static int an_tmp_register(int dirfd, const char *name)
{
	if (strlen(name) >= sizeof(an_tmp_slot[0].name))
		return -1;
	for (int i = 0; i < AN_TMP_SLOTS; i++)
		if (!an_tmp_slot[i].used) {
			an_tmp_slot[i].dirfd = dirfd;
			memcpy(an_tmp_slot[i].name, name, strlen(name) + 1);
			an_tmp_slot[i].used = 1;
			return i;
		}
	return -1;
}

static void an_tmp_unregister(int slot)
{
	if (slot >= 0 && slot < AN_TMP_SLOTS)
		an_tmp_slot[slot].used = 0;
}

void lab_an_wfile_abort(void)
{
	for (int i = 0; i < AN_TMP_SLOTS; i++)
		if (an_tmp_slot[i].used) {
			unlinkat(an_tmp_slot[i].dirfd, an_tmp_slot[i].name, 0);
			an_tmp_slot[i].used = 0;
		}
}

uint64_t lab_an_tmp_tag(void)
{
	uint64_t v;
	struct timespec ts;

	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) == (ssize_t)sizeof(v))
		return v;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15u ^ (uint64_t)ts.tv_sec ^
	       (uint64_t)getpid() << 32;
}

/* Creates a fresh temporary .NAME.PID-TAG.lab-tmp (O_EXCL, never through a link): unique per
 * process and per writer, so two analyses of one DIR never share one. Returns the fd or -1. */
static int an_tmp_create(struct lab_an_wfile *w, const char *name)
{
	int fd = -1;

	for (int tries = 0; tries < 16 && fd < 0; tries++) {
		free(w->tmp);
		w->tmp = lab_an_asprintf(".%s.%ld-%016llx.lab-tmp", name, (long)getpid(),
		                         (unsigned long long)lab_an_tmp_tag());
		if (!w->tmp) {
			errno = ENOMEM;
			return -1;
		}
		fd = openat(w->dirfd, w->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		            0644);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	return fd;
}

FILE *lab_an_wfile_openat(struct lab_an_wfile *w, int dirfd, const char *shown, const char *name,
                          struct lab_err *err)
{
	int fd;

	memset(w, 0, sizeof(*w));
	w->dirfd = -1;
	w->slot = -1;
	w->path = lab_an_asprintf("%s/%s", shown, name);
	if (!w->path) {
		lab_err_set(err, LAB_ENOMEM, "out of memory");
		goto fail;
	}
	w->name = w->path + strlen(shown) + 1;
	if ((w->dirfd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0)) < 0) {
		lab_err_set(err, LAB_EIO, "cannot write %s: %s", w->path, strerror(errno));
		goto fail;
	}
	if (lab_an_wfile_check(w->dirfd, shown, name, err))
		goto fail;
	fd = an_tmp_create(w, name);
	if (fd >= 0)
		w->slot = an_tmp_register(w->dirfd, w->tmp);
	if (fd < 0 || !(w->f = fdopen(fd, "w"))) {
		lab_err_set(err, LAB_EIO, "cannot write %s: %s", w->path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			an_tmp_unregister(w->slot);
			unlinkat(w->dirfd, w->tmp, 0);
		}
		goto fail;
	}
	/* analysis.json and report.html run to hundreds of MB: 1 MB writes, not 4 KB ones (a
	 * system call each, dear on a virtual machine); without it stdio's own */
	if ((w->buf = malloc(LAB_AN_WFILE_BUF)) &&
	    setvbuf(w->f, w->buf, _IOFBF, LAB_AN_WFILE_BUF)) {
		free(w->buf);
		w->buf = NULL;
	}
	return w->f;
fail:
	lab_an_wfile_close(w, 0, NULL);
	return NULL;
}

FILE *lab_an_wfile_open(struct lab_an_wfile *w, const char *path, struct lab_err *err)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? lab_an_asprintf("%.*s", (int)(slash - path), path) : lab_an_strdup(".");
	int dfd = dir ? open(*dir ? dir : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	FILE *f = NULL;

	memset(w, 0, sizeof(*w));
	w->slot = -1;
	w->dirfd = -1;
	if (!dir)
		lab_err_set(err, LAB_ENOMEM, "out of memory");
	else if (dfd < 0)
		lab_err_set(err, LAB_EIO, "cannot write %s: %s", path, strerror(errno));
	else
		f = lab_an_wfile_openat(w, dfd, dir, slash ? slash + 1 : path, err);
	if (dfd >= 0)
		close(dfd);
	free(dir);
	return f;
}

int lab_an_wfile_close(struct lab_an_wfile *w, int keep, struct lab_err *err)
{
	int rc = 0, bad = w->f && ferror(w->f), closed = w->f ? fclose(w->f) : 0, why = errno;

	/* the reason is fclose's (its last flush: "No space left on device"); a write that failed
	 * before leaves none that can be trusted */
	if ((bad || closed) && keep) {
		rc = lab_err_set(err, LAB_EIO, "cannot write %s%s%s", w->path, closed ? ": " : "",
		                 closed ? strerror(why) : "");
		keep = 0;
	}
	if (w->tmp)
		an_tmp_unregister(w->slot);
	if (w->f && keep && renameat(w->dirfd, w->tmp, w->dirfd, w->name) != 0)
		rc = lab_err_set(err, LAB_EIO, "cannot write %s: %s", w->path, strerror(errno));
	if (w->f && rc | !keep)
		unlinkat(w->dirfd, w->tmp, 0);
	if (w->dirfd >= 0)
		close(w->dirfd);
	free(w->path);
	free(w->tmp);
	free(w->buf); /* after fclose, which flushed it */
	memset(w, 0, sizeof(*w));
	w->dirfd = -1;
	w->slot = -1;
	return rc;
}

/* Refuses links and special files among the entries of the analyzer's own directory. It reads
 * through a handle of its own on the directory: a dup of fd would share fd's offset and leave
 * it at the end, so the next reader of fd would see no entry. */
static int an_subdir_scan(int fd, const char *shown, struct lab_err *err)
{
	int dup = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc = 0;
	DIR *d = dup >= 0 ? fdopendir(dup) : NULL;
	struct dirent *e;
	struct stat st;

	if (!d) {
		if (dup >= 0)
			close(dup);
		return lab_err_set(err, LAB_EIO, "cannot read %s: %s", shown, strerror(errno));
	}
	while (!rc && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode) &&
		    !S_ISDIR(st.st_mode))
			rc = lab_err_set(err, LAB_EIO,
			                 "refusing to write into %s: %s/%s is %s (the analyzer "
			                 "writes only regular files it creates itself; remove it)",
			                 shown, shown, e->d_name, an_kind(st.st_mode));
	closedir(d);
	return rc;
}

int lab_an_subdir_open(const char *dir, const char *sub, int create, struct lab_err *err)
{
	char *shown = lab_an_asprintf("%s/%s", dir, sub);
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd = -1;
	struct stat st;

	if (!shown) {
		lab_err_set(err, LAB_ENOMEM, "out of memory");
		goto out;
	}
	if (dfd < 0) {
		lab_err_set(err, LAB_EIO, "cannot open %s: %s", dir, strerror(errno));
		goto out;
	}
	if (fstatat(dfd, sub, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISDIR(st.st_mode)) {
		lab_err_set(err, LAB_EIO,
		            "refusing to write into %s: it is %s, not a directory (remove it)",
		            shown, an_kind(st.st_mode));
		goto out;
	}
	if (create && mkdirat(dfd, sub, 0755) != 0 && errno != EEXIST) {
		lab_err_set(err, LAB_EIO, "cannot create %s: %s", shown, strerror(errno));
		goto out;
	}
	fd = openat(dfd, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		lab_err_set(err, LAB_EIO, "cannot open %s: %s", shown, strerror(errno));
	} else if (an_subdir_scan(fd, shown, err)) {
		close(fd);
		fd = -1;
	}
out:
	if (dfd >= 0)
		close(dfd);
	free(shown);
	return fd;
}

int lab_an_outputs_check(const char *dir, const char *const *files, const char *sub,
                         struct lab_err *err)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc = 0, fd;
	struct stat st;

	if (dfd < 0)
		return lab_err_set(err, LAB_EIO, "cannot open %s: %s", dir, strerror(errno));
	for (size_t i = 0; files && files[i] && !rc; i++)
		rc = lab_an_wfile_check(dfd, dir, files[i], err);
	if (!rc && sub && fstatat(dfd, sub, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if ((fd = lab_an_subdir_open(dir, sub, 0, err)) < 0)
			rc = -LAB_EIO;
		else
			close(fd);
	}
	close(dfd);
	return rc;
}
