/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_APP_CONFIG_H
#define URINGLINT_APP_CONFIG_H

struct proc_facts;
struct sysroot;

/*
 * What a known application's command line and configuration files say of
 * its I/O, read for a process of that application only, with only the
 * settings that matter to io_uring kept: a QEMU system emulator's drives,
 * a Samba server's smb.conf, a MariaDB server's option files. Needs
 * pf's comm, exe and status read first.
 */
void app_config_collect(const struct sysroot *sr, struct proc_facts *pf);

#endif
