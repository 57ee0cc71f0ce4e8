/* SPDX-License-Identifier: MIT */
#include "fio/log/blktrace.h"
#include "core/err.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BLKTRACE_WBUF	(BLKTRACE_REC * 1365u)	/* ~64 KiB */

_Static_assert(BLKTRACE_WBUF % BLKTRACE_REC == 0, "whole records per buffer");

static uint32_t bt_u32(const unsigned char *b, bool swap)
{
	uint32_t v;

	memcpy(&v, b, 4);
	return swap ? __builtin_bswap32(v) : v;
}

static uint64_t bt_u64(const unsigned char *b, bool swap)
{
	uint64_t v;

	memcpy(&v, b, 8);
	return swap ? __builtin_bswap64(v) : v;
}

static uint16_t bt_u16(const unsigned char *b, bool swap)
{
	uint16_t v;

	memcpy(&v, b, 2);
	return swap ? __builtin_bswap16(v) : v;
}

bool blktrace_is_trace(const unsigned char *b, size_t n, bool *swap)
{
	if (n < 4)
		return false;
	if ((bt_u32(b, false) & 0xffffff00u) == BLKTRACE_MAGIC) {
		*swap = false;
		return true;
	}
	if ((bt_u32(b, true) & 0xffffff00u) == BLKTRACE_MAGIC) {
		*swap = true;
		return true;
	}
	return false;
}

void blktrace_decode(const unsigned char *b, bool swap, struct blktrace_ev *ev)
{
	ev->magic = bt_u32(b, swap);
	ev->sequence = bt_u32(b + 4, swap);
	ev->time_ns = bt_u64(b + 8, swap);
	ev->sector = bt_u64(b + 16, swap);
	ev->bytes = bt_u32(b + 24, swap);
	ev->action = bt_u32(b + 28, swap);
	ev->pid = bt_u32(b + 32, swap);
	ev->device = bt_u32(b + 36, swap);
	ev->cpu = bt_u32(b + 40, swap);
	ev->error = bt_u16(b + 44, swap);
	ev->pdu_len = bt_u16(b + 46, swap);
}

void blktrace_encode(const struct blktrace_ev *ev, unsigned char *b)
{
	memcpy(b, &ev->magic, 4);
	memcpy(b + 4, &ev->sequence, 4);
	memcpy(b + 8, &ev->time_ns, 8);
	memcpy(b + 16, &ev->sector, 8);
	memcpy(b + 24, &ev->bytes, 4);
	memcpy(b + 28, &ev->action, 4);
	memcpy(b + 32, &ev->pid, 4);
	memcpy(b + 36, &ev->device, 4);
	memcpy(b + 40, &ev->cpu, 4);
	memcpy(b + 44, &ev->error, 2);
	memcpy(b + 46, &ev->pdu_len, 2);
}

enum blktrace_op blktrace_ddir(const struct blktrace_ev *ev)
{
	if (ev->action & BLKTRACE_TC_READ)
		return BLKTRACE_READ;
	if (ev->action & BLKTRACE_TC_WRITE)
		return BLKTRACE_WRITE;
	if (ev->action & BLKTRACE_TC_DISCARD)
		return BLKTRACE_TRIM;
	return BLKTRACE_NONE;
}

enum blktrace_op blktrace_replay_op(const struct blktrace_ev *ev)
{
	if ((ev->action & 0xffffu) != BLKTRACE_TA_QUEUE || (ev->action & BLKTRACE_TC_NOTIFY))
		return BLKTRACE_NONE;
	if (ev->action & BLKTRACE_TC_DISCARD)
		return BLKTRACE_TRIM;
	if (ev->action & BLKTRACE_TC_FLUSH)
		return BLKTRACE_SYNC;
	return ev->action & BLKTRACE_TC_WRITE ? BLKTRACE_WRITE : BLKTRACE_READ;
}

/* ---- replay ------------------------------------------------------------------------------ */

