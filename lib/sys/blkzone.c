/* SPDX-License-Identifier: MIT */
/* blkzone: zone reports and resets of zoned block devices (see blkzone.h). */
#include "sys/blkzone.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/blkzoned.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define BLKZONE_BATCH	4096u	/* zones asked for per ioctl */

/* The text of /sys/dev/block/MAJ:MIN/queue/<attr> for the device fd is open on. */
static int blkzone_attr(int fd, const char *attr, char *buf, size_t len)
{
	struct stat st;
	char path[96];
	ssize_t n;
	int afd;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/%s", major(st.st_rdev),
		 minor(st.st_rdev), attr);
	afd = open(path, O_RDONLY | O_CLOEXEC);
	if (afd < 0 && errno == ENOENT) {	/* a partition: the disk's queue */
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/../queue/%s", major(st.st_rdev),
			 minor(st.st_rdev), attr);
		afd = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (afd < 0)
		return -errno;
	n = read(afd, buf, len - 1);
	close(afd);
	if (n < 0)
		return -EIO;
	buf[n] = '\0';
	return 0;
}

int blkzone_model(int fd, enum blkzone_model *out)
{
	char buf[32];
	int ret = blkzone_attr(fd, "zoned", buf, sizeof(buf));

	*out = BLKZONE_NONE;
	if (ret == -ENOENT)
		return 0;
	if (ret < 0)
		return ret;
	if (!strncmp(buf, "host-managed", 12))
		*out = BLKZONE_HOST_MANAGED;
	else if (!strncmp(buf, "host-aware", 10))
		*out = BLKZONE_HOST_AWARE;
	return 0;
}

int blkzone_max_open(int fd, unsigned *out)
{
	char buf[32], *end;
	unsigned long v;
	int ret = blkzone_attr(fd, "max_open_zones", buf, sizeof(buf));

	*out = 0;
	if (ret == -ENOENT)
		return 0;
	if (ret < 0)
		return ret;
	v = strtoul(buf, &end, 10);
	if (end == buf || v > 1000000ul)
		return -EINVAL;
	*out = (unsigned)v;
	return 0;
}

int blkzone_parse(const void *buf, size_t len, struct blkzone_ent *out, unsigned max, uint64_t *end)
{
	struct blk_zone_report hdr;
	const unsigned char *p = buf;
	unsigned n;

	if (len < sizeof(hdr))
		return -EINVAL;
	memcpy(&hdr, p, sizeof(hdr));
	if (hdr.nr_zones > (len - sizeof(hdr)) / sizeof(struct blk_zone))
		return -EINVAL;
	n = hdr.nr_zones < max ? hdr.nr_zones : max;
	for (unsigned i = 0; i < n; i++) {
		struct blk_zone z;

		memcpy(&z, p + sizeof(hdr) + (size_t)i * sizeof(z), sizeof(z));
		if (z.start > UINT64_MAX / 512 || z.len > UINT64_MAX / 512 || z.wp > UINT64_MAX / 512 ||
		    z.capacity > UINT64_MAX / 512)
			return -EINVAL;
		out[i].start = z.start * 512;
		out[i].len = z.len * 512;
		out[i].wp = z.wp * 512;
		out[i].cap = (hdr.flags & BLK_ZONE_REP_CAPACITY) ? z.capacity * 512 : out[i].len;
		out[i].type = z.type;
		out[i].cond = z.cond;
		if (end)
			*end = out[i].start + out[i].len;
	}
	return (int)n;
}

int blkzone_report(int fd, uint64_t size, struct blkzone_ent **out, unsigned *nr)
{
	size_t blen = sizeof(struct blk_zone_report) + BLKZONE_BATCH * sizeof(struct blk_zone);
	struct blkzone_ent *zones = NULL;
	unsigned nz = 0, cap = 0;
	uint64_t pos = 0;
	void *buf = malloc(blen);
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	while (pos < size) {
		struct blk_zone_report *rep = buf;
		uint64_t end = pos;
		int got;

		memset(buf, 0, blen);
		rep->sector = pos / 512;
		rep->nr_zones = BLKZONE_BATCH;
		if (ioctl(fd, BLKREPORTZONE, rep) < 0) {
			ret = -errno;
			break;
		}
		if (rep->nr_zones == 0)
			break;
		if (nz + rep->nr_zones > cap) {
			unsigned ncap = cap ? cap * 2 : BLKZONE_BATCH;
			struct blkzone_ent *nzs;

			while (ncap < nz + rep->nr_zones)
				ncap *= 2;
			nzs = realloc(zones, (size_t)ncap * sizeof(*zones));
			if (!nzs) {
				ret = -ENOMEM;
				break;
			}
			zones = nzs;
			cap = ncap;
		}
		got = blkzone_parse(buf, blen, zones + nz, cap - nz, &end);
		if (got <= 0 || end <= pos) {
			ret = got < 0 ? got : -EIO;
			break;
		}
		nz += (unsigned)got;
		pos = end;
	}
	free(buf);
	if (ret < 0 || !nz) {
		free(zones);
		return ret < 0 ? ret : -ENODATA;
	}
	*out = zones;
	*nr = nz;
	return 0;
}

int blkzone_size(int fd, uint64_t *out)
{
	uint32_t sectors = 0;

	*out = 0;
	if (ioctl(fd, BLKGETZONESZ, &sectors) < 0)
		return -errno;
	*out = (uint64_t)sectors * 512;
	return 0;
}

int blkzone_reset(int fd, uint64_t start, uint64_t len)
{
	struct blk_zone_range r = { .sector = start / 512, .nr_sectors = len / 512 };

	return ioctl(fd, BLKRESETZONE, &r) < 0 ? -errno : 0;
}
