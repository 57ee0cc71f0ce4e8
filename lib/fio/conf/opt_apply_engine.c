/* SPDX-License-Identifier: MIT */
/* opt_apply_engine: the options of single engines (fio's engine options) into
 * job.eng (engine/engine_opts.h), and the refusal of the engines this build does not have,
 * each with its reason. */
#include "fio/conf/opt_apply.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/parse.h"

/* Copy val into a fixed field; an empty or too long value fails like fio's parser. */
static int eng_set_str(char *dst, size_t cap, const struct opt_def *od, const char *val,
		       struct opt_diag *d, bool allow_empty)
{
	size_t n = val ? strlen(val) : 0;

	if (!val || (!allow_empty && !n) || n >= cap) {
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	memcpy(dst, val, n + 1);
	return 0;
}

/* ---- cpuio ---- */

APPLY(opt_apply_cpuchunks)
{
	unsigned v;
	int ret = opt_value_get_uint(oj, od, val, d, &v);

	if (!ret)
		oj->j.eng.cpuio.chunk_ns = (uint64_t)v * 1000u;
	return ret;
}

const struct opt_choice opt_apply_cpumode_choices[] = {
	{ .word = "noop", .help = "NOOP instructions", .value = ENGINE_CPU_NOOP },
	{ .word = "qsort", .help = "QSORT computation", .value = ENGINE_CPU_QSORT },
	{ .word = NULL },
};

/* ---- exec ---- */

APPLY(opt_apply_program)
{
	return eng_set_str(oj->j.eng.exec.program, sizeof(oj->j.eng.exec.program), od, val, d, false);
}

APPLY(opt_apply_arguments)
{
	return eng_set_str(oj->j.eng.exec.arguments, sizeof(oj->j.eng.exec.arguments), od, val, d, true);
}

APPLY(opt_apply_grace_time)
{
	unsigned v;
	int ret = opt_value_get_uint(oj, od, val, d, &v);

	if (!ret)
		oj->j.eng.exec.grace_ns = (uint64_t)v * 1000000000u;
	return ret;
}

/* ---- net, netsplice ---- */

APPLY(opt_apply_hostname)
{
	return eng_set_str(oj->j.eng.net.hostname, sizeof(oj->j.eng.net.hostname), od, val, d, false);
}

const struct opt_choice opt_apply_protocol_choices[] = {
	{ .word = "tcp", .help = "Transmission Control Protocol", .value = ENGINE_NET_TCP },
	{ .word = "udp", .help = "User Datagram Protocol", .value = ENGINE_NET_UDP },
	{ .word = "unix", .help = "UNIX domain socket", .value = ENGINE_NET_UNIX },
	{ .word = NULL },
};

APPLY(opt_apply_protocol)
{
	int v;
	int ret;
	size_t w = val ? strcspn(val, ":,") : 0;	/* fio matches the word before a ':' or ',' */

	if (val && ((w == 5 && (!strncmp(val, "tcpv6", 5) || !strncmp(val, "udpv6", 5) || !strncmp(val, "vsock", 5))))) {
		opt_diag_add(d, false, "fio: protocol=%s (%s) is not supported by iops (it has tcp, udp, unix)",
			     val, strncmp(val, "vsock", 5) ? "IPv6" : "virtio sockets");
		return -EINVAL;
	}
	ret = opt_value_get_choice(od, val, d, &v);
	if (!ret)
		oj->j.eng.net.proto = (enum engine_net_proto)v;
	return ret;
}

APPLY(opt_apply_interface)
{
	return eng_set_str(oj->j.eng.net.interface, sizeof(oj->j.eng.net.interface), od, val, d, false);
}

/* ---- e4defrag, filestat ---- */

APPLY(opt_apply_donorname)
{
	return eng_set_str(oj->j.eng.e4defrag.donorname, sizeof(oj->j.eng.e4defrag.donorname), od, val, d,
			   false);
}

APPLY(opt_apply_inplace)
{
	unsigned v;
	int ret = opt_value_get_uint(oj, od, val, d, &v);

	if (!ret)
		oj->j.eng.e4defrag.inplace = v != 0;
	return ret;
}

const struct opt_choice opt_apply_stat_type_choices[] = {
	{ .word = "stat", .help = "Use stat(2)", .value = ENGINE_STAT_STAT },
	{ .word = "lstat", .help = "Use lstat(2)", .value = ENGINE_STAT_LSTAT },
	{ .word = "statx", .help = "Use statx(2) if exists", .value = ENGINE_STAT_STATX },
	{ .word = NULL },
};

/* ---- engines this build does not have ---- */

/* "fio: engine NAME needs LIB, which this build does not include" */
static const struct eng_need {
	const char *name, *lib;
} eng_needs[] = {
	{ "rbd", "librbd" }, { "rados", "librados" },
	{ "gfapi", "libgfapi" }, { "gfapi_async", "libgfapi" },
	{ "libiscsi", "libiscsi" }, { "libhdfs", "libhdfs" },
	{ "http", "libcurl" }, { "rdma", "librdmacm and libibverbs" },
	{ "libblkio", "libblkio" }, { "libcufile", "NVIDIA cuFile" },
	{ "cufile", "NVIDIA cuFile" }, { "libhipfile", "AMD hipFile" },
	{ "xnvme", "libxnvme" }, { "dfs", "DAOS libdfs" }, { "nfs", "libnfs" },
	{ "nbd", "libnbd" }, { "libzbc", "libzbc" },
	{ "pmemblk", "PMDK libpmemblk" }, { "dev-dax", "PMDK libpmem" },
	{ "libpmem", "PMDK libpmem" }, { "librpma_apm_client", "librpma" },
	{ "librpma_apm_server", "librpma" }, { "librpma_gpspm_client", "librpma" },
	{ "librpma_gpspm_server", "librpma" },
	{ "ime_psync", "DDN libime" }, { "ime_psyncv", "DDN libime" },
	{ "ime_aio", "DDN libime" },
};

/* "fio: engine NAME WHAT, which this build does not include[ (Linux: ...)]" */
static const struct eng_other {
	const char *name, *what;
	bool other_os;		/* another system's AIO: Linux's follow */
} eng_others[] = {
	{ "windowsaio", "is Windows' native AIO", true },
	{ "solarisaio", "is Solaris' native AIO", true },
	{ "mtd", "drives raw MTD flash devices (libmtd)", false },
	{ "sg", "drives SCSI devices through the sg driver (SG_IO)", false },
	{ "io_uring_cmd", "sends NVMe passthrough commands to /dev/ng* devices", false },
	{ "cpp_null", "is fio's C++ example engine", false },
	{ "page_fault", "is an engine of later fio versions", false },
};

int opt_apply_engine_refuse(const char *name, struct opt_diag *d)
{
	for (size_t i = 0; i < sizeof(eng_needs) / sizeof(eng_needs[0]); i++)
		if (!strcmp(eng_needs[i].name, name)) {
			opt_diag_add(d, false, "fio: engine %s needs %s, which this build does not include",
				     name, eng_needs[i].lib);
			return -EINVAL;
		}
	for (size_t i = 0; i < sizeof(eng_others) / sizeof(eng_others[0]); i++)
		if (!strcmp(eng_others[i].name, name)) {
			opt_diag_add(d, false, "fio: engine %s %s, which this build does not include%s", name,
				     eng_others[i].what,
				     eng_others[i].other_os ? " (Linux: libaio, io_uring)" : "");
			return -EINVAL;
		}
	return 0;
}

/* ---- checks once the job is read ---- */

#define ENG_CPUIO_SIZE	(1024u * 1024u)
#define ENG_FOREVER_NS	(UINT64_MAX / 4)	/* cpuio without runtime: until stopped */

int opt_apply_engine_derive(struct opt_job *oj, struct opt_diag *d)
{
	struct job *j = &oj->j;
	struct engine_opts *eo = &j->eng;

	if (opt_apply_aio_check(oj, d))	/* io_uring, libaio, pvsync2 */
		return -EINVAL;
	if (!strcmp(j->ioengine, "cpuio")) {
		if (!eo->cpuio.load) {
			opt_diag_add(d, false, "fio: cpuio engine requires cpuload=1..100");
			return -EINVAL;
		}
		if (eo->cpuio.load > 100)	/* as fio's cpuio init: the whole CPU */
			eo->cpuio.load = 100;
		/* fio's cpuio: each I/O burns one chunk, then the job thinks for the rest of
		 * the cycle, so the CPU is busy cpuload percent of the time */
		j->thinktime_ns = eo->cpuio.chunk_ns * (100u - eo->cpuio.load) / eo->cpuio.load;
		j->thinktime_blocks = 1;
		j->thinktime_spin_ns = 0;
		if (!j->runtime_ns)
			j->runtime_ns = ENG_FOREVER_NS;
		j->time_based = true;	/* size does not end a cpuio job */
		if (!j->size)
			j->size = ENG_CPUIO_SIZE;	/* something for the offsets to go round */
	} else if (!strcmp(j->ioengine, "exec")) {
		if (!eo->exec.program[0]) {
			opt_diag_add(d, false, "fio: exec engine requires program=");
			return -EINVAL;
		}
		if (!j->runtime_ns)
			j->runtime_ns = ENG_FOREVER_NS;	/* until the program ends */
		j->time_based = true;
		if (!j->size)
			j->size = ENG_CPUIO_SIZE;
	} else if (!strcmp(j->ioengine, "ftruncate")) {
		if (j->rw_has_read || j->rw_has_trim) {
			opt_diag_add(d, false, "fio: the ftruncate engine only writes (rw=write or randwrite)");
			return -EINVAL;
		}
	} else if (!strcmp(j->ioengine, "net") || !strcmp(j->ioengine, "netsplice")) {
		struct engine_net_opts *n = &eo->net;

		if (j->rw_has_read && j->rw_has_write) {
			opt_diag_add(d, false, "fio: network connections must be read OR write");
			return -EINVAL;
		}
		if (n->listen && n->proto != ENGINE_NET_TCP) {
			opt_diag_add(d, false, "fio: listen only valid for TCP proto IO");
			return -EINVAL;
		}
		if (n->proto == ENGINE_NET_UNIX) {
			if (!oj->filename || !oj->filename[0]) {
				opt_diag_add(d, false, "fio: network IO can't be used with unix sockets without a filename");
				return -EINVAL;
			}
			return 0;
		}
		if (!n->port) {
			opt_diag_add(d, false, "fio: no port has been specified which is required for the tcp protocol");
			return -EINVAL;
		}
		if (n->listen && n->hostname[0]) {
			opt_diag_add(d, false, "fio: hostname must be omitted with listen");
			return -EINVAL;
		}
		if (!n->listen && j->rw_has_write && !n->hostname[0]) {
			opt_diag_add(d, false, "fio: network IO requires a hostname (or listen)");
			return -EINVAL;
		}
		if (!n->listen && n->proto == ENGINE_NET_TCP && !j->rw_has_write) {
			opt_diag_add(d, false, "fio: a TCP reader must listen (add listen)");
			return -EINVAL;
		}
	}
	return 0;
}
