/* SPDX-License-Identifier: MIT */
/* Unit tests of flow control (lib/fio/control/flow.c): fio's share rule, the flows of a run, jobs
 * joining and leaving, the ratios it produces; and the options flow, flow_id, flow_sleep,
 * io_submit_mode and serialize_overlap (lib/fio/conf/opt_flow.c). */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fio/control/flow.h"
#include "fio/conf/opt.h"

/* ---- the share rule --------------------------------------------------------------------- */

struct share_case {
	uint64_t counter, weight;	/* the flow's */
	uint64_t mine;
	unsigned w;
	bool may;
};

static const struct share_case share_cases[] = {
	{ 1, 1, 0, 1, true },			/* alone, first I/O */
	{ 100, 1, 99, 1, true },		/* alone: always */
	{ 10, 2, 5, 1, true },			/* exactly its share */
	{ 10, 2, 6, 1, false },			/* one above */
	{ 9, 9, 8, 8, true },			/* 8/9 of 9 */
	{ 10, 9, 9, 8, false },			/* 9/10 > 8/9 */
	{ 1, 16, 0, 1, true },			/* nothing done yet */
	{ 5, 0, 3, 1, true },			/* no weight (nobody joined): never held */
	{ UINT64_MAX - 1, 2000, UINT64_MAX / 2, 1000, true },	/* no overflow in the products */
	{ UINT64_MAX - 1, 2000, UINT64_MAX / 2 + 1, 1000, false },
	{ 1000, 1000, 1, 0, false },		/* weight 0 of a flow: held once it did one */
};

START_TEST(test_share_rule)
{
	const struct share_case *c = &share_cases[_i];
	struct flow f = { .id = 1 };
	uint64_t mine = c->mine;
	bool may;

	atomic_init(&f.counter, c->counter);
	atomic_init(&f.weight, c->weight);
	may = flow_may_issue(&f, &mine, c->w);
	ck_assert_msg(may == c->may, "case %d: got %d", _i, may);
	ck_assert_uint_eq(mine, c->mine + (may ? 1 : 0));
	ck_assert_uint_eq(atomic_load(&f.counter), c->counter + (may ? 1 : 0));
	ck_assert_uint_eq(atomic_load(&f.weight), c->weight);
}
END_TEST

/* ---- ratios: jobs taking turns, each trying as often as the others ---------------------- */

struct ratio_case {
	unsigned nr;
	unsigned w[4];
};

static const struct ratio_case ratio_cases[] = {
	{ 2, { 1, 8 } },		/* t0011 */
	{ 3, { 1, 5, 10 } },		/* t0012 */
	{ 3, { 1, 2, 3 } },		/* t0014 */
	{ 2, { 1000, 1000 } },
	{ 4, { 1, 1, 1, 1000 } },
	{ 1, { 7 } },
};

START_TEST(test_ratios)
{
	const struct ratio_case *c = &ratio_cases[_i];
	struct flow f = { .id = 0 };
	uint64_t mine[4] = { 0 }, sum_w = 0;
	const unsigned rounds = 200000;

	atomic_init(&f.counter, 1);
	atomic_init(&f.weight, 0);
	for (unsigned j = 0; j < c->nr; j++) {
		flow_join(&f, c->w[j]);
		sum_w += c->w[j];
	}
	ck_assert_uint_eq(atomic_load(&f.weight), sum_w);
	for (unsigned r = 0; r < rounds; r++)
		for (unsigned j = 0; j < c->nr; j++)
			(void)flow_may_issue(&f, &mine[j], c->w[j]);
	for (unsigned j = 0; j < c->nr; j++) {
		double share = (double)mine[j] / (double)(atomic_load(&f.counter) - 1);
		double want = (double)c->w[j] / (double)sum_w;

		if (share < want * 0.99 - 0.0001 || share > want * 1.01 + 0.0001)
			ck_abort_msg("case %d job %u: share %.4f, want %.4f", _i, j, share, want);
	}
	/* the job with the largest weight never waits: it does an I/O every round */
	{
		unsigned big = 0;

		for (unsigned j = 1; j < c->nr; j++)
			if (c->w[j] > c->w[big])
				big = j;
		ck_assert_uint_ge(mine[big], (uint64_t)rounds * 99 / 100);
	}
	for (unsigned j = 0; j < c->nr; j++)
		flow_leave(&f, c->w[j], mine[j]);
	ck_assert_uint_eq(atomic_load(&f.weight), 0);
}
END_TEST

