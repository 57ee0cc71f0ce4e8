/* SPDX-License-Identifier: MIT */
#include "fio/log/iolog_replay.h"
#include "core/err.h"
#include "sys/devnode.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#define IOLOG_MAX_TOKENS	6

int iolog_replay_version(const char *line)
{
	static const char pre[] = "fio version ";
	const char *p;

	if (strncmp(line, pre, sizeof(pre) - 1))
		return -EINVAL;
	p = line + sizeof(pre) - 1;
	if ((p[0] != '2' && p[0] != '3') || strncmp(p + 1, " iolog", 6))
		return -EINVAL;
	for (const char *q = p + 7; *q; q++)
		if (*q != ' ' && *q != '\t' && *q != '\r' && *q != '\n')
			return -EINVAL;
	return p[0] - '0';
}

/* A decimal uint64_t, digits only. */
static int iolog_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		unsigned dgt;

		if (*s < '0' || *s > '9')
			return -EINVAL;
		dgt = (unsigned)(*s - '0');
		if (v > (UINT64_MAX - dgt) / 10)
			return -EINVAL;
		v = v * 10 + dgt;
	}
	*out = v;
	return 0;
}

static const struct {
	const char *name;
	enum iolog_op op;
} iolog_actions[] = {
	{ "read", IOLOG_OP_READ }, { "write", IOLOG_OP_WRITE }, { "trim", IOLOG_OP_TRIM },
	{ "sync", IOLOG_OP_SYNC }, { "datasync", IOLOG_OP_DATASYNC }, { "add", IOLOG_OP_ADD },
	{ "open", IOLOG_OP_OPEN }, { "close", IOLOG_OP_CLOSE }, { "wait", IOLOG_OP_WAIT },
};

static int iolog_action(const char *s, enum iolog_op *op)
{
	for (size_t i = 0; i < sizeof(iolog_actions) / sizeof(iolog_actions[0]); i++)
		if (!strcmp(s, iolog_actions[i].name)) {
			*op = iolog_actions[i].op;
			return 0;
		}
	return -EINVAL;
}

int iolog_replay_parse_line(char *line, int version, struct iolog_line *out)
{
	char *tok[IOLOG_MAX_TOKENS];
	unsigned n = 0, t = 0;
	char *p = line;

	memset(out, 0, sizeof(*out));
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			*p++ = '\0';
		if (!*p)
			break;
		if (n == IOLOG_MAX_TOKENS)
			return -EINVAL;
		tok[n++] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
			p++;
	}
	if (n == 0)
		return 1;
	if (version == 3) {
		if (iolog_u64(tok[0], &out->ts_us))
			return -EINVAL;
		t = 1;
	} else if (version != 2) {
		return -EINVAL;
	}
	if (n - t != 2 && n - t != 4)
		return -EINVAL;
	out->name = tok[t];
	if (iolog_action(tok[t + 1], &out->op))
		return -EINVAL;
	if (out->op >= IOLOG_OP_ADD && out->op <= IOLOG_OP_CLOSE)
		return n - t == 2 ? 0 : -EINVAL;
	if (n - t != 4 || (out->op == IOLOG_OP_WAIT && version == 3))
		return -EINVAL;
	if (iolog_u64(tok[t + 2], &out->offset) || iolog_u64(tok[t + 3], &out->len))
		return -EINVAL;
	if (out->op <= IOLOG_OP_TRIM && (out->len == 0 || out->offset > UINT64_MAX - out->len))
		return -EINVAL;
	return 0;
}

uint64_t iolog_replay_offset(uint64_t offset, uint64_t scale, uint64_t align)
{
	if (scale > 1)
		offset /= scale;
	if (align > 1)
		offset &= ~(align - 1);
	return offset;
}

int iolog_replay_skip_parse(const char *s, unsigned *bits)
{
	unsigned b = 0;

	while (*s) {
		size_t len = strcspn(s, ",");

		if (len == 4 && !strncmp(s, "read", 4))
			b |= IOLOG_SKIP_READ;
		else if (len == 5 && !strncmp(s, "write", 5))
			b |= IOLOG_SKIP_WRITE;
		else if (len == 4 && !strncmp(s, "trim", 4))
			b |= IOLOG_SKIP_TRIM;
		else if (len == 4 && !strncmp(s, "sync", 4))
			b |= IOLOG_SKIP_SYNC;
		else
			return -EINVAL;
		s += len;
		if (*s == ',' && !*++s)
			return -EINVAL;	/* a trailing comma */
	}
	*bits = b;
	return 0;
}

