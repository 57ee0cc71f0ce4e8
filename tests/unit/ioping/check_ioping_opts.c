/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ioping/ioping_opts.h"

struct num_case {
	const char *arg;
	enum ioping_opts_kind kind;
	double max;
	double want;		/* when ok */
	const char *err;	/* expected message, NULL when ok */
};

#define IMAX	((double)INT_MAX)
#define LMAX	((double)LLONG_MAX)

static const struct num_case num_cases[] = {
	/* sizes: binary suffixes, case-insensitive */
	{ "4k", IOPING_OPTS_SIZE, LMAX, 4096, NULL },
	{ "4K", IOPING_OPTS_SIZE, LMAX, 4096, NULL },
	{ "1KiB", IOPING_OPTS_SIZE, LMAX, 1024, NULL },
	{ "1kb", IOPING_OPTS_SIZE, LMAX, 1024, NULL },
	{ "1m", IOPING_OPTS_SIZE, LMAX, 1048576, NULL },
	{ "2MiB", IOPING_OPTS_SIZE, LMAX, 2097152, NULL },
	{ "1g", IOPING_OPTS_SIZE, LMAX, 0x1p30, NULL },
	{ "1gb", IOPING_OPTS_SIZE, LMAX, 0x1p30, NULL },
	{ "1GiB", IOPING_OPTS_SIZE, LMAX, 0x1p30, NULL },
	{ "1t", IOPING_OPTS_SIZE, LMAX, 0x1p40, NULL },
	{ "1TiB", IOPING_OPTS_SIZE, LMAX, 0x1p40, NULL },
	{ "1pb", IOPING_OPTS_SIZE, LMAX, 0x1p50, NULL },
	{ "1PiB", IOPING_OPTS_SIZE, LMAX, 0x1p50, NULL },
	{ "1eb", IOPING_OPTS_SIZE, LMAX, 0x1p60, NULL },
	{ "8eb", IOPING_OPTS_SIZE, LMAX, 0x1p63, NULL },	/* == (double)LLONG_MAX */
	{ "9eb", IOPING_OPTS_SIZE, LMAX, 0, "integer overflow at parsing argument: 9eb" },
	{ "1sector", IOPING_OPTS_SIZE, LMAX, 512, NULL },
	{ "1Page", IOPING_OPTS_SIZE, LMAX, 4096, NULL },
	{ "1b", IOPING_OPTS_SIZE, LMAX, 1, NULL },
	{ "1.5k", IOPING_OPTS_SIZE, LMAX, 1536, NULL },
	{ "1000", IOPING_OPTS_SIZE, LMAX, 1000, NULL },
	{ "0", IOPING_OPTS_SIZE, LMAX, 0, NULL },
	{ "", IOPING_OPTS_SIZE, LMAX, 0, NULL },
	{ "0x10", IOPING_OPTS_SIZE, LMAX, 16, NULL },
	{ "2/1k", IOPING_OPTS_SIZE, LMAX, 2048, NULL },
	{ "1p", IOPING_OPTS_SIZE, LMAX, 0, "invalid suffix: \"p\"" },
	{ "1e", IOPING_OPTS_SIZE, LMAX, 0, "invalid suffix: \"e\"" },
	{ "1EiB", IOPING_OPTS_SIZE, LMAX, 0, "invalid suffix: \"EiB\"" },
	{ "4x", IOPING_OPTS_SIZE, LMAX, 0, "invalid suffix: \"x\"" },
	{ "abc", IOPING_OPTS_SIZE, LMAX, 0, "invalid suffix: \"abc\"" },
	{ "1k/2", IOPING_OPTS_SIZE, LMAX, 0, "invalid suffix: \"k/2\"" },
	{ "1/2/3", IOPING_OPTS_SIZE, LMAX, 0, "invalid suffix: \"/3\"" },
	{ "3 ", IOPING_OPTS_SIZE, LMAX, 0, "invalid suffix: \" \"" },
	{ "-4k", IOPING_OPTS_SIZE, LMAX, 0, "integer overflow at parsing argument: -4k" },
	{ "-1", IOPING_OPTS_SIZE, LMAX, 0, "integer overflow at parsing argument: -1" },
	{ "inf", IOPING_OPTS_SIZE, LMAX, 0, "integer overflow at parsing argument: inf" },
	{ "4/0", IOPING_OPTS_SIZE, LMAX, 0, "division by zero in parsing argument: 4/0" },
	{ "4/0k", IOPING_OPTS_SIZE, LMAX, 0, "division by zero in parsing argument: 4/0k" },
	{ "3/", IOPING_OPTS_SIZE, LMAX, 0, "division by zero in parsing argument: 3/" },
	/* overflow at every size suffix */
	{ "8193PiB", IOPING_OPTS_SIZE, LMAX, 0, "integer overflow at parsing argument: 8193PiB" },
	{ "8388609TiB", IOPING_OPTS_SIZE, LMAX, 0, "integer overflow at parsing argument: 8388609TiB" },
	{ "8589934593g", IOPING_OPTS_SIZE, LMAX, 0, "integer overflow at parsing argument: 8589934593g" },
	{ "8796093022209m", IOPING_OPTS_SIZE, LMAX, 0, "integer overflow at parsing argument: 8796093022209m" },
	{ "9007199254740994k", IOPING_OPTS_SIZE, LMAX, 0, "integer overflow at parsing argument: 9007199254740994k" },
	{ "18014398509481988sector", IOPING_OPTS_SIZE, LMAX, 0,
	  "integer overflow at parsing argument: 18014398509481988sector" },
	{ "1e19", IOPING_OPTS_SIZE, LMAX, 0, "integer overflow at parsing argument: 1e19" },
	/* times: default unit seconds, m = minutes */
	{ "1", IOPING_OPTS_TIME, LMAX, 1e9, NULL },
	{ "", IOPING_OPTS_TIME, LMAX, 0, NULL },
	{ "0.5", IOPING_OPTS_TIME, LMAX, 5e8, NULL },
	{ "1/100", IOPING_OPTS_TIME, LMAX, 1e7, NULL },
	{ "/3", IOPING_OPTS_TIME, LMAX, 0, NULL },
	{ "10ms", IOPING_OPTS_TIME, LMAX, 1e7, NULL },
	{ "10MSEC", IOPING_OPTS_TIME, LMAX, 1e7, NULL },
	{ "5us", IOPING_OPTS_TIME, LMAX, 5e3, NULL },
	{ "5usec", IOPING_OPTS_TIME, LMAX, 5e3, NULL },
	{ "7ns", IOPING_OPTS_TIME, LMAX, 7, NULL },
	{ "7nsec", IOPING_OPTS_TIME, LMAX, 7, NULL },
	{ "2s", IOPING_OPTS_TIME, LMAX, 2e9, NULL },
	{ "2sec", IOPING_OPTS_TIME, LMAX, 2e9, NULL },
	{ "1m", IOPING_OPTS_TIME, LMAX, 60e9, NULL },
	{ "1min", IOPING_OPTS_TIME, LMAX, 60e9, NULL },
	{ "1h", IOPING_OPTS_TIME, LMAX, 3600e9, NULL },
	{ "1HOUR", IOPING_OPTS_TIME, LMAX, 3600e9, NULL },
	{ "1d", IOPING_OPTS_TIME, LMAX, 0, "invalid suffix: \"d\"" },
	{ "1mins", IOPING_OPTS_TIME, LMAX, 0, "invalid suffix: \"mins\"" },
	{ "1y", IOPING_OPTS_TIME, LMAX, 0, "invalid suffix: \"y\"" },
	{ "-1ms", IOPING_OPTS_TIME, LMAX, 0, "integer overflow at parsing argument: -1ms" },
	{ "2562048hour", IOPING_OPTS_TIME, LMAX, 0, "integer overflow at parsing argument: 2562048hour" },
	{ "153722868min", IOPING_OPTS_TIME, LMAX, 0, "integer overflow at parsing argument: 153722868min" },
	{ "9223372037", IOPING_OPTS_TIME, LMAX, 0, "integer overflow at parsing argument: 9223372037" },
	{ "9223372036855ms", IOPING_OPTS_TIME, LMAX, 0, "integer overflow at parsing argument: 9223372036855ms" },
	{ "9223372036854778us", IOPING_OPTS_TIME, LMAX, 0,
	  "integer overflow at parsing argument: 9223372036854778us" },
	{ "1e19ns", IOPING_OPTS_TIME, LMAX, 0, "integer overflow at parsing argument: 1e19ns" },
	{ "1/0ms", IOPING_OPTS_TIME, LMAX, 0, "division by zero in parsing argument: 1/0ms" },
	/* counts: decimal suffixes */
	{ "5", IOPING_OPTS_COUNT, IMAX, 5, NULL },
	{ "1k", IOPING_OPTS_COUNT, IMAX, 1000, NULL },
	{ "1K", IOPING_OPTS_COUNT, IMAX, 1000, NULL },
	{ "1m", IOPING_OPTS_COUNT, IMAX, 1e6, NULL },
	{ "1G", IOPING_OPTS_COUNT, IMAX, 1e9, NULL },
	{ "1da", IOPING_OPTS_COUNT, IMAX, 10, NULL },
	{ "1DA", IOPING_OPTS_COUNT, IMAX, 10, NULL },
	{ "1e1", IOPING_OPTS_COUNT, IMAX, 10, NULL },
	{ "0x3", IOPING_OPTS_COUNT, IMAX, 3, NULL },
	{ " 3", IOPING_OPTS_COUNT, IMAX, 3, NULL },
	{ "2.9", IOPING_OPTS_COUNT, IMAX, 2.9, NULL },
	{ "7/2", IOPING_OPTS_COUNT, IMAX, 3.5, NULL },
	{ "2147483647", IOPING_OPTS_COUNT, IMAX, 2147483647, NULL },
	{ "2147483648", IOPING_OPTS_COUNT, IMAX, 0, "integer overflow at parsing argument: 2147483648" },
	{ "3G", IOPING_OPTS_COUNT, IMAX, 0, "integer overflow at parsing argument: 3G" },
	{ "1T", IOPING_OPTS_COUNT, IMAX, 0, "integer overflow at parsing argument: 1T" },
	{ "1P", IOPING_OPTS_COUNT, IMAX, 0, "integer overflow at parsing argument: 1P" },
	{ "1E", IOPING_OPTS_COUNT, IMAX, 0, "integer overflow at parsing argument: 1E" },
	{ "1e", IOPING_OPTS_COUNT, IMAX, 0, "integer overflow at parsing argument: 1e" },
	{ "2148M", IOPING_OPTS_COUNT, IMAX, 0, "integer overflow at parsing argument: 2148M" },
	{ "2147484k", IOPING_OPTS_COUNT, IMAX, 0, "integer overflow at parsing argument: 2147484k" },
	{ "214748365da", IOPING_OPTS_COUNT, IMAX, 0, "integer overflow at parsing argument: 214748365da" },
	{ "-1", IOPING_OPTS_COUNT, IMAX, 0, "integer overflow at parsing argument: -1" },
	{ "1x", IOPING_OPTS_COUNT, IMAX, 0, "invalid suffix: \"x\"" },
	{ "1h", IOPING_OPTS_COUNT, IMAX, 0, "invalid suffix: \"h\"" },
	{ "1.5e0.5", IOPING_OPTS_COUNT, IMAX, 0, "invalid suffix: \".5\"" },
	{ "1000000001", IOPING_OPTS_COUNT, 1e9, 0, "integer overflow at parsing argument: 1000000001" },
	{ "0.5", IOPING_OPTS_COUNT, 1e9, 0.5, NULL },
};