static void bt_depth(struct blktrace_play *p, const struct blktrace_ev *ev)
{
	enum blktrace_op d = blktrace_ddir(ev);
	unsigned ta = ev->action & 0xffffu;

	if (d == BLKTRACE_NONE || (ev->action & BLKTRACE_TC_NOTIFY))
		return;
	if (ta == BLKTRACE_TA_QUEUE) {
		p->depth_now[d]++;
	} else if (ta == BLKTRACE_TA_BACKMERGE || ta == BLKTRACE_TA_FRONTMERGE) {
		if (p->depth_now[d])
			p->depth_now[d]--;
	} else if (ta == BLKTRACE_TA_COMPLETE) {
		if (p->depth_now[d] > p->depth[d])
			p->depth[d] = p->depth_now[d];
		p->depth_now[d] = 0;
	}
}

/* The wait before ev (ns): from the previous queue event, scaled. */
static uint64_t bt_delay_ns(struct blktrace_play *p, uint64_t t)
{
	uint64_t last = p->last_ns, d;
	double v;

	p->last_ns = t;
	if (!last || p->no_stall || t < last)
		return 0;
	d = t - last;
	if (!p->time_scale || p->time_scale == 100)
		return d;
	v = (double)d * (100.0 / (double)p->time_scale);
	return v >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)v;
}

int blktrace_play_event(struct blktrace_play *p, const struct blktrace_ev *ev, struct blktrace_io *io)
{
	enum blktrace_op op;
	uint64_t delay_us, off, len;

	bt_depth(p, ev);
	op = blktrace_replay_op(ev);
	if (op == BLKTRACE_NONE)
		return 0;
	delay_us = bt_delay_ns(p, ev->time_ns) / 1000u;
	if (p->skip & (1u << op))
		return 0;
	if (op != BLKTRACE_SYNC && ev->bytes == 0) {
		p->zero++;
		return 0;
	}
	off = len = 0;
	if (op != BLKTRACE_SYNC) {
		if (ev->sector > UINT64_MAX / 512u)
			return -EOVERFLOW;
		off = ev->sector * 512u;
		if (p->scale > 1)
			off /= p->scale;
		len = ev->bytes;
		if (p->align > 1) {
			off &= ~(p->align - 1);
			len = (len + p->align - 1) & ~(p->align - 1);
		}
		if (len == 0 || off > UINT64_MAX - len)
			return -EOVERFLOW;
	}
	p->at_us = p->at_us > UINT64_MAX - delay_us ? UINT64_MAX : p->at_us + delay_us;
	io->op = op;
	io->at_us = p->at_us;
	io->offset = off;
	io->len = len;
	io->device = ev->device;
	return 1;
}

unsigned blktrace_play_depth(const struct blktrace_play *p)
{
	unsigned d = 1;

	for (int i = 0; i < 3; i++)
		if (p->depth[i] > d)
			d = p->depth[i];
	return d > BLKTRACE_MAX_DEPTH ? BLKTRACE_MAX_DEPTH : d;
}

/* ---- merge parameters -------------------------------------------------------------------- */

int blktrace_list_parse(const char *s, uint64_t *vals, unsigned max)
{
	unsigned n = 0;

	if (!s || !*s)
		return -EINVAL;
	for (;;) {
		uint64_t v = 0;
		const char *d = s;

		for (; *s >= '0' && *s <= '9'; s++) {
			if (v > (UINT64_MAX / 1000u - 9) / 10)
				return -EINVAL;	/* a time factor this large means nothing */
			v = v * 10 + (uint64_t)(*s - '0');
		}
		if (*s == '.' && s != d)	/* fio's floats: the whole part is what it uses */
			while (*++s >= '0' && *s <= '9')
				;
		if (s == d || v == 0 || (*s && *s != ':') || n == max)
			return -EINVAL;
		if (vals)
			vals[n] = v;
		n++;
		if (!*s)
			return (int)n;
		s++;
	}
}

/* ---- reading ----------------------------------------------------------------------------- */

