/* SPDX-License-Identifier: MIT */
/* k8s: Kubernetes' name and value rules, at their edges (empty, longest, one past, garbage). */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "k8s/k8s.h"

static char *repeat(char *buf, char c, size_t n)
{
	memset(buf, c, n);
	buf[n] = '\0';
	return buf;
}

START_TEST(test_dns)
{
	char b[300];

	ck_assert(k8s_dns_label("a", 63));
	ck_assert(k8s_dns_label("0a-b9", 63));
	ck_assert(k8s_dns_label(repeat(b, 'a', 63), 63));
	ck_assert(!k8s_dns_label(repeat(b, 'a', 64), 63));
	ck_assert(!k8s_dns_label(repeat(b, 'a', 10), 9));
	ck_assert(!k8s_dns_label("", 63));
	ck_assert(!k8s_dns_label("-a", 63));
	ck_assert(!k8s_dns_label("a-", 63));
	ck_assert(!k8s_dns_label("A", 63));
	ck_assert(!k8s_dns_label("a.b", 63));
	ck_assert(!k8s_dns_label("a_b", 63));
	ck_assert(!k8s_dns_label("a b", 63));
	ck_assert(k8s_dns1035_label("a0", 63));
	ck_assert(!k8s_dns1035_label("0a", 63));
	ck_assert(k8s_dns_subdomain("a.b-c.d"));
	ck_assert(k8s_dns_subdomain("ocs-storagecluster-ceph-rbd"));
	ck_assert(!k8s_dns_subdomain(""));
	ck_assert(!k8s_dns_subdomain("a..b"));
	ck_assert(!k8s_dns_subdomain(".a"));
	ck_assert(!k8s_dns_subdomain("a."));
	ck_assert(!k8s_dns_subdomain("a.-b"));
	ck_assert(!k8s_dns_subdomain("Fast"));
	ck_assert(!k8s_dns_subdomain(repeat(b, 'a', 64)));	/* one label over 63 */
	repeat(b, 'a', 253);
	for (int i = 60; i < 253; i += 61)
		b[i] = '.';
	ck_assert(k8s_dns_subdomain(b));
	b[253] = 'a';
	b[254] = '\0';
	ck_assert(!k8s_dns_subdomain(b));
}
END_TEST

START_TEST(test_quantity)
{
	static const char *const good[] = { "1", "10Gi", "500Mi", "1.5Ti", "2k", "3M", "0.5G", "1Ei", "7P", "100T", "0.001" };
	static const char *const bad[] = { "", "0", "0Gi", "0.0", "Gi", "10gi", "10GB", "-1Gi", "+1", "1.Gi", ".5Gi", "1e3",
					   "10 Gi", " 10Gi", "1,5Gi", "1Ki2", "123456789012345678901234Gi", "0x10" };

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		ck_assert_msg(k8s_quantity(good[i]), "%s refused", good[i]);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(!k8s_quantity(bad[i]), "%s accepted", bad[i]);
}
END_TEST

START_TEST(test_labels)
{
	char b[300], k[400];

	ck_assert(k8s_label_key("disktype"));
	ck_assert(k8s_label_key("kubernetes.io/hostname"));
	ck_assert(k8s_label_key("node-role.kubernetes.io/worker"));
	ck_assert(k8s_label_key("A_b.c-D"));
	ck_assert(!k8s_label_key(""));
	ck_assert(!k8s_label_key("/a"));
	ck_assert(!k8s_label_key("a/"));
	ck_assert(!k8s_label_key("a/b/c"));
	ck_assert(!k8s_label_key("Bad_Prefix/a"));
	ck_assert(!k8s_label_key("-a"));
	ck_assert(!k8s_label_key("a b"));
	ck_assert(k8s_label_key(repeat(b, 'a', 63)));
	ck_assert(!k8s_label_key(repeat(b, 'a', 64)));
	snprintf(k, sizeof(k), "%s/a", repeat(b, 'a', 254));
	ck_assert(!k8s_label_key(k));
	ck_assert(k8s_label_value(""));
	ck_assert(k8s_label_value("ssd"));
	ck_assert(k8s_label_value("1.2_3-A"));
	ck_assert(!k8s_label_value("a b"));
	ck_assert(!k8s_label_value("a/b"));
	ck_assert(!k8s_label_value("_a"));
	ck_assert(!k8s_label_value(repeat(b, 'v', 64)));
	ck_assert(k8s_configmap_key("job.fio"));
	ck_assert(k8s_configmap_key("config.file"));
	ck_assert(k8s_configmap_key("A-b_c.1"));
	ck_assert(!k8s_configmap_key(""));
	ck_assert(!k8s_configmap_key("."));
	ck_assert(!k8s_configmap_key(".."));
	ck_assert(!k8s_configmap_key("a b"));
	ck_assert(!k8s_configmap_key("a/b"));
	ck_assert(k8s_image("localhost/iops:latest"));
	ck_assert(k8s_image("registry.example.com:5000/team/iops@sha256:0123abcdef"));
	ck_assert(!k8s_image(""));
	ck_assert(!k8s_image("iops latest"));
	ck_assert(!k8s_image("iops\n"));
	ck_assert(!k8s_image("$(whoami)"));
	ck_assert(!k8s_image("a\"b"));
	{
		char img[600];

		ck_assert(k8s_image(repeat(img, 'a', 512)));
		ck_assert(!k8s_image(repeat(img, 'a', 513)));
	}
}
END_TEST

START_TEST(test_uint)
{
	unsigned v = 7;

	ck_assert(k8s_uint("0", 0, 5, &v) && v == 0);
	ck_assert(k8s_uint("1024", 1, 1024, &v) && v == 1024);
	ck_assert(!k8s_uint("1025", 1, 1024, &v));
	ck_assert(!k8s_uint("0", 1, 1024, &v));
	ck_assert(!k8s_uint("", 0, 5, &v));
	ck_assert(!k8s_uint("-1", 0, 5, &v));
	ck_assert(!k8s_uint("+1", 0, 5, &v));
	ck_assert(!k8s_uint(" 1", 0, 5, &v));
	ck_assert(!k8s_uint("1k", 0, 5000, &v));
	ck_assert(!k8s_uint("99999999999999999999", 0, 4294967295ul, &v));
	ck_assert(k8s_uint("4294967295", 0, 4294967295ul, &v) && v == 4294967295u);
	ck_assert(!k8s_uint("4294967296", 0, 4294967295ul, &v));
	ck_assert_uint_eq(v, 4294967295u);
}
END_TEST

Suite *k8s_suite(void)
{
	Suite *s = suite_create("k8s");
	TCase *tc = tcase_create("k8s");

	tcase_add_test(tc, test_dns);
	tcase_add_test(tc, test_quantity);
	tcase_add_test(tc, test_labels);
	tcase_add_test(tc, test_uint);
	suite_add_tcase(s, tc);
	return s;
}
