/* SPDX-License-Identifier: MIT */
/* zbd: zonemode=zbd's zones and fio 3.33's rules for them (see zbd.h). */
#include "fio/offset/zbd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static struct zbd_dev *zbd_dev_alloc(unsigned nr)
{
	struct zbd_dev *dev = calloc(1, sizeof(*dev) + ((size_t)nr + 1) * sizeof(dev->zones[0]));

	if (dev && pthread_mutex_init(&dev->lock, NULL)) {
		free(dev);
		dev = NULL;
	}
	if (dev)
		dev->nr_zones = nr;
	return dev;
}

struct zbd_dev *zbd_dev_emulate(uint64_t size, uint64_t zone_size, uint64_t cap)
{
	uint64_t nr = zone_size ? size / zone_size + (size % zone_size != 0) : 0;
	struct zbd_dev *dev;

	if (!nr || nr > (1u << 26))
		return NULL;
	dev = zbd_dev_alloc((unsigned)nr);
	if (!dev)
		return NULL;
	dev->model = BLKZONE_NONE;
	dev->zone_size = zone_size;
	for (unsigned i = 0; i <= dev->nr_zones; i++) {
		struct zbd_zone *z = &dev->zones[i];

		z->start = z->wp = (uint64_t)i * zone_size;
		z->cap = cap ? cap : zone_size;
		z->has_wp = i < dev->nr_zones;
	}
	return dev;
}

struct zbd_dev *zbd_dev_from_report(const struct blkzone_ent *ents, unsigned nr, uint64_t zone_size,
				    enum blkzone_model model)
{
	struct zbd_dev *dev = nr && zone_size ? zbd_dev_alloc(nr) : NULL;

	if (!dev)
		return NULL;
	dev->model = model;
	dev->zone_size = zone_size;
	for (unsigned i = 0; i < nr; i++) {
		struct zbd_zone *z = &dev->zones[i];

		z->start = ents[i].start;
		z->cap = ents[i].cap;
		z->has_wp = ents[i].type != BLKZONE_CONV;
		z->offline = ents[i].cond == BLKZONE_COND_OFFLINE;
		/* full zones report no usable wp; conventional zones hold data everywhere */
		if (!z->has_wp || ents[i].cond == BLKZONE_COND_FULL)
			z->wp = z->start + (z->has_wp ? z->cap : ents[i].len);
		else
			z->wp = ents[i].wp;
		if (z->has_wp && z->wp > z->start)
			dev->data_bytes += z->wp - z->start;
	}
	dev->zones[nr].start = ents[nr - 1].start + ents[nr - 1].len;
	dev->zones[nr].wp = dev->zones[nr].start;
	return dev;
}

void zbd_dev_free(struct zbd_dev *dev)
{
	if (!dev)
		return;
	pthread_mutex_destroy(&dev->lock);
	free(dev);
}

unsigned zbd_zone_of(const struct zbd_dev *dev, uint64_t off)
{
	uint64_t i = off / dev->zone_size;

	return i < dev->nr_zones ? (unsigned)i : dev->nr_zones;
}

int zbd_align_range(const struct zbd_dev *dev, uint64_t *off, uint64_t *len, unsigned *note,
		    uint64_t *old_off, uint64_t *old_len)
{
	const struct zbd_zone *z = &dev->zones[zbd_zone_of(dev, *off)];
	uint64_t end;

	*note = 0;
	*old_off = *off;
	*old_len = *len;
	if (*off != z->start) {
		uint64_t next = z[1].start;

		if (z == &dev->zones[dev->nr_zones] || next >= *off + *len)
			return -EINVAL;
		*len -= next - *off;
		*off = next;
		*note |= 1;
	}
	*old_len = *len;
	end = dev->zones[zbd_zone_of(dev, *off + *len)].start;
	if (*off + *len != end) {
		if (end <= *off)
			return -EINVAL;
		*len = end - *off;
		*note |= 2;
	}
	return 0;
}

static uint32_t zbd_write_cnt_init(const struct zbd_job *zj)
{
	double f = zj->reset_frequency;

	if (f <= 0)
		return UINT32_MAX;
	return 1.0 / f >= (double)UINT32_MAX ? UINT32_MAX : (uint32_t)(1.0 / f);
}

struct zbd_job *zbd_job_new(const struct job *job, unsigned nr_files)
{
	struct zbd_job *zj = calloc(1, sizeof(*zj) + (size_t)nr_files * sizeof(zj->files[0]));

