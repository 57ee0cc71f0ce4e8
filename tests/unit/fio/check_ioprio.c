/* SPDX-License-Identifier: MIT */
/* ioprio: prio / prioclass values, the per-request cmdprio choice, the cmdprio options and
 * their checks (fio 3.33's documented rules). */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fio/ioprio.h"
#include "fio/conf/opt.h"

static struct opt_diag *diag;

static void setup(void)
{
	diag = malloc(sizeof(*diag));
	ck_assert_ptr_nonnull(diag);
	opt_diag_init(diag);
}

static void teardown(void)
{
	free(diag);
}

static int apply1(struct opt_job *oj, const char *name, const char *val)
{
	const struct opt_def *od = opt_find(name);

	ck_assert_msg(od != NULL, "option %s not in the table", name);
	opt_diag_init(diag);
	return opt_apply(oj, od, val, diag);
}

static const char *last_line(void)
{
	return diag->nr ? diag->line[diag->nr - 1] : "";
}

/* ---- values ---------------------------------------------------------------------------------- */

START_TEST(test_job_value)
{
	static const struct { int prio, cls; uint16_t want; } cases[] = {
		{ -1, -1, 0 }, { 5, -1, 0x4005 }, { -1, 1, 0x2000 }, { -1, 3, 0x6000 }, { 2, 0, 0x4002 },
		{ 7, 1, 0x2007 }, { 0, 2, 0x4000 }, { -1, 0, 0 }, { 7, 3, 0x6007 },
	};
	struct opt_job oj;

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		opt_job_init(&oj);
		if (cases[i].prio >= 0) {
			char v[4] = { (char)('0' + cases[i].prio), 0 };

			ck_assert_int_eq(apply1(&oj, "prio", v), 0);
		}
		if (cases[i].cls >= 0) {
			char v[4] = { (char)('0' + cases[i].cls), 0 };

			ck_assert_int_eq(apply1(&oj, "prioclass", v), 0);
		}
		if (ioprio_job_value(&oj.j) != cases[i].want)
			ck_abort_msg("case %u: 0x%x, want 0x%x", i, ioprio_job_value(&oj.j), cases[i].want);
		opt_job_release(&oj);
	}
}
END_TEST

START_TEST(test_pick_percentage)
{
	struct opt_job oj;
	unsigned hi[DDIR_NR] = { 0 };

	opt_job_init(&oj);
	ck_assert_int_eq(apply1(&oj, "ioengine", "libaio"), 0);
	ck_assert_int_eq(apply1(&oj, "cmdprio_percentage", "50,20"), 0);
	ck_assert_int_eq(apply1(&oj, "prio", "4"), 0);
	ck_assert_int_eq(ioprio_check(&oj.j, diag), 0);
	ck_assert(oj.j.cmdprio_on);
	for (unsigned d = 0; d < DDIR_NR; d++)
		for (unsigned r = 0; r < 100; r++) {
			uint16_t v = ioprio_pick(&oj.j, d, 4096, r);

			if (v == 0x2000)	/* default cmdprio_class 1 (real time), cmdprio 0 */
				hi[d]++;
			else if (v != 0x4004)	/* the job's own: prio=4, best effort */
				ck_abort_msg("ddir %u rnd %u: 0x%x", d, r, v);
		}
	ck_assert_uint_eq(hi[DDIR_READ], 50);
	ck_assert_uint_eq(hi[DDIR_WRITE], 20);
	ck_assert_uint_eq(hi[DDIR_TRIM], 0);	/* trims keep the job's priority */
	ck_assert_int_eq(apply1(&oj, "cmdprio_class", "3,2"), 0);
	ck_assert_int_eq(apply1(&oj, "cmdprio", "7"), 0);
	ck_assert_uint_eq(ioprio_pick(&oj.j, DDIR_READ, 4096, 0), 0x6007);
	ck_assert_uint_eq(ioprio_pick(&oj.j, DDIR_WRITE, 4096, 19), 0x4007);
	ck_assert_uint_eq(ioprio_pick(&oj.j, DDIR_WRITE, 4096, 20), 0x4004);
	{
		uint16_t v[IOPRIO_SLOTS];

		ck_assert_uint_eq(ioprio_values(&oj.j, DDIR_READ, v, IOPRIO_SLOTS), 2);
		ck_assert_uint_eq(v[0], 0x4004);	/* the job's first */
		ck_assert_uint_eq(v[1], 0x6007);
		ck_assert_uint_eq(ioprio_values(&oj.j, DDIR_TRIM, v, IOPRIO_SLOTS), 1);
	}
	ck_assert_int_eq(apply1(&oj, "cmdprio_percentage", "100,0"), 0);
	ck_assert_uint_eq(ioprio_pick(&oj.j, DDIR_READ, 4096, 99), 0x6007);
	ck_assert_uint_eq(ioprio_pick(&oj.j, DDIR_WRITE, 4096, 0), 0x4004);
	opt_job_release(&oj);
}
END_TEST

