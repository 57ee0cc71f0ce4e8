/* SPDX-License-Identifier: MIT */
/* opt_apply_lat: latency target probing (latency_target, _window, _percentile, _run), filling
 * the volume (fill_device), offset and size sequencing (rw_sequencer, bs_is_seq_rand), what
 * writes ask of the kernel (sync_file_range, write_hint, atomic, write_barrier) and the clocks
 * of the logs (log_unix_epoch, log_alternate_epoch*), plus gtod_cpu and log_entries. */
#include "fio/conf/opt_apply.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/parse.h"
#include "sys/cpuset.h"

#define LAT_SFR_VAL_MAX	256	/* longest sync_file_range value looked at */

/* A time in microseconds when no unit is given (fio's latency_* times). */
static int lat_get_usec_time(const struct opt_def *od, const char *val, struct opt_diag *d, uint64_t *ns)
{
	if (!val || parse_time_ns(val, CLOCK_NS_PER_US, ns)) {
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	return 0;
}

APPLY(opt_apply_latency_target)
{
	return lat_get_usec_time(od, val, d, &oj->j.lat_target_ns);
}

APPLY(opt_apply_latency_window)
{
	return lat_get_usec_time(od, val, d, &oj->j.lat_window_ns);
}

/* latency_percentile: one float, 0..100 (fio's list of at most one value). */
APPLY(opt_apply_latency_percentile)
{
	double v[2], bad = 0;
	unsigned nr = 0, prec;
	int ret = val ? parse_float_list(val, v, 1, &nr, &prec, 0.0, 100.0, &bad) : -EINVAL;

	if (ret == -E2BIG) {
		opt_diag_add(d, false, "the list exceeding max length 1");
		return -EINVAL;
	}
	if (ret == -ERANGE) {
		opt_diag_add(d, false, "value out of range: %f (range %s: %f)", bad, bad < 0 ? "min" : "max",
			     bad < 0 ? 0.0 : 100.0);
	} else if (!ret && nr == 1) {
		oj->j.lat_pct = v[0];
		return 0;
	} else if (val && *val) {
		opt_diag_add(d, false, "not a floating point value: %s", val);
	}
	opt_value_failed(d, od, val);
	return -EINVAL;
}

const struct opt_choice opt_apply_rw_sequencer_choices[] = {
	{ .word = "sequential", .help = "The I/Os between two random ones follow on from it", .value = 0 },
	{ .word = "identical", .help = "The I/Os between two random ones repeat its offset", .value = 1 },
	{ .word = NULL },
};

APPLY(opt_apply_rw_sequencer)
{
	int v;
	int ret = opt_value_get_choice(od, val, d, &v);

	if (!ret)
		oj->j.rw_seq_ident = v == 1;
	return ret;
}

/* The kernel's RWH_WRITE_LIFE_* values. */
const struct opt_choice opt_apply_write_hint_choices[] = {
	{ .word = "none", .help = "No lifetime expected", .value = 1 },
	{ .word = "short", .help = "Data soon overwritten", .value = 2 },
	{ .word = "medium", .help = "Data kept a while", .value = 3 },
	{ .word = "long", .help = "Data kept long", .value = 4 },
	{ .word = "extreme", .help = "Data kept longest", .value = 5 },
	{ .word = NULL },
};

/* The kernel's SYNC_FILE_RANGE_* bits. */
const struct opt_choice opt_apply_sfr_choices[] = {
	{ .word = "wait_before", .help = "Wait for writeback already under way first", .value = 1 },
	{ .word = "write", .help = "Start writing back the dirty pages of the range", .value = 2 },
	{ .word = "wait_after", .help = "Wait until the range is written back", .value = 4 },
	{ .word = NULL },
};

/* sync_file_range=flag[,flag...][:N]: the flags, after every N writes (default 1). */
APPLY(opt_apply_sync_file_range)
{
	char buf[LAT_SFR_VAL_MAX];
	char *colon, *p;
	unsigned flags = 0;
	uint64_t n = 1;

	if (!val || !*val) {
		opt_diag_add(d, false, "fio: option %s requires an argument", od->name);
		return -EINVAL;
	}
	if (strlen(val) >= sizeof(buf))
		goto bad;
	memcpy(buf, val, strlen(val) + 1);
	colon = strchr(buf, ':');
	if (colon) {
		*colon = '\0';
		/* fio reads a count that is no number as 0 and then never syncs: refused */
		if (parse_size(colon + 1, 1000, &n) || n == 0 || n > UINT32_MAX) {
			opt_diag_add(d, false, "fio: %s: the count after ':' must be a number of writes from 1 to %u",
				     od->name, UINT32_MAX);
			goto bad;
		}
	}
	for (p = buf; p;) {
		char *comma = strchr(p, ',');
		int v;

		if (comma)
			*comma = '\0';
		if (opt_value_get_choice(od, p, d, &v) < 0) {
			d->nr--;	/* the line names the whole value, as fio's */
			goto bad;
		}
		flags |= (unsigned)v;
		p = comma ? comma + 1 : NULL;
	}
	oj->j.sfr_flags = flags;
	oj->j.sfr_every = (unsigned)n;
	return 0;
bad:
	opt_value_failed(d, od, val);
	return -EINVAL;
}

/* gtod_cpu: fio 3.33 pins a clock thread there; on a CPU that does not exist its clock stands
 * still and the report is garbage: refused. */
APPLY(opt_apply_gtod_cpu)
{
	int64_t v;
	long nr = (long)cpuset_nr_cpus();
	int ret = opt_value_get_int(oj, od, val, d, &v);

	if (ret)
		return ret;
	if (nr > 0 && v >= nr) {
		opt_diag_add(d, false, "fio: gtod_cpu=%lld: no such CPU (CPUs 0-%ld)", (long long)v, nr - 1);
		return -EINVAL;
	}
	oj->j.gtod_cpu = (int)v;
	return 0;
}

/* log_alternate_epoch_clock_id: fio 3.33 logs garbage times with a clock Linux does not
 * have: refused. */
APPLY(opt_apply_log_epoch_clock)
{
	int64_t v;
	struct timespec ts;
	int ret = opt_value_get_int(oj, od, val, d, &v);

	if (ret)
		return ret;
	if (v > INT32_MAX || clock_gettime((clockid_t)v, &ts) < 0) {
		opt_diag_add(d, false, "fio: log_alternate_epoch_clock_id=%lld: no such clock", (long long)v);
		return -EINVAL;
	}
	oj->j.log_epoch_clock = (int)v;
	return 0;
}

int opt_apply_lat_derive(struct opt_job *oj, struct opt_diag *d)
{
	const struct job *j = &oj->j;
	const char *fio_does;

	/* fill_device as fio 3.33: rw=write fills the volume; read and randread lay out a file
	 * that fills it, then read that. The other modes are refused with what fio does there. */
	if (!j->fill_device || ((j->rw == RW_WRITE || j->rw == RW_READ || j->rw == RW_RANDREAD) && !j->read_iolog))
		return 0;
	if (j->read_iolog)
		fio_does = "read_iolog: the log says what is read and written, not a volume to fill";
	else if (j->rw_has_trim)
		fio_does = "fio 3.33 lays out an empty file and fails its first trim: Inappropriate ioctl for device";
	else if (j->rw_random)
		fio_does = "fio 3.33 fails to allocate the random map of a volume-sized file, does no I/O and leaves an empty file";
	else
		fio_does = "fio 3.33 lays out a file filling the volume, then its writes past the end fail with ENOSPC";
	opt_diag_add(d, false, "fio: %s: fill_device=1 takes rw=write, read or randread (%s)", j->name, fio_does);
	return -EINVAL;
}
