/* SPDX-License-Identifier: MIT */
/* server: `iops --server[=ARGS]` (fio's syntax), the iops end of client/server runs.
 * server.c listens, forks one session child per client (one at a time), reaps it and removes
 * what its jobs created; server_session.c is that child (handshake, jobs, start barrier);
 * server_job.c runs one job of a session. docs/many-clients.md says what it allows. */
#ifndef IOPS_SERVER_H
#define IOPS_SERVER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/ctl.h"
#include "remote/addr.h"
#include "remote/confine.h"
#include "remote/proto.h"

#define SERVER_HELLO_MS		10000		/* a client says HELLO within this */
#define SERVER_IDLE_MS		(3600 * 1000)	/* between a session's jobs (a sweep's steps) */
#define SERVER_GO_MS		(3600 * 1000)	/* READY to GO: the client bounds its own wait */
#define SERVER_REFUSED		10		/* a session child's exit: not a client session */

struct server_cfg {
	struct addr addr;
	struct confine conf;
	const char *token;	/* IOPS_SERVER_TOKEN, NULL = none */
	const char *pidfile;	/* --daemonize, NULL = none */
	unsigned runs;		/* --server-runs, 0 = until stopped */
	char hostname[256];
	char arch[64];
};

/* fio mode hands argv here when it holds --server (argv[0] "fio"). Exit status. */
int server_main(int argc, char **argv, struct ctl *ctl);

/* One session (the forked child): fd is the client's connection, cleanup_fd the pipe to the
 * server on which each path a job may create is written before it is created ("F path",
 * "D dir" lines), ctl the child's own. Returns the child's exit status: 0 a client session,
 * SERVER_REFUSED garbage, a bad token or version. */
int server_session(const struct server_cfg *sc, int fd, int cleanup_fd, const char *peer, struct ctl *ctl);

/* The session as server_job.c sees it. */
struct session {
	const struct server_cfg *sc;
	int fd, cleanup_fd;
	const char *peer;
	struct ctl *ctl;
	pthread_mutex_t send_lock;
	int out_rd, err_rd;	/* the job's stdout and stderr (fds 1 and 2 are their pipes) */
	int sync_pipe[2];	/* main -> forwarder: drain now */
	int synced_pipe[2];	/* forwarder -> main: drained */
	pthread_t fwd;
	bool bye;		/* the client asked to stop (BYE): answer, then end */
	bool lost;		/* the client is gone: end now */
};

/* A frame to the client, under the send lock. 0 or -errno. */
int session_send(struct session *s, uint16_t type, const void *data, uint32_t len);
/* Every byte the job wrote on stdout and stderr so far sent to the client (OUT, DIAG). */
void session_sync(struct session *s);
/* fds 1 and 2 become pipes, and the thread forwarding them to the client starts.
 * 0 or -errno. */
int session_pipes(struct session *s);
/* One JOB frame: parse, check, run behind the start barrier, report. Returns 0 when the
 * session goes on, -1 when it must end (the client is gone or said BYE). */
int server_job(struct session *s, const struct proto_frame *fr);

#endif
