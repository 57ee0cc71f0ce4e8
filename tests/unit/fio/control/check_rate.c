/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "fio/conf/opt.h"
#include "fio/conf/opt_rate.h"
#include "fio/control/rate.h"
#include "runner_testjob.h"

#define NS_S 1000000000ull
#define NS_MS 1000000ull

/* ---- linear spacing --------------------------------------------------------------------- */

struct ns_case {
	uint64_t bytes, bps, want_ns;
};

static const struct ns_case ns_cases[] = {
	{ 0, 1000, 0 },
	{ 4096, 0, 0 },					/* unlimited */
	{ 4096, 4096, NS_S },
	{ 4096, 4096 * 500, 2 * NS_MS },		/* rate_iops=500 */
	{ 1, 3, 333333333 },				/* truncated like fio's usec maths */
	{ 4096 * 3 + 1, 4096, 3 * NS_S + 244140 },
	{ UINT64_MAX, UINT64_MAX, NS_S },		/* huge rate: no overflow */
	{ UINT64_MAX - 1, UINT64_MAX, NS_S - 1 },
	{ UINT64_MAX, 1, UINT64_MAX },			/* saturates */
	{ 18446744073ull, 1, UINT64_MAX },		/* secs x 1e9 would overflow */
	{ 18446744072ull, 1, 18446744072ull * NS_S },
};

START_TEST(test_ns_for_bytes)
{
	const struct ns_case *c = &ns_cases[_i];

	ck_assert_uint_eq(rate_ns_for_bytes(c->bytes, c->bps), c->want_ns);
}
END_TEST

static void job_rate(struct job *j, enum rw_mode rw)
{
	testjob_init(j, rw);
	j->rate_cycle_ms = 1000;
	j->thinktime_blocks = 1;
}

START_TEST(test_linear_iops)
{
	struct job j;
	struct rate r;
	uint64_t until;

	job_rate(&j, RW_READ);
	j.rate_iops[DDIR_READ] = 500;
	ck_assert(rate_enabled(&j));
	rate_init(&r, &j, 1);
	ck_assert_uint_eq(r.bps[DDIR_READ], 500 * 4096);
	ck_assert_uint_eq(r.bps[DDIR_WRITE], 0);	/* not used by rw=read */
	/* I/O n may start at n x 2 ms */
	for (unsigned n = 0; n < 1000; n++) {
		uint64_t now = n * 2 * NS_MS;

		ck_assert_int_eq(rate_pick(&r, DDIR_READ, now, &until), DDIR_READ);
		ck_assert_uint_eq(until, 0);
		rate_issued(&r, DDIR_READ, 4096);
		ck_assert_int_eq(rate_pick(&r, DDIR_READ, now + 1, &until), DDIR_READ);
		ck_assert_uint_eq(until, (n + 1) * 2 * NS_MS);
	}
	/* late: catch up at once */
	ck_assert_int_eq(rate_pick(&r, DDIR_READ, 10 * NS_S, &until), DDIR_READ);
	ck_assert_uint_eq(until, 0);
}
END_TEST

START_TEST(test_rate_wins_over_iops)
{
	struct job j;
	struct rate r;

	job_rate(&j, RW_RANDRW);
	j.bs_min[DDIR_WRITE] = 8192;
	j.rate_bps[DDIR_READ] = 1 << 20;
	j.rate_iops[DDIR_READ] = 10;
	j.rate_iops[DDIR_WRITE] = 10;
	rate_init(&r, &j, 1);
	ck_assert_uint_eq(r.bps[DDIR_READ], 1 << 20);
	ck_assert_uint_eq(r.bps[DDIR_WRITE], 81920);	/* iops x smallest write bs */
	/* huge rate_iops x bs saturates instead of wrapping */
	j.rate_iops[DDIR_WRITE] = UINT64_MAX / 2;
	rate_init(&r, &j, 1);
	ck_assert_uint_eq(r.bps[DDIR_WRITE], UINT64_MAX);
	rate_issued(&r, DDIR_WRITE, 8192);
	ck_assert_uint_eq(r.next_ns[DDIR_WRITE], 0);
}
END_TEST

