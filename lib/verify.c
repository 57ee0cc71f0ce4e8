#include "verify.h"

#include "opt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define VERIFY_WHERE_BYTES	4400	/* a path (PATH_MAX) and the block figures */

/* ---- little-endian helpers -------------------------------------------------------------- */

static inline uint32_t get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void put_le32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static inline uint64_t get_le64(const unsigned char *p)
{
	return (uint64_t)get_le32(p) | (uint64_t)get_le32(p + 4) << 32;
}

static inline void put_le64(unsigned char *p, uint64_t v)
{
	put_le32(p, (uint32_t)v);
	put_le32(p + 4, (uint32_t)(v >> 32));
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
bool verify_cpu_has_crc32c(void)
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
bool verify_cpu_has_crc32c(void)
{
	return false;
}
#endif

uint32_t verify_crc32c(const void *p, size_t n, bool hw)
{
#if defined(__x86_64__)
	if (hw)
		return ~crc32c_hw(~0u, p, n);
#else
	(void)hw;
#endif
	return ~crc32c_sw(~0u, p, n);
}

uint32_t verify_crc32(const void *buf, size_t n)
{
	const unsigned char *p = buf;
	uint32_t crc = 0;

	while (n--) {
		crc = (crc << 4) ^ crc32_nib[(crc >> 28) ^ (*p >> 4)];
		crc = (crc << 4) ^ crc32_nib[(crc >> 28) ^ (*p++ & 15u)];
	}
	return crc;
}

/* ---- xxhash (XXH32) --------------------------------------------------------------------- */

#define XP1 0x9e3779b1u
#define XP2 0x85ebca77u
#define XP3 0xc2b2ae3du
#define XP4 0x27d4eb2fu
#define XP5 0x165667b1u

uint32_t verify_xxh32(const void *buf, size_t n, uint32_t seed)
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

static void md5_block(uint32_t *s, const unsigned char *p)
{
	uint32_t a = s[0], b = s[1], c = s[2], d = s[3];

	for (unsigned i = 0; i < 64; i++) {
		uint32_t f;
		unsigned g, round = i / 16;

		if (round == 0) {
			f = (b & c) | (~b & d);
			g = i;
		} else if (round == 1) {
			f = (d & b) | (~d & c);
			g = (5 * i + 1) & 15;
		} else if (round == 2) {
			f = b ^ c ^ d;
			g = (3 * i + 5) & 15;
		} else {
			f = c ^ (b | ~d);
			g = (7 * i) & 15;
		}
		f += a + md5_k[i] + get_le32(p + 4 * g);
		a = d;
		d = c;
		c = b;
		b += rotl32(f, md5_r[round * 4 + i % 4]);
	}
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
	memcpy(v, s, sizeof(v));
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = v[7] + (rotr32(v[4], 6) ^ rotr32(v[4], 11) ^ rotr32(v[4], 25)) +
			      ((v[4] & v[5]) ^ (~v[4] & v[6])) + sha_k[i] + w[i];
		uint32_t t2 = (rotr32(v[0], 2) ^ rotr32(v[0], 13) ^ rotr32(v[0], 22)) +
			      ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));

		memmove(v + 1, v, 7 * sizeof(v[0]));
		v[4] += t1;
		v[0] = t1 + t2;
	}
	for (int i = 0; i < 8; i++)
		s[i] += v[i];
}

/* Merkle-Damgard over n bytes with 64-byte blocks and the bit length in the last 8 bytes
 * (little-endian for md5, big-endian for sha256). */
static void md_hash(uint32_t *s, const void *buf, size_t n, bool be,
		    void (*block)(uint32_t *, const unsigned char *))
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
}

void verify_md5(const void *p, size_t n, uint8_t out[16])
{
	uint32_t s[4] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476 };

	md_hash(s, p, n, false, md5_block);
	for (int i = 0; i < 4; i++)
		put_le32(out + 4 * i, s[i]);
}

void verify_sha256(const void *p, size_t n, uint8_t out[32])
{
	uint32_t s[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
			  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };

	md_hash(s, p, n, true, sha256_block);
	for (int i = 0; i < 8; i++)
		for (int b = 0; b < 4; b++)
			out[4 * i + b] = (unsigned char)(s[i] >> (24 - 8 * b));
}

/* ---- types and options ------------------------------------------------------------------ */

