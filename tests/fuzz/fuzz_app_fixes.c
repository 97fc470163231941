// SPDX-License-Identifier: GPL-2.0-or-later
/* The application fix table (lib/apps/app_fixes.tbl): parsed, matched, looked up. */
#include "fuzz.h"
#include "apps.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct app_fixes t;
	const struct app_entry *a;
	const char *libs[] = { "/usr/lib/libdb.so.3" };
	char err[256];
	int k;

	/* The parser takes a length and refuses NUL bytes itself. */
	if (app_fixes_parse((const char *)data, size, &t, err, sizeof(err)))
		return 0;
	a = app_fixes_match(&t, "dbd", "/usr/sbin/dbd", libs, 1);
	for (k = 0; k < APP_FIX_KINDS; k++)
		app_fixes_find(&t, a, (enum app_fix_kind)k);
	if (a) {
		app_entry_uses_uring(a, "/srv/x.ibd");
		app_entry_writes_plain(a, "ib_logfile0");
	}
	app_fixes_free(&t);
	return 0;
}
