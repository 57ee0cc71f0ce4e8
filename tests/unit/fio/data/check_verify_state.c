/* SPDX-License-Identifier: MIT */
/* verify_state: fio 3.33's state file, byte for byte against files fio wrote (their header and
 * slots), the checks of a loaded file, and fio's rule for where a verify run stops. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fio/data/verify_state.h"

/* fio 3.33, --name=t --rw=write --bs=4k --size=64k --verify=crc32c: 192 bytes, all zero but
 * these (offset, value) little-endian words */
START_TEST(test_encode_fio_file)
{
	uint64_t ring[1] = { 0xf000 }, count[1] = { 16 };
	struct vstate_save s = { .name = "t", .index = 0, .depth = 1, .nofiles = 1, .numberio = 16,
				 .ring = ring, .count = count };
	unsigned char want[192] = { 0 };
	size_t len;
	unsigned char *b = vstate_encode(&s, &len);

	want[0x00] = 3;
	want[0x08] = 0xa8;
	want[0x10] = 0xf0, want[0x11] = 0x5a, want[0x12] = 0x53, want[0x13] = 0x87;	/* crc */
	want[0x18] = 1;		/* completions kept */
	want[0x20] = 1;		/* depth */
	want[0x24] = 1;		/* files */
	want[0x28] = 16;	/* writes */
	want[0x70] = 't';
	want[0xb9] = 0xf0;	/* the last write: 0xf000 */
	ck_assert_ptr_nonnull(b);
	ck_assert_uint_eq(len, 192);
	ck_assert_mem_eq(b, want, 192);
	free(b);
}
END_TEST

/* fio 3.33, randwrite at iodepth 4 (libaio): the generator's first state, four slots newest
 * first; the crc was fio's */
START_TEST(test_encode_random)
{
	uint64_t ring[4] = { 0x3000, 0x4000, 0x9000, 0xc000 }, count[1] = { 16 };
	struct vstate_save s = { .name = "t", .index = 0, .depth = 4, .nofiles = 1, .numberio = 16,
				 .random = true, .s32 = { 0xccb9ad3du, 0x05a327f8u, 0x137e67c8u },
				 .ring = ring, .count = count };
	size_t len;
	unsigned char *b = vstate_encode(&s, &len);
	struct iops_err err = { 0 };
	struct vstate *vs;

	ck_assert_ptr_nonnull(b);
	ck_assert_uint_eq(len, 24 + 152 + 64);
	ck_assert_uint_eq(b[0x10] | b[0x11] << 8 | b[0x12] << 16 | (unsigned)b[0x13] << 24, 0xfd8546feu);
	ck_assert_uint_eq(b[0x40], 0x3d);
	ck_assert_uint_eq(b[0xb9], 0xc0);	/* newest first: write 15 sits at slot 3 */
	ck_assert_uint_eq(b[0xc9], 0x90);
	ck_assert_uint_eq(b[0xd9], 0x40);
	ck_assert_uint_eq(b[0xe9], 0x30);
	vs = vstate_decode(b, len, &err);
	ck_assert_ptr_nonnull(vs);
	ck_assert_uint_eq(vs->no_comps, 4);
	ck_assert_uint_eq(vs->depth, 4);
	ck_assert_uint_eq(vs->numberio, 16);
	ck_assert_uint_eq(vs->comps[0].offset, 0xc000);
	free(vs);
	free(b);
}
END_TEST

struct bad_case {
	unsigned at;		/* byte changed (or, with cut, the length kept) */
	unsigned char val;
	bool cut;
	const char *msg;
};

static const struct bad_case bad_cases[] = {
	{ 0, 4, false, "fio: unsupported (4) version in verify state header" },
	{ 100, 1, false, "fio: verify state is corrupt" },		/* a byte of the list */
	{ 0x10, 0, false, "fio: verify state is corrupt" },	/* the crc */
	{ 0x18, 9, false, "fio: verify state is corrupt" },	/* more completions than slots */
	{ 100, 0, true, "fio: failed reading verity state" },	/* short */
	{ 0, 0, true, "fio: failed reading verity state" },	/* empty */
	{ 8, 0xa9, false, "fio: failed reading verity state" },	/* size field */
};

