/* SPDX-License-Identifier: MIT */
/* Unit tests of the engine options and their checks (lib/fio/conf/opt_apply_engine.c): values into
 * job.eng, the defaults, what cpuio and exec set on the job, the combinations refused with one
 * line, and the refusal of the engines this build leaves out. */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "opt_apply_fixture.h"

START_TEST(test_values_and_defaults)
{
	struct fio_config cfg;
	const struct engine_opts *e;

	ck_assert_int_eq(fioconf_from_text("[a]\nioengine=null\nsize=1m\n", &cfg, diag), 0);
	e = &cfg.jobs[0].eng;
	ck_assert_uint_eq(e->cpuio.chunk_ns, 50000000u);
	ck_assert_uint_eq(e->exec.grace_ns, 1000000000u);
	ck_assert(e->exec.std_redirect);
	ck_assert_uint_eq(e->net.ttl, 1);
	ck_assert_uint_eq(e->net.proto, ENGINE_NET_TCP);
	fio_config_release(&cfg);

	ck_assert_int_eq(fioconf_from_text("[a]\nioengine=net\nport=8888\nproto=udp\nhostname=h\n"
					   "rw=write\nsize=1m\nnodelay=1\npingpong\nwindow_size=64k\nmss=1400\n"
					   "ttl=3\ninterface=10.0.0.1\n", &cfg, diag), 0);
	e = &cfg.jobs[0].eng;
	ck_assert_uint_eq(e->net.port, 8888);
	ck_assert_uint_eq(e->net.proto, ENGINE_NET_UDP);
	ck_assert_str_eq(e->net.hostname, "h");
	ck_assert(e->net.nodelay && e->net.pingpong && !e->net.listen);
	ck_assert_uint_eq(e->net.window_size, 65536);
	ck_assert_uint_eq(e->net.mss, 1400);
	ck_assert_uint_eq(e->net.ttl, 3);
	ck_assert_str_eq(e->net.interface, "10.0.0.1");
	fio_config_release(&cfg);

	/* cpuio: think time for the rest of the cycle, time based, runs without size */
	ck_assert_int_eq(fioconf_from_text("[a]\nioengine=cpuio\ncpuload=25\ncpuchunks=1000\ncpumode=qsort\n"
					   "exit_on_io_done=1\n", &cfg, diag), 0);
	e = &cfg.jobs[0].eng;
	ck_assert_uint_eq(e->cpuio.load, 25);
	ck_assert_uint_eq(e->cpuio.chunk_ns, 1000000u);
	ck_assert_uint_eq(e->cpuio.mode, ENGINE_CPU_QSORT);
	ck_assert(e->cpuio.exit_on_io_done);
	ck_assert_uint_eq(cfg.jobs[0].thinktime_ns, 3000000u);	/* 1 ms x 75 / 25 */
	ck_assert_uint_eq(cfg.jobs[0].thinktime_blocks, 1);
	ck_assert(cfg.jobs[0].time_based);
	ck_assert_uint_gt(cfg.jobs[0].runtime_ns, 1000000000000000u);	/* until stopped */
	ck_assert_uint_gt(cfg.jobs[0].size, 0);
	fio_config_release(&cfg);
	ck_assert_int_eq(fioconf_from_text("[a]\nioengine=cpuio\ncpuload=100\nruntime=3\n", &cfg, diag), 0);
	ck_assert_uint_eq(cfg.jobs[0].thinktime_ns, 0);
	ck_assert_uint_eq(cfg.jobs[0].runtime_ns, 3000000000u);
	fio_config_release(&cfg);
	/* past 100: the whole CPU, as fio 3.33's cpuio init takes it (its header: cpuload=100) */
	ck_assert_int_eq(fioconf_from_text("[a]\nioengine=cpuio\ncpuload=128\nruntime=3\n", &cfg, diag), 0);
	ck_assert_uint_eq(cfg.jobs[0].eng.cpuio.load, 100);
	ck_assert_uint_eq(cfg.jobs[0].thinktime_ns, 0);
	fio_config_release(&cfg);

	ck_assert_int_eq(fioconf_from_text("[a]\nioengine=exec\nprogram=/bin/true\narguments=%r %n\n"
					   "grace_time=0\nstd_redirect=0\n", &cfg, diag), 0);
	e = &cfg.jobs[0].eng;
	ck_assert_str_eq(e->exec.program, "/bin/true");
	ck_assert_str_eq(e->exec.arguments, "%r %n");
	ck_assert_uint_eq(e->exec.grace_ns, 0);
	ck_assert(!e->exec.std_redirect);
	fio_config_release(&cfg);

	ck_assert_int_eq(fioconf_from_text("[a]\nioengine=e4defrag\ndonorname=d\ninplace=1\nrw=write\nsize=1m\n"
					   "[b]\nioengine=filestat\nstat_type=statx\nsize=1m\n", &cfg, diag), 0);
	ck_assert_str_eq(cfg.jobs[0].eng.e4defrag.donorname, "d");
	ck_assert(cfg.jobs[0].eng.e4defrag.inplace);
	ck_assert_uint_eq(cfg.jobs[1].eng.stat_type, ENGINE_STAT_STATX);
	fio_config_release(&cfg);
}
END_TEST

struct bad_case {
	const char *text;
	const char *line;	/* an expected diag line (bad values are followed by "job a dropped") */
};

