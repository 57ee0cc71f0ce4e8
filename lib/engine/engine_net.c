/* SPDX-License-Identifier: MIT */
/* engine_net: data over a socket (fio's net and netsplice engines). The job's options come in
 * engine_opts.net; its direction decides who sends (writes) and who receives (reads).
 *
 *   tcp   listen=1: bind the port on every address, accept one connection at init (waiting
 *         until it comes or the run is stopped); otherwise connect to hostname:port
 *   udp   the reader binds the port; the writer sends datagrams of bs bytes to hostname:port;
 *         a multicast hostname makes the reader join the group (on interface), the sender
 *         use ttl and interface
 *   unix  the reader binds the socket named by filename and accepts, the writer connects
 *
 * A write sends the whole request (one datagram for udp); a read waits for the whole request
 * or takes one datagram; a stop request ends a wait for data like the end of the stream. When the sender is done it closes (tcp, unix) or
 * sends a short end datagram (udp, a few times): the receiver's read then returns 0 and its job
 * ends (ENGINE_F_STREAM). pingpong=1: each write waits for its bytes to come back, each read
 * sends them back, so latencies are round trips. netsplice moves data between the buffer and
 * the socket through a pipe with vmsplice(2) and splice(2) (tcp and unix; udp uses send/recv). */
#include "engine/engine.h"
#include "core/err.h"

#include <errno.h>
#include <fcntl.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#define NET_POLL_MS		100	/* accept: how often the stop flag is looked at */
#define NET_UDP_END_MAGIC	"iops-net-end"	/* the udp sender's last datagram */
#define NET_UDP_END_SENDS	3

struct net_ctx {
	struct engine_net_opts o;
	bool use_splice;
	bool sender;		/* the job writes */
	int fd;			/* the connection (tcp, unix) or the datagram socket (udp) */
	int pipe[2];		/* netsplice */
	size_t pipe_cap;
	struct sockaddr_storage peer;	/* udp reader: where the last datagram came from */
	socklen_t peer_len;
	struct ctl *ctl;	/* stop requests end waits for data */
};

static int net_err(struct iops_err *err, int e, const char *what, const char *detail)
{
	iops_err_set(err, e, "fio: net engine: %s%s%s: %s", what, detail ? " " : "", detail ? detail : "",
		     err_str(e));
	return -e;
}

static void net_sockopts(struct net_ctx *ctx, int fd)
{
	int one = 1;

	if (ctx->o.nodelay && ctx->o.proto == ENGINE_NET_TCP)
		(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (ctx->o.window_size) {
		int w = ctx->o.window_size > (uint64_t)INT32_MAX ? INT32_MAX : (int)ctx->o.window_size;

		(void)setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &w, sizeof(w));
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &w, sizeof(w));
	}
	if (ctx->o.mss && ctx->o.proto == ENGINE_NET_TCP) {
		int m = (int)ctx->o.mss;

		(void)setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &m, sizeof(m));
	}
}

/* host's IPv4 address from /etc/hosts (the first line that names it). */
static bool net_hosts_lookup(const char *host, struct in_addr *a)
{
	FILE *f = fopen("/etc/hosts", "re");
	char line[512];
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *save = NULL, *addr;

		line[strcspn(line, "#\n")] = '\0';
		addr = strtok_r(line, " \t", &save);
		if (!addr || inet_pton(AF_INET, addr, a) != 1)
			continue;
		for (char *name; !found && (name = strtok_r(NULL, " \t", &save));)
			found = !strcasecmp(name, host);
	}
	fclose(f);
	return found;
}

/* The address of host:port (IPv4), or of every address when host is empty. host is a dotted
 * address or a name in /etc/hosts: no DNS, whose resolver would be an eighth of the binary's
 * size budget (README). */
static int net_addr(const char *host, unsigned port, struct sockaddr_in *sa, struct iops_err *err)
{
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons((uint16_t)port);
	if (!host || !host[0]) {
		sa->sin_addr.s_addr = htonl(INADDR_ANY);
		return 0;
	}
	if (inet_pton(AF_INET, host, &sa->sin_addr) == 1 || net_hosts_lookup(host, &sa->sin_addr))
		return 0;
	iops_err_set(err, EINVAL, "fio: net engine: failed to resolve hostname %s: iops takes an IPv4 address "
		     "or a name in /etc/hosts (no DNS)", host);
	return -EINVAL;
}

