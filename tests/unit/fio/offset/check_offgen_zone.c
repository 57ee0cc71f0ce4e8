/* SPDX-License-Identifier: MIT */
/* Unit tests of zonemode=strided (lib/fio/offset/offgen_zone.c): the zone arithmetic (next zone,
 * zone length: zero, max, overflow, zoneskip past the file), the option fixup (fio 3.33's
 * messages), option parsing through job text, and whole offset sequences through offgen
 * (sequences observed with fio 3.33's null engine and write_iops_log, log_offset=1). */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fio/conf/fioconf.h"
#include "fio/offset/offgen.h"
#include "fio/offset/offgen_zone.h"
#include "fio/conf/opt.h"
#include "fioconf_text.h"
#include "runner_testjob.h"

#define KIB 1024ull
#define MAX UINT64_MAX

/* ---- arithmetic ------------------------------------------------------------------------- */

static const struct next_case {
	uint64_t start, range, skip, base, end, want;
} next_cases[] = {
	{ 0, 4096, 0, 0, 65536, 4096 },
	{ 0, 4096, 4096, 0, 65536, 8192 },		/* zoneskip */
	{ 61440, 4096, 0, 0, 65536, 0 },		/* the next one starts at the end: wrap */
	{ 57344, 4096, 0, 0, 65536, 61440 },		/* the last zone */
	{ 32768, 4096, 0, 32768, 65536, 36864 },	/* offset= as base */
	{ 61440, 4096, 0, 32768, 65536, 32768 },	/* wraps to the base, not to 0 */
	{ 0, 4096, 1ull << 40, 0, 65536, 0 },		/* zoneskip larger than the file */
	{ 0, 128 * KIB, 0, 0, 64 * KIB, 0 },		/* zonerange larger than the file */
	{ 0, MAX, 0, 0, MAX, 0 },			/* overflow: start + range */
	{ 4096, 4096, MAX, 0, MAX, 0 },			/* overflow: range + skip */
	{ MAX - 4096, 4096, 0, 0, MAX, 0 },		/* reaches the end exactly */
	{ MAX - 8192, 4096, 0, 7, MAX, MAX - 4096 },
	{ 0, 0, 0, 0, 65536, 0 },			/* zero range: stays (fixup never lets it) */
	{ 0, 1, 0, 0, 0, 0 },				/* empty file */
};

START_TEST(test_zone_next_start)
{
	const struct next_case *c = &next_cases[_i];

	ck_assert_uint_eq(offgen_zone_next_start(c->start, c->range, c->skip, c->base, c->end), c->want);
}
END_TEST

static const struct len_case {
	uint64_t start, range, min_len, end, want;
} len_cases[] = {
	{ 0, 8192, 4096, 65536, 8192 },
	{ 0, 2048, 4096, 65536, 4096 },		/* at least one (largest) block */
	{ 49152, 49152, 4096, 65536, 16384 },	/* clipped at the end of the file */
	{ 63488, 2048, 4096, 65536, 2048 },	/* min_len clipped at the end too */
	{ 65536, 4096, 4096, 65536, 0 },	/* at the end */
	{ 70000, 4096, 4096, 65536, 0 },	/* past the end */
	{ 0, 0, 0, 65536, 0 },			/* zero */
	{ 0, MAX, 4096, MAX, MAX },		/* max */
	{ 1, MAX, MAX, MAX, MAX - 1 },
};

START_TEST(test_zone_len)
{
	const struct len_case *c = &len_cases[_i];

	ck_assert_uint_eq(offgen_zone_len(c->start, c->range, c->min_len, c->end), c->want);
}
END_TEST

/* ---- fixup: fio 3.33's checks and messages ------------------------------------------------ */

