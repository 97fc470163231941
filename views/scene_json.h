/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_SCENE_JSON_H
#define URINGLINT_SCENE_JSON_H

#include <json-c/json.h>

#include "metrics.h"
#include "scene.h"

/* A process's "scene" object (docs/commands.md, "The incident scene"). */
struct json_object *scene_json(const struct scene *s);
/* Its gauges (views/scene_metrics.c), labelled pid and comm; none when not measured. 0 or -ENOMEM. */
int scene_metrics(struct metrics *m, const struct scene *s, int pid, const char *comm);

/*
 * Its line under the process's in the text reports (views/scene_text.c);
 * false, buf "", when the scene was not measured.
 */
bool scene_summary(const struct scene *s, char *buf, size_t bufsz);

#endif
