/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fio/data/pattern.h"

/* Values and the bytes fio 3.33 writes for them as buffer_pattern (observed with xxd). */
struct pat_case {
	const char *val;
	int ret;
	unsigned len;
	const char *bytes;	/* len bytes */
};

static const struct pat_case pat_cases[] = {
	{ "0xdeadbeef", 0, 4, "\xde\xad\xbe\xef" },
	{ "0xabc", 0, 2, "\x0a\xbc" },			/* odd digit count: first nibble padded */
	{ "0XFF", 0, 1, "\xff" },
	{ "\"ab\"12", 0, 3, "ab\x0c" },
	{ "-5", 0, 4, "\xfb\xff\xff\xff" },
	{ "0", 0, 1, "\x00" },
	{ "256", 0, 2, "\x00\x01" },
	{ "2147483647", 0, 4, "\xff\xff\xff\x7f" },
	{ "-2147483648", 0, 4, "\x00\x00\x00\x80" },
	/* fio 3.33: a number may follow blanks, nothing else may; "0x" starts a new number
	 * (optdiff seed 1, the bytes written compared with fio's) */
	{ "  0x01  ", -EINVAL, 0, "" },
	{ "0x01 ", -EINVAL, 0, "" },
	{ "1 ", -EINVAL, 0, "" },
	{ "1 0x2", -EINVAL, 0, "" },
	{ "1 \"a\"", -EINVAL, 0, "" },
	{ " 1", 0, 1, "\x01" },
	{ "1  2", 0, 2, "\x01\x02" },
	{ "0x1 2", 0, 2, "\x01\x02" },
	{ "00xdeadbeef", 0, 5, "\x00\xde\xad\xbe\xef" },
	{ "0xdeadbee0xffffff", 0, 7, "\x0d\xea\xdb\xee\xff\xff\xff" },
	{ "1000xff", 0, 2, "\x64\xff" },
	{ "+1", 0, 1, "\x01" },
	{ "1-2", 0, 5, "\x01\xfe\xff\xff\xff" },
	{ "0-00xaa", 0, 3, "\x00\x00\xaa" },
	{ "+", -EINVAL, 0, "" },
	{ "+-1", -EINVAL, 0, "" },
	{ "0x01\"z\"0x02", 0, 3, "\x01z\x02" },
	{ "2147483648", -EINVAL, 0, "" },			/* overflow */
	{ "99999999999999999999", -EINVAL, 0, "" },
	{ "", -EINVAL, 0, "" },				/* empty */
	{ "   ", -EINVAL, 0, "" },
	{ "0x", -EINVAL, 0, "" },
	{ "12abc", -EINVAL, 0, "" },			/* garbage after a number */
	{ "\"\"", -EINVAL, 0, "" },			/* fio asserts here: refuse */
	{ "\"open", -EINVAL, 0, "" },
	{ "'nonexistent-file-xyz'", -EINVAL, 0, "" },
	{ "%o", -EINVAL, 0, "" },			/* no %o without a place for it */
	{ "0x01 0x02", -EINVAL, 0, "" },		/* blank inside */
	{ "x", -EINVAL, 0, "" },
};

START_TEST(test_pattern_parse_table)
{
	const struct pat_case *c = &pat_cases[_i];
	unsigned char buf[64];
	struct pattern_out out = { .buf = buf, .cap = sizeof(buf) };
	int ret = pattern_parse(c->val, &out);

	ck_assert_msg(ret == c->ret, "'%s': %d, want %d", c->val, ret, c->ret);
	if (!ret) {
		ck_assert_uint_eq(out.len, c->len);
		ck_assert_mem_eq(buf, c->bytes, c->len);
	}
}
END_TEST

START_TEST(test_pattern_capacity_and_offsets)
{
	unsigned char buf[8];
	unsigned short pos[2];
	struct pattern_out out = { .buf = buf, .cap = sizeof(buf) };

	ck_assert_int_eq(pattern_parse("0x0102030405060708", &out), 0);	/* exactly full */
	ck_assert_uint_eq(out.len, 8);
	ck_assert_int_eq(pattern_parse("0x010203040506070809", &out), -EINVAL);	/* one over */
	out.o_pos = pos;
	out.o_cap = 2;
	out.cap = sizeof(buf);
	ck_assert_int_eq(pattern_parse("%o", &out), 0);
	ck_assert_uint_eq(out.nr_o, 1);
	ck_assert_uint_eq(pos[0], 0);
	ck_assert_uint_eq(out.len, 8);
	ck_assert_int_eq(pattern_parse("0x01%o", &out), -EINVAL);	/* 9 bytes */
}
END_TEST

START_TEST(test_pattern_file)
{
	char path[] = "/tmp/iops-pattern-XXXXXX", val[64];
	unsigned char buf[4], big[600];
	struct pattern_out out = { .buf = buf, .cap = sizeof(buf) };
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "hello", 5), 5);
	close(fd);
	snprintf(val, sizeof(val), "'%s'", path);
	ck_assert_int_eq(pattern_parse(val, &out), 0);
	ck_assert_uint_eq(out.len, 4);			/* the file's first bytes, as many as fit */
	ck_assert_mem_eq(buf, "hell", 4);
	out.buf = big;
	out.cap = sizeof(big);
	snprintf(val, sizeof(val), "0xab'%s'\"q\"", path);
	ck_assert_int_eq(pattern_parse(val, &out), 0);
	ck_assert_uint_eq(out.len, 7);
	ck_assert_mem_eq(big, "\xabhelloq", 7);
	fd = open(path, O_WRONLY | O_TRUNC);		/* empty file: refused */
	close(fd);
	snprintf(val, sizeof(val), "'%s'", path);
	ck_assert_int_eq(pattern_parse(val, &out), -EINVAL);
	unlink(path);
	ck_assert_int_eq(pattern_parse("''", &out), -EINVAL);
}
END_TEST

START_TEST(test_pattern_repeat)
{
	unsigned char b[37];

	for (size_t len = 0; len <= sizeof(b); len++) {
		memset(b, 0xee, sizeof(b));
		pattern_repeat(b, len, (const unsigned char *)"abc", 3);
		for (size_t i = 0; i < len; i++)
			if (b[i] != "abc"[i % 3])
				ck_abort_msg("len %zu: byte %zu is %c", len, i, b[i]);
		for (size_t i = len; i < sizeof(b); i++)
			if (b[i] != 0xee)
				ck_abort_msg("len %zu: wrote past the end at %zu", len, i);
	}
	pattern_repeat(b, sizeof(b), NULL, 0);	/* no pattern: zeros */
	for (size_t i = 0; i < sizeof(b); i++)
		ck_assert_uint_eq(b[i], 0);
	pattern_repeat(b, 2, (const unsigned char *)"wxyz", 4);	/* longer than the buffer */
	ck_assert_mem_eq(b, "wx", 2);
}
END_TEST

Suite *pattern_suite(void);
Suite *pattern_suite(void)
{
	Suite *s = suite_create("pattern");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_pattern_parse_table, 0, (int)(sizeof(pat_cases) / sizeof(pat_cases[0])));
	tcase_add_test(tc, test_pattern_capacity_and_offsets);
	tcase_add_test(tc, test_pattern_file);
	tcase_add_test(tc, test_pattern_repeat);
	suite_add_tcase(s, tc);
	return s;
}
