/* zflate: zlib-format streams, written (fixed Huffman over LZ77) and read (every block type),
 * from RFC 1950 and RFC 1951 (zflate.h). */
#include "core/zflate.h"

#include <stdlib.h>
#include <string.h>

#define ZFLATE_MASK		(ZFLATE_WINDOW - 1)
#define ZFLATE_MAX_MATCH	258u
#define ZFLATE_MIN_MATCH	3u
#define ZFLATE_CHAIN		8u	/* hash chain probes per position */
#define ZFLATE_ADLER_MOD	65521u

/* RFC 1951 3.2.5: lengths 3..258 (symbols 257..285) and distances 1..32768 (codes 0..29). */
static const uint16_t len_base[29] = { 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43,
				       51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258 };
static const uint8_t len_extra[29] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4,
				       4, 4, 5, 5, 5, 5, 0 };
static const uint16_t dist_base[30] = { 1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257,
					385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289,
					16385, 24577 };
static const uint8_t dist_extra[30] = { 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9,
					10, 10, 11, 11, 12, 12, 13, 13 };

uint32_t zflate_adler32(uint32_t a, const uint8_t *p, size_t n)
{
	uint32_t s1 = a & 0xffff, s2 = a >> 16;

	while (n) {
		size_t k = n < 5552 ? n : 5552;	/* no overflow before the modulo */

		n -= k;
		while (k--) {
			s1 += *p++;
			s2 += s1;
		}
		s1 %= ZFLATE_ADLER_MOD;
		s2 %= ZFLATE_ADLER_MOD;
	}
	return s2 << 16 | s1;
}

/* ---- writing ---------------------------------------------------------------------------- */

struct zbits_out {
	uint8_t *out;
	size_t pos, cap;
	uint64_t acc;
	unsigned n;
	bool over;
};

static void zbo_put(struct zbits_out *b, uint32_t v, unsigned nbits)
{
	b->acc |= (uint64_t)v << b->n;
	b->n += nbits;
	while (b->n >= 8) {
		if (b->pos < b->cap)
			b->out[b->pos++] = (uint8_t)b->acc;
		else
			b->over = true;
		b->acc >>= 8;
		b->n -= 8;
	}
}

/* A Huffman code of len bits: deflate sends them most significant bit first. */
static void zbo_code(struct zbits_out *b, uint32_t code, unsigned len)
{
	uint32_t r = 0;

	for (unsigned i = 0; i < len; i++)
		r |= ((code >> i) & 1u) << (len - 1 - i);
	zbo_put(b, r, len);
}

/* Symbol s of the fixed literal/length code (RFC 1951 3.2.6). */
static void zbo_litlen(struct zbits_out *b, unsigned s)
{
	if (s < 144)
		zbo_code(b, 0x30 + s, 8);
	else if (s < 256)
		zbo_code(b, 0x190 + (s - 144), 9);
	else if (s < 280)
		zbo_code(b, s - 256, 7);
	else
		zbo_code(b, 0xc0 + (s - 280), 8);
}

static void zbo_match(struct zbits_out *b, unsigned len, unsigned dist)
{
	unsigned i = 28, d = 29;

	while (len_base[i] > len)
		i--;
	zbo_litlen(b, 257 + i);
	zbo_put(b, len - len_base[i], len_extra[i]);
	while (dist_base[d] > dist)
		d--;
	zbo_code(b, d, 5);
	zbo_put(b, dist - dist_base[d], dist_extra[d]);
}

size_t zflate_bound(size_t n)
{
	/* a match costs at most 31 bits for 3 bytes, a literal 9 bits */
	return n + n / 3 + 64;
}

static uint32_t zflate_hash(const uint8_t *p)
{
	uint32_t v = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];

	return (v * 2654435761u) >> 17;	/* 15 bits */
}

static void zflate_insert(struct zflate_work *w, const uint8_t *in, size_t i)
{
	uint32_t h = zflate_hash(in + i);

	w->prev[i & ZFLATE_MASK] = w->head[h];
	w->head[h] = (int32_t)i;
}

