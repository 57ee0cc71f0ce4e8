/* SPDX-License-Identifier: MIT */
#include "sys/diskstats.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

enum {
	DS_READ_IOS, DS_READ_MERGES, DS_READ_SECTORS, DS_READ_TICKS,
	DS_WRITE_IOS, DS_WRITE_MERGES, DS_WRITE_SECTORS, DS_WRITE_TICKS,
	DS_IN_FLIGHT, DS_IO_TICKS, DS_TIME_IN_QUEUE,
};

static uint64_t diskstats_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int diskstats_parse(const char *line, uint64_t *fields, unsigned nr)
{
	const char *p = line;

	for (unsigned i = 0; i < nr; i++) {
		char *end;
		unsigned long long v;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			return -EINVAL;
		errno = 0;
		v = strtoull(p, &end, 10);
		if (errno || end == p)
			return -EINVAL;
		fields[i] = v;
		p = end;
	}
	return 0;
}

static int diskstats_read(const char *sysfs, const char *name, uint64_t *fields)
{
	char path[PATH_MAX], line[512];
	FILE *f;
	int rc = -EIO;

	if ((size_t)snprintf(path, sizeof(path), "%s/block/%s/stat", sysfs, name) >= sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (fgets(line, sizeof(line), f))
		rc = diskstats_parse(line, fields, DISKSTATS_FIELDS);
	fclose(f);
	return rc;
}

/* The device a path lives on (st_rdev for a block device), or its directory's. */
static int diskstats_dev_of(const char *path, dev_t *dev)
{
	struct stat st;
	char dir[PATH_MAX];
	char *slash;

	if (stat(path, &st) == 0) {
		*dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
		return 0;
	}
	if (errno != ENOENT)
		return -errno;
	if ((size_t)snprintf(dir, sizeof(dir), "%s", path) >= sizeof(dir))
		return -ENAMETOOLONG;
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (stat(dir, &st) != 0)
		return -errno;
	*dev = st.st_dev;
	return 0;
}

/* /sys/dev/block/<maj:min> -> the whole disk's name (a partition's parent). */
static int diskstats_disk_name(const char *sysfs, dev_t dev, char *name, size_t len)
{
	char link[PATH_MAX], real[PATH_MAX], probe[PATH_MAX + 16];
	const char *base;
	char *slash;
	struct stat st;

	if ((size_t)snprintf(link, sizeof(link), "%s/dev/block/%u:%u", sysfs, major(dev),
			     minor(dev)) >= sizeof(link))
		return -ENAMETOOLONG;
	if (!realpath(link, real))
		return -errno;
	if ((size_t)snprintf(probe, sizeof(probe), "%s/partition", real) >= sizeof(probe))
		return -ENAMETOOLONG;
	if (stat(probe, &st) == 0) {
		slash = strrchr(real, '/');
		if (!slash || slash == real)
			return -ENOENT;
		*slash = '\0';
	}
	slash = strrchr(real, '/');
	base = slash ? slash + 1 : real;
	if (!*base || (size_t)snprintf(name, len, "%s", base) >= len)
		return -ENAMETOOLONG;
	return 0;
}

int diskstats_begin_root(struct diskstats *ds, const char *sysfs, const char *const *paths,
			 unsigned nr_paths)
{
	memset(ds, 0, sizeof(*ds));
	if ((size_t)snprintf(ds->sysfs, sizeof(ds->sysfs), "%s", sysfs) >= sizeof(ds->sysfs))
		return 0;
	for (unsigned i = 0; i < nr_paths && ds->nr < DISKSTATS_MAX; i++) {
		struct diskstats_disk *d = &ds->disk[ds->nr];
		bool dup = false;
		dev_t dev;

		if (!paths[i] || diskstats_dev_of(paths[i], &dev) != 0)
			continue;
		if (diskstats_disk_name(ds->sysfs, dev, d->name, sizeof(d->name)) != 0)
			continue;
		for (unsigned k = 0; k < ds->nr; k++)
			if (!strcmp(ds->disk[k].name, d->name))
				dup = true;
		if (dup || diskstats_read(ds->sysfs, d->name, d->start) != 0)
			continue;
		ds->nr++;
	}
	ds->start_ns = diskstats_now_ns();
	return (int)ds->nr;
}

int diskstats_begin(struct diskstats *ds, const char *const *paths, unsigned nr_paths)
{
	return diskstats_begin_root(ds, "/sys", paths, nr_paths);
}

static uint64_t diskstats_delta(uint64_t end, uint64_t start)
{
	return end >= start ? end - start : 0;
}

void diskstats_end(struct diskstats *ds, struct disk_result *out, unsigned max_out,
		   unsigned *nr_out)
{
	uint64_t msec = (diskstats_now_ns() - ds->start_ns) / 1000000;
	unsigned n = 0;

	for (unsigned i = 0; i < ds->nr && n < max_out; i++) {
		const struct diskstats_disk *d = &ds->disk[i];
		struct disk_result *r = &out[n];
		uint64_t now[DISKSTATS_FIELDS];

		if (diskstats_read(ds->sysfs, d->name, now) != 0)
			continue;
		memset(r, 0, sizeof(*r));
		snprintf(r->name, sizeof(r->name), "%s", d->name);	/* same size: fits */
		r->read_ios = diskstats_delta(now[DS_READ_IOS], d->start[DS_READ_IOS]);
		r->write_ios = diskstats_delta(now[DS_WRITE_IOS], d->start[DS_WRITE_IOS]);
		r->read_merges = diskstats_delta(now[DS_READ_MERGES], d->start[DS_READ_MERGES]);
		r->write_merges = diskstats_delta(now[DS_WRITE_MERGES], d->start[DS_WRITE_MERGES]);
		r->read_ticks = diskstats_delta(now[DS_READ_TICKS], d->start[DS_READ_TICKS]);
		r->write_ticks = diskstats_delta(now[DS_WRITE_TICKS], d->start[DS_WRITE_TICKS]);
		r->in_queue = diskstats_delta(now[DS_TIME_IN_QUEUE], d->start[DS_TIME_IN_QUEUE]);
		r->io_ticks = diskstats_delta(now[DS_IO_TICKS], d->start[DS_IO_TICKS]);
		r->msec = msec;
		r->util = msec ? 100.0 * (double)r->io_ticks / (double)msec : 0.0;
		if (r->util > 100.0)
			r->util = 100.0;
		n++;
	}
	*nr_out = n;
}
