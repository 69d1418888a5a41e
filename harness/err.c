/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The bytes of s (len of them) into dst (cap bytes, cap >= 16), NUL-terminated. A message
 * longer than dst keeps its start (where it is) and its end (what is allowed) around "...",
 * each cut at the start of a UTF-8 character: an error quoting a 2,000-byte value still says
 * what is wrong with it. */
static void err_clip_into(char *dst, size_t cap, const char *s, size_t len)
{
	size_t tail = cap / 3, head;

	if (len < cap) {
		memcpy(dst, s, len);
		dst[len] = '\0';
		return;
	}
	head = cap - 1 - 3 - tail;
	while (head > 0 && ((unsigned char)s[head] & 0xc0) == 0x80)
		head--;
	while (tail > 0 && ((unsigned char)s[len - tail] & 0xc0) == 0x80)
		tail--;
	memcpy(dst, s, head);
	memcpy(dst + head, "...", 3);
	memcpy(dst + head + 3, s + len - tail, tail);
	dst[head + 3 + tail] = '\0';
}

/* Formats into err->msg, clipped by err_clip_into (a plain cut when out of memory). */
__attribute__((format(printf, 2, 0))) static void err_vformat(struct lab_err *err, const char *fmt,
                                                              va_list ap)
{
	va_list copy;
	char *line = NULL;
	int len;

	va_copy(copy, ap);
	len = vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	if (len >= (int)sizeof(err->msg) && vasprintf(&line, fmt, copy) >= 0) {
		err_clip_into(err->msg, sizeof(err->msg), line, strlen(line));
		free(line);
	}
	va_end(copy);
}

int lab_err_set(struct lab_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->code = code;
		va_start(ap, fmt);
		err_vformat(err, fmt, ap);
		va_end(ap);
	}
	return -code;
}

int lab_err_prefix(struct lab_err *err, const char *fmt, ...)
{
	char *head = NULL, *line = NULL;
	va_list ap;
	int len;

	if (!err)
		return -LAB_EINVAL;
	va_start(ap, fmt);
	len = vasprintf(&head, fmt, ap);
	va_end(ap);
	if (len >= 0 && asprintf(&line, "%s%s", head, err->msg) >= 0)
		err_clip_into(err->msg, sizeof(err->msg), line, strlen(line));
	else /* out of memory: the message as it was */
		err->msg[sizeof(err->msg) - 1] = '\0';
	free(head);
	free(line);
	return -err->code;
}
