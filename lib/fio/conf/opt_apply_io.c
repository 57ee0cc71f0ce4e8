/* opt_apply_io: the I/O pattern (block sizes, direction and mix, random offsets and their
 * seeds, buffer contents) and the engine that issues it, with its queue depths. */
#include "fio/conf/opt_apply.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/parse.h"
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
		opt_apply_failed(d, od, val);
		return -EINVAL;
	}
	for (int i = 0; i < 3; i++) {
		if (!present[i])
			continue;
		if (parse_size(parts[i], opt_apply_kb_of(oj), &v[i])) {
			opt_apply_failed(d, od, val);
			return -EINVAL;
		}
		if (v[i] < 1) {
			return opt_apply_range_failed(d, od, val, false, 0, 1);
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

APPLY(opt_apply_bsrange)
{
	char parts[3][PARSE_DIR_PART_MAX];
	bool present[3];
	uint64_t lo[3], hi[3];
	bool ok[3] = { false, false, false };
	int n;

	if (!val || (n = parse_dir_list(val, parts, present)) < 0 || !present[0]) {
		opt_apply_failed(d, od, val);
		return -EINVAL;
	}
	for (int i = 0; i < 3; i++) {
		if (!present[i])
			continue;
		int r = parse_range(parts[i], opt_apply_kb_of(oj), &lo[i], &hi[i]);

		if (r) {
			/* fio: a first element that is no range fails; a later one keeps the default */
			if (i == 0 || r == -ERANGE) {
				opt_apply_failed(d, od, val);
				return -EINVAL;
			}
			continue;
		}
		if (lo[i] < 1) {
			return opt_apply_range_failed(d, od, val, false, 0, 1);
		}
		ok[i] = true;
	}
	for (int i = 0; i < 3; i++)
		if (ok[i]) {
			oj->j.bs_min[i] = lo[i];
			oj->j.bs_max[i] = hi[i];
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
	if (!val || dist_bssplit_parse(val, opt_apply_kb_of(oj), s, present, d)) {
		opt_apply_failed(d, od, val);
		ret = -EINVAL;
	} else {
		ret = opt_apply_set_str(&oj->j.bssplit, val);
		oj->j.bssplit_kb_base = opt_apply_kb_of(oj);	/* fio: sizes read with the kb_base of the moment */
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
	if (!val || dist_rand_parse(val, opt_apply_kb_of(oj), r, d)) {
		opt_apply_failed(d, od, val);
		ret = -EINVAL;
	} else if (r->kind == DIST_RANDOM) {
		free(oj->j.random_distribution);
		oj->j.random_distribution = NULL;
		ret = 0;
	} else {
		ret = opt_apply_set_str(&oj->j.random_distribution, val);
		oj->j.random_distribution_kb_base = opt_apply_kb_of(oj);
	}
	free(r);
	return ret;
}

const struct opt_choice opt_apply_rw_choices[] = {
	OPT_CHOICE("read", "Reads in ascending offset order", RW_READ),
	OPT_CHOICE("write", "Writes in ascending offset order", RW_WRITE),
	OPT_CHOICE("trim", "Discards in ascending offset order", RW_TRIM),
	OPT_CHOICE("randread", "Reads at random offsets", RW_RANDREAD),
	OPT_CHOICE("randwrite", "Writes at random offsets", RW_RANDWRITE),
	OPT_CHOICE("randtrim", "Discards at random offsets", RW_RANDTRIM),
	OPT_CHOICE("rw", "Mixed reads and writes, ascending offsets", RW_RW),
	OPT_CHOICE("readwrite", "Mixed reads and writes, ascending offsets", RW_RW),
	OPT_CHOICE("randrw", "Mixed reads and writes at random offsets", RW_RANDRW),
	OPT_CHOICE("trimwrite", "Discard each block, then write it; in order", RW_TRIMWRITE),
	OPT_CHOICE("randtrimwrite", "Discard each block, then write it; random order", RW_RANDTRIMWRITE),
	{ NULL, 0 },
};

APPLY(opt_apply_rw)
{
	char buf[128];
	char *colon;
	int mode;

	if (!val || parse_strip(val, buf, sizeof(buf))) {
		opt_apply_failed(d, od, val);
		return -EINVAL;
	}
	colon = strchr(buf, ':');
	if (colon)
		*colon = '\0';
	if (opt_apply_get_choice(od, buf, d, &mode)) {
		/* get_choice reported with the bare word; fio quotes the whole value */
		d->nr--;
		opt_apply_failed(d, od, val);
		return -EINVAL;
	}
	oj->j.rw = (enum rw_mode)mode;
	oj->j.rw_seq_add = 0;
	oj->j.rw_seq_back = 0;
	oj->j.rw_nr_same_offset = 1;
	if (colon) {
		bool random = mode == RW_RANDREAD || mode == RW_RANDWRITE || mode == RW_RANDRW ||
			      mode == RW_RANDTRIM || mode == RW_RANDTRIMWRITE;
		uint64_t n;

		bool back = colon[1] == '-' && !random;	/* rw=read:-8k: backwards */

		oj->j.rw_seq_back = 0;
		if (parse_size(colon + 1 + back, opt_apply_kb_of(oj), &n) || n > UINT32_MAX) {
			opt_apply_failed(d, od, val);
			return -EINVAL;
		}
		if (back)
			oj->j.rw_seq_back = (unsigned)n;
		else if (random)
			oj->j.rw_nr_same_offset = n ? (unsigned)n : 1;
		else
			oj->j.rw_seq_add = (unsigned)n;
	}
	return 0;
}

APPLY(opt_apply_rwmixread)
{
	unsigned v;
	int ret = opt_apply_get_uint(oj, od, val, d, &v);

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
	int ret = opt_apply_get_uint(oj, od, val, d, &v);

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
	if (!val || parse_dir_list(val, parts, present) < 0 || !present[0]) {
		opt_apply_failed(d, od, val);
		return -EINVAL;
	}
	for (int i = 1; i < 3; i++)
		if (present[i] && strcmp(parts[i], parts[0])) {
			opt_diag_add(d, false, "fio: option 'percentage_random' with per-direction "
				     "values is not supported by iops");
			return -EINVAL;
		}
	if (opt_apply_get_uint(oj, od, parts[0], d, &v)) {
		d->nr--;
		opt_apply_failed(d, od, val);
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

	if (!val || parse_strip(val, buf, sizeof(buf)) || !buf[0]) {
		if (val && strlen(val) >= sizeof(buf)) {
			opt_diag_add(d, false, "fio: engine %.64s... is not supported by iops (available: %s)",
				     val, opt_engine_list());
			return -EINVAL;
		}
		opt_apply_failed(d, od, val);
		return -EINVAL;
	}
	if (!engine_known(buf)) {
		if (opt_apply_engine_refuse(buf, d))
			return -EINVAL;
		opt_diag_add(d, false, "fio: engine %s is not supported by iops (available: %s)", buf,
			     opt_engine_list());
		return -EINVAL;
	}
	memcpy(oj->j.ioengine, buf, sizeof(buf));
	return 0;
}

APPLY(opt_apply_randseed)
{
	uint64_t v;

	if (!val || parse_size(val, 1024, &v)) {
		opt_apply_failed(d, od, val);
		return -EINVAL;
	}
	oj->j.randseed = v;
	oj->j.randseed_set = true;
	oj->randseed_set = true;
	return 0;
}

const struct opt_choice opt_apply_randgen_choices[] = {
	OPT_CHOICE("tausworthe", "32-bit combined Tausworthe (default)", RANDGEN_TAUSWORTHE),
	OPT_CHOICE("lfsr", "Shift register sized to the file, no repeats", RANDGEN_LFSR),
	OPT_CHOICE("tausworthe64", "Tausworthe with 64-bit state", RANDGEN_TAUSWORTHE64),
	{ NULL, 0 },
};

