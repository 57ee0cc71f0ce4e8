#include "ctl.h"

#include <errno.h>
#include <time.h>

int ctl_init(struct ctl *ctl)
{
	pthread_condattr_t attr;
	int ret;

	atomic_init(&ctl->nr_stops, 0);
	atomic_init(&ctl->last_signo, 0);
	atomic_init(&ctl->nr_status, 0);	/* status-interval */
	ret = pthread_mutex_init(&ctl->lock, NULL);
	if (ret)
		return -ret;
	ret = pthread_condattr_init(&attr);
	if (ret)
		goto undo_mutex;
	ret = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	if (!ret)
		ret = pthread_cond_init(&ctl->wake, &attr);
	pthread_condattr_destroy(&attr);
	if (ret)
		goto undo_mutex;
	return 0;

undo_mutex:
	pthread_mutex_destroy(&ctl->lock);
	return -ret;
}

void ctl_release(struct ctl *ctl)
{
	pthread_cond_destroy(&ctl->wake);
	pthread_mutex_destroy(&ctl->lock);
}

int ctl_stop(struct ctl *ctl, int signo)
{
	int n;

	pthread_mutex_lock(&ctl->lock);
	atomic_store(&ctl->last_signo, signo);
	n = atomic_fetch_add(&ctl->nr_stops, 1) + 1;
	pthread_cond_broadcast(&ctl->wake);
	pthread_mutex_unlock(&ctl->lock);
	return n;
}

bool ctl_stopped(const struct ctl *ctl)
{
	return atomic_load_explicit(&ctl->nr_stops, memory_order_relaxed) > 0;
}

int ctl_nr_stops(const struct ctl *ctl)
{
	return atomic_load(&ctl->nr_stops);
}

int ctl_signo(const struct ctl *ctl)
{
	return atomic_load(&ctl->last_signo);
}

bool ctl_sleep_until(struct ctl *ctl, uint64_t deadline_ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(deadline_ns / 1000000000u),
		.tv_nsec = (long)(deadline_ns % 1000000000u),
	};
	bool reached = false;

	pthread_mutex_lock(&ctl->lock);
	while (!ctl_stopped(ctl)) {
		int ret = pthread_cond_timedwait(&ctl->wake, &ctl->lock, &ts);
		if (ret == ETIMEDOUT) {
			reached = true;
			break;
		}
	}
	pthread_mutex_unlock(&ctl->lock);
	return reached;
}

bool ctl_wait_stop(struct ctl *ctl, const atomic_bool *quit)
{
	bool stopped;

	pthread_mutex_lock(&ctl->lock);
	while (!ctl_stopped(ctl) && !atomic_load(quit))
		pthread_cond_wait(&ctl->wake, &ctl->lock);
	stopped = ctl_stopped(ctl);
	pthread_mutex_unlock(&ctl->lock);
	return stopped;
}

void ctl_wake(struct ctl *ctl)
{
	pthread_mutex_lock(&ctl->lock);
	pthread_cond_broadcast(&ctl->wake);
	pthread_mutex_unlock(&ctl->lock);
}

/* ---- status-interval: SIGUSR1 ------------------------------------------------------------ */

void ctl_status_request(struct ctl *ctl)
{
	pthread_mutex_lock(&ctl->lock);
	atomic_fetch_add(&ctl->nr_status, 1);
	pthread_cond_broadcast(&ctl->wake);
	pthread_mutex_unlock(&ctl->lock);
}

bool ctl_wait_stop_status(struct ctl *ctl, const atomic_bool *quit, int *seen)
{
	bool stopped;

	pthread_mutex_lock(&ctl->lock);
	while (!ctl_stopped(ctl) && !atomic_load(quit) && atomic_load(&ctl->nr_status) == *seen)
		pthread_cond_wait(&ctl->wake, &ctl->lock);
	stopped = ctl_stopped(ctl);
	*seen = atomic_load(&ctl->nr_status);
	pthread_mutex_unlock(&ctl->lock);
	return stopped;
}
