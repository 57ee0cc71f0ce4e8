/* SPDX-License-Identifier: MIT */
#include "fio/log/logzip.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "core/err.h"

#define LOGZIP_OUT_BYTES	(256u << 10)	/* --inflate-log: inflated samples at a time */
#define LOGZIP_IN_BYTES		(64u << 10)	/* --inflate-log: compressed bytes read at a time */

struct iolog_zip {
	z_stream zs;			/* one deflater, reset for every block */
	bool zs_ready;
	unsigned char *pack;		/* entries without offset, packed to 32 bytes */
	unsigned char *out;
	size_t max_in, out_cap;
};

struct iolog_zip *logzip_new(size_t max_in)
{
	struct iolog_zip *z = calloc(1, sizeof(*z));

	if (!z)
		return NULL;
	z->max_in = max_in;
	/* zlib's default level, as fio's log compression uses it */
	if (max_in > UINT32_MAX || deflateInit(&z->zs, Z_DEFAULT_COMPRESSION) != Z_OK) {
		free(z);
		return NULL;
	}
	z->zs_ready = true;
	z->out_cap = deflateBound(&z->zs, (uLong)max_in);
	z->pack = malloc(max_in ? max_in : 1);
	z->out = malloc(z->out_cap);
	if (!z->pack || !z->out) {
		logzip_free(z);
		return NULL;
	}
	return z;
}

void logzip_free(struct iolog_zip *z)
{
	if (!z)
		return;
	if (z->zs_ready)
		deflateEnd(&z->zs);
	free(z->pack);
	free(z->out);
	free(z);
}

int logzip_block(struct iolog_zip *z, const struct iolog_entry *e, size_t n, const unsigned char **out,
		 size_t *out_len)
{
	const unsigned char *in = (const unsigned char *)e;
	size_t len = n * sizeof(*e);

	if (len > z->max_in)
		return -EINVAL;
	if (n && !(e[0].ddir & IOLOG_F_OFFSET)) {	/* fio's short sample: no offset field */
		for (size_t i = 0; i < n; i++)
			memcpy(z->pack + i * IOLOG_ENTRY_SHORT, &e[i], IOLOG_ENTRY_SHORT);
		in = z->pack;
		len = n * IOLOG_ENTRY_SHORT;
	}
	if (deflateReset(&z->zs) != Z_OK)
		return -EIO;
	z->zs.next_in = (Bytef *)(uintptr_t)in;	/* zlib does not write its input */
	z->zs.avail_in = (uInt)len;
	z->zs.next_out = z->out;
	z->zs.avail_out = (uInt)z->out_cap;
	if (deflate(&z->zs, Z_FINISH) != Z_STREAM_END)	/* out_cap is deflateBound(): room enough */
		return -EIO;
	*out_len = z->out_cap - z->zs.avail_out;
	*out = z->out;
	return 0;
}

/* Print the whole samples of buf[0..have); returns the bytes used. */
static size_t logzip_emit(const unsigned char *buf, size_t have, FILE *out)
{
	char line[IOLOG_LINE_MAX];
	size_t pos = 0;

	while (have - pos >= IOLOG_ENTRY_SHORT) {
		struct iolog_entry e = { 0 };
		uint32_t dd;
		size_t sz;

		memcpy(&dd, buf + pos + offsetof(struct iolog_entry, ddir), sizeof(dd));
		sz = (dd & IOLOG_F_OFFSET) ? sizeof(e) : IOLOG_ENTRY_SHORT;
		if (have - pos < sz)
			break;
		memcpy(&e, buf + pos, sz);
		fwrite(line, 1, iolog_format(line, &e), out);
		pos += sz;
	}
	return pos;
}

/* --inflate-log: the file's zlib streams, one after the other, inflated by zlib; whole
 * samples printed as they come (a sample may be cut between two output chunks). */
struct logzip_rd {
	FILE *out;
	unsigned char *buf;	/* inflated bytes not yet printed */
	size_t have;
};

static void logzip_put(struct logzip_rd *r, const unsigned char *p, size_t n)
{
	while (n) {
		size_t k = LOGZIP_OUT_BYTES - r->have < n ? LOGZIP_OUT_BYTES - r->have : n;
		size_t used;

		memcpy(r->buf + r->have, p, k);
		r->have += k;
		p += k;
		n -= k;
		used = logzip_emit(r->buf, r->have, r->out);
		memmove(r->buf, r->buf + used, r->have - used);
		r->have -= used;
	}
}

