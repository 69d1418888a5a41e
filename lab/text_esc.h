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

#include <stdio.h>

#include "analyze/render/esc.h"

/* A write-only stream that escapes into out (not owned); NULL when memory runs out. A failed
 * write to out stays visible as ferror(out). */
FILE *lab_text_esc_open(FILE *out);
/* Flushes and frees the stream (out stays open). Returns 0 or EOF when a write failed. */
int lab_text_esc_close(FILE *t);

#endif
