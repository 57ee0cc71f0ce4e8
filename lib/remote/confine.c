/* SPDX-License-Identifier: MIT */
/* confine: a server's directory and device rules (confine.h). */
#include "remote/confine.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int confine_init(struct confine *c, const char *dir, const char *device, struct iops_err *err)
{
	struct stat st;
	int e;

	memset(c, 0, sizeof(*c));
	/* each step's own errno (realpath leaves its buffer undefined when it fails) */
	e = !realpath(dir, c->root) || stat(c->root, &st) ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
	if (e) {
		iops_err_set(err, e, "cannot serve directory '%s': %s", dir, err_str(e));
		return -e;
	}
	if (!device || !*device)
		return 0;
	e = !realpath(device, c->device) || stat(c->device, &st) ? errno : S_ISBLK(st.st_mode) ? 0 : ENOTBLK;
	if (e) {
		iops_err_set(err, e, "--device '%s': %s", device, e == ENOTBLK ? "not a block device" : err_str(e));
		c->device[0] = '\0';
		return -e;
	}
	c->device_rdev = st.st_rdev;
	return 0;
}

static bool confine_inside(const char *root, const char *p)
{
	size_t n = strlen(root);

	if (n == 1)	/* "/" */
		return p[0] == '/';
	return !strncmp(p, root, n) && (p[n] == '\0' || p[n] == '/');
}

bool confine_fold(const char *root, const char *path, char *out, size_t len)
{
	size_t n = 0, rlen = strlen(root);
	const char *p = path;

	if (!path[0] || rlen >= len || root[0] != '/')
		return false;
	if (path[0] != '/') {	/* relative: from root */
		memcpy(out, root, rlen);
		n = rlen == 1 ? 0 : rlen;
	}
	while (*p) {
		size_t c;

		while (*p == '/')
			p++;
		c = strcspn(p, "/");
		if (!c)
			break;
		if (c == 1 && p[0] == '.') {
			/* nothing */
		} else if (c == 2 && p[0] == '.' && p[1] == '.') {
			while (n && out[n - 1] != '/')
				n--;
			if (n)
				n--;	/* the '/' before it */
		} else {
			if (n + 1 + c >= len)
				return false;
			out[n++] = '/';
			memcpy(out + n, p, c);
			n += c;
		}
		p += c;
	}
	if (!n)
		out[n++] = '/';
	out[n] = '\0';
	return confine_inside(root, out);
}

static bool confine_device(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode));
}

static int confine_refuse(const struct confine *c, const char *what, const char *path, const char *why,
			  struct iops_err *err)
{
	iops_err_set(err, EPERM, "%s '%s' %s '%s'", what, path, why, c->root);
	return -EPERM;
}

int confine_path(const struct confine *c, const char *what, const char *path, struct iops_err *err)
{
	char folded[PATH_MAX], real[PATH_MAX];
	struct stat st;
	char *slash;

	if (c->device[0] && (!strcmp(path, c->device) ||
			     (stat(path, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == c->device_rdev)))
		return 0;
	if ((path[0] == '/' && confine_device(path)) ||
	    (confine_fold(c->root, path, folded, sizeof(folded)) && confine_device(folded))) {
		iops_err_set(err, EPERM, "%s '%s' is a device: a server lends only its --device%s%s", what, path,
			     c->device[0] ? " " : " (none given)", c->device);
		return -EPERM;
	}
	if (!confine_fold(c->root, path, folded, sizeof(folded)))
		return confine_refuse(c, what, path, "is outside the served directory", err);
	if (lstat(folded, &st) == 0) {
		if (!realpath(folded, real) || !confine_inside(c->root, real))
			return confine_refuse(c, what, path, "leads (by a symbolic link) outside the served directory", err);
		return 0;
	}
	if (errno != ENOENT && errno != ENOTDIR)
		return confine_refuse(c, what, path, "cannot be checked in the served directory", err);
	/* not there yet: its deepest existing ancestor decides */
	while ((slash = strrchr(folded, '/'))) {
		if (slash == folded) {
			folded[1] = '\0';
		} else {
			*slash = '\0';
		}
		if (lstat(folded, &st) == 0)
			break;
		if (slash == folded)
			break;
	}
	if (!realpath(folded, real) || !confine_inside(c->root, real))
		return confine_refuse(c, what, path, "leads (by a symbolic link) outside the served directory", err);
	return 0;
}
