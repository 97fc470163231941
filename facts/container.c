// SPDX-License-Identifier: GPL-2.0-or-later
/* Container detection from the marks runtimes leave; judged by container-seccomp. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "container.h"

static void found(struct container_facts *cf, const char *runtime, const char *evidence)
{
	cf->in_container = true;
	snprintf(cf->runtime, sizeof(cf->runtime), "%s", runtime);
	snprintf(cf->evidence, sizeof(cf->evidence), "%s", evidence);
}

void container_facts_collect(const struct sysroot *sr, struct container_facts *cf)
{
	static const struct {
		const char *needle, *runtime;
	} cgroup_marks[] = {
		{ "kubepods", "kubernetes" }, { "docker", "docker" }, { "libpod", "podman" },
		{ "containerd", "containerd" }, { "lxc", "lxc" }, { "machine.slice", "systemd-nspawn" },
	};
	char *text, *env, line[200];
	size_t len, i;
	int err;

	memset(cf, 0, sizeof(*cf));
	if (sysroot_exists(sr, ".dockerenv")) {
		found(cf, "docker", "/.dockerenv exists");
		return;
	}
	if (sysroot_exists(sr, "run/.containerenv")) {
		found(cf, "podman", "/run/.containerenv exists");
		return;
	}
	/* systemd-nspawn, podman and lxc set container= for PID 1 (readable by root). */
	if (!sysroot_read_bytes(sr, "proc/1/environ", 1024 * 1024, &env, &len)) {
		for (i = 0; i < len; i += strlen(env + i) + 1) {
			if (!strncmp(env + i, "container=", 10)) {
				snprintf(line, sizeof(line), "PID 1 has %.120s", env + i);
				found(cf, env + i + 10, line);
				break;
			}
		}
		free(env);
		if (cf->in_container)
			return;
	}
	err = sysroot_read_file(sr, "proc/self/cgroup", 1024 * 1024, &text, &len);
	if (err) {
		fact_fail_read(&cf->e, "proc/self/cgroup", err);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(cgroup_marks); i++) {
		const char *hit = strstr(text, cgroup_marks[i].needle);

		if (hit) {
			const char *bol = hit;

			while (bol > text && bol[-1] != '\n')
				bol--;
			snprintf(line, sizeof(line), "proc/self/cgroup: %.*s", (int)strcspn(bol, "\n"),
				 bol);
			found(cf, cgroup_marks[i].runtime, line);
			break;
		}
	}
	free(text);
}
