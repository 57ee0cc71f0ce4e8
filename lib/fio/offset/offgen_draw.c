/* offgen_draw: the draws only some jobs make for each I/O, off HOT_SRCS (built for size, as
 * the non-uniform distributions are): a size from a range or a split (bsrange, bssplit) and a
 * zoned / zoned_abs offset (fio/offset/offgen.h). */
#include "fio/offset/offgen.h"

/* offgen_len() when the sizes vary (bsrange, bssplit): fio's get_next_buflen(), min + max * u
 * rounded down to a multiple of min and capped at max, drawn again until it fits. */
uint64_t offgen_len_range(struct offgen *og, int d, uint64_t room)
{
	uint64_t lo = og->bs_min[d], hi = og->bs_max[d];

	if (og->bs_pick[d])	/* dist: bssplit */
		return dist_bs_pick(og->bs_pick[d], &og->fr_bs[d], room);
	for (unsigned tries = 0; tries < 4096; tries++) {
		double u = (double)frand_next(&og->fr_bs[d]) / frand_range(&og->fr_bs[d]);
		uint64_t len = lo + (uint32_t)((double)hi * u);

		if (!og->bs_unaligned)
			len = (lo & (lo - 1)) ? len - len % lo : len & ~(lo - 1);
		if (len > hi)
			len = hi;
		if (len <= room)
			return len;
	}
	return lo;	/* (unreachable in practice: lo fits) */
}

/* fio's zoned / zoned_abs: a zone from a draw of 1..100, then a uniform block inside it
 * (no random map). The offset into *off; false when the job's zones do not fit the file. */
bool offgen_zoned_block(struct offgen *og, const struct offgen_file *f, int d, uint64_t *off)
{
	const struct dist_gen *g = og->dist[d];
	uint64_t lastb = f->lastb[d], start = 0, nb = lastb, ba = og->align[d];

	if (!lastb)
		return false;
	if (g->nr_zones) {
		unsigned z = g->zone_by_r[frand_between(&og->fr_zone, 1, 100) - 1];

		if (g->kind == DIST_ZONED) {	/* sizes in % of the range */
			uint64_t stotal = g->zone_start[z], send = stotal + g->zone_len[z];

			start = stotal * lastb / 100;
			nb = lastb * (send - stotal) / 100;
		} else {			/* zoned_abs: bytes */
			uint64_t stotal = g->zone_start[z] / ba, send = (g->zone_start[z] + g->zone_len[z]) / ba;

			if (send > lastb)
				return false;
			start = stotal;
			nb = send - stotal;
		}
	}
	*off = (frand_scale(&og->fr_block, nb) + start) * ba;
	return true;
}
