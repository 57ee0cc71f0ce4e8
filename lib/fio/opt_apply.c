#include "fio/opt_apply.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio/dist.h"
#include "engine/engine.h"
#include "core/parse.h"
#include "fio/verify.h"

#define NS_PER_S	1000000000ull


/* ------------------------------------------------------------------------------------------ */
/* helpers for the apply functions */

static void failed(struct opt_diag *d, const struct opt_def *od, const char *val)
{
	opt_diag_add(d, false, "fio: failed parsing %s=%s", od->name, val ? val : "");
}

static unsigned kb_of(const struct opt_job *oj)
{
	return oj->j.kb_base == 1000 ? 1000 : 1024;
}

/* fio's int: parse, range check with its messages. */
static int get_int(struct opt_job *oj, const struct opt_def *od, const char *val,
		   struct opt_diag *d, int64_t *out)
{
	int64_t v;

	if (!val || parse_int(val, kb_of(oj), &v)) {
		failed(d, od, val);
		return -EINVAL;
	}
	if (v < od->info->min) {
		if (od->type == OPT_T_BOOL || od->type == OPT_T_FLAG)
			opt_diag_add(d, false, "min value out of range: %lld (%lld min)",
				     (long long)v, (long long)od->info->min);
		else
			opt_diag_add(d, false, "%s: min value out of range: %lld (%lld min)",
				     od->name, (long long)v, (long long)od->info->min);
		failed(d, od, val);
		return -EINVAL;
	}
	if (od->info->max >= 0 && v > od->info->max) {
		if (od->type == OPT_T_BOOL || od->type == OPT_T_FLAG)
			opt_diag_add(d, false, "max value out of range: %lld (%lld max)",
				     (long long)v, (long long)od->info->max);
		else
			opt_diag_add(d, false, "%s: max value out of range: %lld (%lld max)",
				     od->name, (long long)v, (long long)od->info->max);
		failed(d, od, val);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int get_uint(struct opt_job *oj, const struct opt_def *od, const char *val,
		    struct opt_diag *d, unsigned *out)
{
	int64_t v;
	int ret = get_int(oj, od, val, d, &v);

	if (ret)
		return ret;
	if (v < 0 || v > (int64_t)UINT32_MAX) {
		opt_diag_add(d, false, "%s: max value out of range: %lld (%u max)", od->name,
			     (long long)v, UINT32_MAX);
		failed(d, od, val);
		return -EINVAL;
	}
	*out = (unsigned)v;
	return 0;
}

static int get_bool(struct opt_job *oj, const struct opt_def *od, const char *val,
		    struct opt_diag *d, bool *out)
{
	int64_t v;
	int ret;

	if (od->type == OPT_T_FLAG && !val) {
		*out = true;
		return 0;
	}
	ret = get_int(oj, od, val, d, &v);
	if (ret)
		return ret;
	*out = v != 0;
	return 0;
}

static int get_time(const struct opt_def *od, const char *val, struct opt_diag *d,
		    uint64_t *out_ns)
{
	if (!val || parse_time_ns(val, NS_PER_S, out_ns)) {
		failed(d, od, val);
		return -EINVAL;
	}
	return 0;
}

static int get_choice(const struct opt_def *od, const char *val, struct opt_diag *d, int *out)
{
	char buf[64];

	if (val && !parse_strip(val, buf, sizeof(buf)))
		for (const struct opt_choice *c = od->info->choices; c->word; c++)
			if (!strcmp(c->word, buf)) {
				*out = c->value;
				return 0;
			}
	opt_diag_choices(d, od);
	failed(d, od, val);
	return -EINVAL;
}

static int set_str(char **dst, const char *val)
{
	char *p = strdup(val ? val : "");

	if (!p)
		return -ENOMEM;
	free(*dst);
	*dst = p;
	return 0;
}


/* ------------------------------------------------------------------------------------------ */
/* apply functions */

#define APPLY(fn) int fn(struct opt_job *oj, const struct opt_def *od, const char *val, \
				struct opt_diag *d)

APPLY(opt_apply_name)
{
	char buf[JOB_NAME_MAX];

	if (!val || parse_strip(val, buf, sizeof(buf)) || !buf[0]) {
		failed(d, od, val);
		return -EINVAL;
	}
	memcpy(oj->j.name, buf, sizeof(buf));
	return 0;
}

APPLY(opt_apply_description)
{
	(void)od; (void)d;
	return set_str(&oj->j.description, val);
}

APPLY(opt_apply_filename)
{
	if (!val || !*val) {
		failed(d, od, val);
		return -EINVAL;
	}
	return set_str(&oj->filename, val);
}

APPLY(opt_apply_directory)
{
	if (!val || !*val) {
		failed(d, od, val);
		return -EINVAL;
	}
	return set_str(&oj->directory, val);
}

APPLY(opt_apply_filename_format)
{
	if (!val || !*val) {
		failed(d, od, val);
		return -EINVAL;
	}
	return set_str(&oj->filename_format, val);
}

APPLY(opt_apply_wait_for)
{
	if (!val || !*val) {
		failed(d, od, val);
		return -EINVAL;
	}
	return set_str(&oj->wait_for_name, val);
}

APPLY(opt_apply_size)
{
	uint64_t v;
	unsigned pct;

	if (!val || parse_size_pct(val, kb_of(oj), &v, &pct)) {
		failed(d, od, val);
		return -EINVAL;
	}
	oj->j.size = v;
	oj->j.size_pct = pct;
	return 0;
}

APPLY(opt_apply_offset)
{
	uint64_t v;
	unsigned pct;

	if (!val || parse_size_pct(val, kb_of(oj), &v, &pct)) {
		failed(d, od, val);
		return -EINVAL;
	}
	oj->j.offset = v;
	oj->j.offset_pct = pct;
	return 0;
}

APPLY(opt_apply_io_size)
{
	uint64_t v;

	if (val && strchr(val, '%')) {
		opt_diag_add(d, false, "fio: io_size=%s (a percentage) is not supported by iops", val);
		return -EINVAL;
	}
	if (!val || parse_size(val, kb_of(oj), &v)) {
		failed(d, od, val);
		return -EINVAL;
	}
	oj->j.io_size = v;
	return 0;
}

APPLY(opt_apply_filesize)
{
	uint64_t lo, hi;

	if (!val) {
		failed(d, od, val);
		return -EINVAL;
	}
	if (parse_range(val, kb_of(oj), &lo, &hi)) {
		if (parse_size(val, kb_of(oj), &lo)) {
			failed(d, od, val);
			return -EINVAL;
		}
		hi = lo;
	}
	oj->j.filesize_min = lo;
	oj->j.filesize_max = hi;
	return 0;
}

APPLY(opt_apply_nrfiles)
{
	unsigned v;
	int ret = get_uint(oj, od, val, d, &v);

	if (!ret)
		oj->nrfiles = v;
	return ret;
}

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
		failed(d, od, val);
		return -EINVAL;
	}
	for (int i = 0; i < 3; i++) {
		if (!present[i])
			continue;
		if (parse_size(parts[i], kb_of(oj), &v[i])) {
			failed(d, od, val);
			return -EINVAL;
		}
		if (v[i] < 1) {
			opt_diag_add(d, false, "%s: min value out of range: 0 (1 min)", od->name);
			failed(d, od, val);
			return -EINVAL;
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
		failed(d, od, val);
		return -EINVAL;
	}
	for (int i = 0; i < 3; i++) {
		if (!present[i])
			continue;
		if (parse_range(parts[i], kb_of(oj), &lo[i], &hi[i])) {
			/* fio: a first element that is no range fails; a later one keeps the default */
			if (i == 0) {
				failed(d, od, val);
				return -EINVAL;
			}
			continue;
		}
		if (lo[i] < 1) {
			opt_diag_add(d, false, "%s: min value out of range: 0 (1 min)", od->name);
			failed(d, od, val);
			return -EINVAL;
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
	if (!val || dist_bssplit_parse(val, kb_of(oj), s, present, d)) {
		failed(d, od, val);
		ret = -EINVAL;
	} else {
		ret = set_str(&oj->j.bssplit, val);
		oj->j.bssplit_kb_base = kb_of(oj);	/* fio: sizes read with the kb_base of the moment */
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
	if (!val || dist_rand_parse(val, kb_of(oj), r, d)) {
		failed(d, od, val);
		ret = -EINVAL;
	} else if (r->kind == DIST_RANDOM) {
		free(oj->j.random_distribution);
		oj->j.random_distribution = NULL;
		ret = 0;
	} else {
		ret = set_str(&oj->j.random_distribution, val);
		oj->j.random_distribution_kb_base = kb_of(oj);
	}
	free(r);
	return ret;
}

APPLY(opt_apply_bs_unaligned)
{
	return get_bool(oj, od, val, d, &oj->j.bs_unaligned);
}

const struct opt_choice opt_apply_rw_choices[] = {
	{ "read", "Reads in ascending offset order", RW_READ },
	{ "write", "Writes in ascending offset order", RW_WRITE },
	{ "trim", "Discards in ascending offset order", RW_TRIM },
	{ "randread", "Reads at random offsets", RW_RANDREAD },
	{ "randwrite", "Writes at random offsets", RW_RANDWRITE },
	{ "randtrim", "Discards at random offsets", RW_RANDTRIM },
	{ "rw", "Mixed reads and writes, ascending offsets", RW_RW },
	{ "readwrite", "Mixed reads and writes, ascending offsets", RW_RW },
	{ "randrw", "Mixed reads and writes at random offsets", RW_RANDRW },
	{ "trimwrite", "Discard each block, then write it; in order", RW_TRIMWRITE },
	{ "randtrimwrite", "Discard each block, then write it; random order", RW_RANDTRIMWRITE },
	{ NULL, NULL, 0 },
};

APPLY(opt_apply_rw)
{
	char buf[128];
	char *colon;
	int mode;

	if (!val || parse_strip(val, buf, sizeof(buf))) {
		failed(d, od, val);
		return -EINVAL;
	}
	colon = strchr(buf, ':');
	if (colon)
		*colon = '\0';
	if (get_choice(od, buf, d, &mode)) {
		/* get_choice reported with the bare word; fio quotes the whole value */
		d->nr--;
		failed(d, od, val);
		return -EINVAL;
	}
	oj->j.rw = (enum rw_mode)mode;
	oj->j.rw_seq_add = 0;
	oj->j.rw_nr_same_offset = 1;
	if (colon) {
		bool random = mode == RW_RANDREAD || mode == RW_RANDWRITE || mode == RW_RANDRW ||
			      mode == RW_RANDTRIM || mode == RW_RANDTRIMWRITE;
		uint64_t n;

		if (colon[1] == '-' && !random) {
			opt_diag_add(d, false, "fio: rw=%s (negative offset modifier) is not supported by iops",
				     val);
			return -EINVAL;
		}
		if (parse_size(colon + 1, kb_of(oj), &n) || n > UINT32_MAX) {
			failed(d, od, val);
			return -EINVAL;
		}
		if (random)
			oj->j.rw_nr_same_offset = n ? (unsigned)n : 1;
		else
			oj->j.rw_seq_add = (unsigned)n;
	}
	return 0;
}

APPLY(opt_apply_rwmixread)
{
	unsigned v;
	int ret = get_uint(oj, od, val, d, &v);

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
	int ret = get_uint(oj, od, val, d, &v);

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
		failed(d, od, val);
		return -EINVAL;
	}
	for (int i = 1; i < 3; i++)
		if (present[i] && strcmp(parts[i], parts[0])) {
			opt_diag_add(d, false, "fio: option 'percentage_random' with per-direction "
				     "values is not supported by iops");
			return -EINVAL;
		}
	if (get_uint(oj, od, parts[0], d, &v)) {
		d->nr--;
		failed(d, od, val);
		return -EINVAL;
	}
	oj->j.percentage_random = v;
	return 0;
}

#define UINT_FIELD_APPLY(fn, field, extra) \
	APPLY(fn) \
	{ \
		unsigned v; \
		int ret = get_uint(oj, od, val, d, &v); \
		if (ret) \
			return ret; \
		oj->j.field = v; \
		extra; \
		return 0; \
	}

UINT_FIELD_APPLY(opt_apply_iodepth, iodepth, (void)0)
UINT_FIELD_APPLY(opt_apply_iodepth_batch, iodepth_batch_submit, (void)0)
UINT_FIELD_APPLY(opt_apply_complete_min, iodepth_batch_complete_min, (void)0)
UINT_FIELD_APPLY(opt_apply_complete_max, iodepth_batch_complete_max, oj->complete_max_set = true)
UINT_FIELD_APPLY(opt_apply_iodepth_low, iodepth_low, oj->iodepth_low_set = true)
APPLY(opt_apply_numjobs)
{
	int64_t v;
	unsigned n;

	/* fio accepts 0 and negative counts while parsing, then fails with these two lines */
	if (val && !parse_int(val, kb_of(oj), &v) && v <= 0) {
		opt_diag_add(d, false, "error: maximum number of jobs reached.");
		opt_diag_add(d, false, "error: failed to setup shm segment");
		return -EINVAL;
	}
	if (get_uint(oj, od, val, d, &n))
		return -EINVAL;
	oj->j.numjobs = n;
	return 0;
}
UINT_FIELD_APPLY(opt_apply_loops, loops, (void)0)
UINT_FIELD_APPLY(opt_apply_fsync, fsync_every, (void)0)
UINT_FIELD_APPLY(opt_apply_fdatasync, fdatasync_every, (void)0)
UINT_FIELD_APPLY(opt_apply_sig_figs, sig_figs, (void)0)


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
		failed(d, od, val);
		return -EINVAL;
	}
	if (!engine_known(buf)) {
		opt_diag_add(d, false, "fio: engine %s is not supported by iops (available: %s)", buf,
			     opt_engine_list());
		return -EINVAL;
	}
	memcpy(oj->j.ioengine, buf, sizeof(buf));
	return 0;
}

