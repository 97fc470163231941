// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sections of a report: each check's row names one, and the writers
 * print them in this order.
 */
#include <string.h>

#include "array.h"
#include "report.h"

const struct check_category check_categories[] = {
	{ "kernel", "Kernel and io_uring availability" },
	{ "limits", "Limits" },
	{ "cpu", "CPU isolation and IRQ placement" },
	{ "numa", "NUMA" },
	{ "net", "Network device and queues" },
	{ "storage", "Filesystem and device" },
	{ "proc-rings", "Rings and SQPOLL threads" },
	{ "proc-files", "Data files" },
	{ "proc-net", "Sockets and listeners" },
	{ "proc-threads", "Threads, workers and memory" },
	{ "scene", "The incident scene: devices, CPUs, memory" },
	{ "probe", "Probe verdicts" },
};
const size_t check_categories_len = ARRAY_SIZE(check_categories);

const char *check_category_title(const char *id)
{
	size_t i;

	for (i = 0; i < check_categories_len; i++)
		if (!strcmp(check_categories[i].id, id))
			return check_categories[i].title;
	return id;
}
