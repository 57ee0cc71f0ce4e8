/* SPDX-License-Identifier: MIT */
/* faultfs: a FUSE pass-through file system that misbehaves on request, for the fault tests.
 * Test tool only: built by the Makefile as build/faultfs, never linked into iops.
 *
 *   faultfs BACKING MOUNTPOINT RULES_FILE [fuse options, e.g. -f]
 *   faultfs --parse 'RULES'          parse RULES, print them one per line, exit 0 (1 if bad)
 *
 * MOUNTPOINT mirrors the directory BACKING. RULES_FILE (outside the mount; it may be missing
 * or empty: no faults) is read again whenever its modification time or size changes, so a
 * test can change the faults in the middle of a run (and release a stall); the counters below
 * (operations, bytes written, hits) start again from zero with each new set. Rules are
 * separated by new lines or ';', each "KIND [key=value...]":
 *
 *   eio     [op=read|write|any] [off=N] [after=N] [count=N]   fail with EIO
 *   short   [op=write] max=N                                   transfer at most N bytes
 *   enospc  bytes=N                                            ENOSPC once N bytes are written
 *   delay   [op=...] ms=N                                      sleep N ms before the operation
 *   zero    [op=read|write|any] from=N                         the data ends at byte N: an
 *           operation starting at or past N transfers 0 bytes, one across N stops at N
 *
 * op=any (the default) is reads and writes; op=fsync (fsync and fdatasync) only when named.
 *   stall   [op=...] [off=N] [after=N] [hard=1]                block until the rule is removed
 *
 * off=N: only operations whose range covers byte N; after=N: only once N operations of that
 * kind have passed (counted from the mount, across rules); count=N: at most N times (eio).
 * A stalled operation ends early with EINTR when the kernel interrupts it (the caller got a
 * signal, or is exiting), as a storage daemon that honours interrupts does; hard=1 ignores
 * interrupts: the caller is stuck in the kernel (state D, unkillable) until the rule goes.
 * Numbers take k/m/g suffixes (powers of 1024). Every regular file is opened direct_io, so the
 * kernel passes each read and write through with the caller's offset and length. */
#define FUSE_USE_VERSION 31
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>

enum kind { K_EIO, K_SHORT, K_ENOSPC, K_DELAY, K_STALL, K_ZERO };
enum op { OP_ANY, OP_READ, OP_WRITE, OP_FSYNC };
static const char *const kind_names[] = { "eio", "short", "enospc", "delay", "stall", "zero" };
#define NR_KINDS (sizeof(kind_names) / sizeof(kind_names[0]))
static const char *const op_names[] = { "any", "read", "write", "fsync" };

struct rule {
	enum kind kind;
	enum op op;
	int64_t off;		/* -1: any offset */
	uint64_t after, count, bytes, ms, max, hard, from;
	atomic_ullong hits;
};

#define MAX_RULES 16
struct rules {
	struct rule r[MAX_RULES];
	unsigned n;
};

static const char *backing, *rules_path;
static struct rules cur;	/* replaced under lock when the file changes */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct timespec seen_mtime;
static off_t seen_size = -1;
static ino_t seen_ino;
static atomic_ullong nr_ops[4];	/* operations seen, per op (index OP_READ, OP_WRITE, OP_FSYNC) */
static atomic_ullong written;	/* bytes written through the mount */

static int parse_num(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case 'k': v = v > UINT64_MAX >> 10 ? 0 : v << 10; end++; break;
	case 'm': v = v > UINT64_MAX >> 20 ? 0 : v << 20; end++; break;
	case 'g': v = v > UINT64_MAX >> 30 ? 0 : v << 30; end++; break;
	default: break;
	}
	if (*end || (v == 0 && s[0] != '0'))
		return -1;
	*out = v;
	return 0;
}

