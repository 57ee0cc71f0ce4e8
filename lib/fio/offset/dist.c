/* SPDX-License-Identifier: MIT */
#include "fio/offset/dist.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/parse.h"
#include "fio/optval.h"

#define DIST_TOKEN_MAX	64	/* longest size/percentage pair */

/* ---- text helpers ------------------------------------------------------------------------- */

struct dist_span {
	const char *p;
	size_t len;
};

/* Split "r,w,t" (fio's rule: without a trailing ',' the last list also serves the directions
 * after it; an empty list leaves its direction alone). -EINVAL for more than 3 lists. */
static int dist_split_dirs(const char *s, struct dist_span part[DDIR_NR])
{
	size_t len = strlen(s);
	int n = 0;
	const char *p = s;

	for (;;) {
		const char *c = strchr(p, ',');
		size_t l = c ? (size_t)(c - p) : strlen(p);

		if (n == DDIR_NR)
			return -EINVAL;
		part[n].p = p;
		part[n].len = l;
		n++;
		if (!c)
			break;
		p = c + 1;
	}
	if (len && s[len - 1] != ',')
		for (int i = n; i < DDIR_NR; i++)
			part[i] = part[n - 1];
	else
		for (int i = n; i < DDIR_NR; i++)
			part[i] = (struct dist_span){ s + len, 0 };	/* empty, at the end */
	return 0;
}

/* Strict decimal integer (digits only, bounded). */
static int dist_uint(const char *s, size_t len, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (len == 0)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		v = v * 10 + (uint64_t)(s[i] - '0');
		if (v > max)
			return -ERANGE;
	}
	*out = v;
	return 0;
}

/* Next ':'-separated token of a list; false at the end or at an empty token (fio stops there). */
static bool dist_next_token(const char **p, const char *end, struct dist_span *tok)
{
	const char *s = *p, *c;

	if (s >= end)
		return false;
	c = memchr(s, ':', (size_t)(end - s));
	if (!c)
		c = end;
	if (c == s)
		return false;
	tok->p = s;
	tok->len = (size_t)(c - s);
	*p = c < end ? c + 1 : end;
	return true;
}

/* "a/b" -> a and b as NUL-terminated copies; b may be empty, slash tells whether '/' was there. */
static int dist_pair(const struct dist_span *tok, char a[DIST_TOKEN_MAX], char b[DIST_TOKEN_MAX], bool *slash)
{
	const char *sl = memchr(tok->p, '/', tok->len);
	size_t la = sl ? (size_t)(sl - tok->p) : tok->len;
	size_t lb = sl ? tok->len - la - 1 : 0;

	if (la >= DIST_TOKEN_MAX || lb >= DIST_TOKEN_MAX)
		return -EINVAL;
	memcpy(a, tok->p, la);
	a[la] = '\0';
	if (sl)
		memcpy(b, sl + 1, lb);
	b[lb] = '\0';
	*slash = sl != NULL;
	return 0;
}

/* ---- bssplit ------------------------------------------------------------------------------ */

static int dist_bssplit_dir(const struct dist_span *part, unsigned kb_base, struct dist_bssplit *o,
			    struct opt_diag *d)
{
	const char *p = part->p, *end = part->p + part->len;
	struct dist_span tok;
	uint64_t sum = 0;
	unsigned missing = 0;
	bool blank[DIST_BSSPLIT_MAX];

