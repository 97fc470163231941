// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command table (bpftool's cmds[], git's commands[]). Each row is all
 * there is to know about a command: main runs it, --help, the man page's
 * SYNOPSIS and COMMANDS and the bash completion are made from it, and the
 * flags say what main refuses for it, so no command repeats that setup.
 */
#include "array.h"
#include "cmd.h"

static const struct command report_merge = {
	.name = "merge",
	.parent = "report",
	.run = cmd_report_merge,
	.summary = "fold JSON reports of many hosts into a fleet view per check",
	.options = no_options,
	.operands = ARG_JSON_FILE,
	.operand_name = "FILE",
	.man = "Turns JSON reports of many hosts\n"
	       "(uringlint \\-\\-format json report on each)\n"
	       "into a fleet view per check: how many hosts pass, warn and fail, and which.",
};

static const struct command report_diff = {
	.name = "diff",
	.parent = "report",
	.run = cmd_report_diff,
	.summary = "what changed between two JSON reports of one host (a deploy gate)",
	.options = no_options,
	.operands = ARG_JSON_FILE,
	.operand_name = "FILE",
	.alt = "OLD.json NEW.json",
	.man = "Compares two JSON reports of one host. Processes are matched by identity, not\n"
	       "by pid: the systemd unit, else the container, else the command (comm), so a\n"
	       "service restarted with a fix is the same service; each matched process's\n"
	       "iowq\\-punts and file\\-punts status, punt share and rate are said before \\->\n"
	       "after, and processes that appeared or are gone are listed. Findings new at\n"
	       "warn or fail, fixed, changed in level, and measured values that moved (punt\n"
	       "share, io\\-wq workers, limits, the kernel). Exits 1 when a problem at\n"
	       "\\-\\-fail\\-on or above is new or got worse, else 0.",
};

static const struct command *const report_subs[] = { &report_merge, &report_diff, NULL };

const struct command commands[] = {
	{
		.name = "preflight",
		.run = cmd_preflight,
		.summary = "check this host before deploying an io_uring service",
		.flags = CMD_NO_OPERANDS | CMD_SYSROOT,
		.options = preflight_options,
		.man = "Judges the host and each data directory against the planned deployment: "
		       "the\nkernel and io_uring availability, limits, CPU isolation and IRQ "
		       "placement,\nNUMA, and the filesystem and block device under each "
		       "directory.",
	},
	{
		.name = "audit",
		.run = cmd_audit,
		.summary = "find why a running io_uring process is off the fast path",
		.flags = CMD_SYSROOT,
		.options = audit_options,
		.operands = ARG_PID,
		.operand_name = "PID",
		.alt = "PID... | --all | --exec -- CMD [ARGS]",
		.man = "Reads running processes: their files (O_DIRECT, O_APPEND, extents), "
		       "rings\n(fdinfo of 5.10 to 6.18), threads (io\\-wq workers, SQPOLL "
		       "threads, D state)\nand limits.",
	},
	{
		.name = "probe",
		.run = cmd_probe,
		.summary = "measure that the fast path holds on this filesystem (or, --net, on sockets)",
		.flags = CMD_NO_OPERANDS | CMD_LIVE_ONLY | CMD_SYSROOT,
		.live_only = "probe runs I/O on the live system",
		.options = probe_options,
		.man = "Runs random O_DIRECT I/O on its own temporary file through a plain ring,\n"
		       "its COOP_TASKRUN and DEFER_TASKRUN variants, SQPOLL, and SQPOLL with\n"
		       "registered buffers and file, and reports IOPS, latency, punts, system\n"
		       "calls and context switches per I/O. The file is removed at the end, and\n"
		       "also when the probe is killed. With \\-\\-net it measures the network path\n"
		       "instead: a TCP echo on 127.0.0.1 and ::1 inside the probe, one pinned\n"
		       "server thread per worker with its own ring and SO_REUSEPORT listener,\n"
		       "through epoll, io_uring, multishot accept and recv with a provided\n"
		       "buffer ring, SEND_ZC and NAPI registration; every socket and thread is\n"
		       "the probe's own and ends with it.",
	},
	{
		.name = "report",
		.run = cmd_report,
		.summary = "the whole checklist: preflight, every io_uring process, and the probe",
		.flags = CMD_NO_OPERANDS | CMD_SYSROOT,
		.options = report_options,
		.man = "Preflight, an audit of the named processes (default: every io_uring\n"
		       "process), and optionally the probe, as one checklist.",
		.subs = report_subs,
	},
	{
		.name = "capture",
		.run = cmd_capture,
		.summary = "copy what uringlint reads into a tree that --root DIR replays",
		.flags = CMD_NO_OPERANDS | CMD_LIVE_ONLY,
		.live_only = "capture reads the live system",
		.alt = "-o DIR",
		.options = capture_options,
		.man = "Copies what uringlint reads of this host and of each named process into\n"
		       "the directory given with \\-o, a tree that \\-\\-root replays on another "
		       "machine.",
	},
	{
		.name = "checks",
		.run = cmd_checks,
		.summary = "list every check: id, scope, severity, title",
		.flags = CMD_NO_OPERANDS,
		.options = checks_options,
		.man = "Lists every check: id, scope, severity, title.",
	},
	{
		.name = "explain",
		.run = cmd_explain,
		.summary = "what a check looks at, why it matters, how to fix it",
		.options = no_options,
		.operands = ARG_CHECK,
		.operand_name = "ID",
		.alt = "ID",
		.man = "Says what a check looks at, why it matters and how to fix it.",
	},
};

const size_t commands_len = ARRAY_SIZE(commands);
