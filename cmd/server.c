/* SPDX-License-Identifier: MIT */
/* server: `iops --server[=ARGS]` (server.h). The listening process serves one client
 * session at a time, each in a forked child (server_session.c), so that a job that fails or
 * a client that dies ends that session only; a client arriving meanwhile is told the server
 * is busy. When a session's child has ended, however it ended, the server removes the files
 * (and directories) its jobs created in the served directory. SIGTERM, SIGINT, SIGHUP: the
 * running session is stopped (its files removed), then the server exits 0. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "core/clock.h"
#include "fio/file/target.h"
#include "remote_sys.h"
#include "server.h"

#define SERVER_CLEANUP_MAX	(4u << 20)	/* bytes of one session's path list */

struct server_sess {
	const struct server_cfg *sc;
	struct ctl *ctl;
	pid_t pid;
	int cleanup_rd;
	unsigned nr;
	char peer[64];
	pthread_t reaper;
	atomic_bool done;
	int status;	/* as waitpid() gives it */
};

static void server_usage(FILE *out)
{
	fputs("Usage: iops --server[=ARGS] [--daemonize=PIDFILE] [--directory=DIR] [--device=BLOCKDEV]\n"
	      "                 [--server-runs=N]\n"
	      "Serves fio jobs to iops clients (iops --client=HOST job.fio), one client at a time.\n"
	      "  ARGS               ip:HOST[,PORT], ip6:HOST[,PORT], sock:PATH, HOST, ,PORT\n"
	      "                     [every IPv4 address, port 8765]\n"
	      "  --daemonize=FILE   run in the background, its pid in FILE (created, removed at exit)\n"
	      "  --directory=DIR    the one directory jobs may use [the working directory]\n"
	      "  --device=BLOCKDEV  the one block device a job may name besides\n"
	      "  --server-runs=N    exit 0 after N client sessions [0: until SIGTERM]\n"
	      "IOPS_SERVER_TOKEN in the environment: clients must present the same one.\n", out);
}

static int server_args(struct server_cfg *sc, int argc, char **argv, struct iops_err *err)
{
	const char *dir = ".", *device = NULL, *spec = NULL;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = strchr(a, '=');
		unsigned long long n;

		if (!strcmp(a, "--server") || !strncmp(a, "--server=", 9))
			spec = v ? v + 1 : NULL;
		else if (!strncmp(a, "--daemonize=", 12) && a[12])
			sc->pidfile = a + 12;
		else if (!strncmp(a, "--directory=", 12) && a[12])
			dir = a + 12;
		else if (!strncmp(a, "--device=", 9) && a[9])
			device = a + 9;
		else if (!strncmp(a, "--server-runs=", 14)) {
			if (remote_sys_uint(a + 14, 1000000000ull, &n)) {
				iops_err_set(err, EINVAL, "bad --server-runs '%s' (0 to 1000000000)", a + 14);
				return -EINVAL;
			}
			sc->runs = (unsigned)n;
		} else {
			iops_err_set(err, EINVAL, "'%s' is not a server option (see 'iops --server --help'); "
				     "jobs come from the clients", a);
			return -EINVAL;
		}
	}
	if (addr_parse_server(&sc->addr, spec, err) || confine_init(&sc->conf, dir, device, err))
		return -EINVAL;
	sc->token = getenv("IOPS_SERVER_TOKEN");
	if (sc->token && !*sc->token)
		sc->token = NULL;
	return 0;
}

/* Removes what a session's jobs may have created (its list: "F path", "D dir", "L log").
 * A file goes only if it is a regular file the layout marked (or the file system keeps no
 * marks); directories only when empty, the deepest first. */
static unsigned server_cleanup(char *list, size_t len, const char *peer)
{
	unsigned removed = 0;
	char *dirs[256];
	unsigned nr_dirs = 0;

	for (char *line = list, *nl; line < list + len; line = nl + 1) {
		struct stat st;
		char mark[32];

		if (!(nl = memchr(line, '\n', (size_t)(list + len - line))))
			break;
		*nl = '\0';
		if (line[0] == 'L' && line[1] == ' ') {
			fprintf(stderr, "iops server: %s\n", line + 2);
		} else if (line[0] == 'D' && line[1] == ' ' && nr_dirs < 256) {
			dirs[nr_dirs++] = line + 2;
		} else if (line[0] == 'F' && line[1] == ' ' && lstat(line + 2, &st) == 0 && S_ISREG(st.st_mode)) {
			ssize_t m = getxattr(line + 2, TARGET_XATTR, mark, sizeof(mark));

			if ((m >= 0 || errno == ENOTSUP) && unlink(line + 2) == 0)
				removed++;
		}
	}
	while (nr_dirs--)
		if (rmdir(dirs[nr_dirs]) == 0)
			removed++;
	if (removed)
		fprintf(stderr, "iops server: removed %u path%s %s's jobs created\n", removed, removed == 1 ? "" : "s",
			peer);
	return removed;
}