	o->nr = 0;
	o->bs_min = UINT64_MAX;
	o->bs_max = 0;
	while (dist_next_token(&p, end, &tok)) {
		char a[DIST_TOKEN_MAX], b[DIST_TOKEN_MAX];
		uint64_t bs, perc = 0;
		bool slash;

		if (o->nr == DIST_BSSPLIT_MAX) {
			opt_diag_add(d, false, "fio: hit max of %d split entries", DIST_BSSPLIT_MAX);
			break;
		}
		if (dist_pair(&tok, a, b, &slash) || parse_size(a, kb_base, &bs) || bs == 0 ||
		    (b[0] && dist_uint(b, strlen(b), 1000000, &perc))) {
			opt_diag_add(d, false, "fio: split conversion failed");
			return -EINVAL;
		}
		blank[o->nr] = perc == 0;	/* "4k", "4k/" and "4k/0" share the remainder */
		if (perc)
			sum += perc;
		else
			missing++;
		o->e[o->nr].bs = bs;
		o->e[o->nr].perc = (uint32_t)perc;
		if (bs < o->bs_min)
			o->bs_min = bs;
		if (bs > o->bs_max)
			o->bs_max = bs;
		o->nr++;
	}
	if (o->nr == 0)
		return 0;
	if (sum > 100) {	/* fio takes it with at most one blank share (clamped, or huge) */
		opt_diag_add(d, false, "fio: bssplit percentages add to more than 100%%");
		return -EINVAL;
	}
	if (missing) {
		uint32_t share = (uint32_t)(100 - sum) / missing;

		for (unsigned i = 0; i < o->nr; i++)
			if (blank[i])
				o->e[i].perc = share;
	}
	/* stable insertion sort by percentage, compared as fio's signed difference */
	for (unsigned i = 1; i < o->nr; i++) {
		struct dist_bs t = o->e[i];
		unsigned j = i;

		while (j > 0 && (int32_t)o->e[j - 1].perc > (int32_t)t.perc) {
			o->e[j] = o->e[j - 1];
			j--;
		}
		o->e[j] = t;
	}
	return 0;
}

int dist_bssplit_parse(const char *val, unsigned kb_base, struct dist_bssplit out[DDIR_NR],
		       bool present[DDIR_NR], struct opt_diag *d)
{
	struct dist_span part[DDIR_NR];

	if (!val || !*val || dist_split_dirs(val, part)) {
		opt_diag_add(d, false, "fio: split conversion failed");
		return -EINVAL;
	}
	for (int i = 0; i < DDIR_NR; i++) {
		int ret = dist_bssplit_dir(&part[i], kb_base, &out[i], d);

		if (ret)
			return ret;
		present[i] = out[i].nr > 0;
	}
	return 0;
}

void dist_bs_pick_init(struct dist_bs_pick *p, const struct dist_bssplit *s, uint64_t min_bs,
		       bool unaligned)
{
	uint64_t cum = 0;

	memset(p, 0, sizeof(*p));
	p->min_sel = UINT64_MAX;
	p->unit = min_bs ? min_bs : 1;
	p->unaligned = unaligned;
	for (unsigned i = 0; i < s->nr; i++) {
		uint64_t bs = s->e[i].bs;

		if (!s->e[i].perc)
			continue;
		cum += s->e[i].perc;
		p->bs[p->nr] = bs;
		p->cum[p->nr] = cum;
		if (bs < p->min_sel)
			p->min_sel = bs;
		if (bs > p->max_sel)
			p->max_sel = bs;
		p->nr++;
	}
}

/* fio's rounding: down to a multiple of the direction's smallest size. */
static uint64_t dist_bs_round(const struct dist_bs_pick *p, uint64_t len)
{
	if (p->unaligned)
		return len;
	if (!(p->unit & (p->unit - 1)))
		return len & ~(p->unit - 1);
	return len - len % p->unit;
}

uint64_t dist_bs_pick(const struct dist_bs_pick *p, struct frand *r, uint64_t room)
{
	uint64_t per_pct = frand_max(r) / 100;

	if (p->nr == 0 || room < p->unit)
		return 0;
	/* fio: a draw takes the first entry whose running sum covers it and that fits (else the
	 * last one), rounded; draw again while it does not fit. fio loops forever when nothing
	 * with a share can fit: give up after many draws instead. */
	for (unsigned tries = 0; tries < 4096; tries++) {
		uint64_t v = frand_next(r), len = 0;

		for (unsigned i = 0; i < p->nr; i++) {
			len = p->bs[i];
			if (v / p->cum[i] <= per_pct && len <= room)
				break;
		}
		len = dist_bs_round(p, len);
		if (len && len <= room)
			return len;
	}
	return 0;
}

