/* SPDX-License-Identifier: MIT */
/* err: one user-facing error line, filled by lib/, printed only by cmd/. */
#ifndef IOPS_ERR_H
#define IOPS_ERR_H

#include <stdbool.h>

struct iops_err {
	int code;		/* errno-style cause (0 if none), or a mode-specific exit status hint */
	char msg[512];		/* one line, no trailing newline, lowercase, quotes the culprit */
};

/* Set the message (printf-style) and code; later calls overwrite. Truncates safely. */
void iops_err_set(struct iops_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* True when a message has been set. */
bool iops_err_isset(const struct iops_err *err);

/* Reset to the empty state. */
void iops_err_clear(struct iops_err *err);

/* err_str(e) in glibc's words, which fio prints ("Input/output error"; musl says "I/O error").
 * Every message iops prints goes through it (lint: no err_str() elsewhere). */
const char *err_str(int e);

#endif
