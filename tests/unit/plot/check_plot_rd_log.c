/* SPDX-License-Identifier: MIT */
/* plot_rd_log: fio's and iops' logs (windowed, per I/O, log_offset, log_prio's hexadecimal
 * priority), names to kinds and labels, epoch times, the windows' spacing, and the lines
 * refused (with their line number). */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot_rd_log.h"
#include "plot_fixture.h"

static const struct {
	const char *path;
	enum plot_log_kind kind;
	const char *label;
} names[] = {
	{ "avg_bw.1.log", PLOT_LOG_BW, "avg.1" }, { "dir/x_clat.12.log", PLOT_LOG_CLAT, "x.12" },
	{ "x_lat.log", PLOT_LOG_LAT, "x" }, { "job_with_under_iops.3.log", PLOT_LOG_IOPS, "job_with_under.3" },
	{ "a/b/fr_slat.1.log", PLOT_LOG_SLAT, "fr.1" }, { "a_bw.log.gz", PLOT_LOG_VALUE, "a_bw.log.gz" },
	{ "foo.log", PLOT_LOG_VALUE, "foo.log" }, { "x_hist.1.log", PLOT_LOG_VALUE, "x_hist.1.log" },
	{ "x_bw.a.log", PLOT_LOG_VALUE, "x_bw.a.log" }, { "bw.1.log", PLOT_LOG_VALUE, "bw.1.log" },
	{ ".log", PLOT_LOG_VALUE, ".log" }, { "", PLOT_LOG_VALUE, "" }, { "x_iops.1.log/", PLOT_LOG_VALUE, "" },
};

START_TEST(test_names)
{
	enum plot_log_kind k;
	char label[256];

	plot_rd_log_name(names[_i].path, &k, label, sizeof(label));
	ck_assert_msg(k == names[_i].kind, "%s: kind %d", names[_i].path, k);
	ck_assert_str_eq(label, names[_i].label);
}
END_TEST

static void load(struct plot_log *l, const char *name)
{
	struct iops_err err = { 0 };
	size_t len;
	char *text = plot_fixture(name, &len);

	ck_assert(plot_rd_log_is(text, len) || !len);
	ck_assert_msg(plot_rd_log(l, name, text, len, &err) == 0, "%s: %s", name, err.msg);
	free(text);
}

/* fio 3.33's windowed bw log of a randrw job: 100 ms windows, both directions */
START_TEST(test_fio_windowed)
{
	struct plot_log l;

	load(&l, "fw_bw.1.log");
	ck_assert_int_eq(l.kind, PLOT_LOG_BW);
	ck_assert_str_eq(l.label, "fw.1");
	ck_assert_uint_eq(l.cols, 5);
	ck_assert(!l.per_io && !l.epoch);
	ck_assert_uint_eq(l.dir[0].n, 9);
	ck_assert_uint_eq(l.dir[1].n, 9);
	ck_assert(l.dir[0].t[0] == 144 && l.dir[0].v[0] == 25055);
	ck_assert(l.dir[1].t[8] == 947 && l.dir[1].v[8] == 18880);
	ck_assert_msg(fabs(l.window_ms - 100) < 1.5, "window %g", l.window_ms);
	plot_rd_log_free(&l);
}
END_TEST

/* iops' windowed logs of the same job */
START_TEST(test_iops_windowed)
{
	static const char *const files[] = { "iw_bw.1.log", "iw_clat.1.log", "iw_lat.1.log", "fw_iops.1.log",
					      "fw_clat.1.log", "fw_lat.1.log" };
	static const enum plot_log_kind kinds[] = { PLOT_LOG_BW, PLOT_LOG_CLAT, PLOT_LOG_LAT, PLOT_LOG_IOPS,
						    PLOT_LOG_CLAT, PLOT_LOG_LAT };

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct plot_log l;

		load(&l, files[i]);
		ck_assert_int_eq(l.kind, kinds[i]);
		ck_assert(!l.per_io && l.cols == 5 && l.dir[0].n > 5 && l.dir[1].n > 5);
		ck_assert_msg(fabs(l.window_ms - 100) < 1.5, "%s: window %g", files[i], l.window_ms);
		plot_rd_log_free(&l);
	}
}
END_TEST

/* Per I/O with log_offset and log_prio: six columns, the priority in hexadecimal. */
START_TEST(test_per_io)
{
	static const char *const files[] = { "fo_bw.1.log", "io_clat.1.log" };

	for (size_t i = 0; i < 2; i++) {
		struct plot_log l;

		load(&l, files[i]);
		ck_assert_uint_eq(l.cols, 6);
		ck_assert(l.per_io && l.window_ms == 0);
		ck_assert_uint_eq(l.dir[0].n + l.dir[1].n, 64);
		plot_rd_log_free(&l);
	}
	{
		struct plot_log l;

		load(&l, "fo_bw.1.log");
		ck_assert(l.dir[0].t[0] == 9 && l.dir[0].v[0] == 1264 && l.dir[0].t[1] == 10 && l.dir[0].v[1] == 15324);
		plot_rd_log_free(&l);
	}
}
END_TEST

