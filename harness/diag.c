/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void lab_diag_add(struct lab_diag *d, const char *fmt, ...)
{
	va_list ap;
	char *line = NULL;

	if (d->n >= LAB_DIAG_MAX) {
		d->dropped++;
		return;
	}
	va_start(ap, fmt);
	int len = vasprintf(&line, fmt, ap);
	va_end(ap);
	char **grown = len < 0 ? NULL : realloc(d->msg, (d->n + 1) * sizeof(*d->msg));
	if (!grown) {
		free(line);
		d->dropped++;
		return;
	}
	d->msg = grown;
	d->msg[d->n++] = line;
}

unsigned lab_diag_count(const struct lab_diag *d)
{
	return d->n + d->dropped;
}

void lab_diag_free(struct lab_diag *d)
{
	for (unsigned i = 0; i < d->n; i++)
		free(d->msg[i]);
	free(d->msg);
	d->msg = NULL;
	d->n = d->dropped = 0;
}
