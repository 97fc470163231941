/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_RING_MATCH_H
#define URINGLINT_RING_MATCH_H

#include "proc_facts.h"

/*
 * Ties each ring the watch sampled (known only by the kernel's ctx
 * pointer) to one of the process's ring fds, and says how: the fd
 * io_uring_create reported while watched; else the fd its one submitting
 * thread entered io_uring_enter with; else the fd whose fdinfo names its
 * SQPOLL thread, when no other ring's does. A ring none of these ties is
 * left unmatched, never guessed. Fills w->matches; 0 or -ENOMEM.
 */
int ring_match(const struct proc_facts *pf, struct punt_watch *w);

/* "io_uring_create", "io_uring_enter", "sqpoll_thread" or NULL. */
const char *ring_match_name(enum ring_match_how how);

#endif
