// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/PID/net tables: lines captured on the development host (6.18.44)
 * from a python3 process with two SO_REUSEPORT listeners on 127.0.0.1:18080
 * and two on [::1]:18080, a connection to the first (its accepted side
 * still queued: inode 0, and the listener's rx_queue 1), UDP sockets on
 * 127.0.0.1:18081 and [::1]:18082, a unix listener and an abstract one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "procfs.h"
#include "testutil.h"
#include "netlink.h"

#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <sys/socket.h>

static const char tcp[] =
	"  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode                                                     \n"
	"   0: 0100007F:46A0 00000000:0000 0A 00000000:00000001 00:00000000 00000000     0        0 15058163 2 00000000c9d78c6d 100 0 0 10 0                  \n"
	"   1: 0100007F:46A0 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 15058162 1 00000000287b8e5f 100 0 0 10 0                  \n"
	"   2: 00000000:07E8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 651 1 000000007919c065 100 0 0 10 0                       \n"
	"   3: 0100007F:46A0 0100007F:B8CE 01 00000000:00000000 00:00000000 00000000     0        0 0 1 0000000070128e37 20 0 0 10 -1                         \n"
	"   4: 0100007F:B8CE 0100007F:46A0 01 00000000:00000000 00:00000000 00000000     0        0 15058166 2 00000000bf1d4033 20 0 0 10 -1                  \n";

static const char tcp6[] =
	"  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
	"   0: 00000000000000000000000001000000:46A0 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 15058164 1 00000000d8d67db8 100 0 0 10 0\n"
	"   1: 00000000000000000000000001000000:46A0 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 15058165 1 00000000676358bd 100 0 0 10 0\n";

static const char udp[] =
	"   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops            \n"
	"10402: 0100007F:46A1 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 15058167 2 00000000b9fe5405 0      \n";

static const char udp6[] =
	"  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops\n"
	"10403: 00000000000000000000000001000000:46A2 00000000000000000000000000000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 15058168 2 00000000644ff744 0\n";

static const char unx[] =
	"Num       RefCount Protocol Flags    Type St Inode Path\n"
	"00000000c79ea4c2: 00000003 00000000 00000000 0001 03   647\n"
	"00000000dd7140e8: 00000002 00000000 00010000 0001 01 15058169 /tmp/h15.sock\n"
	"00000000670bc484: 00000002 00000000 00000000 0002 01 15058170 @h15-abstract\n";

static void endpoint_is(const struct inet_sock *s, bool v6, const char *local, const char *remote)
{
	char buf[INET_ADDR_MAX];

	inet_endpoint_text(s->local, s->lport, v6, buf, sizeof(buf));
	assert_string_equal(buf, local);
	inet_endpoint_text(s->remote, s->rport, v6, buf, sizeof(buf));
	assert_string_equal(buf, remote);
}

static void test_tcp(void **state)
{
	struct inet_table t = { 0 };

	(void)state;
	assert_int_equal(inet_table_parse(tcp, false, &t), 0);
	assert_int_equal(t.n, 5);
	endpoint_is(&t.v[0], false, "127.0.0.1:18080", "0.0.0.0:0");
	assert_string_equal(inet_state_name(t.v[0].state), "LISTEN");
	assert_int_equal(t.v[0].rx_queue, 1);	/* one connection waits for accept() */
	assert_int_equal(t.v[0].inode, 15058163);
	endpoint_is(&t.v[2], false, "0.0.0.0:2024", "0.0.0.0:0");
	assert_int_equal(t.v[3].inode, 0);	/* the queued side belongs to no process yet */
	endpoint_is(&t.v[4], false, "127.0.0.1:47310", "127.0.0.1:18080");
	assert_string_equal(inet_state_name(t.v[4].state), "ESTABLISHED");
	assert_int_equal(t.v[4].uid, 0);
	inet_table_free(&t);

	assert_int_equal(inet_table_parse(tcp6, true, &t), 0);
	assert_int_equal(t.n, 2);
	endpoint_is(&t.v[1], true, "[::1]:18080", "[::]:0");
	assert_int_equal(t.v[1].inode, 15058165);
	inet_table_free(&t);
}

static void test_udp(void **state)
{
	struct inet_table t = { 0 };
	char buf[INET_ADDR_MAX];

	(void)state;
	assert_int_equal(inet_table_parse(udp, false, &t), 0);
	assert_int_equal(t.n, 1);
	endpoint_is(&t.v[0], false, "127.0.0.1:18081", "0.0.0.0:0");
	assert_string_equal(inet_state_name(t.v[0].state), "CLOSE");
	assert_int_equal(inet_table_parse(udp6, true, &t), 0);	/* appends */
	assert_int_equal(t.n, 2);
	endpoint_is(&t.v[1], true, "[::1]:18082", "[::]:0");
	inet_addr_text(t.v[1].local, true, buf, sizeof(buf));
	assert_string_equal(buf, "::1");
	assert_int_equal(t.v[1].inode, 15058168);
	inet_table_free(&t);
}

static void test_inet_garbage(void **state)
{
	struct inet_table t = { 0 };
	char *big, *cut;
	size_t n;

	(void)state;
	assert_int_equal(inet_table_parse("", false, &t), -EBADMSG);
	assert_int_equal(inet_table_parse("garbage\n", false, &t), -EBADMSG);
	/* a header alone: no socket */
	assert_int_equal(inet_table_parse(tcp6, false, &t), -EBADMSG);	/* v6 lines as v4 */
	inet_table_free(&t);
	assert_int_equal(inet_table_parse(tcp, true, &t), -EBADMSG);
	inet_table_free(&t);
	assert_int_equal(inet_table_parse("  sl  local\n", false, &t), 0);
	assert_int_equal(t.n, 0);
	/* cut before the last newline: the kernel ends every line */
	n = strlen(tcp);
	cut = strndup(tcp, n - 20);
	assert_int_equal(inet_table_parse(cut, false, &t), -EBADMSG);
	inet_table_free(&t);
	free(cut);
	/* a line longer than any the kernel prints */
	big = calloc(1, 4096);
	assert_non_null(big);
	memcpy(big, tcp, strlen(tcp));
	memset(big + strlen(tcp), '1', 2000);
	big[strlen(big)] = '\n';
	assert_int_equal(inet_table_parse(big, false, &t), -EBADMSG);
	inet_table_free(&t);
	free(big);
	/* an inode past 64 bits, a non-hex address */
	assert_int_equal(inet_table_parse("  sl\n   0: 0100007F:46A0 00000000:0000 0A 00000000:00000000 "
					  "00:00000000 00000000 0 0 99999999999999999999999\n",
					  false, &t), -EBADMSG);
	inet_table_free(&t);
	assert_int_equal(inet_table_parse("  sl\n   0: 0100007G:46A0 00000000:0000 0A 00000000:00000000 "
					  "00:00000000 00000000 0 0 1\n", false, &t), -EBADMSG);
	inet_table_free(&t);
	assert_string_equal(inet_state_name(99), "UNKNOWN");
	assert_string_equal(net_proto_name(NET_OTHER), "other");
	assert_string_equal(net_proto_name(NET_UDP6), "udp6");
}

static void test_unix(void **state)
{
	struct unix_table t = { 0 };

	(void)state;
	assert_int_equal(unix_table_parse(unx, &t), 0);
	assert_int_equal(t.n, 3);
	assert_int_equal(t.skipped, 0);
	assert_null(t.v[0].path);
	assert_string_equal(unix_state_name(&t.v[0]), "ESTABLISHED");
	assert_string_equal(unix_type_name(t.v[0].type), "STREAM");
	assert_int_equal(t.v[1].inode, 15058169);
	assert_string_equal(t.v[1].path, "/tmp/h15.sock");
	assert_string_equal(unix_state_name(&t.v[1]), "LISTEN");
	assert_string_equal(t.v[2].path, "@h15-abstract");
	assert_string_equal(unix_type_name(t.v[2].type), "DGRAM");
	assert_string_equal(unix_state_name(&t.v[2]), "UNCONNECTED");
	unix_table_free(&t);
}

static void test_unix_hostile(void **state)
{
	struct unix_table t = { 0 };
	char *cut;

	(void)state;
	assert_int_equal(unix_table_parse("", &t), -EBADMSG);
	assert_int_equal(unix_table_parse("garbage\n", &t), -EBADMSG);
	/* a path with a newline: the rest of it is no socket, but the rest of the path */
	assert_int_equal(unix_table_parse("Num       RefCount Protocol Flags    Type St Inode Path\n"
					  "0000000000000000: 00000002 00000000 00010000 0001 01 77 /tmp/a\n"
					  "b c\n"
					  "0000000000000000: 00000002 00000000 00000000 0002 01 78\n", &t), 0);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.skipped, 0);
	assert_string_equal(t.v[0].path, "/tmp/a\nb c");
	assert_false(t.v[0].path_suspect);
	unix_table_free(&t);
	/*
	 * A path that holds a whole line claiming another socket's inode (78):
	 * the inode is listed twice, and the line before each claim may be cut.
	 */
	assert_int_equal(unix_table_parse("Num       RefCount Protocol Flags    Type St Inode Path\n"
					  "0000000000000000: 00000002 00000000 00010000 0001 01 78 /run/victim\n"
					  "0000000000000000: 00000002 00000000 00000000 0001 01 79 /tmp/x\n"
					  "0000000000000000: 00000002 00000000 00010000 0001 01 78 /evil\n", &t), 0);
	assert_int_equal(t.n, 3);
	assert_false(t.v[0].path_suspect);
	assert_true(t.v[1].path_suspect);
	assert_false(t.v[2].path_suspect);
	unix_table_free(&t);
	cut = strndup(unx, strlen(unx) - 5);
	assert_int_equal(unix_table_parse(cut, &t), -EBADMSG);
	unix_table_free(&t);
	free(cut);
}