/* Wait for one connection on lfd, looking at the stop flag every NET_POLL_MS. */
static int net_accept(int lfd, struct ctl *ctl, struct iops_err *err)
{
	for (;;) {
		struct pollfd p = { .fd = lfd, .events = POLLIN };
		int r = poll(&p, 1, NET_POLL_MS);
		int fd;

		if (ctl && ctl_stopped(ctl)) {
			iops_err_set(err, EINTR, "fio: net engine: stopped while waiting for a connection");
			return -EINTR;
		}
		if (r < 0 && errno != EINTR)
			return net_err(err, errno, "poll", NULL);
		if (r <= 0)
			continue;
		fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd >= 0)
			return fd;
		if (errno != EINTR && errno != EAGAIN && errno != ECONNABORTED)
			return net_err(err, errno, "accept", NULL);
	}
}

static int net_open_unix(struct net_ctx *ctx, const struct engine_cfg *cfg, struct iops_err *err)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	const char *path = cfg->paths && cfg->nr_files ? cfg->paths[0] : NULL;
	int fd, lfd, ret;

	if (!path || strlen(path) >= sizeof(sa.sun_path)) {
		iops_err_set(err, EINVAL, "fio: net engine: unix socket needs a filename shorter than %zu bytes",
			     sizeof(sa.sun_path));
		return -EINVAL;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	if (ctx->sender) {	/* unix: the reader is the server */
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return net_err(err, errno, "socket", NULL);
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
			ret = net_err(err, errno, "connect", path);
			close(fd);
			return ret;
		}
		return fd;
	}
	lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0)
		return net_err(err, errno, "socket", NULL);
	if (bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(lfd, 1) < 0) {
		ret = net_err(err, errno, "bind", path);
		close(lfd);
		return ret;
	}
	fd = net_accept(lfd, cfg->ctl, err);
	close(lfd);
	unlink(path);	/* the socket file this job made */
	return fd;
}

/* udp to or from a multicast group (hostname): the sender's ttl and interface, the reader's
 * membership. Nothing for other addresses. 0 or -errno. */
static int net_multicast(struct net_ctx *ctx, int fd, struct iops_err *err)
{
	struct sockaddr_in group, ifa = { .sin_addr.s_addr = htonl(INADDR_ANY) };
	struct ip_mreq mreq;
	int ret;

	if (!ctx->o.hostname[0])
		return 0;
	ret = net_addr(ctx->o.hostname, ctx->o.port, &group, err);
	if (ret < 0)
		return ret;
	if (!IN_MULTICAST(ntohl(group.sin_addr.s_addr)))
		return 0;
	if (ctx->o.interface[0] && (ret = net_addr(ctx->o.interface, 0, &ifa, err)) < 0)
		return ret;
	if (ctx->sender) {
		unsigned char ttl = (unsigned char)ctx->o.ttl;

		if (setsockopt(fd, IPPROTO_IP, IP_MULTICAST_TTL, &ttl, sizeof(ttl)) < 0 ||
		    (ctx->o.interface[0] &&
		     setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &ifa.sin_addr, sizeof(ifa.sin_addr)) < 0))
			return net_err(err, errno, "setsockopt", "IP_MULTICAST");
		return 0;
	}
	mreq.imr_multiaddr = group.sin_addr;
	mreq.imr_interface = ifa.sin_addr;
	if (setsockopt(fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &mreq, sizeof(mreq)) < 0)
		return net_err(err, errno, "join multicast group", ctx->o.hostname);
	return 0;
}

static int net_open_inet(struct net_ctx *ctx, const struct engine_cfg *cfg, struct iops_err *err)
{
	bool udp = ctx->o.proto == ENGINE_NET_UDP;
	struct sockaddr_in sa;
	int fd, lfd, ret, one = 1;
	char where[300];

	ret = net_addr(ctx->o.listen || (udp && !ctx->sender) ? NULL : ctx->o.hostname, ctx->o.port, &sa, err);
	if (ret < 0)
		return ret;
	snprintf(where, sizeof(where), "%s:%u", ctx->o.hostname[0] ? ctx->o.hostname : "*", ctx->o.port);
	fd = socket(AF_INET, (udp ? SOCK_DGRAM : SOCK_STREAM) | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return net_err(err, errno, "socket", NULL);
	net_sockopts(ctx, fd);
	if (udp && !ctx->sender) {	/* the reader binds (and joins a multicast group) */
		(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
			goto fail_bind;
		ret = net_multicast(ctx, fd, err);
		if (ret < 0) {
			close(fd);
			return ret;
		}
		return fd;
	}
	if (udp) {
		ret = net_multicast(ctx, fd, err);
		if (ret < 0) {
			close(fd);
			return ret;
		}
	}
	if (udp) {	/* the sender: datagrams go to the address (no connect: pingpong replies come
			 * from the reader's own address, which a connected socket would filter out) */
		memcpy(&ctx->peer, &sa, sizeof(sa));
		ctx->peer_len = sizeof(sa);
		return fd;
	}
	if (!ctx->o.listen) {	/* tcp connect */
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
			ret = net_err(err, errno, "connect", where);
			close(fd);
			return ret;
		}
		return fd;
	}
	lfd = fd;
	(void)setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(lfd, 1) < 0)
		goto fail_bind;
	fd = net_accept(lfd, cfg->ctl, err);
	close(lfd);
	if (fd >= 0)
		net_sockopts(ctx, fd);
	return fd;

fail_bind:
	ret = net_err(err, errno, "bind", where);
	close(fd);
	return ret;
}

