/* SPDX-License-Identifier: MIT */
/* fuzz_proto: the scale-out wire protocol's decoding side (lib/remote/proto.c): a byte stream
 * received as frames by proto_recv() over a socket pair, each JOB payload read back by
 * proto_job_parse() and built again by proto_job_add(), which must give the same records;
 * the input is also taken as one header and as one JOB payload. */
#include "fuzz_util.h"

#include <sys/socket.h>

#include "remote/proto.h"

/* Parse a JOB payload; when it is valid, build it again record by record and parse that. */
static void job(const char *data, uint32_t len)
{
	struct iops_err err = { 0 };
	struct proto_job j = { 0 }, k = { 0 }, r = { 0 };

	if (!proto_job_parse(&j, data, len, &err)) {
		unsigned a = 0, f = 0;
		int ret = 0;

		/* the order of the records is lost in j: the arguments first, then the files */
		while (!ret && a < j.nr_args) {
			ret = proto_job_add(&k, 'A', NULL, j.args[a], (uint32_t)strlen(j.args[a]));
			a++;
		}
		while (!ret && f < j.nr_files) {
			ret = proto_job_add(&k, 'F', j.files[f].name, j.files[f].data, j.files[f].len);
			f++;
		}
		if (ret || proto_job_parse(&r, k.buf, k.len, &err) || r.nr_args != j.nr_args ||
		    r.nr_files != j.nr_files)
			abort();	/* what was read must be writable and read back the same */
	}
	proto_job_release(&j);
	proto_job_release(&k);
	proto_job_release(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct iops_err err = { 0 };
	struct proto_frame fr;
	uint16_t type;
	uint32_t len;
	int sv[2];

	if (size >= PROTO_HDR_LEN)
		(void)proto_hdr_decode(data, &type, &len, &err);
	job((const char *)data, (uint32_t)size);
	if (size > 60000 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return 0;
	if (write(sv[1], data, size) != (ssize_t)size)
		abort();
	close(sv[1]);
	while (proto_recv(sv[0], &fr, 1000, &err) == 0) {
		if (fr.type == PROTO_JOB)
			job(fr.data, fr.len);
		free(fr.data);
	}
	close(sv[0]);
	return 0;
}
