/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/hist.h"
#include "fio/log/histlog.h"

START_TEST(test_columns)
{
	static const unsigned want[] = { 1856, 928, 464, 232, 116, 58, 29 };

	for (unsigned c = 0; c <= HISTLOG_MAX_COARSENESS; c++)
		ck_assert_uint_eq(histlog_columns(c), want[c]);
	ck_assert_uint_eq(histlog_columns(7), 29);	/* clamped */
	ck_assert_uint_eq(histlog_columns(UINT32_MAX), 29);
}
END_TEST

static struct job mkjob(const char *prefix, uint64_t msec, unsigned c)
{
	struct job j;

	memset(&j, 0, sizeof(j));
	memcpy(j.name, "jobname", sizeof("jobname"));
	j.log_prefix[3] = (char *)prefix;
	j.log_hist_msec = msec;
	j.log_hist_coarseness = c;
	j.per_job_logs = true;
	j.thread_number = 3;
	return j;
}

START_TEST(test_name)
{
	struct job j = mkjob("dir/pfx", 500, 0);
	char buf[64], tiny[8];

	ck_assert(histlog_wanted(&j));
	ck_assert_int_eq(histlog_name(buf, sizeof(buf), &j), 0);
	ck_assert_str_eq(buf, "dir/pfx_clat_hist.3.log");
	j.per_job_logs = false;
	ck_assert_int_eq(histlog_name(buf, sizeof(buf), &j), 0);
	ck_assert_str_eq(buf, "dir/pfx_clat_hist.log");
	j.log_prefix[3] = (char *)"";	/* no value: the job's name */
	ck_assert_int_eq(histlog_name(buf, sizeof(buf), &j), 0);
	ck_assert_str_eq(buf, "jobname_clat_hist.log");
	ck_assert_int_eq(histlog_name(tiny, sizeof(tiny), &j), -ENAMETOOLONG);
	j.log_prefix[3] = NULL;
	ck_assert(!histlog_wanted(&j));
}
END_TEST

START_TEST(test_format)
{
	uint64_t e[3 + 4] = { 501, 0, 4096, 0, 7, UINT64_MAX, 12 };
	char buf[512], tiny[16];
	size_t n = histlog_format(buf, sizeof(buf), e, 4);

	buf[n] = '\0';
	ck_assert_str_eq(buf, "501, 0, 4096, 0, 7, 18446744073709551615, 12\n");
	ck_assert_uint_eq(histlog_format(tiny, sizeof(tiny), e, 4), 0);	/* no overflow */
}
END_TEST

/* Entries are deltas per window and direction, buckets summed 2^c at a time. */
START_TEST(test_tick_deltas_coarse)
{
	struct job j = mkjob("p", 500, 2);
	struct histlog hl;
	struct hist *h = calloc(DDIR_NR, sizeof(*h));
	const struct hist *clat[DDIR_NR] = { &h[0], &h[1], NULL };
	uint64_t bs[DDIR_NR] = { 4096, 8192, 0 }, *row;
	uint64_t sum = 0;

	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(histlog_init(&hl, &j), 0);
	ck_assert_uint_eq(hl.columns, 464);
	for (unsigned v = 0; v < 8; v++)	/* buckets 0..7: columns 0 and 1 */
		hist_add(&h[0], v);
	histlog_tick(&hl, clat, bs, 499);	/* window not over */
	ck_assert_ptr_null(hl.head);
	histlog_tick(&hl, clat, bs, 500);	/* reads moved, writes did not: one entry */
	ck_assert_ptr_nonnull(hl.head);
	ck_assert_uint_eq(hl.head->nr, 1);
	row = hl.head->v;
	ck_assert_uint_eq(row[0], 500);
	ck_assert_uint_eq(row[1], 0);
	ck_assert_uint_eq(row[2], 4096);
	ck_assert_uint_eq(row[3], 4);
	ck_assert_uint_eq(row[4], 4);
	for (unsigned i = 0; i < hl.columns; i++)
		sum += row[3 + i];
	ck_assert_uint_eq(sum, 8);
	ck_assert_uint_eq(hl.due_ms, 510);	/* writes due, no I/O yet: looked at again soon */
	hist_add(&h[0], 1000000);		/* 1 ms: a high bucket */
	hist_add(&h[1], 3);
	histlog_tick(&hl, clat, bs, 900);	/* reads: not yet; writes: due since 500 */
	ck_assert_uint_eq(hl.head->nr, 2);
	row = hl.head->v + (3 + hl.columns);
	ck_assert_uint_eq(row[1], 1);
	ck_assert_uint_eq(row[3], 1);
	histlog_tick(&hl, clat, bs, 1000);
	ck_assert_uint_eq(hl.head->nr, 3);
	row = hl.head->v + 2 * (3 + hl.columns);
	sum = 0;
	for (unsigned i = 0; i < hl.columns; i++)
		sum += row[3 + i];
	ck_assert_uint_eq(sum, 1);		/* only the new one */
	ck_assert_uint_eq(row[3 + (hist_idx(1000000) >> 2)], 1);
	histlog_reset(&hl);
	ck_assert_uint_eq(hl.due_ms, 500);
	histlog_release(&hl);
	free(h);
}
END_TEST

START_TEST(test_msec_zero_no_entries)
{
	struct job j = mkjob("p", 0, 0);
	struct histlog hl;
	struct hist *h = calloc(1, sizeof(*h));
	const struct hist *clat[DDIR_NR] = { h, NULL, NULL };
	uint64_t bs[DDIR_NR] = { 0 };

	ck_assert_int_eq(histlog_init(&hl, &j), 0);
	hist_add(h, 5);
	histlog_tick(&hl, clat, bs, 100000);
	ck_assert_ptr_null(hl.head);
	ck_assert_uint_eq(hl.due_ms, UINT64_MAX);
	histlog_release(&hl);
	free(h);
}
END_TEST

Suite *histlog_suite(void)
{
	Suite *s = suite_create("histlog");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_columns);
	tcase_add_test(tc, test_name);
	tcase_add_test(tc, test_format);
	tcase_add_test(tc, test_tick_deltas_coarse);
	tcase_add_test(tc, test_msec_zero_no_entries);
	suite_add_tcase(s, tc);
	return s;
}
