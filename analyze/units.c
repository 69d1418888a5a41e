/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double lab_an_size_bytes(const char *text)
{
	static const struct {
		const char *name;
		double scale;
	} suffix[] = {{"", 1},
	              {"B", 1},
	              {"K", 1024.0},
	              {"k", 1024.0},
	              {"KiB", 1024.0},
	              {"M", 1048576.0},
	              {"MiB", 1048576.0},
	              {"G", 1073741824.0},
	              {"GiB", 1073741824.0}};
	char *end;
	double v;

	if (!text || !*text || *text == ' ' || *text == '+' || *text == '-')
		return NAN;
	v = strtod(text, &end);
	if (end == text || !isfinite(v) || strchr(text, 'x') || strchr(text, 'X'))
		return NAN; /* no hex forms: the configs do not have them */
	for (size_t i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++)
		if (!strcmp(end, suffix[i].name))
			return v * suffix[i].scale;
	return NAN;
}
