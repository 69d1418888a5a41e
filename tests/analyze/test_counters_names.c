/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The counters view reads columns by name (analyze/ never includes the harness): every ctr_
 * name its sources spell must be a column the harness writes, or the view would silently find
 * nothing (a typo in an AMD or Intel event name shows on no machine here).
 */
#include <ctype.h>

#include "analyze/csv.h"
#include "harness/counters.h"
#include "tests/testlib.h"

static int cn_known(const char *name)
{
	if (!strcmp(name, "ctr_mux_ratio"))
		return 1;
	for (unsigned e = 0; e < lab_ctr_nevents(); e++)
		if (!strcmp(lab_ctr_event_column(e), name))
			return 1;
	return 0;
}

static size_t cn_check_file(const char *rel)
{
	char path[1024], *s = NULL, name[128];
	size_t len, n = 0;
	struct lab_err e = {0};

	snprintf(path, sizeof(path), "%s/%s", testlib_srcdir(), rel);
	if (lab_an_file_read(path, &s, &len, &e)) {
		fprintf(stderr, "%s\n", e.msg);
		testlib_fail();
		return 0;
	}
	for (const char *p = s; (p = strstr(p, "\"ctr_"));) {
		size_t k = 0;

		for (p++; (isalnum((unsigned char)*p) || *p == '_') && k + 1 < sizeof(name); p++)
			name[k++] = *p;
		name[k] = 0;
		if (*p != '"' || k == 4)
			continue; /* a prefix, not a whole name */
		n++;
		if (!cn_known(name))
			fprintf(stderr, "%s: \"%s\" is no harness column\n", rel, name),
			    testlib_fail();
	}
	free(s);
	return n;
}

LAB_TEST(view_columns_are_harness_columns)
{
	size_t n = cn_check_file("analyze/views/counters_calc.c");

	n += cn_check_file("analyze/views/counters.c");
	CHECK(n >= 30); /* the scan found the names */
}
