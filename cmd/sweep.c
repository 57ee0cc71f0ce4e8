/* SPDX-License-Identifier: MIT */
/* sweep mode: simple-fio's matrix (seed 004). Every step (rw x bs x samples, after an optional
 * sequential prefill) is a fio command line that this binary runs as a child in fio mode,
 * with its JSON written to the step's result directory; the numbers come back from that JSON
 * (lib/core/jsonr.c), so they are exactly fio mode's. The configuration (lib/suite/
 * sweep_conf.c) is checked and the space planned before anything is created; the data files
 * are iops-sweep.<pid>.<n>, checked free here, created by the first step and removed at the end, on error and on a
 * stop (SIGINT/SIGTERM: passed on to the running child, the partial table printed). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/err.h"
#include "core/jsonr.h"
#include "files.h"
#include "modes.h"
#include "plot_out.h"
#include "suite/sweep_conf.h"
#include "suite/sweep_out.h"
#include "suite_sys.h"
#include "client.h"
#include "sweep_remote.h"

#define SWEEP_ARGV_MAX	48
#define SWEEP_PATH	(PATH_MAX + SWEEP_VAL_MAX + 8)
#define SWEEP_JSON_MAX	(16u << 20)	/* a step's fio JSON is a few KiB */

struct sweep_run {
	struct sweep_conf conf;
	char dir[SWEEP_PATH];		/* where the data files go */
	char files[64];			/* --filename_format of the data files, "" with --filename */
	char results[PATH_MAX];		/* step directories' parent */
	bool tmp_results;		/* results is a private directory removed at the end */
	bool made_filename;		/* --filename did not exist: ours to remove */
	unsigned nr_made;		/* data files the steps create (iops-sweep.<pid>.0 ...) */
	FILE *progress;			/* headers and reports: stdout, or stderr with csv/json */
	struct sweep_row *rows;
	unsigned nr_rows;
	int failed;
	struct sweep_remote remote;	/* --client: across servers (remote.nr_clients > 0) */
};

static void sweep_usage(FILE *out)
{
	fputs("Usage: iops sweep [CONFIG] [options]\n"
	      "Runs every rw x bs x sample step as one fio command line (simple-fio's matrix).\n"
	      "CONFIG is simple-fio's config.file (key=value, # comments); options override it.\n"
	      "  --rw=LIST            read,write,randread,randwrite,rw,readwrite,randrw [randread]\n"
	      "  --bs=LIST            block sizes, commas or spaces between them [4k]\n"
	      "  --samples=N          runs of each rw and bs [1]\n"
	      "  --prefill[=BOOL]     write the files sequentially (256k, QD1) first [false]\n"
	      "  --ioengine, --size, --numjobs, --iodepth, --runtime, --time_based, --direct,\n"
	      "  --log_avg_msec, --rwmixread, --rate_iops, --directory, --filename: passed to\n"
	      "  every step [ioengine=libaio size=1g numjobs=1 iodepth=1 directory=.]\n"
	      "  --results=DIR        keep each step's fio JSON (and logs) in DIR/fio_<bs>_<rw>_sample<N>_<date>/\n"
	      "  --output-format=F    normal, csv, json or openmetrics (json,openmetrics: both): stdout\n"
	      "                       holds only the document [normal]\n"
	      "  --output=FILE        write the document(s) to FILE, whole (a temporary file renamed)\n"
	      "  --keep               leave the data files in place\n"
	      "  --client=HOSTS       run every step on these iops servers at once (a hosts file, or\n"
	      "                       HOST[,PORT] entries; repeatable): All clients per step\n"
	      "  --client-wait=S, --client-ready-wait=S   as iops --client's [10, 600]\n"
	      "  --plot=FILE.html     also draw the table as a page of charts (iops plot)\n", out);
}

static int sweep_read_config(struct sweep_conf *c, const char *path, struct iops_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;
	char *text;
	ssize_t n;

	if (fd < 0) {
		iops_err_set(err, errno, "cannot read the config file %s: %s", path, err_str(errno));
		return -1;
	}
	text = malloc(65537);
	n = text ? read(fd, text, 65537) : -1;
	close(fd);
	if (n < 0 || n > 65536 || memchr(text, '\0', (size_t)n)) {
		iops_err_set(err, EINVAL, "%s: %s", path, n < 0 ? "cannot read it" : "not a config file (binary or over 64 KiB)");
		free(text);
		return -1;
	}
	text[n] = '\0';
	ret = sweep_conf_file(c, text, path, err);
	free(text);
	return ret;
}

