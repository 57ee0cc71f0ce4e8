/* SPDX-License-Identifier: MIT */
/* opt_flow: flow, flow_id, flow_sleep, io_submit_mode and serialize_overlap (fio/conf/opt_flow.h). */
#include "fio/conf/opt_flow.h"

#include <errno.h>

#include "fio/conf/opt_apply.h"

#define NS_PER_US	1000ull

UINT_FIELD_APPLY(opt_flow_apply_flow_sleep, flow_sleep_ns, oj->j.flow_sleep_ns *= NS_PER_US)

const struct opt_choice opt_flow_submit_mode_choices[] = {
	{ .word = "inline", .help = "The job's thread queues, submits and reaps", .value = 0 },
	{ .word = "offload", .help = "A submit thread per job runs the engine", .value = 1 },
	{ .word = NULL },
};

APPLY(opt_flow_apply_submit_mode)
{
	int v;

	if (opt_value_get_choice(od, val, d, &v))
		return -EINVAL;
	oj->j.submit_offload = v == 1;
	return 0;
}