START_TEST(test_parse_number)
{
	const struct num_case *c = &num_cases[_i];
	struct iops_err err = { 0 };
	double v = -42;
	int ret = ioping_opts_parse_number(c->arg, c->kind, c->max, &v, &err);

	if (c->err) {
		ck_assert_msg(ret == -22, "'%s' should fail", c->arg);
		ck_assert_str_eq(err.msg, c->err);
		ck_assert_int_eq(err.code, 1);
		ck_assert(v == -42);	/* untouched on error */
	} else {
		ck_assert_msg(ret == 0, "'%s' failed: %s", c->arg, err.msg);
		ck_assert_msg(v == c->want, "'%s' gave %g, want %g", c->arg, v, c->want);
	}
}
END_TEST

START_TEST(test_parse_number_nan_passes)
{
	struct iops_err err = { 0 };
	double v = 0;

	/* NaN passes ioping's range check (comparisons are false) */
	ck_assert_int_eq(ioping_opts_parse_number("nan", IOPING_OPTS_COUNT, IMAX, &v, &err), 0);
	ck_assert(isnan(v));
}
END_TEST

/* Command lines: argv without argv[0]; up to 8 arguments. */
struct cli_case {
	const char *argv[9];
	int ret;			/* 0 or -22 */
	bool usage_after;
	const char *err;
	enum ioping_opts_action action;
};

