/* SPDX-License-Identifier: MIT */
#include "ioping/ioping_run.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "ioping/ioping_stats.h"
#include "core/err.h"

#ifndef RWF_HIPRI
#define RWF_HIPRI	0x00000001
#endif
#ifndef RWF_NOWAIT
#define RWF_NOWAIT	0x00000008
#endif
#define IOPING_BUF_ALIGN	4096

static int64_t wrap_add(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void wall_now(struct timespec *ts)
{
	clock_gettime(CLOCK_REALTIME, ts);
}

int ioping_run_aio_setup(struct ioping_run *run, struct iops_err *err)
{
	aio_context_t ctx = 0;

	if (syscall(SYS_io_setup, 1, &ctx) < 0) {
		int e = errno;

		iops_err_set(err, 2, "aio setup failed: %s", err_str(e));
		return -e;
	}
	run->aio_ctx = (unsigned long)ctx;
	return 0;
}

void ioping_run_aio_release(struct ioping_run *run)
{
	if (run->aio_ctx)
		(void)syscall(SYS_io_destroy, (aio_context_t)run->aio_ctx);
	run->aio_ctx = 0;
}

int ioping_run_alloc(struct ioping_run *run, struct iops_err *err)
{
	void *p = NULL;
	int64_t size = run->opts->size;

	if (size <= 0 || (uint64_t)size > SIZE_MAX ||
	    posix_memalign(&p, IOPING_BUF_ALIGN, (size_t)size) != 0) {
		iops_err_set(err, 2, "buffer allocation failed: %s", err_str(ENOMEM));
		return -ENOMEM;
	}
	run->buf = p;
	return 0;
}

void ioping_run_free(struct ioping_run *run)
{
	free(run->buf);
	run->buf = NULL;
}

/* One I/O. Returns bytes (>= 0) or -errno; exit_code is set for failures ioping reports
 * with a status other than the request-failure 3. */
static int64_t do_io(struct ioping_run *run, bool write, int64_t pos, int *exit_code,
		     struct iops_err *err)
{
	const struct ioping_opts *o = run->opts;
	int fd = run->target->fd;
	size_t len = (size_t)o->size;
	ssize_t ret;

	if (run->aio_ctx) {
		struct iocb cb, *cbs[1] = { &cb };
		struct io_event ev;

		memset(&cb, 0, sizeof(cb));
		cb.aio_fildes = (uint32_t)fd;
		cb.aio_lio_opcode = write ? IOCB_CMD_PWRITE : IOCB_CMD_PREAD;
		cb.aio_buf = (uint64_t)(uintptr_t)run->buf;
		cb.aio_nbytes = len;
		cb.aio_offset = pos;
		cb.aio_rw_flags = (o->nowait ? RWF_NOWAIT : 0) | (o->hipri ? RWF_HIPRI : 0);
		if (syscall(SYS_io_submit, (aio_context_t)run->aio_ctx, 1L, cbs) != 1) {
			*exit_code = 1;
			iops_err_set(err, 1, "aio submit failed: %s", err_str(errno));
			return -EIO;
		}
		if (syscall(SYS_io_getevents, (aio_context_t)run->aio_ctx, 1L, 1L, &ev, NULL) != 1) {
			*exit_code = 1;
			iops_err_set(err, 1, "aio getevents failed: %s", err_str(errno));
			return -EIO;
		}
		return ev.res;
	}
	if (o->nowait || o->hipri) {
		struct iovec iov = { .iov_base = run->buf, .iov_len = len };
		int flags = (o->nowait ? RWF_NOWAIT : 0) | (o->hipri ? RWF_HIPRI : 0);

		ret = syscall(write ? SYS_pwritev2 : SYS_preadv2, fd, &iov, 1, (long)pos, 0L, flags);
	} else if (write) {
		ret = pwrite(fd, run->buf, len, (off_t)pos);
	} else {
		ret = pread(fd, run->buf, len, (off_t)pos);
	}
	return ret < 0 ? -errno : ret;
}

static void period_end(struct ioping_run *run, struct ioping_stats *part,
		       struct ioping_stats *total, int64_t *period_start)
{
	struct ioping_summary s;
	struct timespec wall;
	int64_t now = now_ns();

	wall_now(&wall);
	ioping_stats_summary(part, (uint64_t)run->opts->size, (uint64_t)(now - *period_start), &s);
	ioping_out_period(run->out, &s, &wall);
	fflush(run->out->stream);
	ioping_stats_merge(total, part);
	ioping_stats_init(part);
	*period_start = now;
}

int ioping_run_loop(struct ioping_run *run, struct iops_err *err)
{
	const struct ioping_opts *o = run->opts;
	struct ioping_target *t = run->target;
	struct ioping_limits lim = {
		.warmup = o->warmup, .min_time_ns = o->min_time_ns, .max_time_ns = o->max_time_ns,
	};
	struct ioping_stats part, total;
	struct ioping_summary sum;
	struct timespec wall = { 0 };
	enum ioping_notice notice = IOPING_NOTICE_NONE;
	int64_t start, time_next, period_start, deadline, request = 0, woffset = 0;
	int64_t slots = t->wsize / t->size;	/* >= 1: size <= wsize was checked */
	bool write = o->nr_write > 0;
	int ret = 0;

	ioping_stats_init(&part);
	ioping_stats_init(&total);
	start = now_ns();
	time_next = start;
	period_start = start;
	deadline = o->work_time_ns ? wrap_add(start, o->work_time_ns) : 0;

	while (!ctl_stopped(run->ctl)) {
		int64_t pos, t0, t1, bytes;
		int exit_code = 3;

		request++;
		if (!o->linear)
			woffset = (int64_t)(ioping_rng_next(run->rng) % (uint64_t)slots) * t->size;
		pos = wrap_add(t->offset, woffset);
		if (!o->cached) {
			ret = posix_fadvise(t->fd, (off_t)pos, (off_t)t->size, POSIX_FADV_DONTNEED);
			if (ret) {
				iops_err_set(err, 3, "fadvise(DONTNEED) failed, please retry with option -C: %s",
					     err_str(ret));
				ret = -ret;
				break;
			}
		}
		if (o->pingpong)
			write = request & 1;
		if (write)
			ioping_rng_fill(run->rng, run->buf, (size_t)o->size);

		t0 = now_ns();
		bytes = do_io(run, write, pos, &exit_code, err);
		if (bytes < 0 && exit_code == 1) {
			ret = (int)bytes;
			break;
		}
		if (bytes < 0) {
			if (bytes == -EAGAIN && o->nowait) {
				notice = IOPING_NOTICE_EAGAIN;
				bytes = 0;
			} else {
				iops_err_set(err, 3, "request failed: %s", err_str((int)-bytes));
				ret = (int)bytes;
				break;
			}
		} else if (bytes < o->size) {
			fprintf(run->warn, "ioping: request returned less than expected: %lld\n",
				(long long)bytes);
		} else if (bytes > o->size) {
			iops_err_set(err, 3, "request returned more than expected: %lld", (long long)bytes);
			ret = -EIO;
			break;
		}
		if (write && !o->cached && fdatasync(t->fd) < 0) {
			ret = -errno;
			iops_err_set(err, 3, "fdatasync failed, please retry with option -C: %s",
				     err_str(-ret));
			break;
		}
		t1 = now_ns();

		if (!o->burst || request % o->burst == 0)
			time_next = wrap_add(time_next, o->interval_ns);
		if (t1 > time_next)
			time_next = t1;

		if (bytes)
			notice = ioping_stats_add(&part, &lim, request, t1 - t0);
		if (!run->out->quiet) {
			bool ignored = !bytes || notice == IOPING_NOTICE_WARMUP ||
				       notice == IOPING_NOTICE_TOO_FAST || notice == IOPING_NOTICE_TOO_SLOW;

			if (run->out->mode == IOPING_OUT_JSON || run->out->time_prefix)
				wall_now(&wall);
			ioping_out_request(run->out, request, bytes, t1 - t0, write, notice, ignored, &wall);
		}
		if (o->burst && request % o->burst == 0)
			ioping_out_burst_end(run->out);

		if ((o->print_count && (int64_t)part.nr_valid >= o->print_count) ||
		    (o->print_interval_ns && time_next >= wrap_add(period_start, o->print_interval_ns)))
			period_end(run, &part, &total, &period_start);

		if (o->linear) {
			woffset += t->size;
			if (woffset > t->wsize - t->size)
				woffset = 0;
		}
		if (ctl_stopped(run->ctl) || (o->count && request >= o->count) ||
		    (deadline && time_next >= deadline))
			break;
		if (!run->out->quiet)
			fflush(run->out->stream);
		if (time_next > t1)	/* with -i 0, time_next == t1: no clock read, no lock */
			ctl_sleep_until(run->ctl, (uint64_t)time_next);
	}
	if (ret)
		return ret;
	ioping_stats_merge(&total, &part);
	ioping_stats_summary(&total, (uint64_t)o->size, (uint64_t)(now_ns() - start), &sum);
	wall_now(&wall);
	ioping_out_final(run->out, &sum, &wall);
	return 0;
}
