/* SPDX-License-Identifier: MIT */
/* suite: what the benchmark modes built on fio (quick, the presets) share. Every step they run
 * is a plain fio command line: suite_argv holds one, prints it as a shell command, and the
 * figures of a finished step are read from fio's report model.
 *
 * Pure logic: nothing here touches the volume (statvfs and the O_DIRECT probe are cmd/'s). */
#ifndef IOPS_SUITE_H
#define IOPS_SUITE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/err.h"
#include "fio/report/report.h"

#define SUITE_ARGV_MAX	40
#define SUITE_ARGV_BUF	8192
#define SUITE_MIB	(1ull << 20)
#define SUITE_MIN_FILE	(64ull << 20)	/* the smallest test file a sized plan accepts */

/* One fio command line: argv[0] is "fio", argv[argc] is NULL. */
struct suite_argv {
	char *argv[SUITE_ARGV_MAX + 1];
	int argc;
	char buf[SUITE_ARGV_BUF];
	size_t used;
	bool overflow;		/* an argument did not fit: the line is unusable */
};

void suite_argv_init(struct suite_argv *a);
/* Append one argument (printf-style). Sets a->overflow and returns -E2BIG when full. */
int suite_argv_add(struct suite_argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The line as a shell command: arguments with shell metacharacters in single quotes. Writes
 * at most n bytes with the '\0' (truncating), returns the full length. */
#define SUITE_LINE_MAX	(SUITE_ARGV_BUF + 4 * SUITE_ARGV_MAX)
size_t suite_argv_line(const struct suite_argv *a, char *out, size_t n);
/* The line and a newline. */
void suite_argv_print(FILE *out, const struct suite_argv *a);

/* Size of a test file: want (rounded down to MiB), lowered to stay within 1/share of the free
 * space. Below the floor (SUITE_MIN_FILE, or want itself when it is smaller and explicit)
 * the plan is refused: -ENOSPC, err names the free space and what is needed. who and dir
 * are for the message ("quick", "/data"). */
int suite_plan_size(uint64_t free_bytes, uint64_t want, bool explicit_want, unsigned share,
		    const char *who, const char *dir, uint64_t *out, struct iops_err *err);

/* Where libaio cannot run (io_setup fails: ENOSYS under qemu-user, EPERM from a seccomp profile),
 * the suite modes fall back to psync, one I/O in flight per job: the queue depth goes into
 * numjobs. The jobs that stand for depth x numjobs: their product, 1 to SUITE_PSYNC_MAX_JOBS. */
#define SUITE_PSYNC_MAX_JOBS	64
unsigned suite_psync_jobs(unsigned depth, unsigned numjobs);

/* The name of a file a mode lays out: "iops-<mode>.<pid>.<n>". 0 or -ENAMETOOLONG. */
int suite_file_name(char *out, size_t n, const char *mode, long pid, unsigned k);

/* A directory fio can take as --directory: not empty, no ':' (fio's list separator).
 * 0 or -EINVAL with err set. */
int suite_check_dir(const char *dir, const char *who, struct iops_err *err);

/* What one finished step measured in one direction (the first reporting unit of its report:
 * with group_reporting, every job merged as fio's group report does). */
struct suite_figures {
	bool valid;			/* the direction did I/O */
	double bw_bps;			/* aggregate bandwidth, bytes/s (fio's group "bw=") */
	double iops;			/* ios per second over the unit's runtime */
	double lat_mean_ns;		/* total latency (submission + completion) mean */
	uint64_t p50_ns, p99_ns, p999_ns;	/* total latency percentiles (clat when no lat histogram) */
	uint64_t runtime_ms;
};

void suite_figures_get(const struct report *rep, int ddir, struct suite_figures *f);

#endif
