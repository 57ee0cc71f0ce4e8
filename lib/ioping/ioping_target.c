/* SPDX-License-Identifier: MIT */
#include "ioping/ioping_target.h"
#include "core/err.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define KEEP_NAME	"ioping.tmp"
#define TEMP_TEMPLATE	"ioping.tmp.XXXXXX"

/* ioping does this arithmetic in signed 64 bits and relies on wrap-around for absurd input
 * (e.g. -S nan); do the same without undefined behaviour. */
static int64_t wrap_add(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}

static int64_t wrap_sub(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a - (uint64_t)b);
}

static int open_flags(const struct ioping_opts *o, int base)
{
	int flags = base | O_CLOEXEC;

	if (o->sync)
		flags |= O_SYNC;
	if (o->dsync)
		flags |= O_DSYNC;
	return flags;
}

static int open_device(struct ioping_target *t, const struct ioping_opts *o, struct iops_err *err)
{
	uint64_t bytes = 0;

	t->fd = open(o->path, open_flags(o, o->nr_write ? O_RDWR : O_RDONLY));
	if (t->fd < 0) {
		int e = errno;

		iops_err_set(err, 2, "failed to open \"%s\": %s", o->path, err_str(e));
		return -e;
	}
	if (ioctl(t->fd, BLKGETSIZE64, &bytes) == 0 && bytes <= INT64_MAX) {
		t->st_size = (int64_t)bytes;
		t->device_size = bytes;
		return 0;
	}
	if (t->kind == IOPING_TARGET_BLOCK) {
		int e = errno;

		iops_err_set(err, 2, "block get size ioctl failed: %s", err_str(e));
		close(t->fd);
		t->fd = -1;
		return -e;
	}
	/* character device: no size; work on a temp-file-sized window */
	t->st_size = wrap_add(t->offset, o->temp_wsize);
	t->device_size = 0;
	return 0;
}

int ioping_target_plan(struct ioping_target *t, const struct ioping_opts *o, struct iops_err *err)
{
	int ret;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	t->offset = o->work_offset;
	t->wsize = o->work_size;
	t->size = o->size;
	if (stat(o->path, &t->st) < 0) {
		ret = -errno;
		iops_err_set(err, 2, "stat \"%s\" failed: %s", o->path, err_str(errno));
		return ret;
	}
	if (o->nr_write && o->nr_write < 3 && !S_ISDIR(t->st.st_mode)) {
		iops_err_set(err, 2, "think twice, then use -WWW to shred this target");
		return -EPERM;
	}
	if (S_ISDIR(t->st.st_mode)) {
		t->kind = IOPING_TARGET_DIR;
		if (!t->wsize)
			t->wsize = t->size > o->temp_wsize ? t->size : o->temp_wsize;
		t->st_size = wrap_add(t->offset, t->wsize);
	} else if (S_ISREG(t->st.st_mode)) {
		t->kind = IOPING_TARGET_FILE;
		t->st_size = (int64_t)t->st.st_size;
	} else if (S_ISBLK(t->st.st_mode) || S_ISCHR(t->st.st_mode)) {
		t->kind = S_ISBLK(t->st.st_mode) ? IOPING_TARGET_BLOCK : IOPING_TARGET_CHAR;
		ret = open_device(t, o, err);
		if (ret)
			return ret;
	} else {
		iops_err_set(err, 2, "unsupported destination: \"%s\"", o->path);
		return -EINVAL;
	}
	if (t->wsize > t->st_size || t->offset > wrap_sub(t->st_size, t->wsize)) {
		iops_err_set(err, 2, "target is too small for this");
		goto undo_open;
	}
	if (!t->wsize)
		t->wsize = wrap_sub(t->st_size, t->offset);
	if (t->size > t->wsize) {
		iops_err_set(err, 2, "request size is too big for this target");
		goto undo_open;
	}
	return 0;

undo_open:
	ioping_target_close(t);
	return -EINVAL;
}