/* What reading the streams came to. */
enum logzip_end {
	LOGZIP_DONE,		/* the input ended between two streams */
	LOGZIP_READ,		/* read() failed: errno in *read_err */
	LOGZIP_TRUNC,		/* the input ended inside a stream */
	LOGZIP_BAD,		/* not a zlib stream, or a corrupt one */
	LOGZIP_CHECK,		/* a stream's Adler-32 does not match */
	LOGZIP_NOMEM,
};

/* Every stream of fd through zs (inflateInit done) into r. */
static enum logzip_end logzip_streams(int fd, z_stream *zs, unsigned char *in, unsigned char *chunk,
				      struct logzip_rd *r, int *read_err)
{
	bool mid = false;	/* some of the current stream has been read */

	for (;;) {
		int zr;

		if (!zs->avail_in) {
			ssize_t n;

			do
				n = read(fd, in, LOGZIP_IN_BYTES);
			while (n < 0 && errno == EINTR);
			if (n < 0) {
				*read_err = errno;
				return LOGZIP_READ;
			}
			if (n == 0)
				return mid ? LOGZIP_TRUNC : LOGZIP_DONE;
			zs->next_in = in;
			zs->avail_in = (uInt)n;
		}
		mid = true;
		zs->next_out = chunk;
		zs->avail_out = LOGZIP_OUT_BYTES;
		zr = inflate(zs, Z_NO_FLUSH);
		logzip_put(r, chunk, LOGZIP_OUT_BYTES - zs->avail_out);
		if (zr == Z_STREAM_END) {
			if (inflateReset(zs) != Z_OK)
				return LOGZIP_BAD;
			mid = false;	/* the next byte starts the next stream */
		} else if (zr == Z_MEM_ERROR) {
			return LOGZIP_NOMEM;
		} else if (zr == Z_DATA_ERROR && zs->msg && !strcmp(zs->msg, "incorrect data check")) {
			return LOGZIP_CHECK;
		} else if (zr != Z_OK && zr != Z_BUF_ERROR) {
			return LOGZIP_BAD;	/* Z_DATA_ERROR, Z_NEED_DICT (fio's logs have none) */
		}
	}
}

int logzip_inflate(int fd, FILE *out, struct iops_err *err)
{
	struct logzip_rd r = { .out = out, .buf = malloc(LOGZIP_OUT_BYTES) };
	unsigned char *in = malloc(LOGZIP_IN_BYTES), *chunk = malloc(LOGZIP_OUT_BYTES);
	z_stream zs = { 0 };
	enum logzip_end end = LOGZIP_NOMEM;
	int read_err = 0, ret = 0;

	if (r.buf && in && chunk && inflateInit(&zs) == Z_OK) {
		end = logzip_streams(fd, &zs, in, chunk, &r, &read_err);
		inflateEnd(&zs);
	}
	switch (end) {
	case LOGZIP_DONE:
		if (r.have) {
			iops_err_set(err, EIO, "fio: failed inflating log: the file ends inside a sample");
			ret = -EIO;
		} else if (ferror(out)) {
			iops_err_set(err, EIO, "fio: failed inflating log: cannot write the output");
			ret = -EIO;
		}
		break;
	case LOGZIP_READ:
		iops_err_set(err, read_err, "fio: failed inflating log: %s", err_str(read_err));
		ret = -read_err;
		break;
	case LOGZIP_NOMEM:
		iops_err_set(err, ENOMEM, "fio: out of memory");
		ret = -ENOMEM;
		break;
	case LOGZIP_TRUNC:
		iops_err_set(err, EIO, "fio: failed inflating log: the file ends inside a compressed stream");
		ret = -EIO;
		break;
	case LOGZIP_BAD:
	case LOGZIP_CHECK:
		iops_err_set(err, EINVAL, "fio: failed inflating log: not a compressed fio log (%s)",
			     end == LOGZIP_CHECK ? "incorrect data check" : "bad data");
		ret = -EINVAL;
		break;
	}
	free(chunk);
	free(in);
	free(r.buf);
	return ret;
}
