/* SPDX-License-Identifier: MIT */
/* opt_apply_prio: I/O priorities: prio, prioclass (the job thread's), and the per-request
 * cmdprio_percentage, cmdprio_class, cmdprio and cmdprio_bssplit (libaio, io_uring). */
#include "fio/conf/opt_apply.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/parse.h"

APPLY(opt_apply_prio)
{
	int64_t v;
	int ret = opt_value_get_int(oj, od, val, d, &v);

	if (ret)
		return ret;
	if (od->name[4] == 'c') {	/* prioClass */
		oj->j.prioclass = (uint8_t)v;
		oj->j.prioclass_set = true;
	} else {
		oj->j.prio = (uint8_t)v;
		oj->j.prio_set = true;
	}
	return 0;
}

/* cmdprio_percentage / cmdprio_class / cmdprio: "r[,w[,t]]" integers in the option's range. */
APPLY(opt_apply_cmdprio)
{
	char parts[3][PARSE_DIR_PART_MAX];
	bool present[3];
	uint8_t v[DDIR_NR] = { 0 }, *dst;

	if (!val || parse_dir_list(val, parts, present) < 0 || !(present[0] || present[1] || present[2])) {
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	for (int i = 0; i < DDIR_NR; i++) {
		int64_t x;

		if (!present[i])
			continue;
		if (parse_int(parts[i], opt_value_kb_of(oj), &x)) {
			opt_value_failed(d, od, val);
			return -EINVAL;
		}
		if (x < od->min || x > od->max)
			return opt_value_range_failed(d, od, val, x > od->max, x, x > od->max ? od->max : od->min);
		v[i] = (uint8_t)x;
	}
	if (!strcmp(od->name, "cmdprio_percentage")) {
		dst = oj->j.cmdprio_pct;
		oj->j.cmdprio_pct_set = true;
	} else if (!strcmp(od->name, "cmdprio_class")) {
		dst = oj->j.cmdprio_class;
	} else {
		dst = oj->j.cmdprio_level;
	}
	for (int i = 0; i < DDIR_NR; i++)
		if (present[i])
			dst[i] = v[i];
	return 0;
}

/* One direction of cmdprio_bssplit: "bs/pct[/class/level[/...]]:..." into e[]; returns the number
 * of entries or -EINVAL. */
static int cmdprio_bss_parse(struct opt_job *oj, char *s, struct job_cmdprio_bss *e)
{
	int nr = 0;

	for (char *p = s; p && *p; nr++) {
		char *colon = strchr(p, ':'), *f[4];
		unsigned nf = 0;
		int64_t num[3] = { 0 };

		if (colon)
			*colon = '\0';
		if (nr == JOB_CMDPRIO_BSS_MAX)
			return -EINVAL;
		/* fields split at '/': fio 3.33 reads four and ignores what follows the fourth (a
		 * priority hint in cmdprio-bssplit.fio, which later fio sends: 3.33 does not) */
		for (char *q = p; q && nf < 4; nf++) {
			f[nf] = q;
			q = strchr(q, '/');
			if (q)
				*q++ = '\0';
		}
		if (nf != 2 && nf != 4)
			return -EINVAL;
		if (parse_size(f[0], opt_value_kb_of(oj), &e[nr].bs) || !e[nr].bs)
			return -EINVAL;
		for (unsigned i = 1; i < nf; i++)
			if (parse_int(f[i], 1000, &num[i - 1]))
				return -EINVAL;
		if (num[0] < 0 || num[0] > 100)
			return -EINVAL;
		e[nr].pct = (uint8_t)num[0];
		e[nr].own = nf == 4;
		if (nf == 4) {
			if (num[1] < 0 || num[1] > 3 || num[2] < 0 || num[2] > 7)
				return -EINVAL;
			e[nr].value = (uint16_t)(num[1] << 13 | num[2]);
		}
		p = colon ? colon + 1 : NULL;
	}
	return nr;
}

APPLY(opt_apply_cmdprio_bssplit)
{
	char parts[3][PARSE_DIR_PART_MAX];
	bool present[3];
	struct job_cmdprio_bss e[DDIR_NR][JOB_CMDPRIO_BSS_MAX];
	int nr[DDIR_NR] = { 0 };

	if (!val || parse_dir_list(val, parts, present) < 0 || !present[0])
		goto bad;
	memset(e, 0, sizeof(e));
	for (int i = 0; i < DDIR_NR; i++) {
		if (!present[i])
			continue;
		nr[i] = cmdprio_bss_parse(oj, parts[i], e[i]);
		if (nr[i] < 0)
			goto bad;
		for (int k = 0, sum = 0; k < nr[i]; k++) {	/* one size's shares add up to 100 at most */
			sum = 0;
			for (int m = 0; m < nr[i]; m++)
				if (e[i][m].bs == e[i][k].bs)
					sum += e[i][m].pct;
			if (sum > 100) {
				/* fio 3.33 takes it and sets no priority: neither does iops */
				memset(oj->j.nr_cmdprio_bss, 0, sizeof(oj->j.nr_cmdprio_bss));
				oj->j.cmdprio_bss_set = false;
				return 0;
			}
		}
	}
	for (int i = 0; i < DDIR_NR; i++)
		if (present[i]) {
			memcpy(oj->j.cmdprio_bss[i], e[i], sizeof(e[i]));
			oj->j.nr_cmdprio_bss[i] = (unsigned)nr[i];
		}
	oj->j.cmdprio_bss_set = true;
	return 0;
bad:
	opt_diag_add(d, false, "fio: invalid cmdprio_bssplit format");
	opt_value_failed(d, od, val);
	return -EINVAL;
}
