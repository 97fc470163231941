/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_SMB_CONF_H
#define URINGLINT_SMB_CONF_H

#include <stdbool.h>
#include <stddef.h>

/*
 * What a Samba server's smb.conf says of io_uring, share by share: whether
 * vfs_io_uring is in the share's module stack (vfs objects), and its aio
 * read and write sizes (0: plain pread/pwrite, no asynchronous I/O). A
 * parameter set in [global] is every share's default, as smb.conf(5) says.
 * Only these parameters are kept.
 */
struct smb_share {
	char name[64];
	bool uring;		/* "io_uring" among its vfs objects */
	long aio_read_size;	/* the default is 1 */
	long aio_write_size;
};

struct smb_conf {
	struct smb_share *v;
	size_t n;
	bool includes;		/* it includes other files, which were not read */
};

/* Parses smb.conf text into c (emptied first). 0 or -ENOMEM. */
int smb_conf_parse(const char *text, struct smb_conf *c);
void smb_conf_free(struct smb_conf *c);

#endif
