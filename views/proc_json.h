/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_PROC_JSON_H
#define URINGLINT_PROC_JSON_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "proc_facts.h"

/*
 * Writes one entry of the contract's "processes" array (preceded by a comma
 * unless first), rendering its files one at a time so that memory stays
 * flat however many fds the process has. 0 or -EIO.
 */
int proc_facts_json_write(const struct proc_facts *pf, FILE *out, bool first);

/* "pid 42 (fio): 2 rings (1 SQPOLL), 10 files, 3 threads: ..." for the text report. */
void proc_facts_summary(const struct proc_facts *pf, char *buf, size_t bufsz);

#endif
