/* SPDX-License-Identifier: MIT */
/* yaml: the quoting of every string (plain only when nothing else can be read from it,
 * escapes for what a reader would take for a line break or refuse), refused bytes, the block
 * calls' layout and the literal blocks of file contents. */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "k8s/yaml.h"

/* input, expected output of yaml_scalar (NULL: refused with -EILSEQ) */
static const char *const scalars[][2] = {
	{ "abc", "abc" }, { "/usr/bin/iops", "/usr/bin/iops" }, { "k8s-pod", "k8s-pod" },
	{ "a.b_c/d-e", "a.b_c/d-e" }, { "Filesystem", "Filesystem" },
	/* YAML 1.1 booleans and nulls, any case */
	{ "yes", "\"yes\"" }, { "No", "\"No\"" }, { "ON", "\"ON\"" }, { "off", "\"off\"" }, { "y", "\"y\"" },
	{ "N", "\"N\"" }, { "true", "\"true\"" }, { "False", "\"False\"" }, { "null", "\"null\"" },
	{ "NULL", "\"NULL\"" }, { "~", "\"~\"" }, { "", "\"\"" },
	/* numbers, dates, sexagesimals, special floats */
	{ "123", "\"123\"" }, { "1.5", "\"1.5\"" }, { "0x1F", "\"0x1F\"" }, { "0o17", "\"0o17\"" },
	{ "1e3", "\"1e3\"" }, { ".inf", "\".inf\"" }, { "-.inf", "\"-.inf\"" }, { ".NaN", "\".NaN\"" },
	{ "2001-12-14", "\"2001-12-14\"" }, { "1:20", "\"1:20\"" }, { "1_000", "\"1_000\"" }, { "500m", "\"500m\"" },
	/* indicators and syntax */
	{ "a: b", "\"a: b\"" }, { "a:b", "\"a:b\"" }, { "#x", "\"#x\"" }, { "a #x", "\"a #x\"" }, { "- x", "\"- x\"" },
	{ "--name=x", "\"--name=x\"" }, { "[a]", "\"[a]\"" }, { "{a}", "\"{a}\"" }, { "&a", "\"&a\"" }, { "*a", "\"*a\"" },
	{ "!tag", "\"!tag\"" }, { "|", "\"|\"" }, { ">", "\">\"" }, { "%x", "\"%x\"" }, { "@x", "\"@x\"" }, { "`x", "\"`x\"" },
	{ "<<", "\"<<\"" }, { "=", "\"=\"" }, { "a,b", "\"a,b\"" }, { "?", "\"?\"" }, { " a", "\" a\"" }, { "a ", "\"a \"" },
	{ "'q'", "\"'q'\"" }, { "---", "\"---\"" }, { "...", "\"...\"" }, { "-", "\"-\"" }, { ".x", "\".x\"" },
	/* escapes */
	{ "say \"hi\"", "\"say \\\"hi\\\"\"" }, { "a\\b", "\"a\\\\b\"" }, { "a\nb", "\"a\\nb\"" }, { "a\tb", "\"a\\tb\"" },
	{ "\r", "\"\\u000D\"" }, { "\x01", "\"\\u0001\"" }, { "\x1b[0m", "\"\\u001B[0m\"" }, { "\x7f", "\"\\u007F\"" },
	{ "\xc2\x85", "\"\\u0085\"" }, { "\xc2\x9f", "\"\\u009F\"" }, { "\xe2\x80\xa8", "\"\\u2028\"" },
	{ "\xe2\x80\xa9", "\"\\u2029\"" }, { "\xef\xbb\xbf", "\"\\uFEFF\"" },
	/* valid UTF-8 passes through (quoted: not ASCII) */
	{ "\xc3\xbc", "\"\xc3\xbc\"" }, { "\xe2\x98\x83", "\"\xe2\x98\x83\"" }, { "\xf0\x9f\x92\xbe", "\"\xf0\x9f\x92\xbe\"" },
	{ "\xc2\xa0", "\"\xc2\xa0\"" },
	/* not UTF-8: refused */
	{ "\xff", NULL }, { "a\x80", NULL }, { "\xc0\xaf", NULL }, { "\xe0\x80\xaf", NULL }, { "\xed\xa0\x80", NULL },
	{ "\xf4\x90\x80\x80", NULL }, { "\xe2\x82", NULL }, { "\xf8\x88\x80\x80\x80", NULL },
};

START_TEST(test_scalar)
{
	struct yaml y;

	yaml_init(&y);
	yaml_scalar(&y, scalars[_i][0]);
	if (scalars[_i][1]) {
		ck_assert_int_eq(yaml_error(&y), 0);
		ck_assert_str_eq(y.buf, scalars[_i][1]);
	} else {
		ck_assert_int_eq(yaml_error(&y), -EILSEQ);
	}
	yaml_release(&y);
}
END_TEST

START_TEST(test_utf8)
{
	ck_assert(yaml_utf8_ok("", 0));
	ck_assert(yaml_utf8_ok("a\xc3\xbc\xe2\x98\x83\xf4\x8f\xbf\xbf", 10));
	ck_assert(!yaml_utf8_ok("\xf4\x90\x80\x80", 4));
	ck_assert(!yaml_utf8_ok("\xc3", 1));
	ck_assert(!yaml_utf8_ok("\xc1\xbf", 2));
	ck_assert(!yaml_plain_ok(""));
	ck_assert(yaml_plain_ok("Ab9"));
}
END_TEST

