#include "fio/logzip.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/zflate.h"
#include "core/err.h"

#define LOGZIP_OUT_BYTES	(256u << 10)	/* --inflate-log: inflated samples at a time */

struct iolog_zip {
	struct zflate_work *work;
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
	z->out_cap = zflate_bound(max_in);
	z->work = malloc(sizeof(*z->work));
	z->pack = malloc(max_in ? max_in : 1);
	z->out = malloc(z->out_cap);
	if (!z->work || !z->pack || !z->out) {
		logzip_free(z);
		return NULL;
	}
	return z;
}

void logzip_free(struct iolog_zip *z)
{
	if (!z)
		return;
	free(z->work);
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
	*out_len = zflate_compress(in, len, z->out, z->out_cap, z->work);
	if (!*out_len)
		return -EIO;
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

/* --inflate-log: the file through zflate_inflate(), whole samples printed as they come. */
struct logzip_rd {
	int fd;
	int err;		/* errno of a failed read */
	FILE *out;
	unsigned char *buf;	/* inflated bytes not yet printed (a sample cut by a chunk) */
	size_t have;
};

static long logzip_read(void *arg, uint8_t *buf, size_t cap)
{
	struct logzip_rd *r = arg;

	for (;;) {
		ssize_t n = read(r->fd, buf, cap);

		if (n >= 0)
			return (long)n;
		if (errno != EINTR) {
			r->err = errno;
			return -1;
		}
	}
}

static int logzip_write(void *arg, const uint8_t *p, size_t n)
{
	struct logzip_rd *r = arg;

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
	return 0;
}

int logzip_inflate(int fd, FILE *out, struct iops_err *err)
{
	struct logzip_rd r = { .fd = fd, .out = out, .buf = malloc(LOGZIP_OUT_BYTES) };
	int ret;

	if (!r.buf) {
		iops_err_set(err, ENOMEM, "fio: out of memory");
		return -ENOMEM;
	}
	ret = zflate_inflate(logzip_read, &r, logzip_write, &r, NULL);
	switch (ret) {
	case ZFLATE_OK:
		if (r.have) {
			iops_err_set(err, EIO, "fio: failed inflating log: the file ends inside a sample");
			ret = -EIO;
		} else if (ferror(out)) {
			iops_err_set(err, EIO, "fio: failed inflating log: cannot write the output");
			ret = -EIO;
		}
		break;
	case ZFLATE_E_READ:
		iops_err_set(err, r.err, "fio: failed inflating log: %s", err_str(r.err));
		ret = -r.err;
		break;
	case ZFLATE_E_NOMEM:
		iops_err_set(err, ENOMEM, "fio: out of memory");
		ret = -ENOMEM;
		break;
	case ZFLATE_E_TRUNC:
		iops_err_set(err, EIO, "fio: failed inflating log: the file ends inside a compressed stream");
		ret = -EIO;
		break;
	default:
		iops_err_set(err, EINVAL, "fio: failed inflating log: not a compressed fio log (%s)",
			     ret == ZFLATE_E_CHECK ? "incorrect data check" : "bad data");
		ret = -EINVAL;
		break;
	}
	free(r.buf);
	return ret;
}
