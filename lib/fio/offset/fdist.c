/* SPDX-License-Identifier: MIT */
#include "fio/offset/fdist.h"

#include <math.h>
#include <string.h>

#define FDIST_ZIPF_MAX_TERMS	10000000ull	/* fio caps zeta(n) at 10M terms */
#define FDIST_GOLDEN_64		0x61c8864680b583ebull
#define FDIST_JHASH_INIT	0x61c88647u
#define FDIST_NORMAL_DRAWS	12

static uint32_t fdist_rol(uint32_t w, unsigned s)
{
	return (w << s) | (w >> (32 - s));
}

uint32_t fdist_jhash(const void *key, uint32_t length, uint32_t initval)
{
	const uint8_t *k = key;
	uint32_t a, b, c;

	a = b = c = FDIST_JHASH_INIT + length + initval;
	while (length > 12) {
		/* fio's rounds add the first byte of each word, not the word */
		a += k[0];
		b += k[4];
		c += k[8];
		a -= c; a ^= fdist_rol(c, 4); c += b;
		b -= a; b ^= fdist_rol(a, 6); a += c;
		c -= b; c ^= fdist_rol(b, 8); b += a;
		a -= c; a ^= fdist_rol(c, 16); c += b;
		b -= a; b ^= fdist_rol(a, 19); a += c;
		c -= b; c ^= fdist_rol(b, 4); b += a;
		length -= 12;
		k += 12;
	}
	if (length == 0)
		return c;
	/* the last 1..12 bytes, little-endian into a, b, c */
	for (uint32_t i = 0; i < length; i++) {
		uint32_t v = (uint32_t)k[i] << (8 * (i % 4));

		if (i < 4)
			a += v;
		else if (i < 8)
			b += v;
		else
			c += v;
	}
	c ^= b; c -= fdist_rol(b, 14);
	a ^= c; a -= fdist_rol(c, 11);
	b ^= a; b -= fdist_rol(a, 25);
	c ^= b; c -= fdist_rol(b, 16);
	a ^= c; a -= fdist_rol(c, 4);
	b ^= a; b -= fdist_rol(a, 14);
	c ^= b; c -= fdist_rol(b, 24);
	return c;
}

uint32_t fdist_seed(const char *name, unsigned thread_number, bool randrepeat, uint64_t block_seed)
{
	if (!randrepeat)
		return (uint32_t)block_seed;
	return fdist_jhash(name, (uint32_t)strlen(name), 0) * thread_number;
}

void fdist_init(struct fdist *z, enum dist_kind kind, uint64_t nranges, double param, double center,
		uint32_t seed)
{
	memset(z, 0, sizeof(*z));
	z->kind = kind;
	z->nranges = nranges ? nranges : 1;
	frand_init(&z->r, seed, false);
	z->hashed = true;	/* fio hashes with or without a center */
	if (kind == DIST_NORMAL) {
		if (param != 0.0) {
			z->stddev = (uint64_t)ceil((double)z->nranges * param / 100.0);
			if (z->stddev > z->nranges / 2)
				z->stddev = z->nranges / 2;
		}
		z->rand_off = center < 0 ? 0 : (uint64_t)(int64_t)((double)z->nranges * (center - 0.5));
		return;
	}
	z->rand_off = frand_next32(&z->r);
	if (center >= 0)
		z->rand_off = (uint64_t)((double)z->nranges * center);
	if (kind == DIST_ZIPF) {
		uint64_t terms = z->nranges < FDIST_ZIPF_MAX_TERMS ? z->nranges : FDIST_ZIPF_MAX_TERMS;

		z->theta = param;
		z->zeta2 = pow(1.0, param) + pow(0.5, param);
		for (uint64_t i = 0; i < terms; i++)
			z->zetan += pow(1.0 / (double)(i + 1), param);
		z->alpha = 1.0 / (1.0 - param);
		z->eta = (1.0 - pow(2.0 / (double)z->nranges, 1.0 - param)) / (1.0 - z->zeta2 / z->zetan);
	} else {
		z->pareto_pow = log(param) / log(1.0 - param);
	}
}

static uint64_t fdist_place(const struct fdist *z, uint64_t v)
{
	if (z->hashed)
		v *= FDIST_GOLDEN_64;
	return (v + z->rand_off) % z->nranges;
}

uint64_t fdist_next(struct fdist *z)
{
	uint64_t n = z->nranges, v;

	switch (z->kind) {
	case DIST_ZIPF: {
		double u = (double)frand_next32(&z->r) / 4294967295.0, rz = u * z->zetan;

		if (rz < 1.0)
			v = 1;
		else if (rz < 1.0 + pow(0.5, z->theta))
			v = 2;
		else
			v = 1 + (uint64_t)((double)n * pow(z->eta * u - z->eta + 1.0, z->alpha));
		return fdist_place(z, v - 1);
	}
	case DIST_PARETO: {
		double u = (double)frand_next32(&z->r) / 4294967295.0;

		v = (uint64_t)((double)(n - 1) * pow(u, z->pareto_pow));
		return fdist_place(z, v);
	}
	default: {	/* DIST_NORMAL */
		uint64_t sum = 0;

		for (int i = 0; i < FDIST_NORMAL_DRAWS; i++)
			sum += frand_next32(&z->r) % (n + 1);
		sum = (sum + FDIST_NORMAL_DRAWS - 1) / FDIST_NORMAL_DRAWS;
		if (z->stddev) {
			uint32_t r = frand_next32(&z->r);
			int dev = (int)((double)z->stddev * ((double)r / 4294967296.0)) - (int)(z->stddev / 2);

			while ((uint64_t)((int64_t)dev + (int64_t)sum) >= n)
				dev /= 2;
			sum += (uint64_t)(int64_t)dev;
		}
		return fdist_place(z, sum);
	}
	}
}
