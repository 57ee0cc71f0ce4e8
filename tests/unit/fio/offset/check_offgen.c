/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fio/offset/offgen.h"
#include "runner_testjob.h"

#define K 1024ull
#define M (1024ull * 1024ull)

/* Totals measured with fio 3.33 --ioengine=null on this machine (see the report). */
struct total_case {
	const char *what;
	enum rw_mode rw;
	uint64_t bs_lo, bs_hi;		/* 0: 4k */
	unsigned nr_files;
	uint64_t file_len;		/* each file's I/O range */
	uint64_t total_size;
	uint64_t io_size;
	unsigned loops;
	bool norandommap;
	unsigned seq_add;
	unsigned same_nr;
	unsigned rwmixread;		/* 0: 50 */
	unsigned pct_random;		/* 0: default */
	uint64_t want_ios;		/* 0: not deterministic in fio, check bytes only */
	uint64_t want_bytes;
};

static const struct total_case total_cases[] = {
	{ "8m nrfiles=3 read", RW_READ, 0, 0, 3, 2796202, 8 * M, 0, 1, false, 0, 0, 0, 0, 2046, 8380416 },
	{ "8m nrfiles=3 randread", RW_RANDREAD, 0, 0, 3, 2796202, 8 * M, 0, 1, false, 0, 0, 0, 0, 2046, 8380416 },
	{ "8m nrfiles=3 randread norandommap", RW_RANDREAD, 0, 0, 3, 2796202, 8 * M, 0, 1, true, 0, 0, 0, 0, 2048, 8 * M },
	{ "size=10000 read", RW_READ, 0, 0, 1, 10000, 10000, 0, 1, false, 0, 0, 0, 0, 2, 8192 },
	{ "size=10000 randread", RW_RANDREAD, 0, 0, 1, 10000, 10000, 0, 1, false, 0, 0, 0, 0, 2, 8192 },
	{ "size=10000 randread norandommap", RW_RANDREAD, 0, 0, 1, 10000, 10000, 0, 1, true, 0, 0, 0, 0, 3, 12288 },
	{ "read:12k holes wrap", RW_READ, 0, 0, 1, 16 * M, 16 * M, 0, 1, false, 12 * 1024, 0, 0, 0, 4096, 16 * M },
	{ "t0007 read:512k bs=1m", RW_READ, M, M, 1, 128 * M, 128 * M, 0, 1, true, 512 * 1024, 0, 0, 0, 85, 85 * M },
	{ "randread:8", RW_RANDREAD, 0, 0, 1, 16 * M, 16 * M, 0, 1, false, 0, 8, 0, 0, 4096, 16 * M },
	{ "randrw", RW_RANDRW, 0, 0, 1, 16 * M, 16 * M, 0, 1, false, 0, 0, 0, 0, 4096, 16 * M },
	{ "rw rwmixread=70", RW_RW, 0, 0, 1, 16 * M, 16 * M, 0, 1, false, 0, 0, 70, 0, 4096, 16 * M },
	{ "rw rwmixread=70 loops=2", RW_RW, 0, 0, 1, 16 * M, 16 * M, 0, 2, false, 0, 0, 70, 0, 8192, 32 * M },
	{ "bsrange 1k-16k randread", RW_RANDREAD, 1024, 16384, 1, 16 * M, 16 * M, 0, 1, false, 0, 0, 0, 0, 0, 16 * M },
	{ "bsrange 1k-16k read", RW_READ, 1024, 16384, 1, 16 * M, 16 * M, 0, 1, false, 0, 0, 0, 0, 0, 16 * M },
	{ "bsrange 1k-4k read size=10000", RW_READ, 1024, 4096, 1, 10000, 10000, 0, 1, false, 0, 0, 0, 0, 0, 9216 },
	{ "bsrange 1k-4k randread size=10000", RW_RANDREAD, 1024, 4096, 1, 10000, 10000, 0, 1, false, 0, 0, 0, 0, 0, 9216 },
	{ "loops=3", RW_READ, 0, 0, 1, 16 * M, 16 * M, 0, 3, false, 0, 0, 0, 0, 12288, 48 * M },
	{ "io_size=40m read", RW_READ, 0, 0, 1, 16 * M, 16 * M, 40 * M, 1, false, 0, 0, 0, 0, 10240, 40 * M },
	{ "io_size=40m randread", RW_RANDREAD, 0, 0, 1, 16 * M, 16 * M, 40 * M, 1, false, 0, 0, 0, 0, 10240, 40 * M },
	{ "io_size=4m", RW_READ, 0, 0, 1, 16 * M, 16 * M, 4 * M, 1, false, 0, 0, 0, 0, 1024, 4 * M },
	{ "io_size=40m loops=2", RW_READ, 0, 0, 1, 16 * M, 16 * M, 40 * M, 2, false, 0, 0, 0, 0, 12288, 48 * M },
	{ "io_size=4m loops=3", RW_READ, 0, 0, 1, 16 * M, 16 * M, 4 * M, 3, false, 0, 0, 0, 0, 3072, 12 * M },
	{ "io_size=10000 read", RW_READ, 0, 0, 1, 16 * M, 16 * M, 10000, 1, false, 0, 0, 0, 0, 3, 12288 },
	{ "io_size=10000 randread", RW_RANDREAD, 0, 0, 1, 16 * M, 16 * M, 10000, 1, false, 0, 0, 0, 0, 3, 12288 },
	{ "io_size=10000k norandommap", RW_RANDREAD, 0, 0, 1, 16 * M, 16 * M, 10000 * K, 1, true, 0, 0, 0, 0, 2500, 10240000 },
	{ "norandommap loops=2", RW_RANDREAD, 0, 0, 1, 16 * M, 16 * M, 0, 2, true, 0, 0, 0, 0, 8192, 32 * M },
	{ "bs=3k read", RW_READ, 3072, 3072, 1, 16 * M, 16 * M, 0, 1, false, 0, 0, 0, 0, 5461, 16776192 },
	{ "nrfiles=3 io_size=20m", RW_READ, 0, 0, 3, 2796202, 8 * M, 20 * M, 1, false, 0, 0, 0, 0, 5120, 20 * M },
	{ "nrfiles=3 randread loops=2", RW_RANDREAD, 0, 0, 3, 2796202, 8 * M, 0, 2, false, 0, 0, 0, 0, 4092, 16760832 },
	{ "percentage_random=50", RW_RANDREAD, 0, 0, 1, 16 * M, 16 * M, 0, 1, false, 0, 0, 0, 50, 4096, 16 * M },
	{ "filesize=1m nrfiles=2 size=16m", RW_READ, 0, 0, 2, 1 * M, 16 * M, 0, 1, false, 0, 0, 0, 0, 512, 2 * M },
	{ "filename=a:b:c 16m", RW_READ, 0, 0, 3, 5592405, 16 * M, 0, 1, false, 0, 0, 0, 0, 4095, 16773120 },
	{ "randwrite", RW_RANDWRITE, 0, 0, 1, 16 * M, 16 * M, 0, 1, false, 0, 0, 0, 0, 4096, 16 * M },
};