static const struct cli_case cli_cases[] = {
	{ { "-c", "5", "/d" }, 0, false, NULL, IOPING_OPTS_RUN },
	{ { "/d", "-c", "5" }, 0, false, NULL, IOPING_OPTS_RUN },		/* permutation */
	{ { "-co", "2", "/d" }, 0, false, NULL, IOPING_OPTS_RUN },		/* -count */
	{ { "-c3", "/d" }, 0, false, NULL, IOPING_OPTS_RUN },
	{ { "--count=5", "/d" }, 0, false, NULL, IOPING_OPTS_RUN },
	{ { "-count=5", "/d" }, 0, false, NULL, IOPING_OPTS_RUN },
	{ { "-WWW", "/d" }, 0, false, NULL, IOPING_OPTS_RUN },
	{ { "-ba", "/d" }, 0, false, NULL, IOPING_OPTS_RUN },			/* -batch */
	{ { "-n", "/d" }, 0, false, NULL, IOPING_OPTS_RUN },			/* -nowait */
	{ { "-h", "-s", "4x" }, 0, false, NULL, IOPING_OPTS_HELP },
	{ { "-v" }, 0, false, NULL, IOPING_OPTS_VERSION },
	{ { "--v" }, 0, false, NULL, IOPING_OPTS_VERSION },
	{ { "-sz", "4k", "/d" }, -22, false, "invalid suffix: \"z\"", IOPING_OPTS_RUN },
	{ { "-E", "/d" }, -22, true, "unrecognized option '-E'", IOPING_OPTS_RUN },
	{ { "-U", "/d" }, -22, true, "unrecognized option '-U'", IOPING_OPTS_RUN },
	{ { "-Z", "/d" }, -22, true, "unrecognized option '-Z'", IOPING_OPTS_RUN },
	{ { "--bogus=5", "/d" }, -22, true, "unrecognized option '--bogus=5'", IOPING_OPTS_RUN },
	{ { "--y", "/d" }, -22, true, "unrecognized option '--y'", IOPING_OPTS_RUN },
	{ { "-kZ", "/d" }, -22, true, "invalid option -- 'Z'", IOPING_OPTS_RUN },
	{ { "-c" }, -22, true, "option requires an argument -- 'c'", IOPING_OPTS_RUN },
	{ { "--e" }, -22, true, "option '--entropy' requires an argument", IOPING_OPTS_RUN },
	{ { "-q=1", "/d" }, -22, true, "option '-quiet' doesn't allow an argument", IOPING_OPTS_RUN },
	{ { "--quiet=1", "/d" }, -22, true, "option '--quiet' doesn't allow an argument", IOPING_OPTS_RUN },
	{ { "-d", "/d" }, -22, true, "option '-d' is ambiguous; possibilities: '-direct' '-dsync'", IOPING_OPTS_RUN },
	{ { "-wo", "1", "/d" }, -22, true,
	  "option '-wo' is ambiguous; possibilities: '-work-size' '-work-offset' '-work-time'", IOPING_OPTS_RUN },
	{ { "--r", "/d" }, -22, true,
	  "option '--r' is ambiguous; possibilities: '--rapid' '--read-write' '--rate-limit'", IOPING_OPTS_RUN },
	{ { "-c", "1" }, -22, false, "no destination specified", IOPING_OPTS_RUN },
	{ { "/a", "/b" }, -22, false, "more than one destination specified", IOPING_OPTS_RUN },
	{ { "-c", "1", "--", "-x", "/b" }, -22, false, "more than one destination specified", IOPING_OPTS_RUN },
	{ { "-s", "4x", "/a", "/b" }, -22, false, "invalid suffix: \"x\"", IOPING_OPTS_RUN },
};

