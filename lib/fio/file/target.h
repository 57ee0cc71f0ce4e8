/* SPDX-License-Identifier: MIT */
/* target: the files and devices fio jobs do I/O on — planning (target.c), layout, opening,
 * cleanup (target_layout.c).
 *
 * Safety (ARCHITECTURE.md, Invariants): target_plan() only looks (stat, xattr, statvfs) and validates every
 * job's files before anything on the volume changes; target_layout() then creates and sizes
 * files. New files are made with O_CREAT|O_EXCL|O_NOFOLLOW and marked with the user.iops
 * xattr, so later runs can tell them from the user's own files. iops never writes into, extends
 * or unlinks a pre-existing regular file that does not carry the mark, and never writes to a
 * block or character device, unless the job sets allow_overwrite=1. A layout that fails or is
 * interrupted removes exactly the files (and directories) this run created and had not finished;
 * completed layouts stay for reuse (as fio). Filesystems without user xattrs: files created in
 * this run are usable by it, but a later run sees them as foreign (writes need
 * allow_overwrite=1); reads are always allowed. */
#ifndef IOPS_TARGET_H
#define IOPS_TARGET_H

#include <stdbool.h>
#include <stdint.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/types.h>

#include "core/ctl.h"
#include "core/err.h"
#include "fio/job.h"

struct zbd_dev;

#define TARGET_XATTR		"user.iops"
#define TARGET_XATTR_VALUE	"fio-layout"

enum target_kind { TARGET_MISSING, TARGET_REG, TARGET_BDEV, TARGET_CHR };

/* One distinct path used by one or more jobs. */
struct target_path {
	char *path;
	enum target_kind kind;
	bool owned;		/* carries the iops mark, or created by this run */
	bool created;		/* created by this run */
	bool laid_out;		/* layout done (or not needed) */
	bool need_data;		/* some job reads it: the layout writes data */
	bool written;		/* some job writes it */
	bool allowed;		/* every job needing permission has allow_overwrite */
	bool needs_permission;	/* some job writes or extends it */
	bool marked_failed;	/* the filesystem refused the xattr */
	bool sized_layout;	/* some job needs it laid out (not only create_on_open writers) */
	bool create_only;	/* missing, used only by create_on_open writers: created empty, silently */
	uint64_t cur_size;	/* at plan time (0 when missing) */
	uint64_t want_size;	/* largest size a job needs (regular files) */
	unsigned first_job;	/* the job whose layout creates/extends it */
	enum fallocate_mode fallocate;
	bool zero_buffers;

	/* trim: jobs trim it, none writes it (the refusal says "trim") */
	bool trim_only;
	bool no_create_fsync;	/* create_fsync=0 in the job that lays it out */
	bool mounted_ok;	/* block device: every writer has allow_mounted_write */
	bool owned_at_plan;	/* owned before this run (unlink_each_loop may remove it) */
	dev_t rdev;		/* block device: its number */
	/* fill_device: a job writes it until ENOSPC: no free space check, the layout only creates
	 * it; without a size (fill_open) its size is TARGET_FILL_BYTES, as far as the volume goes */
	bool fill, fill_open;
	struct zbd_dev *zbd;	/* zbd: its zones, shared by its zonemode=zbd jobs (NULL: none) */
};

#define TARGET_FILL_BYTES	(1ull << 62)	/* fill_device's size when none is given */

struct target_jobfile {
	unsigned path;		/* index in target_set.paths */
	uint64_t io_start, io_len;
};

struct target_job {
	struct target_jobfile *files;
	unsigned nr_files;
	uint64_t total_size;	/* for offgen: size= or the sum of the ranges */
	bool diskless;		/* engine does no I/O: no files are touched */
	struct zbd_dev **zbd;	/* zbd: a diskless job's own zones, per file (NULL: none) */
	int error;		/* EINVAL: fio's "you need to specify size=" (this job does not run) */
};