static const struct fixup_case {
	enum zone_mode mode;
	uint64_t range, size, skip, skip_z;
	int ret;
	const char *msg;		/* the one message line, or NULL */
	uint64_t want_range, want_skip;
} fixup_cases[] = {
	{ ZONE_MODE_NONE, 0, 0, 0, 0, 0, NULL, 0, 0 },
	{ ZONE_MODE_NONE, 16384, 0, 4096, 0, 0, NULL, 16384, 4096 },	/* ignored without zonesize */
	{ ZONE_MODE_NONE, 0, 8192, 0, 0, -EINVAL, "fio: --zonemode=none and --zonesize are not compatible.", 0, 0 },
	{ ZONE_MODE_STRIDED, 0, 0, 0, 0, -EINVAL,
	  "fio: --zonesize must be specified when using --zonemode=strided.", 0, 0 },
	{ ZONE_MODE_STRIDED, 16384, 0, 0, 0, -EINVAL,
	  "fio: --zonesize must be specified when using --zonemode=strided.", 0, 0 },
	{ ZONE_MODE_STRIDED, 0, 4096, 0, 0, 0, NULL, 4096, 0 },	/* zonerange = zonesize */
	{ ZONE_MODE_STRIDED, 4096, 16384, 0, 0, 0, NULL, 4096, 0 },	/* zonesize > zonerange: fine */
	{ ZONE_MODE_STRIDED, 8192, 4096, 0, 2, 0, NULL, 8192, 8192 },	/* zoneskip=2z */
	{ ZONE_MODE_STRIDED, 4096, 4096, 1ull << 50, 0, 0, NULL, 4096, 1ull << 50 },
	{ ZONE_MODE_STRIDED, 4096, MAX, 0, 1, 0, NULL, 4096, MAX },
	{ ZONE_MODE_STRIDED, 4096, 4096, 0, MAX / 4096 + 1, -EINVAL, "fio: zoneskip=4503599627370496z is too large", 0, 0 },
	{ ZONE_MODE_ZBD, 0, 4096, 0, 0, 0, NULL, 0, 0 },	/* zbd: checked against the zones later */
	{ ZONE_MODE_ZBD, 0, 4096, 0, 3, 0, NULL, 0, 12288 },	/* zoneskip=3z in bytes */
};

START_TEST(test_zone_fixup)
{
	const struct fixup_case *c = &fixup_cases[_i];
	struct opt_diag d;
	struct job j;

	testjob_init(&j, RW_READ);
	opt_diag_init(&d);
	j.zone_mode = c->mode;
	j.zone_range = c->range;
	j.zone_size = c->size;
	j.zone_skip = c->skip;
	j.zone_skip_z = c->skip_z;
	ck_assert_int_eq(offgen_zone_fixup(&j, &d), c->ret);
	if (c->msg) {
		ck_assert_uint_eq(d.nr, 1);
		ck_assert_str_eq(d.line[0], c->msg);
		return;
	}
	ck_assert_uint_eq(d.nr, 0);
	ck_assert_uint_eq(j.zone_range, c->want_range);
	ck_assert_uint_eq(j.zone_skip, c->want_skip);
}
END_TEST

/* ---- options through job text ------------------------------------------------------------- */

static const struct text_case {
	const char *opts;
	int ok;
	uint64_t range, size, skip;
	const char *msg;	/* first message line when refused */
} text_cases[] = {
	{ "zonemode=strided\nzonesize=8k\nzonerange=32k\nzoneskip=1m\n", 1, 32768, 8192, 1048576, NULL },
	{ "zonemode=strided\nzonesize=4k\nzoneskip=3z\n", 1, 4096, 4096, 12288, NULL },
	{ "zonemode=strided\nzonesize=4k\nzonecapacity=2k\n", 1, 4096, 4096, 0, NULL },
	{ "zonemode=none\nzonerange=4k\n", 1, 4096, 0, 0, NULL },
	{ "zonesize=4k\n", 0, 0, 0, 0, "fio: --zonemode=none and --zonesize are not compatible." },
	{ "zonemode=strided\nzonesize=4k\nzoneskip=xz\n", 0, 0, 0, 0, "zoneskip: unexpected zone value 'xz'" },
	{ "zonemode=strided\nzonesize=abc\n", 0, 0, 0, 0, "fio: failed parsing zonesize=abc" },
	{ "zonemode=zbd\nzonesize=4k\nverify=crc32c\n", 0, 0, 0, 0,
	  "fio: zonemode=zbd with verify is not supported by iops" },
};

START_TEST(test_zone_options)
{
	const struct text_case *c = &text_cases[_i];
	char text[512];
	struct fio_config cfg;
	struct opt_diag d;
	int ret;

	snprintf(text, sizeof(text), "[z]\nioengine=null\nsize=64k\n%s", c->opts);
	opt_diag_init(&d);
	ret = fioconf_from_text(text, &cfg, &d);
	if (!c->ok) {
		ck_assert_int_ne(ret, 0);
		ck_assert_uint_ge(d.nr, 1);
		ck_assert_str_eq(d.line[0], c->msg);
		return;
	}
	ck_assert_int_eq(ret, 0);
	ck_assert_uint_eq(cfg.jobs[0].zone_range, c->range);
	ck_assert_uint_eq(cfg.jobs[0].zone_size, c->size);
	ck_assert_uint_eq(cfg.jobs[0].zone_skip, c->skip);
	fio_config_release(&cfg);
}
END_TEST

