/* SPDX-License-Identifier: MIT */
/* offgen_zone: zonemode=strided (see offgen_zone.h). */
#include "fio/offset/offgen_zone.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* *z zones of zs bytes into *b bytes (and *z cleared); -EINVAL when that overflows. */
static int offgen_zone_bytes(struct opt_diag *d, const char *name, uint64_t *z, uint64_t *b, uint64_t zs)
{
	if (*z > UINT64_MAX / zs) {
		opt_diag_add(d, false, "fio: %s=%lluz is too large", name, (unsigned long long)*z);
		return -EINVAL;
	}
	*b = *z * zs;
	*z = 0;
	return 0;
}

/* zbd: size, offset, offset_increment given in zones (Nz) become bytes. */
static int offgen_zone_units(struct job *j, struct opt_diag *d)
{
	static const char *const names[3] = { "size", "offset", "offset_increment" };
	uint64_t *z[3] = { &j->size_z, &j->offset_z, &j->offset_increment_z };
	uint64_t *b[3] = { &j->size, &j->offset, &j->offset_increment };

	for (int i = 0; i < 3; i++) {
		if (!*z[i])
			continue;
		if (j->zone_mode != ZONE_MODE_ZBD || !j->zone_size) {
			opt_diag_add(d, false, "fio: %s=%lluz (zones) without zonemode=zbd and zonesize= is not supported by iops",
				     names[i], (unsigned long long)*z[i]);
			return -EINVAL;
		}
		if (offgen_zone_bytes(d, names[i], z[i], b[i], j->zone_size))
			return -EINVAL;
	}
	return 0;
}

int offgen_zone_fixup(struct job *j, struct opt_diag *d)
{
	if (offgen_zone_units(j, d))
		return -EINVAL;
	if (j->zone_mode == ZONE_MODE_ZBD) {	/* zbd: fio/offset/zbd.c; the zones are checked at planning */
		if (j->verify) {
			opt_diag_add(d, false, "fio: zonemode=zbd with verify is not supported by iops");
			return -EINVAL;
		}
		if (j->rw_has_trim && j->rw_has_write) {
			opt_diag_add(d, false, "fio: zonemode=zbd with trimwrite / randtrimwrite is not supported by iops");
			return -EINVAL;
		}
		if (j->rw_has_trim && (j->bs_min[DDIR_TRIM] != j->bs_max[DDIR_TRIM] || j->bssplit)) {
			opt_diag_add(d, false, "bsrange and bssplit are not allowed for trim with zonemode=zbd");
			return -EINVAL;
		}
		if (j->zone_skip_z && j->zone_size)
			return offgen_zone_bytes(d, "zoneskip", &j->zone_skip_z, &j->zone_skip, j->zone_size);
		return 0;
	}
	if (j->zone_mode == ZONE_MODE_NONE) {
		if (j->zone_size) {
			opt_diag_add(d, false, "fio: --zonemode=none and --zonesize are not compatible.");
			return -EINVAL;
		}
		return 0;	/* zonerange and zoneskip alone are ignored, as in fio */
	}
	if (!j->zone_size) {
		opt_diag_add(d, false, "fio: --zonesize must be specified when using --zonemode=strided.");
		return -EINVAL;
	}
	if (!j->zone_range)
		j->zone_range = j->zone_size;
	if (j->zone_skip_z)
		return offgen_zone_bytes(d, "zoneskip", &j->zone_skip_z, &j->zone_skip, j->zone_size);
	return 0;
}

uint64_t offgen_zone_next_start(uint64_t start, uint64_t range, uint64_t skip, uint64_t base,
				uint64_t end)
{
	uint64_t step = range > UINT64_MAX - skip ? UINT64_MAX : range + skip;

	if (step > UINT64_MAX - start || start + step >= end)
		return base;
	return start + step;
}

uint64_t offgen_zone_len(uint64_t start, uint64_t range, uint64_t min_len, uint64_t end)
{
	uint64_t len = range > min_len ? range : min_len;

	if (start >= end)
		return 0;
	return len < end - start ? len : end - start;
}

