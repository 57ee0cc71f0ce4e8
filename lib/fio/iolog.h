/* iolog: fio's per-job logs (write_bw_log, write_iops_log, write_lat_log; sampled as fio's
 * stat.c does).
 *
 * A job's entries are kept in memory, in chunks that grow geometrically (one allocation per
 * chunk, never per entry), and written when every job has finished, as fio does at job end:
 * `<prefix>_<type>.<thread_number>.log` (`<prefix>_<type>.log` with per_job_logs=0, appended
 * to), one line `time_ms, value, ddir, bs[, offset], prio` per entry. Values: latencies in ns,
 * bw in KiB/s, iops in ios. log_avg_msec > 0 averages each direction over windows (or keeps
 * the window maximum with log_max_value=1); such entries have bs and offset 0.
 *
 * Memory is bounded per job (IOLOG_MEM_MAX_BYTES over all its logs): past it, entries are
 * dropped and counted, and iolog_write() says how many. Files: created 0644 without following
 * symlinks; an existing regular file is truncated (appended to with per_job_logs=0) only if it
 * is empty or looks like a fio log; anything else is refused by name. */
#ifndef IOPS_IOLOG_H
#define IOPS_IOLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/err.h"
#include "fio/job.h"

enum iolog_type { IOLOG_BW, IOLOG_IOPS, IOLOG_CLAT, IOLOG_SLAT, IOLOG_LAT, IOLOG_NR };

#define IOLOG_MEM_MAX_BYTES	(512ull << 20)	/* entries kept per job, all its logs together */
#define IOLOG_CHUNK_MIN		256u		/* entries in a log's first chunk */
#define IOLOG_CHUNK_MAX		16384u		/* chunks double up to this many entries */
#define IOLOG_LINE_MAX		128u		/* longest formatted line */
#define IOLOG_SAMPLE_MS		500u		/* bwavgtime / iopsavgtime default */

struct iolog_entry {
	uint64_t time_ms;
	uint64_t value;
	uint64_t offset;
	uint64_t bs;
	unsigned ddir;
};

struct iolog_chunk {
	struct iolog_chunk *next;
	uint32_t nr, cap;
	struct iolog_entry e[];
};

struct iolog {
	bool on;
	bool inline_log;		/* latency logs: a window closes on the first sample past it */
	uint64_t avg_ms;		/* 0 = one entry per sample */
	struct iolog_chunk *head, *tail;
	uint64_t nr_entries, nr_dropped;
	struct iolog_window {		/* the open window of a direction */
		double mean;		/* running mean, as fio's add_stat_sample() */
		uint64_t n, max, start_ms;
	} win[DDIR_NR];
};

/* Every log of one job. Caller allocates (heap: ~1 KiB), iolog_job_init() fills it. */
struct iolog_job {
	struct iolog log[IOLOG_NR];
	bool log_max;
	uint64_t mem_bytes;		/* chunk bytes allocated so far */
};

/* Whether the job writes any log. */
bool iolog_job_wants(const struct job *job);

/* Window (ms) at which the runner samples bw (type IOLOG_BW) or iops (IOLOG_IOPS) for the
 * summary statistics: 500 by default, log_avg_msec when that log is written, 0 when it is
 * written with log_avg_msec=0 (one sample per I/O, fio's "per unit" log). */
uint64_t iolog_sample_ms(const struct job *job, enum iolog_type t);

/* Set up the job's logs (chunks are allocated as entries arrive). 0 or -errno. */
int iolog_job_init(struct iolog_job *lj, const struct job *job);
void iolog_job_release(struct iolog_job *lj);

/* One sample at elapsed_ms (since the job's epoch). Per-unit logs store it; averaged logs add
 * it to the direction's window and store the window's mean (or max) once it is over. */
void iolog_add(struct iolog_job *lj, enum iolog_type t, uint64_t elapsed_ms, uint64_t value, unsigned ddir,
	       uint64_t bs, uint64_t offset);

/* Job end: store what the open windows hold, at elapsed_ms. */
void iolog_finish(struct iolog_job *lj, uint64_t elapsed_ms);

/* File name of log t of job into buf. 0, or -ENAMETOOLONG. */
int iolog_name(char *buf, size_t size, const struct job *job, enum iolog_type t);

/* One line (with '\n', no NUL) into buf (>= IOLOG_LINE_MAX bytes); returns its length. */
size_t iolog_format(char *buf, const struct iolog_entry *e, bool with_offset, bool with_prio);

/* Before anything runs: every log file of every job can be written (directory exists, no
 * symlink, no non-log file in the way). 0, or -errno with err filled. */
int iolog_check(const struct fio_config *cfg, struct iops_err *err);

/* One log file: iolog_check()'s test of one path (0, or -errno with err filled), and the open
 * every log writer uses (fd, or -errno with *why set when it is iops' own refusal). */
int iolog_check_path(const char *path, struct iops_err *err);
int iolog_open_file(const char *path, bool create, bool append, const char **why);

/* Write the job's log files; problems are reported on diag. Returns 0 or the first -errno. */
int iolog_write(const struct iolog_job *lj, const struct job *job, FILE *diag);

/* job.h log prefixes: duplicate src's into dst (dst's are overwritten, not freed; on failure
 * dst holds none), and free them. */
int iolog_prefix_dup(struct job *dst, const struct job *src);
void iolog_prefix_free(struct job *j);

#endif
