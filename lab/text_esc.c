/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "lab/text_esc.h"

#include <stdlib.h>
#include <sys/types.h>

struct lab_text_esc {
	FILE *out;
	int pend; /* a 0xc2 byte held back until the next byte shows whether it starts a C1 */
};

/* 1 when c is written as it is whatever follows (0xc2 waits for the next byte). */
static int text_esc_plain(unsigned char c)
{
	return (c >= 0x20 && c != 0x7f && c != 0xc2) || c == '\n';
}

static void text_esc_byte(struct lab_text_esc *t, unsigned char c)
{
	if (t->pend) {
		t->pend = 0;
		if (c >= 0x80 && c <= 0x9f) {
			fprintf(t->out, "\\u%04x", c);
			return;
		}
		putc(0xc2, t->out);
	}
	if (c == 0xc2)
		t->pend = 1;
	else if ((c < 0x20 && c != '\n') || c == 0x7f)
		fprintf(t->out, "\\x%02x", c);
	else
		putc(c, t->out);
}

static ssize_t text_esc_write(void *cookie, const char *buf, size_t n)
{
	struct lab_text_esc *t = cookie;

	for (size_t i = 0; i < n;) {
		size_t run = 0;

		/* a run of bytes that pass as they are goes out in one call, not byte by byte */
		while (!t->pend && i + run < n && text_esc_plain((unsigned char)buf[i + run]))
			run++;
		if (run) {
			fwrite(buf + i, 1, run, t->out);
			i += run;
		} else
			text_esc_byte(t, (unsigned char)buf[i++]);
	}
	return ferror(t->out) ? -1 : (ssize_t)n;
}

static int text_esc_close(void *cookie)
{
	struct lab_text_esc *t = cookie;
	int rc;

	if (t->pend)
		putc(0xc2, t->out);
	rc = ferror(t->out) ? -1 : 0;
	free(t);
	return rc;
}

FILE *lab_text_esc_open(FILE *out)
{
	struct lab_text_esc *t = calloc(1, sizeof(*t));
	cookie_io_functions_t io = {.write = text_esc_write, .close = text_esc_close};
	FILE *f;

	if (!t)
		return NULL;
	t->out = out;
	if (!(f = fopencookie(t, "w", io)))
		free(t);
	return f;
}

int lab_text_esc_close(FILE *t)
{
	return fclose(t);
}
