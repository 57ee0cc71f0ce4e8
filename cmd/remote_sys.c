/* SPDX-License-Identifier: MIT */
/* remote_sys: sockets and the signal thread of forked processes (remote_sys.h). */
#include "remote_sys.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

uint64_t remote_sys_epoch_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

int remote_sys_uint(const char *s, unsigned long long max, unsigned long long *out)
{
	unsigned long long v = 0;
	size_t i;

	for (i = 0; s[i] >= '0' && s[i] <= '9'; i++) {
		if (v > (max - (unsigned)(s[i] - '0')) / 10)
			return -EINVAL;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	if (!i || s[i])
		return -EINVAL;
	*out = v;
	return 0;
}

static int remote_sys_fail(struct iops_err *err, int e, const char *what, const struct addr *a)
{
	char where[ADDR_HOST_MAX + 16];

	addr_format(a, where, sizeof(where));
	iops_err_set(err, e, "cannot %s %s: %s", what, where, err_str(e));
	return -e;
}

static int remote_sys_unix(const struct addr *a, struct sockaddr_un *sun)
{
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	memcpy(sun->sun_path, a->path, strlen(a->path) + 1);	/* addr.c bounds it */
	return socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
}

static struct addrinfo *remote_sys_resolve(const struct addr *a, bool passive, int *gai)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = passive ? AI_PASSIVE : 0 }, *res = NULL;
	char port[8];

	hints.ai_family = a->family == ADDR_INET ? AF_INET : a->family == ADDR_INET6 ? AF_INET6 : AF_UNSPEC;
	if (passive && !a->host[0] && a->family == ADDR_ANY)
		hints.ai_family = AF_INET;	/* fio's default: every IPv4 address */
	snprintf(port, sizeof(port), "%u", a->port);
	*gai = getaddrinfo(a->host[0] ? a->host : NULL, port, &hints, &res);
	return *gai ? NULL : res;
}

int remote_sys_listen(const struct addr *a, struct iops_err *err)
{
	int fd, one = 1, gai, e = 0;
	struct addrinfo *res, *ai;

	if (a->family == ADDR_UNIX) {
		struct sockaddr_un sun;
		struct stat st;

		if ((fd = remote_sys_unix(a, &sun)) < 0)
			return remote_sys_fail(err, errno, "listen on", a);
		if (lstat(a->path, &st) == 0) {	/* a stale socket of an earlier server may go */
			int probe = S_ISSOCK(st.st_mode) ? socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0) : -1;
			bool stale = probe >= 0 && connect(probe, (struct sockaddr *)&sun, sizeof(sun)) < 0 &&
				     errno == ECONNREFUSED;

			if (probe >= 0)
				close(probe);
			if (!stale) {
				close(fd);
				iops_err_set(err, EEXIST, "cannot listen on sock:%s: it exists (%s)", a->path,
					     S_ISSOCK(st.st_mode) ? "a server listens there" : "not a socket");
				return -EEXIST;
			}
			unlink(a->path);
		}
		if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0 || listen(fd, 16) < 0) {
			e = errno;
			close(fd);
			return remote_sys_fail(err, e, "listen on", a);
		}
		return fd;
	}
	if (!(res = remote_sys_resolve(a, true, &gai))) {
		iops_err_set(err, EINVAL, "cannot listen on '%s': %s", a->host, gai_strerror(gai));
		return -EINVAL;
	}
	for (ai = res, fd = -1; ai && fd < 0; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
		if (fd < 0) {
			e = errno;
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, 16) < 0) {
			e = errno;
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(res);
	return fd >= 0 ? fd : remote_sys_fail(err, e ? e : EADDRNOTAVAIL, "listen on", a);
}

/* A non-blocking connect that waits at most timeout_ms. 0 or -errno. */
static int remote_sys_dial(int fd, const struct sockaddr *sa, socklen_t len, int timeout_ms)
{
	int fl = fcntl(fd, F_GETFL), e = 0;
	socklen_t elen = sizeof(e);
	struct pollfd pfd = { .fd = fd, .events = POLLOUT };

	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	if (connect(fd, sa, len) < 0) {
		if (errno != EINPROGRESS)
			return -errno;
		if (poll(&pfd, 1, timeout_ms) <= 0)
			return -ETIMEDOUT;
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &elen) < 0 || e)
			return -(e ? e : errno);
	}
	fcntl(fd, F_SETFL, fl);
	return 0;
}

int remote_sys_connect(const struct addr *a, int timeout_ms, struct iops_err *err)
{
	int fd, gai, e = 0, one = 1;
	struct addrinfo *res, *ai;

	if (a->family == ADDR_UNIX) {
		struct sockaddr_un sun;

		if ((fd = remote_sys_unix(a, &sun)) < 0)
			return remote_sys_fail(err, errno, "connect to", a);
		if ((e = remote_sys_dial(fd, (struct sockaddr *)&sun, sizeof(sun), timeout_ms)) < 0) {
			close(fd);
			return remote_sys_fail(err, -e, "connect to", a);
		}
		return fd;
	}
	if (!(res = remote_sys_resolve(a, false, &gai))) {
		iops_err_set(err, EAGAIN, "cannot resolve '%s': %s", a->host, gai_strerror(gai));
		return -EAGAIN;
	}
	for (ai = res, fd = -1; ai && fd < 0; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
		if (fd < 0) {
			e = errno;
			continue;
		}
		if ((e = -remote_sys_dial(fd, ai->ai_addr, ai->ai_addrlen, timeout_ms)) > 0) {
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(res);
	if (fd < 0)
		return remote_sys_fail(err, e ? e : ECONNREFUSED, "connect to", a);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));	/* GO must not wait */
	return fd;
}

void remote_sys_peer(int fd, char *buf, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	snprintf(buf, len, "unix");
	if (getpeername(fd, (struct sockaddr *)&ss, &sl) < 0)
		return;
	if (ss.ss_family == AF_INET)
		inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, buf, (socklen_t)len);
	else if (ss.ss_family == AF_INET6)
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr, buf, (socklen_t)len);
}

static void *remote_sys_sigmain(void *arg)
{
	struct ctl *ctl = arg;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	for (;;) {
		siginfo_t info;
		int signo = sigwaitinfo(&set, &info);

		if (signo == SIGCHLD) {
			pid_t pid;
			int status;

			while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
				ctl_child_exited(ctl, pid, status);
		} else if (signo > 0) {
			ctl_stop(ctl, signo);
		}
	}
	return NULL;
}

int remote_sys_sigthread(struct ctl *ctl)
{
	pthread_t t;
	int ret = pthread_create(&t, NULL, remote_sys_sigmain, ctl);

	if (ret)
		return -ret;
	pthread_detach(t);
	return 0;
}
