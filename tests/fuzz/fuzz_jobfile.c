/* SPDX-License-Identifier: MIT */
/* fuzz_jobfile: fio job files (lib/fio/conf/jobfile.c: sections, include, ${VAR}, $ncpus math; then
 * applying them and lib/fio/conf/fioconf.c's validation). Each input is written to job.fio in a
 * private directory made once, beside inc.fio, which it may include; FUZZ_BS and FUZZ_RW are
 * set for ${VAR}. */
#include "fuzz_util.h"

#include <stdio.h>

#include "fio/conf/fioconf.h"
#include "fio/conf/jobfile.h"

static char dir[] = "/tmp/iops-fuzz-jobfile.XXXXXX";
static char path[sizeof(dir) + 16];

static void put(const char *name, const void *data, size_t size)
{
	char p[sizeof(path)];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	if (fclose(f))
		abort();
}

static void cleanup(void)
{
	char p[sizeof(path)];

	snprintf(p, sizeof(p), "%s/inc.fio", dir);
	unlink(p);
	unlink(path);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char inc[] = "bs=${FUZZ_BS}\nrw=${FUZZ_RW}\n";

	(void)argc;
	(void)argv;
	fuzz_stdin_null();
	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/job.fio", dir);
	put("inc.fio", inc, sizeof(inc) - 1);
	atexit(cleanup);
	setenv("FUZZ_BS", "8k", 1);
	setenv("FUZZ_RW", "randread", 1);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jobfile_keywords kw = { .ncpus = 4, .pagesize = 4096, .mb_memory = 1024 };	/* fixed: the same input, the same run */
	struct opt_job_list list = { 0 };
	struct job_kv *kv = NULL;
	unsigned nr_kv = 0, cap_kv = 0;
	struct opt_diag *d = malloc(sizeof(*d));
	struct fio_config cfg;
	struct opt_job global;
	struct jobfile jf;

	if (!d)
		return 0;
	opt_diag_init(d);
	put("job.fio", data, size);
	opt_job_init(&global);
	global.is_global = true;
	memset(&cfg, 0, sizeof(cfg));
	if (!jobfile_load(&jf, path, stdin, &kw, d)) {
		int ret = jobfile_apply(&jf, &global, &kv, &nr_kv, &cap_kv, &list, 0, false, NULL, 0, d);

		jobfile_release(&jf);
		if (!ret && list.nr) {
			ret = fioconf_build(&cfg, &list, kv, nr_kv, d);
			kv = NULL;
			nr_kv = 0;
			fio_config_release(&cfg);
		}
	}
	opt_job_list_release(&list);
	opt_job_release(&global);
	opt_kv_free(kv, nr_kv);
	free(d);
	return 0;
}
