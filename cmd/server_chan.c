/* SPDX-License-Identifier: MIT */
/* server_chan: a session's channel to its client (server.h): frames sent whole under the
 * session's lock, and fds 1 and 2 made pipes that a forwarder thread sends to the client as
 * OUT and DIAG frames, so what fio mode prints reaches the client in the same words;
 * session_sync waits until what was written so far has gone out. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "server.h"

int session_send(struct session *s, uint16_t type, const void *data, uint32_t len)
{
	int ret;

	pthread_mutex_lock(&s->send_lock);
	ret = s->lost ? -EPIPE : proto_send(s->fd, type, data, len);
	if (ret)
		s->lost = true;
	pthread_mutex_unlock(&s->send_lock);
	return ret;
}

/* What is in the pipe now, as frames of type; false at its end. */
static bool session_drain(struct session *s, int fd, uint16_t type)
{
	char buf[16384];

	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n > 0) {
			session_send(s, type, buf, (uint32_t)n);
			continue;
		}
		return n < 0 && (errno == EAGAIN || errno == EINTR);
	}
}

static void *session_forward(void *arg)
{
	struct session *s = arg;
	bool open_out = true, open_err = true;

	while (open_out || open_err) {
		struct pollfd p[3] = { { s->out_rd, POLLIN, 0 }, { s->err_rd, POLLIN, 0 }, { s->sync_pipe[0], POLLIN, 0 } };
		char c;

		p[0].fd = open_out ? s->out_rd : -1;
		p[1].fd = open_err ? s->err_rd : -1;
		if (poll(p, 3, -1) < 0)
			continue;
		if (p[0].revents)
			open_out = session_drain(s, s->out_rd, PROTO_OUT);
		if (p[1].revents)
			open_err = session_drain(s, s->err_rd, PROTO_DIAG);
		if (p[2].revents && read(s->sync_pipe[0], &c, 1) == 1) {
			if (open_out)
				open_out = session_drain(s, s->out_rd, PROTO_OUT);
			if (open_err)
				open_err = session_drain(s, s->err_rd, PROTO_DIAG);
			if (write(s->synced_pipe[1], "s", 1) != 1)
				break;
		}
	}
	return NULL;
}

void session_sync(struct session *s)
{
	char c;

	fflush(stdout);
	fflush(stderr);
	if (write(s->sync_pipe[1], "s", 1) == 1)
		while (read(s->synced_pipe[0], &c, 1) < 0 && errno == EINTR)
			;
}

/* fds 1 and 2 become non-blocking pipes read by the forwarder. 0 or -errno. */
int session_pipes(struct session *s)
{
	int out[2], err[2];

	if (pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC) || pipe2(s->sync_pipe, O_CLOEXEC) ||
	    pipe2(s->synced_pipe, O_CLOEXEC))
		return -errno;
	fflush(stdout);
	fflush(stderr);
	if (dup2(out[1], STDOUT_FILENO) < 0 || dup2(err[1], STDERR_FILENO) < 0)
		return -errno;
	close(out[1]);
	close(err[1]);
	s->out_rd = out[0];
	s->err_rd = err[0];
	fcntl(s->out_rd, F_SETFL, O_NONBLOCK);
	fcntl(s->err_rd, F_SETFL, O_NONBLOCK);
	return -pthread_create(&s->fwd, NULL, session_forward, s);
}
