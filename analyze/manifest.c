/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/manifest.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze/csv.h"
#include "analyze/fleet_view.h"
#include "analyze/plots.h"
#include "analyze/wfile.h"
#include "harness/record_schema.h"

/* The views' names (views.def): the first part of their CSV and plot file names. */
static const char *const an_views[] = {
#define LAB_AN_VIEW(name) #name,
#include "analyze/views/views.def"
#undef LAB_AN_VIEW
};

/* The files the analyzer writes under a fixed name in DIR. */
static const char *const an_fixed[] = {LAB_FILE_SUMMARY, LAB_FILE_ANALYSIS, LAB_FILE_REPORT,
                                       LAB_AN_FLEET_ANALYSIS};

/* Files of a results or fleet directory that no record may name (inputs, and the record). */
static const char *const an_never[] = {LAB_FILE_RUN,    LAB_FILE_SAMPLES, LAB_FILE_THREADS,
                                       LAB_FILE_CONFIG, LAB_FLEET_FILE,   LAB_AN_MANIFEST};

#define AN_NELEM(a)     (sizeof(a) / sizeof((a)[0]))
#define AN_NAME_MAX     512
#define AN_MANIFEST_TOP "# lab analyze: the files of the last analysis of this directory\n"

/* Adds s (owned) with its stamp. */
static int an_add(struct lab_an_manifest *m, char *s, unsigned long long size,
                  unsigned long long mtime_ns)
{
	if (!s || lab_an_grow(&m->e, &m->cap, m->n + 1, sizeof(*m->e))) {
		free(s);
		return -LAB_ENOMEM;
	}
	m->e[m->n++] = (struct lab_an_manifest_entry){s, size, mtime_ns};
	return 0;
}

int lab_an_manifest_add(struct lab_an_manifest *m, const char *sub, const char *name)
{
	return an_add(m, sub ? lab_an_asprintf("%s/%s", sub, name) : lab_an_strdup(name), 0, 0);
}

void lab_an_manifest_drop(struct lab_an_manifest *m, const char *sub, const char *name)
{
	size_t sl = sub ? strlen(sub) : 0;

	for (size_t i = m->n; i-- > 0;) {
		const char *s = m->e[i].name;

		if (sub && (strncmp(s, sub, sl) || s[sl] != '/'))
			continue;
		if (strcmp(s + (sub ? sl + 1 : 0), name))
			continue;
		free(m->e[i].name);
		memmove(&m->e[i], &m->e[i + 1], (m->n - i - 1) * sizeof(*m->e));
		m->n--;
		return;
	}
}

void lab_an_manifest_free(struct lab_an_manifest *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->e[i].name);
	free(m->e);
	memset(m, 0, sizeof(*m));
}

/* 1 when the n bytes of s are all [A-Za-z0-9._-] (a slug, lab_an_plot_slug). */
static int an_slug_chars(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '.' || c == '_' || c == '-'))
			return 0;
	}
	return 1;
}

/* A view's CSV file (analyze/render/csv.c): VIEW.csv or VIEW_KEY.csv. */
static int an_csv_ok(const char *name)
{
	size_t len = strlen(name);

	if (len < 5 || strcmp(name + len - 4, ".csv") || !an_slug_chars(name, len - 4) ||
	    memchr(name, '.', len - 4))
		return 0;
	for (size_t i = 0; i < AN_NELEM(an_views); i++) {
		size_t vl = strlen(an_views[i]);

		if (vl > len - 4 || strncmp(name, an_views[i], vl))
			continue;
		if (vl == len - 4 || (name[vl] == '_' && vl + 1 < len - 4))
			return 1;
	}
	return 0;
}

/* A plot file: VIEW (or fleet-), two or more digits, '-', the rest of a slug, an extension of
 * a plot (analyze/render/gnuplot.c, analyze/fleet_plot.c). */
