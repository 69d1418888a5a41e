/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/csv.h"

#include "harness/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int lab_an_file_read(const char *path, char **out, size_t *len, struct lab_err *err)
{
	static const char open_fail[] = "cannot open: ", read_fail[] = "read error: ";
	struct lab_err e;
	size_t n = strlen(path);
	const char *rest;
	int rc = lab_file_read(path, LAB_AN_FILE_MAX, out, len, &e);

	if (!rc)
		return 0;
	/* The analyzer's wording of the base reader's "PATH: what: cause". */
	rest = strncmp(e.msg, path, n) || strncmp(e.msg + n, ": ", 2) ? e.msg : e.msg + n + 2;
	if (rc == -LAB_ENOMEM)
		return lab_err_set(err, LAB_ENOMEM, "reading %s: out of memory", path);
	if (!strncmp(rest, open_fail, sizeof(open_fail) - 1))
		return lab_err_set(err, LAB_EIO, "cannot open %s: %s", path,
		                   rest + sizeof(open_fail) - 1);
	if (!strncmp(rest, read_fail, sizeof(read_fail) - 1))
		return lab_err_set(err, LAB_EIO, "cannot read %s: %s", path,
		                   rest + sizeof(read_fail) - 1);
	return lab_err_set(err, e.code, "%s", e.msg);
}

int lab_an_input_open(const char *path, unsigned flags, struct lab_err *err)
{
	struct stat st;
	int fd;

	/* O_NONBLOCK: opening a FIFO must not wait for a writer before fstat can refuse it. */
	do
		fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC |
		                    (flags & LAB_AN_IN_NOFOLLOW ? O_NOFOLLOW : 0));
	while (fd < 0 && errno == EINTR);
	if (fd < 0 && errno == ELOOP && (flags & LAB_AN_IN_NOFOLLOW))
		return lab_err_set(
		    err, LAB_EDATA,
		    "%s: a symbolic link (the analyzer reads only regular files in the "
		    "results directory, never through a link)",
		    path);
	if (fd < 0)
		return lab_err_set(err, LAB_EIO, "cannot open %s: %s", path, strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		int e = errno;

		if (S_ISREG(st.st_mode))
			lab_err_set(err, LAB_EIO, "cannot open %s: %s", path, strerror(e));
		else
			lab_err_set(err, LAB_EDATA,
			            "%s: not a regular file (%s; allowed: a regular file)", path,
			            lab_file_kind(st.st_mode));
		close(fd);
		return S_ISREG(st.st_mode) ? -LAB_EIO : -LAB_EDATA;
	}
	return fd;
}

/* Reads up to len bytes; 0 at the end of the file, -1 (errno) on an error. */
static ssize_t an_read(int fd, char *buf, size_t len)
{
	ssize_t got;

	do
		got = read(fd, buf, len);
	while (got < 0 && errno == EINTR);
	return got;
}

int lab_an_input_read(const char *path, unsigned flags, char **out, size_t *len,
                      struct lab_err *err)
{
	size_t cap = 0, line = 1;
	char *buf = NULL;
	int fd = lab_an_input_open(path, flags, err), rc = 0;
	struct stat st;

	*out = NULL;
	*len = 0;
	if (fd < 0)
		return fd;
	/* a regular file says its size: one past the limit is refused before it is read (a
	 * 1.2 GB run.json cost 7 s and 1.6 GB of memory to refuse) */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size > LAB_AN_FILE_MAX) {
		close(fd);
		return lab_err_set(err, LAB_EDATA, "%s: larger than %zu GiB, allowed: at most that",
		                   path, LAB_AN_FILE_MAX >> 30);
	}
	for (;;) {
		ssize_t got;

		if (*len + LAB_AN_CSV_CHUNK + 1 > cap) {
			size_t most = LAB_AN_FILE_MAX + LAB_AN_CSV_CHUNK + 1;
			size_t ncap = !cap ? 2 * LAB_AN_CSV_CHUNK : 2 * cap < most ? 2 * cap : most;
			char *nb = *len <= LAB_AN_FILE_MAX ? realloc(buf, ncap) : NULL;

			if (!nb) {
				rc = *len > LAB_AN_FILE_MAX
				         ? lab_err_set(
				               err, LAB_EDATA,
				               "%s: larger than %zu GiB, allowed: at most that",
				               path, LAB_AN_FILE_MAX >> 30)
				         : lab_err_set(err, LAB_ENOMEM, "reading %s: out of memory",
				                       path);
				break;
			}
			buf = nb;
			cap = ncap;
		}
		got = an_read(fd, buf + *len, LAB_AN_CSV_CHUNK);
		if (got < 0) {
			rc = lab_err_set(err, LAB_EIO, "cannot read %s: %s", path, strerror(errno));
			break;
		}
		if (got == 0)
			break;
		/* a text file holds no NUL byte: refuse at the first one, before reading on (a
		 * sparse file of gigabytes of zeros costs nothing to reject) */
		char *nul = memchr(buf + *len, 0, (size_t)got);
		if (nul) {
			for (char *q = buf; q < nul; q++)
				line += *q == '\n';
			rc = lab_err_set(err, LAB_EDATA, "%s:%zu: NUL byte, allowed: text", path,
			                 line);
			break;
		}
		*len += (size_t)got;
	}
	close(fd);
	if (rc) {
		free(buf);
		*len = 0;
		return rc;
	}
	if (!buf && !(buf = malloc(1)))
		return lab_err_set(err, LAB_ENOMEM, "reading %s: out of memory", path);
	buf[*len] = 0;
	*out = buf;
	return 0;
}

