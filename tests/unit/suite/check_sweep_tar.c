/* SPDX-License-Identifier: MIT */
/* sweep_tar: header fields (name, octal size and mode, magic, a checksum that adds up), names
 * at the edges (empty, 99 and 100 bytes), sizes at the edges (0, 511, 512, 8 GiB), and a whole
 * archive's layout (data padded to blocks, two zero blocks at the end). */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "suite/sweep_tar.h"

static unsigned sum_of(const uint8_t *b)
{
	unsigned s = 0;

	for (unsigned i = 0; i < SWEEP_TAR_BLOCK; i++)
		s += (i >= 148 && i < 156) ? ' ' : b[i];
	return s;
}

START_TEST(test_header)
{
	uint8_t b[SWEEP_TAR_BLOCK];

	ck_assert_int_eq(sweep_tar_header(b, "all_clients.json", 1234, 1796303307), 0);
	ck_assert_str_eq((char *)b, "all_clients.json");
	ck_assert_str_eq((char *)b + 100, "0000644");
	ck_assert_str_eq((char *)b + 124, "00000002322");	/* 1234 */
	ck_assert_int_eq(b[156], '0');
	ck_assert_str_eq((char *)b + 257, "ustar");
	ck_assert_int_eq(memcmp(b + 263, "00", 2), 0);
	ck_assert_uint_eq(strtoul((char *)b + 148, NULL, 8), sum_of(b));
	ck_assert_int_eq(b[155], ' ');
}
END_TEST

static const struct { unsigned name_len; uint64_t size; int ret; } edges[] = {
	{ 0, 1, -ENAMETOOLONG }, { 1, 0, 0 }, { 99, 511, 0 }, { 100, 1, -ENAMETOOLONG },
	{ 5, (1ull << 33) - 1, 0 }, { 5, 1ull << 33, -EFBIG },
};

START_TEST(test_edges)
{
	uint8_t b[SWEEP_TAR_BLOCK];
	char name[128];

	memset(name, 'n', edges[_i].name_len);
	name[edges[_i].name_len] = '\0';
	ck_assert_int_eq(sweep_tar_header(b, name, edges[_i].size, 0), edges[_i].ret);
	if (!edges[_i].ret) {
		ck_assert_uint_eq(strtoull((char *)b + 124, NULL, 8), edges[_i].size);
		ck_assert_uint_eq(strtoul((char *)b + 148, NULL, 8), sum_of(b));
	}
}
END_TEST

START_TEST(test_archive)
{
	static const struct sweep_tar_file f[] = { { "a.json", "{}", 2 }, { "empty", "", 0 }, { "b", NULL, 0 } };
	char block[SWEEP_TAR_BLOCK] = { 0 }, *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	struct sweep_tar_file big = { "big", block, 512 };

	ck_assert_int_eq(sweep_tar_write(m, f, 2, 7), 0);
	ck_assert_uint_eq(len, 512 + 512 + 512 + 1024);	/* a.json: header and a padded block; empty: a header */
	ck_assert_int_eq(memcmp(buf + 512, "{}", 2), 0);
	for (size_t i = 514; i < 1024; i++)
		ck_assert_int_eq(buf[i], 0);
	ck_assert_str_eq(buf + 1024, "empty");
	for (size_t i = 1536; i < len; i++)
		ck_assert_int_eq(buf[i], 0);
	rewind(m);
	ck_assert_int_eq(sweep_tar_write(m, &big, 1, 7), 0);	/* exactly one block of data: no padding */
	fflush(m);
	ck_assert_uint_ge(len, 512 + 512 + 1024);
	fclose(m);
	free(buf);
	m = fopen("/dev/null", "w");
	ck_assert_int_eq(sweep_tar_write(m, &f[2], 1, 0), 0);	/* a NULL buffer of 0 bytes */
	fclose(m);
}
END_TEST

Suite *sweep_tar_suite(void)
{
	Suite *s = suite_create("sweep_tar");
	TCase *tc = tcase_create("sweep_tar");

	tcase_add_test(tc, test_header);
	tcase_add_loop_test(tc, test_edges, 0, sizeof(edges) / sizeof(edges[0]));
	tcase_add_test(tc, test_archive);
	suite_add_tcase(s, tc);
	return s;
}
