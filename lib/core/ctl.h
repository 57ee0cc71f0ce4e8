/* SPDX-License-Identifier: MIT */
/* ctl: the run-control channel between cmd/ (which owns signals) and the lib/ runners.
 *
 * cmd/main.c blocks SIGINT/SIGTERM/SIGHUP in every thread and handles them in a small
 * signal thread, which calls ctl_stop(). Runners poll ctl_stopped() in their loops and
 * sleep with ctl_sleep_until(), which returns early as soon as a stop is requested. */
#ifndef IOPS_CTL_H
#define IOPS_CTL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define CTL_CHILDREN	16	/* exit statuses kept for modes that wait for a child */

struct ctl_child {
	pid_t pid;
	int status;		/* as waitpid() gives it */
};

struct ctl {
	atomic_int nr_stops;	/* stop requests received so far */
	atomic_int last_signo;	/* signal behind the last request, 0 if none */
	atomic_int settled;	/* ctl_settle(): -1 not yet, else whether the run was stopped */
	pthread_mutex_t lock;
	pthread_cond_t wake;	/* CLOCK_MONOTONIC condition variable */
	/* status-interval: SIGUSR1 asks the fio mode for a full report now */
	atomic_int nr_status;	/* status requests received so far */
	/* children the signal thread reaped (it reaps every child, as PID 1 must): the latest
	 * CTL_CHILDREN, under lock, so a mode that started one can learn how it ended */
	struct ctl_child children[CTL_CHILDREN];
	unsigned nr_children;	/* recorded so far; the ring index is nr_children % CTL_CHILDREN */
	/* a step that storage which stalls may block for ever (the layout's writes), under lock:
	 * the signal thread runs it when a stop has not ended the step in time, then exits */
	void (*escape)(void *);
	void *escape_arg;
};

int ctl_init(struct ctl *ctl);
void ctl_release(struct ctl *ctl);

/* Request a stop (async-signal-safe callers: use from the signal thread, not a handler).
 * Returns the number of stop requests so far, including this one. */
int ctl_stop(struct ctl *ctl, int signo);

/* True once a stop has been requested. Cheap: one relaxed atomic load. */
bool ctl_stopped(const struct ctl *ctl);

/* The run's outcome is decided now (the runner, as it keeps or removes the files it made):
 * returns ctl_stopped() and remembers it, so a stop that comes later (while the report is
 * printed) cannot make the exit status say "stopped" of a run that kept its files. */
bool ctl_settle(struct ctl *ctl);

/* What ctl_settle() decided; ctl_stopped() if it was never called. */
bool ctl_stopped_run(const struct ctl *ctl);

/* Number of stop requests received (0, 1, 2, ...). */
int ctl_nr_stops(const struct ctl *ctl);

/* Signal number behind the latest stop request, 0 if none. */
int ctl_signo(const struct ctl *ctl);

/* Sleep until CLOCK_MONOTONIC reaches deadline_ns or a stop is requested.
 * Returns true if the deadline was reached, false if woken by a stop. */
bool ctl_sleep_until(struct ctl *ctl, uint64_t deadline_ns);

/* Block until a stop is requested (returns true) or *quit becomes true and ctl_wake() is
 * called (returns false). For helper threads that must end cleanly with the run. */
bool ctl_wait_stop(struct ctl *ctl, const atomic_bool *quit);

/* Wake every ctl_wait_stop() / ctl_sleep_until() sleeper so it re-checks its condition. */
void ctl_wake(struct ctl *ctl);

/* status-interval: record a status request (SIGUSR1, from the signal thread) and wake the
 * ctl_wait_stop_status() sleepers. */
void ctl_status_request(struct ctl *ctl);

/* ctl_wait_stop(), also returning (false) when the number of status requests differs from
 * *seen, which is then updated. */
bool ctl_wait_stop_status(struct ctl *ctl, const atomic_bool *quit, int *seen);

/* Set (fn) or clear (NULL) the escape of the step now running: fn(arg) says so on stderr, then
 * removes what the step created (which the stalled storage may block too); it runs in a
 * thread of its own while the step is blocked. */
void ctl_set_escape(struct ctl *ctl, void (*fn)(void *), void *arg);

/* Run the escape set now and return true, or false when none is. */
bool ctl_escape(struct ctl *ctl);
/* Whether an escape is set now. */
bool ctl_has_escape(struct ctl *ctl);

/* The signal thread reaped child pid with status (waitpid's): record it, wake the waiters. */
void ctl_child_exited(struct ctl *ctl, pid_t pid, int status);

/* Wait until child pid has been reaped (true, *status set) or the number of stop requests
 * is no longer *stops_seen (false, *stops_seen updated: the caller passes the stop on to the
 * child, then waits again). */
bool ctl_child_wait(struct ctl *ctl, pid_t pid, int *status, int *stops_seen);

/* Has child pid been reaped? true with *status set, at once (for a mode watching several). */
bool ctl_child_done(struct ctl *ctl, pid_t pid, int *status);

#endif