int lab_an_csv_open(struct lab_an_csv *r, const char *path, struct lab_err *err)
{
	return lab_an_csv_open_flags(r, path, 0, err);
}

/* Reads the next chunk after the bytes buffered, first moving the unread bytes (from keep) to
 * the front. 1: read some, 0: the end of the file, negative: an error in err. */
static int an_csv_fill(struct lab_an_csv *r, size_t *keep, struct lab_err *err)
{
	ssize_t got;

	if (r->eof)
		return 0;
	if (*keep) {
		memmove(r->buf, r->buf + *keep, r->len - *keep);
		r->len -= *keep;
		r->pos -= *keep < r->pos ? *keep : r->pos;
		r->scan -= *keep < r->scan ? *keep : r->scan;
		*keep = 0;
	}
	if (r->len - r->pos > LAB_AN_CSV_RECORD_MAX)
		return lab_err_set(
		    err, LAB_EDATA,
		    "%s:%zu: a record longer than %d MiB, allowed: lines of a CSV file", r->path,
		    r->next_line, LAB_AN_CSV_RECORD_MAX >> 20);
	if (r->len + LAB_AN_CSV_CHUNK + 1 > r->cap) {
		size_t ncap = r->cap ? 2 * r->cap : 2 * LAB_AN_CSV_CHUNK;
		char *nb = realloc(r->buf, ncap);

		if (!nb)
			return lab_err_set(err, LAB_ENOMEM, "reading %s: out of memory", r->path);
		r->buf = nb;
		r->cap = ncap;
	}
	got = r->left ? an_read(r->fd, r->buf + r->len,
	                        r->left < (uint64_t)LAB_AN_CSV_CHUNK ? (size_t)r->left
	                                                             : LAB_AN_CSV_CHUNK)
	              : 0;
	if (got < 0)
		return lab_err_set(err, LAB_EIO, "cannot read %s: %s", r->path, strerror(errno));
	r->eof = got == 0;
	r->left -= (uint64_t)got;
	r->len += (size_t)got;
	r->buf[r->len] = 0;
	return got > 0;
}

int lab_an_csv_open_flags(struct lab_an_csv *r, const char *path, unsigned flags,
                          struct lab_err *err)
{
	struct stat st;
	size_t keep = 0;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	r->next_line = 1;
	r->path = lab_an_strdup(path);
	if (!r->path)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	if ((r->fd = lab_an_input_open(path, flags, err)) < 0)
		return r->fd;
	/* what is appended from now on is not read: a file that grows while it is read (yes >>
	 * samples.csv) kept the analyzer reading, its memory growing with the file */
	if (fstat(r->fd, &st) != 0)
		return lab_err_set(err, LAB_EIO, "cannot read %s: %s", path, strerror(errno));
	r->left = (uint64_t)st.st_size;
	while (r->len < 3 && (rc = an_csv_fill(r, &keep, err)) > 0)
		;
	if (rc < 0)
		return rc;
	/* A UTF-8 byte order mark (spreadsheets on Windows write one) is not part of the header. */
	if (r->len >= 3 && !memcmp(r->buf, "\xEF\xBB\xBF", 3))
		r->pos = 3;
	return 0;
}

void lab_an_csv_close(struct lab_an_csv *r)
{
	if (r->fd >= 0)
		close(r->fd);
	free(r->path);
	free(r->buf);
	free(r->field);
	memset(r, 0, sizeof(*r));
	r->fd = -1;
}

static int an_csv_push(struct lab_an_csv *r, char *f, struct lab_err *err)
{
	if (lab_an_grow(&r->field, &r->fcap, r->nfield + 1, sizeof(*r->field)))
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	r->field[r->nfield++] = f;
	return 0;
}

