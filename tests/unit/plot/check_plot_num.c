/* SPDX-License-Identifier: MIT */
/* plot_num: exact raw numbers (they read back as the same double), human numbers with fio's
 * scaling, the axis scale of each unit family, tick labels. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot_num.h"

static const struct {
	double v;
	const char *want;
} raws[] = {
	{ 0, "0" }, { 4358144, "4358144" }, { -12, "-12" }, { 32851.074463, "32851.074463" }, { 0.1, "0.1" },
	{ 2.5, "2.5" }, { -0.000125, "-0.000125" }, { 1e-7, "1e-07" }, { 1e300, "1e+300" },
	{ 9007199254740991.0, "9007199254740991" }, { 18446744073709551616.0, "1.8446744073709552e+19" },
	{ 1.0 / 3, "0.3333333333333333" },
};

START_TEST(test_raw)
{
	char buf[PLOT_NUM_LEN];

	ck_assert_str_eq(plot_num_raw(buf, sizeof(buf), raws[_i].v), raws[_i].want);
	ck_assert(strtod(buf, NULL) == raws[_i].v);
}
END_TEST

START_TEST(test_raw_special)
{
	char buf[PLOT_NUM_LEN];

	ck_assert_str_eq(plot_num_raw(buf, sizeof(buf), NAN), "nan");
	ck_assert_str_eq(plot_num_raw(buf, sizeof(buf), INFINITY), "inf");
	ck_assert_str_eq(plot_num_raw(buf, sizeof(buf), -INFINITY), "-inf");
}
END_TEST

/* Any double reads back exactly: a deterministic walk over magnitudes and fractions. */
START_TEST(test_raw_roundtrip)
{
	char buf[PLOT_NUM_LEN];
	unsigned long long x = 88172645463325252ull;

	for (int i = 0; i < 20000; i++) {
		double v;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = (double)(x >> 11) / 9007199254740992.0 * pow(10, (int)(x % 40) - 20);
		plot_num_raw(buf, sizeof(buf), v);
		ck_assert_msg(strtod(buf, NULL) == v, "%.17g printed as %s", v, buf);
	}
}
END_TEST

static const struct {
	double v;
	const struct plot_unit *u;
	const char *want;
} humans[] = {
	{ 999, &plot_u_ns, "999 nsec" }, { 4358144, &plot_u_ns, "4358 usec" }, { 33816576, &plot_u_ns, "33.82 msec" },
	{ 2316, &plot_u_us, "2316 usec" }, { 0.844, &plot_u_us, "844 nsec" }, { 3e12, &plot_u_ns, "3000 sec" },
	{ 131404, &plot_u_kibs, "128MiB/s" }, { 50239361, &plot_u_bytes_s, "47.9MiB/s" }, { 0, &plot_u_bytes_s, "0B/s" },
	{ 32851.074463, &plot_u_iops, "32.9k IOPS" }, { 7674, &plot_u_iops, "7674 IOPS" }, { 0.5, &plot_u_iops, "0.5 IOPS" },
	{ 5617123, &plot_u_iops, "5617k IOPS" }, { 99.5, &plot_u_pct, "99.5%" }, { 2500, &plot_u_elapsed_ms, "2.5 s" },
	{ 750, &plot_u_elapsed_ms, "750 ms" }, { 1019, &plot_u_mibs, "1019MiB/s" }, { 0.047, &plot_u_ms_lat, "47 usec" },
	{ 285316, &plot_u_files_s, "285k files/s" },
};

START_TEST(test_human)
{
	char buf[PLOT_NUM_LEN];

	ck_assert_str_eq(plot_num_human(buf, sizeof(buf), humans[_i].v, humans[_i].u), humans[_i].want);
}
END_TEST

static const struct {
	double max;
	const struct plot_unit *u;
	double div;
	const char *name;
} scales[] = {
	{ 9999, &plot_u_ns, 1, "nsec" }, { 10000, &plot_u_ns, 1000, "usec" }, { 99999, &plot_u_ns, 1000, "usec" },
	{ 5e7, &plot_u_ns, 1e6, "msec" }, { 2e13, &plot_u_ns, 1e9, "sec" }, { 2316, &plot_u_us, 1, "usec" },
	{ 5, &plot_u_us, 0.001, "nsec" }, { 0.047, &plot_u_ms_lat, 0.001, "usec" },
	{ 131404, &plot_u_kibs, 1024, "MiB/s" }, { 9000, &plot_u_bytes_s, 1, "B/s" },
	{ 134557696, &plot_u_bytes_s, 1048576, "MiB/s" }, { 1.2e10, &plot_u_bytes_s, 1073741824, "GiB/s" },
	{ 32851, &plot_u_iops, 1000, "x1000" }, { 500, &plot_u_iops, 1, "IOPS" }, { 5.6e6, &plot_u_iops, 1000, "x1000" },
	{ 5.6e7, &plot_u_iops, 1e6, "x1e6" }, { 1500, &plot_u_elapsed_ms, 1, "msec" },
	{ 600000, &plot_u_elapsed_ms, 1000, "sec" }, { 8e6, &plot_u_elapsed_ms, 60000, "min" },
	{ 99.99, &plot_u_pct, 1, "%" }, { 0, &plot_u_ns, 1, "nsec" }, { -20000, &plot_u_ns, 1000, "usec" },
};

START_TEST(test_scale)
{
	double div;
	const char *name;

	plot_num_scale(scales[_i].u, scales[_i].max, &div, &name);
	ck_assert_msg(fabs(div - scales[_i].div) <= 1e-12 * scales[_i].div, "%g: div %g, want %g", scales[_i].max,
		      div, scales[_i].div);
	ck_assert_str_eq(name, scales[_i].name);
}
END_TEST

static const struct {
	double v, step;
	const char *want;
} ticks[] = {
	{ 1.75, 0.25, "1.75" }, { 0.3, 0.1, "0.3" }, { 0.30000000000000004, 0.1, "0.3" }, { -0.0, 5, "0" },
	{ 1e-12, 0.1, "0.0" }, { 1500, 500, "1500" }, { 0.002, 0.002, "0.002" }, { 20, 0, "20" }, { 3.5, 0.5, "3.5" },
};

START_TEST(test_tick)
{
	char buf[PLOT_NUM_LEN];

	ck_assert_str_eq(plot_num_tick(buf, sizeof(buf), ticks[_i].v, ticks[_i].step), ticks[_i].want);
}
END_TEST

Suite *plot_num_suite(void)
{
	Suite *s = suite_create("plot_num");
	TCase *t = tcase_create("core");

	tcase_add_loop_test(t, test_raw, 0, sizeof(raws) / sizeof(raws[0]));
	tcase_add_test(t, test_raw_special);
	tcase_add_test(t, test_raw_roundtrip);
	tcase_add_loop_test(t, test_human, 0, sizeof(humans) / sizeof(humans[0]));
	tcase_add_loop_test(t, test_scale, 0, sizeof(scales) / sizeof(scales[0]));
	tcase_add_loop_test(t, test_tick, 0, sizeof(ticks) / sizeof(ticks[0]));
	suite_add_tcase(s, t);
	return s;
}
