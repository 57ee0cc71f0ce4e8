/* SPDX-License-Identifier: MIT */
/* compare_rd: documents into entries. fio JSON (a group of four: pure-sum windows), json+
 * bins (exact intervals), numjobs without group_reporting (keys "a", "a #2"), client_stats
 * (All clients stands for every job), unified "mixed", sweep documents (new and older, a
 * stopped step), and the refusals: not JSON, not a result, no jobname, a bad field, two kinds
 * in one input, no jobs. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_int.h"

#define DIR_OK(io, extra) "{\"total_ios\":" #io ",\"iops\":1000.5,\"bw_bytes\":4096000" extra "}"
#define LAT "\"lat_ns\":{\"N\":4000,\"mean\":1000.0,\"stddev\":500.0,\"min\":10,\"max\":9000}"
#define CLAT_LIST "\"clat_ns\":{\"N\":4000,\"min\":5,\"max\":9500,\"percentile\":{\"1.000000\":100,\"50.000000\":900," \
	"\"90.000000\":2000,\"99.000000\":5000,\"99.900000\":8000,\"99.990000\":9000}}"
#define WIN "\"iops_samples\":40,\"iops_mean\":1000.0,\"iops_stddev\":50.0,\"bw_samples\":40,\"bw_mean\":4000.0,\"bw_dev\":200.0"

static const char doc_group[] =
	"{\"fio version\":\"fio-3.33\",\"global options\":{\"bs\":\"4k\",\"ioengine\":\"libaio\"},\"jobs\":[{\"jobname\":\"a\","
	"\"job options\":{\"rw\":\"randread\",\"numjobs\":\"4\",\"iodepth\":\"8\"},"
	"\"read\":" DIR_OK(4000, "," LAT "," CLAT_LIST "," WIN) ",\"write\":{\"total_ios\":0}}]}";

static const char doc_bins[] =
	"{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"b\",\"write\":{\"total_ios\":100,\"iops\":10,\"bw_bytes\":40960,"
	"\"lat_ns\":{\"N\":100,\"mean\":150,\"stddev\":50,\"percentile\":{\"50.000000\":100,\"99.000000\":200,\"99.900000\":200},"
	"\"bins\":{\"200\":50,\"100\":50}},\"clat_ns\":{\"N\":100,\"percentile\":{\"50.000000\":1}}}}]}";

static const char doc_twice[] =
	"{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"a\",\"job options\":{\"numjobs\":\"2\"},\"read\":" DIR_OK(5, "") "},"
	"{\"jobname\":\"a\",\"job options\":{\"numjobs\":\"2\"},\"read\":" DIR_OK(5, "") "},"
	"{\"jobname\":\"a b\",\"mixed\":" DIR_OK(5, "") "}]}";

#define CS_ENTRY(host) "{\"jobname\":\"r\",\"hostname\":\"" host "\",\"job options\":{\"numjobs\":\"2\",\"group_reporting\":\"1\"}," \
	"\"read\":" DIR_OK(9, ",\"iops_samples\":6,\"iops_mean\":100.0,\"iops_stddev\":10.0") "}"
static const char doc_client[] =
	"{\"fio version\":\"fio-3.33\",\"client_stats\":[" CS_ENTRY("h1") "," CS_ENTRY("h2") ","
	"{\"jobname\":\"All clients\",\"read\":" DIR_OK(18, ",\"iops_samples\":12,\"iops_mean\":200.0,\"iops_stddev\":10.0") "}]}";

static const char doc_sweep[] =
	"{\"steps\":[{\"rw\":\"randread\",\"bs\":\"4k\",\"sample\":1,\"iops\":500,\"bw_bytes\":2048000,\"lat_mean_us\":20.5,"
	"\"clat_p99_us\":50,\"clat_p50_us\":15,\"clat_p999_us\":80,\"total_ios\":1000,\"lat_stddev_us\":5,"
	"\"iops_samples\":8,\"iops_mean\":500,\"iops_stddev\":25,\"ioengine\":\"psync\",\"iodepth\":\"1\",\"numjobs\":\"2\","
	"\"size\":\"16m\",\"direct\":\"1\"},"
	"{\"rw\":\"randread\",\"bs\":\"4k\",\"sample\":2,\"iops\":400,\"bw_bytes\":1,\"stopped\":1},"
	"{\"rw\":\"read\",\"bs\":\"64k\",\"sample\":1,\"iops\":100,\"bw_bytes\":6553600,\"lat_mean_us\":10,\"clat_p99_us\":20}]}";

static struct compare_input in;
static struct compare_opts opts;

static void setup(void)
{
	memset(&in, 0, sizeof(in));
	compare_opts_init(&opts);
}

static void teardown(void)
{
	free(in.ent);
}

static int rd(const char *doc, unsigned k, struct iops_err *err)
{
	return compare_rd_doc(&in, doc, strlen(doc), k, &opts, err);
}

START_TEST(test_group)
{
	struct iops_err err = { 0 };
	const struct compare_dir *d;

	ck_assert_int_eq(rd(doc_group, 0, &err), 0);
	ck_assert_int_eq(in.kind, COMPARE_K_FIO);
	ck_assert_uint_eq(in.nr_ent, 1);
	ck_assert_str_eq(in.ent[0].key, "a");
	ck_assert_str_eq(in.ent[0].wl.norm[COMPARE_WL_GROUP], "1");	/* numjobs=4, one entry */
	ck_assert_str_eq(in.ent[0].wl.norm[COMPARE_WL_BS], "4096,4096,4096");	/* global options */
	ck_assert_str_eq(in.ent[0].wl.raw[COMPARE_WL_ENGINE], "libaio");
	ck_assert_str_eq(in.ent[0].wl.raw[COMPARE_WL_IODEPTH], "8");
	d = &in.ent[0].dir[COMPARE_READ];
	ck_assert(d->present && !in.ent[0].dir[COMPARE_WRITE].present && !in.ent[0].dir[COMPARE_TRIM].present);
	ck_assert_double_eq(d->val[COMPARE_IOPS], 1000.5);
	ck_assert_double_eq(d->val[COMPARE_BW], 4096000);
	ck_assert_double_eq(d->val[COMPARE_MEAN], 1000);
	ck_assert_double_eq(d->val[COMPARE_P50], 900);
	ck_assert_double_eq(d->val[COMPARE_P99], 5000);
	ck_assert_double_eq(d->val[COMPARE_P999], 8000);
	ck_assert_str_eq(d->pct_kind, "clat");
	ck_assert(!d->pct_exact);
	for (unsigned p = 0; p < 3; p++)
		ck_assert(d->pct_half[p] > 0);
	ck_assert_double_eq_tol(d->lat_se, 500 / sqrt(4000), 1e-12);
	/* pure sums of 4 jobs: 10 windows, the sum's sd 2 x 50 */
	ck_assert_double_eq_tol(d->win_rse[0], 50.0 * 4 / (sqrt(40) * 1000), 1e-12);
	ck_assert_double_eq_tol(d->win_df[0], 9, 1e-12);
	ck_assert_double_eq_tol(d->win_rse[1], 200.0 * 4 / (sqrt(40) * 4000), 1e-12);
}
END_TEST

