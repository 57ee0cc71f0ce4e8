/* SPDX-License-Identifier: MIT */
/* target: the path table and target_plan(): look at every job's files and validate them before
 * anything changes (target_layout.c does the steps that touch the volume). */
#include "fio/file/target.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "core/frand.h"
#include "fio/offset/fseed.h"
#include "fio/offset/zbd.h"
#include "core/err.h"
#include "sys/mountinfo.h"

/* ---- path table ------------------------------------------------------------------------- */

static uint64_t target_hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ull;
	}
	return h;
}

static int target_hash_grow(struct target_set *ts)
{
	unsigned cap = ts->hash_cap ? ts->hash_cap * 2 : 64;
	unsigned *h = calloc(cap, sizeof(*h));

	if (!h)
		return -ENOMEM;
	for (unsigned i = 0; i < ts->nr_paths; i++) {
		uint64_t k = target_hash_str(ts->paths[i].path) & (cap - 1);

		while (h[k])
			k = (k + 1) & (cap - 1);
		h[k] = i + 1;
	}
	free(ts->hash);
	ts->hash = h;
	ts->hash_cap = cap;
	return 0;
}

/* Index of path in the table, inserting it (zeroed, kind unknown) when new: *is_new tells. */
static int target_path_get(struct target_set *ts, const char *path, bool *is_new)
{
	uint64_t k;
	unsigned idx;

	if ((uint64_t)(ts->nr_paths + 1) * 2 > ts->hash_cap && target_hash_grow(ts))
		return -ENOMEM;
	k = target_hash_str(path) & (ts->hash_cap - 1);
	while (ts->hash[k]) {
		if (!strcmp(ts->paths[ts->hash[k] - 1].path, path)) {
			*is_new = false;
			return (int)(ts->hash[k] - 1);
		}
		k = (k + 1) & (ts->hash_cap - 1);
	}
	if (ts->nr_paths == ts->cap_paths) {
		unsigned cap = ts->cap_paths ? ts->cap_paths * 2 : 16;
		struct target_path *p = realloc(ts->paths, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		ts->paths = p;
		ts->cap_paths = cap;
	}
	idx = ts->nr_paths;
	memset(&ts->paths[idx], 0, sizeof(ts->paths[idx]));
	ts->paths[idx].path = strdup(path);
	if (!ts->paths[idx].path)
		return -ENOMEM;
	ts->paths[idx].allowed = true;
	ts->nr_paths++;
	ts->hash[k] = idx + 1;
	*is_new = true;
	return (int)idx;
}

bool target_is_marked(const char *path)
{
	char buf[32];

	return getxattr(path, TARGET_XATTR, buf, sizeof(buf)) > 0;
}

/* Fill kind/size/owned of a new entry from the filesystem. */
static int target_probe(struct target_path *p, struct iops_err *err)
{
	struct stat st;

	if (!strcmp(p->path, "-")) {
		iops_err_set(err, EINVAL, "fio: filename=- (I/O on stdin/stdout) is not supported by iops; name a file or device");
		return -EINVAL;
	}

	if (stat(p->path, &st) < 0) {
		struct stat lst;

		if (errno != ENOENT) {
			iops_err_set(err, errno, "fio: cannot access '%s': %s", p->path, err_str(errno));
			return -errno;
		}
		if (lstat(p->path, &lst) == 0) {
			iops_err_set(err, ELOOP, "fio: '%s' is a dangling symbolic link; not creating a file through it",
				     p->path);
			return -ELOOP;
		}
		p->kind = TARGET_MISSING;
		return 0;
	}
	if (S_ISREG(st.st_mode)) {
		p->kind = TARGET_REG;
		p->cur_size = (uint64_t)st.st_size;
		p->owned = target_is_marked(p->path);
	} else if (S_ISBLK(st.st_mode)) {
		int fd = open(p->path, O_RDONLY | O_CLOEXEC);
		uint64_t bytes = 0;

		if (fd < 0) {
			iops_err_set(err, errno, "fio: cannot open '%s': %s", p->path, err_str(errno));
			return -errno;
		}
		if (ioctl(fd, BLKGETSIZE64, &bytes) < 0) {
			int e = errno;

			close(fd);
			iops_err_set(err, e, "fio: cannot get the size of '%s': %s", p->path, err_str(e));
			return -e;
		}
		close(fd);
		p->kind = TARGET_BDEV;
		p->cur_size = bytes;
		p->rdev = st.st_rdev;
	} else if (S_ISCHR(st.st_mode)) {
		p->kind = TARGET_CHR;
		/* /dev/null and /dev/zero (mem 1:3, 1:5) keep no data: writing them loses nothing */
		p->owned = major(st.st_rdev) == 1 && (minor(st.st_rdev) == 3 || minor(st.st_rdev) == 5);
	} else if (S_ISDIR(st.st_mode)) {
		iops_err_set(err, EISDIR, "fio: '%s' is a directory, not a file", p->path);
		return -EISDIR;
	} else {
		iops_err_set(err, EINVAL, "fio: '%s' is not a regular file or a device", p->path);
		return -EINVAL;
	}
	p->want_size = p->cur_size;
	return 0;
}

/* ---- planning --------------------------------------------------------------------------- */

/* fio's "you need to specify size=": a failure of this job only (the others run). */
static int target_size_error(const struct job *job, struct iops_err *err)
{
	(void)job;
	(void)err;
	return -ENODATA;
}

static uint64_t target_pct(uint64_t v, unsigned pct)
{
	return (uint64_t)((unsigned __int128)v * pct / 100u);
}

/* The smallest block size of the job's directions (fio's td_min_bs()). */
static uint64_t target_min_bs(const struct job *job)
{
	uint64_t bs = 0;

	for (int d = 0; d < DDIR_NR; d++) {
		bool used = d == DDIR_READ ? job->rw_has_read : d == DDIR_WRITE ? job->rw_has_write : job->rw_has_trim;

		if (used && job->bs_min[d] && (!bs || job->bs_min[d] < bs))
			bs = job->bs_min[d];
	}
	return bs;
}

/* offset_increment: clone N of numjobs starts N increments after offset (a percentage is of
 * the file's size; the sum is rounded up to offset_align or the smallest bs, as fio). */
static int target_add_increment(const struct job *job, uint64_t existing, uint64_t *off,
				struct iops_err *err)
{
	uint64_t inc = job->offset_increment;

	if (job->offset_increment_pct)
		inc = target_pct(existing, job->offset_increment_pct);
	if (!inc || !job->subjob)
		return 0;
	if (inc > (UINT64_MAX - *off) / job->subjob) {
		iops_err_set(err, EOVERFLOW, "fio: %s: offset + offset_increment x %u overflows", job->name,
			     job->subjob);
		return -EOVERFLOW;
	}
	*off += inc * job->subjob;
	return 0;
}

/* A file's size for this job, and the range: fio's size / filesize / offset rules. */
static int target_plan_file(struct target_set *ts, const struct job *job, unsigned j, struct frand *r,
			    struct target_jobfile *jf, struct iops_err *err)
{
	struct target_path *p = &ts->paths[jf->path];
	uint64_t existing = p->kind == TARGET_BDEV ? p->cur_size : p->want_size;
	uint64_t fsize, off;
	bool fill_open = job->fill_device && !job->filesize_min && !job->size_pct && !job->size &&
			 p->kind != TARGET_BDEV && p->kind != TARGET_CHR;

	if (fill_open) {
		/* fill_device: until the volume is full (split, so that the job's total fits) */
		fsize = TARGET_FILL_BYTES / (job->nr_files ? job->nr_files : 1);
	} else if (job->filesize_min) {
		uint64_t lo = job->filesize_min, hi = job->filesize_max > lo ? job->filesize_max : lo;

		fsize = lo;
		if (hi > lo) {	/* fio's draw, rounded down to the job's smallest bs */
			uint64_t unit = job->bs_min[DDIR_READ];

			for (int d = 1; d < DDIR_NR; d++)
				if (job->bs_min[d] && job->bs_min[d] < unit)
					unit = job->bs_min[d];
			fsize = lo + (uint64_t)((double)(hi - lo) * ((double)frand_next(r) / frand_range(r)));
			if (unit)
				fsize -= fsize % unit;
		}
	} else if (job->size_pct) {
		if (!existing)
			return target_size_error(job, err);
		fsize = target_pct(existing, job->size_pct);
	} else if (job->size) {
		fsize = job->size / job->nr_files;
	} else {
		fsize = 0;
	}
	if (job->file_append && p->kind != TARGET_BDEV && p->kind != TARGET_CHR) {
		off = p->cur_size;	/* fio: the file's size, whatever offset says */
	} else {
		off = job->offset_pct ? target_pct(existing, job->offset_pct) : job->offset;
		if (target_add_increment(job, existing, &off, err) < 0)
			return -EOVERFLOW;
		if (job->offset_pct || job->offset_increment_pct) {
			uint64_t a = job->offset_align ? job->offset_align : target_min_bs(job);

			/* fio rounds a percentage offset up to offset_align (or the smallest bs) */
			if (a && off % a) {
				if (off > UINT64_MAX - a) {
					iops_err_set(err, EOVERFLOW, "fio: %s: offset overflows", job->name);
					return -EOVERFLOW;
				}
				off += a - off % a;
			}
		}
	}
	if (!job->filesize_min && !job->size_pct && !job->size && !fill_open) {
		if (existing <= off)
			return target_size_error(job, err);
		fsize = existing - off;
	}
	if (fsize == 0)
		return target_size_error(job, err);

	if (p->kind == TARGET_BDEV || p->kind == TARGET_CHR) {
		if (p->kind == TARGET_BDEV) {
			if (off >= p->cur_size) {
				iops_err_set(err, EINVAL, "fio: %s: offset %llu is beyond the end of '%s' (%llu bytes)",
					     job->name, (unsigned long long)off, p->path,
					     (unsigned long long)p->cur_size);
				return -EINVAL;
			}
			if (fsize > p->cur_size - off)
				fsize = p->cur_size - off;
		}
	} else {
		if (off > UINT64_MAX - fsize) {
			iops_err_set(err, EOVERFLOW, "fio: %s: offset + size overflows", job->name);
			return -EOVERFLOW;
		}
		if (off + fsize > p->want_size) {
			if (p->first_job == UINT_MAX) {
				p->first_job = j;
				p->fallocate = job->fallocate;
				p->zero_buffers = job->zero_buffers;
			}
			p->want_size = off + fsize;
		}
		p->fill = p->fill || job->fill_device;
		p->fill_open = p->fill_open || fill_open;
	}
	jf->io_start = off;
	jf->io_len = fsize;
	return 0;
}

/* The nearest existing ancestor directory of path (for statvfs), into out. */
static int target_existing_dir(const char *path, char *out, size_t out_len)
{
	int n = snprintf(out, out_len, "%s", path);
	struct stat st;

	if (n < 0 || (size_t)n >= out_len)
		return -ENAMETOOLONG;
	for (;;) {
		char *slash = strrchr(out, '/');

		if (!slash) {
			snprintf(out, out_len, ".");
			return 0;
		}
		if (slash == out) {
			out[1] = '\0';
			return 0;
		}
		*slash = '\0';
		if (stat(out, &st) == 0 && S_ISDIR(st.st_mode))
			return 0;
	}
}

struct target_fs_need {
	dev_t dev;
	uint64_t need, avail;
	char dir[PATH_MAX];
};

static int target_check_space(struct target_set *ts, struct iops_err *err)
{
	struct target_fs_need *fs = NULL;
	unsigned nr_fs = 0;
	int ret = 0;

	for (unsigned i = 0; i < ts->nr_paths; i++) {
		struct target_path *p = &ts->paths[i];
		char dir[PATH_MAX];
		struct statvfs sv;
		struct stat st;
		unsigned k;

		if (p->kind != TARGET_MISSING && p->kind != TARGET_REG)
			continue;
		if (p->want_size <= p->cur_size || p->fill)	/* fill_device: ENOSPC ends the job */
			continue;
		if (target_existing_dir(p->path, dir, sizeof(dir)) < 0 || stat(dir, &st) < 0 ||
		    statvfs(dir, &sv) < 0)
			continue;	/* creation will report the real problem */
		for (k = 0; k < nr_fs; k++)
			if (fs[k].dev == st.st_dev)
				break;
		if (k == nr_fs) {
			struct target_fs_need *n = realloc(fs, (nr_fs + 1) * sizeof(*fs));

			if (!n) {
				free(fs);
				iops_err_set(err, ENOMEM, "fio: out of memory");
				return -ENOMEM;
			}
			fs = n;
			fs[k].dev = st.st_dev;
			fs[k].need = 0;
			fs[k].avail = (uint64_t)sv.f_bavail * (uint64_t)sv.f_frsize;
			snprintf(fs[k].dir, sizeof(fs[k].dir), "%s", dir);
			nr_fs++;
		}
		fs[k].need += p->want_size - p->cur_size;
		if (fs[k].need > fs[k].avail) {
			iops_err_set(err, ENOSPC,
				     "fio: not enough free space for '%s': the run needs %llu more bytes on the filesystem of '%s', %llu are available",
				     p->path, (unsigned long long)fs[k].need, fs[k].dir,
				     (unsigned long long)fs[k].avail);
			ret = -ENOSPC;
			break;
		}
	}
	free(fs);
	return ret;
}

/* allow_mounted_write: a block device holding a mounted filesystem is not written. */
static int target_check_mounted(const struct target_set *ts, struct iops_err *err)
{
	for (unsigned i = 0; i < ts->nr_paths; i++) {
		const struct target_path *p = &ts->paths[i];
		struct mountinfo_entry *me;
		bool mounted;

		if (p->kind != TARGET_BDEV || p->mounted_ok)
			continue;
		me = malloc(sizeof(*me));
		if (!me) {
			iops_err_set(err, ENOMEM, "fio: out of memory");
			return -ENOMEM;
		}
		mounted = mountinfo_lookup(p->rdev, me) == 0;
		free(me);
		if (mounted) {
			iops_err_set(err, EPERM, "fio: %s appears mounted, and 'allow_mounted_write' isn't set. Aborting.",
				     p->path);
			return -EPERM;
		}
	}
	return 0;
}

static int target_check_permissions(const struct target_set *ts, struct iops_err *err)
{
	for (unsigned i = 0; i < ts->nr_paths; i++) {
		const struct target_path *p = &ts->paths[i];

		if (!p->needs_permission || p->allowed)
			continue;
		if (p->kind == TARGET_REG && !p->owned) {
			if (p->written)
				iops_err_set(err, EPERM,
					     "fio: refusing to %s existing file '%s': iops did not create it (set allow_overwrite=1 to allow)",
					     p->trim_only ? "trim" : "write into", p->path);
			else
				iops_err_set(err, EPERM,
					     "fio: refusing to extend existing file '%s' from %llu to %llu bytes: iops did not create it (set allow_overwrite=1 to allow)",
					     p->path, (unsigned long long)p->cur_size,
					     (unsigned long long)p->want_size);
			return -EPERM;
		}
		if ((p->kind == TARGET_BDEV || (p->kind == TARGET_CHR && !p->owned)) && p->written) {
			iops_err_set(err, EPERM,
				     "fio: refusing to %s device '%s': its data would be destroyed (set allow_overwrite=1 to allow)",
				     p->trim_only ? "trim" : "write to", p->path);
			return -EPERM;
		}
	}
	return 0;
}

int target_plan(struct target_set *ts, const struct fio_config *cfg, const bool *diskless,
		struct iops_err *err)
{
	int ret;

	memset(ts, 0, sizeof(*ts));
	ts->cfg = cfg;
	ts->jobs = calloc(cfg->nr_jobs ? cfg->nr_jobs : 1, sizeof(*ts->jobs));
	if (!ts->jobs)
		goto nomem;

	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		const struct job *job = &cfg->jobs[j];
		struct target_job *tj = &ts->jobs[j];
		unsigned nr = job->nr_files ? job->nr_files : 1;
		struct frand r;
		uint64_t sum = 0, seeds[FSEED_NR];

		fseed_job(seeds, job);	/* fio's file size generator */
		frand_init(&r, seeds[FSEED_FILE_SIZE], fseed_use64(job));
		tj->diskless = diskless && diskless[j];
		tj->files = calloc(nr, sizeof(*tj->files));
		if (!tj->files)
			goto nomem;
		tj->nr_files = nr;
		if (tj->diskless) {
			uint64_t each = job->nr_files ? job->size / nr : job->size;
			uint64_t off = job->offset;

			if (target_add_increment(job, 0, &off, err) < 0) {
				ret = -EOVERFLOW;
				goto fail;
			}
			for (unsigned f = 0; f < nr; f++) {
				tj->files[f].io_start = off;
				tj->files[f].io_len = job->filesize_min ? job->filesize_min : each;
				/* fio: filesize= is the file's size, so the range ends there */
				if (job->filesize_min > off && off)
					tj->files[f].io_len = job->filesize_min - off;
				sum += tj->files[f].io_len;
			}
			tj->total_size = job->size ? job->size : sum;
			continue;
		}
		if (!job->filenames || job->nr_files == 0) {
			iops_err_set(err, EINVAL, "fio: %s: no file to do I/O on", job->name);
			ret = -EINVAL;
			goto fail;
		}
		for (unsigned f = 0; f < nr; f++) {
			bool is_new;
			struct target_path *p;
			int idx = target_path_get(ts, job->filenames[f], &is_new);

			if (idx < 0)
				goto nomem;
			p = &ts->paths[idx];
			if (is_new) {
				p->first_job = UINT_MAX;
				ret = target_probe(p, err);
				if (ret < 0)
					goto fail;
			}
			if (is_new) {
				p->owned_at_plan = p->owned;
				p->mounted_ok = true;
			}
			if (p->kind == TARGET_MISSING && job->file_create_denied) {
				iops_err_set(err, EPERM, "fio: file creation disallowed by allow_file_create=0 ('%s')",
					     p->path);
				ret = -EPERM;
				goto fail;
			}
			if (p->kind == TARGET_BDEV && (job->rw_has_write || job->rw_has_trim) && !job->allow_mounted_write)
				p->mounted_ok = false;
			tj->files[f].path = (unsigned)idx;
			ret = target_plan_file(ts, job, j, &r, &tj->files[f], err);
			if (ret == -ENODATA) {
				tj->error = EINVAL;
				break;
			}
			if (ret < 0)
				goto fail;
			if (!job->create_on_open || job->rw_has_read)
				p->sized_layout = true;
			if (job->rw_has_read || job->verify_only || (job->overwrite && job->rw_has_write))
				p->need_data = true;	/* verify_only reads, never writes; overwrite: fio lays
							 * a writer's files out in full */
			if (p->first_job == j && job->create_no_fsync)
				p->no_create_fsync = true;
			if (job->rw_has_trim && !p->written && !job->verify_only)	/* trim: destroys data as a write */
				p->trim_only = !job->rw_has_write;
			else if (job->rw_has_write && !job->verify_only)
				p->trim_only = false;
			if ((job->rw_has_write || job->rw_has_trim) && !job->verify_only)
				p->written = true;
			if (((job->rw_has_write || job->rw_has_trim) && !job->verify_only) || p->want_size > p->cur_size) {
				p->needs_permission = true;
				if (!job->allow_overwrite)
					p->allowed = false;
			}
			sum += tj->files[f].io_len;
		}
		tj->total_size = (job->size && !job->size_pct) ? job->size : sum;
		if (tj->error)
			tj->nr_files = 0;
	}
	for (unsigned i = 0; i < ts->nr_paths; i++) {
		struct target_path *p = &ts->paths[i];

		if (p->kind == TARGET_MISSING && p->first_job == UINT_MAX)
			p->first_job = 0;
		/* fio's create_on_open: no layout; the file appears empty and grows with the writes */
		p->create_only = p->kind == TARGET_MISSING && !p->sized_layout;
	}
	for (unsigned j = 0; j < cfg->nr_jobs && !ts->locks; j++)
		if (cfg->jobs[j].lockfile != JOB_LOCK_NONE && ts->nr_paths) {	/* lockfile */
			ts->locks = calloc(ts->nr_paths, sizeof(*ts->locks));
			if (!ts->locks)
				goto nomem;
			for (unsigned i = 0; i < ts->nr_paths; i++)
				pthread_rwlock_init(&ts->locks[i], NULL);
		}
	ret = target_check_mounted(ts, err);
	if (ret < 0)
		goto fail;
	ret = target_check_permissions(ts, err);
	if (ret < 0)
		goto fail;
	ret = target_check_space(ts, err);
	if (ret < 0)
		goto fail;
	return 0;

nomem:
	iops_err_set(err, ENOMEM, "fio: out of memory while planning files");
	ret = -ENOMEM;
fail:
	target_release(ts);
	return ret;
}

/* ---- release ---------------------------------------------------------------------------- */

void target_release(struct target_set *ts)
{
	if (ts->jobs && ts->cfg)
		for (unsigned j = 0; j < ts->cfg->nr_jobs; j++) {
			free(ts->jobs[j].files);
			for (unsigned f = 0; ts->jobs[j].zbd && f < ts->jobs[j].nr_files; f++)
				zbd_dev_free(ts->jobs[j].zbd[f]);	/* zbd */
			free(ts->jobs[j].zbd);
		}
	free(ts->jobs);
	for (unsigned i = 0; i < ts->nr_paths; i++) {
		free(ts->paths[i].path);
		zbd_dev_free(ts->paths[i].zbd);	/* zbd */
	}
	free(ts->paths);
	free(ts->hash);
	for (unsigned i = 0; ts->locks && i < ts->nr_paths; i++)
		pthread_rwlock_destroy(&ts->locks[i]);
	free(ts->locks);
	for (unsigned i = 0; i < ts->nr_dirs; i++)
		free(ts->dirs[i]);
	free(ts->dirs);
	memset(ts, 0, sizeof(*ts));
}
