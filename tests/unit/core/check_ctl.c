/* SPDX-License-Identifier: MIT */
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

START_TEST(test_ctl_settle)
{
	struct ctl ctl;

	/* Never settled: the answer is ctl_stopped()'s. */
	ck_assert_int_eq(ctl_init(&ctl), 0);
	ck_assert(!ctl_stopped_run(&ctl));
	ctl_stop(&ctl, SIGTERM);
	ck_assert(ctl_stopped_run(&ctl));
	ctl_release(&ctl);

	/* Settled before any stop: a stop while the report is printed changes nothing. */
	ck_assert_int_eq(ctl_init(&ctl), 0);
	ck_assert(!ctl_settle(&ctl));
	ctl_stop(&ctl, SIGTERM);
	ck_assert(ctl_stopped(&ctl));
	ck_assert(!ctl_stopped_run(&ctl));
	ctl_release(&ctl);

	/* Settled after a stop: the run was stopped, whatever comes next. */
	ck_assert_int_eq(ctl_init(&ctl), 0);
	ctl_stop(&ctl, SIGINT);
	ck_assert(ctl_settle(&ctl));
	ctl_stop(&ctl, SIGTERM);
	ck_assert(ctl_stopped_run(&ctl));
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

/* children: a recorded status is found (the latest for a pid that came back), a pid never
 * recorded waits until a stop, and more than CTL_CHILDREN records keep the latest ones */
struct child_waiter {
	struct ctl *ctl;
	pid_t pid;
	int status, seen;
	bool found;
};

static void *child_waiter_main(void *arg)
{
	struct child_waiter *w = arg;

	w->found = ctl_child_wait(w->ctl, w->pid, &w->status, &w->seen);
	return NULL;
}

static int escapes;

static void count_escape(void *arg)
{
	escapes += *(int *)arg;
}

/* The escape: none at first, the one set runs with its argument, cleared again: none. */
START_TEST(test_ctl_escape)
{
	struct ctl ctl;
	int by = 3;

	ck_assert_int_eq(ctl_init(&ctl), 0);
	escapes = 0;
	ck_assert(!ctl_has_escape(&ctl));
	ck_assert(!ctl_escape(&ctl));
	ctl_set_escape(&ctl, count_escape, &by);
	ck_assert(ctl_has_escape(&ctl));
	ck_assert(ctl_escape(&ctl));
	ck_assert_int_eq(escapes, 3);
	ctl_set_escape(&ctl, NULL, NULL);
	ck_assert(!ctl_has_escape(&ctl));
	ck_assert(!ctl_escape(&ctl));
	ck_assert_int_eq(escapes, 3);
	ctl_release(&ctl);
}
END_TEST

START_TEST(test_ctl_children)
{
	struct ctl ctl;
	struct child_waiter w = { .ctl = &ctl, .pid = 4242 };
	pthread_t tid;
	int st = -1, seen = 0;

	ck_assert_int_eq(ctl_init(&ctl), 0);
	ctl_child_exited(&ctl, 100, 0);
	ctl_child_exited(&ctl, 101, 1 << 8);
	ctl_child_exited(&ctl, 100, 2 << 8);
	ck_assert(ctl_child_wait(&ctl, 101, &st, &seen));
	ck_assert_int_eq(st, 1 << 8);
	ck_assert(ctl_child_wait(&ctl, 100, &st, &seen));
	ck_assert_int_eq(st, 2 << 8);	/* the latest */
	st = -1;
	ck_assert(ctl_child_done(&ctl, 101, &st));	/* at once, without waiting */
	ck_assert_int_eq(st, 1 << 8);
	ck_assert(!ctl_child_done(&ctl, 4242, &st));
	ck_assert_int_eq(st, 1 << 8);	/* untouched when not recorded */
	/* recorded while the waiter waits */
	ck_assert_int_eq(pthread_create(&tid, NULL, child_waiter_main, &w), 0);
	ctl_child_exited(&ctl, 4242, 9);
	ck_assert_int_eq(pthread_join(tid, NULL), 0);
	ck_assert(w.found);
	ck_assert_int_eq(w.status, 9);
	ck_assert_int_eq(w.seen, 0);
	/* never recorded: a stop ends the wait, counted once */
	w.pid = 777;
	ck_assert_int_eq(pthread_create(&tid, NULL, child_waiter_main, &w), 0);
	ctl_stop(&ctl, SIGTERM);
	ck_assert_int_eq(pthread_join(tid, NULL), 0);
	ck_assert(!w.found);
	ck_assert_int_eq(w.seen, 1);
	/* the ring: the first records are gone after CTL_CHILDREN more */
	for (int i = 0; i < CTL_CHILDREN; i++)
		ctl_child_exited(&ctl, 1000 + i, i);
	ck_assert(ctl_child_wait(&ctl, 1000 + CTL_CHILDREN - 1, &st, &seen));
	ck_assert_int_eq(st, CTL_CHILDREN - 1);
	ck_assert(ctl_child_wait(&ctl, 1000, &st, &seen));
	ck_assert_int_eq(st, 0);
	ctl_stop(&ctl, SIGTERM);	/* the next wait returns at once: a new stop */
	ck_assert(!ctl_child_wait(&ctl, 101, &st, &seen));
	ck_assert_int_eq(seen, 2);
	ctl_release(&ctl);
}
END_TEST

Suite *ctl_suite(void)
{
	Suite *s = suite_create("ctl");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_ctl_sleep_reaches_deadline);
	tcase_add_test(tc, test_ctl_escape);
	tcase_add_test(tc, test_ctl_stop_counts_and_wakes);
	tcase_add_test(tc, test_ctl_past_deadline);
	tcase_add_test(tc, test_ctl_settle);
	tcase_add_test(tc, test_ctl_wait_stop_quit_and_stop);
	tcase_add_test(tc, test_ctl_status_requests);
	tcase_add_test(tc, test_ctl_children);
	suite_add_tcase(s, tc);
	return s;
}
