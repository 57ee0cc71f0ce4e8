/* SPDX-License-Identifier: MIT */
/* jsonr: valid documents, path lookups, and what must be refused (empty, garbage, deep
 * nesting, numbers out of range, bad escapes). */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonr.h"

static int parse(struct jsonr *j, const char *text)
{
	struct iops_err err = { 0 };

	return jsonr_parse(j, text, strlen(text), &err);
}

static const char *const bad_docs[] = {
	"", "   ", "garbage", "{", "}", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{1:2}", "[1 2]",
	"\"abc", "\"a\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00x\"", "\"tab\there\"",
	"01", "-", "1.", "1e", ".5", "+1", "1e999", "-1e999", "tru", "nul", "[1] x", "{} {}",
	"NaN", "Infinity", "[\"a\"\x01]",
};

START_TEST(test_bad)
{
	struct jsonr j;
	struct iops_err err = { 0 };
	const char *doc = bad_docs[_i];

	ck_assert_msg(jsonr_parse(&j, doc, strlen(doc), &err) == -EINVAL, "accepted '%s'", doc);
	ck_assert(iops_err_isset(&err));
	ck_assert_ptr_null(j.nodes);
	ck_assert_ptr_null(j.buf);
}
END_TEST

START_TEST(test_fio_like)
{
	static const char doc[] =
		"{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : [\n    {\n"
		"      \"jobname\" : \"a\\\"b\\\\c\\/d\\n\",\n"
		"      \"read\" : { \"iops\" : 4015.686274, \"io_bytes\" : 8388608,\n"
		"        \"clat_ns\" : { \"percentile\" : { \"99.000000\" : 14090240, \"99.900000\" : 1 } } },\n"
		"      \"flags\" : [true, false, null, -0, -12.5e-1, 1E+2]\n    },\n    {}\n  ]\n}\n";
	struct jsonr j;
	const struct jsonr_node *n;
	double v;

	ck_assert_int_eq(parse(&j, doc), 0);
	ck_assert_str_eq(jsonr_str(&j, NULL, "fio version"), "fio-3.33");
	ck_assert_str_eq(jsonr_str(&j, NULL, "jobs/0/jobname"), "a\"b\\c/d\n");
	ck_assert(jsonr_num(&j, NULL, "jobs/0/read/iops", &v));
	ck_assert(v > 4015.68 && v < 4015.69);
	n = jsonr_get(&j, NULL, "jobs/0/read/io_bytes");
	ck_assert(n && n->is_int && n->i64 == 8388608);
	ck_assert(jsonr_num(&j, NULL, "jobs/0/read/clat_ns/percentile/99.000000", &v));
	ck_assert(v == 14090240.0);
	ck_assert_uint_eq(jsonr_get(&j, NULL, "jobs")->count, 2);
	ck_assert_uint_eq(jsonr_get(&j, NULL, "jobs/1")->type, JSONR_OBJ);
	ck_assert_uint_eq(jsonr_get(&j, NULL, "jobs/1")->count, 0);
	ck_assert_ptr_null(jsonr_get(&j, NULL, "jobs/2"));
	ck_assert_ptr_null(jsonr_get(&j, NULL, "jobs/x"));
	ck_assert_ptr_null(jsonr_get(&j, NULL, "jobs/0/nope"));
	ck_assert_ptr_null(jsonr_str(&j, NULL, "jobs/0/read/iops"));	/* a number, not a string */
	ck_assert(!jsonr_num(&j, NULL, "jobs/0/jobname", &v));
	n = jsonr_get(&j, NULL, "jobs/0/flags");
	ck_assert_uint_eq(n->count, 6);
	ck_assert_uint_eq(jsonr_child(&j, n, 0)->type, JSONR_TRUE);
	ck_assert_uint_eq(jsonr_child(&j, n, 1)->type, JSONR_FALSE);
	ck_assert_uint_eq(jsonr_child(&j, n, 2)->type, JSONR_NULL);
	ck_assert(jsonr_num(&j, n, "4", &v) && v == -1.25);
	ck_assert(jsonr_num(&j, n, "5", &v) && v == 100.0);
	ck_assert(!jsonr_child(&j, n, 5)->is_int);
	ck_assert_ptr_null(jsonr_child(&j, n, 6));
	ck_assert_ptr_eq(jsonr_get(&j, n, ""), n);
	jsonr_free(&j);
}
END_TEST

