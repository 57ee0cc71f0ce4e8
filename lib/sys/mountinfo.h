/* SPDX-License-Identifier: MIT */
/* mountinfo: which filesystem holds a device number (st_dev): its type and mount source,
 * from /proc/self/mountinfo (first line whose major:minor matches), falling back to
 * /proc/mounts (first line whose source is a device node with that st_rdev). The source is
 * returned raw, as the kernel prints it (octal escapes such as \040 are not decoded). */
#ifndef IOPS_MOUNTINFO_H
#define IOPS_MOUNTINFO_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define MOUNTINFO_FSTYPE_LEN	64
#define MOUNTINFO_SOURCE_LEN	4096

struct mountinfo_entry {
	char fstype[MOUNTINFO_FSTYPE_LEN];
	char source[MOUNTINFO_SOURCE_LEN];
};

/* Scan a mountinfo-format stream for major:minor. Returns 0 with *out filled, -ENOENT if no
 * line matches, -ENOMEM. Malformed lines are skipped; over-long fields are truncated. */
int mountinfo_find(FILE *f, unsigned int major, unsigned int minor, struct mountinfo_entry *out);

/* Scan a /proc/mounts-format stream ("source target fstype options ...") for a source whose
 * stat() gives st_rdev == dev. Returns 0, -ENOENT or -ENOMEM. */
int mountinfo_find_mounts(FILE *f, dev_t dev, struct mountinfo_entry *out);

/* Look dev up in /proc/self/mountinfo, then /proc/mounts. Returns 0, -ENOENT, or -errno
 * when neither file can be read. */
int mountinfo_lookup(dev_t dev, struct mountinfo_entry *out);

/* Size of the filesystem holding the open file fd (statvfs f_frsize * f_blocks), in bytes.
 * Returns 0 with *bytes set, or -errno. */
int mountinfo_fs_bytes(int fd, uint64_t *bytes);

#endif