/* The longest earlier match for position i (0 when under ZFLATE_MIN_MATCH). */
static unsigned zflate_longest(const struct zflate_work *w, const uint8_t *in, size_t n, size_t i,
			       unsigned *dist)
{
	size_t room = n - i < ZFLATE_MAX_MATCH ? n - i : ZFLATE_MAX_MATCH;
	int32_t cand = w->head[zflate_hash(in + i)];
	unsigned best = 0;

	for (unsigned probes = 0; cand >= 0 && probes < ZFLATE_CHAIN; probes++) {
		size_t c = (size_t)cand, len = 0;
		int32_t next;

		if (i - c > ZFLATE_WINDOW)
			break;
		while (len < room && in[c + len] == in[i + len])
			len++;
		if (len > best) {
			best = (unsigned)len;
			*dist = (unsigned)(i - c);
			if (len == room)
				break;
		}
		next = w->prev[c & ZFLATE_MASK];
		if (next >= cand)	/* the slot was reused by a later position: the chain ends */
			break;
		cand = next;
	}
	return best >= ZFLATE_MIN_MATCH ? best : 0;
}

size_t zflate_compress(const uint8_t *in, size_t n, uint8_t *out, size_t cap, struct zflate_work *w)
{
	struct zbits_out b = { .out = out, .cap = cap };
	uint32_t adler = zflate_adler32(1, in, n);
	size_t i = 0;

	if (cap < 6 || n > (size_t)INT32_MAX)
		return 0;
	memset(w->head, 0xff, sizeof(w->head));
	out[0] = 0x78;	/* deflate, 32 KiB window; 0x7801 is a multiple of 31 */
	out[1] = 0x01;
	b.pos = 2;
	zbo_put(&b, 1, 1);	/* the final block */
	zbo_put(&b, 1, 2);	/* fixed Huffman codes */
	while (i < n) {
		unsigned len = 0, dist = 0;

		if (n - i >= ZFLATE_MIN_MATCH) {
			len = zflate_longest(w, in, n, i, &dist);
			if (len == ZFLATE_MIN_MATCH && dist > 4096)
				len = 0;	/* costs more than three literals */
			zflate_insert(w, in, i);
		}
		if (!len) {
			zbo_litlen(&b, in[i++]);
			continue;
		}
		zbo_match(&b, len, dist);
		for (size_t k = i + 1; k < i + len && k + ZFLATE_MIN_MATCH <= n; k++)
			zflate_insert(w, in, k);
		i += len;
	}
	zbo_litlen(&b, 256);	/* end of block */
	if (b.n)
		zbo_put(&b, 0, 8 - b.n);
	for (int s = 24; s >= 0; s -= 8)
		zbo_put(&b, (adler >> s) & 0xff, 8);
	return b.over ? 0 : b.pos;
}

/* ---- reading ---------------------------------------------------------------------------- */

struct zin {
	zflate_read_fn *rd;
	void *rarg;
	zflate_write_fn *wr;
	void *warg;
	uint8_t in[16384];
	size_t pos, len;
	bool eof;
	int err;		/* first enum zflate_err, 0 if none */
	uint64_t bits;
	unsigned nbits;
	uint8_t win[ZFLATE_WINDOW];
	uint64_t total;		/* bytes out in this stream */
	uint8_t out[4096];
	size_t nout;
	uint32_t adler;
};

/* Canonical Huffman code: how many codes of each length and the symbols in code order. */
struct zhuff {
	uint16_t count[16];
	uint16_t sym[320];
};

static int zin_byte(struct zin *z)
{
	if (z->pos == z->len) {
		long r;

		if (z->eof)
			return -1;
		r = z->rd(z->rarg, z->in, sizeof(z->in));
		if (r < 0) {
			z->err = ZFLATE_E_READ;
			z->eof = true;
			return -1;
		}
		if (r == 0) {
			z->eof = true;
			return -1;
		}
		z->len = (size_t)r;
		z->pos = 0;
	}
	return z->in[z->pos++];
}

/* n (<= 32) bits, least significant first, into *v; false at the end of the input. */
static bool zin_bits(struct zin *z, unsigned n, uint32_t *v)
{
	while (z->nbits < n) {
		int c = zin_byte(z);

		if (c < 0) {
			if (!z->err)
				z->err = ZFLATE_E_TRUNC;
			return false;
		}
		z->bits |= (uint64_t)c << z->nbits;
		z->nbits += 8;
	}
	*v = (uint32_t)(z->bits & ((1ull << n) - 1));
	z->bits >>= n;
	z->nbits -= n;
	return true;
}