/* One rule from "KIND key=value ..." (modified in place). */
static int parse_rule(char *text, struct rule *r)
{
	char *save = NULL, *w = strtok_r(text, " \t", &save);
	bool has_from = false;
	unsigned k;

	memset(r, 0, sizeof(*r));
	r->off = -1;
	for (k = 0; k < NR_KINDS && strcmp(w, kind_names[k]); k++)
		;
	if (k == NR_KINDS)
		return -1;
	r->kind = (enum kind)k;
	r->op = k == K_SHORT || k == K_ENOSPC ? OP_WRITE : OP_ANY;
	while ((w = strtok_r(NULL, " \t", &save))) {
		char *eq = strchr(w, '=');
		uint64_t v = 0;

		if (!eq)
			return -1;
		*eq++ = '\0';
		if (!strcmp(w, "op")) {
			unsigned o;

			for (o = 0; o < 4 && strcmp(eq, op_names[o]); o++)
				;
			if (o == 4)
				return -1;
			r->op = (enum op)o;
			continue;
		}
		if (parse_num(eq, &v))
			return -1;
		if (!strcmp(w, "off") && v <= INT64_MAX)
			r->off = (int64_t)v;
		else if (!strcmp(w, "after"))
			r->after = v;
		else if (!strcmp(w, "hard") && v <= 1)
			r->hard = v;
		else if (!strcmp(w, "count"))
			r->count = v;
		else if (!strcmp(w, "bytes"))
			r->bytes = v;
		else if (!strcmp(w, "ms") && v <= 600000)
			r->ms = v;
		else if (!strcmp(w, "max") && v > 0)
			r->max = v;
		else if (!strcmp(w, "from") && r->kind == K_ZERO && v <= INT64_MAX)
			r->from = v, has_from = true;
		else
			return -1;
	}
	if ((r->kind == K_SHORT && !r->max) || (r->kind == K_DELAY && !r->ms) || (r->kind == K_ZERO && !has_from) ||
	    ((r->kind == K_SHORT || r->kind == K_ENOSPC) && r->op != OP_WRITE))
		return -1;
	return 0;
}

/* Parse all of text (modified in place) into out; -1 (and the bad rule's number) if any is bad. */
static int parse_rules(char *text, struct rules *out, unsigned *bad)
{
	char *save = NULL;

	out->n = 0;
	for (char *line = strtok_r(text, ";\n", &save); line; line = strtok_r(NULL, ";\n", &save)) {
		char *p = line;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			continue;
		if (out->n == MAX_RULES || parse_rule(p, &out->r[out->n])) {
			*bad = out->n + 1;
			return -1;
		}
		out->n++;
	}
	return 0;
}

/* Re-read the rules file if it changed (cheap stat otherwise). */
static void rules_refresh(void)
{
	struct stat st;
	char buf[4096];
	struct rules next;
	unsigned bad;
	ssize_t n = 0;
	int fd;

	if (stat(rules_path, &st) < 0)
		st.st_size = 0, st.st_ino = 0, st.st_mtim = (struct timespec){ 0 };
	pthread_mutex_lock(&lock);
	if (st.st_size == seen_size && st.st_ino == seen_ino && st.st_mtim.tv_sec == seen_mtime.tv_sec &&
	    st.st_mtim.tv_nsec == seen_mtime.tv_nsec)
		goto unlock;
	fd = open(rules_path, O_RDONLY);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	buf[n > 0 ? n : 0] = '\0';
	if (parse_rules(buf, &next, &bad) == 0) {
		cur = next;	/* new rules: the counters start again */
		atomic_store(&nr_ops[OP_READ], 0);
		atomic_store(&nr_ops[OP_WRITE], 0);
		atomic_store(&nr_ops[OP_FSYNC], 0);
		atomic_store(&written, 0);
	} else {
		fprintf(stderr, "faultfs: %s: rule %u is bad, keeping the previous rules\n", rules_path, bad);
	}
	seen_size = st.st_size;
	seen_mtime = st.st_mtim;
	seen_ino = st.st_ino;
unlock:
	pthread_mutex_unlock(&lock);
}

static bool rule_applies(const struct rule *r, enum op op, uint64_t nth, off_t off, size_t len)
{
	if (op == OP_FSYNC ? r->op != OP_FSYNC : r->op != OP_ANY && r->op != op)
		return false;	/* op=any means reads and writes; fsync only when named */
	if (r->off >= 0 && ((uint64_t)r->off < (uint64_t)off || (uint64_t)r->off >= (uint64_t)off + len))
		return false;
	return nth >= r->after;
}

/* Is a stall rule for this operation still in force? 2: a hard one. */
static int stalled(enum op op, uint64_t nth, off_t off, size_t len)
{
	int yes = 0;

	rules_refresh();
	pthread_mutex_lock(&lock);
	for (unsigned i = 0; i < cur.n; i++)
		if (cur.r[i].kind == K_STALL && rule_applies(&cur.r[i], op, nth, off, len))
			yes = cur.r[i].hard ? 2 : yes ? yes : 1;
	pthread_mutex_unlock(&lock);
	return yes;
}

