// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * LD_PRELOAD for tests/e2e/security.sh: the process SIGKILLs itself at the
 * first call that would give a written report its name (the fsync before
 * it, a link, a rename), that is after the whole report is written and
 * before it is in place. What is then left in the directory is what a kill
 * at that moment leaves behind.
 */
#include <signal.h>

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

int fsync(int fd)
{
	(void)fd;
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
	(void)da, (void)a, (void)db, (void)b, (void)f;
	return die();
}
