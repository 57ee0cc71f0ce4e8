/* SPDX-License-Identifier: MIT */
/* histlog: fio's completion-latency histogram log (write_hist_log=prefix, log_hist_msec,
 * log_hist_coarseness).
 *
 * Every log_hist_msec of a direction's I/O, one entry holds what that direction's clat
 * histogram (core/hist.h: fio's 1856 buckets) gained since its previous entry, with 2^coarseness
 * neighbouring buckets summed per column. The file `<prefix>_clat_hist.<N>.log` (no `.N` with
 * per_job_logs=0) has one line per entry, `time_ms, ddir, bs, c0, c1, ..., cK`, as fio writes
 * it and tools/hist/fiologparser_hist.py reads it. log_hist_msec=0 writes an empty file (fio).
 *
 * Entries are taken at the job's periodic check (never per I/O), kept in memory in chunks
 * and written when the job has finished; at most HISTLOG_MEM_MAX_BYTES per job. */
#ifndef IOPS_HISTLOG_H
#define IOPS_HISTLOG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/err.h"
#include "core/hist.h"
#include "fio/job.h"

#define HISTLOG_MAX_COARSENESS	6
#define HISTLOG_MEM_MAX_BYTES	(512ull << 20)
#define HISTLOG_CHUNK_ENTRIES	64u
#define HISTLOG_RETRY_MS	10u	/* a due direction without new I/O is looked at again */

struct histlog_chunk {
	struct histlog_chunk *next;
	unsigned nr;
	uint64_t *v;			/* HISTLOG_CHUNK_ENTRIES x (3 + columns): time, ddir, bs, counts */
};

struct histlog {
	uint64_t msec;			/* window, ms; 0 = no entries */
	uint64_t epoch_ms;		/* added to the times (iolog_epoch_ms()) */
	unsigned columns;		/* HIST_NR >> coarseness */
	unsigned shift;			/* coarseness */
	uint64_t last_ms[DDIR_NR];	/* time of the direction's last entry */
	uint64_t due_ms;		/* next time an entry may be due (UINT64_MAX: never) */
	uint64_t last_bs[DDIR_NR];	/* block size of its latest I/O */
	struct hist *prev;		/* DDIR_NR snapshots: the histograms at the last entries */
	struct histlog_chunk *head, *tail;
	uint64_t mem_bytes, nr_dropped;
};

/* The job writes a histogram log. */
bool histlog_wanted(const struct job *job);
/* Columns per line for a coarseness (1856 >> c). */
unsigned histlog_columns(unsigned coarseness);
/* File name of the job's log. 0, or -ENAMETOOLONG. */
int histlog_name(char *buf, size_t size, const struct job *job);
/* Before anything runs: every job's histogram log can be written (iolog_check's rules). */
int histlog_check(const struct fio_config *cfg, struct iops_err *err);

int histlog_init(struct histlog *hl, const struct job *job);	/* 0 or -ENOMEM */
void histlog_release(struct histlog *hl);
/* The job's statistics restart (ramp_time over) at elapsed 0. */
void histlog_reset(struct histlog *hl);
/* Periodic check at elapsed_ms: an entry for each direction whose window is over and whose
 * histogram moved. clat[d] is the direction's cumulative clat histogram. */
void histlog_tick(struct histlog *hl, const struct hist *const clat[DDIR_NR], const uint64_t bs[DDIR_NR],
		  uint64_t elapsed_ms);
/* Format entry i's line (with '\n') into buf of size n; returns its length (0 if it does not fit). */
size_t histlog_format(char *buf, size_t n, const uint64_t *entry, unsigned columns);
/* Write the file; problems are reported on diag. 0 or -errno. */
int histlog_write(const struct histlog *hl, const struct job *job, FILE *diag);

#endif
