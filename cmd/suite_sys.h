/* SPDX-License-Identifier: MIT */
/* suite_sys: what the suite modes (quick, presets) ask the system before they plan: whether a
 * directory takes O_DIRECT, and a test file name nothing uses. Neither leaves anything on disk. */
#ifndef IOPS_SUITE_SYS_H
#define IOPS_SUITE_SYS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* dir exists and is a directory: 0, or -1 after printing "iops: WHO: 'DIR': <why>". */
int suite_sys_dir(const char *dir, const char *who);

/* *direct: files in dir can be opened with O_DIRECT (probed with an unnamed O_TMPFILE, which
 * vanishes on close; assumed true where O_TMPFILE is not supported). Returns 0, or -1 after
 * printing "iops: WHO: cannot write in 'DIR': ..." (read-only, no permission). */
int quick_probe_direct(const char *dir, const char *who, bool *direct);

/* Can libaio, the suite modes' engine, run here? It cannot where io_setup fails (ENOSYS under
 * qemu-user or a kernel without AIO, EPERM from a seccomp profile, EAGAIN past aio-max-nr): then
 * true, after one line on stderr, "iops: WHO: libaio is not available here (io_setup: <why>, errno
 * N): psync instead, the queue depth as numjobs". Probed with one io_setup(1), undone at once. */
bool suite_sys_need_psync(const char *who);

/* The first "iops-WHO.<pid>.<n>" that does not exist in dir: name and its path. 0, or -1
 * after printing why. */
int quick_free_name(const char *dir, const char *who, char *name, size_t nname, char *path, size_t npath);

/* Start this binary (/proc/self/exe) with argv: its stdout on out_fd, no signal blocked, every
 * signal's default action (suite, sweep). The child's pid, or -errno. */
pid_t suite_sys_spawn(char **argv, int out_fd);
/* The same, its stderr on err_fd too (k8s: fio's parse messages, collected). */
pid_t suite_sys_spawn_fds(char **argv, int out_fd, int err_fd);

#endif
