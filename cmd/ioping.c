/* SPDX-License-Identifier: MIT */
/* ioping mode: argument handling, usage, messages and exit codes of ioping 1.3.
 * The work is done by lib/ioping_*: opts (parsing), target (destination), run (the loop),
 * out (output). Exit codes: 0 success (also after a stop signal), 1 usage and argument
 * errors (and AIO submit failures, as in ioping), 2 preparation errors, 3 request errors,
 * 4 a second stop signal (see modes_second_stop_exit). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ioping/ioping_opts.h"
#include "ioping/ioping_out.h"
#include "ioping/ioping_rng.h"
#include "ioping/ioping_run.h"
#include "ioping/ioping_target.h"
#include "modes.h"

static void usage(FILE *f)
{
	fputs(" Usage: ioping [options...] directory|file|device\n"
	      "        ioping -h | -v\n"
	      "\n"
	      " options:\n"
	      "      -A, -async                 asynchronous I/O (Linux AIO)\n"
	      "      -C, -cached                cached I/O: no cache drop, no fdatasync\n"
	      "      -D, -direct                direct I/O (O_DIRECT)\n"
	      "      -G, -read-write            alternate writes and reads (ping-pong)\n"
	      "      -L, -linear                sequential requests\n"
	      "      -N, -nowait                nowait I/O (RWF_NOWAIT)\n"
	      "      -H, -hipri                 high priority I/O (RWF_HIPRI)\n"
	      "      -W, -write                 write requests (see -WWW below)\n"
	      "      -Y, -sync                  synchronous I/O (O_SYNC)\n"
	      "      -y, -dsync                 data-synchronous I/O (O_DSYNC)\n"
	      "      -R, -rapid                 rapid test for 3s (-q -i 0 -w 3)\n"
	      "      -k, -keep                  keep and reuse the working file (ioping.tmp)\n"
	      "\n"
	      " parameters:\n"
	      "      -a, -warmup <count>        ignore the first <count> requests (1)\n"
	      "      -b, -burst <count>         send <count> requests back to back (0)\n"
	      "      -c, -count <count>         stop after <count> requests\n"
	      "      -e, -entropy <seed>        random number generator seed (0)\n"
	      "      -i, -interval <time>       time between requests (1s)\n"
	      "      -s, -size <size>           request size (4k)\n"
	      "      -S, -work-size <size>      working set size (1m)\n"
	      "      -o, -work-offset <size>    working set offset (0)\n"
	      "      -w, -work-time <time>      stop after <time>\n"
	      "      -l, -speed-limit <size>    at most <size> per second\n"
	      "      -r, -rate-limit <count>    at most <count> requests per second\n"
	      "      -t, -min-time <time>       shortest valid request time (0us)\n"
	      "      -T, -max-time <time>       longest valid request time\n"
	      "\n"
	      " output:\n"
	      "      -B, -batch                 final statistics in raw format\n"
	      "      -I, -time [format]         print the current time with every request\n"
	      "      -J, -json                  JSON output\n"
	      "      -p, -print-count <count>   statistics every <count> requests\n"
	      "      -P, -print-interval <time> statistics every <time>\n"
	      "      -q, -quiet                 no human-readable output\n"
	      "      -h, -help                  this help\n"
	      "      -v, -version               print the version\n"
	      "\n"
	      " -W on a file or device overwrites it with random data: it needs -WWW.\n"
	      " Sizes take binary suffixes (k, m, g, ..., sector, page), times s by default\n"
	      " (also us, ms, m = minutes, h), counts decimal ones (k, M, G).\n"
	      "\n", f);
}

static int fail(const struct iops_err *err)
{
	if (iops_err_isset(err))
		fprintf(stderr, "ioping: %s\n", err->msg);
	return err->code ? err->code : 1;
}

static uint64_t clock_seed(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int ioping_main(int argc, char **argv, struct ctl *ctl)
{
	struct ioping_opts opts;
	struct ioping_target target;
	struct ioping_rng rng;
	struct ioping_out out;
	struct ioping_run run;
	struct iops_err err = { 0 };
	enum ioping_opts_action action;
	enum ioping_out_mode mode;
	bool usage_after;
	int ret;

	modes_second_stop_exit = 4;
	if (argc < 2) {
		usage(stdout);
		return 1;
	}
	ioping_opts_init(&opts);
	if (ioping_opts_parse(&opts, argc, argv, getenv("POSIXLY_CORRECT") != NULL, &action,
			      &usage_after, &err)) {
		fail(&err);
		if (usage_after) {
			fputc('\n', stderr);
			usage(stderr);
		}
		return 1;
	}
	if (action == IOPING_OPTS_HELP) {
		usage(stdout);
		return 0;
	}
	if (action == IOPING_OPTS_VERSION) {
		printf("ioping %s\n", IOPING_VERSION);
		return 0;
	}
	if (ioping_opts_finish(&opts, &err))
		return fail(&err);
	if (opts.size > IOPING_MAX_RW_BYTES)
		fprintf(stderr, "ioping: this platform supports requests %lld bytes at most\n",
			IOPING_MAX_RW_BYTES);
	if (opts.nowait && !opts.cached && !opts.direct)
		fprintf(stderr, "ioping: nowait without cached or direct I/O is supposed to fail\n");

	/* ioping buffers stdout fully, and flushes before each sleep. */
	setvbuf(stdout, NULL, _IOFBF, BUFSIZ);

	memset(&run, 0, sizeof(run));
	run.opts = &opts;
	run.target = &target;
	run.rng = &rng;
	run.out = &out;
	run.warn = stderr;
	run.ctl = ctl;
	if (opts.async && ioping_run_aio_setup(&run, &err))
		return fail(&err);
	ret = ioping_target_plan(&target, &opts, &err);
	if (ret)
		goto undo_aio;
	ret = ioping_run_alloc(&run, &err);
	if (ret)
		goto undo_plan;
	ioping_rng_seed(&rng, opts.seed ? opts.seed : clock_seed());
	ioping_rng_fill(&rng, run.buf, (size_t)opts.size);
	ret = ioping_target_prepare(&target, &opts, &rng, run.buf, ctl, &err);
	if (ret)
		goto undo_alloc;
	if (target.fadvise_failed)
		fprintf(stderr, "ioping: fadvise(RANDOM) failed, operations might perform unneeded readahead\n");

	mode = opts.json ? IOPING_OUT_JSON : opts.batch ? IOPING_OUT_BATCH : IOPING_OUT_TEXT;
	ioping_out_init(&out, stdout, mode, opts.path, target.fstype, target.device,
			target.device_size);
	out.quiet = opts.quiet;
	out.time_prefix = opts.time_prefix;
	out.periods = opts.print_count || opts.print_interval_ns;
	out.time_fmt = opts.time_fmt;
	out.done_word = opts.pingpong ? "" : opts.nr_write ? " written" : " read";

	ret = ioping_run_loop(&run, &err);
undo_alloc:
	ioping_run_free(&run);
undo_plan:
	ioping_target_close(&target);
undo_aio:
	ioping_run_aio_release(&run);
	fflush(stdout);
	return ret ? fail(&err) : 0;
}
