/* SPDX-License-Identifier: MIT */
/* suite mode: fs-performance's container (seed 002) without the network. The configuration
 * comes from the environment (lib/suite/suite_env.c) and is echoed first; then, per iteration
 * and benchmark, "Benchmark: NAME" and its lines: fio runs the quick suite (this binary's
 * quick mode, as a child: its six summary lines are passed on), meta the file-tree benchmark
 * (lib/suite/meta_tree.c). A stop (SIGINT/SIGTERM) is passed on to a running child; what was
 * measured is printed, and nothing the suite created stays behind. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/err.h"
#include "core/rng.h"
#include "modes.h"
#include "plot_out.h"
#include "suite/meta_tree.h"
#include "suite/suite_env.h"
#include "suite_sys.h"

#define SUITE_EXIT_FAILED	3	/* a benchmark failed (its line says why) */

/* Where the results go: stdout, or with --plot a tee to stdout and to the page's text. */
static FILE *suite_out;

static const char *const quick_lines[] = {
	"Max write bandwidth:", "Max read bandwidth:", "Write I/O latency:", "Read I/O latency:",
	"Max write throughput:", "Max read throughput:",
};

static const char *suite_getenv(const char *name)
{
	return getenv(name);
}

static void suite_usage(FILE *out)
{
	fputs("Usage: iops suite [--plot=FILE.html]\n"
	      "fs-performance's benchmarks, configured by environment variables (defaults in brackets):\n"
	      "  BENCHMARKS       fio and/or meta, in order [fio meta]\n"
	      "  TARGET_PATH      directory to test [the working directory]\n"
	      "  ITERATIONS       times to run the list [1]\n"
	      "  STARTUP_DELAY    random delay of up to N s before the first benchmark [0]\n"
	      "  RAND_THINK       random delay of up to N s between iterations [0]\n"
	      "  DELETE_FIRST     1: first remove what earlier iops runs left in TARGET_PATH [0]\n"
	      "  FIO_CAPACITY_MB  fio benchmark's file size, at least 64; scales the meta tree [500]\n"
	      "  FIO_RUNTIME      runtime of each fio step, seconds [120]\n", out);
}

/* A random delay of up to max_s seconds; false when a stop cut it short. */
static bool suite_delay(struct ctl *ctl, struct rng *r, unsigned max_s)
{
	if (!max_s)
		return true;
	return ctl_sleep_until(ctl, clock_now_ns() + rng_below(r, (uint64_t)max_s * 1000000000u + 1));
}

/* Is name "iops-suite.<digits>.<digits>"? */
static bool suite_left_name(const char *name)
{
	const char *p = name + strlen("iops-suite.");
	unsigned dots = 0, digits = 0;

	if (strncmp(name, "iops-suite.", strlen("iops-suite.")))
		return false;
	for (; *p; p++) {
		if (*p == '.' && digits) {
			dots++;
			digits = 0;
		} else if (*p >= '0' && *p <= '9') {
			digits++;
		} else {
			return false;
		}
	}
	return dots == 1 && digits;
}