struct target_set {
	const struct fio_config *cfg;
	struct target_job *jobs;	/* cfg->nr_jobs */
	struct target_path *paths;
	unsigned nr_paths, cap_paths;
	unsigned *hash;			/* open addressing: path index + 1, 0 = empty */
	unsigned hash_cap;
	pthread_rwlock_t *locks;	/* lockfile: one per path (NULL when no job locks) */
	char **dirs;			/* directories created by this run, in creation order */
	unsigned nr_dirs, cap_dirs;
};

/* Look at every job's files and validate sizes, permissions and free space. Changes nothing
 * on disk. diskless[i]: job i's engine does no I/O. A job whose file has no size (missing
 * file, no size=) gets jobs[i].error = EINVAL and no files; the others go on, as in fio.
 * Returns 0 or -errno with err filled (refusals, free space, unusable paths). */
int target_plan(struct target_set *ts, const struct fio_config *cfg, const bool *diskless,
		struct iops_err *err);

/* zbd (target_zbd.c): after target_plan(), the zones of every file a zonemode=zbd job uses
 * (emulated from the size the file has now, or a zoned device's report), the checks fio
 * makes then, and the jobs' ranges aligned to whole zones (fio's notes on info, may be NULL).
 * 0 or -errno (err filled: fio's message). */
int target_zbd_plan(struct target_set *ts, FILE *info, struct iops_err *err);

/* Create and size the files that need it, job by job, printing fio's
 * "<job>: Laying out IO file(s) (...)" lines to info (may be NULL). On failure or stop,
 * removes what this run created. Returns 0, -EINTR (stopped), -errno. */
int target_layout(struct target_set *ts, FILE *info, struct ctl *ctl, struct iops_err *err);

/* After a failed or interrupted run: remove every file (and new directory) this run created,
 * laid out or not; files that were there before are never touched. */
void target_remove_created(struct target_set *ts);

/* Open job j's files into fds[] (nr_files of them) with the job's flags; invalidates the
 * page cache first when the job asks, then gives the fadvise_hint (failures there are only
 * warnings on warn, may be NULL). Returns 0 or -errno (err filled, nothing left open). */
int target_open(const struct target_set *ts, unsigned j, int *fds, FILE *warn, struct iops_err *err);

/* openfiles below the job's file count: target_open() opens none of them, the runner opens
 * each when the job first chooses it (target_open_file: the fd, or -errno with err filled)
 * and closes it once used up (target_close_file: fsync first for fsync_on_close / end_fsync
 * writers; *fd becomes -1). */
bool target_opens_lazily(const struct target_set *ts, unsigned j);
int target_open_file(const struct target_set *ts, unsigned j, unsigned f, FILE *warn, struct iops_err *err);
int target_close_file(const struct target_set *ts, unsigned j, int *fd);

/* invalidate=1: drop the cached pages of file f of job j (its I/O range; BLKFLSBUF on a
 * device), as at open; the runner calls it again each time the job starts the file over
 * (fio drops the cache on every pass, so a small file is not read from memory after the
 * first one). Failures are warnings on warn (may be NULL). */
void target_invalidate(const struct target_set *ts, unsigned j, unsigned f, int fd, FILE *warn);

/* fadvise_hint: posix_fadvise(RANDOM or SEQUENTIAL) over file f's I/O range, at open and at
 * each new pass (fio reopens its files then). A failure is a warning on warn (may be NULL). */
void target_advise(const struct target_set *ts, unsigned j, unsigned f, int fd, FILE *warn);

/* fsync_on_close, then close job j's fds. Returns 0 or the first -errno. */
int target_close(const struct target_set *ts, unsigned j, int *fds);

/* unlink_each_loop: remove file f of job j if iops owns it and create it again, empty and
 * marked (fio's next loop finds a new file). A foreign file is kept (warning). 0 or -errno. */
int target_recreate(const struct target_set *ts, unsigned j, unsigned f, FILE *warn);

/* pre_read: read job j's ranges once through the page cache (failures are warnings). */
void target_pre_read(const struct target_set *ts, unsigned j, FILE *warn);

/* unlink=1: remove job j's files that iops owns; foreign files are kept (warning on warn). */
void target_unlink(const struct target_set *ts, unsigned j, FILE *warn);

void target_release(struct target_set *ts);

/* True when path carries the iops mark. */
bool target_is_marked(const char *path);

#endif
