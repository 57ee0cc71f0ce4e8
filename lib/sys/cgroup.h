/* SPDX-License-Identifier: MIT */
/* cgroup: the blkio cgroup v1 hierarchy that fio's cgroup= option uses: where it is mounted
 * (the first "cgroup" mount whose options name blkio, as fio picks it), and the steps on one
 * group below it: make it, put a thread in it, set its weight, remove it. A v1 "tasks" file
 * takes a single thread, which is why iops (one thread per job) needs v1: a cgroup2 group
 * takes whole processes. Paths are built as ROOT/NAME; callers check NAME (no "..", not
 * absolute). */
#ifndef IOPS_CGROUP_H
#define IOPS_CGROUP_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#define CGROUP_PATH_MAX	512

/* Scan a /proc/mounts-format stream: the mount point of the first cgroup v1 mount with the
 * blkio controller into root (cap bytes). *v2 tells whether a cgroup2 mount was seen. 0,
 * -ENOENT (none), -ENAMETOOLONG. */
int cgroup_find_blkio(FILE *mounts, char *root, size_t cap, bool *v2);

/* mkdir ROOT/NAME: 0 (*made says whether it is new), or -errno. */
int cgroup_make(const char *root, const char *name, bool *made);
/* Move thread tid into ROOT/NAME (its "tasks" file): 0 or -errno. */
int cgroup_attach(const char *root, const char *name, pid_t tid);
/* Write weight into ROOT/NAME/blkio.weight: 0 or -errno (-EACCES when the kernel has no such
 * file, as fio reports it). */
int cgroup_set_weight(const char *root, const char *name, unsigned weight);
/* rmdir ROOT/NAME: 0 or -errno. */
int cgroup_remove(const char *root, const char *name);

#endif
