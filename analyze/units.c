/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/units.h"

const char *const lab_an_size_keys[] = {"size", "stream_size", "stride", "tile", NULL};
int lab_an_key_in(const char *const *keys, const char *key, size_t klen)
{
	for (size_t i = 0; keys[i]; i++)
		if (strlen(keys[i]) == klen && !strncmp(key, keys[i], klen))
			return 1;
	return 0;
}

const char *const lab_an_duration_keys[] = {"cost", "cs_ns", "delay", "think_ns", NULL};

int lab_an_duration_ok(const char *text)
{
	char *end;
	double v;

	if (!*text || !strchr("0123456789.", *text))
		return 0;
	v = strtod(text, &end);
	if (end == text || !isfinite(v) || v < 0 || strchr(text, 'x') || strchr(text, 'X'))
		return 0;
	if (!*end)
		return 1;
	for (const struct lab_unit_suffix *s = lab_duration_suffixes; s->name; s++)
		if (!strcmp(end, s->name))
			return 1;
	return 0;
}

int lab_an_size_ok(const char *text)
{
	double v = lab_an_size_bytes(text);

	return v >= 0 && v <= LAB_AN_SIZE_MAX && v == floor(v);
}

double lab_an_size_bytes(const char *text)
{
	char *end;
	double v;

	if (!text || !*text || *text == ' ' || *text == '+' || *text == '-')
		return NAN;
	v = strtod(text, &end);
	if (end == text || !isfinite(v) || strchr(text, 'x') || strchr(text, 'X'))
		return NAN; /* no hex forms: the configs do not have them */
	for (const struct lab_unit_suffix *s = lab_size_suffixes; s->name; s++)
		if (!strcmp(end, s->name))
			return v * s->mult;
	return NAN;
}
