/* SPDX-License-Identifier: MIT */
/* compare: inputs (documents one after the other are repeats), matching by name, the refusal
 * of different workloads (naming each difference), no job in common, the notes on jobs found
 * on one side only, the --fail-on / --band lists, and the failures counted. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_int.h"

/* A fio document of jobs "name:iops:bs[:iodepth]", one read direction each. */
static char *doc(const char *jobs)
{
	char *text = NULL, spec[128];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	const char *p = jobs;
	bool first = true;

	fputs("{\"fio version\":\"fio-3.33\",\"jobs\":[", f);
	while (*p) {
		size_t n = strcspn(p, " ");
		char *name, *iops, *bs, *depth;

		snprintf(spec, sizeof(spec), "%.*s", (int)n, p);
		name = spec;
		iops = strchr(name, ':');
		*iops++ = '\0';
		bs = strchr(iops, ':');
		*bs++ = '\0';
		depth = strchr(bs, ':');
		if (depth)
			*depth++ = '\0';
		fprintf(f, "%s{\"jobname\":\"%s\",\"job options\":{\"bs\":\"%s\",\"iodepth\":\"%s\"},\"read\":{\"total_ios\":100,"
			"\"iops\":%s,\"bw_bytes\":%s000,\"iops_samples\":20,\"iops_mean\":%s,\"iops_stddev\":1,"
			"\"lat_ns\":{\"N\":100,\"mean\":1000,\"stddev\":1}}}", first ? "" : ",", name, bs, depth ? depth : "1",
			iops, iops, iops);
		first = false;
		p += n + (p[n] == ' ');
	}
	fputs("]}\n", f);
	fclose(f);
	return text;
}

static struct compare *c;
static struct compare_opts o;

static void setup(void)
{
	compare_opts_init(&o);
	c = compare_new(&o);
}

static void teardown(void)
{
	compare_free(c);
}

static int add(const char *name, const char *jobs, struct iops_err *err)
{
	char *t = doc(jobs);
	int rc = compare_add(c, name, t, strlen(t), err);

	free(t);
	return rc;
}

START_TEST(test_match)
{
	struct iops_err err = { 0 };
	char *notes = NULL;
	size_t len = 0;
	FILE *nf = open_memstream(&notes, &len);

	ck_assert_int_eq(add("a.json", "x:1000:4k y:500:8k only_a:1:4k", &err), 0);
	ck_assert_int_eq(add("b.json", "y:250:8k x:1000:4k only_b:1:4k", &err), 0);
	ck_assert_int_eq(compare_run(c, nf, &err), 0);
	fclose(nf);
	ck_assert_uint_eq(c->nr_rows, 3);	/* x, y, only_a (n/a in b) */
	ck_assert_str_eq(c->rows[0].first->key, "x");
	ck_assert_str_eq(c->rows[1].first->key, "y");
	ck_assert_int_eq(c->rows[0].cell[COMPARE_IOPS][0].verdict, COMPARE_NOISE);
	ck_assert_int_eq(c->rows[1].cell[COMPARE_IOPS][0].verdict, COMPARE_WORSE);
	ck_assert_int_eq(c->rows[2].cell[COMPARE_IOPS][0].verdict, COMPARE_NA);
	ck_assert_str_eq(c->rows[2].cell[COMPARE_IOPS][0].why, "not in this input");
	ck_assert_uint_eq(compare_failures(c), 0);	/* no --fail-on */
	ck_assert(strstr(notes, "'only_a' is not in b.json: not compared\n") != NULL);
	ck_assert(strstr(notes, "'only_b' of b.json is not in the baseline a.json: not compared\n") != NULL);
	free(notes);
}
END_TEST

START_TEST(test_fail_on_counts)
{
	struct iops_err err = { 0 };

	compare_free(c);
	ck_assert_int_eq(compare_limits_parse("iops:10%", o.fail_on_pct, "--fail-on", &err), 0);
	c = compare_new(&o);
	ck_assert_int_eq(add("a", "x:1000:4k y:1000:4k", &err), 0);
	ck_assert_int_eq(add("b", "x:500:4k y:1050:4k", &err), 0);
	ck_assert_int_eq(add("c", "x:920:4k y:2000:4k", &err), 0);
	ck_assert_int_eq(compare_run(c, NULL, &err), 0);
	/* b's x is 50% worse; c's x 8% worse (beyond noise, within the limit); better never fails */
	ck_assert_int_eq(c->rows[0].cell[COMPARE_IOPS][1].verdict, COMPARE_WORSE);
	ck_assert_uint_eq(compare_failures(c), 1);
}
END_TEST

