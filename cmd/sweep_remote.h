/* SPDX-License-Identifier: MIT */
/* sweep_remote: `iops sweep CONFIG --client=HOSTS`, seed 004's sweep across servers: every
 * step (the prefill, then rw x bs x samples) is one client run on all servers at once behind
 * the start barrier (cmd/client_run.c), in one session per server for the whole sweep (the
 * prefill's files serve the steps after it; each server removes them when the sweep ends).
 * Each step's log shows seed 004's header line and the exact All clients block; its row is
 * All clients'; --results=DIR keeps one ustar archive per step under simple-fio's name. */
#ifndef IOPS_SWEEP_REMOTE_H
#define IOPS_SWEEP_REMOTE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "core/ctl.h"
#include "core/err.h"
#include "suite/sweep_conf.h"
#include "suite/sweep_out.h"

#define SWEEP_CLIENTS_MAX	64	/* --client options */

struct sweep_remote {
	const struct sweep_conf *conf;
	const char *clients[SWEEP_CLIENTS_MAX];	/* --client values: hosts files, HOST[,PORT] lists */
	unsigned nr_clients;
	uint64_t wait_ms, ready_wait_ms;	/* --client-wait, --client-ready-wait */
	const char *results;			/* --results=DIR (made), "" = none */
	FILE *progress;
	struct sweep_row *rows;			/* sweep_nr_steps() of them */
	unsigned nr_rows;
};

/* --client=HOSTS (repeatable), --client-wait=S, --client-ready-wait=S of iops sweep: true
 * when arg is one of them (err set when its value is bad). */
bool sweep_remote_arg(struct sweep_remote *sr, const char *arg, struct iops_err *err);

/* Runs the sweep. 0 when every step ran on every server, 1 when a step failed somewhere (it
 * is reported, the others go on) or nothing could run (the reason on stderr). */
int sweep_remote_run(struct sweep_remote *sr, struct ctl *ctl);


#endif
