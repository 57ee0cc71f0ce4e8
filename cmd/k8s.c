/* SPDX-License-Identifier: MIT */
/* k8s mode: `iops k8s [options] [-- fio options or job files]` prints the manifest of an
 * Indexed Job of N iops servers whose pod 0 also runs the client (lib/k8s). Everything is read
 * and checked first (options, the config.file or job files, the fio arguments with fio mode's
 * own parser, run as a child with --parse-only), the manifest is made in memory, and only a
 * whole manifest reaches stdout: a bad input is one line on stderr, exit 1, nothing printed. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/err.h"
#include "k8s/k8s_conf.h"
#include "k8s/manifest.h"
#include "k8s/yaml.h"
#include "modes.h"
#include "suite_sys.h"

#define K8S_READ_MAX	K8S_FILES_BYTES

struct k8s_run {
	struct k8s_conf conf;
	char *texts[K8S_FILES_MAX + 1];	/* the files read, freed at the end */
	unsigned nr_texts;
};

static void k8s_usage(FILE *out)
{
	fputs("Usage: iops k8s [options] [-- fio options and job files]\n"
	      "       iops k8s [options] --config=config.file\n"
	      "Prints an Indexed Job of N pods for `kubectl apply -f -`: each pod an iops server on its own\n"
	      "volume, pod 0 also the client of all of them (its log: every server's report, then All clients).\n"
	      "  --name=NAME            Job, Service and ConfigMap name; pods are NAME-<index>.NAME [iops]\n"
	      "  --parallelism=N        pods (servers), 1 to 1024 [1]\n"
	      "  --namespace=NS         [kubectl's current namespace]\n"
	      "  --image=IMAGE          [localhost/iops:latest]\n"
	      "  --storage-class=SC     each pod's volume's class [the default StorageClass]\n"
	      "  --size=QUANTITY        each pod's volume [10Gi]\n"
	      "  --volume-mode=M        Filesystem (mounted on /iops/data) or Block (/dev/iops) [Filesystem]\n"
	      "  --shared-pvc=CLAIM     one ReadWriteMany claim, each pod in its subdirectory pod-<index>\n"
	      "  --node-selector=K=V    schedule on nodes with that label (repeatable)\n"
	      "  --output-format=F      the client's: normal, json, json+, terse (a sweep's: normal, csv, json)\n"
	      "  --config=FILE          simple-fio's config.file: pod 0 runs `iops sweep` of it across the pods\n"
	      "                         (server, storageclass, volumemode, storage(Gi) set the options above)\n"
	      "  --port=P               the servers' TCP port [8765]\n"
	      "  --wait=S               pod 0 waits up to S s for every pod to answer [600]\n"
	      "  --deadline=S           the Job's activeDeadlineSeconds [none]\n"
	      "  --token-secret=NAME    IOPS_SERVER_TOKEN from the key 'token' of that Secret\n", out);
}

/* A whole file (at most K8S_READ_MAX bytes) as a NUL-terminated heap string, kept in r. */
static const char *k8s_read(struct k8s_run *r, const char *path, struct iops_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	char *text = NULL;
	ssize_t n = -1;

	if (fd < 0 || fstat(fd, &st) < 0) {
		iops_err_set(err, errno, "cannot read %s: %s", path, err_str(errno));
		goto close_fd;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > K8S_READ_MAX) {
		iops_err_set(err, EINVAL, "%s: not a regular file of at most %u KiB", path, K8S_READ_MAX >> 10);
		goto close_fd;
	}
	text = malloc((size_t)st.st_size + 1);
	if (text)
		n = read(fd, text, (size_t)st.st_size + 1);
	if (n < 0 || n != st.st_size || memchr(text, 0, (size_t)n)) {
		iops_err_set(err, EINVAL, "%s: %s", path, n < 0 ? "cannot read it" : "changed while read, or binary");
		free(text);
		text = NULL;
		goto close_fd;
	}
	text[n] = '\0';
	r->texts[r->nr_texts++] = text;
close_fd:
	if (fd >= 0)
		close(fd);
	return text;
}