/* fio's empty slat log of a sync engine is an empty log; an empty file named otherwise is not. */
START_TEST(test_empty)
{
	struct plot_log l;
	struct iops_err err = { 0 };

	load(&l, "fw_slat.1.log");
	ck_assert_int_eq(l.kind, PLOT_LOG_SLAT);
	ck_assert_uint_eq(l.dir[0].n + l.dir[1].n, 0);
	plot_rd_log_free(&l);
	ck_assert_int_eq(plot_rd_log(&l, "notes.txt", "", 0, &err), -EINVAL);
	ck_assert(strstr(err.msg, "notes.txt: empty") != NULL);
}
END_TEST

static const char *const bad_logs[] = {
	"1, 2\n", "1, 2, 9, 4096, 0\n", "a, b, c, d\n", "1, 2, 0, 4096, 5, 6, 7\n", "1,,0,4096,0\n",
	"1, 2, 0, 4096, 0x\n", "99999999999999999999, 1, 0, 0, 0\n", "1, 2, 0, 0, 0\n3, 4, 0, 0\n",
	"\x7f" "ELF\x02\x01", "1, 2, 0, 0, 0\ngarbage\n", "1; 2; 0; 0; 0\n", "-1, 2, 0, 0, 0\n", "1, 2, 0, 0, 0 x\n",
	"1.5, 2, 0, 0, 0\n", "1, 2, 0, 0, 0,\n",
};

START_TEST(test_bad)
{
	struct plot_log l;
	struct iops_err err = { 0 };
	const char *t = bad_logs[_i];

	ck_assert_msg(plot_rd_log(&l, "x_bw.1.log", t, strlen(t), &err) == -EINVAL, "accepted '%s'", t);
	ck_assert_msg(strstr(err.msg, "x_bw.1.log:") == err.msg && strstr(err.msg, "not a fio log line"), "%s", err.msg);
	ck_assert(l.dir[0].t == NULL && l.dir[0].n == 0);
}
END_TEST

START_TEST(test_bad_line_number)
{
	struct plot_log l;
	struct iops_err err = { 0 };
	const char *t = "1, 2, 0, 0, 0\n2, 3, 1, 0, 0\n3, 4, oops, 0, 0\n";

	ck_assert_int_eq(plot_rd_log(&l, "x_bw.1.log", t, strlen(t), &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "x_bw.1.log:3: ") == err.msg, "%s", err.msg);
}
END_TEST

START_TEST(test_epoch_crlf)
{
	const char *t = "1796116597000, 100, 0, 0, 0\r\n1796116597100, 200, 0, 0, 0\r\n\r\n1796116597200, 300, 0, 0, 0\n\n";
	struct plot_log l;
	struct iops_err err = { 0 };

	ck_assert_int_eq(plot_rd_log(&l, "e_iops.log", t, strlen(t), &err), 0);
	ck_assert(l.epoch && l.t0_ms == 1796116597000.0);
	ck_assert_uint_eq(l.dir[0].n, 3);
	ck_assert(l.dir[0].t[0] == 0 && l.dir[0].t[2] == 200 && l.dir[0].v[2] == 300);
	ck_assert(l.window_ms == 100);
	plot_rd_log_free(&l);
}
END_TEST

START_TEST(test_four_columns_sync)
{
	const char *t = "500, 7, 3, 0\n1000, 9, 3, 0\n";	/* older fio: no prio; ddir 3: sync */
	struct plot_log l;
	struct iops_err err = { 0 };

	ck_assert_int_eq(plot_rd_log(&l, "s_lat.1.log", t, strlen(t), &err), 0);
	ck_assert(l.cols == 4 && l.dir[3].n == 2 && l.window_ms == 500);
	plot_rd_log_free(&l);
}
END_TEST

START_TEST(test_is)
{
	ck_assert(plot_rd_log_is("1, 2, 0, 0, 0\n", 14));
	ck_assert(plot_rd_log_is("1, 2, 0, 4096, 8192, 0x0001", 27));
	ck_assert(!plot_rd_log_is("{\n", 2));
	ck_assert(!plot_rd_log_is("Configuration:\n", 15));
	ck_assert(!plot_rd_log_is("", 0));
	ck_assert(!plot_rd_log_is("1, 2, 0\n", 8));
}
END_TEST

Suite *plot_rd_log_suite(void)
{
	Suite *s = suite_create("plot_rd_log");
	TCase *t = tcase_create("core");

	tcase_add_loop_test(t, test_names, 0, sizeof(names) / sizeof(names[0]));
	tcase_add_test(t, test_fio_windowed);
	tcase_add_test(t, test_iops_windowed);
	tcase_add_test(t, test_per_io);
	tcase_add_test(t, test_empty);
	tcase_add_loop_test(t, test_bad, 0, sizeof(bad_logs) / sizeof(bad_logs[0]));
	tcase_add_test(t, test_bad_line_number);
	tcase_add_test(t, test_epoch_crlf);
	tcase_add_test(t, test_four_columns_sync);
	tcase_add_test(t, test_is);
	suite_add_tcase(s, t);
	return s;
}
