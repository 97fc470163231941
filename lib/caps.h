/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_CAPS_H
#define URINGLINT_CAPS_H

#include <stdbool.h>

/*
 * What uringlint itself may do, by its effective capabilities rather than
 * its uid: a service of its own user given CAP_PERFMON, CAP_SYS_PTRACE and
 * CAP_DAC_READ_SEARCH as ambient capabilities reads and watches other
 * users' processes as root does. capget(2) of this process; the bounding
 * set (PR_CAPBSET_READ) says what could be had, not what is held.
 */
bool cap_effective(unsigned int cap);

/* Any effective capability at all (root's, or ambient ones). */
bool cap_any_effective(void);

/* Clears the effective, permitted and inheritable sets: 0 or -errno. */
int cap_drop_all(void);

/*
 * Whether perf events on io_uring's tracepoints of other processes, their
 * raw samples included, may be opened: root, or CAP_PERFMON (CAP_SYS_ADMIN
 * before 5.8), as perfmon_capable() in the kernel (include/linux/capability.h).
 */
bool may_trace(void);

#endif