static bool zin_flush(struct zin *z)
{
	if (!z->nout)
		return true;
	z->adler = zflate_adler32(z->adler, z->out, z->nout);
	if (z->wr(z->warg, z->out, z->nout) < 0) {
		z->err = ZFLATE_E_WRITE;
		return false;
	}
	z->nout = 0;
	return true;
}

static bool zin_put(struct zin *z, uint8_t c)
{
	z->win[z->total++ & ZFLATE_MASK] = c;
	z->out[z->nout++] = c;
	return z->nout < sizeof(z->out) || zin_flush(z);
}

static bool zhuff_build(struct zhuff *h, const uint8_t *len, unsigned n)
{
	uint16_t offs[16];
	int left = 1;

	memset(h->count, 0, sizeof(h->count));
	for (unsigned s = 0; s < n; s++)
		h->count[len[s]]++;
	for (unsigned l = 1; l < 16; l++) {
		left = left * 2 - h->count[l];
		if (left < 0)
			return false;	/* more codes than the lengths allow */
	}
	offs[1] = 0;
	for (unsigned l = 1; l < 15; l++)
		offs[l + 1] = (uint16_t)(offs[l] + h->count[l]);
	for (unsigned s = 0; s < n; s++)
		if (len[s])
			h->sym[offs[len[s]]++] = (uint16_t)s;
	return true;
}

/* The next symbol of code h, or -1 (end of input, or a code the table does not have). */
static int zhuff_decode(struct zin *z, const struct zhuff *h)
{
	int code = 0, first = 0, index = 0;

	for (unsigned l = 1; l < 16; l++) {
		uint32_t bit;

		if (!zin_bits(z, 1, &bit))
			return -1;
		code |= (int)bit;
		if (code - first < h->count[l])
			return h->sym[index + code - first];
		index += h->count[l];
		first = (first + h->count[l]) << 1;
		code <<= 1;
	}
	if (!z->err)
		z->err = ZFLATE_E_DATA;
	return -1;
}

static bool zin_codes(struct zin *z, const struct zhuff *lit, const struct zhuff *dist)
{
	for (;;) {
		int s = zhuff_decode(z, lit);
		uint32_t extra;
		unsigned len, d;

		if (s < 0)
			return false;
		if (s < 256) {
			if (!zin_put(z, (uint8_t)s))
				return false;
			continue;
		}
		if (s == 256)
			return true;
		s -= 257;
		if (s >= 29 || !zin_bits(z, len_extra[s], &extra))
			goto bad;
		len = len_base[s] + extra;
		s = zhuff_decode(z, dist);
		if (s < 0)
			return false;
		if (s >= 30 || !zin_bits(z, dist_extra[s], &extra))
			goto bad;
		d = dist_base[s] + extra;
		if (d > z->total)
			goto bad;	/* before the start of the stream */
		while (len--)
			if (!zin_put(z, z->win[(z->total - d) & ZFLATE_MASK]))
				return false;
	}
bad:
	if (!z->err)
		z->err = ZFLATE_E_DATA;
	return false;
}

static bool zin_stored(struct zin *z)
{
	uint32_t len, nlen, c;

	z->bits >>= z->nbits % 8;	/* to the byte boundary */
	z->nbits -= z->nbits % 8;
	if (!zin_bits(z, 16, &len) || !zin_bits(z, 16, &nlen))
		return false;
	if (len != (~nlen & 0xffff)) {
		z->err = ZFLATE_E_DATA;
		return false;
	}
	while (len--)
		if (!zin_bits(z, 8, &c) || !zin_put(z, (uint8_t)c))
			return false;
	return true;
}

static bool zin_fixed(struct zin *z)
{
	struct zhuff lit, dist;
	uint8_t l[288];

	memset(l, 8, 144);
	memset(l + 144, 9, 112);
	memset(l + 256, 7, 24);
	memset(l + 280, 8, 8);
	zhuff_build(&lit, l, 288);
	memset(l, 5, 30);
	zhuff_build(&dist, l, 30);
	return zin_codes(z, &lit, &dist);
}

