// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * LD_PRELOAD for tests/e2e/security.sh: the process SIGKILLs itself at the
 * first call that would give a written report its name (the fsync before
 * it, a link, a rename), that is after the whole report is written and
 * before it is in place. What is then left in the directory is what a kill
 * at that moment leaves behind.
 *
 * With KILL_ON_PUBLISH=rename, the fsync and the link are done and the
 * kill comes at the rename: the report has its temporary name and not yet
 * the one asked for, the one moment a name of its own is visible.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

int fsync(int fd);
int rename(const char *a, const char *b);
int renameat(int da, const char *a, int db, const char *b);
int renameat2(int da, const char *a, int db, const char *b, unsigned int f);
int linkat(int da, const char *a, int db, const char *b, int f);

static int die(void)
{
	raise(SIGKILL);
	return -1;
}

static int at_rename(void)
{
	const char *at = getenv("KILL_ON_PUBLISH");

	return at && !strcmp(at, "rename");
}

int fsync(int fd)
{
	if (at_rename()) {
		int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fsync");

		return real(fd);
	}
	return die();
}

int rename(const char *a, const char *b)
{
	(void)a, (void)b;
	return die();
}

int renameat(int da, const char *a, int db, const char *b)
{
	(void)da, (void)a, (void)db, (void)b;
	return die();
}

int renameat2(int da, const char *a, int db, const char *b, unsigned int f)
{
	(void)da, (void)a, (void)db, (void)b, (void)f;
	return die();
}

int linkat(int da, const char *a, int db, const char *b, int f)
{
	if (at_rename()) {
		int (*real)(int, const char *, int, const char *, int) =
			(int (*)(int, const char *, int, const char *, int))dlsym(RTLD_NEXT, "linkat");

		return real(da, a, db, b, f);
	}
	return die();
}
