/* SPDX-License-Identifier: MIT */
/* Unit tests of the io_uring / libaio / pvsync2 options (lib/fio/conf/opt_apply_aio.c): values into
 * job.eng.aio with their defaults and bounds (0, the maximum, overflow, empty, garbage), the
 * refusal of an option under an engine that does not take it, sqthread_poll_cpu's check, and
 * sqthread_poll registering the files as fio does. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt_apply_fixture.h"
#include "sys/cpuset.h"

START_TEST(test_defaults)
{
	struct fio_config cfg;
	const struct engine_aio_opts *a;

	ck_assert_int_eq(fioconf_from_text("[a]\nioengine=io_uring\nsize=1m\n", &cfg, diag), 0);
	a = &cfg.jobs[0].eng.aio;
	ck_assert(!a->hipri && !a->nowait && !a->fixedbufs && !a->registerfiles && !a->sqpoll);
	ck_assert(!a->userspace_reap);
	ck_assert_uint_eq(a->hipri_pct, 100);
	ck_assert_int_eq(a->sqpoll_cpu, -1);
	ck_assert_int_eq(a->nonvectored, -1);
	ck_assert_uint_eq(a->force_async, 0);
	fio_config_release(&cfg);
}
END_TEST

/* One accepted job: the options as text, then what they set. */
struct good_case {
	const char *text;
	bool hipri, nowait, fixedbufs, registerfiles, sqpoll, userspace_reap;
	unsigned hipri_pct, force_async;
	int sqpoll_cpu, nonvectored;
};

#define URING	"[a]\nsize=1m\nioengine=io_uring\n"
#define LIBAIO	"[a]\nsize=1m\nioengine=libaio\n"
#define PVSYNC2	"[a]\nsize=1m\nioengine=pvsync2\n"

static const struct good_case good_cases[] = {
	{ URING "hipri\n", .hipri = true, .hipri_pct = 100, .sqpoll_cpu = -1, .nonvectored = -1 },
	{ URING "hipri=0\n", .hipri_pct = 100, .sqpoll_cpu = -1, .nonvectored = -1 },
	{ URING "hipri=1\nnowait=1\nfixedbufs\nregisterfiles=1\n", .hipri = true, .nowait = true,
	  .fixedbufs = true, .registerfiles = true, .hipri_pct = 100, .sqpoll_cpu = -1, .nonvectored = -1 },
	/* sqthread_poll registers the files too, as fio */
	{ URING "sqthread_poll\nsqthread_poll_cpu=0\n", .sqpoll = true, .registerfiles = true,
	  .hipri_pct = 100, .sqpoll_cpu = 0, .nonvectored = -1 },
	/* without sqthread_poll, sqthread_poll_cpu is not checked (fio ignores it) */
	{ URING "sqthread_poll_cpu=100000\n", .hipri_pct = 100, .sqpoll_cpu = 100000, .nonvectored = -1 },
	{ URING "nonvectored=0\n", .hipri_pct = 100, .sqpoll_cpu = -1, .nonvectored = 0 },
	{ URING "nonvectored=1\n", .hipri_pct = 100, .sqpoll_cpu = -1, .nonvectored = 1 },
	{ URING "nonvectored=-1\n", .hipri_pct = 100, .sqpoll_cpu = -1, .nonvectored = -1 },
	{ URING "force_async=0\n", .hipri_pct = 100, .sqpoll_cpu = -1, .nonvectored = -1 },
	/* fixedbufs' bounds one at a time (both at once is 16 TiB of buffers: fioconf refuses it) */
	{ URING "fixedbufs\niodepth=16384\n", .fixedbufs = true, .hipri_pct = 100, .sqpoll_cpu = -1,
	  .nonvectored = -1 },
	{ URING "fixedbufs\nbs=4k,1g\n", .fixedbufs = true, .hipri_pct = 100, .sqpoll_cpu = -1,
	  .nonvectored = -1 },
	{ URING "force_async=4\n", .hipri_pct = 100, .force_async = 4, .sqpoll_cpu = -1, .nonvectored = -1 },
	{ URING "force_async=4294967295\n", .hipri_pct = 100, .force_async = 4294967295u, .sqpoll_cpu = -1,
	  .nonvectored = -1 },
	{ LIBAIO "userspace_reap\nnowait=1\n", .userspace_reap = true, .nowait = true, .hipri_pct = 100,
	  .sqpoll_cpu = -1, .nonvectored = -1 },
	{ LIBAIO "nowait=0\n", .hipri_pct = 100, .sqpoll_cpu = -1, .nonvectored = -1 },
	{ PVSYNC2 "hipri\nhipri_percentage=0\n", .hipri = true, .hipri_pct = 0, .sqpoll_cpu = -1,
	  .nonvectored = -1 },
	{ PVSYNC2 "hipri\nhipri_percentage=100\nnowait=1\n", .hipri = true, .nowait = true, .hipri_pct = 100,
	  .sqpoll_cpu = -1, .nonvectored = -1 },
	{ PVSYNC2 "hipri_percentage=37\n", .hipri_pct = 37, .sqpoll_cpu = -1, .nonvectored = -1 },
	/* from the global section into the job */
	{ "[global]\nioengine=io_uring\nfixedbufs\n[a]\nsize=1m\n", .fixedbufs = true, .hipri_pct = 100,
	  .sqpoll_cpu = -1, .nonvectored = -1 },
};

