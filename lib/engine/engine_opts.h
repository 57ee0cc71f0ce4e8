/* SPDX-License-Identifier: MIT */
/* engine_opts: the settings of the engines that take options of their own (fio's engine
 * options: cpuload, program, port, donorname, stat_type...). The option layer fills one
 * struct engine_opts per job; an engine reads its own part through engine_cfg.opts and
 * nothing else. Plain values and fixed-size strings: the struct is copied with the job. */
#ifndef IOPS_ENGINE_OPTS_H
#define IOPS_ENGINE_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#define ENGINE_OPT_STR_MAX	1024

enum engine_cpumode { ENGINE_CPU_NOOP = 0, ENGINE_CPU_QSORT = 1 };
enum engine_stat_type { ENGINE_STAT_STAT = 0, ENGINE_STAT_LSTAT = 1, ENGINE_STAT_STATX = 2 };
enum engine_net_proto { ENGINE_NET_TCP = 0, ENGINE_NET_UDP = 1, ENGINE_NET_UNIX = 2 };

struct engine_cpuio_opts {
	unsigned load;			/* cpuload: 1..100 percent, 0 = not given */
	uint64_t chunk_ns;		/* cpuchunks (given in microseconds), default 50 ms */
	enum engine_cpumode mode;
	bool exit_on_io_done;
};

struct engine_exec_opts {
	char program[ENGINE_OPT_STR_MAX];	/* "" = not given */
	char arguments[ENGINE_OPT_STR_MAX];	/* %r and %n expanded by the engine */
	uint64_t grace_ns;		/* SIGTERM to SIGKILL, default 1 s */
	bool std_redirect;		/* default true: <job>.stdout / <job>.stderr */
};

struct engine_net_opts {
	char hostname[256];		/* "" = none (listener, UDP reader) */
	unsigned port;			/* 0 = not given; numjobs clones use port + clone index */
	enum engine_net_proto proto;
	bool listen, nodelay, pingpong;
	uint64_t window_size;		/* SO_SNDBUF / SO_RCVBUF, 0 = system default */
	unsigned mss;			/* TCP_MAXSEG, 0 = system default */
	unsigned ttl;			/* udp multicast: IP_MULTICAST_TTL, default 1 */
	char interface[64];		/* udp multicast: the interface's IPv4 address, "" = default */
};

struct engine_e4defrag_opts {
	char donorname[ENGINE_OPT_STR_MAX];	/* "" = not given (mandatory for e4defrag) */
	bool inplace;
};

/* io_uring, libaio and pvsync2 (fio's options of the same names). The option layer refuses each
 * one for the engines that do not take it, so an engine reads only its own. */
struct engine_aio_opts {
	bool hipri;			/* io_uring: IORING_SETUP_IOPOLL; pvsync2: RWF_HIPRI */
	unsigned hipri_pct;		/* pvsync2: share of the requests with RWF_HIPRI, default 100 */
	bool nowait;			/* RWF_NOWAIT on reads and writes */
	bool fixedbufs;			/* io_uring: registered buffers, READ_FIXED / WRITE_FIXED */
	bool registerfiles;		/* io_uring: registered files, IOSQE_FIXED_FILE */
	bool sqpoll;			/* io_uring: IORING_SETUP_SQPOLL (registers the files too) */
	int sqpoll_cpu;			/* io_uring: its CPU (IORING_SETUP_SQ_AFF), -1 = not given */
	int nonvectored;		/* io_uring: -1 as the kernel's probe says, 0 READV, 1 READ */
	unsigned force_async;		/* io_uring: IOSQE_ASYNC on every Nth request, 0 = never */
	bool userspace_reap;		/* libaio: accepted; the ring is always read in user space */
};

struct engine_opts {
	struct engine_cpuio_opts cpuio;
	struct engine_exec_opts exec;
	struct engine_net_opts net;
	struct engine_e4defrag_opts e4defrag;
	enum engine_stat_type stat_type;	/* filestat */
	struct engine_aio_opts aio;
};

/* The defaults fio documents for the fields that are not zero. */
static inline void engine_opts_defaults(struct engine_opts *o)
{
	o->cpuio.chunk_ns = 50000000u;
	o->exec.grace_ns = 1000000000u;
	o->exec.std_redirect = true;
	o->net.ttl = 1;
	o->aio.hipri_pct = 100;
	o->aio.sqpoll_cpu = -1;
	o->aio.nonvectored = -1;
}

#endif
