/* SPDX-License-Identifier: MIT */
#include "fio/data/verify_sum.h"

#include <string.h>

static inline uint32_t get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void put_le32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static inline uint32_t rotl32(uint32_t x, int k)
{
	return (x << k) | (x >> (32 - k));
}

static inline uint32_t rotr32(uint32_t x, int k)
{
	return (x >> k) | (x << (32 - k));
}

/* ---- crc32c / crc32: one 16-entry table each (a nibble per step) ------------------------ */

static const uint32_t crc32c_nib[16] = {
	0x00000000, 0x105ec76f, 0x20bd8ede, 0x30e349b1, 0x417b1dbc, 0x5125dad3,
	0x61c69362, 0x7198540d, 0x82f63b78, 0x92a8fc17, 0xa24bb5a6, 0xb21572c9,
	0xc38d26c4, 0xd3d3e1ab, 0xe330a81a, 0xf36e6f75,
};

/* fio's "crc32": MSB first, polynomial 0x04c11db7, initial value 0, no final inversion */
static const uint32_t crc32_nib[16] = {
	0x00000000, 0x04c11db7, 0x09823b6e, 0x0d4326d9, 0x130476dc, 0x17c56b6b,
	0x1a864db2, 0x1e475005, 0x2608edb8, 0x22c9f00f, 0x2f8ad6d6, 0x2b4bcb61,
	0x350c9b64, 0x31cd86d3, 0x3c8ea00a, 0x384fbdbd,
};

static uint32_t crc32c_sw(uint32_t crc, const unsigned char *p, size_t n)
{
	while (n--) {
		crc ^= *p++;
		crc = (crc >> 4) ^ crc32c_nib[crc & 15];
		crc = (crc >> 4) ^ crc32c_nib[crc & 15];
	}
	return crc;
}

