/* SPDX-License-Identifier: MIT */
/* iolog: fio's per-job logs (write_bw_log, write_iops_log, write_lat_log; sampled as fio's
 * stat.c does).
 *
 * Every entry reaches the file, however fast the job: the job thread fills fixed blocks of a
 * small ring (IOLOG_RING per log, allocated when the job starts) and hands each full block to
 * the job's writer thread, which formats or compresses it and writes it while the job goes on.
 * Memory is bounded; when the writer falls a whole ring behind, the job thread waits for it.
 * Files: `<prefix>_<type>.<thread_number>.log` (`<prefix>_<type>.log` with per_job_logs=0:
 * every job appends to it once it is done, in job order, from its own temporary file), one line
 * `time_ms, value, ddir, bs[, offset], prio` per entry. Values: latencies in ns, bw in KiB/s,
 * iops in ios. log_avg_msec > 0 averages each direction over windows (or keeps the window
 * maximum with log_max_value=1); such entries have bs and offset 0.
 *
 * log_store_compressed=1 writes `<name>.fz` instead: zlib streams (one per log_compression
 * bytes of entries, fio's binary sample layout, struct iolog_entry) that `--inflate-log` turns
 * back into the text lines (fio/log/logzip.h). log_compression alone changes nothing visible: the
 * text is streamed, so memory stays bounded without it.
 *
 * Files are created 0644 without following symlinks; an existing regular file is truncated
 * (appended to with per_job_logs=0) only if it is empty or looks like a fio log; anything else
 * is refused by name. */
#ifndef IOPS_IOLOG_H
#define IOPS_IOLOG_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/err.h"
#include "fio/job.h"

enum iolog_type { IOLOG_BW, IOLOG_IOPS, IOLOG_CLAT, IOLOG_SLAT, IOLOG_LAT, IOLOG_NR };

#define IOLOG_RING		4u		/* blocks per log */
#define IOLOG_BLOCK_BYTES	(64u << 10)	/* a block, unless log_compression sets it */
#define IOLOG_BLOCK_MAX		(4u << 20)	/* larger log_compression: streams of this size */
#define IOLOG_LINE_MAX		128u		/* longest formatted line */
#define IOLOG_SAMPLE_MS		500u		/* bwavgtime / iopsavgtime default */

/* fio's sample flags, in the direction word of compressed logs */
#define IOLOG_F_OFFSET		0x80000000u	/* the entry has an offset (40 bytes, else 32) */
#define IOLOG_F_PRIO		0x40000000u	/* log_prio: the priority column is the hex value */
#define IOLOG_DDIR_MASK		(~(IOLOG_F_OFFSET | IOLOG_F_PRIO))
#define IOLOG_ENTRY_SHORT	32u		/* bytes of an entry without its offset */

/* One entry, laid out as fio's binary sample (little-endian, as the .fz files hold it). */
struct iolog_entry {
	uint64_t time_ms;
	uint64_t value;
	uint32_t ddir;			/* direction | IOLOG_F_* */
	uint16_t prio;			/* ioprio value: class << 13 | level */
	uint16_t pad;
	uint64_t bs;
	uint64_t offset;		/* only with IOLOG_F_OFFSET */
};

struct iolog_zip;			/* fio/log/logzip.h */

struct iolog {
	bool on;
	bool inline_log;		/* latency logs: a window closes on the first sample past it */
	uint64_t avg_ms;		/* 0 = one entry per sample */
	uint32_t flags;			/* IOLOG_F_* of every entry */
	struct iolog_window {		/* the open window of a direction */
		double mean;		/* running mean, as fio's add_stat_sample() */
		uint64_t n, max, start_ms;
	} win[DDIR_NR];
	/* the ring: the job thread fills cur, the writer empties the blocks before it */
	struct iolog_entry *ring;	/* IOLOG_RING blocks of cap entries */
	struct iolog_entry *cur;	/* the block being filled */
	uint32_t cur_nr, cap;
	uint32_t blk_nr[IOLOG_RING];	/* entries of each handed-over block */
	uint64_t produced, consumed;	/* blocks handed over / written; under the job's lock */
	uint64_t nr_entries;
	/* the writer's */
	int fd;				/* the log file, or the job's temporary file (per_job_logs=0) */
	bool tmp;
	int err;			/* first write error (-errno), 0 */
	struct iolog_zip *zip;		/* log_store_compressed; NULL: text */
};

