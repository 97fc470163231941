/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_APPS_H
#define URINGLINT_APPS_H

/* lib/apps/: application knowledge: configuration readers and the fix table. */

#include <stdbool.h>
#include <stddef.h>

/* app_fixes.c */

/*
 * Fixes in the application's words: the table lib/apps/app_fixes.tbl (its format
 * is described at its top), compiled in, parsed into plain structs. A check
 * that has a finding about a process asks app_fixes_match() which known
 * application the process is, and app_fixes_find() for that application's
 * setting that fixes the finding's kind, to print next to the syscall-level fix.
 */

enum app_fix_kind {
	APP_FIX_BUFFERED,	/* data file without O_DIRECT */
	APP_FIX_APPEND,		/* O_APPEND or extending writes */
	APP_FIX_SPARSE,		/* holes or unwritten extents */
	APP_FIX_FORCE_ASYNC,	/* IOSQE_ASYNC on requests */
	APP_FIX_NO_URING,	/* configured to another I/O engine */
	APP_FIX_MEMLOCK,	/* ring setup failed with ENOMEM */
	APP_FIX_SQPOLL_CPU,	/* where the SQPOLL thread runs */
	APP_FIX_KINDS
};

enum app_match_what { APP_MATCH_COMM, APP_MATCH_EXE, APP_MATCH_LIB };

struct app_match {
	enum app_match_what what;
	char *pattern;		/* fnmatch(3) glob */
};

struct app_entry {
	char *id, *name, *note, *reference;
	struct app_match *match;
	size_t n_match;
	char **uring;		/* globs of basenames of files it uses io_uring on */
	size_t n_uring;
	char **plain;		/* globs of files it writes with plain syscalls */
	size_t n_plain;
	unsigned int line;	/* where the record starts in the table */
};

struct app_fix {
	size_t app;		/* index into app_fixes.apps */
	enum app_fix_kind kind;
	char *setting, *verified, *note, *reference;
	/*
	 * The e2e case that applies the setting and sees the finding go
	 * ("tests/e2e/fixes.sh: fix applied: fio buffered"); NULL: none, and
	 * the setting is not printed as a fix.
	 */
	char *tested;
	unsigned int line;
};

struct app_fixes {
	struct app_entry *apps;
	size_t n_apps;
	struct app_fix *fixes;
	size_t n_fixes;
};

/*
 * Parses LEN bytes of table text into T (emptied first). Returns 0, -ENOMEM,
 * or -EINVAL with "line N: why" in ERR (ERRLEN bytes; ERR may be NULL). On
 * error T is left empty.
 */
int app_fixes_parse(const char *text, size_t len, struct app_fixes *t, char *err, size_t errlen);
/* The compiled-in lib/apps/app_fixes.tbl, and its parse. */
const char *app_fixes_builtin_text(void);
int app_fixes_builtin(struct app_fixes *t);
void app_fixes_free(struct app_fixes *t);

/* "buffered", "append", ...; -1 for an unknown name. */
const char *app_fix_kind_name(enum app_fix_kind kind);
int app_fix_kind_from_name(const char *name);
/* The id of the uringlint check whose finding the kind fixes, or NULL. */
const char *app_fix_kind_check(enum app_fix_kind kind);

/*
 * The first application with a rule that matches: COMM (/proc/PID/comm),
 * EXE (a path or basename; the basename is matched), or one of the N_LIBS
 * mapped files in LIBS (paths or basenames). Any of them may be NULL.
 */
const struct app_entry *app_fixes_match(const struct app_fixes *t, const char *comm,
					const char *exe, const char *const *libs, size_t n_libs);
/* The application's fix for KIND, or NULL when the table has none. */
const struct app_fix *app_fixes_find(const struct app_fixes *t, const struct app_entry *app,
				     enum app_fix_kind kind);
/* Whether the basename of PATH matches the application's Uring or Plain globs. */
bool app_entry_uses_uring(const struct app_entry *app, const char *path);
bool app_entry_writes_plain(const struct app_entry *app, const char *path);


/* my_cnf.c */

/*
 * What a MariaDB server's option files and command line say of how InnoDB
 * does its I/O, the four settings that decide whether its data files go
 * through io_uring and with O_DIRECT. The server's groups are read
 * ([mysqld], [server], [mariadb], [mariadbd], [client-server], [galera]);
 * versioned groups ([mysqld-10.11], ...) are not, for the server's version
 * is not known here. Later settings win, the command line last, as the
 * server applies them.
 */
struct my_cnf_value {
	char value[32];		/* as written, "" when not set */
	char from[256];		/* the file that set it, or "its command line" */
};

