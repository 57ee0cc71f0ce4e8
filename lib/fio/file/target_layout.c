/* SPDX-License-Identifier: MIT */
/* target_layout: the steps after target_plan() that touch the volume: create and size the
 * files (undoing what this run created if it fails), open them for a job, close, unlink. */
#include "fio/file/target.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "core/rng.h"
#include "engine/engine.h"
#include "core/err.h"

#define TARGET_CHUNK_BYTES	(1024u * 1024u)

/* ---- layout ----------------------------------------------------------------------------- */

static int target_remember_dir(struct target_set *ts, const char *dir)
{
	if (ts->nr_dirs == ts->cap_dirs) {
		unsigned cap = ts->cap_dirs ? ts->cap_dirs * 2 : 8;
		char **d = realloc(ts->dirs, cap * sizeof(*d));

		if (!d)
			return -ENOMEM;
		ts->dirs = d;
		ts->cap_dirs = cap;
	}
	ts->dirs[ts->nr_dirs] = strdup(dir);
	if (!ts->dirs[ts->nr_dirs])
		return -ENOMEM;
	ts->nr_dirs++;
	return 0;
}

/* Create the missing parents of path with mode 0700 (as fio), remembering each. */
static int target_make_parents(struct target_set *ts, const char *path, struct iops_err *err)
{
	char buf[PATH_MAX];
	int n = snprintf(buf, sizeof(buf), "%s", path);
	char *slash;

	if (n < 0 || (size_t)n >= sizeof(buf)) {
		iops_err_set(err, ENAMETOOLONG, "fio: path too long: '%s'", path);
		return -ENAMETOOLONG;
	}
	slash = strrchr(buf, '/');
	if (!slash || slash == buf)
		return 0;
	*slash = '\0';
	for (char *p = buf + 1; ; p++) {
		bool end = *p == '\0';

		if (*p == '/' || end) {
			char saved = *p;

			*p = '\0';
			if (mkdir(buf, 0700) == 0) {
				if (target_remember_dir(ts, buf)) {
					iops_err_set(err, ENOMEM, "fio: out of memory");
					return -ENOMEM;
				}
			} else if (errno != EEXIST) {
				iops_err_set(err, errno, "fio: cannot create directory '%s': %s", buf, err_str(errno));
				return -errno;
			}
			*p = saved;
			if (end)
				break;
		}
	}
	return 0;
}