APPLY(opt_apply_direct)
{
	return get_bool(oj, od, val, d, &oj->j.direct);
}

APPLY(opt_apply_buffered)
{
	bool b;
	int ret = get_bool(oj, od, val, d, &b);

	if (!ret)
		oj->j.direct = !b;
	return ret;
}

#define BOOL_FIELD_APPLY(fn, field) \
	APPLY(fn) \
	{ \
		return get_bool(oj, od, val, d, &oj->j.field); \
	}

BOOL_FIELD_APPLY(opt_apply_invalidate, invalidate)
BOOL_FIELD_APPLY(opt_apply_thread, thread)
BOOL_FIELD_APPLY(opt_apply_group_reporting, group_reporting)
BOOL_FIELD_APPLY(opt_apply_new_group, new_group)
BOOL_FIELD_APPLY(opt_apply_stonewall, stonewall)
BOOL_FIELD_APPLY(opt_apply_time_based, time_based)
BOOL_FIELD_APPLY(opt_apply_randrepeat, randrepeat)
BOOL_FIELD_APPLY(opt_apply_allrandrepeat, allrandrepeat)
BOOL_FIELD_APPLY(opt_apply_norandommap, norandommap)
BOOL_FIELD_APPLY(opt_apply_gtod_reduce, gtod_reduce)
BOOL_FIELD_APPLY(opt_apply_create_on_open, create_on_open)
BOOL_FIELD_APPLY(opt_apply_fsync_on_close, fsync_on_close)
BOOL_FIELD_APPLY(opt_apply_end_fsync, end_fsync)
BOOL_FIELD_APPLY(opt_apply_unlink, unlink)
BOOL_FIELD_APPLY(opt_apply_zero_buffers, zero_buffers)
BOOL_FIELD_APPLY(opt_apply_refill_buffers, refill_buffers)
BOOL_FIELD_APPLY(opt_apply_clat_percentiles, clat_percentiles)
BOOL_FIELD_APPLY(opt_apply_lat_percentiles, lat_percentiles)
BOOL_FIELD_APPLY(opt_apply_allow_overwrite, allow_overwrite)

