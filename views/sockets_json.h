/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_SOCKETS_JSON_H
#define URINGLINT_SOCKETS_JSON_H

#include <stddef.h>
#include <stdio.h>

#include "proc_sockets.h"

/*
 * Writes the value of a process's "sockets" key: its namespace, the tables
 * read, its listeners and, streamed one at a time, its sockets. 0 or -EIO.
 */
int proc_sockets_json_write(const struct proc_sockets *ps, FILE *out);

/*
 * "sockets: 12 tcp, 3 unix; listening on 0.0.0.0:8080 (2 fds, a reuseport
 * group of 2), ..." for the text report; false when there is nothing to say.
 */
bool proc_sockets_summary(const struct proc_sockets *ps, char *buf, size_t bufsz);

#endif