START_TEST(test_cli)
{
	const struct cli_case *c = &cli_cases[_i];
	char *argv[10] = { "ioping" };
	struct ioping_opts o;
	struct iops_err err = { 0 };
	enum ioping_opts_action action = IOPING_OPTS_RUN;
	bool usage_after = false;
	int argc = 1, ret;

	while (argc < 10 && c->argv[argc - 1]) {
		argv[argc] = (char *)c->argv[argc - 1];
		argc++;
	}
	ioping_opts_init(&o);
	ret = ioping_opts_parse(&o, argc, argv, false, &action, &usage_after, &err);
	ck_assert_msg(ret == c->ret, "case %d: ret %d (%s)", _i, ret, err.msg);
	if (c->ret) {
		ck_assert_str_eq(err.msg, c->err);
		ck_assert_int_eq(usage_after, c->usage_after);
	} else {
		ck_assert_int_eq(action, c->action);
	}
}
END_TEST

static int parse_line(struct ioping_opts *o, int argc, const char **args)
{
	struct iops_err err = { 0 };
	enum ioping_opts_action action = IOPING_OPTS_RUN;
	bool usage_after = false;

	ioping_opts_init(o);
	return ioping_opts_parse(o, argc, (char **)args, false, &action, &usage_after, &err);
}