START_TEST(test_bins)
{
	struct iops_err err = { 0 };
	const struct compare_dir *d;

	ck_assert_int_eq(rd(doc_bins, 0, &err), 0);
	d = &in.ent[0].dir[COMPARE_WRITE];
	ck_assert(d->present);
	ck_assert_str_eq(d->pct_kind, "lat");	/* lat_percentiles: the total latency's */
	ck_assert(d->pct_exact);
	ck_assert_double_eq(d->val[COMPARE_P50], 100);
	/* N=100: p50's interval 0.5 -+ 0.129 spans both bins (100 and 200) */
	ck_assert_double_eq(d->pct_half[0], 50);
	ck_assert_double_eq(d->pct_half[2], 0);	/* p99.9: the top bin either way */
	ck_assert(d->win_rse[0] < 0 && d->win_rse[1] < 0);	/* no windows */
}
END_TEST

START_TEST(test_twice_and_mixed)
{
	struct iops_err err = { 0 };

	ck_assert_int_eq(rd(doc_twice, 0, &err), 0);
	ck_assert_uint_eq(in.nr_ent, 3);
	ck_assert_str_eq(in.ent[0].key, "a");
	ck_assert_str_eq(in.ent[1].key, "a #2");
	ck_assert_str_eq(in.ent[2].key, "a b");
	ck_assert_str_eq(in.ent[0].wl.norm[COMPARE_WL_GROUP], "0");	/* two entries of numjobs=2 */
	ck_assert(in.ent[2].dir[COMPARE_MIXED].present);
	ck_assert(!in.ent[2].dir[COMPARE_READ].present);
	/* a second document of the same kind: repeats, numbered */
	ck_assert_int_eq(rd(doc_twice, 1, &err), 0);
	ck_assert_uint_eq(in.nr_ent, 6);
	ck_assert_str_eq(in.ent[4].key, "a #2");
	ck_assert_uint_eq(in.ent[4].doc, 1);
}
END_TEST

