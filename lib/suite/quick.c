/* SPDX-License-Identifier: MIT */
#include "suite/quick.h"

#include <errno.h>
#include <string.h>

#include "core/json.h"
#include "core/parse.h"
#include "fio/report/out_json.h"
#include "fio/report/out_openmetrics.h"

/* Run order: the read of each pair first, so that step 1 (a read) has fio lay the file out. */
const struct quick_step quick_steps[QUICK_STEPS] = {
	{ "seqread", "read", "1m", 16, false, DDIR_READ, QUICK_BW },
	{ "seqwrite", "write", "1m", 16, false, DDIR_WRITE, QUICK_BW },
	{ "randread-qd1", "randread", "4k", 1, false, DDIR_READ, QUICK_LAT },
	{ "randwrite-qd1", "randwrite", "4k", 1, false, DDIR_WRITE, QUICK_LAT },
	{ "randread-qd32", "randread", "4k", 32, true, DDIR_READ, QUICK_IOPS },
	{ "randwrite-qd32", "randwrite", "4k", 32, true, DDIR_WRITE, QUICK_IOPS },
};

void quick_usage(FILE *out)
{
	fputs("Usage: iops quick [DIR] [--runtime=S] [--size=SIZE] [--output-format=normal|json|json+|openmetrics]\n"
	      "                  [--output=FILE] [--plot=FILE.html]\n"
	      "Six fio steps on a test file in DIR (default .; 'iops' alone = 'iops quick .'):\n"
	      "1m QD16, 4k QD1, 4k QD32 reads and writes, 10 s each; file 1g (<= 1/10 free).\n"
	      "--output-format takes a list (json,openmetrics); --output=FILE writes it to FILE whole.\n"
	      "--plot: also draw the result as a page of charts (iops plot).\n", out);
}

static int quick_bad(struct iops_err *err, const char *opt, const char *val, const char *why)
{
	iops_err_set(err, EINVAL, "iops: quick: bad value '%s' for %s: %s", val, opt, why);
	return -EINVAL;
}

static int quick_opt(const char *arg, struct quick_opts *o, struct iops_err *err)
{
	const char *eq = strchr(arg, '=');
	const char *val = eq ? eq + 1 : "";
	size_t klen = eq ? (size_t)(eq - arg) : strlen(arg);
	uint64_t v;

	if (klen == 9 && !strncmp(arg, "--runtime", klen)) {
		if (parse_time_ns(val, 1000000000ull, &v) < 0 || v % 1000000000ull)
			return quick_bad(err, "--runtime", val, "whole seconds");
		v /= 1000000000ull;
		if (v < 1 || v > QUICK_MAX_RUNTIME)
			return quick_bad(err, "--runtime", val, "1 s to 1 day");
		o->runtime_s = v;
		return 0;
	}
	if (klen == 6 && !strncmp(arg, "--size", klen)) {
		if (parse_size(val, 1024, &v) < 0)
			return quick_bad(err, "--size", val, "a size (256m)");
		if (v < SUITE_MIB || v > (1ull << 50))
			return quick_bad(err, "--size", val, "1 MiB to 1 PiB");
		o->size = v;
		o->size_set = true;
		return 0;
	}
	if (klen == 15 && !strncmp(arg, "--output-format", klen)) {
		static const char *const names[4] = { "normal", "json", "json+", "openmetrics" };
		bool fmt[4] = { false, false, false, false };

		for (const char *p = val; ; p++) {
			size_t n = strcspn(p, ",");
			unsigned i = 0;

			while (i < 4 && (strlen(names[i]) != n || strncmp(p, names[i], n)))
				i++;
			if (i == 4)
				return quick_bad(err, "--output-format", val, "normal, json, json+ or openmetrics (or a list)");
			fmt[i] = true;
			p += n;
			if (!*p)
				break;
		}
		o->normal = fmt[0];
		o->json = fmt[1] || fmt[2];
		o->json_plus = fmt[2];
		o->openmetrics = fmt[3];
		return 0;
	}
	if (klen == 8 && !strncmp(arg, "--output", klen)) {
		if (!*val || strlen(val) >= sizeof(o->output))
			return quick_bad(err, "--output", val, "a file name");
		memcpy(o->output, val, strlen(val) + 1);
		return 0;
	}
	iops_err_set(err, EINVAL, "iops: quick: unknown option '%s'", arg);
	return -EINVAL;
}

