/* SPDX-License-Identifier: MIT */
/* fuzz_sweep_conf: `iops sweep`'s configuration (lib/suite/sweep_conf.c). The input is a
 * config.file text, then optionally a NUL and --key=value words (NUL- or newline-separated,
 * dashes left out) applied over it; the resulting matrix's steps are then laid out. */
#include "fuzz_util.h"

#include "suite/sweep_conf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct tm tm = { .tm_year = 126, .tm_mon = 11, .tm_mday = 1 };
	const uint8_t *nul = memchr(data, '\0', size);
	size_t tlen = nul ? (size_t)(nul - data) : size;
	char *argv[FUZZ_ARGV_MAX], *store, *text = malloc(tlen + 1), store2[8192], *sv[64], name[64];
	struct iops_err err = { 0 };
	struct sweep_conf c;
	int argc = 0;

	if (!text)
		return 0;
	memcpy(text, data, tlen);
	text[tlen] = '\0';
	if (nul)
		argc = fuzz_argv(nul + 1, size - tlen - 1, "sweep", argv, &store);
	else
		store = NULL;
	sweep_conf_init(&c);
	if (!sweep_conf_file(&c, text, "config.file", &err)) {
		int i;

		for (i = 1; i < argc; i++) {
			char *eq = strchr(argv[i], '=');

			if (eq)
				*eq++ = '\0';
			if (sweep_conf_set(&c, argv[i], eq, false, &err))
				break;
		}
		if (i >= argc) {
			unsigned n = sweep_nr_steps(&c);

			sweep_conf_k8s_names(&c, name, sizeof(name));
			(void)sweep_space_fits(sweep_space_needed(&c), 1ull << 30);
			for (int s = -1; s < (int)n && s < 64; s++) {
				struct sweep_step st;

				sweep_step_at(&c, s, &st);
				(void)sweep_rw_writes(st.rw);
				(void)sweep_rw_random(st.rw);
				sweep_step_dirname(&st, &tm, name, sizeof(name));
				sweep_step_argv(&c, &st, s & 1 ? "$jobname.$jobnum" : NULL, "out.json",
						s & 2 ? "logs" : NULL, sv, 64, store2, sizeof(store2));
			}
		}
	}
	free(store);
	free(text);
	return 0;
}