START_TEST(test_client)
{
	struct iops_err err = { 0 };

	ck_assert_int_eq(rd(doc_client, 0, &err), 0);
	ck_assert_int_eq(in.kind, COMPARE_K_CLIENT);
	ck_assert_uint_eq(in.nr_ent, 3);
	ck_assert_str_eq(in.ent[0].key, "r");
	ck_assert_str_eq(in.ent[0].host, "h1");
	ck_assert_str_eq(in.ent[1].key, "r #2");
	ck_assert_str_eq(in.ent[2].key, "All clients");
	/* per server a group of 2 (3 windows); All clients stands for 4 */
	ck_assert_double_eq_tol(in.ent[0].dir[COMPARE_READ].win_rse[0], 10.0 * 2 / (sqrt(6) * 100), 1e-12);
	ck_assert_double_eq_tol(in.ent[2].dir[COMPARE_READ].win_rse[0], 10.0 * 4 / (sqrt(12) * 200), 1e-12);
	ck_assert_double_eq_tol(in.ent[2].dir[COMPARE_READ].win_df[0], 2, 1e-12);
	ck_assert_str_eq(in.ent[2].wl.norm[COMPARE_WL_GROUP], "1");
}
END_TEST

START_TEST(test_sweep)
{
	struct iops_err err = { 0 };
	const struct compare_dir *d;

	ck_assert_int_eq(rd(doc_sweep, 0, &err), 0);
	ck_assert_int_eq(in.kind, COMPARE_K_SWEEP);
	ck_assert_uint_eq(in.nr_ent, 2);	/* the stopped step left out */
	ck_assert_str_eq(in.ent[0].key, "randread 4k");
	ck_assert_str_eq(in.ent[1].key, "read 64k");
	d = &in.ent[0].dir[COMPARE_ALL];
	ck_assert(d->present);
	ck_assert_double_eq(d->val[COMPARE_MEAN], 20500);
	ck_assert_double_eq(d->val[COMPARE_P50], 15000);
	ck_assert_double_eq(d->val[COMPARE_P999], 80000);
	ck_assert_double_eq_tol(d->lat_se, 5000 / sqrt(1000), 1e-9);
	ck_assert_double_eq_tol(d->win_rse[0], 25.0 * 2 / (sqrt(8) * 500), 1e-12);	/* numjobs 2 */
	ck_assert(in.ent[0].wl.known[COMPARE_WL_SIZE]);
	ck_assert_str_eq(in.ent[0].wl.norm[COMPARE_WL_SIZE], "16777216");
	/* an older document: no workload beyond rw and bs, no p50 */
	ck_assert(!in.ent[1].wl.known[COMPARE_WL_SIZE] && !in.ent[1].wl.known[COMPARE_WL_ENGINE]);
	ck_assert(in.ent[1].wl.known[COMPARE_WL_BS]);
	ck_assert(!in.ent[1].dir[COMPARE_ALL].has[COMPARE_P50]);
	ck_assert(in.ent[1].dir[COMPARE_ALL].has[COMPARE_P99]);
	ck_assert(in.ent[1].dir[COMPARE_ALL].lat_se < 0);
	/* another kind in the same input */
	ck_assert_int_eq(rd(doc_group, 1, &err), -1);
	ck_assert_str_eq(err.msg, "document 2 is fio output, the first sweep: one kind per input");
	ck_assert_uint_eq(in.nr_ent, 2);
}
END_TEST

