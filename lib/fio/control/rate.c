/* SPDX-License-Identifier: MIT */
#include "fio/control/rate.h"

#include <string.h>
#include <stdio.h>

#define NS_PER_S	1000000000ull
#define NS_PER_MS	1000000ull

static bool rate_dir_used(const struct job *job, int d)
{
	return (d == DDIR_READ && job->rw_has_read) || (d == DDIR_WRITE && job->rw_has_write);
}

/* Bytes per second of direction d: rate= wins over rate_iops= x smallest bs (saturating). */
static uint64_t rate_dir_bps(const struct job *job, int d)
{
	uint64_t bs = job->bs_min[d] ? job->bs_min[d] : 1;

	if (!rate_dir_used(job, d))
		return 0;
	if (job->rate_bps[d])
		return job->rate_bps[d];
	if (job->rate_iops[d] > UINT64_MAX / bs)
		return UINT64_MAX;
	return job->rate_iops[d] * bs;
}

bool rate_enabled(const struct job *job)
{
	return rate_dir_bps(job, DDIR_READ) || rate_dir_bps(job, DDIR_WRITE);
}

void rate_init(struct rate *r, const struct job *job, uint64_t seed)
{
	*r = (struct rate){ .poisson = job->rate_poisson };
	for (int d = 0; d < 2; d++) {
		int o = d ^ 1;

		r->bps[d] = rate_dir_bps(job, d);
		r->min_bs[d] = job->bs_min[d] ? job->bs_min[d] : 1;
		/* fio switches only when the mix also issues the other direction */
		r->can_switch[d] = job->rw_has_read && job->rw_has_write &&
				   (o == DDIR_READ ? job->rwmixread > 0 : job->rwmixread < 100);
	}
	rng_init(&r->rng, seed);
}

uint64_t rate_ns_for_bytes(uint64_t bytes, uint64_t bps)
{
	uint64_t secs, rem;

	if (!bps)
		return 0;
	secs = bytes / bps;
	rem = bytes % bps;
	if (secs >= UINT64_MAX / NS_PER_S)
		return UINT64_MAX;
	/* rem < bps, so the quotient is below 1e9: no overflow with a 128-bit product */
	return secs * NS_PER_S + (uint64_t)((unsigned __int128)rem * NS_PER_S / bps);
}

enum ddir rate_pick(const struct rate *r, enum ddir d, uint64_t now_ns, uint64_t *until_ns)
{
	enum ddir o;

	*until_ns = 0;
	if ((unsigned)d > DDIR_WRITE || r->next_ns[d] <= now_ns)
		return d;
	o = d == DDIR_READ ? DDIR_WRITE : DDIR_READ;
	if (r->can_switch[d]) {
		if (r->next_ns[o] <= now_ns)
			return o;
		if (r->next_ns[o] < r->next_ns[d])
			d = o;
	}
	*until_ns = r->next_ns[d];
	return d;
}

/* -ln(u) for u in (0, 1], without libm (its log tables cost 5 KB of a 256 KiB binary):
 * u = m x 2^e with m in [1, 2), ln(m) = 2 atanh(s), s = (m - 1) / (m + 1) <= 1/3. */
static double rate_neg_ln(double u)
{
	uint64_t bits;
	int e;
	double m, s, s2, term, sum = 0;

	memcpy(&bits, &u, sizeof(bits));
	e = (int)((bits >> 52) & 0x7ff) - 1023;
	bits = (bits & 0xfffffffffffffull) | 0x3ff0000000000000ull;
	memcpy(&m, &bits, sizeof(m));
	s = (m - 1) / (m + 1);
	s2 = s * s;
	term = s;
	for (int k = 1; k < 40; k += 2) {	/* s^41 < 1e-19 */
		sum += term / k;
		term *= s2;
	}
	return -((double)e * 0.69314718055994530942 + 2 * sum);
}

/* An exponential gap with mean 1/iops seconds, in ns. */
static uint64_t rate_poisson_gap(struct rate *r, int d)
{
	uint64_t iops = r->bps[d] / r->min_bs[d];
	/* uniform in (0, 1]: -log() stays finite */
	double u = (double)((rng_next(&r->rng) >> 11) + 1) * (1.0 / 9007199254740992.0);
	double gap = (double)(NS_PER_S / (iops ? iops : 1)) * rate_neg_ln(u);

	return gap >= 1.8e19 ? UINT64_MAX / 2 : (uint64_t)gap;
}

static void rate_update(struct rate *r, int d)
{
	if (r->poisson)
		r->next_ns[d] = r->poisson_ns[d];
	else
		r->next_ns[d] = rate_ns_for_bytes(r->issued_bytes[d], r->bps[d]);
}

