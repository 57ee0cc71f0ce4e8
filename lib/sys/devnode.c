/* SPDX-License-Identifier: MIT */
#include "sys/devnode.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

static int devnode_walk(char *path, size_t len, size_t cap, unsigned major, unsigned minor, int depth)
{
	DIR *d = opendir(path);
	struct dirent *de;
	int ret = -ENOENT;

	if (!d)
		return -ENOENT;
	while (ret == -ENOENT && (de = readdir(d))) {
		struct stat st;
		int n;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		n = snprintf(path + len, cap - len, "/%s", de->d_name);
		if (n < 0 || (size_t)n >= cap - len)
			continue;	/* a name that does not fit cannot be the answer */
		if (lstat(path, &st) < 0)
			continue;
		if (S_ISBLK(st.st_mode) && major(st.st_rdev) == major && minor(st.st_rdev) == minor)
			ret = 0;
		else if (S_ISDIR(st.st_mode) && depth < DEVNODE_MAX_DEPTH)
			ret = devnode_walk(path, len + (size_t)n, cap, major, minor, depth + 1);
	}
	closedir(d);
	if (ret)
		path[len] = '\0';
	return ret;
}

int devnode_find(const char *dir, unsigned major, unsigned minor, char *out, size_t len)
{
	size_t n = strlen(dir);

	if (n >= len)
		return -ENAMETOOLONG;
	memcpy(out, dir, n + 1);
	while (n > 1 && out[n - 1] == '/')
		out[--n] = '\0';
	return devnode_walk(out, n, len, major, minor, 1);
}
