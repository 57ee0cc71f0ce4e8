/* opt_apply: the helpers every opt_apply_*.c shares (fio's parse and range messages), and the
 * options iops takes at one value only or accepts without effect. */
#include "fio/conf/opt_apply.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/parse.h"
#include "fio/optval.h"

#define NS_PER_S	1000000000ull

/* ------------------------------------------------------------------------------------------ */
/* helpers for the apply functions of every opt_apply_*.c */

void opt_apply_failed(struct opt_diag *d, const struct opt_def *od, const char *val)
{
	opt_diag_add(d, false, "fio: failed parsing %s=%s", od->name, val ? val : "");
}

unsigned opt_apply_kb_of(const struct opt_job *oj)
{
	return oj->j.kb_base == 1000 ? 1000 : 1024;
}

/* fio's int: parse, range check with its messages. */
int opt_apply_get_int(struct opt_job *oj, const struct opt_def *od, const char *val,
		      struct opt_diag *d, int64_t *out)
{
	int64_t v;

	if (!val || parse_int(val, opt_apply_kb_of(oj), &v)) {
		opt_apply_failed(d, od, val);
		return -EINVAL;
	}
	if (v < od->min)
		return opt_apply_range_failed(d, od, val, false, v, od->min);
	if (od->max != OPT_NOMAX && v > od->max)
		return opt_apply_range_failed(d, od, val, true, v, od->max);
	*out = v;
	return 0;
}

int opt_apply_range_failed(struct opt_diag *d, const struct opt_def *od, const char *val, bool max,
			   long long v, long long lim)
{
	bool named = od->type != OPT_T_BOOL && od->type != OPT_T_FLAG;
	const char *which = max ? "max" : "min";

	opt_diag_add(d, false, "%s%s%s value out of range: %lld (%lld %s)", named ? od->name : "",
		     named ? ": " : "", which, v, lim, which);
	opt_apply_failed(d, od, val);
	return -EINVAL;
}

int opt_apply_get_uint(struct opt_job *oj, const struct opt_def *od, const char *val,
		       struct opt_diag *d, unsigned *out)
{
	int64_t v;
	int ret = opt_apply_get_int(oj, od, val, d, &v);

	if (ret)
		return ret;
	if (v < 0 || v > (int64_t)UINT32_MAX)
		return opt_apply_range_failed(d, od, val, true, v, UINT32_MAX);
	*out = (unsigned)v;
	return 0;
}

int opt_apply_get_bool(struct opt_job *oj, const struct opt_def *od, const char *val,
		       struct opt_diag *d, bool *out)
{
	int64_t v;
	int ret;

	if (od->type == OPT_T_FLAG && !val) {
		*out = true;
		return 0;
	}
	ret = opt_apply_get_int(oj, od, val, d, &v);
	if (ret)
		return ret;
	*out = v != 0;
	return 0;
}

int opt_apply_get_time(const struct opt_def *od, const char *val, struct opt_diag *d,
		       uint64_t *out_ns)
{
	if (!val || parse_time_ns(val, NS_PER_S, out_ns)) {
		opt_apply_failed(d, od, val);
		return -EINVAL;
	}
	return 0;
}

int opt_apply_get_choice(const struct opt_def *od, const char *val, struct opt_diag *d, int *out)
{
	/* fio's match: the value up to its first ',' (else ':') is the word; the last word that
	 * matches wins, as fio stores each */
	bool found = false;

	if (val)
		for (const struct opt_choice *c = od->choices; c->word; c++)
			if (optval_word_match(c->word, val)) {
				*out = c->value;
				found = true;
			}
	if (found)
		return 0;
	opt_diag_choices(d, od);
	opt_apply_failed(d, od, val);
	return -EINVAL;
}

int opt_apply_set_str(char **dst, const char *val)
{
	char *p = strdup(val ? val : "");

	if (!p)
		return -ENOMEM;
	free(*dst);
	*dst = p;
	return 0;
}

APPLY(opt_apply_uint_field)
{
	return opt_apply_get_uint(oj, od, val, d, (unsigned *)((char *)oj + od->field));
}

APPLY(opt_apply_bool_field)
{
	return opt_apply_get_bool(oj, od, val, d, (bool *)((char *)oj + od->field));
}

APPLY(opt_apply_u64_field)
{
	return opt_apply_get_int(oj, od, val, d, (int64_t *)((char *)oj + od->field));
}

APPLY(opt_apply_word_field)
{
	return opt_apply_get_choice(od, val, d, (int *)((char *)oj + od->field));
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

	return opt_apply_get_bool(oj, od, val, d, &b);
}

APPLY(opt_apply_accept_int)
{
	int64_t v;

	return opt_apply_get_int(oj, od, val, d, &v);
}

const struct opt_choice opt_apply_only_1_choices[] = { OPT_CHOICE("1", "the only value iops supports", 1), { NULL, 0 } };
const struct opt_choice opt_apply_only_0_choices[] = { OPT_CHOICE("0", "the only value iops supports", 0), { NULL, 0 } };
const struct opt_choice opt_apply_only_500_choices[] = { OPT_CHOICE("500", "the only value iops supports", 500), { NULL, 0 } };
const struct opt_choice opt_apply_only_clock_gettime_choices[] = {
	OPT_CHOICE("clock_gettime", "Use clock_gettime(2) for timing (what iops always does)", 0), { NULL, 0 },
};
