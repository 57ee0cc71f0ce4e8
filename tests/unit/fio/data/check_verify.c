/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio/conf/opt.h"
#include "runner_testjob.h"
#include "fio/data/verify.h"
#include "fio/data/verify_sum.h"
#include "unit_skip.h"

static void hexs(char *out, const uint8_t *p, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		snprintf(out + 2 * i, 3, "%02x", p[i]);
}

/* ---- checksum vectors (md5, sha1, sha3, fio's sha256/sha512: check_verify_sum.c) ---------- */

START_TEST(test_crc_xxh_vectors)
{
	static const uint8_t zeros[32], ones[32] = { [0 ... 31] = 0xff };
	uint8_t inc[1024];

	for (unsigned i = 0; i < sizeof(inc); i++)
		inc[i] = (uint8_t)i;
	for (int hw = 0; hw < 2; hw++) {
		bool h = hw && verify_sum_has_crc32c();

		ck_assert_uint_eq(verify_sum_crc32c("", 0, h), 0);
		ck_assert_uint_eq(verify_sum_crc32c("123456789", 9, h), 0xe3069283u);
		ck_assert_uint_eq(verify_sum_crc32c(zeros, 32, h), 0x8a9136aau);	/* RFC 3720 B.4 */
		ck_assert_uint_eq(verify_sum_crc32c(ones, 32, h), 0x62a8ab43u);
	}
	ck_assert_uint_eq(verify_sum_crc32("", 0), 0);
	ck_assert_uint_eq(verify_sum_crc32("123456789", 9), 0x89a1897fu);	/* CRC-32/POSIX check, no xorout */
	ck_assert_uint_eq(verify_sum_crc32("abc", 3), 0x2c17398cu);
	ck_assert_uint_eq(verify_sum_xxh32("", 0, 0), 0x02cc5d05u);
	ck_assert_uint_eq(verify_sum_xxh32("", 0, 1), 0x0b2cb792u);
	ck_assert_uint_eq(verify_sum_xxh32("abc", 3, 0), 0x32d153ffu);
	ck_assert_uint_eq(verify_sum_xxh32("abc", 3, 1), 0xaa3da8ffu);
	ck_assert_uint_eq(verify_sum_xxh32("Nobody inspects the spammish repetition", 39, 0), 0xe2293b2fu);
	ck_assert_uint_eq(verify_sum_xxh32("Nobody inspects the spammish repetition", 39, 1), 0x534469eau);
	ck_assert_uint_eq(verify_sum_xxh32(inc, 1024, 1), 0x08316aeeu);
}
END_TEST

/* the SSE4.2 path and the table agree at every length and alignment; the CPU is asked by the
 * compiler's own cpuid check, not iops' (no SSE4.2, or not x86-64: no hardware path, a counted
 * skip) */
START_TEST(test_crc32c_hw_matches_table)
{
	uint8_t buf[300];
#if defined(__x86_64__)
	bool hw = __builtin_cpu_supports("sse4.2");
#else
	bool hw = false;
#endif

	ck_assert(verify_sum_has_crc32c() == hw);
	if (!hw) {
		unit_skip("crc32c: no SSE4.2 on this CPU (or not x86-64): the hardware path is not compared");
		return;
	}
	for (unsigned i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 131u + 7u);
	for (size_t off = 0; off < 9; off++)
		for (size_t n = 0; n + off <= sizeof(buf); n += 7)
			ck_assert_uint_eq(verify_sum_crc32c(buf + off, n, true), verify_sum_crc32c(buf + off, n, false));
}
END_TEST

/* ---- header fill / check ---------------------------------------------------------------- */

struct fill_case {
	unsigned type;
	unsigned interval, offset;
	const char *pattern;	/* NULL: random data */
};