void rate_issued(struct rate *r, enum ddir d, uint64_t bytes)
{
	if ((unsigned)d > DDIR_WRITE || !r->bps[d])
		return;
	r->issued_bytes[d] = bytes > UINT64_MAX - r->issued_bytes[d] ? UINT64_MAX : r->issued_bytes[d] + bytes;
	if (r->poisson) {
		uint64_t gap = rate_poisson_gap(r, d);

		r->poisson_ns[d] = gap > UINT64_MAX - r->poisson_ns[d] ? UINT64_MAX : r->poisson_ns[d] + gap;
	}
	rate_update(r, d);
}

void rate_credit(struct rate *r, enum ddir d, uint64_t idle_ns)
{
	uint64_t missed, op_ns, over;

	if ((unsigned)d > DDIR_WRITE || !r->bps[d] || !idle_ns)
		return;
	/* the bytes the job would have moved meanwhile, less one block so that it issues at once */
	missed = (uint64_t)((unsigned __int128)r->bps[d] * idle_ns / NS_PER_S);
	op_ns = rate_ns_for_bytes(r->min_bs[d], r->bps[d]);
	over = op_ns <= idle_ns ? r->min_bs[d] : 0;
	missed = missed > over ? missed - over : 0;
	r->issued_bytes[d] = missed > UINT64_MAX - r->issued_bytes[d] ? UINT64_MAX : r->issued_bytes[d] + missed;
	r->poisson_ns[d] = idle_ns > UINT64_MAX - r->poisson_ns[d] ? UINT64_MAX : r->poisson_ns[d] + idle_ns;
	rate_update(r, d);
}

/* ---- minimum rates ---------------------------------------------------------------------- */

bool rate_min_enabled(const struct job *job)
{
	for (int d = 0; d < 2; d++)
		if (rate_dir_used(job, d) && (job->rate_min_bps[d] || job->rate_iops_min[d]))
			return true;
	return false;
}

void rate_min_init(struct rate_min *m, const struct job *job)
{
	*m = (struct rate_min){ .cycle_ms = job->rate_cycle_ms };
	for (int d = 0; d < 2; d++) {
		if (!rate_dir_used(job, d))
			continue;
		m->min_bps[d] = job->rate_min_bps[d];
		m->min_iops[d] = job->rate_iops_min[d];
	}
}

bool rate_min_failed(struct rate_min *m, const char *job_name, enum ddir d, uint64_t since_start_ns,
		     uint64_t bytes, uint64_t ios, char *msg, size_t len)
{
	uint64_t now_ms = since_start_ns / NS_PER_MS, spent;

	if ((unsigned)d > DDIR_WRITE || (!m->min_bps[d] && !m->min_iops[d]) || !bytes ||
	    since_start_ns < RATE_SETTLE_NS)
		return false;
	if (m->last_bytes[d] || m->last_ios[d]) {
		spent = now_ms > m->last_ms[d] ? now_ms - m->last_ms[d] : 0;
		if (spent < m->cycle_ms)
			return false;
		if (m->min_bps[d]) {
			uint64_t got = spent && bytes > m->last_bytes[d] ? (bytes - m->last_bytes[d]) * 1000 / spent : 0;

			if (got < m->min_bps[d]) {
				snprintf(msg, len, "%s: rate_min=%lluB/s not met, got %lluB/s", job_name,
					 (unsigned long long)m->min_bps[d], (unsigned long long)got);
				return true;
			}
		} else if (ios < m->min_iops[d]) {
			/* fio compares the I/Os done so far with the minimum rate here */
			snprintf(msg, len, "%s: rate_iops_min=%llu not met, only performed %llu IOs", job_name,
				 (unsigned long long)m->min_iops[d], (unsigned long long)ios);
			return true;
		} else {
			uint64_t got = spent && ios > m->last_ios[d] ? (ios - m->last_ios[d]) * 1000 / spent : 0;

			if (got < m->min_iops[d]) {
				snprintf(msg, len, "%s: rate_iops_min=%llu not met, got %llu IOPS", job_name,
					 (unsigned long long)m->min_iops[d], (unsigned long long)got);
				return true;
			}
		}
	}
	m->last_bytes[d] = bytes;
	m->last_ios[d] = ios;
	m->last_ms[d] = now_ms;
	return false;
}

/* ---- think time ------------------------------------------------------------------------- */

bool rate_think_due(const struct job *job, uint64_t blocks, uint64_t last_blocks, uint64_t since_think_ns)
{
	if (job->thinktime_iotime_ns) {
		uint64_t period = job->thinktime_iotime_ns + job->thinktime_ns;

		if (since_think_ns >= period)
			return true;
		/* with thinktime_iotime, thinktime_blocks counts only when given */
		if (!job->thinktime_blocks_set)
			return false;
	}
	return blocks >= last_blocks && blocks - last_blocks >= job->thinktime_blocks;
}