	if (!zj)
		return NULL;
	zj->job_max_open = job->job_max_open_zones;
	zj->random = job->rw_random;
	zj->read_beyond_wp = job->read_beyond_wp;
	zj->mixed = job->rw_has_read && job->rw_has_write;
	for (int d = 0; d < DDIR_NR; d++)
		zj->min_bs[d] = job->bs_min[d] ? job->bs_min[d] : 1;
	zj->reset_threshold = job->zone_reset_threshold;
	zj->reset_frequency = job->zone_reset_frequency;
	zj->nr_files = nr_files;
	return zj;
}

void zbd_job_file(struct zbd_job *zj, unsigned i, struct zbd_dev *dev, uint64_t off, uint64_t len)
{
	struct zbd_file *zf = &zj->files[i];

	zf->dev = dev;
	zf->off = off;
	zf->len = len;
	zf->min_zone = zbd_zone_of(dev, off);
	zf->max_zone = zbd_zone_of(dev, off + len);
}

void zbd_job_pass(struct zbd_job *zj, bool writes)
{
	if (!writes)
		return;
	for (unsigned i = 0; i < zj->nr_files; i++) {
		struct zbd_dev *dev = zj->files[i].dev;

		if (!dev)
			continue;
		pthread_mutex_lock(&dev->lock);
		dev->write_cnt = zbd_write_cnt_init(zj);
		pthread_mutex_unlock(&dev->lock);
	}
}

/* ---- the rules, under dev->lock ---- */

static inline uint64_t zbd_cap_end(const struct zbd_zone *z)
{
	return z->start + z->cap;
}

static inline uint64_t zbd_room(const struct zbd_zone *z)
{
	return z->wp >= zbd_cap_end(z) ? 0 : zbd_cap_end(z) - z->wp;
}

static inline bool zbd_in_range(const struct zbd_file *zf, uint64_t off)
{
	return off >= zf->off && off - zf->off < zf->len;
}

/* Where off lies in the job's range, as an index into the open zones. */
static unsigned zbd_pick(const struct zbd_file *zf, uint64_t off)
{
	if (off < zf->off || !zf->len)
		return 0;
	return (unsigned)((unsigned __int128)(off - zf->off) * zf->dev->nr_open / zf->len);
}

static void zbd_close(struct zbd_job *zj, struct zbd_dev *dev, unsigned zi)
{
	unsigned k = 0;

	while (k < dev->nr_open && dev->open_list[k] != zi)
		k++;
	if (k == dev->nr_open)
		return;
	memmove(&dev->open_list[k], &dev->open_list[k + 1], (dev->nr_open - k - 1) * sizeof(dev->open_list[0]));
	dev->nr_open--;
	if (zj->nr_open)
		zj->nr_open--;
	dev->zones[zi].open = false;
}

static bool zbd_open(struct zbd_job *zj, struct zbd_dev *dev, unsigned zi)
{
	struct zbd_zone *z = &dev->zones[zi];

	if (z->offline)
		return false;
	if (!dev->max_open)
		return true;	/* no limit: nothing is tracked */
	if (z->open)
		return z->wp < zbd_cap_end(z);	/* to be filled by writes already placed: full */
	if (zj->job_max_open && zj->nr_open >= zj->job_max_open)
		return false;
	if (dev->nr_open >= dev->max_open)
		return false;
	dev->open_list[dev->nr_open++] = zi;
	zj->nr_open++;
	z->open = true;
	return true;
}

/* The zone a write that could not open its own goes to instead; -1: none. */
static long zbd_other_zone(struct zbd_job *zj, struct zbd_file *zf, uint64_t off, uint64_t min_bs)
{
	struct zbd_dev *dev = zf->dev;
	unsigned zi;

	if (dev->max_open || zj->job_max_open)
		zi = dev->open_list[zbd_pick(zf, off)];
	else
		zi = zbd_zone_of(dev, off);
	if (zi < zf->min_zone)
		zi = zf->min_zone;
	else if (zi >= zf->max_zone)
		zi = zf->max_zone - 1;
	for (;;) {
		const struct zbd_zone *z = &dev->zones[zi];
		unsigned k, at, cand = 0;
		bool found = false;

		if (z->has_wp) {
			if (!z->offline && !dev->max_open && !zj->job_max_open)
				break;
			if (!dev->nr_open)
				goto open_another;
		}
		/* the open zones, from the one the offset points at, that are in the job's range */
		at = zbd_pick(zf, off);
		for (k = 0; k < dev->nr_open && !found; k++, at++) {
			if (at >= dev->nr_open)
				at = 0;
			cand = dev->open_list[at];
			found = cand >= zf->min_zone && cand < zf->max_zone;
		}
		if (!found)
			return -1;
		if (cand == zi)
			break;
		zi = cand;
	}
	if (zbd_room(&dev->zones[zi]) >= min_bs)
		return zi;
open_another:
	for (uint64_t n = zf->len / dev->zone_size; n > 0; n--) {
		zi++;
		if (zi >= dev->nr_zones || !zbd_in_range(zf, dev->zones[zi].start))
			zi = zf->min_zone;
		if (!dev->zones[zi].has_wp || dev->zones[zi].open)
			continue;
		if (zbd_open(zj, dev, zi))
			return zi;
	}
	for (unsigned k = 0; k < dev->nr_open; k++) {
		unsigned o = dev->open_list[k];

		if (o >= zf->min_zone && o < zf->max_zone && zbd_room(&dev->zones[o]) >= min_bs)
			return o;
	}
	return -1;
}

