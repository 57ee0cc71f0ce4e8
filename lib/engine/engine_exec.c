/* SPDX-License-Identifier: MIT */
/* engine_exec: runs a program beside the job (fio's exec engine). init() starts program with
 * its arguments (split at spaces; %r becomes the job's runtime in seconds, %n its name), with
 * stdout and stderr in <job>.stdout and <job>.stderr unless std_redirect=0. Each request waits
 * EXEC_TICK_NS and counts as an I/O without bytes, as fio's. With a runtime the job runs it out
 * even when the program ended sooner (fio does); without one, the job ends with the program
 * (fio would run forever). When the job ends first, the program gets SIGTERM, then SIGKILL
 * grace_time later.
 * The process reaps stray children on its own (cmd/main.c): a child already reaped there
 * (ECHILD) counts as ended. */
#include "engine/engine.h"
#include "core/err.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EXEC_TICK_NS	95000000u	/* one request: about 95 ms, as fio's (measured) */
#define EXEC_POLL_NS	10000000u	/* how often the child is looked at */
#define EXEC_MAX_ARGS	128
#define EXEC_NO_RUNTIME	(UINT64_MAX / 8)	/* runtimes above this were not given */

extern char **environ;

struct exec_ctx {
	pid_t pid;
	bool ended;
	bool end_with_child;	/* no runtime given: the job ends when the program does */
	uint64_t grace_ns;
};

