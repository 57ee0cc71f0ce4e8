/* SPDX-License-Identifier: MIT */
/* unit_stream: a stdio stream whose every write fails with ENOSPC, as /dev/full's (which a
 * machine need not have: a container's /dev may lack it), for checks of write errors. */
#ifndef UNIT_STREAM_H
#define UNIT_STREAM_H

#include <errno.h>
#include <stdio.h>
#include <sys/types.h>

static inline ssize_t unit_full_write(void *cookie, const char *buf, size_t n)
{
	(void)cookie;
	(void)buf;
	(void)n;
	errno = ENOSPC;
	return -1;
}

/* a write-only stream that refuses every write with ENOSPC; NULL if fopencookie fails */
static inline FILE *unit_full_stream(void)
{
	return fopencookie(NULL, "w", (cookie_io_functions_t){ .write = unit_full_write });
}

#endif
