/* SPDX-License-Identifier: MIT */
/* verify_sum: the checksums of verify=, against published vectors (md5, sha1, sha3) and
 * against what fio 3.33 writes (crc64, crc16, crc7 check values; its sha1 word order; its
 * sha256 and sha512 fields, recomputed from their description by an independent model). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio/data/verify_sum.h"

static void hexs(char *out, const uint8_t *p, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		snprintf(out + 2 * i, 3, "%02x", p[i]);
}

struct hash_case {
	const char *in;		/* NULL: a million 'a' */
	const char *md5, *sha1_le, *sha3_224;
};

static const struct hash_case hash_cases[] = {
	{ "", "d41d8cd98f00b204e9800998ecf8427e", "eea339da0d4b6b5eefbf5532901860950907d8af",
	  "6b4e03423667dbb73b6e15454f0eb1abd4597f9a1b078e3f5b5a6bc7" },
	{ "abc", "900150983cd24fb0d6963f7d28e17f72", "363e99a96a81064771253eba6cc250789dd8d09c",
	  "e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf" },
	{ "message digest", "f96b697d7cb7938d525a2f31aaf161d0", "ce5222c199e88bda29a05f4d1c23470ae3aa161d",
	  "18768bb4c48eb7fc88e5ddb17efcf2964abd7798a39d86a4b4a1e4c8" },
	{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "8215ef0796a20bcaaae116d3876c664a",
	  "443e98846ed23b1ca14aaebae52951f9f17046e5", "8a24108b154ada21c9fd5574494479ba5c7e7ab76ef264ead0fcce33" },
	{ "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
	  "57edf4a22be3c955ac49da2e2107b67a", "70f5ab509009156a5e2c8ba0e5a00fa432475585",
	  "0526898e185869f91b3e2a76dd72a15dc6940a67c8164a044cd25cc8" },
	{ NULL, "7707d6ae4e027c70eea2a935c2296f21", "3c97aa34a4dac4d42beb1ef63127addb6f013465",
	  "d69335b93325192e516a912e6d19a15cb51c6ed5c15243e7a7fd653c" },
};

START_TEST(test_hash_vectors)
{
	const struct hash_case *c = &hash_cases[_i];
	char *big = c->in ? NULL : malloc(1000000);
	const char *in = c->in ? c->in : big;
	size_t n = c->in ? strlen(c->in) : 1000000;
	uint8_t d[64];
	char h[129];

	if (big)
		memset(big, 'a', 1000000);
	verify_sum_md5(in, n, d);
	hexs(h, d, 16);
	ck_assert_str_eq(h, c->md5);
	verify_sum_sha1(in, n, d);
	hexs(h, d, 20);
	ck_assert_str_eq(h, c->sha1_le);
	verify_sum_sha3(in, n, 28, d);
	hexs(h, d, 28);
	ck_assert_str_eq(h, c->sha3_224);
	free(big);
}
END_TEST

START_TEST(test_sha3_sizes)
{
	uint8_t d[64];
	char h[129];
	char in[200];

	verify_sum_sha3("abc", 3, 64, d);
	hexs(h, d, 64);
	ck_assert_str_eq(h, "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e"
			    "10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0");
	verify_sum_sha3("", 0, 32, d);
	hexs(h, d, 32);
	ck_assert_str_eq(h, "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a");
	verify_sum_sha3("abc", 3, 48, d);
	hexs(h, d, 48);
	ck_assert_str_eq(h, "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b2"
			    "98d88cea927ac7f539f1edf228376d25");
	/* exactly one rate (136 bytes for sha3-256) and one byte less: padding in its own block */
	memset(in, 'a', sizeof(in));
	verify_sum_sha3(in, 136, 32, d);
	hexs(h, d, 32);
	ck_assert_str_eq(h, "3fc5559f14db8e453a0a3091edbd2bc25e11528d81c66fa570a4efdcc2695ee1");
	verify_sum_sha3(in, 135, 32, d);
	hexs(h, d, 32);
	ck_assert_str_eq(h, "8094bb53c44cfb1e67b7c30447f9a1c33696d2463ecc1d9c92538913392843c9");
}
END_TEST

START_TEST(test_crcs)
{
	static const uint8_t zeros[64];

	ck_assert_uint_eq(verify_sum_crc64("123456789", 9), 0xe9c6d914c4b8d9caull);
	ck_assert_uint_eq(verify_sum_crc64("", 0), 0);
	ck_assert_uint_eq(verify_sum_crc64(zeros, 64), 0);	/* initial value 0: zeros stay 0 */
	ck_assert_uint_eq(verify_sum_crc16("123456789", 9), 0xbb3d);
	ck_assert_uint_eq(verify_sum_crc16("", 0), 0);
	ck_assert_uint_eq(verify_sum_crc7("123456789", 9), 0x75);
	ck_assert_uint_eq(verify_sum_crc7("", 0), 0);
	ck_assert_uint_eq(verify_sum_crc7(zeros, 64), 0);
	ck_assert_uint_lt(verify_sum_crc7("\xff\xff\xff", 3), 128);
}
END_TEST

struct fio256_case {
	unsigned n;		/* bytes: i & 0xff, or "abc" */
	const char *field;
};

static const struct fio256_case fio256_cases[] = {
	{ 3, "ecd746f40a9bf568000000000000000000000000000000000000000000000000"
	      "0000000000000000000000000000000000000000000000001800000000000000" },
	{ 1024, "34ef907f63294714000000000000000000000000000000000000000000000000"
	         "0000000000000000000000000000000000000000000000000020000000000000" },
	{ 200, "7b3588b71f3d7296800000000000000000000000000000000000000000000000"
	        "0000000000000000000000000000000000000000000000004006000000000000" },
};

START_TEST(test_fio_sha256)
{
	const struct fio256_case *c = &fio256_cases[_i];
	uint8_t in[1024], d[64];
	char h[129];

	for (unsigned i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)i;
	if (c->n == 3)
		memcpy(in, "abc", 3);
	verify_sum_fio_sha256(in, c->n, d);
	hexs(h, d, 64);
	ck_assert_int_eq(strncmp(h, c->field, 128), 0);
}
END_TEST

START_TEST(test_fio_sha512)
{
	uint8_t in[1000], d[128];

	for (unsigned i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i * 7 + 1);
	/* 1000 = 7 x 128 + 104: the last 104 bytes, then bytes 104..127 of the first block */
	verify_sum_fio_sha512(in, 1000, d);
	ck_assert_mem_eq(d, in + 896, 104);
	ck_assert_mem_eq(d + 104, in + 104, 24);
	verify_sum_fio_sha512(in, 256, d);	/* a multiple of 128: the first block */
	ck_assert_mem_eq(d, in, 128);
	verify_sum_fio_sha512(in, 100, d);	/* shorter than a block (refused for verify): zeros after */
	ck_assert_mem_eq(d, in, 100);
	for (unsigned i = 100; i < 128; i++)
		ck_assert_uint_eq(d[i], 0);
}
END_TEST

Suite *verify_sum_suite(void)
{
	Suite *s = suite_create("verify_sum");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_hash_vectors, 0, sizeof(hash_cases) / sizeof(hash_cases[0]));
	tcase_add_test(tc, test_sha3_sizes);
	tcase_add_test(tc, test_crcs);
	tcase_add_loop_test(tc, test_fio_sha256, 0, sizeof(fio256_cases) / sizeof(fio256_cases[0]));
	tcase_add_test(tc, test_fio_sha512);
	suite_add_tcase(s, tc);
	return s;
}
