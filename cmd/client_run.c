/* SPDX-License-Identifier: MIT */
/* client_run: the client's side of a run (client.h). */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "core/clock.h"
#include "merge/merge.h"
#include "plot_out.h"
#include "remote_sys.h"

#define CLIENT_STOP_GRACE_MS	10000	/* after our stop: the servers' partial reports */

__attribute__((format(printf, 2, 3)))
static void client_say(const struct client_srv *s, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "iops client: %s: ", s->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* HELLO both ways. 0, or -1 with the reason printed (the server is left out). */
static int client_hello(struct client *c, struct client_srv *s)
{
	struct iops_err err = { 0 };
	struct proto_frame fr;
	char hello[1024];
	size_t tl = strlen(c->token);
	int ret;

	if (tl + sizeof(IOPS_VERSION) + 1 > sizeof(hello)) {
		client_say(s, "%s", "IOPS_SERVER_TOKEN too long (at most 1000 bytes)");
		return -1;
	}
	memcpy(hello, c->token, tl + 1);
	memcpy(hello + tl + 1, IOPS_VERSION, sizeof(IOPS_VERSION));
	ret = proto_send(s->fd, PROTO_HELLO, hello, (uint32_t)(tl + 1 + sizeof(IOPS_VERSION)));
	if (!ret)
		ret = proto_recv(s->fd, &fr, 10000, &err);
	if (ret) {
		client_say(s, "no answer to HELLO: %s", ret == -EPROTO ? err.msg : ret == -EPIPE ? "connection closed" :
			   err_str(-ret));
		return -1;
	}
	if (fr.type == PROTO_ERROR) {
		client_say(s, "refused: %s", fr.data);
		free(fr.data);
		return -1;
	}
	if (fr.type != PROTO_HELLO) {
		client_say(s, "%s", "not an iops server's answer");
		free(fr.data);
		return -1;
	}
	snprintf(s->hostname, sizeof(s->hostname), "%s", fr.data);
	if (strlen(fr.data) + 1 < fr.len)
		snprintf(s->arch, sizeof(s->arch), "%s", fr.data + strlen(fr.data) + 1);
	free(fr.data);
	if (c->headers)	/* fio's line for each server it talks to */
		fprintf(c->out, "hostname=%s, be=0, 64-bit, os=Linux, arch=%s, fio=fio-3.33, flags=1\n", s->hostname,
			strcmp(s->arch, "x86_64") ? s->arch : "x86-64");
	return 0;
}

unsigned client_connect(struct client *c)
{
	uint64_t deadline = clock_now_ns() + c->wait_ms * 1000000u;
	unsigned nr = 0;

	for (unsigned i = 0; i < c->nr; i++) {
		struct client_srv *s = &c->srv[i];
		struct iops_err err = { 0 };

		s->fd = -1;
		for (;;) {	/* pods start in any order: retry until the deadline */
			int fd = remote_sys_connect(&s->addr, 1000, &err);

			if (fd >= 0) {
				s->fd = fd;
				break;
			}
			if (clock_now_ns() >= deadline || ctl_stopped(c->ctl)) {
				client_say(s, "%s (left out)", err.msg);
				break;
			}
			ctl_sleep_until(c->ctl, clock_now_ns() + 200000000u);
		}
		if (s->fd >= 0 && client_hello(c, s) < 0) {
			close(s->fd);
			s->fd = -1;
		}
		nr += s->fd >= 0;
	}
	fflush(c->out);
	return nr;
}

static void client_lines_add(struct client_lines *l, const char *data, size_t len, FILE *to, const char *prefix)
{
	for (size_t i = 0; i < len; i++) {
		if (data[i] != '\n' && l->n < sizeof(l->buf) - 1) {
			l->buf[l->n++] = data[i];
			continue;
		}
		l->buf[l->n] = '\0';
		if (to)
			fprintf(to, "<%s> %s\n", prefix, l->buf);
		l->n = 0;
		if (data[i] != '\n')
			l->buf[l->n++] = data[i];
	}
	if (to)
		fflush(to);
}

static void client_drop(struct client_srv *s, const char *why)
{
	if (why)
		client_say(s, "%s", why);
	if (s->fd >= 0) {
		proto_send(s->fd, PROTO_BYE, NULL, 0);
		close(s->fd);
	}
	s->fd = -1;
	s->failed = true;
	s->done = true;
}

/* The frame's payload becomes *buf (what was there is freed). */
static void client_keep(char **buf, uint32_t *len, struct proto_frame *fr)
{
	free(*buf);
	*buf = fr->data;
	*len = fr->len;
	fr->data = NULL;
}

/* One frame from server s. */
static void client_frame(struct client *c, struct client_srv *s)
{
	struct iops_err err = { 0 };
	struct proto_frame fr;
	int ret = proto_recv(s->fd, &fr, 10000, &err);

	if (ret) {
		client_drop(s, ret == -EPROTO ? err.msg : "connection lost");
		return;
	}
	switch (fr.type) {
	case PROTO_OUT:
		client_lines_add(&s->out, fr.data, fr.len, c->headers ? c->out : NULL, s->hostname);
		break;
	case PROTO_DIAG:
		client_lines_add(&s->diag, fr.data, fr.len, stderr, s->hostname);
		break;
	case PROTO_READY:
		s->ready = true;
		break;
	case PROTO_REPORT:
		client_keep(&s->report, &s->report_len, &fr);
		break;
	case PROTO_RESULT:
		client_keep(&s->result, &s->result_len, &fr);
		break;
	case PROTO_DONE:
		s->status = fr.len == 4 ? (int)proto_u32_decode((const uint8_t *)fr.data) : 1;
		s->done = true;
		break;
	case PROTO_ERROR:
		client_say(s, "refused: %s", fr.data);
		client_drop(s, NULL);
		break;
	default:
		client_drop(s, "unexpected frame");
		break;
	}
	free(fr.data);
}

/* GO to every ready server, as close together as the sends go. */
static void client_go(struct client *c)
{
	for (unsigned i = 0; i < c->nr; i++)
		if (c->srv[i].fd >= 0 && c->srv[i].ready && !c->srv[i].done &&
		    proto_send(c->srv[i].fd, PROTO_GO, NULL, 0))
			client_drop(&c->srv[i], "connection lost at GO");
	c->go_ms = remote_sys_epoch_ms();
}

int client_step(struct client *c)
{
	uint64_t ready_by = 0, stop_by = 0;
	struct pollfd *p = calloc(c->nr + 1, sizeof(*p));
	bool gone = false;
	int stops = ctl_nr_stops(c->ctl), rc = 0;

	if (!p)
		return 1;
	for (unsigned i = 0; i < c->nr; i++) {
		struct client_srv *s = &c->srv[i];

		if (s->fd < 0) {
			s->failed = s->done = true;
			continue;
		}
		if (proto_send(s->fd, PROTO_JOB, s->job.buf, s->job.len))
			client_drop(s, "connection lost sending the job");
		s->sent = true;
	}
	ready_by = clock_now_ns() + c->ready_wait_ms * 1000000u;
	for (;;) {
		unsigned n = 0, waiting = 0, unready = 0;

		for (unsigned i = 0; i < c->nr; i++) {
			struct client_srv *s = &c->srv[i];

			if (s->fd < 0 || s->done)
				continue;
			waiting++;
			unready += !s->ready;
			p[n++] = (struct pollfd){ .fd = s->fd, .events = POLLIN };
		}
		if (!waiting)
			break;
		if (!gone && !unready) {	/* the start barrier */
			client_go(c);
			gone = true;
		}
		if (!gone && clock_now_ns() >= ready_by) {
			for (unsigned i = 0; i < c->nr; i++)
				if (c->srv[i].fd >= 0 && !c->srv[i].done && !c->srv[i].ready)
					client_drop(&c->srv[i], "not ready in time (--client-ready-wait): left out");
			continue;
		}
		if (ctl_nr_stops(c->ctl) != stops) {	/* SIGINT/SIGTERM: stop the servers' jobs */
			stops = ctl_nr_stops(c->ctl);
			for (unsigned i = 0; i < c->nr; i++)
				if (c->srv[i].fd >= 0 && !c->srv[i].done)
					proto_send(c->srv[i].fd, PROTO_BYE, NULL, 0);
			if (!stop_by)
				stop_by = clock_now_ns() + CLIENT_STOP_GRACE_MS * 1000000ull;
		}
		if (stop_by && clock_now_ns() >= stop_by) {
			for (unsigned i = 0; i < c->nr; i++)
				if (c->srv[i].fd >= 0 && !c->srv[i].done)
					client_drop(&c->srv[i], "no report after the stop");
			continue;
		}
		if (poll(p, n, 100) <= 0)
			continue;
		for (unsigned k = 0; k < n; k++)
			for (unsigned i = 0; p[k].revents && i < c->nr; i++)
				if (c->srv[i].fd == p[k].fd && !c->srv[i].done)
					client_frame(c, &c->srv[i]);
	}
	free(p);
	for (unsigned i = 0; i < c->nr; i++) {
		const struct client_srv *s = &c->srv[i];
		int st = s->failed ? 1 : s->status;

		if (st && !rc)
			rc = st;
	}
	return rc;
}

int client_print(struct client *c, struct iops_err *err)
{
	struct merge *m = merge_new();
	unsigned nr = 0;
	int rc = 0;

	if (!m) {
		iops_err_set(err, ENOMEM, "out of memory");
		return -1;
	}
	for (unsigned i = 0; i < c->nr; i++) {
		struct client_srv *s = &c->srv[i];
		const char *r = s->report;

		if (r && (c->fmts & (MERGE_NORMAL | MERGE_TERSE))) {
			if (r[0] == '\n') {	/* fio: the report's first line break comes prefixed */
				fprintf(c->out, "<%s> \n", s->hostname);
				r++;
			}
			fputs(r, c->out);
		}
		if (s->result && !rc) {
			struct iops_err why = { 0 };

			if (merge_add(m, s->result, s->result_len, s->addr.family == ADDR_UNIX ? s->addr.path : s->addr.host,
				      s->addr.port, &why) < 0) {
				client_say(s, "its result cannot be merged: %s", why.msg);
				continue;
			}
			nr++;
		}
	}
	if (nr && merge_write(m, c->out, c->fmts & ~(nr == 1 ? MERGE_NORMAL | MERGE_TERSE : 0u),
			      0, err) < 0)
		rc = -1;
	fflush(c->out);
	if (!rc && nr && c->plot)
		rc = plot_out_merge("client", c->plot, "iops client", m);
	merge_free(m);
	return rc;
}

void client_step_reset(struct client *c)
{
	for (unsigned i = 0; i < c->nr; i++) {
		struct client_srv *s = &c->srv[i];

		free(s->report);
		free(s->result);
		proto_job_release(&s->job);
		s->report = s->result = NULL;
		s->report_len = s->result_len = 0;
		s->sent = s->ready = s->done = s->failed = false;
		s->status = 0;
		s->out.n = s->diag.n = 0;
	}
}

void client_close(struct client *c)
{
	for (unsigned i = 0; i < c->nr; i++)
		if (c->srv[i].fd >= 0) {
			proto_send(c->srv[i].fd, PROTO_BYE, NULL, 0);
			close(c->srv[i].fd);
			c->srv[i].fd = -1;
		}
}
