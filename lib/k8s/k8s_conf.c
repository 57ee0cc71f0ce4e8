/* SPDX-License-Identifier: MIT */
/* k8s_conf: the renderer's options and their checks; see k8s_conf.h. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k8s/k8s.h"
#include "k8s/k8s_conf.h"
#include "k8s/yaml.h"
#include "suite/sweep_conf.h"

void k8s_conf_init(struct k8s_conf *c)
{
	memset(c, 0, sizeof(*c));
	memcpy(c->name, "iops", sizeof("iops"));
	memcpy(c->image, "localhost/iops:latest", sizeof("localhost/iops:latest"));
	memcpy(c->size, "10Gi", sizeof("10Gi"));
	c->pods = 1;
	c->port = K8S_PORT_DEFAULT;
	c->wait_s = K8S_WAIT_DEFAULT;
	c->sweep = -1;
}

/* v for a message: at most 64 bytes, control characters as '?'. */
static const char *k8s_shown(const char *v, char *buf, size_t n)
{
	size_t i;

	for (i = 0; v[i] && i < n - 1 && i < 64; i++)
		buf[i] = (unsigned char)v[i] < 0x20 || v[i] == 0x7f ? '?' : v[i];
	buf[i] = '\0';
	return buf;
}

/* A string option's value into field (size n) when ok; NULL, or what the value must be. */
static const char *k8s_set_str(char *field, size_t n, const char *v, bool ok, const char *what)
{
	if (!ok || strlen(v) >= n)
		return what;
	memcpy(field, v, strlen(v) + 1);
	return NULL;
}

static const char *k8s_set_selector(struct k8s_conf *c, const char *v)
{
	const char *eq = strchr(v, '=');
	struct k8s_selector *s = &c->sel[c->nr_sel];
	size_t klen = eq ? (size_t)(eq - v) : 0;

	if (c->nr_sel == K8S_SELECTORS_MAX)
		return "one of at most 16 selectors";
	if (!eq || klen >= sizeof(s->key) || strlen(eq + 1) >= sizeof(s->value))
		return "KEY=VALUE with a label key and value";
	memcpy(s->key, v, klen);
	s->key[klen] = '\0';
	memcpy(s->value, eq + 1, strlen(eq + 1) + 1);
	if (!k8s_label_key(s->key) || !k8s_label_value(s->value))
		return "KEY=VALUE with a label key ([prefix/]name) and value (63 letters, digits, - _ . at most)";
	for (unsigned i = 0; i < c->nr_sel; i++)
		if (!strcmp(c->sel[i].key, s->key))
			return "a key not given already";
	c->nr_sel++;
	return NULL;
}

int k8s_conf_set(struct k8s_conf *c, const char *key, const char *value, struct iops_err *err)
{
	const char *v = value ? value : "", *why;
	char shown[72];

	if (!*v) {
		iops_err_set(err, EINVAL, "--%s: a value is needed (--%s=...)", key, key);
		return -EINVAL;
	}
	if (!strcmp(key, "name")) {
		why = k8s_set_str(c->name, sizeof(c->name), v, k8s_dns1035_label(v, K8S_NAME_MAX),
				  "a DNS label (a-z, 0-9, -, starting with a letter, 63 at most)");
	} else if (!strcmp(key, "namespace")) {
		why = k8s_set_str(c->namespace_, sizeof(c->namespace_), v, k8s_dns_label(v, K8S_NAME_MAX),
				  "a DNS label (a-z, 0-9, -, 63 at most)");
	} else if (!strcmp(key, "image")) {
		why = k8s_set_str(c->image, sizeof(c->image), v, k8s_image(v),
				  "an image reference (letters, digits, . _ - / : @ +, 512 at most)");
	} else if (!strcmp(key, "storage-class") || !strcmp(key, "shared-pvc") || !strcmp(key, "token-secret")) {
		char *field = key[0] == 's' ? (key[1] == 't' ? c->storage_class : c->shared_pvc) : c->token_secret;

		why = k8s_set_str(field, K8S_SUBDOMAIN_MAX + 1, v, k8s_dns_subdomain(v),
				  "a DNS subdomain name (a-z, 0-9, - and ., 253 at most)");
		c->given |= field == c->storage_class ? K8S_GIVEN_CLASS : 0;
	} else if (!strcmp(key, "size")) {
		why = k8s_set_str(c->size, sizeof(c->size), v, k8s_quantity(v), "a storage quantity (e.g. 10Gi, 500Mi, 1Ti)");
		c->given |= K8S_GIVEN_SIZE;
	} else if (!strcmp(key, "volume-mode")) {
		why = strcmp(v, "Filesystem") && strcmp(v, "Block") ? "Filesystem or Block" : NULL;
		c->volume = v[0] == 'B' ? K8S_BLOCK : K8S_FILESYSTEM;
		c->given |= K8S_GIVEN_VOLUME;
	} else if (!strcmp(key, "node-selector")) {
		why = k8s_set_selector(c, v);
	} else if (!strcmp(key, "output-format")) {
		why = k8s_set_str(c->output_format, sizeof(c->output_format), v,
				  strspn(v, "abcdefghijklmnopqrstuvwxyz+") == strlen(v), "an output format");
		c->given |= K8S_GIVEN_FORMAT;
	} else if (!strcmp(key, "parallelism")) {
		why = k8s_uint(v, 1, K8S_PODS_MAX, &c->pods) ? NULL : "a whole number from 1 to 1024";
		c->given |= K8S_GIVEN_PODS;
	} else if (!strcmp(key, "port")) {
		why = k8s_uint(v, 1, 65535, &c->port) ? NULL : "a TCP port (1 to 65535)";
	} else if (!strcmp(key, "wait")) {
		why = k8s_uint(v, 1, K8S_WAIT_MAX, &c->wait_s) ? NULL : "a number of seconds from 1 to 86400";
	} else if (!strcmp(key, "deadline")) {
		why = k8s_uint(v, 1, INT32_MAX, &c->deadline_s) ? NULL : "a number of seconds from 1 to 2147483647";
	} else {
		iops_err_set(err, EINVAL, "unknown option '--%s' (see 'iops k8s --help')", key);
		return -EINVAL;
	}
	if (why) {
		iops_err_set(err, EINVAL, "--%s: '%s' is not %s", key, k8s_shown(v, shown, sizeof(shown)), why);
		return -EINVAL;
	}
	return 0;
}

