/* SPDX-License-Identifier: MIT */
/* plot_rd_log: a bw, iops or latency log of fio (write_bw_log, write_iops_log, write_lat_log),
 * written by iops or by the real fio: one entry a line, "time, value, direction, block size"
 * then, as the job asked, the offset (log_offset) and the priority (decimal, or hexadecimal
 * with log_prio). time in ms from the job's start (or since the epoch, log_unix_epoch: made
 * relative here, and said so); value in KiB/s (bw), I/Os per second (iops) or ns (lat, clat,
 * slat). Windowed logs (log_avg_msec) have block size 0 and one entry per window and
 * direction; per-I/O logs one per I/O.
 *
 * The content says it is a log; only the file's name (NAME_bw.N.log ...) says which value it
 * holds, as fio names them (a log named otherwise is plotted as plain values). */
#ifndef IOPS_PLOT_RD_LOG_H
#define IOPS_PLOT_RD_LOG_H

#include <stdbool.h>
#include <stddef.h>

#include "core/err.h"

#define PLOT_LOG_DIRS	4	/* read, write, trim, sync */

enum plot_log_kind { PLOT_LOG_BW, PLOT_LOG_IOPS, PLOT_LOG_LAT, PLOT_LOG_CLAT, PLOT_LOG_SLAT, PLOT_LOG_VALUE,
		     PLOT_LOG_KINDS };

extern const char *const plot_log_kind_names[PLOT_LOG_KINDS];	/* "bw", ..., "value" */

struct plot_log_dir {
	size_t n, cap;
	double *t, *v;		/* ms (from the first entry when epoch), the value */
};

struct plot_log {
	char label[256];	/* the job part of the name: "avg.1" of avg_bw.1.log */
	enum plot_log_kind kind;
	unsigned cols;		/* 4 to 6 */
	bool per_io;		/* some entry has a block size: one entry per I/O */
	bool epoch;		/* times were since the epoch: t0_ms subtracted */
	double t0_ms;
	double window_ms;	/* windowed: the entries' spacing (log_avg_msec); 0 per I/O */
	size_t lines;
	struct plot_log_dir dir[PLOT_LOG_DIRS];
};

/* Does text start like a fio log (its first line is one)? */
bool plot_rd_log_is(const char *text, size_t len);

/* The kind and label of a log from its file name (a path: its last component counts). */
void plot_rd_log_name(const char *path, enum plot_log_kind *kind, char *label, size_t len);

/* Reads the whole log. 0, or -EINVAL ("NAME:LINE: ...") / -ENOMEM with err set. An empty
 * text is an empty log when its name is a fio log's name, an error otherwise. */
int plot_rd_log(struct plot_log *l, const char *name, const char *text, size_t len, struct iops_err *err);
void plot_rd_log_free(struct plot_log *l);

#endif