/* ---- offset sequences through offgen ------------------------------------------------------- */

struct seq_case {
	const char *what;
	enum rw_mode rw;
	uint64_t range, size, skip;
	uint64_t start, len, file_end, total, io_size;	/* bytes; one file unless nrfiles */
	unsigned nr_files, loops;
	unsigned nr;
	const uint64_t want_kib[16];			/* offsets (KiB), 4k reads */
};

static const struct seq_case seq_cases[] = {
	{ "zoneskip=4k", RW_READ, 4096, 4096, 4096, 0, 65536, 65536, 65536, 0, 1, 1, 16,
	  { 0, 8, 16, 24, 32, 40, 48, 56, 0, 8, 16, 24, 32, 40, 48, 56 } },
	{ "zonesize < zonerange", RW_READ, 8192, 4096, 0, 0, 65536, 65536, 65536, 0, 1, 1, 16,
	  { 0, 8, 16, 24, 32, 40, 48, 56, 0, 8, 16, 24, 32, 40, 48, 56 } },
	{ "zonesize > zonerange", RW_READ, 4096, 8192, 0, 0, 65536, 65536, 65536, 0, 1, 1, 16,
	  { 0, 0, 4, 4, 8, 8, 12, 12, 16, 16, 20, 20, 24, 24, 28, 28 } },
	{ "zoneskip past the file", RW_READ, 16384, 16384, 102400, 0, 65536, 65536, 65536, 0, 1, 1, 16,
	  { 0, 4, 8, 12, 0, 4, 8, 12, 0, 4, 8, 12, 0, 4, 8, 12 } },
	{ "zonerange past the file", RW_READ, 131072, 16384, 0, 0, 65536, 65536, 65536, 0, 1, 1, 16,
	  { 0, 4, 8, 12, 0, 4, 8, 12, 0, 4, 8, 12, 0, 4, 8, 12 } },
	{ "zoneskip=2z", RW_READ, 4096, 4096, 8192, 0, 65536, 65536, 65536, 0, 1, 1, 16,
	  { 0, 12, 24, 36, 48, 60, 0, 12, 24, 36, 48, 60, 0, 12, 24, 36 } },
	{ "offset, wrap at the file end", RW_READ, 4096, 4096, 0, 32768, 32768, 65536, 65536, 65536, 1, 1, 16,
	  { 32, 36, 40, 44, 48, 52, 56, 60, 32, 36, 40, 44, 48, 52, 56, 60 } },
	{ "zones past the range, to the file end", RW_READ, 8192, 4096, 0, 16384, 48 * KIB, 65536, 16384, 0, 1, 1, 4,
	  { 16, 24, 32, 40 } },
	{ "two files, one zone count", RW_READ, 8192, 4096, 0, 0, 65536, 65536, 65536, 0, 2, 1, 16,
	  { 0, 8, 8, 16, 16, 24, 24, 32, 32, 40, 40, 48, 48, 56, 56, 0 } },
	{ "loops keep the zone", RW_READ, 8192, 4096, 0, 0, 65536, 65536, 65536, 24576, 1, 2, 12,
	  { 0, 8, 16, 24, 32, 40, 48, 56, 0, 8, 16, 24 } },
	{ "zonerange < bs", RW_READ, 2048, 4096, 0, 0, 65536, 65536, 65536, 0, 1, 1, 16,
	  { 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30 } },
	{ "write, zones of 16k, 8k each", RW_WRITE, 16384, 8192, 0, 0, 65536, 65536, 32768, 0, 1, 1, 8,
	  { 0, 4, 16, 20, 32, 36, 48, 52 } },
};

