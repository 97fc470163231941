/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_PATHOLOGY_H
#define URINGLINT_PATHOLOGY_H

#include <liburing.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

#define MIB (1024 * 1024)

extern volatile sig_atomic_t stop;

void die(const char *what, int err);
void sleep_ms(long ms);
/* A file of size bytes in dir, opened with flags; written through once when prefill. */
int data_file(const char *dir, const char *name, off_t size, int flags, int prefill);
void ring_init(struct io_uring *ring, unsigned entries, unsigned flags, unsigned idle, int wq_fd);
void reap(struct io_uring *ring, unsigned n);
void *aligned_buf(size_t len);

/* Runs mode when it is one of punt_causes.c's, until stopped; 0 when it is not. */
int punt_cause_mode(const char *mode, const char *dir);

/* Runs mode when it is one of thread_model.c's, until stopped; 0 when it is not. */
int thread_model_mode(const char *mode, const char *dir);

/* Runs mode when it is one of net_traffic.c's, until stopped; 0 when it is not. */
int net_traffic_mode(const char *mode);

/* The no-ring mode (no_ring.c): a service that fell back to Linux AIO, until stopped. */
void no_ring(void);
void idle_ring(const char *dir);
void nop_ring(const char *dir);

/* The registered-socket mode (net_sockets.c): sockets in a ring's file table, until stopped. */
void registered_socket(void);
/* The reuseport-listeners mode (net_sockets.c): a ring and two SO_REUSEPORT listeners. */
void reuseport_listeners(void);

/* The slow-accepter mode (net_checks.c): a backlog of 4 overflowed by a fast client. */
void slow_accepter(void);
/* The napi-prefer and napi-zero modes (net_checks.c): a ring with NAPI registered. */
void napi_ring(unsigned int busy_poll_us, bool prefer);

#endif
