/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The untyped config: sections of key = value text with the file and line of every key. Files
 * are tokenized by libinih (ini_parse_stream) fed by the lab's own line reader, which counts
 * lines (Debian's libinih passes none to the handler), joins indented continuation lines and
 * rejects lines longer than libinih's 200-byte buffer instead of letting it split them.
 * Typing, sweeps and validation happen in harness/plan.c.
 */
#ifndef LAB_HARNESS_CONFIG_H
#define LAB_HARNESS_CONFIG_H

#include <stdbool.h>

#include "harness/diag.h"
#include "harness/err.h"
#include "harness/strmap.h"

/* The longest line the lab accepts (libinih's buffer holds 199 bytes with the newline). */
#define LAB_CFG_LINE_MAX 198
/* A config file larger than this is refused before it is parsed (no config comes near it). */
#define LAB_CFG_FILE_MAX (64u << 20)
/* The longest value, continuation lines joined. */
#define LAB_CFG_VALUE_MAX 65536

/* A continuation line of a value: where its text starts in the joined value, and its line. */
struct lab_cfg_cont {
	unsigned at;
	int line;
};

struct lab_cfg_kv {
	char *key;
	char *value;
	const char *file; /* owned by the struct lab_cfg; "--set" for command-line values */
	int line;         /* 0 for --set */
	bool reported;    /* its value was refused as it was read (too long): not checked again */
	struct lab_cfg_cont *cont; /* its continuation lines in order (value joins them with a
	                              space); NULL for a value of one line */
	unsigned ncont;
};

struct lab_cfg_section {
	char *name;
	const char *file;
	int line; /* line of the [name] header */
	struct lab_cfg_kv *kv;
	unsigned nkv;
	bool refused; /* a line of it was refused (too long, a CR or NUL in it): nothing it lacks is
	                 reported again */
};

struct lab_cfg {
	struct lab_cfg_section *sec; /* in file order; [global] sections included */
	unsigned nsec;
	char **files; /* the names given to lab_cfg_load_* */
	unsigned nfiles;
	char *text;             /* every file's text, concatenated with a "; file: NAME" line */
	struct lab_cfg_kv *set; /* --set SEC.KEY=VAL, key holds "SEC.KEY" split below */
	char **set_section;
	unsigned nset;
	struct lab_strmap sec_index; /* section name -> first index; [global]: owner = file + 1 */
	struct lab_strmap key_index; /* (section index, key) -> index in that section's kv */
};

/*
 * Reads a config file. Syntax errors (line too long, missing '=', a ':' for '=', key outside a
 * section, duplicate key, duplicate section, text after a [header], a bare CR) go to d as
 * "FILE:LINE: ..." lines and loading goes on. A line whose first non-blank character is '[' is a
 * section header, indented or not (never a continuation of the value above).
 * Returns 0, or -LAB_EIO when the file cannot be read (message in err).
 */
int lab_cfg_load_file(struct lab_cfg *cfg, const char *path, struct lab_diag *d,
                      struct lab_err *err);

/* The same for text held in memory (the built-in quick config, fuzzing); name labels errors. */
int lab_cfg_load_text(struct lab_cfg *cfg, const char *name, const char *text, size_t len,
                      struct lab_diag *d, struct lab_err *err);

/* Adds a --set argument "SECTION.KEY=VALUE". A malformed one goes to d. */
void lab_cfg_add_set(struct lab_cfg *cfg, const char *arg, struct lab_diag *d);

/* True when name is a valid section (or lesson) name: letters, digits, '_', '.', '-'; not empty. */
bool lab_cfg_name_ok(const char *name);

/* How far the len bytes of key are from 'kernel' once its ASCII letters are lower case and its
 * other bytes gone: "KERNEL", a BOM or a zero-width space before it (as `cat a.ini b.ini`
 * leaves) read 0. */
unsigned lab_cfg_kernel_distance(const char *key, size_t len);

/* The [global] section of file, or NULL. */
const struct lab_cfg_section *lab_cfg_global(const struct lab_cfg *cfg, const char *file);

/* Frees everything; the struct can be reused after. */
void lab_cfg_free(struct lab_cfg *cfg);

/* The line of kv's file that holds column *col (1-based) of its value, continuation lines
 * counted; *col becomes the column in that line's text. kv->line for a value of one line. */
int lab_cfg_kv_line(const struct lab_cfg_kv *kv, unsigned *col);

#endif