START_TEST(test_cli_values)
{
	struct ioping_opts o;
	const char *a1[] = { "ioping", "-co", "2", "-ba", "-WWW", "-I%T", "-e", "0x2a", "/d", NULL };
	const char *a2[] = { "ioping", "-R", "-i", "1", "/d", NULL };
	const char *a3[] = { "ioping", "-i", "1", "-R", "/d", NULL };
	const char *a4[] = { "ioping", "-J", "-I%s", "/d", NULL };
	const char *a5[] = { "ioping", "-I%s", "-J", "-c", "nan", "/d", NULL };
	const char *a6[] = { "ioping", "-e", "junk", "-GG", "-L", "-time", "/d", NULL };

	ck_assert_int_eq(parse_line(&o, 9, a1), 0);
	ck_assert(o.count == 2 && o.batch && o.quiet && o.nr_write == 3 && o.time_prefix);
	ck_assert_str_eq(o.time_fmt, "%T");
	ck_assert_uint_eq(o.seed, 42);
	ck_assert_str_eq(o.path, "/d");

	ck_assert_int_eq(parse_line(&o, 5, a2), 0);
	ck_assert(o.interval_ns == 1000000000 && o.work_time_ns == 3000000000ll && o.quiet);
	ck_assert(o.temp_wsize == 64 << 20);
	ck_assert_int_eq(parse_line(&o, 5, a3), 0);
	ck_assert(o.interval_ns == 1000000000);

	ck_assert_int_eq(parse_line(&o, 4, a4), 0);
	ck_assert_str_eq(o.time_fmt, "%s");
	ck_assert_int_eq(parse_line(&o, 6, a5), 0);
	ck_assert_str_eq(o.time_fmt, "%FT%T%z");
	ck_assert(o.count == INT64_MIN);	/* NaN converts like ioping's: stops at once */

	ck_assert_int_eq(parse_line(&o, 7, a6), 0);
	ck_assert(o.seed == 0 && o.nr_write == 2 && o.pingpong && o.linear && o.time_prefix);
	ck_assert_str_eq(o.time_fmt, "%b %d %T");
}
END_TEST

START_TEST(test_finish)
{
	struct ioping_opts o;
	struct iops_err err = { 0 };

	ioping_opts_init(&o);
	ck_assert_int_eq(ioping_opts_finish(&o, &err), 0);
	ck_assert(o.size == 4096 && o.interval_ns == 1000000000);

	ioping_opts_init(&o);
	o.linear = true;
	ck_assert_int_eq(ioping_opts_finish(&o, &err), 0);
	ck_assert(o.size == 256 << 10);

	ioping_opts_init(&o);
	o.size = INT64_MIN;	/* -s nan */
	ck_assert_int_eq(ioping_opts_finish(&o, &err), -22);
	ck_assert_str_eq(err.msg, "request size must be greater than zero");

	ioping_opts_init(&o);	/* -l 400k: 4 KiB every 10 ms */
	o.interval_ns = 0;
	o.speed_limit = 400 << 10;
	ck_assert_int_eq(ioping_opts_finish(&o, &err), 0);
	ck_assert(o.interval_ns == 10000000);

	ioping_opts_init(&o);	/* -r 0.5: one request every 2 s, above the 1 s default */
	o.rate_limit = 0.5;
	ck_assert_int_eq(ioping_opts_finish(&o, &err), 0);
	ck_assert(o.interval_ns == 2000000000);

	ioping_opts_init(&o);	/* -r 100 does not shorten a longer interval */
	o.rate_limit = 100;
	ck_assert_int_eq(ioping_opts_finish(&o, &err), 0);
	ck_assert(o.interval_ns == 1000000000);
}
END_TEST

Suite *ioping_opts_suite(void)
{
	Suite *s = suite_create("ioping_opts");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_parse_number, 0, sizeof(num_cases) / sizeof(num_cases[0]));
	tcase_add_test(tc, test_parse_number_nan_passes);
	tcase_add_loop_test(tc, test_cli, 0, sizeof(cli_cases) / sizeof(cli_cases[0]));
	tcase_add_test(tc, test_cli_values);
	tcase_add_test(tc, test_finish);
	suite_add_tcase(s, tc);
	return s;
}
