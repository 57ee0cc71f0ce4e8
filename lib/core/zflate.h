/* zflate: zlib-format streams (RFC 1950 around RFC 1951 deflate), written and read by iops'
 * own small codec, for fio's compressed logs (log_store_compressed, --inflate-log).
 *
 * - zflate_compress(): one stream with one final block of fixed Huffman codes over LZ77
 *   matches (a 32 KiB window, hash chains of a few probes): well enough for log samples,
 *   and any inflater (fio's zlib) reads it.
 * - zflate_inflate(): reads any zlib stream (stored, fixed and dynamic blocks) and checks its
 *   Adler-32, pulling input through a callback and pushing output through another, so a
 *   file of many streams is read with bounded memory. */
#ifndef IOPS_ZFLATE_H
#define IOPS_ZFLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ZFLATE_WINDOW	32768u

/* Work memory of the compressor (hash heads and chains); allocate once, reuse. */
struct zflate_work {
	int32_t head[1u << 15];
	int32_t prev[ZFLATE_WINDOW];
};

/* Largest output zflate_compress() can produce for n input bytes. */
size_t zflate_bound(size_t n);

/* Compress in[0..n) into out (cap >= zflate_bound(n)). Returns the stream's length, or 0 if
 * cap is too small. */
size_t zflate_compress(const uint8_t *in, size_t n, uint8_t *out, size_t cap, struct zflate_work *w);

/* Input: up to cap bytes into buf; returns the count, 0 at the end, < 0 on error. */
typedef long zflate_read_fn(void *arg, uint8_t *buf, size_t cap);
/* Output: n inflated bytes; returns 0, or < 0 to stop. */
typedef int zflate_write_fn(void *arg, const uint8_t *p, size_t n);

enum zflate_err {
	ZFLATE_OK = 0,
	ZFLATE_E_READ = -1,	/* the read callback failed */
	ZFLATE_E_WRITE = -2,	/* the write callback stopped */
	ZFLATE_E_TRUNC = -3,	/* the input ends inside a stream */
	ZFLATE_E_DATA = -4,	/* not a zlib stream, or a corrupt one */
	ZFLATE_E_CHECK = -5,	/* the Adler-32 does not match */
	ZFLATE_E_NOMEM = -6,	/* no memory for the inflater */
};

/* Inflate every zlib stream of the input, one after the other, until its end. Returns
 * ZFLATE_OK or an enum zflate_err; *streams (may be NULL) counts the whole streams read. */
int zflate_inflate(zflate_read_fn *rd, void *rarg, zflate_write_fn *wr, void *warg, unsigned *streams);

/* Adler-32 of p[0..n) continuing from a (1 to start). */
uint32_t zflate_adler32(uint32_t a, const uint8_t *p, size_t n);

#endif
