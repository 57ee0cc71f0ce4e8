/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "core/frand.h"
#include "fio/offset/fdist.h"
#include "fio/offset/fseed.h"
#include "fio/offset/offgen.h"
#include "runner_testjob.h"

/* ---- seeds: fio 3.33's first raw offset draws (--debug=random), by option set ----------- */

struct seed_case {
	uint64_t randseed;
	bool set, randrepeat, allrandrepeat, use64;
	uint64_t first, second;
};

static const struct seed_case seed_cases[] = {
	{ 0x89, false, true, false, false, 259043585u, 3179521932u },			/* defaults */
	{ 5, true, true, false, false, 259043585u, 3179521932u },			/* randrepeat wins */
	{ 5, true, false, false, false, 558134179u, 4125238081u },
	{ 5, true, false, false, true, 13986499122433446559ull, 6452646977115322707ull },
	{ 0x89, false, true, false, true, 17311067694306724737ull, 485009114434689783ull },
	{ 0x89, false, false, true, false, 3006440995u, 3427998864u },		/* allrandrepeat */
};

START_TEST(test_fseed_fio_block_stream)
{
	const struct seed_case *c = &seed_cases[_i];
	uint64_t seeds[FSEED_NR];
	struct frand f;

	fseed_fill(seeds, c->randseed, c->set, c->randrepeat, c->allrandrepeat, 1);
	frand_init(&f, seeds[FSEED_BLOCK], c->use64);
	ck_assert_uint_eq(frand_next(&f), c->first);
	ck_assert_uint_eq(frand_next(&f), c->second);
}
END_TEST

START_TEST(test_fseed_layout)
{
	uint64_t a[FSEED_NR], b[FSEED_NR];

	/* repeatable: the same seeds every time, another set per thread_number */
	fseed_fill(a, 0x89, false, true, false, 1);
	fseed_fill(b, 0x89, false, true, false, 1);
	ck_assert(memcmp(a, b, sizeof(a)) == 0);
	fseed_fill(b, 0x89, false, true, false, 2);
	ck_assert_uint_ne(a[FSEED_MIX], b[FSEED_MIX]);
	ck_assert_uint_eq(a[FSEED_BLOCK], FSEED_FIO_RANDSEED);
	ck_assert_uint_eq(b[FSEED_BLOCK], 2 * FSEED_FIO_RANDSEED);
	/* allrandrepeat: 0xb1899bed x thread + index */
	fseed_fill(a, 7, true, false, true, 3);
	for (unsigned i = 0; i < FSEED_NR; i++)
		ck_assert_uint_eq(a[i], 3 * FSEED_FIO_RANDSEED + i);
	/* not repeatable: the entropy source, two calls differ */
	fseed_fill(a, 0x89, false, false, false, 1);
	fseed_fill(b, 0x89, false, false, false, 1);
	ck_assert(memcmp(a, b, sizeof(a)) != 0);
	/* thread_number 0 and a zero randseed stay defined */
	fseed_fill(a, 0, true, false, false, 0);
	for (unsigned i = 0; i < FSEED_NR; i++)
		ck_assert_uint_eq(a[i], i);
}
END_TEST

/* ---- fio's zipf / pareto / normal, observed: file "data", 512 blocks, job 1 ------------ */

struct fdist_case {
	enum dist_kind kind;
	double param, center;
	uint64_t want[3];
};

static const struct fdist_case fdist_cases[] = {
	{ DIST_ZIPF, 1.2, -1, { 102, 115, 157 } },
	{ DIST_PARETO, 0.3, -1, { 305, 291, 157 } },
	{ DIST_NORMAL, 10, -1, { 269, 219, 256 } },
	{ DIST_ZIPF, 1.1, 0.2, { 97, 39, 102 } },
};

START_TEST(test_fdist_fio_blocks)
{
	const struct fdist_case *c = &fdist_cases[_i];
	struct fdist z;

	fdist_init(&z, c->kind, 512, c->param, c->center, fdist_seed("data", 1, true, 0));
	for (unsigned i = 0; i < 3; i++)
		ck_assert_uint_eq(fdist_next(&z), c->want[i]);
}
END_TEST

START_TEST(test_fdist_edges)
{
	struct fdist z;

	/* lookup3 of nothing is its initial value; the fio rounds (13+ bytes) stay stable */
	ck_assert_uint_eq(fdist_jhash("", 0, 0), 0x61c88647u);
	ck_assert_uint_eq(fdist_jhash("abcdefghijklm", 13, 0), fdist_jhash("abcdefghijklm", 13, 0));
	ck_assert_uint_ne(fdist_jhash("abcdefghijkl", 12, 0), fdist_jhash("abcdefghijkm", 12, 0));
	/* without randrepeat the block seed is the seed */
	ck_assert_uint_eq(fdist_seed("data", 3, false, 0x123456789ull), 0x23456789u);
	/* one block, and draws always in range for each kind */
	for (int k = DIST_ZIPF; k <= DIST_NORMAL; k++) {
		double param = k == DIST_ZIPF ? 1.2 : k == DIST_PARETO ? 0.5 : 0;

		fdist_init(&z, (enum dist_kind)k, 1, param, -1, 1);
		ck_assert_uint_eq(fdist_next(&z), 0);
		fdist_init(&z, (enum dist_kind)k, 1000, param ? param : 50, 0.9, 7);
		for (int i = 0; i < 10000; i++)
			if (fdist_next(&z) >= 1000)
				ck_abort_msg("kind %d: out of range", k);
	}
	fdist_init(&z, DIST_ZIPF, 0, 1.2, -1, 1);	/* zero ranges count as one */
	ck_assert_uint_eq(fdist_next(&z), 0);
}
END_TEST

