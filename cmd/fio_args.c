/* SPDX-License-Identifier: MIT */
/* fio_args: fio 3.33's command line on top of fio/opt, fio/jobfile and fio/fioconf.
 *
 * Order of work (ARCHITECTURE.md, Invariants): parse everything, validate everything; nothing here touches
 * the disk except reading job files. */
#include "fio_args.h"
#include "fio_help.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fio/debug.h"
#include "fio/conf/fioconf.h"
#include "fio/progress/idleprof.h"
#include "fio/conf/jobfile.h"
#include "fio/log/logzip.h"
#include "fio/conf/opt.h"
#include "core/parse.h"
#include "fio/progress/status.h"
#include "core/err.h"

#define FIO_VERSION_STRING	"fio-3.33"
#define MAX_JOB_FILES		256
#define MAX_SECTIONS		64

/* Options that exist only on fio's command line (not in job files). */
enum cl_id {
	CL_OUTPUT, CL_OUTPUT_FORMAT, CL_MINIMAL, CL_TERSE_VERSION, CL_ETA, CL_PARSE_ONLY,
	CL_VERSION, CL_HELP, CL_CMDHELP, CL_SHOWCMD, CL_READONLY, CL_WARNINGS_FATAL, CL_MAX_JOBS,
	CL_ETA_NEWLINE, CL_ETA_INTERVAL, CL_SECTION, CL_ENGHELP, CL_UNSUPPORTED, CL_REMOTE,
	CL_STATUS_INTERVAL, CL_DEBUG, CL_IDLE_PROF, CL_INFLATE_LOG,
};

enum cl_arg { CL_NONE, CL_REQUIRED, CL_OPTIONAL };

struct cl_opt {
	const char *name;
	enum cl_arg arg;
	enum cl_id id;
	const char *usage;	/* NULL: not listed by --help */
};

static const struct cl_opt cl_opts[] = {
	{ "debug", CL_REQUIRED, CL_DEBUG, "  --debug=options\tPrint debug lines of these categories (comma list, all, or ? to list them)" },
	{ "parse-only", CL_NONE, CL_PARSE_ONLY, "  --parse-only\t\tCheck options and job files, then exit without I/O" },
	{ "merge-blktrace-only", CL_NONE, CL_UNSUPPORTED, NULL },
	{ "output", CL_REQUIRED, CL_OUTPUT, "  --output\t\tSend the report to this file, not stdout" },
	{ "bandwidth-log", CL_NONE, CL_UNSUPPORTED, NULL },
	{ "minimal", CL_NONE, CL_MINIMAL, "  --minimal\t\tSame as --output-format=terse" },
	{ "output-format", CL_REQUIRED, CL_OUTPUT_FORMAT,
	  "  --output-format=type\tReport format(s): terse,json,json+,normal,openmetrics" },
	{ "terse-version", CL_REQUIRED, CL_TERSE_VERSION,
	  "  --terse-version=type\tLayout version of the terse report: 2, 3 (default), 4 or 5" },
	{ "version", CL_NONE, CL_VERSION, "  --version\t\tShow the version string and exit" },
	{ "help", CL_NONE, CL_HELP, "  --help\t\tShow this summary and exit" },
	{ "cpuclock-test", CL_NONE, CL_UNSUPPORTED, NULL },
	{ "crctest", CL_OPTIONAL, CL_UNSUPPORTED, NULL },
	{ "cmdhelp", CL_OPTIONAL, CL_CMDHELP, "  --cmdhelp=cmd\t\tDescribe one job option, or all with \"all\"" },
	{ "enghelp", CL_OPTIONAL, CL_ENGHELP, "  --enghelp=engine\tShow an engine's options, or list the engines" },
	{ "showcmd", CL_NONE, CL_SHOWCMD, "  --showcmd\t\tPrint a job file as command-line options" },
	{ "eta", CL_REQUIRED, CL_ETA, "  --eta=when\t\tWhen to show the progress (ETA) line\n"
	  "            \t\tOne of \"always\", \"never\" or \"auto\"" },
	{ "eta-newline", CL_REQUIRED, CL_ETA_NEWLINE, "  --eta-newline=t\tEnd the progress line with a new line every 't'" },
	{ "eta-interval", CL_REQUIRED, CL_ETA_INTERVAL, NULL },	/* fio's --help does not list it */
	{ "status-interval", CL_REQUIRED, CL_STATUS_INTERVAL,
	  "  --status-interval=t\tPrint the full report every 't' while jobs run" },
	{ "readonly", CL_NONE, CL_READONLY, "  --readonly\t\tRefuse every job that would write" },
	{ "section", CL_REQUIRED, CL_SECTION,
	  "  --section=name\tRun only this job file section; may be repeated" },
	{ "alloc-size", CL_REQUIRED, CL_UNSUPPORTED, NULL },
	{ "warnings-fatal", CL_NONE, CL_WARNINGS_FATAL, "  --warnings-fatal\tFail when parsing produces a warning" },
	{ "max-jobs", CL_REQUIRED, CL_MAX_JOBS, "  --max-jobs=nr\t\tRefuse more jobs than this" },
	/* fio_main() hands these to cmd/server.c and cmd/client.c: here only in a job sent to a server */
	{ "server", CL_OPTIONAL, CL_REMOTE, "  --server=args\t\tServe jobs to iops clients (ip:HOST,PORT, ip6:, sock:PATH)" },
	{ "daemonize", CL_REQUIRED, CL_REMOTE, "  --daemonize=pidfile\tRun the server in the background, its pid in pidfile" },
	{ "client", CL_REQUIRED, CL_REMOTE, "  --client=hostname\tRun the jobs on iops server(s) at hostname (or a hosts file)" },
	{ "remote-config", CL_REQUIRED, CL_UNSUPPORTED, NULL },
	{ "idle-prof", CL_REQUIRED, CL_IDLE_PROF,
	  "  --idle-prof=option\tReport CPU idleness: system, percpu, or calibrate (only)" },
	{ "inflate-log", CL_REQUIRED, CL_INFLATE_LOG, "  --inflate-log=log\tPrint a log_store_compressed log as text" },
	{ "trigger-file", CL_REQUIRED, CL_UNSUPPORTED, NULL },
	{ "trigger-timeout", CL_REQUIRED, CL_UNSUPPORTED, NULL },
	{ "trigger", CL_REQUIRED, CL_UNSUPPORTED, NULL },
	{ "trigger-remote", CL_REQUIRED, CL_UNSUPPORTED, NULL },
	{ "aux-path", CL_REQUIRED, CL_UNSUPPORTED, NULL },
	{ "append-terse", CL_NONE, CL_UNSUPPORTED, NULL },
	{ "latency-log", CL_NONE, CL_UNSUPPORTED, NULL },
};

