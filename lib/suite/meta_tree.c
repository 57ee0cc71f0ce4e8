/* SPDX-License-Identifier: MIT */
#include "suite/meta_tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/rng.h"

#define META_FILES_FULL		20000u	/* at FIO_CAPACITY_MB=500 and above */
#define META_FILES_MIN		200u
#define META_FILE_MAX		(64u << 10)
#define META_DEPTH_MAX		64	/* of a left tree walked by meta_tree_remove_left() */
#define META_REL_MAX		1024	/* a relative path in the tree */

int meta_plan_init(struct meta_plan *p, unsigned capacity_mb, uint64_t seed)
{
	/* a share of files per size class, like a source tree: most tiny, a few up to 64 KiB */
	static const struct { unsigned pct; uint32_t lo, hi; } classes[] = {
		{ 50, 0, 1023 }, { 30, 1024, 4095 }, { 15, 4096, 16383 }, { 5, 16384, META_FILE_MAX - 1 },
	};
	uint64_t n = (uint64_t)META_FILES_FULL * capacity_mb / 500;
	struct rng r;

	memset(p, 0, sizeof(*p));
	p->nr_files = n > META_FILES_FULL ? META_FILES_FULL : n < META_FILES_MIN ? META_FILES_MIN : (unsigned)n;
	p->nr_dirs = p->nr_files * 3 / 40;	/* 1,500 for 20,000 files */
	p->size = calloc(p->nr_files, sizeof(*p->size));
	p->file_dir = calloc(p->nr_files, sizeof(*p->file_dir));
	p->parent = calloc(p->nr_dirs + 1u, sizeof(*p->parent));
	if (!p->size || !p->file_dir || !p->parent) {
		meta_plan_release(p);
		return -ENOMEM;
	}
	rng_init(&r, seed);
	for (unsigned d = 1; d <= p->nr_dirs; d++)
		p->parent[d] = (uint32_t)rng_below(&r, d);	/* an earlier one: a tree, made in order */
	for (unsigned f = 0; f < p->nr_files; f++) {
		unsigned pick = (unsigned)rng_below(&r, 100), c = 0;

		while (pick >= classes[c].pct) {
			pick -= classes[c].pct;
			c++;
		}
		p->size[f] = classes[c].lo + (uint32_t)rng_below(&r, classes[c].hi - classes[c].lo + 1u);
		p->file_dir[f] = (uint32_t)rng_below(&r, p->nr_dirs + 1u);
		p->bytes += p->size[f];
	}
	return 0;
}

void meta_plan_release(struct meta_plan *p)
{
	free(p->size);
	free(p->file_dir);
	free(p->parent);
	memset(p, 0, sizeof(*p));
}

/* The path of directory d relative to the root ("" for the root, "d3/d17/" otherwise). */
static int meta_dir_path(const struct meta_plan *p, uint32_t d, char *out, size_t cap)
{
	uint32_t chain[META_DEPTH_MAX];
	unsigned depth = 0;
	size_t o = 0;

	for (; d && depth < META_DEPTH_MAX; d = p->parent[d])
		chain[depth++] = d;
	if (d)
		return -ENAMETOOLONG;
	out[0] = '\0';
	while (depth--) {
		int w = snprintf(out + o, cap - o, "d%u/", chain[depth]);

		if (w < 0 || (size_t)w >= cap - o)
			return -ENAMETOOLONG;
		o += (size_t)w;
	}
	return 0;
}

static double meta_secs(uint64_t t0)
{
	return (double)(clock_now_ns() - t0) / 1e9;
}