static const struct {
	const char *name;
	int type;
} verify_names[] = {
	{ "0", VERIFY_NONE }, { "md5", VERIFY_MD5 }, { "crc64", -ENOTSUP }, { "crc32", VERIFY_CRC32 },
	{ "crc32c-intel", VERIFY_CRC32C }, { "crc32c", VERIFY_CRC32C }, { "crc16", -ENOTSUP },
	{ "crc7", -ENOTSUP }, { "sha1", -ENOTSUP }, { "sha256", VERIFY_SHA256 }, { "sha512", -ENOTSUP },
	{ "sha3-224", -ENOTSUP }, { "sha3-256", -ENOTSUP }, { "sha3-384", -ENOTSUP },
	{ "sha3-512", -ENOTSUP }, { "xxhash", VERIFY_XXHASH }, { "meta", VERIFY_META },
	{ "pattern", VERIFY_PATTERN }, { "null", VERIFY_NULL }, { "pattern", VERIFY_PATTERN_HDR },
};

int verify_type_parse(const char *name)
{
	for (size_t i = 0; i < sizeof(verify_names) / sizeof(verify_names[0]); i++)
		if (!strcmp(name, verify_names[i].name))
			return verify_names[i].type;
	return -ENOENT;
}

const char *verify_type_name(unsigned type)
{
	/* crc32c-intel shares crc32c's type, and fio names failures "crc32c" */
	for (size_t i = 1; i < sizeof(verify_names) / sizeof(verify_names[0]); i++)
		if (verify_names[i].type == (int)type && strcmp(verify_names[i].name, "crc32c-intel"))
			return verify_names[i].name;
	return "none";
}

unsigned verify_csum_bytes(unsigned type)
{
	switch (type) {
	case VERIFY_MD5:
		return 16;
	case VERIFY_SHA256:
		return 32;
	case VERIFY_CRC32:
	case VERIFY_CRC32C:
	case VERIFY_XXHASH:
		return 4;
	default:
		return 0;
	}
}

static int hex_val(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)(c | 0x20);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static int pattern_put(struct job *job, const unsigned char *b, size_t n)
{
	if (n > JOB_VERIFY_PATTERN_MAX - job->verify_pattern_len)
		return -EINVAL;
	memcpy(job->verify_pattern + job->verify_pattern_len, b, n);
	job->verify_pattern_len += (unsigned)n;
	return 0;
}

int verify_pattern_parse(const char *s, struct job *job)
{
	unsigned char tmp[JOB_VERIFY_PATTERN_MAX];

	job->verify_pattern_len = 0;
	job->nr_verify_pattern_o = 0;
	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return -EINVAL;
	while (*s && *s != ' ' && *s != '\t') {
		if (*s == '"') {
			const char *e = strchr(s + 1, '"');

			if (!e || e == s + 1 || pattern_put(job, (const unsigned char *)s + 1, (size_t)(e - s - 1)))
				return -EINVAL;
			s = e + 1;
		} else if (s[0] == '%' && s[1] == 'o') {
			if (job->nr_verify_pattern_o >= JOB_VERIFY_PATTERN_O_MAX)
				return -EINVAL;
			job->verify_pattern_o[job->nr_verify_pattern_o++] = (unsigned short)job->verify_pattern_len;
			memset(tmp, 0, 8);
			if (pattern_put(job, tmp, 8))
				return -EINVAL;
			s += 2;
		} else if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
			size_t nd = 0, n;

			s += 2;
			while (hex_val(s[nd]) >= 0)
				nd++;
			n = (nd + 1) / 2;
			if (nd == 0 || n > sizeof(tmp))
				return -EINVAL;
			for (size_t i = 0, k = 0; i < n; i++) {
				int v = 0;

				if (i > 0 || nd % 2 == 0)
					v = hex_val(s[k++]) << 4;
				v |= hex_val(s[k++]);
				tmp[i] = (unsigned char)v;
			}
			if (pattern_put(job, tmp, n))
				return -EINVAL;
			s += nd;
		} else if ((*s >= '0' && *s <= '9') || (*s == '-' && s[1] >= '0' && s[1] <= '9')) {
			bool neg = *s == '-';
			int64_t v = 0;
			uint32_t u;
			size_t n = 1;

			if (neg)
				s++;
			for (; *s >= '0' && *s <= '9'; s++) {
				v = v * 10 + (*s - '0');
				if (v > 2147483648ll)
					return -EINVAL;
			}
			if (neg)
				v = -v;
			if (v > 2147483647ll)
				return -EINVAL;
			u = (uint32_t)v;
			while (n < 4 && (u >> (8 * n)))
				n++;
			put_le32(tmp, u);
			if (pattern_put(job, tmp, n))
				return -EINVAL;
		} else {
			return -EINVAL;
		}
	}
	while (*s == ' ' || *s == '\t')
		s++;
	return *s ? -EINVAL : 0;
}

