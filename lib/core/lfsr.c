#include "core/lfsr.h"

#include <errno.h>

/* Primitive polynomials over GF(2) of degree k = 2..64, the x^k term left out: bit i is the
 * coefficient of x^i. Each was found by search and checked primitive (x has order 2^k - 1
 * modulo it: x^(2^k-1) = 1 and x^((2^k-1)/q) != 1 for every prime factor q of 2^k - 1). */
static const uint64_t lfsr_polys[63] = {
	0x3ull, 0x3ull, 0x3ull, 0x5ull, 0x3ull, 0x3ull, 0x87ull, 0x11ull, 0x9ull, 0x5ull, 0x107ull,
	0x27ull, 0x1007ull, 0x3ull, 0x100bull, 0x9ull, 0x81ull, 0x27ull, 0x9ull, 0x5ull, 0x3ull,
	0x21ull, 0x87ull, 0x9ull, 0x47ull, 0x27ull, 0x9ull, 0x5ull, 0x800007ull, 0x9ull, 0x400007ull,
	0x2001ull, 0x8000007ull, 0x5ull, 0x801ull, 0x207ull, 0x200bull, 0x11ull, 0x800000007ull,
	0x9ull, 0x20000007ull, 0x1007ull, 0x400000000bull, 0x1bull, 0x20bull, 0x21ull, 0x1000000bull,
	0x201ull, 0x10007ull, 0x10000007ull, 0x9ull, 0x47ull, 0x20007ull, 0x1000001ull,
	0x40000000007ull, 0x81ull, 0x80001ull, 0x1000007ull, 0x3ull, 0x27ull, 0x1000000bull, 0x3ull,
	0x807ull
};

static unsigned lfsr_bits(uint64_t n)
{
	unsigned k = 2;

	while (k < 64 && ((1ull << k) - 1) < n)
		k++;
	return k;
}

int lfsr_init(struct lfsr *l, uint64_t n, uint64_t seed)
{
	unsigned k;

	if (n == 0)
		return -EINVAL;
	k = lfsr_bits(n);
	l->n = n;
	l->poly = lfsr_polys[k - 2];
	l->top = 1ull << (k - 1);
	l->mask = k == 64 ? UINT64_MAX : (1ull << k) - 1;
	/* any non-zero state is on the cycle; take one that stands for a value below n */
	l->start = seed % n + 1;
	l->state = l->start;
	l->left = n;
	return 0;
}

static uint64_t lfsr_step(const struct lfsr *l, uint64_t s)
{
	bool carry = (s & l->top) != 0;

	s = (s << 1) & l->mask;
	return carry ? s ^ l->poly : s;
}

bool lfsr_next(struct lfsr *l, uint64_t *out)
{
	if (l->left == 0)
		return false;
	*out = l->state - 1;
	l->left--;
	if (l->left) {
		do
			l->state = lfsr_step(l, l->state);
		while (l->state > l->n);
	}
	return true;
}

void lfsr_reset(struct lfsr *l)
{
	l->state = l->start;
	l->left = l->n;
}