static void case_job(struct job *j, const struct total_case *c)
{
	testjob_init(j, c->rw);
	if (c->bs_lo)
		for (int d = 0; d < DDIR_NR; d++) {
			j->bs_min[d] = c->bs_lo;
			j->bs_max[d] = c->bs_hi;
		}
	j->io_size = c->io_size;
	j->loops = c->loops;
	j->norandommap = c->norandommap;
	j->rw_seq_add = c->seq_add;
	j->rw_nr_same_offset = c->same_nr ? c->same_nr : 1;
	if (c->rwmixread)
		j->rwmixread = c->rwmixread;
	if (c->pct_random)
		j->percentage_random = c->pct_random;
}

START_TEST(test_offgen_totals_match_fio)
{
	const struct total_case *c = &total_cases[_i];
	uint64_t start[8], len[8], ios = 0, bytes = 0, ios_dir[DDIR_NR] = { 0 };
	struct iops_err err = { 0 };
	struct offgen_io io;
	struct offgen og;
	struct job j;

	case_job(&j, c);
	for (unsigned i = 0; i < c->nr_files; i++) {
		start[i] = 0;
		len[i] = c->file_len;
	}
	ck_assert_int_eq(offgen_init(&og, &j, start, len, c->nr_files, c->total_size, &err), 0);
	while (offgen_next(&og, &io)) {
		ck_assert_msg(io.offset + io.len <= c->file_len, "%s: io beyond range", c->what);
		ck_assert_uint_gt(io.len, 0);
		ck_assert_uint_lt(io.file, c->nr_files);
		ios++;
		ios_dir[io.ddir]++;
		bytes += io.len;
		ck_assert_msg(ios < 10000000, "%s: runaway", c->what);
	}
	ck_assert(!offgen_next(&og, &io));
	if (c->want_ios)
		ck_assert_msg(ios == c->want_ios, "%s: ios %llu, fio %llu", c->what,
			      (unsigned long long)ios, (unsigned long long)c->want_ios);
	ck_assert_msg(bytes == c->want_bytes, "%s: bytes %llu, fio %llu", c->what,
		      (unsigned long long)bytes, (unsigned long long)c->want_bytes);
	ck_assert_uint_eq(og.issued_bytes, bytes);
	if (c->rwmixread == 70) {
		/* 70 % reads within a few percent */
		ck_assert_uint_gt(ios_dir[DDIR_READ] * 100, ios * 66);
		ck_assert_uint_lt(ios_dir[DDIR_READ] * 100, ios * 74);
	}
	offgen_release(&og);
}
END_TEST

