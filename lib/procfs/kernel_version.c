// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procfs.h"

static int parse_triplet(const char *s, unsigned int *a, unsigned int *b,
			 unsigned int *c, bool need_patch)
{
	unsigned long v[3] = { 0, 0, 0 };
	char *end;
	int i;

	for (i = 0; i < 3; i++) {
		if (*s < '0' || *s > '9')
			break;
		v[i] = strtoul(s, &end, 10);
		if (v[i] > 65535)
			return -EBADMSG;
		s = end;
		if (*s != '.') {
			i++;
			break;
		}
		s++;
	}
	if (i < 2 || (need_patch && i < 3))
		return -EBADMSG;
	*a = (unsigned int)v[0];
	*b = (unsigned int)v[1];
	*c = (unsigned int)v[2];
	return 0;
}

int kernel_version_parse(const char *release, struct kernel_version *kv)
{
	memset(kv, 0, sizeof(*kv));
	if (!release || strlen(release) >= sizeof(kv->release))
		return -EBADMSG;
	if (parse_triplet(release, &kv->major, &kv->minor, &kv->patch, false))
		return -EBADMSG;
	if (kv->major == 0 || kv->major > 99)
		return -EBADMSG;
	snprintf(kv->release, sizeof(kv->release), "%s", release);
	return 0;
}

static void take_patch(struct kernel_version *kv, const char *s, const char *source)
{
	unsigned int a, b, c;

	if (parse_triplet(s, &a, &b, &c, true))
		return;
	if (a != kv->major || b != kv->minor)
		return;
	kv->patch = c;
	snprintf(kv->patch_source, sizeof(kv->patch_source), "%s", source);
}

void kernel_version_refine(struct kernel_version *kv, const char *proc_version,
			   const char *version_signature)
{
	const char *p, *last = NULL;

	if (version_signature) {
		/* "Ubuntu 5.15.0-91.101-generic 5.15.131": the last word. */
		p = version_signature + strlen(version_signature);
		while (p > version_signature && (p[-1] == '\n' || p[-1] == ' '))
			p--;
		while (p > version_signature && p[-1] != ' ')
			p--;
		take_patch(kv, p, "version_signature");
	}
	if (proc_version) {
		/* The compiler's "(Debian 12.2.0-14)" comes first; the kernel's last. */
		for (p = strstr(proc_version, "Debian "); p; p = strstr(p + 1, "Debian "))
			last = p;
		if (last)
			take_patch(kv, last + strlen("Debian "), "proc/version");
	}
}
