/* SPDX-License-Identifier: MIT */
#include "fio/data/verify_log.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void verify_log_init(struct verify_log *l, bool overlap, uint64_t backlog, uint64_t batch)
{
	memset(l, 0, sizeof(*l));
	l->overlap = overlap;
	l->backlog = backlog;
	l->batch = batch ? batch : backlog;
}

void verify_log_release(struct verify_log *l)
{
	free(l->ent);
	l->ent = NULL;
	l->head = l->nr = l->cap = 0;
}

/* Room for one more entry at the end: move the pending ones to the front when that frees at
 * least half of the array, else grow it. */
static int log_room(struct verify_log *l)
{
	size_t cap;
	struct verify_ent *n;

	if (l->nr < l->cap)
		return 0;
	if (l->head && l->head >= l->cap / 2) {
		memmove(l->ent, l->ent + l->head, (l->nr - l->head) * sizeof(*l->ent));
		l->nr -= l->head;
		l->head = 0;
		return 0;
	}
	cap = l->cap ? l->cap * 2 : 1024;
	n = cap > SIZE_MAX / sizeof(*n) ? NULL : realloc(l->ent, cap * sizeof(*n));
	if (!n)
		return -ENOMEM;
	l->ent = n;
	l->cap = cap;
	return 0;
}

static bool ent_before(const struct verify_ent *a, uint32_t file, uint64_t offset)
{
	return a->file != file ? a->file < file : a->offset < offset;
}

/* Sorted insert: drop the pending blocks e covers, put e in their place. */
static void log_insert_sorted(struct verify_log *l, const struct verify_ent *e)
{
	size_t lo = l->head, hi = l->nr, from, to;

	while (lo < hi) {	/* first entry not before e */
		size_t mid = lo + (hi - lo) / 2;

		if (ent_before(&l->ent[mid], e->file, e->offset))
			lo = mid + 1;
		else
			hi = mid;
	}
	from = lo;
	/* pending entries never overlap each other: their ends are sorted too */
	while (from > l->head && l->ent[from - 1].file == e->file &&
	       l->ent[from - 1].offset + l->ent[from - 1].len > e->offset)
		from--;
	to = lo;
	while (to < l->nr && l->ent[to].file == e->file && l->ent[to].offset < e->offset + e->len)
		to++;
	if (to != from + 1)
		memmove(l->ent + from + 1, l->ent + to, (l->nr - to) * sizeof(*l->ent));
	l->nr = l->nr + 1 - (to - from);
	l->ent[from] = *e;
}

int verify_log_add(struct verify_log *l, const struct verify_ent *e)
{
	if (log_room(l))
		return -ENOMEM;
	if (l->overlap && l->backlog)
		log_insert_sorted(l, e);
	else
		l->ent[l->nr++] = *e;
	return 0;
}

bool verify_log_pop(struct verify_log *l, struct verify_ent *out)
{
	for (;;) {
		if (l->head == l->nr)
			return false;
		*out = l->ent[l->head++];
		if (l->head == l->nr)
			l->head = l->nr = 0;
		if (!(out->flags & VERIFY_ENT_DROPPED))
			return true;
		l->dropped--;
	}
}

struct verify_ent *verify_log_find(struct verify_log *l, uint64_t seq)
{
	size_t lo = l->head, hi = l->nr;

	if (l->overlap && l->backlog) {	/* sorted by place */
		for (size_t i = lo; i < hi; i++)
			if (l->ent[i].seq == seq)
				return &l->ent[i];
		return NULL;
	}
	while (lo < hi) {	/* write order: seq grows */
		size_t mid = lo + (hi - lo) / 2;

		if (l->ent[mid].seq < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < l->nr && l->ent[lo].seq == seq ? &l->ent[lo] : NULL;
}

bool verify_log_backlog_next(struct verify_log *l, bool last_read, struct verify_ent *out)
{
	size_t n = verify_log_pending(l);

	if (!l->backlog || !n)
		return false;
	if (!l->left) {
		if (n % l->backlog || last_read)
			return false;
		l->left = l->batch;
	}
	l->left--;
	return verify_log_pop(l, out);
}

void verify_log_phase(struct verify_log *l)
{
	l->left = 0;
	if (!l->overlap || l->backlog)
		return;	/* in write order, or sorted already */
	if (l->head) {
		memmove(l->ent, l->ent + l->head, (l->nr - l->head) * sizeof(*l->ent));
		l->nr -= l->head;
		l->head = 0;
	}
	l->nr = verify_log_sort(l->ent, l->nr);
	l->dropped = 0;
	for (size_t i = 0; i < l->nr; i++)
		l->dropped += (l->ent[i].flags & VERIFY_ENT_DROPPED) != 0;
}
