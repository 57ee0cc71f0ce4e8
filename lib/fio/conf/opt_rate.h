/* SPDX-License-Identifier: MIT */
/* opt_rate: the apply functions of the rate and thinktime options (rate, rate_iops, rate_min,
 * rate_iops_min, rate_cycle, rate_process, rate_ignore_thinktime, thinktime*), for
 * fio/conf/opt_table.c's table. Same contract as opt_apply.h. */
#ifndef IOPS_OPT_RATE_H
#define IOPS_OPT_RATE_H

#include "fio/conf/opt.h"

opt_apply_fn opt_rate_apply_dirs;	/* rate, rate_min, rate_iops, rate_iops_min (.field) */
opt_apply_fn opt_rate_apply_cycle;
opt_apply_fn opt_rate_apply_process;
opt_apply_fn opt_rate_apply_ignore_thinktime;
opt_apply_fn opt_rate_apply_thinktime;
opt_apply_fn opt_rate_apply_thinktime_spin;
opt_apply_fn opt_rate_apply_thinktime_blocks;
opt_apply_fn opt_rate_apply_thinktime_blocks_type;
opt_apply_fn opt_rate_apply_thinktime_iotime;
opt_apply_fn opt_rate_apply_max_latency;	/* max_latency */

extern const struct opt_choice opt_rate_process_choices[];
extern const struct opt_choice opt_rate_blocks_type_choices[];

/* fio's fixup checks of a finished job (rate_min above rate; thinktime_spin capped at
 * thinktime). Returns 0 or -EINVAL with fio's lines in d. */
int opt_rate_check(struct job *j, struct opt_diag *d);

#endif
