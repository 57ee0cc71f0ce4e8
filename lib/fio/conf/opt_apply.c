/* SPDX-License-Identifier: MIT */
/* opt_apply: the appliers of the entries that store a value as is in a field of the job, and
 * of the options iops takes at one value only or accepts without effect. */
#include "fio/conf/opt_apply.h"

#include <errno.h>
#include <stdint.h>

#include "fio/optval.h"

/* ------------------------------------------------------------------------------------------ */
/* values stored as is */

APPLY(opt_apply_uint_field)
{
	return opt_value_get_uint(oj, od, val, d, (unsigned *)((char *)oj + od->field));
}

APPLY(opt_apply_bool_field)
{
	return opt_value_get_bool(oj, od, val, d, (bool *)((char *)oj + od->field));
}

APPLY(opt_apply_u64_field)
{
	return opt_value_get_int(oj, od, val, d, (int64_t *)((char *)oj + od->field));
}

APPLY(opt_apply_word_field)
{
	return opt_value_get_choice(od, val, d, (int *)((char *)oj + od->field));
}

/* ------------------------------------------------------------------------------------------ */
/* options iops takes at one value only, and those it accepts without effect */

/* Options iops accepts only at the value that matches what it always does (od->choices lists
 * the accepted spellings, the first one is shown in the message). */
APPLY(opt_apply_only_default)
{
	(void)oj;
	if (val)
		for (const struct opt_choice *c = od->choices; c->word; c++)
			if (optval_word_match(c->word, val))
				return 0;
	opt_diag_add(d, false, "fio: option '%s=%s' is not supported by iops (only %s=%s)", od->name,
		     val ? val : "", od->name, od->choices[0].word);
	return -EINVAL;
}

APPLY(opt_apply_accept_bool)
{
	bool b;

	return opt_value_get_bool(oj, od, val, d, &b);
}

APPLY(opt_apply_accept_int)
{
	int64_t v;

	return opt_value_get_int(oj, od, val, d, &v);
}

const struct opt_choice opt_apply_only_1_choices[] = { { .word = "1", .help = "the only value iops supports", .value = 1 }, { .word = NULL } };
const struct opt_choice opt_apply_only_0_choices[] = { { .word = "0", .help = "the only value iops supports", .value = 0 }, { .word = NULL } };
const struct opt_choice opt_apply_only_500_choices[] = { { .word = "500", .help = "the only value iops supports", .value = 500 }, { .word = NULL } };
const struct opt_choice opt_apply_only_clock_gettime_choices[] = {
	{ .word = "clock_gettime", .help = "Use clock_gettime(2) for timing (what iops always does)", .value = 0 }, { .word = NULL },
};
