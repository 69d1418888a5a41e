/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers of the end-to-end analyzer tests: run the lab binary in the case's tmpdir. */
#ifndef LAB_TESTS_ANALYZE_CLITEST_H
#define LAB_TESTS_ANALYZE_CLITEST_H

#include <stddef.h>
#include <stdio.h>

#include "analyze/jsonr.h"

/* Runs `lab ARGS` in the case's tmpdir with stdout and stderr captured into *out and *err
 * (malloc'd); env is prepended to the command (e.g. "PATH=/nonexistent"). Returns the exit
 * code, or -1 when the command did not exit normally. */
int clitest_run(const char *env, const char *args, char **out, char **err);

/* Copies the fixture directory tests/fixtures/NAME into the case's tmpdir. */
void clitest_copy(const char *name);

/* True when REL exists below the case's tmpdir. */
int clitest_exists(const char *rel);
/* The bytes of REL below the case's tmpdir, NUL-terminated (free it); NULL when unreadable. */
char *clitest_read(const char *rel);

/* Rewrites REL below the case's tmpdir line by line: edit writes what each line becomes (the
 * line without its newline) to out. 0, or -1 when REL could not be read or written. */
int clitest_rewrite(const char *rel, void (*edit)(FILE *out, const char *line, void *ctx),
                    void *ctx);

/* How many files of DIR (below the case's tmpdir) have a name that contains each of the
 * NULL-terminated parts, in order ("series", "-contend-", "-speedup-", ".gp"): the plots of a
 * figure whatever its index. */
size_t clitest_count(const char *dir, ...) __attribute__((sentinel));

/* Item i of the array j.key, or NULL. */
const struct lab_an_json *clitest_at(const struct lab_an_json *j, const char *key, size_t i);

/* In a view's object of analysis.json (sections of tables, analyze/render/json.c): the first row
 * of table `table`, in a section whose params contain cond (NULL: any), whose text column key
 * reads val (key NULL: the first row); NULL when none. */
const struct lab_an_json *clitest_row(const struct lab_an_json *v, const char *cond,
                                      const char *table, const char *key, const char *val);

#endif
