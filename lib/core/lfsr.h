/* SPDX-License-Identifier: MIT */
/* lfsr: fio 3.33's maximal-length linear feedback shift register over [0, n)
 * (random_generator=lfsr): every value once per cycle, in fio's order, with no memory
 * besides the state (each block of a file exactly once per pass without a random map).
 *
 * The register has the fewest bits k >= 3 with 2^k > n, and taps from the usual table of
 * maximal-length XNOR LFSRs (k = 3..63). A step shifts right, sets the top bit and, when the
 * bit shifted out was 0, XORs in the taps; the all-ones state is the one it never reaches.
 * The seed is the starting state (masked to k bits; all ones is refused). Values above n - 1
 * are stepped over. As in fio, the first value after lfsr_init comes two steps after the
 * seed, every later one (also after lfsr_reset) one step after the last. Pure arithmetic:
 * no I/O, no allocation. */
#ifndef IOPS_LFSR_H
#define IOPS_LFSR_H

#include <stdbool.h>
#include <stdint.h>

struct lfsr {
	uint64_t n;		/* values 0..n-1 */
	uint64_t state;		/* the register */
	uint64_t start;		/* the seed state (lfsr_reset goes back to it) */
	uint64_t taps;		/* the XOR mask of the taps */
	uint64_t top;		/* 1 << (k - 1) */
	uint64_t left;		/* values still to come in this cycle */
	bool twice;		/* the next step is fio's double first step */
};

/* Set up a cycle over [0, n) from seed. Returns 0, or -EINVAL for n == 0, n >= 2^63 or a
 * seed whose k low bits are all ones (fio: "failed initializing LFSR"). */
int lfsr_init(struct lfsr *l, uint64_t n, uint64_t seed);

/* The next value of the cycle into *out; false (out untouched) once all n have come. */
bool lfsr_next(struct lfsr *l, uint64_t *out);

/* Start again from the seed state (fio's lfsr_reset: single steps from there). */
void lfsr_reset(struct lfsr *l);

#endif
