/* SPDX-License-Identifier: MIT */
/* target_zbd: zonemode=zbd at planning time (see target.h): each file's zones, fio's checks,
 * the jobs' ranges aligned to whole zones. Nothing on the volume changes here. */
#include "fio/file/target.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "fio/offset/zbd.h"
#include "sys/blkzone.h"

#define ULL(x) ((unsigned long long)(x))

/* A zoned device's zones: NULL and 0 when it is not zoned, -errno (err filled) on failure. */
static int target_zbd_device(const struct target_path *p, const struct job *job, struct zbd_dev **out,
			     unsigned *dev_max_open, struct iops_err *err)
{
	enum blkzone_model model = BLKZONE_NONE;
	struct blkzone_ent *ents = NULL;
	uint64_t zs = 0;
	unsigned nr = 0;
	int fd, ret;

	*out = NULL;
	*dev_max_open = 0;
	fd = open(p->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		iops_err_set(err, errno, "fio: cannot open '%s': %s", p->path, err_str(errno));
		return -errno;
	}
	ret = blkzone_model(fd, &model);
	if (!ret && model != BLKZONE_NONE) {
		ret = blkzone_size(fd, &zs);
		if (!ret)
			ret = blkzone_report(fd, p->cur_size, &ents, &nr);
		if (!ret && model == BLKZONE_HOST_MANAGED && !job->ignore_zone_limits)
			ret = blkzone_max_open(fd, dev_max_open);
	}
	close(fd);
	if (ret < 0) {
		iops_err_set(err, -ret, "fio: %s: cannot read the zones: %s", p->path, err_str(-ret));
		return ret;
	}
	if (model == BLKZONE_NONE)
		return 0;
	*out = zbd_dev_from_report(ents, nr, zs ? zs : ents[0].len, model);
	free(ents);
	if (!*out) {
		iops_err_set(err, ENOMEM, "fio: out of memory for the zones of %s", p->path);
		return -ENOMEM;
	}
	return 0;
}

/* Emulated zones over size bytes of name for job: fio's checks, then the zones. */
static int target_zbd_emulate(const char *name, uint64_t size, const struct job *job, struct zbd_dev **out,
			      struct iops_err *err)
{
	if (!job->zone_size) {
		iops_err_set(err, EINVAL, "%s: Specifying the zone size is mandatory for regular file/block device with --zonemode=zbd",
			     name);
		return -EINVAL;
	}
	if (job->zone_size < 512) {
		iops_err_set(err, EINVAL, "%s: zone size must be at least 512 bytes for --zonemode=zbd", name);
		return -EINVAL;
	}
	if (job->zone_capacity > job->zone_size) {
		iops_err_set(err, EINVAL, "%s: job parameter zonecapacity %llu is larger than zone size %llu",
			     name, ULL(job->zone_capacity), ULL(job->zone_size));
		return -EINVAL;
	}
	if (size < job->zone_size) {
		iops_err_set(err, EINVAL, "%s: file/device size %llu is smaller than zone size %llu", name,
			     ULL(size), ULL(job->zone_size));
		return -EINVAL;
	}
	*out = zbd_dev_emulate(size, job->zone_size, job->zone_capacity);
	if (!*out) {
		iops_err_set(err, ENOMEM, "fio: out of memory for the zones of %s", name);
		return -ENOMEM;
	}
	(*out)->max_open = job->max_open_zones;
	return 0;
}

/* The zones of path p, made for job (the first zonemode=zbd job that uses it). */
static int target_zbd_make(struct target_path *p, const struct job *job, struct iops_err *err)
{
	unsigned dev_max = 0, want = job->max_open_zones;
	int ret = 0;

	if (p->kind == TARGET_CHR) {
		iops_err_set(err, EINVAL, "fio: %s: zonemode=zbd needs a regular file or a block device", p->path);
		return -EINVAL;
	}
	if (p->kind == TARGET_BDEV)
		ret = target_zbd_device(p, job, &p->zbd, &dev_max, err);
	if (ret < 0)
		return ret;
	if (p->zbd) {
		if (job->zone_size && job->zone_size != p->zbd->zone_size) {
			iops_err_set(err, EINVAL, "%s: zonesize %llu != %llu", p->path, ULL(job->zone_size),
				     ULL(p->zbd->zone_size));
			return -EINVAL;
		}
		if (p->zbd->model == BLKZONE_HOST_MANAGED && job->rw_has_write && !job->direct) {
			iops_err_set(err, EINVAL, "Using direct I/O is mandatory for writing to ZBD drives");
			return -EINVAL;
		}
	} else {
		ret = target_zbd_emulate(p->path, p->cur_size, job, &p->zbd, err);
		if (ret < 0)
			return ret;
	}
	if (dev_max && want > dev_max) {
		iops_err_set(err, EINVAL, "Specified --max_open_zones (%u) is larger than max (%u)", want, dev_max);
		return -EINVAL;
	}
	p->zbd->max_open = want ? want : dev_max;
	if (p->zbd->max_open > ZBD_MAX_OPEN_ZONES) {
		iops_err_set(err, EINVAL, "'max_open_zones' value is larger than %u", ZBD_MAX_OPEN_ZONES);
		return -EINVAL;
	}
	return 0;
}