/* files[] gets text under path's base name; its index, or -1 with err set. */
static int k8s_add_file(struct k8s_conf *c, const char *path, const char *text, struct iops_err *err)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t n = strlen(text);
	struct k8s_file *f = &c->files[c->nr_files];

	if (c->nr_files == K8S_FILES_MAX) {
		iops_err_set(err, E2BIG, "%s: at most %u files in the ConfigMap", path, K8S_FILES_MAX);
		return -1;
	}
	if (!k8s_configmap_key(base)) {
		iops_err_set(err, EINVAL, "%s: its name '%s' cannot be a ConfigMap key (letters, digits, - . _)", path, base);
		return -1;
	}
	for (unsigned i = 0; i < c->nr_files; i++)
		if (!strcmp(c->files[i].key, base)) {
			iops_err_set(err, EINVAL, "%s: a second file named '%s' (the ConfigMap keys are base names)", path, base);
			return -1;
		}
	if (!yaml_utf8_ok(text, n)) {
		iops_err_set(err, EILSEQ, "%s: not UTF-8 text", path);
		return -1;
	}
	if (n > K8S_FILES_BYTES - c->files_bytes) {
		iops_err_set(err, E2BIG, "%s: the files are over %u KiB together (a ConfigMap holds 1 MiB)", path,
			     K8S_FILES_BYTES >> 10);
		return -1;
	}
	memcpy(f->key, base, strlen(base) + 1);
	f->text = text;
	c->files_bytes += n;
	return (int)c->nr_files++;
}

/* An "include" line would name a file the pods do not have. */
static bool k8s_has_include(const char *text)
{
	for (const char *line = text; *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] == '\n')) {
		const char *p = line + strspn(line, " \t");

		if (!strncmp(p, "include", 7) && (p[7] == ' ' || p[7] == '\t'))
			return true;
	}
	return false;
}

int k8s_conf_arg(struct k8s_conf *c, const char *arg, const char *text, struct iops_err *err)
{
	size_t n = strlen(arg);
	int file = -1;

	if (c->nr_args == K8S_ARGS_MAX) {
		iops_err_set(err, E2BIG, "'%s': at most %u arguments after --", arg, K8S_ARGS_MAX);
		return -E2BIG;
	}
	if (!n || n > K8S_ARG_MAX || !yaml_utf8_ok(arg, n) || strcspn(arg, "\n\r\t\v\f") != n) {
		char shown[72];

		iops_err_set(err, EINVAL, "argument '%s' after --: empty, over 4096 bytes, not UTF-8 or with a line break",
			     k8s_shown(arg, shown, sizeof(shown)));
		return -EINVAL;
	}
	if (arg[0] == '-') {
		static const char *const own[] = { "--client", "--server", "--output", "--output-format" };

		for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++) {
			size_t k = strlen(own[i]);

			if (!strncmp(arg, own[i], k) && (arg[k] == '=' || !arg[k] || (i < 2 && arg[k] == '-'))) {
				iops_err_set(err, EINVAL, "'%s' after --: the pods set it (iops k8s --output-format=F "
					     "for the report's format)", arg);
				return -EINVAL;
			}
		}
	} else {
		if (k8s_has_include(text)) {
			iops_err_set(err, EINVAL, "%s: its include lines name files the pods do not have (inline them)", arg);
			return -EINVAL;
		}
		file = k8s_add_file(c, arg, text, err);
		if (file < 0)
			return -EINVAL;
	}
	c->args[c->nr_args].arg = arg;
	c->args[c->nr_args++].file = file;
	return 0;
}

