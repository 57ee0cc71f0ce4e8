/* SPDX-License-Identifier: MIT */
/* steadystate: criteria, windows and the shared state of a unit (fio/control/steadystate.h). */
#include "fio/control/steadystate.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/parse.h"
#include "fio/optval.h"

/* ---- parsing ----------------------------------------------------------------------------- */

/* A threshold as fio's str_to_float() reads it: strtod of the text, which must read at least
 * one character (what follows it is ignored: "1x" is 1). */
static bool ss_float(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s)
		return false;
	*out = v;
	return true;
}

/* As fio 3.33's str_steadystate_cb(): the criterion is the word up to the first ',' (else
 * ':'); the threshold is what follows the first ':'. With a '%' in it, the text before the
 * '%' (trailing blanks off) is a percentage; else an IOPS number, or a bandwidth read as a
 * size (fio's number syntax, kb_base). */
int ss_parse(const char *val, unsigned kb_base, struct job_ss *ss)
{
	static const struct { const char *word; bool iops, slope; } crit[] = {
		{ "iops", true, false }, { "iops_slope", true, true },
		{ "bw", false, false }, { "bw_slope", false, true },
	};
	const char *lim, *pct;
	struct job_ss n = *ss;
	unsigned i;

	if (!val)
		return SS_E_CRITERION;
	for (i = 0; i < sizeof(crit) / sizeof(crit[0]); i++)
		if (optval_word_match(crit[i].word, val))
			break;
	if (i == sizeof(crit) / sizeof(crit[0]))
		return SS_E_CRITERION;
	lim = strchr(val, ':');
	if (!lim)
		return SS_E_NO_LIMIT;
	lim++;
	n.iops = crit[i].iops;
	n.slope = crit[i].slope;
	pct = strchr(lim, '%');
	if (pct) {
		char buf[128];
		size_t l = (size_t)(pct - lim);

		if (l >= sizeof(buf))
			l = sizeof(buf) - 1;
		memcpy(buf, lim, l);
		while (l && (buf[l - 1] == ' ' || buf[l - 1] == '\t'))
			l--;
		buf[l] = '\0';
		if (!ss_float(buf, &n.limit))
			return SS_E_PCT_LIMIT;
		n.pct = true;
	} else if (n.iops) {
		if (!ss_float(lim, &n.limit))
			return SS_E_IOPS_LIMIT;
		n.pct = false;
	} else {
		int64_t b;

		if (optval_decimal(lim, kb_base, &b))
			return SS_E_BW_LIMIT;
		n.limit = (double)b;
		n.pct = false;
	}
	*ss = n;
	return 0;
}

void ss_parse_debug_line(const struct job_ss *ss, char *buf, size_t n)
{
	if (ss->pct)
		snprintf(buf, n, "set steady state threshold to %f%%", ss->limit);
	else if (ss->iops)
		snprintf(buf, n, "set steady state IOPS threshold to %f", ss->limit);
	else
		snprintf(buf, n, "set steady state BW threshold to %lld", (long long)ss->limit);
}

unsigned ss_window(const struct job_ss *ss)
{
	uint64_t n = ss->dur_ns / SS_CHECK_NS;

	return n < 1 ? 1 : n > SS_MAX_WINDOW ? SS_MAX_WINDOW : (unsigned)n;
}

/* ---- judging a window --------------------------------------------------------------------- */

void ss_evaluate(const struct job_ss *ss, const uint64_t *bw, const uint64_t *iops, unsigned n,
		 struct ss_eval *out)
{
	const uint64_t *y = ss->iops ? iops : bw;
	double sum = 0, mean;

	memset(out, 0, sizeof(*out));
	if (!n)
		return;
	for (unsigned i = 0; i < n; i++)
		sum += (double)y[i];
	mean = sum / n;
	out->mean = mean;
	if (ss->slope) {
		/* least squares over x = 0..n-1: sum((x - xm) * y) / sum((x - xm)^2) */
		double xm = (n - 1) / 2.0, sxy = 0, sxx = 0;

		for (unsigned i = 0; i < n; i++) {
			sxy += (i - xm) * (double)y[i];
			sxx += (i - xm) * (i - xm);
		}
		out->slope = sxx > 0 ? sxy / sxx : 0;
		out->criterion = out->slope;
	} else {
		for (unsigned i = 0; i < n; i++) {
			double dev = fabs((double)y[i] - mean);

			if (dev > out->deviation)
				out->deviation = dev;
		}
		out->criterion = out->deviation;
	}
	if (ss->pct) {
		if (mean <= 0) {	/* nothing moved: never steady (fio divides by zero) */
			out->criterion = 0;
			return;
		}
		out->criterion = 100.0 * out->criterion / mean;
	}
	out->attained = fabs(out->criterion) < ss->limit;
}

/* ---- a unit's shared state --------------------------------------------------------------- */

/* The unit's arrays freed, the unit zeroed (its lock aside: ss_unit_release's). */
static void ss_unit_free(struct ss_unit *u)
{
	free(u->active);
	free(u->fresh);
	free(u->last_bw);
	free(u->last_iops);
	free(u->bw);
	free(u->iops);
	free(u->scratch);
	memset(u, 0, sizeof(*u));
}

