#include "fio/logzip.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#define LOGZIP_IN_BYTES		(64u << 10)	/* --inflate-log: file read size */
#define LOGZIP_OUT_BYTES	(256u << 10)	/* --inflate-log: inflated samples at a time */

struct iolog_zip {
	z_stream zs;
	unsigned char *pack;		/* entries without offset, packed to 32 bytes */
	unsigned char *out;
	size_t max_in, out_cap;
};

struct iolog_zip *logzip_new(size_t max_in)
{
	struct iolog_zip *z = calloc(1, sizeof(*z));

	if (!z)
		return NULL;
	if (deflateInit(&z->zs, Z_DEFAULT_COMPRESSION) != Z_OK) {
		free(z);
		return NULL;
	}
	z->max_in = max_in;
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
		return -EINVAL;
	z->zs.next_in = (Bytef *)(uintptr_t)in;
	z->zs.avail_in = (uInt)len;
	z->zs.next_out = z->out;
	z->zs.avail_out = (uInt)z->out_cap;
	if (deflate(&z->zs, Z_FINISH) != Z_STREAM_END)
		return -EIO;
	*out = z->out;
	*out_len = z->out_cap - z->zs.avail_out;
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

int logzip_inflate(int fd, FILE *out, struct iops_err *err)
{
	unsigned char *in = malloc(LOGZIP_IN_BYTES), *buf = malloc(LOGZIP_OUT_BYTES);
	z_stream zs;
	bool in_stream = false;
	size_t have = 0;
	int ret = -ENOMEM;

	memset(&zs, 0, sizeof(zs));
	if (!in || !buf || inflateInit(&zs) != Z_OK) {
		iops_err_set(err, ENOMEM, "fio: out of memory");
		goto free_bufs;
	}
	for (;;) {
		int r;

		if (!zs.avail_in) {
			ssize_t n = read(fd, in, LOGZIP_IN_BYTES);

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				ret = -errno;
				iops_err_set(err, -ret, "fio: failed inflating log: %s", strerror(-ret));
				goto end_inflate;
			}
			if (!n)
				break;
			zs.next_in = in;
			zs.avail_in = (uInt)n;
		}
		zs.next_out = buf + have;
		zs.avail_out = (uInt)(LOGZIP_OUT_BYTES - have);
		in_stream = true;
		r = inflate(&zs, Z_NO_FLUSH);
		if (r == Z_STREAM_END) {	/* the next stream, if any, starts afresh */
			in_stream = false;
			if (inflateReset(&zs) != Z_OK)
				r = Z_STREAM_ERROR;
		}
		if (r != Z_OK && r != Z_STREAM_END && r != Z_BUF_ERROR) {
			ret = -EINVAL;
			iops_err_set(err, EINVAL, "fio: failed inflating log: not a compressed fio log (%s)",
				     zs.msg ? zs.msg : "bad data");
			goto end_inflate;
		}
		have = LOGZIP_OUT_BYTES - zs.avail_out;
		{
			size_t used = logzip_emit(buf, have, out);

			memmove(buf, buf + used, have - used);
			have -= used;
		}
	}
	if (in_stream || have) {
		ret = -EIO;
		iops_err_set(err, EIO, "fio: failed inflating log: the file ends inside a %s",
			     in_stream ? "compressed stream" : "sample");
		goto end_inflate;
	}
	ret = ferror(out) ? -EIO : 0;
	if (ret)
		iops_err_set(err, EIO, "fio: failed inflating log: cannot write the output");
end_inflate:
	inflateEnd(&zs);
free_bufs:
	free(in);
	free(buf);
	return ret;
}
