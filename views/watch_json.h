/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_WATCH_JSON_H
#define URINGLINT_WATCH_JSON_H

#include <json-c/json.h>

#include "proc_tasks.h"
#include "punt_watch.h"

/*
 * audit --watch in the JSON inventory: what was counted, per file and per
 * ring (the ring map); threads names the submitting threads.
 */
struct json_object *watch_json(const struct punt_watch *w, const struct proc_threads *threads);

#endif
