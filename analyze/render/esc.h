/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The one rule of which text read from files or given by the user passes as it is: printable
 * ASCII and valid UTF-8 of characters shown as text. Every writer of such text escapes the rest
 * the same way: the text output and error lines (lab/text_esc.h) and the HTML report
 * (render/html.c) as \xHH for a control byte or a byte of no valid UTF-8 sequence, \uXXXX for a
 * C1 control, a bidi control (embeddings, overrides, isolates, marks: "Trojan Source") or a
 * character that shows as nothing (zero-width space and joiners, soft hyphen, tags...).
 */
#ifndef LAB_ANALYZE_RENDER_ESC_H
#define LAB_ANALYZE_RENDER_ESC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* What the text at the start of a buffer is, for a writer that escapes. */
enum lab_esc_kind {
	LAB_ESC_PLAIN, /* printable ASCII, or valid UTF-8 of a character shown as text: as it is */
	LAB_ESC_CODE,  /* valid UTF-8 of a C1 or bidi control or an invisible character: its code */
	LAB_ESC_BYTE,  /* one byte: a C0 control, DEL, or a byte of no valid UTF-8 sequence */
	LAB_ESC_MORE,  /* the buffer ends inside a UTF-8 sequence the next bytes may complete */
};

/*
 * Classifies the character that starts s[0..n) (n >= 1): sets *len to its length in bytes (1
 * for LAB_ESC_BYTE) and *cp to its code point (the byte for LAB_ESC_BYTE). LAB_ESC_MORE only
 * when at_end is false: a stream then waits for the next write (*len is 0).
 */
enum lab_esc_kind lab_esc_classify(const unsigned char *s, size_t n, bool at_end, size_t *len,
                                   unsigned *cp);

/* Writes the code point of a LAB_ESC_CODE character: \uXXXX, or \UXXXXXXXX past U+FFFF. */
void lab_esc_put_code(FILE *f, unsigned cp);

#endif
