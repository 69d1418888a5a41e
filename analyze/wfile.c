/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/wfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *an_kind(mode_t m)
{
	return S_ISLNK(m)    ? "a symbolic link"
	       : S_ISDIR(m)  ? "a directory"
	       : S_ISFIFO(m) ? "a FIFO"
	                     : "not a regular file";
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

FILE *lab_an_wfile_openat(struct lab_an_wfile *w, int dirfd, const char *shown, const char *name,
                          struct lab_err *err)
{
	int fd;

	memset(w, 0, sizeof(*w));
	w->dirfd = -1;
	w->path = lab_an_asprintf("%s/%s", shown, name);
	w->tmp = lab_an_asprintf(".%s.lab-tmp", name);
	if (!w->path || !w->tmp) {
		lab_err_set(err, LAB_ENOMEM, "out of memory");
		goto fail;
	}
	w->name = w->path + strlen(shown) + 1;
	if ((w->dirfd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0)) < 0) {
		lab_err_set(err, LAB_EIO, "cannot write %s: %s", w->path, strerror(errno));
		goto fail;
	}
	if (lab_an_wfile_check(w->dirfd, shown, name, err) ||
	    lab_an_wfile_check(w->dirfd, shown, w->tmp, err))
		goto fail;
	unlinkat(w->dirfd, w->tmp, 0); /* a regular leftover of an interrupted analysis */
	fd = openat(w->dirfd, w->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 || !(w->f = fdopen(fd, "w"))) {
		lab_err_set(err, LAB_EIO, "cannot write %s: %s", w->path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlinkat(w->dirfd, w->tmp, 0);
		}
		goto fail;
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
	int rc = 0;

	if (w->f && (ferror(w->f) | fclose(w->f)) && keep) {
		rc = lab_err_set(err, LAB_EIO, "cannot write %s", w->path);
		keep = 0;
	}
	if (w->f && keep && renameat(w->dirfd, w->tmp, w->dirfd, w->name) != 0)
		rc = lab_err_set(err, LAB_EIO, "cannot write %s: %s", w->path, strerror(errno));
	if (w->f && rc | !keep)
		unlinkat(w->dirfd, w->tmp, 0);
	if (w->dirfd >= 0)
		close(w->dirfd);
	free(w->path);
	free(w->tmp);
	memset(w, 0, sizeof(*w));
	w->dirfd = -1;
	return rc;
}

/* Refuses links and special files among the entries of the analyzer's own directory. */
static int an_subdir_scan(int fd, const char *shown, struct lab_err *err)
{
	int dup = fcntl(fd, F_DUPFD_CLOEXEC, 0), rc = 0;
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
