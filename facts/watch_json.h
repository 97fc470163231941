/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_WATCH_JSON_H
#define URINGLINT_WATCH_JSON_H

#include <json-c/json.h>

#include "punt_watch.h"

/* audit --watch in the JSON inventory: what was counted, per file and per ring. */
struct json_object *watch_json(const struct punt_watch *w);

#endif
