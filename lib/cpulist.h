/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_CPULIST_H
#define URINGLINT_CPULIST_H

#include <stdbool.h>
#include <stddef.h>

#define CPULIST_MAX 8192	/* CONFIG_NR_CPUS tops out here on x86-64 */

struct cpuset {
	unsigned long bits[CPULIST_MAX / (8 * sizeof(unsigned long))];
};

/* Parses the kernel's list format "0-3,8,10-11" (empty means none): 0 or -EBADMSG. */
int cpulist_parse(const char *s, struct cpuset *set);
/* Parses a hex cpumask as in smp_affinity ("00000000,0000000f"): 0 or -EBADMSG. */
int cpumask_parse_hex(const char *s, struct cpuset *set);
/*
 * Formats as the kernel's hex mask, 32-bit groups with commas, highest
 * first, without leading zero groups ("f", "100,0000000f"); "0" for none.
 */
void cpuset_format_hex(const struct cpuset *set, char *out, size_t outsz);
/* Formats as a cpulist ("0-3,8"); "" for none. */
void cpuset_format(const struct cpuset *set, char *out, size_t outsz);
void cpuset_set(struct cpuset *set, unsigned int cpu);
bool cpuset_has(const struct cpuset *set, unsigned int cpu);
unsigned int cpuset_count(const struct cpuset *set);
/* dst = a and not b, word by word; dst may be a or b. */
void cpuset_andnot(struct cpuset *dst, const struct cpuset *a, const struct cpuset *b);
/* Whether a and b share a CPU. */
bool cpuset_intersects(const struct cpuset *a, const struct cpuset *b);

#endif
