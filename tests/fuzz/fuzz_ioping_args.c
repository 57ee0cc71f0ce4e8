/* SPDX-License-Identifier: MIT */
/* fuzz_ioping_args: ioping mode's command line (lib/ioping/ioping_opts.c), parse and finish.
 * The input is an argv, one word per NUL- or newline-separated piece; a first byte '+' (then
 * dropped) parses the way POSIXLY_CORRECT does. */
#include "fuzz_util.h"

#include "ioping/ioping_opts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bool posix = size && data[0] == '+', usage_after;
	char *argv[FUZZ_ARGV_MAX], *store;
	enum ioping_opts_action action;
	struct iops_err err = { 0 };
	struct ioping_opts o;
	int argc = fuzz_argv(data + posix, size - posix, "ioping", argv, &store);

	ioping_opts_init(&o);
	if (argc && !ioping_opts_parse(&o, argc, argv, posix, &action, &usage_after, &err) &&
	    action == IOPING_OPTS_RUN)
		ioping_opts_finish(&o, &err);
	free(store);
	return 0;
}