static int bt_bad(const struct blktrace_src *s, const struct blktrace_cur *c, struct iops_err *err, const char *why)
{
	iops_err_set(err, EINVAL, "fio: %s: blktrace '%s': %s at byte %llu", s->job, c->path, why,
		     (unsigned long long)c->pos);
	return -EINVAL;
}

/* One record of c (payload skipped): 1, 0 at the end, -errno. */
static int bt_read(const struct blktrace_src *s, struct blktrace_cur *c, struct blktrace_ev *ev, struct iops_err *err)
{
	unsigned char b[BLKTRACE_REC];
	size_t n = fread(b, 1, sizeof(b), c->f);

	if (n == 0 && feof(c->f))
		return 0;
	if (ferror(c->f)) {
		iops_err_set(err, EIO, "fio: %s: blktrace '%s': read error", s->job, c->path);
		return -EIO;
	}
	if (n < sizeof(b))
		return bt_bad(s, c, err, "truncated record");
	blktrace_decode(b, c->swap, ev);
	if ((ev->magic & 0xffffff00u) != BLKTRACE_MAGIC)
		return bt_bad(s, c, err, "bad magic");
	if ((ev->magic & 0xffu) != BLKTRACE_VERSION) {
		char why[64];

		snprintf(why, sizeof(why), "version %u is not supported (%u is)", ev->magic & 0xffu, BLKTRACE_VERSION);
		return bt_bad(s, c, err, why);
	}
	if (c->size - c->pos - sizeof(b) < ev->pdu_len)
		return bt_bad(s, c, err, "truncated payload");
	if (ev->pdu_len && fseeko(c->f, ev->pdu_len, SEEK_CUR) < 0) {
		iops_err_set(err, errno, "fio: %s: blktrace '%s': %s", s->job, c->path, err_str(errno));
		return -errno;
	}
	c->pos += sizeof(b) + ev->pdu_len;
	return 1;
}

static uint64_t bt_scaled(uint64_t raw, uint64_t shift, uint64_t scalar)
{
	unsigned __int128 t = (unsigned __int128)raw + shift;

	t = t * scalar / 100u;
	return t > UINT64_MAX ? UINT64_MAX : (uint64_t)t;
}

/* The next event of a merged trace into c->ev (c->has), passes repeated. 0 or -errno. */
static int bt_fill(const struct blktrace_src *s, struct blktrace_cur *c, struct iops_err *err)
{
	for (;;) {
		int ret = bt_read(s, c, &c->ev, err);

		if (ret < 0)
			return ret;
		if (ret == 0) {
			if (c->iter == 0)
				c->length = c->last_raw;
			if (++c->iter >= c->iters || !c->any) {
				c->has = false;
				return 0;
			}
			if (fseeko(c->f, 0, SEEK_SET) < 0) {
				iops_err_set(err, errno, "fio: %s: blktrace '%s': %s", s->job, c->path, err_str(errno));
				return -errno;
			}
			c->pos = 0;
			continue;
		}
		if ((c->ev.action & 0xffffu) != BLKTRACE_TA_QUEUE || blktrace_ddir(&c->ev) == BLKTRACE_NONE)
			continue;
		if (c->iter == 0) {
			c->last_raw = c->ev.time_ns;
			c->any = true;
		}
		c->ev.time_ns = bt_scaled(c->ev.time_ns, c->iter * c->length, c->scalar);
		c->has = true;
		return 0;
	}
}

static int bt_open_one(struct blktrace_src *s, struct blktrace_cur *c, struct iops_err *err)
{
	unsigned char b[4];
	struct stat st;

	c->f = fopen(c->path, "rbe");
	if (!c->f) {
		int e = errno;

		iops_err_set(err, e, "fio: %s: cannot open blktrace '%s': %s", s->job, c->path, err_str(e));
		return -e;
	}
	if (fstat(fileno(c->f), &st) < 0 || !S_ISREG(st.st_mode)) {
		iops_err_set(err, EINVAL, "fio: %s: blktrace '%s' is not a regular file", s->job, c->path);
		return -EINVAL;
	}
	c->size = (uint64_t)st.st_size;
	if (fread(b, 1, sizeof(b), c->f) != sizeof(b) || !blktrace_is_trace(b, sizeof(b), &c->swap)) {
		iops_err_set(err, EINVAL, "fio: %s: file is not a blktrace: %s", s->job, c->path);
		return -EINVAL;
	}
	rewind(c->f);
	return 0;
}