static int target_write_all(int fd, const void *buf, size_t len, uint64_t off)
{
	const char *p = buf;

	while (len) {
		ssize_t n = pwrite(fd, p, len, (off_t)off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/* The largest block size of a job, the piece fio 3.33 lays a file out in. */
static uint64_t target_fill_unit(const struct job *job)
{
	uint64_t unit = 0;

	for (int d = 0; d < DDIR_NR; d++)
		if (job->bs_max[d] > unit)
			unit = job->bs_max[d];
	return unit;
}

/* fill_device, a file readers read: data from `from` on until ENOSPC (or its size, when a job
 * gave one), as fio 3.33 lays it out; the size reached becomes the file's (want_size). Written
 * in large pieces, then, once the volume refuses one, in pieces of the job's largest block, as
 * fio writes its layout, so that the file ends where fio's does. */
static int target_fill_for_readers(struct target_path *p, int fd, uint64_t from, const void *chunk,
				   uint64_t unit, struct ctl *ctl)
{
	uint64_t off = from, piece = TARGET_CHUNK_BYTES;
	int ret = 0;

	if (!unit || unit > TARGET_CHUNK_BYTES)
		unit = TARGET_CHUNK_BYTES;
	while (off < p->want_size) {
		uint64_t n = p->want_size - off;
		ssize_t w;

		if (n > piece)
			n = piece;
		if (ctl && ctl_stopped(ctl))
			return -EINTR;
		w = pwrite(fd, chunk, (size_t)n, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == ENOSPC || errno == EDQUOT || errno == EFBIG)) {
			if (piece > unit) {	/* what is left may hold smaller pieces */
				piece = unit;
				continue;
			}
			break;	/* the volume (or the quota, or the largest file) is full */
		}
		if (w < 0)
			return -errno;
		if (w == 0)
			return -EIO;
		off += (uint64_t)w;
	}
	p->want_size = off;
	if (!p->no_create_fsync && fdatasync(fd) < 0)
		ret = -errno;	/* create_fsync */
	return ret;
}

static int target_layout_one(struct target_set *ts, struct target_path *p, void *chunk,
			     struct ctl *ctl, struct iops_err *err)
{
	uint64_t from = p->kind == TARGET_MISSING ? 0 : p->cur_size, len = p->want_size - from;
	int fd, ret = 0;

	if (p->kind == TARGET_MISSING) {
		ret = target_make_parents(ts, p->path, err);
		if (ret < 0)
			return ret;
		fd = open(p->path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0) {
			ret = -errno;
			if (errno == EEXIST)
				iops_err_set(err, EEXIST, "fio: '%s' appeared while iops was about to create it; not touching it",
					     p->path);
			else
				iops_err_set(err, errno, "fio: cannot create '%s': %s", p->path, err_str(errno));
			return ret;
		}
		p->created = true;
		p->owned = true;
		if (fsetxattr(fd, TARGET_XATTR, TARGET_XATTR_VALUE, strlen(TARGET_XATTR_VALUE), 0) < 0)
			p->marked_failed = true;
	} else {
		fd = open(p->path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			ret = -errno;
			iops_err_set(err, errno, "fio: cannot open '%s': %s", p->path, err_str(errno));
			return ret;
		}
	}

	if (p->create_only || (p->fill && !p->need_data))	/* fill_device: the writes make it grow */
		goto close_fd;
	if (p->fill && p->need_data) {	/* fill_device for readers: written until the volume is full */
		ret = target_fill_for_readers(p, fd, from, chunk, target_fill_unit(&ts->cfg->jobs[p->first_job]),
					      ctl);
		goto close_fd;
	}
	switch (p->fallocate) {
	case FALLOC_NATIVE:
		if (fallocate(fd, 0, (off_t)from, (off_t)len) < 0 && errno != EOPNOTSUPP && errno != ENOSYS)
			ret = -errno;
		break;
	case FALLOC_POSIX:
		ret = -posix_fallocate(fd, (off_t)from, (off_t)len);
		break;
	case FALLOC_KEEP:
		if (fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t)from, (off_t)len) < 0 &&
		    errno != EOPNOTSUPP && errno != ENOSYS)
			ret = -errno;
		break;
	case FALLOC_NONE:
	case FALLOC_TRUNCATE:
		break;
	}
	if (!ret && ftruncate(fd, (off_t)p->want_size) < 0)
		ret = -errno;
	if (!ret && p->need_data) {
		for (uint64_t off = from; off < p->want_size; off += TARGET_CHUNK_BYTES) {
			uint64_t n = p->want_size - off;

			if (n > TARGET_CHUNK_BYTES)
				n = TARGET_CHUNK_BYTES;
			if (ctl && ctl_stopped(ctl)) {
				ret = -EINTR;
				break;
			}
			ret = target_write_all(fd, chunk, (size_t)n, off);
			if (ret < 0)
				break;
		}
		if (!ret && !p->no_create_fsync && fdatasync(fd) < 0)
			ret = -errno;	/* create_fsync */
	}
close_fd:
	if (close(fd) < 0 && !ret)
		ret = -errno;
	if (ret < 0) {
		if (ret == -EINTR)
			iops_err_set(err, EINTR, "fio: layout of '%s' interrupted", p->path);
		else if (ret == -ENOSPC)
			iops_err_set(err, ENOSPC, "fio: no space left on device while laying out '%s'", p->path);
		else
			iops_err_set(err, -ret, "fio: laying out '%s' failed: %s", p->path, err_str(-ret));
		return ret;
	}
	p->laid_out = true;
	return 0;
}

/* The layout's escape (core/ctl.h): a write that stalled storage never completes keeps the
 * layout from seeing the stop; the signal thread removes the files, the process exits. */
static __attribute__((cold)) void target_layout_escape(void *arg)
{
	struct target_set *ts = arg;

	fputs("fio: I/O stalled while laying out files: abandoned; removing what this run created "
	      "(if the storage answers):", stderr);
	for (unsigned i = 0; i < ts->nr_paths; i++)
		if (ts->paths[i].created)
			fprintf(stderr, " %s", ts->paths[i].path);
	fputc('\n', stderr);
	target_remove_created(ts);
}