static int net_init_common(const struct engine_cfg *cfg, void **ctxp, struct iops_err *err, bool use_splice)
{
	struct net_ctx *ctx;
	int fd;

	if (!cfg->opts) {
		iops_err_set(err, EINVAL, "fio: net engine: no port or hostname given");
		return -EINVAL;
	}
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx) {
		iops_err_set(err, ENOMEM, "fio: net engine: out of memory");
		return -ENOMEM;
	}
	ctx->o = cfg->opts->net;
	ctx->sender = cfg->rw_write;
	ctx->ctl = cfg->ctl;
	ctx->pipe[0] = ctx->pipe[1] = -1;
	ctx->use_splice = use_splice && ctx->o.proto != ENGINE_NET_UDP;
	if (ctx->use_splice) {
		int sz;

		if (pipe2(ctx->pipe, O_CLOEXEC) < 0) {
			int e = errno;

			free(ctx);
			return net_err(err, e, "pipe", NULL);
		}
		sz = fcntl(ctx->pipe[1], F_GETPIPE_SZ);
		ctx->pipe_cap = sz > 0 ? (size_t)sz : 65536u;
	}
	fd = ctx->o.proto == ENGINE_NET_UNIX ? net_open_unix(ctx, cfg, err) : net_open_inet(ctx, cfg, err);
	if (fd < 0) {
		if (ctx->use_splice) {
			close(ctx->pipe[0]);
			close(ctx->pipe[1]);
		}
		free(ctx);
		return fd;
	}
	ctx->fd = fd;
	*ctxp = ctx;
	return 0;
}

static int net_init(const struct engine_cfg *cfg, void **ctxp, struct iops_err *err)
{
	return net_init_common(cfg, ctxp, err, false);
}

static int netsplice_init(const struct engine_cfg *cfg, void **ctxp, struct iops_err *err)
{
	return net_init_common(cfg, ctxp, err, true);
}

static void net_cleanup(void *vctx)
{
	struct net_ctx *ctx = vctx;

	if (!ctx)
		return;
	if (ctx->o.proto == ENGINE_NET_UDP && ctx->sender)
		for (int i = 0; i < NET_UDP_END_SENDS; i++)
			(void)sendto(ctx->fd, NET_UDP_END_MAGIC, sizeof(NET_UDP_END_MAGIC), MSG_NOSIGNAL,
				     (struct sockaddr *)&ctx->peer, ctx->peer_len);
	close(ctx->fd);
	if (ctx->use_splice) {
		close(ctx->pipe[0]);
		close(ctx->pipe[1]);
	}
	free(ctx);
}

/* netsplice: len bytes of buf to the socket through the pipe; bytes sent or -errno. */
static int64_t net_splice_out(struct net_ctx *ctx, char *buf, uint64_t len)
{
	uint64_t done = 0;

	while (done < len) {
		size_t n = len - done < ctx->pipe_cap ? (size_t)(len - done) : ctx->pipe_cap;
		struct iovec iov = { .iov_base = buf + done, .iov_len = n };
		ssize_t in = vmsplice(ctx->pipe[1], &iov, 1, 0), out = 0;

		if (in < 0 && errno == EINTR)
			continue;
		if (in <= 0)
			return in < 0 ? -(int64_t)errno : -EIO;
		while (out < in) {
			ssize_t w = splice(ctx->pipe[0], NULL, ctx->fd, NULL, (size_t)(in - out), SPLICE_F_MOVE);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				return w < 0 ? -(int64_t)errno : -EIO;
			out += w;
		}
		done += (uint64_t)in;
	}
	return (int64_t)done;
}

/* netsplice: up to len bytes from the socket into buf through the pipe (less only at the end
 * of the stream); bytes or -errno. */
static int64_t net_splice_in(struct net_ctx *ctx, char *buf, uint64_t len)
{
	uint64_t done = 0;

	while (done < len) {
		size_t n = len - done < ctx->pipe_cap ? (size_t)(len - done) : ctx->pipe_cap;
		ssize_t in = splice(ctx->fd, NULL, ctx->pipe[1], NULL, n, SPLICE_F_MOVE), got = 0;

		if (in < 0 && errno == EINTR)
			continue;
		if (in < 0)
			return -(int64_t)errno;
		if (in == 0)
			break;
		while (got < in) {
			ssize_t r = read(ctx->pipe[0], buf + done + got, (size_t)(in - got));

			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				return r < 0 ? -(int64_t)errno : -EIO;
			got += r;
		}
		done += (uint64_t)in;
	}
	return (int64_t)done;
}

