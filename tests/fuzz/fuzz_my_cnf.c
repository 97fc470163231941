// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * MariaDB option files and command lines: any user names its own server's
 * arguments and option files, so any text at all, as a file and as a
 * NUL-separated argv (the last one maybe cut).
 */
#include "fuzz.h"
#include "apps.h"

/* An include reads the same text again, a few levels deep, as the collector bounds it. */
struct nest {
	const char *text;
	struct my_cnf *c;
	unsigned int depth;
};

static void include(void *arg, const char *path, bool dir)
{
	struct nest *n = arg;

	(void)dir;
	if (n->depth >= 3)
		return;
	n->depth++;
	my_cnf_parse(n->text, path, n->c, include, n);
	n->depth--;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	const struct my_cnf_value *why;
	struct my_cnf_files f;
	struct my_cnf c = { 0 };
	struct nest n = { text, &c, 0 };

	my_cnf_parse(text, "/etc/my.cnf", &c, include, &n);
	my_cnf_files_of((const char *)data, size, &f);
	my_cnf_apply_args((const char *)data, size, &c);
	my_cnf_buffered(&c, &why);
	if (why)
		my_cnf_name(&c, why);
	my_cnf_no_uring(&c, &why);
	free(text);
	return 0;
}