static int zbd_reset(struct zbd_job *zj, struct zbd_file *zf, unsigned zi)
{
	struct zbd_dev *dev = zf->dev;
	struct zbd_zone *z = &dev->zones[zi];
	uint64_t data = z->wp - z->start;

	if (!data)
		return 0;
	if (dev->model != BLKZONE_NONE && zj->fds && zj->fds[zf - zj->files] >= 0) {
		int ret = blkzone_reset(zj->fds[zf - zj->files], z->start, z[1].start - z->start);

		if (ret < 0)
			return ret;
	}
	dev->data_bytes -= data < dev->data_bytes ? data : dev->data_bytes;
	z->wp = z->start;
	zj->resets++;
	return 0;
}

/* zone_reset_frequency: true when this write is the one that resets its zone. */
static bool zbd_reset_due(struct zbd_job *zj, struct zbd_file *zf)
{
	struct zbd_dev *dev = zf->dev;

	if (zj->reset_frequency <= 0 || (double)dev->data_bytes < (double)zf->len * zj->reset_threshold)
		return false;
	if (dev->write_cnt)
		dev->write_cnt--;
	if (dev->write_cnt)
		return false;
	dev->write_cnt = zbd_write_cnt_init(zj);
	return true;
}

static int zbd_write(struct zbd_job *zj, struct zbd_file *zf, uint64_t *off, uint64_t *len)
{
	struct zbd_dev *dev = zf->dev;
	uint64_t min_bs = zj->min_bs[DDIR_WRITE], n, end;
	unsigned zi = zbd_zone_of(dev, *off);
	struct zbd_zone *z = &dev->zones[zi];

	if (!z->has_wp) {
		/* a conventional zone: anything, but not into the sequential zone after it */
		if (!z[1].has_wp || *off + *len <= z[1].start)
			return 0;
		if (*off + min_bs > z[1].start) {
			*off = z->start + z[1].start - *off;
			n = *len < z[1].start - *off ? *len : z[1].start - *off;
		} else {
			n = z[1].start - *off;
		}
		*len = n / min_bs * min_bs;
		return *len ? 0 : 1;
	}
	if (!zbd_open(zj, dev, zi)) {
		long o = zbd_other_zone(zj, zf, *off, min_bs);

		if (o < 0)
			return 1;
		zi = (unsigned)o;
		z = &dev->zones[zi];
	}
	if (zbd_reset_due(zj, zf) || (z->has_wp && z->wp + min_bs > zbd_cap_end(z))) {
		int ret = zbd_reset(zj, zf, zi);

		if (ret < 0)
			return zj->err = ret;
		if (z->cap < min_bs)
			return 1;
	}
	*off = z->wp;
	if (!zbd_in_range(zf, *off))
		return 1;
	n = *len < zbd_cap_end(z) - *off ? *len : zbd_cap_end(z) - *off;
	n = n / min_bs * min_bs;
	if (n < min_bs)
		return 1;
	*len = n;
	/* the write is placed: the write pointer moves now (fio: when it is queued) */
	end = *off + n < zbd_cap_end(z) ? *off + n : zbd_cap_end(z);
	if (z->wp <= end)
		dev->data_bytes += end - z->wp;
	z->wp = end;
	if (*off + n >= zbd_cap_end(z))
		zbd_close(zj, dev, zi);
	return 0;
}

