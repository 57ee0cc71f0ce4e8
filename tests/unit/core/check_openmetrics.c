/* SPDX-License-Identifier: MIT */
/* openmetrics: label escaping (backslash, quote, line feed, invalid UTF-8), numbers that read
 * back exactly (whole numbers with ".0", exponents, Inf, NaN, truncation), quantile labels as
 * the decimals fio prints, and a family's lines in order with "# EOF" last. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/openmetrics.h"

static char *capture_escape(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	openmetrics_escape(f, s);
	fclose(f);
	return buf;
}

static const struct {
	const char *in, *out;
} escapes[] = {
	{ "plain", "plain" },
	{ "", "" },
	{ "a\"b", "a\\\"b" },
	{ "back\\slash", "back\\\\slash" },
	{ "two\nlines", "two\\nlines" },
	{ "tab\tcr\r", "tab\tcr\r" },			/* no escapes of their own in OpenMetrics */
	{ "caf\xc3\xa9 \xe2\x82\xac", "caf\xc3\xa9 \xe2\x82\xac" },	/* UTF-8 as it is */
	{ "bad\xff", "bad\xef\xbf\xbd" },		/* not UTF-8: U+FFFD */
	{ "\xc3", "\xef\xbf\xbd" },			/* cut sequence */
	{ "\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },	/* a surrogate, byte by byte */
	{ "\\\"\n", "\\\\\\\"\\n" },
};

START_TEST(test_escape)
{
	char *got = capture_escape(escapes[_i].in);

	ck_assert_str_eq(got, escapes[_i].out);
	free(got);
}
END_TEST

static const struct {
	double v;
	const char *text;
} numbers[] = {
	{ 0, "0.0" }, { 1, "1.0" }, { -5, "-5.0" }, { 0.5, "0.5" }, { 0.1, "0.1" }, { 2e-9, "2e-09" },
	{ 2.5e-7, "2.5e-07" }, { 0.00025, "0.00025" }, { 123456789, "123456789.0" }, { 1e21, "1e+21" },
	{ 1.0 / 3, "0.3333333333333333" }, { 32851.074463, "32851.074463" }, { INFINITY, "+Inf" },
	{ -INFINITY, "-Inf" }, { NAN, "NaN" }, { 4.3848998912e-05, "4.3848998912e-05" },
	{ 1e16, "1e+16" }, { 9007199254740993.0, "9007199254740992.0" }, { 4000, "4000.0" }, { 1e-4, "0.0001" },
	{ 1e-5, "1e-05" }, { 1e15, "1000000000000000.0" }, { -0.0, "-0.0" }, { 5e-324, "5e-324" },
	{ 1.7976931348623157e308, "1.7976931348623157e+308" },
};

START_TEST(test_numbers)
{
	char buf[40];
	size_t n = openmetrics_number(buf, sizeof(buf), numbers[_i].v);

	ck_assert_str_eq(buf, numbers[_i].text);
	ck_assert_uint_eq(n, strlen(buf));
	if (isfinite(numbers[_i].v))
		ck_assert(strtod(buf, NULL) == numbers[_i].v);
}
END_TEST

START_TEST(test_number_truncated)
{
	char buf[4];

	ck_assert_uint_eq(openmetrics_number(buf, sizeof(buf), 1.0 / 3), 3);
	ck_assert_str_eq(buf, "0.3");
	ck_assert_uint_eq(openmetrics_number(buf, 0, 1), 0);
}
END_TEST

static const struct {
	double pct;
	const char *q;
} quantiles[] = {
	{ 50, "0.5" }, { 99, "0.99" }, { 99.9, "0.999" }, { 99.99, "0.9999" }, { 99.95, "0.9995" }, { 1, "0.01" },
	{ 5, "0.05" }, { 100, "1.0" }, { 0.01, "0.0001" }, { 0.001, "1e-05" }, { 0, "0.0" }, { 99.999999, "0.99999999" },
	{ 101, "NaN" }, { -1, "NaN" },
};

START_TEST(test_quantiles)
{
	char buf[40];

	openmetrics_quantile(buf, sizeof(buf), quantiles[_i].pct);
	ck_assert_str_eq(buf, quantiles[_i].q);
}
END_TEST

START_TEST(test_family)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct openmetrics w;
	const struct openmetrics_label l[3] = { { "job", "a\"b" }, { "host", NULL }, { "dir", "read" } };

	openmetrics_init(&w, f);
	openmetrics_family(&w, "x_seconds", OPENMETRICS_SUMMARY, "seconds", "A help\\ text\nover lines");
	openmetrics_sample(&w, "", l, 3, "quantile", "0.5", 0.25);
	openmetrics_sample_u64(&w, "_count", l, 3, NULL, NULL, 18446744073709551615ull);
	openmetrics_family(&w, "y", OPENMETRICS_COUNTER, NULL, "y");
	openmetrics_sample_u64(&w, "_total", NULL, 0, NULL, NULL, 7);
	openmetrics_sample(&w, "_total", l + 1, 1, NULL, NULL, 1);	/* every label left out: no braces */
	ck_assert_int_eq(openmetrics_finish(&w), 0);
	fclose(f);
	ck_assert_str_eq(buf, "# TYPE x_seconds summary\n"
			 "# UNIT x_seconds seconds\n"
			 "# HELP x_seconds A help\\\\ text\\nover lines\n"
			 "x_seconds{job=\"a\\\"b\",dir=\"read\",quantile=\"0.5\"} 0.25\n"
			 "x_seconds_count{job=\"a\\\"b\",dir=\"read\"} 18446744073709551615\n"
			 "# TYPE y counter\n"
			 "# HELP y y\n"
			 "y_total 7\n"
			 "y_total 1.0\n"
			 "# EOF\n");
	free(buf);
}
END_TEST

START_TEST(test_write_error)
{
	FILE *f = fopen("/dev/full", "w");
	struct openmetrics w;

	if (!f)
		return;	/* no /dev/full here: nothing to check */
	openmetrics_init(&w, f);
	openmetrics_family(&w, "x", OPENMETRICS_GAUGE, NULL, "x");
	ck_assert_int_lt(openmetrics_finish(&w), 0);
	fclose(f);
}
END_TEST

Suite *openmetrics_suite(void)
{
	Suite *s = suite_create("openmetrics");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_escape, 0, sizeof(escapes) / sizeof(escapes[0]));
	tcase_add_loop_test(tc, test_numbers, 0, sizeof(numbers) / sizeof(numbers[0]));
	tcase_add_test(tc, test_number_truncated);
	tcase_add_loop_test(tc, test_quantiles, 0, sizeof(quantiles) / sizeof(quantiles[0]));
	tcase_add_test(tc, test_family);
	tcase_add_test(tc, test_write_error);
	suite_add_tcase(s, tc);
	return s;
}
