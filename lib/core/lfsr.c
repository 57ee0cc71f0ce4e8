/* SPDX-License-Identifier: MIT */
#include "core/lfsr.h"

#include <errno.h>

/* XOR masks of the taps of k-bit maximal-length XNOR LFSRs, k = 3..63 (bit t - 1 for tap t). */
static const uint64_t lfsr_tap_masks[61] = {
	0x6ull, 0xcull, 0x14ull, 0x30ull, 0x60ull, 0xb8ull, 0x110ull, 0x240ull, 0x500ull, 0x829ull,
	0x100dull, 0x2015ull, 0x6000ull, 0xd008ull, 0x12000ull, 0x20400ull, 0x40023ull, 0x90000ull,
	0x140000ull, 0x300000ull, 0x420000ull, 0xe10000ull, 0x1200000ull, 0x2000023ull, 0x4000013ull,
	0x9000000ull, 0x14000000ull, 0x20000029ull, 0x48000000ull, 0xd0000001ull, 0x100080000ull,
	0x204000003ull, 0x500000000ull, 0x801000000ull, 0x100000001full, 0x2000000031ull,
	0x4400000000ull, 0xa000140000ull, 0x12000000000ull, 0x300000c0000ull, 0x63000000000ull,
	0xc0000030000ull, 0x1b0000000000ull, 0x300003000000ull, 0x420000000000ull, 0xc00000180000ull,
	0x1008000000000ull, 0x3000000c00000ull, 0x6000c00000000ull, 0x9000000000000ull,
	0x18003000000000ull, 0x30000000030000ull, 0x40000040000000ull, 0xc0000600000000ull,
	0x102000000000000ull, 0x200004000000000ull, 0x600003000000000ull, 0xc00000000000000ull,
	0x1800300000000000ull, 0x3000000000000030ull, 0x6000000000000000ull
};

int lfsr_init(struct lfsr *l, uint64_t n, uint64_t seed)
{
	unsigned k = 3;

	if (n == 0)
		return -EINVAL;
	while (k < 64 && (1ull << k) <= n)
		k++;
	if (k == 64)
		return -EINVAL;
	l->n = n;
	l->taps = lfsr_tap_masks[k - 3];
	l->top = 1ull << (k - 1);
	l->start = seed & ((l->top << 1) - 1);
	if (l->start == (l->top << 1) - 1)
		return -EINVAL;
	lfsr_reset(l);
	l->twice = true;
	return 0;
}

static inline uint64_t lfsr_step(const struct lfsr *l, uint64_t v)
{
	uint64_t s = (v >> 1) | l->top;

	return (v & 1) ? s : s ^ l->taps;
}

bool lfsr_next(struct lfsr *l, uint64_t *out)
{
	if (l->left == 0)
		return false;
	l->left--;
	do {
		if (l->twice) {
			l->state = lfsr_step(l, l->state);
			l->twice = false;
		}
		l->state = lfsr_step(l, l->state);
	} while (l->state >= l->n);
	*out = l->state;
	return true;
}

void lfsr_reset(struct lfsr *l)
{
	l->state = l->start;
	l->left = l->n;
	l->twice = false;
}