static const struct bad_case bad_cases[] = {
	{ "[a]\nioengine=cpuio\n", "fio: cpuio engine requires cpuload=1..100" },
	{ "[a]\nioengine=cpuio\ncpuload=0\n", "cpuload: min value out of range: 0 (1 min)" },
	{ "[a]\ncpumode=spin\n", "fio: failed parsing cpumode=spin" },
	{ "[a]\nioengine=exec\n", "fio: exec engine requires program=" },
	{ "[a]\nprogram=\n", "fio: failed parsing program=" },
	{ "[a]\nioengine=ftruncate\nrw=randrw\nsize=1m\n", "fio: the ftruncate engine only writes (rw=write or randwrite)" },
	{ "[a]\nioengine=net\nrw=write\n", "fio: no port has been specified which is required for the tcp protocol" },
	{ "[a]\nioengine=net\nport=1\nrw=write\n", "fio: network IO requires a hostname (or listen)" },
	{ "[a]\nioengine=net\nport=1\n", "fio: a TCP reader must listen (add listen)" },
	{ "[a]\nioengine=net\nport=1\nlisten\nhostname=h\n", "fio: hostname must be omitted with listen" },
	{ "[a]\nioengine=net\nport=1\nlisten\nproto=udp\n", "fio: listen only valid for TCP proto IO" },
	{ "[a]\nioengine=net\nport=1\nrw=rw\nlisten\n", "fio: network connections must be read OR write" },
	{ "[a]\nioengine=net\nproto=unix\nrw=write\n", "fio: network IO can't be used with unix sockets without a filename" },
	{ "[a]\nproto=tcpv6\n", "fio: protocol=tcpv6 (IPv6) is not supported by iops (it has tcp, udp, unix)" },
	{ "[a]\nport=65536\n", "port: max value out of range: 65536 (65535 max)" },
	{ "[a]\nstat_type=fstat\n", "fio: failed parsing stat_type=fstat" },
	{ "[a]\nioengine=rbd\nsize=zz\n", "fio: engine rbd needs librbd, which this build does not include" },
	{ "[a]\nioengine=sg\n", "fio: engine sg drives SCSI devices through the sg driver (SG_IO), which this build does not include" },
	{ "[a]\nioengine=pmemblk\n", "fio: engine pmemblk needs PMDK libpmemblk, which this build does not include" },
};

START_TEST(test_bad)
{
	struct fio_config cfg;
	int ret = fioconf_from_text(bad_cases[_i].text, &cfg, diag);
	bool found = false;

	ck_assert_int_ne(ret, 0);
	ck_assert_uint_ge(diag->nr, 1);
	for (unsigned i = 0; i < diag->nr; i++)
		found = found || !strcmp(diag->line[i], bad_cases[_i].line);
	ck_assert_msg(found, "[%s]: no line [%s]; last [%s]", bad_cases[_i].text, bad_cases[_i].line,
		      diag->line[diag->nr - 1]);
	/* engine checks and refusals are one line */
	if (!strstr(bad_cases[_i].line, "parsing") && !strstr(bad_cases[_i].line, "out of range"))
		ck_assert_uint_eq(diag->nr, 1);
	ck_assert_ptr_null(cfg.jobs);
}
END_TEST

/* e4defrag's donorname= is checked when the engine starts (engine_e4defrag's init), as fio
 * 3.33 checks it at its init after laying out the file: a job without one parses, dry
 * (--parse-only) or not, inplace= read as given. */
START_TEST(test_e4defrag_no_donor_parses)
{
	for (int dry = 0; dry <= 1; dry++) {
		struct fio_config cfg;

		ck_assert_int_eq(fioconf_from_text_as("[a]\nioengine=e4defrag\ninplace=1\nsize=1m\n", &cfg, diag,
						      dry), 0);
		ck_assert(cfg.jobs[0].eng.e4defrag.inplace);
		ck_assert_str_eq(cfg.jobs[0].eng.e4defrag.donorname, "");
		fio_config_release(&cfg);
	}
}
END_TEST

START_TEST(test_refusal_lookup)
{
	static const struct { const char *name, *line; } cases[] = {
		{ "rbd", "fio: engine rbd needs librbd, which this build does not include" },
		{ "ime_aio", "fio: engine ime_aio needs DDN libime, which this build does not include" },
		{ "windowsaio", "fio: engine windowsaio is Windows' native AIO, which this build does not "
				"include (Linux: libaio, io_uring)" },
		{ "libaio", NULL }, { "RBD", NULL }, { "", NULL },
	};
	struct opt_diag *d = malloc(sizeof(*d));

	ck_assert_ptr_nonnull(d);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		opt_diag_init(d);
		ck_assert_int_eq(opt_apply_engine_refuse(cases[i].name, d), cases[i].line ? -EINVAL : 0);
		ck_assert_uint_eq(d->nr, cases[i].line ? 1 : 0);
		if (cases[i].line)
			ck_assert_str_eq(d->line[0], cases[i].line);
	}
	free(d);
	ck_assert(opt_is_refusal("fio: engine rbd needs librbd, which this build does not include"));
	ck_assert(opt_is_refusal("fio: option 'flow' is not supported by iops"));
	ck_assert(!opt_is_refusal("fio: failed parsing bs=x"));
}
END_TEST

Suite *opt_apply_engine_suite(void);

Suite *opt_apply_engine_suite(void)
{
	Suite *s = suite_create("opt_apply_engine");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_values_and_defaults);
	tcase_add_loop_test(tc, test_bad, 0, sizeof(bad_cases) / sizeof(bad_cases[0]));
	tcase_add_test(tc, test_e4defrag_no_donor_parses);
	tcase_add_test(tc, test_refusal_lookup);
	suite_add_tcase(s, tc);
	return s;
}