/* ---- random_distribution ------------------------------------------------------------------ */

/* Strict float: digits, optional '.', optional fraction, optional leading '-'. */
int dist_float(const char *s, size_t len, double *out)
{
	double v = 0, scale = 1;
	bool neg = false, dot = false, digits = false;
	size_t i = 0;

	if (len && s[0] == '-') {
		neg = true;
		i = 1;
	}
	for (; i < len; i++) {
		if (s[i] == '.' && !dot) {
			dot = true;
			continue;
		}
		if (s[i] < '0' || s[i] > '9' || (!dot && v > 1e15))
			return -EINVAL;
		digits = true;
		if (dot) {
			scale /= 10;
			v += (s[i] - '0') * scale;
		} else {
			v = v * 10 + (s[i] - '0');
		}
	}
	if (!digits)
		return -EINVAL;
	*out = neg ? -v : v;
	return 0;
}

int dist_float_lead(const char *s, size_t len, double *out)
{
	size_t n;
	bool dot = false;

	if (memchr(s, ',', len))
		return -EINVAL;
	while (len && (*s == ' ' || *s == '\t'))	/* strtod's spaces */
		s++, len--;
	if (len && *s == '+')
		s++, len--;
	n = len && s[0] == '-' ? 1 : 0;
	for (; n < len && ((s[n] >= '0' && s[n] <= '9') || (s[n] == '.' && !dot)); n++)
		dot |= s[n] == '.';
	return dist_float(s, n, out);
}

static int dist_zones_dir(const struct dist_span *part, unsigned kb_base, bool abs_size,
			  struct dist_zone *zones, unsigned *nr, struct opt_diag *d)
{
	const char *p = part->p, *end = part->p + part->len;
	struct dist_span tok;
	uint64_t sum_access = 0, sum_size = 0;
	unsigned nr_blank = 0;
	bool blank[DIST_ZONES_MAX];

	*nr = 0;
	while (dist_next_token(&p, end, &tok)) {
		char a[DIST_TOKEN_MAX], b[DIST_TOKEN_MAX];
		uint64_t access, size = 0;
		int64_t v;
		bool slash;

		if (*nr == DIST_ZONES_MAX) {
			opt_diag_add(d, false, "fio: hit max of %d split entries", DIST_ZONES_MAX);
			break;
		}
		if (dist_pair(&tok, a, b, &slash) || optval_decimal(a, kb_base, &v))
			goto bad;
		access = (uint8_t)v;	/* fio reads a size ("0x" is hex) and keeps a byte of it */
		/* zoned: a size of atoi() 0 ("20/", "20", "20/x") shares what the others leave, a size
		 * past 100 (or negative) is 100, as in fio */
		if (!abs_size && slash)
			size = (unsigned)strtol(b, NULL, 10) > 100 ? 100 : (unsigned)strtol(b, NULL, 10);
		blank[*nr] = !abs_size && !size;
		if (blank[*nr])
			nr_blank++;
		else if (abs_size && (!slash || parse_size(b, kb_base, &size)))
			goto bad;
		zones[*nr].access_pct = (uint32_t)access;
		zones[*nr].size = size;
		sum_access += access;
		if (!abs_size)
			sum_size += size;
		(*nr)++;
	}
	if (*nr == 0)
		return 0;
	for (unsigned i = 0; nr_blank && i < *nr; i++)
		if (blank[i])
			zones[i].size = sum_size < 100 ? (100 - sum_size) / nr_blank : 0;
	if (sum_access > 100 || sum_size > 100) {
		opt_diag_add(d, false, "fio: zone_split percentages add to more than 100%%");
		return -EINVAL;
	}
	if (sum_access < 100) {
		opt_diag_add(d, false, "fio: access percentage don't add up to 100 for zoned random distribution (got=%u)",
			     (unsigned)sum_access);
		return -EINVAL;
	}
	return 0;
bad:
	opt_diag_add(d, false, "fio: split conversion failed");
	return -EINVAL;
}