/* Remove what this run created: files, then the new directories left empty. */
void target_remove_created(struct target_set *ts)
{
	for (unsigned i = 0; i < ts->nr_paths; i++) {
		struct target_path *p = &ts->paths[i];

		if (p->created) {
			unlink(p->path);
			p->created = false;
		}
	}
	for (unsigned i = ts->nr_dirs; i-- > 0;)
		rmdir(ts->dirs[i]);	/* fails harmlessly if a finished file lives there */
}

/* fill_device for readers: each job's range on a filled file ends where the volume was full,
 * and a job sized by its files (no size=) does what they hold, as fio 3.33's does. */
static void target_fill_settle(struct target_set *ts)
{
	for (unsigned j = 0; j < ts->cfg->nr_jobs; j++) {
		const struct job *job = &ts->cfg->jobs[j];
		struct target_job *tj = &ts->jobs[j];
		uint64_t sum = 0;
		bool moved = false;

		if (tj->diskless)	/* its files have no path */
			continue;
		for (unsigned f = 0; f < tj->nr_files; f++) {
			struct target_jobfile *jf = &tj->files[f];
			const struct target_path *p = &ts->paths[jf->path];
			uint64_t end = p->want_size;

			if (p->fill && p->need_data && p->laid_out && jf->io_start + jf->io_len > end) {
				jf->io_len = jf->io_start < end ? end - jf->io_start : 0;
				moved = true;
			}
			sum += jf->io_len;
		}
		if (moved && !(job->size && !job->size_pct))
			tj->total_size = sum;
	}
}

static bool target_needs_layout(const struct target_path *p)
{
	if (p->laid_out)
		return false;
	if (p->kind == TARGET_MISSING)
		return true;
	return p->kind == TARGET_REG && p->want_size > p->cur_size;
}

int target_layout(struct target_set *ts, FILE *info, struct ctl *ctl, struct iops_err *err)
{
	const struct fio_config *cfg = ts->cfg;
	unsigned char *chunk = NULL;
	int ret = 0;

	for (unsigned j = 0; j < cfg->nr_jobs && !ret; j++) {
		const struct target_job *tj = &ts->jobs[j];
		unsigned nr = 0, creates = 0;
		uint64_t bytes = 0;

		if (tj->diskless || tj->error)
			continue;
		for (unsigned f = 0; f < tj->nr_files; f++) {
			const struct target_path *p = &ts->paths[tj->files[f].path];

			if (p->first_job == j && target_needs_layout(p)) {
				if (p->create_only) {
					creates++;
					continue;
				}
				nr++;
				/* fill_device: fio's size is "all", 2^64 - 1 */
				bytes = p->fill_open || bytes > UINT64_MAX - p->want_size ? UINT64_MAX : bytes + p->want_size;
			}
		}
		if (!nr && !creates)
			continue;
		if (!chunk) {
			struct rng r;

			chunk = malloc(TARGET_CHUNK_BYTES);
			if (!chunk) {
				iops_err_set(err, ENOMEM, "fio: out of memory");
				ret = -ENOMEM;
				break;
			}
			if (cfg->jobs[j].zero_buffers) {
				memset(chunk, 0, TARGET_CHUNK_BYTES);
			} else {
				rng_init(&r, rng_job_seed(cfg->jobs[j].randseed, false, cfg->jobs[j].thread_number, RNG_BUF));
				rng_fill(&r, chunk, TARGET_CHUNK_BYTES);
			}
		}
		if (info && nr) {
			if (nr == 1)
				fprintf(info, "%s: Laying out IO file (1 file / %lluMiB)\n", cfg->jobs[j].name,
					(unsigned long long)(bytes >> 20));
			else
				fprintf(info, "%s: Laying out IO files (%u files / total %lluMiB)\n", cfg->jobs[j].name,
					nr, (unsigned long long)(bytes >> 20));
			fflush(info);
		}
		for (unsigned f = 0; f < tj->nr_files && !ret; f++) {
			struct target_path *p = &ts->paths[tj->files[f].path];

			if (p->first_job == j && target_needs_layout(p)) {
				if (ctl)	/* set per file: its created flag is then seen */
					ctl_set_escape(ctl, target_layout_escape, ts);
				ret = target_layout_one(ts, p, chunk, ctl, err);
			}
		}
	}
	if (ctl)
		ctl_set_escape(ctl, NULL, NULL);
	free(chunk);
	if (ret < 0)
		target_remove_created(ts);
	else
		target_fill_settle(ts);
	return ret;
}

