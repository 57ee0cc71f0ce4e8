/* SPDX-License-Identifier: MIT */
/* proto: frames on a stream socket, and the JOB payload's records (proto.h). */
#include "remote/proto.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/clock.h"

void proto_u32_encode(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

uint32_t proto_u32_decode(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

void proto_hdr_encode(uint8_t *hdr, uint16_t type, uint32_t len)
{
	memcpy(hdr, PROTO_MAGIC, 4);
	hdr[4] = PROTO_VERSION >> 8;
	hdr[5] = PROTO_VERSION & 0xff;
	hdr[6] = (uint8_t)(type >> 8);
	hdr[7] = (uint8_t)type;
	proto_u32_encode(hdr + 8, len);
}

int proto_hdr_decode(const uint8_t *hdr, uint16_t *type, uint32_t *len, struct iops_err *err)
{
	unsigned version = (unsigned)hdr[4] << 8 | hdr[5];
	uint16_t t = (uint16_t)(hdr[6] << 8 | hdr[7]);
	uint32_t n = proto_u32_decode(hdr + 8);

	if (memcmp(hdr, PROTO_MAGIC, 4)) {
		iops_err_set(err, EPROTO, "not an iops peer (no 'IOPS' frame: a fio client or server, or garbage?)");
		return -EPROTO;
	}
	if (version != PROTO_VERSION) {
		iops_err_set(err, EPROTO, "protocol version %u (this iops speaks version %u)", version, PROTO_VERSION);
		return -EPROTO;
	}
	if (t < PROTO_HELLO || t > PROTO_TYPE_MAX) {
		iops_err_set(err, EPROTO, "unknown frame type %u", t);
		return -EPROTO;
	}
	if (n > PROTO_FRAME_MAX) {
		iops_err_set(err, EPROTO, "frame of %u bytes (at most %u)", n, PROTO_FRAME_MAX);
		return -EPROTO;
	}
	*type = t;
	*len = n;
	return 0;
}

static int proto_write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int proto_send(int fd, uint16_t type, const void *data, uint32_t len)
{
	uint8_t hdr[PROTO_HDR_LEN];
	int ret;

	if (len > PROTO_FRAME_MAX)
		return -EMSGSIZE;
	proto_hdr_encode(hdr, type, len);
	ret = proto_write_all(fd, hdr, sizeof(hdr));
	return ret || !len ? ret : proto_write_all(fd, data, len);
}

/* n bytes into p before deadline (0: none). 0, -EPIPE (end of stream: *got says how much
 * came), -ETIMEDOUT, -errno. */
static int proto_read_all(int fd, uint8_t *p, size_t n, uint64_t deadline, size_t *got)
{
	*got = 0;
	while (*got < n) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int wait = -1;
		ssize_t r;

		if (deadline) {
			uint64_t now = clock_now_ns();

			if (now >= deadline)
				return -ETIMEDOUT;
			wait = (int)((deadline - now + 999999) / 1000000);
		}
		r = poll(&pfd, 1, wait);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			return -ETIMEDOUT;
		r = recv(fd, p + *got, n - *got, 0);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			return -EPIPE;
		*got += (size_t)r;
	}
	return 0;
}

int proto_recv(int fd, struct proto_frame *fr, int timeout_ms, struct iops_err *err)
{
	uint64_t deadline = timeout_ms < 0 ? 0 : clock_now_ns() + (uint64_t)timeout_ms * 1000000u;
	uint8_t hdr[PROTO_HDR_LEN];
	uint16_t type;
	uint32_t len;
	size_t got;
	char *data;
	int ret = proto_read_all(fd, hdr, sizeof(hdr), deadline, &got);

	if (ret == -EPIPE && got) {
		iops_err_set(err, EPROTO, "frame header cut short after %zu bytes", got);
		return -EPROTO;
	}
	if (ret)
		return ret;
	ret = proto_hdr_decode(hdr, &type, &len, err);
	if (ret)
		return ret;
	data = malloc((size_t)len + 1);
	if (!data)
		return -ENOMEM;
	ret = proto_read_all(fd, (uint8_t *)data, len, deadline, &got);
	if (ret) {
		free(data);
		if (ret == -EPIPE) {
			iops_err_set(err, EPROTO, "frame of %u bytes cut short after %zu", len, got);
			return -EPROTO;
		}
		return ret;
	}
	data[len] = '\0';
	fr->type = type;
	fr->len = len;
	fr->data = data;
	return 0;
}

int proto_job_add(struct proto_job *j, char kind, const char *name, const char *data, uint32_t len)
{
	size_t name_len = kind == 'F' ? strlen(name) : 0;
	size_t rec = 5 + (kind == 'F' ? name_len + 1 : 0) + len, need;
	uint8_t *p;

	if (kind != 'A' && kind != 'F')
		return -EINVAL;
	if (kind == 'A' && memchr(data, '\0', len))
		return -EINVAL;
	if (kind == 'F' && (!name_len || name_len > PROTO_NAME_MAX))
		return -EINVAL;
	if ((kind == 'A' ? j->nr_args >= PROTO_JOB_ARGS_MAX : j->nr_files >= PROTO_JOB_FILES_MAX) ||
	    rec > PROTO_FRAME_MAX || j->len + rec > PROTO_FRAME_MAX)
		return -E2BIG;
	need = j->len + rec;
	if (need > j->cap) {
		size_t cap = j->cap ? j->cap : 4096;
		char *grown;

		while (cap < need)
			cap *= 2;
		if (!(grown = realloc(j->buf, cap)))
			return -ENOMEM;
		j->buf = grown;
		j->cap = (uint32_t)cap;
	}
	p = (uint8_t *)j->buf + j->len;
	p[0] = (uint8_t)kind;
	proto_u32_encode(p + 1, (uint32_t)(rec - 5));
	p += 5;
	if (kind == 'F') {
		memcpy(p, name, name_len + 1);
		p += name_len + 1;
	}
	if (len)
		memcpy(p, data, len);
	j->len = (uint32_t)need;
	if (kind == 'A')
		j->nr_args++;	/* counted for the bounds; parse fills args */
	else
		j->nr_files++;
	return 0;
}

int proto_job_parse(struct proto_job *j, const char *data, uint32_t len, struct iops_err *err)
{
	uint32_t pos = 0, nr_a = 0, nr_f = 0;
	char *copy;

	memset(j, 0, sizeof(*j));
	/* first pass: check every record and count them */
	while (pos < len) {
		uint32_t n;
		char kind = data[pos];

		if (len - pos < 5) {
			iops_err_set(err, EPROTO, "job record at byte %u cut short", pos);
			return -EPROTO;
		}
		n = proto_u32_decode((const uint8_t *)data + pos + 1);
		if (n > len - pos - 5) {
			iops_err_set(err, EPROTO, "job record at byte %u: %u bytes, %u left", pos, n, len - pos - 5);
			return -EPROTO;
		}
		if (kind == 'A') {
			if (memchr(data + pos + 5, '\0', n)) {
				iops_err_set(err, EPROTO, "job argument at byte %u has a NUL in it", pos);
				return -EPROTO;
			}
			nr_a++;
		} else if (kind == 'F') {
			const char *nul = memchr(data + pos + 5, '\0', n);

			if (!nul || nul == data + pos + 5 || nul - (data + pos + 5) > PROTO_NAME_MAX) {
				iops_err_set(err, EPROTO, "job file record at byte %u: no name, or a name over %u bytes",
					     pos, PROTO_NAME_MAX);
				return -EPROTO;
			}
			nr_f++;
		} else {
			iops_err_set(err, EPROTO, "unknown job record kind 0x%02x at byte %u", (unsigned char)kind, pos);
			return -EPROTO;
		}
		if (nr_a > PROTO_JOB_ARGS_MAX || nr_f > PROTO_JOB_FILES_MAX) {
			iops_err_set(err, EPROTO, "more than %u arguments or %u job files", PROTO_JOB_ARGS_MAX,
				     PROTO_JOB_FILES_MAX);
			return -EPROTO;
		}
		pos += 5 + n;
	}
	/* second pass: a NUL-separated copy to point into */
	copy = malloc((size_t)len + nr_a + 1);
	j->args = calloc(nr_a + 1, sizeof(*j->args));
	j->files = calloc(nr_f + 1, sizeof(*j->files));
	if (!copy || !j->args || !j->files) {
		free(copy);
		iops_err_set(err, ENOMEM, "out of memory");
		return -ENOMEM;
	}
	j->buf = copy;
	for (pos = 0; pos < len; ) {
		uint32_t n = proto_u32_decode((const uint8_t *)data + pos + 1);
		const char *rec = data + pos + 5;

		if (data[pos] == 'A') {
			memcpy(copy, rec, n);
			copy[n] = '\0';
			j->args[j->nr_args++] = copy;
			copy += n + 1;
		} else {
			size_t name_len = strlen(rec);
			struct proto_file *f = &j->files[j->nr_files++];

			memcpy(copy, rec, n);
			f->name = copy;
			f->data = copy + name_len + 1;
			f->len = (uint32_t)(n - name_len - 1);
			copy += n;
		}
		pos += 5 + n;
	}
	return 0;
}

void proto_job_release(struct proto_job *j)
{
	free(j->buf);
	free(j->args);
	free(j->files);
	memset(j, 0, sizeof(*j));
}