START_TEST(test_repeats)
{
	struct iops_err err = { 0 };
	char *a1 = doc("x:1000:4k"), *a2 = doc("x:1010:4k"), *b = doc("x:990:4k"), both[4096];

	snprintf(both, sizeof(both), "noise line\n%s\n%s", a1, a2);
	ck_assert_int_eq(compare_add(c, "a", both, strlen(both), &err), 0);
	ck_assert_uint_eq(c->in[0].nr_docs, 2);
	ck_assert_int_eq(compare_add(c, "b", b, strlen(b), &err), 0);
	ck_assert_int_eq(compare_run(c, NULL, &err), 0);
	ck_assert_int_eq(c->rows[0].cell[COMPARE_IOPS][0].how, COMPARE_BY_REPEATS);
	ck_assert_uint_eq(c->rows[0].cell[COMPARE_IOPS][0].runs_base, 2);
	ck_assert_double_eq(c->rows[0].cell[COMPARE_IOPS][0].base, 1005);
	free(a1);
	free(a2);
	free(b);
}
END_TEST

static const struct {
	const char *a, *b, *msg;
} refused[] = {
	{ "x:1:4k", "x:1:8k", "a and b do not describe the same workload: job 'x': bs 4k vs 8k" },
	{ "x:1:4k:1", "x:1:16k:32", "a and b do not describe the same workload: job 'x': bs 4k vs 16k, iodepth 1 vs 32" },
	{ "x:1:4k", "y:1:4k", "a and b have no job or step in common (matched by name)" },
	{ "x:1:4k y:1:4k", "y:1:4k:2 x:1:4k", "a and b do not describe the same workload: job 'y': iodepth 1 vs 2" },
};

START_TEST(test_refused)
{
	struct iops_err err = { 0 };

	ck_assert_int_eq(add("a", refused[_i].a, &err), 0);
	ck_assert_int_eq(add("b", refused[_i].b, &err), 0);
	ck_assert_int_eq(compare_run(c, NULL, &err), -1);
	ck_assert_str_eq(err.msg, refused[_i].msg);
}
END_TEST

START_TEST(test_inputs)
{
	struct iops_err err = { 0 };
	char *a1 = doc("x:1:4k"), *a2 = doc("x:1:8k"), both[4096];

	ck_assert_int_eq(compare_add(c, "e", "", 0, &err), -1);
	ck_assert_str_eq(err.msg, "e: no JSON document in it");
	ck_assert_int_eq(compare_add(c, "e", "just text\n", 10, &err), -1);
	ck_assert_str_eq(err.msg, "e: no JSON document in it");
	ck_assert_int_eq(compare_add(c, "t", "{\"jobs\":\n", 9, &err), -1);
	ck_assert(!strncmp(err.msg, "t: not a JSON document (", 24));
	snprintf(both, sizeof(both), "%s%s{\"x\":1}\n", a1, a1);
	ck_assert_int_eq(compare_add(c, "m", both, strlen(both), &err), -1);
	ck_assert_str_eq(err.msg, "m: document 3: not a result iops compare reads (fio's JSON, client_stats, "
			 "an iops quick or sweep document)");
	ck_assert_uint_eq(c->nr_in, 0);
	/* one input: nothing to compare */
	ck_assert_int_eq(compare_add(c, "a", a1, strlen(a1), &err), 0);
	ck_assert_int_eq(compare_run(c, NULL, &err), -1);
	ck_assert_str_eq(err.msg, "two inputs at least: the baseline, then what is compared with it");
	/* repeats of different workloads in one input */
	snprintf(both, sizeof(both), "%s%s", a1, a2);
	ck_assert_int_eq(compare_add(c, "b", both, strlen(both), &err), 0);
	ck_assert_int_eq(compare_run(c, NULL, &err), -1);
	ck_assert_str_eq(err.msg, "a and b do not describe the same workload: job 'x': bs 4k vs 8k");
	free(a1);
	free(a2);
}
END_TEST

