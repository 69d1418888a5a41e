/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "lab/text_esc.h"

#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

struct lab_text_esc {
	FILE *out;
	unsigned char pend[4]; /* the start of a UTF-8 sequence the last write ended inside */
	size_t npend;
};

/* Writes the character s[0..len) of kind as it is or escaped; '\n' passes. */
static void text_esc_put(FILE *out, const unsigned char *s, size_t len, enum lab_esc_kind kind,
                         unsigned cp)
{
	if (kind == LAB_ESC_PLAIN || *s == '\n')
		fwrite(s, 1, len, out);
	else if (kind == LAB_ESC_CODE)
		lab_esc_put_code(out, cp);
	else
		fprintf(out, "\\x%02x", *s);
}

/* Writes s[0..n) escaped; keeps a sequence it ends inside for the next write (unless at_end).
 * Returns how many bytes of s it kept. */
static size_t text_esc_chars(struct lab_text_esc *t, const unsigned char *s, size_t n, bool at_end)
{
	size_t i = 0, len;
	unsigned cp;

	while (i < n) {
		size_t run = 0;

		/* a run of ASCII text goes out in one call, not byte by byte */
		while (i + run < n &&
		       ((s[i + run] >= 0x20 && s[i + run] < 0x7f) || s[i + run] == '\n'))
			run++;
		if (run) {
			fwrite(s + i, 1, run, t->out);
			i += run;
			continue;
		}
		enum lab_esc_kind kind = lab_esc_classify(s + i, n - i, at_end, &len, &cp);
		if (kind == LAB_ESC_MORE)
			return n - i;
		text_esc_put(t->out, s + i, len, kind, cp);
		i += len;
	}
	return 0;
}

static ssize_t text_esc_write(void *cookie, const char *buf, size_t n)
{
	struct lab_text_esc *t = cookie;
	const unsigned char *s = (const unsigned char *)buf;
	size_t used = 0, kept;

	if (t->npend) {
		/* the held start of a sequence and what may complete it: at most 3 + 4 bytes */
		unsigned char tmp[8];
		size_t m = t->npend, take = n < 4 ? n : 4, len;
		unsigned cp;

		memcpy(tmp, t->pend, m);
		memcpy(tmp + m, s, take);
		t->npend = 0;
		enum lab_esc_kind kind = lab_esc_classify(tmp, m + take, false, &len, &cp);
		if (kind == LAB_ESC_MORE) { /* then take == n: all of buf joins the held bytes */
			memcpy(t->pend, tmp, m + take);
			t->npend = m + take;
			return (ssize_t)n;
		}
		text_esc_put(t->out, tmp, len, kind, cp);
		if (len < m) /* a broken sequence: the held continuation bytes, each escaped */
			text_esc_chars(t, tmp + len, m - len, true);
		used = len > m ? len - m : 0;
	}
	kept = text_esc_chars(t, s + used, n - used, false);
	memcpy(t->pend, s + n - kept, kept);
	t->npend = kept;
	return ferror(t->out) ? -1 : (ssize_t)n;
}

static int text_esc_close(void *cookie)
{
	struct lab_text_esc *t = cookie;
	int rc;

	text_esc_chars(t, t->pend, t->npend, true);
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