int ss_unit_init(struct ss_unit *u, const struct job_ss *cfg, unsigned nr_members)
{
	size_t m = nr_members ? nr_members : 1;

	memset(u, 0, sizeof(*u));
	u->cfg = cfg;
	u->nr_members = nr_members;
	u->nr = ss_window(cfg);
	u->active = calloc(m, sizeof(*u->active));
	u->fresh = calloc(m, sizeof(*u->fresh));
	u->last_bw = calloc(m, sizeof(*u->last_bw));
	u->last_iops = calloc(m, sizeof(*u->last_iops));
	u->bw = calloc(u->nr, sizeof(*u->bw));
	u->iops = calloc(u->nr, sizeof(*u->iops));
	u->scratch = calloc(2 * (size_t)u->nr, sizeof(*u->scratch));
	if (!u->scratch || !u->active || !u->fresh || !u->last_bw || !u->last_iops || !u->bw || !u->iops ||
	    pthread_mutex_init(&u->lock, NULL)) {
		ss_unit_free(u);
		return -ENOMEM;
	}
	atomic_init(&u->attained, false);
	return 0;
}

void ss_unit_release(struct ss_unit *u)
{
	if (!u->active)
		return;
	pthread_mutex_destroy(&u->lock);
	ss_unit_free(u);
}

/* The window, oldest first, into bw/iops (nr entries; zeros where no sample came yet). */
static void ss_unit_window(const struct ss_unit *u, uint64_t *bw, uint64_t *iops)
{
	for (unsigned i = 0; i < u->nr; i++) {
		unsigned k = (u->head + i) % u->nr;

		bw[i] = i < u->count ? u->bw[k] : 0;
		iops[i] = i < u->count ? u->iops[k] : 0;
	}
}

struct ss_result *ss_unit_result(struct ss_unit *u)
{
	struct ss_result *r = calloc(1, sizeof(*r) + 2 * (size_t)u->nr * sizeof(uint64_t));

	if (!r)
		return NULL;
	r->nr = u->nr;
	r->bw = (uint64_t *)(r + 1);
	r->iops = r->bw + u->nr;
	pthread_mutex_lock(&u->lock);
	ss_unit_window(u, r->bw, r->iops);
	r->attained = ss_unit_attained(u);
	r->full = u->full;
	r->criterion = u->eval.criterion;
	r->slope = u->eval.slope;
	r->deviation = u->eval.deviation;
	pthread_mutex_unlock(&u->lock);
	return r;
}

/* Under the lock: when every active member has a new value, their sum is the next sample. */
static void ss_unit_round(struct ss_unit *u)
{
	uint64_t bw = 0, iops = 0;
	unsigned nr_active = 0;

	for (unsigned i = 0; i < u->nr_members; i++) {
		if (!u->active[i])
			continue;
		if (!u->fresh[i])
			return;
		nr_active++;
		bw += u->last_bw[i];
		iops += u->last_iops[i];
	}
	if (!nr_active || ss_unit_attained(u))
		return;
	for (unsigned i = 0; i < u->nr_members; i++)
		u->fresh[i] = false;
	if (u->count < u->nr) {
		unsigned k = (u->head + u->count) % u->nr;

		u->bw[k] = bw;
		u->iops[k] = iops;
		u->count++;
	} else {
		u->bw[u->head] = bw;
		u->iops[u->head] = iops;
		u->head = (u->head + 1) % u->nr;
	}
	if (u->count == u->nr) {
		uint64_t *wb = u->scratch;

		ss_unit_window(u, wb, wb + u->nr);
		ss_evaluate(u->cfg, wb, wb + u->nr, u->nr, &u->eval);
		u->full = true;
		if (u->eval.attained)
			atomic_store_explicit(&u->attained, true, memory_order_relaxed);
	}
}

void ss_member_start(struct ss_member *m, struct ss_unit *u, unsigned idx, uint64_t now)
{
	memset(m, 0, sizeof(*m));
	m->u = u;
	m->idx = idx;
	m->start_ns = m->prev_ns = now;
	m->next_ns = now + SS_CHECK_NS;
	if (!u->cfg->ramp_ns) {
		m->ramp_over = true;
		pthread_mutex_lock(&u->lock);
		u->active[idx] = true;
		pthread_mutex_unlock(&u->lock);
	}
}

static uint64_t ss_rate(uint64_t delta, uint64_t ns)
{
	double v = (double)delta * 1e9 / (double)ns;

	return v >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)v;
}

void ss_member_tick(struct ss_member *m, uint64_t now, uint64_t bytes, uint64_t ios)
{
	struct ss_unit *u = m->u;
	uint64_t ns = now > m->prev_ns ? now - m->prev_ns : 1;

	/* the next check one interval on, or from now when this one came more than one late */
	m->next_ns = now - m->next_ns < SS_CHECK_NS ? m->next_ns + SS_CHECK_NS : now + SS_CHECK_NS;
	pthread_mutex_lock(&u->lock);
	if (!m->ramp_over) {
		if (now - m->start_ns >= u->cfg->ramp_ns) {
			m->ramp_over = true;
			u->active[m->idx] = true;
		}
	} else if (u->active[m->idx]) {
		u->last_bw[m->idx] = ss_rate(bytes >= m->prev_bytes ? bytes - m->prev_bytes : 0, ns);
		u->last_iops[m->idx] = ss_rate(ios >= m->prev_ios ? ios - m->prev_ios : 0, ns);
		u->fresh[m->idx] = true;
		ss_unit_round(u);
	}
	pthread_mutex_unlock(&u->lock);
	m->prev_ns = now;
	m->prev_bytes = bytes;
	m->prev_ios = ios;
}

void ss_member_reset(struct ss_member *m, uint64_t now)
{
	(void)now;
	m->prev_bytes = 0;
	m->prev_ios = 0;
}

void ss_member_exit(struct ss_member *m)
{
	struct ss_unit *u = m->u;

	if (!u)
		return;
	pthread_mutex_lock(&u->lock);
	u->active[m->idx] = false;
	u->fresh[m->idx] = false;
	ss_unit_round(u);
	pthread_mutex_unlock(&u->lock);
}