START_TEST(test_pick_bssplit)
{
	struct opt_job oj;
	unsigned n1 = 0, n3 = 0;
	uint16_t v[IOPRIO_SLOTS];

	opt_job_init(&oj);
	ck_assert_int_eq(apply1(&oj, "ioengine", "io_uring"), 0);
	ck_assert_int_eq(apply1(&oj, "cmdprio_bssplit", "64k/25/1/1:64k/75/3/2:1024k/0"), 0);
	ck_assert_int_eq(ioprio_check(&oj.j, diag), 0);
	ck_assert_uint_eq(oj.j.nr_cmdprio_bss[DDIR_READ], 3);
	ck_assert_uint_eq(oj.j.nr_cmdprio_bss[DDIR_WRITE], 3);	/* one list: both directions */
	for (unsigned r = 0; r < 100; r++) {
		uint16_t p = ioprio_pick(&oj.j, DDIR_WRITE, 65536, r);

		n1 += p == 0x2001;
		n3 += p == 0x6002;
		if (ioprio_pick(&oj.j, DDIR_READ, 1 << 20, r) || ioprio_pick(&oj.j, DDIR_READ, 4096, r))
			ck_abort_msg("rnd %u: 1m or 4k got a priority", r);
	}
	ck_assert_uint_eq(n1, 25);
	ck_assert_uint_eq(n3, 75);
	ck_assert_uint_eq(ioprio_values(&oj.j, DDIR_READ, v, IOPRIO_SLOTS), 3);
	ck_assert(v[0] == 0 && v[1] == 0x2001 && v[2] == 0x6002);
	/* the bs/pct form takes cmdprio_class / cmdprio; per direction lists */
	ck_assert_int_eq(apply1(&oj, "cmdprio_bssplit", "4k/50,8k/20"), 0);
	ck_assert_int_eq(apply1(&oj, "cmdprio_class", "2"), 0);
	ck_assert_int_eq(apply1(&oj, "cmdprio", "3"), 0);
	ck_assert_uint_eq(ioprio_pick(&oj.j, DDIR_READ, 4096, 49), 0x4003);
	ck_assert_uint_eq(ioprio_pick(&oj.j, DDIR_READ, 4096, 50), 0);
	ck_assert_uint_eq(ioprio_pick(&oj.j, DDIR_READ, 8192, 0), 0);
	ck_assert_uint_eq(ioprio_pick(&oj.j, DDIR_WRITE, 8192, 19), 0x4003);
	ck_assert_uint_eq(ioprio_pick(&oj.j, DDIR_WRITE, 4096, 0), 0);
	opt_job_release(&oj);
}
END_TEST

/* ---- options and checks -------------------------------------------------------------------- */

struct opt_case {
	const char *name, *val;
	bool ok;
	const char *last;	/* the last message line of a bad value, NULL: not checked */
};

static const struct opt_case opt_cases[] = {
	{ "prio", "0", true, NULL },
	{ "prio", "7", true, NULL },
	{ "prio", "8", false, "fio: failed parsing prio=8" },
	{ "prio", "-1", false, "fio: failed parsing prio=-1" },
	{ "prio", "x", false, "fio: failed parsing prio=x" },
	{ "prioclass", "3", true, NULL },
	{ "prioclass", "4", false, "fio: failed parsing prioclass=4" },
	{ "cmdprio_percentage", "0", true, NULL },
	{ "cmdprio_percentage", "100", true, NULL },
	{ "cmdprio_percentage", "50,20", true, NULL },
	{ "cmdprio_percentage", "101", false, "fio: failed parsing cmdprio_percentage=101" },
	{ "cmdprio_percentage", "-1", false, "fio: failed parsing cmdprio_percentage=-1" },
	{ "cmdprio_percentage", "abc", false, "fio: failed parsing cmdprio_percentage=abc" },
	{ "cmdprio_percentage", "", false, NULL },
	{ "cmdprio_percentage", NULL, false, NULL },
	{ "cmdprio_percentage", "1,2,3,4", true, NULL },	/* fio reads the 4th, keeps 3 */
	{ "cmdprio_percentage", "99999999999999999999999", false, NULL },
	{ "cmdprio_class", "1", true, NULL },
	{ "cmdprio_class", "0", false, "fio: failed parsing cmdprio_class=0" },
	{ "cmdprio_class", "4", false, "fio: failed parsing cmdprio_class=4" },
	{ "cmdprio", "7", true, NULL },
	{ "cmdprio", "8", false, "fio: failed parsing cmdprio=8" },
	{ "cmdprio_bssplit", "64k/25/1/1:64k/75/3/2:1024k/0", true, NULL },
	{ "cmdprio_bssplit", "4k/100", true, NULL },
	{ "cmdprio_bssplit", "4k/50,8k/50", true, NULL },
	{ "cmdprio_bssplit", "4k/x", false, "fio: failed parsing cmdprio_bssplit=4k/x" },
	{ "cmdprio_bssplit", "4k/150", false, NULL },
	{ "cmdprio_bssplit", "4k/50/1", false, NULL },
	{ "cmdprio_bssplit", "4k/50/4/0", false, NULL },
	{ "cmdprio_bssplit", "4k/50/1/8", false, NULL },
	{ "cmdprio_bssplit", "4k/50/1/1/1", true, NULL },	/* fio 3.33 ignores the hint (its log: 0x2001) */
	{ "cmdprio_bssplit", "4k/50/1/1/x/1", true, NULL },	/* and anything after the 4th field */
	{ "cmdprio_bssplit", "4k/60:4k/60", true, NULL },	/* fio: over 100%, no priority set */
	{ "cmdprio_bssplit", "0/50", false, NULL },
	{ "cmdprio_bssplit", "/50", false, NULL },
	{ "cmdprio_bssplit", "4k", false, NULL },
	{ "cmdprio_bssplit", "", false, NULL },
	{ "cmdprio_bssplit", "4k/1:4k/1:4k/1:4k/1:4k/1:4k/1:4k/1:4k/1:4k/1:4k/1:4k/1:4k/1:4k/1:4k/1:4k/1:4k/1:4k/1",
	  false, NULL },
};

