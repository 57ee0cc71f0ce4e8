/* SPDX-License-Identifier: MIT */
#include "core/ctl.h"

#include <errno.h>
#include <time.h>

#include "core/clock.h"

int ctl_init(struct ctl *ctl)
{
	atomic_init(&ctl->nr_stops, 0);
	atomic_init(&ctl->last_signo, 0);
	atomic_init(&ctl->settled, -1);
	atomic_init(&ctl->nr_status, 0);	/* status-interval */
	ctl->nr_children = 0;
	ctl->escape = NULL;
	ctl->escape_arg = NULL;
	return clock_lock_init(&ctl->lock, &ctl->wake);
}

void ctl_set_escape(struct ctl *ctl, void (*fn)(void *), void *arg)
{
	pthread_mutex_lock(&ctl->lock);
	ctl->escape = fn;
	ctl->escape_arg = arg;
	pthread_mutex_unlock(&ctl->lock);
}

bool ctl_escape(struct ctl *ctl)
{
	void (*fn)(void *);
	void *arg;

	pthread_mutex_lock(&ctl->lock);
	fn = ctl->escape;
	arg = ctl->escape_arg;
	pthread_mutex_unlock(&ctl->lock);
	if (fn)
		fn(arg);
	return fn != NULL;
}

bool ctl_has_escape(struct ctl *ctl)
{
	bool set;

	pthread_mutex_lock(&ctl->lock);
	set = ctl->escape != NULL;
	pthread_mutex_unlock(&ctl->lock);
	return set;
}

void ctl_release(struct ctl *ctl)
{
	clock_lock_destroy(&ctl->lock, &ctl->wake);
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

bool ctl_settle(struct ctl *ctl)
{
	bool stopped = atomic_load(&ctl->nr_stops) > 0;

	atomic_store(&ctl->settled, stopped);
	return stopped;
}

bool ctl_stopped_run(const struct ctl *ctl)
{
	int s = atomic_load(&ctl->settled);

	return s < 0 ? ctl_stopped(ctl) : s > 0;
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
	struct timespec ts;
	bool reached = false;

	clock_ns_to_timespec(deadline_ns, &ts);
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

/* ---- children: exit statuses for the modes that wait for one ---------------------------- */

void ctl_child_exited(struct ctl *ctl, pid_t pid, int status)
{
	pthread_mutex_lock(&ctl->lock);
	ctl->children[ctl->nr_children % CTL_CHILDREN] = (struct ctl_child){ .pid = pid, .status = status };
	ctl->nr_children++;
	pthread_cond_broadcast(&ctl->wake);
	pthread_mutex_unlock(&ctl->lock);
}

/* Under lock: the recorded status of pid, the latest first. */
static bool ctl_child_find(const struct ctl *ctl, pid_t pid, int *status)
{
	unsigned n = ctl->nr_children < CTL_CHILDREN ? ctl->nr_children : CTL_CHILDREN;

	for (unsigned i = 1; i <= n; i++) {
		const struct ctl_child *c = &ctl->children[(ctl->nr_children - i) % CTL_CHILDREN];

		if (c->pid == pid) {
			*status = c->status;
			return true;
		}
	}
	return false;
}

bool ctl_child_wait(struct ctl *ctl, pid_t pid, int *status, int *stops_seen)
{
	bool found;

	pthread_mutex_lock(&ctl->lock);
	while (!(found = ctl_child_find(ctl, pid, status)) && atomic_load(&ctl->nr_stops) == *stops_seen)
		pthread_cond_wait(&ctl->wake, &ctl->lock);
	*stops_seen = atomic_load(&ctl->nr_stops);
	pthread_mutex_unlock(&ctl->lock);
	return found;
}

bool ctl_child_done(struct ctl *ctl, pid_t pid, int *status)
{
	bool found;

	pthread_mutex_lock(&ctl->lock);
	found = ctl_child_find(ctl, pid, status);
	pthread_mutex_unlock(&ctl->lock);
	return found;
}
