/* SPDX-License-Identifier: MIT */
/* Unit tests of the shared appliers (lib/fio/conf/opt_apply.c): every option whose value goes as is
 * into a field of the job (opt_table.c's O_UINT, O_BOOL, O_U64, O_WORD) lands in that field, and
 * a bad value leaves it alone. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "opt_apply_fixture.h"

static int apply1(struct opt_job *oj, const char *name, const char *val)
{
	const struct opt_def *od = opt_find(name);

	ck_assert_msg(od != NULL, "option %s not in the table", name);
	opt_diag_init(diag);
	return opt_apply(oj, od, val, diag);
}

enum field_kind { F_UINT, F_BOOL, F_U64, F_WORD };
static const struct {
	const char *name;
	size_t off;
	enum field_kind kind;
} field_cases[] = {
	{ "bs_unaligned", offsetof(struct opt_job, j.bs_unaligned), F_BOOL },
	{ "randrepeat", offsetof(struct opt_job, j.randrepeat), F_BOOL },
	{ "norandommap", offsetof(struct opt_job, j.norandommap), F_BOOL },
	{ "iodepth_batch_complete_min", offsetof(struct opt_job, j.iodepth_batch_complete_min), F_UINT },
	{ "random_generator", offsetof(struct opt_job, j.random_generator), F_WORD },
	{ "allrandrepeat", offsetof(struct opt_job, j.allrandrepeat), F_BOOL },
	{ "fallocate", offsetof(struct opt_job, j.fallocate), F_WORD },
	{ "fsync", offsetof(struct opt_job, j.fsync_every), F_UINT },
	{ "fdatasync", offsetof(struct opt_job, j.fdatasync_every), F_UINT },
	{ "direct", offsetof(struct opt_job, j.direct), F_BOOL },
	{ "loops", offsetof(struct opt_job, j.loops), F_UINT },
	{ "time_based", offsetof(struct opt_job, j.time_based), F_BOOL },
	{ "do_verify", offsetof(struct opt_job, j.do_verify), F_BOOL },
	{ "invalidate", offsetof(struct opt_job, j.invalidate), F_BOOL },
	{ "fadvise_hint", offsetof(struct opt_job, j.fadvise_hint), F_WORD },
	{ "sync", offsetof(struct opt_job, j.sync), F_WORD },
	{ "create_on_open", offsetof(struct opt_job, j.create_on_open), F_BOOL },
	{ "end_fsync", offsetof(struct opt_job, j.end_fsync), F_BOOL },
	{ "fsync_on_close", offsetof(struct opt_job, j.fsync_on_close), F_BOOL },
	{ "unlink", offsetof(struct opt_job, j.unlink), F_BOOL },
	{ "stonewall", offsetof(struct opt_job, j.stonewall), F_BOOL },
	{ "new_group", offsetof(struct opt_job, j.new_group), F_BOOL },
	{ "thread", offsetof(struct opt_job, j.thread), F_BOOL },
	{ "threads", offsetof(struct opt_job, j.thread), F_BOOL },
	{ "log_avg_msec", offsetof(struct opt_job, j.log_avg_msec), F_UINT },
	{ "group_reporting", offsetof(struct opt_job, j.group_reporting), F_BOOL },
	{ "zero_buffers", offsetof(struct opt_job, j.zero_buffers), F_BOOL },
	{ "refill_buffers", offsetof(struct opt_job, j.refill_buffers), F_BOOL },
	{ "clat_percentiles", offsetof(struct opt_job, j.clat_percentiles), F_BOOL },
	{ "lat_percentiles", offsetof(struct opt_job, j.lat_percentiles), F_BOOL },
	{ "slat_percentiles", offsetof(struct opt_job, j.slat_percentiles), F_BOOL },
	{ "significant_figures", offsetof(struct opt_job, j.sig_figs), F_UINT },
	{ "gtod_reduce", offsetof(struct opt_job, j.gtod_reduce), F_BOOL },
	{ "kb_base", offsetof(struct opt_job, j.kb_base), F_WORD },
	{ "unit_base", offsetof(struct opt_job, j.unit_base), F_WORD },
	{ "allow_overwrite", offsetof(struct opt_job, j.allow_overwrite), F_BOOL },
	{ "unified_rw_reporting", offsetof(struct opt_job, j.unified_rw_rep), F_WORD },
	{ "continue_on_error", offsetof(struct opt_job, j.cont_on_err), F_WORD },
	{ "lockfile", offsetof(struct opt_job, j.lockfile), F_WORD },
	{ "serialize_overlap", offsetof(struct opt_job, j.serialize_overlap), F_BOOL },
	{ "fill_device", offsetof(struct opt_job, j.fill_device), F_BOOL },
	{ "file_append", offsetof(struct opt_job, j.file_append), F_BOOL },
	{ "offset_align", offsetof(struct opt_job, j.offset_align), F_U64 },
	{ "number_ios", offsetof(struct opt_job, j.number_ios), F_U64 },
	{ "openfiles", offsetof(struct opt_job, j.open_files), F_UINT },
	{ "write_barrier", offsetof(struct opt_job, j.write_barrier), F_U64 },
	{ "atomic", offsetof(struct opt_job, j.atomic), F_BOOL },
	{ "overwrite", offsetof(struct opt_job, j.overwrite), F_BOOL },
	{ "verify_only", offsetof(struct opt_job, j.verify_only), F_BOOL },
	{ "iomem_align", offsetof(struct opt_job, j.proc.mem_align), F_U64 },
	{ "verify_interval", offsetof(struct opt_job, j.verify_interval), F_UINT },
	{ "verify_offset", offsetof(struct opt_job, j.verify_offset), F_UINT },
	{ "verify_fatal", offsetof(struct opt_job, j.verify_fatal), F_BOOL },
	{ "verify_dump", offsetof(struct opt_job, j.verify_dump), F_BOOL },
	{ "experimental_verify", offsetof(struct opt_job, j.experimental_verify), F_BOOL },
	{ "verify_state_load", offsetof(struct opt_job, j.verify_state_load), F_BOOL },
	{ "verify_state_save", offsetof(struct opt_job, j.verify_state_save), F_BOOL },
	{ "trim_percentage", offsetof(struct opt_job, j.trim_percentage), F_UINT },
	{ "trim_verify_zero", offsetof(struct opt_job, j.trim_verify_zero), F_BOOL },
	{ "read_iolog_chunked", offsetof(struct opt_job, j.read_iolog_chunked), F_BOOL },
	{ "replay_no_stall", offsetof(struct opt_job, j.replay_no_stall), F_BOOL },
	{ "replay_scale", offsetof(struct opt_job, j.replay_scale), F_U64 },
	{ "replay_time_scale", offsetof(struct opt_job, j.replay_time_scale), F_UINT },
	{ "zonemode", offsetof(struct opt_job, j.zone_mode), F_WORD },
	{ "read_beyond_wp", offsetof(struct opt_job, j.read_beyond_wp), F_BOOL },
	{ "max_open_zones", offsetof(struct opt_job, j.max_open_zones), F_UINT },
	{ "job_max_open_zones", offsetof(struct opt_job, j.job_max_open_zones), F_UINT },
	{ "ignore_zone_limits", offsetof(struct opt_job, j.ignore_zone_limits), F_BOOL },
	{ "latency_run", offsetof(struct opt_job, j.lat_run), F_BOOL },
	{ "write_hint", offsetof(struct opt_job, j.write_hint), F_WORD },
	{ "create_only", offsetof(struct opt_job, j.create_only), F_BOOL },
	{ "allow_mounted_write", offsetof(struct opt_job, j.allow_mounted_write), F_BOOL },
	{ "pre_read", offsetof(struct opt_job, j.pre_read), F_BOOL },
	{ "unlink_each_loop", offsetof(struct opt_job, j.unlink_each_loop), F_BOOL },
	{ "exitall", offsetof(struct opt_job, j.exitall), F_BOOL },
	{ "exit_what", offsetof(struct opt_job, j.exit_what), F_WORD },
	{ "exitall_on_error", offsetof(struct opt_job, j.exitall_on_error), F_BOOL },
	{ "log_entries", offsetof(struct opt_job, j.log_entries), F_UINT },
	{ "log_hist_coarseness", offsetof(struct opt_job, j.log_hist_coarseness), F_UINT },
	{ "log_compression", offsetof(struct opt_job, j.log_zip_bytes), F_UINT },
	{ "log_unix_epoch", offsetof(struct opt_job, j.log_unix_epoch), F_BOOL },
	{ "log_alternate_epoch", offsetof(struct opt_job, j.log_alt_epoch), F_BOOL },
	{ "block_error_percentiles", offsetof(struct opt_job, j.block_error_pct), F_BOOL },
	{ "scramble_buffers", offsetof(struct opt_job, j.scramble_buffers), F_BOOL },
	{ "buffer_compress_percentage", offsetof(struct opt_job, j.compress_pct), F_UINT },
	{ "buffer_compress_chunk", offsetof(struct opt_job, j.compress_chunk), F_UINT },
	{ "dedupe_percentage", offsetof(struct opt_job, j.dedupe_pct), F_UINT },
	{ "dedupe_working_set_percentage", offsetof(struct opt_job, j.dedupe_ws_pct), F_UINT },
	{ "dedupe_global", offsetof(struct opt_job, j.dedupe_global), F_BOOL },
	{ "error_dump", offsetof(struct opt_job, j.error_dump), F_BOOL },
	{ "cgroup_nodelete", offsetof(struct opt_job, j.proc.cgroup_nodelete), F_BOOL },
	{ "cgroup_weight", offsetof(struct opt_job, j.proc.cgroup_weight), F_UINT },
	{ "hugepage-size", offsetof(struct opt_job, j.proc.hugepage_bytes), F_U64 },
	{ "flow_id", offsetof(struct opt_job, j.flow_id), F_UINT },
	{ "flow", offsetof(struct opt_job, j.flow), F_UINT },
	{ "bs_is_seq_rand", offsetof(struct opt_job, j.bs_is_seq_rand), F_BOOL },
	{ "cpuload", offsetof(struct opt_job, j.eng.cpuio.load), F_UINT },
	{ "cpumode", offsetof(struct opt_job, j.eng.cpuio.mode), F_WORD },
	{ "exit_on_io_done", offsetof(struct opt_job, j.eng.cpuio.exit_on_io_done), F_BOOL },
	{ "std_redirect", offsetof(struct opt_job, j.eng.exec.std_redirect), F_BOOL },
	{ "port", offsetof(struct opt_job, j.eng.net.port), F_UINT },
	{ "listen", offsetof(struct opt_job, j.eng.net.listen), F_BOOL },
	{ "nodelay", offsetof(struct opt_job, j.eng.net.nodelay), F_BOOL },
	{ "pingpong", offsetof(struct opt_job, j.eng.net.pingpong), F_BOOL },
	{ "window_size", offsetof(struct opt_job, j.eng.net.window_size), F_U64 },
	{ "mss", offsetof(struct opt_job, j.eng.net.mss), F_UINT },
	{ "ttl", offsetof(struct opt_job, j.eng.net.ttl), F_UINT },
	{ "stat_type", offsetof(struct opt_job, j.eng.stat_type), F_WORD },
};

START_TEST(test_field_values_land)
{
	struct opt_job oj;
	const struct opt_def *od = opt_find(field_cases[_i].name);
	char *at;
	char v[24];
	uint64_t want;

	ck_assert_ptr_nonnull(od);
	opt_job_init(&oj);
	at = (char *)&oj + field_cases[_i].off;
	switch (field_cases[_i].kind) {
	case F_BOOL:
		ck_assert_int_eq(apply1(&oj, od->name, "0"), 0);
		ck_assert(!*(bool *)at);
		ck_assert_int_eq(apply1(&oj, od->name, "1"), 0);
		ck_assert(*(bool *)at);
		ck_assert_int_ne(apply1(&oj, od->name, "x"), 0);
		ck_assert(*(bool *)at);
		break;
	case F_WORD:
		for (const struct opt_choice *c = od->choices; c->word; c++) {
			ck_assert_int_eq(apply1(&oj, od->name, c->word), 0);
			ck_assert_uint_eq(*(unsigned *)at, (unsigned)c->value);
		}
		want = *(unsigned *)at;
		ck_assert_int_ne(apply1(&oj, od->name, "x"), 0);
		ck_assert_uint_eq(*(unsigned *)at, want);
		break;
	case F_UINT:
	case F_U64:
		want = od->max != OPT_NOMAX ? (uint64_t)od->max : (uint64_t)od->min + 3;
		snprintf(v, sizeof(v), "%llu", (unsigned long long)want);
		ck_assert_int_eq(apply1(&oj, od->name, v), 0);
		if (field_cases[_i].kind == F_U64)
			ck_assert_uint_eq(*(uint64_t *)at, want);
		else
			ck_assert_uint_eq(*(unsigned *)at, want);
		ck_assert_int_ne(apply1(&oj, od->name, "x"), 0);
		if (field_cases[_i].kind == F_U64)
			ck_assert_uint_eq(*(uint64_t *)at, want);
		else
			ck_assert_uint_eq(*(unsigned *)at, want);
		break;
	}
	opt_job_release(&oj);
}
END_TEST

Suite *opt_apply_suite(void)
{
	Suite *s = suite_create("opt_apply");
	TCase *tc = tcase_create("fields");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_field_values_land, 0, sizeof(field_cases) / sizeof(field_cases[0]));
	suite_add_tcase(s, tc);
	return s;
}
