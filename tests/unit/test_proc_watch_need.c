// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * When a plain audit's reading needs a watch, on a real ring of this test
 * process: not for a ring that took requests and then stood still while
 * it was read; yes for one that moved since, one whose lock was held at
 * every read, one that never took a request; never from a captured tree.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <liburing.h>

#include "proc_facts.h"
#include "watch.h"
#include "testutil.h"

static struct io_uring ring;
static bool have_ring;
static struct sysroot live;

static int setup(void **state)
{
	(void)state;
	/* io_uring disabled here (kernel.io_uring_disabled): the live test skips. */
	have_ring = !io_uring_queue_init(8, &ring, 0);
	return sysroot_open(&live, NULL);
}

static int teardown(void **state)
{
	(void)state;
	if (have_ring)
		io_uring_queue_exit(&ring);
	sysroot_close(&live);
	return 0;
}

/* One NOP through the ring, completed and seen. */
static void nop(void)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
	struct io_uring_cqe *cqe;

	assert_non_null(sqe);
	io_uring_prep_nop(sqe);
	assert_int_equal(io_uring_submit(&ring), 1);
	assert_int_equal(io_uring_wait_cqe(&ring, &cqe), 0);
	io_uring_cqe_seen(&ring, cqe);
}

static const struct proc_ring *our_ring(const struct proc_facts *pf)
{
	size_t i;

	for (i = 0; i < pf->nrings; i++)
		if (pf->rings[i].fd == ring.ring_fd)
			return &pf->rings[i];
	return NULL;
}

static void test_needs_watch(void **state)
{
	struct proc_facts pf;
	struct proc_ring *r;
	char why[128];

	(void)state;
	if (!have_ring)
		skip();
	/* Never used: a ring that took no request needs a watch to say why. */
	proc_facts_gather(&live, getpid(), NULL, &pf);
	assert_non_null(our_ring(&pf));
	assert_true(proc_facts_needs_watch(&live, &pf, why, sizeof(why)));
	assert_contains(why, "never took a request");
	proc_facts_free(&pf);

	/* Used, then still while read: nothing to explain. */
	nop();
	proc_facts_gather(&live, getpid(), NULL, &pf);
	assert_false(proc_facts_needs_watch(&live, &pf, why, sizeof(why)));
	assert_string_equal(why, "");

	/* Moved since it was read: taking requests now. */
	nop();
	assert_true(proc_facts_needs_watch(&live, &pf, why, sizeof(why)));
	assert_contains(why, "took requests while it was read");

	/* Its lock held at every read (a busy ring): watched, whatever its positions say. */
	r = (struct proc_ring *)our_ring(&pf);
	r->busy = true;
	assert_true(proc_facts_needs_watch(&live, &pf, why, sizeof(why)));
	assert_contains(why, "busy (its lock held) at every read");
	r->busy = false;

	/* A thread in D state (not a passing one). */
	if (pf.threads.n) {
		nop();
		proc_facts_free(&pf);
		proc_facts_gather(&live, getpid(), NULL, &pf);
		pf.threads.v[0].state = 'D';
		pf.threads.v[0].d_transient = false;
		assert_true(proc_facts_needs_watch(&live, &pf, why, sizeof(why)));
		assert_contains(why, "1 thread is in D state");
		pf.threads.v[0].d_transient = true;
		assert_false(proc_facts_needs_watch(&live, &pf, why, sizeof(why)));
	}
	proc_facts_free(&pf);
}

/* A captured tree is read, never watched: its processes are not this host's. */
static void test_tree_never(void **state)
{
	struct proc_facts pf;
	struct sysroot sr;
	char why[128];

	(void)state;
	assert_int_equal(sysroot_open(&sr, TESTDATA "/debian12-6.1-qemu"), 0);
	proc_facts_gather(&sr, 223, NULL, &pf);
	assert_int_equal(pf.nrings, 4);	/* rings there are, idle or not */
	assert_false(proc_facts_needs_watch(&sr, &pf, why, sizeof(why)));
	proc_facts_free(&pf);
	sysroot_close(&sr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_needs_watch),
		cmocka_unit_test(test_tree_never),
	};

	return cmocka_run_group_tests_name("proc_watch_need", tests, setup, teardown);
}
