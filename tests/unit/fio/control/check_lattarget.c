/* SPDX-License-Identifier: MIT */
/* Unit tests of latency_target's depth probing (lib/fio/control/lattarget.c): the sequence of depths
 * for windows that pass or fail, single slow I/Os at percentile 100, the last window and the
 * end, latency_run, empty windows and the edges (depth 1, iodepth 1, the window not over). */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "fio/control/lattarget.h"

#define WIN	1000000ull	/* 1 ms windows */
#define MAX_STEPS 12

/* One event: 'W' the window's end with n I/Os done in it, 'E' a look before the window's
 * end, 'S' a slow I/O. Then what it returns and the depth after it. */
struct lt_step {
	char ev;
	uint64_t n;
	enum lat_target_act act;
	unsigned qd;
};

struct lt_case {
	const char *what;
	double pct;
	unsigned max_qd;
	bool keep_going;
	struct lt_step steps[MAX_STEPS];
};

static const struct lt_case lt_cases[] = {
	{ "all pass: double up to iodepth, last window, done", 100.0, 8, false,
	  { { 'W', 10, LAT_TARGET_CYCLE, 2 }, { 'W', 10, LAT_TARGET_CYCLE, 4 }, { 'W', 10, LAT_TARGET_CYCLE, 8 },
	    { 'W', 10, LAT_TARGET_FINAL, 8 }, { 'W', 10, LAT_TARGET_DONE, 8 } } },
	{ "a slow I/O at 4: bisect between 2 and 4", 100.0, 8, false,
	  { { 'W', 10, LAT_TARGET_CYCLE, 2 }, { 'W', 10, LAT_TARGET_CYCLE, 4 }, { 'S', 0, LAT_TARGET_DOWN, 3 },
	    { 'W', 10, LAT_TARGET_FINAL, 3 }, { 'W', 10, LAT_TARGET_DONE, 3 } } },
	{ "slow at depth 1, percentile 100: the job fails", 100.0, 8, false,
	  { { 'S', 0, LAT_TARGET_FATAL, 1 } } },
	{ "percentile 50, 3 of 4 slow at depth 1: stays", 50.0, 8, false,
	  { { 'S', 0, LAT_TARGET_NONE, 1 }, { 'S', 0, LAT_TARGET_NONE, 1 }, { 'S', 0, LAT_TARGET_NONE, 1 },
	    { 'W', 4, LAT_TARGET_NONE, 1 }, { 'W', 4, LAT_TARGET_NONE, 1 } } },
	{ "percentile 50: 6 of 10 slow at 2: back to 1, which is then the last", 50.0, 4, false,
	  { { 'W', 10, LAT_TARGET_CYCLE, 2 }, { 'S', 0, LAT_TARGET_NONE, 2 }, { 'S', 0, LAT_TARGET_NONE, 2 },
	    { 'S', 0, LAT_TARGET_NONE, 2 }, { 'S', 0, LAT_TARGET_NONE, 2 }, { 'S', 0, LAT_TARGET_NONE, 2 },
	    { 'S', 0, LAT_TARGET_NONE, 2 }, { 'W', 10, LAT_TARGET_DOWN, 1 }, { 'W', 10, LAT_TARGET_FINAL, 1 } } },
	{ "percentile 50: exactly half within passes", 50.0, 4, false,
	  { { 'S', 0, LAT_TARGET_NONE, 1 }, { 'W', 2, LAT_TARGET_CYCLE, 2 } } },
	{ "latency_run: never settles, back up after a slow I/O", 100.0, 2, true,
	  { { 'W', 10, LAT_TARGET_CYCLE, 2 }, { 'W', 10, LAT_TARGET_CYCLE, 2 }, { 'W', 10, LAT_TARGET_CYCLE, 2 },
	    { 'S', 0, LAT_TARGET_DOWN, 1 }, { 'W', 10, LAT_TARGET_CYCLE, 2 }, { 'W', 10, LAT_TARGET_CYCLE, 2 } } },
	{ "empty windows: fail, nowhere to go at 1", 100.0, 4, false,
	  { { 'W', 0, LAT_TARGET_NONE, 1 }, { 'W', 10, LAT_TARGET_CYCLE, 2 }, { 'W', 0, LAT_TARGET_DOWN, 1 } } },
	{ "iodepth 1: the last window at once", 100.0, 1, false,
	  { { 'W', 10, LAT_TARGET_FINAL, 1 }, { 'W', 10, LAT_TARGET_DONE, 1 } } },
	{ "the window is not over", 100.0, 8, false,
	  { { 'E', 10, LAT_TARGET_NONE, 1 }, { 'W', 10, LAT_TARGET_CYCLE, 2 }, { 'E', 10, LAT_TARGET_NONE, 2 } } },
	{ "slow at the depth that passed: the low end steps down, then up again", 100.0, 3, false,
	  { { 'W', 10, LAT_TARGET_CYCLE, 2 }, { 'W', 10, LAT_TARGET_CYCLE, 3 }, { 'W', 10, LAT_TARGET_FINAL, 3 },
	    { 'S', 0, LAT_TARGET_DOWN, 2 }, { 'W', 10, LAT_TARGET_CYCLE, 3 }, { 'W', 10, LAT_TARGET_DONE, 3 } } },
	{ "slow after the last window started: it still ends", 100.0, 4, false,
	  { { 'W', 10, LAT_TARGET_CYCLE, 2 }, { 'W', 10, LAT_TARGET_CYCLE, 4 }, { 'W', 10, LAT_TARGET_FINAL, 4 },
	    { 'S', 0, LAT_TARGET_DOWN, 3 }, { 'W', 10, LAT_TARGET_CYCLE, 4 }, { 'W', 10, LAT_TARGET_DONE, 4 } } },
	{ "a huge iodepth: no overflow when doubling", 100.0, 65536, false,
	  { { 'W', 1, LAT_TARGET_CYCLE, 2 }, { 'W', 1, LAT_TARGET_CYCLE, 4 }, { 'W', 1, LAT_TARGET_CYCLE, 8 },
	    { 'W', 1, LAT_TARGET_CYCLE, 16 }, { 'W', 1, LAT_TARGET_CYCLE, 32 } } },
};

