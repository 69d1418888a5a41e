/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The text output of `lab analyze` and `lab compare` carries strings read from results files
 * (experiment names, params, work units, run.json's reasons and provenance): untrusted text that
 * must not drive the terminal. A text stream wraps the real one and escapes, in everything
 * written through it, every control byte but the newline (ESC as \x1b, CR as \x0d, DEL as
 * \x7f) and the UTF-8 form of the C1 controls (U+0080..U+009F, which terminals read as CSI and
 * the like) as \u0080..\u009f, as the HTML and gnuplot renderers neutralize the same text. Other
 * bytes, UTF-8 included, pass unchanged, so the tables' own text is not altered.
 */
#ifndef LAB_LAB_TEXT_ESC_H
#define LAB_LAB_TEXT_ESC_H

#include <stdio.h>

/* A write-only stream that escapes into out (not owned); NULL when memory runs out. A failed
 * write to out stays visible as ferror(out). */
FILE *lab_text_esc_open(FILE *out);
/* Flushes and frees the stream (out stays open). Returns 0 or EOF when a write failed. */
int lab_text_esc_close(FILE *t);

#endif