static int sweep_args(struct sweep_run *r, int argc, char **argv, struct iops_err *err)
{
	const char *config = NULL;

	for (int i = 1; i < argc; i++) {
		if (argv[i][0] != '-') {
			if (config) {
				iops_err_set(err, EINVAL, "one config file only: '%s' and '%s'", config, argv[i]);
				return -1;
			}
			config = argv[i];
		}
	}
	sweep_conf_init(&r->conf);
	if (config && sweep_read_config(&r->conf, config, err) < 0)
		return -1;
	for (int i = 1; i < argc; i++) {
		char key[64];
		const char *eq;

		if (argv[i][0] != '-')
			continue;
		if (sweep_remote_arg(&r->remote, argv[i], err)) {
			if (iops_err_isset(err))
				return -1;
			continue;
		}
		eq = strchr(argv[i], '=');
		if (strncmp(argv[i], "--", 2) || !argv[i][2] ||
		    snprintf(key, sizeof(key), "%.*s", eq ? (int)(eq - argv[i] - 2) : 63, argv[i] + 2) >= (int)sizeof(key)) {
			iops_err_set(err, EINVAL, "unknown option '%s' (see 'iops sweep --help')", argv[i]);
			return -1;
		}
		if (sweep_conf_set(&r->conf, key, eq ? eq + 1 : NULL, false, err) < 0)
			return -1;
	}
	return 0;
}

static bool sweep_writable_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode) && access(path, W_OK | X_OK) == 0;
}

/* The directory path is in (its parent's name) into buf. */
static const char *sweep_parent(const char *path, char *buf, size_t n)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return ".";
	snprintf(buf, n, "%.*s", slash == path ? 1 : (int)(slash - path), path);
	return buf;
}

static bool sweep_parent_ok(const char *path)
{
	char parent[SWEEP_PATH];

	return sweep_writable_dir(sweep_parent(path, parent, sizeof(parent)));
}

/* Everything checked and planned; nothing created yet. */
static int sweep_plan(struct sweep_run *r, struct iops_err *err)
{
	struct sweep_conf *c = &r->conf;
	const char *filename = c->pass[SWEEP_P_FILENAME];
	char path[SWEEP_PATH];
	struct statvfs sv;
	struct stat st;
	uint64_t free_b;

	if (!c->pass[SWEEP_P_DIRECTORY][0] && !filename[0]) {
		if (!getcwd(c->pass[SWEEP_P_DIRECTORY], SWEEP_VAL_MAX)) {
			iops_err_set(err, errno, "cannot read the working directory: %s", err_str(errno));
			return -1;
		}
	}
	snprintf(r->dir, sizeof(r->dir), "%s", c->pass[SWEEP_P_DIRECTORY][0] ? c->pass[SWEEP_P_DIRECTORY] : ".");
	if (!sweep_writable_dir(r->dir)) {
		iops_err_set(err, ENOTDIR, "directory=%s: not a writable directory", r->dir);
		return -1;
	}
	if (c->results[0] && (stat(c->results, &st) == 0 ? !sweep_writable_dir(c->results) : !sweep_parent_ok(c->results))) {
		iops_err_set(err, ENOTDIR, "results=%s: not a writable directory (nor one that can be made)", c->results);
		return -1;
	}
	if (filename[0]) {
		bool rel = filename[0] != '/' && c->pass[SWEEP_P_DIRECTORY][0];

		if (snprintf(path, sizeof(path), "%s%s%s", rel ? r->dir : "", rel ? "/" : "", filename) >= (int)sizeof(path)) {
			iops_err_set(err, ENAMETOOLONG, "filename=%s: path too long", filename);
			return -1;
		}
		if (lstat(path, &st) == 0) {
			if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
				iops_err_set(err, EINVAL, "filename=%s: not a regular file or block device", path);
				return -1;
			}
			return 0;	/* the user's own file: no space needed, never removed */
		}
		if (!sweep_parent_ok(path)) {
			iops_err_set(err, ENOTDIR, "filename=%s: its directory is not writable", path);
			return -1;
		}
		r->made_filename = true;
		snprintf(r->dir, sizeof(r->dir), "%s", path);	/* the file to create */
	} else {
		snprintf(r->files, sizeof(r->files), "iops-sweep.%ld.$jobnum", (long)getpid());
	}
	if (statvfs(r->made_filename ? sweep_parent(r->dir, path, sizeof(path)) : r->dir, &sv) < 0) {
		iops_err_set(err, errno, "cannot read the free space of %s: %s", r->dir, err_str(errno));
		return -1;
	}
	free_b = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (!sweep_space_fits(sweep_space_needed(c), free_b)) {
		iops_err_set(err, ENOSPC, "%s has %llu MiB free; the files need %llu MiB (size x numjobs) and a "
			     "tenth of the free space stays free (lower size or numjobs)", r->dir,
			     (unsigned long long)(free_b >> 20), (unsigned long long)((sweep_space_needed(c) + (1u << 20) - 1) >> 20));
		return -1;
	}
	return 0;
}

