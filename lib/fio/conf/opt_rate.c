/* SPDX-License-Identifier: MIT */
#include "fio/conf/opt_rate.h"

#include <errno.h>
#include <string.h>

#include "core/parse.h"
#include "fio/optval.h"
#include "fio/conf/opt_value.h"

#define NS_PER_US	1000ull
#define NS_PER_S	1000000000ull

static int rate_failed(struct opt_diag *d, const struct opt_def *od, const char *val)
{
	opt_diag_add(d, false, "fio: failed parsing %s=%s", od->name, val ? val : "");
	return -EINVAL;
}

/* One non-negative integer with size suffixes (fio's int / ull). */
static int rate_get(const struct opt_job *oj, const struct opt_def *od, const char *val, const char *part,
		    struct opt_diag *d, uint64_t *out)
{
	int64_t v;

	if (!part || parse_int(part, oj->j.kb_base == 1000 ? 1000 : 1024, &v))
		return rate_failed(d, od, val);
	if (v < 0) {
		opt_diag_add(d, false, "%s: min value out of range: %lld (0 min)", od->name, (long long)v);
		return rate_failed(d, od, val);
	}
	*out = (uint64_t)v;
	return 0;
}

/* rate=1m,500k: per-direction list, fio's propagation (parse_dir_list). */
static int rate_dirs(struct opt_job *oj, const struct opt_def *od, const char *val, struct opt_diag *d,
		     uint64_t out[DDIR_NR])
{
	char parts[3][PARSE_DIR_PART_MAX];
	bool present[3];
	uint64_t v[3] = { 0, 0, 0 };

	if (!val || parse_dir_list(val, parts, present) < 0 || !(present[0] || present[1] || present[2]))
		return rate_failed(d, od, val);
	for (int i = 0; i < 3; i++)
		if (present[i] && rate_get(oj, od, val, parts[i], d, &v[i]))
			return -EINVAL;
	for (int i = 0; i < 3; i++)
		if (present[i])
			out[i] = v[i];
	return 0;
}

#define RATE_APPLY(fn) int fn(struct opt_job *oj, const struct opt_def *od, const char *val, struct opt_diag *d)

/* rate, rate_min, rate_iops, rate_iops_min: into the entry's per-direction array */
RATE_APPLY(opt_rate_apply_dirs)
{
	return rate_dirs(oj, od, val, d, (uint64_t *)((char *)oj + od->field));
}

RATE_APPLY(opt_rate_apply_cycle)
{
	uint64_t v;

	if (rate_get(oj, od, val, val, d, &v))
		return -EINVAL;
	if (v > UINT32_MAX) {
		opt_diag_add(d, false, "%s: max value out of range: %llu (%u max)", od->name,
			     (unsigned long long)v, UINT32_MAX);
		return rate_failed(d, od, val);
	}
	oj->j.rate_cycle_ms = v;
	return 0;
}

static int rate_choice(const struct opt_def *od, const char *val, struct opt_diag *d, int *out)
{
	bool found = false;

	if (val)	/* fio's word rule (opt_value_get_choice): 'linear ' is no choice */
		for (const struct opt_choice *c = od->choices; c->word; c++)
			if (optval_word_match(c->word, val)) {
				*out = c->value;
				found = true;
			}
	if (found)
		return 0;
	opt_value_choices(d, od);
	return rate_failed(d, od, val);
}

const struct opt_choice opt_rate_process_choices[] = {
	{ .word = "linear", .help = "Evenly spaced I/Os", .value = 0 },
	{ .word = "poisson", .help = "Exponential gaps (Poisson arrivals)", .value = 1 },
	{ .word = NULL },
};

const struct opt_choice opt_rate_blocks_type_choices[] = {
	{ .word = "complete", .help = "Count I/Os as they complete", .value = 0 },
	{ .word = "issue", .help = "Count I/Os as they are issued", .value = 1 },
	{ .word = NULL },
};

RATE_APPLY(opt_rate_apply_process)
{
	int v;

	if (rate_choice(od, val, d, &v))
		return -EINVAL;
	oj->j.rate_poisson = v == 1;
	return 0;
}

RATE_APPLY(opt_rate_apply_thinktime_blocks_type)
{
	int v;

	if (rate_choice(od, val, d, &v))
		return -EINVAL;
	oj->j.thinktime_blocks_issue = v == 1;
	return 0;
}

RATE_APPLY(opt_rate_apply_ignore_thinktime)
{
	uint64_t v;

	if (rate_get(oj, od, val, val, d, &v))
		return -EINVAL;
	if (v > 1) {
		opt_diag_add(d, false, "max value out of range: %llu (1 max)", (unsigned long long)v);
		return rate_failed(d, od, val);
	}
	oj->j.rate_ignore_thinktime = v == 1;
	return 0;
}

static int rate_time(const struct opt_def *od, const char *val, uint64_t unit_ns, struct opt_diag *d,
		     uint64_t *out_ns)
{
	if (!val || parse_time_ns(val, unit_ns, out_ns))
		return rate_failed(d, od, val);
	return 0;
}

RATE_APPLY(opt_rate_apply_thinktime)
{
	return rate_time(od, val, NS_PER_US, d, &oj->j.thinktime_ns);
}

RATE_APPLY(opt_rate_apply_thinktime_spin)
{
	return rate_time(od, val, NS_PER_US, d, &oj->j.thinktime_spin_ns);
}

RATE_APPLY(opt_rate_apply_thinktime_iotime)
{
	return rate_time(od, val, NS_PER_S, d, &oj->j.thinktime_iotime_ns);
}

RATE_APPLY(opt_rate_apply_thinktime_blocks)
{
	uint64_t v;

	if (rate_get(oj, od, val, val, d, &v))
		return -EINVAL;
	oj->j.thinktime_blocks = v;
	oj->j.thinktime_blocks_set = true;
	return 0;
}

int opt_rate_check(struct job *j, struct opt_diag *d)
{
	bool bad = false;

	for (int i = 0; i < DDIR_NR; i++)
		if ((j->rate_bps[i] && j->rate_bps[i] < j->rate_min_bps[i]) ||
		    (j->rate_iops[i] && j->rate_iops[i] < j->rate_iops_min[i])) {
			opt_diag_add(d, false, "fio: minimum rate exceeds rate, ddir %d", i);
			bad = true;
		}
	if (j->thinktime_spin_ns > j->thinktime_ns)
		j->thinktime_spin_ns = j->thinktime_ns;
	return bad ? -EINVAL : 0;
}

/* max_latency=T[,T[,T]]: per direction, microseconds when no unit is given. */
RATE_APPLY(opt_rate_apply_max_latency)
{
	char parts[3][PARSE_DIR_PART_MAX];
	bool present[3];
	uint64_t v[3] = { 0, 0, 0 };

	if (!val || parse_dir_list(val, parts, present) < 0 || !(present[0] || present[1] || present[2]))
		return rate_failed(d, od, val);
	for (int i = 0; i < 3; i++) {
		int ret = present[i] ? parse_time_ns(parts[i], NS_PER_US, &v[i]) : 0;

		if (ret == -ERANGE || (!ret && v[i] > OPT_TIME_MAX_NS))
			v[i] = OPT_TIME_MAX_NS;	/* fio takes 2^63 - 1 us: no bound any run meets */
		else if (ret)
			return rate_failed(d, od, val);
	}
	for (int i = 0; i < 3; i++)
		if (present[i])
			oj->j.max_latency_ns[i] = v[i];
	return 0;
}