static const struct {
	const char *doc, *msg;
} bad[] = {
	{ "{\"jobs\":[", "not a JSON document (" },
	{ "", "not a JSON document (" },
	{ "[1,2]", "not a result iops compare reads" },
	{ "{\"jobs\":[]}", "not a result iops compare reads" },	/* no "fio version" */
	{ "{\"fio version\":\"fio-3.33\",\"jobs\":{}}", "not a result iops compare reads" },
	{ "{\"fio version\":\"fio-3.33\",\"jobs\":[]}", "no jobs in the document" },
	{ "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"read\":{}}]}", "entry 1 of the jobs has no jobname" },
	{ "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"a\",\"read\":{\"total_ios\":3,\"iops\":\"x\",\"bw_bytes\":1}}]}",
	  "job 'a': bad read/iops" },
	{ "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"a\",\"read\":{\"total_ios\":3,\"iops\":-1,\"bw_bytes\":1}}]}",
	  "job 'a': bad read/iops" },
	{ "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"a\",\"read\":{\"total_ios\":3,\"iops\":1}}]}",
	  "job 'a': bad read/bw_bytes" },
	{ "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"a\",\"read\":{\"total_ios\":3,\"iops\":1,\"bw_bytes\":1,"
	  "\"clat_ns\":{\"N\":3,\"percentile\":{\"50.000000\":1},\"bins\":{\"x\":3}}}}]}", "job 'a': bad read/bins" },
	{ "{\"steps\":[{\"rw\":\"read\"}]}", "step 1 has no rw and bs" },
	{ "{\"steps\":[{\"rw\":\"read\",\"bs\":\"4k\",\"stopped\":1}]}", "no step in the document" },
	{ "{\"steps\":[{\"rw\":\"read\",\"bs\":\"4k\",\"iops\":null}]}", "step 1 ('read 4k'): bad iops" },
	{ "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"a\",\"job options\":{\"ioengine\":"
	  "\"external:/a/very/long/path/to/an/engine/that/is/too/long/for/us.so\"}}]}",
	  "job 'a': ioengine's value is over 63 characters" },
	{ "{\"steps\":[{\"rw\":\"readreadreadreadreadreadreadreadreadreadreadreadreadreadreadread\",\"bs\":\"4k\"}]}",
	  "step 1: its rw or bs is over 63 characters" },
};

START_TEST(test_long_name)
{
	struct iops_err err = { 0 };
	char doc[1024], name[302];

	memset(name, 'x', 301);
	name[301] = '\0';
	snprintf(doc, sizeof(doc), "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"%s\"}]}", name);
	ck_assert_int_eq(rd(doc, 0, &err), -1);
	ck_assert_str_eq(err.msg, "entry 1 of the jobs: its jobname is over 300 characters");
	name[300] = '\0';	/* 300: kept whole */
	snprintf(doc, sizeof(doc), "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"%s\"},{\"jobname\":\"%s\"}]}",
		 name, name);
	ck_assert_int_eq(rd(doc, 0, &err), 0);
	ck_assert_uint_eq(strlen(in.ent[1].key), 303);
	ck_assert_str_eq(in.ent[1].key + 300, " #2");
}
END_TEST

START_TEST(test_bad)
{
	struct iops_err err = { 0 };

	ck_assert_int_eq(rd(bad[_i].doc, 0, &err), -1);
	ck_assert_msg(!strncmp(err.msg, bad[_i].msg, strlen(bad[_i].msg)), "'%s': got '%s'", bad[_i].doc, err.msg);
	ck_assert_uint_eq(in.nr_ent, 0);
}
END_TEST

Suite *compare_rd_suite(void)
{
	Suite *s = suite_create("compare_rd");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_group);
	tcase_add_test(tc, test_bins);
	tcase_add_test(tc, test_twice_and_mixed);
	tcase_add_test(tc, test_client);
	tcase_add_test(tc, test_sweep);
	tcase_add_test(tc, test_long_name);
	tcase_add_loop_test(tc, test_bad, 0, sizeof(bad) / sizeof(bad[0]));
	suite_add_tcase(s, tc);
	return s;
}
