/* SPDX-License-Identifier: MIT */
/* preset: the latency / iops / throughput recipes as fio command lines (the seed's arguments,
 * our file names, --unlink=1 unless --keep, the user's options last so they override), and
 * their argument parsing (DIR, --keep, numjobs/size/direct overrides, bad input). */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "suite/preset.h"

static int parse(const char *const *args, struct preset_opts *o, struct iops_err *err)
{
	char *argv[12];
	int argc = 0;

	for (; args[argc]; argc++)
		argv[argc] = (char *)args[argc];
	argv[argc] = NULL;
	return preset_opts_parse(argc, argv, o, err);
}

static void line_of(const struct preset_opts *o, uint64_t size, bool direct, char *line, size_t n)
{
	struct suite_argv *a = malloc(sizeof(*a));

	ck_assert_int_eq(preset_argv(a, o, 77, size, direct), 0);
	suite_argv_line(a, line, n);
	free(a);
}

START_TEST(test_recipes)
{
	static const struct {
		const char *args[6];
		uint64_t size;
		bool direct;
		const char *line;
	} v[] = {
		{ { "latency", "/netapp", NULL }, 0, true,
		  "fio --directory=/netapp --name=latency --ioengine=libaio --rw=randwrite --bs=4k --iodepth=1 "
		  "--size=10g --fallocate=none --direct=1 --runtime=60 --time_based --ramp_time=5 "
		  "'--filename_format=iops-latency.77.$jobnum.$filenum' --unlink=1" },
		{ { "iops", NULL }, 3ull << 30, true,
		  "fio --directory=. --name=iops --ioengine=libaio --rw=randread --bs=4k --iodepth=32 "
		  "--size=3072m --fallocate=none --direct=1 --runtime=60 --time_based --ramp_time=5 "
		  "'--filename_format=iops-iops.77.$jobnum.$filenum' --unlink=1" },
		{ { "throughput", "d", "--keep", "--runtime=2", "--output-format=json", NULL }, 0, false,
		  "fio --directory=d --name=throughput --ioengine=libaio --rw=read --bs=64k --iodepth=32 "
		  "--numjobs=16 --size=10g --fallocate=none --direct=0 --runtime=60 --time_based --ramp_time=5 "
		  "'--filename_format=iops-throughput.77.$jobnum.$filenum' --runtime=2 --output-format=json" },
	};
	char line[SUITE_LINE_MAX];

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct preset_opts o;
		struct iops_err err = { 0 };

		ck_assert_int_eq(parse(v[i].args, &o, &err), 0);
		line_of(&o, v[i].size, v[i].direct, line, sizeof(line));
		ck_assert_str_eq(line, v[i].line);
		free(o.user);
	}
}
END_TEST

/* The psync fallback: --ioengine=psync, no --iodepth, the depth as numjobs (the preset's depth x
 * numjobs, at most SUITE_PSYNC_MAX_JOBS), o.numjobs for the size plan unless the user gave one;
 * the user's options still come last. */
START_TEST(test_recipes_psync)
{
	static const struct {
		const char *args[6];
		unsigned numjobs;
		const char *line;
	} v[] = {
		{ { "latency", "/v", NULL }, 1,
		  "fio --directory=/v --name=latency --ioengine=psync --rw=randwrite --bs=4k --size=10g --fallocate=none "
		  "--direct=1 --runtime=60 --time_based --ramp_time=5 '--filename_format=iops-latency.77.$jobnum.$filenum' "
		  "--unlink=1" },
		{ { "iops", "/v", NULL }, 32,
		  "fio --directory=/v --name=iops --ioengine=psync --rw=randread --bs=4k --numjobs=32 --size=10g "
		  "--fallocate=none --direct=1 --runtime=60 --time_based --ramp_time=5 "
		  "'--filename_format=iops-iops.77.$jobnum.$filenum' --unlink=1" },
		{ { "throughput", "/v", "--numjobs=4", NULL }, 4,
		  "fio --directory=/v --name=throughput --ioengine=psync --rw=read --bs=64k --numjobs=64 --size=10g "
		  "--fallocate=none --direct=1 --runtime=60 --time_based --ramp_time=5 "
		  "'--filename_format=iops-throughput.77.$jobnum.$filenum' --unlink=1 --numjobs=4" },
		{ { "throughput", "/v", NULL }, SUITE_PSYNC_MAX_JOBS, NULL },
	};
	char line[SUITE_LINE_MAX];

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct preset_opts o;
		struct iops_err err = { 0 };

		ck_assert_int_eq(parse(v[i].args, &o, &err), 0);
		ck_assert(!o.engine_set);
		preset_use_psync(&o);
		ck_assert_uint_eq(o.numjobs, v[i].numjobs);
		line_of(&o, 0, true, line, sizeof(line));
		if (v[i].line)
			ck_assert_str_eq(line, v[i].line);
		free(o.user);
	}
	/* the user's engine: no fallback (cmd/preset.c does not probe) */
	{
		static const char *const args[] = { "iops", "--ioengine=libaio", NULL };
		struct preset_opts o;
		struct iops_err err = { 0 };

		ck_assert_int_eq(parse(args, &o, &err), 0);
		ck_assert(o.engine_set);
		free(o.user);
	}
}
END_TEST

START_TEST(test_opts)
{
	static const char *const a1[] = { "throughput", "/d", "--numjobs=4", "--size=1g", "--keep", NULL };
	static const char *const a2[] = { "latency", "--direct=0", "--numjobs=zz", "--filesize=2g", NULL };
	static const char *const a3[] = { "iops", "-h", NULL };
	struct preset_opts o;
	struct iops_err err = { 0 };

	ck_assert_int_eq(parse(a1, &o, &err), 0);
	ck_assert_str_eq(o.dir, "/d");
	ck_assert_uint_eq(o.numjobs, 4);
	ck_assert(o.size_set && o.keep && !o.direct_set);
	ck_assert_int_eq(o.nuser, 2);
	free(o.user);
	ck_assert_int_eq(parse(a2, &o, &err), 0);
	ck_assert_str_eq(o.dir, ".");
	ck_assert_uint_eq(o.numjobs, 1);	/* a bad value is fio's to report */
	ck_assert(o.size_set && o.direct_set && !o.keep);
	free(o.user);
	ck_assert_int_eq(parse(a3, &o, &err), 0);
	ck_assert(o.help);
	free(o.user);
}
END_TEST

START_TEST(test_bad)
{
	static const struct {
		const char *args[4];
		const char *msg;
	} v[] = {
		{ { "latency", "/d", "job.fio", NULL }, "not job files" },
		{ { "latency", "--rw=read", "more", NULL }, "'more'" },
		{ { "iops", "/a:b", NULL }, "':'" },
		{ { "iops", "", NULL }, "empty" },
		{ { "bogus", NULL }, "not a preset" },
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct preset_opts o;
		struct iops_err err = { 0 };

		ck_assert_int_eq(parse(v[i].args, &o, &err), -EINVAL);
		ck_assert_msg(strstr(err.msg, v[i].msg) != NULL, "'%s' lacks '%s'", err.msg, v[i].msg);
		ck_assert_ptr_null(o.user);
	}
	ck_assert_ptr_null(preset_find("quick"));
	ck_assert_str_eq(preset_find("throughput")->bs, "64k");
}
END_TEST

Suite *preset_suite(void)
{
	Suite *s = suite_create("preset");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_recipes);
	tcase_add_test(tc, test_recipes_psync);
	tcase_add_test(tc, test_opts);
	tcase_add_test(tc, test_bad);
	suite_add_tcase(s, tc);
	return s;
}