/* Creates files 0.. and directories 1.. in order; *files and *dirs say how far it got. */
static int meta_create(const struct meta_plan *p, int rootfd, const char *buf, struct ctl *ctl, unsigned *dirs,
		       unsigned *files, struct iops_err *err)
{
	char rel[META_REL_MAX];
	size_t o;

	for (uint32_t d = 1; d <= p->nr_dirs; d++) {
		int e = meta_dir_path(p, d, rel, sizeof(rel));

		if (!e) {
			rel[strlen(rel) - 1] = '\0';	/* "d3/d17" */
			e = mkdirat(rootfd, rel, 0755) < 0 ? -errno : 0;
		}
		if (e) {
			iops_err_set(err, -e, "cannot create directory %s: %s", rel, err_str(-e));
			return e;
		}
		*dirs = d;
	}
	for (unsigned f = 0; f < p->nr_files; f++) {
		int fd, e;

		if (ctl && ctl_stopped(ctl))
			return 0;
		if (meta_dir_path(p, p->file_dir[f], rel, sizeof(rel)))
			return -ENAMETOOLONG;
		o = strlen(rel);
		snprintf(rel + o, sizeof(rel) - o, "f%u", f);
		fd = openat(rootfd, rel, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0) {
			e = errno;
			iops_err_set(err, e, "cannot create %s: %s", rel, err_str(e));
			return -e;
		}
		*files = f + 1;
		e = (size_t)write(fd, buf, p->size[f]) == p->size[f] ? 0 : errno ? errno : ENOSPC;
		if (close(fd) < 0 && !e)
			e = errno;
		if (e) {
			iops_err_set(err, e, "cannot write %s: %s", rel, err_str(e));
			return -e;
		}
	}
	return 0;
}

