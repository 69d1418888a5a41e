/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/csv.h"

#include "harness/fileio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int lab_an_csv_open(struct lab_an_csv *r, const char *path, struct lab_err *err)
{
	int rc;

	memset(r, 0, sizeof(*r));
	r->next_line = 1;
	r->path = lab_an_strdup(path);
	if (!r->path)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	if ((rc = lab_an_file_read(path, &r->buf, &r->len, err)))
		return rc;
	/* A UTF-8 byte order mark (spreadsheets on Windows write one) is not part of the header. */
	if (r->len >= 3 && !memcmp(r->buf, "\xEF\xBB\xBF", 3))
		r->pos = 3;
	return 0;
}

void lab_an_csv_close(struct lab_an_csv *r)
{
	free(r->path);
	free(r->buf);
	free(r->field);
	memset(r, 0, sizeof(*r));
}

static int an_csv_push(struct lab_an_csv *r, char *f, struct lab_err *err)
{
	if (lab_an_grow(&r->field, &r->cap, r->nfield + 1, sizeof(*r->field)))
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

/* Unquotes in place: the output never outgrows the input, so w trails p. A record ends at a
 * newline (LF, CRLF or a lone CR) and is then complete; one the end of the file cuts (even inside
 * a quoted field) is returned with complete = 0 for the caller to drop or keep. */
int lab_an_csv_next(struct lab_an_csv *r, struct lab_err *err)
{
	char *p, *end = r->buf + r->len;
	int rc;

	r->nfield = 0;
	p = r->buf + r->pos;
	while (p < end && (*p == '\n' || *p == '\r')) {
		r->next_line += *p == '\n' || (*p == '\r' && (p + 1 >= end || p[1] != '\n'));
		p++;
	}
	if (p >= end)
		return 0;
	r->line = r->next_line;
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
