/* SPDX-License-Identifier: MIT */
/* sweep_remote: the sweep across servers (sweep_remote.h). */
#include "sweep_remote.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client.h"
#include "core/jsonr.h"
#include "merge/merge.h"
#include "suite/sweep_out.h"
#include "suite/sweep_tar.h"

#define SR_ARGV_MAX	48

/* The servers of every --client value (a value may list several, spaces between them). */
static int sr_servers(const struct sweep_remote *sr, struct client *c)
{
	for (unsigned i = 0; i < sr->nr_clients; i++) {
		char one[1024];

		for (const char *p = sr->clients[i]; *p; ) {
			size_t n;
			struct iops_err err = { 0 };

			p += strspn(p, " \t\n");
			n = strcspn(p, " \t\n");
			if (!n)
				break;
			if (n >= sizeof(one) || (memcpy(one, p, n), one[n] = '\0', client_add(c, one, &err) < 0)) {
				fprintf(stderr, "iops sweep: --client: %s\n", n >= sizeof(one) ? "entry too long" : err.msg);
				return -1;
			}
			p += n;
		}
	}
	if (!c->nr) {
		fputs("iops sweep: --client names no server\n", stderr);
		return -1;
	}
	return 0;
}

/* Each server's job for step st: json+ for the merge, then the step's fio options (neither
 * fio's argv[0] nor the local --output / --output-format). */
static int sr_jobs(struct client *c, const struct sweep_conf *conf, const struct sweep_step *st, const char *files,
		   char **argv, int *argc)
{
	static const char fmt[] = "--output-format=json+";
	char *all[SR_ARGV_MAX];
	static char store[8192];	/* the strings argv points to (one sweep at a time) */
	int n = sweep_step_argv(conf, st, files, "-", NULL, all, SR_ARGV_MAX, store, sizeof(store));

	if (n < 0)
		return -1;
	*argc = 0;
	for (int a = 1; a < n; a++)
		if (strncmp(all[a], "--output=", 9) && strncmp(all[a], "--output-format=", 16))
			argv[(*argc)++] = all[a];
	for (unsigned s = 0; s < c->nr; s++) {
		struct proto_job *j = &c->srv[s].job;

		if (proto_job_add(j, 'A', NULL, fmt, sizeof(fmt) - 1))
			return -1;
		for (int a = 0; a < *argc; a++)
			if (proto_job_add(j, 'A', NULL, argv[a], (uint32_t)strlen(argv[a])))
				return -1;
	}
	return 0;
}

/* --results: the step's archive DIR/<name>.tar: each server's json+ (<host>_<port>.json),
 * All clients as json+ and as text. */
static void sr_archive(const struct sweep_remote *sr, const struct client *c, const char *name,
		       const char *all_json, size_t all_len, const char *all_txt, size_t txt_len)
{
	struct sweep_tar_file *f = calloc(c->nr + 2, sizeof(*f));
	char (*names)[SWEEP_TAR_NAME_MAX + 1] = calloc(c->nr + 1, sizeof(*names));
	char path[4096];
	unsigned nr = 0;
	int fd = -1, ret = -ENOMEM;
	FILE *out = NULL;

	if (!f || !names)
		goto fail;
	for (unsigned s = 0; s < c->nr; s++) {
		const struct client_srv *v = &c->srv[s];

		if (!v->result)
			continue;
		ret = -ENAMETOOLONG;	/* a host name longer than a tar member's name (100 bytes) */
		if ((size_t)snprintf(names[nr], sizeof(names[nr]), "%s_%u.json",
				     v->addr.family == ADDR_UNIX ? "sock" : v->addr.host, v->addr.port) >= sizeof(names[nr]))
			goto fail;
		f[nr] = (struct sweep_tar_file){ names[nr], v->result, v->result_len };
		nr++;
	}
	f[nr++] = (struct sweep_tar_file){ "all_clients.json", all_json, all_len };
	f[nr++] = (struct sweep_tar_file){ "all_clients.txt", all_txt, txt_len };
	ret = -ENAMETOOLONG;
	if (snprintf(path, sizeof(path), "%s/%s.tar", sr->results, name) >= (int)sizeof(path))
		goto fail;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 || !(out = fdopen(fd, "w"))) {
		ret = -errno;
		goto fail;
	}
	fd = -1;
	ret = sweep_tar_write(out, f, nr, (uint64_t)time(NULL));
	if (fclose(out) && !ret)
		ret = -EIO;
	if (ret)
		unlink(path);
fail:
	if (fd >= 0)
		close(fd);
	if (ret)
		fprintf(stderr, "iops sweep: cannot write %s/%s.tar: %s\n", sr->results, name, err_str(-ret));
	free(f);
	free(names);
}