START_TEST(test_offgen_sequential_order_and_holes)
{
	uint64_t start = 4096, len = 64 * 1024;
	struct iops_err err = { 0 };
	struct offgen_io io;
	struct offgen og;
	struct job j;

	testjob_init(&j, RW_READ);
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), 0);
	for (uint64_t i = 0; i < 16; i++) {
		ck_assert(offgen_next(&og, &io));
		ck_assert_uint_eq(io.offset, 4096 + i * 4096);
		ck_assert_uint_eq(io.len, 4096);
		ck_assert_int_eq(io.ddir, DDIR_READ);
	}
	ck_assert(!offgen_next(&og, &io));
	offgen_release(&og);

	/* read:4k → 0, 8k, ... 56k, then (56k + 4k ends short of 64k) wrapping to the start */
	j.rw_seq_add = 4096;
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), 0);
	for (uint64_t i = 0; i < 8; i++) {
		ck_assert(offgen_next(&og, &io));
		ck_assert_uint_eq(io.offset, 4096 + i * 8192);
	}
	ck_assert(offgen_next(&og, &io));
	ck_assert_uint_eq(io.offset, 4096);	/* 64k >= 64k: wrapped */
	offgen_release(&og);

	/* read:8k → 0, 12k, ... 60k: that I/O ends exactly at the end of the range, and fio ends
	 * the file's pass there (1 MiB with read:8k: 86 I/Os, not 256) */
	j.rw_seq_add = 8192;
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), 0);
	for (uint64_t i = 0; i < 6; i++) {
		ck_assert(offgen_next(&og, &io));
		ck_assert_uint_eq(io.offset, 4096 + i * 12288);
	}
	ck_assert(!offgen_next(&og, &io));
	offgen_release(&og);

	/* read:5k (fio 3.33: 0, 9k, ... 54k, 7 I/Os): the next block at 63k does not fit before
	 * 64k and the pass ends there, no wrap (t0007's rw=read:512k bs=1m: 85 I/Os of 128) */
	j.rw_seq_add = 5120;
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), 0);
	for (uint64_t i = 0; i < 7; i++) {
		ck_assert(offgen_next(&og, &io));
		ck_assert_uint_eq(io.offset, 4096 + i * 9216);
	}
	ck_assert(!offgen_next(&og, &io));
	offgen_release(&og);
}
END_TEST

/* rw_sequencer=identical: rw=randread:4 repeats each random offset (fio 3.33's trace over
 * 64 KiB: 0 x4, 45056 x4, 53248 ...); the default (sequential) follows on from it instead;
 * bs_is_seq_rand: bs=4k,16k sizes the random I/Os 16k and the ones that follow 4k. */
