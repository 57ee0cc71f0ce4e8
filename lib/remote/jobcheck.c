/* SPDX-License-Identifier: MIT */
/* jobcheck: a received job's limits on a server (jobcheck.h). */
#include "remote/jobcheck.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int jobcheck_refuse(const struct job *j, const char *what, struct iops_err *err)
{
	iops_err_set(err, EPERM, "job '%s': %s is not allowed on a server", j->name, what);
	return -EPERM;
}

static int jobcheck_one(const struct confine *c, const struct job *j, const char *what, const char *path,
			struct iops_err *err)
{
	struct iops_err why = { 0 };

	if (!path || !*path || !confine_path(c, what, path, &why))
		return 0;
	iops_err_set(err, EPERM, "job '%s': %s", j->name, why.msg);
	return -EPERM;
}

/* read_iolog: a ':' list of logs */
static int jobcheck_list(const struct confine *c, const struct job *j, const char *what, const char *list,
			 struct iops_err *err)
{
	char one[PATH_MAX];

	for (const char *p = list; p && *p; ) {
		size_t n = strcspn(p, ":");

		if (n >= sizeof(one)) {
			iops_err_set(err, ENAMETOOLONG, "job '%s': %s name too long", j->name, what);
			return -ENAMETOOLONG;
		}
		memcpy(one, p, n);
		one[n] = '\0';
		if (jobcheck_one(c, j, what, one, err))
			return -EPERM;
		p += n + (p[n] == ':');
	}
	return 0;
}

static const char *const jobcheck_engines[] = { "exec", "net", "netsplice" };
static const char *const jobcheck_logs[JOB_LOG_PREFIXES] = { "write_bw_log", "write_iops_log", "write_lat_log",
							     "write_hist_log" };

int jobcheck_config(const struct confine *c, struct fio_config *cfg, struct iops_err *err)
{
	if (cfg->output_path) {
		iops_err_set(err, EPERM, "--output is not allowed on a server (the report goes to the client)");
		return -EPERM;
	}
	for (unsigned i = 0; i < cfg->nr_jobs; i++) {
		struct job *j = &cfg->jobs[i];

		for (size_t e = 0; e < sizeof(jobcheck_engines) / sizeof(jobcheck_engines[0]); e++)
			if (!strcmp(j->ioengine, jobcheck_engines[e])) {
				char what[48];

				snprintf(what, sizeof(what), "ioengine=%s", jobcheck_engines[e]);
				return jobcheck_refuse(j, what, err);
			}
		if (j->proc.exec_prerun[0] || j->proc.exec_postrun[0])
			return jobcheck_refuse(j, "exec_prerun/exec_postrun", err);
		if (j->proc.cgroup[0])
			return jobcheck_refuse(j, "cgroup", err);
		if (j->proc.ioscheduler[0])
			return jobcheck_refuse(j, "ioscheduler", err);
		if (j->proc.uid_set || j->proc.gid_set)
			return jobcheck_refuse(j, "uid/gid", err);
		for (unsigned k = 0; k < JOB_LOG_PREFIXES; k++)
			if (j->log_prefix[k])
				return jobcheck_refuse(j, jobcheck_logs[k], err);
		if (j->write_iolog)
			return jobcheck_refuse(j, "write_iolog", err);
		for (unsigned f = 0; j->filenames && f < j->nr_files; f++)
			if (jobcheck_one(c, j, "filename", j->filenames[f], err))
				return -EPERM;
		if (jobcheck_list(c, j, "read_iolog", j->read_iolog, err) ||
		    jobcheck_one(c, j, "read_iolog", j->replay_log, err) ||
		    jobcheck_one(c, j, "replay_redirect", j->replay_redirect, err) ||
		    jobcheck_one(c, j, "merge_blktrace_file", j->merge_blktrace_file, err) ||
		    jobcheck_one(c, j, "mmap file", j->proc.mem_path, err))
			return -EPERM;
		j->verify_state_save = false;	/* its state file would stay on the server */
	}
	return 0;
}

/* read_iolog and merge_blktrace_file are read while the job is parsed, before any check: a
 * key that abbreviates them (fio takes unique prefixes) is refused before parsing. */
static bool jobcheck_key_read_at_parse(const char *key, size_t len)
{
	return (len >= 6 && len <= 10 && !strncmp(key, "read_iolog", len)) ||
	       (len >= 7 && len <= 19 && !strncmp(key, "merge_blktrace_file", len));
}

int jobcheck_text(const char *text, size_t len, struct iops_err *err)
{
	for (size_t pos = 0; pos < len; ) {
		const char *line = text + pos, *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos, k;

		pos += n + 1;
		while (n && (*line == ' ' || *line == '\t')) {
			line++;
			n--;
		}
		k = 0;
		while (k < n && line[k] != '=' && line[k] != ' ' && line[k] != '\t' && line[k] != '\r')
			k++;
		if (jobcheck_key_read_at_parse(line, k)) {
			iops_err_set(err, EPERM, "%.*s is not allowed on a server (read while the job is parsed)", (int)k, line);
			return -EPERM;
		}
	}
	return 0;
}

bool jobcheck_arg_refused(const char *arg)
{
	static const char *const names[] = { "output", "inflate-log", "server", "client", "daemonize",
					     "remote-config" };

	if (strncmp(arg, "--", 2))
		return false;
	arg += 2;
	if (jobcheck_key_read_at_parse(arg, strcspn(arg, "=")))
		return true;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t n = strlen(names[i]);

		if (!strncmp(arg, names[i], n) && (arg[n] == '\0' || arg[n] == '='))
			return true;
	}
	return false;
}
