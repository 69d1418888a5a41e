/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/err.h"

#include <string.h>

int lab_err_set(struct lab_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->code = code;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -code;
}

int lab_err_prefix(struct lab_err *err, const char *fmt, ...)
{
	char head[LAB_ERR_MSG_MAX];
	char tail[LAB_ERR_MSG_MAX];
	va_list ap;

	if (!err)
		return -LAB_EINVAL;
	va_start(ap, fmt);
	vsnprintf(head, sizeof(head), fmt, ap);
	va_end(ap);
	memcpy(tail, err->msg, sizeof(tail));
	size_t n = strlen(head);
	if (n >= sizeof(err->msg))
		n = sizeof(err->msg) - 1;
	memcpy(err->msg, head, n);
	size_t room = sizeof(err->msg) - n - 1, m = strnlen(tail, sizeof(tail));
	memcpy(err->msg + n, tail, m < room ? m : room);
	err->msg[n + (m < room ? m : room)] = '\0';
	return -err->code;
}