START_TEST(test_offgen_sequencer_and_bs_is_seq_rand)
{
	static const uint64_t ident[] = { 0, 0, 0, 0, 45056, 45056, 45056, 45056, 53248, 53248 };
	static const uint64_t seq[] = { 0, 4096, 8192, 12288, 45056, 49152, 53248, 57344, 53248, 57344 };
	uint64_t start = 0, len = 64 * 1024;
	struct iops_err err = { 0 };
	struct offgen_io io;
	struct offgen og;
	struct job j;

	testjob_init(&j, RW_RANDREAD);
	j.rw_nr_same_offset = 4;
	for (int pass = 0; pass < 2; pass++) {
		j.rw_seq_ident = pass == 0;
		ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), 0);
		for (unsigned i = 0; i < 10; i++) {
			ck_assert(offgen_next(&og, &io));
			ck_assert_uint_eq(io.offset, pass == 0 ? ident[i] : seq[i]);
			ck_assert_uint_eq(io.len, 4096);
		}
		offgen_release(&og);
	}
	/* identical without :N changes nothing (every I/O is random) */
	j.rw_nr_same_offset = 1;
	j.rw_seq_ident = true;
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), 0);
	ck_assert(offgen_next(&og, &io));
	ck_assert(offgen_next(&og, &io));
	ck_assert_uint_ne(io.offset, 0);
	offgen_release(&og);

	j.rw_seq_ident = false;
	j.rw_nr_same_offset = 3;
	j.bs_is_seq_rand = true;
	j.bs_min[DDIR_WRITE] = j.bs_max[DDIR_WRITE] = 16384;
	len = 256 * 1024;	/* 9 I/Os: 72 KiB */
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), 0);
	for (unsigned i = 0; i < 9; i++) {
		ck_assert(offgen_next(&og, &io));
		ck_assert_int_eq(io.ddir, DDIR_READ);
		ck_assert_uint_eq(io.len, i % 3 == 0 ? 16384 : 4096);
	}
	offgen_release(&og);
}
END_TEST

START_TEST(test_offgen_random_map_covers_each_block_once)
{
	uint64_t start = 0, len = 1000 * 4096 + 100;	/* partial tail block never used */
	unsigned char seen[1000] = { 0 };
	struct iops_err err = { 0 };
	struct offgen_io io;
	struct offgen og;
	struct job j;
	unsigned n = 0;

	testjob_init(&j, RW_RANDWRITE);
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), 0);
	while (offgen_next(&og, &io)) {
		ck_assert_uint_eq(io.offset % 4096, 0);
		ck_assert_uint_lt(io.offset / 4096, 1000);
		ck_assert_uint_eq(seen[io.offset / 4096], 0);
		seen[io.offset / 4096] = 1;
		n++;
	}
	ck_assert_uint_eq(n, 1000);
	offgen_release(&og);
}
END_TEST

START_TEST(test_offgen_randrepeat_reproducible_clones_differ)
{
	uint64_t start = 0, len = 64 * 1024 * 1024;
	struct iops_err err = { 0 };
	struct offgen a, b, c;
	struct offgen_io ia, ib, ic;
	struct job j, j2;
	unsigned differ = 0;

	testjob_init(&j, RW_RANDREAD);
	j2 = j;
	j2.thread_number = 2;
	ck_assert_int_eq(offgen_init(&a, &j, &start, &len, 1, len, &err), 0);
	ck_assert_int_eq(offgen_init(&b, &j, &start, &len, 1, len, &err), 0);
	ck_assert_int_eq(offgen_init(&c, &j2, &start, &len, 1, len, &err), 0);
	for (int i = 0; i < 1000; i++) {
		ck_assert(offgen_next(&a, &ia));
		ck_assert(offgen_next(&b, &ib));
		ck_assert(offgen_next(&c, &ic));
		ck_assert_uint_eq(ia.offset, ib.offset);
		differ += ia.offset != ic.offset;
	}
	ck_assert_uint_gt(differ, 900);
	offgen_release(&a);
	offgen_release(&b);
	offgen_release(&c);

	/* randrepeat also repeats the read/write choices of a mix */
	testjob_init(&j, RW_RANDRW);
	j.rwmixread = 60;
	ck_assert_int_eq(offgen_init(&a, &j, &start, &len, 1, len, &err), 0);
	ck_assert_int_eq(offgen_init(&b, &j, &start, &len, 1, len, &err), 0);
	for (int i = 0; i < 1000; i++) {
		ck_assert(offgen_next(&a, &ia));
		ck_assert(offgen_next(&b, &ib));
		ck_assert_int_eq(ia.ddir, ib.ddir);
		ck_assert_uint_eq(ia.offset, ib.offset);
	}
	offgen_release(&a);
	offgen_release(&b);
}
END_TEST

