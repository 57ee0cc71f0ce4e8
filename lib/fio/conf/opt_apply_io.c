/* SPDX-License-Identifier: MIT */
/* opt_apply_io: the I/O pattern (block sizes, direction and mix, random offsets and their
 * seeds, buffer contents) and the engine that issues it, with its queue depths. */
#include "fio/conf/opt_apply.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/parse.h"
#include "fio/optval.h"
#include "engine/engine.h"
#include "fio/offset/dist.h"

/* bs / ba: per-direction list of sizes, each >= 1. */
static int dir_sizes(struct opt_job *oj, const struct opt_def *od, const char *val,
		     struct opt_diag *d, uint64_t out[DDIR_NR], bool ranged_lo_hi,
		     uint64_t hi_out[DDIR_NR])
{
	char parts[3][PARSE_DIR_PART_MAX];
	bool present[3];
	uint64_t v[3];
	int n;

	if (!val || (n = parse_dir_list(val, parts, present)) < 0) {
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	for (int i = 0; i < 3; i++) {
		if (!present[i])
			continue;
		if (parse_size(parts[i], opt_value_kb_of(oj), &v[i])) {
			opt_value_failed(d, od, val);
			return -EINVAL;
		}
		if (v[i] < 1) {
			return opt_value_range_failed(d, od, val, false, 0, 1);
		}
	}
	for (int i = 0; i < 3; i++) {
		if (!present[i])
			continue;
		out[i] = v[i];
		if (ranged_lo_hi)
			hi_out[i] = v[i];
	}
	return 0;
}

APPLY(opt_apply_bs)
{
	int ret = dir_sizes(oj, od, val, d, oj->j.bs_min, true, oj->j.bs_max);

	if (!ret)
		oj->bs_set = true;
	return ret;
}

APPLY(opt_apply_ba)
{
	int ret = dir_sizes(oj, od, val, d, oj->j.blockalign, false, NULL);

	if (!ret)
		oj->ba_set = true;
	return ret;
}

/* One range of bsrange as fio reads it: "a-b" (else "a:b") up to the next ',', both ends
 * fio's numbers, swapped when reversed. 0, or 1 when it is no range. */
static int bsrange_part(const struct opt_job *oj, const char *p, uint64_t *lo, uint64_t *hi)
{
	char buf[128];
	size_t n = strcspn(p, ",");
	char *sep;
	int64_t a, b;

	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	sep = strchr(buf, '-');
	if (!sep)
		sep = strchr(buf, ':');
	if (!sep)
		return 1;
	*sep = '\0';
	if (optval_decimal(buf, opt_value_kb_of(oj), &a) || optval_decimal(sep + 1, opt_value_kb_of(oj), &b))
		return 1;
	*lo = (uint64_t)a < (uint64_t)b ? (uint64_t)a : (uint64_t)b;
	*hi = (uint64_t)a < (uint64_t)b ? (uint64_t)b : (uint64_t)a;
	return 0;
}

/* bsrange: per-direction ranges, ',' separated, as fio 3.33 reads them (any range that reads
 * makes the value taken; range i sets direction i, the last one also the directions after
 * it). A range from 0 bytes, or to one fio wraps from a negative number, is refused. */
APPLY(opt_apply_bsrange)
{
	size_t off[OPTVAL_PARTS_MAX], len[OPTVAL_PARTS_MAX];
	bool more[OPTVAL_PARTS_MAX], ok[OPTVAL_PARTS_MAX];
	uint64_t lo[OPTVAL_PARTS_MAX], hi[OPTVAL_PARTS_MAX];
	unsigned n = optval_split(OPTVAL_RANGE, val, off, len, more, OPTVAL_PARTS_MAX), nr_ok = 0;

	for (unsigned i = 0; i < n; i++) {
		ok[i] = !bsrange_part(oj, val + off[i], &lo[i], &hi[i]);
		if (!ok[i])
			continue;
		if (lo[i] < 1)
			return opt_value_range_failed(d, od, val, false, 0, 1);
		if (hi[i] > (uint64_t)INT64_MAX) {
			opt_diag_add(d, false, "fio: %s=%s: fio 3.33 would take its end as %llu (a negative number "
				     "wraps), which iops refuses", od->name, val, (unsigned long long)hi[i]);
			return -EINVAL;
		}
		nr_ok++;
	}
	if (!nr_ok) {
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	for (unsigned k = 0; k < DDIR_NR; k++) {
		unsigned i = k < n ? k : n - 1;

		if (ok[i] && (k < n || k == i || !more[i])) {
			oj->j.bs_min[k] = lo[i];
			oj->j.bs_max[k] = hi[i];
		}
	}
	oj->bs_set = true;
	return 0;
}

/* dist: validate now (fio's messages), keep the text; fioconf applies the sizes */
APPLY(opt_apply_bssplit)
{
	struct dist_bssplit *s = calloc(DDIR_NR, sizeof(*s));
	bool present[DDIR_NR];
	int ret;

	if (!s)
		return -ENOMEM;
	if (!val || dist_bssplit_parse(val, opt_value_kb_of(oj), s, present, d)) {
		opt_value_failed(d, od, val);
		ret = -EINVAL;
	} else {
		ret = opt_value_set_str(&oj->j.bssplit, val);
		oj->j.bssplit_kb_base = opt_value_kb_of(oj);	/* fio: sizes read with the kb_base of the moment */
	}
	free(s);
	return ret;
}

APPLY(opt_apply_random_distribution)
{
	struct dist_rand *r = calloc(1, sizeof(*r));
	int ret;

	if (!r)
		return -ENOMEM;
	if (val && optval_word_match("random", val)) {	/* fio: what follows "random" is not read */
		r->kind = DIST_RANDOM;
		ret = 0;
		free(oj->j.random_distribution);
		oj->j.random_distribution = NULL;
		free(r);
		return 0;
	}
	if (!val || dist_rand_parse(val, opt_value_kb_of(oj), r, d)) {
		opt_value_failed(d, od, val);
		ret = -EINVAL;
	} else if (r->kind == DIST_RANDOM) {
		free(oj->j.random_distribution);
		oj->j.random_distribution = NULL;
		ret = 0;
	} else {
		ret = opt_value_set_str(&oj->j.random_distribution, val);
		oj->j.random_distribution_kb_base = opt_value_kb_of(oj);
	}
	free(r);
	return ret;
}

const struct opt_choice opt_apply_rw_choices[] = {
	{ .word = "read", .help = "Reads in ascending offset order", .value = RW_READ },
	{ .word = "write", .help = "Writes in ascending offset order", .value = RW_WRITE },
	{ .word = "trim", .help = "Discards in ascending offset order", .value = RW_TRIM },
	{ .word = "randread", .help = "Reads at random offsets", .value = RW_RANDREAD },
	{ .word = "randwrite", .help = "Writes at random offsets", .value = RW_RANDWRITE },
	{ .word = "randtrim", .help = "Discards at random offsets", .value = RW_RANDTRIM },
	{ .word = "rw", .help = "Mixed reads and writes, ascending offsets", .value = RW_RW },
	{ .word = "readwrite", .help = "Mixed reads and writes, ascending offsets", .value = RW_RW },
	{ .word = "randrw", .help = "Mixed reads and writes at random offsets", .value = RW_RANDRW },
	{ .word = "trimwrite", .help = "Discard each block, then write it; in order", .value = RW_TRIMWRITE },
	{ .word = "randtrimwrite", .help = "Discard each block, then write it; random order", .value = RW_RANDTRIMWRITE },
	{ .word = NULL },
};

/* rw: fio's word (up to the first ',' or ':'), then what follows the first ':' as fio 3.33's
 * str_rw_cb() reads it: for a random pattern atoi (the I/Os per offset: garbage is 0, as 1);
 * for a sequential one fio's number (negative: that many bytes back), else "rw postfix
 * parsing failed". */
APPLY(opt_apply_rw)
{
	const char *colon;
	int mode = -1;

	if (val)
		for (const struct opt_choice *c = od->choices; c->word; c++)
			if (optval_word_match(c->word, val))
				mode = c->value;
	if (mode < 0) {
		opt_value_choices(d, od);
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	oj->j.rw = (enum rw_mode)mode;
	oj->j.rw_seq_add = 0;
	oj->j.rw_seq_back = 0;
	oj->j.rw_nr_same_offset = 1;
	colon = strchr(val, ':');
	if (colon) {
		bool random = mode == RW_RANDREAD || mode == RW_RANDWRITE || mode == RW_RANDRW ||
			      mode == RW_RANDTRIM || mode == RW_RANDTRIMWRITE;
		int64_t n;

		if (random) {
			long r = strtol(colon + 1, NULL, 10);	/* atoi */

			oj->j.rw_nr_same_offset = r > 0 && r <= (long)UINT32_MAX ? (unsigned)r : 1;
			return 0;
		}
		if (optval_decimal(colon + 1, opt_value_kb_of(oj), &n)) {
			opt_diag_add(d, false, "fio: rw postfix parsing failed");
			opt_value_failed(d, od, val);
			return -EINVAL;
		}
		if (n < -(int64_t)UINT32_MAX || n > (int64_t)UINT32_MAX) {
			opt_diag_add(d, false, "fio: rw=%s: an offset step of %lld bytes is not supported by iops "
				     "(at most 4294967295)", val, (long long)n);
			return -EINVAL;
		}
		if (n < 0)
			oj->j.rw_seq_back = (unsigned)-n;
		else
			oj->j.rw_seq_add = (unsigned)n;
	}
	return 0;
}

APPLY(opt_apply_rwmixread)
{
	unsigned v;
	int ret = opt_value_get_uint(oj, od, val, d, &v);

	if (ret)
		return ret;
	oj->j.rwmixread = v;
	oj->rwmix_set = true;
	oj->rwmix_last = 1;
	return 0;
}

APPLY(opt_apply_rwmixwrite)
{
	unsigned v;
	int ret = opt_value_get_uint(oj, od, val, d, &v);

	if (ret)
		return ret;
	oj->j.rwmixread = 100 - v;
	oj->rwmix_set = true;
	oj->rwmix_last = 2;
	return 0;
}

APPLY(opt_apply_percentage_random)
{
	char parts[3][PARSE_DIR_PART_MAX];
	bool present[3];
	unsigned v;

	/* fio takes r,w,t; iops keeps one value for all directions: use the first given */
	if (!val || parse_dir_list(val, parts, present) < 0 || (!present[0] && !present[1] && !present[2])) {
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	for (int i = 1; i < 3; i++)	/* ",1": reads keep the default, writes take 1 */
		if (present[i] && (!present[0] || strcmp(parts[i], parts[0]))) {
			opt_diag_add(d, false, "fio: option 'percentage_random' with per-direction "
				     "values is not supported by iops");
			return -EINVAL;
		}
	if (opt_value_get_uint(oj, od, parts[0], d, &v)) {
		d->nr--;
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	oj->j.percentage_random = v;
	return 0;
}

UINT_FIELD_APPLY(opt_apply_iodepth, iodepth, oj->iodepth_set = true)
UINT_FIELD_APPLY(opt_apply_iodepth_batch, iodepth_batch_submit, oj->batch_submit_set = true)
UINT_FIELD_APPLY(opt_apply_complete_max, iodepth_batch_complete_max, oj->complete_max_set = true)
UINT_FIELD_APPLY(opt_apply_iodepth_low, iodepth_low, oj->iodepth_low_set = true)

static bool engine_known(const char *name)
{
	return engine_find(name) != NULL;
}

APPLY(opt_apply_ioengine)
{
	char buf[sizeof(oj->j.ioengine)];
	size_t n = val ? strcspn(val, ":") : 0;	/* fio: "psync:x" is psync (external:PATH aside) */

	if (val && n < sizeof(buf) && strncmp(val, "external:", 9)) {
		memcpy(buf, val, n);	/* as written: fio strips nothing (" sync" is no engine) */
		buf[n] = '\0';
	} else if (val && n < sizeof(buf)) {
		memcpy(buf, val, strlen(val) < sizeof(buf) ? strlen(val) + 1 : 0);
	}
	if (!val || n >= sizeof(buf) || !buf[0]) {
		if (val && strlen(val) >= sizeof(buf)) {
			opt_diag_add(d, false, "fio: engine %.64s... is not supported by iops (available: %s)",
				     val, engine_names());
			return -EINVAL;
		}
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	if (!engine_known(buf)) {
		if (opt_apply_engine_refuse(buf, d))
			return -EINVAL;
		opt_diag_add(d, false, "fio: engine %s is not supported by iops (available: %s)", buf,
			     engine_names());
		return -EINVAL;
	}
	memcpy(oj->j.ioengine, buf, sizeof(buf));
	return 0;
}

APPLY(opt_apply_randseed)
{
	uint64_t v;

	if (!val || parse_size(val, 1024, &v)) {
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	oj->j.randseed = v;
	oj->j.randseed_set = true;
	oj->randseed_set = true;
	return 0;
}

const struct opt_choice opt_apply_randgen_choices[] = {
	{ .word = "tausworthe", .help = "32-bit combined Tausworthe (default)", .value = RANDGEN_TAUSWORTHE },
	{ .word = "lfsr", .help = "Shift register sized to the file, no repeats", .value = RANDGEN_LFSR },
	{ .word = "tausworthe64", .help = "Tausworthe with 64-bit state", .value = RANDGEN_TAUSWORTHE64 },
	{ .word = NULL },
};