static const struct fill_case fill_cases[] = {
	{ VERIFY_CRC32C, 0, 0, NULL }, { VERIFY_CRC32, 0, 0, NULL }, { VERIFY_MD5, 0, 0, NULL },
	{ VERIFY_SHA256, 0, 0, NULL }, { VERIFY_XXHASH, 0, 0, NULL }, { VERIFY_META, 0, 0, NULL },
	{ VERIFY_CRC32C, 512, 0, NULL }, { VERIFY_MD5, 1024, 100, NULL }, { VERIFY_SHA256, 0, 20, NULL },
	{ VERIFY_CRC64, 0, 0, NULL }, { VERIFY_CRC16, 0, 0, NULL }, { VERIFY_CRC7, 512, 0, NULL },
	{ VERIFY_SHA1, 0, 0, NULL }, { VERIFY_SHA512, 0, 0, NULL }, { VERIFY_SHA512, 1024, 8, NULL },
	{ VERIFY_SHA3_224, 0, 0, NULL }, { VERIFY_SHA3_256, 0, 0, NULL }, { VERIFY_SHA3_384, 0, 0, NULL },
	{ VERIFY_SHA3_512, 2048, 0, NULL },
	{ VERIFY_CRC32C, 0, 0, "0xdeadbeef" }, { VERIFY_PATTERN, 0, 0, "0xff%o\"abcd\"-12" },
	{ VERIFY_PATTERN_HDR, 0, 0, "\"xyz\"" }, { VERIFY_NULL, 0, 0, NULL },
};

static void fill_job(struct job *j, const struct fill_case *c)
{
	testjob_init(j, RW_WRITE);
	j->verify = c->type;
	j->verify_interval = c->interval;
	j->verify_offset = c->offset;
	if (c->pattern)
		ck_assert_int_eq(verify_pattern_parse(c->pattern, j), 0);
}

/* Written, read back: fine. Any byte changed: caught (headers and checksums cover all bytes;
 * meta only its headers; fio's sha512 field only some). */
START_TEST(test_fill_check_round_trip)
{
	const struct fill_case *c = &fill_cases[_i];
	struct job *j = malloc(sizeof(*j));
	struct verify_ctx vc;
	struct rng r;
	uint8_t blk[4096], cp[4096];
	char *txt = NULL;
	size_t txt_len = 0;
	FILE *diag = open_memstream(&txt, &txt_len);
	struct verify_io io = { .path = "f", .offset = 65536, .len = sizeof(blk), .flags = 0x88 };

	ck_assert_ptr_nonnull(j);
	ck_assert_ptr_nonnull(diag);
	fill_job(j, c);
	verify_ctx_init(&vc, j);
	rng_init(&r, 42);
	io.seed = verify_fill(&vc, blk, sizeof(blk), io.offset, &r, 7, 123456789ull);
	io.seed_known = true;
	memcpy(cp, blk, sizeof(blk));
	ck_assert_int_eq(verify_check(&vc, cp, &io, diag), 0);
	for (unsigned pos = 0; pos < sizeof(blk); pos++) {
		bool covered = c->type != VERIFY_NULL;

		if (c->type == VERIFY_META) {
			unsigned piece = c->interval ? c->interval : sizeof(blk);

			covered = (pos % piece) >= c->offset && (pos % piece) < c->offset + VERIFY_HDR_BYTES;
		}
		if (c->type == VERIFY_SHA512) {	/* fio's field copies bytes: the header and the last byte */
			unsigned piece = c->interval ? c->interval : sizeof(blk), q = pos % piece;

			if (!(q >= c->offset && q < c->offset + VERIFY_HDR_BYTES) && q != piece - 1)
				continue;
		}
		memcpy(cp, blk, sizeof(blk));
		cp[pos] ^= 0x10;
		ck_assert_int_eq(verify_check(&vc, cp, &io, diag), covered ? -EILSEQ : 0);
	}
	/* the wrong place: caught by the header (or the %o pattern) */
	if (c->type != VERIFY_NULL && (c->type != VERIFY_PATTERN || j->nr_verify_pattern_o)) {
		memcpy(cp, blk, sizeof(blk));
		io.offset += 4096;
		ck_assert_int_eq(verify_check(&vc, cp, &io, diag), -EILSEQ);
	}
	fclose(diag);
	free(txt);
	free(j);
}
END_TEST

static char *check_msg(const struct verify_ctx *vc, uint8_t *blk, const struct verify_io *io, int *ret)
{
	char *txt = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&txt, &n);

	ck_assert_ptr_nonnull(f);
	*ret = verify_check(vc, blk, io, f);
	fclose(f);
	return txt;
}