static void sweep_data_path(const struct sweep_run *r, unsigned n, char *buf, size_t len)
{
	snprintf(buf, len, "%s/iops-sweep.%ld.%u", r->dir, (long)getpid(), n);
}

static void sweep_remove_data(struct sweep_run *r)
{
	char path[SWEEP_PATH + 64];

	if (r->made_filename && !r->conf.keep)
		unlink(r->dir);
	for (unsigned n = 0; n < r->nr_made; n++) {
		sweep_data_path(r, n, path, sizeof(path));
		if (!r->conf.keep)
			unlink(path);
	}
	if (r->conf.keep && (r->nr_made || r->made_filename))
		fprintf(stderr, "iops sweep: kept the data files (%s%s)\n", r->dir,
			r->nr_made ? "/iops-sweep.<pid>.*" : "");
	if (r->tmp_results)
		rmdir(r->results);
}

/* The step directories' parent; the data files' names checked free (the first step's fio
 * mode creates them O_EXCL and marks them as iops' own, so later write steps may reuse them). */
static int sweep_prepare(struct sweep_run *r, struct iops_err *err)
{
	char path[SWEEP_PATH + 64];
	struct stat st;

	for (unsigned n = 0; n < (r->files[0] ? r->conf.numjobs : 0); n++) {
		sweep_data_path(r, n, path, sizeof(path));
		if (lstat(path, &st) == 0) {
			iops_err_set(err, EEXIST, "%s exists already: not overwriting it", path);
			return -1;
		}
	}
	if (r->conf.results[0]) {
		snprintf(r->results, sizeof(r->results), "%s", r->conf.results);
		if (mkdir(r->results, 0755) < 0 && errno != EEXIST) {
			iops_err_set(err, errno, "cannot make %s: %s", r->results, err_str(errno));
			return -1;
		}
	} else {
		const char *tmp = getenv("TMPDIR");

		snprintf(r->results, sizeof(r->results), "%s/iops-sweep.XXXXXX", tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(r->results)) {
			iops_err_set(err, errno, "cannot make a directory for the steps' JSON in %s: %s",
				     tmp && *tmp ? tmp : "/tmp", err_str(errno));
			return -1;
		}
		r->tmp_results = true;
	}
	r->nr_made = r->files[0] ? r->conf.numjobs : 0;
	return 0;
}

