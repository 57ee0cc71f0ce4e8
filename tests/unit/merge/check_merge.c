/* SPDX-License-Identifier: MIT */
/* merge: a bin's value maps back to its bucket; bins are summed bucket by bucket and the
 * merged percentiles are the summed bins'; plain json (no bins) is marked approximate with
 * the count-weighted values; what is refused (garbage, empty, not fio's, bad fields, bins
 * that do not add up, truncated, huge) leaves the merge as it was; the stream splitter. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hist.h"
#include "core/jsonr.h"
#include "merge/merge.h"

/* A document of one job "j": read clat N, bins (json+; "" = plain json: no "bins"). */
static char *doc(unsigned n, const char *bins, const char *extra)
{
	char *d = malloc(4096);

	snprintf(d, 4096,
		 "noise before\n{\n\"fio version\" : \"fio-3.33\", \"timestamp_ms\" : 1796116597000,\n"
		 "\"jobs\" : [ { \"jobname\" : \"j\", \"groupid\" : 0, \"error\" : 0, \"job_runtime\" : 10,%s\n"
		 "\"read\" : { \"io_bytes\" : %u, \"total_ios\" : %u, \"runtime\" : 10,\n"
		 "\"clat_ns\" : { \"min\" : 100, \"max\" : 1004, \"mean\" : 500.0, \"stddev\" : 9.5, \"N\" : %u,\n"
		 "\"percentile\" : { \"50.000000\" : %s, \"99.000000\" : 1004 }%s%s%s } } } ]\n}\nnoise after\n",
		 extra, n * 4096, n, n, n > 3 ? "1004" : "100", *bins ? ", \"bins\" : { " : "", bins,
		 *bins ? " }" : "");
	return d;
}

static int add(struct merge *m, const char *text, struct iops_err *err)
{
	size_t pos = 0, len;
	const char *d = merge_next_doc(text, strlen(text), &pos, &len);

	return d ? merge_add(m, d, len, "in", 8765, err) : -2;
}

static char *write_out(const struct merge *m, unsigned fmts)
{
	struct iops_err err = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_int_eq(merge_write(m, f, fmts, 1, &err), 0);
	fclose(f);
	return text;
}

START_TEST(test_bucket_roundtrip)
{
	for (unsigned i = 0; i < HIST_NR; i++)
		ck_assert_uint_eq(hist_idx(hist_idx_to_val(i)), i);
	ck_assert_uint_ne(hist_idx_to_val(hist_idx(1000)), 1000);	/* not a bucket value */
}
END_TEST

/* Two json+ inputs: each bin summed, N, total_ios, io_bytes, and percentiles from the sum. */
static const struct {
	unsigned n1, n2;
	const char *b1, *b2;
	unsigned long long sum100, sum1004, p50, p99;
} sums[] = {
	{ 3, 5, "\"100\" : 3", "\"100\" : 1, \"1004\" : 4", 4, 4, 100, 1004 },
	{ 4, 4, "\"100\" : 1, \"1004\" : 3", "\"1004\" : 4", 1, 7, 1004, 1004 },
	{ 2, 9, "\"100\" : 2", "\"100\" : 9", 11, 0, 100, 100 },
};