START_TEST(test_layout)
{
	static const char want[] =
		"# top\n"
		"a: b\n"
		"num: -3\n"
		"t: true\n"
		"m:\n"
		"  l:\n"
		"    - x\n"
		"    - k: \"yes\"\n"
		"      j: 0\n"
		"    - deep:\n"
		"        - z\n"
		"---\n";
	struct yaml y;

	yaml_init(&y);
	yaml_comment(&y, "top");
	yaml_kv(&y, 0, "a", "b");
	yaml_kv_int(&y, 0, "num", -3);
	yaml_kv_bool(&y, 0, "t", true);
	yaml_key(&y, 0, "m");
	yaml_key(&y, 1, "l");
	yaml_item(&y, 2, "x");
	yaml_item_kv(&y, 2, "k", "yes");
	yaml_kv_int(&y, 3, "j", 0);
	yaml_item_key(&y, 2, "deep");
	yaml_item(&y, 4, "z");
	yaml_doc(&y);
	ck_assert_int_eq(yaml_error(&y), 0);
	ck_assert_str_eq(y.buf, want);
	ck_assert_uint_eq(y.len, strlen(want));
	yaml_release(&y);
}
END_TEST

START_TEST(test_errors_stick)
{
	struct yaml y;

	yaml_init(&y);
	yaml_comment(&y, "two\nlines");
	ck_assert_int_eq(yaml_error(&y), -EILSEQ);
	yaml_kv(&y, 0, "a", "b");	/* nothing more is written */
	ck_assert_ptr_null(y.buf);
	yaml_release(&y);
	yaml_init(&y);
	yaml_kv(&y, 0, "key\xff", "v");
	ck_assert_int_eq(yaml_error(&y), -EILSEQ);
	yaml_release(&y);
	yaml_init(&y);
	yaml_kv(&y, 40, "deep", "v");	/* more indentation than one chunk of spaces */
	ck_assert_uint_eq(strspn(y.buf, " "), 80);
	yaml_release(&y);
}
END_TEST

/* text, expected output of yaml_kv_text(depth 1, key "f") */
static const char *const texts[][2] = {
	{ "[j]\nrw=read\n", "  f: |\n    [j]\n    rw=read\n" },
	{ "[j]\n\nrw=read", "  f: |-\n    [j]\n\n    rw=read\n" },
	{ "  indented\nx\n", "  f: |2\n      indented\n    x\n" },
	{ "\n\n  after blank lines\n", "  f: |2\n\n\n      after blank lines\n" },
	{ "\tTab first\n", "  f: |\n    \tTab first\n" },
	{ "key: value # not a comment\n", "  f: |\n    key: value # not a comment\n" },
	{ "\xc3\xbc\n", "  f: |\n    \xc3\xbc\n" },
	/* what a literal block cannot hold exactly: double-quoted */
	{ "two\n\n", "  f: \"two\\n\\n\"\n" },
	{ "trailing \nx\n", "  f: \"trailing \\nx\\n\"\n" },
	{ "end blank ", "  f: \"end blank \"\n" },
	{ "crlf\r\n", "  f: \"crlf\\u000D\\n\"\n" },
	{ "nel\xc2\x85x\n", "  f: \"nel\\u0085x\\n\"\n" },
	{ "", "  f: \"\"\n" },
};

START_TEST(test_text)
{
	struct yaml y;

	yaml_init(&y);
	yaml_kv_text(&y, 1, "f", texts[_i][0]);
	ck_assert_int_eq(yaml_error(&y), 0);
	ck_assert_str_eq(y.buf, texts[_i][1]);
	yaml_release(&y);
	yaml_init(&y);
	yaml_kv_text(&y, 1, "f", "bad \xff\n");
	ck_assert_int_eq(yaml_error(&y), -EILSEQ);
	yaml_release(&y);
}
END_TEST

START_TEST(test_grows)
{
	static char big[70000];
	struct yaml y;

	memset(big, 'a', sizeof(big) - 1);
	yaml_init(&y);
	for (int i = 0; i < 4; i++)
		yaml_kv(&y, 0, "k", big);
	ck_assert_int_eq(yaml_error(&y), 0);
	ck_assert_uint_eq(y.len, 4 * (3 + sizeof(big) - 1 + 1));
	yaml_release(&y);
}
END_TEST

Suite *yaml_suite(void)
{
	Suite *s = suite_create("yaml");
	TCase *tc = tcase_create("k8s");

	tcase_add_loop_test(tc, test_scalar, 0, sizeof(scalars) / sizeof(scalars[0]));
	tcase_add_test(tc, test_utf8);
	tcase_add_test(tc, test_layout);
	tcase_add_test(tc, test_errors_stick);
	tcase_add_loop_test(tc, test_text, 0, sizeof(texts) / sizeof(texts[0]));
	tcase_add_test(tc, test_grows);
	suite_add_tcase(s, tc);
	return s;
}