#define CL_NR (sizeof(cl_opts) / sizeof(cl_opts[0]))

struct args_state {
	struct fio_config *cfg;
	struct opt_diag *d;
	struct opt_job global;
	struct opt_job cur;
	bool have_cur;
	struct opt_job_list list;
	const char *files[MAX_JOB_FILES];
	unsigned nr_files;
	bool showcmd, readonly, warnings_fatal;
	unsigned max_jobs;
	const char *sections[MAX_SECTIONS];
	unsigned nr_sections;
	struct job_kv *global_kv;
	unsigned nr_global_kv, cap_global_kv;
	/* a job a server received: its job files, in memory (NULL: from the disk) */
	const struct fio_args_file *mem;
	unsigned nr_mem;
};

static int fio_inflate_log(const char *path)
{
	struct iops_err err = { 0 };
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "fio: cannot open log '%s': %s\n", path, err_str(errno));
		return 1;
	}
	if (logzip_inflate(fd, stdout, &err) < 0) {
		fflush(stdout);
		fprintf(stderr, "%s\n", err.msg);
		close(fd);
		return 1;
	}
	close(fd);
	return 0;
}

static void print_usage(FILE *out)
{
	fprintf(out, "%s\n", FIO_VERSION_STRING);
	fprintf(out, "fio [options] [job options] <job file(s)>\n");
	for (size_t i = 0; i < CL_NR; i++)
		if (cl_opts[i].usage)
			fprintf(out, "%s\n", cl_opts[i].usage);
	fprintf(out, "\nJob options: --name=NAME starts a job, options before the first --name are\n"
		"global. 'fio --cmdhelp' lists the job options iops supports.\n"
		"This is iops' fio mode, compatible with fio 3.33.\n");
}