struct my_cnf {
	struct my_cnf_value flush_method;	/* innodb_flush_method */
	struct my_cnf_value data_file_buffering;	/* innodb_data_file_buffering (11.0+) */
	struct my_cnf_value native_aio;		/* innodb_use_native_aio */
	struct my_cnf_value linux_aio;		/* innodb_linux_aio: auto, io_uring, aio */
	bool versioned;		/* a versioned group was skipped */
	bool unread;		/* a file or directory it names was not read */
};

/*
 * Called for each "!include FILE" (dir false) and "!includedir DIR" (dir
 * true), where it stands, to read what it names into the same my_cnf.
 */
typedef void (*my_cnf_include_fn)(void *arg, const char *path, bool dir);

/* Applies one option file's text (from: its path) to c. */
void my_cnf_parse(const char *text, const char *from, struct my_cnf *c, my_cnf_include_fn inc,
		  void *arg);

/*
 * The files the server reads, from its command line (argv: NUL-separated,
 * as /proc/PID/cmdline): --no-defaults, --defaults-file=FILE (only it),
 * --defaults-extra-file=FILE (after the global files). Each is read only
 * as the first arguments, as the server reads them.
 */
struct my_cnf_files {
	bool no_defaults;
	const char *defaults_file;	/* into argv; NULL when not given */
	const char *extra_file;
};
void my_cnf_files_of(const char *argv, size_t len, struct my_cnf_files *f);

/* Applies the command line's options (--innodb-flush-method=fsync, --skip-...) to c. */
void my_cnf_apply_args(const char *argv, size_t len, struct my_cnf *c);

/* Whether the setting, as MariaDB reads it, opens the data files without O_DIRECT. */
bool my_cnf_buffered(const struct my_cnf *c, const struct my_cnf_value **why);
/* Whether it keeps InnoDB off io_uring (native AIO off, or libaio chosen). */
bool my_cnf_no_uring(const struct my_cnf *c, const struct my_cnf_value **why);
/* The setting's name as the server's documentation writes it. */
const char *my_cnf_name(const struct my_cnf *c, const struct my_cnf_value *v);


/* smb_conf.c */

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


/* qemu_drive.c */

/*
 * The disk images a QEMU system emulator was started with, and how it opens
 * them, from its command line (proc/PID/cmdline): each -drive, and each
 * -blockdev of the file driver (key=value or JSON, as libvirt writes it).
 * Only the options that decide the fast path are kept: the file, aio= and
 * the cache mode; never the rest of the command line (it may hold secrets).
 */
struct qemu_drive {
	char *file;		/* file= or filename=, as given (maybe relative) */
	const char *option;	/* "-drive", "-blockdev", or the tool: "qemu-nbd", "qemu-io" */
	char aio[16];		/* aio= as given, "" when not given */
	char cache[16];		/* cache= of -drive (a tool's --cache) as given, "" when not given */
	/*
	 * Whether the image is opened with O_DIRECT: cache=none or directsync,
	 * or cache.direct=on; the default (writeback) uses the page cache.
	 */
	bool direct;
	bool direct_set;	/* cache.direct= was given (-blockdev's way to say it) */
	const char *default_cache;	/* a tool's cache mode without --cache; NULL writeback */
	bool uring;		/* aio=io_uring; the default is aio=threads */
};

struct qemu_drives {
	struct qemu_drive *v;
	size_t n;
};

/*
 * Parses args, LEN bytes of NUL-separated arguments as proc/PID/cmdline
 * holds them, into d (emptied first). 0 or -ENOMEM; options it does not
 * understand are passed over.
 */
int qemu_drives_parse(const char *args, size_t len, struct qemu_drives *d);
void qemu_drives_free(struct qemu_drives *d);
/*
 * qemu-nbd's or qemu-io's (prog) one image from its command line, parsed
 * as the tool's getopt_long would, into d (emptied first) with option the
 * program's name. 0, -EINVAL for another program, or -ENOMEM.
 */
int qemu_tool_parse(const char *prog, const char *args, size_t len, struct qemu_drives *d);
/*
 * Options as -drive takes them (key=value,...): a drive added to d when it
 * names a file and, unless file_driver, says driver=file or host_device.
 * 0 or -ENOMEM.
 */
int qemu_drive_pairs(const char *opts, const char *option, bool file_driver,
		     struct qemu_drives *d);
/*
 * Appends *dr, its file taken; nothing (the file freed) when it has none or
 * names no local file (a protocol, whose URL may hold a password). 0 or -ENOMEM.
 */
int qemu_drive_add(struct qemu_drives *d, struct qemu_drive *dr);
/* Whether a QEMU cache mode opens the image with O_DIRECT: none (off) or directsync. */
bool qemu_cache_direct(const char *mode);
/* direct and uring from what was given: cache.direct over the cache mode. */
void qemu_drive_settle(struct qemu_drive *dr);
/* The drive whose file is path (absolute, as /proc/PID/fd names it), or NULL. */
const struct qemu_drive *qemu_drive_of(const struct qemu_drives *d, const char *path);


#endif
