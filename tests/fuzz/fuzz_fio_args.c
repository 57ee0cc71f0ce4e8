/* SPDX-License-Identifier: MIT */
/* fuzz_fio_args: fio mode's command line (cmd/fio_args.c over lib/fio's option layer). The
 * input is an argv, one word per NUL- or newline-separated piece. */
#include "fuzz_util.h"

#include "fio_args.h"
#include "fio/conf/fioconf.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_stdin_null();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[FUZZ_ARGV_MAX], *store;
	struct fio_config cfg;
	int argc, status;

	/* --idle-prof=calibrate spins the CPUs for a while: not parsing */
	if (memmem(data, size, "calib", 5))
		return 0;
	argc = fuzz_argv(data, size, "fio", argv, &store);
	if (argc && !fio_args_parse(argc, argv, &cfg, &status))
		fio_config_release(&cfg);
	free(store);
	return 0;
}