/* t0014: a job leaves; the others settle on their own ratio again. */
START_TEST(test_leave_recalibrates)
{
	struct flow f = { .id = 1 };
	unsigned w[3] = { 1, 2, 3 };
	uint64_t mine[3] = { 0 }, before[2];

	atomic_init(&f.counter, 1);
	atomic_init(&f.weight, 0);
	for (unsigned j = 0; j < 3; j++)
		flow_join(&f, w[j]);
	for (unsigned r = 0; r < 60000; r++)
		for (unsigned j = 0; j < 3; j++)
			(void)flow_may_issue(&f, &mine[j], w[j]);
	flow_leave(&f, 3, mine[2]);
	before[0] = mine[0];
	before[1] = mine[1];
	for (unsigned r = 0; r < 60000; r++)
		for (unsigned j = 0; j < 2; j++)
			(void)flow_may_issue(&f, &mine[j], w[j]);
	/* right after the leave, job 1 does half of job 2's I/Os (fio's t0014 checks each second) */
	{
		double ratio = (double)(mine[0] - before[0]) / (double)(mine[1] - before[1]);

		ck_assert_msg(ratio > 0.45 && ratio < 0.55, "ratio %.3f", ratio);
	}
	ck_assert_uint_gt(mine[0], before[0]);
	ck_assert_uint_gt(mine[1], before[1]);
}
END_TEST

/* ---- the flows of a run ----------------------------------------------------------------- */

START_TEST(test_flow_set)
{
	struct job jobs[5];
	struct fio_config cfg = { .jobs = jobs, .nr_jobs = 5 };
	struct flow_set fs;

	memset(jobs, 0, sizeof(jobs));
	jobs[0].flow = 1;
	jobs[0].flow_id = 7;
	jobs[1].flow = 0;	/* in no flow, whatever its id */
	jobs[1].flow_id = 7;
	jobs[2].flow = 3;
	jobs[2].flow_id = 7;
	jobs[3].flow = 2;
	jobs[3].flow_id = 0;
	jobs[4].flow = 0;
	jobs[4].flow_id = 9;
	ck_assert_int_eq(flow_set_init(&fs, &cfg), 0);
	ck_assert_uint_eq(fs.nr, 2);
	ck_assert_ptr_nonnull(flow_set_of(&fs, &jobs[0]));
	ck_assert_ptr_eq(flow_set_of(&fs, &jobs[0]), flow_set_of(&fs, &jobs[2]));
	ck_assert_ptr_null(flow_set_of(&fs, &jobs[1]));
	ck_assert_ptr_null(flow_set_of(&fs, &jobs[4]));
	ck_assert_ptr_nonnull(flow_set_of(&fs, &jobs[3]));
	ck_assert_ptr_ne(flow_set_of(&fs, &jobs[0]), flow_set_of(&fs, &jobs[3]));
	ck_assert_uint_eq(atomic_load(&flow_set_of(&fs, &jobs[3])->counter), 1);
	ck_assert_uint_eq(atomic_load(&flow_set_of(&fs, &jobs[3])->weight), 2);	/* weighs from the start */
	ck_assert_uint_eq(atomic_load(&flow_set_of(&fs, &jobs[0])->weight), 4);
	flow_set_release(&fs);
	ck_assert_uint_eq(fs.nr, 0);

	/* no job in a flow: nothing allocated */
	cfg.nr_jobs = 2;
	jobs[0].flow = 0;
	ck_assert_int_eq(flow_set_init(&fs, &cfg), 0);
	ck_assert_uint_eq(fs.nr, 0);
	ck_assert_ptr_null(fs.flows);
	flow_set_release(&fs);
	cfg.nr_jobs = 0;
	ck_assert_int_eq(flow_set_init(&fs, &cfg), 0);
	ck_assert_uint_eq(fs.nr, 0);
	flow_set_release(&fs);
}
END_TEST

/* ---- options ---------------------------------------------------------------------------- */

struct fopt_case {
	const char *name, *val;
	bool ok;
	const char *last;	/* last line for failures, NULL: not checked */
};

