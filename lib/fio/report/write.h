/* SPDX-License-Identifier: MIT */
/* write: build the whole report model and print it in every format of --output-format.
 *
 * Sits above the model (report.h), unified_rw_reporting (unified.h) and the formatters
 * (out_*.h): the one place that knows all of them, so that none of them calls back up. */
#ifndef IOPS_WRITE_H
#define IOPS_WRITE_H

#include <stdio.h>

#include "fio/job.h"
#include "fio/report/report.h"
#include "fio/result.h"
#include "sys/diskstats.h"

/* Build units, apply unified_rw_reporting, sum the groups (rep zeroed by the callee). res
 * entries may be NULL (job never ran: skipped). Returns 0 or -ENOMEM; on error rep holds
 * nothing. */
int report_build(struct report *rep, const struct fio_config *cfg, struct job_result *const *res,
		 unsigned nr_res);

/* Print an already built report in the formats of rep->cfg->output_format (order: terse,
 * json, normal, as fio; then openmetrics, labelled with this host's name). Returns 0 or
 * -errno (write error). */
int report_write(FILE *out, const struct report *rep);
/* The same in the formats of fmt (OUT_* bits; 0: normal). */
int report_write_formats(FILE *out, const struct report *rep, unsigned fmt);

/* The final report: report_build(), the disks, report_write(), report_release(). res[i] is
 * the result of cfg->jobs[i]. Returns 0 or -errno. */
int report_print(FILE *out, const struct fio_config *cfg, struct job_result *const *res,
		 unsigned nr_res, const struct disk_result *disks, unsigned nr_disks);
/* report_print() with the --idle-prof figures (idle may be NULL). */
int report_print_idle(FILE *out, const struct fio_config *cfg, struct job_result *const *res,
		      unsigned nr_res, const struct disk_result *disks, unsigned nr_disks,
		      const struct idle_result *idle);

#endif
