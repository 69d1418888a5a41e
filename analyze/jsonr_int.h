/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The text of a parsed JSON document's strings and keys (jsonr_text.c), for jsonr.c only. */
#ifndef LAB_ANALYZE_JSONR_INT_H
#define LAB_ANALYZE_JSONR_INT_H

#include <stddef.h>

/*
 * The text of a document's strings and keys: blocks that the whole tree frees at once. One
 * malloc per string took 16 bytes of header and rounded the rest up to 16: a run.json of
 * 100,000 point records (12 million keys and strings, 9 bytes on average) held 380 MB for 109
 * MB of text, and every allocation cost a call to malloc and one to free.
 */
struct lab__jblock {
	struct lab__jblock *next;
	size_t used, cap;
	char text[];
};

/*
 * Decodes the escapes of the string whose raw bytes (raw of them, no control byte among them)
 * start at *s, just past its opening quote, and end at its closing quote, into text kept in
 * *blocks (the one being filled first); end is the document's end. Returns 0 with the text in
 * *out and *s past the closing quote; -1 with *s where the string went wrong and why in *why;
 * -2 when memory ran out.
 */
int lab__jtext_decode(struct lab__jblock **blocks, const char **s, const char *end, size_t raw,
                      char **out, const char **why);

/* Frees the blocks of a document's text. */
void lab__jtext_free(struct lab__jblock *blocks);

#endif