/* ---- fill and check --------------------------------------------------------------------- */

void verify_ctx_init(struct verify_ctx *vc, const struct job *job)
{
	memset(vc, 0, sizeof(*vc));
	vc->type = job->verify;
	vc->interval = job->verify_interval;
	vc->hdr_offset = job->verify_offset;
	vc->hdr = job->verify != VERIFY_PATTERN && job->verify != VERIFY_NULL && job->verify != VERIFY_NONE;
	vc->hdr_bytes = VERIFY_HDR_BYTES + verify_csum_bytes(job->verify);
	vc->thread = job->thread_number;
	vc->hw_crc = verify_cpu_has_crc32c();
	vc->job = job;
}

/* The pattern over len bytes, %o = offset. */
static void pattern_fill(const struct job *job, unsigned char *p, uint64_t len, uint64_t offset)
{
	unsigned char pat[JOB_VERIFY_PATTERN_MAX];
	unsigned plen = job->verify_pattern_len;

	memcpy(pat, job->verify_pattern, plen);
	for (unsigned i = 0; i < job->nr_verify_pattern_o; i++)
		put_le64(pat + job->verify_pattern_o[i], offset);
	for (uint64_t done = 0; done < len;) {
		uint64_t n = len - done < plen ? len - done : plen;

		memcpy(p + done, pat, (size_t)n);
		done += n;
	}
}

/* fio keeps the crc32c of the header without the final inversion. */
static uint32_t hdr_crc(const struct verify_ctx *vc, const unsigned char *p)
{
	return ~verify_crc32c(p, 36, vc->hw_crc);
}

/* The checksum of the type over [p, p+n) into out (up to 32 bytes, as stored). */
static void csum(const struct verify_ctx *vc, const unsigned char *p, size_t n, unsigned char *out)
{
	switch (vc->type) {
	case VERIFY_MD5:
		verify_md5(p, n, out);
		break;
	case VERIFY_SHA256:
		verify_sha256(p, n, out);
		break;
	case VERIFY_CRC32:
		put_le32(out, verify_crc32(p, n));
		break;
	case VERIFY_CRC32C:
		put_le32(out, ~verify_crc32c(p, n, vc->hw_crc));	/* fio: no final inversion */
		break;
	case VERIFY_XXHASH:
		put_le32(out, verify_xxh32(p, n, VERIFY_XXH32_SEED));
		break;
	default:
		break;
	}
}

/* Move the header between the start of the piece and verify_offset. Each step undoes the
 * other's byte swaps in reverse order, so overlapping ranges round-trip too. */
static void hdr_swap(unsigned char *p, unsigned off, unsigned n, bool forward)
{
	for (unsigned k = 0; k < n; k++) {
		unsigned i = forward ? k : n - 1 - k;
		unsigned char t = p[i];

		p[i] = p[off + i];
		p[off + i] = t;
	}
}

/* Length of the piece starting at pos of a len-byte block; 0 when it holds no header. */
static uint64_t piece_len(const struct verify_ctx *vc, uint64_t pos, uint64_t len)
{
	uint64_t n = vc->interval && vc->interval < len - pos ? vc->interval : len - pos;

	return n >= (uint64_t)vc->hdr_bytes + vc->hdr_offset ? n : 0;
}

uint64_t verify_fill(const struct verify_ctx *vc, void *buf, uint64_t len, uint64_t offset,
		     struct rng *r, uint32_t numberio, uint64_t now_ns)
{
	unsigned char *b = buf;
	uint64_t seed = 0;

