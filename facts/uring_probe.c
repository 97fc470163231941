// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <liburing.h>
#include <string.h>
#include <time.h>

#include "uring_probe.h"

#define RETRY_MS 5

/* When this process last tore a ring down (or a setup failed half way), or first tried one. */
static uint64_t last_teardown_ms;
/* How long it has waited for charges to be released, in all. */
static uint64_t waited_ms;

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int uring_patient(int (*fn)(void *arg), void *arg)
{
	struct timespec pause = { 0, RETRY_MS * 1000000L };
	int ret;

	/*
	 * Rings other processes of this user closed just before (a previous run,
	 * the service restarting) are still charged too: the first try waits as
	 * if one of ours had just been torn down.
	 */
	if (!last_teardown_ms)
		last_teardown_ms = now_ms();
	while ((ret = fn(arg)) == -ENOMEM && now_ms() < last_teardown_ms + URING_RELEASE_MS &&
	       waited_ms < URING_PATIENCE_MS) {
		nanosleep(&pause, NULL);
		waited_ms += RETRY_MS;
	}
	return ret;
}

struct init_args {
	unsigned int entries;
	struct io_uring *ring;
	struct io_uring_params *p;
	struct io_uring_params orig;
};

static int init_once(void *arg)
{
	struct init_args *a = arg;

	*a->p = a->orig;	/* the kernel writes into the params it was given */
	return io_uring_queue_init_params(a->entries, a->ring, a->p);
}

int uring_queue_init_patient(unsigned int entries, struct io_uring *ring,
			     struct io_uring_params *p)
{
	struct init_args a = { .entries = entries, .ring = ring, .p = p, .orig = *p };
	int ret = uring_patient(init_once, &a);

	/* A setup that failed after charging its first region releases that later too. */
	if (ret == -ENOMEM)
		last_teardown_ms = now_ms();
	return ret;
}

void uring_queue_exit_noted(struct io_uring *ring)
{
	io_uring_queue_exit(ring);
	last_teardown_ms = now_ms();
}

void uring_probe_setup(unsigned int planned_entries, struct uring_setup_result *res)
{
	struct io_uring_params p;
	struct io_uring ring;
	int ret;

	memset(res, 0, sizeof(*res));
	memset(&p, 0, sizeof(p));
	ret = uring_queue_init_patient(1, &ring, &p);
	if (ret < 0) {
		res->err = ret;
		return;
	}
	res->features = p.features;
	uring_queue_exit_noted(&ring);
	if (!planned_entries)
		return;
	res->planned_entries = planned_entries;
	memset(&p, 0, sizeof(p));
	ret = uring_queue_init_patient(planned_entries, &ring, &p);
	if (ret < 0) {
		res->planned_err = ret;
		return;
	}
	uring_queue_exit_noted(&ring);
}
