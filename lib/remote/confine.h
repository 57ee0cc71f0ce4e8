/* SPDX-License-Identifier: MIT */
/* confine: the one directory a server serves, and the one device it may lend.
 *
 * A job sent to a server names paths (files, logs, iologs); each must lie inside the served
 * directory once '.' and '..' are folded and symbolic links followed, and must not be a
 * device, except the one block device given with --device (a pod's raw Block volume), which
 * may sit anywhere. A path that does not exist yet is judged by its deepest existing
 * ancestor. confine_fold() is the pure, lexical half; confine_path() adds the file system. */
#ifndef IOPS_REMOTE_CONFINE_H
#define IOPS_REMOTE_CONFINE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/err.h"

struct confine {
	char root[PATH_MAX];	/* the served directory, resolved */
	char device[PATH_MAX];	/* --device resolved, "" = none */
	dev_t device_rdev;
};

/* dir: the served directory (must be one); device: NULL, or a block device. 0 or -errno
 * with err set. */
int confine_init(struct confine *c, const char *dir, const char *device, struct iops_err *err);

/* Folds path (absolute, or relative to root, itself absolute and folded) into out: '.' and
 * empty components dropped, '..' removes the one before. Returns true when the result lies
 * inside root (or is root), false when it leaves it, is empty, or does not fit in len. */
bool confine_fold(const char *root, const char *path, char *out, size_t len);

/* 0 when a job may use path (what: "filename", "write_iolog" ... for the message); -EPERM
 * with err set ("filename '/etc/x' is outside the served directory '/srv'"), -errno. */
int confine_path(const struct confine *c, const char *what, const char *path, struct iops_err *err);

#endif