/* Every log of one job. Caller allocates (heap), iolog_job_init() fills it. */
struct iolog_job {
	struct iolog log[IOLOG_NR];
	bool log_max;
	uint64_t epoch_ms;		/* added to every time: log_unix_epoch / log_alternate_epoch */
	bool writer_on;			/* the writer thread runs (joined by iolog_finish) */
	bool closing;			/* under mu: no block will come any more */
	uint64_t nr_stalls;		/* times the job thread waited for the writer */
	pthread_mutex_t mu;
	pthread_cond_t work, room;	/* a block to write / a block free again */
	pthread_t writer;
	char *wbuf;			/* the writer's text buffer */
};

/* log_unix_epoch / log_alternate_epoch: the job's start in ms of its clock's epoch (read now,
 * as the job starts), else 0: what every log time of the job is counted from. */
uint64_t iolog_epoch_ms(const struct job *job);

/* Whether the job writes any log. */
bool iolog_job_wants(const struct job *job);

/* Window (ms) at which the runner samples bw (type IOLOG_BW) or iops (IOLOG_IOPS) for the
 * summary statistics: 500 by default, log_avg_msec when that log is written, 0 when it is
 * written with log_avg_msec=0 (one sample per I/O, fio's "per unit" log). */
uint64_t iolog_sample_ms(const struct job *job, enum iolog_type t);

/* At job start: allocate the rings, open the files and start the writer thread. 0 or -errno
 * with err filled (fio's one line). */
int iolog_job_init(struct iolog_job *lj, const struct job *job, struct iops_err *err);
/* Free everything (stops the writer first if iolog_finish() was not called). */
void iolog_job_release(struct iolog_job *lj);

/* One sample at elapsed_ms (since the job's epoch). Per-unit logs store it; averaged logs add
 * it to the direction's window and store the window's mean (or max) once it is over. prio is
 * the request's ioprio value (0: none). */
void iolog_add(struct iolog_job *lj, enum iolog_type t, uint64_t elapsed_ms, uint64_t value, unsigned ddir,
	       uint64_t bs, uint64_t offset, uint16_t prio);

/* Job end: store what the open windows hold, at elapsed_ms, hand the last blocks over and
 * wait for the writer to finish. */
void iolog_finish(struct iolog_job *lj, uint64_t elapsed_ms);

/* File name of log t of job into buf. 0, or -ENAMETOOLONG. */
int iolog_name(char *buf, size_t size, const struct job *job, enum iolog_type t);

/* One line (with '\n', no NUL) into buf (>= IOLOG_LINE_MAX bytes); returns its length. The
 * columns follow e->ddir's flags. */
size_t iolog_format(char *buf, const struct iolog_entry *e);

/* Before anything runs: every log file of every job can be written (directory exists, no
 * symlink, no non-log file in the way). 0, or -errno with err filled. */
int iolog_check(const struct fio_config *cfg, struct iops_err *err);

/* One log file: iolog_check()'s test of one path (0, or -errno with err filled), and the open
 * every log writer uses (fd, or -errno with *why set when it is iops' own refusal). */
int iolog_check_path(const char *path, struct iops_err *err);
/* For every log writer: write(2) all of p (EINTR retried): 0 or -errno; v's decimal digits at
 * p, returning the end. */
int iolog_write_all(int fd, const char *p, size_t n);
char *iolog_put_u64(char *p, uint64_t v);
int iolog_open_file(const char *path, bool create, bool append, const char **why);

/* After every job: close the job's log files (per_job_logs=0: append its temporary file to the
 * shared one); problems are reported on diag. Returns 0 or the first -errno. */
int iolog_write(struct iolog_job *lj, const struct job *job, FILE *diag);

/* job.h log prefixes: duplicate src's into dst (dst's are overwritten, not freed; on failure
 * dst holds none), and free them. */
int iolog_prefix_dup(struct job *dst, const struct job *src);
void iolog_prefix_free(struct job *j);

#endif
