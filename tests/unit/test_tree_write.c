// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The capture's two halves: a sysroot that records what it reads, and the
 * tree that record is written into, read back through a second sysroot as
 * a replay does.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>

#include "sysroot.h"
#include "testutil.h"
#include "tree_write.h"

static void mklink(const char *dir, const char *rel, const char *target)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	assert_int_equal(symlink(target, path), 0);
}

static const struct sysroot_read *find(const struct sysroot_record *rec, const char *rel)
{
	size_t i;

	for (i = 0; i < rec->n; i++)
		if (!strcmp(rec->v[i].rel, rel))
			return &rec->v[i];
	return NULL;
}

/* A "live" tree with the turns /sys takes: a class link to a device directory. */
static char *make_source(void)
{
	char *src = make_tmpdir();

	write_file(src, "proc/sys/kernel/osrelease", "6.18.0\n");
	write_file(src, "sys/devices/pci0/block/vda/queue/logical_block_size", "512\n");
	write_file(src, "sys/devices/pci0/block/vda/dev", "254:0\n");
	write_file(src, "proc/42/status", "Name:\tsvc\n");
	write_file(src, "proc/42/fdinfo/3", "pos:\t0\nflags:\t02\n");
	write_file(src, "proc/42/secret", "not read\n");
	write_file(src, "sys/class/.keep", "");
	return src;
}

