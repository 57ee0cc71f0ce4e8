/* SPDX-License-Identifier: MIT */
/* client: `iops --client=HOST[,PORT]|FILE ...` (fio's syntax), and the same runs for the
 * sweep's steps across servers. client.c reads the command line; client_run.c connects to
 * every server (retrying until --client-wait), runs a step on all of them behind the start
 * barrier (each lays out its files and says READY; one GO to all; a server not ready within
 * --client-ready-wait is left out) and prints the servers' reports and the exact All
 * clients merge (lib/merge) in fio's client layout. */
#ifndef IOPS_CLIENT_H
#define IOPS_CLIENT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/ctl.h"
#include "core/err.h"
#include "remote/addr.h"
#include "remote/proto.h"

#define CLIENT_WAIT_MS		10000		/* --client-wait default: connect and resolve */
#define CLIENT_READY_MS		600000		/* --client-ready-wait default: JOB to READY */
#define CLIENT_LINE_MAX		4096

struct client_lines {		/* a server's OUT or DIAG text, cut into lines */
	char buf[CLIENT_LINE_MAX];
	size_t n;
};

struct client_srv {
	struct addr addr;
	char name[ADDR_HOST_MAX + 16];	/* as dialled, for messages */
	int fd;				/* -1: not connected, or left out */
	char hostname[256], arch[64];	/* the server's own */
	struct proto_job job;		/* this step's records */
	/* one step */
	bool sent, ready, done, failed;
	int status;			/* DONE's */
	char *report;			/* REPORT: normal/terse text, NULL = none */
	uint32_t report_len;
	char *result;			/* RESULT: json+ document, NULL = none */
	uint32_t result_len;
	struct client_lines out, diag;
};

struct client {
	struct client_srv *srv;
	unsigned nr;
	unsigned fmts;			/* --output-format as enum merge_fmt bits (merge/merge.h) */
	FILE *out;
	const char *token;		/* IOPS_SERVER_TOKEN, "" = none */
	uint64_t wait_ms, ready_wait_ms;
	struct ctl *ctl;
	bool headers;			/* print the servers' header lines (normal output) */
	uint64_t go_ms;			/* the last step's GO, ms since the epoch */
	const char *plot;		/* --plot=FILE.html: the page of the merged result, or NULL */
};

int client_main(int argc, char **argv, struct ctl *ctl);

/* One --client value: a hosts file (an existing regular file) or HOST[,PORT], appended to
 * c->srv (HOSTS_MAX at most). 0 or -errno with err set. */
int client_add(struct client *c, const char *value, struct iops_err *err);

/* Connects to every server and says HELLO, retrying until c->wait_ms: a server still not
 * there then is reported and left out (fd -1). Returns the number connected; 0 means none. */
unsigned client_connect(struct client *c);
/* One step: each connected server's job (srv->job) sent, the start barrier, the reports
 * collected. Returns 0 when every server ran it and exited 0, else the first non-zero
 * exit status (1 for a server that failed or was left out). */
int client_step(struct client *c);
/* Prints the step in c->fmts: each server's report (normal and terse), then All clients
 * (json and json+: one client_stats document); with c->plot, writes the page of the merged
 * result. 0, 1 when the page could not be written (printed), or -1 with err set. */
int client_print(struct client *c, struct iops_err *err);
/* Forgets the step's reports and records. */
void client_step_reset(struct client *c);
/* BYE to every server, then closes. */
void client_close(struct client *c);

#endif
