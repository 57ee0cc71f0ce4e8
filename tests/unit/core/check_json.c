/* SPDX-License-Identifier: MIT */
/* json: fio's pretty layout, empty-string drop, correct escaping, no NaN/Inf. */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "unit_stream.h"

struct cap {
	FILE *fp;
	char *buf;
	size_t len;
};

static struct json_writer *cap_open(struct cap *c, struct json_writer *w)
{
	c->buf = NULL;
	c->fp = open_memstream(&c->buf, &c->len);
	ck_assert_ptr_nonnull(c->fp);
	json_init(w, c->fp);
	return w;
}

static const char *cap_close(struct cap *c)
{
	fclose(c->fp);
	return c->buf;
}

START_TEST(test_layout_like_fio)
{
	struct cap c;
	struct json_writer w;

	cap_open(&c, &w);
	json_begin_object(&w, NULL);
	json_string(&w, "fio version", "fio-3.33");
	json_int(&w, "timestamp", 1795996453);
	json_begin_object(&w, "global options");
	json_end_object(&w);
	json_begin_array(&w, "jobs");
	json_begin_object(&w, NULL);
	json_string(&w, "jobname", "js");
	json_float(&w, "iops", 35759.120440);
	json_uint(&w, "N", 0);
	json_end_object(&w);
	json_end_array(&w);
	json_end_object(&w);
	ck_assert_int_eq(json_finish(&w), 0);
	ck_assert_str_eq(cap_close(&c),
		"{\n"
		"  \"fio version\" : \"fio-3.33\",\n"
		"  \"timestamp\" : 1795996453,\n"
		"  \"global options\" : {\n"
		"\n"
		"  },\n"
		"  \"jobs\" : [\n"
		"    {\n"
		"      \"jobname\" : \"js\",\n"
		"      \"iops\" : 35759.120440,\n"
		"      \"N\" : 0\n"
		"    }\n"
		"  ]\n"
		"}\n");
	free(c.buf);
}
END_TEST

START_TEST(test_empty_string_dropped)
{
	struct cap c;
	struct json_writer w;

	cap_open(&c, &w);
	json_begin_object(&w, NULL);
	json_string(&w, "time_based", "");
	json_string(&w, "runtime", "1");
	json_string(&w, "thread", NULL);
	json_end_object(&w);
	ck_assert_int_eq(json_finish(&w), 0);
	ck_assert_str_eq(cap_close(&c), "{\n  \"runtime\" : \"1\"\n}\n");
	free(c.buf);
}
END_TEST

struct esc_case {
	const char *in, *want;
};