static void test_record_and_replay(void **state)
{
	char *src = make_source(), *out = make_tmpdir(), *buf, line[64], path[PATH_MAX];
	struct sysroot_record rec = { 0 };
	struct tree_writer tw = { 0 };
	struct sysroot sr, replay;
	size_t len, i;
	DIR *d;

	(void)state;
	snprintf(path, sizeof(path), "%s/sys/class/block", src);
	assert_int_equal(mkdir(path, 0755), 0);
	mklink(src, "sys/class/block/vda", "../../devices/pci0/block/vda");
	mklink(src, "proc/self", "42");
	snprintf(path, sizeof(path), "%s/proc/42/fd", src);
	assert_int_equal(mkdir(path, 0755), 0);
	mklink(src, "proc/42/fd/3", "/srv/data/db.dat");

	assert_int_equal(sysroot_open(&sr, src), 0);
	sysroot_record_start(&sr, &rec);
	assert_int_equal(sysroot_read_linef(&sr, line, sizeof(line), "sys/class/block/%s/queue/%s",
					    "vda", "logical_block_size"), 0);
	assert_string_equal(line, "512");
	assert_int_equal(sysroot_read_file(&sr, "proc/self/status", 4096, &buf, &len), 0);
	free(buf);
	assert_int_equal(sysroot_readlinkf(&sr, line, sizeof(line), "proc/%d/fd/%d", 42, 3), 0);
	assert_string_equal(line, "/srv/data/db.dat");
	d = sysroot_opendirf(&sr, "proc/%d/fd", 42);
	assert_non_null(d);
	closedir(d);
	/* A failed read is not recorded: the replay fails it the same way. */
	assert_int_equal(sysroot_read_line(&sr, "proc/42/nosuch", line, sizeof(line)), -ENOENT);
	assert_int_equal(rec.err, 0);
	assert_int_equal(rec.n, 4);
	assert_int_equal(find(&rec, "proc/self/status")->kind, SR_FILE);
	assert_string_equal(find(&rec, "proc/self/status")->data, "Name:\tsvc\n");
	assert_string_equal(find(&rec, "proc/42/fd/3")->data, "/srv/data/db.dat");
	assert_int_equal(find(&rec, "proc/42/fd")->kind, SR_DIR);
	assert_null(find(&rec, "proc/42/nosuch"));

	tw.outfd = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	tw.livefd = open(src, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	for (i = 0; i < rec.n; i++)
		assert_int_equal(tree_write(&tw, &rec.v[i]), 0);
	assert_int_equal(tw.files, 2);
	assert_int_equal(tw.links, 3);	/* class/block/vda, proc/self, fd/3 */
	close(tw.outfd);
	close(tw.livefd);

	/* The replay takes the same turns and finds the same bytes; nothing else is there. */
	assert_int_equal(sysroot_open(&replay, out), 0);
	assert_int_equal(sysroot_read_line(&replay, "sys/class/block/vda/queue/logical_block_size",
					   line, sizeof(line)), 0);
	assert_string_equal(line, "512");
	assert_int_equal(sysroot_read_line(&replay, "proc/self/status", line, sizeof(line)), 0);
	assert_string_equal(line, "Name:\tsvc");
	assert_int_equal(sysroot_readlink(&replay, "proc/42/fd/3", line, sizeof(line)), 0);
	assert_string_equal(line, "/srv/data/db.dat");
	assert_int_equal(sysroot_read_line(&replay, "proc/42/secret", line, sizeof(line)), -ENOENT);
	assert_int_equal(sysroot_read_line(&replay, "sys/devices/pci0/block/vda/dev", line,
					   sizeof(line)), -ENOENT);
	snprintf(path, sizeof(path), "%s/sys/class/block/vda", out);
	assert_int_equal(readlink(path, line, sizeof(line)), 28);
	sysroot_close(&replay);
	sysroot_record_free(&rec);
	sysroot_close(&sr);
	rm_rf(out);
	rm_rf(src);
}

/* A path longer than PATH_MAX is refused whole, never read truncated. */
static void test_printf_paths(void **state)
{
	char *src = make_source(), line[64], longname[PATH_MAX + 16], *buf = (char *)1;
	struct sysroot sr;
	size_t len = 1;

	(void)state;
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	assert_int_equal(sysroot_open(&sr, src), 0);
	assert_int_equal(sysroot_read_linef(&sr, line, sizeof(line), "proc/%s", longname),
			 -ENAMETOOLONG);
	assert_int_equal(sysroot_read_filef(&sr, 4096, &buf, &len, "proc/%s/x", longname),
			 -ENAMETOOLONG);
	assert_null(buf);
	assert_int_equal(len, 0);
	assert_int_equal(sysroot_readlinkf(&sr, line, sizeof(line), "%s", longname), -ENAMETOOLONG);
	assert_null(sysroot_opendirf(&sr, "%s", longname));
	assert_int_equal(errno, ENAMETOOLONG);
	assert_int_equal(sysroot_pathf(line, 8, "proc/%d", 123456), -ENAMETOOLONG);
	assert_int_equal(sysroot_pathf(line, sizeof(line), "proc/%d", 42), 0);
	assert_string_equal(line, "proc/42");
	assert_int_equal(sysroot_read_namef(&sr, line, sizeof(line), "proc/%d/status", 42), 0);
	sysroot_close(&sr);
	rm_rf(src);
}

/* A link already in the tree is never written through: the write fails instead. */
static void test_never_writes_through_links(void **state)
{
	char *src = make_source(), *out = make_tmpdir(), *outside = make_tmpdir(), path[PATH_MAX];
	struct sysroot_read r = { .kind = SR_FILE, .rel = (char *)"proc/42/status",
				  .data = (char *)"x", .len = 1 };
	struct tree_writer tw = { 0 };
	struct stat st;

	(void)state;
	snprintf(path, sizeof(path), "%s/proc", out);
	assert_int_equal(symlink(outside, path), 0);
	tw.outfd = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	tw.livefd = open(src, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(tree_write(&tw, &r) < 0);
	snprintf(path, sizeof(path), "%s/42", outside);
	assert_int_equal(stat(path, &st), -1);
	close(tw.outfd);
	close(tw.livefd);
	rm_rf(outside);
	rm_rf(out);
	rm_rf(src);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_and_replay),
		cmocka_unit_test(test_printf_paths),
		cmocka_unit_test(test_never_writes_through_links),
	};

	return cmocka_run_group_tests_name("tree_write", tests, NULL, NULL);
}