static int set_output_format(struct fio_config *cfg, const char *val, struct opt_diag *d)
{
	char buf[256];
	char *p, *comma;
	unsigned fmt = 0;

	if (parse_strip(val, buf, sizeof(buf)) || !buf[0]) {
		opt_diag_add(d, false, "fio: failed parsing output-format");
		return -EINVAL;
	}
	for (p = buf; p; p = comma ? comma + 1 : NULL) {
		comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		if (!strcmp(p, "normal"))
			fmt |= OUT_NORMAL;
		else if (!strcmp(p, "json"))
			fmt |= OUT_JSON;
		else if (!strcmp(p, "json+"))
			fmt |= OUT_JSON_PLUS;
		else if (!strcmp(p, "terse"))
			fmt |= OUT_TERSE;
		else if (!strcmp(p, "openmetrics"))	/* iops' own, last in the stream (docs/metrics.md) */
			fmt |= OUT_OPENMETRICS;
		else {
			opt_diag_add(d, false, "fio: invalid output format %s", p);
			opt_diag_add(d, false, "fio: failed parsing output-format");
			return -EINVAL;
		}
	}
	cfg->output_format = fmt;
	return 0;
}

/* One command-line-only option. Returns 0, 1 (exit now with *status), or -EINVAL. */
static int handle_cl(struct args_state *st, const struct cl_opt *co, const char *val, int *status)
{
	struct fio_config *cfg = st->cfg;
	struct opt_diag *d = st->d;

	switch (co->id) {
	case CL_OUTPUT:
		if (!*val) {
			opt_diag_add(d, false, "fio: output file open error: No such file or directory");
			return -EINVAL;
		}
		free(cfg->output_path);
		cfg->output_path = strdup(val);
		if (!cfg->output_path)
			return -ENOMEM;
		return 0;
	case CL_OUTPUT_FORMAT:
		return set_output_format(cfg, val, d);
	case CL_MINIMAL:
		cfg->output_format = OUT_TERSE;
		return 0;
	case CL_TERSE_VERSION:
		if (strcmp(val, "2") && strcmp(val, "3") && strcmp(val, "4") && strcmp(val, "5")) {
			opt_diag_add(d, false, "fio: bad terse version format");
			return -EINVAL;
		}
		cfg->terse_version = (unsigned)(val[0] - '0');
		return 0;
	case CL_ETA:
		if (!strcmp(val, "always"))
			cfg->eta = ETA_ALWAYS;
		else if (!strcmp(val, "never"))
			cfg->eta = ETA_NEVER;
		else if (!strcmp(val, "auto"))
			cfg->eta = ETA_AUTO;
		else {
			opt_diag_add(d, false, "fio: invalid eta mode '%s' (always, never or auto)", val);
			return -EINVAL;
		}
		return 0;
	case CL_ETA_NEWLINE:
	case CL_ETA_INTERVAL: {
		/* fio: a plain number is seconds (--eta-interval=250 is 250 s) */
		bool newline = co->id == CL_ETA_NEWLINE;
		uint64_t ns;

		if (parse_time_ns(val, 1000000000ull, &ns)) {
			opt_diag_add(d, false, "fio: failed parsing eta %s %s", newline ? "time" : "interval", val);
			return -EINVAL;
		}
		if (newline) {
			if (!ns) {
				opt_diag_add(d, false, "fio: eta new line time too short");
				return -EINVAL;
			}
			cfg->eta_newline_ns = ns;
		} else {
			if (ns < 250000000ull) {
				opt_diag_add(d, false, "fio: eta interval time too short (250msec min)");
				return -EINVAL;
			}
			cfg->eta_interval_ns = ns;
		}
		return 0;
	}
	case CL_STATUS_INTERVAL: {	/* status-interval */
		int r = status_parse_interval(val, &cfg->status_interval_ns);

		if (r == -ERANGE)
			opt_diag_add(d, false, "fio: status interval too small");
		else if (r)
			opt_diag_add(d, false, "fio: failed parsing time %s", val);
		return r ? -EINVAL : 0;
	}
	case CL_PARSE_ONLY:
		cfg->parse_only = true;
		d->dry = true;	/* the options after it: no look at the machine, as fio's dry run */
		return 0;
	case CL_VERSION:
		printf("%s\n", FIO_VERSION_STRING);
		*status = 0;
		return 1;
	case CL_HELP:
		print_usage(stdout);
		*status = 0;
		return 1;
	case CL_CMDHELP:
		fio_help_cmdhelp(val);
		fflush(stdout);
		*status = 0;
		return 1;
	case CL_INFLATE_LOG:	/* the text of a log_store_compressed=1 file, on stdout */
		*status = fio_inflate_log(val);
		fflush(stdout);
		return 1;
	case CL_ENGHELP:
		*status = fio_help_enghelp(val);
		fflush(stdout);
		return 1;
	case CL_SHOWCMD:
		st->showcmd = true;
		return 0;
	case CL_READONLY:
		st->readonly = true;
		return 0;
	case CL_WARNINGS_FATAL:
		st->warnings_fatal = true;
		return 0;
	case CL_MAX_JOBS: {
		int64_t v;

		if (parse_int(val, 1024, &v) || v < 1) {
			opt_diag_add(d, false, "fio: failed parsing max-jobs=%s", val);
			return -EINVAL;
		}
		st->max_jobs = v > JOB_MAX_JOBS ? JOB_MAX_JOBS : (unsigned)v;
		return 0;
	}
	case CL_SECTION:
		if (!*val || st->nr_sections >= MAX_SECTIONS) {
			opt_diag_add(d, false, "fio: failed parsing section=%s", val);
			return -EINVAL;
		}
		st->sections[st->nr_sections++] = val;
		return 0;
	case CL_DEBUG: {
		unsigned mask = 0;
		char bad[208];
		int r = debug_parse(val, &mask, bad, sizeof(bad));

		if (r == 1) {
			printf("fio: dumping debug options:%s\n", debug_names());
			*status = 0;
			return 1;
		}
		if (r) {
			opt_diag_add(d, false, "fio: debug mask %s not found", bad);
			return -EINVAL;
		}
		/* fio's notes, in the order given */
		for (const char *p = val; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
			size_t len = strchr(p, ',') ? (size_t)(strchr(p, ',') - p) : strlen(p);

			if (len == 3 && !strncmp(p, "all", 3)) {
				printf("fio: set all debug options\n");
				continue;
			}
			for (unsigned c = 0; c < DEBUG_NR; c++)
				if (strlen(debug_name(c)) == len && !strncmp(debug_name(c), p, len))
					printf("fio: set debug option %s\n", debug_name(c));
		}
		cfg->debug_mask |= mask;
		cfg->debug_out = stdout;
		if (debug_on(cfg->debug_mask, DEBUG_PARSE))
			d->debug = stdout;
		return 0;
	}
	case CL_IDLE_PROF: {
		int r = idleprof_parse(val);

		if (r == IDLE_CALIBRATE_ONLY) {
			*status = idleprof_calibrate_print(stdout);
			fflush(stdout);
			return 1;
		}
		if (r < 0) {
			opt_diag_add(d, false, "fio: incorrect idle-prof option: %s", val);
			return -EINVAL;
		}
		cfg->idle_prof = (unsigned)r;
		return 0;
	}
	case CL_UNSUPPORTED:
		opt_diag_add(d, false, "fio: option '--%s' is not supported by iops", co->name);
		return -EINVAL;
	case CL_REMOTE:
		opt_diag_add(d, false, "fio: option '--%s' cannot be sent to a server", co->name);
		return -EINVAL;
	}
	return -EINVAL;
}

