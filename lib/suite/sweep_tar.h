/* SPDX-License-Identifier: MIT */
/* sweep_tar: a ustar archive (POSIX.1-1988 tar) of files held in memory, as `iops sweep
 * --results=DIR` keeps each step across servers (seed 004 lists one .tar per step): the
 * per-server json+ results and the merged All clients. Regular files only, mode 0644. */
#ifndef IOPS_SWEEP_TAR_H
#define IOPS_SWEEP_TAR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SWEEP_TAR_BLOCK		512
#define SWEEP_TAR_NAME_MAX	99	/* ustar's name field, no prefix used */

struct sweep_tar_file {
	const char *name;
	const char *data;
	size_t len;
};

/* One header block for a file (name, size, mtime in s since the epoch) into block. 0, or
 * -ENAMETOOLONG (empty, over SWEEP_TAR_NAME_MAX bytes), -EFBIG (over 8 GiB - 1: ustar's size). */
int sweep_tar_header(uint8_t block[SWEEP_TAR_BLOCK], const char *name, uint64_t size, uint64_t mtime);

/* The archive: each file's header and data (padded to the block), then two zero blocks.
 * 0, or -errno (the header's, or a write error). */
int sweep_tar_write(FILE *out, const struct sweep_tar_file *files, unsigned nr, uint64_t mtime);

#endif