/* A config.file key onto an option the command line did not set. */
static int k8s_from_config(struct k8s_conf *c, const struct sweep_conf *sc, const char *path, const char *key,
			   const char *opt, unsigned given, struct iops_err *err)
{
	const char *v = sweep_conf_k8s_value(sc, key);
	char size[K8S_QUANTITY_MAX + 8];
	struct iops_err e = { 0 };

	if (!v || (c->given & given))
		return 0;
	if (!strcmp(key, "storage(Gi)")) {
		snprintf(size, sizeof(size), "%.*sGi", K8S_QUANTITY_MAX - 2, v);
		if (strspn(v, "0123456789") != strlen(v) || strlen(v) > K8S_QUANTITY_MAX - 2 || !k8s_quantity(size)) {
			iops_err_set(err, EINVAL, "%s: storage(Gi)=%s is not a whole number of GiB", path, v);
			return -EINVAL;
		}
		v = size;
	}
	if (k8s_conf_set(c, opt, v, &e) < 0) {
		iops_err_set(err, EINVAL, "%s: %s=%s: %s", path, key, v, strchr(e.msg, ':') ? strchr(e.msg, ':') + 2 : e.msg);
		return -EINVAL;
	}
	c->given &= ~given;	/* still the config's: a later option may override it */
	return 0;
}

int k8s_conf_sweep(struct k8s_conf *c, const char *path, const char *text, struct iops_err *err)
{
	static const char *const keys[][2] = {
		{ "server", "parallelism" }, { "storageclass", "storage-class" },
		{ "volumemode", "volume-mode" }, { "storage(Gi)", "size" },
	};
	static const unsigned given[] = { K8S_GIVEN_PODS, K8S_GIVEN_CLASS, K8S_GIVEN_VOLUME, K8S_GIVEN_SIZE };
	struct sweep_conf *sc = malloc(sizeof(*sc));
	const char *platform;
	int file, ret = -EINVAL;

	if (!sc) {
		iops_err_set(err, ENOMEM, "out of memory");
		return -ENOMEM;
	}
	sweep_conf_init(sc);
	if (sweep_conf_file(sc, text, path, err) < 0)
		goto free_sc;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (k8s_from_config(c, sc, path, keys[i][0], keys[i][1], given[i], err) < 0)
			goto free_sc;
	platform = sweep_conf_k8s_value(sc, "platform");
	c->note[0] = '\0';
	if (sweep_conf_k8s_value(sc, "storage_type") || (platform && strcmp(platform, "bm")))
		snprintf(c->note, sizeof(c->note), "%s: %s%s%s read, not used (one cluster, the one kubectl applies to)",
			 path, sweep_conf_k8s_value(sc, "storage_type") ? "storage_type" : "",
			 sweep_conf_k8s_value(sc, "storage_type") && platform ? " and " : "", platform ? "platform" : "");
	file = k8s_add_file(c, path, text, err);
	if (file < 0)
		goto free_sc;
	c->sweep = file;
	ret = 0;
free_sc:
	free(sc);
	return ret;
}

int k8s_conf_check(struct k8s_conf *c, struct iops_err *err)
{
	unsigned digits = 1;
	const char *fmt = c->output_format;

	for (unsigned n = c->pods - 1; n >= 10; n /= 10)
		digits++;
	if (c->sweep < 0 && !c->nr_args) {
		iops_err_set(err, EINVAL, "no workload: give fio options or job files after --, or --config=config.file");
		return -EINVAL;
	}
	if (c->sweep >= 0 && c->nr_args) {
		iops_err_set(err, EINVAL, "--config and arguments after -- ('%s'): the config.file is the whole workload",
			     c->args[0].arg);
		return -EINVAL;
	}
	if (c->shared_pvc[0] && ((c->given & (K8S_GIVEN_CLASS | K8S_GIVEN_SIZE)) || c->volume == K8S_BLOCK)) {
		iops_err_set(err, EINVAL, "--shared-pvc=%s is an existing Filesystem claim: --storage-class, --size and "
			     "--volume-mode=Block do not go with it", c->shared_pvc);
		return -EINVAL;
	}
	if (strlen(c->name) + 1 + digits > K8S_NAME_MAX) {
		iops_err_set(err, EINVAL, "--name=%s: at most %u characters with %u pods (their host names, "
			     "<name>-<index>, are 63 at most)", c->name, K8S_NAME_MAX - 1 - digits, c->pods);
		return -EINVAL;
	}
	if (*fmt && (c->sweep >= 0 ? strcmp(fmt, "normal") && strcmp(fmt, "csv") && strcmp(fmt, "json")
				   : strcmp(fmt, "normal") && strcmp(fmt, "json") && strcmp(fmt, "json+") && strcmp(fmt, "terse"))) {
		iops_err_set(err, EINVAL, "--output-format=%s: not one of %s", fmt,
			     c->sweep >= 0 ? "normal, csv, json (a sweep's)" : "normal, json, json+, terse");
		return -EINVAL;
	}
	return 0;
}
