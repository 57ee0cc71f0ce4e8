/* SPDX-License-Identifier: MIT */
/* proto: headers encode and decode (magic, version, type, length bounds); frames over a
 * socket pair, cut at every byte (a clean end before a header, EPROTO inside one); JOB
 * payloads built and parsed back, and every truncation and garbage refused; the builder's
 * bounds (a NUL in an argument, empty names, the record counts). */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "remote/proto.h"

START_TEST(test_hdr_roundtrip)
{
	static const struct { uint16_t type; uint32_t len; } t[] = {
		{ PROTO_HELLO, 0 }, { PROTO_JOB, 1 }, { PROTO_DIAG, PROTO_FRAME_MAX }, { PROTO_TYPE_MAX, 65536 },
	};
	struct iops_err err = { 0 };

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint8_t h[PROTO_HDR_LEN];
		uint16_t type;
		uint32_t len;

		proto_hdr_encode(h, t[i].type, t[i].len);
		ck_assert_int_eq(memcmp(h, "IOPS\0\1", 6), 0);
		ck_assert_int_eq(proto_hdr_decode(h, &type, &len, &err), 0);
		ck_assert_uint_eq(type, t[i].type);
		ck_assert_uint_eq(len, t[i].len);
	}
}
END_TEST

/* bad headers: what is wrong, in the message */
static const struct { const char *hdr; const char *msg; } bad_hdrs[] = {
	{ "GET / HTTP/1", "not an iops peer" },
	{ "IOPS\0\2\0\1\0\0\0\0", "protocol version 2" },
	{ "IOPS\0\0\0\1\0\0\0\0", "protocol version 0" },
	{ "IOPS\0\1\0\0\0\0\0\0", "unknown frame type 0" },
	{ "IOPS\0\1\0\14\0\0\0\0", "unknown frame type 12" },
	{ "IOPS\0\1\xff\xff\0\0\0\0", "unknown frame type 65535" },
	{ "IOPS\0\1\0\1\1\0\0\1", "frame of 16777217 bytes" },
	{ "IOPS\0\1\0\1\xff\xff\xff\xff", "frame of 4294967295 bytes" },
	{ "iops\0\1\0\1\0\0\0\0", "not an iops peer" },
};

START_TEST(test_hdr_bad)
{
	struct iops_err err = { 0 };
	uint16_t type = 77;
	uint32_t len = 77;

	ck_assert_int_eq(proto_hdr_decode((const uint8_t *)bad_hdrs[_i].hdr, &type, &len, &err), -EPROTO);
	ck_assert_msg(strstr(err.msg, bad_hdrs[_i].msg), "%s: %s", bad_hdrs[_i].msg, err.msg);
	ck_assert_uint_eq(type, 77);	/* untouched */
	ck_assert_uint_eq(len, 77);
}
END_TEST

/* Two frames in a byte stream, cut after every byte: before a header, a clean end (-EPIPE);
 * inside one, -EPROTO; the frames before the cut come out whole. */
START_TEST(test_recv_cut)
{
	uint8_t stream[64];
	size_t n = 0;

	proto_hdr_encode(stream, PROTO_OUT, 5);
	memcpy(stream + 12, "hello", 5);
	proto_hdr_encode(stream + 17, PROTO_GO, 0);
	n = 29;
	for (size_t cut = 0; cut <= n; cut++) {
		struct iops_err err = { 0 };
		struct proto_frame fr;
		int sv[2], ret, got = 0;

		ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
		ck_assert_int_eq(write(sv[1], stream, cut), (ssize_t)cut);
		close(sv[1]);
		while ((ret = proto_recv(sv[0], &fr, 1000, &err)) == 0) {
			ck_assert_uint_eq(fr.type, got ? PROTO_GO : PROTO_OUT);
			ck_assert_uint_eq(fr.len, got ? 0 : 5);
			ck_assert_uint_eq((unsigned char)fr.data[fr.len], 0);
			free(fr.data);
			got++;
		}
		close(sv[0]);
		ck_assert_int_eq(got, cut >= 29 ? 2 : cut >= 17 ? 1 : 0);
		ck_assert_int_eq(ret, cut == 0 || cut == 17 || cut == 29 ? -EPIPE : -EPROTO);
	}
}
END_TEST

START_TEST(test_send_recv)
{
	struct iops_err err = { 0 };
	struct proto_frame fr;
	int sv[2];

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	ck_assert_int_eq(proto_send(sv[1], PROTO_RESULT, "{}", 2), 0);
	ck_assert_int_eq(proto_send(sv[1], PROTO_RESULT, "x", PROTO_FRAME_MAX + 1), -EMSGSIZE);
	ck_assert_int_eq(proto_recv(sv[0], &fr, 1000, &err), 0);
	ck_assert_str_eq(fr.data, "{}");
	free(fr.data);
	ck_assert_int_eq(proto_recv(sv[0], &fr, 50, &err), -ETIMEDOUT);	/* nothing more: time out */
	close(sv[0]);
	close(sv[1]);
}
END_TEST

START_TEST(test_u32)
{
	static const uint32_t v[] = { 0, 1, 255, 256, 65535, 0x01020304u, UINT32_MAX };
	uint8_t p[4];

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		proto_u32_encode(p, v[i]);
		ck_assert_uint_eq(proto_u32_decode(p), v[i]);
	}
	proto_u32_encode(p, 0x01020304u);
	ck_assert_int_eq(memcmp(p, "\1\2\3\4", 4), 0);
}
END_TEST