int dist_rand_parse(const char *val, unsigned kb_base, struct dist_rand *out, struct opt_diag *d)
{
	static const struct { const char *name; enum dist_kind kind; double def; } kinds[] = {
		{ "random", DIST_RANDOM, 0 }, { "zipf", DIST_ZIPF, 1.1 }, { "pareto", DIST_PARETO, 0.2 },
		{ "normal", DIST_NORMAL, 0 }, { "zoned_abs", DIST_ZONED_ABS, 0 }, { "zoned", DIST_ZONED, 0 },
	};
	const char *rest = NULL;
	unsigned k;

	memset(out, 0, sizeof(*out));
	out->center = -1;
	if (!val)
		return -EINVAL;
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		size_t l = strlen(kinds[k].name);

		/* fio matches the word before a ':' or ','; zipf, pareto and normal read what
		 * follows the first ':' (zipf,1 is zipf with its default theta) */
		if (!strncmp(val, kinds[k].name, l) && (val[l] == '\0' || val[l] == ':' ||
							 (val[l] == ',' && kinds[k].kind != DIST_RANDOM &&
							  kinds[k].kind != DIST_ZONED && kinds[k].kind != DIST_ZONED_ABS))) {
			rest = val[l] == ':' ? val + l + 1 : NULL;
			if (val[l] == ',' && strchr(val + l, ':'))
				rest = strchr(val + l, ':') + 1;
			break;
		}
	}
	if (k == sizeof(kinds) / sizeof(kinds[0]))
		return -EINVAL;
	out->kind = kinds[k].kind;
	out->param = kinds[k].def;
	switch (out->kind) {
	case DIST_RANDOM:
		return rest ? -EINVAL : 0;
	case DIST_ZONED:
	case DIST_ZONED_ABS: {
		struct dist_span part[DDIR_NR];

		if (!rest) {
			opt_diag_add(d, false, "fio: mismatch in zoned input <%s>", val);
			return -EINVAL;
		}
		if (*rest && dist_split_dirs(rest, part))
			return -EINVAL;
		for (int i = 0; *rest && i < DDIR_NR; i++) {
			int ret = dist_zones_dir(&part[i], kb_base, out->kind == DIST_ZONED_ABS, out->zones[i],
						 &out->nr_zones[i], d);

			if (ret)
				return ret;
		}
		/* "zoned:": no zones, uniform (fio accepts it) */
		for (int i = 0; i < DDIR_NR; i++) {	/* fio's --debug=parse lines */
			opt_diag_debug(d, "zone ddir %d (nr=%u): ", i, out->nr_zones[i]);
			for (unsigned z = 0; z < out->nr_zones[i]; z++)
				opt_diag_debug(d, "\t%u: %u/%" PRIu64, z, out->zones[i][z].access_pct,
					       out->zones[i][z].size);
		}
		return 0;
	}
	default:
		break;
	}
	if (rest) {
		const char *c = strchr(rest, ':');
		size_t l = c ? (size_t)(c - rest) : strlen(rest);

		/* fio reads the numbers and what follows each not (zipf:1.2x:0.5m) */
		if (dist_float_lead(rest, l, &out->param) ||
		    (c && dist_float_lead(c + 1, strlen(c + 1), &out->center))) {
			opt_diag_add(d, false, "fio: random postfix parsing failed");
			return -EINVAL;
		}
	}
	if (out->kind == DIST_ZIPF && out->param < 0.0) {	/* fio takes it */
		opt_diag_add(d, false, "fio: zipf theta must not be negative");
		return -EINVAL;
	}
	if (out->kind == DIST_ZIPF && out->param == 1.0) {
		opt_diag_add(d, false, "fio: zipf theta must different than 1.0");
		return -EINVAL;
	}
	if (out->kind == DIST_PARETO && (out->param <= 0.0 || out->param >= 1.0)) {
		opt_diag_add(d, false, "fio: pareto input out of range (0 < input < 1.0)");
		return -EINVAL;
	}
	if (out->kind == DIST_NORMAL && (out->param < 0.0 || out->param >= 100.0)) {
		opt_diag_add(d, false, "fio: normal deviation out of range (0 <= input < 100.0)");
		return -EINVAL;
	}
	/* -1 is fio's "no center" */
	if (out->center != -1.0 && (out->center < 0.0 || out->center > 1.0)) {
		opt_diag_add(d, false, "fio: distribution center out of range (0 <= center <= 1.0)");
		return -EINVAL;
	}
	return 0;
}