static const struct fopt_case fopt_cases[] = {
	{ "flow", "0", true, NULL },
	{ "flow", "1000", true, NULL },
	{ "flow", "1001", false, "fio: failed parsing flow=1001" },
	{ "flow", "abc", false, "fio: failed parsing flow=abc" },
	{ "flow", "-1", false, "fio: failed parsing flow=-1" },
	{ "flow", "", false, NULL },
	{ "flow_id", "2147483647", true, NULL },
	{ "flow_id", "4294967295", true, NULL },	/* fio's 32-bit field */
	{ "flow_id", "4294967296", true, NULL },	/* fio's int: 0 */
	{ "flow_sleep", "100", true, NULL },
	{ "flow_sleep", "x", false, "fio: failed parsing flow_sleep=x" },
	{ "io_submit_mode", "inline", true, NULL },
	{ "io_submit_mode", "offload", true, NULL },
	{ "io_submit_mode", "foo", false, NULL },
	{ "io_submit_mode", "", false, NULL },
	{ "serialize_overlap", "1", true, NULL },
	{ "serialize_overlap", "0", true, NULL },
	{ "serialize_overlap", "2", false, "fio: failed parsing serialize_overlap=2" },
};

START_TEST(test_flow_options)
{
	const struct fopt_case *c = &fopt_cases[_i];
	const struct opt_def *od = opt_find(c->name);
	struct opt_diag *d = malloc(sizeof(*d));
	struct opt_job oj;
	int ret;

	ck_assert_ptr_nonnull(d);
	ck_assert_ptr_nonnull(od);
	ck_assert_int_ne(od->type, OPT_T_UNSUPPORTED);
	opt_diag_init(d);
	opt_job_init(&oj);
	ret = opt_apply(&oj, od, c->val, d);
	ck_assert_msg((ret == 0) == c->ok, "%s=%s: %d", c->name, c->val, ret);
	if (!c->ok) {
		ck_assert_int_eq(ret, -EINVAL);
		ck_assert_uint_ge(d->nr, 1);
		if (c->last)
			ck_assert_str_eq(d->line[d->nr - 1], c->last);
	}
	opt_job_release(&oj);
	free(d);
}
END_TEST

START_TEST(test_flow_option_values)
{
	struct opt_diag *d = malloc(sizeof(*d));
	struct opt_job oj;

	ck_assert_ptr_nonnull(d);
	opt_diag_init(d);
	opt_job_init(&oj);
	ck_assert_uint_eq(oj.j.flow, 0);
	ck_assert(!oj.j.submit_offload);
	ck_assert(!oj.j.serialize_overlap);
	ck_assert_int_eq(opt_apply(&oj, opt_find("flow"), "8", d), 0);
	ck_assert_int_eq(opt_apply(&oj, opt_find("flow_id"), "3", d), 0);
	ck_assert_int_eq(opt_apply(&oj, opt_find("flow_sleep"), "250", d), 0);
	ck_assert_int_eq(opt_apply(&oj, opt_find("io_submit_mode"), "offload", d), 0);
	ck_assert_int_eq(opt_apply(&oj, opt_find("serialize_overlap"), "1", d), 0);
	ck_assert_uint_eq(oj.j.flow, 8);
	ck_assert_uint_eq(oj.j.flow_id, 3);
	ck_assert_uint_eq(oj.j.flow_sleep_ns, 250000);
	ck_assert(oj.j.submit_offload);
	ck_assert(oj.j.serialize_overlap);
	ck_assert_int_eq(opt_apply(&oj, opt_find("io_submit_mode"), "inline", d), 0);
	ck_assert(!oj.j.submit_offload);
	ck_assert_int_eq(opt_apply(&oj, opt_find("flow_sleep"), "2147483647", d), 0);
	ck_assert_uint_eq(oj.j.flow_sleep_ns, 2147483647ull * 1000);	/* the largest fio's int holds */
	opt_job_release(&oj);
	free(d);
}
END_TEST

Suite *flow_suite(void);

Suite *flow_suite(void)
{
	Suite *s = suite_create("flow");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_share_rule, 0, (int)(sizeof(share_cases) / sizeof(share_cases[0])));
	tcase_add_loop_test(tc, test_ratios, 0, (int)(sizeof(ratio_cases) / sizeof(ratio_cases[0])));
	tcase_add_test(tc, test_leave_recalibrates);
	tcase_add_test(tc, test_flow_set);
	tcase_add_loop_test(tc, test_flow_options, 0, (int)(sizeof(fopt_cases) / sizeof(fopt_cases[0])));
	tcase_add_test(tc, test_flow_option_values);
	suite_add_tcase(s, tc);
	return s;
}
