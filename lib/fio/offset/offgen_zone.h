/* SPDX-License-Identifier: MIT */
/* offgen_zone: zonemode=strided, fio 3.33's strided zones, as hooks around offgen's placement.
 *
 * A file's zones start at its I/O range start (offset=), zonerange bytes each, and follow one
 * another every zonerange + zoneskip bytes; past the end of the file the next zone is the
 * first one again. The job's I/O stays in the current zone of each file until it has moved
 * zonesize bytes (counted over the whole job, all files and directions, as fio does), then
 * the file whose turn it is moves to its next zone. Inside a zone, offgen places I/O as in a
 * file of zonerange bytes: sequential I/O starts at the zone start, random I/O uses the random
 * map (or the LFSR) of the zone's blocks, each once; a zone used up before zonesize bytes
 * (zonesize > zonerange) starts over. A zone that runs past the end of the file ends there
 * (it keeps at least the largest block size).
 *
 * The job's sizes, loops and io_size end it as without zones (zoneskip bytes do not count). */
#ifndef IOPS_OFFGEN_ZONE_H
#define IOPS_OFFGEN_ZONE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/err.h"
#include "fio/job.h"
#include "fio/offset/offgen.h"
#include "fio/opt_diag.h"

struct offgen_zone_file {
	uint64_t base;		/* the first zone's start: the file's I/O range start */
	uint64_t end;		/* the end of the file: zones wrap there */
	uint64_t start;		/* the current zone's start */
	bool fresh;		/* started (or restarted) and nothing placed in it yet */
};

struct offgen_zone {
	uint64_t range, size, skip;
	uint64_t min_len;		/* a zone is never shorter than this (the largest bs) */
	uint64_t bytes;			/* placed in the current zone (fio's per-job count) */
	unsigned nr_files;
	struct offgen_zone_file files[];
};

/* Check and complete the zone options of job j once every option is in: zonerange defaults
 * to zonesize, zoneskip=Nz becomes bytes. 0, or -EINVAL with fio's message in d. */
int offgen_zone_fixup(struct job *j, struct opt_diag *d);

/* The arithmetic, pure (for the tests too): */
/* The zone after the one at start: start + range + skip, or base when that is at or past
 * end (or overflows). */
uint64_t offgen_zone_next_start(uint64_t start, uint64_t range, uint64_t skip, uint64_t base,
				uint64_t end);
/* The bytes of the zone at start: range, at least min_len, never past end (0 at or past end). */
uint64_t offgen_zone_len(uint64_t start, uint64_t range, uint64_t min_len, uint64_t end);

/* Set up zones for og (after offgen_init) when job asks for zonemode=strided; nothing
 * otherwise. file_end[i]: the size of file i (the end of its zones). The random map and LFSR
 * are resized to a zone. 0, -EINVAL (err filled), -ENOMEM. og->zone is freed by
 * offgen_release(). */
int offgen_zone_setup(struct offgen *og, const struct job *job, const uint64_t *file_end,
		      struct iops_err *err);

/* Hooks for offgen.c: before placing an I/O in file i (moves it to its next zone when the
 * zone has had zonesize bytes), after placing one, and when file i's zone is used up (starts
 * it over: true; false when it was fresh, so that nothing fits in it). */
void offgen_zone_pick(struct offgen *og, unsigned i);
void offgen_zone_placed(struct offgen *og, unsigned i, uint64_t len);
bool offgen_zone_refill(struct offgen *og, unsigned i);

#endif
