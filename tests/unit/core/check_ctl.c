#include <check.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <time.h>

#include "core/ctl.h"

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

/* status-interval: a status request (SIGUSR1) ends the wait without a stop, once per request */
struct status_waiter {
	struct ctl *ctl;
	atomic_bool quit;
	int seen;
	bool stopped;
};

static void *status_waiter_main(void *arg)
{
	struct status_waiter *w = arg;

	w->stopped = ctl_wait_stop_status(w->ctl, &w->quit, &w->seen);
	return NULL;
}

START_TEST(test_ctl_status_requests)
{
	struct ctl ctl;
	struct status_waiter w = { .ctl = &ctl, .seen = 0 };
	pthread_t tid;

	ck_assert_int_eq(ctl_init(&ctl), 0);
	atomic_init(&w.quit, false);
	ck_assert_int_eq(pthread_create(&tid, NULL, status_waiter_main, &w), 0);
	ctl_status_request(&ctl);
	ck_assert_int_eq(pthread_join(tid, NULL), 0);
	ck_assert(!w.stopped);
	ck_assert_int_eq(w.seen, 1);
	/* two requests before the next wait: it returns at once, having seen both */
	ctl_status_request(&ctl);
	ctl_status_request(&ctl);
	ck_assert(!ctl_wait_stop_status(&ctl, &w.quit, &w.seen));
	ck_assert_int_eq(w.seen, 3);
	ck_assert(!ctl_stopped(&ctl));
	/* nothing new: a stop ends the wait and is reported */
	ck_assert_int_eq(pthread_create(&tid, NULL, status_waiter_main, &w), 0);
	ctl_stop(&ctl, SIGINT);
	ck_assert_int_eq(pthread_join(tid, NULL), 0);
	ck_assert(w.stopped);
	ck_assert_int_eq(w.seen, 3);
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
	tcase_add_test(tc, test_ctl_status_requests);
	suite_add_tcase(s, tc);
	return s;
}