static int push_cur(struct args_state *st)
{
	int ret;

	if (!st->have_cur)
		return 0;
	ret = opt_job_list_push(&st->list, &st->cur);
	if (ret == -E2BIG)
		opt_diag_add(st->d, false, "fio: too many jobs (max %d)", JOB_MAX_JOBS);
	st->have_cur = false;
	return ret;
}

/* A job option from the command line. */
static int handle_job_opt(struct args_state *st, const struct opt_def *od, const char *val)
{
	struct opt_job *target;
	int ret;

	if (val && !*val && od->type != OPT_T_FLAG) {
		opt_diag_add(st->d, false, "fio: option %s requires an argument", od->name);
		return -EINVAL;
	}
	if (!strcmp(od->name, "name")) {
		char name[JOB_NAME_MAX];

		if (parse_strip(val, name, sizeof(name))) {
			opt_diag_add(st->d, false, "fio: job name too long");
			return -EINVAL;
		}
		ret = push_cur(st);
		if (ret)
			return ret;
		if (jobfile_is_global(name))
			return 0;	/* --name=global: back to the global section */
		ret = opt_job_copy(&st->cur, &st->global);
		if (ret)
			return ret;
		opt_job_clear_kv(&st->cur);
		st->cur.is_global = false;
		st->have_cur = true;
	}
	target = st->have_cur ? &st->cur : &st->global;
	{
		unsigned before = target->nr_kv;

		ret = opt_apply(target, od, val, st->d);
		if (ret)
			return ret;
		if (target == &st->global)
			for (unsigned k = before; k < target->nr_kv; k++)
				if (opt_kv_add(&st->global_kv, &st->nr_global_kv, &st->cap_global_kv,
					       target->kv[k].key, target->kv[k].value))
					return -ENOMEM;
	}
	return 0;
}