static const struct esc_case esc_cases[] = {
	{ "plain", "\"plain\"" },
	{ "a\"b", "\"a\\\"b\"" },
	{ "a\\b", "\"a\\\\b\"" },
	{ "tab\there", "\"tab\\there\"" },
	{ "nl\ncr\r", "\"nl\\ncr\\r\"" },
	{ "\b\f", "\"\\b\\f\"" },
	{ "\x01\x1f", "\"\\u0001\\u001f\"" },
	{ "\x7f", "\"\x7f\"" },
	{ "caf\xc3\xa9", "\"caf\xc3\xa9\"" },	/* UTF-8 passes through */
	{ "", "\"\"" },
	{ "\xff", "\"\\ufffd\"" },			/* not UTF-8 */
	{ "a\xc3", "\"a\\ufffd\"" },			/* truncated sequence */
	{ "\xc0\xaf", "\"\\ufffd\\ufffd\"" },		/* overlong */
	{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },	/* surrogate */
	{ "\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"" },	/* 4-byte sequence passes */
	{ "\xe2\x82\xac", "\"\xe2\x82\xac\"" },
};

START_TEST(test_escaping)
{
	char *buf = NULL;
	size_t len;
	FILE *fp = open_memstream(&buf, &len);

	json_write_escaped(fp, esc_cases[_i].in);
	fclose(fp);
	ck_assert_str_eq(buf, esc_cases[_i].want);
	free(buf);
}
END_TEST

START_TEST(test_keys_are_escaped_and_floats_finite)
{
	struct cap c;
	struct json_writer w;

	cap_open(&c, &w);
	json_begin_object(&w, NULL);
	json_float(&w, "nan", NAN);
	json_float(&w, "inf", INFINITY);
	json_float(&w, "neg", -1.5);
	json_int(&w, "k\"q", -7);
	json_uint(&w, "big", UINT64_MAX);
	json_end_object(&w);
	ck_assert_int_eq(json_finish(&w), 0);
	ck_assert_str_eq(cap_close(&c),
		"{\n  \"nan\" : 0.000000,\n  \"inf\" : 0.000000,\n  \"neg\" : -1.500000,\n"
		"  \"k\\\"q\" : -7,\n  \"big\" : 18446744073709551615\n}\n");
	free(c.buf);
}
END_TEST

START_TEST(test_nesting_and_arrays)
{
	struct cap c;
	struct json_writer w;

	cap_open(&c, &w);
	json_begin_object(&w, NULL);
	json_begin_array(&w, "a");
	json_end_array(&w);
	json_begin_array(&w, "b");
	json_begin_object(&w, NULL);
	json_begin_object(&w, "x");
	json_uint(&w, "y", 1);
	json_end_object(&w);
	json_end_object(&w);
	json_begin_object(&w, NULL);
	json_end_object(&w);
	json_end_array(&w);
	json_end_object(&w);
	ck_assert_int_eq(json_finish(&w), 0);
	ck_assert_str_eq(cap_close(&c),
		"{\n"
		"  \"a\" : [\n\n  ],\n"
		"  \"b\" : [\n"
		"    {\n"
		"      \"x\" : {\n"
		"        \"y\" : 1\n"
		"      }\n"
		"    },\n"
		"    {\n\n    }\n"
		"  ]\n"
		"}\n");
	free(c.buf);
}
END_TEST

START_TEST(test_misuse_is_reported)
{
	struct cap c;
	struct json_writer w;

	cap_open(&c, &w);
	json_begin_object(&w, NULL);
	json_end_array(&w);	/* wrong closer */
	ck_assert_int_lt(json_finish(&w), 0);
	cap_close(&c);
	free(c.buf);

	cap_open(&c, &w);
	json_begin_object(&w, NULL);	/* never closed */
	ck_assert_int_lt(json_finish(&w), 0);
	cap_close(&c);
	free(c.buf);

	cap_open(&c, &w);
	for (unsigned i = 0; i < JSON_MAX_DEPTH + 2; i++)
		json_begin_object(&w, i ? "d" : NULL);
	ck_assert_int_lt(json_finish(&w), 0);
	cap_close(&c);
	free(c.buf);
}
END_TEST

START_TEST(test_write_error)
{
	FILE *fp = unit_full_stream();
	struct json_writer w;

	ck_assert_ptr_nonnull(fp);
	json_init(&w, fp);
	json_begin_object(&w, NULL);
	json_string(&w, "k", "v");
	json_end_object(&w);
	ck_assert_int_lt(json_finish(&w), 0);
	fclose(fp);
}
END_TEST

Suite *json_suite(void)
{
	Suite *s = suite_create("json");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_layout_like_fio);
	tcase_add_test(tc, test_empty_string_dropped);
	tcase_add_loop_test(tc, test_escaping, 0, (int)(sizeof(esc_cases) / sizeof(esc_cases[0])));
	tcase_add_test(tc, test_keys_are_escaped_and_floats_finite);
	tcase_add_test(tc, test_nesting_and_arrays);
	tcase_add_test(tc, test_misuse_is_reported);
	tcase_add_test(tc, test_write_error);
	suite_add_tcase(s, tc);
	return s;
}
