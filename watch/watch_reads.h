/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_WATCH_READS_H
#define URINGLINT_WATCH_READS_H

#include <sys/types.h>

#include "watch.h"
#include "sysroot.h"

/* The files the events named for the first time: their state now, before it changes. */
void watch_read_new_files(const struct sysroot *sr, pid_t pid, struct punt_watch *w);
/* Every watched file's state at the end, and whether its fd now holds another file. */
void watch_read_last_files(const struct sysroot *sr, pid_t pid, struct punt_watch *w);
/* One reading of each ring's queue fill, from the fdinfo the kernel prints. */
void watch_read_fills(const struct sysroot *sr, pid_t pid, struct punt_watch *w);
/* Page cache comes and goes (writeback, reads): the files that punt are looked at again. */
void watch_read_cache_peaks(const struct sysroot *sr, pid_t pid, struct punt_watch *w);

#endif