APPLY(opt_apply_runtime)
{
	int ret = get_time(od, val, d, &oj->j.runtime_ns);

	if (!ret)
		oj->runtime_set = true;
	return ret;
}

APPLY(opt_apply_ramp_time)
{
	return get_time(od, val, d, &oj->j.ramp_time_ns);
}

APPLY(opt_apply_startdelay)
{
	uint64_t lo, hi;
	char buf[128];
	char *dash;

	if (val && !parse_strip(val, buf, sizeof(buf)) && (dash = strchr(buf, '-')) != NULL) {
		*dash = '\0';
		if (!parse_time_ns(buf, NS_PER_S, &lo) && !parse_time_ns(dash + 1, NS_PER_S, &hi)) {
			opt_diag_add(d, false, "fio: option 'startdelay' with a range is not supported by iops");
			return -EINVAL;
		}
		failed(d, od, val);
		return -EINVAL;
	}
	return get_time(od, val, d, &oj->j.startdelay_ns);
}

APPLY(opt_apply_randseed)
{
	uint64_t v;

	if (!val || parse_size(val, 1024, &v)) {
		failed(d, od, val);
		return -EINVAL;
	}
	oj->j.randseed = v;
	oj->j.randseed_set = true;
	oj->randseed_set = true;
	return 0;
}

