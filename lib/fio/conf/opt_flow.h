/* SPDX-License-Identifier: MIT */
/* opt_flow: the apply functions of flow control (flow, flow_id, flow_sleep), of
 * io_submit_mode and of serialize_overlap, for fio/conf/opt_table.c's table. Same contract as
 * opt_apply.h. */
#ifndef IOPS_OPT_FLOW_H
#define IOPS_OPT_FLOW_H

#include "fio/conf/opt.h"

opt_apply_fn opt_flow_apply_flow_sleep;
opt_apply_fn opt_flow_apply_submit_mode;

extern const struct opt_choice opt_flow_submit_mode_choices[];

#endif