START_TEST(test_bins_sum)
{
	struct merge *m = merge_new();
	struct iops_err err = { 0 };
	char *a = doc(sums[_i].n1, sums[_i].b1, ""), *b = doc(sums[_i].n2, sums[_i].b2, ""), *out;
	struct jsonr j;
	double v;

	ck_assert_msg(add(m, a, &err) == 0, "%s", err.msg);
	ck_assert_msg(add(m, b, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(merge_count(m), 2);
	out = write_out(m, MERGE_JSONPLUS);
	ck_assert_int_eq(jsonr_parse(&j, out, strlen(out), &err), 0);
	ck_assert_str_eq(jsonr_str(&j, NULL, "client_stats/2/jobname"), "All clients");
	ck_assert_str_eq(jsonr_str(&j, NULL, "client_stats/0/hostname"), "in");
	ck_assert(jsonr_num(&j, NULL, "client_stats/1/port", &v) && v == 8765);
	ck_assert(jsonr_num(&j, NULL, "client_stats/2/read/total_ios", &v) && v == sums[_i].n1 + sums[_i].n2);
	ck_assert(jsonr_num(&j, NULL, "client_stats/2/read/io_bytes", &v) && v == 4096.0 * (sums[_i].n1 + sums[_i].n2));
	ck_assert(jsonr_num(&j, NULL, "client_stats/2/read/clat_ns/N", &v) && v == sums[_i].n1 + sums[_i].n2);
	v = 0;
	jsonr_num(&j, NULL, "client_stats/2/read/clat_ns/bins/100", &v);
	ck_assert_uint_eq((unsigned long long)v, sums[_i].sum100);
	v = 0;
	jsonr_num(&j, NULL, "client_stats/2/read/clat_ns/bins/1004", &v);
	ck_assert_uint_eq((unsigned long long)v, sums[_i].sum1004);
	ck_assert(jsonr_num(&j, NULL, "client_stats/2/read/clat_ns/percentile/50.000000", &v) && v == sums[_i].p50);
	ck_assert(jsonr_num(&j, NULL, "client_stats/2/read/clat_ns/percentile/99.000000", &v) && v == sums[_i].p99);
	ck_assert(jsonr_num(&j, NULL, "client_stats/2/percentiles_approximate", &v) && v == 0);
	jsonr_free(&j);
	free(out);
	out = write_out(m, MERGE_NORMAL);
	ck_assert_ptr_nonnull(strstr(out, "All clients: (groupid=0, jobs=2): err= 0: pid=0: "));
	ck_assert_ptr_nonnull(strstr(out, "    clat percentiles (nsec):\n"));
	ck_assert_ptr_null(strstr(out, "approximate"));
	ck_assert_ptr_null(strstr(out, "latency   : target"));
	free(out);
	free(a);
	free(b);
	merge_free(m);
}
END_TEST

/* Plain json: percentiles approximate, the count-weighted means on fio's buckets. */
START_TEST(test_approx)
{
	struct merge *m = merge_new();
	struct iops_err err = { 0 };
	char *a = doc(2, "", ""), *b = doc(6, "", ""), *out;	/* p50: 100 (N=2) and 1004 (N=6) */
	struct jsonr j;
	double v;

	ck_assert_int_eq(add(m, a, &err), 0);
	ck_assert_int_eq(add(m, b, &err), 0);
	out = write_out(m, MERGE_JSONPLUS);
	ck_assert_int_eq(jsonr_parse(&j, out, strlen(out), &err), 0);
	ck_assert(jsonr_num(&j, NULL, "client_stats/2/percentiles_approximate", &v) && v == 1);
	ck_assert_ptr_null(jsonr_get(&j, NULL, "client_stats/2/read/clat_ns/bins"));	/* never made up */
	/* (2 x 100 + 6 x 1004) / 8 = 778: fio's bucket of 778 is 780 */
	ck_assert(jsonr_num(&j, NULL, "client_stats/2/read/clat_ns/percentile/50.000000", &v));
	ck_assert_uint_eq((unsigned long long)v, hist_idx_to_val(hist_idx(778)));
	ck_assert(jsonr_num(&j, NULL, "client_stats/2/read/clat_ns/percentile/99.000000", &v) && v == 1004);
	/* an input's own entry keeps its own percentiles */
	ck_assert(jsonr_num(&j, NULL, "client_stats/0/read/clat_ns/percentile/50.000000", &v) && v == 100);
	jsonr_free(&j);
	free(out);
	out = write_out(m, MERGE_NORMAL);
	ck_assert_ptr_nonnull(strstr(out, "  note         : approximate percentiles"));
	free(out);
	free(a);
	free(b);
	merge_free(m);
}
END_TEST

/* jobs=N: a group_reporting entry stands for its numjobs. */
START_TEST(test_members)
{
	struct merge *m = merge_new();
	struct iops_err err = { 0 };
	char *a = doc(3, "\"100\" : 3", " \"job options\" : { \"numjobs\" : \"4\" },"), *out;

	ck_assert_int_eq(add(m, a, &err), 0);
	ck_assert_int_eq(add(m, a, &err), 0);
	out = write_out(m, MERGE_NORMAL);
	ck_assert_ptr_nonnull(strstr(out, "in: jobs=4, first completion "));
	ck_assert_ptr_nonnull(strstr(out, "(no job_start: the report's time)"));
	ck_assert_ptr_nonnull(strstr(out, "All clients: (groupid=0, jobs=8)"));
	free(out);
	free(a);
	merge_free(m);
}
END_TEST

/* fio --client's own output: an entry per server (hostname, port), its All clients left out. */
START_TEST(test_client_stats)
{
	static const char d[] = "{\"fio version\":\"fio-3.33\",\"client_stats\":["
		"{\"jobname\":\"r\",\"job options\":{\"numjobs\":\"2\"},\"read\":{\"total_ios\":5},\"hostname\":\"h\",\"port\":1},"
		"{\"jobname\":\"r\",\"job options\":{\"numjobs\":\"2\"},\"read\":{\"total_ios\":7},\"hostname\":\"h\",\"port\":2},"
		"{\"jobname\":\"All clients\",\"read\":{\"total_ios\":99}}]}";
	struct merge *m = merge_new();
	struct iops_err err = { 0 };
	char *out;

	ck_assert_msg(merge_add(m, d, strlen(d), "c", 0, &err) == 0, "%s", err.msg);
	out = write_out(m, MERGE_NORMAL);
	ck_assert_ptr_nonnull(strstr(out, "All clients: (groupid=0, jobs=4)"));
	ck_assert_ptr_nonnull(strstr(out, "issued rwts: total=12,0,0,0"));
	free(out);
	merge_free(m);
}
END_TEST

#define FIO	"{\"fio version\":\"fio-3.33\",\"jobs\":["
#define JOB	"{\"jobname\":\"j\",\"read\":{\"total_ios\":1,\"clat_ns\":{\"N\":1"
static const char *const bad_docs[] = {
	"", "   ", "garbage", "{", "[]", "{}", "{\"jobs\":[]}", "{\"fio version\":\"fio-3.33\"}",
	FIO "]}", "{\"fio version\":\"fio-3.33\",\"jobs\":{}}", FIO "{}]}", FIO "1]}",
	FIO "{\"jobname\":\"j\"}]}", FIO "{\"jobname\":\"j\",\"read\":{\"io_bytes\":-1}}]}",
	FIO "{\"jobname\":\"j\",\"read\":{\"total_ios\":1.5}}]}",
	FIO "{\"jobname\":\"j\",\"read\":{\"total_ios\":\"1\"}}]}",
	FIO "{\"jobname\":\"j\",\"read\":{\"total_ios\":1e30}}]}",
	FIO "{\"jobname\":\"j\",\"read\":[]}]}", FIO "{\"jobname\":\"j\",\"ctx\":-3,\"read\":{}}]}",
	FIO "{\"jobname\":\"j\",\"iodepth_level\":[1],\"read\":{}}]}",
	/* a share of the I/Os outside 0..100 % (fuzz: 2.8e129 overflowed the count) */
	FIO "{\"jobname\":\"j\",\"iodepth_level\":{\"1\":2.8e129},\"read\":{}}]}",
	FIO "{\"jobname\":\"j\",\"latency_us\":{\"2\":-0.5},\"read\":{}}]}",
	FIO "{\"jobname\":\"j\",\"latency_ms\":{\"2\":100.01},\"read\":{}}]}",
	FIO "{\"jobname\":\"j\",\"read\":{\"io_bytes\":-1.5}}]}",
	FIO JOB ",\"bins\":{\"1000\":1}}}}]}",		/* not a bucket's value */
	FIO JOB ",\"bins\":{\"abc\":1}}}}]}", FIO JOB ",\"bins\":{\"\":1}}}}]}",
	FIO JOB ",\"bins\":{\"-5\":1}}}}]}", FIO JOB ",\"bins\":{\"100\":2}}}}]}",	/* 2 != N */
	FIO JOB ",\"bins\":{\"100\":9223372036854775807,\"101\":9223372036854775807,\"102\":2}}}}]}",
	FIO JOB ",\"bins\":[1]}}}]}", FIO JOB ",\"percentile\":{\"101.000000\":5}}}}]}",
	FIO JOB ",\"percentile\":{\"x\":5}}}}]}", FIO JOB ",\"percentile\":{\"0\":5}}}}]}",
	FIO JOB ",\"percentile\":{\"50.0\":5,\"40.0\":6}}}}]}",
	FIO JOB ",\"percentile\":{\"1\":1,\"2\":1,\"3\":1,\"4\":1,\"5\":1,\"6\":1,\"7\":1,\"8\":1,\"9\":1,\"10\":1,"
	"\"11\":1,\"12\":1,\"13\":1,\"14\":1,\"15\":1,\"16\":1,\"17\":1,\"18\":1,\"19\":1,\"20\":1,\"21\":1}}}}]}",
	"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
};

START_TEST(test_bad)
{
	struct merge *m = merge_new();
	struct iops_err err = { 0 };
	const char *d = bad_docs[_i];

	ck_assert_msg(merge_add(m, d, strlen(d), "x.json", 0, &err) == -1, "accepted '%s'", d);
	ck_assert_msg(!strncmp(err.msg, "x.json: ", 8) && !strchr(err.msg, '\n'), "message '%s'", err.msg);
	ck_assert_uint_eq(merge_count(m), 0);
	merge_free(m);
}
END_TEST

/* A valid document cut anywhere is refused (and a whole one accepted). */
START_TEST(test_truncated)
{
	struct merge *m = merge_new();
	struct iops_err err = { 0 };
	char *a = doc(3, "\"100\" : 3", ""), *d = strchr(a, '{');
	size_t len = strrchr(d, '}') + 1 - d;

	for (size_t cut = 0; cut < len; cut++)
		ck_assert_msg(merge_add(m, d, cut, "t", 0, &err) == -1, "accepted %zu bytes", cut);
	ck_assert_uint_eq(merge_count(m), 0);
	ck_assert_int_eq(merge_add(m, d, len, "t", 0, &err), 0);
	free(a);
	merge_free(m);
}
END_TEST

/* More job entries than fio may have jobs (4096): refused, not allocated. */
START_TEST(test_huge)
{
	struct merge *m = merge_new();
	struct iops_err err = { 0 };
	static const char entry[] = "{\"jobname\":\"j\",\"read\":{}},";
	size_t n = 4097, len = strlen(FIO) + n * strlen(entry) + 3;
	char *d = malloc(len + 1), *p = d;

	p += snprintf(p, len + 1, "%s", FIO);
	for (size_t i = 0; i < n; i++)
		p += snprintf(p, len + 1 - (size_t)(p - d), "%s", entry);
	snprintf(p - 1, 4, "]}");
	ck_assert_int_eq(merge_add(m, d, strlen(d), "h", 0, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "more than 4096 jobs"));
	free(d);
	merge_free(m);
}
END_TEST

/* The stream splitter: documents counted, lines around them skipped. */
static const struct {
	const char *text;
	unsigned docs;
	const char *first;
} streams[] = {
	{ "", 0, NULL },
	{ "no document here\n", 0, NULL },
	{ "x {\"a\":1}\n", 0, NULL },				/* not at a line's start */
	{ "{\"a\":1}", 1, "{\"a\":1}" },
	{ "log\n{\"a\":\"}{\\\"\"}\nlog\n{\n}\n", 2, "{\"a\":\"}{\\\"\"}" },	/* braces in strings */
	{ "{\"a\":[{}]}{\"b\":2}\n{\"c\":3}\n", 2, "{\"a\":[{}]}" },
	{ "{\"a\":1\n", 1, "{\"a\":1\n" },			/* truncated: to the end */
};

START_TEST(test_next_doc)
{
	const char *t = streams[_i].text, *d;
	size_t pos = 0, len = 0;
	unsigned n = 0;

	while ((d = merge_next_doc(t, strlen(t), &pos, &len))) {
		if (!n++)
			ck_assert_msg(len == strlen(streams[_i].first) && !memcmp(d, streams[_i].first, len),
				      "first document of '%s': '%.*s'", t, (int)len, d);
		ck_assert(pos <= strlen(t));
	}
	ck_assert_uint_eq(n, streams[_i].docs);
}
END_TEST

START_TEST(test_empty_write)
{
	struct merge *m = merge_new();
	struct iops_err err = { 0 };

	ck_assert_int_eq(merge_write(m, stdout, MERGE_NORMAL, 1, &err), -1);
	ck_assert_str_eq(err.msg, "nothing to merge");
	merge_free(m);
}
END_TEST

static const struct { const char *list; int ret; unsigned fmts; } fmt_lists[] = {
	{ "normal", 0, MERGE_NORMAL }, { "json", 0, MERGE_JSON }, { "json+", 0, MERGE_JSONPLUS },
	{ "terse", 0, MERGE_TERSE }, { "terse,json,normal", 0, MERGE_TERSE | MERGE_JSON | MERGE_NORMAL },
	{ "openmetrics", 0, MERGE_OPENMETRICS }, { "json,openmetrics", 0, MERGE_JSON | MERGE_OPENMETRICS },
	{ "openmetric", -EINVAL, 0 }, { "openmetrics+", -EINVAL, 0 },
	{ "json,json", 0, MERGE_JSON }, { "", -EINVAL, 0 }, { ",", -EINVAL, 0 }, { "json++", -EINVAL, 0 },
	{ "Normal", -EINVAL, 0 }, { "normal,bogus", -EINVAL, 0 }, { "jso", -EINVAL, 0 },
};

START_TEST(test_fmts)
{
	unsigned fmts = 0;

	ck_assert_int_eq(merge_fmts_parse(fmt_lists[_i].list, &fmts), fmt_lists[_i].ret);
	if (!fmt_lists[_i].ret)
		ck_assert_uint_eq(fmts, fmt_lists[_i].fmts);
}
END_TEST

/* terse: a line per input's job (per_input), then All clients */
START_TEST(test_terse)
{
	struct merge *m = merge_new();
	struct iops_err err = { 0 };
	char *d1 = doc(2, "\"100\" : 1, \"1004\" : 1", ""), *text;
	unsigned lines = 0;

	ck_assert_int_eq(add(m, d1, &err), 0);
	ck_assert_int_eq(add(m, d1, &err), 0);
	text = write_out(m, MERGE_TERSE);
	for (char *p = text; (p = strchr(p, '\n')); p++)
		lines++;
	ck_assert_uint_eq(lines, 3);
	ck_assert_ptr_nonnull(strstr(text, "3;fio-3.33;j;"));
	ck_assert_ptr_nonnull(strstr(text, "3;fio-3.33;All clients;"));
	*strrchr(text, '\n') = '\0';	/* the last line is All clients' */
	ck_assert_int_eq(strncmp(strrchr(text, '\n') + 1, "3;fio-3.33;All clients;", 23), 0);
	free(text);
	free(d1);
	merge_free(m);
}
END_TEST

Suite *merge_suite(void)
{
	Suite *s = suite_create("merge");
	TCase *tc = tcase_create("merge");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_bucket_roundtrip);
	tcase_add_loop_test(tc, test_bins_sum, 0, sizeof(sums) / sizeof(sums[0]));
	tcase_add_test(tc, test_approx);
	tcase_add_test(tc, test_members);
	tcase_add_test(tc, test_client_stats);
	tcase_add_loop_test(tc, test_bad, 0, sizeof(bad_docs) / sizeof(bad_docs[0]));
	tcase_add_test(tc, test_truncated);
	tcase_add_test(tc, test_huge);
	tcase_add_loop_test(tc, test_next_doc, 0, sizeof(streams) / sizeof(streams[0]));
	tcase_add_test(tc, test_empty_write);
	tcase_add_loop_test(tc, test_fmts, 0, sizeof(fmt_lists) / sizeof(fmt_lists[0]));
	tcase_add_test(tc, test_terse);
	suite_add_tcase(s, tc);
	return s;
}
