/* SPDX-License-Identifier: MIT */
/* client: `iops --client=...` (client.h), fio's command line for it:
 *   iops [OPTIONS] --client=HOST[,PORT] [JOB ARGS...] [--client=HOST2 [JOB ARGS...]] ...
 *   iops [OPTIONS] --client=HOSTS_FILE JOB ARGS...   (the same job on every server in it)
 * The client's own options, wherever they stand: --output-format, --output, --minimal,
 * --terse-version, and the iops-only --client-wait=SECONDS, --client-ready-wait=SECONDS,
 * --plot=FILE.html (the merged result's page, checked before anything is sent). Any
 * other option before the first --client goes to every server. JOB ARGS: job files (sent with
 * their contents) and fio options, for the servers of the --client before them. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "client.h"
#include "files.h"
#include "merge/merge.h"
#include "plot_out.h"
#include "remote/hosts.h"
#include "remote_sys.h"

struct client_args {
	const char *fmt;		/* --output-format's value */
	const char *terse_version;
	const char *output;
	int first_client;		/* argv index of the first --client */
};

static void client_usage(FILE *out)
{
	fputs("Usage: iops [--output-format=F] [--client-wait=S] --client=HOST[,PORT]|HOSTS_FILE [job files, options]\n"
	      "             [--client=HOST2 [job files, options]] ...\n"
	      "Runs fio jobs on iops servers (iops --server) behind one start barrier and prints\n"
	      "each server's report, then All clients: their exact merge.\n"
	      "  --client-wait=S        retry connecting and resolving for S seconds [10]\n"
	      "  --client-ready-wait=S  a server not ready S seconds after the job is left out [600]\n"
	      "  --plot=FILE.html       also write the page of the servers and All clients (iops plot)\n"
	      "IOPS_SERVER_TOKEN in the environment is presented to the servers.\n", out);
}

static int client_seconds(const char *v, uint64_t *ms, struct iops_err *err, const char *opt)
{
	unsigned long long s;

	if (remote_sys_uint(v, 86400u * 365, &s)) {
		iops_err_set(err, EINVAL, "bad %s '%s' (whole seconds)", opt, v);
		return -EINVAL;
	}
	*ms = s * 1000u;
	return 0;
}

/* The client's own options. 1: taken, 0: not the client's. */
static int client_option(struct client *c, struct client_args *ca, const char *a, struct iops_err *err)
{
	if (!strncmp(a, "--output-format=", 16))
		ca->fmt = a + 16;
	else if (!strcmp(a, "--minimal"))
		ca->fmt = "terse";
	else if (!strncmp(a, "--terse-version=", 16))
		ca->terse_version = a;
	else if (!strncmp(a, "--output=", 9) && a[9])
		ca->output = a + 9;
	else if (!strncmp(a, "--client-wait=", 14))
		return client_seconds(a + 14, &c->wait_ms, err, "--client-wait") ? -1 : 1;
	else if (!strncmp(a, "--client-ready-wait=", 20))
		return client_seconds(a + 20, &c->ready_wait_ms, err, "--client-ready-wait") ? -1 : 1;
	else if (!strncmp(a, "--eta=", 6) || !strncmp(a, "--eta-newline=", 14) || !strncmp(a, "--eta-interval=", 15))
		return 1;	/* the servers' runs print no status line */
	else
		return 0;
	return 1;
}

/* Reads a job file (path "-": standard input) into *buf. 0 or -errno. */
static int client_slurp(const char *path, char **buf, uint32_t *len)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
	size_t cap = 65536, n = 0;
	ssize_t r = 0;

	if (fd < 0)
		return -errno;
	*buf = malloc(cap);
	while (*buf && (r = read(fd, *buf + n, cap - n)) > 0) {
		char *grown;

		n += (size_t)r;
		if (n < cap)
			continue;
		if (cap >= PROTO_FRAME_MAX / 2 || !(grown = realloc(*buf, cap * 2))) {
			r = -1;
			errno = EFBIG;
			break;
		}
		*buf = grown;
		cap *= 2;
	}
	if (fd != STDIN_FILENO)
		close(fd);
	if (!*buf || r < 0) {
		int e = *buf ? errno : ENOMEM;

		free(*buf);
		*buf = NULL;
		return -e;
	}
	*len = (uint32_t)n;
	return 0;
}