/* IOPS_QUICK: options only (no directory), separated by blanks. */
static int quick_opts_env(const char *env, struct quick_opts *o, struct iops_err *err)
{
	char tok[256];

	while (*env) {
		size_t n;

		env += strspn(env, " \t");
		n = strcspn(env, " \t");
		if (!n)
			break;
		if (n >= sizeof(tok) || env[0] != '-' || !env[1]) {
			iops_err_set(err, EINVAL, "iops: quick: IOPS_QUICK holds options only (--runtime=S --size=SIZE), "
				     "not '%.*s'", (int)n, env);
			return -EINVAL;
		}
		memcpy(tok, env, n);
		tok[n] = '\0';
		if (quick_opt(tok, o, err) < 0)
			return -EINVAL;
		env += n;
	}
	return 0;
}

int quick_opts_parse(int argc, char **argv, const char *env, struct quick_opts *o, struct iops_err *err)
{
	memset(o, 0, sizeof(*o));
	o->normal = true;
	o->runtime_s = QUICK_DEF_RUNTIME;
	o->size = QUICK_DEF_SIZE;
	if (env && quick_opts_env(env, o, err) < 0)
		return -EINVAL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			o->help = true;
			return 0;
		}
		if (a[0] == '-' && a[1]) {
			if (quick_opt(a, o, err) < 0)
				return -EINVAL;
			continue;
		}
		if (o->dir) {
			iops_err_set(err, EINVAL, "iops: quick: one directory only, not '%s'", a);
			return -EINVAL;
		}
		o->dir = a;
	}
	if (!o->dir)
		o->dir = ".";
	return suite_check_dir(o->dir, "quick", err);
}

unsigned quick_numjobs(long cpus)
{
	if (cpus < 1)
		return 1;
	return cpus < QUICK_MAX_JOBS ? (unsigned)cpus : QUICK_MAX_JOBS;
}

void quick_step_shape(const struct quick_plan *p, unsigned k, unsigned *depth, unsigned *jobs)
{
	const struct quick_step *s = &quick_steps[k];
	unsigned n = s->multi && p->numjobs > 1 ? p->numjobs : 1;

	*depth = p->psync ? 1 : s->depth;
	*jobs = p->psync ? suite_psync_jobs(s->depth, n) : n;
}

int quick_step_argv(struct suite_argv *a, const struct quick_plan *p, unsigned k, bool run)
{
	const struct quick_step *s = &quick_steps[k];
	unsigned depth, jobs;

	suite_argv_init(a);
	suite_argv_add(a, "fio");
	suite_argv_add(a, "--name=%s", s->name);
	suite_argv_add(a, "--directory=%s", p->dir);
	suite_argv_add(a, "--filename=%s", p->file);
	suite_argv_add(a, "--size=%llum", (unsigned long long)(p->size / SUITE_MIB));
	suite_argv_add(a, "--ioengine=%s", p->psync ? "psync" : "libaio");
	suite_argv_add(a, "--direct=%d", p->direct ? 1 : 0);
	suite_argv_add(a, "--rw=%s", s->rw);
	suite_argv_add(a, "--bs=%s", s->bs);
	quick_step_shape(p, k, &depth, &jobs);
	if (!p->psync)
		suite_argv_add(a, "--iodepth=%u", depth);
	if (jobs > 1) {
		suite_argv_add(a, "--numjobs=%u", jobs);
		suite_argv_add(a, "--group_reporting");
	}
	suite_argv_add(a, "--time_based");
	suite_argv_add(a, "--runtime=%llu", (unsigned long long)p->runtime_s);
	suite_argv_add(a, "--lat_percentiles=1");
	if (run && k > 0)
		suite_argv_add(a, "--allow_overwrite=1");
	return a->overflow ? -E2BIG : 0;
}

/* Seed order: write before read, bandwidth, latency, throughput. */
static const unsigned quick_seed_order[QUICK_STEPS] = { 1, 0, 3, 2, 5, 4 };

void quick_summary_print(FILE *out, const struct suite_figures *f)
{
	for (unsigned i = 0; i < QUICK_STEPS; i++) {
		unsigned k = quick_seed_order[i];
		const struct quick_step *s = &quick_steps[k];
		bool w = s->ddir == DDIR_WRITE;

		if (!f[k].valid)
			continue;
		if (s->kind == QUICK_BW)
			fprintf(out, "Max %s bandwidth: %.0f MiB/s\n", w ? "write" : "read",
				f[k].bw_bps / (double)SUITE_MIB);
		else if (s->kind == QUICK_LAT)
			fprintf(out, "%s I/O latency: %.3f ms\n", w ? "Write" : "Read", f[k].lat_mean_ns / 1e6);
		else
			fprintf(out, "Max %s throughput: %.0f IOPS\n", w ? "write" : "read", f[k].iops);
	}
}

