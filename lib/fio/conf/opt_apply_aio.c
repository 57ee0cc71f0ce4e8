/* SPDX-License-Identifier: MIT */
/* opt_apply_aio: the engine options of io_uring, libaio and pvsync2 (hipri, nowait, fixedbufs,
 * registerfiles, sqthread_poll...) into job.eng.aio (engine/engine_opts.h), and the check,
 * once the job is read, that its engine takes every one of them it was given (fio does not know
 * an engine's options under another engine: iops says which engines take it). */
#include "fio/conf/opt_apply.h"

#include <errno.h>
#include <string.h>

#include "sys/cpuset.h"

#define AIO_MAX_FIXED_BUFS	16384u			/* the kernel's limit on registered buffers */
#define AIO_MAX_FIXED_BUF	(1024ull * 1024 * 1024)	/* and on each one's size */

#define AIO_URING	1u
#define AIO_LIBAIO	2u
#define AIO_PVSYNC2	4u

struct aio_opt {
	const char *name;
	unsigned engines;	/* AIO_* */
	const char *engines_text;
};

/* Indexed by the bit of opt_job.aio_given. */
static const struct aio_opt aio_opts[] = {
	{ "hipri", AIO_URING | AIO_PVSYNC2, "io_uring or pvsync2" },
	{ "hipri_percentage", AIO_PVSYNC2, "pvsync2" },
	{ "nowait", AIO_URING | AIO_LIBAIO | AIO_PVSYNC2, "io_uring, libaio or pvsync2" },
	{ "fixedbufs", AIO_URING, "io_uring" },
	{ "registerfiles", AIO_URING, "io_uring" },
	{ "sqthread_poll", AIO_URING, "io_uring" },
	{ "sqthread_poll_cpu", AIO_URING, "io_uring" },
	{ "nonvectored", AIO_URING, "io_uring" },
	{ "force_async", AIO_URING, "io_uring" },
	{ "userspace_reap", AIO_LIBAIO, "libaio" },
};

#define AIO_NR_OPTS	(sizeof(aio_opts) / sizeof(aio_opts[0]))

static unsigned aio_engine_bit(const char *engine)
{
	if (!strcmp(engine, "io_uring"))
		return AIO_URING;
	if (!strcmp(engine, "libaio"))
		return AIO_LIBAIO;
	if (!strcmp(engine, "pvsync2"))
		return AIO_PVSYNC2;
	return 0;
}

/* Parse od's value (a switch, a 0/1 or an integer in od's range) and note that the job gave it. */
static int aio_get(struct opt_job *oj, const struct opt_def *od, const char *val, struct opt_diag *d,
		   int64_t *out)
{
	unsigned i;
	int ret;

	for (i = 0; i < AIO_NR_OPTS; i++)
		if (!strcmp(aio_opts[i].name, od->name))
			break;
	if (i == AIO_NR_OPTS) {	/* a table entry without its line above */
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	if (od->type == OPT_T_FLAG || od->type == OPT_T_BOOL) {
		bool b = false;	/* a bad value leaves it unset */

		ret = opt_value_get_bool(oj, od, val, d, &b);
		if (!ret)	/* b is set only on success */
			*out = b;
	} else if (od->min >= 0) {	/* counts, CPUs: what an unsigned / an int holds */
		unsigned u;
		int32_t cap = strcmp(od->name, "sqthread_poll_cpu") ? -1 : INT32_MAX;

		ret = opt_value_get_uint(oj, od, val, d, &u);
		if (!ret && cap >= 0 && u > (unsigned)cap)
			ret = opt_value_range_failed(d, od, val, true, u, cap);
		if (!ret)
			*out = u;
	} else {
		ret = opt_value_get_int(oj, od, val, d, out);
	}
	if (!ret)
		oj->aio_given |= 1u << i;
	return ret;
}

APPLY(opt_apply_aio)
{
	struct engine_aio_opts *a = &oj->j.eng.aio;
	int64_t v;
	int ret = aio_get(oj, od, val, d, &v);

	if (ret)
		return ret;
	if (!strcmp(od->name, "hipri"))
		a->hipri = v != 0;
	else if (!strcmp(od->name, "hipri_percentage"))
		a->hipri_pct = (unsigned)v;	/* 0..100 (table bounds) */
	else if (!strcmp(od->name, "nowait"))
		a->nowait = v != 0;
	else if (!strcmp(od->name, "fixedbufs"))
		a->fixedbufs = v != 0;
	else if (!strcmp(od->name, "registerfiles"))
		a->registerfiles = v != 0;
	else if (!strcmp(od->name, "sqthread_poll"))
		a->sqpoll = v != 0;
	else if (!strcmp(od->name, "sqthread_poll_cpu"))
		a->sqpoll_cpu = (int)v;	/* 0..INT32_MAX, checked against the CPUs at the end */
	else if (!strcmp(od->name, "nonvectored"))
		a->nonvectored = v < 0 ? -1 : v > 0;	/* fio: any integer, negative is "detect" */
	else if (!strcmp(od->name, "force_async"))
		a->force_async = (unsigned)v;
	else
		a->userspace_reap = v != 0;
	return 0;
}

int opt_apply_aio_check(struct opt_job *oj, struct opt_diag *d)
{
	struct engine_aio_opts *a = &oj->j.eng.aio;
	unsigned eng = aio_engine_bit(oj->j.ioengine);

	for (unsigned i = 0; i < AIO_NR_OPTS; i++)
		if ((oj->aio_given >> i & 1) && !(aio_opts[i].engines & eng)) {
			opt_diag_add(d, false, "fio: option '%s' is an option of ioengine=%s, not of %s",
				     aio_opts[i].name, aio_opts[i].engines_text, oj->j.ioengine);
			return -EINVAL;
		}
	if (eng != AIO_URING)
		return 0;
	if (a->sqpoll && a->sqpoll_cpu >= 0 && (unsigned)a->sqpoll_cpu >= cpuset_nr_cpus()) {
		/* fio fails the job when it sets up the ring (err=22) */
		opt_diag_add(d, false, "fio: sqthread_poll_cpu=%d: CPU %d too large (max=%u)", a->sqpoll_cpu,
			     a->sqpoll_cpu, cpuset_nr_cpus() - 1);
		return -EINVAL;
	}
	if (a->sqpoll)
		a->registerfiles = true;	/* as fio: the polling thread works on registered files */
	if (a->fixedbufs) {	/* fio fails the job when it registers them (err=22) */
		uint64_t max_bs = 0;

		for (int i = 0; i < DDIR_NR; i++)
			if (oj->j.bs_max[i] > max_bs)
				max_bs = oj->j.bs_max[i];
		if (oj->j.iodepth > AIO_MAX_FIXED_BUFS || max_bs > AIO_MAX_FIXED_BUF) {
			opt_diag_add(d, false, "fio: fixedbufs: io_uring registers at most %u buffers (iodepth) "
				     "of at most 1 GiB (bs), not %u of %llu bytes", AIO_MAX_FIXED_BUFS,
				     oj->j.iodepth, (unsigned long long)max_bs);
			return -EINVAL;
		}
	}
	return 0;
}