/* The zone nearest zi (after it only, for sequential jobs) with min_bytes of data; -1: none. */
static long zbd_find_data(const struct zbd_job *zj, const struct zbd_file *zf, unsigned zi, uint64_t min_bytes)
{
	const struct zbd_zone *zs = zf->dev->zones;
	long up = (long)zi + 1, down = (long)zi - 1, hi = zf->max_zone, lo = zf->min_zone;

	for (; up < hi || down >= lo; up++, down--) {
		if (up < hi && !zs[up].offline) {
			if (zs[up].start + min_bytes <= zs[up].wp)
				return up;
		} else if (!zj->random) {
			break;
		}
		if (zj->random && down >= lo && !zs[down].offline && zs[down].start + min_bytes <= zs[down].wp)
			return down;
	}
	return -1;
}

static int zbd_read(struct zbd_job *zj, struct zbd_file *zf, uint64_t *off, uint64_t *len)
{
	const struct zbd_dev *dev = zf->dev;
	uint64_t min_bs = zj->min_bs[DDIR_READ], range, orig_start, n;
	unsigned zi = zbd_zone_of(dev, *off);
	const struct zbd_zone *z = &dev->zones[zi];

	if (!z->has_wp || (!z->offline && zj->read_beyond_wp))
		return 0;
	orig_start = z->start;
	range = z->offline ? 0 : z->wp - z->start;
	if (range < min_bs || (!zj->random && *off + min_bs > z->wp)) {
		long o = zbd_find_data(zj, zf, zi, min_bs);

		if (o < 0)
			return 1;
		z = &dev->zones[o];
		range = z->wp - z->start;
		if (!zj->random)
			*off = z->start;
	}
	if (range <= *len)
		*off = z->start;
	else if (zj->random)
		*off = z->start + ((*off - orig_start) % (range - *len)) / min_bs * min_bs;
	if (!z->has_wp)
		return 0;
	n = *len < z->wp - *off ? *len : z->wp - *off;
	n = n / min_bs * min_bs;
	if (n < *len)
		*len = n;
	return *len ? 0 : 1;
}

uint64_t zbd_seq_next(const struct zbd_job *zj, unsigned i, uint64_t off)
{
	const struct zbd_dev *dev = zj->files[i].dev;
	unsigned zi;

	if (!dev)
		return off;
	zi = zbd_zone_of(dev, off);
	if (zi < dev->nr_zones && off == zbd_cap_end(&dev->zones[zi]) && off < dev->zones[zi + 1].start)
		return dev->zones[zi + 1].start;
	return off;
}

enum ddir zbd_ddir(struct zbd_job *zj, unsigned i, enum ddir d)
{
	struct zbd_dev *dev = zj->files[i].dev;
	bool empty;

	if (d != DDIR_READ || !zj->mixed || zj->read_beyond_wp || !dev)
		return d;
	pthread_mutex_lock(&dev->lock);
	empty = dev->data_bytes == 0;
	pthread_mutex_unlock(&dev->lock);
	return empty ? DDIR_WRITE : d;
}

/* A trim: its zone reset (random trims: the nearest zone with data). */
static int zbd_trim(struct zbd_job *zj, struct zbd_file *zf, uint64_t *off, bool *reset_only)
{
	struct zbd_dev *dev = zf->dev;
	unsigned zi = zbd_zone_of(dev, *off);
	int ret;

	*reset_only = false;
	if (zi >= dev->nr_zones || !dev->zones[zi].has_wp)
		return 0;	/* a conventional zone: a real trim */
	if (zj->random && dev->zones[zi].wp <= dev->zones[zi].start) {
		long o = zbd_find_data(zj, zf, zi, 1);

		if (o < 0)
			return 1;
		zi = (unsigned)o;
		*off = dev->zones[zi].start;
	}
	ret = zbd_reset(zj, zf, zi);
	if (ret < 0)
		return zj->err = ret;
	*reset_only = true;
	return 0;
}

int zbd_adjust(struct zbd_job *zj, unsigned i, enum ddir d, uint64_t *off, uint64_t *len, bool *reset_only)
{
	struct zbd_file *zf = &zj->files[i];
	int ret;

	if (!zf->dev) {
		*reset_only = false;
		return 0;
	}
	pthread_mutex_lock(&zf->dev->lock);
	if (d == DDIR_TRIM)
		ret = zbd_trim(zj, zf, off, reset_only);
	else
		ret = d == DDIR_WRITE ? zbd_write(zj, zf, off, len) : zbd_read(zj, zf, off, len);
	pthread_mutex_unlock(&zf->dev->lock);
	return ret;
}
