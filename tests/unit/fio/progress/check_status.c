/* SPDX-License-Identifier: MIT */
/* status: --status-interval parsing, fio 3.33's accepted forms and its two messages. */
#include <check.h>
#include <errno.h>

#include "fio/progress/status.h"

static const struct {
	const char *in;
	int ret;
	uint64_t ns;
} cases[] = {
	{ "1", 0, 1000000000ull },
	{ "1s", 0, 1000000000ull },
	{ "1S", 0, 1000000000ull },
	{ "1 s", 0, 1000000000ull },
	{ " 1", 0, 1000000000ull },
	{ "+1", 0, 1000000000ull },
	{ "1.5", 0, 1500000000ull },
	{ "0.25", 0, 250000000ull },
	{ "500ms", 0, 500000000ull },
	{ "1ms", 0, 1000000ull },
	{ "1000us", 0, 1000000ull },
	{ "1500us", 0, 1000000ull },	/* millisecond resolution */
	{ "2m", 0, 120000000000ull },
	{ "1h", 0, 3600000000000ull },
	{ "1d", 0, 86400000000000ull },
	{ "5000abc", 0, 5000000ull },	/* unknown suffix: the number is microseconds */
	{ "0", -ERANGE, 0 },
	{ "999us", -ERANGE, 0 },
	{ "0.5ms", -ERANGE, 0 },
	{ "-1", -ERANGE, 0 },
	{ "1abc", -ERANGE, 0 },
	{ "2x", -ERANGE, 0 },
	{ "1e3", -ERANGE, 0 },
	{ "0x10", -ERANGE, 0 },
	{ "", -EINVAL, 0 },
	{ "abc", -EINVAL, 0 },
	{ "s", -EINVAL, 0 },
	{ "-", -EINVAL, 0 },
	{ "99999999999999999999", -EINVAL, 0 },
	{ "18446744073709551615", -EINVAL, 0 },
	{ "213503982d", -EINVAL, 0 },	/* overflows nanoseconds */
};

START_TEST(test_parse_interval)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t ns = 42;
		int ret = status_parse_interval(cases[i].in, &ns);

		ck_assert_msg(ret == cases[i].ret, "'%s': ret %d, want %d", cases[i].in, ret, cases[i].ret);
		if (!ret)
			ck_assert_msg(ns == cases[i].ns, "'%s': %llu ns", cases[i].in, (unsigned long long)ns);
		else
			ck_assert_uint_eq(ns, 42);	/* untouched on error */
	}
}
END_TEST

Suite *status_suite(void)
{
	Suite *s = suite_create("status");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse_interval);
	suite_add_tcase(s, tc);
	return s;
}
