// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/PID/cmdline of a QEMU system emulator, qemu-nbd or qemu-io: any
 * user names its own arguments, NUL-separated, the last one maybe cut;
 * -drive values escape commas, -blockdev may be JSON, the tools' short
 * options run together.
 */
#include "fuzz.h"
#include "apps.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qemu_drives d;
	size_t i;

	if (qemu_drives_parse((const char *)data, size, &d))
		return 0;
	for (i = 0; i < d.n; i++)
		qemu_drive_of(&d, d.v[i].file[0] ? d.v[i].file : "/x");
	qemu_drive_of(&d, "/var/lib/vm/a.img");
	qemu_drives_free(&d);
	/* The first byte picks the tool; the rest is its command line. */
	if (size && !qemu_tool_parse(data[0] & 1 ? "qemu-io" : "qemu-nbd", (const char *)data + 1,
				     size - 1, &d)) {
		if (d.n)
			qemu_drive_of(&d, d.v[0].file);
		qemu_drives_free(&d);
	}
	return 0;
}
