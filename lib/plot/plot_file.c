/* SPDX-License-Identifier: MIT */
/* plot_file: checks, a temporary file beside the target, rename without replacing what is
 * not ours; see plot_file.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "plot/plot_num.h"
#include "plot/plot_file.h"

#define OURS_HTML	"<!DOCTYPE html>\n<!-- generator: iops plot "
#define OURS_SVG	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- generator: iops plot "
#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE	1
#endif

static bool plot_file_ends(const char *path, const char *suffix)
{
	size_t n = strlen(path), s = strlen(suffix);

	return n > s && !strcmp(path + n - s, suffix) && path[n - s - 1] != '/';
}

/* The directory part of path into buf ("." when none). */
static void plot_file_dir(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		plot_num_fmt(buf, len, ".");
	else
		plot_num_fmt(buf, len, "%.*s", slash == path ? 1 : (int)(slash - path), path);
}

/* Does the file at path start as a page iops plot wrote? */
static bool plot_file_ours(const char *path)
{
	char head[128];
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, head, sizeof(head) - 1);
	close(fd);
	if (n <= 0)
		return false;
	head[n] = '\0';
	return !strncmp(head, OURS_HTML, strlen(OURS_HTML)) || !strncmp(head, OURS_SVG, strlen(OURS_SVG));
}

/* 0: path is free; 1: it is our own page (to replace); -1: err set */
static int plot_file_state(const char *path, struct iops_err *err)
{
	struct stat st;

	if (lstat(path, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		iops_err_set(err, errno, "'%s': %s", path, err_str(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode) || !plot_file_ours(path)) {
		iops_err_set(err, EEXIST, "'%s' exists and is not a page iops plot wrote: not overwriting it "
			     "(remove it, or name another file)", path);
		return -1;
	}
	return 1;
}

int plot_file_check(const char *path, bool allow_svg, enum plot_file_fmt *fmt, struct iops_err *err)
{
	char dir[PATH_MAX];
	struct stat st;

	if (!path || !*path) {
		iops_err_set(err, EINVAL, "no output file named");
		return -1;
	}
	if (strlen(path) >= PATH_MAX - 64) {
		iops_err_set(err, ENAMETOOLONG, "'%.64s...': name too long", path);
		return -1;
	}
	if (plot_file_ends(path, ".html") || plot_file_ends(path, ".htm")) {
		*fmt = PLOT_FILE_HTML;
	} else if (allow_svg && plot_file_ends(path, ".svg")) {
		*fmt = PLOT_FILE_SVG;
	} else {
		iops_err_set(err, EINVAL, "'%s': the page's name must end in .html%s", path, allow_svg ? " (or .svg for one chart)" : "");
		return -1;
	}
	plot_file_dir(path, dir, sizeof(dir));
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK) < 0) {
		iops_err_set(err, ENOTDIR, "'%s': its directory '%s' is not one we can write to", path, dir);
		return -1;
	}
	return plot_file_state(path, err) < 0 ? -1 : 0;
}

/* tmp into place: over our own page (replace), else never over anything (no-replace). */
static int plot_file_install(const char *tmp, const char *path, bool replace)
{
	if (replace)
		return rename(tmp, path) < 0 ? -errno : 0;
	if (syscall(SYS_renameat2, AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -errno;
	/* a file system without renameat2's flags: a hard link cannot replace either */
	if (link(tmp, path) < 0)
		return -errno;
	unlink(tmp);
	return 0;
}

int plot_file_write(const char *path, const struct plot_page *p, struct iops_err *err)
{
	enum plot_file_fmt fmt;
	char dir[PATH_MAX], tmp[PATH_MAX + 64];
	const char *base = strrchr(path, '/');
	FILE *out = NULL;
	int fd = -1, state, rc;

	if (plot_file_check(path, true, &fmt, err) < 0 || (state = plot_file_state(path, err)) < 0)
		return -1;
	plot_file_dir(path, dir, sizeof(dir));
	base = base ? base + 1 : path;
	for (unsigned n = 0; fd < 0 && n < 100; n++) {
		if (snprintf(tmp, sizeof(tmp), "%s/.%s.iops-plot.%ld.%u", dir, base, (long)getpid(), n) >= (int)sizeof(tmp)) {
			iops_err_set(err, ENAMETOOLONG, "'%s': name too long", path);
			return -1;
		}
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd < 0 && errno != EEXIST) {
			iops_err_set(err, errno, "cannot create a file in '%s': %s", dir, err_str(errno));
			return -1;
		}
	}
	if (fd < 0 || !(out = fdopen(fd, "w"))) {
		iops_err_set(err, fd < 0 ? EEXIST : errno, "cannot create a file in '%s'", dir);
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		return -1;
	}
	rc = fmt == PLOT_FILE_SVG ? plot_page_write_svg(p, out, err) : plot_page_write_html(p, out, err);
	if (fclose(out) != 0 && !rc) {
		iops_err_set(err, errno, "cannot write '%s': %s", tmp, err_str(errno));
		rc = -1;
	}
	if (!rc && (rc = plot_file_install(tmp, path, state == 1)) < 0) {
		iops_err_set(err, -rc, "cannot put the page in place as '%s': %s", path,
			     rc == -EEXIST ? "a file of that name appeared meanwhile" : err_str(-rc));
		rc = -1;
	}
	if (rc)
		unlink(tmp);
	return rc ? -1 : 0;
}

int plot_file_docs(const char *path, const char *title, const char *const *names, const char *const *docs,
		   const size_t *len, unsigned n, struct iops_err *err)
{
	struct plot_page *p = plot_page_docs(title, PLOT_BY_JOB, names, docs, len, n, err);
	int rc = p ? plot_file_write(path, p, err) : -1;

	plot_page_free(p);
	return rc;
}
