/* SPDX-License-Identifier: MIT */
/* iosched: a block device's I/O scheduler through sysfs (sys/iosched.h). */
#include "sys/iosched.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

int iosched_path(const char *sysroot, dev_t dev, char *out)
{
	char part[IOSCHED_PATH_MAX];
	struct stat st;
	int n;

	n = snprintf(part, sizeof(part), "%s/dev/block/%u:%u/partition", sysroot, major(dev), minor(dev));
	if (n < 0 || n >= (int)sizeof(part))
		return -ENAMETOOLONG;
	n = snprintf(out, IOSCHED_PATH_MAX, "%s/dev/block/%u:%u/%squeue/scheduler", sysroot, major(dev),
		     minor(dev), stat(part, &st) == 0 ? "../" : "");
	if (n < 0 || n >= IOSCHED_PATH_MAX)
		return -ENAMETOOLONG;
	return stat(out, &st) == 0 && S_ISREG(st.st_mode) ? 0 : -ENOENT;
}

int iosched_parse(const char *text, char *name, size_t cap)
{
	const char *a = strchr(text, '['), *b = a ? strchr(a, ']') : NULL;
	size_t n;

	if (a && !b)
		return -EINVAL;
	if (!a) {	/* a single scheduler may be printed bare ("none") */
		n = strcspn(text, " \t\n");
		if (!n || text[n + strspn(text + n, " \t\n")])
			return -EINVAL;
		a = text - 1;
	} else {
		n = (size_t)(b - a - 1);
	}
	if (!n || n >= cap)
		return -EINVAL;
	memcpy(name, a + 1, n);
	name[n] = '\0';
	return 0;
}

int iosched_get(const char *path, char *name, size_t cap)
{
	char text[512];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, text, sizeof(text) - 1);
	if (n < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	close(fd);
	text[n] = '\0';
	return iosched_parse(text, name, cap);
}

int iosched_set(const char *path, const char *name)
{
	size_t len = strlen(name);
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, name, len) != (ssize_t)len)
		ret = errno ? -errno : -EIO;
	if (close(fd) < 0 && !ret)
		ret = -errno;
	return ret;
}