START_TEST(test_zero_is_off)
{
	struct job j;

	job_rate(&j, RW_RANDRW);
	ck_assert(!rate_enabled(&j));
	ck_assert(!rate_min_enabled(&j));
	j.rate_bps[DDIR_TRIM] = 1000;	/* a direction the job does not use */
	ck_assert(!rate_enabled(&j));
	j.rate_iops[DDIR_WRITE] = 1;
	ck_assert(rate_enabled(&j));
}
END_TEST

/* Mixed jobs switch to the other direction when it is behind, else wait for the earlier. */
START_TEST(test_per_direction_switch)
{
	struct job j;
	struct rate r;
	uint64_t until;

	job_rate(&j, RW_RANDRW);
	j.rate_iops[DDIR_READ] = 100;	/* 10 ms */
	j.rate_iops[DDIR_WRITE] = 50;	/* 20 ms */
	rate_init(&r, &j, 1);
	rate_issued(&r, DDIR_READ, 4096);
	/* read ahead, write due: switch */
	ck_assert_int_eq(rate_pick(&r, DDIR_READ, 1, &until), DDIR_WRITE);
	ck_assert_uint_eq(until, 0);
	rate_issued(&r, DDIR_WRITE, 4096);
	/* both ahead: the earlier one (read at 10 ms), from either choice */
	ck_assert_int_eq(rate_pick(&r, DDIR_WRITE, 2, &until), DDIR_READ);
	ck_assert_uint_eq(until, 10 * NS_MS);
	ck_assert_int_eq(rate_pick(&r, DDIR_READ, 2, &until), DDIR_READ);
	ck_assert_uint_eq(until, 10 * NS_MS);
	/* rwmixread=100: never switch to write */
	j.rwmixread = 100;
	rate_init(&r, &j, 1);
	rate_issued(&r, DDIR_READ, 4096);
	ck_assert_int_eq(rate_pick(&r, DDIR_READ, 1, &until), DDIR_READ);
	ck_assert_uint_eq(until, 10 * NS_MS);
	/* only writes limited: a write ahead of its rate becomes a read */
	job_rate(&j, RW_RANDRW);
	j.rate_bps[DDIR_WRITE] = 512000;
	rate_init(&r, &j, 1);
	rate_issued(&r, DDIR_WRITE, 4096);
	ck_assert_int_eq(rate_pick(&r, DDIR_WRITE, 1, &until), DDIR_READ);
	ck_assert_uint_eq(until, 0);
}
END_TEST

START_TEST(test_poisson)
{
	struct job j;
	struct rate r, r2;
	uint64_t sum = 0, prev = 0;
	const unsigned n = 20000;

	job_rate(&j, RW_READ);
	j.rate_iops[DDIR_READ] = 1000;
	j.rate_poisson = true;
	rate_init(&r, &j, 42);
	rate_init(&r2, &j, 42);
	for (unsigned i = 0; i < n; i++) {
		rate_issued(&r, DDIR_READ, 4096);
		rate_issued(&r2, DDIR_READ, 4096);
		ck_assert_uint_ge(r.next_ns[DDIR_READ], prev);
		prev = r.next_ns[DDIR_READ];
	}
	sum = r.next_ns[DDIR_READ];
	ck_assert_uint_eq(sum, r2.next_ns[DDIR_READ]);	/* same seed, same times */
	/* mean gap 1 ms within 3 % */
	ck_assert_uint_gt(sum / n, 970000);
	ck_assert_uint_lt(sum / n, 1030000);
}
END_TEST

START_TEST(test_credit)
{
	struct job j;
	struct rate r;
	uint64_t until;

	job_rate(&j, RW_READ);
	j.rate_iops[DDIR_READ] = 100;	/* 10 ms per I/O */
	rate_init(&r, &j, 1);
	rate_issued(&r, DDIR_READ, 4096);
	/* thought 100 ms: 10 I/Os of credit minus one, so the next starts at once */
	rate_credit(&r, DDIR_READ, 100 * NS_MS);
	ck_assert_uint_eq(r.issued_bytes[DDIR_READ], 4096 + 9 * 4096);
	ck_assert_int_eq(rate_pick(&r, DDIR_READ, 100 * NS_MS + 10 * NS_MS, &until), DDIR_READ);
	ck_assert_uint_eq(until, 0);
	/* a short think (below one I/O) adds what it missed, no block removed */
	rate_init(&r, &j, 1);
	rate_credit(&r, DDIR_READ, 5 * NS_MS);
	ck_assert_uint_eq(r.issued_bytes[DDIR_READ], 2048);
}
END_TEST

