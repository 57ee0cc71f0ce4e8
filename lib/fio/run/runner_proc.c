/* SPDX-License-Identifier: MIT */
/* runner_proc: the memory and process options around a job's thread (runner_int.h): the
 * run's checks before anything is touched (huge pages, lockmem, mem=mmap:FILE, the blkio
 * hierarchy), then in the thread, in fio's order: gid and uid (per thread: the raw system
 * calls, not libc's process-wide ones), lockmem, cgroup, nice, ioscheduler and exec_prerun;
 * exec_postrun after the I/O. The run remembers the schedulers it switched and the cgroups it
 * made: proc_run_finish() restores and removes them once every job has ended. */
#include "fio/run/runner_int.h"

#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/err.h"

#define PROC_LOCK_SLACK		(128ull << 20)	/* lockmem: fio keeps this much of the memory free */
#define PROC_HUGETLBFS_MAGIC	0x958458f6
#define PROC_RMDIR_TRIES	100		/* cgroup removal: up to 1 s for the threads to leave */
#define PROC_RMDIR_WAIT_US	10000

extern char **environ;

static bool proc_huge(const struct job_proc *p)
{
	return p->mem == MEM_SHMHUGE || p->mem == MEM_MMAPHUGE;
}

/* Free huge pages of hugepage bytes each (sysfs), 0 when there are none or no such size. */
static unsigned long long proc_free_hugepages(uint64_t hugepage)
{
	char path[128], text[32];
	unsigned long long n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/mm/hugepages/hugepages-%llukB/free_hugepages",
		 (unsigned long long)(hugepage / 1024));
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fgets(text, sizeof(text), f))
		n = strtoull(text, NULL, 10);
	fclose(f);
	return n;
}

/* Is the directory of path on hugetlbfs? */
static bool proc_on_hugetlbfs(const char *path)
{
	char dir[JOB_MEM_PATH_MAX];
	const char *slash = strrchr(path, '/');
	struct statfs sf;

	if (!slash)
		memcpy(dir, ".", 2);
	else if (slash == path)
		memcpy(dir, "/", 2);
	else {
		memcpy(dir, path, (size_t)(slash - path));
		dir[slash - path] = '\0';
	}
	return statfs(dir, &sf) == 0 && (unsigned long)sf.f_type == PROC_HUGETLBFS_MAGIC;
}

static int proc_check_mem(const struct fio_config *cfg, unsigned j, struct iops_err *err)
{
	const struct job *job = &cfg->jobs[j];
	const struct job_proc *p = &job->proc;
	struct stat st;

	if (proc_huge(p) && !iomem_huge_len(1, p->hugepage_bytes)) {
		iops_err_set(err, EINVAL, "fio: %s: hugepage-size=%llu is not a power of 2 of at least 4096", job->name,
			     (unsigned long long)p->hugepage_bytes);
		return -EINVAL;
	}
	if (p->mem == MEM_MMAPHUGE && p->mem_path[0] && !proc_on_hugetlbfs(p->mem_path)) {
		iops_err_set(err, EINVAL, "fio: %s: mem=mmaphuge:%s is not on a hugetlbfs mount", job->name, p->mem_path);
		return -EINVAL;
	}
	if (proc_huge(p) && !p->mem_path[0] && !proc_free_hugepages(p->hugepage_bytes)) {
		iops_err_set(err, ENOMEM, "fio: no huge pages available, do you need to allocate some? See HOWTO.");
		return -ENOMEM;
	}
	if (!p->mem_path[0])
		return 0;
	if (lstat(p->mem_path, &st) == 0) {
		iops_err_set(err, EEXIST, "fio: %s: mem file %s exists; iops maps only a file it creates (remove it or "
			     "name another)", job->name, p->mem_path);
		return -EEXIST;
	}
	for (unsigned k = 0; k < j; k++)
		if (!strcmp(cfg->jobs[k].proc.mem_path, p->mem_path)) {
			iops_err_set(err, EINVAL, "fio: mem file %s is named by jobs %s and %s; each job needs its own",
				     p->mem_path, cfg->jobs[k].name, job->name);
			return -EINVAL;
		}
	return 0;
}

