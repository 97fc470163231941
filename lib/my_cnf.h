/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_MY_CNF_H
#define URINGLINT_MY_CNF_H

#include <stdbool.h>
#include <stddef.h>

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

#endif