/* ---- minimum rates ---------------------------------------------------------------------- */

START_TEST(test_rate_min)
{
	struct job j;
	struct rate_min m;
	char msg[200];

	job_rate(&j, RW_READ);
	j.rate_min_bps[DDIR_READ] = 1 << 20;
	ck_assert(rate_min_enabled(&j));
	rate_min_init(&m, &j);
	/* nothing in the first 2 s */
	ck_assert(!rate_min_failed(&m, "a", DDIR_READ, 1999 * NS_MS, 1, 1, msg, sizeof(msg)));
	/* first sample arms, next cycle checks */
	ck_assert(!rate_min_failed(&m, "a", DDIR_READ, 2000 * NS_MS, 4 << 20, 1024, msg, sizeof(msg)));
	ck_assert(!rate_min_failed(&m, "a", DDIR_READ, 2999 * NS_MS, 4 << 20, 1024, msg, sizeof(msg)));
	ck_assert(!rate_min_failed(&m, "a", DDIR_READ, 3000 * NS_MS, 5 << 20, 1280, msg, sizeof(msg)));
	ck_assert(rate_min_failed(&m, "a", DDIR_READ, 4000 * NS_MS, (5 << 20) + 1000, 1281, msg, sizeof(msg)));
	ck_assert_str_eq(msg, "a: rate_min=1048576B/s not met, got 1000B/s");
}
END_TEST

START_TEST(test_rate_iops_min)
{
	struct job j;
	struct rate_min m;
	char msg[200];

	job_rate(&j, RW_RANDRW);
	j.rate_iops_min[DDIR_WRITE] = 80;
	j.rate_cycle_ms = 500;
	rate_min_init(&m, &j);
	ck_assert(!rate_min_failed(&m, "w", DDIR_READ, 5 * NS_S, 1, 1, msg, sizeof(msg)));	/* no minimum */
	ck_assert(!rate_min_failed(&m, "w", DDIR_WRITE, 2 * NS_S, 4096, 100, msg, sizeof(msg)));
	ck_assert(rate_min_failed(&m, "w", DDIR_WRITE, 2500 * NS_MS, 4096 * 130, 130, msg, sizeof(msg)));
	ck_assert_str_eq(msg, "w: rate_iops_min=80 not met, got 60 IOPS");
	/* fio's other message: fewer I/Os in total than the minimum rate */
	rate_min_init(&m, &j);
	ck_assert(!rate_min_failed(&m, "w", DDIR_WRITE, 2 * NS_S, 4096, 10, msg, sizeof(msg)));
	ck_assert(rate_min_failed(&m, "w", DDIR_WRITE, 3 * NS_S, 4096 * 50, 50, msg, sizeof(msg)));
	ck_assert_str_eq(msg, "w: rate_iops_min=80 not met, only performed 50 IOs");
	/* no bytes in a direction: not checked */
	rate_min_init(&m, &j);
	ck_assert(!rate_min_failed(&m, "w", DDIR_WRITE, 9 * NS_S, 0, 0, msg, sizeof(msg)));
}
END_TEST

/* ---- think time ------------------------------------------------------------------------- */

