/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Text from the user or from files must not drive the terminal. lab_esc_classify is the one rule
 * of what passes as it is: printable ASCII and valid UTF-8 of characters terminals show as
 * text. The rest is escaped by the two writers built on it: error lines
 * (lab_opts_puts_escaped, lab/cli_opts.h) and the text output of `lab analyze` and `lab
 * compare`, which carries strings read from results files (experiment names, params, work
 * units, run.json's reasons and provenance). A text stream wraps the real one and escapes, in
 * everything written through it, every control byte but the newline (ESC as \x1b, CR as \x0d,
 * DEL as \x7f), every byte that is no part of valid UTF-8 (a lone 0x9b, the 8-bit CSI, as
 * \x9b), the UTF-8 form of the C1 controls (U+0080..U+009F, which terminals read as CSI and the
 * like) as \u0080..\u009f and the bidirectional embeddings, overrides and isolates (U+202A..
 * U+202E, U+2066..U+2069, which reorder what follows on the line) as \u202a..\u2069, as the
 * HTML and gnuplot renderers neutralize the same text. Other text, UTF-8 included, passes
 * unchanged, so the tables' own text is not altered.
 */
#ifndef LAB_LAB_TEXT_ESC_H
#define LAB_LAB_TEXT_ESC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* What the text at the start of a buffer is, for a writer that escapes. */
enum lab_esc_kind {
	LAB_ESC_PLAIN, /* printable ASCII, or valid UTF-8 of a character shown as text: as it is */
	LAB_ESC_CODE,  /* valid UTF-8 of a C1 control or a bidi control: \uXXXX of its code point */
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

/* A write-only stream that escapes into out (not owned); NULL when memory runs out. A failed
 * write to out stays visible as ferror(out). */
FILE *lab_text_esc_open(FILE *out);
/* Flushes and frees the stream (out stays open). Returns 0 or EOF when a write failed. */
int lab_text_esc_close(FILE *t);

#endif
