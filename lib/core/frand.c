/* SPDX-License-Identifier: MIT */
#include "core/frand.h"

/* A component below its minimum would lose bits in the shift: raise it (fio's rule). */
static uint32_t frand_floor32(uint32_t x, uint32_t m)
{
	return x < m ? x + m : x;
}

static uint64_t frand_floor64(uint64_t x, uint64_t m)
{
	return x < m ? x + m : x;
}

/* The LCG's starting value: fio writes it (2^31)+(2^17)+(2^7), which C reads as XORs:
 * 29 + 19 + 5 = 53. */
#define FRAND_LCG_START 53u

void frand_init(struct frand *f, uint64_t seed, bool use64)
{
	f->use64 = use64;
	if (!use64) {
		uint32_t s = (uint32_t)seed;

		f->s32[0] = frand_floor32((FRAND_LCG_START * 69069u) ^ s, 1);
		f->s32[1] = frand_floor32((f->s32[0] * 69069u) ^ s, 7);
		f->s32[2] = frand_floor32((f->s32[1] * 69069u) ^ s, 15);
		for (int i = 0; i < 6; i++)
			(void)frand_next32(f);
	} else {
		static const uint64_t mins[5] = { 1, 7, 15, 33, 49 };
		uint64_t x = FRAND_LCG_START;

		for (int i = 0; i < 5; i++) {
			x = frand_floor64((x * 6906969069ull) ^ seed, mins[i]);
			f->s64[i] = x;
		}
		for (int i = 0; i < 6; i++)
			(void)frand_next64(f);
	}
}