int proc_run_init(struct proc_run *pr, const struct fio_config *cfg, struct iops_err *err)
{
	uint64_t phys = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t lock_max = phys > PROC_LOCK_SLACK ? phys - PROC_LOCK_SLACK : 0;
	const char *cg_job = NULL;
	int ret;

	memset(pr, 0, sizeof(*pr));
	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		const struct job *job = &cfg->jobs[j];

		ret = proc_check_mem(cfg, j, err);
		if (ret)
			return ret;
		if (job->proc.lockmem_bytes > lock_max) {
			iops_err_set(err, ENOMEM, "fio: %s: lockmem=%llu MiB is more than this machine can lock (its memory "
				     "less 128 MiB: %llu MiB)", job->name,
				     (unsigned long long)(job->proc.lockmem_bytes >> 20),
				     (unsigned long long)(lock_max >> 20));
			return -ENOMEM;
		}
		if (job->proc.cgroup[0] && !cg_job)
			cg_job = job->name;
	}
	if (cg_job) {
		FILE *f = fopen("/proc/mounts", "re");
		bool v2 = false;

		ret = f ? cgroup_find_blkio(f, pr->cg_root, sizeof(pr->cg_root), &v2) : -errno;
		if (f)
			fclose(f);
		if (ret) {
			iops_err_set(err, -ret, "fio: %s: cgroup= needs a mounted cgroup v1 blkio hierarchy%s", cg_job,
				     v2 ? " (iops runs jobs as threads, and a cgroup2 group takes whole processes)" : "");
			return ret;
		}
		pr->cg = calloc(cfg->nr_jobs, sizeof(*pr->cg));
		if (!pr->cg) {
			iops_err_set(err, ENOMEM, "fio: out of memory");
			return -ENOMEM;
		}
	}
	pthread_mutex_init(&pr->lock, NULL);
	pr->ready = true;
	return 0;
}

void proc_run_finish(struct proc_run *pr, FILE *diag)
{
	if (!pr->ready)
		return;
	for (unsigned i = pr->nr_sched; i-- > 0;) {	/* the first saved holds the original */
		int r = iosched_set(pr->sched[i].path, pr->sched[i].prev);

		if (r < 0)
			fprintf(diag, "fio: cannot restore io scheduler %s in %s: %s\n", pr->sched[i].prev,
				pr->sched[i].path, err_str(-r));
	}
	for (unsigned i = 0; i < pr->nr_cg; i++) {
		int r = 0;

		/* a joined thread may still be on its way out of the group: busy for a moment */
		for (unsigned t = 0; pr->cg[i].made && !pr->cg[i].keep && t < PROC_RMDIR_TRIES; t++) {
			r = cgroup_remove(pr->cg_root, pr->cg[i].name);
			if (r != -EBUSY)
				break;
			usleep(PROC_RMDIR_WAIT_US);
		}

		if (r < 0)
			fprintf(diag, "fio: cannot remove cgroup %s/%s: %s\n", pr->cg_root, pr->cg[i].name, err_str(-r));
	}
	free(pr->sched);
	free(pr->cg);
	pthread_mutex_destroy(&pr->lock);
	memset(pr, 0, sizeof(*pr));
}

int worker_proc_ids(struct worker *w)
{
	const struct job_proc *p = &w->job->proc;

	/* a new gid needs the privilege the new uid drops: gid first */
	if (p->gid_set && syscall(SYS_setgid, (long)p->gid) < 0) {
		worker_set_error(w, errno, "backend.c:0", "setgid");
		return -1;
	}
	if (p->uid_set && syscall(SYS_setuid, (long)p->uid) < 0) {
		worker_set_error(w, errno, "backend.c:0", "setuid");
		return -1;
	}
	return 0;
}

/* cgroup=: make it (once for the run), set its weight, move the thread in. */
static int worker_cgroup(struct worker *w)
{
	const struct job_proc *p = &w->job->proc;
	struct proc_run *pr = w->proc;
	struct proc_cgroup *cg = NULL;
	bool made = false;
	int r;

	pthread_mutex_lock(&pr->lock);
	for (unsigned i = 0; i < pr->nr_cg && !cg; i++)
		if (!strcmp(pr->cg[i].name, p->cgroup))
			cg = &pr->cg[i];
	r = cgroup_make(pr->cg_root, p->cgroup, &made);
	if (!r && !cg) {
		cg = &pr->cg[pr->nr_cg++];
		memcpy(cg->name, p->cgroup, sizeof(cg->name));
	}
	if (cg) {
		cg->made |= made;
		cg->keep |= p->cgroup_nodelete;
	}
	pthread_mutex_unlock(&pr->lock);
	if (r < 0) {
		fprintf(w->diag, "fio: path %s/%s\n", pr->cg_root, p->cgroup);
		worker_set_error(w, -r, "cgroup.c:185", "cgroup mkdir");
		return -1;
	}
	if (p->cgroup_weight && (r = cgroup_set_weight(pr->cg_root, p->cgroup, p->cgroup_weight)) < 0) {
		worker_set_error(w, -r, "cgroup.c:136", "cgroup open weight");
		return -1;
	}
	r = cgroup_attach(pr->cg_root, p->cgroup, (pid_t)syscall(SYS_gettid));
	if (r < 0) {
		worker_set_error(w, -r, "cgroup.c:0", "cgroup open tasks");
		return -1;
	}
	return 0;
}

/* ioscheduler=: on the device of each of the job's files that has one, the first switch of a
 * device in the run saving what it was. */
