/* SPDX-License-Identifier: MIT */
/* k8s-pod mode: what each pod of `iops k8s`' Indexed Job runs (the image has no shell).
 *
 * Every pod starts its server as a child (`iops --server --server-runs=R --directory=... |
 * --device=...`, its output on stderr) and waits for it. Pod 0 (JOB_COMPLETION_INDEX 0) also
 * waits until every pod's name resolves (<name>-<i>.<service>, bounded by --wait), writes a
 * hosts file in TMPDIR (/tmp: an emptyDir) and runs the client of all of them (`iops
 * --client=HOSTS --client-wait=S ...`, or `iops sweep CONFIG --client=HOSTS ...`) with its
 * report on stdout; it exits with the client's status once its own server has ended.
 * No wait is for ever: a server that has had no client connected for 2 x wait + 10 s (seen
 * in /proc/net/tcp) is stopped with a message, and so is pod 0's server that has not ended
 * POD_PLAN_GRACE_S after the client. A stop (SIGTERM: the pod deleted) is passed on to the
 * children, which stop and remove what their runs created. */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/err.h"
#include "k8s/pod_plan.h"
#include "modes.h"
#include "suite_sys.h"
#include "sys/tcpstate.h"

#define POD_ARGV_MAX	(K8S_ARGS_MAX + 16)
#define POD_STORE	(K8S_ARGS_MAX * (K8S_ARG_MAX + 1) + 16 * POD_PLAN_PATH_MAX)
#define POD_TICK_NS	200000000ull
#define POD_KILL_S	10	/* after a stop, children still running then are killed */
#define NS		1000000000ull

struct pod_run {
	struct pod_plan plan;
	char *argv[POD_ARGV_MAX];
	char store[POD_STORE];
	char hosts[PATH_MAX];		/* the hosts file, "" until made */
	pid_t server, client;		/* 0 when not running */
	int server_status, client_status;
	bool idle_stop;			/* the server was stopped for want of a client */
};

static pid_t pod_spawn(struct pod_run *r, int argc, int out_fd, const char *what)
{
	pid_t pid;

	if (argc < 0) {
		fprintf(stderr, "iops k8s-pod: the %s's command line is too long\n", what);
		return -1;
	}
	pid = suite_sys_spawn_fds(r->argv, out_fd, STDERR_FILENO);
	if (pid < 0) {
		fprintf(stderr, "iops k8s-pod: cannot start the %s: %s\n", what, err_str((int)-pid));
		return -1;
	}
	return pid;
}

/* Has child *pid ended? Then *status is its exit status (128 + signal) and *pid 0. */
static bool pod_reaped(struct ctl *ctl, pid_t *pid, int *status)
{
	int st;

	if (!*pid || !ctl_child_done(ctl, *pid, &st))
		return false;
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	*pid = 0;
	return true;
}

/* Pod 0: every pod's name resolves, or the wait is over (or a stop, or the server died). */
static int pod_resolve_all(struct pod_run *r, struct ctl *ctl)
{
	uint64_t deadline = clock_now_ns() + (uint64_t)r->plan.wait_s * NS;
	unsigned i = 0;

	while (i < r->plan.pods) {
		struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res = NULL;
		char host[K8S_NAME_MAX + K8S_SUBDOMAIN_MAX + 16];

		if (pod_plan_host(&r->plan, i, host, sizeof(host)) < 0)
			return -1;
		if (getaddrinfo(host, NULL, &hints, &res) == 0) {
			freeaddrinfo(res);
			i++;
			continue;
		}
		if (pod_reaped(ctl, &r->server, &r->server_status)) {
			fprintf(stderr, "iops k8s-pod: this pod's server ended (status %d) before the pods answered\n",
				r->server_status);
			return -1;
		}
		if (clock_now_ns() >= deadline) {
			fprintf(stderr, "iops k8s-pod: %s does not resolve after %u s: is pod %u running? "
				"(kubectl get pods -l app.kubernetes.io/instance=%s)\n", host, r->plan.wait_s, i, r->plan.name);
			return -1;
		}
		if (!ctl_sleep_until(ctl, clock_now_ns() + NS))
			return -1;
	}
	fprintf(stderr, "iops k8s-pod: the %u pods resolve; starting the client\n", r->plan.pods);
	return 0;
}

/* The hosts file, made new (O_EXCL) in TMPDIR or /tmp. */
static int pod_write_hosts(struct pod_run *r)
{
	const char *tmp = getenv("TMPDIR");
	size_t n = (size_t)r->plan.pods * (K8S_NAME_MAX + K8S_SUBDOMAIN_MAX + 24) + 1;
	char *text = malloc(n);
	int fd = -1, ret = -1;

	if (!text || pod_plan_hosts_text(&r->plan, text, n) < 0) {
		fputs("iops k8s-pod: cannot make the hosts file's text\n", stderr);
		goto free_text;
	}
	if (snprintf(r->hosts, sizeof(r->hosts), "%s/iops-hosts.%ld", tmp && *tmp ? tmp : "/tmp", (long)getpid()) >=
	    (int)sizeof(r->hosts)) {
		fputs("iops k8s-pod: TMPDIR is too long\n", stderr);
		r->hosts[0] = '\0';
		goto free_text;
	}
	fd = open(r->hosts, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		fprintf(stderr, "iops k8s-pod: cannot make %s: %s\n", r->hosts, err_str(errno));
		r->hosts[0] = '\0';
		goto free_text;
	}
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text) || close(fd) < 0) {
		fprintf(stderr, "iops k8s-pod: cannot write %s: %s\n", r->hosts, err_str(errno));
		fd = -1;
		goto free_text;
	}
	fd = -1;
	ret = 0;