START_TEST(test_offgen_bsrange_multiples)
{
	uint64_t start = 0, len = 8 * 1024 * 1024;
	struct iops_err err = { 0 };
	struct offgen_io io;
	struct offgen og;
	struct job j;
	bool saw_min = false, saw_max = false;

	testjob_init(&j, RW_RANDREAD);
	for (int d = 0; d < DDIR_NR; d++) {
		j.bs_min[d] = 1024;
		j.bs_max[d] = 16384;
	}
	j.norandommap = true;	/* no trimming to free runs: lengths straight from the generator */
	j.time_based = true;
	j.runtime_ns = 1;
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), 0);
	for (int i = 0; i < 5000; i++) {
		ck_assert(offgen_next(&og, &io));
		ck_assert_uint_eq(io.len % 1024, 0);
		ck_assert_uint_ge(io.len, 1024);
		ck_assert_uint_le(io.len, 16384);
		ck_assert_uint_eq(io.offset % 1024, 0);
		saw_min |= io.len == 1024;
		saw_max |= io.len == 16384;
	}
	ck_assert(saw_min && saw_max);
	offgen_release(&og);
}
END_TEST

START_TEST(test_offgen_time_based_wraps)
{
	uint64_t start = 0, len = 16 * 4096;
	struct iops_err err = { 0 };
	struct offgen_io io;
	struct offgen og;
	struct job j;

	for (int rw = 0; rw < 2; rw++) {
		testjob_init(&j, rw ? RW_RANDREAD : RW_READ);
		j.time_based = true;
		j.runtime_ns = 1000000000ull;
		ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), 0);
		for (int i = 0; i < 1000; i++) {
			ck_assert(offgen_next(&og, &io));
			ck_assert_uint_lt(io.offset, len);
		}
		offgen_release(&og);
	}
}
END_TEST

/* offgen_io.fresh: where the runner drops the page cache again (fio's invalidate on every pass).
 * 16 blocks of 4k per file; ios I/Os handed out; fresh_at lists the 0-based I/Os that carry a
 * mark (FILE for a time_based wrap, PASS for a new loop or io_size pass), -1 ends the list. */
struct fresh_case {
	const char *what;
	enum rw_mode rw;
	bool time_based, norandommap;
	unsigned loops, seq_add;
	uint64_t io_size;
	unsigned ios;
	enum offgen_fresh kind;
	int fresh_at[8];
	bool lfsr;		/* random_generator=lfsr */
};