START_TEST(test_zone_sequences)
{
	const struct seq_case *c = &seq_cases[_i];
	uint64_t start[2] = { c->start, c->start }, len[2] = { c->len, c->len }, end[2] = { c->file_end, c->file_end };
	struct iops_err err = { 0 };
	struct offgen_io io;
	struct offgen og;
	struct job j;
	unsigned n = 0;

	testjob_init(&j, c->rw);
	j.zone_mode = ZONE_MODE_STRIDED;
	j.zone_range = c->range;
	j.zone_size = c->size;
	j.zone_skip = c->skip;
	j.io_size = c->io_size;
	j.loops = c->loops;
	ck_assert_int_eq(offgen_init(&og, &j, start, len, c->nr_files, c->total, &err), 0);
	ck_assert_int_eq(offgen_zone_setup(&og, &j, end, &err), 0);
	while (offgen_next(&og, &io)) {
		ck_assert_msg(n < c->nr, "%s: more than %u I/Os", c->what, c->nr);
		ck_assert_msg(io.offset == c->want_kib[n] * KIB && io.len == 4096, "%s: I/O %u at %llu+%llu, want %llu",
			      c->what, n, (unsigned long long)io.offset, (unsigned long long)io.len,
			      (unsigned long long)(c->want_kib[n] * KIB));
		ck_assert_uint_eq(io.file, c->nr_files == 2 ? n % 2 : 0);
		n++;
	}
	ck_assert_msg(n == c->nr, "%s: %u I/Os, want %u", c->what, n, c->nr);
	offgen_release(&og);
}
END_TEST

/* Random I/O (map, lfsr, norandommap; 1 or 3 files): inside the zone of the moment, each
 * block once per visit (map, lfsr), the job's bytes exactly. */
static const struct rnd_case {
	enum rand_gen gen;
	bool norandommap;
	uint64_t range, size, skip, start, len, file_end, total;
	unsigned nr_files;
	bool unique;
} rnd_cases[] = {
	{ RANDGEN_TAUSWORTHE, false, 4096, 4096, 0, 0, 65536, 65536, 65536, 1, true },
	{ RANDGEN_TAUSWORTHE, false, 4096, 16384, 0, 0, 65536, 65536, 65536, 1, true },
	{ RANDGEN_TAUSWORTHE, false, 8192, 4096, 0, 0, 65536, 65536, 65536, 1, true },
	{ RANDGEN_TAUSWORTHE, false, 16 << 20, 32 << 20, 0, 0, 256 << 20, 256 << 20, 64 << 20, 1, true },
	{ RANDGEN_TAUSWORTHE, false, 65536, 32768, 65536, 0, 1 << 20, 1 << 20, 1 << 20, 3, true },
	{ RANDGEN_TAUSWORTHE, false, 49152, 49152, 0, 0, 65536, 65536, 65536, 1, true },	/* clipped zone */
	{ RANDGEN_LFSR, false, 4 << 20, 4 << 20, 0, 8 << 20, 8 << 20, 16 << 20, 16 << 20, 1, true },
	{ RANDGEN_LFSR, false, 1 << 20, 4 << 20, 0, 0, 16 << 20, 16 << 20, 16 << 20, 1, true },
	{ RANDGEN_LFSR, false, 49152, 49152, 0, 0, 65536, 65536, 65536, 1, true },
	{ RANDGEN_TAUSWORTHE, true, 8192, 4096, 0, 0, 65536, 65536, 65536, 1, false },
	{ RANDGEN_TAUSWORTHE, true, 16 << 20, 8 << 20, 0, 0, 256 << 20, 256 << 20, 64 << 20, 2, false },
};

START_TEST(test_zone_random)
{
	const struct rnd_case *c = &rnd_cases[_i];
	uint64_t start[3], len[3], end[3], zstart[3], bytes = 0, total = 0, per_visit[3] = { 0 };
	uint64_t nblocks = c->range / 4096, *seen[3];
	struct iops_err err = { 0 };
	struct offgen_io io;
	struct offgen og;
	struct job j;

	for (unsigned i = 0; i < c->nr_files; i++) {
		start[i] = zstart[i] = c->start;
		len[i] = c->len;
		end[i] = c->file_end;
		seen[i] = calloc(nblocks / 64 + 1, sizeof(uint64_t));
	}
	testjob_init(&j, RW_RANDREAD);
	j.zone_mode = ZONE_MODE_STRIDED;
	j.zone_range = c->range;
	j.zone_size = c->size;
	j.zone_skip = c->skip;
	j.norandommap = c->norandommap;
	j.random_generator = c->gen;
	ck_assert_int_eq(offgen_init(&og, &j, start, len, c->nr_files, c->total, &err), 0);
	ck_assert_int_eq(offgen_zone_setup(&og, &j, end, &err), 0);
	while (offgen_next(&og, &io)) {
		unsigned f = io.file;
		uint64_t zlen = offgen_zone_len(zstart[f], c->range, 4096, c->file_end), b;

		if (bytes >= c->size) {	/* this file moves on (the job counts the bytes) */
			bytes = 0;
			zstart[f] = offgen_zone_next_start(zstart[f], c->range, c->skip, c->start, c->file_end);
			zlen = offgen_zone_len(zstart[f], c->range, 4096, c->file_end);
			memset(seen[f], 0, (nblocks / 64 + 1) * sizeof(uint64_t));
			per_visit[f] = 0;
		}
		if (io.offset < zstart[f] || io.offset + io.len > zstart[f] + zlen || io.len != 4096)
			ck_abort_msg("case %d: I/O %llu at %llu+%llu outside the zone %llu+%llu", _i,
				     (unsigned long long)(total / 4096), (unsigned long long)io.offset,
				     (unsigned long long)io.len, (unsigned long long)zstart[f], (unsigned long long)zlen);
		b = (io.offset - zstart[f]) / 4096;
		if (c->unique) {
			if (per_visit[f] == zlen / 4096) {	/* zonesize > zone: the zone starts over */
				memset(seen[f], 0, (nblocks / 64 + 1) * sizeof(uint64_t));
				per_visit[f] = 0;
			}
			if (seen[f][b / 64] >> (b % 64) & 1)
				ck_abort_msg("case %d: block %llu twice in one visit", _i, (unsigned long long)b);
			seen[f][b / 64] |= 1ull << (b % 64);
			per_visit[f]++;
		}
		bytes += io.len;
		total += io.len;
	}
	ck_assert_uint_eq(total, c->total);
	for (unsigned i = 0; i < c->nr_files; i++)
		free(seen[i]);
	offgen_release(&og);
}
END_TEST

