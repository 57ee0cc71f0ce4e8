/* SPDX-License-Identifier: MIT */
/* out_normal: fio 3.33's normal (human) report, byte for byte for identical numbers
 * (stat.c's show_thread_status_normal(), show_group_stats() and the disk stats). */
#ifndef IOPS_OUT_NORMAL_H
#define IOPS_OUT_NORMAL_H

#include <stdio.h>

#include "fio/report/report.h"

/* The whole normal report: "\n", job blocks, run status groups, disk stats.
 * Returns 0 or -errno on a write error. */
int out_normal_print(FILE *out, const struct report *rep);

/* One job block (unit u of rep). */
void out_normal_unit(FILE *out, const struct report *rep, const struct report_unit *u);

/* "    clat (usec): min=..., max=..., avg=..., stdev=..." (name "slat", "clat", " lat", "sync");
 * nothing when the stat has no samples. */
void out_normal_lat_line(FILE *out, const char *name, const struct lat_stat *s);

/* "    clat percentiles (usec):" block for histogram h with job j's percentile list. */
void out_normal_percentiles(FILE *out, const char *name, const struct hist *h,
			    const struct job *j);

/* "  lat (nsec)   : 2=..%, ..." lines for one table (unit "nsec", "usec", "msec"). */
void out_normal_lat_dist(FILE *out, const char *unit, const double *pct, unsigned nr);

/* "\nRun status group N (all jobs):\n" and its READ/WRITE/TRIM lines. */
void out_normal_group(FILE *out, const struct report_group *g);

/* "\nDisk stats (read/write):\n" and one line per disk; nothing when nr is 0. */
void out_normal_disks(FILE *out, const struct disk_result *d, unsigned nr);

#endif