/* fio's message lines, byte for byte */
START_TEST(test_messages)
{
	struct job *j = malloc(sizeof(*j));
	struct verify_ctx vc;
	struct rng r;
	uint8_t blk[4096];
	struct verify_io io = { .path = "v.0.0", .offset = 8192, .len = 4096, .flags = 0x8 };
	char *m, want[512];
	int ret;

	ck_assert_ptr_nonnull(j);
	testjob_init(j, RW_WRITE);
	j->verify = VERIFY_CRC32C;
	verify_ctx_init(&vc, j);
	rng_init(&r, 1);
	(void)verify_fill(&vc, blk, sizeof(blk), 8192, &r, 0, 0);
	blk[0] = 0x55;
	m = check_msg(&vc, blk, &io, &ret);
	ck_assert_int_eq(ret, -EILSEQ);
	ck_assert_str_eq(m, "verify: bad magic header ac55, wanted acca at file v.0.0 offset 8192, length 4096 "
			 "(requested block: offset=8192, length=4096)\n");
	free(m);
	blk[0] = 0xca;
	blk[4] = 0x55;
	m = check_msg(&vc, blk, &io, &ret);
	ck_assert_str_eq(m, "verify: bad header length 4181, wanted 4096 at file v.0.0 offset 8192, length 4096 "
			 "(requested block: offset=8192, length=4096)\n");
	free(m);
	blk[4] = 0;
	blk[16] = 0x55;
	m = check_msg(&vc, blk, &io, &ret);
	ck_assert_str_eq(m, "verify: bad header offset 8277, wanted 8192 at file v.0.0 offset 8192, length 4096 "
			 "(requested block: offset=8192, length=4096)\n");
	free(m);
	blk[16] = 0;
	blk[100] ^= 1;
	m = check_msg(&vc, blk, &io, &ret);
	snprintf(want, sizeof(want), "crc32c: verify failed at file v.0.0 offset 8192, length 4096 (requested block: "
		 "offset=8192, length=4096, flags=8)\n       Expected CRC: %02x%02x%02x%02x\n       Received CRC: ",
		 blk[40], blk[41], blk[42], blk[43]);
	ck_assert_int_eq(strncmp(m, want, strlen(want)), 0);
	free(m);

	/* pattern: the first bad byte */
	testjob_init(j, RW_WRITE);
	j->verify = VERIFY_PATTERN;
	ck_assert_int_eq(verify_pattern_parse("0xdeadbeef", j), 0);
	verify_ctx_init(&vc, j);
	(void)verify_fill(&vc, blk, sizeof(blk), 0, &r, 0, 0);
	blk[4000] = 0x55;
	io.offset = 0;
	m = check_msg(&vc, blk, &io, &ret);
	ck_assert_int_eq(ret, -EILSEQ);
	ck_assert_str_eq(m, "fio: got pattern '55', wanted 'de'. Bad bits 4\nfio: bad pattern block offset 4000\n"
			 "pattern: verify failed at file v.0.0 offset 0, length 4096 (requested block: offset=0, "
			 "length=4096, flags=8)\n");
	free(m);
	free(j);
}
END_TEST

/* ---- verify_pattern= -------------------------------------------------------------------- */

struct pat_case {
	const char *in;
	int ret;
	const char *hex;	/* the pattern bytes, %o as 8 zero bytes */
	unsigned nr_o;
};

static const struct pat_case pat_cases[] = {
	{ "0xdeadbeef", 0, "deadbeef", 0 },
	{ "0x123", 0, "0123", 0 },
	{ "255", 0, "ff", 0 },
	{ "0", 0, "00", 0 },
	{ "300", 0, "2c01", 0 },
	{ "65536", 0, "000001", 0 },
	{ "-12", 0, "f4ffffff", 0 },
	{ "2147483647", 0, "ffffff7f", 0 },
	{ "\"abcd\"", 0, "61626364", 0 },
	{ "\"ab\"3", 0, "616203", 0 },
	{ "12\"ab\"", 0, "0c6162", 0 },
	{ "%o", 0, "0000000000000000", 1 },
	{ "0xff%o\"abcd\"-12", 0, "ff" "0000000000000000" "61626364" "f4ffffff", 1 },
	{ "", -EINVAL, NULL, 0 },
	{ "0x", -EINVAL, NULL, 0 },
	{ "abc", -EINVAL, NULL, 0 },
	{ "\"ab", -EINVAL, NULL, 0 },
	{ "\"\"", -EINVAL, NULL, 0 },
	{ "4294967295", -EINVAL, NULL, 0 },
	{ "99999999999999999999999", -EINVAL, NULL, 0 },
	{ "\"ab\",3", -EINVAL, NULL, 0 },
	{ "0x1*3", -EINVAL, NULL, 0 },
	{ "0xab cd", -EINVAL, NULL, 0 },
	{ "%x", -EINVAL, NULL, 0 },
};

