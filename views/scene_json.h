/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_SCENE_JSON_H
#define URINGLINT_SCENE_JSON_H

#include <json-c/json.h>

#include "scene.h"

/* A process's "scene" object (docs/commands.md, "The incident scene"). */
struct json_object *scene_json(const struct scene *s);

#endif