/* Appends argv[from..to) to j: options as 'A', job files as 'A' plus 'F' with their contents. */
static int client_job_args(struct proto_job *j, char **argv, int from, int to, struct iops_err *err)
{
	for (int i = from; i < to; i++) {
		const char *a = argv[i];
		int ret = proto_job_add(j, 'A', NULL, a, (uint32_t)strlen(a));

		if (!ret && (a[0] != '-' || !a[1])) {	/* a job file ("-": standard input) */
			char *data;
			uint32_t len;

			ret = client_slurp(a, &data, &len);
			if (ret) {
				iops_err_set(err, -ret, "cannot read job file '%s': %s", a, err_str(-ret));
				return ret;
			}
			ret = proto_job_add(j, 'F', a, data, len);
			free(data);
		}
		if (ret) {
			iops_err_set(err, -ret, "cannot send '%s': %s", a, ret == -E2BIG ? "too many or too large job files and options" :
				     err_str(-ret));
			return ret;
		}
	}
	return 0;
}

static int client_add_srv(struct client *c, const struct addr *a)
{
	struct client_srv *grown;

	if (c->nr >= HOSTS_MAX || !(grown = realloc(c->srv, (c->nr + 1) * sizeof(*grown))))
		return c->nr >= HOSTS_MAX ? -E2BIG : -ENOMEM;
	c->srv = grown;
	memset(&c->srv[c->nr], 0, sizeof(*grown));
	c->srv[c->nr].addr = *a;
	addr_format(a, c->srv[c->nr].name, sizeof(c->srv[c->nr].name));
	c->srv[c->nr++].fd = -1;
	return 0;
}

int client_add(struct client *c, const char *v, struct iops_err *err)
{
	struct addr *list = NULL, one;
	unsigned nr = 0;
	struct stat st;
	char *text = NULL;
	uint32_t len;
	int ret;

	if (stat(v, &st) || !S_ISREG(st.st_mode)) {
		if (addr_parse_client(&one, v, err))
			return -EINVAL;
		return client_add_srv(c, &one);
	}
	if ((ret = client_slurp(v, &text, &len)) < 0) {
		iops_err_set(err, -ret, "cannot read hosts file '%s': %s", v, err_str(-ret));
		return ret;
	}
	list = calloc(HOSTS_MAX, sizeof(*list));
	ret = list ? hosts_parse(text, len, v, list, &nr, HOSTS_MAX, err) : -ENOMEM;
	if (ret == 0) {
		iops_err_set(err, EINVAL, "hosts file '%s' lists no server", v);
		ret = -EINVAL;
	}
	for (unsigned i = 0; ret > 0 && i < nr; i++)
		if (client_add_srv(c, &list[i]) < 0) {
			iops_err_set(err, E2BIG, "more than %u servers", HOSTS_MAX);
			ret = -E2BIG;
		}
	free(list);
	free(text);
	return ret < 0 ? ret : 0;
}

/* Builds every server's job: the output format, the options before the first --client,
 * then the arguments after its own --client. */
static int client_jobs(struct client *c, const struct client_args *ca, int argc, char **argv, struct iops_err *err)
{
	unsigned next = 0;
	char fmt[128];
	int n = snprintf(fmt, sizeof(fmt), "--output-format=%s", ca->fmt);

	if (n < 0 || (size_t)n >= sizeof(fmt)) {
		iops_err_set(err, EINVAL, "bad --output-format '%s'", ca->fmt);
		return -EINVAL;
	}
	for (int i = ca->first_client; i < argc; ) {
		unsigned from = next;
		int end = i + 1;

		while (end < argc && strncmp(argv[end], "--client=", 9))
			end++;
		if (client_add(c, argv[i] + 9, err) < 0)
			return -EINVAL;
		next = c->nr;
		if (end == i + 1) {
			iops_err_set(err, EINVAL, "'%s': no job file or option follows it", argv[i]);
			return -EINVAL;
		}
		for (unsigned k = from; k < next; k++) {
			struct proto_job *j = &c->srv[k].job;

			if (proto_job_add(j, 'A', NULL, fmt, (uint32_t)strlen(fmt)) ||
			    (ca->terse_version && proto_job_add(j, 'A', NULL, ca->terse_version,
								(uint32_t)strlen(ca->terse_version))) ||
			    client_job_args(j, argv, 1, ca->first_client, err) || client_job_args(j, argv, i + 1, end, err)) {
				if (!iops_err_isset(err))
					iops_err_set(err, ENOMEM, "out of memory");
				return -EINVAL;
			}
		}
		i = end;
	}
	return 0;
}

