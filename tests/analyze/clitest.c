/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tests/analyze/clitest.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "analyze/csv.h"
#include "tests/testlib.h"

int clitest_run(const char *env, const char *args, char **out, char **err)
{
	char cmd[4096];
	size_t len;
	int st;

	snprintf(cmd, sizeof(cmd), "cd %s && %s %s/lab/lab %s >out.txt 2>err.txt", testlib_tmpdir(),
	         env ? env : "", testlib_bindir(), args);
	st = system(cmd);
	snprintf(cmd, sizeof(cmd), "%s/out.txt", testlib_tmpdir());
	lab_an_file_read(cmd, out, &len, NULL);
	snprintf(cmd, sizeof(cmd), "%s/err.txt", testlib_tmpdir());
	lab_an_file_read(cmd, err, &len, NULL);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

void clitest_copy(const char *name)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd), "cp -r %s/tests/fixtures/%s %s/", testlib_srcdir(), name,
	         testlib_tmpdir());
	if (system(cmd) != 0) {
		fprintf(stderr, "clitest: %s failed\n", cmd);
		testlib_fail();
	}
}

int clitest_exists(const char *rel)
{
	char path[2048];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", testlib_tmpdir(), rel);
	return stat(path, &st) == 0;
}

char *clitest_read(const char *rel)
{
	char path[2048], *buf = NULL;
	size_t len = 0;
	FILE *f, *m;
	int c;

	snprintf(path, sizeof(path), "%s/%s", testlib_tmpdir(), rel);
	if (!(f = fopen(path, "rb")) || !(m = open_memstream(&buf, &len))) {
		if (f)
			fclose(f);
		return NULL;
	}
	while ((c = getc(f)) != EOF)
		putc(c, m);
	fclose(f);
	fclose(m);
	return buf;
}

int clitest_rewrite(const char *rel, void (*edit)(FILE *out, const char *line, void *ctx),
                    void *ctx)
{
	char path[2048], *text = clitest_read(rel), *line, *save = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", testlib_tmpdir(), rel);
	if (!text || !(f = fopen(path, "w"))) {
		free(text);
		return -1;
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		edit(f, line, ctx);
	free(text);
	return fclose(f) ? -1 : 0;
}

size_t clitest_count(const char *dir, ...)
{
	char path[2048];
	struct dirent *e;
	size_t n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s", testlib_tmpdir(), dir);
	if (!(d = opendir(path)))
		return 0;
	while ((e = readdir(d))) {
		const char *at = e->d_name, *part;
		va_list ap;

		va_start(ap, dir);
		while (at && (part = va_arg(ap, const char *)))
			at = (at = strstr(at, part)) ? at + strlen(part) : NULL;
		va_end(ap);
		n += at != NULL;
	}
	closedir(d);
	return n;
}

const struct lab_an_json *clitest_at(const struct lab_an_json *j, const char *key, size_t i)
{
	const struct lab_an_json *a = lab_an_json_get(j, key);

	return a && a->type == LAB_AN_JSON_ARR && i < a->n ? &a->items[i] : NULL;
}

const struct lab_an_json *clitest_row(const struct lab_an_json *v, const char *cond,
                                      const char *table, const char *key, const char *val)
{
	const struct lab_an_json *s, *rows;

	for (size_t i = 0; (s = clitest_at(v, "sections", i)); i++) {
		if (cond && !strstr(lab_an_json_str(s, "params") ?: "", cond))
			continue;
		rows =
		    lab_an_json_get(lab_an_json_get(lab_an_json_get(s, "tables"), table), "rows");
		for (size_t r = 0; rows && r < rows->n; r++)
			if (!key || !strcmp(lab_an_json_str(&rows->items[r], key) ?: "", val))
				return &rows->items[r];
	}
	return NULL;
}
