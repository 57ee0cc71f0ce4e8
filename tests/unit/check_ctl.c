#include <check.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <time.h>

#include "ctl.h"

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

START_TEST(test_ctl_sleep_reaches_deadline)
{
	struct ctl ctl;
	uint64_t t0;

	ck_assert_int_eq(ctl_init(&ctl), 0);
	t0 = now_ns();
	ck_assert(ctl_sleep_until(&ctl, t0 + 20000000u));
	ck_assert_uint_ge(now_ns() - t0, 20000000u);
	ck_assert(!ctl_stopped(&ctl));
	ctl_release(&ctl);
}
END_TEST

START_TEST(test_ctl_stop_counts_and_wakes)
{
	struct ctl ctl;

	ck_assert_int_eq(ctl_init(&ctl), 0);
	ck_assert_int_eq(ctl_nr_stops(&ctl), 0);
	ck_assert_int_eq(ctl_stop(&ctl, SIGINT), 1);
	ck_assert_int_eq(ctl_stop(&ctl, SIGTERM), 2);
	ck_assert(ctl_stopped(&ctl));
	ck_assert_int_eq(ctl_signo(&ctl), SIGTERM);
	/* Already stopped: a sleep far in the future returns at once, reporting the stop. */
	ck_assert(!ctl_sleep_until(&ctl, now_ns() + 60ull * 1000000000u));
	ctl_release(&ctl);
}
END_TEST

START_TEST(test_ctl_past_deadline)
{
	struct ctl ctl;

	ck_assert_int_eq(ctl_init(&ctl), 0);
	ck_assert(ctl_sleep_until(&ctl, 0));
	ctl_release(&ctl);
}
END_TEST

struct waiter {
	struct ctl *ctl;
	atomic_bool quit;
	bool stopped;
};

static void *waiter_main(void *arg)
{
	struct waiter *w = arg;

	w->stopped = ctl_wait_stop(w->ctl, &w->quit);
	return NULL;
}

START_TEST(test_ctl_wait_stop_quit_and_stop)
{
	struct ctl ctl;
	struct waiter w = { .ctl = &ctl };
	pthread_t tid;

	ck_assert_int_eq(ctl_init(&ctl), 0);
	/* quit + wake ends the wait without a stop */
	atomic_init(&w.quit, false);
	w.stopped = true;
	ck_assert_int_eq(pthread_create(&tid, NULL, waiter_main, &w), 0);
	atomic_store(&w.quit, true);
	ctl_wake(&ctl);
	ck_assert_int_eq(pthread_join(tid, NULL), 0);
	ck_assert(!w.stopped);
	/* a stop ends it and is reported */
	atomic_store(&w.quit, false);
	ck_assert_int_eq(pthread_create(&tid, NULL, waiter_main, &w), 0);
	ctl_stop(&ctl, SIGTERM);
	ck_assert_int_eq(pthread_join(tid, NULL), 0);
	ck_assert(w.stopped);
	ctl_release(&ctl);
}
END_TEST

Suite *ctl_suite(void)
{
	Suite *s = suite_create("ctl");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_ctl_sleep_reaches_deadline);
	tcase_add_test(tc, test_ctl_stop_counts_and_wakes);
	tcase_add_test(tc, test_ctl_past_deadline);
	tcase_add_test(tc, test_ctl_wait_stop_quit_and_stop);
	suite_add_tcase(s, tc);
	return s;
}
