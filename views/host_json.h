/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_HOST_JSON_H
#define URINGLINT_HOST_JSON_H

#include <json-c/json.h>
#include <stdint.h>

#include "cpu_facts.h"
#include "net_facts.h"

/* The host facts as the JSON report's host.cpu object (cpu_json.c); never NULL. */
struct json_object *cpu_facts_json(const struct cpu_facts *cf);

/* The facts as the JSON report's host.net object (net_json.c; a new reference). */
struct json_object *net_facts_json(const struct net_facts *nf, int64_t somaxconn,
				   const struct fact_err *somaxconn_e, int64_t syn_backlog,
				   const struct fact_err *syn_backlog_e);

#endif