/* getopt_long-style lookup over both tables. */
struct found {
	const struct cl_opt *cl;
	const struct opt_def *od;
};

static int lookup(const char *name, size_t len, struct found *f, struct opt_diag *d, const char *arg)
{
	unsigned nr = 0, nr_od = 0;
	const struct opt_def *od;

	f->cl = NULL;
	f->od = NULL;
	for (size_t i = 0; i < CL_NR; i++)
		if (strlen(cl_opts[i].name) == len && !strncmp(cl_opts[i].name, name, len)) {
			f->cl = &cl_opts[i];
			return 0;
		}
	od = opt_find_prefix(name, len, &nr_od);
	if (od && nr_od == 1) {
		/* exact job-option match, or a unique prefix among job options */
		const char *alias = opt_alias(od);
		bool exact = (strlen(od->name) == len && !strncmp(od->name, name, len)) ||
			     (alias && strlen(alias) == len && !strncmp(alias, name, len));

		if (exact) {
			f->od = od;
			return 0;
		}
	}
	for (size_t i = 0; i < CL_NR; i++)
		if (!strncmp(cl_opts[i].name, name, len)) {
			nr++;
			f->cl = &cl_opts[i];
		}
	if (nr + nr_od == 1) {
		if (!nr)
			f->cl = NULL, f->od = od;
		return 0;
	}
	{
		char msg[OPT_DIAG_LEN];
		size_t pos = 0;
		char key[128];
		const char *s;

		if (nr + nr_od > 1) {
			int w = snprintf(msg, sizeof(msg), "fio: option '%s' is ambiguous; possibilities:", arg);

			pos = w > 0 ? (size_t)w : 0;
			for (unsigned i = 0; i < opt_count() && pos < sizeof(msg); i++) {
				const struct opt_def *o = opt_at(i);
				const char *names[2] = { o->name, opt_alias(o) };

				for (int k = 0; k < 2 && pos < sizeof(msg); k++)
					if (names[k] && !strncmp(names[k], name, len)) {
						w = snprintf(msg + pos, sizeof(msg) - pos, " '--%s'", names[k]);
						pos += w > 0 ? (size_t)w : 0;
					}
			}
			for (size_t i = 0; i < CL_NR && pos < sizeof(msg); i++)
				if (!strncmp(cl_opts[i].name, name, len)) {
					w = snprintf(msg + pos, sizeof(msg) - pos, " '--%s'", cl_opts[i].name);
					pos += w > 0 ? (size_t)w : 0;
				}
			/* a list longer than msg is cut (snprintf terminates; the loops stop at the end) */
			opt_diag_add(d, false, "%s", msg);
		} else {
			opt_diag_add(d, false, "fio: unrecognized option '%s'", arg);
		}
		opt_diag_add(d, false, "fio: unrecognized option '%s'", arg);
		if (nr + nr_od > 1 && len < sizeof(key)) {	/* fio suggests for ambiguous ones only */
			memcpy(key, name, len);
			key[len] = '\0';
			s = opt_suggest(key);
			if (s)
				opt_diag_add(d, false, "Did you mean %s?", s);
		}
	}
	return -EINVAL;
}

