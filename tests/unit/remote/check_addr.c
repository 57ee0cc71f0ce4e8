/* SPDX-License-Identifier: MIT */
/* addr: fio's --server and --client forms, table-driven: defaults, ports at the edges (0,
 * 1, 65535, 65536, overflow, garbage), ip:/ip6:/sock:, bracketed IPv6, names too long, bad
 * characters, empty hosts (a server only). */
#include <check.h>
#include <string.h>

#include "remote/addr.h"

static const struct {
	const char *spec;
	bool server;
	int ret;
	enum addr_family family;
	const char *host;	/* or the path (ADDR_UNIX), or the message when ret < 0 */
	unsigned port;
} cases[] = {
	{ NULL, true, 0, ADDR_ANY, "", 8765 },
	{ "", true, 0, ADDR_ANY, "", 8765 },
	{ ",9000", true, 0, ADDR_ANY, "", 9000 },
	{ "127.0.0.2", true, 0, ADDR_ANY, "127.0.0.2", 8765 },
	{ "ip:127.0.0.2,1", true, 0, ADDR_INET, "127.0.0.2", 1 },
	{ "ip:127.0.0.2,65535", false, 0, ADDR_INET, "127.0.0.2", 65535 },
	{ "ip6:::1,8766", true, 0, ADDR_INET6, "::1", 8766 },
	{ "ip6:[::1],8766", false, 0, ADDR_INET6, "::1", 8766 },
	{ "::1", false, 0, ADDR_INET6, "::1", 8765 },
	{ "pod-0.iops.ns.svc", false, 0, ADDR_ANY, "pod-0.iops.ns.svc", 8765 },
	{ "sock:/run/iops.sock", true, 0, ADDR_UNIX, "/run/iops.sock", 0 },
	{ "sock:", true, -1, ADDR_ANY, "bad unix socket path", 0 },
	{ "ip:127.0.0.2,0", true, -1, ADDR_ANY, "bad port '0'", 0 },
	{ "ip:127.0.0.2,65536", true, -1, ADDR_ANY, "bad port '65536'", 0 },
	{ "h,99999999999999999999999", false, -1, ADDR_ANY, "bad port", 0 },
	{ "h,", false, -1, ADDR_ANY, "bad port ''", 0 },
	{ "h,12x", false, -1, ADDR_ANY, "bad port '12x'", 0 },
	{ "h,-1", false, -1, ADDR_ANY, "bad port '-1'", 0 },
	{ "", false, -1, ADDR_ANY, "no host in ''", 0 },
	{ ",8765", false, -1, ADDR_ANY, "no host", 0 },
	{ "ip:::1", true, -1, ADDR_ANY, "is not an IPv4 host", 0 },
	{ "bad host", false, -1, ADDR_ANY, "bad host 'bad host'", 0 },
	{ "h/x", false, -1, ADDR_ANY, "bad host", 0 },
};

START_TEST(test_parse)
{
	struct iops_err err = { 0 };
	struct addr a;
	int ret = cases[_i].server ? addr_parse_server(&a, cases[_i].spec, &err) : addr_parse_client(&a, cases[_i].spec, &err);

	ck_assert_int_eq(ret < 0 ? -1 : 0, cases[_i].ret);
	if (ret < 0) {
		ck_assert_msg(strstr(err.msg, cases[_i].host), "%s: %s", cases[_i].spec, err.msg);
		return;
	}
	ck_assert_int_eq(a.family, cases[_i].family);
	ck_assert_str_eq(a.family == ADDR_UNIX ? a.path : a.host, cases[_i].host);
	ck_assert_uint_eq(a.port, cases[_i].port);
}
END_TEST

START_TEST(test_long)
{
	char spec[ADDR_HOST_MAX + 16];
	struct iops_err err = { 0 };
	struct addr a;

	memset(spec, 'a', sizeof(spec) - 1);
	spec[sizeof(spec) - 1] = '\0';
	ck_assert_int_lt(addr_parse_client(&a, spec, &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "host name too long"));
	memcpy(spec, "sock:", 5);
	ck_assert_int_lt(addr_parse_server(&a, spec, &err), 0);
	spec[ADDR_HOST_MAX - 1] = '\0';	/* 255 bytes of host: the most */
	ck_assert_int_eq(addr_parse_client(&a, spec + 5, &err), 0);
}
END_TEST

START_TEST(test_format)
{
	struct iops_err err = { 0 };
	struct addr a;
	char buf[64], tiny[4];

	addr_parse_server(&a, NULL, &err);
	addr_format(&a, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0.0.0.0,8765");
	addr_parse_client(&a, "ip6:::1,9", &err);
	addr_format(&a, buf, sizeof(buf));
	ck_assert_str_eq(buf, "[::1],9");
	addr_parse_client(&a, "sock:/x", &err);
	addr_format(&a, buf, sizeof(buf));
	ck_assert_str_eq(buf, "sock:/x");
	addr_format(&a, tiny, sizeof(tiny));	/* cut, still a string */
	ck_assert_uint_eq(strlen(tiny), 3);
}
END_TEST

Suite *addr_suite(void)
{
	Suite *s = suite_create("addr");
	TCase *tc = tcase_create("addr");

	tcase_add_loop_test(tc, test_parse, 0, sizeof(cases) / sizeof(cases[0]));
	tcase_add_test(tc, test_long);
	tcase_add_test(tc, test_format);
	suite_add_tcase(s, tc);
	return s;
}
