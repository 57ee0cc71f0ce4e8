/* SPDX-License-Identifier: MIT */
/* dist: block-size mixes (bssplit) and non-uniform random offsets (random_distribution),
 * fio 3.33's syntax and rules (its documentation and --cmdhelp, and observed behaviour).
 *
 * bssplit=4k/10:64k/50:32k/40[,writes[,trims]]
 *   Up to 64 size/percentage pairs per direction; a blank (or 0) percentage shares what the
 *   others leave of 100. The table is kept sorted by percentage (ascending, stable) and a
 *   raw draw r takes the first entry whose running sum s has r / s <= max / 100 and whose
 *   size fits the room left; past the end of the sums the last entry is taken (so a sum
 *   below 100 gives the rest to the last entry). Sizes are rounded down to a multiple of the
 *   smallest size (unless bs_unaligned), as fio 3.33 does.
 *
 * random_distribution=random|zipf[:theta[:center]]|pareto[:h[:center]]|normal[:dev[:center]]
 *                     |zoned:a/s:...[,w[,t]]|zoned_abs:a/size:...[,w[,t]]
 *   zipf and pareto draw a popularity rank and spread it over the blocks with a fixed hash
 *   (or shift it to center x blocks when a center is given); normal draws around
 *   center x blocks (0.5 default) with a deviation of dev% of the blocks; zoned puts a% of the
 *   accesses into a zone of s% of the range (zoned_abs: of size bytes), zones laid end to end.
 *   Every draw comes from the caller's generator: deterministic from the job's seed.
 *
 * Parsers report fio's message lines into an opt_diag (may be NULL) and return -EINVAL; the
 * caller adds "fio: failed parsing ...". Pure, no global state; per-I/O functions do not
 * allocate. */
#ifndef IOPS_DIST_H
#define IOPS_DIST_H

#include <stdbool.h>
#include <stdint.h>

#include "core/err.h"
#include "core/frand.h"
#include "fio/job.h"
#include "fio/opt_diag.h"
#include "core/rng.h"

#define DIST_BSSPLIT_MAX	64	/* fio's BSSPLIT_MAX */
#define DIST_ZONES_MAX		256	/* fio's ZONESPLIT_MAX */

struct dist_bs {
	uint64_t bs;
	uint32_t perc;		/* after the blank-share rule: may wrap as fio's unsigned sum does */
};

/* One direction's parsed bssplit list, in fio's order (sorted by percentage). */
struct dist_bssplit {
	unsigned nr;
	uint64_t bs_min, bs_max;
	struct dist_bs e[DIST_BSSPLIT_MAX];
};

/* Parse a bssplit value. present[d] is false for a direction whose list is empty (it keeps
 * the job's bs). Returns 0 or -EINVAL (fio's line in d). */
int dist_bssplit_parse(const char *val, unsigned kb_base, struct dist_bssplit out[DDIR_NR],
		       bool present[DDIR_NR], struct opt_diag *d);

/* Per-I/O picker built from one direction's list. */
struct dist_bs_pick {
	unsigned nr;			/* entries with a percentage > 0 */
	uint64_t min_sel, max_sel;	/* smallest / largest of those sizes */
	uint64_t bs[DIST_BSSPLIT_MAX];	/* sizes as given (rounded when picked) */
	uint64_t cum[DIST_BSSPLIT_MAX];	/* running sum of the percentages */
	uint64_t unit;			/* the direction's smallest size: the rounding unit */
	bool unaligned;			/* bs_unaligned: no rounding */
};

/* min_bs: the direction's smallest size (rounding unit); unaligned: bs_unaligned. */
void dist_bs_pick_init(struct dist_bs_pick *p, const struct dist_bssplit *s, uint64_t min_bs,
		       bool unaligned);

/* A size that fits in room bytes, 0 when no entry can: fio 3.33's draw from its block-size
 * generator r (one raw draw per try, tried again while the size does not fit). */
uint64_t dist_bs_pick(const struct dist_bs_pick *p, struct frand *r, uint64_t room);

enum dist_kind { DIST_RANDOM, DIST_ZIPF, DIST_PARETO, DIST_NORMAL, DIST_ZONED, DIST_ZONED_ABS };

struct dist_zone {
	uint32_t access_pct;
	uint64_t size;		/* zoned: % of the range; zoned_abs: bytes */
};

struct dist_rand {
	enum dist_kind kind;
	double param;		/* theta, h or dev% */
	double center;		/* < 0: none */
	unsigned nr_zones[DDIR_NR];
	struct dist_zone zones[DDIR_NR][DIST_ZONES_MAX];
};

/* A strict decimal number of len bytes (digits, one '.', a leading '-'): 0 or -EINVAL. */
int dist_float(const char *s, size_t len, double *out);

/* The number at the start of len bytes, as fio reads a distribution's parameter: what
 * follows it is not read (1.2x is 1.2), but there must be one, and no ','. 0 or -EINVAL. */
int dist_float_lead(const char *s, size_t len, double *out);

/* Parse a random_distribution value (out is about 12 KB: heap). 0 or -EINVAL. */
int dist_rand_parse(const char *val, unsigned kb_base, struct dist_rand *out, struct opt_diag *d);

/* Per-direction generator. */
struct dist_gen {
	enum dist_kind kind;
	double param, center;
	bool hashed;
	double pareto_pow;
	uint64_t zipf_n;		/* block count the zipf constants below are for */
	double zipf_hx1, zipf_hn, zipf_s;
	unsigned nr_zones;
	uint16_t zone_by_r[100];
	uint64_t zone_start[DIST_ZONES_MAX];	/* % of the range x 2^32 / 100, or bytes */
	uint64_t zone_len[DIST_ZONES_MAX];
};

/* Build the generator of direction dir. */
void dist_gen_init(struct dist_gen *g, const struct dist_rand *spec, int dir);

/* zoned_abs: bytes the zones cover (checked against each file's range). */
uint64_t dist_gen_span_bytes(const struct dist_gen *g);

/* A block in [0, nr_blocks) of unit_bytes each (nr_blocks >= 1). */
uint64_t dist_gen_block(struct dist_gen *g, struct rng *r, uint64_t nr_blocks, uint64_t unit_bytes);

/* Build the pickers and generators a job needs (the offgen's setup): pick[d] / gen[d] are
 * malloc'ed for the used directions that have a list / a non-uniform distribution, NULL
 * otherwise. Returns 0, -EINVAL (zoned_abs larger than a file's range: err filled),
 * -ENOMEM (err filled); nothing stays allocated on error. */
int dist_job_setup(const struct job *job, const bool has_dir[DDIR_NR], const uint64_t bs_min[DDIR_NR],
		   bool random, const uint64_t *io_len, unsigned nr_files,
		   struct dist_bs_pick *pick[DDIR_NR], struct dist_gen *gen[DDIR_NR], struct iops_err *err);

/* Small libm-free helpers (exported for the unit tests). */
double dist_log(double x);
double dist_exp(double x);

#endif
