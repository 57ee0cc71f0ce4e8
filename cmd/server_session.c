/* server_session: one client's session in the forked child (server.h): HELLO and the token,
 * then its jobs one after the other until BYE or the end of the connection. fds 1 and 2 are
 * pipes a forwarder thread sends to the client as OUT and DIAG frames, so what fio mode
 * prints reaches the client in the same words. */
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
static int session_pipes(struct session *s)
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