/* A built payload parses back the same; every proper prefix that cuts a record is refused. */
START_TEST(test_job_roundtrip)
{
	struct proto_job b = { 0 }, p;
	struct iops_err err = { 0 };

	ck_assert_int_eq(proto_job_add(&b, 'A', NULL, "--output-format=json+", 21), 0);
	ck_assert_int_eq(proto_job_add(&b, 'A', NULL, "j.fio", 5), 0);
	ck_assert_int_eq(proto_job_add(&b, 'F', "j.fio", "[a]\nrw=read\n", 12), 0);
	ck_assert_int_eq(proto_job_add(&b, 'F', "empty.fio", "", 0), 0);
	ck_assert_int_eq(proto_job_add(&b, 'A', NULL, "", 0), 0);
	ck_assert_int_eq(proto_job_parse(&p, b.buf, b.len, &err), 0);
	ck_assert_uint_eq(p.nr_args, 3);
	ck_assert_uint_eq(p.nr_files, 2);
	ck_assert_str_eq(p.args[0], "--output-format=json+");
	ck_assert_str_eq(p.args[1], "j.fio");
	ck_assert_str_eq(p.args[2], "");
	ck_assert_str_eq(p.files[0].name, "j.fio");
	ck_assert_uint_eq(p.files[0].len, 12);
	ck_assert_int_eq(memcmp(p.files[0].data, "[a]\nrw=read\n", 12), 0);
	ck_assert_str_eq(p.files[1].name, "empty.fio");
	ck_assert_uint_eq(p.files[1].len, 0);
	proto_job_release(&p);
	/* record boundaries: 5+21, +5+5, +5+18, +5+10, +5 (the end) */
	for (uint32_t cut = 0; cut < b.len; cut++) {
		static const uint32_t ends[] = { 0, 26, 36, 59, 74 };
		bool boundary = false;
		int ret;

		for (size_t k = 0; k < sizeof(ends) / sizeof(ends[0]); k++)
			boundary |= cut == ends[k];
		ret = proto_job_parse(&p, b.buf, cut, &err);
		ck_assert_msg(boundary ? ret == 0 : ret == -EPROTO, "cut %u: %d", cut, ret);
		proto_job_release(&p);
	}
	proto_job_release(&b);
}
END_TEST

/* Garbage payloads: refused with the reason. */
static const struct { const char *data; uint32_t len; const char *msg; } bad_jobs[] = {
	{ "Z\0\0\0\0", 5, "unknown job record kind 0x5a" },
	{ "A\0\0\0\3ab", 7, "3 bytes, 2 left" },
	{ "A\0\0\0\2a\0", 7, "has a NUL in it" },
	{ "F\0\0\0\3abc", 8, "no name" },
	{ "F\0\0\0\2\0x", 7, "no name" },
	{ "A\0\0", 3, "cut short" },
	{ "A\xff\xff\xff\xff", 5, "4294967295 bytes, 0 left" },
};

START_TEST(test_job_bad)
{
	struct iops_err err = { 0 };
	struct proto_job p;

	ck_assert_int_eq(proto_job_parse(&p, bad_jobs[_i].data, bad_jobs[_i].len, &err), -EPROTO);
	ck_assert_msg(strstr(err.msg, bad_jobs[_i].msg), "%s: %s", bad_jobs[_i].msg, err.msg);
	proto_job_release(&p);
}
END_TEST

START_TEST(test_job_bounds)
{
	struct proto_job b = { 0 }, p;
	struct iops_err err = { 0 };
	char name[PROTO_NAME_MAX + 2];

	ck_assert_int_eq(proto_job_add(&b, 'A', NULL, "a\0b", 3), -EINVAL);
	ck_assert_int_eq(proto_job_add(&b, 'F', "", "x", 1), -EINVAL);
	ck_assert_int_eq(proto_job_add(&b, 'Q', NULL, "x", 1), -EINVAL);
	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	ck_assert_int_eq(proto_job_add(&b, 'F', name, "x", 1), -EINVAL);
	for (unsigned i = 0; i < PROTO_JOB_ARGS_MAX; i++)
		ck_assert_int_eq(proto_job_add(&b, 'A', NULL, "-", 1), 0);
	ck_assert_int_eq(proto_job_add(&b, 'A', NULL, "-", 1), -E2BIG);
	ck_assert_int_eq(proto_job_parse(&p, b.buf, b.len, &err), 0);
	ck_assert_uint_eq(p.nr_args, PROTO_JOB_ARGS_MAX);
	proto_job_release(&p);
	/* one record more than the bound, made by hand */
	{
		char *big = malloc(b.len + 6);

		memcpy(big, b.buf, b.len);
		memcpy(big + b.len, "A\0\0\0\1-", 6);
		ck_assert_int_eq(proto_job_parse(&p, big, b.len + 6, &err), -EPROTO);
		proto_job_release(&p);
		free(big);
	}
	proto_job_release(&b);
	ck_assert_int_eq(proto_job_parse(&p, "", 0, &err), 0);	/* empty: no records */
	ck_assert_uint_eq(p.nr_args + p.nr_files, 0);
	proto_job_release(&p);
}
END_TEST

Suite *proto_suite(void)
{
	Suite *s = suite_create("proto");
	TCase *tc = tcase_create("proto");

	tcase_add_test(tc, test_hdr_roundtrip);
	tcase_add_loop_test(tc, test_hdr_bad, 0, sizeof(bad_hdrs) / sizeof(bad_hdrs[0]));
	tcase_add_test(tc, test_recv_cut);
	tcase_add_test(tc, test_send_recv);
	tcase_add_test(tc, test_u32);
	tcase_add_test(tc, test_job_roundtrip);
	tcase_add_loop_test(tc, test_job_bad, 0, sizeof(bad_jobs) / sizeof(bad_jobs[0]));
	tcase_add_test(tc, test_job_bounds);
	suite_add_tcase(s, tc);
	return s;
}
