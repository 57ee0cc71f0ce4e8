/* SPDX-License-Identifier: MIT */
/* opt_apply_buf: what write buffers contain: buffer_pattern, scramble_buffers, the
 * compressible and dedupable buffer options (fio/data/bufgen.h does the filling). */
#include "fio/conf/opt_apply.h"

#include <errno.h>

#include "fio/data/pattern.h"

APPLY(opt_apply_buffer_pattern)
{
	struct pattern_out out = { .buf = oj->j.buffer_pattern, .cap = JOB_VERIFY_PATTERN_MAX };

	if (!val || pattern_parse(val, &out)) {
		oj->j.buffer_pattern_len = 0;
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	oj->j.buffer_pattern_len = out.len;
	return 0;
}

const struct opt_choice opt_apply_dedupe_mode_choices[] = {
	{ .word = "repeat", .help = "A dedupable buffer repeats an earlier unique one", .value = 0 },
	{ .word = "working_set", .help = "A dedupable buffer is one of a working set (dedupe_working_set_percentage)", .value = 1 },
	{ .word = NULL },
};

APPLY(opt_apply_dedupe_mode)
{
	int v;
	int ret = opt_value_get_choice(od, val, d, &v);

	if (!ret)
		oj->j.dedupe_working_set = v == 1;
	return ret;
}
