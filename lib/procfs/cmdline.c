// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <string.h>

#include "procfs.h"

int cmdline_get(const char *cmdline, const char *param, char *out, size_t outsz)
{
	size_t plen = strlen(param), vlen;
	const char *p = cmdline, *found = NULL, *end;
	bool quoted;

	while (*p) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		if (p[0] == '-' && p[1] == '-' && (p[2] == ' ' || p[2] == '\0' || p[2] == '\n'))
			break;
		if (!strncmp(p, param, plen) && p[plen] == '=')
			found = p + plen + 1;
		/* Skip the word; a double-quoted value may hold spaces. */
		quoted = false;
		while (*p && (quoted || (*p != ' ' && *p != '\t' && *p != '\n'))) {
			if (*p == '"')
				quoted = !quoted;
			p++;
		}
	}
	if (!found)
		return -ENOENT;
	end = found;
	while (*end && *end != ' ' && *end != '\t' && *end != '\n')
		end++;
	vlen = (size_t)(end - found);
	if (vlen >= outsz)
		return -EOVERFLOW;
	memcpy(out, found, vlen);
	out[vlen] = '\0';
	return 0;
}

int cmdline_parse_isolcpus(const char *value, struct isolcpus *iso)
{
	const char *p = value;

	memset(iso, 0, sizeof(*iso));
	/* Leading flags are words; the first token starting with a digit begins the list. */
	while (*p && (*p < '0' || *p > '9')) {
		size_t n = strcspn(p, ",");

		if (n == 6 && !strncmp(p, "domain", 6))
			iso->domain = true;
		else if (n == 4 && !strncmp(p, "nohz", 4))
			iso->nohz = true;
		else if (n == 11 && !strncmp(p, "managed_irq", 11))
			iso->managed_irq = true;
		else
			return -EBADMSG;
		p += n;
		if (*p == ',')
			p++;
	}
	/* With no housekeeping-type flag the kernel isolates from scheduler domains. */
	if (!iso->nohz && !iso->managed_irq)
		iso->domain = true;
	return cpulist_parse(p, &iso->cpus);
}

int cmdline_parse_cpulist(const char *value, const struct cpuset *possible, struct cpuset *set)
{
	if (!strcmp(value, "all")) {
		*set = *possible;
		return 0;
	}
	return cpulist_parse(value, set);
}