/* Point file i of og at its current zone, sized for it, and start the zone afresh. */
static void offgen_zone_enter(struct offgen *og, unsigned i)
{
	struct offgen_zone *z = og->zone;
	struct offgen_zone_file *zf = &z->files[i];
	struct offgen_file *f = &og->files[i];

	f->io_start = zf->start;
	f->io_len = offgen_zone_len(zf->start, z->range, z->min_len, zf->end);
	if (f->map)
		f->nr_blocks = f->io_len / og->map_unit;
	if (og->use_lfsr) {
		uint64_t blocks = f->io_len / og->map_unit;

		if (blocks != f->lfsr.n) {
			memset(&f->lfsr, 0, sizeof(f->lfsr));	/* n = 0: nothing fits */
			if (blocks)
				(void)lfsr_init(&f->lfsr, blocks, og->seed_block);	/* fio: the block seed */
		}
	}
	offgen_reset_file(og, i);
	zf->fresh = true;
}

int offgen_zone_setup(struct offgen *og, const struct job *job, const uint64_t *file_end,
		      struct iops_err *err)
{
	struct offgen_zone *z;

	if (job->zone_mode != ZONE_MODE_STRIDED)
		return 0;
	if (!job->zone_size || !job->zone_range) {
		iops_err_set(err, EINVAL, "fio: %s: zonemode=strided needs zonesize", job->name);
		return -EINVAL;
	}
	z = calloc(1, sizeof(*z) + og->nr_files * sizeof(z->files[0]));
	if (!z)
		goto nomem;
	z->range = job->zone_range;
	z->size = job->zone_size;
	z->skip = job->zone_skip;
	z->min_len = og->max_bs;
	z->nr_files = og->nr_files;
	og->zone = z;
	for (unsigned i = 0; i < og->nr_files; i++) {
		struct offgen_zone_file *zf = &z->files[i];
		struct offgen_file *f = &og->files[i];
		uint64_t range_end = f->io_start + f->io_len;

		zf->base = zf->start = f->io_start;
		zf->end = file_end && file_end[i] > range_end ? file_end[i] : range_end;
		if (f->map) {	/* one zone's blocks: the first zone is the longest */
			uint64_t blocks = offgen_zone_len(zf->base, z->range, z->min_len, zf->end) / og->map_unit;
			uint64_t *map;

			if (blocks > OFFGEN_MAX_MAP_BLOCKS) {
				iops_err_set(err, EINVAL, "fio: %s: zone too large for the random map; use norandommap=1",
					     job->name);
				return -EINVAL;
			}
			map = calloc((size_t)((blocks + 63) / 64) + 1, sizeof(uint64_t));
			if (!map)
				goto nomem;
			free(f->map);
			f->map = map;
			f->nr_blocks = blocks;
		}
		offgen_zone_enter(og, i);
	}
	return 0;

nomem:
	iops_err_set(err, ENOMEM, "fio: %s: out of memory for the zones", job->name);
	return -ENOMEM;
}

void offgen_zone_pick(struct offgen *og, unsigned i)
{
	struct offgen_zone *z = og->zone;
	struct offgen_zone_file *zf = &z->files[i];

	if (z->bytes < z->size)
		return;
	z->bytes = 0;
	zf->start = offgen_zone_next_start(zf->start, z->range, z->skip, zf->base, zf->end);
	offgen_zone_enter(og, i);
}

void offgen_zone_placed(struct offgen *og, unsigned i, uint64_t len)
{
	struct offgen_zone *z = og->zone;

	z->bytes = z->bytes > UINT64_MAX - len ? UINT64_MAX : z->bytes + len;
	z->files[i].fresh = false;
}

bool offgen_zone_refill(struct offgen *og, unsigned i)
{
	if (og->zone->files[i].fresh)
		return false;	/* nothing fits in this zone */
	offgen_reset_file(og, i);
	og->zone->files[i].fresh = true;
	return true;
}
