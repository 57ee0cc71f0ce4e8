/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fio/control/steadystate.h"

#define NS_S 1000000000ull

/* ---- ss_parse ---------------------------------------------------------------------------- */

struct parse_case {
	const char *val;
	int ret;
	bool iops, slope, pct;
	double limit;
	const char *debug;
};

static const struct parse_case parse_cases[] = {
	{ "iops:10", 0, true, false, false, 10, "set steady state IOPS threshold to 10.000000" },
	{ "iops:10%", 0, true, false, true, 10, "set steady state threshold to 10.000000%" },
	{ "iops:.1%", 0, true, false, true, 0.1, "set steady state threshold to 0.100000%" },
	{ "bw:10%", 0, false, false, true, 10, "set steady state threshold to 10.000000%" },
	{ "bw:.1%", 0, false, false, true, 0.1, "set steady state threshold to 0.100000%" },
	{ "bw:12", 0, false, false, false, 12, "set steady state BW threshold to 12" },
	{ "bw:1m", 0, false, false, false, 1048576, "set steady state BW threshold to 1048576" },
	{ "bw_slope:1k", 0, false, true, false, 1024, "set steady state BW threshold to 1024" },
	{ "iops_slope:0", 0, true, true, false, 0, "set steady state IOPS threshold to 0.000000" },
	{ "iops_slope:0.01%", 0, true, true, true, 0.01, "set steady state threshold to 0.010000%" },
	{ "iops:1.5", 0, true, false, false, 1.5, "set steady state IOPS threshold to 1.500000" },
	{ "iops:1e3", 0, true, false, false, 1000, "set steady state IOPS threshold to 1000.000000" },
	/* errors */
	{ "", SS_E_CRITERION, 0, 0, 0, 0, NULL },
	{ "foo:1", SS_E_CRITERION, 0, 0, 0, 0, NULL },
	{ "IOPS:1", SS_E_CRITERION, 0, 0, 0, 0, NULL },
	{ "iopsx:1", SS_E_CRITERION, 0, 0, 0, 0, NULL },
	{ "iop:1", SS_E_CRITERION, 0, 0, 0, 0, NULL },
	{ "iops", SS_E_NO_LIMIT, 0, 0, 0, 0, NULL },
	{ "bw_slope", SS_E_NO_LIMIT, 0, 0, 0, 0, NULL },
	{ "iops:", SS_E_IOPS_LIMIT, 0, 0, 0, 0, NULL },
	{ "iops:abc", SS_E_IOPS_LIMIT, 0, 0, 0, 0, NULL },
	{ "bw:", SS_E_BW_LIMIT, 0, 0, 0, 0, NULL },
	{ "bw:abc", SS_E_BW_LIMIT, 0, 0, 0, 0, NULL },
	{ "bw:abc%", SS_E_PCT_LIMIT, 0, 0, 0, 0, NULL },
	{ "iops:%", SS_E_PCT_LIMIT, 0, 0, 0, 0, NULL },
	/* what fio 3.33 reads in the rest (issue 21: iops refused these): a number followed by
	 * anything, negative ones, a bandwidth cut at its '.', 'e' no suffix (nan and inf too) */
	{ "iops:1x", 0, true, false, false, 1, "set steady state IOPS threshold to 1.000000" },
	{ "iops:-1", 0, true, false, false, -1, "set steady state IOPS threshold to -1.000000" },
	{ "bw:1.5", 0, false, false, false, 1, "set steady state BW threshold to 1" },
	{ "bw:-5", 0, false, false, false, -5, "set steady state BW threshold to -5" },
	{ "bw:16e", 0, false, false, false, 16, "set steady state BW threshold to 16" },
	{ "iops:10%x", 0, true, false, true, 10, "set steady state threshold to 10.000000%" },
	{ "iops:5%x", 0, true, false, true, 5, "set steady state threshold to 5.000000%" },
	{ "iops:-1%", 0, true, false, true, -1, "set steady state threshold to -1.000000%" },
	{ "iops,x:5", 0, true, false, false, 5, "set steady state IOPS threshold to 5.000000" },
	{ "iops: 5 %", 0, true, false, true, 5, "set steady state threshold to 5.000000%" },
};

START_TEST(test_parse)
{
	const struct parse_case *c = &parse_cases[_i];
	struct job_ss ss = { .iops = true, .slope = true, .pct = true, .limit = 0.01, .dur_ns = 7 };
	char line[128];
	int r = ss_parse(c->val, 1024, &ss);

	ck_assert_msg(r == c->ret, "%s: %d, want %d", c->val, r, c->ret);
	if (r) {	/* untouched on error */
		ck_assert(ss.iops && ss.slope && ss.pct && ss.limit == 0.01);
		return;
	}
	ck_assert_msg(ss.iops == c->iops && ss.slope == c->slope && ss.pct == c->pct, "%s", c->val);
	ck_assert_msg(fabs(ss.limit - c->limit) < 1e-12, "%s: %f", c->val, ss.limit);
	ck_assert_uint_eq(ss.dur_ns, 7);
	ss_parse_debug_line(&ss, line, sizeof(line));
	ck_assert_str_eq(line, c->debug);
}
END_TEST

