/* SPDX-License-Identifier: MIT */
/* opt_apply_zone: zonemode, zonerange, zonesize and zoneskip (fio/offset/offgen_zone.c runs them;
 * offgen_zone_fixup() checks them once the job is complete), and zonemode=zbd's own options
 * (fio/offset/zbd.c runs them). */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "core/parse.h"
#include "fio/job.h"
#include "fio/conf/opt_apply.h"

const struct opt_choice opt_apply_zonemode_choices[] = {
	{ .word = "none", .help = "The zonerange, zonesize and zoneskip parameters are ignored", .value = ZONE_MODE_NONE },
	{ .word = "strided", .help = "I/O happens in a single zone until zonesize bytes have been transferred", .value = ZONE_MODE_STRIDED },
	{ .word = "zbd", .help = "Writes only at each zone's write pointer (emulated on regular files)", .value = ZONE_MODE_ZBD },
	{ .word = NULL },
};

static int zone_bytes(struct opt_job *oj, const struct opt_def *od, const char *val,
		      struct opt_diag *d, uint64_t *out)
{
	if (!val || parse_size(val, opt_value_kb_of(oj), out)) {
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	return 0;
}

/* zonerange, zonesize, zonecapacity: bytes into the entry's field */
APPLY(opt_apply_zone_bytes)
{
	return zone_bytes(oj, od, val, d, (uint64_t *)((char *)oj + od->field));
}

/* zoneskip=N (bytes, with suffixes) or zoneskip=Nz (N zone sizes, resolved by the fixup). */
APPLY(opt_apply_zoneskip)
{
	size_t n = val ? strlen(val) : 0;
	uint64_t v = 0;

	if (n > 1 && (val[n - 1] == 'z' || val[n - 1] == 'Z')) {
		for (size_t i = 0; i + 1 < n; i++) {
			unsigned c = (unsigned)(val[i] - '0');

			if (c > 9 || v > (UINT64_MAX - c) / 10) {
				opt_diag_add(d, false, "zoneskip: unexpected zone value '%s'", val);
				opt_value_failed(d, od, val);
				return -EINVAL;
			}
			v = v * 10 + c;
		}
		oj->j.zone_skip_z = v;
		oj->j.zone_skip = 0;
		return 0;
	}
	if (zone_bytes(oj, od, val, d, &v))
		return -EINVAL;
	oj->j.zone_skip = v;
	oj->j.zone_skip_z = 0;
	return 0;
}

/* ---- zbd ---- */


/* One value in [0, 1] (fio takes a list and warns past the first value: iops refuses). */
static int opt_apply_zone_fraction(const struct opt_def *od, const char *val, struct opt_diag *d,
				   double *out)
{
	double vals[2], bad = 0;
	unsigned nr = 0, prec;
	int ret = val ? parse_float_list(val, vals, 1, &nr, &prec, 0.0, 1.0, &bad) : -EINVAL;

	if (ret == -ERANGE)
		opt_diag_add(d, false, "value out of range: %f (range %s: %f)", bad,
			     bad < 0 ? "min" : "max", bad < 0 ? 0.0 : 1.0);
	else if (ret == -E2BIG)
		opt_diag_add(d, false, "the list exceeding max length 1");
	else if (ret || nr != 1)
		opt_diag_add(d, false, "not a floating point value: %s", val ? val : "");
	if (ret || nr != 1) {
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	*out = vals[0];
	return 0;
}

APPLY(opt_apply_zone_reset_threshold)
{
	return opt_apply_zone_fraction(od, val, d, &oj->j.zone_reset_threshold);
}

APPLY(opt_apply_zone_reset_frequency)
{
	return opt_apply_zone_fraction(od, val, d, &oj->j.zone_reset_frequency);
}
