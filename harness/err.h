/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Error values of the lab's library code. Functions return 0 on success, LAB_SKIP where it is
 * documented, and a negative -LAB_E* code on failure with a message in a struct lab_err. Library
 * code never prints and never exits: the CLI prints the finished message once. This is a base
 * header: the analyzer uses it too (with json.h and fileio.h), so it names nothing of the runtime.
 */
#ifndef LAB_HARNESS_ERR_H
#define LAB_HARNESS_ERR_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* X-macro list: code and what it means. */
#define LAB_ERRNO_MAP(X)                                                                           \
	X(EINVAL, "invalid argument")                                                              \
	X(ECONFIG, "bad configuration")                                                            \
	X(ENOMEM, "out of memory")                                                                 \
	X(EIO, "input/output error")                                                               \
	X(ESYS, "system call failed")                                                              \
	X(EVERIFY, "verification failed")                                                          \
	X(ETOPO, "topology error")                                                                 \
	X(EINTR, "interrupted")                                                                    \
	X(EUNSUP, "not supported")                                                                 \
	X(EDATA, "malformed input")                                                                \
	X(EMATH, "numerical routine failed")

enum lab_errno {
	LAB_OK = 0,
#define LAB__ERR_ENUM(code, desc) LAB_##code,
	LAB_ERRNO_MAP(LAB__ERR_ENUM)
#undef LAB__ERR_ENUM
};

/* A positive return: the operation cannot run here, for the reason in the error message. */
#define LAB_SKIP 1

#define LAB_ERR_MSG_MAX 512

struct lab_err {
	int code;                  /* one of enum lab_errno (positive), or 0 */
	char msg[LAB_ERR_MSG_MAX]; /* one line, no trailing newline */
};

/* Fills err (when non-NULL: a NULL err discards the message) with code and a printf-style
 * message; returns -code so callers can `return`. */
int lab_err_set(struct lab_err *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Prepends context ("bind thread 3: ") to the message already in err; returns -err->code
 * (-LAB_EINVAL when err is NULL). */
int lab_err_prefix(struct lab_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Impossible states: print file:line and abort, in every build type. */
#define LAB_BUG_ON(cond)                                                                           \
	do {                                                                                       \
		if (cond) {                                                                        \
			fprintf(stderr, "lab: bug at %s:%d: %s\n", __FILE__, __LINE__, #cond);     \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

#endif