/* ---- maths without libm ------------------------------------------------------------------- */

#define DIST_LN2	0.69314718055994530942

double dist_log(double x)
{
	uint64_t bits;
	int e;
	double m, f, f2, s;

	if (!(x > 0))
		return -1e300;
	memcpy(&bits, &x, sizeof(bits));
	e = (int)((bits >> 52) & 0x7ff) - 1023;
	if (e == -1023)		/* subnormal: small enough to call it the floor */
		return -745.0;
	bits = (bits & 0x000fffffffffffffull) | 0x3ff0000000000000ull;
	memcpy(&m, &bits, sizeof(m));	/* m in [1, 2) */
	if (m > 1.4142135623730951) {
		m *= 0.5;
		e++;
	}
	/* log(m) = 2 atanh((m - 1) / (m + 1)), |f| <= 0.1716 */
	f = (m - 1) / (m + 1);
	f2 = f * f;
	s = 1.0 / 19;
	for (int k = 17; k >= 1; k -= 2)
		s = 1.0 / k + f2 * s;
	return e * DIST_LN2 + 2 * f * s;
}

double dist_exp(double x)
{
	double k, r, t, sum;
	int64_t ki;
	uint64_t bits;
	double scale;

	if (x > 709)
		x = 709;
	if (x < -708)
		return 0;
	k = x / DIST_LN2;
	ki = (int64_t)(k < 0 ? k - 0.5 : k + 0.5);
	r = x - (double)ki * DIST_LN2;	/* |r| <= ln2/2 */
	sum = 1;
	t = 1;
	for (int i = 1; i <= 14; i++) {
		t *= r / i;
		sum += t;
	}
	bits = (uint64_t)(ki + 1023) << 52;
	memcpy(&scale, &bits, sizeof(scale));
	return sum * scale;
}

static double dist_pow(double x, double y)
{
	return dist_exp(y * dist_log(x));
}

/* (e^t - 1) / t, and log(1 + t) / t, accurate near 0 */
static double dist_expm1_t(double t)
{
	if (t > -1e-4 && t < 1e-4)
		return 1 + t / 2 + t * t / 6;
	return (dist_exp(t) - 1) / t;
}

static double dist_log1p_t(double t)
{
	if (t > -1e-4 && t < 1e-4)
		return 1 - t / 2 + t * t / 3;
	return dist_log(1 + t) / t;
}

/* ---- generators --------------------------------------------------------------------------- */

/* splitmix64's finalizer: a fixed bijection that scatters popularity ranks over the blocks */
static uint64_t dist_hash(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x;
}

/* uniform double in [0, 1) */
static double dist_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