START_TEST(test_think_due)
{
	struct job j;

	job_rate(&j, RW_READ);
	j.thinktime_ns = NS_MS;
	ck_assert(rate_think_due(&j, 1, 0, 0));
	ck_assert(!rate_think_due(&j, 5, 5, 0));
	j.thinktime_blocks = 4;
	ck_assert(!rate_think_due(&j, 3, 0, 0));
	ck_assert(rate_think_due(&j, 4, 0, 0));
	j.thinktime_blocks = 0;
	ck_assert(rate_think_due(&j, 0, 0, 0));
	/* iotime without thinktime_blocks: time only */
	j.thinktime_blocks = 1;
	j.thinktime_iotime_ns = NS_S;
	ck_assert(!rate_think_due(&j, 100, 0, NS_S));
	ck_assert(rate_think_due(&j, 100, 0, NS_S + NS_MS));
	/* with thinktime_blocks given: whichever first */
	j.thinktime_blocks_set = true;
	j.thinktime_blocks = 50;
	ck_assert(rate_think_due(&j, 100, 0, 0));
	ck_assert(!rate_think_due(&j, 10, 0, 0));
}
END_TEST

/* ---- options ---------------------------------------------------------------------------- */

struct opt_case {
	const char *name, *val;
	int ret;
	uint64_t want[3];	/* the per-direction field, or [0] for scalars */
};

static const struct opt_case opt_cases[] = {
	{ "rate", "1m", 0, { 1 << 20, 1 << 20, 1 << 20 } },
	{ "rate", "1m,500k", 0, { 1 << 20, 500 << 10, 500 << 10 } },
	{ "rate", ",500k", 0, { 0, 500 << 10, 500 << 10 } },
	{ "rate", "1m,", 0, { 1 << 20, 0, 0 } },
	{ "rate", "0", 0, { 0, 0, 0 } },
	{ "rate", "abc", -22, { 0 } },
	{ "rate", "-1", -22, { 0 } },
	{ "rate", "99999999999999999999", -22, { 0 } },
	{ "rate", "", -22, { 0 } },
	{ "rate_iops", "100,50", 0, { 100, 50, 50 } },
	{ "rate_iops", "1k", 0, { 1024, 1024, 1024 } },
	{ "rate_min", "1k", 0, { 1024, 1024, 1024 } },
	{ "ratemin", "2k", 0, { 2048, 2048, 2048 } },
	{ "rate_iops_min", ",80", 0, { 0, 80, 80 } },
	{ "rate_cycle", "250", 0, { 250 } },
	{ "ratecycle", "0", 0, { 0 } },
	{ "rate_cycle", "abc", -22, { 0 } },
	{ "rate_cycle", "5000000000", 0, { 705032704 } },	/* fio's 32-bit field */
	{ "rate_process", "poisson", 0, { 1 } },
	{ "rate_process", "linear", 0, { 0 } },
	{ "rate_process", "foo", -22, { 0 } },
	{ "rate_ignore_thinktime", "1", 0, { 1 } },
	{ "rate_ignore_thinktime", "2", -22, { 0 } },
	{ "thinktime", "100", 0, { 100000 } },
	{ "thinktime", "1ms", 0, { 1000000 } },
	{ "thinktime", "2s", 0, { 2000000000 } },
	{ "thinktime", "abc", -22, { 0 } },
	{ "thinktime_spin", "10", 0, { 10000 } },
	{ "thinktime_iotime", "9", 0, { 9000000000ull } },
	{ "thinktime_iotime", "500ms", 0, { 500000000 } },
	{ "thinktime_blocks", "0", 0, { 0 } },
	{ "thinktime_blocks", "16", 0, { 16 } },
	{ "thinktime_blocks_type", "issue", 0, { 1 } },
	{ "thinktime_blocks_type", "x", -22, { 0 } },
};

