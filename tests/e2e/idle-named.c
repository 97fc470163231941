// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idle-named ARGS...: does nothing for 30 s, whatever its arguments. Copied
 * under a server's name (mysqld, smbd), it stands in for one whose command
 * line the test chooses, as any user could start one.
 */
#include <unistd.h>

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	sleep(30);
	return 0;
}