static bool zin_dynamic(struct zin *z)
{
	static const uint8_t order[19] = { 16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15 };
	struct zhuff lencode, lit, dist;
	uint8_t l[320];
	uint32_t hlit, hdist, hclen, v;
	unsigned n = 0;

	if (!zin_bits(z, 5, &hlit) || !zin_bits(z, 5, &hdist) || !zin_bits(z, 4, &hclen))
		return false;
	hlit += 257;
	hdist += 1;
	hclen += 4;
	if (hlit > 286 || hdist > 30)
		goto bad;
	memset(l, 0, 19);
	for (unsigned i = 0; i < hclen; i++) {
		if (!zin_bits(z, 3, &v))
			return false;
		l[order[i]] = (uint8_t)v;
	}
	if (!zhuff_build(&lencode, l, 19))
		goto bad;
	while (n < hlit + hdist) {
		int s = zhuff_decode(z, &lencode);
		unsigned rep, val = 0;

		if (s < 0)
			return false;
		if (s < 16) {
			l[n++] = (uint8_t)s;
			continue;
		}
		if (s == 16) {
			if (!n)
				goto bad;	/* nothing to repeat */
			val = l[n - 1];
			if (!zin_bits(z, 2, &v))
				return false;
			rep = 3 + v;
		} else if (s == 17) {
			if (!zin_bits(z, 3, &v))
				return false;
			rep = 3 + v;
		} else {
			if (!zin_bits(z, 7, &v))
				return false;
			rep = 11 + v;
		}
		if (n + rep > hlit + hdist)
			goto bad;
		while (rep--)
			l[n++] = (uint8_t)val;
	}
	if (!l[256] || !zhuff_build(&lit, l, hlit) || !zhuff_build(&dist, l + hlit, hdist))
		goto bad;
	return zin_codes(z, &lit, &dist);
bad:
	if (!z->err)
		z->err = ZFLATE_E_DATA;
	return false;
}

/* One stream after its two header bytes: its blocks, then the Adler-32. */
static bool zin_stream(struct zin *z)
{
	uint32_t final = 0, type, want = 0, b;

	z->total = 0;
	z->adler = 1;
	while (!final) {
		bool ok;

		if (!zin_bits(z, 1, &final) || !zin_bits(z, 2, &type))
			return false;
		if (type == 0)
			ok = zin_stored(z);
		else if (type == 1)
			ok = zin_fixed(z);
		else if (type == 2)
			ok = zin_dynamic(z);
		else
			ok = false, z->err = ZFLATE_E_DATA;
		if (!ok)
			return false;
	}
	if (!zin_flush(z))
		return false;
	z->bits >>= z->nbits % 8;
	z->nbits -= z->nbits % 8;
	for (int i = 0; i < 4; i++) {
		if (!zin_bits(z, 8, &b))
			return false;
		want = want << 8 | b;
	}
	if (want != z->adler) {
		z->err = ZFLATE_E_CHECK;
		return false;
	}
	return true;
}

int zflate_inflate(zflate_read_fn *rd, void *rarg, zflate_write_fn *wr, void *warg, unsigned *streams)
{
	struct zin *z = calloc(1, sizeof(*z));
	int ret = ZFLATE_OK;
	unsigned nr = 0;

	if (!z)
		return ZFLATE_E_NOMEM;
	z->rd = rd;
	z->rarg = rarg;
	z->wr = wr;
	z->warg = warg;
	for (;;) {
		int c0 = zin_byte(z), c1;

		if (c0 < 0) {	/* the end, between streams */
			ret = z->err;
			break;
		}
		c1 = zin_byte(z);
		if (c1 < 0) {
			ret = z->err ? z->err : ZFLATE_E_TRUNC;
			break;
		}
		if ((c0 & 0x0f) != 8 || (c0 >> 4) > 7 || (c0 << 8 | c1) % 31 || (c1 & 0x20)) {
			ret = ZFLATE_E_DATA;
			break;
		}
		z->bits = 0;
		z->nbits = 0;
		if (!zin_stream(z)) {
			ret = z->err ? z->err : ZFLATE_E_DATA;
			break;
		}
		nr++;
	}
	if (streams)
		*streams = nr;
	free(z);
	return ret;
}