START_TEST(test_parse_null_and_kb_base)
{
	struct job_ss ss = { 0 };

	ck_assert_int_eq(ss_parse(NULL, 1024, &ss), SS_E_CRITERION);
	ck_assert_int_eq(ss_parse("bw:1k", 1000, &ss), 0);
	ck_assert(ss.limit == 1000);
}
END_TEST

/* ---- ss_evaluate --------------------------------------------------------------------------- */

static struct job_ss mk(bool iops, bool slope, bool pct, double limit)
{
	struct job_ss s = { .iops = iops, .slope = slope, .pct = pct, .limit = limit, .dur_ns = 3 * NS_S };

	return s;
}

START_TEST(test_eval_slope_matches_fio)
{
	/* fio 3.33's own run: iops 2055279, 2021848, 2051260 -> slope -2009.5, -0.098370% */
	uint64_t iops[] = { 2055279, 2021848, 2051260 }, bw[] = { 1, 2, 3 };
	struct job_ss s = mk(true, true, true, 0.1);
	struct ss_eval e;

	ss_evaluate(&s, bw, iops, 3, &e);
	ck_assert(fabs(e.slope - -2009.5) < 1e-9);
	ck_assert(fabs(e.criterion - -0.0983696) < 1e-6);
	ck_assert(e.attained);			/* |criterion| < limit */
	ck_assert(e.deviation == 0);		/* slope mode leaves it 0, as fio */
	s.limit = 0.09;
	ss_evaluate(&s, bw, iops, 3, &e);
	ck_assert(!e.attained);
}
END_TEST

START_TEST(test_eval_deviation_matches_fio)
{
	/* fio 3.33: bw 2272449511, 2188268524 -> max deviation 42090493.5 */
	uint64_t bw[] = { 2272449511ull, 2188268524ull }, iops[] = { 0, 0 };
	struct job_ss s = mk(false, false, false, 1);
	struct ss_eval e;

	ss_evaluate(&s, bw, iops, 2, &e);
	ck_assert(fabs(e.deviation - 42090493.5) < 1e-6);
	ck_assert(e.criterion == e.deviation && e.slope == 0 && !e.attained);
	s.limit = 42090494;
	ss_evaluate(&s, bw, iops, 2, &e);
	ck_assert(e.attained);
	s.limit = 42090493.5;			/* strictly below */
	ss_evaluate(&s, bw, iops, 2, &e);
	ck_assert(!e.attained);
}
END_TEST

START_TEST(test_eval_edges)
{
	uint64_t zero[4] = { 0 }, one[1] = { 100 }, flat[4] = { 7, 7, 7, 7 };
	uint64_t big[3] = { UINT64_MAX, UINT64_MAX - 1, UINT64_MAX };
	uint64_t up[4] = { 0, 10, 20, 30 };
	struct job_ss s;
	struct ss_eval e;

	s = mk(true, true, true, 1);		/* nothing moved: never steady, criterion 0 */
	ss_evaluate(&s, zero, zero, 4, &e);
	ck_assert(!e.attained && e.criterion == 0 && isfinite(e.slope));
	s = mk(true, false, true, 1);
	ss_evaluate(&s, zero, zero, 4, &e);
	ck_assert(!e.attained && e.criterion == 0);
	s = mk(true, true, false, 1);		/* one sample: slope 0, no division by zero */
	ss_evaluate(&s, one, one, 1, &e);
	ck_assert(e.slope == 0 && e.attained);
	s = mk(true, true, false, 0);		/* limit 0 is never met (strict) */
	ss_evaluate(&s, flat, flat, 4, &e);
	ck_assert(e.slope == 0 && !e.attained);
	s = mk(true, false, true, 0.001);	/* flat: deviation 0 */
	ss_evaluate(&s, flat, flat, 4, &e);
	ck_assert(e.deviation == 0 && e.attained);
	s = mk(true, true, false, 10.5);	/* exact line, slope 10 */
	ss_evaluate(&s, up, up, 4, &e);
	ck_assert(fabs(e.slope - 10) < 1e-12 && e.attained);
	s = mk(true, true, true, 100);		/* huge values stay finite */
	ss_evaluate(&s, big, big, 3, &e);
	ck_assert(isfinite(e.criterion) && isfinite(e.slope));
	ss_evaluate(&s, big, big, 0, &e);	/* empty window */
	ck_assert(!e.attained && e.criterion == 0);
	s = mk(false, true, false, 11);		/* bw judged, not iops */
	ss_evaluate(&s, up, zero, 4, &e);
	ck_assert(fabs(e.slope - 10) < 1e-12);
}
END_TEST

START_TEST(test_window)
{
	struct job_ss s = { 0 };

	s.dur_ns = 0;
	ck_assert_uint_eq(ss_window(&s), 1);
	s.dur_ns = 5 * NS_S;
	ck_assert_uint_eq(ss_window(&s), 5);
	s.dur_ns = 5 * NS_S + NS_S / 2;
	ck_assert_uint_eq(ss_window(&s), 5);
	s.dur_ns = UINT64_MAX;
	ck_assert_uint_eq(ss_window(&s), SS_MAX_WINDOW);
}
END_TEST

