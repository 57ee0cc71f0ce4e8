/* SPDX-License-Identifier: MIT */
/* opt_apply_iolog: write_iolog, read_iolog and the replay_* options (fio/log/iolog_replay.h). */
#include "fio/conf/opt_apply.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "fio/log/blktrace.h"
#include "fio/log/iolog_replay.h"

/* write_iolog, read_iolog, replay_redirect, merge_blktrace_file: a non-empty path into the
 * entry's field. */
APPLY(opt_apply_iolog_path)
{
	if (!val || !*val) {
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	return opt_value_set_str((char **)((char *)oj + od->field), val);
}

APPLY(opt_apply_replay_align)
{
	int64_t v;
	int ret = opt_value_get_int(oj, od, val, d, &v);

	if (ret)
		return ret;
	if (v < 0 || (v & (v - 1))) {	/* 0: fio's 1t, kept as the int 0 (no alignment) */
		opt_diag_add(d, false, "replay_align: must be a power-of-2");
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	oj->j.replay_align = (uint64_t)v;
	return 0;
}

APPLY(opt_apply_replay_skip)
{
	unsigned bits;

	if (!val || !*val || iolog_replay_skip_parse(val, &bits)) {
		const char *bad = val ? val : "";
		size_t len;

		/* fio names the first item it does not know */
		for (;;) {
			len = strcspn(bad, ",");
			if (!((len == 4 && (!strncmp(bad, "read", 4) || !strncmp(bad, "trim", 4) ||
					    !strncmp(bad, "sync", 4))) || (len == 5 && !strncmp(bad, "write", 5))) ||
			    !bad[len])
				break;
			bad += len + 1;
		}
		opt_diag_add(d, false, "Unknown skip type: %.*s", (int)len, bad);
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	oj->j.replay_skip = bits;
	return 0;
}


/* merge_blktrace_scalars, merge_blktrace_iters: the ':' list as given, into the entry's field */
APPLY(opt_apply_merge_list)
{
	if (!val || blktrace_list_parse(val, NULL, BLKTRACE_MAX_TRACES) < 0) {
		opt_diag_add(d, false, "%s: numbers of 1 or more separated by ':' expected, at most %u", od->name,
			     BLKTRACE_MAX_TRACES);
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	return opt_value_set_str((char **)((char *)oj + od->field), val);
}