static void exec_nap(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000u), .tv_nsec = (long)(ns % 1000000000u) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static uint64_t exec_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Has the child ended (and been reaped, here or by the process's reaper)? */
static bool exec_child_gone(struct exec_ctx *ctx)
{
	pid_t r;

	if (ctx->ended)
		return true;
	do
		r = waitpid(ctx->pid, NULL, WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == ctx->pid || (r < 0 && errno == ECHILD))
		ctx->ended = true;
	return ctx->ended;
}

/* arguments with %r and %n expanded, into out (cap bytes). -ENAMETOOLONG if it does not fit. */
static int exec_expand(const char *args, const char *job, uint64_t runtime_ns, char *out, size_t cap)
{
	size_t o = 0;

	for (const char *p = args; *p; p++) {
		char tmp[32];
		const char *ins = NULL;
		size_t n;

		if (p[0] == '%' && p[1] == 'r') {
			snprintf(tmp, sizeof(tmp), "%llu",
				 (unsigned long long)(runtime_ns >= EXEC_NO_RUNTIME ? 0 : runtime_ns / 1000000000u));
			ins = tmp;
		} else if (p[0] == '%' && p[1] == 'n') {
			ins = job ? job : "";
		}
		if (ins) {
			n = strlen(ins);
			if (o + n >= cap)
				return -ENAMETOOLONG;
			memcpy(out + o, ins, n);
			o += n;
			p++;
			continue;
		}
		if (o + 1 >= cap)
			return -ENAMETOOLONG;
		out[o++] = *p;
	}
	out[o] = '\0';
	return 0;
}

/* Split line at spaces into argv (after argv[0] = prog): the count, or -E2BIG. */
static int exec_split(char *line, const char *prog, char **argv, int max)
{
	int n = 0;

	argv[n++] = (char *)prog;
	for (char *p = line; *p;) {
		while (*p == ' ' || *p == '\t')
			*p++ = '\0';
		if (!*p)
			break;
		if (n >= max - 1)
			return -E2BIG;
		argv[n++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
	}
	argv[n] = NULL;
	return n;
}

static int exec_redirect(posix_spawn_file_actions_t *fa, const char *job, const char *ext, int target)
{
	char path[512];

	if (snprintf(path, sizeof(path), "%s.%s", job, ext) >= (int)sizeof(path))
		return ENAMETOOLONG;
	return posix_spawn_file_actions_addopen(fa, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
}

static int exec_init(const struct engine_cfg *cfg, void **ctxp, struct iops_err *err)
{
	const struct engine_exec_opts *o = cfg->opts ? &cfg->opts->exec : NULL;
	const char *job = cfg->job_name ? cfg->job_name : "exec";
	char *line = NULL, *argv[EXEC_MAX_ARGS];
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	struct exec_ctx *ctx = NULL;
	sigset_t none, all;
	int ret;

	if (!o || !o->program[0]) {
		iops_err_set(err, EINVAL, "fio: exec engine requires program=");
		return -EINVAL;
	}
	line = malloc(ENGINE_OPT_STR_MAX * 2);
	ctx = calloc(1, sizeof(*ctx));
	if (!line || !ctx) {
		ret = ENOMEM;
		iops_err_set(err, ret, "fio: exec engine: out of memory");
		goto free_mem;
	}
	if (exec_expand(o->arguments, job, cfg->runtime_ns, line, ENGINE_OPT_STR_MAX * 2) < 0) {
		ret = E2BIG;
		iops_err_set(err, ret, "fio: exec engine: arguments too long (at most %d words)", EXEC_MAX_ARGS - 2);
		goto free_mem;
	}
	/* fio's lines: the options as given, then the command as it runs (arguments expanded) */
	if (cfg->note && cfg->note_cap) {
		int n = snprintf(cfg->note, cfg->note_cap, "%s : program=%s, arguments=%s\n", job, o->program,
				 o->arguments);

		if (n >= 0 && (size_t)n < cfg->note_cap && o->std_redirect)
			snprintf(cfg->note + n, cfg->note_cap - (size_t)n,
				 "%s : Saving output of %s %s : stdout=%s.stdout stderr=%s.stderr", job, o->program,
				 line, job, job);
		else if (n >= 0 && (size_t)n < cfg->note_cap)
			snprintf(cfg->note + n, cfg->note_cap - (size_t)n, "%s : Running %s %s", job, o->program, line);
	}
	if (exec_split(line, o->program, argv, EXEC_MAX_ARGS) < 0) {
		ret = E2BIG;
		iops_err_set(err, ret, "fio: exec engine: arguments too long (at most %d words)", EXEC_MAX_ARGS - 2);
		goto free_mem;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&attr);
	sigemptyset(&none);
	sigfillset(&all);
	/* the program starts with no signal blocked and every disposition at its default */
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &all);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	ret = 0;
	if (o->std_redirect)
		ret = exec_redirect(&fa, job, "stdout", STDOUT_FILENO) ?: exec_redirect(&fa, job, "stderr", STDERR_FILENO);
	if (!ret)
		ret = posix_spawnp(&ctx->pid, o->program, &fa, &attr, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	if (ret) {
		iops_err_set(err, ret, "fio: exec engine: cannot run %s: %s", o->program, err_str(ret));
		goto free_mem;
	}
	ctx->grace_ns = o->grace_ns;
	ctx->end_with_child = cfg->runtime_ns == 0 || cfg->runtime_ns >= EXEC_NO_RUNTIME;
	free(line);
	*ctxp = ctx;
	return 0;

free_mem:
	free(line);
	free(ctx);
	return -ret;
}

static int exec_queue(void *vctx, struct io_req *req)
{
	struct exec_ctx *ctx = vctx;
	uint64_t end = exec_now() + EXEC_TICK_NS, now;

	/* a tick of waiting, cut short only when the program's end also ends the job */
	while ((now = exec_now()) < end && !(ctx->end_with_child && exec_child_gone(ctx)))
		exec_nap(end - now < EXEC_POLL_NS ? end - now : EXEC_POLL_NS);
	req->result = 0;
	if (!(ctx->end_with_child && ctx->ended))
		req->len = 0;	/* an I/O without bytes; else 0 of len: the stream is over */
	return ENGINE_DONE;
}

static void exec_cleanup(void *vctx)
{
	struct exec_ctx *ctx = vctx;

	if (!ctx)
		return;
	if (!exec_child_gone(ctx)) {
		uint64_t waited = 0;

		kill(ctx->pid, SIGTERM);
		while (!exec_child_gone(ctx) && waited < ctx->grace_ns) {
			exec_nap(EXEC_POLL_NS);
			waited += EXEC_POLL_NS;
		}
		if (!exec_child_gone(ctx)) {
			kill(ctx->pid, SIGKILL);
			while (!exec_child_gone(ctx))
				exec_nap(EXEC_POLL_NS / 10);
		}
	}
	free(ctx);
}

const struct engine_ops engine_exec_ops = {
	.name = "exec",
	.flags = ENGINE_F_SYNC | ENGINE_F_DISKLESS | ENGINE_F_STREAM,
	.init = exec_init,
	.queue = exec_queue,
	.cleanup = exec_cleanup,
};