START_TEST(test_lat_target_steps)
{
	const struct lt_case *c = &lt_cases[_i];
	struct job job;
	struct lat_target lt;
	uint64_t now = 5000, ios = 100;

	memset(&job, 0, sizeof(job));
	job.lat_target_ns = 2000000;
	job.lat_window_ns = WIN;
	job.lat_pct = c->pct;
	job.lat_run = c->keep_going;
	lat_target_init(&lt, &job, c->max_qd, now, ios);
	ck_assert_uint_eq(lt.qd, 1);
	for (unsigned s = 0; s < MAX_STEPS && c->steps[s].ev; s++) {
		const struct lt_step *st = &c->steps[s];
		enum lat_target_act a;

		if (st->ev == 'S') {
			a = lat_target_slow(&lt);
		} else {
			uint64_t at = lt.t0_ns + (st->ev == 'W' ? WIN : WIN - 1);

			a = lat_target_check(&lt, at, lt.ios0 + st->n);
			if (a == LAT_TARGET_NONE)
				continue;
			now = at;
			ios = lt.ios0 + st->n;
		}
		ck_assert_msg(a == st->act, "%s, step %u: act %d, want %d", c->what, s, (int)a, (int)st->act);
		ck_assert_msg(lt.qd == st->qd, "%s, step %u: depth %u, want %u", c->what, s, lt.qd, st->qd);
		ck_assert_uint_ge(lt.qd, 1);
		ck_assert_uint_le(lt.qd, c->max_qd);
		if (a == LAT_TARGET_CYCLE || a == LAT_TARGET_DOWN || a == LAT_TARGET_FINAL)
			lat_target_cycle(&lt, now, ios);
	}
}
END_TEST

/* The first window starts where init says, and a new one forgets the slow I/Os. */
START_TEST(test_lat_target_cycle)
{
	struct job job;
	struct lat_target lt;

	memset(&job, 0, sizeof(job));
	job.lat_window_ns = 10;
	job.lat_pct = 90.0;
	lat_target_init(&lt, &job, 0, 77, 5);
	ck_assert_uint_eq(lt.max_qd, 1);	/* iodepth 0 is taken as 1 */
	ck_assert_uint_eq(lt.t0_ns, 77);
	ck_assert_uint_eq(lt.ios0, 5);
	ck_assert_int_eq(lat_target_slow(&lt), LAT_TARGET_NONE);
	ck_assert_uint_eq(lt.failed, 1);
	lat_target_cycle(&lt, 100, 9);
	ck_assert_uint_eq(lt.failed, 0);
	ck_assert_int_eq(lat_target_check(&lt, 99, 20), LAT_TARGET_NONE);	/* clock behind the start */
	ck_assert_int_eq(lat_target_check(&lt, 110, 19), LAT_TARGET_FINAL);
	ck_assert(lt.last_rate == 100.0);
}
END_TEST

Suite *lattarget_suite(void);

Suite *lattarget_suite(void)
{
	Suite *s = suite_create("lattarget");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_lat_target_steps, 0, (int)(sizeof(lt_cases) / sizeof(lt_cases[0])));
	tcase_add_test(tc, test_lat_target_cycle);
	suite_add_tcase(s, tc);
	return s;
}
