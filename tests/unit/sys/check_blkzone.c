/* SPDX-License-Identifier: MIT */
/* Unit tests of lib/sys/blkzone.c: parsing BLKREPORTZONE replies from fake buffers (no zoned
 * device exists here): sectors to bytes, the capacity flag, conventional / full / offline
 * zones, the max limit, short buffers, a zone count past the buffer, sector overflow, and a
 * descriptor that is not a block device. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/blkzoned.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "sys/blkzone.h"

#define NZ 4

struct fake {
	struct blk_zone_report hdr;
	struct blk_zone z[NZ];
};

/* Four 256 MiB zones (524288 sectors): conventional, empty, half written, full. */
static void fake_init(struct fake *f, unsigned nr, bool cap_flag)
{
	memset(f, 0, sizeof(*f));
	f->hdr.nr_zones = nr;
	f->hdr.flags = cap_flag ? BLK_ZONE_REP_CAPACITY : 0;
	for (unsigned i = 0; i < NZ; i++) {
		f->z[i].start = (uint64_t)i * 524288;
		f->z[i].len = 524288;
		f->z[i].capacity = 393216;	/* 192 MiB */
		f->z[i].type = i ? BLK_ZONE_TYPE_SEQWRITE_REQ : BLK_ZONE_TYPE_CONVENTIONAL;
		f->z[i].wp = f->z[i].start + (i == 2 ? 1024 : 0);
		f->z[i].cond = i == 3 ? BLK_ZONE_COND_FULL : i == 2 ? BLK_ZONE_COND_IMP_OPEN : BLK_ZONE_COND_EMPTY;
	}
}

static const struct parse_case {
	const char *what;
	unsigned nr, max;
	bool cap_flag;
	size_t cut;		/* bytes taken off the end of the buffer */
	int want;
	uint64_t cap1, end;
} parse_cases[] = {
	{ "all four, with capacity", 4, 8, true, 0, 4, 192ull << 20, 1ull << 30 },
	{ "no capacity field: the length", 4, 8, false, 0, 4, 256ull << 20, 1ull << 30 },
	{ "max limits", 4, 2, true, 0, 2, 192ull << 20, 512ull << 20 },
	{ "no zones", 0, 8, true, 0, 0, 0, 0 },
	{ "one zone short", 4, 8, true, 1, -EINVAL, 0, 0 },
	{ "header only, zones announced", 4, 8, true, NZ * sizeof(struct blk_zone), -EINVAL, 0, 0 },
	{ "shorter than the header", 0, 8, true, NZ * sizeof(struct blk_zone) + 1, -EINVAL, 0, 0 },
	{ "more zones than the buffer", 5, 8, true, 0, -EINVAL, 0, 0 },
};

START_TEST(test_blkzone_parse)
{
	const struct parse_case *c = &parse_cases[_i];
	struct blkzone_ent e[NZ];
	struct fake f;
	uint64_t end = 0;
	int n;

	fake_init(&f, c->nr, c->cap_flag);
	n = blkzone_parse(&f, sizeof(f) - c->cut, e, c->max, &end);
	ck_assert_msg(n == c->want, "%s: %d", c->what, n);
	if (n <= 0)
		return;
	ck_assert_uint_eq(end, c->end);
	ck_assert_uint_eq(e[0].start, 0);
	ck_assert_uint_eq(e[0].type, BLKZONE_CONV);
	ck_assert_uint_eq(e[1].start, 256ull << 20);
	ck_assert_uint_eq(e[1].len, 256ull << 20);
	ck_assert_uint_eq(e[1].cap, c->cap1);
	ck_assert_uint_eq(e[1].wp, 256ull << 20);
	ck_assert_uint_eq(e[1].type, BLKZONE_SEQ_REQ);
	if (n > 2) {
		ck_assert_uint_eq(e[2].wp, (512ull << 20) + 1024 * 512);
		ck_assert_uint_eq(e[3].cond, BLKZONE_COND_FULL);
	}
}
END_TEST

START_TEST(test_blkzone_overflow)
{
	struct blkzone_ent e[NZ];
	struct fake f;

	fake_init(&f, 2, true);
	f.z[1].wp = UINT64_MAX / 256;	/* x 512 overflows */
	ck_assert_int_eq(blkzone_parse(&f, sizeof(f), e, NZ, NULL), -EINVAL);
	fake_init(&f, 2, true);
	f.z[1].start = UINT64_MAX / 512;	/* the largest that converts */
	ck_assert_int_eq(blkzone_parse(&f, sizeof(f), e, NZ, NULL), 2);
	ck_assert_uint_eq(e[1].start, UINT64_MAX / 512 * 512);
}
END_TEST

START_TEST(test_blkzone_not_a_device)
{
	enum blkzone_model m = BLKZONE_HOST_MANAGED;
	unsigned mo = 7;
	int fd = open("/dev/null", O_RDONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(blkzone_model(fd, &m), -ENOTBLK);
	ck_assert_int_eq(m, BLKZONE_NONE);
	ck_assert_int_eq(blkzone_max_open(fd, &mo), -ENOTBLK);
	ck_assert_uint_eq(mo, 0);
	close(fd);
}
END_TEST

Suite *blkzone_suite(void)
{
	Suite *s = suite_create("blkzone");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_blkzone_parse, 0, (int)(sizeof(parse_cases) / sizeof(parse_cases[0])));
	tcase_add_test(tc, test_blkzone_overflow);
	tcase_add_test(tc, test_blkzone_not_a_device);
	suite_add_tcase(s, tc);
	return s;
}
