/* SPDX-License-Identifier: MIT */
/* opt_value: reading an option's value as fio does (opt_value.h). */
#include "fio/conf/opt_value.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/parse.h"
#include "fio/optval.h"

#define NS_PER_S	1000000000ull

void opt_value_failed(struct opt_diag *d, const struct opt_def *od, const char *val)
{
	opt_diag_add(d, false, "fio: failed parsing %s=%s", od->name, val ? val : "");
}

unsigned opt_value_kb_of(const struct opt_job *oj)
{
	return oj->j.kb_base == 1000 ? 1000 : 1024;
}

/* fio's int: parse, range check with its messages. */
int opt_value_get_int(struct opt_job *oj, const struct opt_def *od, const char *val,
		      struct opt_diag *d, int64_t *out)
{
	int64_t v;

	if (!val || parse_int(val, opt_value_kb_of(oj), &v)) {
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	if (v < od->min)
		return opt_value_range_failed(d, od, val, false, v, od->min);
	if (od->max != OPT_NOMAX && v > od->max)
		return opt_value_range_failed(d, od, val, true, v, od->max);
	*out = v;
	return 0;
}

int opt_value_range_failed(struct opt_diag *d, const struct opt_def *od, const char *val, bool max,
			   long long v, long long lim)
{
	bool named = od->type != OPT_T_BOOL && od->type != OPT_T_FLAG;
	const char *which = max ? "max" : "min";

	opt_diag_add(d, false, "%s%s%s value out of range: %lld (%lld %s)", named ? od->name : "",
		     named ? ": " : "", which, v, lim, which);
	opt_value_failed(d, od, val);
	return -EINVAL;
}

int opt_value_get_uint(struct opt_job *oj, const struct opt_def *od, const char *val,
		       struct opt_diag *d, unsigned *out)
{
	int64_t v;
	int ret = opt_value_get_int(oj, od, val, d, &v);

	if (ret)
		return ret;
	if (v < 0 || v > (int64_t)UINT32_MAX)
		return opt_value_range_failed(d, od, val, true, v, UINT32_MAX);
	*out = (unsigned)v;
	return 0;
}

int opt_value_get_bool(struct opt_job *oj, const struct opt_def *od, const char *val,
		       struct opt_diag *d, bool *out)
{
	int64_t v;
	int ret;

	if (od->type == OPT_T_FLAG && !val) {
		*out = true;
		return 0;
	}
	ret = opt_value_get_int(oj, od, val, d, &v);
	if (ret)
		return ret;
	*out = v != 0;
	return 0;
}

int opt_value_get_time(const struct opt_def *od, const char *val, struct opt_diag *d,
		       uint64_t *out_ns)
{
	int ret = val ? parse_time_ns(val, NS_PER_S, out_ns) : -EINVAL;

	/* fio keeps times in microseconds and takes up to 2^63 - 1 of them (292,000 years); in
	 * nanoseconds they stop at OPT_TIME_MAX_NS (146 years), which any run ends before, and
	 * a start, a ramp and a runtime of that add up without wrapping */
	if (ret == -ERANGE || (!ret && *out_ns > OPT_TIME_MAX_NS)) {
		*out_ns = OPT_TIME_MAX_NS;
		ret = 0;
	}
	if (ret) {
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	return 0;
}

int opt_value_get_choice(const struct opt_def *od, const char *val, struct opt_diag *d, int *out)
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
	opt_value_choices(d, od);
	opt_value_failed(d, od, val);
	return -EINVAL;
}

size_t opt_value_blank_end(const char *s)
{
	size_t len = strcspn(s, ";#");

	while (len && (isspace((unsigned char)s[len - 1]) || iscntrl((unsigned char)s[len - 1])))
		len--;
	return len;
}

int opt_value_set_str(char **dst, const char *val)
{
	char *p = strdup(val ? val : "");

	if (!p)
		return -ENOMEM;
	free(*dst);
	*dst = p;
	return 0;
}

void opt_value_choices(struct opt_diag *d, const struct opt_def *od)
{
	bool first = true;

	if (od->type != OPT_T_CHOICE)
		return;
	for (const struct opt_choice *c = od->choices; c->word; c++) {
		const char *label = first ? "valid values" : "";

		/* a value without a description ends at its padded column, no trailing blank */
		if (c->help && *c->help)
			opt_diag_add(d, true, "%20s: %-10s %s", label, c->word, c->help);
		else
			opt_diag_add(d, true, "%20s: %-10s", label, c->word);
		first = false;
	}
	opt_diag_add(d, true, "%s", "");
}