/* DELETE_FIRST: the trees earlier suite runs left (marker and names checked by meta_tree). */
static int suite_delete_first(const struct suite_env *env)
{
	DIR *dir = opendir(env->target);
	struct dirent *de;
	unsigned removed = 0;
	int ret = 0;

	if (!dir) {
		fprintf(stderr, "iops suite: cannot read %s: %s\n", env->target, err_str(errno));
		return -1;
	}
	while ((de = readdir(dir))) {
		char path[SUITE_PATH_MAX + 256];
		struct iops_err err = { 0 };
		int n;

		if (!suite_left_name(de->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", env->target, de->d_name);
		n = meta_tree_remove_left(path, &err);
		if (n >= 0) {
			fprintf(suite_out, "Removed an earlier iops run's tree: %s (%d files)\n", path, n);
			removed++;
		} else if (n != -ENOENT) {
			fprintf(stderr, "iops suite: DELETE_FIRST: %s\n", err.msg);
			ret = -1;
		}
	}
	closedir(dir);
	if (!removed && !ret)
		fprintf(suite_out, "Removed nothing: no earlier iops files in %s\n", env->target);
	return ret;
}

/* Start this binary's quick mode on the target with stdout to a pipe. */
static pid_t suite_spawn_quick(const struct suite_env *env, int *out_fd)
{
	char runtime[32], size[32];
	char *argv[] = { "iops", "quick", (char *)env->target, runtime, size, NULL };
	int fds[2];
	pid_t pid;

	snprintf(runtime, sizeof(runtime), "--runtime=%u", env->runtime_s);
	snprintf(size, sizeof(size), "--size=%um", env->capacity_mb);
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	pid = suite_sys_spawn(argv, fds[1]);
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		return pid;
	}
	*out_fd = fds[0];
	return pid;
}

/* Pass on the child's summary lines from buf[0..*len), keep an unfinished line. */
static void suite_pass_lines(char *buf, size_t *len, size_t cap, unsigned *seen)
{
	char *start = buf, *nl;

	while ((nl = memchr(start, '\n', *len - (size_t)(start - buf)))) {
		*nl = '\0';
		for (size_t i = 0; i < sizeof(quick_lines) / sizeof(quick_lines[0]); i++)
			if (!strncmp(start, quick_lines[i], strlen(quick_lines[i]))) {
				fprintf(suite_out, "%s\n", start);
				fflush(suite_out);
				++*seen;
			}
		start = nl + 1;
	}
	*len -= (size_t)(start - buf);
	memmove(buf, start, *len);
	if (*len == cap - 1)
		*len = 0;	/* a line this long is not one of ours */
}

/* The fio benchmark. 0 when quick ended well, -1 otherwise (its stderr told why). */
static int suite_fio(const struct suite_env *env, struct ctl *ctl)
{
	char buf[4096];
	size_t len = 0;
	unsigned seen = 0;
	int fd = -1, status = 0, stops = ctl_nr_stops(ctl);
	pid_t pid = suite_spawn_quick(env, &fd);

	if (pid < 0) {
		fprintf(stderr, "iops suite: cannot start the quick suite: %s\n", err_str((int)-pid));
		return -1;
	}
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (ctl_nr_stops(ctl) != stops) {
			stops = ctl_nr_stops(ctl);
			kill(pid, SIGTERM);	/* the child prints its partial summary and cleans up */
		}
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		n = read(fd, buf + len, sizeof(buf) - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
		suite_pass_lines(buf, &len, sizeof(buf), &seen);
	}
	close(fd);
	while (!ctl_child_wait(ctl, pid, &status, &stops))
		kill(pid, SIGTERM);
	/* stopped: quick exits 128+N once it has printed its partial summary */
	if (ctl_stopped(ctl) && WIFEXITED(status) && WEXITSTATUS(status) > 128)
		return 0;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "iops suite: the fio benchmark failed (%s %d)\n",
			WIFEXITED(status) ? "exit status" : "signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		return -1;
	}
	return seen == sizeof(quick_lines) / sizeof(quick_lines[0]) || ctl_stopped(ctl) ? 0 : -1;
}

static void suite_rate(const char *what, unsigned n, double s)
{
	fprintf(suite_out, "%s rate: %.0f files/s\n", what, s > 0 ? n / s : 0.0);
}

/* The meta benchmark, in the tree root TARGET/iops-suite.<pid>.<iteration>. */
static int suite_meta(const struct suite_env *env, unsigned iter, struct ctl *ctl)
{
	char root[SUITE_PATH_MAX + 64];
	struct meta_plan plan;
	struct meta_result r;
	struct iops_err err = { 0 };
	struct statvfs sv;
	int ret;

	if (meta_plan_init(&plan, env->capacity_mb, clock_now_ns() ^ (uint64_t)getpid()) < 0) {
		fprintf(stderr, "iops suite: meta: out of memory\n");
		return -1;
	}
	if (statvfs(env->target, &sv) == 0 && (uint64_t)sv.f_bavail * sv.f_frsize / 2 < plan.bytes + (64u << 20)) {
		fprintf(stderr, "iops suite: meta: %s has %llu MiB free; the tree needs %llu MiB and half the "
			"free space stays free (lower FIO_CAPACITY_MB)\n", env->target,
			(unsigned long long)((uint64_t)sv.f_bavail * sv.f_frsize >> 20),
			(unsigned long long)((plan.bytes >> 20) + 1));
		meta_plan_release(&plan);
		return -1;
	}
	snprintf(root, sizeof(root), "%s/iops-suite.%ld.%u", env->target, (long)getpid(), iter);
	ret = meta_tree_run(&plan, root, ctl, &r, &err);
	if (ret < 0) {
		fprintf(stderr, "iops suite: meta: %s\n", err.msg);
	} else {
		if (r.stopped)
			fprintf(suite_out, "Stopped after %u of %u files\n", r.files_done, plan.nr_files);
		fprintf(suite_out, "Time to create files: %.2f s\n", r.create_s);
		fprintf(suite_out, "Time to remove files: %.2f s\n", r.remove_s);
		fprintf(suite_out, "Files in the tree: %u in %u directories (%.1f MiB)\n", r.files_done, plan.nr_dirs,
		       (double)plan.bytes / (1 << 20));
		suite_rate("Create", r.files_done, r.create_s);
		if (!r.stopped)
			suite_rate("Stat", r.files_done, r.stat_s);
		suite_rate("Remove", r.files_done, r.remove_s);
	}
	meta_plan_release(&plan);
	return ret < 0 ? -1 : 0;
}