START_TEST(test_good)
{
	const struct good_case *c = &good_cases[_i];
	struct fio_config cfg;
	const struct engine_aio_opts *a;
	int ret = fioconf_from_text(c->text, &cfg, diag);

	ck_assert_msg(ret == 0, "[%s]: %s", c->text, diag->nr ? diag->line[0] : "");
	ck_assert_uint_eq(diag->nr, 0);
	a = &cfg.jobs[0].eng.aio;
	ck_assert_int_eq(a->hipri, c->hipri);
	ck_assert_int_eq(a->nowait, c->nowait);
	ck_assert_int_eq(a->fixedbufs, c->fixedbufs);
	ck_assert_int_eq(a->registerfiles, c->registerfiles);
	ck_assert_int_eq(a->sqpoll, c->sqpoll);
	ck_assert_int_eq(a->userspace_reap, c->userspace_reap);
	ck_assert_uint_eq(a->hipri_pct, c->hipri_pct);
	ck_assert_uint_eq(a->force_async, c->force_async);
	ck_assert_int_eq(a->sqpoll_cpu, c->sqpoll_cpu);
	ck_assert_int_eq(a->nonvectored, c->nonvectored);
	fio_config_release(&cfg);
}
END_TEST

struct bad_case {
	const char *text;
	const char *line;	/* the last diag line before "job a dropped" (or the only one) */
};

static const struct bad_case bad_cases[] = {
	/* an engine that does not take the option */
	{ "[a]\nsize=1m\nhipri\n", "fio: option 'hipri' is an option of ioengine=io_uring or pvsync2, not of psync" },
	{ "[a]\nsize=1m\nioengine=libaio\nhipri=0\n",
	  "fio: option 'hipri' is an option of ioengine=io_uring or pvsync2, not of libaio" },
	{ "[a]\nsize=1m\nioengine=pvsync\nnowait=1\n",
	  "fio: option 'nowait' is an option of ioengine=io_uring, libaio or pvsync2, not of pvsync" },
	{ URING "hipri_percentage=50\n", "fio: option 'hipri_percentage' is an option of ioengine=pvsync2, not of io_uring" },
	{ LIBAIO "fixedbufs\n", "fio: option 'fixedbufs' is an option of ioengine=io_uring, not of libaio" },
	{ PVSYNC2 "registerfiles\n", "fio: option 'registerfiles' is an option of ioengine=io_uring, not of pvsync2" },
	{ "[a]\nsize=1m\nioengine=null\nsqthread_poll\n",
	  "fio: option 'sqthread_poll' is an option of ioengine=io_uring, not of null" },
	{ LIBAIO "sqthread_poll_cpu=0\n", "fio: option 'sqthread_poll_cpu' is an option of ioengine=io_uring, not of libaio" },
	{ LIBAIO "nonvectored=1\n", "fio: option 'nonvectored' is an option of ioengine=io_uring, not of libaio" },
	{ PVSYNC2 "force_async=1\n", "fio: option 'force_async' is an option of ioengine=io_uring, not of pvsync2" },
	{ URING "userspace_reap\n", "fio: option 'userspace_reap' is an option of ioengine=libaio, not of io_uring" },
	{ "[global]\nhipri\n[a]\nsize=1m\nioengine=psync\n",
	  "fio: option 'hipri' is an option of ioengine=io_uring or pvsync2, not of psync" },
	/* values (fio's flags take any integer, its int options any number that fits 32 bits:
	 * hipri=2, nonvectored=-2, force_async=-1 are taken, as in fio) */
	{ URING "fixedbufs=yes\n", "fio: failed parsing fixedbufs=yes" },
	{ URING "nowait\n", "fio: failed parsing nowait" },	/* a 0/1, not a switch */
	{ URING "nowait=2\n", "fio: failed parsing nowait=2" },
	{ URING "nonvectored=abc\n", "fio: failed parsing nonvectored=abc" },
	{ URING "nonvectored=\n", "fio: failed parsing nonvectored=" },
	{ URING "force_async=99999999999999999999\n", "fio: failed parsing force_async=99999999999999999999" },
	{ URING "sqthread_poll_cpu=-1\n", "fio: failed parsing sqthread_poll_cpu=-1" },
	{ URING "sqthread_poll_cpu=x\n", "fio: failed parsing sqthread_poll_cpu=x" },
	{ URING "sqthread_poll_cpu=2147483648\n", "sqthread_poll_cpu: max value out of range: 2147483648 (2147483647 max)" },
	{ PVSYNC2 "hipri_percentage=101\n", "fio: failed parsing hipri_percentage=101" },
	{ PVSYNC2 "hipri_percentage=-1\n", "fio: failed parsing hipri_percentage=-1" },
	{ PVSYNC2 "hipri_percentage=\n", "fio: failed parsing hipri_percentage=" },
	/* a bad 0/1 or switch value: nothing read from the unset result (UBSan: an invalid
	 * bool, found by tests/fuzz fio_args and jobfile) */
	{ URING "sqthread_poll=\n", "fio: failed parsing sqthread_poll=" },
	{ URING "sqthread_poll=x\n", "fio: failed parsing sqthread_poll=x" },
	{ LIBAIO "userspace_reap=\n", "fio: failed parsing userspace_reap=" },
	/* what the kernel cannot register */
	{ URING "fixedbufs\niodepth=16385\n", "fio: fixedbufs: io_uring registers at most 16384 buffers (iodepth) "
						 "of at most 1 GiB (bs), not 16385 of 4096 bytes" },
	{ URING "fixedbufs\nbs=4k,2g\n", "fio: fixedbufs: io_uring registers at most 16384 buffers (iodepth) "
					  "of at most 1 GiB (bs), not 1 of 2147483648 bytes" },
	/* refused for good, with the reason */
	{ URING "uncached=1\n", "fio: option 'uncached' is not supported by iops: RWF_UNCACHED never reached "
				"Linux, and the flag value fio 3.33 sends is RWF_ATOMIC on current kernels" },
	{ URING "cmd_type=nvme\n", "fio: option 'cmd_type' is not supported by iops: it is an option of the "
				   "io_uring_cmd engine (NVMe passthrough on /dev/ng* character devices), which this "
				   "build does not include" },
};