/* ---- per-job open / close --------------------------------------------------------------- */

static int target_open_flags(const struct job *job)
{
	const struct engine_ops *eops = engine_find(job->ioengine);
	int flags = O_CLOEXEC;

	/* trim: BLKDISCARD and punching need a writer; so does falloc, reads included */
	if (((job->rw_has_write || job->rw_has_trim) && !job->verify_only) || (eops && (eops->flags & ENGINE_F_RDWR)))
		flags |= O_RDWR;
	else
		flags |= O_RDONLY;
	if (job->direct || job->atomic)	/* atomic: fio's O_ATOMIC is O_DIRECT on Linux */
		flags |= O_DIRECT;
	if (job->sync == SYNC_SYNC)
		flags |= O_SYNC;
	else if (job->sync == SYNC_DSYNC)
		flags |= O_DSYNC;
	return flags;
}

int target_open_file(const struct target_set *ts, unsigned j, unsigned f, FILE *warn, struct iops_err *err)
{
	const struct target_path *p = &ts->paths[ts->jobs[j].files[f].path];
	int fd = open(p->path, target_open_flags(&ts->cfg->jobs[j]));

	if (fd < 0) {
		int e = errno;

		iops_err_set(err, e, "fio: pid=0, err=%d/file:filesetup.c:0, func=open(%s), error=%s", e,
			     p->path, err_str(e));
		return -e;
	}
	target_invalidate(ts, j, f, fd, warn);
	target_advise(ts, j, f, fd, warn);
	return fd;
}

bool target_opens_lazily(const struct target_set *ts, unsigned j)
{
	const struct job *job = &ts->cfg->jobs[j];

	return !ts->jobs[j].diskless && job->open_files && job->open_files < ts->jobs[j].nr_files;
}

int target_open(const struct target_set *ts, unsigned j, int *fds, FILE *warn, struct iops_err *err)
{
	const struct target_job *tj = &ts->jobs[j];

	for (unsigned f = 0; f < tj->nr_files; f++)
		fds[f] = -1;
	if (tj->diskless || target_opens_lazily(ts, j))
		return 0;
	for (unsigned f = 0; f < tj->nr_files; f++) {
		fds[f] = target_open_file(ts, j, f, warn, err);
		if (fds[f] < 0) {
			int e = fds[f];

			for (unsigned k = 0; k < f; k++) {
				close(fds[k]);
				fds[k] = -1;
			}
			fds[f] = -1;
			return e;
		}
	}
	return 0;
}

int target_close_file(const struct target_set *ts, unsigned j, int *fd)
{
	const struct job *job = &ts->cfg->jobs[j];
	int ret = 0;

	if (*fd < 0)
		return 0;
	if ((job->fsync_on_close || job->end_fsync) && job->rw_has_write && fsync(*fd) < 0)
		ret = -errno;
	if (close(*fd) < 0 && !ret)
		ret = -errno;
	*fd = -1;
	return ret;
}

void target_invalidate(const struct target_set *ts, unsigned j, unsigned f, int fd, FILE *warn)
{
	const struct target_jobfile *jf = &ts->jobs[j].files[f];
	const struct target_path *p = &ts->paths[jf->path];

	if (!ts->cfg->jobs[j].invalidate || fd < 0)
		return;
	/* non-fatal, as in fio; the messages go to warn (fio prints them on stdout) */
	if (p->kind == TARGET_BDEV) {
		if (ioctl(fd, BLKFLSBUF, 0) < 0 && warn) {
			if (errno == EACCES || errno == EPERM)
				fprintf(warn, "fio: only root may flush block devices. Cache flush bypassed!\n");
			else
				fprintf(warn, "fio: cache invalidation of %s failed: %s\n", p->path, err_str(errno));
		}
	} else if (p->kind == TARGET_REG || p->kind == TARGET_MISSING) {
		int r = posix_fadvise(fd, (off_t)jf->io_start, (off_t)jf->io_len, POSIX_FADV_DONTNEED);

		if (r && warn)
			fprintf(warn, "fio: cache invalidation of %s failed: %s\n", p->path, err_str(r));
	}
}

