/* SPDX-License-Identifier: MIT */
/* slurp: read a whole input; see slurp.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "slurp.h"

int slurp_fd(int fd, size_t max, char **buf, size_t *len)
{
	size_t cap = 65536;
	ssize_t n;

	*len = 0;
	if (!(*buf = malloc(cap)))
		return -ENOMEM;
	while ((n = read(fd, *buf + *len, cap - 1 - *len)) > 0 || (n < 0 && errno == EINTR)) {
		char *p;

		if (n < 0 || (*len += (size_t)n) + 1 < cap)
			continue;
		if (cap >= max)
			return -EFBIG;
		if (!(p = realloc(*buf, cap *= 2)))
			return -ENOMEM;
		*buf = p;
	}
	(*buf)[*len] = '\0';
	return n < 0 ? -errno : 0;
}

int slurp_path(const char *path, size_t max, char **buf, size_t *len)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0, rc;

	*buf = NULL;
	*len = 0;
	if (fd < 0)
		return -errno;
	rc = slurp_fd(fd, max, buf, len);
	if (fd > 0)
		close(fd);
	return rc;
}