#if defined(__x86_64__)
bool verify_sum_has_crc32c(void)
{
	unsigned a = 1, b, c = 0, d;

	__asm__("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
	return (c >> 20) & 1u;	/* SSE4.2 */
}

__attribute__((target("sse4.2"))) static uint32_t crc32c_hw(uint32_t crc, const unsigned char *p, size_t n)
{
	uint64_t c = crc;

	for (; n >= 8; n -= 8, p += 8) {
		uint64_t v;

		memcpy(&v, p, 8);
		c = __builtin_ia32_crc32di(c, v);
	}
	crc = (uint32_t)c;
	while (n--)
		crc = __builtin_ia32_crc32qi(crc, *p++);
	return crc;
}
#else
bool verify_sum_has_crc32c(void)
{
	return false;
}
#endif

uint32_t verify_sum_crc32c(const void *p, size_t n, bool hw)
{
#if defined(__x86_64__)
	if (hw)
		return ~crc32c_hw(~0u, p, n);
#else
	(void)hw;
#endif
	return ~crc32c_sw(~0u, p, n);
}

uint32_t verify_sum_crc32(const void *buf, size_t n)
{
	const unsigned char *p = buf;
	uint32_t crc = 0;

	while (n--) {
		crc = (crc << 4) ^ crc32_nib[(crc >> 28) ^ (*p >> 4)];
		crc = (crc << 4) ^ crc32_nib[(crc >> 28) ^ (*p++ & 15u)];
	}
	return crc;
}

/* crc64 (fio's: the Jones polynomial 0xad93d23594c935a9, reflected, initial value 0, no final
 * inversion) and crc16 (0x8005 reflected, initial 0): a nibble table each. crc7 (x^7+x^3+1,
 * MSB first, initial 0) runs as an 8-bit register holding the 7 bits at its top. */
static const uint64_t crc64_nib[16] = {
	0x0000000000000000ull, 0x7d08ff3b88be6f81ull, 0xfa11fe77117cdf02ull, 0x8719014c99c2b083ull,
	0xdf7adabd7a6e2d6full, 0xa2722586f2d042eeull, 0x256b24ca6b12f26dull, 0x5863dbf1e3ac9decull,
	0x95ac9329ac4bc9b5ull, 0xe8a46c1224f5a634ull, 0x6fbd6d5ebd3716b7ull, 0x12b5926535897936ull,
	0x4ad64994d625e4daull, 0x37deb6af5e9b8b5bull, 0xb0c7b7e3c7593bd8ull, 0xcdcf48d84fe75459ull,
};

static const uint16_t crc16_nib[16] = {
	0x0000, 0xcc01, 0xd801, 0x1400, 0xf001, 0x3c00, 0x2800, 0xe401,
	0xa001, 0x6c00, 0x7800, 0xb401, 0x5000, 0x9c01, 0x8801, 0x4400,
};

static const uint8_t crc7_nib[16] = {
	0x00, 0x12, 0x24, 0x36, 0x48, 0x5a, 0x6c, 0x7e, 0x90, 0x82, 0xb4, 0xa6, 0xd8, 0xca, 0xfc, 0xee,
};

uint64_t verify_sum_crc64(const void *buf, size_t n)
{
	const unsigned char *p = buf;
	uint64_t crc = 0;

	while (n--) {
		crc ^= *p++;
		crc = (crc >> 4) ^ crc64_nib[crc & 15];
		crc = (crc >> 4) ^ crc64_nib[crc & 15];
	}
	return crc;
}

uint16_t verify_sum_crc16(const void *buf, size_t n)
{
	const unsigned char *p = buf;
	unsigned crc = 0;

	while (n--) {
		crc ^= *p++;
		crc = (crc >> 4) ^ crc16_nib[crc & 15];
		crc = (crc >> 4) ^ crc16_nib[crc & 15];
	}
	return (uint16_t)crc;
}

uint8_t verify_sum_crc7(const void *buf, size_t n)
{
	const unsigned char *p = buf;
	unsigned crc = 0;

	while (n--) {
		crc ^= *p++;
		crc = ((crc << 4) & 0xffu) ^ crc7_nib[crc >> 4];
		crc = ((crc << 4) & 0xffu) ^ crc7_nib[crc >> 4];
	}
	return (uint8_t)(crc >> 1);
}

/* ---- xxhash (XXH32) --------------------------------------------------------------------- */

#define XP1 0x9e3779b1u
#define XP2 0x85ebca77u
#define XP3 0xc2b2ae3du
#define XP4 0x27d4eb2fu
#define XP5 0x165667b1u

uint32_t verify_sum_xxh32(const void *buf, size_t n, uint32_t seed)
{
	const unsigned char *p = buf, *end = p + n;
	uint32_t h;

	if (n >= 16) {
		uint32_t v[4] = { seed + XP1 + XP2, seed + XP2, seed, seed - XP1 };

		for (; end - p >= 16; p += 16)
			for (int i = 0; i < 4; i++)
				v[i] = rotl32(v[i] + get_le32(p + 4 * i) * XP2, 13) * XP1;
		h = rotl32(v[0], 1) + rotl32(v[1], 7) + rotl32(v[2], 12) + rotl32(v[3], 18);
	} else {
		h = seed + XP5;
	}
	h += (uint32_t)n;
	for (; end - p >= 4; p += 4)
		h = rotl32(h + get_le32(p) * XP3, 17) * XP4;
	for (; p < end; p++)
		h = rotl32(h + *p * XP5, 11) * XP1;
	h ^= h >> 15;
	h *= XP2;
	h ^= h >> 13;
	h *= XP3;
	h ^= h >> 16;
	return h;
}

/* ---- md5 (RFC 1321) and sha256 (FIPS 180-4): one block function each, one padding -------- */

static const uint32_t md5_k[64] = {
	0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a,
	0xa8304613, 0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be,
	0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340,
	0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
	0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8,
	0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c,
	0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa,
	0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
	0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92,
	0xffeff47d, 0x85845dd1, 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1,
	0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

static const unsigned char md5_r[16] = { 7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21 };

#define MD5_STEP(expr, g) \
	do { \
		uint32_t f_ = (expr) + a + md5_k[i] + m[g]; \
		a = d; \
		d = c; \
		c = b; \
		b += rotl32(f_, md5_r[(i / 16) * 4 + i % 4]); \
	} while (0)

static void md5_block(uint32_t *s, const unsigned char *p)
{
	uint32_t a = s[0], b = s[1], c = s[2], d = s[3], m[16];
	unsigned i = 0;

	for (int k = 0; k < 16; k++)
		m[k] = get_le32(p + 4 * k);
	for (; i < 16; i++)
		MD5_STEP((b & c) | (~b & d), i);
	for (; i < 32; i++)
		MD5_STEP((d & b) | (~d & c), (5 * i + 1) & 15);
	for (; i < 48; i++)
		MD5_STEP(b ^ c ^ d, (3 * i + 5) & 15);
	for (; i < 64; i++)
		MD5_STEP(c ^ (b | ~d), (7 * i) & 15);
	s[0] += a;
	s[1] += b;
	s[2] += c;
	s[3] += d;
}

static const uint32_t sha_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t get_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static void sha256_block(uint32_t *s, const unsigned char *p)
{
	uint32_t w[64], v[8];

	for (int i = 0; i < 16; i++)
		w[i] = get_be32(p + 4 * i);
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = rotr32(w[i - 15], 7) ^ rotr32(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = rotr32(w[i - 2], 17) ^ rotr32(w[i - 2], 19) ^ (w[i - 2] >> 10);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	uint32_t a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];

	for (int i = 0; i < 64; i++) {
		uint32_t t1 = h + (rotr32(e, 6) ^ rotr32(e, 11) ^ rotr32(e, 25)) + ((e & f) ^ (~e & g)) + sha_k[i] + w[i];
		uint32_t t2 = (rotr32(a, 2) ^ rotr32(a, 13) ^ rotr32(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));

		h = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	v[0] = a, v[1] = b, v[2] = c, v[3] = d, v[4] = e, v[5] = f, v[6] = g, v[7] = h;
	for (int i = 0; i < 8; i++)
		s[i] += v[i];
}

/* ---- sha1 (FIPS 180-4) ------------------------------------------------------------------- */

static void sha1_block(uint32_t *s, const unsigned char *p)
{
	uint32_t w[80], a = s[0], b = s[1], c = s[2], d = s[3], e = s[4];

	for (int i = 0; i < 16; i++)
		w[i] = get_be32(p + 4 * i);
	for (int i = 16; i < 80; i++)
		w[i] = rotl32(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
	for (int i = 0; i < 80; i++) {
		uint32_t f, k, t;

		if (i < 20)
			f = (b & c) | (~b & d), k = 0x5a827999;
		else if (i < 40)
			f = b ^ c ^ d, k = 0x6ed9eba1;
		else if (i < 60)
			f = (b & c) | (b & d) | (c & d), k = 0x8f1bbcdc;
		else
			f = b ^ c ^ d, k = 0xca62c1d6;
		t = rotl32(a, 5) + f + e + k + w[i];
		e = d;
		d = c;
		c = rotl32(b, 30);
		b = a;
		a = t;
	}
	s[0] += a;
	s[1] += b;
	s[2] += c;
	s[3] += d;
	s[4] += e;
}

/* Merkle-Damgard over n bytes with 64-byte blocks and the bit length in the last 8 bytes
 * (big-endian for sha1; little-endian for md5 and for fio's sha256). last (64 bytes, may be
 * NULL) receives the final block as hashed. */
static void md_hash(uint32_t *s, const void *buf, size_t n, bool be,
		    void (*block)(uint32_t *, const unsigned char *), unsigned char *last)
{
	const unsigned char *p = buf;
	unsigned char tail[128];
	uint64_t bits = (uint64_t)n * 8;
	size_t left, tn;

	for (left = n; left >= 64; left -= 64, p += 64)
		block(s, p);
	memcpy(tail, p, left);
	tail[left] = 0x80;
	tn = left + 9 <= 64 ? 64 : 128;
	memset(tail + left + 1, 0, tn - left - 1);
	for (int i = 0; i < 8; i++)
		tail[tn - 8 + i] = (unsigned char)(bits >> (be ? 56 - 8 * i : 8 * i));
	block(s, tail);
	if (tn == 128)
		block(s, tail + 64);
	if (last)
		memcpy(last, tail + tn - 64, 64);
}

void verify_sum_md5(const void *p, size_t n, uint8_t out[16])
{
	uint32_t s[4] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476 };

	md_hash(s, p, n, false, md5_block, NULL);
	for (int i = 0; i < 4; i++)
		put_le32(out + 4 * i, s[i]);
}

void verify_sum_sha1(const void *p, size_t n, uint8_t out[20])
{
	uint32_t s[5] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0 };

	md_hash(s, p, n, true, sha1_block, NULL);
	for (int i = 0; i < 5; i++)
		put_le32(out + 4 * i, s[i]);	/* fio keeps the state words as they are in memory */
}

void verify_sum_fio_sha256(const void *p, size_t n, uint8_t out[64])
{
	uint32_t s[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
			  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };

	md_hash(s, p, n, false, sha256_block, out);
	for (int i = 0; i < 8; i++)
		out[i] = (unsigned char)s[i];
}

void verify_sum_fio_sha512(const void *buf, size_t n, uint8_t out[128])
{
	const unsigned char *p = buf;
	size_t r = n % 128;

	memset(out, 0, 128);
	memcpy(out, p, n < 128 ? n : 128);
	if (n >= 128)
		memcpy(out, p + n - r, r);
}

/* ---- sha3 (FIPS 202): Keccak-f[1600], rate 200 - 2 x digest bytes, padding 0x06 ... 0x80 -- */

static const uint64_t keccak_rc[24] = {
	0x0000000000000001ull, 0x0000000000008082ull, 0x800000000000808aull, 0x8000000080008000ull,
	0x000000000000808bull, 0x0000000080000001ull, 0x8000000080008081ull, 0x8000000000008009ull,
	0x000000000000008aull, 0x0000000000000088ull, 0x0000000080008009ull, 0x000000008000000aull,
	0x000000008000808bull, 0x800000000000008bull, 0x8000000000008089ull, 0x8000000000008003ull,
	0x8000000000008002ull, 0x8000000000000080ull, 0x000000000000800aull, 0x800000008000000aull,
	0x8000000080008081ull, 0x8000000000008080ull, 0x0000000080000001ull, 0x8000000080008008ull,
};

/* rho offsets and pi destinations along the lane walk starting at lane 1 */
static const unsigned char keccak_rho[24] = { 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14,
					      27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44 };
static const unsigned char keccak_pi[24] = { 10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4,
					     15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1 };

static inline uint64_t rotl64(uint64_t x, unsigned k)
{
	return (x << k) | (x >> ((64 - k) & 63));
}

static void keccak_f(uint64_t *a)
{
	for (int r = 0; r < 24; r++) {
		uint64_t c[5], t;

		for (int x = 0; x < 5; x++)
			c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
		for (int x = 0; x < 5; x++) {
			t = c[(x + 4) % 5] ^ rotl64(c[(x + 1) % 5], 1);
			for (int y = 0; y < 25; y += 5)
				a[y + x] ^= t;
		}
		t = a[1];
		for (int i = 0; i < 24; i++) {
			uint64_t u = a[keccak_pi[i]];

			a[keccak_pi[i]] = rotl64(t, keccak_rho[i]);
			t = u;
		}
		for (int y = 0; y < 25; y += 5) {
			for (int x = 0; x < 5; x++)
				c[x] = a[y + x];
			for (int x = 0; x < 5; x++)
				a[y + x] = c[x] ^ (~c[(x + 1) % 5] & c[(x + 2) % 5]);
		}
		a[0] ^= keccak_rc[r];
	}
}

static void keccak_xor(uint64_t *a, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		a[i / 8] ^= (uint64_t)p[i] << (8 * (i % 8));
}

void verify_sum_sha3(const void *buf, size_t n, unsigned digest, uint8_t *out)
{
	const unsigned char *p = buf;
	size_t rate = 200 - 2 * (size_t)digest;
	unsigned char last[200];
	uint64_t a[25];

	memset(a, 0, sizeof(a));
	for (; n >= rate; n -= rate, p += rate) {
		keccak_xor(a, p, rate);
		keccak_f(a);
	}
	memset(last, 0, rate);
	memcpy(last, p, n);
	last[n] ^= 0x06;
	last[rate - 1] ^= 0x80;
	keccak_xor(a, last, rate);
	keccak_f(a);
	for (unsigned i = 0; i < digest; i++)
		out[i] = (unsigned char)(a[i / 8] >> (8 * (i % 8)));
}
