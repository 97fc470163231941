/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_INPUT_FILE_H
#define URINGLINT_INPUT_FILE_H

#include <stdio.h>

/*
 * A file a user names for uringlint to read (--config, report merge's
 * reports), opened so that nothing another user plants at the name can
 * hold a root run: without blocking (a FIFO or a device would wait for a
 * writer) and only if it is a regular file. Returns the fd or -errno;
 * -EINVAL means the name is not a regular file (open(2) gives no EINVAL
 * for these flags).
 */
int input_file_open(const char *path);

/* The same as a stdio stream (mode "re"); NULL with errno set, EINVAL as above. */
FILE *input_file_fopen(const char *path);

/* Why input_file_open failed, for a message: "not a regular file" for -EINVAL. */
const char *input_file_strerror(int err);

#endif
