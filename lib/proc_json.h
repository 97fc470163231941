/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_PROC_JSON_H
#define URINGLINT_PROC_JSON_H

#include <json-c/json.h>
#include <stddef.h>

#include "proc_facts.h"

/* One entry of the contract's "processes" array. */
struct json_object *proc_facts_to_json(const struct proc_facts *pf);

/* "pid 42 (fio): 2 rings (1 SQPOLL), 10 files, 3 threads: ..." for the text report. */
void proc_facts_summary(const struct proc_facts *pf, char *buf, size_t bufsz);

#endif
