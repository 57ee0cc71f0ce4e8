/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fio/data/bufgen.h"
#include "fio/data/verify.h"
#include "runner_testjob.h"

#define BS	4096u
#define NBUF	1000u

static void bufjob(struct job *j)
{
	testjob_init(j, RW_WRITE);
	j->scramble_buffers = true;
	j->compress_chunk = 512;
	j->dedupe_ws_pct = 5;
}

/* Distinct buffers among n written one after the other (quadratic, n is small). */
static unsigned distinct(const unsigned char *b, unsigned n)
{
	unsigned d = 0;

	for (unsigned i = 0; i < n; i++) {
		unsigned k;

		for (k = 0; k < i; k++)
			if (!memcmp(b + (size_t)i * BS, b + (size_t)k * BS, BS))
				break;
		d += k == i;
	}
	return d;
}

static unsigned char *fill_many(struct job *j, uint64_t job_bytes)
{
	unsigned char *b = malloc((size_t)NBUF * BS);
	struct bufgen bg;

	ck_assert_ptr_nonnull(b);
	bufgen_init(&bg, j, 42, job_bytes, BS);
	for (unsigned i = 0; i < NBUF; i++)
		bufgen_fill(&bg, b + (size_t)i * BS, BS);
	return b;
}

START_TEST(test_bufgen_which_jobs_refill_or_scramble)
{
	struct job j;

	bufjob(&j);
	ck_assert(!bufgen_refills(&j));
	ck_assert(bufgen_scrambles(&j));		/* fio's default */
	j.scramble_buffers = false;
	ck_assert(!bufgen_scrambles(&j));
	bufjob(&j);
	j.refill_buffers = true;
	ck_assert(bufgen_refills(&j) && !bufgen_scrambles(&j));
	j.zero_buffers = true;				/* zero wins */
	ck_assert(!bufgen_refills(&j) && !bufgen_scrambles(&j));
	bufjob(&j);
	j.compress_pct = 100;				/* all fixed: nothing to refill */
	ck_assert(!bufgen_refills(&j) && !bufgen_scrambles(&j));
	j.compress_pct = 99;
	ck_assert(bufgen_refills(&j));
	bufjob(&j);
	j.dedupe_pct = 1;
	ck_assert(bufgen_refills(&j));
	bufjob(&j);
	j.buffer_pattern_len = 1;
	ck_assert(!bufgen_scrambles(&j));
	bufjob(&j);
	j.verify = VERIFY_MD5;
	ck_assert(!bufgen_scrambles(&j));
}
END_TEST

/* compress=P: each chunk is (100-P)% random then P% of the pattern or zeros. */
struct comp_case {
	unsigned pct, chunk;
	unsigned pat_len;
};

static const struct comp_case comp_cases[] = {
	{ 70, 512, 0 }, { 30, 0, 0 }, { 50, 512, 4 }, { 1, 512, 0 }, { 99, 1000, 3 }, { 100, 512, 0 },
	{ 50, 8192, 0 },	/* chunk beyond the block: one region */
};

START_TEST(test_bufgen_compress_layout)
{
	const struct comp_case *c = &comp_cases[_i];
	unsigned char buf[BS];
	struct bufgen bg;
	struct job j;
	size_t chunk = c->chunk && c->chunk < BS ? c->chunk : BS;

	bufjob(&j);
	j.compress_pct = c->pct;
	j.compress_chunk = c->chunk;
	j.buffer_pattern_len = c->pat_len;
	memcpy(j.buffer_pattern, "wxyz", 4);
	bufgen_init(&bg, &j, 7, 1 << 20, BS);
	bufgen_fill(&bg, buf, sizeof(buf));
	for (size_t off = 0; off < BS; off += chunk) {
		size_t n = BS - off < chunk ? BS - off : chunk, rnd = n * (100 - c->pct) / 100;
		unsigned zeros = 0;

		for (size_t i = 0; i < n - rnd; i++) {
			unsigned char want = c->pat_len ? (unsigned char)"wxyz"[i % c->pat_len] : 0;

			if (buf[off + rnd + i] != want)
				ck_abort_msg("pct %u chunk %u: fixed byte %zu of chunk at %zu", c->pct, c->chunk, i, off);
		}
		for (size_t i = 0; i < rnd; i++)
			zeros += buf[off + i] == 0;
		if (rnd >= 64 && zeros > rnd / 16)
			ck_abort_msg("pct %u: random part of chunk %zu looks fixed", c->pct, off);
	}
}
END_TEST

START_TEST(test_bufgen_refill_all_distinct)
{
	struct job j;
	unsigned char *b;

	bufjob(&j);
	j.refill_buffers = true;
	b = fill_many(&j, 64ull << 20);
	ck_assert_uint_eq(distinct(b, NBUF), NBUF);
	free(b);
}
END_TEST

/* dedupe_percentage=D: about D% copies (fio 3.33: 513 distinct of 1024 at 50%). */
struct dd_case {
	unsigned pct;
	bool ws;
	unsigned ws_pct;
	unsigned lo, hi;	/* distinct buffers of NBUF */
};