static int an_csv_nul(struct lab_an_csv *r, struct lab_err *err)
{
	return lab_err_set(err, LAB_EDATA, "%s:%zu: NUL byte in a field, allowed: text", r->path,
	                   r->line);
}

/* Reads a quoted field from p (at its opening quote) into w; stops at the closing quote or, when
 * the file was cut inside the field, at its end (r->open_quote). Returns the position after it,
 * or NULL on a NUL byte. */
static char *an_csv_quoted(struct lab_an_csv *r, char *p, char **w)
{
	char *end = r->buf + r->len;

	for (p++;;) {
		if (p >= end) {
			r->open_quote = 1;
			return p;
		}
		if (*p == '\0')
			return NULL;
		if (*p == '"' && p + 1 < end && p[1] == '"') {
			*(*w)++ = '"';
			p += 2;
		} else if (*p == '"') {
			return p + 1;
		} else {
			r->next_line += *p == '\n';
			*(*w)++ = *p++;
		}
	}
}

/* Skips blank lines, reading on as needed (one byte beyond, for CRLF). 1: a record starts at
 * r->pos, 0: the end of the file, negative: an error. */
static int an_csv_skip_blank(struct lab_an_csv *r, struct lab_err *err)
{
	size_t keep;
	int rc;

	for (;;) {
		char c;

		if (r->pos + 1 >= r->len && !r->eof) {
			keep = r->pos;
			if ((rc = an_csv_fill(r, &keep, err)) < 0)
				return rc;
			continue;
		}
		if (r->pos >= r->len)
			return 0;
		c = r->buf[r->pos];
		if (c != '\n' && c != '\r')
			return 1;
		r->next_line += c == '\n' || (r->pos + 1 >= r->len || r->buf[r->pos + 1] != '\n');
		r->pos++;
	}
}

/* Reads on until the record at r->pos ends in the buffer (its newline and one byte after it), or
 * a NUL byte (which the parser then reports), or the end of the file: the first bad byte is
 * refused without reading the rest, and memory holds one record (at most
 * LAB_AN_CSV_RECORD_MAX bytes). The scan follows the parser's quoting rules without changing
 * the bytes. 0 or a negative code. */
static int an_csv_want_record(struct lab_an_csv *r, struct lab_err *err)
{
	int inq = 0, fs = 1, rc;
	size_t keep;

	r->scan = r->pos;
	for (;;) {
		char c;

		if (r->scan + 1 >= r->len && !r->eof) {
			keep = r->pos;
			if ((rc = an_csv_fill(r, &keep, err)) < 0)
				return rc;
			continue;
		}
		if (r->scan >= r->len)
			return 0;
		c = r->buf[r->scan];
		if (!c)
			return 0;
		if (inq) {
			if (c == '"' && r->scan + 1 < r->len && r->buf[r->scan + 1] == '"')
				r->scan++;
			else if (c == '"')
				inq = 0;
		} else if (c == '"' && fs) {
			inq = 1;
		} else if (c == '\n' || c == '\r') {
			return 0;
		}
		fs = !inq && c == ',';
		r->scan++;
	}
}

/* Unquotes in place: the output never outgrows the input, so w trails p. A record ends at a
 * newline (LF, CRLF or a lone CR) and is then complete; one the end of the file cuts (even inside
 * a quoted field) is returned with complete = 0 for the caller to drop or keep. */
int lab_an_csv_next(struct lab_an_csv *r, struct lab_err *err)
{
	char *p, *end;
	int rc;

	r->nfield = 0;
	if ((rc = an_csv_skip_blank(r, err)) <= 0)
		return rc;
	r->line = r->next_line;
	if ((rc = an_csv_want_record(r, err)))
		return rc;
	p = r->buf + r->pos;
	end = r->buf + r->len;
	r->complete = 0;
	r->open_quote = 0;
	for (;;) {
		char *w = p, *start = p;

		if (*p == '"' && !(p = an_csv_quoted(r, p, &w)))
			return an_csv_nul(r, err);
		while (p < end && *p != ',' && *p != '\n' && *p != '\r') {
			if (!*p)
				return an_csv_nul(r, err);
			*w++ = *p++;
		}
		if ((rc = an_csv_push(r, start, err)))
			return rc;
		if (p < end && *p == ',') {
			*w = 0;
			p++;
			continue;
		}
		if (p < end) {
			r->complete = 1;
			r->next_line++;
			p += *p == '\r' && p + 1 < end && p[1] == '\n' ? 2 : 1;
		}
		*w = 0;
		break;
	}
	r->pos = (size_t)(p - r->buf);
	return 1;
}

int lab_an_csv_column(const struct lab_an_csv *r, const char *name)
{
	for (size_t i = 0; i < r->nfield; i++)
		if (!strcmp(r->field[i], name))
			return (int)i;
	return -1;
}