START_TEST(test_decode_bad)
{
	const struct bad_case *c = &bad_cases[_i];
	uint64_t ring[2] = { 0x1000, 0 }, count[1] = { 2 };
	struct vstate_save s = { .name = "job", .index = 3, .depth = 2, .nofiles = 1, .numberio = 2,
				 .ring = ring, .count = count };
	struct iops_err err = { 0 };
	size_t len;
	unsigned char *b = vstate_encode(&s, &len);
	struct vstate *vs;

	ck_assert_ptr_nonnull(b);
	if (c->cut)
		len = c->at;
	else if (b[c->at] == c->val)
		b[c->at] ^= 0x55;
	else
		b[c->at] = c->val;
	vs = vstate_decode(b, len, &err);
	ck_assert_ptr_null(vs);
	ck_assert_str_eq(err.msg, c->msg);
	free(b);
}
END_TEST

START_TEST(test_path)
{
	char p[VSTATE_PATH_MAX], small[12];

	ck_assert_int_eq(vstate_path("t", 0, p, sizeof(p)), 0);
	ck_assert_str_eq(p, "local-t-0-verify.state");
	ck_assert_int_eq(vstate_path("u", 2, p, sizeof(p)), 0);
	ck_assert_str_eq(p, "local-u-2-verify.state");
	ck_assert_int_eq(vstate_path("t", 0, small, sizeof(small)), -ENAMETOOLONG);
}
END_TEST

/* fio's rule (observed: 40 writes at iodepth 1 verify 40 blocks, the 41st stops the job) */
struct stop_case {
	uint64_t numberio, reads;
	uint32_t depth;
	uint64_t offset;
	bool stop;
};

static const struct stop_case stop_cases[] = {
	{ 40, 0, 1, 0x5000, false },	/* far from the end */
	{ 40, 38, 1, 0x5000, false },
	{ 40, 39, 1, 0x27000, false },	/* the last write, seen completing */
	{ 40, 39, 1, 0x5000, true },	/* in the window, not seen */
	{ 40, 40, 1, 0x6000, true },	/* past the writes */
	{ 40, 41, 1, 0x6000, false },	/* fio's unsigned difference wraps: on it goes */
	{ 2, 0, 4, 0x27000, false },	/* fewer writes than depth: every read is checked */
	{ 2, 0, 4, 0x8000, true },
	{ 0, 0, 1, 0x0, true },		/* nothing written */
};

START_TEST(test_should_stop)
{
	const struct stop_case *c = &stop_cases[_i];
	struct vstate *vs = malloc(sizeof(*vs) + 2 * sizeof(vs->comps[0]));

	ck_assert_ptr_nonnull(vs);
	vs->numberio = c->numberio;
	vs->depth = c->depth;
	vs->no_comps = c->numberio ? 2 : 0;
	vs->comps[0] = (struct vstate_comp){ 0, 0x27000 };
	vs->comps[1] = (struct vstate_comp){ 1, 0x5000 };	/* another file */
	ck_assert_int_eq(vstate_should_stop(vs, c->reads, 0, c->offset), c->stop);
	free(vs);
}
END_TEST

Suite *verify_state_suite(void)
{
	Suite *s = suite_create("verify_state");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_encode_fio_file);
	tcase_add_test(tc, test_encode_random);
	tcase_add_loop_test(tc, test_decode_bad, 0, sizeof(bad_cases) / sizeof(bad_cases[0]));
	tcase_add_test(tc, test_path);
	tcase_add_loop_test(tc, test_should_stop, 0, sizeof(stop_cases) / sizeof(stop_cases[0]));
	suite_add_tcase(s, tc);
	return s;
}
