/* SPDX-License-Identifier: MIT */
/* preset modes: iops latency | iops | throughput [DIR] [fio options...]. The recipe becomes one
 * fio command line (lib/suite/preset.h), printed on stderr first, then run by fio mode itself:
 * its report (normal or json) on stdout, its messages and exit status. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "core/err.h"
#include "modes.h"
#include "plot_out.h"
#include "suite/preset.h"
#include "suite_sys.h"

int preset_main(int argc, char **argv, struct ctl *ctl)
{
	struct preset_opts o;
	struct iops_err err = { 0 };
	struct suite_argv *a;
	struct statvfs vfs;
	uint64_t size = 0;
	bool direct = true;
	const char *plot;
	int status = 1;

	if (plot_out_take(argv[0], &argc, argv, &plot) < 0)
		return 1;
	if (preset_opts_parse(argc, argv, &o, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	if (o.help) {
		preset_usage(stdout, o.p);
		free(o.user);
		return 0;
	}
	a = calloc(1, sizeof(*a));
	if (!a) {
		fprintf(stderr, "iops: %s: out of memory\n", o.p->name);
		goto out;
	}
	if (suite_sys_dir(o.dir, o.p->name) < 0)
		goto out;
	if (!o.engine_set && suite_sys_need_psync(o.p->name))	/* the user's engine is the user's */
		preset_use_psync(&o);
	if (!o.size_set) {	/* the recipe's 10g per job, lowered to fit */
		uint64_t total;

		if (statvfs(o.dir, &vfs) < 0) {
			fprintf(stderr, "iops: %s: cannot read the free space of '%s': %s\n", o.p->name, o.dir,
				err_str(errno));
			goto out;
		}
		if (suite_plan_size((uint64_t)vfs.f_bavail * vfs.f_frsize, PRESET_SIZE * o.numjobs, false,
				    PRESET_SHARE, o.p->name, o.dir, &total, &err) < 0) {
			fprintf(stderr, "%s\n", err.msg);
			goto out;
		}
		if (total < PRESET_SIZE * o.numjobs) {
			size = total / o.numjobs;
			size -= size % SUITE_MIB;
			if (!size)
				size = SUITE_MIB;
			fprintf(stderr, "iops: %s: --size lowered from 10g to %llum per job (%u job%s): half of "
				"the %llu MiB free\n", o.p->name, (unsigned long long)(size / SUITE_MIB), o.numjobs,
				o.numjobs > 1 ? "s" : "", (unsigned long long)((uint64_t)vfs.f_bavail * vfs.f_frsize / SUITE_MIB));
		}
	}
	if (!o.direct_set) {
		if (quick_probe_direct(o.dir, o.p->name, &direct) < 0)
			goto out;
		if (!direct)
			fprintf(stderr, "iops: %s: '%s': no O_DIRECT, buffered I/O (--direct=0)\n", o.p->name, o.dir);
	}
	if (preset_argv(a, &o, (long)getpid(), size, direct) < 0) {
		fprintf(stderr, "iops: %s: %s\n", o.p->name, err_str(E2BIG));
		goto out;
	}
	suite_argv_print(stderr, a);
	fflush(stderr);
	status = fio_main_plot(a->argc, a->argv, ctl, plot, o.p->name);
out:
	free(a);
	free(o.user);
	return status;
}