/* ---- offgen: whole jobs against fio 3.33's logged I/Os (size=2m, psync) ---------------- */

struct seq_io {
	int ddir;
	uint64_t len, off;
};

struct seq_case {
	const char *what;
	enum rw_mode rw;
	uint64_t bs_lo, bs_hi;
	unsigned rwmixread, percentage_random;
	bool norandommap, use64;
	const char *bssplit, *dist;
	struct seq_io want[8];
};

static const struct seq_case seq_cases[] = {
	{ "randread", RW_RANDREAD, 4096, 4096, 50, 100, false, false, NULL, NULL,
	  { { 0, 4096, 122880 }, { 0, 4096, 1552384 }, { 0, 4096, 1765376 }, { 0, 4096, 983040 },
	    { 0, 4096, 839680 }, { 0, 4096, 1761280 }, { 0, 4096, 794624 }, { 0, 4096, 741376 } } },
	{ "randrw 70 bsrange", RW_RANDRW, 4096, 16384, 70, 100, false, false, NULL, NULL,
	  { { 0, 4096, 122880 }, { 0, 12288, 1552384 }, { 0, 16384, 1765376 }, { 1, 4096, 983040 },
	    { 0, 8192, 839680 }, { 0, 4096, 1761280 }, { 1, 4096, 794624 }, { 0, 4096, 741376 } } },
	{ "norandommap tausworthe64", RW_RANDREAD, 4096, 4096, 50, 100, true, true, NULL, NULL,
	  { { 0, 4096, 1966080 }, { 0, 4096, 53248 }, { 0, 4096, 167936 }, { 0, 4096, 204800 },
	    { 0, 4096, 1105920 }, { 0, 4096, 53248 }, { 0, 4096, 921600 }, { 0, 4096, 696320 } } },
	{ "bssplit", RW_RANDWRITE, 4096, 65536, 50, 100, false, false, "4k/50:8k/30:64k/20", NULL,
	  { { 1, 65536, 122880 }, { 1, 65536, 1552384 }, { 1, 8192, 1765376 }, { 1, 4096, 983040 },
	    { 1, 4096, 839680 }, { 1, 4096, 1761280 }, { 1, 4096, 794624 }, { 1, 53248, 741376 } } },
	{ "zoned", RW_RANDREAD, 4096, 4096, 50, 100, false, false, NULL, "zoned:60/10:30/20:10/70",
	  { { 0, 4096, 12288 }, { 0, 4096, 151552 }, { 0, 4096, 176128 }, { 0, 4096, 1314816 },
	    { 0, 4096, 372736 }, { 0, 4096, 172032 }, { 0, 4096, 364544 }, { 0, 4096, 73728 } } },
	{ "percentage_random 50", RW_RANDREAD, 4096, 4096, 50, 50, false, false, NULL, NULL,
	  { { 0, 4096, 122880 }, { 0, 4096, 126976 }, { 0, 4096, 131072 }, { 0, 4096, 1552384 },
	    { 0, 4096, 1556480 }, { 0, 4096, 1765376 }, { 0, 4096, 1769472 }, { 0, 4096, 983040 } } },
};

START_TEST(test_offgen_fio_sequences)
{
	const struct seq_case *c = &seq_cases[_i];
	uint64_t start = 0, len = 2 * 1024 * 1024;
	struct iops_err err = { 0 };
	struct offgen_io io;
	struct offgen og;
	struct job j;

	testjob_init(&j, c->rw);
	for (int d = 0; d < DDIR_NR; d++) {
		j.bs_min[d] = c->bs_lo;
		j.bs_max[d] = c->bs_hi;
	}
	j.rwmixread = c->rwmixread;
	j.percentage_random = c->percentage_random;
	j.norandommap = c->norandommap;
	j.random_generator = c->use64 ? RANDGEN_TAUSWORTHE64 : RANDGEN_TAUSWORTHE;
	j.bssplit = (char *)c->bssplit;
	j.random_distribution = (char *)c->dist;
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), 0);
	for (unsigned i = 0; i < 8; i++) {
		ck_assert_msg(offgen_next(&og, &io), "%s: ended at %u", c->what, i);
		ck_assert_msg((int)io.ddir == c->want[i].ddir && io.len == c->want[i].len && io.offset == c->want[i].off,
			      "%s: I/O %u is %d,%llu,%llu, fio's %d,%llu,%llu", c->what, i, (int)io.ddir,
			      (unsigned long long)io.len, (unsigned long long)io.offset, c->want[i].ddir,
			      (unsigned long long)c->want[i].len, (unsigned long long)c->want[i].off);
	}
	offgen_release(&og);
}
END_TEST

Suite *fseed_suite(void)
{
	Suite *s = suite_create("fseed");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_fseed_fio_block_stream, 0, (int)(sizeof(seed_cases) / sizeof(seed_cases[0])));
	tcase_add_test(tc, test_fseed_layout);
	tcase_add_loop_test(tc, test_fdist_fio_blocks, 0, (int)(sizeof(fdist_cases) / sizeof(fdist_cases[0])));
	tcase_add_test(tc, test_fdist_edges);
	tcase_add_loop_test(tc, test_offgen_fio_sequences, 0, (int)(sizeof(seq_cases) / sizeof(seq_cases[0])));
	suite_add_tcase(s, tc);
	return s;
}