/* One SOCK_DIAG_BY_FAMILY message for a unix socket, with a name attribute of nlen bytes. */
static size_t diag_msg(char *buf, uint32_t ino, uint8_t type, uint8_t state, const char *name,
		       size_t nlen)
{
	struct nlmsghdr h = { .nlmsg_type = SOCK_DIAG_BY_FAMILY };
	struct unix_diag_msg m = { .udiag_family = AF_UNIX, .udiag_type = type,
				   .udiag_state = state, .udiag_ino = ino };
	struct rtattr a = { .rta_len = (unsigned short)RTA_LENGTH(nlen), .rta_type = UNIX_DIAG_NAME };
	size_t len = NLMSG_LENGTH(sizeof(m)) + (name ? RTA_SPACE(nlen) : 0);

	memset(buf, 0, NLMSG_ALIGN(len));
	h.nlmsg_len = (uint32_t)len;
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + NLMSG_HDRLEN, &m, sizeof(m));
	if (name) {
		memcpy(buf + NLMSG_LENGTH(sizeof(m)), &a, sizeof(a));
		memcpy(buf + NLMSG_LENGTH(sizeof(m)) + RTA_LENGTH(0), name, nlen);
	}
	return NLMSG_ALIGN(len);
}

/*
 * sock_diag's unix answers: a path with the NUL bind() stores, an abstract
 * name holding a NUL and a newline, an unbound socket; then a cut one.
 */