static int parse_argv(struct args_state *st, int argc, char **argv, int *status)
{
	bool only_files = false;

	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		const char *name, *eq, *val = NULL;
		size_t len;
		struct found f;
		int ret;

		if (only_files || arg[0] != '-' || !strcmp(arg, "-")) {
			if (st->nr_files >= MAX_JOB_FILES) {
				opt_diag_add(st->d, false, "fio: too many job files (max %d)", MAX_JOB_FILES);
				return -E2BIG;
			}
			st->files[st->nr_files++] = arg;
			continue;
		}
		if (!strcmp(arg, "--")) {
			only_files = true;
			continue;
		}
		if (arg[1] != '-' && strlen(arg) == 2) {
			/* short options: fio knows -h and -v; everything else is getopt's complaint */
			if (!strcmp(arg, "-h")) {
				print_usage(stdout);
				*status = 0;
				return 1;
			}
			if (!strcmp(arg, "-v")) {
				printf("%s\n", FIO_VERSION_STRING);
				*status = 0;
				return 1;
			}
			opt_diag_add(st->d, false, "fio: invalid option -- '%c'", arg[1]);
			opt_diag_add(st->d, false, "fio: unrecognized option '%s'", arg);
			return -EINVAL;
		}
		name = arg[1] == '-' ? arg + 2 : arg + 1;	/* getopt_long_only: -name=x works too */
		eq = strchr(name, '=');
		len = eq ? (size_t)(eq - name) : strlen(name);
		if (eq)
			val = eq + 1;
		ret = lookup(name, len, &f, st->d, arg);
		if (ret)
			return ret;
		{
			bool required = f.cl ? f.cl->arg == CL_REQUIRED : f.od->type != OPT_T_FLAG;
			bool none = f.cl && f.cl->arg == CL_NONE;
			const char *canon = f.cl ? f.cl->name : f.od->name;

			if (none && val) {
				opt_diag_add(st->d, false, "fio: option '--%s' doesn't allow an argument", canon);
				opt_diag_add(st->d, false, "fio: unrecognized option '%s'", arg);
				return -EINVAL;
			}
			if (required && !val) {
				if (i + 1 >= argc) {
					opt_diag_add(st->d, false, "fio: option '--%.*s' requires an argument",
						     (int)len, name);
					opt_diag_add(st->d, false, "fio: unrecognized option '%s'", arg);
					{
						const char *s = opt_suggest(canon);

						if (s)
							opt_diag_add(st->d, false, "Did you mean %s?", s);
					}
					return -EINVAL;
				}
				val = argv[++i];
			}
		}
		if (f.cl) {
			ret = handle_cl(st, f.cl, val ? val : "", status);
			if (ret)
				return ret;
			continue;
		}
		ret = handle_job_opt(st, f.od, val);
		if (ret)
			return ret;
	}
	return push_cur(st);
}

/* fio warns about time_based without runtime when it adds a command-line job, i.e. before
 * it opens any job file: keep that order (not for --parse-only, where fio stays quiet). */
static void warn_cmdline_jobs(struct args_state *st)
{
	if (st->cfg->parse_only)
		return;
	for (unsigned i = 0; i < st->list.nr; i++) {
		struct job *j = &st->list.v[i].j;

		if (j->time_based && j->runtime_ns == 0) {
			opt_diag_add(st->d, false, "fio: time_based requires a runtime/timeout setting");
			j->time_based = false;
		}
	}
}

static int load_files(struct args_state *st)
{
	struct jobfile_keywords kw;

	jobfile_keywords_init(&kw);
	kw.from_in = kw.no_include = st->mem != NULL;
	for (unsigned fi = 0; fi < st->nr_files; fi++) {
		struct jobfile jf;
		FILE *in = stdin;
		int ret;

		if (st->mem) {	/* a server's job: only the files the client sent */
			unsigned k = 0;

			while (k < st->nr_mem && strcmp(st->mem[k].name, st->files[fi]))
				k++;
			in = k < st->nr_mem && st->mem[k].len ? fmemopen((void *)st->mem[k].data, st->mem[k].len, "r")
							      : fopen("/dev/null", "r");
			if (k == st->nr_mem || !in) {
				if (in)
					fclose(in);
				opt_diag_add(st->d, false, "fio: unable to open '%s' job file", st->files[fi]);
				return -ENOENT;
			}
		}
		ret = jobfile_load(&jf, st->files[fi], in, &kw, st->d);
		if (in != stdin)
			fclose(in);
		if (ret)
			return ret;
		if (st->showcmd) {
			ret = jobfile_showcmd(&jf, stdout);
			jobfile_release(&jf);
			if (ret)
				return ret;
			continue;
		}
		if (fi > 0) {
			/* every job file after the first starts from fio's defaults */
			opt_job_release(&st->global);
			opt_job_init(&st->global);
			st->global.is_global = true;
		}
		ret = jobfile_apply(&jf, &st->global, &st->global_kv, &st->nr_global_kv, &st->cap_global_kv,
				    &st->list, fi, fi > 0, st->sections, st->nr_sections, st->d);
		jobfile_release(&jf);
		if (ret)
			return ret;
	}
	return 0;
}

