/* SPDX-License-Identifier: MIT */
/* iosched: a block device's I/O scheduler, through sysfs: which file holds it for a device
 * number (a partition's is its disk's), the name in use, and switching it. */
#ifndef IOPS_IOSCHED_H
#define IOPS_IOSCHED_H

#include <stddef.h>
#include <sys/types.h>

#define IOSCHED_PATH_MAX	128
#define IOSCHED_NAME_MAX	32

/* The queue/scheduler file of device dev under sysroot ("/sys" normally) into out
 * (IOSCHED_PATH_MAX bytes): 0, or -ENOENT when dev has none (not a block device, no queue). */
int iosched_path(const char *sysroot, dev_t dev, char *out);
/* The name in brackets in a scheduler file's text ("none [mq-deadline] kyber"): 0, -EINVAL. */
int iosched_parse(const char *text, char *name, size_t cap);
/* The scheduler in use, read from path: 0 or -errno. */
int iosched_get(const char *path, char *name, size_t cap);
/* Switch to name: 0, or -errno from the kernel (-EINVAL: no such scheduler). */
int iosched_set(const char *path, const char *name);

#endif
