/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_REPORT_H
#define URINGLINT_REPORT_H

#include <json-c/json.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "metrics.h"

/* Ordered by how much a finding should worry the reader. */
/*
 * In the order of what they weigh: --fail-on and report merge take the
 * greater. info is advice about how the application itself is written,
 * shown with its evidence and never counted by --fail-on.
 */
enum check_status {
	STATUS_PASS,
	STATUS_INFO,
	STATUS_SKIP,
	STATUS_WARN,
	STATUS_FAIL,
	STATUS_ERROR,
	STATUS__COUNT
};

enum check_severity {
	SEVERITY_INFO,
	SEVERITY_LOW,
	SEVERITY_MEDIUM,
	SEVERITY_HIGH,
	SEVERITY_CRITICAL,
};

const char *status_name(enum check_status st);
const char *severity_name(enum check_severity sev);

/*
 * What a report and its writers know of a check: its row in the check
 * table less how it runs (checks.h's struct check holds this first).
 */
struct check_info {
	const char *id;		/* kebab-case, stable: users and CI name it */
	const char *title;
	const char *category;	/* key into check_categories */
	enum check_severity severity;
	const char *looks_at;	/* explain: what it reads */
	const char *why;	/* explain: why it matters */
	const char *fix;	/* default fix; a finding may give a sharper one */
	const char *reference;
};

/* The sections of a report, in the order they are printed. */
struct check_category {
	const char *id;
	const char *title;
};

extern const struct check_category check_categories[];
extern const size_t check_categories_len;
const char *check_category_title(const char *id);

struct finding {
	const struct check_info *check;
	enum check_status status;
	char *subject;			/* the concrete thing judged: "host", a path, a CPU */
	int pid;			/* 0 for host-wide findings */
	char *message;
	char *fix;			/* NULL: the check's own fix text */
	struct json_object *evidence;	/* always an object */
};

struct report_host {
	char hostname[256];
	char kernel[128];		/* the parsed version, "6.18.44" */
	char kernel_release[128];	/* exactly as uname -r prints it; empty unknown */
	unsigned int cpus;
	bool live;
	char root[4096];		/* --root DIR, empty when live */
	struct json_object *net;	/* the JSON's host.net: the service's NICs; NULL none */
	struct json_object *cpu;	/* the JSON's host.cpu: isolation, NUMA, device IRQs */
};

struct report {
	const char *command;		/* "preflight", … */
	struct report_host host;
	struct finding *findings;
	size_t nfindings, cap;
	/*
	 * audit: the "processes" inventory of the JSON contract, rendered as a
	 * JSON array text as each process is read (10,000 files as json-c
	 * objects would take tens of MiB), and a line each for text. It is
	 * spooled to a memfd (processes_fd), or in memory where there is none
	 * (processes_json): the 2.8 MB of 10,000 files took 700 page faults
	 * in a buffer of ours, 12 ms on a VM, and 1.5 ms through a memfd.
	 */
	FILE *processes_out;		/* the spool, open while audit runs */
	bool processes_memfd;		/* spooled to a memfd: processes_fd reads it */
	int processes_fd;
	char *processes_json;		/* open_memstream's buffer, without a memfd */
	size_t processes_len;
	size_t nprocesses;
	/*
	 * Each audited process and who runs it, for writers that label or
	 * group by it: its comm, unit and container in words, "" none.
	 */
	struct report_owner {
		int pid;
		char *comm, *unit, *container;
		bool stable;		/* a service: its name outlives the pid */
	} *owners;
	size_t nowners;
	struct json_object *probe;	/* probe: the contract's "probe" object */
	struct json_object *diff;	/* report diff: the contract's "diff" object */
	struct metrics metrics;		/* the probe's numbers as series */
	char **notes;
	int *note_pids;			/* a process's own note: its pid; else 0 */
	size_t nnotes, notes_cap;
};

void report_init(struct report *r, const char *command);
void report_free(struct report *r);

__attribute__((format(printf, 5, 6)))
struct finding *report_add(struct report *r, const struct check_info *c, enum check_status st,
			   const char *subject, const char *fmt, ...);
/* The same with a va_list, for the checks' own adders: the message is allocated, never cut. */
__attribute__((format(printf, 5, 0)))
struct finding *report_vadd(struct report *r, const struct check_info *c, enum check_status st,
			    const char *subject, const char *fmt, va_list ap);
__attribute__((format(printf, 2, 3)))
void finding_set_fix(struct finding *f, const char *fmt, ...);
const char *finding_fix(const struct finding *f);

void finding_ev_str(struct finding *f, const char *key, const char *val);
void finding_ev_int(struct finding *f, const char *key, int64_t val);
void finding_ev_bool(struct finding *f, const char *key, bool val);

/* The processes inventory: begin, append with proc_facts_json_write, end; 0 or -errno. */
int report_processes_begin(struct report *r);
int report_processes_end(struct report *r);
/* Whether there is an inventory, and it copied to out: 0 or -EIO. */
bool report_has_processes(const struct report *r);
int report_processes_copy(const struct report *r, FILE *out);
/* The processes inventory as a JSON array (empty without one); NULL out of memory. */
struct json_object *report_processes_json(const struct report *r);

/* Records an audited process and who runs it (see owners); "" for what is unknown. */
void report_set_owner(struct report *r, int pid, const char *comm, const char *unit,
		      const char *container, bool stable);

__attribute__((format(printf, 2, 3)))
void report_note(struct report *r, const char *fmt, ...);
/* A note about one process (its summary): a writer may fold those of many. */
__attribute__((format(printf, 3, 4)))
void report_note_proc(struct report *r, int pid, const char *fmt, ...);

/* Counts per status. */
void report_count(const struct report *r, unsigned int counts[STATUS__COUNT]);

/*
 * The --fail-on gate: true when a finding reaches the threshold. An error
 * counts as a failure: a check that could not run must not let a gate pass.
 */
bool report_reaches(const struct report *r, enum check_status threshold);

#endif
