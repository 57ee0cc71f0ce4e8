/* SPDX-License-Identifier: MIT */
/* zbd: zonemode=zbd, fio 3.33's zoned block device rules, over zones kept in memory.
 *
 * A file (or device) is cut into zones of zonesize bytes; each has a write pointer (wp) and a
 * capacity (zonecapacity: the bytes writable from its start). On a regular file or a device
 * that is not zoned every zone is emulated as sequential-write-required and empty at the start
 * of the run; on a host-managed or host-aware device the zones come from its zone report
 * (conventional zones have no write pointer). The zones of a file are shared by every job of
 * the run that uses it, under one lock, so that a read job after a write job sees its data.
 *
 * For each I/O the offset generator proposes, zbd_adjust() applies fio's rules:
 * - a write goes to the write pointer of its zone. The zone must be open: without
 *   max_open_zones every zone is; with it a zone opens while fewer than that many are open (on
 *   the file, and for this job under job_max_open_zones), else the write goes to one of the open
 *   zones, picked by where the proposed offset lies in the job's range. A full zone is reset
 *   (wp back to its start, counted in the job's "zone resets") before it is written again; a
 *   write that fills a zone closes it. Past zone_reset_threshold (data below the write
 *   pointers, as a share of the job's range) one write in 1/zone_reset_frequency resets its
 *   zone first. A write is cut at the zone's capacity, in multiples of the smallest bs.
 * - a read stays below its zone's write pointer: a zone with less than bs of data sends it to
 *   the next zone with data (sequential) or the nearest one (random); random reads are folded
 *   into the written part, read_beyond_wp lets reads go anywhere. No zone with data: the pass
 *   ends.
 * - a trim (bs = the zone size) resets its zone; random trims go to zones with data.
 * - a mixed job's read becomes a write while the file has no data at all.
 * - the job's range is aligned to whole zones (except for sequential read jobs), with fio's
 *   notes. */
#ifndef IOPS_ZBD_H
#define IOPS_ZBD_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "fio/job.h"
#include "sys/blkzone.h"

#define ZBD_MAX_OPEN_ZONES	4096u

struct zbd_zone {
	uint64_t start, wp, cap;	/* cap: writable bytes from start */
	bool has_wp;			/* false: a conventional zone */
	bool offline;
	bool open;
};

struct zbd_dev {
	pthread_mutex_t lock;
	enum blkzone_model model;
	uint64_t zone_size;
	unsigned nr_zones;
	unsigned max_open;		/* 0: no limit (and open zones are not tracked) */
	unsigned nr_open;
	unsigned open_list[ZBD_MAX_OPEN_ZONES];	/* zone indexes; stale past nr_open, as fio's */
	uint64_t data_bytes;		/* below the write pointers */
	uint32_t write_cnt;		/* writes left before zone_reset_frequency resets a zone */
	struct zbd_zone zones[];	/* nr_zones + 1: the last one starts at the end */
};

/* One file of a job. */
struct zbd_file {
	struct zbd_dev *dev;
	uint64_t off, len;		/* the job's I/O range in the file */
	unsigned min_zone, max_zone;	/* its zones: [min_zone, max_zone) */
};

/* One job's view. */
struct zbd_job {
	unsigned nr_open, job_max_open;
	bool random, read_beyond_wp;
	bool mixed;			/* reads and writes */
	uint64_t min_bs[DDIR_NR];
	double reset_threshold, reset_frequency;
	uint64_t resets;		/* the job's "zone resets" */
	int err;			/* a failed reset (-errno) ends the job */
	const int *fds;			/* the job's fds, by file: a zoned device's resets use them */
	unsigned nr_files;
	struct zbd_file files[];
};

/* Emulated zones over size bytes: zone_size each (the last one may be short), cap writable
 * bytes in each (0: zone_size), all empty. NULL when out of memory. */
struct zbd_dev *zbd_dev_emulate(uint64_t size, uint64_t zone_size, uint64_t cap);
/* The zones of a device's report (ents, nr of them, all zone_size long but maybe the last). */
struct zbd_dev *zbd_dev_from_report(const struct blkzone_ent *ents, unsigned nr, uint64_t zone_size,
				    enum blkzone_model model);
void zbd_dev_free(struct zbd_dev *dev);

/* The zone holding off (nr_zones: at or past the end). */
unsigned zbd_zone_of(const struct zbd_dev *dev, uint64_t off);

/* fio's alignment of a job's range (off, len) to whole zones of dev for a job that writes or
 * reads at random: the start rounded up and the end down to zone boundaries. 0 (unchanged or
 * adjusted: *note 1 for "rounded up offset", 2 for "rounded down io_size", 3 both) or -EINVAL
 * when less than a zone is left ("io_size must be at least one zone"). */
int zbd_align_range(const struct zbd_dev *dev, uint64_t *off, uint64_t *len, unsigned *note,
		    uint64_t *old_off, uint64_t *old_len);

/* A job's zone state for nr_files files; NULL when out of memory. Free with free(). */
struct zbd_job *zbd_job_new(const struct job *job, unsigned nr_files);
/* File i of zj: dev, the job's range there (aligned). */
void zbd_job_file(struct zbd_job *zj, unsigned i, struct zbd_dev *dev, uint64_t off, uint64_t len);
/* Each pass of a writing job starts the reset-frequency count again (fio's file reset). */
void zbd_job_pass(struct zbd_job *zj, bool writes);

/* The direction of a mixed job's next I/O in file i: a read becomes a write while the file
 * holds no data yet (unless read_beyond_wp), as in fio. */
enum ddir zbd_ddir(struct zbd_job *zj, unsigned i, enum ddir d);

/* Where a sequential job goes on in file i after an I/O that ended at off (absolute): off, or
 * the end of the zone when off is that zone's capacity end (zonecapacity < zonesize). */
uint64_t zbd_seq_next(const struct zbd_job *zj, unsigned i, uint64_t off);

/* Apply the rules to the I/O of direction d proposed at *off, *len in file i (absolute
 * offsets), and for a write move the write pointer past it; a trim of a zone with a write
 * pointer resets that zone (a random one goes to the nearest zone with data) and is nothing
 * more (*reset_only true; false for a conventional zone: a real trim). 0: go (off, len updated), 1: no
 * zone can take it (the pass ends), -errno: a reset failed (zj->err set). */
int zbd_adjust(struct zbd_job *zj, unsigned i, enum ddir d, uint64_t *off, uint64_t *len, bool *reset_only);

#endif