void dist_gen_init(struct dist_gen *g, const struct dist_rand *spec, int dir)
{
	memset(g, 0, sizeof(*g));
	g->kind = spec->kind;
	g->param = spec->param;
	g->center = spec->center;
	g->hashed = spec->center < 0;	/* zipf, pareto: ranks scattered unless centred */
	if (g->kind == DIST_PARETO)
		g->pareto_pow = dist_log(g->param) / dist_log(1 - g->param);
	if (g->kind == DIST_ZONED || g->kind == DIST_ZONED_ABS) {
		uint64_t start = 0;
		unsigned r = 0;

		g->nr_zones = spec->nr_zones[dir];
		for (unsigned i = 0; i < g->nr_zones; i++) {
			const struct dist_zone *z = &spec->zones[dir][i];

			g->zone_start[i] = start;
			g->zone_len[i] = z->size;
			start += z->size;
			for (uint32_t a = 0; a < z->access_pct && r < 100; a++)
				g->zone_by_r[r++] = (uint16_t)i;
		}
	}
}

uint64_t dist_gen_span_bytes(const struct dist_gen *g)
{
	uint64_t sum = 0;

	if (g->kind != DIST_ZONED_ABS)
		return 0;
	for (unsigned i = 0; i < g->nr_zones; i++)
		sum = sum + g->zone_len[i] < sum ? UINT64_MAX : sum + g->zone_len[i];
	return sum;
}

/* Zipf rank in [1, n] with P(k) ~ k^-theta: rejection-inversion sampling (Hörmann and
 * Derflinger, 1996). H is the integral of x^-theta written with stable helpers. */
static double dist_zipf_h(double x, double q)	/* q = 1 - theta */
{
	double lx = dist_log(x);

	return dist_expm1_t(q * lx) * lx;
}

static double dist_zipf_hinv(double y, double q)
{
	double t = y * q;

	if (t < -1)
		t = -1;
	return dist_exp(dist_log1p_t(t) * y);
}

static uint64_t dist_zipf_rank(struct dist_gen *g, struct rng *r, uint64_t n)
{
	double q = 1 - g->param;

	if (g->zipf_n != n) {
		g->zipf_n = n;
		g->zipf_hx1 = dist_zipf_h(1.5, q) - 1;	/* h(1) = 1 */
		g->zipf_hn = dist_zipf_h((double)n + 0.5, q);
		g->zipf_s = 2 - dist_zipf_hinv(dist_zipf_h(2.5, q) - dist_pow(2, -g->param), q);
	}
	for (;;) {
		double u = g->zipf_hn + dist_unit(r) * (g->zipf_hx1 - g->zipf_hn);
		double x = dist_zipf_hinv(u, q);
		double kd = x + 0.5;
		uint64_t k;

		if (kd < 1)
			kd = 1;
		if (kd > (double)n)
			kd = (double)n;
		k = (uint64_t)kd;
		if ((double)k - x <= g->zipf_s ||
		    u >= dist_zipf_h((double)k + 0.5, q) - dist_pow((double)k, -g->param))
			return k;
	}
}

static uint64_t dist_place(const struct dist_gen *g, uint64_t rank, uint64_t n)
{
	if (g->hashed)
		return dist_hash(rank) % n;
	return (rank + (uint64_t)(g->center * (double)n)) % n;
}