static void *server_reap(void *arg)
{
	struct server_sess *ss = arg;
	size_t len = 0, cap = 65536;
	char *list = malloc(cap);
	int stops = ctl_nr_stops(ss->ctl);
	ssize_t n;

	while (list && (n = read(ss->cleanup_rd, list + len, cap - len)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		len += (size_t)n;
		if (len == cap && cap < SERVER_CLEANUP_MAX) {
			char *grown = realloc(list, cap *= 2);

			if (!grown)
				break;
			list = grown;
		}
		if (len == cap)	/* full: keep reading so the child never blocks */
			len = cap / 2;
	}
	while (!ctl_child_wait(ss->ctl, ss->pid, &ss->status, &stops))
		kill(ss->pid, SIGTERM);	/* the server is stopping: so does the session */
	close(ss->cleanup_rd);
	if (list)
		server_cleanup(list, len, ss->peer);
	if (WIFSIGNALED(ss->status))
		fprintf(stderr, "iops server: session of %s ended by signal %d\n", ss->peer, WTERMSIG(ss->status));
	free(list);
	atomic_store(&ss->done, true);
	return NULL;
}

/* Fork the session child for fd. 0 or -errno. */
static int server_fork(struct server_sess *ss, const struct server_cfg *sc, int lfd, int fd)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	remote_sys_peer(fd, ss->peer, sizeof(ss->peer));
	fflush(NULL);
	ss->pid = fork();
	if (ss->pid < 0) {
		close(p[0]);
		close(p[1]);
		return -errno;
	}
	if (!ss->pid) {	/* the session child */
		struct ctl ctl;

		close(lfd);
		close(p[0]);
		if (ctl_init(&ctl) || remote_sys_sigthread(&ctl) || chdir(sc->conf.root))
			_exit(1);
		_exit(server_session(sc, fd, p[1], ss->peer, &ctl));
	}
	close(p[1]);
	ss->cleanup_rd = p[0];
	atomic_store(&ss->done, false);
	if (pthread_create(&ss->reaper, NULL, server_reap, ss)) {
		kill(ss->pid, SIGKILL);
		atomic_store(&ss->done, true);
		return -EAGAIN;
	}
	return 0;
}

static void server_busy(int fd)
{
	static const char busy[] = "server busy: another client's session is running";

	proto_send(fd, PROTO_ERROR, busy, sizeof(busy) - 1);
	close(fd);
}

/* Clients that arrive during a session wait for it, in order, SERVER_QUEUE_MS at most (a
 * client run that follows another finds the last session still ending). */
#define SERVER_QUEUE	8
#define SERVER_QUEUE_MS	10000

struct server_queue {
	int fd[SERVER_QUEUE];
	uint64_t since[SERVER_QUEUE];
	unsigned n;
};

static void server_queue_expire(struct server_queue *q, uint64_t now)
{
	while (q->n && now - q->since[0] > SERVER_QUEUE_MS * 1000000ull) {
		server_busy(q->fd[0]);
		q->n--;
		memmove(q->fd, q->fd + 1, q->n * sizeof(q->fd[0]));
		memmove(q->since, q->since + 1, q->n * sizeof(q->since[0]));
	}
}

