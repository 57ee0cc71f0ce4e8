/* SPDX-License-Identifier: MIT */
/* Unit tests of the net and netsplice engines (lib/engine/engine_net.c) on 127.0.0.1 and a
 * unix socket in a temporary directory: a receiver (in a thread: a TCP listener waits in init)
 * and a sender, data compared, the end of the stream (read returns 0), pingpong, and a
 * listener stopped while it waits. */
#include <check.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/ctl.h"
#include "engine/engine.h"
#include "engine_rig.h"

#define NET_BS		4096u
#define NET_NR		64u

/* A port nobody listens on right now (the kernel's pick; a small race, fine for tests). */
static unsigned free_port(int type)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, type, 0);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&sa, &len), 0);
	close(fd);
	return ntohs(sa.sin_port);
}

struct peer {
	const char *engine;
	struct engine_opts eo;
	struct engine_cfg cfg;
	char *paths[1];
	unsigned nr;		/* requests to make */
	unsigned got;		/* receiver: requests that returned data */
	bool ended;		/* receiver: saw the end of the stream */
	int64_t bad;		/* first unexpected result, 0 = none */
	unsigned char *buf;
	int init_ret;
};

static void peer_setup(struct peer *p, const char *engine, enum engine_net_proto proto, unsigned port,
		       bool sender)
{
	memset(p, 0, sizeof(*p));
	p->engine = engine;
	p->eo.net.proto = proto;
	p->eo.net.port = port;
	p->cfg.depth = 1;
	p->cfg.opts = &p->eo;
	p->cfg.rw_write = sender;
	p->cfg.nr_files = 1;
	p->cfg.paths = p->paths;
	p->nr = NET_NR;
	p->buf = aligned_buf((size_t)NET_NR * NET_BS);
	if (sender)
		for (unsigned b = 0; b < NET_NR; b++)
			fill_block(p->buf + (size_t)b * NET_BS, b);
}

/* The whole life of one side: init, its requests, cleanup. No ck_assert off the main thread. */
static void *peer_run(void *arg)
{
	struct peer *p = arg;
	const struct engine_ops *ops = engine_find(p->engine);
	struct iops_err err = { 0 };
	struct io_req req;
	void *ctx = NULL;

	p->init_ret = ops->init(&p->cfg, &ctx, &err);
	if (p->init_ret < 0)
		return NULL;
	for (unsigned i = 0; i < p->nr + (p->cfg.rw_write ? 0 : 1); i++) {
		memset(&req, 0, sizeof(req));
		req.op = p->cfg.rw_write ? IO_WRITE : IO_READ;
		req.buf = p->buf + (size_t)(i < p->nr ? i : 0) * NET_BS;
		req.len = NET_BS;
		if (ops->queue(ctx, &req) != ENGINE_DONE) {
			p->bad = -1000;
			break;
		}
		if (req.result == 0 && !p->cfg.rw_write) {
			p->ended = true;
			break;
		}
		if (req.result != NET_BS) {
			if (!p->bad)
				p->bad = req.result;
			break;
		}
		if (!p->cfg.rw_write)
			p->got++;
	}
	ops->cleanup(ctx);
	return NULL;
}