/* ---- a unit fed by hand ----------------------------------------------------------------- */

START_TEST(test_unit_single_job)
{
	struct job_ss s = mk(true, true, false, 1);	/* 3 samples, ramp 2 s */
	struct ss_unit u;
	struct ss_member m;
	struct ss_result *r;
	uint64_t t0 = 1000 * NS_S, ios = 0;

	s.ramp_ns = 2 * NS_S;
	ck_assert_int_eq(ss_unit_init(&u, &s, 1), 0);
	ss_member_start(&m, &u, 0, t0);
	for (unsigned k = 1; k <= 4; k++) {	/* 1 s, 2 s: ramp; 3, 4: two samples */
		ios += 1000;
		ss_member_tick(&m, t0 + k * NS_S, ios * 4096, ios);
	}
	ck_assert(!ss_unit_attained(&u) && !u.full && u.count == 2);
	ios += 1000;
	ss_member_tick(&m, t0 + 5 * NS_S, ios * 4096, ios);	/* window full, slope 0 */
	ck_assert(u.full && ss_unit_attained(&u));
	r = ss_unit_result(&u);
	ck_assert_ptr_nonnull(r);
	ck_assert(r->attained && r->nr == 3);
	for (unsigned i = 0; i < 3; i++) {
		ck_assert_uint_eq(r->iops[i], 1000);
		ck_assert_uint_eq(r->bw[i], 4096000);
	}
	free(r);
	ss_member_exit(&m);
	ss_unit_release(&u);
}
END_TEST

START_TEST(test_unit_group_sums_and_order)
{
	struct job_ss s = mk(true, true, false, 0.5);	/* 3 samples, no ramp */
	struct ss_unit u;
	struct ss_member a, b;
	struct ss_result *r;
	uint64_t t0 = NS_S, ia = 0, ib = 0;
	const uint64_t rates[] = { 100, 200, 300, 400, 500 };

	ck_assert_int_eq(ss_unit_init(&u, &s, 2), 0);
	ss_member_start(&a, &u, 0, t0);
	ss_member_start(&b, &u, 1, t0);
	for (unsigned k = 0; k < 5; k++) {
		ia += rates[k];
		ib += 1;
		ss_member_tick(&a, t0 + (k + 1) * NS_S, ia, ia);
		ck_assert_uint_eq(u.count, k < 3 ? k : 3);	/* waits for b */
		ss_member_tick(&b, t0 + (k + 1) * NS_S + 1000, ib, ib);
	}
	ck_assert(!ss_unit_attained(&u));		/* slope 100 */
	r = ss_unit_result(&u);
	ck_assert_ptr_nonnull(r);
	ck_assert(!r->attained && r->full && fabs(r->criterion - 100) < 0.01);
	ck_assert_uint_eq(r->iops[0], 301);		/* oldest first: the last three rounds */
	ck_assert_uint_eq(r->iops[1], 401);
	ck_assert_uint_eq(r->iops[2], 501);
	free(r);
	/* b leaves: a alone completes the rounds */
	ss_member_exit(&b);
	ss_member_tick(&a, t0 + 6 * NS_S, ia, ia);	/* nothing moved: rate 0 */
	ck_assert_uint_eq(u.iops[(u.head + 2) % 3], 0);
	ss_unit_release(&u);
}
END_TEST

START_TEST(test_unit_not_full_zeros)
{
	struct job_ss s = mk(false, true, true, 1);
	struct ss_unit u;
	struct ss_member m;
	struct ss_result *r;

	s.dur_ns = 4 * NS_S;
	ck_assert_int_eq(ss_unit_init(&u, &s, 1), 0);
	ss_member_start(&m, &u, 0, 0);
	ss_member_tick(&m, NS_S, 5000, 5);
	r = ss_unit_result(&u);
	ck_assert(!r->attained && !r->full && r->nr == 4 && r->criterion == 0);
	ck_assert_uint_eq(r->bw[0], 5000);
	ck_assert_uint_eq(r->bw[1], 0);
	ck_assert_uint_eq(r->bw[3], 0);
	free(r);
	ss_member_reset(&m, NS_S);	/* counters restart: no negative delta */
	ss_member_tick(&m, 2 * NS_S, 100, 1);
	ck_assert_uint_eq(u.bw[1], 100);
	ss_unit_release(&u);
}
END_TEST

Suite *steadystate_suite(void)
{
	Suite *s = suite_create("steadystate");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_parse, 0, (int)(sizeof(parse_cases) / sizeof(parse_cases[0])));
	tcase_add_test(tc, test_parse_null_and_kb_base);
	tcase_add_test(tc, test_eval_slope_matches_fio);
	tcase_add_test(tc, test_eval_deviation_matches_fio);
	tcase_add_test(tc, test_eval_edges);
	tcase_add_test(tc, test_window);
	tcase_add_test(tc, test_unit_single_job);
	tcase_add_test(tc, test_unit_group_sums_and_order);
	tcase_add_test(tc, test_unit_not_full_zeros);
	suite_add_tcase(s, tc);
	return s;
}
