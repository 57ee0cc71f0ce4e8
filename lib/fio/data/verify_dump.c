/* SPDX-License-Identifier: MIT */
#include "fio/data/verify_dump.h"
#include "core/err.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

bool verify_dump_name(char *out, size_t size, const char *path, uint64_t offset, const char *type)
{
	const char *base = strrchr(path, '/');
	int n;

	base = base ? base + 1 : path;
	if (!*base)
		return false;
	n = snprintf(out, size, "%s.%llu.%s", base, (unsigned long long)offset, type);
	return n > 0 && (size_t)n < size;
}

int verify_dump_write(FILE *diag, const char *path, uint64_t offset, const char *type, const void *buf,
		      uint64_t len)
{
	char name[PATH_MAX];
	const char *p = buf;
	int fd, ret = 0;

	if (!verify_dump_name(name, sizeof(name), path, offset, type)) {
		fprintf(diag, "fio: verify dump: no file name for %s at offset %llu\n", path, (unsigned long long)offset);
		return -ENAMETOOLONG;
	}
	fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		fprintf(diag, "fio: verify dump: open %s: %s\n", name, err_str(-ret));
		return ret;
	}
	while (len) {
		ssize_t w = write(fd, p, len > (1u << 30) ? (1u << 30) : (size_t)len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			ret = w < 0 ? -errno : -EIO;
			fprintf(diag, "fio: verify dump: write %s: %s\n", name, err_str(-ret));
			break;
		}
		p += w;
		len -= (uint64_t)w;
	}
	if (close(fd) < 0 && !ret)
		ret = -errno;
	if (!ret)
		fprintf(diag, "       %s data dumped as %s\n", type, name);
	return ret;
}