static const struct fresh_case fresh_cases[] = {
	{ "time_based read wraps each 16", RW_READ, true, false, 1, 0, 0, 50, OFFGEN_FRESH_FILE, { 16, 32, 48, -1 }, false },
	{ "time_based randread map full each 16", RW_RANDREAD, true, false, 1, 0, 0, 50, OFFGEN_FRESH_FILE, { 16, 32, 48, -1 }, false },
	{ "time_based norandommap never", RW_RANDREAD, true, true, 1, 0, 0, 50, OFFGEN_FRESH_NONE, { -1 }, false },
	{ "time_based holes restart in the pass", RW_READ, true, false, 1, 4096, 0, 50, OFFGEN_FRESH_NONE, { -1 }, false },
	{ "loops=3 read", RW_READ, false, false, 3, 0, 0, 48, OFFGEN_FRESH_PASS, { 16, 32, -1 }, false },
	{ "loops=2 randread", RW_RANDREAD, false, false, 2, 0, 0, 32, OFFGEN_FRESH_PASS, { 16, -1 }, false },
	{ "io_size=160k: 2.5 passes of 16", RW_READ, false, false, 1, 0, 160 * 1024, 40, OFFGEN_FRESH_PASS, { 16, 32, -1 }, false },
	{ "one pass: nothing", RW_RANDREAD, false, false, 1, 0, 0, 16, OFFGEN_FRESH_NONE, { -1 }, false },
	{ "time_based lfsr each 16", RW_RANDREAD, true, true, 1, 0, 0, 50, OFFGEN_FRESH_FILE, { 16, 32, 48, -1 }, true },
	{ "lfsr loops=2", RW_RANDREAD, false, true, 2, 0, 0, 32, OFFGEN_FRESH_PASS, { 16, -1 }, true },
};

START_TEST(test_offgen_fresh_marks_each_new_pass)
{
	const struct fresh_case *c = &fresh_cases[_i];
	uint64_t start = 0, len = 16 * 4096;
	struct iops_err err = { 0 };
	struct offgen_io io;
	struct offgen og;
	struct job j;
	unsigned k = 0;

	testjob_init(&j, c->rw);
	j.time_based = c->time_based;
	j.runtime_ns = c->time_based ? 1 : 0;
	j.runtime_ns = c->time_based ? 1000000000ull : 0;
	j.norandommap = c->norandommap;
	j.loops = c->loops;
	j.rw_seq_add = c->seq_add;
	j.io_size = c->io_size;
	if (c->lfsr)
		j.random_generator = RANDGEN_LFSR;
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), 0);
	for (unsigned i = 0; i < c->ios; i++) {
		ck_assert_msg(offgen_next(&og, &io), "%s: ended at I/O %u", c->what, i);
		if (c->fresh_at[k] == (int)i) {
			ck_assert_msg(io.fresh == c->kind, "%s: I/O %u: fresh %d, expected %d", c->what, i,
				      io.fresh, c->kind);
			ck_assert_msg(io.offset == 0 || c->rw == RW_RANDREAD, "%s: a wrap starts at 0", c->what);
			k++;
		} else {
			ck_assert_msg(io.fresh == OFFGEN_FRESH_NONE, "%s: I/O %u marked %d", c->what, i, io.fresh);
		}
	}
	ck_assert_msg(c->fresh_at[k] == -1, "%s: mark %u never came", c->what, k);
	if (!c->time_based)
		ck_assert_msg(!offgen_next(&og, &io), "%s: more I/O than planned", c->what);
	offgen_release(&og);
}
END_TEST

/* random_generator=lfsr: every block of every pass exactly once, with or without norandommap,
 * for ranges that are and are not a power of two of blocks, with bsrange. */
START_TEST(test_offgen_lfsr_each_block_once)
{
	static const uint64_t nr_blocks[] = { 1, 3, 16, 100, 256, 1000 };
	uint64_t start = 0, len = nr_blocks[_i / 2] * 4096;
	struct iops_err err = { 0 };
	unsigned char seen[1000];
	struct offgen_io io;
	struct offgen og;
	struct job j;
	uint64_t ios = 0;

	testjob_init(&j, RW_RANDREAD);
	j.random_generator = RANDGEN_LFSR;
	j.norandommap = _i % 2;
	j.loops = 2;
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), 0);
	for (int pass = 0; pass < 2; pass++) {
		memset(seen, 0, sizeof(seen));
		for (uint64_t b = 0; b < nr_blocks[_i / 2]; b++) {
			ck_assert(offgen_next(&og, &io));
			ck_assert_uint_eq(io.len, 4096);
			ck_assert_uint_eq(io.offset % 4096, 0);
			ck_assert_msg(!seen[io.offset / 4096], "block %llu twice in pass %d",
				      (unsigned long long)(io.offset / 4096), pass);
			seen[io.offset / 4096] = 1;
			ios++;
		}
	}
	ck_assert(!offgen_next(&og, &io));
	ck_assert_uint_eq(ios, 2 * nr_blocks[_i / 2]);
	offgen_release(&og);
}
END_TEST

