/* SPDX-License-Identifier: MIT */
#include "suite/preset.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/parse.h"

static const struct preset presets[] = {
	{ "latency", "randwrite", "4k", 1, 1 },
	{ "iops", "randread", "4k", 32, 1 },
	{ "throughput", "read", "64k", 32, 16 },
};

const struct preset *preset_find(const char *name)
{
	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++)
		if (!strcmp(presets[i].name, name))
			return &presets[i];
	return NULL;
}

void preset_usage(FILE *out, const struct preset *p)
{
	fprintf(out, "Usage: iops %s [DIR] [--keep] [--plot=FILE.html] [fio options...]\n"
		"fio --rw=%s --bs=%s --iodepth=%u --numjobs=%u --size=10g (<= 1/2 free) --direct=1\n"
		"--runtime=60 --time_based --ramp_time=5 --fallocate=none, then yours.\n"
		"--plot: also draw the result (its json+) as a page of charts (iops plot).\n",
		p->name, p->rw, p->bs, p->depth, p->numjobs);
}

static bool preset_is(const char *arg, const char *opt)
{
	size_t n = strlen(opt);

	return !strncmp(arg, opt, n) && (arg[n] == '=' || arg[n] == '\0');
}

int preset_opts_parse(int argc, char **argv, struct preset_opts *o, struct iops_err *err)
{
	memset(o, 0, sizeof(*o));
	o->p = preset_find(argv[0]);
	if (!o->p) {
		iops_err_set(err, EINVAL, "iops: '%s' is not a preset (latency, iops, throughput)", argv[0]);
		return -EINVAL;
	}
	o->numjobs = o->p->numjobs;
	o->user = calloc((size_t)argc + 1, sizeof(*o->user));
	if (!o->user) {
		iops_err_set(err, ENOMEM, "iops: %s: out of memory", o->p->name);
		return -ENOMEM;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			o->help = true;
			continue;
		}
		if (!strcmp(a, "--keep")) {
			o->keep = true;
			continue;
		}
		if (a[0] != '-') {
			if (i == 1) {
				o->dir = a;
				continue;
			}
			iops_err_set(err, EINVAL, "iops: %s: '%s': fio options only, not job files", o->p->name, a);
			goto fail;
		}
		if (preset_is(a, "--size") || preset_is(a, "--filesize"))
			o->size_set = true;
		if (preset_is(a, "--direct"))
			o->direct_set = true;
		if (preset_is(a, "--ioengine"))
			o->engine_set = true;
		if (preset_is(a, "--numjobs") && a[9] == '=') {
			int64_t v;

			if (parse_int(a + 10, 1000, &v) == 0 && v >= 1 && v <= 65536) {
				o->numjobs = (unsigned)v;	/* fio itself reports a bad value */
				o->numjobs_set = true;
			}
		}
		o->user[o->nuser++] = (char *)a;
	}
	if (!o->dir)
		o->dir = ".";
	if (suite_check_dir(o->dir, o->p->name, err) == 0)
		return 0;
fail:
	free(o->user);
	o->user = NULL;
	return -EINVAL;
}

void preset_use_psync(struct preset_opts *o)
{
	o->psync = true;
	if (!o->numjobs_set)
		o->numjobs = suite_psync_jobs(o->p->depth, o->p->numjobs);
}

int preset_argv(struct suite_argv *a, const struct preset_opts *o, long pid, uint64_t size, bool direct)
{
	const struct preset *p = o->p;
	unsigned jobs = o->psync ? suite_psync_jobs(p->depth, p->numjobs) : p->numjobs;

	suite_argv_init(a);
	suite_argv_add(a, "fio");
	suite_argv_add(a, "--directory=%s", o->dir);
	suite_argv_add(a, "--name=%s", p->name);
	suite_argv_add(a, "--ioengine=%s", o->psync ? "psync" : "libaio");
	suite_argv_add(a, "--rw=%s", p->rw);
	suite_argv_add(a, "--bs=%s", p->bs);
	if (!o->psync)
		suite_argv_add(a, "--iodepth=%u", p->depth);
	if (jobs > 1)
		suite_argv_add(a, "--numjobs=%u", jobs);
	if (size)
		suite_argv_add(a, "--size=%llum", (unsigned long long)(size / SUITE_MIB));
	else
		suite_argv_add(a, "--size=10g");
	suite_argv_add(a, "--fallocate=none");
	suite_argv_add(a, "--direct=%d", direct ? 1 : 0);
	suite_argv_add(a, "--runtime=60");
	suite_argv_add(a, "--time_based");
	suite_argv_add(a, "--ramp_time=5");
	suite_argv_add(a, "--filename_format=iops-%s.%ld.$jobnum.$filenum", p->name, pid);
	if (!o->keep)
		suite_argv_add(a, "--unlink=1");
	for (int i = 0; i < o->nuser; i++)
		suite_argv_add(a, "%s", o->user[i]);
	return a->overflow ? -E2BIG : 0;
}
