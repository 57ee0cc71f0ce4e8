/* SPDX-License-Identifier: MIT */
/* iolog_write: write_iolog, fio's trace format version 3 (what fio 3.33 writes, so that fio
 * and iops replay each other's logs; fio's HOWTO "Trace file format"):
 *   fio version 3 iolog
 *   T NAME add          (each file, when the job starts)
 *   T NAME open         (when a pass starts using the file: once, and again per loop)
 *   T NAME read|write|trim OFFSET LENGTH
 *   T NAME sync|datasync 0 0
 *   T NAME close        (when a pass ends, and at the end of the job)
 * T is microseconds from the start of the job. The file is opened in append mode (a second
 * run adds a second log after the first, as fio). Lines go to a buffer of IOLOG_WRITE_BUF
 * bytes written out when it is full: one write(2) per ~1000 I/Os, no allocation. */
#ifndef IOPS_IOLOG_WRITE_H
#define IOPS_IOLOG_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "fio/log/iolog_replay.h"
#include "fio/job.h"

#define IOLOG_WRITE_BUF		(64u * 1024u)
#define IOLOG_WRITE_NAME_MAX	4096u		/* longer names are written cut (never in fio's logs) */

struct iolog_writer {
	int fd;
	int error;			/* first write error (errno), then nothing more is written */
	uint64_t t0_ns;			/* the job's start */
	char *const *names;		/* the job's files */
	unsigned nr_names;
	size_t len;
	char *buf;			/* IOLOG_WRITE_BUF bytes */
};

/* Before anything is touched: every job's write_iolog can be appended to (not a symlink, a
 * regular file that is empty or a fio trace; or missing in a writable directory).
 * 0 or -errno with err "fio: cannot write write_iolog '...': why". */
int iolog_write_check(const struct fio_config *cfg, struct iops_err *err);
/* Open path for appending, write the header and one "add" per file. 0 or -errno (err). */
int iolog_write_open(struct iolog_writer *w, const char *path, char *const *names, unsigned nr_names,
		     uint64_t now_ns, struct iops_err *err);
/* One line: op is READ/WRITE/TRIM (offset, len), SYNC/DATASYNC, OPEN or CLOSE. */
void iolog_write_line(struct iolog_writer *w, uint64_t now_ns, unsigned file, enum iolog_op op,
		      uint64_t offset, uint64_t len);
/* Write out what is buffered and close: 0 or -errno (the first error of the log). */
int iolog_write_close(struct iolog_writer *w);

#endif