	if (vc->job->verify_pattern_len) {
		pattern_fill(vc->job, b, len, offset);
	} else {
		seed = rng_next(r);
		rng_fill(r, b, (size_t)len);
	}
	if (!vc->hdr)
		return seed;
	for (uint64_t pos = 0; pos < len;) {
		uint64_t n = piece_len(vc, pos, len);
		unsigned char *p = b + pos;

		if (!n)
			break;
		p[0] = (unsigned char)VERIFY_MAGIC;
		p[1] = (unsigned char)(VERIFY_MAGIC >> 8);
		p[2] = (unsigned char)vc->type;
		p[3] = (unsigned char)(vc->type >> 8);
		put_le32(p + 4, (uint32_t)n);
		put_le64(p + 8, seed);
		put_le64(p + 16, offset + pos);
		put_le32(p + 24, (uint32_t)(now_ns / 1000000000u));
		put_le32(p + 28, (uint32_t)(now_ns % 1000000000u));
		p[32] = (unsigned char)vc->thread;
		p[33] = (unsigned char)(vc->thread >> 8);
		p[34] = (unsigned char)numberio;
		p[35] = (unsigned char)(numberio >> 8);
		put_le32(p + 36, hdr_crc(vc, p));
		csum(vc, p + vc->hdr_bytes, (size_t)(n - vc->hdr_bytes), p + VERIFY_HDR_BYTES);
		if (vc->hdr_offset)
			hdr_swap(p, vc->hdr_offset, vc->hdr_bytes, true);
		pos += n;
	}
	return seed;
}

