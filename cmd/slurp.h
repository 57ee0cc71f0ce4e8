/* SPDX-License-Identifier: MIT */
/* slurp: a whole input into memory, for the modes that read results back (merge, plot). */
#ifndef IOPS_SLURP_H
#define IOPS_SLURP_H

#include <stddef.h>

/* All of fd into *buf (malloc()ed, NUL added; the caller frees it, also on error). 0, or
 * -errno: -EFBIG past max bytes, -ENOMEM. */
int slurp_fd(int fd, size_t max, char **buf, size_t *len);

/* The same for the file at path ("-": standard input). */
int slurp_path(const char *path, size_t max, char **buf, size_t *len);

#endif
