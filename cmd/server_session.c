/* SPDX-License-Identifier: MIT */
/* server_session: one client's session in the forked child (server.h): HELLO and the token,
 * then its jobs one after the other until BYE or the end of the connection. Its output
 * channel (fds 1 and 2 forwarded as OUT and DIAG frames) is server_chan.c's. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "server.h"

/* Equal strings, in a time that depends on the lengths only (never on where they differ). */
static bool session_token_equal(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), n = la > lb ? la : lb;
	unsigned char diff = la != lb;

	for (size_t i = 0; i < n; i++)
		diff |= (unsigned char)((i < la ? a[i] : 0) ^ (i < lb ? b[i] : 0));
	return !diff;
}

static int session_refuse(struct session *s, const char *why)
{
	fprintf(stderr, "iops server: client %s refused: %s\n", s->peer, why);
	proto_send(s->fd, PROTO_ERROR, why, (uint32_t)strlen(why));
	return SERVER_REFUSED;
}

/* HELLO: "token NUL version" both ways (the server's: hostname NUL arch NUL version). */
static int session_hello(struct session *s)
{
	struct iops_err err = { 0 };
	struct proto_frame fr;
	char reply[512];
	int n, ret = proto_recv(s->fd, &fr, SERVER_HELLO_MS, &err);

	if (ret) {
		char why[600];

		snprintf(why, sizeof(why), "%s", ret == -EPROTO ? err.msg : ret == -ETIMEDOUT ? "no HELLO in time" :
			 ret == -EPIPE ? "closed before HELLO" : err_str(-ret));
		return session_refuse(s, why);
	}
	if (fr.type != PROTO_HELLO) {
		free(fr.data);
		return session_refuse(s, "the first frame is not HELLO");
	}
	if (s->sc->token && !session_token_equal(s->sc->token, fr.data)) {
		free(fr.data);
		return session_refuse(s, "bad or missing token (IOPS_SERVER_TOKEN)");
	}
	free(fr.data);
	n = snprintf(reply, sizeof(reply), "%s%c%s%c%s", s->sc->hostname, 0, s->sc->arch, 0, IOPS_VERSION);
	if (n < 0 || (size_t)n >= sizeof(reply) || proto_send(s->fd, PROTO_HELLO, reply, (uint32_t)n))
		return SERVER_REFUSED;
	fprintf(stderr, "iops server: client %s connected\n", s->peer);
	return 0;
}

int server_session(const struct server_cfg *sc, int fd, int cleanup_fd, const char *peer, struct ctl *ctl)
{
	struct session s = { .sc = sc, .fd = fd, .cleanup_fd = cleanup_fd, .peer = peer, .ctl = ctl };
	unsigned jobs = 0;
	int ret;

	pthread_mutex_init(&s.send_lock, NULL);
	ret = session_hello(&s);
	if (ret)
		return ret;
	if ((ret = session_pipes(&s)) < 0) {
		fprintf(stderr, "iops server: client %s: cannot set up the session: %s\n", peer, err_str(-ret));
		return 1;
	}
	while (!ctl_stopped(ctl)) {
		struct iops_err err = { 0 };
		struct proto_frame fr;

		ret = proto_recv(fd, &fr, SERVER_IDLE_MS, &err);
		if (ret)
			break;	/* gone, idle too long, or garbage: the session ends */
		if (fr.type == PROTO_BYE) {
			free(fr.data);
			break;
		}
		if (fr.type != PROTO_JOB) {
			free(fr.data);
			break;
		}
		jobs++;
		ret = server_job(&s, &fr);
		free(fr.data);
		if (ret)
			break;
	}
	session_sync(&s);
	/* the log line goes to the server's stderr: the saved one */
	dprintf(cleanup_fd, "L session of %s ended after %u job%s%s\n", peer, jobs, jobs == 1 ? "" : "s",
		s.lost ? " (client gone)" : "");
	return 0;
}
