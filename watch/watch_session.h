/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_WATCH_SESSION_H
#define URINGLINT_WATCH_SESSION_H

#include <stdbool.h>
#include <sys/types.h>

#include "sysroot.h"
#include "watch.h"

/* One second, in the ns of tp_stream_now(). */
#define NS 1000000000ull

/*
 * Watches pid for w->seconds, or with ex (a program run under the watch)
 * from before it starts until it exits, its events inherited by every
 * thread and child it makes. False when the tracepoints could not be used
 * (w->fallback_why): the caller counts workers instead.
 */
bool watch_session_run(const struct sysroot *sr, pid_t pid, struct punt_watch *w,
		       const struct watch_exec *ex);

#endif
