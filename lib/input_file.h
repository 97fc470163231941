/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_INPUT_FILE_H
#define URINGLINT_INPUT_FILE_H

#include <stdio.h>

#include "path_walk.h"

/*
 * A file a user names for uringlint to read (--config, report merge's
 * reports), opened so that nothing another user plants at the name can
 * hold a root run or show it another's file: through no symbolic link
 * another user owns (path_open_owned), without blocking (a FIFO or a
 * device would wait for a writer) and only if it is a regular file.
 * Returns the fd or -errno; -EINVAL means the name is not a regular file
 * (open(2) gives no EINVAL for these flags), -EACCES with *refusal filled
 * a link that was not followed.
 */
int input_file_open(const char *path, struct path_refusal *refusal);

/* The same as a stdio stream (mode "re"); NULL with errno set, EINVAL as above. */
FILE *input_file_fopen(const char *path, struct path_refusal *refusal);

/*
 * Why input_file_open failed, for a message: "not a regular file" for
 * -EINVAL, the refusal for a link not followed.
 */
const char *input_file_strerror(int err, const struct path_refusal *refusal);

#endif
