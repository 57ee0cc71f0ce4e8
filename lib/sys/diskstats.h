/* SPDX-License-Identifier: MIT */
/* diskstats: fio's "Disk stats (read/write)" counters (diskutil.c, print_disk_util()).
 *
 * Each path (file, block device, or a not-yet-existing file: its directory) is mapped to its
 * whole disk through /sys/dev/block/<maj:min> (a partition maps to its parent disk), disks are
 * deduplicated, and the first 11 fields of /sys/block/<dev>/stat are snapshotted at begin and
 * end. No match (overlayfs, tmpfs, containers without /sys/block): no disks, like fio.
 * Device-mapper/md slave aggregation (fio's aggr* fields) is not done. */
#ifndef IOPS_DISKSTATS_H
#define IOPS_DISKSTATS_H

#include <stdint.h>

/* Whole-device counters from /sys/block/<dev>/stat, deltas over the run. */
struct disk_result {
	char name[64];
	uint64_t read_ios, write_ios, read_merges, write_merges, read_ticks, write_ticks;
	uint64_t in_queue, io_ticks;
	uint64_t msec;			/* wall time measured */
	double util;			/* 100*io_ticks/msec, capped at 100 */
};

#define DISKSTATS_MAX		16
#define DISKSTATS_FIELDS	11

struct diskstats_disk {
	char name[64];
	uint64_t start[DISKSTATS_FIELDS];
};

/* Fixed size; the caller allocates. */
struct diskstats {
	char sysfs[128];	/* sysfs root, "/sys" */
	struct diskstats_disk disk[DISKSTATS_MAX];
	unsigned nr;
	uint64_t start_ns;	/* CLOCK_MONOTONIC */
};

/* Resolve each path to its /sys/block disk, dedupe, snapshot the stat files. Returns the
 * number of disks found (0 is not an error). */
int diskstats_begin(struct diskstats *ds, const char *const *paths, unsigned nr_paths);

/* The same against another sysfs root (tests). */
int diskstats_begin_root(struct diskstats *ds, const char *sysfs, const char *const *paths,
			 unsigned nr_paths);

/* Snapshot again and store deltas (ios, merges, ticks, in_queue, util) in out. */
void diskstats_end(struct diskstats *ds, struct disk_result *out, unsigned max_out,
		   unsigned *nr_out);

/* Parse the leading fields of a /sys/block/<dev>/stat line; returns 0 or -EINVAL. */
int diskstats_parse(const char *line, uint64_t *fields, unsigned nr);

#endif