START_TEST(test_too_many)
{
	struct iops_err err = { 0 };

	for (unsigned i = 0; i < COMPARE_MAX_INPUTS; i++)
		ck_assert_int_eq(add("a", "x:1:4k", &err), 0);
	ck_assert_int_eq(add("z", "x:1:4k", &err), -1);
	ck_assert_str_eq(err.msg, "z: more than 16 inputs");
}
END_TEST

static const struct {
	const char *s;
	int rc;
	double iops, p99;	/* after parsing over 7 everywhere */
	const char *msg;
} limits[] = {
	{ "10%", 0, 10, 10, NULL },
	{ "10", 0, 10, 10, NULL },
	{ "0", 0, 0, 0, NULL },
	{ "1000%", 0, 1000, 1000, NULL },
	{ "p99:20%", 0, 7, 20, NULL },
	{ "iops:5%,p99:20", 0, 5, 20, NULL },
	{ "2.5%,p99:30%", 0, 2.5, 30, NULL },
	{ "", -EINVAL, 7, 7, "--fail-on: a value is needed (10% or iops:5%,p99:20%)" },
	{ "x", -EINVAL, 7, 7, "--fail-on: bad limit 'x' (a percentage from 0 to 1000, as 10% or iops:10%)" },
	{ "10%%", -EINVAL, 7, 7, "--fail-on: bad limit '10%%' (a percentage from 0 to 1000, as 10% or iops:10%)" },
	{ "-5%", -EINVAL, 7, 7, "--fail-on: bad limit '-5%' (a percentage from 0 to 1000, as 10% or iops:10%)" },
	{ "1001", -EINVAL, 7, 7, "--fail-on: bad limit '1001' (a percentage from 0 to 1000, as 10% or iops:10%)" },
	{ "nan", -EINVAL, 7, 7, "--fail-on: bad limit 'nan' (a percentage from 0 to 1000, as 10% or iops:10%)" },
	{ "iops:", -EINVAL, 7, 7, "--fail-on: bad limit 'iops:' (a percentage from 0 to 1000, as 10% or iops:10%)" },
	{ "lat:5", -EINVAL, 7, 7, "--fail-on: unknown figure 'lat' (iops, bw, mean, p50, p99, p99.9)" },
	{ "iops:5,", -EINVAL, 7, 7, "--fail-on: 'iops:5,' ends with a comma" },
	{ ",5", -EINVAL, 7, 7, "--fail-on: bad limit '' (a percentage from 0 to 1000, as 10% or iops:10%)" },
	{ "p99.9:1e1", 0, 7, 7, NULL },
};

START_TEST(test_limits)
{
	double pct[COMPARE_NR];
	struct iops_err err = { 0 };

	for (unsigned f = 0; f < COMPARE_NR; f++)
		pct[f] = 7;
	ck_assert_int_eq(compare_limits_parse(limits[_i].s, pct, "--fail-on", &err), limits[_i].rc);
	ck_assert_double_eq(pct[COMPARE_IOPS], limits[_i].iops);
	ck_assert_double_eq(pct[COMPARE_P99], limits[_i].p99);
	if (limits[_i].msg)
		ck_assert_str_eq(err.msg, limits[_i].msg);
	if (!strcmp(limits[_i].s, "p99.9:1e1"))
		ck_assert_double_eq(pct[COMPARE_P999], 10);
}
END_TEST

Suite *compare_suite(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_match);
	tcase_add_test(tc, test_fail_on_counts);
	tcase_add_test(tc, test_repeats);
	tcase_add_loop_test(tc, test_refused, 0, sizeof(refused) / sizeof(refused[0]));
	tcase_add_test(tc, test_inputs);
	tcase_add_test(tc, test_too_many);
	tcase_add_loop_test(tc, test_limits, 0, sizeof(limits) / sizeof(limits[0]));
	suite_add_tcase(s, tc);
	return s;
}