static void hex(char *out, const unsigned char *p, unsigned n)
{
	static const char digits[] = "0123456789abcdef";

	for (unsigned i = 0; i < n; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
	out[2 * n] = '\0';
}

/* Compare [from, to) of the block with the pattern; fio's messages at the first bad byte. */
static int check_pattern(const struct verify_ctx *vc, const unsigned char *b, uint64_t from, uint64_t to,
			 const struct verify_io *io, FILE *diag)
{
	unsigned char win[256 + JOB_VERIFY_PATTERN_MAX];
	uint64_t plen = vc->job->verify_pattern_len;

	for (uint64_t pos = from; pos < to;) {
		uint64_t n = to - pos < 256 ? to - pos : 256, phase = pos % plen;

		/* the pattern over [pos, pos+n), from a window aligned on its period */
		pattern_fill(vc->job, win, n + phase, io->offset);
		for (uint64_t i = 0; i < n; i++)
			if (b[pos + i] != win[phase + i]) {
				unsigned got = b[pos + i], want = win[phase + i];

				fprintf(diag, "fio: got pattern '%02x', wanted '%02x'. Bad bits %d\n", got, want,
					__builtin_popcount(got ^ want));
				fprintf(diag, "fio: bad pattern block offset %llu\n", (unsigned long long)(pos + i));
				fprintf(diag, "pattern: verify failed at file %s offset %llu, length %llu (requested block: "
					"offset=%llu, length=%llu, flags=%x)\n", io->path, (unsigned long long)io->offset,
					(unsigned long long)io->len, (unsigned long long)io->offset,
					(unsigned long long)io->len, io->flags);
				return -EILSEQ;
			}
		pos += n;
	}
	return 0;
}

int verify_check(const struct verify_ctx *vc, void *buf, const struct verify_io *io, FILE *diag)
{
	unsigned char *b = buf;

	if (vc->type == VERIFY_PATTERN)
		return check_pattern(vc, b, 0, io->len, io, diag);
	if (!vc->hdr)
		return 0;
	for (uint64_t pos = 0; pos < io->len;) {
		uint64_t n = piece_len(vc, pos, io->len), off = io->offset + pos;
		unsigned char *p = b + pos;
		unsigned char want[32];
		char where[VERIFY_WHERE_BYTES];
		unsigned type;
		int w;

		if (!n)
			break;
		w = snprintf(where, sizeof(where), "at file %s offset %llu, length %llu (requested block: offset=%llu, "
			     "length=%llu", io->path, (unsigned long long)off, (unsigned long long)n,
			     (unsigned long long)io->offset, (unsigned long long)io->len);
		if (w < 0 || (size_t)w >= sizeof(where))
			where[sizeof(where) - 1] = '\0';	/* a cut path still names the block */
		if (vc->hdr_offset)
			hdr_swap(p, vc->hdr_offset, vc->hdr_bytes, false);
		type = (unsigned)p[2] | (unsigned)p[3] << 8;
		if ((p[0] | p[1] << 8) != (int)VERIFY_MAGIC) {
			fprintf(diag, "verify: bad magic header %x, wanted %x %s)\n", p[0] | p[1] << 8, VERIFY_MAGIC, where);
			return -EILSEQ;
		}
		if (get_le32(p + 4) != n) {
			fprintf(diag, "verify: bad header length %u, wanted %llu %s)\n", get_le32(p + 4),
				(unsigned long long)n, where);
			return -EILSEQ;
		}
		if (get_le64(p + 16) != off) {
			fprintf(diag, "verify: bad header offset %llu, wanted %llu %s)\n",
				(unsigned long long)get_le64(p + 16), (unsigned long long)off, where);
			return -EILSEQ;
		}
		if (get_le32(p + 36) != hdr_crc(vc, p)) {
			fprintf(diag, "verify: bad header crc %x, calculated %x %s)\n", get_le32(p + 36), hdr_crc(vc, p),
				where);
			return -EILSEQ;
		}
		if (io->seed_known && get_le64(p + 8) != io->seed) {
			fprintf(diag, "verify: bad header rand_seed %llu, wanted %llu %s)\n",
				(unsigned long long)get_le64(p + 8), (unsigned long long)io->seed, where);
			return -EILSEQ;
		}
		if (vc->type == VERIFY_PATTERN_HDR) {
			if (check_pattern(vc, b, pos + vc->hdr_bytes, pos + n, io, diag))
				return -EILSEQ;
		} else if (vc->type != VERIFY_META) {
			unsigned cb = verify_csum_bytes(vc->type);

			csum(vc, p + vc->hdr_bytes, (size_t)(n - vc->hdr_bytes), want);
			if (memcmp(want, p + VERIFY_HDR_BYTES, cb)) {
				char e[65], r[65];

				hex(e, p + VERIFY_HDR_BYTES, cb);
				hex(r, want, cb);
				fprintf(diag, "%s: verify failed %s, flags=%x)\n       Expected CRC: %s\n       Received CRC: %s\n",
					verify_type_name(vc->type), where, io->flags, e, r);
				if (type != vc->type)
					fprintf(diag, "fio: verify type mismatch (%u media, %u given)\n", type, vc->type);
				return -EILSEQ;
			}
		}
		pos += n;
	}
	return 0;
}

/* ---- the log ---------------------------------------------------------------------------- */

static int ent_cmp(const void *a, const void *b)
{
	const struct verify_ent *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

size_t verify_log_sort(struct verify_ent *log, size_t nr)
{
	size_t out = 0;

	if (nr < 2)
		return nr;
	qsort(log, nr, sizeof(*log), ent_cmp);
	for (size_t i = 0; i < nr; i++) {
		if (out && log[out - 1].file == log[i].file && log[out - 1].offset == log[i].offset)
			out--;	/* overwritten later: the later write replaces it */
		log[out++] = log[i];
	}
	return out;
}

/* ---- job checks ------------------------------------------------------------------------- */

int verify_fixup(struct job *job, struct opt_diag *d)
{
	uint64_t bs = job->bs_min[DDIR_WRITE], piece;
	unsigned hdr_bytes;

	if (job->verify == VERIFY_NONE && job->verify_pattern_len)
		job->verify = VERIFY_PATTERN_HDR;	/* fio: a pattern alone turns verify on */
	if (job->verify == VERIFY_NONE)
		return 0;
	if (job->verify == VERIFY_PATTERN && !job->verify_pattern_len) {
		opt_diag_add(d, false, "fio: verify=pattern needs a verify_pattern");
		return -EINVAL;
	}
	hdr_bytes = VERIFY_HDR_BYTES + verify_csum_bytes(job->verify);
	piece = job->verify_interval && job->verify_interval < bs ? job->verify_interval : bs;
	if (job->verify != VERIFY_PATTERN && job->verify != VERIFY_NULL && job->rw_has_write &&
	    (uint64_t)job->verify_offset + hdr_bytes > piece) {
		opt_diag_add(d, false, "fio: verify_offset too large (%u + %u header bytes > %llu)", job->verify_offset,
			     hdr_bytes, (unsigned long long)piece);
		return -EINVAL;
	}
	if (job->rw_has_write && job->rw_random && job->norandommap && job->bs_min[DDIR_WRITE] != job->bs_max[DDIR_WRITE]) {
		opt_diag_add(d, false, "fio: norandommap given for variable block sizes, verify limited");
		opt_diag_add(d, false, "fio: iops cannot verify overlapping writes of variable size: drop norandommap "
			     "or use a single block size");
		return -EINVAL;
	}
	if (job->time_based && job->do_verify && job->rw_has_write && !job->rw_has_read)
		opt_diag_add(d, false, "fio: verification read phase will never start because write phase uses all of runtime");
	return 0;
}