static int an_plot_ok(const char *name)
{
	static const char *const ext[] = {".gp", ".dat", ".svg", ".png"};
	size_t len = strlen(name), el = 0;

	for (size_t i = 0; i < AN_NELEM(ext) && !el; i++)
		if (len > strlen(ext[i]) && !strcmp(name + len - strlen(ext[i]), ext[i]))
			el = strlen(ext[i]);
	if (!el || !an_slug_chars(name, len))
		return 0;
	for (size_t i = 0; i <= AN_NELEM(an_views); i++) {
		const char *v = i < AN_NELEM(an_views) ? an_views[i] : LAB_AN_FLEET_PLOT_PREFIX;
		size_t vl = strlen(v), d = 0;

		if (strncmp(name, v, vl))
			continue;
		while (name[vl + d] >= '0' && name[vl + d] <= '9')
			d++;
		if (d >= 2 && name[vl + d] == '-' && vl + d + 1 < len - el)
			return 1;
	}
	return 0;
}

int lab_an_manifest_name_ok(const char *name)
{
	const char *slash = strchr(name, '/'), *p = name + strlen(LAB_DIR_PLOTS) + 1;

	if (!*name || *name == '.' || strlen(name) > AN_NAME_MAX || strstr(name, ".."))
		return 0;
	for (size_t i = 0; i < AN_NELEM(an_never); i++)
		if (!strcmp(name, an_never[i]))
			return 0;
	if (slash)
		return slash == name + strlen(LAB_DIR_PLOTS) &&
		       !strncmp(name, LAB_DIR_PLOTS, strlen(LAB_DIR_PLOTS)) && !strchr(p, '/') &&
		       (!strcmp(p, LAB_AN_GNUPLOT_LOG) || !strcmp(p, LAB_AN_GNUPLOT_BATCH) ||
		        an_plot_ok(p));
	for (size_t i = 0; i < AN_NELEM(an_fixed); i++)
		if (!strcmp(name, an_fixed[i]))
			return 1;
	return an_csv_ok(name);
}

