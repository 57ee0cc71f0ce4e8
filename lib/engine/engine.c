/* SPDX-License-Identifier: MIT */
/* engine: the table of I/O engines. An explicit list (never constructor registration, which
 * silently drops engines from a static archive); its order is the order error messages show. */
#include "engine/engine.h"

#include <stddef.h>
#include <string.h>

extern const struct engine_ops engine_libaio_ops;
extern const struct engine_ops engine_uring_ops;
extern const struct engine_ops engine_posixaio_ops;
extern const struct engine_ops engine_psync_ops;
extern const struct engine_ops engine_sync_ops;
extern const struct engine_ops engine_pvsync_ops;
extern const struct engine_ops engine_pvsync2_ops;
extern const struct engine_ops engine_null_ops;
extern const struct engine_ops engine_falloc_ops;
extern const struct engine_ops engine_ftruncate_ops;
extern const struct engine_ops engine_mmap_ops;
extern const struct engine_ops engine_splice_ops;
extern const struct engine_ops engine_cpuio_ops;
extern const struct engine_ops engine_filecreate_ops;
extern const struct engine_ops engine_filestat_ops;
extern const struct engine_ops engine_filedelete_ops;
extern const struct engine_ops engine_dircreate_ops;
extern const struct engine_ops engine_dirstat_ops;
extern const struct engine_ops engine_dirdelete_ops;
extern const struct engine_ops engine_net_ops;
extern const struct engine_ops engine_netsplice_ops;
extern const struct engine_ops engine_exec_ops;
extern const struct engine_ops engine_e4defrag_ops;

static const struct engine_ops *const engine_table[] = {
	&engine_libaio_ops,
	&engine_uring_ops,
	&engine_posixaio_ops,
	&engine_psync_ops,
	&engine_sync_ops,
	&engine_pvsync_ops,
	&engine_pvsync2_ops,
	&engine_null_ops,
	&engine_falloc_ops,
	&engine_ftruncate_ops,
	&engine_mmap_ops,
	&engine_splice_ops,
	&engine_cpuio_ops,
	&engine_filecreate_ops,
	&engine_filestat_ops,
	&engine_filedelete_ops,
	&engine_dircreate_ops,
	&engine_dirstat_ops,
	&engine_dirdelete_ops,
	&engine_net_ops,
	&engine_netsplice_ops,
	&engine_exec_ops,
	&engine_e4defrag_ops,
};

#define ENGINE_NR (sizeof(engine_table) / sizeof(engine_table[0]))

const struct engine_ops *engine_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < ENGINE_NR; i++)
		if (!strcmp(engine_table[i]->name, name))
			return engine_table[i];
	return NULL;
}

const char *engine_names(void)
{
	/* Kept in step with engine_table by tests/unit/engine/check_engine.c. */
	return "libaio, io_uring, posixaio, psync, sync, pvsync, pvsync2, null, "
	       "falloc, ftruncate, mmap, splice, cpuio, filecreate, filestat, filedelete, dircreate, dirstat, dirdelete, net, netsplice, exec, e4defrag";
}
