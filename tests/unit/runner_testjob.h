/* SPDX-License-Identifier: MIT */
/* Hand-built jobs for the runner's unit tests (offgen, target, runner): fio's defaults. */
#ifndef RUNNER_TESTJOB_H
#define RUNNER_TESTJOB_H

#include <stdio.h>
#include <string.h>

#include "fio/job.h"

static inline void testjob_init(struct job *j, enum rw_mode rw)
{
	memset(j, 0, sizeof(*j));
	snprintf(j->name, sizeof(j->name), "t");
	j->thread_number = 1;
	j->numjobs = 1;
	j->wait_for = -1;
	j->rw = rw;
	j->rw_has_read = rw == RW_READ || rw == RW_RANDREAD || rw == RW_RW || rw == RW_RANDRW;
	j->rw_has_write = rw == RW_WRITE || rw == RW_RANDWRITE || rw == RW_RW || rw == RW_RANDRW;
	j->rw_random = rw == RW_RANDREAD || rw == RW_RANDWRITE || rw == RW_RANDRW;
	/* trim */
	j->rw_has_trim = rw == RW_TRIM || rw == RW_RANDTRIM || rw == RW_TRIMWRITE || rw == RW_RANDTRIMWRITE;
	j->rw_has_write = j->rw_has_write || rw == RW_TRIMWRITE || rw == RW_RANDTRIMWRITE;
	j->rw_random = j->rw_random || rw == RW_RANDTRIM || rw == RW_RANDTRIMWRITE;
	j->percentage_random = j->rw_random ? 100 : 0;
	j->rw_nr_same_offset = 1;
	j->rwmixread = 50;
	for (int d = 0; d < DDIR_NR; d++)
		j->bs_min[d] = j->bs_max[d] = 4096;
	j->iodepth = 1;
	j->iodepth_batch_submit = 1;
	j->iodepth_batch_complete_min = 1;
	j->iodepth_batch_complete_max = 1;
	j->iodepth_low = 1;
	snprintf(j->ioengine, sizeof(j->ioengine), "null");
	j->invalidate = true;
	j->loops = 1;
	j->randrepeat = true;
	j->randseed = 0x89;
	j->fallocate = FALLOC_NATIVE;
	j->clat_percentiles = true;
	j->kb_base = 1024;
	j->sig_figs = 4;
	j->lat_pct = 100.0;	/* latency_percentile */
	j->gtod_cpu = -1;
	j->log_entries = 1024;
}

#endif