static int sweep_load_json(const char *path, struct jsonr *j, struct iops_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *text;
	ssize_t n;
	int ret;

	if (fd < 0 || fstat(fd, &st) < 0 || st.st_size <= 0 || st.st_size > SWEEP_JSON_MAX) {
		iops_err_set(err, EINVAL, "no fio JSON in %s", path);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	text = malloc((size_t)st.st_size);
	n = text ? read(fd, text, (size_t)st.st_size) : -1;
	close(fd);
	ret = n == st.st_size ? jsonr_parse(j, text, (size_t)n, err) : (iops_err_set(err, EIO, "cannot read %s", path), -1);
	free(text);
	return ret < 0 ? -1 : 0;
}

/* Step i (-1: prefill). 0 when it ran (stopped or not), -1 when it failed. */
static int sweep_step(struct sweep_run *r, int i, struct ctl *ctl)
{
	struct sweep_step st;
	char name[256], sdir[PATH_MAX + 256], json[PATH_MAX + 272], logs[PATH_MAX + 272], store[8192];
	char *argv[SWEEP_ARGV_MAX];
	struct iops_err err = { 0 };
	struct sweep_row *row = &r->rows[r->nr_rows];
	struct jsonr j;
	time_t now = time(NULL);
	struct tm tm;
	int argc, status = 0, stops;
	pid_t pid;

	localtime_r(&now, &tm);
	sweep_step_at(&r->conf, i, &st);
	if (sweep_step_dirname(&st, &tm, name, sizeof(name)) < 0 ||
	    snprintf(sdir, sizeof(sdir), "%s/%s", r->results, name) >= (int)sizeof(sdir)) {
		fprintf(stderr, "iops sweep: result path too long in %s\n", r->results);
		return -1;
	}
	if (mkdir(sdir, 0755) < 0) {
		fprintf(stderr, "iops sweep: cannot make %s: %s\n", sdir, err_str(errno));
		return -1;
	}
	snprintf(json, sizeof(json), "%s/fio.json", sdir);
	snprintf(logs, sizeof(logs), "%s/fio", sdir);
	argc = sweep_step_argv(&r->conf, &st, r->files[0] ? r->files : NULL, json,
			       !r->tmp_results && r->conf.pass[SWEEP_P_LOG_AVG_MSEC][0] ? logs : NULL,
			       argv, SWEEP_ARGV_MAX, store, sizeof(store));
	if (argc < 0) {
		fprintf(stderr, "iops sweep: the step's command line is too long\n");
		rmdir(sdir);
		return -1;
	}
	sweep_print_step(r->progress, &r->conf, &st, &tm, argv, argc);
	stops = ctl_nr_stops(ctl);
	pid = suite_sys_spawn(argv, STDERR_FILENO);	/* stdout: ours only */
	if (pid < 0) {
		fprintf(stderr, "iops sweep: cannot start fio mode: %s\n", err_str((int)-pid));
		rmdir(sdir);
		return -1;
	}
	while (!ctl_child_wait(ctl, pid, &status, &stops))
		kill(pid, SIGTERM);	/* fio mode stops, writes what it measured, removes nothing of ours */
	if (sweep_load_json(json, &j, &err) == 0) {
		if (i >= 0) {
			memset(row, 0, sizeof(*row));
			memcpy(row->rw, st.rw, strlen(st.rw) + 1);
			memcpy(row->bs, st.bs, strlen(st.bs) + 1);
			row->sample = st.sample;
			row->stopped = ctl_stopped(ctl);
			if (sweep_row_from_json(row, &j) == 0)
				r->nr_rows++;
		}
		sweep_report(r->progress, &j, r->conf.numjobs);
		fflush(r->progress);
		jsonr_free(&j);
	} else if (!ctl_stopped(ctl)) {
		fprintf(stderr, "iops sweep: %s\n", err.msg);
	}
	if (r->tmp_results) {
		unlink(json);
		rmdir(sdir);
	}
	if (ctl_stopped(ctl))
		return 0;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "iops sweep: the step failed (fio mode's %s %d); the sweep stops here\n",
			WIFEXITED(status) ? "exit status" : "signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		return -1;
	}
	return 0;
}

/* --plot: the page of the sweep's JSON document. 0 or 1 (printed). */
static int sweep_plot(const struct sweep_run *r, const char *path)
{
	struct plot_out_stream s;

	if (plot_out_stream_open("sweep", &s))
		return 1;
	if (sweep_json(s.f, r->rows, r->nr_rows) < 0) {
		fputs("iops sweep: --plot: out of memory\n", stderr);
		fclose(s.f);
		free(s.buf);
		return 1;
	}
	return plot_out_stream_write("sweep", &s, path, "iops sweep", "sweep");
}

/* The final table, CSV or JSON of the rows, and their OpenMetrics (host: the label, NULL for
 * none), into --output's file (committed whole, or removed) or stdout. 0 or -1 (printed). */
static int sweep_document(const struct sweep_run *r, struct files_out *of, bool stopped, unsigned n,
			  const char *host)
{
	FILE *out = of->f ? of->f : stdout;
	int werr = 0, rc;

	if (r->conf.out == SWEEP_OUT_NORMAL) {
		fprintf(out, "\n");
		if (stopped)
			fprintf(out, "Stopped after %u of %u steps\n", r->nr_rows, n);
		sweep_table(out, r->rows, r->nr_rows);
	} else if (r->conf.out == SWEEP_OUT_CSV) {
		sweep_csv(out, r->rows, r->nr_rows);
	} else if (r->conf.out == SWEEP_OUT_JSON && sweep_json(out, r->rows, r->nr_rows) < 0) {
		werr = 1;
	}
	if (r->conf.openmetrics && sweep_openmetrics(out, r->rows, r->nr_rows, host) < 0)
		werr = 1;
	werr |= fflush(out) != 0 || ferror(out);
	/* --output: the file replaces the old one whole, and only when it was written whole */
	if (of->f && (rc = werr ? (files_out_abort(of), -EIO) : files_out_commit(of)) < 0) {
		fprintf(stderr, "iops sweep: cannot write %s: %s\n", r->conf.output, err_str(-rc));
		werr = 1;
	}
	return werr ? -1 : 0;
}