const struct opt_choice opt_apply_randgen_choices[] = {
	{ "tausworthe", "32-bit combined Tausworthe (default)", RANDGEN_TAUSWORTHE },
	{ "lfsr", "Shift register sized to the file, no repeats", RANDGEN_LFSR },
	{ "tausworthe64", "Tausworthe with 64-bit state", RANDGEN_TAUSWORTHE64 },
	{ NULL, NULL, 0 },
};

APPLY(opt_apply_random_generator)
{
	int v;
	int ret = get_choice(od, val, d, &v);

	if (!ret)
		oj->j.random_generator = (enum rand_gen)v;
	return ret;
}

const struct opt_choice opt_apply_fallocate_choices[] = {
	{ "none", "Reserve nothing in advance", FALLOC_NONE },
	{ "native", "Reserve space the filesystem's own way, if any", FALLOC_NATIVE },
	{ "posix", "Reserve space with posix_fallocate(3)", FALLOC_POSIX },
	{ "keep", "Reserve with fallocate(2), file length unchanged", FALLOC_KEEP },
	{ "truncate", "Only set the file length, with ftruncate(2)", FALLOC_TRUNCATE },
	{ "0", "Same as 'none'", FALLOC_NONE },
	{ "1", "Same as 'posix'", FALLOC_POSIX },
	{ NULL, NULL, 0 },
};

