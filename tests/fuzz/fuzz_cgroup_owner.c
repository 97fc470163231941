// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/PID/cgroup: the kernel prints cgroup paths raw, and any user with
 * a delegated subtree names its directories, so a line can hold any bytes
 * but NUL, and a newline starts another line.
 */
#include "procfs.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), words[1024];
	struct cgroup_owner o;

	if (!cgroup_owner_parse(text, &o)) {
		cgroup_owner_words(&o, words, sizeof(words));
		cgroup_container_words(&o, words, sizeof(words));
	}
	free(text);
	return 0;
}