START_TEST(test_bad)
{
	const struct bad_case *c = &bad_cases[_i];
	struct fio_config cfg;
	int ret = fioconf_from_text(c->text, &cfg, diag);
	bool found = false;

	ck_assert_int_ne(ret, 0);
	ck_assert_uint_ge(diag->nr, 1);
	for (unsigned i = 0; i < diag->nr; i++)
		found = found || !strcmp(diag->line[i], c->line);
	ck_assert_msg(found, "[%s]: no line [%s]; first [%s]", c->text, c->line, diag->line[0]);
	/* the engine check is one line, nothing else */
	if (strstr(c->line, "is an option of"))
		ck_assert_uint_eq(diag->nr, 1);
	ck_assert_ptr_null(cfg.jobs);
}
END_TEST

/* sqthread_poll_cpu: a CPU of this machine, checked when sqthread_poll is on. */
START_TEST(test_sqpoll_cpu_bound)
{
	unsigned nr = cpuset_nr_cpus();
	char text[160], want[96];
	struct fio_config cfg;

	snprintf(text, sizeof(text), URING "sqthread_poll\nsqthread_poll_cpu=%u\n", nr - 1);
	ck_assert_int_eq(fioconf_from_text(text, &cfg, diag), 0);
	ck_assert_int_eq(cfg.jobs[0].eng.aio.sqpoll_cpu, (int)nr - 1);
	fio_config_release(&cfg);
	snprintf(text, sizeof(text), URING "sqthread_poll=1\nsqthread_poll_cpu=%u\n", nr);
	opt_diag_init(diag);
	ck_assert_int_ne(fioconf_from_text(text, &cfg, diag), 0);
	snprintf(want, sizeof(want), "fio: sqthread_poll_cpu=%u: CPU %u too large (max=%u)", nr, nr, nr - 1);
	ck_assert_uint_eq(diag->nr, 1);
	ck_assert_str_eq(diag->line[0], want);
}
END_TEST

Suite *opt_apply_aio_suite(void);

Suite *opt_apply_aio_suite(void)
{
	Suite *s = suite_create("opt_apply_aio");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_defaults);
	tcase_add_loop_test(tc, test_good, 0, sizeof(good_cases) / sizeof(good_cases[0]));
	tcase_add_loop_test(tc, test_bad, 0, sizeof(bad_cases) / sizeof(bad_cases[0]));
	tcase_add_test(tc, test_sqpoll_cpu_bound);
	suite_add_tcase(s, tc);
	return s;
}
