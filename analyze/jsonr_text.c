/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The text of a parsed JSON document's strings and keys (jsonr_int.h). */
#include <stdlib.h>

#include "analyze/jsonr_int.h"

#define JT_BLOCK_BYTES ((size_t)64 << 10)

static void jt_utf8_put(char **o, unsigned cp)
{
	char *d = *o;

	if (cp < 0x80) {
		*d++ = (char)cp;
	} else if (cp < 0x800) {
		*d++ = (char)(0xC0 | (cp >> 6));
		*d++ = (char)(0x80 | (cp & 0x3F));
	} else if (cp < 0x10000) {
		*d++ = (char)(0xE0 | (cp >> 12));
		*d++ = (char)(0x80 | ((cp >> 6) & 0x3F));
		*d++ = (char)(0x80 | (cp & 0x3F));
	} else {
		*d++ = (char)(0xF0 | (cp >> 18));
		*d++ = (char)(0x80 | ((cp >> 12) & 0x3F));
		*d++ = (char)(0x80 | ((cp >> 6) & 0x3F));
		*d++ = (char)(0x80 | (cp & 0x3F));
	}
	*o = d;
}

static int jt_hex4(const char **s, const char *end, unsigned *cp)
{
	*cp = 0;
	if (end - *s < 4)
		return -1;
	for (int i = 0; i < 4; i++) {
		char c = *(*s)++;

		*cp <<= 4;
		if (c >= '0' && c <= '9')
			*cp |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*cp |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*cp |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	return 0;
}

/* Room for n bytes in the text blocks, or NULL. A string longer than a block gets
 * a block of its own behind the one being filled. */
static char *jt_room(struct lab__jblock **blocks, size_t n)
{
	struct lab__jblock *b = *blocks;

	if (b && b->cap - b->used >= n)
		return b->text + b->used;
	if (!(b = malloc(sizeof(*b) + (n > JT_BLOCK_BYTES ? n : JT_BLOCK_BYTES))))
		return NULL;
	b->used = 0;
	b->cap = n > JT_BLOCK_BYTES ? n : JT_BLOCK_BYTES;
	if (n > JT_BLOCK_BYTES && *blocks) {
		b->next = (*blocks)->next;
		(*blocks)->next = b;
	} else {
		b->next = *blocks;
		*blocks = b;
	}
	return b->text;
}

/* Keeps the n bytes written at t (jt_room's) in their block. */
static void jt_keep(struct lab__jblock *b, const char *t, size_t n)
{
	if (t != b->text + b->used) /* a block of its own: the one after the first */
		b = b->next;
	b->used += n;
}

/* Decoded output is never longer than the escaped input (a 6-byte \\uXXXX gives <= 3 bytes, a
 * 12-byte pair gives 4), so room for the raw length suffices; the text keeps what it used. */
int lab__jtext_decode(struct lab__jblock **blocks, const char **s, const char *end, size_t raw,
                      char **out, const char **why)
{
	char *buf = jt_room(blocks, raw + 1), *o = buf;

	if (!buf)
		return -2;
	*why = "bad \\u escape in a string";
	while (**s != '"') {
		char c = *(*s)++;
		unsigned cp, lo;

		if (c != '\\') {
			*o++ = c;
			continue;
		}
		c = *(*s)++;
		switch (c) {
		case 'n':
			*o++ = '\n';
			break;
		case 't':
			*o++ = '\t';
			break;
		case 'r':
			*o++ = '\r';
			break;
		case 'b':
			*o++ = '\b';
			break;
		case 'f':
			*o++ = '\f';
			break;
		case 'u':
			if (jt_hex4(s, end, &cp))
				return -1;
			if (cp >= 0xD800 && cp < 0xDC00 && end - *s >= 6 && (*s)[0] == '\\' &&
			    (*s)[1] == 'u') {
				*s += 2;
				if (jt_hex4(s, end, &lo) || lo < 0xDC00 || lo > 0xDFFF)
					return -1;
				cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
			} else if (cp >= 0xD800 && cp < 0xE000) { /* no UTF-8 for half a pair */
				*why =
				    "a lone surrogate \\u escape in a string (allowed: a high one "
				    "followed by a low one)";
				return -1;
			}
			if (!cp) { /* a NUL would end the string where the reader stops */
				*why = "\\u0000 in a string (allowed: no NUL)";
				return -1;
			}
			jt_utf8_put(&o, cp);
			break;
		case '"':
		case '\\':
		case '/':
			*o++ = c;
			break;
		default:
			(*s)--; /* the line of the escape, not of a newline after its backslash */
			*why = "a bad escape in a string (allowed: \\\" \\\\ \\/ \\b \\f \\n \\r "
			       "\\t \\uXXXX)";
			return -1;
		}
	}
	(*s)++;
	*o++ = 0;
	jt_keep(*blocks, buf, (size_t)(o - buf));
	*out = buf;
	return 0;
}

void lab__jtext_free(struct lab__jblock *blocks)
{
	while (blocks) {
		struct lab__jblock *b = blocks;
		blocks = b->next;
		free(b);
	}
}
