/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_KERNEL_VERSION_H
#define URINGLINT_KERNEL_VERSION_H

#include <stdbool.h>
#include <stdint.h>

struct kernel_version {
	unsigned int major, minor, patch;
	/* Where patch came from when the release string hides it (Debian, Ubuntu). */
	char patch_source[32];
	char release[128];
};

/* Comparable code; stable sublevels pass 255, so 10 bits each. */
#define KV(a, b, c) ((uint32_t)(a) << 20 | (uint32_t)(b) << 10 | (uint32_t)(c))

static inline uint32_t kernel_version_code(const struct kernel_version *kv)
{
	return KV(kv->major, kv->minor, kv->patch > 1023 ? 1023 : kv->patch);
}

/* Parses a release string ("6.18.44-fc-v657", "5.10.0-23-amd64"): 0 or -EBADMSG. */
int kernel_version_parse(const char *release, struct kernel_version *kv);

/*
 * Distribution kernels freeze the sublevel in the release string
 * ("6.1.0-50-cloud-amd64") and name the real one elsewhere: Debian at the
 * end of /proc/version ("Debian 6.1.158-1"), Ubuntu in
 * /proc/version_signature ("Ubuntu 5.15.0-91.101-generic 5.15.131").
 * Either text may be NULL. Only a version with the same major.minor is taken.
 */
void kernel_version_refine(struct kernel_version *kv, const char *proc_version,
			   const char *version_signature);

#endif