/* The options before --, the config, the arguments after --, then the checks. */
static int k8s_args(struct k8s_run *r, int argc, char **argv, struct iops_err *err)
{
	struct k8s_conf *c = &r->conf;
	const char *config = NULL;
	int i;

	k8s_conf_init(c);
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const char *eq = strchr(argv[i], '=');
		char key[32];

		if (strncmp(argv[i], "--", 2) || !argv[i][2] ||
		    snprintf(key, sizeof(key), "%.*s", eq ? (int)(eq - argv[i] - 2) : 31, argv[i] + 2) >= (int)sizeof(key)) {
			iops_err_set(err, EINVAL, "unknown option '%s' (see 'iops k8s --help'; fio options go after --)", argv[i]);
			return -1;
		}
		if (!strcmp(key, "config")) {
			if (!eq || !eq[1] || config) {
				iops_err_set(err, EINVAL, "'%s': one --config=FILE", argv[i]);
				return -1;
			}
			config = eq + 1;
		} else if (k8s_conf_set(c, key, eq ? eq + 1 : NULL, err) < 0) {
			return -1;
		}
	}
	if (config) {
		const char *text = k8s_read(r, config, err);

		if (!text || k8s_conf_sweep(c, config, text, err) < 0)
			return -1;
	}
	for (i++; i < argc; i++) {
		const char *text = NULL;

		if (argv[i][0] != '-' && !(text = k8s_read(r, argv[i], err)))
			return -1;
		if (k8s_conf_arg(c, argv[i], text, err) < 0)
			return -1;
	}
	return k8s_conf_check(c, err) < 0 ? -1 : 0;
}

/* fio mode's parser on the client's arguments (the job files at their local paths), as a child
 * with --parse-only: 0, or -1 with its message in err. */
static int k8s_fio_check(const struct k8s_conf *c, struct ctl *ctl, struct iops_err *err)
{
	char *argv[K8S_ARGS_MAX + 8], out[8192];
	int argc = 0, pfd[2], status = 0, stops = ctl_nr_stops(ctl);
	size_t len = 0;
	ssize_t n;
	pid_t pid;

	argv[argc++] = "fio";
	argv[argc++] = "--parse-only";
	if (c->volume == K8S_BLOCK) {
		argv[argc++] = "--filename=" K8S_DEVICE;
		argv[argc++] = "--allow_overwrite=1";
	}
	for (unsigned i = 0; i < c->nr_args; i++)
		argv[argc++] = (char *)c->args[i].arg;
	argv[argc] = NULL;
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		iops_err_set(err, errno, "cannot check the fio arguments: %s", err_str(errno));
		return -1;
	}
	pid = suite_sys_spawn_fds(argv, pfd[1], pfd[1]);
	close(pfd[1]);
	while (pid > 0) {	/* the first 8 KiB kept (fio's message comes first), the rest drained */
		char drain[4096];

		n = len < sizeof(out) - 1 ? read(pfd[0], out + len, sizeof(out) - 1 - len) : read(pfd[0], drain, sizeof(drain));
		if (n == 0 || (n < 0 && errno != EINTR))
			break;
		if (n > 0 && len < sizeof(out) - 1)
			len += (size_t)n;
	}
	close(pfd[0]);
	if (pid < 0) {
		iops_err_set(err, (int)-pid, "cannot check the fio arguments: %s", err_str((int)-pid));
		return -1;
	}
	while (!ctl_child_wait(ctl, pid, &status, &stops))
		;
	out[len] = '\0';
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	{	/* fio's own line: the last one that starts with "fio: ", else the first */
		char *line = out, *pick = NULL;

		for (char *p = out; *p; p = line) {
			line = p + strcspn(p, "\n");
			if (*line)
				*line++ = '\0';
			if (!pick || !strncmp(p, "fio: ", 5))
				pick = *p ? p : pick;
		}
		iops_err_set(err, EINVAL, "the fio arguments after -- do not parse: %s", pick ? pick : "fio mode failed");
	}
	return -1;
}

int k8s_main(int argc, char **argv, struct ctl *ctl)
{
	struct k8s_run *r = calloc(1, sizeof(*r));
	struct iops_err err = { 0 };
	struct yaml y;
	int ret = 1;

	if (!r) {
		fputs("iops k8s: out of memory\n", stderr);
		return 1;
	}
	yaml_init(&y);
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			k8s_usage(stdout);
			ret = 0;
			goto free_run;
		}
	if (k8s_args(r, argc, argv, &err) < 0 || (r->conf.sweep < 0 && k8s_fio_check(&r->conf, ctl, &err) < 0)) {
		fprintf(stderr, "iops k8s: %s\n", err.msg);
		goto free_run;
	}
	if (manifest_render(&r->conf, &y) < 0) {
		fprintf(stderr, "iops k8s: cannot make the manifest: %s\n", err_str(-yaml_error(&y)));
		goto free_run;
	}
	if (fwrite(y.buf, 1, y.len, stdout) != y.len || fflush(stdout) != 0) {
		fprintf(stderr, "iops k8s: cannot write the manifest: %s\n", err_str(errno));
		goto free_run;
	}
	if (r->conf.note[0])
		fprintf(stderr, "iops k8s: %s\n", r->conf.note);
	ret = 0;
free_run:
	yaml_release(&y);
	for (unsigned i = 0; i < r->nr_texts; i++)
		free(r->texts[i]);
	free(r);
	return ret;
}
