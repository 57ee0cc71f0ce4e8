/* SPDX-License-Identifier: MIT */
/* hosts: fio's hosts file for --client=FILE: one HOST[,PORT] a line (addr.h's forms),
 * '#' starts a comment, blank lines and spaces around an entry are ignored. */
#ifndef IOPS_REMOTE_HOSTS_H
#define IOPS_REMOTE_HOSTS_H

#include <stddef.h>

#include "core/err.h"
#include "remote/addr.h"

#define HOSTS_MAX	1024	/* servers of one client run */

/* Appends the entries of text (len bytes) to list (*nr of cap). Returns the number added,
 * or -EINVAL with err set ("FILE line N: ..."), -E2BIG past cap; list may be half filled. */
int hosts_parse(const char *text, size_t len, const char *name, struct addr *list, unsigned *nr,
		unsigned cap, struct iops_err *err);

#endif