static void net_pair(const char *engine, enum engine_net_proto proto, bool listen_sender, bool pingpong)
{
	unsigned port = free_port(proto == ENGINE_NET_UDP ? SOCK_DGRAM : SOCK_STREAM);
	struct peer rx, tx;
	char dir[256] = "", sock[300] = "";
	pthread_t th;

	peer_setup(&rx, engine, proto, port, false);
	peer_setup(&tx, engine, proto, port, true);
	rx.eo.net.pingpong = tx.eo.net.pingpong = pingpong;
	tx.eo.net.nodelay = rx.eo.net.nodelay = true;
	if (proto == ENGINE_NET_UNIX) {
		const char *t = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";

		snprintf(dir, sizeof(dir), "%s/iops-check-net-XXXXXX", t);
		ck_assert_ptr_nonnull(mkdtemp(dir));
		snprintf(sock, sizeof(sock), "%s/s", dir);
		rx.paths[0] = tx.paths[0] = sock;
	} else if (proto == ENGINE_NET_TCP && listen_sender) {
		tx.eo.net.listen = true;	/* the sender listens, the receiver connects */
		snprintf(rx.eo.net.hostname, sizeof(rx.eo.net.hostname), "127.0.0.1");
	} else if (proto == ENGINE_NET_TCP) {
		rx.eo.net.listen = true;
		snprintf(tx.eo.net.hostname, sizeof(tx.eo.net.hostname), "127.0.0.1");
	} else {
		snprintf(tx.eo.net.hostname, sizeof(tx.eo.net.hostname), "localhost");
	}
	if (listen_sender) {
		ck_assert_int_eq(pthread_create(&th, NULL, peer_run, &tx), 0);
		usleep(200000);	/* the listener is up */
		peer_run(&rx);
	} else {
		ck_assert_int_eq(pthread_create(&th, NULL, peer_run, &rx), 0);
		usleep(200000);	/* the listener / reader is up */
		peer_run(&tx);
	}
	pthread_join(th, NULL);
	ck_assert_int_eq(rx.init_ret, 0);
	ck_assert_int_eq(tx.init_ret, 0);
	ck_assert_int_eq(tx.bad, 0);
	ck_assert_int_eq(rx.bad, 0);
	ck_assert_msg(rx.ended, "%s: no end of stream", engine);
	if (proto == ENGINE_NET_UDP) {
		ck_assert_uint_le(rx.got, NET_NR);	/* datagrams may be lost, never made up */
		ck_assert_uint_gt(rx.got, 0);
	} else {
		ck_assert_uint_eq(rx.got, NET_NR);
		if (memcmp(rx.buf, tx.buf, (size_t)NET_NR * NET_BS))
			ck_abort_msg("%s: received data differs", engine);
	}
	if (dir[0]) {
		ck_assert_int_eq(access(sock, F_OK), -1);	/* the listener removed its socket */
		ck_assert_int_eq(rmdir(dir), 0);
	}
	free(rx.buf);
	free(tx.buf);
}

START_TEST(test_tcp)
{
	net_pair("net", ENGINE_NET_TCP, false, false);
	net_pair("net", ENGINE_NET_TCP, true, false);	/* listen on the sending side */
	net_pair("netsplice", ENGINE_NET_TCP, false, false);
	net_pair("netsplice", ENGINE_NET_TCP, true, false);
}
END_TEST

START_TEST(test_pingpong)
{
	net_pair("net", ENGINE_NET_TCP, false, true);
	net_pair("netsplice", ENGINE_NET_TCP, false, true);
}
END_TEST

START_TEST(test_udp_and_unix)
{
	net_pair("net", ENGINE_NET_UDP, false, false);
	net_pair("net", ENGINE_NET_UNIX, false, false);
	net_pair("netsplice", ENGINE_NET_UNIX, false, false);
}
END_TEST

static void *stop_later(void *arg)
{
	usleep(300000);
	ctl_stop(arg, 2);
	return NULL;
}

START_TEST(test_errors)
{
	struct ctl ctl;
	struct peer p;
	pthread_t th;

	/* nobody listening: connect fails with one line */
	peer_setup(&p, "net", ENGINE_NET_TCP, free_port(SOCK_STREAM), true);
	snprintf(p.eo.net.hostname, sizeof(p.eo.net.hostname), "127.0.0.1");
	peer_run(&p);
	ck_assert_int_eq(p.init_ret, -ECONNREFUSED);
	/* a name that does not resolve */
	snprintf(p.eo.net.hostname, sizeof(p.eo.net.hostname), "no-such-host.invalid");
	peer_run(&p);
	ck_assert_int_eq(p.init_ret, -EINVAL);
	free(p.buf);
	/* a listener stopped while it waits gives up */
	ck_assert_int_eq(ctl_init(&ctl), 0);
	peer_setup(&p, "net", ENGINE_NET_TCP, free_port(SOCK_STREAM), false);
	p.eo.net.listen = true;
	p.cfg.ctl = &ctl;
	ck_assert_int_eq(pthread_create(&th, NULL, stop_later, &ctl), 0);
	peer_run(&p);
	pthread_join(th, NULL);
	ck_assert_int_eq(p.init_ret, -EINTR);
	ctl_release(&ctl);
	free(p.buf);
	/* unix without a file name, or one too long */
	peer_setup(&p, "net", ENGINE_NET_UNIX, 0, true);
	peer_run(&p);
	ck_assert_int_eq(p.init_ret, -EINVAL);
	free(p.buf);
}
END_TEST

Suite *engine_net_suite(void);

Suite *engine_net_suite(void)
{
	Suite *s = suite_create("engine_net");
	TCase *tc = tcase_create("net");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_tcp);
	tcase_add_test(tc, test_pingpong);
	tcase_add_test(tc, test_udp_and_unix);
	tcase_add_test(tc, test_errors);
	suite_add_tcase(s, tc);
	return s;
}