/* A merge's per-trace numbers: count check, default def. */
static int bt_params(struct blktrace_src *s, const char *list, const char *opt, uint64_t def, bool scalar,
		     struct iops_err *err)
{
	uint64_t v[BLKTRACE_MAX_TRACES];
	int n = list ? blktrace_list_parse(list, v, BLKTRACE_MAX_TRACES) : 0;

	if (n < 0 || (list && (unsigned)n != s->nr)) {
		iops_err_set(err, EINVAL, "fio: %s: %s(%d) != nr_logs(%u)", s->job, opt, n < 0 ? 0 : n, s->nr);
		return -EINVAL;
	}
	for (unsigned i = 0; i < s->nr; i++)
		*(scalar ? &s->cur[i].scalar : &s->cur[i].iters) = list ? v[i] : def;
	return 0;
}

int blktrace_src_open(struct blktrace_src *s, const struct job *job, const char *path, struct iops_err *err)
{
	int ret;
	char *p;

	memset(s, 0, sizeof(*s));
	s->job = job->name;
	s->merge = job->merge_blktrace_file != NULL;
	s->paths = strdup(s->merge ? job->read_iolog : path);
	if (!s->paths)
		goto nomem;
	s->nr = 1;
	if (s->merge)
		for (p = s->paths; *p; p++)
			s->nr += *p == ':';
	if (s->nr > BLKTRACE_MAX_TRACES) {
		iops_err_set(err, E2BIG, "fio: %s: more than %u traces to merge", s->job, BLKTRACE_MAX_TRACES);
		return -E2BIG;
	}
	s->cur = calloc(s->nr, sizeof(*s->cur));
	if (!s->cur)
		goto nomem;
	p = s->paths;
	for (unsigned i = 0; i < s->nr; i++) {
		s->cur[i].path = p;
		p += strcspn(p, ":");
		if (*p)
			*p++ = '\0';
		s->cur[i].scalar = 100;
		s->cur[i].iters = 1;
	}
	if (s->merge && ((ret = bt_params(s, job->merge_blktrace_scalars, "merge_blktrace_scalars", 100, true, err)) ||
			 (ret = bt_params(s, job->merge_blktrace_iters, "merge_blktrace_iters", 1, false, err))))
		return ret;
	for (unsigned i = 0; i < s->nr; i++) {
		ret = bt_open_one(s, &s->cur[i], err);
		if (ret)
			return ret;
	}
	for (unsigned i = 0; s->merge && i < s->nr; i++) {
		ret = bt_fill(s, &s->cur[i], err);
		if (ret)
			return ret;
		s->live += s->cur[i].has;
	}
	return 0;
nomem:
	iops_err_set(err, ENOMEM, "fio: %s: out of memory reading blktrace", s->job);
	return -ENOMEM;
}

int blktrace_src_next(struct blktrace_src *s, struct blktrace_ev *ev, struct iops_err *err)
{
	struct blktrace_cur *best = NULL;
	int ret;

	if (!s->merge)
		return bt_read(s, &s->cur[0], ev, err);
	for (unsigned i = 0; i < s->nr; i++)
		if (s->cur[i].has && (!best || s->cur[i].ev.time_ns < best->ev.time_ns))
			best = &s->cur[i];
	if (!best)
		return 0;
	*ev = best->ev;
	ret = bt_fill(s, best, err);
	return ret < 0 ? ret : 1;
}