/* Job j's file f: its zones (shared, or a diskless job's own), fio's checks, then its range
 * aligned to them. */
static int target_zbd_file(struct target_set *ts, const struct job *job, struct target_job *tj, unsigned f,
			   FILE *info, struct iops_err *err)
{
	struct target_jobfile *jf = &tj->files[f];
	struct target_path *p = tj->diskless ? NULL : &ts->paths[jf->path];
	const char *name = p ? p->path : job->filenames && f < job->nr_files ? job->filenames[f] : job->name;
	uint64_t size = p ? p->cur_size : jf->io_start + jf->io_len;
	struct zbd_dev *dev;
	uint64_t old_off, old_len, wbs = job->bs_min[DDIR_WRITE], zs;
	unsigned note;
	int ret;

	if (!p) {
		ret = target_zbd_emulate(name, size, job, &tj->zbd[f], err);
		if (ret < 0)
			return ret;
		dev = tj->zbd[f];
	} else if (!p->zbd) {
		ret = target_zbd_make(p, job, err);
		if (ret < 0)
			return ret;
	} else if (job->zone_size && job->zone_size != p->zbd->zone_size) {
		iops_err_set(err, EINVAL, "%s: zonesize %llu != %llu", name, ULL(job->zone_size),
			     ULL(p->zbd->zone_size));
		return -EINVAL;
	} else if (job->max_open_zones && job->max_open_zones != p->zbd->max_open) {
		iops_err_set(err, EINVAL, "Different 'max_open_zones' values");
		return -EINVAL;
	}
	dev = p ? p->zbd : tj->zbd[f];
	zs = dev->zone_size;
	if (job->job_max_open_zones && !dev->max_open) {
		iops_err_set(err, EINVAL, "'job_max_open_zones' cannot be used without a global open zones limit");
		return -EINVAL;
	}
	if (job->zone_skip % zs) {
		iops_err_set(err, EINVAL, "%s: zoneskip %llu is not a multiple of the device zone size %llu.", name,
			     ULL(job->zone_skip), ULL(zs));
		return -EINVAL;
	}
	if (job->rw_has_trim && job->bs_min[DDIR_TRIM] != zs) {
		iops_err_set(err, EINVAL, "%s: trim block size %llu is not the zone size %llu", name,
			     ULL(job->bs_min[DDIR_TRIM]), ULL(zs));
		return -EINVAL;
	}
	for (int d = 0; d < DDIR_NR; d++)
		if (job->bs_max[d] > zs) {
			iops_err_set(err, EINVAL, "fio: %s: block size %llu is larger than the zone size %llu (zonemode=zbd)",
				     job->name, ULL(job->bs_max[d]), ULL(zs));
			return -EINVAL;
		}
	if (job->rw_has_write && dev->zones[0].cap < wbs) {
		iops_err_set(err, EINVAL, "zone capacity %llu smaller than minimum block size %llu",
			     ULL(dev->zones[0].cap), ULL(wbs));
		return -EINVAL;
	}
	if (jf->io_start >= size || (!job->rw_has_write && !job->rw_has_trim && !job->rw_random))
		return 0;	/* fio aligns the range of every job but sequential reads */
	ret = zbd_align_range(dev, &jf->io_start, &jf->io_len, &note, &old_off, &old_len);
	if (info && (note & 1))
		fprintf(info, "%s: rounded up offset from %llu to %llu\n", name, ULL(old_off), ULL(jf->io_start));
	if (info && (note & 2))
		fprintf(info, "%s: rounded down io_size from %llu to %llu\n", name, ULL(old_len), ULL(jf->io_len));
	if (ret < 0) {
		if (info)
			fflush(info);
		iops_err_set(err, EINVAL, "%s: io_size must be at least one zone", name);
		return -EINVAL;
	}
	return 0;
}

int target_zbd_plan(struct target_set *ts, FILE *info, struct iops_err *err)
{
	const struct fio_config *cfg = ts->cfg;

	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		const struct job *job = &cfg->jobs[j];
		struct target_job *tj = &ts->jobs[j];

		if (job->zone_mode != ZONE_MODE_ZBD || tj->error)
			continue;
		if (tj->diskless) {
			tj->zbd = calloc(tj->nr_files, sizeof(*tj->zbd));
			if (!tj->zbd) {
				iops_err_set(err, ENOMEM, "fio: out of memory for the zones");
				return -ENOMEM;
			}
		}
		for (unsigned f = 0; f < tj->nr_files; f++) {
			int ret = target_zbd_file(ts, job, tj, f, info, err);

			if (ret < 0)
				return ret;
		}
	}
	return 0;
}