static void opt_value(const struct opt_job *oj, const char *name, uint64_t out[3])
{
	const struct job *j = &oj->j;
	const uint64_t *v = NULL;

	memset(out, 0, 3 * sizeof(out[0]));
	if (!strcmp(name, "rate"))
		v = j->rate_bps;
	else if (!strcmp(name, "rate_iops"))
		v = j->rate_iops;
	else if (!strcmp(name, "rate_min") || !strcmp(name, "ratemin"))
		v = j->rate_min_bps;
	else if (!strcmp(name, "rate_iops_min"))
		v = j->rate_iops_min;
	if (v) {
		memcpy(out, v, 3 * sizeof(out[0]));
		return;
	}
	if (!strncmp(name, "rate_cycle", 10) || !strcmp(name, "ratecycle"))
		out[0] = j->rate_cycle_ms;
	else if (!strcmp(name, "rate_process"))
		out[0] = j->rate_poisson;
	else if (!strcmp(name, "rate_ignore_thinktime"))
		out[0] = j->rate_ignore_thinktime;
	else if (!strcmp(name, "thinktime"))
		out[0] = j->thinktime_ns;
	else if (!strcmp(name, "thinktime_spin"))
		out[0] = j->thinktime_spin_ns;
	else if (!strcmp(name, "thinktime_iotime"))
		out[0] = j->thinktime_iotime_ns;
	else if (!strcmp(name, "thinktime_blocks"))
		out[0] = j->thinktime_blocks;
	else if (!strcmp(name, "thinktime_blocks_type"))
		out[0] = j->thinktime_blocks_issue;
}

START_TEST(test_options)
{
	const struct opt_case *c = &opt_cases[_i];
	const struct opt_def *od = opt_find(c->name);
	struct opt_job oj;
	struct opt_diag d;
	uint64_t got[3];
	int ret;

	ck_assert_ptr_nonnull(od);
	ck_assert_int_ne(od->type, OPT_T_UNSUPPORTED);
	opt_job_init(&oj);
	ck_assert_uint_eq(oj.j.rate_cycle_ms, 1000);
	ck_assert_uint_eq(oj.j.thinktime_blocks, 1);
	opt_diag_init(&d);
	ret = opt_apply(&oj, od, c->val, &d);
	ck_assert_msg(ret == c->ret, "%s=%s: %d", c->name, c->val, ret);
	if (!ret) {
		opt_value(&oj, c->name, got);
		for (int i = 0; i < 3; i++)
			ck_assert_msg(got[i] == c->want[i], "%s=%s [%d]: %llu", c->name, c->val, i,
				      (unsigned long long)got[i]);
	} else {
		ck_assert_uint_ge(d.nr, 1);
	}
	opt_job_release(&oj);
}
END_TEST

START_TEST(test_check)
{
	struct job j;
	struct opt_diag d;

	job_rate(&j, RW_READ);
	opt_diag_init(&d);
	j.rate_iops[DDIR_READ] = j.rate_iops[DDIR_WRITE] = j.rate_iops[DDIR_TRIM] = 100;
	j.rate_iops_min[DDIR_WRITE] = j.rate_iops_min[DDIR_TRIM] = 200;
	ck_assert_int_eq(opt_rate_check(&j, &d), -22);
	ck_assert_uint_eq(d.nr, 2);
	ck_assert_str_eq(d.line[0], "fio: minimum rate exceeds rate, ddir 1");
	ck_assert_str_eq(d.line[1], "fio: minimum rate exceeds rate, ddir 2");
	job_rate(&j, RW_READ);
	opt_diag_init(&d);
	j.rate_min_bps[DDIR_READ] = 1000;	/* no rate: fine */
	j.thinktime_ns = 10;
	j.thinktime_spin_ns = 50;
	ck_assert_int_eq(opt_rate_check(&j, &d), 0);
	ck_assert_uint_eq(j.thinktime_spin_ns, 10);	/* capped at thinktime */
}
END_TEST

Suite *rate_suite(void)
{
	Suite *s = suite_create("rate");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_ns_for_bytes, 0, (int)(sizeof(ns_cases) / sizeof(ns_cases[0])));
	tcase_add_test(tc, test_linear_iops);
	tcase_add_test(tc, test_rate_wins_over_iops);
	tcase_add_test(tc, test_zero_is_off);
	tcase_add_test(tc, test_per_direction_switch);
	tcase_add_test(tc, test_poisson);
	tcase_add_test(tc, test_credit);
	tcase_add_test(tc, test_rate_min);
	tcase_add_test(tc, test_rate_iops_min);
	tcase_add_test(tc, test_think_due);
	tcase_add_loop_test(tc, test_options, 0, (int)(sizeof(opt_cases) / sizeof(opt_cases[0])));
	tcase_add_test(tc, test_check);
	suite_add_tcase(s, tc);
	return s;
}
