/* SPDX-License-Identifier: MIT */
/* devnode: the block device node of a device number (what a blktrace names its disks by), found
 * under a directory such as /dev, looked through recursively without following links. */
#ifndef IOPS_DEVNODE_H
#define IOPS_DEVNODE_H

#include <stddef.h>

#define DEVNODE_MAX_DEPTH	4	/* /dev/a/b/c/node at most */

/* The first block device under dir (readdir order, depth first) with this major and minor, its
 * path into out (len bytes). 0, or -ENOENT (none), -ENAMETOOLONG. */
int devnode_find(const char *dir, unsigned major, unsigned minor, char *out, size_t len);

#endif
