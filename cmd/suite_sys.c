/* SPDX-License-Identifier: MIT */
#include "suite_sys.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/err.h"
#include "engine/engine.h"
#include "suite/suite.h"

int suite_sys_dir(const char *dir, const char *who)
{
	struct stat st;
	int e = stat(dir, &st) < 0 ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;

	if (e)
		fprintf(stderr, "iops: %s: '%s': %s\n", who, dir, err_str(e));
	return e ? -1 : 0;
}

int quick_probe_direct(const char *dir, const char *who, bool *direct)
{
	int fd = open(dir, O_TMPFILE | O_RDWR | O_DIRECT | O_CLOEXEC, 0600);

	*direct = true;
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (errno == EINVAL) {	/* O_DIRECT refused (tmpfs before Linux 6.6, some FUSE) */
		fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
		if (fd >= 0) {
			close(fd);
			*direct = false;
			return 0;
		}
	}
	if (errno == EACCES || errno == EROFS || errno == EPERM || errno == ENOSPC || errno == EDQUOT) {
		fprintf(stderr, "iops: %s: cannot write in '%s': %s\n", who, dir, err_str(errno));
		return -1;
	}
	return 0;	/* no O_TMPFILE here: fio's own open says it if O_DIRECT fails */
}

bool suite_sys_need_psync(const char *who)
{
	const struct engine_ops *ops = engine_find("libaio");
	struct engine_cfg cfg = { .depth = 1 };
	struct iops_err err = { 0 };
	void *ctx = NULL;
	int r = ops ? ops->init(&cfg, &ctx, &err) : -ENOSYS;

	if (r == 0) {
		ops->cleanup(ctx);
		return false;
	}
	fprintf(stderr, "iops: %s: libaio is not available here (io_setup: %s, errno %d): psync instead, the "
		"queue depth as numjobs\n", who, err_str(-r), -r);
	return true;
}

int quick_free_name(const char *dir, const char *who, char *name, size_t nname, char *path, size_t npath)
{
	struct stat st;

	for (unsigned k = 0; k < 1000; k++) {
		int r;

		if (suite_file_name(name, nname, who, (long)getpid(), k) < 0)
			break;
		r = snprintf(path, npath, "%s/%s", dir, name);
		if (r < 0 || (size_t)r >= npath)
			break;
		if (lstat(path, &st) < 0 && errno == ENOENT)
			return 0;
	}
	fprintf(stderr, "iops: %s: no free test file name in '%s'\n", who, dir);
	return -1;
}

pid_t suite_sys_spawn(char **argv, int out_fd)
{
	return suite_sys_spawn_fds(argv, out_fd, STDERR_FILENO);
}

pid_t suite_sys_spawn_fds(char **argv, int out_fd, int err_fd)
{
	extern char **environ;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, all;
	pid_t pid;
	int ret;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO);
	if (err_fd != STDERR_FILENO)
		posix_spawn_file_actions_adddup2(&fa, err_fd, STDERR_FILENO);
	posix_spawnattr_init(&attr);
	sigemptyset(&none);
	sigfillset(&all);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &all);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	ret = posix_spawn(&pid, "/proc/self/exe", &fa, &attr, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	return ret ? -ret : pid;
}
