/* SPDX-License-Identifier: MIT */
/* hosts: fio's hosts file, table-driven: comments, blank lines, spaces and CRLF around
 * entries, ports, no final newline, empty files, garbage (a bad port, a NUL byte, an entry
 * too long), and the bound on the number of servers. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "remote/hosts.h"

static const struct {
	const char *text;
	int ret;		/* entries added, or -errno */
	const char *first;	/* the first host, or the message */
	unsigned port;
} cases[] = {
	{ "", 0, NULL, 0 },
	{ "\n\n# only comments\n   \t\n", 0, NULL, 0 },
	{ "127.0.0.2,8765\n127.0.0.3,8766\n", 2, "127.0.0.2", 8765 },
	{ "  pod-0.svc  # the first pod\r\npod-1.svc\r\n", 2, "pod-0.svc", 8765 },
	{ "a,1\nb,2\nc,3", 3, "a", 1 },
	{ "#a\n  ip6:::1,9000\t\n", 1, "::1", 9000 },
	{ "a\nb,0\n", -EINVAL, "h line 2: bad port '0'", 0 },
	{ "a\nb c\n", -EINVAL, "h line 2: bad host 'b c'", 0 },
	{ "a,65536\n", -EINVAL, "h line 1: bad port '65536'", 0 },
	{ ",8765\n", -EINVAL, "h line 1: no host", 0 },
};

START_TEST(test_parse)
{
	struct addr list[8];
	struct iops_err err = { 0 };
	unsigned nr = 0;
	int ret = hosts_parse(cases[_i].text, strlen(cases[_i].text), "h", list, &nr, 8, &err);

	ck_assert_int_eq(ret, cases[_i].ret);
	if (ret < 0) {
		ck_assert_msg(strstr(err.msg, cases[_i].first), "%s", err.msg);
		return;
	}
	ck_assert_uint_eq(nr, (unsigned)ret);
	if (ret) {
		ck_assert_str_eq(list[0].host, cases[_i].first);
		ck_assert_uint_eq(list[0].port, cases[_i].port);
	}
}
END_TEST

START_TEST(test_garbage)
{
	struct addr list[4];
	struct iops_err err = { 0 };
	unsigned nr = 0;
	char big[ADDR_HOST_MAX + 64];

	ck_assert_int_eq(hosts_parse("a\0b\n", 4, "h", list, &nr, 4, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "a NUL byte"));
	memset(big, 'x', sizeof(big));
	nr = 0;
	ck_assert_int_eq(hosts_parse(big, sizeof(big), "h", list, &nr, 4, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "entry too long"));
	nr = 0;	/* the bound: 4 entries fit, the fifth does not */
	ck_assert_int_eq(hosts_parse("a\nb\nc\nd\ne\n", 10, "h", list, &nr, 4, &err), -E2BIG);
	ck_assert_uint_eq(nr, 4);
	ck_assert_ptr_nonnull(strstr(err.msg, "h line 5: more than 4 servers"));
	nr = 3;	/* appends after what the list holds */
	ck_assert_int_eq(hosts_parse("z,7\n", 4, "h", list, &nr, 4, &err), 1);
	ck_assert_str_eq(list[3].host, "z");
}
END_TEST

Suite *hosts_suite(void)
{
	Suite *s = suite_create("hosts");
	TCase *tc = tcase_create("hosts");

	tcase_add_loop_test(tc, test_parse, 0, sizeof(cases) / sizeof(cases[0]));
	tcase_add_test(tc, test_garbage);
	suite_add_tcase(s, tc);
	return s;
}