/* Reads up to len bytes of fd into buf (the file may shrink). Returns the count or -1. */
static ssize_t an_read_all(int fd, char *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t r = read(fd, buf + got, len - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* The stamp after a line's name: "\tSIZE\tMTIME_NS", digits only; 0 when not that. */
static int an_stamp(char *tab, unsigned long long *size, unsigned long long *mtime_ns)
{
	char *a = tab + 1, *b = strchr(a, '\t'), *end;

	*tab = '\0';
	*size = *mtime_ns = 0;
	if (!b || !*a || strspn(a, "0123456789") != (size_t)(b - a) || !b[1] ||
	    strspn(b + 1, "0123456789") != strlen(b + 1))
		return 0;
	errno = 0;
	*size = strtoull(a, &end, 10);
	*mtime_ns = strtoull(b + 1, &end, 10);
	if (errno)
		*size = *mtime_ns = 0;
	return errno == 0;
}

/* Adds every line of buf that names a file the analyzer writes; counts the others. */
static int an_parse(char *buf, struct lab_an_manifest *m, size_t *skipped)
{
	for (char *line = buf, *end; *line; line = end) {
		unsigned long long size = 0, mtime_ns = 0;
		char *tab;

		end = strchr(line, '\n');
		end = end ? (*end = '\0', end + 1) : line + strlen(line);
		if (!*line || *line == '#')
			continue;
		if ((tab = strchr(line, '\t')))
			an_stamp(tab, &size, &mtime_ns);
		if (!lab_an_manifest_name_ok(line))
			++*skipped;
		else if (an_add(m, lab_an_strdup(line), size, mtime_ns))
			return -LAB_ENOMEM;
	}
	return 0;
}

/* Reads the open record fd of path into m; a record that cannot be used is a warning. */
static int an_read_fd(int fd, const char *path, struct lab_an_manifest *m,
                      struct lab_an_warnings *warn, struct lab_err *err)
{
	struct stat st;
	const char *why = NULL;
	char *buf = NULL;
	ssize_t len = 0;
	size_t skipped = 0;
	int rc = 0;

	if (fstat(fd, &st) != 0)
		why = strerror(errno);
	else if ((size_t)st.st_size > LAB_AN_MANIFEST_MAX)
		why = "larger than 4 MiB";
	else if (!(buf = malloc((size_t)st.st_size + 1)))
		why = "out of memory";
	else if ((len = an_read_all(fd, buf, (size_t)st.st_size)) < 0)
		why = strerror(errno);
	else if (memchr(buf, '\0', (size_t)len))
		why = "a NUL byte";
	if (why) {
		lab_an_warn(warn,
		            "%s: not read (%s): files of the earlier analysis that this one does "
		            "not write again stay in the directory",
		            path, why);
		goto out;
	}
	buf[len] = '\0';
	if ((rc = an_parse(buf, m, &skipped)))
		lab_err_set(err, LAB_ENOMEM, "out of memory");
	else if (skipped)
		lab_an_warn(warn, "%s: %zu names ignored (not files the analyzer writes)", path,
		            skipped);
out:
	free(buf);
	return rc;
}

int lab_an_manifest_read(const char *dir, struct lab_an_manifest *m, struct lab_an_warnings *warn,
                         struct lab_err *err)
{
	char *path = lab_an_asprintf("%s/%s", dir, LAB_AN_MANIFEST);
	struct stat st;
	int fd, rc = 0;

	memset(m, 0, sizeof(*m));
	if (!path)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	if (lstat(path, &st) != 0 && errno == ENOENT)
		goto out; /* no earlier analysis, or one from before the record */
	if ((fd = lab_an_input_open(path, LAB_AN_IN_NOFOLLOW, err)) < 0) {
		rc = fd;
		goto out;
	}
	rc = an_read_fd(fd, path, m, warn, err);
	close(fd);
out:
	if (rc)
		lab_an_manifest_free(m);
	free(path);
	return rc;
}

static int an_cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A file's modification time in ns. */
static unsigned long long an_mtime_ns(const struct stat *st)
{
	return (unsigned long long)st->st_mtim.tv_sec * 1000000000ull +
	       (unsigned long long)st->st_mtim.tv_nsec;
}

/* The handle name (relative to DIR) is below: pfd for plots/NAME (*name moved past plots/). */
static int an_dirfd(int dfd, int pfd, const char **name)
{
	size_t pl = strlen(LAB_DIR_PLOTS);

	if (!strncmp(*name, LAB_DIR_PLOTS, pl) && (*name)[pl] == '/') {
		*name += pl + 1;
		return pfd;
	}
	return dfd;
}

/* Removes entry i of old when it is a regular file of the size and mtime recorded: unlinkat
 * removes the name alone, never what a link points to. Returns 1 when such a file stays (its
 * directory could not be opened, or unlinkat failed: a read-only plots/). */
static int an_remove(int dfd, int pfd, const struct lab_an_manifest *old, size_t i)
{
	const struct lab_an_manifest_entry *e = &old->e[i];
	const char *name = e->name;
	int fd = an_dirfd(dfd, pfd, &name);
	struct stat st;

	if (fd < 0) /* a plots/ that is there but could not be opened keeps what it holds */
		return fd == pfd && fstatat(dfd, LAB_DIR_PLOTS, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		       S_ISDIR(st.st_mode);
	if ((e->size | e->mtime_ns) && fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISREG(st.st_mode) && (unsigned long long)st.st_size == e->size &&
	    an_mtime_ns(&st) == e->mtime_ns)
		return unlinkat(fd, name, 0) != 0 && errno != ENOENT;
	return 0;
}

/* Removes the names of old that cur lacks (O(n log n) however long the old record is); kept[]
 * (room for old->n) gets the indexes of those that stay, *nkept how many. */
static int an_prune(const char *dir, const struct lab_an_manifest *old,
                    const struct lab_an_manifest *cur, size_t *kept, size_t *nkept)
{
	char **sorted = malloc((cur->n + 1) * sizeof(*sorted));
	int dfd = -1, pfd = -1;

	*nkept = 0;
	if (!sorted)
		return -LAB_ENOMEM;
	for (size_t i = 0; i < cur->n; i++)
		sorted[i] = cur->e[i].name;
	qsort(sorted, cur->n, sizeof(*sorted), an_cmp_name);
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0)
		pfd = openat(dfd, LAB_DIR_PLOTS, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	for (size_t i = 0; dfd >= 0 && i < old->n; i++)
		if (lab_an_manifest_name_ok(old->e[i].name) &&
		    !bsearch(&old->e[i].name, sorted, cur->n, sizeof(*sorted), an_cmp_name) &&
		    an_remove(dfd, pfd, old, i))
			kept[(*nkept)++] = i;
	if (pfd >= 0)
		close(pfd);
	if (dfd >= 0)
		close(dfd);
	free(sorted);
	return 0;
}

/* One line of the record: name and, when it is a regular file now, its size and mtime. */
static void an_put(FILE *f, const char *dir, const char *name)
{
	char path[4200];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
		fprintf(f, "%s\t%llu\t%llu\n", name, (unsigned long long)st.st_size,
		        an_mtime_ns(&st));
	else
		fprintf(f, "%s\n", name);
}

int lab_an_manifest_finish(const char *dir, const struct lab_an_manifest *old,
                           const struct lab_an_manifest *cur, struct lab_an_warnings *warn,
                           struct lab_err *err)
{
	char *path = lab_an_asprintf("%s/%s", dir, LAB_AN_MANIFEST);
	size_t *kept = malloc((old->n + 1) * sizeof(*kept)), nkept = 0;
	struct lab_an_wfile w;
	int rc;

	if (!path || !kept || an_prune(dir, old, cur, kept, &nkept)) {
		free(path);
		free(kept);
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	}
	if (nkept) /* "no file of an earlier analysis is kept" was said of a read-only plots/ */
		lab_an_warn(warn,
		            "%zu file%s of an earlier analysis could not be removed (%s%s): %s "
		            "beside this analysis's, and may not match the data now",
		            nkept, nkept == 1 ? "" : "s",
		            nkept == 1 ? "" : "the first: ", old->e[kept[0]].name,
		            nkept == 1 ? "it stays" : "they stay");
	if (!lab_an_wfile_open(&w, path, err)) {
		free(path);
		free(kept);
		return -LAB_EIO;
	}
	fputs(AN_MANIFEST_TOP, w.f);
	for (size_t i = 0; i < cur->n; i++)
		an_put(w.f, dir, cur->e[i].name);
	/* what could not be removed stays recorded: the next analysis removes it, or says so
	 * again (dropped from the record, it stayed for good without a word) */
	for (size_t i = 0; i < nkept; i++)
		an_put(w.f, dir, old->e[kept[i]].name);
	rc = lab_an_wfile_close(&w, 1, err);
	free(path);
	free(kept);
	return rc ? rc : nkept ? 1 : 0;
}

void lab_an_manifest_unrecorded(struct lab_an_warnings *warn, const struct lab_err *late, size_t n)
{
	lab_an_warn(warn,
	            "%s: the %zu file%s this analysis wrote %s not recorded, so a later analysis "
	            "will not remove %s",
	            late->msg, n, n == 1 ? "" : "s", n == 1 ? "is" : "are", n == 1 ? "it" : "them");
}

int lab_an_manifest_earlier(const char *dir)
{
	static const char *const f[] = {LAB_AN_MANIFEST, LAB_FILE_SUMMARY, LAB_FILE_ANALYSIS,
	                                LAB_FILE_REPORT};
	char path[4200];
	struct stat st;

	/* a link or special file in an output's place is no analysis's output (one refused as
	 * report.html was called "from an earlier analysis" in a directory never analyzed) */
	for (size_t i = 0; i < AN_NELEM(f); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, f[i]);
		if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
			return 1;
	}
	return 0;
}