APPLY(opt_apply_fallocate)
{
	int v;
	int ret = get_choice(od, val, d, &v);

	if (!ret)
		oj->j.fallocate = (enum fallocate_mode)v;
	return ret;
}

const struct opt_choice opt_apply_sync_choices[] = {
	{ "none", "", SYNC_NONE },
	{ "0", "", SYNC_NONE },
	{ "sync", "", SYNC_SYNC },
	{ "1", "", SYNC_SYNC },
	{ "dsync", "", SYNC_DSYNC },
	{ NULL, NULL, 0 },
};

APPLY(opt_apply_sync)
{
	int v;
	int ret = get_choice(od, val, d, &v);

	if (!ret)
		oj->j.sync = (enum sync_mode)v;
	return ret;
}

APPLY(opt_apply_percentile_list)
{
	double vals[JOB_MAX_PERCENTILES];
	unsigned nr, prec;
	double bad = 0;
	int ret;

	if (!val) {
		failed(d, od, val);
		return -EINVAL;
	}
	ret = parse_float_list(val, vals, JOB_MAX_PERCENTILES, &nr, &prec, 0.0, 100.0, &bad);
	if (ret == -ERANGE) {
		opt_diag_add(d, false, "value out of range: %f (range %s: %f)", bad,
			     bad < 0 ? "min" : "max", bad < 0 ? 0.0 : 100.0);
		failed(d, od, val);
		return -EINVAL;
	}
	if (ret == -E2BIG) {
		opt_diag_add(d, false, "the list exceeding max length %d", JOB_MAX_PERCENTILES);
		failed(d, od, val);
		return -EINVAL;
	}
	if (ret) {
		failed(d, od, val);
		return -EINVAL;
	}
	memcpy(oj->j.percentiles, vals, nr * sizeof(vals[0]));
	oj->j.nr_percentiles = nr;
	oj->j.percentile_precision = prec;
	return 0;
}