uint64_t iolog_replay_time_ns(uint64_t ts_us, unsigned time_scale)
{
	uint64_t q, r, us;

	if (time_scale == 0)
		time_scale = 100;
	q = ts_us / time_scale;
	r = ts_us % time_scale;
	if (q > (UINT64_MAX - 100) / 100)
		return UINT64_MAX;
	us = q * 100 + r * 100 / time_scale;
	return us > UINT64_MAX / 1000 ? UINT64_MAX : us * 1000;
}

/* ---- reading a log ----------------------------------------------------------------------- */

static bool iolog_skipped(const struct job *job, enum iolog_op op)
{
	unsigned s = job->replay_skip;

	switch (op) {
	case IOLOG_OP_READ:
		return s & IOLOG_SKIP_READ;
	case IOLOG_OP_WRITE:
		return s & IOLOG_SKIP_WRITE;
	case IOLOG_OP_TRIM:
		return s & IOLOG_SKIP_TRIM;
	default:
		return s & IOLOG_SKIP_SYNC;
	}
}

/* The index of name among the files added so far, or -1. */
static int iolog_name_find(struct iolog_replay *r, const char *name)
{
	if (r->last_name < r->nr_names && !strcmp(r->names[r->last_name], name))
		return (int)r->last_name;
	for (unsigned i = 0; i < r->nr_names; i++)
		if (!strcmp(r->names[i], name)) {
			r->last_name = i;
			return (int)i;
		}
	return -1;
}

