// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "cpulist.h"

#define BITS_PER_WORD (8 * sizeof(unsigned long))

static int parse_cpu(const char *s, char **end, unsigned long *cpu)
{
	if (*s < '0' || *s > '9')
		return -EBADMSG;
	errno = 0;
	*cpu = strtoul(s, end, 10);
	if (errno || *cpu >= CPULIST_MAX)
		return -EBADMSG;
	return 0;
}

int cpulist_parse(const char *s, struct cpuset *set)
{
	unsigned long a, b, c;
	char *end;

	memset(set, 0, sizeof(*set));
	while (*s == ' ' || *s == '\t')
		s++;
	while (*s && *s != '\n') {
		if (parse_cpu(s, &end, &a))
			return -EBADMSG;
		b = a;
		s = end;
		if (*s == '-') {
			if (parse_cpu(s + 1, &end, &b) || b < a)
				return -EBADMSG;
			s = end;
		}
		for (c = a; c <= b; c++)
			set->bits[c / BITS_PER_WORD] |= 1UL << (c % BITS_PER_WORD);
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -EBADMSG;
	}
	return 0;
}

bool cpuset_has(const struct cpuset *set, unsigned int cpu)
{
	return cpu < CPULIST_MAX &&
	       (set->bits[cpu / BITS_PER_WORD] >> (cpu % BITS_PER_WORD)) & 1;
}

unsigned int cpuset_count(const struct cpuset *set)
{
	unsigned int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(set->bits); i++)
		n += (unsigned int)__builtin_popcountl(set->bits[i]);
	return n;
}

void cpuset_andnot(struct cpuset *dst, const struct cpuset *a, const struct cpuset *b)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(dst->bits); i++)
		dst->bits[i] = a->bits[i] & ~b->bits[i];
}

bool cpuset_intersects(const struct cpuset *a, const struct cpuset *b)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(a->bits); i++)
		if (a->bits[i] & b->bits[i])
			return true;
	return false;
}

void cpuset_set(struct cpuset *set, unsigned int cpu)
{
	if (cpu < CPULIST_MAX)
		set->bits[cpu / BITS_PER_WORD] |= 1UL << (cpu % BITS_PER_WORD);
}

/* The 32 CPUs from group * 32 as one word, the lowest CPU in bit 0. */
static unsigned int group_bits(const struct cpuset *set, unsigned int group)
{
	unsigned int bit, v = 0;

	for (bit = 0; bit < 32; bit++)
		if (cpuset_has(set, group * 32 + bit))
			v |= 1u << bit;
	return v;
}

int cpumask_parse_hex(const char *s, struct cpuset *set)
{
	unsigned int bit = 0, v;
	const char *p;
	size_t len;

	memset(set, 0, sizeof(*set));
	while (*s == ' ' || *s == '\t' || *s == '"')
		s++;
	len = strcspn(s, " \t\n\"");
	if (!len)
		return -EBADMSG;
	/* The lowest CPUs are at the end: walk the digits backwards. */
	for (p = s + len; p > s; p--) {
		char c = p[-1];

		if (c == ',')
			continue;
		if (c >= '0' && c <= '9')
			v = (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = (unsigned int)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v = (unsigned int)(c - 'A' + 10);
		else
			return -EBADMSG;
		for (unsigned int i = 0; i < 4; i++, bit++)
			if (v & (1u << i)) {
				if (bit >= CPULIST_MAX)
					return -EBADMSG;
				cpuset_set(set, bit);
			}
	}
	return 0;
}

void cpuset_format(const struct cpuset *set, char *out, size_t outsz)
{
	unsigned int cpu = 0, start;
	size_t used = 0;

	if (outsz)
		out[0] = '\0';
	while (cpu < CPULIST_MAX) {
		if (!cpuset_has(set, cpu)) {
			cpu++;
			continue;
		}
		start = cpu;
		while (cpu + 1 < CPULIST_MAX && cpuset_has(set, cpu + 1))
			cpu++;
		if (used < outsz) {
			int n = start == cpu ? snprintf(out + used, outsz - used, "%s%u",
							used ? "," : "", start)
					     : snprintf(out + used, outsz - used, "%s%u-%u",
							used ? "," : "", start, cpu);

			used += n > 0 ? (size_t)n : 0;
		}
		cpu++;
	}
}

void cpuset_format_hex(const struct cpuset *set, char *out, size_t outsz)
{
	int group, top = -1;
	size_t used = 0;

	for (group = 0; group < CPULIST_MAX / 32; group++)
		if (group_bits(set, (unsigned int)group))
			top = group;
	if (top < 0) {
		snprintf(out, outsz, "0");
		return;
	}
	out[0] = '\0';
	for (group = top; group >= 0 && used < outsz; group--) {
		int n = snprintf(out + used, outsz - used, group == top ? "%x" : ",%08x",
				 group_bits(set, (unsigned int)group));

		used += n > 0 ? (size_t)n : 0;
	}
}