/* -k: <dir>/ioping.tmp, created by us (remembered) or reused. */
static int open_keep(struct ioping_target *t, const struct ioping_opts *o, struct iops_err *err)
{
	char name[PATH_MAX];
	struct stat st;
	int n = snprintf(name, sizeof(name), "%s/%s", o->path, KEEP_NAME);

	if (n < 0 || (size_t)n >= sizeof(name)) {
		iops_err_set(err, 2, "failed to create temporary file at \"%s\": %s", o->path,
			     err_str(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	t->fd = open(name, open_flags(o, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW), 0600);
	if (t->fd >= 0) {
		t->created_keep = true;
		return 0;
	}
	if (errno == EEXIST)
		t->fd = open(name, open_flags(o, O_RDWR | O_NOFOLLOW));
	if (t->fd < 0) {
		int e = errno;

		iops_err_set(err, 2, "failed to create temporary file at \"%s\": %s", o->path, err_str(e));
		return -e;
	}
	if (fstat(t->fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		iops_err_set(err, 2, "failed to create temporary file at \"%s\": %s is not a regular file",
			     o->path, KEEP_NAME);
		close(t->fd);
		t->fd = -1;
		return -EEXIST;
	}
	return 0;
}

/* Unnamed working file: O_TMPFILE, else a named file removed at once. */
static int open_temp(struct ioping_target *t, const struct ioping_opts *o, struct iops_err *err)
{
	char name[PATH_MAX];
	int n, e;

	t->fd = open(o->path, open_flags(o, O_RDWR | O_TMPFILE), 0600);
	if (t->fd >= 0)
		return 0;
	n = snprintf(name, sizeof(name), "%s/%s", o->path, TEMP_TEMPLATE);
	if (n < 0 || (size_t)n >= sizeof(name)) {
		iops_err_set(err, 2, "failed to create temporary file at \"%s\": %s", o->path,
			     err_str(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	t->fd = mkostemp(name, open_flags(o, 0));
	if (t->fd < 0) {
		e = errno;
		iops_err_set(err, 2, "failed to create temporary file at \"%s\": %s", o->path, err_str(e));
		return -e;
	}
	if (unlink(name) < 0) {
		e = errno;
		iops_err_set(err, 2, "unlink \"%s\" failed: %s", name, err_str(e));
		close(t->fd);
		t->fd = -1;
		return -e;
	}
	return 0;
}

static int write_all(int fd, const char *buf, size_t len, int64_t pos)
{
	while (len) {
		ssize_t n = pwrite(fd, buf, len, (off_t)pos);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -ENOSPC;
		buf += n;
		len -= (size_t)n;
		pos += n;
	}
	return 0;
}

static int fill_working_file(struct ioping_target *t, struct ioping_rng *rng, void *buf,
			     struct ctl *ctl, struct iops_err *err)
{
	int64_t done = 0;
	int ret;

	while (done < t->wsize) {
		int64_t chunk = t->wsize - done < t->size ? t->wsize - done : t->size;

		if (ctl && ctl_stopped(ctl)) {
			iops_err_set(err, 128 + ctl_signo(ctl), "%s", "");
			err->msg[0] = '\0';
			return -EINTR;
		}
		if (done)
			ioping_rng_fill(rng, buf, (size_t)chunk);
		ret = write_all(t->fd, buf, (size_t)chunk, wrap_add(t->offset, done));
		if (ret) {
			iops_err_set(err, 2, "preparation write failed: %s", err_str(-ret));
			return ret;
		}
		done += chunk;
	}
	return 0;
}

static void describe(struct ioping_target *t)
{
	struct mountinfo_entry me;

	switch (t->kind) {
	case IOPING_TARGET_BLOCK:
		memcpy(t->fstype, "block", sizeof("block"));
		memcpy(t->device, "device", sizeof("device"));
		return;
	case IOPING_TARGET_CHAR:
		memcpy(t->fstype, "character", sizeof("character"));
		memcpy(t->device, "device", sizeof("device"));
		return;
	default:
		break;
	}
	if (mountinfo_fs_bytes(t->fd, &t->device_size) < 0)
		t->device_size = 0;
	if (mountinfo_lookup(t->st.st_dev, &me) == 0) {
		char real[PATH_MAX];

		memcpy(t->fstype, me.fstype, sizeof(t->fstype));
		memcpy(t->device, me.source, sizeof(t->device));
		/* ioping resolves the source with realpath() even when it is not a path, which
		 * makes "tmpfs" depend on the working directory; we resolve absolute paths only. */
		if (me.source[0] == '/' && realpath(me.source, real)) {
			size_t n = strlen(real);

			if (n < sizeof(t->device))
				memcpy(t->device, real, n + 1);
		}
	}
}

int ioping_target_prepare(struct ioping_target *t, const struct ioping_opts *o,
			  struct ioping_rng *rng, void *buf, struct ctl *ctl,
			  struct iops_err *err)
{
	bool fill = false;
	int ret = 0;

	if (t->kind == IOPING_TARGET_DIR) {
		ret = o->keep ? open_keep(t, o, err) : open_temp(t, o, err);
		if (ret)
			return ret;
		fill = true;
		if (o->keep && !t->created_keep) {
			struct stat st;

			if (fstat(t->fd, &st) == 0 && (int64_t)st.st_size >= wrap_add(t->offset, t->wsize) &&
			    (int64_t)st.st_blocks >= ((int64_t)st.st_size + 511) / 512)
				fill = false;
		}
	} else if (t->kind == IOPING_TARGET_FILE) {
		t->fd = open(o->path, open_flags(o, o->nr_write ? O_RDWR : O_RDONLY));
		if (t->fd < 0) {
			ret = -errno;
			iops_err_set(err, 2, "failed to open \"%s\": %s", o->path, err_str(errno));
			return ret;
		}
	}
	if (o->direct) {
		int fl = fcntl(t->fd, F_GETFL);

		if (fl < 0 || fcntl(t->fd, F_SETFL, fl | O_DIRECT) < 0) {
			ret = -errno;
			iops_err_set(err, 2, "fcntl(O_DIRECT) failed, please retry without option -D: %s",
				     err_str(errno));
			goto undo_open;
		}
	}
	if (t->kind == IOPING_TARGET_DIR) {
		if (fill) {
			ret = fill_working_file(t, rng, buf, ctl, err);
			if (ret)
				goto undo_open;
		}
		if (fsync(t->fd) < 0) {
			ret = -errno;
			iops_err_set(err, 2, "fsync failed: %s", err_str(errno));
			goto undo_open;
		}
	}
	describe(t);
	if (!(o->linear && o->cached) &&
	    posix_fadvise(t->fd, (off_t)t->offset, (off_t)t->wsize, POSIX_FADV_RANDOM) != 0)
		t->fadvise_failed = true;
	return 0;

undo_open:
	if (t->created_keep) {
		char name[PATH_MAX];
		int n = snprintf(name, sizeof(name), "%s/%s", o->path, KEEP_NAME);

		if (n > 0 && (size_t)n < sizeof(name))
			(void)unlink(name);	/* only the file this run created */
		t->created_keep = false;
	}
	ioping_target_close(t);
	return ret;
}

void ioping_target_close(struct ioping_target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}
