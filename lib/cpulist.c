// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

	for (i = 0; i < sizeof(set->bits) / sizeof(set->bits[0]); i++)
		n += (unsigned int)__builtin_popcountl(set->bits[i]);
	return n;
}
