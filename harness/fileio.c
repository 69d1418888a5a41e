/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *lab_file_kind(mode_t m)
{
	if (S_ISREG(m))
		return "a regular file";
	if (S_ISLNK(m))
		return "a symbolic link";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a plain file";
}

static int file_too_big(const char *path, unsigned long long n, size_t max, struct lab_err *err)
{
	if (max && max % (1u << 20) == 0)
		return lab_err_set(err, LAB_EIO, "%s: %llu bytes (allowed at most %zu MiB)", path,
		                   n, max >> 20);
	return lab_err_set(err, LAB_EIO, "%s: %llu bytes (allowed at most %zu bytes)", path, n,
	                   max);
}

/* Grows *buf to hold at least need bytes; the capacity doubles so reading stays linear. */
static int file_grow(char **buf, size_t *cap, size_t need)
{
	size_t ncap = *cap ? *cap : 4096;
	char *nb;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	nb = realloc(*buf, ncap);
	if (!nb)
		return -1;
	*buf = nb;
	*cap = ncap;
	return 0;
}

/* Reads fd to its end or to one byte past max (so growth after fstat shows). */
static int file_read_fd(int fd, const char *path, size_t max, size_t hint, char **buf, size_t *len,
                        struct lab_err *err)
{
	size_t cap = 0, want = (hint < max ? hint : max) + 2;

	*len = 0;
	for (;;) {
		if (file_grow(buf, &cap, *len + 2 > want ? *len + 4096 : want))
			return lab_err_set(err, LAB_ENOMEM, "%s: out of memory", path);
		size_t room = cap - *len - 1;
		if (room > max + 1 - *len)
			room = max + 1 - *len;
		ssize_t got = read(fd, *buf + *len, room);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return lab_err_set(err, LAB_EIO, "%s: read error: %s", path,
			                   strerror(errno));
		if (got == 0)
			break;
		*len += (size_t)got;
		if (*len > max)
			return file_too_big(path, *len, max, err);
	}
	(*buf)[*len] = '\0';
	return 0;
}

int lab_file_read(const char *path, size_t max_bytes, char **buf, size_t *len, struct lab_err *err)
{
	struct stat st;
	int fd, rc;

	*buf = NULL;
	*len = 0;
	if (max_bytes > (size_t)-1 / 2)
		max_bytes = (size_t)-1 / 2;
	/* O_NONBLOCK: opening a FIFO must not wait for a writer before fstat can refuse it. */
	do
		fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return lab_err_set(err, LAB_EIO, "%s: cannot open: %s", path, strerror(errno));
	if (fstat(fd, &st) != 0) {
		rc = lab_err_set(err, LAB_EIO, "%s: cannot open: %s", path, strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		rc = lab_err_set(err, LAB_EIO,
		                 "%s: not a regular file (%s; allowed: a regular file)", path,
		                 lab_file_kind(st.st_mode));
	} else if ((unsigned long long)st.st_size > max_bytes) {
		rc = file_too_big(path, (unsigned long long)st.st_size, max_bytes, err);
	} else {
		rc = file_read_fd(fd, path, max_bytes, (size_t)st.st_size, buf, len, err);
	}
	if (rc) {
		free(*buf);
		*buf = NULL;
		*len = 0;
	}
	close(fd);
	return rc;
}