/* The step's All clients: the block in the log, the row, the archive. Returns the servers merged. */
static unsigned sr_merge(struct sweep_remote *sr, const struct client *c, const struct sweep_step *st,
			 const char *name, struct sweep_row *row)
{
	struct merge *m = merge_new();
	struct iops_err err = { 0 };
	char *js = NULL, *txt = NULL;
	size_t jl = 0, tl = 0;
	unsigned ok = 0;
	FILE *jf = NULL, *tf = NULL;

	for (unsigned s = 0; m && s < c->nr; s++) {
		const struct client_srv *v = &c->srv[s];

		if (v->result && merge_add(m, v->result, v->result_len, v->addr.family == ADDR_UNIX ? v->addr.path : v->addr.host,
					   v->addr.port, &err) == 0)
			ok++;
		else if (v->result)
			fprintf(stderr, "iops sweep: %s: its result cannot be merged: %s\n", v->name, err.msg);
	}
	if (!ok || !(jf = open_memstream(&js, &jl)) || !(tf = open_memstream(&txt, &tl)) ||
	    merge_write(m, tf, MERGE_NORMAL, 0, &err) < 0 || merge_write(m, jf, MERGE_JSONPLUS, 0, &err) < 0) {
		if (ok)
			fprintf(stderr, "iops sweep: the step's All clients: %s\n", err.msg);
		ok = 0;
	}
	if (jf)
		fclose(jf);
	if (tf)
		fclose(tf);
	if (ok) {
		struct jsonr j;

		fputs(txt, sr->progress);
		fflush(sr->progress);
		if (st->sample && jsonr_parse(&j, js, jl, &err) == 0) {
			memset(row, 0, sizeof(*row));
			memcpy(row->rw, st->rw, strlen(st->rw) + 1);
			memcpy(row->bs, st->bs, strlen(st->bs) + 1);
			row->sample = st->sample;
			row->servers = ok;
			row->servers_failed = c->nr - ok;
			if (sweep_row_from_json(row, &j) == 0)
				sr->nr_rows++;
			jsonr_free(&j);
		}
		if (sr->results[0])
			sr_archive(sr, c, name, js, jl, txt, tl);
	}
	free(js);
	free(txt);
	merge_free(m);
	return ok;
}

bool sweep_remote_arg(struct sweep_remote *sr, const char *arg, struct iops_err *err)
{
	static const char *const waits[] = { "--client-wait=", "--client-ready-wait=" };

	if (!strncmp(arg, "--client=", 9)) {
		if (!arg[9] || sr->nr_clients == SWEEP_CLIENTS_MAX)
			iops_err_set(err, EINVAL, "%s", arg[9] ? "too many --client options" : "--client needs HOSTS");
		else
			sr->clients[sr->nr_clients++] = arg + 9;
		return true;
	}
	for (unsigned k = 0; k < 2; k++) {
		size_t n = strlen(waits[k]);
		char *end;
		unsigned long long v;

		if (strncmp(arg, waits[k], n))
			continue;
		errno = 0;
		v = strtoull(arg + n, &end, 10);
		if (errno || end == arg + n || *end || arg[n] == '-' || v > 86400u * 365)
			iops_err_set(err, EINVAL, "bad %.*s '%s' (whole seconds)", (int)n - 1, arg, arg + n);
		else if (k == 0)
			sr->wait_ms = v * 1000u;
		else
			sr->ready_wait_ms = v * 1000u;
		return true;
	}
	return false;
}

int sweep_remote_run(struct sweep_remote *sr, struct ctl *ctl)
{
	struct client c = { .fmts = MERGE_JSONPLUS, .out = stderr, .ctl = ctl, .wait_ms = sr->wait_ms,
			    .ready_wait_ms = sr->ready_wait_ms };
	unsigned n = sweep_nr_steps(sr->conf);
	char files[64];
	int ret = 0;

	c.token = getenv("IOPS_SERVER_TOKEN") ? getenv("IOPS_SERVER_TOKEN") : "";
	snprintf(files, sizeof(files), "iops-sweep.%ld.$jobnum", (long)getpid());
	if (sr_servers(sr, &c) < 0) {
		free(c.srv);
		return 1;
	}
	if (!client_connect(&c)) {
		fputs("iops sweep: no server answered\n", stderr);
		free(c.srv);
		return 1;
	}
	for (int i = sr->conf->prefill ? -1 : 0; i < (int)n && !ctl_stopped(ctl); i++) {
		struct sweep_step st;
		char name[256], *argv[SR_ARGV_MAX];
		time_t now = time(NULL);
		struct tm tm;
		int argc, status;
		unsigned ok;

		localtime_r(&now, &tm);
		sweep_step_at(sr->conf, i, &st);
		if (sweep_step_dirname(&st, &tm, name, sizeof(name)) < 0 ||
		    sr_jobs(&c, sr->conf, &st, sr->conf->pass[SWEEP_P_FILENAME][0] ? NULL : files, argv, &argc) < 0) {
			fputs("iops sweep: the step's command line is too long\n", stderr);
			ret = 1;
			break;
		}
		sweep_print_step(sr->progress, sr->conf, &st, &tm, argv, argc);
		status = client_step(&c);
		ok = sr_merge(sr, &c, &st, name, &sr->rows[sr->nr_rows]);
		if (status || ok < c.nr) {
			fprintf(stderr, "iops sweep: %s: ran on %u of %u servers%s; the sweep goes on\n", name, ok, c.nr,
				status ? " (a server's job failed or was left out)" : "");
			ret = 1;
		}
		client_step_reset(&c);
	}
	client_close(&c);
	free(c.srv);
	return ret;
}
