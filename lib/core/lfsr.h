/* lfsr: a maximal-length linear feedback shift register over [0, n): every value once per
 * cycle, in a scrambled order, with no memory besides the state (fio's random_generator=lfsr:
 * each block of a file exactly once per pass without a random map).
 *
 * The register has the fewest bits k with 2^k - 1 >= n; each step multiplies the state by x
 * modulo a primitive polynomial of degree k over GF(2), so the state runs through all
 * 2^k - 1 non-zero values before it repeats. State v stands for the value v - 1; states
 * above n are skipped (fewer than half of them). Pure arithmetic: no I/O, no allocation. */
#ifndef IOPS_LFSR_H
#define IOPS_LFSR_H

#include <stdbool.h>
#include <stdint.h>

struct lfsr {
	uint64_t n;		/* values 0..n-1 */
	uint64_t state;		/* 1..2^k - 1 */
	uint64_t start;		/* the state the cycle began with */
	uint64_t poly;		/* the polynomial without its x^k term */
	uint64_t top;		/* 1 << (k - 1) */
	uint64_t mask;		/* 2^k - 1 */
	uint64_t left;		/* values still to come in this cycle */
};

/* Set up a cycle over [0, n) that starts at a point chosen by seed. n >= 1. Returns 0, or
 * -EINVAL for n == 0. */
int lfsr_init(struct lfsr *l, uint64_t n, uint64_t seed);

/* The next value of the cycle into *out; false (out untouched) once all n have come. */
bool lfsr_next(struct lfsr *l, uint64_t *out);

/* Start the same cycle again (the same order as after lfsr_init). */
void lfsr_reset(struct lfsr *l);

#endif
