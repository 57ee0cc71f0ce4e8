/* SPDX-License-Identifier: MIT */
/* tcpstate: established entries on a port (and address) counted in /proc/net/tcp and tcp6
 * texts, malformed lines skipped; the live tables of a listening socket and a connection. */
#include <arpa/inet.h>
#include <errno.h>
#include <check.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "sys/tcpstate.h"

static const char tcp4[] =
	"  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
	"   0: 0100007F:223D 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0\n"
	"   1: 0300007F:223D 0200007F:A001 01 00000000:00000000 00:00000000 00000000     0        0 2 1 0\n"
	"   2: 0300007F:223D 0200007F:A002 01 00000000:00000000 00:00000000 00000000     0        0 3 1 0\n"
	"   3: 0400007F:223D 0200007F:A003 01 00000000:00000000 00:00000000 00000000     0        0 4 1 0\n"
	"   4: 0300007F:223D 0200007F:A004 06 00000000:00000000 00:00000000 00000000     0        0 5 1 0\n"
	"   5: 0200007F:A001 0300007F:223D 01 00000000:00000000 00:00000000 00000000     0        0 6 1 0\n"
	"   6: 0300007F:223E 0200007F:A005 01 00000000:00000000 00:00000000 00000000     0        0 7 1 0\n"
	"   7: 0300007F:223 0200007F:A005 01 garbage\n"
	"   8: 0300007G:223D 0200007F:A005 01 garbage\n"
	"   9 0300007F:223D 0200007F:A005 01\n"
	"  10: 0300007F:223D\n"
	"\n";
static const char tcp6[] =
	"  sl  local_address                         remote_address                        st\n"
	"   0: 00000000000000000000000001000000:223D 00000000000000000000000001000000:B000 01 0\n"
	"   1: 0000000000000000FFFF00000300007F:223D 0000000000000000FFFF00000200007F:B001 01 0\n"
	"   2: 00000000000000000000000000000000:223D 00000000000000000000000000000000:0000 0A 0\n";

START_TEST(test_count)
{
	struct in_addr a3, a9;
	struct in6_addr one;

	ck_assert_int_eq(inet_pton(AF_INET, "127.0.0.3", &a3), 1);
	ck_assert_int_eq(inet_pton(AF_INET, "127.0.0.9", &a9), 1);
	ck_assert_uint_eq(tcpstate_count(tcp4, false, 0x223d, NULL), 3);	/* .3 twice, .4 once */
	ck_assert_uint_eq(tcpstate_count(tcp4, false, 0x223d, &a3), 2);
	ck_assert_uint_eq(tcpstate_count(tcp4, false, 0x223d, &a9), 0);
	ck_assert_uint_eq(tcpstate_count(tcp4, false, 0x223e, NULL), 1);
	ck_assert_uint_eq(tcpstate_count(tcp4, false, 0xa001, NULL), 1);	/* the client's end */
	ck_assert_uint_eq(tcpstate_count(tcp4, false, 1, NULL), 0);
	ck_assert_uint_eq(tcpstate_count("", false, 0x223d, NULL), 0);
	ck_assert_uint_eq(tcpstate_count(tcp4, true, 0x223d, NULL), 0);	/* not tcp6's shape */
	ck_assert_int_eq(inet_pton(AF_INET6, "::1", &one), 1);
	if (*(const unsigned char *)&(const unsigned){ 1 })	/* the words as this machine holds them */
		ck_assert_uint_eq(tcpstate_count(tcp6, true, 0x223d, &one), 1);
	ck_assert_uint_eq(tcpstate_count(tcp6, true, 0x223d, NULL), 2);
}
END_TEST

START_TEST(test_live)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(sa);
	int l = socket(AF_INET, SOCK_STREAM, 0), c = socket(AF_INET, SOCK_STREAM, 0), s;
	unsigned port;

	ck_assert_int_ge(l, 0);
	ck_assert_int_eq(bind(l, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ck_assert_int_eq(listen(l, 1), 0);
	ck_assert_int_eq(getsockname(l, (struct sockaddr *)&sa, &len), 0);
	port = ntohs(sa.sin_port);
	ck_assert_int_eq(tcpstate_established(port, "127.0.0.1"), 0);
	ck_assert_int_eq(connect(c, (struct sockaddr *)&sa, sizeof(sa)), 0);
	s = accept(l, NULL, NULL);
	ck_assert_int_ge(s, 0);
	ck_assert_int_eq(tcpstate_established(port, "127.0.0.1"), 1);
	ck_assert_int_eq(tcpstate_established(port, NULL), 1);
	ck_assert_int_eq(tcpstate_established(port, "127.0.0.2"), 0);
	ck_assert_int_eq(tcpstate_established(port, "no-address"), -EINVAL);
	close(s);
	close(c);
	close(l);
}
END_TEST

Suite *tcpstate_suite(void)
{
	Suite *s = suite_create("tcpstate");
	TCase *tc = tcase_create("sys");

	tcase_add_test(tc, test_count);
	tcase_add_test(tc, test_live);
	suite_add_tcase(s, tc);
	return s;
}