/* The exit status; with --plot, the page of what the run printed first (a figure or more:
 * a run that measured nothing has no page, and says so). */
static int suite_end(const char *plot, struct plot_out_stream *ps, int status)
{
	int rc;

	if (!plot)
		return status;
	fflush(suite_out);
	fclose(suite_out);
	suite_out = stdout;
	rc = plot_out_stream_write("suite", ps, plot, "iops suite", "suite");
	return status ? status : rc;
}

int suite_main(int argc, char **argv, struct ctl *ctl)
{
	struct suite_env env;
	struct iops_err err = { 0 };
	char cwd[SUITE_PATH_MAX];
	struct plot_out_stream ps;
	const char *plot;
	struct stat st;
	struct rng r;
	int failed = 0;

	suite_out = stdout;
	if (plot_out_take("suite", &argc, argv, &plot) < 0)
		return 1;
	if (argc > 1) {
		bool help = !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help");

		suite_usage(help ? stdout : stderr);
		if (!help)
			fprintf(stderr, "iops suite: no arguments (it reads the environment): '%s'\n", argv[1]);
		return help ? 0 : 1;
	}
	if (!getcwd(cwd, sizeof(cwd))) {
		fprintf(stderr, "iops suite: cannot read the working directory: %s\n", err_str(errno));
		return 1;
	}
	if (suite_env_load(&env, suite_getenv, cwd, &err) < 0) {
		fprintf(stderr, "iops suite: %s\n", err.msg);
		return 1;
	}
	if (stat(env.target, &st) < 0 || !S_ISDIR(st.st_mode) || access(env.target, W_OK) < 0) {
		fprintf(stderr, "iops suite: TARGET_PATH=%s: not a writable directory\n", env.target);
		return 1;
	}
	if (plot && plot_out_tee("suite", &ps, stdout, &suite_out))
		return 1;
	suite_env_print(&env, suite_out);
	fflush(suite_out);
	rng_init(&r, clock_now_ns() ^ ((uint64_t)getpid() << 32));
	if (env.delete_first && suite_delete_first(&env) < 0)
		return suite_end(plot, &ps, SUITE_EXIT_FAILED);
	if (!suite_delay(ctl, &r, env.startup_delay_s))
		return suite_end(plot, &ps, 0);
	for (unsigned it = 1; it <= env.iterations && !ctl_stopped(ctl); it++) {
		if (it > 1 && !suite_delay(ctl, &r, env.rand_think_s))
			break;
		if (env.iterations > 1)
			fprintf(suite_out, "Iteration: %u of %u\n", it, env.iterations);
		for (unsigned b = 0; b < env.nr_bench && !ctl_stopped(ctl); b++) {
			fprintf(suite_out, "Benchmark: %s\n", suite_bench_name(env.bench[b]));
			fflush(suite_out);
			if ((env.bench[b] == SUITE_BENCH_FIO ? suite_fio(&env, ctl) : suite_meta(&env, it, ctl)) < 0)
				failed = 1;
			fflush(suite_out);
		}
	}
	return suite_end(plot, &ps, failed ? SUITE_EXIT_FAILED : 0);
}