static int server_loop(const struct server_cfg *sc, int lfd, struct ctl *ctl)
{
	struct server_sess *ss = calloc(1, sizeof(*ss));
	struct server_queue q = { .n = 0 };
	unsigned sessions = 0;
	bool active = false;

	if (!ss)
		return 1;
	ss->sc = sc;
	ss->ctl = ctl;
	while (!ctl_stopped(ctl) && !(sc->runs && sessions >= sc->runs && !active)) {
		struct pollfd p = { lfd, POLLIN, 0 };
		int fd, r;

		if (active && atomic_load(&ss->done)) {
			pthread_join(ss->reaper, NULL);
			active = false;
			if (!(WIFEXITED(ss->status) && WEXITSTATUS(ss->status) == SERVER_REFUSED))
				sessions++;
			continue;
		}
		server_queue_expire(&q, clock_now_ns());
		if (!active && q.n && !(sc->runs && sessions >= sc->runs)) {	/* the next client in line */
			fd = q.fd[0];
			q.n--;
			memmove(q.fd, q.fd + 1, q.n * sizeof(q.fd[0]));
			memmove(q.since, q.since + 1, q.n * sizeof(q.since[0]));
			if ((r = server_fork(ss, sc, lfd, fd)) < 0)
				fprintf(stderr, "iops server: cannot start a session: %s\n", err_str(-r));
			else
				active = true;
			close(fd);
			continue;
		}
		r = poll(&p, 1, active || q.n ? 20 : 100);
		if (r <= 0 || !(p.revents & POLLIN))
			continue;
		fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		if (q.n == SERVER_QUEUE) {
			server_busy(fd);
			continue;
		}
		q.fd[q.n] = fd;
		q.since[q.n++] = clock_now_ns();
	}
	if (active)	/* stopped: the reaper passes the stop on and cleans up */
		pthread_join(ss->reaper, NULL);
	while (q.n)
		close(q.fd[--q.n]);
	free(ss);
	return 0;
}

/* --daemonize: the pid file is created (never overwritten) before the fork, filled by the
 * parent, removed by the daemon when it exits. Returns 0 in the daemon, 1 in the parent
 * (which exits 0), -1 on error (err set). */
static int server_daemonize(const struct server_cfg *sc, struct ctl **ctl, struct iops_err *err)
{
	static struct ctl dctl;	/* the daemon's: main()'s signal thread did not come along */
	int fd = open(sc->pidfile, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	pid_t pid;

	if (fd < 0) {
		iops_err_set(err, errno, "--daemonize: cannot create '%s': %s", sc->pidfile, err_str(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		iops_err_set(err, errno, "--daemonize: cannot fork: %s", err_str(errno));
		close(fd);
		unlink(sc->pidfile);
		return -1;
	}
	if (pid) {
		int ok = dprintf(fd, "%d\n", (int)pid) > 0;

		close(fd);
		if (!ok)
			iops_err_set(err, EIO, "--daemonize: cannot write '%s'", sc->pidfile);
		return ok ? 1 : -1;
	}
	close(fd);
	setsid();
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		if (fd > STDERR_FILENO)
			close(fd);
	}
	if (ctl_init(&dctl) || remote_sys_sigthread(&dctl))
		_exit(1);
	*ctl = &dctl;
	return 0;
}

int server_main(int argc, char **argv, struct ctl *ctl)
{
	struct server_cfg *sc = calloc(1, sizeof(*sc));
	struct iops_err err = { 0 };
	struct utsname u;
	char where[ADDR_HOST_MAX + 16];
	int lfd = -1, ret = 1, d;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			server_usage(stdout);
			free(sc);
			return 0;
		}
	if (!sc || server_args(sc, argc, argv, &err))
		goto fail;
	if (gethostname(sc->hostname, sizeof(sc->hostname) - 1))
		memcpy(sc->hostname, "localhost", 10);
	/* the machine's name as uname gives it; "unknown" when it does not fit (none does not) */
	if (uname(&u) || (size_t)snprintf(sc->arch, sizeof(sc->arch), "%s", u.machine) >= sizeof(sc->arch))
		memcpy(sc->arch, "unknown", 8);
	if ((lfd = remote_sys_listen(&sc->addr, &err)) < 0)
		goto fail;
	addr_format(&sc->addr, where, sizeof(where));
	fprintf(stderr, "iops server: listening on %s, serving %s%s%s, token %s, pid %d\n", where, sc->conf.root,
		sc->conf.device[0] ? " and " : "", sc->conf.device, sc->token ? "required" : "none", (int)getpid());
	if (sc->pidfile && (d = server_daemonize(sc, &ctl, &err)) != 0) {
		close(lfd);
		if (d > 0) {
			free(sc);
			return 0;
		}
		goto fail;
	}
	ret = server_loop(sc, lfd, ctl);
	close(lfd);
	if (sc->addr.family == ADDR_UNIX)
		unlink(sc->addr.path);
	if (sc->pidfile)
		unlink(sc->pidfile);
	fprintf(stderr, "iops server: %s\n", ctl_stopped(ctl) ? "stopped" : "done (--server-runs)");
	free(sc);
	return ret;
fail:
	fprintf(stderr, "iops server: %s\n", err.msg);
	free(sc);
	return 1;
}