const struct opt_choice opt_apply_kb_base_choices[] = {
	{ "1024", "k/m/g mean 1024^n, ki/mi/gi 1000^n (legacy); binary units shown", 1024 },
	{ "1000", "k/m/g mean 1000^n, ki/mi/gi 1024^n; decimal units shown", 1000 },
	{ NULL, NULL, 0 },
};

APPLY(opt_apply_kb_base)
{
	int v;
	int ret = get_choice(od, val, d, &v);

	if (!ret)
		oj->j.kb_base = (unsigned)v;
	return ret;
}

const struct opt_choice opt_apply_unit_base_choices[] = {
	{ "0", "Chosen automatically", 0 },
	{ "8", "Figures in bytes", 8 },
	{ "1", "Figures in bits", 1 },
	{ NULL, NULL, 0 },
};

APPLY(opt_apply_unit_base)
{
	int v;
	int ret = get_choice(od, val, d, &v);

	if (!ret)
		oj->j.unit_base = (unsigned)v;
	return ret;
}

/* ---- verify (lib/verify.h) ---- */
const struct opt_choice opt_apply_verify_choices[] = {
	{ "0", "No verification", VERIFY_NONE },
	{ "md5", "MD5 digest of every block", VERIFY_MD5 },
	{ "crc64", "64-bit CRC (not in iops)", -1 },
	{ "crc32", "32-bit CRC of every block", VERIFY_CRC32 },
	{ "crc32c-intel", "Another name for crc32c", VERIFY_CRC32C },
	{ "crc32c", "Castagnoli CRC of every block (CPU instruction when present)", VERIFY_CRC32C },
	{ "crc16", "16-bit CRC (not in iops)", -1 },
	{ "crc7", "7-bit CRC (not in iops)", -1 },
	{ "sha1", "SHA-1 digest (not in iops)", -1 },
	{ "sha256", "SHA-256 digest of every block", VERIFY_SHA256 },
	{ "sha512", "SHA-512 digest (not in iops)", -1 },
	{ "sha3-224", "SHA3-224 digest (not in iops)", -1 },
	{ "sha3-256", "SHA3-256 digest (not in iops)", -1 },
	{ "sha3-384", "SHA3-384 digest (not in iops)", -1 },
	{ "sha3-512", "SHA3-512 digest (not in iops)", -1 },
	{ "xxhash", "XXH32 hash of every block", VERIFY_XXHASH },
	{ "meta", "Block headers only, the data is not summed", VERIFY_META },
	{ "pattern", "The verify_pattern bytes alone, no header", VERIFY_PATTERN },
	{ "null", "Random data, nothing checked", VERIFY_NULL },
	{ NULL, NULL, 0 },
};

APPLY(opt_apply_verify)
{
	int v;
	int ret = get_choice(od, val, d, &v);

	if (ret)
		return ret;
	if (v < 0) {
		opt_diag_add(d, false, "fio: option 'verify=%s' is not supported by iops (it has md5, crc32c, crc32c-intel, "
			     "crc32, xxhash, sha256, meta, pattern, null)", val);
		return -EINVAL;
	}
	oj->j.verify = (unsigned)v;
	return 0;
}

BOOL_FIELD_APPLY(opt_apply_do_verify, do_verify)
BOOL_FIELD_APPLY(opt_apply_verify_fatal, verify_fatal)

APPLY(opt_apply_verify_interval)
{
	return get_uint(oj, od, val, d, &oj->j.verify_interval);
}

APPLY(opt_apply_verify_offset)
{
	return get_uint(oj, od, val, d, &oj->j.verify_offset);
}

APPLY(opt_apply_verify_pattern)
{
	if (!val || verify_pattern_parse(val, &oj->j)) {
		oj->j.verify_pattern_len = 0;
		oj->j.nr_verify_pattern_o = 0;
		failed(d, od, val);
		return -EINVAL;
	}
	return 0;
}

/* fio dumps the good and bad blocks into files in the working directory: iops does not. */
APPLY(opt_apply_verify_dump)
{
	bool b;
	int ret = get_bool(oj, od, val, d, &b);

	if (!ret && b) {
		opt_diag_add(d, false, "fio: option 'verify_dump=1' is not supported by iops (only verify_dump=0)");
		return -EINVAL;
	}
	return ret;
}