int client_main(int argc, char **argv, struct ctl *ctl)
{
	struct client c = { .wait_ms = CLIENT_WAIT_MS, .ready_wait_ms = CLIENT_READY_MS, .ctl = ctl, .out = stdout };
	struct client_args ca = { .fmt = "normal", .first_client = -1 };
	struct iops_err err = { 0 };
	struct files_out of = { 0 };	/* openmetrics: --output written whole, renamed at the end */
	int status = 1, w = 1, rc;

	if (plot_out_take("client", &argc, argv, &c.plot) < 0)	/* checked before anything runs */
		return 1;
	for (int i = 1; i < argc; i++) {	/* the client's own options, wherever they are */
		int r;

		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			client_usage(stdout);
			return 0;
		}
		if ((r = client_option(&c, &ca, argv[i], &err)) < 0)
			goto fail;
		if (r) {	/* the client's: not sent */
			memmove(argv + i, argv + i + 1, (size_t)(argc - i - 1) * sizeof(*argv));
			argc--;
			i--;
		}
	}
	for (int i = 1; i < argc && ca.first_client < 0; i++)
		if (!strncmp(argv[i], "--client=", 9))
			ca.first_client = i;
	if (ca.first_client < 0 || !argv[ca.first_client][9]) {
		iops_err_set(&err, EINVAL, "--client needs HOST[,PORT] or a hosts file");
		goto fail;
	}
	if (merge_fmts_parse(ca.fmt, &c.fmts)) {
		iops_err_set(&err, EINVAL, "bad --output-format '%s' (normal, json, json+, terse, openmetrics)", ca.fmt);
		goto fail;
	}
	c.token = getenv("IOPS_SERVER_TOKEN") ? getenv("IOPS_SERVER_TOKEN") : "";
	c.headers = (c.fmts & MERGE_NORMAL) != 0;
	if (client_jobs(&c, &ca, argc, argv, &err) < 0)
		goto fail;
	if (ca.output && (c.fmts & MERGE_OPENMETRICS)) {	/* a scraper never reads half a file */
		if ((rc = files_out_open(&of, ca.output)) < 0) {
			iops_err_set(&err, -rc, "cannot open '%s' for output: %s", ca.output, err_str(-rc));
			goto fail;
		}
		c.out = of.f;
	} else if (ca.output && !(c.out = fopen(ca.output, "w"))) {
		iops_err_set(&err, errno, "cannot open '%s' for output: %s", ca.output, err_str(errno));
		c.out = stdout;
		goto fail;
	}
	if (!client_connect(&c)) {
		iops_err_set(&err, ECONNREFUSED, "no server answered");
		goto fail;
	}
	status = client_step(&c);
	if ((rc = client_print(&c, &err)) < 0)
		goto fail;
	if (rc && !status)	/* the page could not be written (printed) */
		status = 1;
	if (of.f) {
		c.out = stdout;
		if ((rc = files_out_commit(&of)) < 0) {
			iops_err_set(&err, -rc, "cannot write '%s': %s", ca.output, err_str(-rc));
			goto fail;
		}
	}
	w = 0;
fail:
	if (w)
		fprintf(stderr, "iops client: %s\n", err.msg);
	client_close(&c);
	client_step_reset(&c);
	if (of.f) {	/* not committed: the name keeps what it held */
		files_out_abort(&of);
		c.out = stdout;
	}
	if (c.out != stdout && fclose(c.out) && !status)
		status = 1;
	free(c.srv);
	return w ? 1 : status;
}
