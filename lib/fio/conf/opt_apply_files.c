/* SPDX-License-Identifier: MIT */
/* opt_apply_files: which files the job uses, their sizes and the region it covers, and how
 * they are created, opened, synced and removed. */
#include "fio/conf/opt_apply.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#include "core/parse.h"

APPLY(opt_apply_filename)
{
	if (!val || !*val) {
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	return opt_value_set_str(&oj->filename, val);
}

APPLY(opt_apply_directory)
{
	if (!val || !*val) {
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	/* as fio 3.33: each directory of the ':' list must be one (fio creates none); a Windows
	 * path is left to fioconf's message */
	for (const char *p = strchr(val, '\\') || (d && d->dry) ? "" : val; *p;) {
		char dir[PATH_MAX];
		size_t n = 0;
		struct stat st;

		for (; *p && *p != ':' && n + 1 < sizeof(dir); p++)
			dir[n++] = *p == '\\' && p[1] == ':' ? *++p : *p;
		dir[n] = '\0';
		if (*p == ':')
			p++;
		if (n && (stat(dir, &st) || !S_ISDIR(st.st_mode))) {
			opt_diag_add(d, false, "fio: %s is not a directory", dir);
			opt_value_failed(d, od, val);
			return -EINVAL;
		}
	}
	return opt_value_set_str(&oj->directory, val);
}

APPLY(opt_apply_filename_format)
{
	if (!val || !*val) {
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	return opt_value_set_str(&oj->filename_format, val);
}

/* size, offset, offset_increment: bytes with suffixes, or N% of the file. */
/* zbd: "Nz", N zones (0 when val is not that). */
static uint64_t opt_apply_zones(const char *val, bool *is_z)
{
	size_t n = val ? strlen(val) : 0;
	uint64_t v = 0;

	*is_z = false;
	if (n < 2 || (val[n - 1] != 'z' && val[n - 1] != 'Z'))
		return 0;
	for (size_t i = 0; i + 1 < n; i++) {
		unsigned c = (unsigned)(val[i] - '0');

		if (c > 9 || v > (UINT64_MAX - c) / 10)
			return 0;
		v = v * 10 + c;
	}
	*is_z = true;
	return v;
}

static int opt_apply_size_pct(struct opt_job *oj, const struct opt_def *od, const char *val,
			      struct opt_diag *d, uint64_t *bytes, unsigned *pct, uint64_t *zones)
{
	uint64_t v;
	unsigned p;
	bool is_z;

	v = opt_apply_zones(val, &is_z);
	if (is_z) {	/* zbd: zones, made bytes by the zone fixup */
		*zones = v;
		*bytes = 0;
		*pct = 0;
		return 0;
	}
	*zones = 0;
	/* "1m-256k", "1m:2m": fio reads the second size, iops refuses the range */
	if (!val || strpbrk(val, "-:") || parse_size_pct(val, opt_value_kb_of(oj), &v, &p)) {
		opt_value_failed(d, od, val);
		return -EINVAL;	/* the job keeps its previous value */
	}
	*bytes = v;
	*pct = p;
	return 0;
}

APPLY(opt_apply_size)
{
	return opt_apply_size_pct(oj, od, val, d, &oj->j.size, &oj->j.size_pct, &oj->j.size_z);
}

APPLY(opt_apply_offset)
{
	return opt_apply_size_pct(oj, od, val, d, &oj->j.offset, &oj->j.offset_pct, &oj->j.offset_z);
}

APPLY(opt_apply_offset_increment)
{
	return opt_apply_size_pct(oj, od, val, d, &oj->j.offset_increment, &oj->j.offset_increment_pct,
				  &oj->j.offset_increment_z);
}

APPLY(opt_apply_io_size)
{
	uint64_t v;

	if (val && strchr(val, '%')) {
		opt_diag_add(d, false, "fio: io_size=%s (a percentage) is not supported by iops", val);
		return -EINVAL;
	}
	if (!val || parse_size(val, opt_value_kb_of(oj), &v)) {
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	oj->j.io_size = v;
	return 0;
}

APPLY(opt_apply_filesize)
{
	uint64_t lo, hi;
	int r = val ? parse_range(val, opt_value_kb_of(oj), &lo, &hi) : -EINVAL;

	if (r) {
		if (!val || r == -ERANGE || parse_size(val, opt_value_kb_of(oj), &lo)) {
			opt_value_failed(d, od, val);
			return -EINVAL;
		}
		hi = lo;
	}
	oj->j.filesize_min = lo;
	oj->j.filesize_max = lo ? hi : 0;	/* no low end (a first part fio failed on): fio uses neither */
	return 0;
}

APPLY(opt_apply_nrfiles)
{
	unsigned v;
	int ret = opt_value_get_uint(oj, od, val, d, &v);

	if (!ret && v > JOB_MAX_FILES) {	/* fio has no bound; iops plans every file up front */
		opt_diag_add(d, false, "fio: option 'nrfiles=%s' is not supported by iops (at most %d files per job)",
			     val, JOB_MAX_FILES);
		return -EINVAL;
	}
	if (!ret) {
		oj->nrfiles = v;
		oj->nrfiles_set = true;
	}
	return ret;
}

const struct opt_choice opt_apply_fallocate_choices[] = {
	{ .word = "none", .help = "Reserve nothing in advance", .value = FALLOC_NONE },
	{ .word = "native", .help = "Reserve space the filesystem's own way, if any", .value = FALLOC_NATIVE },
	{ .word = "posix", .help = "Reserve space with posix_fallocate(3)", .value = FALLOC_POSIX },
	{ .word = "keep", .help = "Reserve with fallocate(2), file length unchanged", .value = FALLOC_KEEP },
	{ .word = "truncate", .help = "Only set the file length, with ftruncate(2)", .value = FALLOC_TRUNCATE },
	{ .word = "0", .help = "Same as 'none'", .value = FALLOC_NONE },
	{ .word = "1", .help = "Same as 'posix'", .value = FALLOC_POSIX },
	{ .word = NULL },
};

const struct opt_choice opt_apply_fadvise_hint_choices[] = {
	{ .word = "0", .help = "No advice", .value = FADVISE_NONE },
	{ .word = "1", .help = "Random or sequential, as rw= says", .value = FADVISE_PATTERN },
	{ .word = "random", .help = "Always POSIX_FADV_RANDOM", .value = FADVISE_RANDOM },
	{ .word = "sequential", .help = "Always POSIX_FADV_SEQUENTIAL", .value = FADVISE_SEQUENTIAL },
	{ .word = NULL },
};

const struct opt_choice opt_apply_sync_choices[] = {
	{ .word = "none", .help = "", .value = SYNC_NONE },
	{ .word = "0", .help = "", .value = SYNC_NONE },
	{ .word = "sync", .help = "", .value = SYNC_SYNC },
	{ .word = "1", .help = "", .value = SYNC_SYNC },
	{ .word = "dsync", .help = "", .value = SYNC_DSYNC },
	{ .word = NULL },
};

APPLY(opt_apply_buffered)
{
	bool b;
	int ret = opt_value_get_bool(oj, od, val, d, &b);

	if (!ret)
		oj->j.direct = !b;
	return ret;
}
