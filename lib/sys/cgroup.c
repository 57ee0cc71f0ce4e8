/* SPDX-License-Identifier: MIT */
/* cgroup: the blkio cgroup v1 hierarchy and one group's steps (sys/cgroup.h). */
#include "sys/cgroup.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Does the comma list opts hold the word w? */
static bool cgroup_opt_has(const char *opts, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = opts; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, w, n) && (p[n] == ',' || p[n] == '\0'))
			return true;
	return false;
}

int cgroup_find_blkio(FILE *mounts, char *root, size_t cap, bool *v2)
{
	char line[4096];

	*v2 = false;
	while (fgets(line, sizeof(line), mounts)) {
		char *f[4] = { NULL }, *save = line;
		unsigned n = 0;

		while (n < 4) {
			char *p = save + strspn(save, " \t\n");

			if (!*p)
				break;
			f[n++] = p;
			save = p + strcspn(p, " \t\n");
			if (*save)
				*save++ = '\0';
		}
		if (n < 4)
			continue;
		if (!strcmp(f[2], "cgroup2")) {
			*v2 = true;
		} else if (!strcmp(f[2], "cgroup") && cgroup_opt_has(f[3], "blkio")) {
			size_t len = strlen(f[1]);

			if (len >= cap)
				return -ENAMETOOLONG;
			memcpy(root, f[1], len + 1);
			return 0;
		}
	}
	return -ENOENT;
}

static int cgroup_path(char *out, const char *root, const char *name, const char *file)
{
	int n = snprintf(out, CGROUP_PATH_MAX, "%s/%s%s%s", root, name, file ? "/" : "", file ? file : "");

	return n < 0 || n >= CGROUP_PATH_MAX ? -ENAMETOOLONG : 0;
}

int cgroup_make(const char *root, const char *name, bool *made)
{
	char path[CGROUP_PATH_MAX];
	int ret = cgroup_path(path, root, name, NULL);

	*made = false;
	if (ret)
		return ret;
	if (mkdir(path, 0755) == 0) {
		*made = true;
		return 0;
	}
	return errno == EEXIST ? 0 : -errno;
}

/* Write text into ROOT/NAME/FILE. flags: O_CREAT gives fio's EACCES for a missing file. */
static int cgroup_write(const char *root, const char *name, const char *file, const char *text, int flags)
{
	char path[CGROUP_PATH_MAX];
	int fd, ret = cgroup_path(path, root, name, file);
	size_t len = strlen(text);

	if (ret)
		return ret;
	fd = open(path, O_WRONLY | O_CLOEXEC | flags, 0644);
	if (fd < 0)
		return -errno;
	ret = write(fd, text, len) == (ssize_t)len ? 0 : (errno ? -errno : -EIO);
	if (close(fd) < 0 && !ret)
		ret = -errno;
	return ret;
}

int cgroup_attach(const char *root, const char *name, pid_t tid)
{
	char text[32];

	snprintf(text, sizeof(text), "%d\n", (int)tid);
	return cgroup_write(root, name, "tasks", text, 0);
}

int cgroup_set_weight(const char *root, const char *name, unsigned weight)
{
	char text[32];

	snprintf(text, sizeof(text), "%u\n", weight);
	return cgroup_write(root, name, "blkio.weight", text, O_CREAT | O_TRUNC);
}

int cgroup_remove(const char *root, const char *name)
{
	char path[CGROUP_PATH_MAX];
	int ret = cgroup_path(path, root, name, NULL);

	if (ret)
		return ret;
	return rmdir(path) < 0 ? -errno : 0;
}
