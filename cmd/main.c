/* SPDX-License-Identifier: MIT */
/* iops: dispatch to a mode, and do a container PID 1's duties.
 *
 * Signals: SIGINT, SIGTERM and SIGHUP are blocked in every thread and received by a small
 * signal thread (sigwaitinfo), which turns them into stop requests on the run's ctl. As PID 1
 * the kernel gives no default action to these signals, so they must be handled explicitly;
 * the same thread reaps any child (SIGCHLD) so orphans re-parented to us never linger. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/ctl.h"
#include "modes.h"
#include "core/err.h"

#define FIO_COMPAT	"fio-3.33"
#define IOPING_COMPAT	"ioping 1.3"
/* What --version names, as an image's platform: the build's target, from the compiler. */
#if defined(__x86_64__)
#define IOPS_PLATFORM	"linux/amd64"
#elif defined(__aarch64__)
#define IOPS_PLATFORM	"linux/arm64"
#else
#define IOPS_PLATFORM	"linux/unknown"
#endif

struct mode {
	const char *name;
	int (*main)(int argc, char **argv, struct ctl *ctl);
	const char *summary;
	bool by_argv0;		/* also chosen by the program's name (a link called fio) */
};

static const struct mode modes[] = {
	{ "quick", quick_main, "six fio steps, a summary of DIR's speed (iops alone: iops quick .)", false },
	{ "latency", preset_main, "recipe: 4k random write QD1", false },
	{ "iops", preset_main, "recipe: 4k random read QD32", false },
	{ "throughput", preset_main, "recipe: 64k read QD32 x 16 jobs", false },
	{ "suite", suite_main, "fs-performance's benchmarks (fio, file tree), set by environment", false },
	{ "sweep", sweep_main, "simple-fio's matrix: rw x bs x samples, each step a fio command line", false },
	{ "merge", merge_main, "exact merge of fio JSON results (json+, iops' or fio's): All clients", false },
	{ "k8s", k8s_main, "a Kubernetes Indexed Job of N iops servers, pod 0 their client", false },
	{ "k8s-pod", k8s_pod_main, "a pod of that Job: its server, and on pod 0 the client (the Job runs it)", false },
	{ "plot", plot_main, "results, logs, sweeps and merges as one HTML page of charts", false },
	{ "compare", compare_main, "results of the same workloads side by side: changes, noise, verdicts", false },
	{ "ioping", ioping_main, "latency prober, drop-in for " IOPING_COMPAT, true },
	{ "fio", fio_main, "load generator, drop-in for " FIO_COMPAT " (options or job files)", true },
};

static const struct mode *mode_find(const char *name, bool argv0)
{
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(modes[i].name, name) && (!argv0 || modes[i].by_argv0))
			return &modes[i];
	return NULL;
}

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: iops MODE [ARGS...]\n"
		"       iops                                 (the quick suite on the working directory)\n"
		"       iops [fio options] [job file...]     (fio mode)\n"
		"       ioping ARGS... | fio ARGS...          (called through a link of that name)\n"
		"\n"
		"Modes:\n");
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		fprintf(out, "  %-10s %s\n", modes[i].name, modes[i].summary);
	fprintf(out,
		"\n"
		"Options:\n"
		"  -h, --help     this help\n"
		"  --version      print the iops version and the tool versions it is compatible with\n"
		"\n"
		"'iops MODE --help' (ioping: 'iops ioping -h') describes a mode's own options.\n");
}

static const sigset_t *stop_signals(void)
{
	static sigset_t set;	/* written once in main() before any thread exists */
	return &set;
}

/* The same stop signal again within STOP_REPEAT_NS is the same request delivered twice
 * (timeout(1) signals its child and then its whole process group), not a second one. */
#define STOP_REPEAT_NS	250000000ull
/* A stop that has not ended a step stalled storage blocks (core/ctl.h's escape) after this
 * long: the escape runs and the process exits (the "within 1 s"). */
#define STOP_ESCAPE_NS	500000000ull
#define ESCAPE_WAIT_MS	200	/* then the escape's removals (stalled too?) are left behind */

/* escape_main's outcome: 0 still running (its removals stalled?), 1 no escape was set any
 * more (the step ended meanwhile: no exit), 2 the escape ran */
static atomic_int escape_state;

static void *escape_main(void *arg)
{
	atomic_store(&escape_state, ctl_escape(arg) ? 2 : 1);
	return NULL;
}