void blktrace_src_close(struct blktrace_src *s)
{
	for (unsigned i = 0; s->cur && i < s->nr; i++)
		if (s->cur[i].f)
			fclose(s->cur[i].f);
	free(s->cur);
	free(s->paths);
	s->cur = NULL;
	s->paths = NULL;
	s->nr = s->live = 0;
}

/* ---- merge output ------------------------------------------------------------------------ */

int blktrace_merge_check(const struct job *job, struct iops_err *err)
{
	const char *out = job->merge_blktrace_file, *why = NULL;
	struct blktrace_src s;
	struct stat st, in;
	int ret;

	if (lstat(out, &st) < 0) {
		char dir[PATH_MAX];
		const char *slash = strrchr(out, '/');

		if (errno != ENOENT) {
			why = err_str(errno);
		} else {
			snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - out) + (slash == out) : 1, slash ? out : ".");
			if (access(dir, W_OK) < 0)
				why = err_str(errno);
		}
	} else if (S_ISLNK(st.st_mode)) {
		why = "it is a symbolic link";
	} else if (!S_ISREG(st.st_mode)) {
		why = "not a regular file";
	} else if (st.st_size) {
		unsigned char b[4];
		bool swap;
		int fd = open(out, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

		if (fd < 0 || read(fd, b, 4) != 4 || !blktrace_is_trace(b, 4, &swap))
			why = "it exists and is not a blktrace";
		if (fd >= 0)
			close(fd);
	}
	if (why) {
		iops_err_set(err, EEXIST, "fio: %s: cannot write merge_blktrace_file '%s': %s", job->name, out, why);
		return -EEXIST;
	}
	ret = blktrace_src_open(&s, job, NULL, err);	/* the inputs: readable traces */
	for (unsigned i = 0; !ret && i <= s.nr; i++) {
		const char *p = i < s.nr ? s.cur[i].path : job->replay_redirect;

		if (p && (!strcmp(p, out) || (stat(p, &in) == 0 && lstat(out, &st) == 0 && in.st_dev == st.st_dev &&
					       in.st_ino == st.st_ino))) {
			iops_err_set(err, EINVAL, "fio: %s: merge_blktrace_file '%s' is %s", job->name, out,
				     i < s.nr ? "one of the traces it merges" : "the replay_redirect target");
			ret = -EINVAL;
		}
	}
	blktrace_src_close(&s);
	return ret;
}

static int bt_write_all(int fd, const unsigned char *b, size_t len)
{
	while (len) {
		ssize_t n = write(fd, b, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		b += n;
		len -= (size_t)n;
	}
	return 0;
}

int blktrace_merge_write(const struct job *job, struct iops_err *err)
{
	struct blktrace_src s;
	struct blktrace_ev ev;
	unsigned char *buf;
	size_t len = 0;
	int fd, ret, wret = 0;

	ret = blktrace_src_open(&s, job, NULL, err);
	if (ret)
		goto close_src;
	buf = malloc(BLKTRACE_WBUF);
	if (!buf) {
		iops_err_set(err, ENOMEM, "fio: %s: out of memory for merge_blktrace_file", job->name);
		ret = -ENOMEM;
		goto close_src;
	}
	fd = open(job->merge_blktrace_file, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		wret = -errno;
		goto free_buf;
	}
	while ((ret = blktrace_src_next(&s, &ev, err)) > 0 && !wret) {
		ev.pdu_len = 0;
		blktrace_encode(&ev, buf + len);
		len += BLKTRACE_REC;
		if (len == BLKTRACE_WBUF) {
			wret = bt_write_all(fd, buf, len);
			len = 0;
		}
	}
	if (!wret && ret == 0)
		wret = bt_write_all(fd, buf, len);
	if (close(fd) < 0 && !wret)
		wret = -errno;
free_buf:
	free(buf);
	if (wret && ret >= 0) {
		iops_err_set(err, -wret, "fio: %s: writing merge_blktrace_file '%s': %s", job->name,
			     job->merge_blktrace_file, err_str(-wret));
		ret = wret;
	}
close_src:
	blktrace_src_close(&s);
	return ret;
}
