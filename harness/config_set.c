/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The command line's --set SEC.KEY=VAL overrides, kept beside the config files' sections. */
#include "harness/config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* A copy of s[0..n) without leading and trailing blanks. */
static char *cfg_strndup_trim(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return strndup(s, n);
}

void lab_cfg_add_set(struct lab_cfg *cfg, const char *arg, struct lab_diag *d)
{
	const char *eq = strchr(arg, '='), *dot = NULL;

	/* Section names may hold dots, keys never do: the key starts after the last dot. A lesson's
	 * name may hold dots too: after "lessons." the rest is its name. */
	for (const char *c = arg; eq && c < eq; c++)
		if (*c == '.')
			dot = c;
	if (eq && !strncmp(arg, "lessons.", 8) && arg + 8 < eq)
		dot = arg + 7;
	if (!dot || !eq || dot == arg || eq == dot + 1) {
		lab_diag_add(d,
		             "--set %s: expected SECTION.KEY=VALUE (e.g. --set padded.stride=64, "
		             "or global.reps=3 for every experiment)",
		             arg);
		return;
	}
	/* as on a line of a file: the parsers would take them for blanks ("1\v" reads as 1, and
	 * "a\n.reps=3" set a's reps) */
	static const char *const oddname[] = {"vertical tab (\\x0b)", "form feed (\\x0c)",
	                                      "carriage return (\\r)", "line feed (\\n)"};
	const char *odd = strpbrk(arg, "\v\f\r\n");
	if (odd) {
		lab_diag_add(d, "--set %s: %s in the argument (allowed blanks: spaces and tabs)",
		             arg, oddname[strchr("\v\f\r\n", *odd) - "\v\f\r\n"]);
		return;
	}
	/* what a value of a file may hold (a 70 000-byte claim ran, and its run.json was refused
	 * by lab analyze); the key alone is echoed */
	if (strlen(eq + 1) >= LAB_CFG_VALUE_MAX) {
		lab_diag_add(
		    d,
		    "--set %.*s: value too long (%zu characters; allowed at most %d, as on a "
		    "line of a config file)",
		    (int)(eq - arg < 200 ? eq - arg : 200), arg, strlen(eq + 1),
		    LAB_CFG_VALUE_MAX - 1);
		return;
	}
	struct lab_cfg_kv *kv = realloc(cfg->set, (cfg->nset + 1) * sizeof(*cfg->set));
	char **secs = kv ? realloc(cfg->set_section, (cfg->nset + 1) * sizeof(char *)) : NULL;
	if (kv)
		cfg->set = kv;
	if (!secs) {
		lab_diag_add(d, "--set %s: out of memory", arg);
		return;
	}
	cfg->set_section = secs;
	/* "--set 'fs.stride = 64'" means what the same line means in a file. */
	secs[cfg->nset] = cfg_strndup_trim(arg, (size_t)(dot - arg));
	kv[cfg->nset] =
	    (struct lab_cfg_kv){.key = cfg_strndup_trim(dot + 1, (size_t)(eq - dot - 1)),
	                        .value = cfg_strndup_trim(eq + 1, strlen(eq + 1)),
	                        .file = "--set",
	                        .line = 0};
	if (!secs[cfg->nset] || !kv[cfg->nset].key || !kv[cfg->nset].value) {
		free(secs[cfg->nset]);
		free(kv[cfg->nset].key);
		free(kv[cfg->nset].value);
		lab_diag_add(d, "--set %s: out of memory", arg);
		return;
	}
	cfg->nset++;
}