static int worker_iosched(struct worker *w)
{
	const struct job *job = w->job;
	struct proc_run *pr = w->proc;

	for (unsigned f = 0; job->filenames && f < job->nr_files; f++) {
		char path[IOSCHED_PATH_MAX], prev[IOSCHED_NAME_MAX];
		struct stat st;
		bool known = false;
		int r;

		if (stat(job->filenames[f], &st) < 0 ||
		    iosched_path("/sys", S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev, path) < 0)
			continue;	/* no block device behind it (tmpfs...): nothing to switch, as fio */
		pthread_mutex_lock(&pr->lock);
		for (unsigned i = 0; i < pr->nr_sched && !known; i++)
			known = !strcmp(pr->sched[i].path, path);
		r = known ? 0 : iosched_get(path, prev, sizeof(prev));
		if (!known && !r) {
			if (pr->nr_sched == pr->cap_sched) {
				unsigned cap = pr->cap_sched ? pr->cap_sched * 2 : 8;
				struct proc_sched *n = realloc(pr->sched, cap * sizeof(*n));

				if (!n)
					r = -ENOMEM;
				else {
					pr->sched = n;
					pr->cap_sched = cap;
				}
			}
			if (!r) {
				memcpy(pr->sched[pr->nr_sched].path, path, sizeof(path));
				memcpy(pr->sched[pr->nr_sched].prev, prev, sizeof(prev));
				pr->nr_sched++;
			}
		}
		if (!r)
			r = iosched_set(path, job->proc.ioscheduler);
		pthread_mutex_unlock(&pr->lock);
		if (!r && (r = iosched_get(path, prev, sizeof(prev))) == 0 && strcmp(prev, job->proc.ioscheduler))
			r = -EINVAL;
		if (r < 0) {
			fprintf(w->diag, "fio: unable to set io scheduler to %s\n", job->proc.ioscheduler);
			worker_set_error(w, -r, "backend.c:1450", "iosched_switch");
			return -1;
		}
	}
	return 0;
}

/* exec_prerun / exec_postrun: fio's "sh -c 'CMD > JOB.WHAT.txt 2>&1'" (only the command's last
 * part is redirected, as with fio), awaited; its status does not matter. */
static void worker_exec(struct worker *w, const char *cmd, const char *what)
{
	char line[JOB_EXEC_MAX + JOB_NAME_MAX + 32];
	char *argv[] = { "sh", "-c", line, NULL };
	FILE *out = w->info ? w->info : w->diag;
	posix_spawnattr_t attr;
	sigset_t none, all;
	pid_t pid;
	int r;

	fprintf(out, "%s : Saving output of %s in %s.%s.txt\n", w->job->name, what, w->job->name, what);
	fflush(out);
	snprintf(line, sizeof(line), "%s > %s.%s.txt 2>&1", cmd, w->job->name, what);	/* fits: sized for it */
	posix_spawnattr_init(&attr);
	sigemptyset(&none);
	sigfillset(&all);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &all);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	r = posix_spawn(&pid, "/bin/sh", NULL, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	if (r) {
		fprintf(w->diag, "fio: exec_%s: cannot run /bin/sh: %s\n", what, err_str(r));
		return;
	}
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)	/* ECHILD: the PID-1 reaper had it */
		;
}

int worker_proc_enter(struct worker *w)
{
	const struct job_proc *p = &w->job->proc;

	if (p->lockmem_bytes) {
		w->lock_mem = mmap(NULL, (size_t)p->lockmem_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				   -1, 0);
		if (w->lock_mem == MAP_FAILED || mlock(w->lock_mem, (size_t)p->lockmem_bytes) < 0) {
			int e = errno;

			if (w->lock_mem != MAP_FAILED)
				munmap(w->lock_mem, (size_t)p->lockmem_bytes);
			w->lock_mem = NULL;
			fprintf(w->diag, "fio: %s: cannot lock %llu bytes of memory: %s\n", w->job->name,
				(unsigned long long)p->lockmem_bytes, err_str(e));
			worker_set_error(w, e, "memory.c:0", "mlock");
			return -1;
		}
	}
	if (p->cgroup[0] && worker_cgroup(w) < 0)
		return -1;
	errno = 0;
	if (p->nice && nice(p->nice) == -1 && errno) {
		worker_set_error(w, errno, "backend.c:0", "nice");
		return -1;
	}
	if (p->ioscheduler[0] && !(w->ops->flags & ENGINE_F_DISKLESS) && worker_iosched(w) < 0)
		return -1;
	w->proc_entered = true;
	if (p->exec_prerun[0])
		worker_exec(w, p->exec_prerun, "prerun");
	return 0;
}

void worker_proc_leave(struct worker *w)
{
	const struct job_proc *p = &w->job->proc;

	if (w->proc_entered && p->exec_postrun[0])
		worker_exec(w, p->exec_postrun, "postrun");
	if (w->lock_mem) {
		munlock(w->lock_mem, (size_t)p->lockmem_bytes);
		munmap(w->lock_mem, (size_t)p->lockmem_bytes);
		w->lock_mem = NULL;
	}
}
