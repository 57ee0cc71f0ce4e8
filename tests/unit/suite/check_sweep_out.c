/* SPDX-License-Identifier: MIT */
/* sweep_out: a step's numbers from fio JSON (one direction, both, none), and the CSV / JSON
 * documents (header, one row per step). */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite/sweep_out.h"

static const char mixed[] =
	"{\"global options\":{\"size\":\"16m\"},\"jobs\":[{\"error\":0,\"job options\":{\"ioengine\":\"psync\",\"iodepth\":\"8\"},"
	"\"read\":{\"iops\":100.5,\"bw_bytes\":411648,\"io_bytes\":4096,\"total_ios\":3,"
	"\"iops_samples\":10,\"iops_mean\":100,\"iops_stddev\":3,\"bw_samples\":10,\"bw_mean\":400,\"bw_dev\":12,"
	"\"lat_ns\":{\"mean\":1000.0,\"stddev\":100.0},\"clat_ns\":{\"percentile\":{\"50.000000\":900,\"99.000000\":5000,"
	"\"99.900000\":6000}}},"
	"\"write\":{\"iops\":50,\"bw_bytes\":204800,\"io_bytes\":8192,\"total_ios\":1,"
	"\"iops_samples\":8,\"iops_mean\":50,\"iops_stddev\":4,\"bw_samples\":8,\"bw_mean\":200,\"bw_dev\":16,"
	"\"lat_ns\":{\"mean\":5000.0},\"clat_ns\":{\"percentile\":{\"50.000000\":800,\"99.000000\":9000}}}}]}";

static char *capture(void (*fn)(FILE *, const struct sweep_row *, unsigned), const struct sweep_row *rows,
		     unsigned n)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	fn(f, rows, n);
	fclose(f);
	return text;
}

START_TEST(test_row_from_json)
{
	struct sweep_row r = { .rw = "randrw", .bs = "4k", .sample = 1 };
	struct iops_err err = { 0 };
	struct jsonr j;

	ck_assert_int_eq(jsonr_parse(&j, mixed, strlen(mixed), &err), 0);
	ck_assert_int_eq(sweep_row_from_json(&r, &j), 0);
	ck_assert(r.iops == 150.5);
	ck_assert(r.bw_bytes == 616448);
	ck_assert(r.io_bytes == 12288);
	ck_assert(r.lat_mean_ns == 2000.0);	/* (3 x 1000 + 1 x 5000) / 4 */
	ck_assert(r.clat_p99_ns == 9000.0);	/* the larger direction's */
	ck_assert(r.clat_p50_ns == 900.0);
	ck_assert(r.clat_p999_ns == 6000.0);
	ck_assert_uint_eq(r.total_ios, 4);
	/* pooled: S = 2 x 100^2 (read) + 0 (write) + 4000^2 x 3 x 1 / 4, over N - 1 = 3 */
	ck_assert_double_eq_tol(r.lat_stddev_ns, sqrt((2 * 1e4 + 16e6 * 0.75) / 3), 1e-9);
	ck_assert(r.iops_samples == 8 && r.iops_mean == 150 && r.iops_stddev == 5);	/* fewer; added */
	ck_assert(r.bw_samples == 8 && r.bw_mean == 600 && r.bw_dev == 20);
	ck_assert_str_eq(r.wl[0], "psync");	/* job options */
	ck_assert_str_eq(r.wl[1], "8");
	ck_assert_str_eq(r.wl[2], "");		/* not given */
	ck_assert_str_eq(r.wl[3], "16m");	/* global options */
	jsonr_free(&j);
	ck_assert_int_eq(jsonr_parse(&j, "{\"jobs\":[]}", 11, &err), 0);
	ck_assert_int_eq(sweep_row_from_json(&r, &j), -EINVAL);
	jsonr_free(&j);
	ck_assert_int_eq(jsonr_parse(&j, "[1]", 3, &err), 0);
	ck_assert_int_eq(sweep_row_from_json(&r, &j), -EINVAL);
	jsonr_free(&j);
}
END_TEST

START_TEST(test_documents)
{
	struct sweep_row rows[2] = {
		{ .rw = "read", .bs = "8k", .sample = 1, .iops = 10, .bw_bytes = 81920, .lat_mean_ns = 1500,
		  .clat_p99_ns = 2000, .io_bytes = 8192 },
		{ .rw = "read", .bs = "8k", .sample = 2, .stopped = true },
	};
	char *csv = capture(sweep_csv, rows, 2), *table = capture(sweep_table, rows, 0);
	char *json = NULL;
	size_t len = 0;
	FILE *f;
	struct jsonr j;
	struct iops_err err = { 0 };
	double v;

	ck_assert_str_eq(csv, "rw,bs,sample,iops,bw_bytes,lat_mean_us,clat_p99_us,io_bytes,error,stopped\n"
			 "read,8k,1,10.000,81920,1.500,2.000,8192,0,0\n"
			 "read,8k,2,0.000,0,0.000,0.000,0,0,1\n");
	ck_assert_str_eq(strchr(table, '\n'), "\n");	/* no step: the header line alone */
	ck_assert(!strncmp(table, "rw ", 3));
	f = open_memstream(&json, &len);
	ck_assert_int_eq(sweep_json(f, rows, 2), 0);
	fclose(f);
	ck_assert_int_eq(jsonr_parse(&j, json, len, &err), 0);	/* our reader reads our writer */
	ck_assert_uint_eq(jsonr_get(&j, NULL, "steps")->count, 2);
	ck_assert(jsonr_num(&j, NULL, "steps/0/lat_mean_us", &v) && v == 1.5);
	ck_assert(jsonr_num(&j, NULL, "steps/1/stopped", &v) && v == 1);
	jsonr_free(&j);
	free(csv);
	free(table);
	free(json);
}
END_TEST

Suite *sweep_out_suite(void)
{
	Suite *s = suite_create("sweep_out");
	TCase *tc = tcase_create("suite");

	tcase_add_test(tc, test_row_from_json);
	tcase_add_test(tc, test_documents);
	suite_add_tcase(s, tc);
	return s;
}