static void *signal_thread(void *arg)
{
	struct ctl *ctl = arg;
	uint64_t last_stop = 0, first_stop = 0;
	int last_signo = 0;

	for (;;) {
		static const struct timespec tick = { 0, 100000000 };
		siginfo_t info;
		int signo = first_stop ? sigtimedwait(stop_signals(), &info, &tick) : sigwaitinfo(stop_signals(), &info);
		uint64_t now;

		if (signo < 0) {	/* EINTR, or a tick after a stop: is a step stalled? */
			pthread_t t;

			if (first_stop && clock_now_ns() - first_stop > STOP_ESCAPE_NS && ctl_has_escape(ctl) &&
			    !pthread_create(&t, NULL, escape_main, ctl)) {
				for (int i = 0; i < ESCAPE_WAIT_MS / 10 && atomic_load(&escape_state) == 0; i++)
					nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
				if (atomic_load(&escape_state) != 1) {
					fflush(NULL);
					_exit(modes_second_stop_exit ? modes_second_stop_exit : 1);
				}
				pthread_join(t, NULL);
				atomic_store(&escape_state, 0);
			}
			continue;
		}
		if (signo == SIGUSR1) {	/* status-interval: fio mode only (see main) */
			ctl_status_request(ctl);
			continue;
		}
		if (signo == SIGCHLD) {
			pid_t pid;
			int status;

			while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
				ctl_child_exited(ctl, pid, status);	/* for a mode that waits for it */
			continue;
		}
		now = clock_now_ns();
		if (signo == last_signo && now - last_stop < STOP_REPEAT_NS)
			continue;
		last_stop = now;
		last_signo = signo;
		if (!first_stop)
			first_stop = now;
		if (ctl_stop(ctl, signo) >= 2 && modes_second_stop_exit) {
			fflush(NULL);
			_exit(modes_second_stop_exit);
		}
	}
	return NULL;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static bool is_regular_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Choose the mode, per the README's Dispatch table. *shift tells how many leading args the mode skips. */
static const struct mode *dispatch(int argc, char **argv, int *shift)
{
	const struct mode *m = mode_find(base_name(argv[0]), true);

	*shift = 0;
	if (m)
		return m;
	if (argc < 2)
		return NULL;
	m = mode_find(argv[1], false);
	if (m) {
		*shift = 1;
		return m;
	}
	if (argv[1][0] == '-' || is_regular_file(argv[1]))
		return mode_find("fio", false);
	return NULL;
}

int main(int argc, char **argv)
{
	const struct mode *m;
	struct ctl ctl;
	pthread_t tid;
	sigset_t *set = (sigset_t *)stop_signals();
	int shift, ret;
	/* stderr line by line: musl writes an unbuffered stream in 80-byte pieces, so a longer
	 * message could be cut by a stdout line where a log merges the two (kubectl logs, podman
	 * run 2>&1); a line is one write now, as it is with glibc's fio */
	static char errbuf[4096];

	setvbuf(stderr, errbuf, _IOLBF, sizeof(errbuf));
	if (argc < 1 || !argv[0])
		return 1;

	if (!mode_find(base_name(argv[0]), true) && argc >= 2) {
		if (!strcmp(argv[1], "--version")) {
			printf("iops %s %s (compatible with %s and %s)\n", IOPS_VERSION, IOPS_PLATFORM, FIO_COMPAT,
			       IOPING_COMPAT);
			return 0;
		}
		if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
			usage(stdout);
			return 0;
		}
	}

	m = dispatch(argc, argv, &shift);
	if (!m && argc < 2) {	/* no arguments: the quick suite on the working directory */
		static char *quick_argv[] = { "quick", ".", NULL };

		m = mode_find("quick", false);
		argc = 2;
		argv = quick_argv;
		shift = 0;
	}
	if (!m) {
		fprintf(stderr, "iops: unknown mode '%s' (not a mode, an option or a job file); see 'iops --help'\n",
			argv[1]);
		return 1;
	}

	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGCHLD);
	if (m->main == fio_main || m->main == preset_main)	/* status-interval: SIGUSR1 prints a report (fio's rule) */
		sigaddset(set, SIGUSR1);
	ret = pthread_sigmask(SIG_BLOCK, set, NULL);
	if (ret) {
		fprintf(stderr, "iops: cannot block signals: %s\n", err_str(ret));
		return 1;
	}
	ret = ctl_init(&ctl);
	if (ret) {
		fprintf(stderr, "iops: cannot set up run control: %s\n", err_str(-ret));
		return 1;
	}
	ret = pthread_create(&tid, NULL, signal_thread, &ctl);
	if (ret) {
		fprintf(stderr, "iops: cannot start the signal thread: %s\n", err_str(ret));
		return 1;
	}
	pthread_detach(tid);

	/* argv[shift] becomes the mode's argv[0]: keep the user-visible tool name there. */
	argv[shift] = (char *)m->name;
	ret = m->main(argc - shift, argv + shift, &ctl);
	fflush(stdout);
	/* The signal thread may still hold ctl; exit without tearing it down. */
	return ret;
}