/* Options iops accepts only at the value that matches what it always does (od->info->choices lists
 * the accepted spellings, the first one is shown in the message). */
APPLY(opt_apply_only_default)
{
	char buf[64];

	(void)oj;
	if (val && !parse_strip(val, buf, sizeof(buf)))
		for (const struct opt_choice *c = od->info->choices; c->word; c++)
			if (!strcmp(c->word, buf))
				return 0;
	opt_diag_add(d, false, "fio: option '%s=%s' is not supported by iops (only %s=%s)", od->name,
		     val ? val : "", od->name, od->info->choices[0].word);
	return -EINVAL;
}

APPLY(opt_apply_accept_bool)
{
	bool b;

	return get_bool(oj, od, val, d, &b);
}

APPLY(opt_apply_accept_int)
{
	int64_t v;

	return get_int(oj, od, val, d, &v);
}

const struct opt_choice opt_apply_only_1_choices[] = { { "1", "the only value iops supports", 1 }, { NULL, NULL, 0 } };
const struct opt_choice opt_apply_only_0_choices[] = { { "0", "the only value iops supports", 0 }, { NULL, NULL, 0 } };
const struct opt_choice opt_apply_only_500_choices[] = { { "500", "the only value iops supports", 500 }, { NULL, NULL, 0 } };
const struct opt_choice opt_apply_only_none_choices[] = {
	{ "none", "the only value iops supports", 0 }, { "0", "Same as 'none'", 0 }, { NULL, NULL, 0 },
};
const struct opt_choice opt_apply_only_clock_gettime_choices[] = {
	{ "clock_gettime", "Use clock_gettime(2) for timing (what iops always does)", 0 }, { NULL, NULL, 0 },
};



/* unified_rw_reporting (unified.h): fio's words and numeric aliases */
const struct opt_choice opt_apply_unified_rw_reporting_choices[] = {
	{ "none", "One block per direction (the default)", 0 },
	{ "mixed", "One merged block in place of read, write and trim", 1 },
	{ "both", "The per-direction blocks, then the merged one", 2 },
	{ "0", "Same as none", 0 },
	{ "1", "Same as mixed", 1 },
	{ "2", "Same as both", 2 },
	{ NULL, NULL, 0 },
};

APPLY(opt_apply_unified_rw_reporting)
{
	int v;
	int ret = get_choice(od, val, d, &v);

	if (!ret)
		oj->j.unified_rw_rep = (unsigned)v;
	return ret;
}

/* ------------------------------------------------------------------------------------------ */
/* logs: write_bw_log / write_iops_log / write_lat_log and their options (lib/iolog.h) */

APPLY(opt_apply_write_log)
{
	(void)d;
	/* write_Bw_log, write_Iops_log, write_Lat_log; no value: "" = the job's name */
	return set_str(&oj->j.log_prefix[od->name[6] == 'b' ? 0 : od->name[6] == 'i' ? 1 : 2], val);
}

APPLY(opt_apply_log_avg_msec)
{
	return get_uint(oj, od, val, d, &oj->j.log_avg_msec);
}

APPLY(opt_apply_log_flag)
{
	bool b;
	int ret = get_bool(oj, od, val, d, &b);

	if (ret)
		return ret;
	switch (od->name[4]) {	/* log_Max_value, log_Offset, log_Prio, per_Job_logs */
	case 'm':
		oj->j.log_max_value = b;
		break;
	case 'o':
		oj->j.log_offset = b;
		break;
	case 'p':
		oj->j.log_prio = b;
		break;
	default:
		oj->j.per_job_logs = b;
	}
	return 0;
}

/* bwavgtime / iopsavgtime: only 500, but given explicitly it keeps the sampling at 500 ms when
 * a bw / iops log is averaged (fio: log window = min(log_avg_msec, bwavgtime)). */
APPLY(opt_apply_avgtime)
{
	int ret = opt_apply_only_default(oj, od, val, d);

	if (!ret && od->name[0] == 'b')
		oj->j.bw_avg_time_set = true;
	else if (!ret)
		oj->j.iops_avg_time_set = true;
	return ret;
}