START_TEST(test_scalars_and_numbers)
{
	struct jsonr j;
	const struct jsonr_node *n;

	ck_assert_int_eq(parse(&j, " 42 "), 0);
	ck_assert(j.nodes[0].is_int && j.nodes[0].i64 == 42);
	jsonr_free(&j);
	ck_assert_int_eq(parse(&j, "18446744073709551616"), 0);	/* 2^64: only as a double */
	ck_assert(!j.nodes[0].is_int);
	ck_assert(j.nodes[0].num == 18446744073709551616.0);
	jsonr_free(&j);
	ck_assert_int_eq(parse(&j, "-9223372036854775808"), 0);
	ck_assert(j.nodes[0].is_int && j.nodes[0].i64 == INT64_MIN);
	jsonr_free(&j);
	ck_assert_int_eq(parse(&j, "1e308"), 0);
	jsonr_free(&j);
	ck_assert_int_eq(parse(&j, "\"\""), 0);
	ck_assert_str_eq(j.nodes[0].str, "");
	jsonr_free(&j);
	/* \u escapes: 2-byte, 3-byte, a surrogate pair (4-byte UTF-8) */
	ck_assert_int_eq(parse(&j, "{\"k\\u00e9\":\"\\u00e9\\u20ac\\ud83d\\ude00\"}"), 0);
	n = jsonr_get(&j, NULL, "k\xc3\xa9");
	ck_assert_ptr_nonnull(n);
	ck_assert_str_eq(n->str, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	jsonr_free(&j);
}
END_TEST

static char *nested(unsigned depth)
{
	char *s = malloc(2 * depth + 1);

	memset(s, '[', depth);
	memset(s + depth, ']', depth);
	s[2 * depth] = '\0';
	return s;
}

START_TEST(test_depth)
{
	struct jsonr j;
	char *ok = nested(JSONR_MAX_DEPTH), *deep = nested(JSONR_MAX_DEPTH + 1), *huge = nested(100000);

	ck_assert_int_eq(parse(&j, ok), 0);
	ck_assert_uint_eq(j.nr, JSONR_MAX_DEPTH);
	jsonr_free(&j);
	ck_assert_int_eq(parse(&j, deep), -EINVAL);
	ck_assert_int_eq(parse(&j, huge), -EINVAL);	/* no stack overflow */
	free(ok);
	free(deep);
	free(huge);
}
END_TEST

START_TEST(test_many_nodes)
{
	size_t n = 100000, len = 0;
	char *s = malloc(n * 2 + 3);
	struct jsonr j;

	s[len++] = '[';
	for (size_t i = 0; i < n; i++) {
		s[len++] = '7';
		s[len++] = i + 1 < n ? ',' : ']';
	}
	ck_assert_int_eq(jsonr_parse(&j, s, len, &(struct iops_err){ 0 }), 0);
	ck_assert_uint_eq(j.nodes[0].count, n);
	ck_assert_ptr_nonnull(jsonr_get(&j, NULL, "99999"));
	ck_assert_ptr_null(jsonr_get(&j, NULL, "100000"));
	jsonr_free(&j);
	free(s);
}
END_TEST

Suite *jsonr_suite(void)
{
	Suite *s = suite_create("jsonr");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_bad, 0, (int)(sizeof(bad_docs) / sizeof(bad_docs[0])));
	tcase_add_test(tc, test_fio_like);
	tcase_add_test(tc, test_scalars_and_numbers);
	tcase_add_test(tc, test_depth);
	tcase_add_test(tc, test_many_nodes);
	suite_add_tcase(s, tc);
	return s;
}