uint64_t dist_gen_block(struct dist_gen *g, struct rng *r, uint64_t nr_blocks, uint64_t unit_bytes)
{
	uint64_t n = nr_blocks ? nr_blocks : 1;

	switch (g->kind) {
	case DIST_ZIPF:
		if (g->param <= 0 || n == 1)
			return rng_below(r, n);
		return dist_place(g, dist_zipf_rank(g, r, n) - 1, n);
	case DIST_PARETO: {
		double v = (double)(n - 1) * dist_pow(dist_unit(r), g->pareto_pow);

		return dist_place(g, (uint64_t)v, n);
	}
	case DIST_NORMAL: {
		double z = 0, c = g->center < 0 ? 0.5 : g->center, v;
		int64_t b;

		if (g->param <= 0)
			return rng_below(r, n);
		/* Irwin-Hall: the sum of 12 uniforms minus 6 is close to a standard normal */
		for (int i = 0; i < 12; i++)
			z += dist_unit(r);
		z -= 6;
		v = c * (double)n + z * g->param / 100.0 * (double)n;
		b = (int64_t)(v < 0 ? v - 1 : v) % (int64_t)n;
		if (b < 0)
			b += (int64_t)n;
		return (uint64_t)b;
	}
	case DIST_ZONED:
	case DIST_ZONED_ABS: {
		unsigned z;
		uint64_t start, len;

		if (g->nr_zones == 0)
			return rng_below(r, n);
		z = g->zone_by_r[rng_below(r, 100)];
		if (g->kind == DIST_ZONED) {
			/* n x pct / 100 without overflow (pct <= 100) */
			start = n / 100 * g->zone_start[z] + n % 100 * g->zone_start[z] / 100;
			len = n / 100 * g->zone_len[z] + n % 100 * g->zone_len[z] / 100;
		} else {
			start = g->zone_start[z] / unit_bytes;
			len = g->zone_len[z] / unit_bytes;
		}
		if (len == 0)
			len = 1;
		start += rng_below(r, len);
		return start < n ? start : n - 1;
	}
	default:
		return rng_below(r, n);
	}
}

/* ---- job setup ---------------------------------------------------------------------------- */

int dist_job_setup(const struct job *job, const bool has_dir[DDIR_NR], const uint64_t bs_min[DDIR_NR],
		   bool random, const uint64_t *io_len, unsigned nr_files,
		   struct dist_bs_pick *pick[DDIR_NR], struct dist_gen *gen[DDIR_NR], struct iops_err *err)
{
	struct dist_bssplit *s = NULL;
	struct dist_rand *spec = NULL;
	bool present[DDIR_NR];
	int ret = -ENOMEM;

	for (int d = 0; d < DDIR_NR; d++) {
		pick[d] = NULL;
		gen[d] = NULL;
	}
	if (job->bssplit) {
		s = calloc(DDIR_NR, sizeof(*s));
		if (!s)
			goto fail;
		if (dist_bssplit_parse(job->bssplit, job->bssplit_kb_base == 1000 ? 1000 : 1024, s, present, NULL))
			goto bad;
		for (int d = 0; d < DDIR_NR; d++) {
			if (!has_dir[d] || !present[d])
				continue;
			pick[d] = malloc(sizeof(*pick[d]));
			if (!pick[d])
				goto fail;
			dist_bs_pick_init(pick[d], &s[d], bs_min[d], job->bs_unaligned);
		}
	}
	if (job->random_distribution && random) {
		spec = calloc(1, sizeof(*spec));
		if (!spec)
			goto fail;
		if (dist_rand_parse(job->random_distribution, job->random_distribution_kb_base == 1000 ? 1000 : 1024,
				    spec, NULL))
			goto bad;
		for (int d = 0; spec->kind != DIST_RANDOM && d < DDIR_NR; d++) {
			if (!has_dir[d])
				continue;
			gen[d] = malloc(sizeof(*gen[d]));
			if (!gen[d])
				goto fail;
			dist_gen_init(gen[d], spec, d);
			for (unsigned i = 0; i < nr_files; i++)
				if (dist_gen_span_bytes(gen[d]) > io_len[i]) {
					iops_err_set(err, EINVAL, "fio: zoned_abs sizes exceed file size");
					ret = -EINVAL;
					goto cleanup;
				}
		}
	}
	free(s);
	free(spec);
	return 0;

bad:
	iops_err_set(err, EINVAL, "fio: %s: invalid bssplit or random_distribution", job->name);
	ret = -EINVAL;
	goto cleanup;
fail:
	iops_err_set(err, ENOMEM, "fio: %s: out of memory", job->name);
cleanup:
	for (int d = 0; d < DDIR_NR; d++) {
		free(pick[d]);
		free(gen[d]);
		pick[d] = NULL;
		gen[d] = NULL;
	}
	free(s);
	free(spec);
	return ret;
}
