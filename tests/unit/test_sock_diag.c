// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NETLINK_SOCK_DIAG answers: a dump captured on 6.18 (tests/fuzz/seeds),
 * hand-built messages (a listener, an error, cut and foreign ones), and
 * the live dump of a listener made here with listen(fd, 4).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "netlink.h"
#include "testutil.h"

static void test_captured(void **state)
{
	char *text = slurp("tests/fuzz/seeds/sock_diag/listen-inet-6.18");
	struct stat st;
	struct diag_listeners t = { 0 };
	void *buf;

	(void)state;
	assert_int_equal(stat("tests/fuzz/seeds/sock_diag/listen-inet-6.18", &st), 0);
	buf = malloc((size_t)st.st_size);
	memcpy(buf, text, (size_t)st.st_size);
	assert_int_equal(sock_diag_parse(buf, (size_t)st.st_size, NULL, 0, &t), 1);
	assert_true(t.n >= 1);
	diag_listeners_free(&t);
	free(buf);
	free(text);
}

struct msg {
	struct nlmsghdr h;
	struct inet_diag_msg m;
};

static void listener(struct msg *m, uint32_t ino, uint8_t state, uint32_t rq, uint32_t wq)
{
	memset(m, 0, sizeof(*m));
	m->h = (struct nlmsghdr){ .nlmsg_len = sizeof(*m), .nlmsg_type = SOCK_DIAG_BY_FAMILY };
	m->m.idiag_family = AF_INET;
	m->m.idiag_state = state;
	m->m.idiag_inode = ino;
	m->m.idiag_rqueue = rq;
	m->m.idiag_wqueue = wq;
}

static void test_messages(void **state)
{
	static const uint64_t want[] = { 1000, 1002 };
	struct {
		struct msg a, b, c;
		struct nlmsghdr done;
	} d;
	struct {
		struct nlmsghdr h;
		struct nlmsgerr e;
	} err = { .h = { .nlmsg_len = sizeof(err), .nlmsg_type = NLMSG_ERROR },
		  .e = { .error = -EPERM } };
	struct diag_listeners t = { 0 };

	(void)state;
	listener(&d.a, 1000, 10, 5, 4);
	listener(&d.b, 1001, 10, 0, 4096);
	listener(&d.c, 1002, 1, 0, 0);	/* not a listener: left out */
	d.done = (struct nlmsghdr){ .nlmsg_len = sizeof(d.done), .nlmsg_type = NLMSG_DONE };
	assert_int_equal(sock_diag_parse(&d, sizeof(d), want, 2, &t), 1);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.v[0].inode, 1000);
	assert_int_equal(t.v[0].queued, 5);
	assert_int_equal(t.v[0].backlog, 4);
	assert_non_null(diag_listener_find(&t, 1000));
	assert_null(diag_listener_find(&t, 1001));
	diag_listeners_free(&t);
	/* No NLMSG_DONE yet: more to come. */
	assert_int_equal(sock_diag_parse(&d, sizeof(d) - sizeof(d.done), NULL, 0, &t), 0);
	assert_int_equal(t.n, 2);
	diag_listeners_free(&t);
	assert_int_equal(sock_diag_parse(&err, sizeof(err), NULL, 0, &t), -EPERM);
	/* Cut in a message, a length past the buffer or below a header, another type. */
	assert_int_equal(sock_diag_parse(&d, sizeof(d.a) - 1, NULL, 0, &t), -EBADMSG);
	diag_listeners_free(&t);
	d.b.h.nlmsg_len = 4096;
	assert_int_equal(sock_diag_parse(&d, sizeof(d), NULL, 0, &t), -EBADMSG);
	diag_listeners_free(&t);
	d.b.h.nlmsg_len = 3;
	assert_int_equal(sock_diag_parse(&d, sizeof(d), NULL, 0, &t), -EBADMSG);
	diag_listeners_free(&t);
	d.b.h.nlmsg_len = sizeof(d.b);
	d.b.h.nlmsg_type = 99;
	assert_int_equal(sock_diag_parse(&d, sizeof(d), NULL, 0, &t), -EBADMSG);
	diag_listeners_free(&t);
	err.e.error = 0;
	assert_int_equal(sock_diag_parse(&err, sizeof(err), NULL, 0, &t), -EBADMSG);
	err.h.nlmsg_len = sizeof(err.h);
	assert_int_equal(sock_diag_parse(&err, sizeof(err.h), NULL, 0, &t), -EBADMSG);
}

/* Live: a listener made here with a backlog of 4, and two connections queued on it. */
static void test_live(void **state)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	struct diag_listeners t = { 0 };
	const struct diag_listener *d;
	int l, c[2], i, ret;
	struct stat st;
	uint64_t ino;

	(void)state;
	l = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(l >= 0);
	assert_int_equal(bind(l, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(l, 4), 0);
	assert_int_equal(getsockname(l, (struct sockaddr *)&a, &len), 0);
	for (i = 0; i < 2; i++) {
		c[i] = socket(AF_INET, SOCK_STREAM, 0);
		assert_int_equal(connect(c[i], (struct sockaddr *)&a, sizeof(a)), 0);
	}
	assert_int_equal(fstat(l, &st), 0);
	ino = st.st_ino;
	ret = sock_diag_listeners(&ino, 1, &t);
	if (ret == -EPROTONOSUPPORT || ret == -EAFNOSUPPORT || ret == -EACCES) {
		print_message("skip: NETLINK_SOCK_DIAG: %s\n", strerror(-ret));
	} else {
		assert_int_equal(ret, 0);
		assert_int_equal(t.n, 1);
		d = diag_listener_find(&t, ino);
		assert_non_null(d);
		assert_int_equal(d->backlog, 4);
		assert_int_equal(d->queued, 2);
	}
	diag_listeners_free(&t);
	close(c[0]);
	close(c[1]);
	close(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_captured),
		cmocka_unit_test(test_messages),
		cmocka_unit_test(test_live),
	};

	return cmocka_run_group_tests_name("sock_diag", tests, NULL, NULL);
}