free_text:
	if (fd >= 0)
		close(fd);
	free(text);
	return ret;
}

/* Watch the children until none runs: pass a stop on, bound every wait. */
static void pod_watch(struct pod_run *r, struct ctl *ctl)
{
	uint64_t now = clock_now_ns(), last_client = now, client_end = 0, stop_at = 0, next_probe = 0;
	uint64_t idle_ns = (uint64_t)pod_plan_idle_s(&r->plan) * NS;
	int stops = ctl_nr_stops(ctl);
	bool probe_ok = true;

	while (r->server || r->client) {
		now = clock_now_ns();
		if (pod_reaped(ctl, &r->client, &r->client_status))
			client_end = now;
		pod_reaped(ctl, &r->server, &r->server_status);
		if (ctl_nr_stops(ctl) != stops) {	/* a stop: on to the children; killed if they linger */
			stops = ctl_nr_stops(ctl);
			stop_at = stop_at ? stop_at : now;
			if (r->server)
				kill(r->server, SIGTERM);
			if (r->client)
				kill(r->client, SIGTERM);
		}
		if (stop_at && now - stop_at > POD_KILL_S * NS) {
			if (r->server)
				kill(r->server, SIGKILL);
			if (r->client)
				kill(r->client, SIGKILL);
		}
		if (r->server && !stop_at && now >= next_probe && probe_ok) {
			int n = tcpstate_established(r->plan.port, r->plan.listen[0] ? r->plan.listen : NULL);

			next_probe = now + NS;
			if (n < 0) {
				fprintf(stderr, "iops k8s-pod: cannot read /proc/net/tcp (%s): no idle bound on the server; "
					"the Job's activeDeadlineSeconds still applies\n", err_str(-n));
				probe_ok = false;
			} else if (n > 0) {
				last_client = now;
			} else if (now - last_client > idle_ns) {
				fprintf(stderr, "iops k8s-pod: no client has been connected to this pod's server for %u s "
					"(pod 0 gone, or it gave up on this pod): stopping the server\n", pod_plan_idle_s(&r->plan));
				r->idle_stop = true;
				stop_at = now;
				kill(r->server, SIGTERM);
			}
		}
		if (r->server && !r->client && client_end && !stop_at && now - client_end > POD_PLAN_GRACE_S * NS) {
			fprintf(stderr, "iops k8s-pod: the client ended %u s ago and this pod's server has not (it expected "
				"more runs): stopping it\n", POD_PLAN_GRACE_S);
			r->idle_stop = true;
			stop_at = now;
			kill(r->server, SIGTERM);
		}
		ctl_sleep_until(ctl, now + POD_TICK_NS);
	}
}

int k8s_pod_main(int argc, char **argv, struct ctl *ctl)
{
	struct pod_run *r = calloc(1, sizeof(*r));
	struct iops_err err = { 0 };
	int ret = 1;

	if (!r) {
		fputs("iops k8s-pod: out of memory\n", stderr);
		return 1;
	}
	if (pod_plan_parse(&r->plan, argc, argv, getenv("JOB_COMPLETION_INDEX"), &err) < 0) {
		fprintf(stderr, "iops k8s-pod: %s\n", err.msg);
		goto free_run;
	}
	r->server = pod_spawn(r, pod_plan_server_argv(&r->plan, r->argv, POD_ARGV_MAX, r->store, POD_STORE),
			      STDERR_FILENO, "server");
	if (r->server < 0)
		goto free_run;
	if (r->plan.index == 0) {
		if (pod_resolve_all(r, ctl) < 0 || pod_write_hosts(r) < 0) {
			if (r->server)
				kill(r->server, SIGTERM);
		} else {
			r->client = pod_spawn(r, pod_plan_client_argv(&r->plan, r->hosts, r->argv, POD_ARGV_MAX, r->store,
								      POD_STORE), STDOUT_FILENO, "client");
			if (r->client < 0) {
				r->client = 0;
				kill(r->server, SIGTERM);
			}
		}
	}
	pod_watch(r, ctl);
	if (r->hosts[0])
		unlink(r->hosts);
	if (r->plan.index == 0)
		ret = r->client_status ? r->client_status : r->server_status || r->idle_stop || !r->hosts[0] ? 1 : 0;
	else
		ret = r->idle_stop ? 1 : r->server_status;
	if (r->server_status && !r->idle_stop)
		fprintf(stderr, "iops k8s-pod: this pod's server ended with status %d\n", r->server_status);
free_run:
	free(r);
	return ret;
}