static void test_unix_diag(void **state)
{
	static const char path[] = "/run/a.sock", abstract[] = "\0x\0y\nz";
	struct nlmsghdr done = { .nlmsg_len = NLMSG_LENGTH(4), .nlmsg_type = NLMSG_DONE };
	struct unix_table t = { 0 };
	long buf[512];
	char *p = (char *)buf;
	size_t len = 0;

	(void)state;
	len += diag_msg(p + len, 101, 1, 10, path, sizeof(path));
	len += diag_msg(p + len, 102, 2, 7, abstract, sizeof(abstract) - 1);
	len += diag_msg(p + len, 103, 1, 1, NULL, 0);
	memcpy(p + len, &done, sizeof(done));
	assert_int_equal(unix_diag_parse(buf, len + NLMSG_LENGTH(4), &t), 1);
	assert_true(t.from_diag);
	assert_int_equal(t.n, 3);
	assert_int_equal(t.v[0].inode, 101);
	assert_true(t.v[0].listening);
	assert_string_equal(unix_state_name(&t.v[0]), "LISTEN");
	assert_string_equal(t.v[0].path, "/run/a.sock");
	assert_int_equal(t.v[0].name_len, strlen(path));
	assert_string_equal(t.v[1].path, "@x@y\nz");
	assert_int_equal(t.v[1].name_len, sizeof(abstract) - 1);
	assert_memory_equal(t.v[1].name, abstract, sizeof(abstract) - 1);
	assert_string_equal(unix_state_name(&t.v[1]), "UNCONNECTED");
	assert_null(t.v[2].path);
	assert_string_equal(unix_state_name(&t.v[2]), "ESTABLISHED");
	unix_table_free(&t);
	/* cut inside the second message */
	assert_int_equal(unix_diag_parse(buf, NLMSG_ALIGN(NLMSG_LENGTH(sizeof(struct unix_diag_msg)) +
						      RTA_SPACE(sizeof(path))) + 10, &t), -EBADMSG);
	unix_table_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tcp),
		cmocka_unit_test(test_udp),
		cmocka_unit_test(test_inet_garbage),
		cmocka_unit_test(test_unix),
		cmocka_unit_test(test_unix_hostile),
		cmocka_unit_test(test_unix_diag),
	};

	return cmocka_run_group_tests_name("net_tables", tests, NULL, NULL);
}
