/* SPDX-License-Identifier: MIT */
#include "fio/control/lattarget.h"

#include <string.h>

void lat_target_init(struct lat_target *lt, const struct job *job, unsigned max_qd, uint64_t now, uint64_t ios)
{
	memset(lt, 0, sizeof(*lt));
	lt->target_ns = job->lat_target_ns;
	lt->window_ns = job->lat_window_ns;
	lt->pct = job->lat_pct;
	lt->keep_going = job->lat_run;
	lt->max_qd = max_qd ? max_qd : 1;
	lt->qd = lt->low = 1;
	lt->high = lt->max_qd;
	lat_target_cycle(lt, now, ios);
}

void lat_target_cycle(struct lat_target *lt, uint64_t now, uint64_t ios)
{
	lt->t0_ns = now;
	lt->ios0 = ios;
	lt->failed = 0;
}

/* Too slow at this depth: bisect down towards the deepest one that passed. */
static enum lat_target_act lat_target_down(struct lat_target *lt)
{
	if (lt->qd <= 1)
		return LAT_TARGET_FATAL;
	lt->high = lt->qd;
	if (lt->qd == lt->low)
		lt->low--;
	lt->qd = (lt->qd + lt->low) / 2;
	return LAT_TARGET_DOWN;
}

/* Fast enough: double up until a depth fails, then bisect up towards it. */
static enum lat_target_act lat_target_up(struct lat_target *lt)
{
	unsigned was = lt->qd;

	lt->low = lt->qd;
	if (lt->high != lt->max_qd)
		lt->qd = (lt->qd + lt->high) / 2;
	else
		lt->qd = lt->qd > lt->max_qd / 2 ? lt->max_qd : lt->qd * 2;
	if (lt->qd > lt->max_qd)
		lt->qd = lt->max_qd;
	if (lt->qd != was || lt->keep_going)
		return LAT_TARGET_CYCLE;
	if (lt->final_run)
		return LAT_TARGET_DONE;
	lt->final_run = true;
	return LAT_TARGET_FINAL;
}

enum lat_target_act lat_target_slow(struct lat_target *lt)
{
	if (lt->pct < 100.0) {
		lt->failed++;
		return LAT_TARGET_NONE;
	}
	return lat_target_down(lt);
}

enum lat_target_act lat_target_check(struct lat_target *lt, uint64_t now, uint64_t ios)
{
	uint64_t n;

	if (now < lt->t0_ns || now - lt->t0_ns < lt->window_ns)
		return LAT_TARGET_NONE;
	n = ios > lt->ios0 ? ios - lt->ios0 : 0;
	if (!n) {
		/* nothing completed in the window: no share to judge, as a failed one */
		lt->last_rate = 0;
		return lt->qd > 1 ? lat_target_down(lt) : LAT_TARGET_NONE;
	}
	lt->last_rate = (double)(n - (lt->failed < n ? lt->failed : n)) * 100.0 / (double)n;
	if (lt->last_rate >= lt->pct)
		return lat_target_up(lt);
	/* at depth 1 there is nowhere to go: the window goes on */
	return lt->qd > 1 ? lat_target_down(lt) : LAT_TARGET_NONE;
}