START_TEST(test_offgen_rejects_bad_input)
{
	uint64_t start = 0, len = 4096;
	struct iops_err err = { 0 };
	struct offgen og;
	struct job j;

	testjob_init(&j, RW_READ);
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 0, len, &err), -EINVAL);
	j.bs_min[DDIR_READ] = 0;
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), -EINVAL);
	testjob_init(&j, RW_TRIM);
	j.rw_has_trim = false;	/* no direction at all */
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), -EINVAL);
	ck_assert(iops_err_isset(&err));
}
END_TEST

START_TEST(test_offgen_range_smaller_than_bs)
{
	uint64_t start = 0, len = 100;
	struct iops_err err = { 0 };
	struct offgen_io io;
	struct offgen og;
	struct job j;

	for (int rw = 0; rw < 3; rw++) {
		testjob_init(&j, rw == 0 ? RW_READ : RW_RANDREAD);
		j.norandommap = rw == 2;
		j.time_based = true;
		j.runtime_ns = 1;
		ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), 0);
		ck_assert(!offgen_next(&og, &io));
		offgen_release(&og);
	}
}
END_TEST

START_TEST(test_offgen_per_direction_bs_keeps_sizes)
{
	uint64_t start = 0, len = 16 * 1024 * 1024;
	struct iops_err err = { 0 };
	struct offgen_io io;
	struct offgen og;
	struct job j;
	uint64_t n = 0;

	testjob_init(&j, RW_RANDRW);
	j.bs_min[DDIR_WRITE] = j.bs_max[DDIR_WRITE] = 8192;
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), 0);
	while (offgen_next(&og, &io)) {
		if (io.ddir == DDIR_READ)
			ck_assert_uint_eq(io.len, 4096);
		else	/* trimmed to a free run of 4k map blocks, never beyond the range */
			ck_assert(io.len == 8192 || io.len == 4096);
		ck_assert_uint_le(io.offset + io.len, len);
		n++;
	}
	/* fio draws the writes' blocks in 8k units but tests and marks them in the 4k map: the
	 * file ends early, when a write lands past what the map can give (fio 3.33 does the
	 * same: 467 I/Os of a 4 MiB randrw with bs=4k,8k) */
	ck_assert_uint_gt(n, 1000);
	offgen_release(&og);

	/* time_based with a write bs larger than the whole range ends instead of spinning */
	len = 4096;
	j.time_based = true;
	j.runtime_ns = 1;
	j.rwmixread = 0;
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), 0);
	ck_assert(!offgen_next(&og, &io));
	offgen_release(&og);
}
END_TEST

/* number_ios: fio 3.33 ends each pass after that many I/Os (measured: 10 per loop, loops x 10
 * in all; a cap above the pass changes nothing; io_size adds no pass; time_based ignores it). */
struct nios_case {
	enum rw_mode rw;
	uint64_t number_ios, io_size;
	unsigned loops;
	bool time_based;
	uint64_t want_ios;	/* 0: time_based, more than the cap */
};

static const struct nios_case nios_cases[] = {
	{ RW_READ, 10, 0, 1, false, 10 },
	{ RW_READ, 10, 0, 3, false, 30 },
	{ RW_RANDRW, 10, 0, 1, false, 10 },
	{ RW_RANDWRITE, 300, 0, 2, false, 512 },
	{ RW_READ, 10, 4 * M, 1, false, 10 },
	{ RW_READ, 1, 0, 1, false, 1 },
	{ RW_READ, UINT64_MAX, 0, 1, false, 256 },
	{ RW_READ, 0, 0, 1, false, 256 },
	{ RW_READ, 10, 0, 1, true, 0 },
};