/* Send len bytes: bytes sent or -errno. */
static int64_t net_send(struct net_ctx *ctx, char *buf, uint64_t len)
{
	uint64_t done = 0;

	if (ctx->o.proto == ENGINE_NET_UDP) {	/* to the address, or back to the last sender */
		ssize_t n;

		do
			n = sendto(ctx->fd, buf, (size_t)len, MSG_NOSIGNAL, (struct sockaddr *)&ctx->peer,
				   ctx->peer_len);
		while (n < 0 && errno == EINTR);
		return n < 0 ? -(int64_t)errno : (int64_t)n;
	}
	if (ctx->use_splice)
		return net_splice_out(ctx, buf, len);
	while (done < len) {
		ssize_t n = send(ctx->fd, buf + done, (size_t)(len - done), MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -(int64_t)errno;
		done += (uint64_t)n;
	}
	return (int64_t)done;
}

/* Wait until fd can be read, looking at the stop flag every NET_POLL_MS: false when stopped. */
static bool net_wait_readable(struct net_ctx *ctx)
{
	for (;;) {
		struct pollfd p = { .fd = ctx->fd, .events = POLLIN };
		int r = poll(&p, 1, NET_POLL_MS);

		if (r > 0 || (r < 0 && errno != EINTR))
			return true;	/* data, end, error: the receive call says which */
		if (ctx->ctl && ctl_stopped(ctx->ctl))
			return false;
	}
}

/* Receive up to len bytes: bytes (0 at the end of the stream, or when the run is stopped
 * while waiting) or -errno. */
static int64_t net_recv(struct net_ctx *ctx, char *buf, uint64_t len)
{
	ssize_t n;

	if (!net_wait_readable(ctx))
		return 0;

	if (ctx->o.proto == ENGINE_NET_UDP) {
		do {
			ctx->peer_len = sizeof(ctx->peer);
			n = recvfrom(ctx->fd, buf, (size_t)len, 0, (struct sockaddr *)&ctx->peer, &ctx->peer_len);
		} while (n < 0 && errno == EINTR);
		if (n == (ssize_t)sizeof(NET_UDP_END_MAGIC) && !memcmp(buf, NET_UDP_END_MAGIC, sizeof(NET_UDP_END_MAGIC)))
			return 0;
		return n < 0 ? -(int64_t)errno : (int64_t)n;
	}
	if (ctx->use_splice)
		return net_splice_in(ctx, buf, len);
	for (uint64_t done = 0;;) {	/* the whole request, still stoppable between pieces */
		do
			n = recv(ctx->fd, buf + done, (size_t)(len - done), 0);
		while (n < 0 && errno == EINTR);
		if (n < 0)
			return done ? (int64_t)done : -(int64_t)errno;
		done += (uint64_t)n;
		if (n == 0 || done == len || !net_wait_readable(ctx))
			return (int64_t)done;
	}
}

static int net_queue(void *vctx, struct io_req *req)
{
	struct net_ctx *ctx = vctx;
	int64_t r;

	switch (req->op) {
	case IO_WRITE:
		r = net_send(ctx, req->buf, req->len);
		if (r > 0 && ctx->o.pingpong) {
			int64_t back = net_recv(ctx, req->buf, (uint64_t)r);

			if (back <= 0)
				r = back < 0 ? back : -ECONNRESET;
		}
		break;
	case IO_READ:
		r = net_recv(ctx, req->buf, req->len);
		if (r > 0 && ctx->o.pingpong) {
			int64_t sent = net_send(ctx, req->buf, (uint64_t)r);

			if (sent < 0)
				r = sent;
		}
		break;
	case IO_FSYNC:
	case IO_FDATASYNC:
		r = 0;	/* nothing to sync on a socket */
		break;
	default:
		r = -EINVAL;
		break;
	}
	req->result = r;
	return ENGINE_DONE;
}

const struct engine_ops engine_net_ops = {
	.name = "net",
	.flags = ENGINE_F_SYNC | ENGINE_F_DISKLESS | ENGINE_F_STREAM,
	.init = net_init,
	.queue = net_queue,
	.cleanup = net_cleanup,
};

const struct engine_ops engine_netsplice_ops = {
	.name = "netsplice",
	.flags = ENGINE_F_SYNC | ENGINE_F_DISKLESS | ENGINE_F_STREAM,
	.init = netsplice_init,
	.queue = net_queue,
	.cleanup = net_cleanup,
};