void quick_table_print(FILE *out, const struct quick_plan *p, const struct suite_figures *f)
{
	fprintf(out, "%-15s %-9s %3s %5s %4s %9s %9s %9s %9s %9s %9s\n", "step", "rw", "bs", "depth",
		"jobs", "IOPS", "MiB/s", "mean ms", "p50 ms", "p99 ms", "p99.9 ms");
	for (unsigned k = 0; k < QUICK_STEPS; k++) {
		const struct quick_step *s = &quick_steps[k];
		unsigned depth, jobs;

		if (!f[k].valid)
			continue;
		quick_step_shape(p, k, &depth, &jobs);
		fprintf(out, "%-15s %-9s %3s %5u %4u %9.0f %9.1f %9.3f %9.3f %9.3f %9.3f\n", s->name, s->rw,
			s->bs, depth, jobs, f[k].iops, f[k].bw_bps / (double)SUITE_MIB,
			f[k].lat_mean_ns / 1e6, (double)f[k].p50_ns / 1e6, (double)f[k].p99_ns / 1e6,
			(double)f[k].p999_ns / 1e6);
	}
}

void quick_step_line(FILE *out, unsigned k, const struct suite_figures *f)
{
	fprintf(out, "[%u/%u] %s: ", k + 1, QUICK_STEPS, quick_steps[k].name);
	if (!f->valid)
		fputs("no I/O done\n", out);
	else
		fprintf(out, "%.1f MiB/s, %.0f IOPS, lat %.3f ms (%.1f s)\n", f->bw_bps / (double)SUITE_MIB,
			f->iops, f->lat_mean_ns / 1e6, (double)f->runtime_ms / 1000.0);
}

static const char *const quick_json_keys[QUICK_STEPS] = {
	"read_bw_mib_s", "write_bw_mib_s", "read_lat_ms", "write_lat_ms", "read_iops", "write_iops",
};

int quick_json_print(FILE *out, const struct quick_plan *p, const struct suite_figures *f,
		     const struct report *const *rep, const struct suite_argv *cmd, bool plus)
{
	struct json_writer w;

	json_init(&w, out);
	json_begin_object(&w, NULL);
	json_string(&w, "iops version", IOPS_VERSION);
	json_string(&w, "mode", "quick");
	json_string(&w, "directory", p->dir);
	json_string(&w, "file", p->file);
	json_uint(&w, "file_size", p->size);
	json_uint(&w, "runtime_per_step", p->runtime_s);
	json_int(&w, "direct", p->direct);
	json_string(&w, "ioengine", p->psync ? "psync" : "libaio");
	json_begin_object(&w, "summary");
	for (unsigned k = 0; k < QUICK_STEPS; k++) {
		if (!f[k].valid)
			continue;
		if (quick_steps[k].kind == QUICK_BW)
			json_float(&w, quick_json_keys[k], f[k].bw_bps / (double)SUITE_MIB);
		else if (quick_steps[k].kind == QUICK_LAT)
			json_float(&w, quick_json_keys[k], f[k].lat_mean_ns / 1e6);
		else
			json_float(&w, quick_json_keys[k], f[k].iops);
	}
	json_end_object(&w);
	json_begin_array(&w, "steps");
	for (unsigned k = 0; k < QUICK_STEPS; k++) {
		char line[SUITE_LINE_MAX];

		if (!rep[k])
			continue;
		suite_argv_line(&cmd[k], line, sizeof(line));
		json_begin_object(&w, NULL);
		json_uint(&w, "step", k + 1);
		json_string(&w, "name", quick_steps[k].name);
		json_string(&w, "command", line);
		json_end_object(&w);
	}
	json_end_array(&w);
	json_begin_array(&w, "jobs");	/* fio's job entries, in step order */
	for (unsigned k = 0; k < QUICK_STEPS; k++)
		if (rep[k] && rep[k]->nr_units)
			out_json_unit(&w, rep[k], &rep[k]->units[0], plus);
	json_end_array(&w);
	json_end_object(&w);
	return json_finish(&w);
}

int quick_openmetrics_print(FILE *out, const struct report *const *rep, const char *host)
{
	struct out_om_unit units[QUICK_STEPS];
	unsigned n = 0;

	for (unsigned k = 0; k < QUICK_STEPS; k++)
		if (rep[k] && rep[k]->nr_units)
			units[n++] = (struct out_om_unit){ rep[k], &rep[k]->units[0], host, quick_steps[k].name };
	return out_openmetrics_units(out, units, n, true);
}