START_TEST(test_offgen_number_ios)
{
	const struct nios_case *c = &nios_cases[_i];
	uint64_t start = 0, len = M, ios = 0;
	struct iops_err err = { 0 };
	struct offgen_io io;
	struct offgen og;
	struct job j;

	testjob_init(&j, c->rw);
	j.number_ios = c->number_ios;
	j.io_size = c->io_size;
	j.loops = c->loops;
	j.time_based = c->time_based;
	j.runtime_ns = c->time_based ? 1 : 0;
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), 0);
	while (offgen_next(&og, &io) && ios < 5000)
		ios++;
	if (c->want_ios)
		ck_assert_msg(ios == c->want_ios, "case %d: %llu I/Os, fio %llu", _i,
			      (unsigned long long)ios, (unsigned long long)c->want_ios);
	else
		ck_assert_uint_eq(ios, 5000);	/* time_based: still going */
	offgen_release(&og);
}
END_TEST

/* rw=read:-N: fio 3.33's offsets (observed in its latency logs, 64 KiB range, bs 4k). */
START_TEST(test_offgen_backwards)
{
	static const struct {
		unsigned back;
		uint64_t start;		/* offset= */
		uint64_t want[17];	/* the first 17 offsets */
	} cases[] = {
		{ 8192, 0, { 0, 57344, 53248, 49152, 45056, 40960, 36864, 32768, 28672, 24576, 20480, 16384,
			     12288, 8192, 4096, 0, 57344 } },
		{ 8192, 16384, { 57344, 53248, 49152, 45056, 40960, 36864, 32768, 28672, 24576, 20480, 16384,
				 73728, 69632, 65536, 61440, 57344, 53248 } },
		{ 4096, 0, { 0 } },	/* steps back by the block: always 0 */
		{ 2048, 0, { 0, 2048, 4096, 6144, 8192, 10240, 12288, 14336, 16384, 18432, 20480, 22528,
			     24576, 26624, 28672, 30720, 32768 } },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		uint64_t start = cases[c].start, len = 65536;
		struct iops_err err = { 0 };
		struct offgen_io io;
		struct offgen og;
		struct job j;
		unsigned n = 0;

		testjob_init(&j, RW_READ);
		j.rw_seq_back = cases[c].back;
		j.loops = 2;
		ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), 0);
		while (n < 17 && offgen_next(&og, &io)) {
			if (io.offset != cases[c].want[n])
				ck_abort_msg("case %zu: I/O %u at %llu, fio %llu", c, n, (unsigned long long)io.offset,
					     (unsigned long long)cases[c].want[n]);
			n++;
		}
		ck_assert_uint_eq(n, 17);	/* a second pass goes on where the first ended */
		offgen_release(&og);
	}
}
END_TEST

Suite *offgen_suite(void);
Suite *offgen_suite(void)
{
	Suite *s = suite_create("offgen");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 30);
	tcase_add_loop_test(tc, test_offgen_totals_match_fio, 0, (int)(sizeof(total_cases) / sizeof(total_cases[0])));
	tcase_add_test(tc, test_offgen_sequential_order_and_holes);
	tcase_add_test(tc, test_offgen_sequencer_and_bs_is_seq_rand);
	tcase_add_test(tc, test_offgen_random_map_covers_each_block_once);
	tcase_add_test(tc, test_offgen_randrepeat_reproducible_clones_differ);
	tcase_add_test(tc, test_offgen_bsrange_multiples);
	tcase_add_test(tc, test_offgen_time_based_wraps);
	tcase_add_loop_test(tc, test_offgen_fresh_marks_each_new_pass, 0,
			    (int)(sizeof(fresh_cases) / sizeof(fresh_cases[0])));
	tcase_add_loop_test(tc, test_offgen_lfsr_each_block_once, 0, 12);
	tcase_add_test(tc, test_offgen_rejects_bad_input);
	tcase_add_test(tc, test_offgen_range_smaller_than_bs);
	tcase_add_test(tc, test_offgen_per_direction_bs_keeps_sizes);
	tcase_add_test(tc, test_offgen_backwards);
	tcase_add_loop_test(tc, test_offgen_number_ios, 0, (int)(sizeof(nios_cases) / sizeof(nios_cases[0])));
	suite_add_tcase(s, tc);
	return s;
}