START_TEST(test_pattern_parse)
{
	const struct pat_case *c = &pat_cases[_i];
	struct job *j = malloc(sizeof(*j));
	char h[2 * JOB_VERIFY_PATTERN_MAX + 1], want[64];
	size_t k = 0;

	ck_assert_ptr_nonnull(j);
	testjob_init(j, RW_WRITE);
	ck_assert_int_eq(verify_pattern_parse(c->in, j), c->ret);
	if (c->hex) {
		for (const char *p = c->hex; *p; p++)
			if (*p != ' ')
				want[k++] = *p;
		want[k] = '\0';
		hexs(h, j->verify_pattern, j->verify_pattern_len);
		ck_assert_str_eq(h, want);
		ck_assert_uint_eq(j->nr_verify_pattern_o, c->nr_o);
	}
	free(j);
}
END_TEST

START_TEST(test_pattern_too_long)
{
	struct job *j = malloc(sizeof(*j));
	char s[2 + 2 * (JOB_VERIFY_PATTERN_MAX + 1) + 1] = "0x";

	ck_assert_ptr_nonnull(j);
	testjob_init(j, RW_WRITE);
	memset(s + 2, 'a', 2 * JOB_VERIFY_PATTERN_MAX);
	s[2 + 2 * JOB_VERIFY_PATTERN_MAX] = '\0';
	ck_assert_int_eq(verify_pattern_parse(s, j), 0);
	ck_assert_uint_eq(j->verify_pattern_len, JOB_VERIFY_PATTERN_MAX);
	memcpy(s + 2 + 2 * JOB_VERIFY_PATTERN_MAX, "aa", 3);
	ck_assert_int_eq(verify_pattern_parse(s, j), -EINVAL);
	free(j);
}
END_TEST

/* ---- types, fixup, log ------------------------------------------------------------------ */

START_TEST(test_types)
{
	ck_assert_str_eq(verify_type_name(VERIFY_CRC32C), "crc32c");
	ck_assert_str_eq(verify_type_name(VERIFY_PATTERN_HDR), "pattern");
	ck_assert_str_eq(verify_type_name(VERIFY_SHA256), "sha256");
	ck_assert_str_eq(verify_type_name(VERIFY_CRC64), "crc64");
	ck_assert_str_eq(verify_type_name(VERIFY_SHA3_384), "sha3-384");
	ck_assert_str_eq(verify_type_name(6), "none");
	ck_assert_str_eq(verify_type_name(20), "none");
	ck_assert_uint_eq(verify_csum_bytes(VERIFY_SHA256), 64);
	ck_assert_uint_eq(verify_csum_bytes(VERIFY_SHA512), 128);
	ck_assert_uint_eq(verify_csum_bytes(VERIFY_SHA1), 20);
	ck_assert_uint_eq(verify_csum_bytes(VERIFY_CRC7), 1);
	ck_assert_uint_eq(verify_csum_bytes(VERIFY_CRC16), 2);
	ck_assert_uint_eq(verify_csum_bytes(VERIFY_CRC64), 8);
	ck_assert_uint_eq(verify_csum_bytes(VERIFY_SHA3_224), 28);
	ck_assert_uint_eq(verify_csum_bytes(VERIFY_MD5), 16);
	ck_assert_uint_eq(verify_csum_bytes(VERIFY_XXHASH), 4);
	ck_assert_uint_eq(verify_csum_bytes(VERIFY_META), 0);
	ck_assert_uint_eq(verify_csum_bytes(VERIFY_PATTERN), 0);
}
END_TEST

