/* SPDX-License-Identifier: MIT */
/* blkzone: what a zoned block device says about its zones (linux/blkzoned.h), and resetting
 * them. A device's zoned model comes from sysfs (queue/zoned), its zones from the
 * BLKREPORTZONE ioctl (in bytes here, the kernel counts 512-byte sectors) and their size from
 * BLKGETZONESZ, BLKRESETZONE rewinds
 * write pointers. blkzone_parse() reads a report buffer on its own, so that it can be tested
 * without such a device. */
#ifndef IOPS_BLKZONE_H
#define IOPS_BLKZONE_H

#include <stddef.h>
#include <stdint.h>

enum blkzone_model { BLKZONE_NONE, BLKZONE_HOST_AWARE, BLKZONE_HOST_MANAGED };

enum blkzone_type { BLKZONE_CONV = 1, BLKZONE_SEQ_REQ = 2, BLKZONE_SEQ_PREF = 3 };
enum blkzone_cond { BLKZONE_COND_READONLY = 0xd, BLKZONE_COND_FULL = 0xe, BLKZONE_COND_OFFLINE = 0xf };

struct blkzone_ent {
	uint64_t start, len, wp, cap;	/* bytes */
	uint8_t type, cond;
};

/* The zoned model of the block device fd is open on (sysfs queue/zoned; a device without
 * that file is not zoned). 0 or -errno. */
int blkzone_model(int fd, enum blkzone_model *out);
/* queue/max_open_zones of that device (0: no limit or not said). 0 or -errno. */
int blkzone_max_open(int fd, unsigned *out);

/* The zones of a BLKREPORTZONE reply in buf (len bytes: the report header, then its zones),
 * at most max of them into out. Returns how many were read, or -EINVAL when the buffer is
 * shorter than the header or than the zones it announces. Zones without a capacity field (an
 * old kernel) get their length as capacity. *end: the byte after the last zone read. */
int blkzone_parse(const void *buf, size_t len, struct blkzone_ent *out, unsigned max, uint64_t *end);

/* The device's zone size in bytes (BLKGETZONESZ; 0: not zoned). 0 or -errno. */
int blkzone_size(int fd, uint64_t *out);

/* Every zone of the device fd, size bytes long, into *out (malloc'd, *nr of them). 0 or -errno. */
int blkzone_report(int fd, uint64_t size, struct blkzone_ent **out, unsigned *nr);

/* Rewind the write pointers of the zones in [start, start + len) (bytes). 0 or -errno. */
int blkzone_reset(int fd, uint64_t start, uint64_t len);

#endif