/* Without zonemode=strided the set-up changes nothing; a zone too large for the map is refused. */
START_TEST(test_zone_setup_edges)
{
	uint64_t start = 0, len = 65536, end = 65536, huge = 1ull << 62;
	struct iops_err err = { 0 };
	struct offgen og;
	struct job j;

	testjob_init(&j, RW_RANDREAD);
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), 0);
	ck_assert_int_eq(offgen_zone_setup(&og, &j, &end, &err), 0);
	ck_assert_ptr_null(og.zone);
	offgen_release(&og);

	/* the file is larger than its range (end): a zone of 2^62 bytes is too large for a map */
	j.zone_mode = ZONE_MODE_STRIDED;
	j.zone_size = j.zone_range = huge;
	end = huge;
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), 0);
	ck_assert_int_eq(offgen_zone_setup(&og, &j, &end, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "fio: t: zone too large for the random map; use norandommap=1");
	offgen_release(&og);
	ck_assert_ptr_null(og.zone);
	j.norandommap = true;
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), 0);
	ck_assert_int_eq(offgen_zone_setup(&og, &j, &end, &err), 0);	/* no map: any zone */
	ck_assert_ptr_nonnull(og.zone);
	offgen_release(&og);
	ck_assert_ptr_null(og.zone);

	/* a zone shorter than the block at the file end: nothing fits there, the job ends */
	j.norandommap = false;
	j.rw = RW_READ;
	j.rw_random = false;
	j.percentage_random = 0;
	j.zone_size = 4096;
	j.zone_range = 6144;
	start = 0;
	len = end = 8192;
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, 65536, &err), 0);
	ck_assert_int_eq(offgen_zone_setup(&og, &j, &end, &err), 0);
	{
		struct offgen_io io;
		unsigned n = 0;

		while (offgen_next(&og, &io) && n < 100)
			n++;
		ck_assert_uint_lt(n, 100);
	}
	offgen_release(&og);
}
END_TEST

Suite *offgen_zone_suite(void)
{
	Suite *s = suite_create("offgen_zone");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_zone_next_start, 0, (int)(sizeof(next_cases) / sizeof(next_cases[0])));
	tcase_add_loop_test(tc, test_zone_len, 0, (int)(sizeof(len_cases) / sizeof(len_cases[0])));
	tcase_add_loop_test(tc, test_zone_fixup, 0, (int)(sizeof(fixup_cases) / sizeof(fixup_cases[0])));
	tcase_add_loop_test(tc, test_zone_options, 0, (int)(sizeof(text_cases) / sizeof(text_cases[0])));
	tcase_add_loop_test(tc, test_zone_sequences, 0, (int)(sizeof(seq_cases) / sizeof(seq_cases[0])));
	tcase_add_loop_test(tc, test_zone_random, 0, (int)(sizeof(rnd_cases) / sizeof(rnd_cases[0])));
	tcase_add_test(tc, test_zone_setup_edges);
	suite_add_tcase(s, tc);
	return s;
}
