// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static bool only_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	return *s == '\0';
}

int parse_i64(const char *s, int base, int64_t *out)
{
	long long v;
	char *end;

	s = skip_blanks(s);
	if (!*s)
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, base);
	if (errno == ERANGE)
		return -ERANGE;
	if (end == s || !only_blanks(end))
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_u64(const char *s, int base, uint64_t *out)
{
	unsigned long long v;
	char *end;

	s = skip_blanks(s);
	/* strtoull accepts "-1" and wraps it; a negative count is garbage. */
	if (!*s || *s == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno == ERANGE)
		return -ERANGE;
	if (end == s || !only_blanks(end))
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_count(const char *s, unsigned int max, unsigned int *out)
{
	uint64_t v;
	int err = parse_u64(s, 10, &v);

	if (err)
		return err;
	if (!v || v > max)
		return -ERANGE;
	*out = (unsigned int)v;
	return 0;
}

int parse_pid(const char *s, int *out)
{
	unsigned int v;
	int err = parse_count(s, PARSE_PID_MAX, &v);

	if (!err)
		*out = (int)v;
	return err;
}

int parse_size(const char *s, uint64_t *out)
{
	static const char units[] = "KMGTPE";
	unsigned long long v;
	const char *u;
	char *end;
	int shift = 0;

	s = skip_blanks(s);
	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end) {
		u = strchr(units, toupper((unsigned char)*end));
		if (!u)
			return -EINVAL;
		shift = 10 * (int)(u - units + 1);
		end++;
		if (!strcmp(end, "iB") || !strcmp(end, "B") || !strcmp(end, "b"))
			end += strlen(end);
	}
	if (*end)
		return -EINVAL;
	if (shift && v > (UINT64_MAX >> shift))
		return -ERANGE;
	*out = (uint64_t)v << shift;
	return 0;
}

int parse_keyed_value(const char *text, const char *key, char *out, unsigned outsz)
{
	size_t klen = strlen(key);
	const char *line = text, *v, *end;
	size_t n;

	while (line && *line) {
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			v = skip_blanks(line + klen + 1);
			end = strchr(v, '\n');
			if (!end)
				end = v + strlen(v);
			while (end > v && isspace((unsigned char)end[-1]))
				end--;
			n = (size_t)(end - v);
			if (n >= outsz)
				return -EOVERFLOW;
			memcpy(out, v, n);
			out[n] = '\0';
			return 0;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return -ENOENT;
}

int parse_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int parse_hex_fixed(const char *p, const char *end, int digits, uint32_t *out)
{
	uint32_t v = 0;
	int i, h;

	if (digits < 1 || digits > 8 || end - p < digits)
		return -EBADMSG;
	for (i = 0; i < digits; i++) {
		h = parse_hex_digit(p[i]);
		if (h < 0)
			return -EBADMSG;
		v = v << 4 | (uint32_t)h;
	}
	*out = v;
	return 0;
}