/* "add": rare (the top of a log), the one place the reader allocates after it opened. */
static int iolog_name_add(struct iolog_replay *r, const char *name)
{
	char *dup;

	if (iolog_name_find(r, name) >= 0)
		return 0;	/* an appended log adds its files again */
	if (r->nr_names == JOB_MAX_FILES)
		return -E2BIG;
	if (r->nr_names == r->cap_names) {
		unsigned cap = r->cap_names ? r->cap_names * 2 : 8;
		char **v = realloc(r->names, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		r->names = v;
		r->cap_names = cap;
	}
	dup = strdup(name);
	if (!dup)
		return -ENOMEM;
	r->names[r->nr_names++] = dup;
	return 0;
}

static int iolog_bad(struct iolog_replay *r, struct iops_err *err, const char *text, const char *why)
{
	iops_err_set(err, EINVAL, "fio: %s: read_iolog %s line %lu: %s: %.80s", r->job->name, r->job->replay_log,
		     r->lineno, why, text);
	return -EINVAL;
}

/* Read lines until one entry is produced: 1 (in e), 0 at the end of the log, -errno. */
static int iolog_read_ent(struct iolog_replay *r, struct iolog_replay_ent *e, struct iops_err *err)
{
	const struct job *job = r->job;
	char copy[96];

	while (!r->eof) {
		struct iolog_line l;
		size_t len;
		int ret, idx;
		uint64_t abs_us;

		if (!fgets(r->line, sizeof(r->line), r->f)) {
			if (ferror(r->f)) {
				iops_err_set(err, EIO, "fio: %s: read_iolog %s: read error", job->name, job->replay_log);
				return -EIO;
			}
			r->eof = true;
			break;
		}
		r->lineno++;
		len = strlen(r->line);
		if (len + 1 == sizeof(r->line) && r->line[len - 1] != '\n' && !feof(r->f))
			return iolog_bad(r, err, "", "line too long");
		len = strcspn(r->line, "\r\n");	/* the line without its end, cut to fit copy */
		if (len >= sizeof(copy))
			len = sizeof(copy) - 1;
		memcpy(copy, r->line, len);
		copy[len] = '\0';
		ret = iolog_replay_version(r->line);
		if (ret > 0) {	/* an appended log: a new segment */
			r->version = ret;
			r->seg_base_us = r->last_us;
			r->wait_us = 0;
			continue;
		}
		ret = iolog_replay_parse_line(r->line, r->version, &l);
		if (ret == 1)
			continue;
		if (ret < 0)
			return iolog_bad(r, err, copy, l.op == IOLOG_OP_WAIT && r->version == 3 ?
					 "wait is not allowed in version 3" : "bad iolog line");
		if (l.op == IOLOG_OP_ADD) {
			ret = iolog_name_add(r, l.name);
			if (ret == -E2BIG)
				return iolog_bad(r, err, copy, "too many files");
			if (ret < 0) {
				iops_err_set(err, -ret, "fio: %s: out of memory reading read_iolog", job->name);
				return ret;
			}
			continue;
		}
		idx = iolog_name_find(r, l.name);
		if (idx < 0)
			return iolog_bad(r, err, copy, "file not added");
		abs_us = r->version == 3 ? r->seg_base_us + l.ts_us : r->seg_base_us + r->wait_us;
		if (abs_us < r->seg_base_us)
			abs_us = UINT64_MAX;	/* saturate */
		r->last_us = abs_us;
		if (l.op == IOLOG_OP_WAIT) {
			if (l.offset >= 100)
				r->wait_us = r->wait_us > UINT64_MAX - l.offset ? UINT64_MAX : r->wait_us + l.offset;
			continue;
		}
		if (l.op == IOLOG_OP_OPEN || l.op == IOLOG_OP_CLOSE || iolog_skipped(job, l.op))
			continue;
		e->op = l.op;
		e->file = job->replay_redirect ? 0 : (unsigned)idx;
		e->t_ns = job->replay_no_stall ? 0 : iolog_replay_time_ns(abs_us, job->replay_time_scale);
		if (l.op <= IOLOG_OP_TRIM) {
			e->offset = iolog_replay_offset(l.offset, job->replay_scale, job->replay_align);
			e->len = l.len;
		} else {
			e->offset = e->len = 0;
		}
		return 1;
	}
	return 0;
}

/* The job file of a blktrace device: 0 redirected, else its node in /dev (first use). */
static int iolog_bt_file(struct iolog_replay *r, uint32_t dev, struct iops_err *err)
{
	unsigned maj = dev >> 20, min = dev & 0xfffffu;
	char path[512];
	int ret, idx;

	if (r->job->replay_redirect)
		return 0;
	for (unsigned i = 0; i < r->nr_names; i++)
		if (r->devs[i] == dev)
			return (int)i;
	if (devnode_find("/dev", maj, min, path, sizeof(path))) {
		iops_err_set(err, ENODEV, "fio: %s: blktrace '%s': no block device %u:%u in /dev (replay_redirect= "
			     "replays it elsewhere)", r->job->name, r->job->replay_log, maj, min);
		return -ENODEV;
	}
	ret = iolog_name_add(r, path);
	if (ret == 0 && r->cap_devs < r->cap_names) {
		uint32_t *v = realloc(r->devs, r->cap_names * sizeof(*v));

		if (!v)
			ret = -ENOMEM;
		else
			r->devs = v, r->cap_devs = r->cap_names;
	}
	idx = ret ? -1 : iolog_name_find(r, path);
	if (idx < 0) {
		iops_err_set(err, ret == -E2BIG ? E2BIG : ENOMEM, ret == -E2BIG ? "fio: %s: blktrace '%s': too many devices" :
			     "fio: %s: out of memory reading read_iolog", r->job->name, r->job->replay_log);
		return ret == -E2BIG ? -E2BIG : -ENOMEM;
	}
	r->devs[idx] = dev;
	return idx;
}

/* The next blktrace event to replay: 1 (in e), 0 at the end, -errno. */
static int iolog_bt_ent(struct iolog_replay *r, struct iolog_replay_ent *e, struct iops_err *err)
{
	for (;;) {
		struct blktrace_ev ev;
		struct blktrace_io io;
		int ret = blktrace_src_next(&r->bt, &ev, err), idx;

		if (ret <= 0) {
			r->eof = ret == 0;
			return ret;
		}
		ret = blktrace_play_event(&r->play, &ev, &io);
		if (ret < 0) {
			iops_err_set(err, EOVERFLOW, "fio: %s: blktrace '%s': event %u: sector %llu is beyond 64-bit offsets",
				     r->job->name, r->job->replay_log, ev.sequence, (unsigned long long)ev.sector);
			return -EOVERFLOW;
		}
		if (ret == 0)
			continue;
		idx = iolog_bt_file(r, io.device, err);
		if (idx < 0)
			return idx;
		e->op = (enum iolog_op)io.op;
		e->file = (unsigned)idx;
		e->t_ns = io.at_us > UINT64_MAX / 1000u ? UINT64_MAX : io.at_us * 1000u;
		e->offset = io.offset;
		e->len = io.len;
		return 1;
	}
}

/* Read up to max entries into r->ents (from 0), growing it when max is above r->cap. */
static int iolog_fill(struct iolog_replay *r, size_t max, struct iops_err *err)
{
	r->nr = r->pos = 0;
	while (r->nr < max) {
		int ret;

		if (r->nr == r->cap) {
			size_t cap = r->cap ? r->cap * 2 : IOLOG_REPLAY_CHUNK;
			struct iolog_replay_ent *v;

			if (cap > IOLOG_REPLAY_MAX_ENTS) {
				iops_err_set(err, E2BIG, "fio: %s: read_iolog %s: more than %llu entries (use read_iolog_chunked=1)",
					     r->job->name, r->job->replay_log, (unsigned long long)IOLOG_REPLAY_MAX_ENTS);
				return -E2BIG;
			}
			v = realloc(r->ents, cap * sizeof(*v));
			if (!v) {
				iops_err_set(err, ENOMEM, "fio: %s: out of memory reading read_iolog", r->job->name);
				return -ENOMEM;
			}
			r->ents = v;
			r->cap = cap;
		}
		ret = r->is_bt ? iolog_bt_ent(r, &r->ents[r->nr], err) : iolog_read_ent(r, &r->ents[r->nr], err);
		if (ret < 0)
			return ret;
		if (ret == 0)
			break;
		r->nr++;
	}
	return 0;
}

/* A blktrace (merge_blktrace_file, or the magic at the top of the log): its source. */
static int iolog_open_bt(struct iolog_replay *r, const struct job *job, struct iops_err *err)
{
	int ret;

	if (r->f)
		fclose(r->f);
	r->f = NULL;
	r->is_bt = true;
	r->play.no_stall = job->replay_no_stall;
	r->play.time_scale = job->replay_time_scale;
	r->play.scale = job->replay_scale;
	r->play.align = job->replay_align;
	r->play.skip = ((job->replay_skip & IOLOG_SKIP_READ) ? 1u << BLKTRACE_READ : 0) |
		       ((job->replay_skip & IOLOG_SKIP_WRITE) ? 1u << BLKTRACE_WRITE : 0) |
		       ((job->replay_skip & IOLOG_SKIP_TRIM) ? 1u << BLKTRACE_TRIM : 0) |
		       ((job->replay_skip & IOLOG_SKIP_SYNC) ? 1u << BLKTRACE_SYNC : 0);
	ret = blktrace_src_open(&r->bt, job, job->replay_log, err);
	r->bt_open = true;
	return ret;
}

static int iolog_open_file(struct iolog_replay *r, const struct job *job, struct iops_err *err)
{
	unsigned char magic[4];
	bool swap;
	int v;

	memset(r, 0, sizeof(*r));
	r->job = job;
	if (job->merge_blktrace_file)
		return iolog_open_bt(r, job, err);
	r->f = fopen(job->replay_log, "re");
	if (!r->f) {
		int e = errno;

		iops_err_set(err, e, "fio: %s: cannot open read_iolog '%s': %s", job->name, job->replay_log, err_str(e));
		return -e;
	}
	if (fread(magic, 1, sizeof(magic), r->f) == sizeof(magic) && blktrace_is_trace(magic, sizeof(magic), &swap))
		return iolog_open_bt(r, job, err);
	rewind(r->f);
	if (!fgets(r->line, sizeof(r->line), r->f)) {
		iops_err_set(err, EINVAL, "fio: %s: read_iolog '%s' is empty", job->name, job->replay_log);
		return -EINVAL;
	}
	r->lineno = 1;
	v = iolog_replay_version(r->line);
	if (v < 0) {
		iops_err_set(err, EINVAL, "fio: %s: read_iolog '%s' is not a fio iolog (version 2 or 3 header) nor a blktrace",
			     job->name, job->replay_log);
		return -EINVAL;
	}
	r->version = v;
	return 0;
}

int iolog_replay_open(struct iolog_replay *r, const struct job *job, struct iops_err *err)
{
	int ret = iolog_open_file(r, job, err);

	if (ret)
		return ret;
	if (job->read_iolog_chunked)
		return 0;	/* the first chunk comes with the first entry */
	ret = iolog_fill(r, SIZE_MAX, err);
	if (ret)
		return ret;
	if (r->f)
		fclose(r->f);	/* everything is in memory, as fio by default */
	r->f = NULL;
	if (r->bt_open)
		blktrace_src_close(&r->bt);
	r->bt_open = false;
	return 0;
}

int iolog_replay_next(struct iolog_replay *r, struct iolog_replay_ent *e, struct iops_err *err)
{
	if (r->pos == r->nr) {
		int ret;

		if ((!r->f && !r->bt_open) || r->eof)
			return 0;
		ret = iolog_fill(r, IOLOG_REPLAY_CHUNK, err);	/* within the chunk: no allocation */
		if (ret)
			return ret;
		if (r->nr == 0)
			return 0;
	}
	*e = r->ents[r->pos++];
	return 1;
}

void iolog_replay_close(struct iolog_replay *r)
{
	if (r->f)
		fclose(r->f);
	r->f = NULL;
	if (r->bt_open)
		blktrace_src_close(&r->bt);
	r->bt_open = false;
	free(r->devs);
	r->devs = NULL;
	r->cap_devs = 0;
	for (unsigned i = 0; i < r->nr_names; i++)
		free(r->names[i]);
	free(r->names);
	free(r->ents);
	r->names = NULL;
	r->ents = NULL;
	r->nr_names = r->cap_names = 0;
	r->nr = r->pos = r->cap = 0;
}

/* ---- config time ------------------------------------------------------------------------- */

/* The (subjob % n)th name of read_iolog's ':' list, copied into j->replay_log. */
static int iolog_pick_log(struct job *j, struct iops_err *err)
{
	const char *s = j->read_iolog;
	unsigned n = 1, k;
	size_t len;

	for (const char *c = s; *c; c++)
		n += *c == ':';
	k = j->subjob % n;
	while (k--)
		s = strchr(s, ':') + 1;
	len = strcspn(s, ":");
	if (len == 0) {
		iops_err_set(err, EINVAL, "fio: %s: read_iolog has an empty file name", j->name);
		return -EINVAL;
	}
	if (len == 1 && s[0] == '-') {
		iops_err_set(err, EINVAL, "fio: %s: read_iolog=- (stdin) is not supported by iops", j->name);
		return -EINVAL;
	}
	free(j->replay_log);
	j->replay_log = strndup(s, len);
	return j->replay_log ? 0 : -ENOMEM;
}

int iolog_replay_plan(struct job *j, struct iops_err *err)
{
	struct iolog_replay r;
	struct iolog_replay_ent e;
	uint64_t extent = 0, ios = 0, hi[DDIR_NR];
	bool has[DDIR_NR] = { false, false, false };
	char **names = NULL;
	unsigned nr;
	int ret;

	if (j->verify) {
		iops_err_set(err, EINVAL, "fio: %s: verify with read_iolog is not supported by iops", j->name);
		return -EINVAL;
	}
	if (j->merge_blktrace_file) {	/* every clone replays the merge of all the traces */
		free(j->replay_log);
		j->replay_log = strdup(j->merge_blktrace_file);
		if (!j->replay_log)
			goto nomem_early;
		ret = j->subjob == 0 ? blktrace_merge_check(j, err) : 0;
	} else {
		if (j->merge_blktrace_scalars || j->merge_blktrace_iters) {
			iops_err_set(err, EINVAL, "fio: %s: merge_blktrace_%s needs merge_blktrace_file", j->name,
				     j->merge_blktrace_scalars ? "scalars" : "iters");
			return -EINVAL;
		}
		ret = iolog_pick_log(j, err);
	}
	if (ret)
		return ret;
	ret = iolog_open_file(&r, j, err);
	if (ret)
		goto out;
	r.cap = 0;	/* scan with one chunk: bounded memory */
	for (int d = 0; d < DDIR_NR; d++)
		hi[d] = 0;
	while ((ret = iolog_replay_next(&r, &e, err)) > 0) {
		ios++;
		if (e.op > IOLOG_OP_TRIM)
			continue;
		has[e.op] = true;
		if (e.len > hi[e.op])
			hi[e.op] = e.len;
		if (e.offset + e.len > extent)
			extent = e.offset + e.len;	/* no overflow: offsets only shrink */
	}
	if (ret < 0)
		goto out;
	if (!has[DDIR_READ] && !has[DDIR_WRITE] && !has[DDIR_TRIM]) {
		iops_err_set(err, EINVAL, r.is_bt ? "fio: %s: found no ios in blktrace '%s'" :
			     "fio: %s: read_iolog '%s' has no I/O to replay", j->name, j->replay_log);
		ret = -EINVAL;
		goto out;
	}
	nr = j->replay_redirect ? 1 : r.nr_names;
	names = calloc(nr, sizeof(*names));
	if (!names)
		goto nomem;
	if (j->replay_redirect) {
		names[0] = strdup(j->replay_redirect);
		if (!names[0])
			goto nomem;
	} else {
		memcpy(names, r.names, nr * sizeof(*names));
		r.nr_names = 0;	/* the job owns them now */
	}
	if (extent > UINT64_MAX / nr) {
		iops_err_set(err, EOVERFLOW, "fio: %s: read_iolog '%s': offsets too large", j->name, j->replay_log);
		for (unsigned i = 0; i < nr; i++)
			free(names[i]);
		free(names);
		ret = -EOVERFLOW;
		goto out;
	}
	for (unsigned i = 0; i < j->nr_files; i++)
		free(j->filenames[i]);
	free(j->filenames);
	j->filenames = names;
	j->nr_files = nr;
	j->filenames_generated = false;
	/* every file gets the largest extent: reads stay inside files that are there, writes
	 * extend what needs it (the usual layout and overwrite rules apply) */
	j->size = extent * nr;
	j->size_pct = j->offset_pct = j->offset_increment_pct = 0;
	j->filesize_min = j->filesize_max = j->offset = j->offset_increment = j->io_size = 0;
	j->rw_has_read = has[DDIR_READ];
	j->rw_has_write = has[DDIR_WRITE];
	j->rw_has_trim = has[DDIR_TRIM];
	j->rw_random = false;
	j->rw_seq_add = 0;
	j->rw_nr_same_offset = 1;
	j->percentage_random = 0;
	j->loops = 1;
	free(j->bssplit);
	free(j->random_distribution);
	j->bssplit = j->random_distribution = NULL;
	/* the job's bs stays what was given (fio's header shows it); buffers fit the log's I/O */
	j->replay_max_len = 0;
	for (int d = 0; d < DDIR_NR; d++)
		if (has[d] && hi[d] > j->replay_max_len)
			j->replay_max_len = hi[d];
	j->replay_depth = r.is_bt ? blktrace_play_depth(&r.play) : 0;
	if (r.is_bt && r.play.zero && j->subjob == 0)	/* a warning: ret stays 0 */
		iops_err_set(err, 0, "fio: %s: blktrace '%s': ignoring %lu zero byte events", j->name, j->replay_log,
			     r.play.zero);
	ret = 0;
	goto out;
nomem:
	free(names);
	iops_err_set(err, ENOMEM, "fio: %s: out of memory reading read_iolog", j->name);
	ret = -ENOMEM;
	goto out;
nomem_early:
	iops_err_set(err, ENOMEM, "fio: %s: out of memory reading read_iolog", j->name);
	return -ENOMEM;
out:
	iolog_replay_close(&r);
	return ret;
}

/* ---- job strings ------------------------------------------------------------------------- */

int iolog_replay_dup(struct job *dst, const struct job *src)
{
	dst->write_iolog = dst->read_iolog = dst->replay_log = dst->replay_redirect = NULL;
	dst->merge_blktrace_file = dst->merge_blktrace_scalars = dst->merge_blktrace_iters = NULL;
	if ((src->write_iolog && !(dst->write_iolog = strdup(src->write_iolog))) ||
	    (src->merge_blktrace_file && !(dst->merge_blktrace_file = strdup(src->merge_blktrace_file))) ||
	    (src->merge_blktrace_scalars && !(dst->merge_blktrace_scalars = strdup(src->merge_blktrace_scalars))) ||
	    (src->merge_blktrace_iters && !(dst->merge_blktrace_iters = strdup(src->merge_blktrace_iters))) ||
	    (src->read_iolog && !(dst->read_iolog = strdup(src->read_iolog))) ||
	    (src->replay_log && !(dst->replay_log = strdup(src->replay_log))) ||
	    (src->replay_redirect && !(dst->replay_redirect = strdup(src->replay_redirect)))) {
		iolog_replay_free(dst);
		return -ENOMEM;
	}
	return 0;
}

void iolog_replay_free(struct job *j)
{
	free(j->write_iolog);
	free(j->read_iolog);
	free(j->replay_log);
	free(j->replay_redirect);
	free(j->merge_blktrace_file);
	free(j->merge_blktrace_scalars);
	free(j->merge_blktrace_iters);
	j->write_iolog = j->read_iolog = j->replay_log = j->replay_redirect = NULL;
	j->merge_blktrace_file = j->merge_blktrace_scalars = j->merge_blktrace_iters = NULL;
}