void target_advise(const struct target_set *ts, unsigned j, unsigned f, int fd, FILE *warn)
{
	const struct job *job = &ts->cfg->jobs[j];
	const struct target_jobfile *jf = &ts->jobs[j].files[f];
	const struct target_path *p = &ts->paths[jf->path];
	int advice, r;

	if (fd < 0 || (p->kind != TARGET_BDEV && p->kind != TARGET_REG && p->kind != TARGET_MISSING))
		return;
	switch (job->fadvise_hint) {
	case FADVISE_NONE:
		return;
	case FADVISE_PATTERN:
		advice = job->rw_random ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL;
		break;
	case FADVISE_RANDOM:
		advice = POSIX_FADV_RANDOM;
		break;
	default:
		advice = POSIX_FADV_SEQUENTIAL;
		break;
	}
	r = posix_fadvise(fd, (off_t)jf->io_start, (off_t)jf->io_len, advice);
	if (r && warn)
		fprintf(warn, "fio: fadvise hint failed: %s\n", err_str(r));
}

int target_close(const struct target_set *ts, unsigned j, int *fds)
{
	const struct job *job = &ts->cfg->jobs[j];
	const struct target_job *tj = &ts->jobs[j];
	int ret = 0;

	for (unsigned f = 0; f < tj->nr_files; f++) {
		if (fds[f] < 0)
			continue;
		if (job->fsync_on_close && job->rw_has_write && fsync(fds[f]) < 0 && !ret)
			ret = -errno;
		if (close(fds[f]) < 0 && !ret)
			ret = -errno;
		fds[f] = -1;
	}
	return ret;
}

int target_recreate(const struct target_set *ts, unsigned j, unsigned f, FILE *warn)
{
	const struct target_path *p = &ts->paths[ts->jobs[j].files[f].path];
	int fd;

	if (ts->jobs[j].diskless || (p->kind != TARGET_REG && p->kind != TARGET_MISSING))
		return 0;
	if (!p->owned && !p->created) {
		if (warn)
			fprintf(warn, "fio: unlink_each_loop: keeping '%s': iops did not create it\n", p->path);
		return 0;
	}
	if (unlink(p->path) < 0 && errno != ENOENT)
		return -errno;
	fd = open(p->path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	(void)fsetxattr(fd, TARGET_XATTR, TARGET_XATTR_VALUE, strlen(TARGET_XATTR_VALUE), 0);
	return close(fd) < 0 ? -errno : 0;
}

void target_pre_read(const struct target_set *ts, unsigned j, FILE *warn)
{
	const struct target_job *tj = &ts->jobs[j];
	char *buf;

	if (tj->diskless)
		return;
	buf = malloc(TARGET_CHUNK_BYTES);
	for (unsigned f = 0; buf && f < tj->nr_files; f++) {
		const struct target_jobfile *jf = &tj->files[f];
		const struct target_path *p = &ts->paths[jf->path];
		int fd;

		if (p->kind == TARGET_CHR)
			continue;	/* nothing to cache */
		fd = open(p->path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			if (warn)
				fprintf(warn, "fio: pre_read of %s failed: %s\n", p->path, err_str(errno));
			continue;
		}
		for (uint64_t off = jf->io_start, end = jf->io_start + jf->io_len; off < end;) {
			size_t n = end - off < TARGET_CHUNK_BYTES ? (size_t)(end - off) : TARGET_CHUNK_BYTES;
			ssize_t r = pread(fd, buf, n, (off_t)off);

			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;	/* the end of a short file, or an error the job will meet itself */
			off += (uint64_t)r;
		}
		close(fd);
	}
	free(buf);
}

void target_unlink(const struct target_set *ts, unsigned j, FILE *warn)
{
	const struct target_job *tj = &ts->jobs[j];

	if (tj->diskless)
		return;
	for (unsigned f = 0; f < tj->nr_files; f++) {
		const struct target_path *p = &ts->paths[tj->files[f].path];

		if (p->kind != TARGET_REG && p->kind != TARGET_MISSING)
			continue;
		if (!p->owned && !p->created) {
			if (warn)
				fprintf(warn, "fio: unlink: keeping '%s': iops did not create it\n", p->path);
			continue;
		}
		if (unlink(p->path) < 0 && errno != ENOENT && warn)
			fprintf(warn, "fio: cannot unlink '%s': %s\n", p->path, err_str(errno));
	}
}