static int meta_stat(const struct meta_plan *p, int rootfd, unsigned files, struct iops_err *err)
{
	char rel[META_REL_MAX];
	struct stat st;

	for (unsigned f = 0; f < files; f++) {
		size_t o;

		if (meta_dir_path(p, p->file_dir[f], rel, sizeof(rel)))
			return -ENAMETOOLONG;
		o = strlen(rel);
		snprintf(rel + o, sizeof(rel) - o, "f%u", f);
		if (fstatat(rootfd, rel, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			int e = errno;

			iops_err_set(err, e, "cannot stat %s: %s", rel, err_str(e));
			return -e;
		}
		if (st.st_size != (off_t)p->size[f]) {
			iops_err_set(err, EIO, "%s has %lld bytes, %u were written", rel, (long long)st.st_size,
				     p->size[f]);
			return -EIO;
		}
	}
	return 0;
}

/* Remove what meta_create() made: files, then directories deepest-numbered first. */
static int meta_remove(const struct meta_plan *p, int rootfd, unsigned dirs, unsigned files)
{
	char rel[META_REL_MAX];
	int ret = 0;

	for (unsigned f = 0; f < files; f++) {
		size_t o;

		if (meta_dir_path(p, p->file_dir[f], rel, sizeof(rel)))
			continue;
		o = strlen(rel);
		snprintf(rel + o, sizeof(rel) - o, "f%u", f);
		if (unlinkat(rootfd, rel, 0) < 0 && !ret)
			ret = -errno;
	}
	for (unsigned d = dirs; d >= 1; d--) {
		size_t o;

		if (meta_dir_path(p, d, rel, sizeof(rel)))
			continue;
		o = strlen(rel);
		rel[o - 1] = '\0';
		if (unlinkat(rootfd, rel, AT_REMOVEDIR) < 0 && !ret)
			ret = -errno;
	}
	return ret;
}

int meta_tree_run(const struct meta_plan *p, const char *root, struct ctl *ctl, struct meta_result *r,
		  struct iops_err *err)
{
	unsigned dirs = 0, files = 0;
	char line[64], *buf;
	int rootfd = -1, fd, ret, n;
	uint64_t t0;

	memset(r, 0, sizeof(*r));
	buf = malloc(META_FILE_MAX);
	if (!buf)
		return -ENOMEM;
	for (size_t i = 0; i < META_FILE_MAX; i++)
		buf[i] = (char)('a' + i % 26);	/* text, as sources are */
	t0 = clock_now_ns();
	if (mkdir(root, 0755) < 0) {
		ret = -errno;
		iops_err_set(err, -ret, "cannot create %s: %s", root, err_str(-ret));
		goto out_buf;
	}
	rootfd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	fd = rootfd < 0 ? -1 : openat(rootfd, META_MARKER, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		iops_err_set(err, -ret, "cannot set up %s: %s", root, err_str(-ret));
		goto out_root;
	}
	n = snprintf(line, sizeof(line), "iops meta tree %ld\n", (long)getpid());
	ret = write(fd, line, (size_t)n) == n ? 0 : -EIO;
	close(fd);
	if (!ret)
		ret = meta_create(p, rootfd, buf, ctl, &dirs, &files, err);
	if (!ret && syncfs(rootfd) < 0)
		ret = -errno;
	r->create_s = meta_secs(t0);
	r->files_done = files;
	r->stopped = ctl && ctl_stopped(ctl);
	if (!ret && !r->stopped) {
		t0 = clock_now_ns();
		ret = meta_stat(p, rootfd, files, err);
		r->stat_s = meta_secs(t0);
	}
	t0 = clock_now_ns();
	n = meta_remove(p, rootfd, dirs, files);
	if (unlinkat(rootfd, META_MARKER, 0) < 0 && !n)
		n = -errno;
	if (!n && syncfs(rootfd) < 0)
		n = -errno;
	r->remove_s = meta_secs(t0);
	if (n && !ret) {
		ret = n;
		iops_err_set(err, -n, "cannot remove the tree in %s: %s", root, err_str(-n));
	}
out_root:
	if (rootfd >= 0)
		close(rootfd);
	if (rmdir(root) < 0 && !ret) {
		ret = -errno;
		iops_err_set(err, -ret, "cannot remove %s: %s", root, err_str(-ret));
	}
out_buf:
	free(buf);
	return ret;
}

/* ---- trees left by an earlier run ---------------------------------------------------------- */

/* Is name "<c><digits>"? */
static bool meta_name_is(const char *name, char c)
{
	if (name[0] != c || !name[1])
		return false;
	for (const char *p = name + 1; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

static int meta_walk(int fd, int depth, bool del, unsigned *nr);

/* One pass of meta_walk() over dir (fd is its descriptor); *gone counts what it removed. */
static int meta_walk_pass(DIR *dir, int fd, int depth, bool del, unsigned *nr, unsigned *gone)
{
	struct dirent *de;
	int ret = 0;

	while (!ret && (de = readdir(dir))) {
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			ret = -errno;
		} else if (S_ISREG(st.st_mode) && (meta_name_is(de->d_name, 'f') ||
						     (depth == 0 && !strcmp(de->d_name, META_MARKER)))) {
			if (del && unlinkat(fd, de->d_name, 0) < 0)
				ret = -errno;
			else if (strcmp(de->d_name, META_MARKER))
				++*nr;
			*gone += del && !ret;
		} else if (S_ISDIR(st.st_mode) && meta_name_is(de->d_name, 'd') && depth < META_DEPTH_MAX) {
			int sub = openat(fd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			ret = sub < 0 ? -errno : meta_walk(sub, depth + 1, del, nr);
			if (!ret && del && unlinkat(fd, de->d_name, AT_REMOVEDIR) < 0)
				ret = -errno;
			*gone += del && !ret;
		} else {
			ret = -EPERM;	/* not iops' own: the tree is left alone */
		}
	}
	return ret;
}

/* Walk directory fd: with del false, check that it holds only iops' names (dN directories,
 * fN regular files, the marker at the top); with del true, remove them (pass after pass:
 * some file systems, tmpfs, skip entries in a directory read while it shrinks). Counts files
 * in *nr. Closes fd. */
static int meta_walk(int fd, int depth, bool del, unsigned *nr)
{
	DIR *dir = fdopendir(fd);
	unsigned gone;
	int ret = 0;

	if (!dir) {
		close(fd);
		return -errno;
	}
	do {
		gone = 0;
		if (lseek(fd, 0, SEEK_SET) < 0) {	/* musl's rewinddir alone did not */
			ret = -errno;
			break;
		}
		rewinddir(dir);
		ret = meta_walk_pass(dir, fd, depth, del, nr, &gone);
	} while (!ret && gone);
	closedir(dir);
	return ret;
}
int meta_tree_remove_left(const char *path, struct iops_err *err)
{
	unsigned nr = 0;
	struct stat st;
	int fd, ret;

	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -ENOENT;
	if (fstatat(fd, META_MARKER, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -ENOENT;
	}
	ret = meta_walk(dup(fd), 0, false, &nr);
	if (ret == -EPERM) {
		close(fd);
		iops_err_set(err, EPERM, "%s holds files iops did not create: left as it is", path);
		return -EPERM;
	}
	nr = 0;
	if (!ret)
		ret = meta_walk(fd, 0, true, &nr);
	else
		close(fd);
	if (!ret && rmdir(path) < 0)
		ret = -errno;
	if (ret) {
		iops_err_set(err, -ret, "cannot remove %s: %s", path, err_str(-ret));
		return ret;
	}
	return (int)nr;
}