START_TEST(test_options)
{
	const struct opt_case *c = &opt_cases[_i];
	struct opt_job oj;
	int ret;

	opt_job_init(&oj);
	ret = apply1(&oj, c->name, c->val);
	ck_assert_msg((ret == 0) == c->ok, "%s=%s: %d", c->name, c->val ? c->val : "(none)", ret);
	if (!c->ok && c->last)
		ck_assert_str_eq(last_line(), c->last);
	if (!c->ok && !strcmp(c->name, "cmdprio_bssplit") && c->val && *c->val)
		ck_assert_str_eq(diag->line[0], "fio: invalid cmdprio_bssplit format");
	opt_job_release(&oj);
}
END_TEST

START_TEST(test_range_messages)
{
	struct opt_job oj;

	opt_job_init(&oj);
	ck_assert_int_ne(apply1(&oj, "cmdprio_percentage", "101"), 0);
	ck_assert_str_eq(diag->line[0], "cmdprio_percentage: max value out of range: 101 (100 max)");
	ck_assert_int_ne(apply1(&oj, "cmdprio_class", "0"), 0);
	ck_assert_str_eq(diag->line[0], "cmdprio_class: min value out of range: 0 (1 min)");
	opt_job_release(&oj);
}
END_TEST

START_TEST(test_check)
{
	struct opt_job oj;

	opt_job_init(&oj);
	ck_assert_int_eq(ioprio_check(&oj.j, diag), 0);	/* nothing asked */
	ck_assert(!oj.j.cmdprio_on);
	ck_assert_int_eq(apply1(&oj, "cmdprio_class", "2"), 0);	/* alone: no effect */
	ck_assert_int_eq(ioprio_check(&oj.j, diag), 0);
	ck_assert(!oj.j.cmdprio_on);

	ck_assert_int_eq(apply1(&oj, "name", "job"), 0);
	ck_assert_int_eq(apply1(&oj, "ioengine", "psync"), 0);
	ck_assert_int_eq(apply1(&oj, "cmdprio_percentage", "10"), 0);
	opt_diag_init(diag);
	ck_assert_int_eq(ioprio_check(&oj.j, diag), -EINVAL);
	ck_assert(strstr(last_line(), "need ioengine=libaio or io_uring") != NULL);

	ck_assert_int_eq(apply1(&oj, "ioengine", "libaio"), 0);
	ck_assert_int_eq(apply1(&oj, "cmdprio_bssplit", "4k/10"), 0);
	opt_diag_init(diag);
	ck_assert_int_eq(ioprio_check(&oj.j, diag), -EINVAL);
	ck_assert_str_eq(diag->line[0], "job: cmdprio_percentage and cmdprio_bssplit options are mutually exclusive");
	ck_assert_str_eq(last_line(), "fio: io engine libaio init failed.");
	opt_job_release(&oj);

	/* five distinct priorities in one direction: more than iops reports */
	opt_job_init(&oj);
	ck_assert_int_eq(apply1(&oj, "ioengine", "libaio"), 0);
	ck_assert_int_eq(apply1(&oj, "cmdprio_bssplit", "4k/10/1/1:4k/10/1/2:4k/10/1/3:4k/10/1/4"), 0);
	opt_diag_init(diag);
	ck_assert_int_eq(ioprio_check(&oj.j, diag), -EINVAL);
	ck_assert(strstr(last_line(), "at most 4 I/O priorities") != NULL);
	ck_assert_int_eq(apply1(&oj, "cmdprio_bssplit", "4k/10/1/1:4k/10/1/2:4k/10/1/3:4k/0/1/4"), 0);
	ck_assert_int_eq(ioprio_check(&oj.j, diag), 0);	/* a 0% entry is never used */
	opt_job_release(&oj);
}
END_TEST

Suite *ioprio_suite(void);
Suite *ioprio_suite(void)
{
	Suite *s = suite_create("ioprio");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_job_value);
	tcase_add_test(tc, test_pick_percentage);
	tcase_add_test(tc, test_pick_bssplit);
	tcase_add_loop_test(tc, test_options, 0, (int)(sizeof(opt_cases) / sizeof(opt_cases[0])));
	tcase_add_test(tc, test_range_messages);
	tcase_add_test(tc, test_check);
	suite_add_tcase(s, tc);
	return s;
}