static const struct dd_case dd_cases[] = {
	{ 50, false, 5, 440, 560 },
	{ 90, false, 5, 60, 140 },
	{ 100, false, 5, 1, 1 },	/* every buffer after the first repeats it */
	{ 80, true, 5, 150, 260 },	/* ws: 5% of 4000 KiB = 50 buffers, ~200 unique */
	{ 80, true, 20, 150, 260 },
};

START_TEST(test_bufgen_dedupe_share)
{
	const struct dd_case *c = &dd_cases[_i];
	unsigned char *b;
	unsigned n;
	struct job j;

	bufjob(&j);
	j.dedupe_pct = c->pct;
	j.dedupe_working_set = c->ws;
	j.dedupe_ws_pct = c->ws_pct;
	b = fill_many(&j, (uint64_t)NBUF * BS);
	n = distinct(b, NBUF);
	ck_assert_msg(n >= c->lo && n <= c->hi, "dedupe %u ws %d: %u distinct (want %u..%u)", c->pct, c->ws, n,
		      c->lo, c->hi);
	free(b);
}
END_TEST

START_TEST(test_bufgen_dedupe_global_shares_between_jobs)
{
	unsigned char *a, *b;
	unsigned common = 0;
	struct job j;

	bufjob(&j);
	j.dedupe_pct = 90;
	j.dedupe_working_set = true;
	j.dedupe_global = true;
	j.dedupe_ws_pct = 5;
	a = fill_many(&j, (uint64_t)NBUF * BS);
	j.thread_number = 2;
	b = malloc((size_t)NBUF * BS);
	{
		struct bufgen bg;

		bufgen_init(&bg, &j, 4242, (uint64_t)NBUF * BS, BS);	/* another job's seed */
		for (unsigned i = 0; i < NBUF; i++)
			bufgen_fill(&bg, b + (size_t)i * BS, BS);
	}
	for (unsigned i = 0; i < 50; i++)
		for (unsigned k = 0; k < NBUF; k++)
			if (!memcmp(a + (size_t)i * BS, b + (size_t)k * BS, BS)) {
				common++;
				break;
			}
	ck_assert_uint_gt(common, 10);	/* duplicates come from one shared set */
	free(a);
	free(b);
}
END_TEST

START_TEST(test_bufgen_scramble_stamps)
{
	unsigned char buf[1100], ref[1100];
	uint64_t off, sec, nsec;
	uint64_t t = 3000000007ull;	/* 3 s + 7 ns */
	unsigned line = (unsigned)((t ^ 8192) & 7) << 6;

	memset(buf, 0xaa, sizeof(buf));
	memcpy(ref, buf, sizeof(ref));
	bufgen_scramble(buf, sizeof(buf), 8192, t);
	for (unsigned s = 0; s < 2; s++) {
		memcpy(&off, buf + s * 512 + line, 8);
		memcpy(&sec, buf + s * 512 + 496, 8);
		memcpy(&nsec, buf + s * 512 + 504, 8);
		ck_assert_uint_eq(off, 8192 + s * 512);
		ck_assert_uint_eq(sec, 3);
		ck_assert_uint_eq(nsec, 7);
	}
	ck_assert_mem_eq(buf + 1024, ref + 1024, sizeof(buf) - 1024);	/* partial sector untouched */
	bufgen_scramble(buf, 100, 0, t);	/* less than a sector: nothing */
	bufgen_scramble(buf, 0, 0, t);
}
END_TEST

START_TEST(test_bufgen_initial_fill)
{
	unsigned char buf[BS];
	struct rng r;
	struct bufgen bg;
	struct job j;

	rng_init(&r, 1);
	bufjob(&j);
	j.buffer_pattern_len = 2;
	memcpy(j.buffer_pattern, "\x01\x02", 2);
	bufgen_init(&bg, &j, 1, 1 << 20, BS);
	bufgen_fill_initial(&bg, &j, buf, sizeof(buf), &r);
	for (unsigned i = 0; i < BS; i++)
		if (buf[i] != (i % 2 ? 2 : 1))
			ck_abort_msg("pattern byte %u", i);
	j.zero_buffers = true;
	bufgen_fill_initial(&bg, &j, buf, sizeof(buf), &r);
	for (unsigned i = 0; i < BS; i++)
		if (buf[i])
			ck_abort_msg("zero byte %u", i);
}
END_TEST

Suite *bufgen_suite(void);
Suite *bufgen_suite(void)
{
	Suite *s = suite_create("bufgen");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_bufgen_which_jobs_refill_or_scramble);
	tcase_add_loop_test(tc, test_bufgen_compress_layout, 0, (int)(sizeof(comp_cases) / sizeof(comp_cases[0])));
	tcase_add_test(tc, test_bufgen_refill_all_distinct);
	tcase_add_loop_test(tc, test_bufgen_dedupe_share, 0, (int)(sizeof(dd_cases) / sizeof(dd_cases[0])));
	tcase_add_test(tc, test_bufgen_dedupe_global_shares_between_jobs);
	tcase_add_test(tc, test_bufgen_scramble_stamps);
	tcase_add_test(tc, test_bufgen_initial_fill);
	suite_add_tcase(s, tc);
	return s;
}
