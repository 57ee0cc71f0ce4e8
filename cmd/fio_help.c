/* SPDX-License-Identifier: MIT */
/* fio_help: the printing side of fio's command line that is not a run: --cmdhelp (one job
 * option, or all of them, from lib's option table), --enghelp, and the parse diagnostics on
 * fio's streams. (--help and --version print fio_args.c's own table of command-line options;
 * --showcmd is jobfile_showcmd() in fio/conf/jobfile.c.) */
#include "fio_help.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "fio/conf/opt_value.h"

void fio_help_flush_diag(struct opt_diag *d)
{
	for (unsigned i = 0; i < d->nr; i++) {
		if (d->to_stdout[i]) {
			fprintf(stdout, "%s\n", d->line[i]);
		} else {
			fflush(stdout);
			fprintf(stderr, "%s\n", d->line[i]);
		}
	}
	fflush(stdout);
	d->nr = 0;
}

static const char *type_string(const struct opt_def *od)
{
	switch (od->type) {
	case OPT_T_STR:
	case OPT_T_CHOICE:
		return "text (opt=word)";
	case OPT_T_INT:
		return "whole number (opt=100)";
	case OPT_T_SIZE:
		return "byte count, k/m/g/t suffix allowed (opt=4k)";
	case OPT_T_TIME:
		return "duration, unit suffix allowed (opt=10s)";
	case OPT_T_BOOL:
		return "0 or 1 (opt=1)";
	case OPT_T_FLAG:
		return "switch: bare name, 0 or 1 ([0|1])";
	case OPT_T_RANGE:
		return "min-max, up to three comma separated (opt=1k-4k[,4k-8k[,1k-8k]])";
	case OPT_T_FLOAT_LIST:
		return "decimal numbers joined by ':' (opt=5.9:7.8)";
	case OPT_T_UNSUPPORTED:
		return "not supported by iops";
	}
	return "";
}

/* fio shows an unbounded max as -1. */
static int32_t shown_max(const struct opt_def *od)
{
	return od->max != OPT_NOMAX ? od->max : -1;
}

static void print_cmdhelp_one(const struct opt_def *od)
{
	struct opt_diag *d;

	if (od->type != OPT_T_UNSUPPORTED)
		printf("%20s: %s\n", od->name, od->help);
	else if (od->help)
		printf("%20s: fio option, not supported by iops: %s\n", od->name, od->help);
	else
		printf("%20s: fio option, not supported by iops\n", od->name);
	if (opt_alias(od))
		printf("%20s: %s\n", "alias", opt_alias(od));
	printf("%20s: %s\n", "type", type_string(od));
	if (od->type == OPT_T_UNSUPPORTED) {
		printf("\n");
		return;
	}
	printf("%20s: %s\n", "default", opt_default(od) ? opt_default(od) : "no default");
	if (od->type == OPT_T_INT || od->type == OPT_T_BOOL)
		printf("%20s: min=%lld, max=%lld\n", "range", (long long)od->min, (long long)shown_max(od));
	else if (od->type == OPT_T_FLOAT_LIST)
		printf("%20s: min=%f, max=%f\n", "range", (double)od->min, (double)shown_max(od));
	else if (od->type == OPT_T_RANGE)
		printf("%20s: min=%lld\n", "range", (long long)od->min);
	if (od->type == OPT_T_CHOICE) {
		d = malloc(sizeof(*d));
		if (d) {
			opt_diag_init(d);
			opt_value_choices(d, od);
			fio_help_flush_diag(d);	/* the list ends with its blank line */
			free(d);
			return;
		}
	}
	printf("\n");
}

/* fio --cmdhelp[=name]: always exit status 0, like fio. */
void fio_help_cmdhelp(const char *name)
{
	const struct opt_def *od;

	if (!name || !*name || !strcmp(name, "all")) {
		for (unsigned i = 0; i < opt_count(); i++) {
			od = opt_at(i);
			if (od->hidden || od->type == OPT_T_UNSUPPORTED)
				continue;
			printf("%-24s: %s\n", od->name, od->help);
		}
		return;
	}
	od = opt_find(name);
	if (od) {
		print_cmdhelp_one(od);
		return;
	}
	fflush(stdout);
	fprintf(stderr, "No such command: %s", name);
	fflush(stderr);
	{
		const char *s = opt_suggest(name);

		if (s && (od = opt_find(s)) != NULL) {
			printf(" - showing closest match\n");
			print_cmdhelp_one(od);
			return;
		}
	}
	printf("\n");
}

/* fio --enghelp[=engine[,cmd]]: the list, or "has no options" (iops engines take none). */
int fio_help_enghelp(const char *val)
{
	char name[64];
	const char *comma;
	size_t len;

	if (!*val) {
		const char *p = engine_names();

		printf("Available IO engines:\n");
		while (*p) {
			len = strcspn(p, ",");
			printf("\t%.*s\n", (int)len, p);
			p += len;
			while (*p == ',' || *p == ' ')
				p++;
		}
		return 0;
	}
	comma = strchr(val, ',');
	len = comma ? (size_t)(comma - val) : strlen(val);
	if (len >= sizeof(name))
		len = sizeof(name) - 1;
	memcpy(name, val, len);
	name[len] = '\0';
	if (engine_find(name)) {
		printf("IO engine %s has no options\n", name);
		return 1;	/* fio's status for this, too */
	}
	printf("IO engine %s not found\n", name);
	fflush(stdout);
	fprintf(stderr, "fio: engine %s is not supported by iops (available: %s)\n", name, engine_names());
	return 1;
}
