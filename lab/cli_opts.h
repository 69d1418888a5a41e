/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * One table of options per subcommand (as fio keeps one table for its options): the same rows
 * drive the parsing of the command line and the option list of `lab CMD --help`, so the two
 * cannot disagree. Adding an option is one row and one field.
 */
#ifndef LAB_LAB_CLI_OPTS_H
#define LAB_LAB_CLI_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum lab_opt_kind {
	LAB_OPT_FLAG,  /* sets a bool */
	LAB_OPT_VALUE, /* stores a const char *; given twice is an error */
	LAB_OPT_LIST,  /* appends to a const char *[LAB_OPTS_LIST_MAX] with an unsigned count */
};

#define LAB_OPTS_LIST_MAX 64

struct lab_opt {
	const char *name;  /* "--output"; NULL ends a table */
	const char *alias; /* "-o", or NULL */
	enum lab_opt_kind kind;
	const char *arg;  /* the value's name in --help ("DIR"); NULL for a flag */
	size_t at;        /* offsetof the field in the command's argument struct */
	size_t count_at;  /* LAB_OPT_LIST: offsetof its unsigned count */
	const char *help; /* '\n' starts another line of help */
};

/* A subcommand's command line: its options and its positional arguments. */
struct lab_cmd_opts {
	const char *name;           /* "run" */
	const char *synopsis;       /* printed after "usage: lab NAME " */
	const char *about;          /* paragraph(s) before the options, ending in '\n' */
	const char *after;          /* text after the options, or NULL */
	const struct lab_opt *opts; /* ends with a row whose name is NULL */
	size_t pos_at, npos_at;     /* positional args: const char *[pos_max] and unsigned count */
	unsigned pos_max;           /* 0: none allowed */
	const char *pos_what;       /* "config files", for the message when there are too many */
};

#define LAB_OPTS_END                                                                               \
	{                                                                                          \
		NULL, NULL, LAB_OPT_FLAG, NULL, 0, 0, NULL                                         \
	}

/* What lab_opts_parse returns after printing --help on stdout (not an exit code). */
#define LAB_OPTS_HELP (-1)

/*
 * Parses argv[1..argc) into args (zeroed first) by c's table: "--opt VAL", "--opt=VAL", an
 * alias "-o VAL", flags, "-h"/"--help". A LAB_OPT_VALUE option given twice is bad usage (the
 * command cannot tell which one was meant); a flag may repeat. A value named like a number in its
 * row's arg is checked here with lab_opts_number, so the command's own conversion sees only plain
 * decimal text: FRACTION is a decimal in [0, 1) or a percentage below 100% (lab_opts_fraction
 * converts it). Returns 0; LAB_OPTS_HELP after printing the help;
 * or 2 (bad usage) after printing one line on stderr.
 */
int lab_opts_parse(const struct lab_cmd_opts *c, int argc, char **argv, void *args,
                   size_t args_size);

/* Prints the usage line, the about text, every option with its help, and the after text. */
void lab_opts_usage(const struct lab_cmd_opts *c, FILE *f);

/*
 * Writes s to f with what lab_esc_classify (lab/text_esc.h) does not pass escaped: control bytes
 * (\n, \r, \t, \e, \xHH), bytes of no valid UTF-8 sequence (a lone 0x9b as \x9b), the C1
 * controls as \u0080..\u009f and the bidi controls as \u202a..\u202e, \u2066..\u2069, so text
 * from the user or from a file can neither break a line, move the terminal's cursor nor reorder
 * the line. Other text, valid printable UTF-8 included, passes unchanged.
 */
void lab_opts_puts_escaped(FILE *f, const char *s);

/*
 * Prints one line on stderr: the printf-style message with lab_opts_puts_escaped, then '\n'.
 * Every error that echoes user text goes through here, so it stays one line, and at most about
 * LAB_OPTS_ERROR_MAX bytes before escaping: a longer message keeps its first half and last
 * quarter of that, and says how many bytes of its middle were left out.
 */
#define LAB_OPTS_ERROR_MAX 1024
void lab_opts_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * A checked number: the whole of s is a plain decimal ("12", "-3", "0.01", "2.5e-3": no blanks,
 * no hex, no inf or nan), finite, within [lo, hi], and whole when whole is set. Returns 0 with
 * *v set, or -1 (*v untouched).
 */
int lab_opts_number(const char *s, bool whole, double lo, double hi, double *v);

/* A FRACTION option's value: "0.01" or "1%" give 0.01. Returns 0 with *v set, or -1. */
int lab_opts_fraction(const char *s, double *v);

#endif