/* iops sweep --client: the steps on the servers (cmd/sweep_remote.c). The rows are All
 * clients', of several hosts: no host label in their OpenMetrics. */
static int sweep_main_remote(struct sweep_run *r, struct files_out *of, struct ctl *ctl, const char *plot)
{
	int ret = 0;

	if (r->conf.results[0] && mkdir(r->conf.results, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "iops sweep: cannot make %s: %s\n", r->conf.results, err_str(errno));
		ret = 1;
	}
	r->remote.conf = &r->conf;
	r->remote.results = r->conf.results;
	r->remote.progress = r->conf.out == SWEEP_OUT_NORMAL ? stdout : stderr;
	r->remote.rows = r->rows;
	if (!ret)
		ret = sweep_remote_run(&r->remote, ctl);
	r->nr_rows = r->remote.nr_rows;
	if (sweep_document(r, of, ctl_stopped(ctl), sweep_nr_steps(&r->conf), NULL) < 0)
		ret = 1;
	if (plot && r->nr_rows && sweep_plot(r, plot))
		ret = 1;
	free(r->rows);
	free(r);
	return ret;
}

int sweep_main(int argc, char **argv, struct ctl *ctl)
{
	struct sweep_run *r = calloc(1, sizeof(*r));
	struct iops_err err = { 0 };
	struct files_out of = { 0 };
	struct utsname un;
	char k8s[128];
	const char *plot;
	unsigned n;
	int ret = 0, rc;

	if (!r) {
		fputs("iops sweep: out of memory\n", stderr);
		return 1;
	}
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			sweep_usage(stdout);
			free(r);
			return 0;
		}
	if (plot_out_take("sweep", &argc, argv, &plot) < 0) {
		free(r);
		return 1;
	}
	r->remote.wait_ms = CLIENT_WAIT_MS;
	r->remote.ready_wait_ms = CLIENT_READY_MS;
	if (sweep_args(r, argc, argv, &err) < 0 || (!r->remote.nr_clients && sweep_plan(r, &err) < 0)) {
		fprintf(stderr, "iops sweep: %s\n", err.msg);
		free(r);
		return 1;
	}
	n = sweep_nr_steps(&r->conf);
	r->rows = calloc(n, sizeof(*r->rows));
	if (r->rows && r->conf.output[0] && (rc = files_out_open(&of, r->conf.output)) < 0)
		iops_err_set(&err, -rc, "cannot write %s: %s", r->conf.output, err_str(-rc));
	if (r->rows && !iops_err_isset(&err) && r->remote.nr_clients)	/* across servers: their space */
		return sweep_main_remote(r, &of, ctl, plot);
	if (!r->rows || iops_err_isset(&err) || sweep_prepare(r, &err) < 0) {
		fprintf(stderr, "iops sweep: %s\n", r->rows ? err.msg : "out of memory");
		files_out_abort(&of);
		free(r->rows);
		free(r);
		return 1;
	}
	r->progress = r->conf.out == SWEEP_OUT_NORMAL ? stdout : stderr;
	sweep_conf_k8s_names(&r->conf, k8s, sizeof(k8s));
	if (k8s[0])
		fprintf(stderr, "iops sweep: config keys for the Kubernetes renderer, not used here: %s\n", k8s);
	if (r->conf.prefill && !ctl_stopped(ctl) && sweep_step(r, -1, ctl) < 0)
		ret = 1;
	for (unsigned i = 0; i < n && !ret && !ctl_stopped(ctl); i++)
		if (sweep_step(r, (int)i, ctl) < 0)
			ret = 1;
	if (sweep_document(r, &of, ctl_stopped(ctl), n, uname(&un) == 0 ? un.nodename : NULL) < 0)
		ret = 1;
	if (plot && r->nr_rows && sweep_plot(r, plot))
		ret = 1;
	sweep_remove_data(r);
	free(r->rows);
	free(r);
	return ret;
}