/* The faults for one read or write: 0 to go on (*len possibly cut), or -errno. */
static int faults(enum op op, off_t off, size_t *len)
{
	uint64_t nth, delay_ms = 0;
	bool stall = false;
	int ret = 0;

	rules_refresh();	/* first: new rules restart the count, this operation included */
	nth = atomic_fetch_add(&nr_ops[op], 1);
	pthread_mutex_lock(&lock);
	for (unsigned i = 0; i < cur.n; i++) {
		struct rule *r = &cur.r[i];

		if (!rule_applies(r, op, nth, off, *len))
			continue;
		switch (r->kind) {
		case K_EIO:
			if (!r->count || atomic_load(&r->hits) < r->count) {
				atomic_fetch_add(&r->hits, 1);
				ret = -EIO;
			}
			break;
		case K_SHORT:
			if (*len > r->max)
				*len = r->max;
			break;
		case K_ENOSPC: {
			uint64_t done = atomic_load(&written);

			if (done >= r->bytes)
				ret = -ENOSPC;
			else if (*len > r->bytes - done)
				*len = r->bytes - done;
			break;
		}
		case K_DELAY:
			delay_ms += r->ms;
			break;
		case K_STALL:
			stall = true;
			break;
		case K_ZERO:
			if ((uint64_t)off >= r->from)
				*len = 0;
			else if (*len > r->from - (uint64_t)off)
				*len = r->from - (uint64_t)off;
			break;
		}
	}
	pthread_mutex_unlock(&lock);
	if (delay_ms) {
		struct timespec ts = { (time_t)(delay_ms / 1000), (long)(delay_ms % 1000) * 1000000L };

		nanosleep(&ts, NULL);
	}
	for (int how; stall && (how = stalled(op, nth, off, *len));) {
		struct timespec ts = { 0, 10 * 1000000L };

		if (how == 1 && fuse_interrupted())
			return -EINTR;
		nanosleep(&ts, NULL);
	}
	return ret;
}

/* ---- pass-through ---------------------------------------------------------------------- */

static int real(const char *path, char *out)
{
	int n = snprintf(out, 4096, "%s%s", backing, path);

	return n < 0 || n >= 4096 ? -ENAMETOOLONG : 0;
}

#define REAL(p, buf) char buf[4096]; if (real(p, buf)) return -ENAMETOOLONG
#define SYS(call) return (call) < 0 ? -errno : 0

static int ff_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	if (fi)
		SYS(fstat((int)fi->fh, st));
	REAL(path, p);
	SYS(lstat(p, st));
}

static int ff_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off, struct fuse_file_info *fi,
		      enum fuse_readdir_flags flags)
{
	struct dirent *de;
	DIR *d;

	(void)off, (void)fi, (void)flags;
	REAL(path, p);
	d = opendir(p);
	if (!d)
		return -errno;
	while ((de = readdir(d)))
		fill(buf, de->d_name, NULL, 0, 0);
	closedir(d);
	return 0;
}

static int ff_open(const char *path, struct fuse_file_info *fi)
{
	int fd;

	REAL(path, p);
	fd = open(p, fi->flags & ~O_DIRECT);
	if (fd < 0)
		return -errno;
	fi->fh = (uint64_t)fd;
	fi->direct_io = 1;
	return 0;
}

static int ff_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	int fd;

	REAL(path, p);
	fd = open(p, (fi->flags & ~O_DIRECT) | O_CREAT, mode);
	if (fd < 0)
		return -errno;
	fi->fh = (uint64_t)fd;
	fi->direct_io = 1;
	return 0;
}

static int ff_read(const char *path, char *buf, size_t len, off_t off, struct fuse_file_info *fi)
{
	int ret = faults(OP_READ, off, &len);
	ssize_t n;

	(void)path;
	if (ret)
		return ret;
	n = pread((int)fi->fh, buf, len, off);
	return n < 0 ? -errno : (int)n;
}

static int ff_write(const char *path, const char *buf, size_t len, off_t off, struct fuse_file_info *fi)
{
	int ret = faults(OP_WRITE, off, &len);
	ssize_t n;

	(void)path;
	if (ret)
		return ret;
	n = pwrite((int)fi->fh, buf, len, off);
	if (n < 0)
		return -errno;
	atomic_fetch_add(&written, (unsigned long long)n);
	return (int)n;
}

static int ff_release(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	close((int)fi->fh);
	return 0;
}

static int ff_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	size_t len = 0;
	int ret = faults(OP_FSYNC, 0, &len);

	(void)path;
	if (ret)
		return ret;
	SYS(datasync ? fdatasync((int)fi->fh) : fsync((int)fi->fh));
}

