/* SPDX-License-Identifier: MIT */
#include "fio/ioprio.h"
#include "fio/opt_diag.h"

#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define IOPRIO_WHO_PROCESS	1

uint16_t ioprio_job_value(const struct job *job)
{
	unsigned cls;

	if (!job->prio_set && !job->prioclass_set)
		return 0;
	cls = job->prioclass_set ? job->prioclass : IOPRIO_CLASS_BE;
	if (!cls && job->prio_set)	/* class "none" with a level: best effort, as the kernel */
		cls = IOPRIO_CLASS_BE;
	return ioprio_value(cls, job->prio_set ? job->prio : 0);
}

static uint16_t ioprio_cmd_value(const struct job *job, unsigned ddir)
{
	return ioprio_value(job->cmdprio_class[ddir] ? job->cmdprio_class[ddir] : IOPRIO_CLASS_RT,
			    job->cmdprio_level[ddir]);
}

uint16_t ioprio_pick(const struct job *job, unsigned ddir, uint64_t bs, unsigned rnd)
{
	if (ddir > DDIR_WRITE)	/* trims keep the job's priority */
		return ioprio_job_value(job);
	if (job->cmdprio_bss_set) {
		unsigned cum = 0;

		for (unsigned i = 0; i < job->nr_cmdprio_bss[ddir]; i++) {
			const struct job_cmdprio_bss *e = &job->cmdprio_bss[ddir][i];

			if (e->bs != bs)
				continue;
			cum += e->pct;
			if (rnd < cum)
				return e->own ? e->value : ioprio_cmd_value(job, ddir);
		}
	} else if (rnd < job->cmdprio_pct[ddir]) {
		return ioprio_cmd_value(job, ddir);
	}
	return ioprio_job_value(job);
}

static unsigned ioprio_add_unique(uint16_t *out, unsigned nr, unsigned max, uint16_t v)
{
	for (unsigned i = 0; i < nr; i++)
		if (out[i] == v)
			return nr;
	if (nr < max)
		out[nr++] = v;
	return nr;
}

unsigned ioprio_values(const struct job *job, unsigned ddir, uint16_t *out, unsigned max)
{
	unsigned nr = ioprio_add_unique(out, 0, max, ioprio_job_value(job));

	if (ddir > DDIR_WRITE || !job->cmdprio_on)
		return nr;
	if (job->cmdprio_bss_set) {
		for (unsigned i = 0; i < job->nr_cmdprio_bss[ddir]; i++) {
			const struct job_cmdprio_bss *e = &job->cmdprio_bss[ddir][i];

			if (e->pct)
				nr = ioprio_add_unique(out, nr, max, e->own ? e->value : ioprio_cmd_value(job, ddir));
		}
	} else if (job->cmdprio_pct[ddir]) {
		nr = ioprio_add_unique(out, nr, max, ioprio_cmd_value(job, ddir));
	}
	return nr;
}

int ioprio_set_thread(const struct job *job)
{
	if (!job->prio_set && !job->prioclass_set)
		return 0;
	if (syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, (int)ioprio_job_value(job)) < 0)
		return -errno;
	return 0;
}

int ioprio_check(struct job *job, struct opt_diag *d)
{
	uint16_t v[IOPRIO_SLOTS + 1];

	job->cmdprio_on = job->cmdprio_pct_set || job->cmdprio_bss_set;
	if (!job->cmdprio_on)
		return 0;
	if (strcmp(job->ioengine, "libaio") && strcmp(job->ioengine, "io_uring")) {
		opt_diag_add(d, false, "fio: cmdprio_percentage and cmdprio_bssplit need ioengine=libaio or io_uring");
		return -EINVAL;
	}
	if (job->cmdprio_pct_set && job->cmdprio_bss_set) {
		opt_diag_add(d, false, "%s: cmdprio_percentage and cmdprio_bssplit options are mutually exclusive",
			     job->name);
		opt_diag_add(d, false, "fio: io engine %s init failed.", job->ioengine);
		return -EINVAL;
	}
	for (unsigned dd = 0; dd < DDIR_NR; dd++)
		if (ioprio_values(job, dd, v, IOPRIO_SLOTS + 1) > IOPRIO_SLOTS) {
			opt_diag_add(d, false, "fio: iops reports at most %u I/O priorities per direction", IOPRIO_SLOTS);
			return -EINVAL;
		}
	return 0;
}
