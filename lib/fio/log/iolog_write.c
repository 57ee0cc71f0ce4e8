/* SPDX-License-Identifier: MIT */
#include "fio/log/iolog_write.h"
#include "core/err.h"
#include "fio/log/iolog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#define IOLOG_WRITE_LINE_MAX	(IOLOG_WRITE_NAME_MAX + 96u)

_Static_assert(IOLOG_WRITE_BUF > 2 * IOLOG_WRITE_LINE_MAX, "a line always fits in the buffer");

static const char *const iolog_write_action[] = {
	[IOLOG_OP_READ] = "read", [IOLOG_OP_WRITE] = "write", [IOLOG_OP_TRIM] = "trim",
	[IOLOG_OP_SYNC] = "sync", [IOLOG_OP_DATASYNC] = "datasync", [IOLOG_OP_ADD] = "add",
	[IOLOG_OP_OPEN] = "open", [IOLOG_OP_CLOSE] = "close", [IOLOG_OP_WAIT] = "wait",
	[IOLOG_OP_SFR] = "sync_file_range",
};

static void iolog_write_flush(struct iolog_writer *w)
{
	size_t done = 0;

	while (done < w->len && !w->error) {
		ssize_t n = write(w->fd, w->buf + done, w->len - done);

		if (n < 0) {
			if (errno != EINTR)
				w->error = errno;
			continue;
		}
		done += (size_t)n;
	}
	w->len = 0;
}

static char *iolog_write_str(char *p, const char *s, size_t max)
{
	size_t n = strnlen(s, max);

	memcpy(p, s, n);
	return p + n;
}

void iolog_write_line(struct iolog_writer *w, uint64_t now_ns, unsigned file, enum iolog_op op,
		      uint64_t offset, uint64_t len)
{
	char *p;

	if (w->error || file >= w->nr_names)
		return;
	if (w->len + IOLOG_WRITE_LINE_MAX > IOLOG_WRITE_BUF)
		iolog_write_flush(w);
	p = w->buf + w->len;
	p = iolog_put_u64(p, now_ns > w->t0_ns ? (now_ns - w->t0_ns) / 1000u : 0);
	*p++ = ' ';
	p = iolog_write_str(p, w->names[file], IOLOG_WRITE_NAME_MAX);
	*p++ = ' ';
	p = iolog_write_str(p, iolog_write_action[op], 16);
	if (op <= IOLOG_OP_DATASYNC || op == IOLOG_OP_SFR) {
		*p++ = ' ';
		p = iolog_put_u64(p, offset);
		*p++ = ' ';
		p = iolog_put_u64(p, len);
	}
	*p++ = '\n';
	w->len = (size_t)(p - w->buf);
}

int iolog_write_open(struct iolog_writer *w, const char *path, char *const *names, unsigned nr_names,
		     uint64_t now_ns, struct iops_err *err)
{
	static const char header[] = "fio version 3 iolog\n";

	memset(w, 0, sizeof(*w));
	w->fd = -1;
	w->buf = malloc(IOLOG_WRITE_BUF);
	if (!w->buf) {
		iops_err_set(err, ENOMEM, "fio: out of memory for write_iolog");
		return -ENOMEM;
	}
	w->fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (w->fd < 0) {
		int e = errno;

		iops_err_set(err, e, "fio: failed to open write_iolog '%s': %s", path, err_str(e));
		free(w->buf);
		w->buf = NULL;
		return -e;
	}
	w->t0_ns = now_ns;
	w->names = names;
	w->nr_names = nr_names;
	memcpy(w->buf, header, sizeof(header) - 1);
	w->len = sizeof(header) - 1;
	for (unsigned f = 0; f < nr_names; f++)
		iolog_write_line(w, now_ns, f, IOLOG_OP_ADD, 0, 0);
	return 0;
}

int iolog_write_close(struct iolog_writer *w)
{
	int e;

	if (w->fd >= 0) {
		iolog_write_flush(w);
		if (close(w->fd) < 0 && !w->error)
			w->error = errno;
	}
	w->fd = -1;
	free(w->buf);
	w->buf = NULL;
	e = w->error;
	return e ? -e : 0;
}

/* Why path cannot take a trace, or NULL (errno-style code in *code). */
static const char *iolog_write_refusal(const char *path, int *code)
{
	static const char pre[] = "fio version ";
	char head[sizeof(pre) - 1];
	struct stat st;
	const char *why = NULL;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);

	*code = 0;
	if (fd < 0) {
		char dir[PATH_MAX];
		const char *slash = strrchr(path, '/');

		*code = errno;
		if (errno == ELOOP)
			return "it is a symbolic link";
		if (errno != ENOENT)
			return err_str(errno);
		/* not there yet: its directory must be */
		snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) + (slash == path) : 1, slash ? path : ".");
		if (access(dir, W_OK) < 0) {
			*code = errno;
			return err_str(errno);
		}
		*code = 0;
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		why = "not a regular file";
	else if (st.st_size && (read(fd, head, sizeof(head)) != (ssize_t)sizeof(head) ||
				memcmp(head, pre, sizeof(head))))
		why = "it exists and is not a fio iolog";
	close(fd);
	if (why)
		*code = EEXIST;
	return why;
}

int iolog_write_check(const struct fio_config *cfg, struct iops_err *err)
{
	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		const char *path = cfg->jobs[j].write_iolog, *why;
		int code;

		if (!path)
			continue;
		why = iolog_write_refusal(path, &code);
		if (why) {
			iops_err_set(err, code, "fio: cannot write write_iolog '%s': %s", path, why);
			return -code;
		}
	}
	return 0;
}