static int ff_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	if (fi)
		SYS(ftruncate((int)fi->fh, size));
	REAL(path, p);
	SYS(truncate(p, size));
}

static int ff_fallocate(const char *path, int mode, off_t off, off_t len, struct fuse_file_info *fi)
{
	(void)path;
	SYS(fallocate((int)fi->fh, mode, off, len));
}

static int ff_unlink(const char *path) { REAL(path, p); SYS(unlink(p)); }
static int ff_rmdir(const char *path) { REAL(path, p); SYS(rmdir(p)); }
static int ff_mkdir(const char *path, mode_t mode) { REAL(path, p); SYS(mkdir(p, mode)); }
static int ff_chmod(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	(void)fi;
	REAL(path, p);
	SYS(chmod(p, mode));
}

static int ff_rename(const char *from, const char *to, unsigned flags)
{
	char t[4096];

	REAL(from, f);
	if (flags || real(to, t))
		return -EINVAL;
	SYS(rename(f, t));
}

static int ff_utimens(const char *path, const struct timespec tv[2], struct fuse_file_info *fi)
{
	(void)fi;
	REAL(path, p);
	SYS(utimensat(AT_FDCWD, p, tv, AT_SYMLINK_NOFOLLOW));
}

static int ff_statfs(const char *path, struct statvfs *st)
{
	(void)path;
	SYS(statvfs(backing, st));
}

static int ff_setxattr(const char *path, const char *name, const char *val, size_t len, int flags)
{
	REAL(path, p);
	SYS(lsetxattr(p, name, val, len, flags));
}

static int ff_getxattr(const char *path, const char *name, char *val, size_t len)
{
	ssize_t n;

	REAL(path, p);
	n = lgetxattr(p, name, val, len);
	return n < 0 ? -errno : (int)n;
}

static void *ff_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	(void)conn;
	cfg->use_ino = 1;
	cfg->intr = 1;	/* interrupts reach the handlers (SIGUSR1, see main): fuse_interrupted() */
	cfg->attr_timeout = 0;
	cfg->entry_timeout = 0;
	cfg->negative_timeout = 0;
	return NULL;
}

static const struct fuse_operations ops = {
	.init = ff_init, .getattr = ff_getattr, .readdir = ff_readdir, .open = ff_open,
	.create = ff_create, .read = ff_read, .write = ff_write, .release = ff_release,
	.fsync = ff_fsync, .truncate = ff_truncate, .fallocate = ff_fallocate, .unlink = ff_unlink,
	.rmdir = ff_rmdir, .mkdir = ff_mkdir, .chmod = ff_chmod, .rename = ff_rename,
	.utimens = ff_utimens, .statfs = ff_statfs, .setxattr = ff_setxattr, .getxattr = ff_getxattr,
};

static void on_intr(int signo)
{
	(void)signo;	/* only to cut a stall's sleep short */
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_intr };

	if (argc == 3 && !strcmp(argv[1], "--parse")) {
		struct rules rs;
		unsigned bad = 0;

		if (parse_rules(argv[2], &rs, &bad)) {
			fprintf(stderr, "faultfs: rule %u is bad\n", bad);
			return 1;
		}
		for (unsigned i = 0; i < rs.n; i++) {
			const struct rule *r = &rs.r[i];

			printf("%s op=%s off=%lld after=%llu count=%llu bytes=%llu ms=%llu max=%llu hard=%llu from=%llu\n",
			       kind_names[r->kind], op_names[r->op], (long long)r->off,
			       (unsigned long long)r->after, (unsigned long long)r->count,
			       (unsigned long long)r->bytes, (unsigned long long)r->ms, (unsigned long long)r->max,
			       (unsigned long long)r->hard, (unsigned long long)r->from);
		}
		return 0;
	}
	if (argc < 4) {
		fprintf(stderr, "usage: faultfs BACKING MOUNTPOINT RULES_FILE [fuse options]\n"
				"       faultfs --parse 'RULES'\n");
		return 1;
	}
	backing = realpath(argv[1], NULL);
	rules_path = argv[3];
	if (!backing) {
		perror(argv[1]);
		return 1;
	}
	sigaction(SIGUSR1, &sa, NULL);	/* libfuse's interrupt signal */
	argv[3] = argv[2];	/* fuse_main sees: prog [options] MOUNTPOINT */
	return fuse_main(argc - 2, argv + 2, &ops, NULL);
}
