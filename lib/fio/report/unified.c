/* SPDX-License-Identifier: MIT */
#include "fio/report/unified.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void unified_merge(struct ddir_result *dst, const struct ddir_result *src)
{
	if (dst != &src[DDIR_READ])
		memcpy(dst, &src[DDIR_READ], sizeof(*dst));
	for (unsigned d = DDIR_READ + 1; d < DDIR_NR; d++)
		report_merge_ddir(dst, &src[d]);
}

const char *unified_ddir_name(const struct report_unit *u, unsigned ddir)
{
	static const char *const names[DDIR_NR] = { "read", "write", "trim" };

	if (ddir >= DDIR_NR || u->unified == UNIFIED_MIXED)
		return "mixed";
	return names[ddir];
}

int unified_apply(struct report *rep)
{
	for (unsigned i = 0; i < rep->nr_units; i++) {
		struct report_unit *u = &rep->units[i];

		u->unified = u->job->unified_rw_rep;
		rep->groups[u->group].unified |= u->unified;
		if (u->unified == UNIFIED_MIXED) {
			if (!u->owned) {
				struct job_result *m = malloc(sizeof(*m));

				if (!m)
					return -ENOMEM;
				memcpy(m, u->res, sizeof(*m));
				u->res = m;
				u->owned = true;
			}
			unified_merge(&u->res->ddir[DDIR_READ], u->res->ddir);
			memset(&u->res->ddir[DDIR_WRITE], 0, sizeof(u->res->ddir[0]) * (DDIR_NR - 1));
		} else if (u->unified == UNIFIED_BOTH) {
			u->mixed = malloc(sizeof(*u->mixed));
			if (!u->mixed)
				return -ENOMEM;
			unified_merge(u->mixed, u->res->ddir);
		}
	}
	return 0;
}