START_TEST(test_fixup)
{
	struct job *j = malloc(sizeof(*j));
	struct opt_diag *d = malloc(sizeof(*d));

	ck_assert_ptr_nonnull(j);
	ck_assert_ptr_nonnull(d);
	/* a pattern alone turns verify on, with headers */
	testjob_init(j, RW_WRITE);
	opt_diag_init(d);
	ck_assert_int_eq(verify_pattern_parse("0xab", j), 0);
	ck_assert_int_eq(verify_fixup(j, d), 0);
	ck_assert_uint_eq(j->verify, VERIFY_PATTERN_HDR);
	/* verify=pattern needs a pattern */
	testjob_init(j, RW_WRITE);
	j->verify = VERIFY_PATTERN;
	ck_assert_int_eq(verify_fixup(j, d), -EINVAL);
	ck_assert_str_eq(d->line[d->nr - 1], "fio: verify=pattern needs a verify_pattern");
	/* the header must fit where verify_offset puts it */
	testjob_init(j, RW_WRITE);
	j->verify = VERIFY_CRC32C;
	j->verify_offset = 4096 - 44;
	ck_assert_int_eq(verify_fixup(j, d), 0);
	j->verify_offset++;
	opt_diag_init(d);
	ck_assert_int_eq(verify_fixup(j, d), -EINVAL);
	ck_assert_str_eq(d->line[0], "fio: verify_offset too large (4053 + 44 header bytes > 4096)");
	/* time_based write-only: a warning, no error */
	testjob_init(j, RW_RANDWRITE);
	j->verify = VERIFY_MD5;
	j->time_based = true;
	j->do_verify = true;
	opt_diag_init(d);
	ck_assert_int_eq(verify_fixup(j, d), 0);
	ck_assert_uint_eq(d->nr, 1);
	ck_assert_str_eq(d->line[0], "fio: verification read phase will never start because write phase uses all of runtime");
	/* norandommap with variable sizes */
	testjob_init(j, RW_RANDWRITE);
	j->verify = VERIFY_MD5;
	j->norandommap = true;
	j->bs_min[DDIR_WRITE] = 1024;
	opt_diag_init(d);
	ck_assert_int_eq(verify_fixup(j, d), -EINVAL);
	ck_assert_str_eq(d->line[0], "fio: norandommap given for variable block sizes, verify limited");
	free(d);
	free(j);
}
END_TEST

START_TEST(test_log_sort)
{
	struct verify_ent log[] = {
		{ 8192, 1, 4096, 0, 0, 0 }, { 0, 2, 4096, 1, 1, 0 }, { 8192, 3, 4096, 0, 2, 0 },
		{ 0, 4, 4096, 0, 3, 0 }, { 8192, 5, 4096, 0, 4, 0 },
	};
	size_t n = verify_log_sort(log, 5);

	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(log[0].offset, 0);
	ck_assert_uint_eq(log[0].file, 0);
	ck_assert_uint_eq(log[1].offset, 8192);
	ck_assert_uint_eq(log[1].seed, 5);	/* the last write of the block */
	ck_assert_uint_eq(log[2].file, 1);
	ck_assert_uint_eq(verify_log_sort(log, 0), 0);
	ck_assert_uint_eq(verify_log_sort(log, 1), 1);
}
END_TEST

/* trim_verify_zero: zeros pass; the first byte that is not is named */
struct zero_case {
	unsigned len, bad;	/* bad: the byte set, or len for none */
	int ret;
	const char *msg;
};

static const struct zero_case zero_cases[] = {
	{ 4096, 4096, 0, "" },
	{ 0, 0, 0, "" },
	{ 4096, 0, -EILSEQ, "trim: verify failed at file f offset 8192, length 4096, block offset 0\n" },
	{ 4096, 4095, -EILSEQ, "trim: verify failed at file f offset 8192, length 4096, block offset 4095\n" },
	{ 512, 300, -EILSEQ, "trim: verify failed at file f offset 8192, length 512, block offset 300\n" },
};

START_TEST(test_check_zero)
{
	const struct zero_case *c = &zero_cases[_i];
	static uint8_t blk[4096];
	char *txt = NULL;
	size_t txt_len = 0;
	FILE *diag = open_memstream(&txt, &txt_len);
	struct verify_io io = { .path = "f", .offset = 8192, .len = c->len };

	ck_assert_ptr_nonnull(diag);
	memset(blk, 0, sizeof(blk));
	if (c->bad < c->len)
		blk[c->bad] = 1;
	ck_assert_int_eq(verify_check_zero(blk, &io, diag), c->ret);
	fclose(diag);
	ck_assert_str_eq(txt, c->msg);
	free(txt);
}
END_TEST

Suite *verify_suite(void)
{
	Suite *s = suite_create("verify");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_crc_xxh_vectors);
	tcase_add_test(tc, test_crc32c_hw_matches_table);
	tcase_add_loop_test(tc, test_check_zero, 0, sizeof(zero_cases) / sizeof(zero_cases[0]));
	tcase_add_loop_test(tc, test_fill_check_round_trip, 0, sizeof(fill_cases) / sizeof(fill_cases[0]));
	tcase_add_test(tc, test_messages);
	tcase_add_loop_test(tc, test_pattern_parse, 0, sizeof(pat_cases) / sizeof(pat_cases[0]));
	tcase_add_test(tc, test_pattern_too_long);
	tcase_add_test(tc, test_types);
	tcase_add_test(tc, test_fixup);
	tcase_add_test(tc, test_log_sort);
	suite_add_tcase(s, tc);
	return s;
}