static int check_readonly(const struct fio_config *cfg, struct opt_diag *d)
{
	for (unsigned i = 0; i < cfg->nr_jobs; i++)
		if (cfg->jobs[i].rw_has_write || cfg->jobs[i].rw_has_trim) {
			opt_diag_add(d, false, "fio: job <%s> has write or trim bit set, but fio is in "
				     "read-only mode", cfg->jobs[i].name);
			return -EINVAL;
		}
	return 0;
}

int fio_args_parse(int argc, char **argv, struct fio_config *cfg, int *exit_status)
{
	return fio_args_parse_mem(argc, argv, NULL, 0, cfg, exit_status);
}

int fio_args_parse_mem(int argc, char **argv, const struct fio_args_file *mem, unsigned nr_mem,
		       struct fio_config *cfg, int *exit_status)
{
	struct args_state *st;
	int ret, status = 1;

	memset(cfg, 0, sizeof(*cfg));
	cfg->output_format = OUT_NORMAL;
	cfg->eta = ETA_AUTO;
	cfg->kb_base_global = 1024;

	st = calloc(1, sizeof(*st));
	if (!st) {
		fprintf(stderr, "fio: out of memory\n");
		*exit_status = 1;
		return 1;
	}
	st->d = malloc(sizeof(*st->d));
	if (!st->d) {
		free(st);
		fprintf(stderr, "fio: out of memory\n");
		*exit_status = 1;
		return 1;
	}
	opt_diag_init(st->d);
	st->cfg = cfg;
	st->mem = mem;
	st->nr_mem = nr_mem;
	st->max_jobs = JOB_MAX_JOBS;
	opt_job_init(&st->global);
	st->global.is_global = true;

	if (argc < 2) {
		print_usage(stdout);
		fflush(stdout);
		fprintf(stderr, "No job(s) defined\n\n");
		goto out;
	}
	ret = parse_argv(st, argc, argv, &status);
	if (ret == 1)
		goto out;
	if (ret)
		goto fail;
	if (st->showcmd) {
		if (st->have_cur)
			opt_job_release(&st->cur);
		ret = load_files(st);
		if (ret)
			goto fail;
		status = 0;
		goto out;
	}
	warn_cmdline_jobs(st);
	ret = load_files(st);
	if (ret)
		goto fail;
	if (!st->list.nr) {
		if (cfg->parse_only) {
			status = 0;	/* fio: nothing to check is not an error here */
			goto out;
		}
		print_usage(stdout);
		fflush(stdout);
		fprintf(stderr, "No job(s) defined\n\n");
		goto out;
	}
	ret = fioconf_build(cfg, &st->list, st->global_kv, st->nr_global_kv, st->d);
	st->global_kv = NULL;
	st->nr_global_kv = 0;
	if (ret)
		goto fail;
	if (st->warnings_fatal && st->d->nr) {
		fio_help_flush_diag(st->d);
		fio_config_release(cfg);
		goto out;
	}
	if (st->readonly && check_readonly(cfg, st->d)) {
		fio_config_release(cfg);
		goto fail;
	}
	if (cfg->nr_jobs > st->max_jobs) {
		opt_diag_add(st->d, false, "error: maximum number of jobs (%u) reached.", st->max_jobs);
		fio_config_release(cfg);
		goto fail;
	}
	if (!cfg->parse_only)
		fio_help_flush_diag(st->d);	/* warnings; fio does not print them for --parse-only */
	opt_job_release(&st->global);
	opt_kv_free(st->global_kv, st->nr_global_kv);
	free(st->d);
	free(st);
	return 0;

fail:
	if (ret == -ENOMEM)
		opt_diag_add(st->d, false, "fio: out of memory");
	fio_help_flush_diag(st->d);
	status = 1;
out:
	fflush(stdout);
	if (st->have_cur)
		opt_job_release(&st->cur);
	opt_job_list_release(&st->list);
	opt_job_release(&st->global);
	opt_kv_free(st->global_kv, st->nr_global_kv);
	fio_config_release(cfg);
	free(st->d);
	free(st);
	*exit_status = status;
	return 1;
}
