// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A QEMU system emulator's images from its command line: -drive as people
 * write it, -blockdev as key=value and as libvirt's JSON, the defaults,
 * commas inside a file name, and a command line cut short.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "apps.h"
#include "testutil.h"

static struct qemu_drives d;

/* argv, one argument a line, as cmdline holds it. */
static int parse(const char *args)
{
	static char buf[4096];
	size_t n = cmdline_of(buf, sizeof(buf), args);

	qemu_drives_free(&d);
	return qemu_drives_parse(buf, n, &d);
}

static void test_drive(void **state)
{
	(void)state;
	assert_int_equal(parse("qemu-system-x86_64\n-m\n512\n-drive\n"
			       "file=/var/lib/vm/a.img,format=raw,if=virtio,aio=io_uring,cache=none\n"
			       "--drive\nfile=/var/lib/vm/b.img,if=virtio\n"
			       "-drive\nfile=c.img,cache=writeback,cache.direct=on,aio=native"), 0);
	assert_int_equal(d.n, 3);
	assert_string_equal(d.v[0].file, "/var/lib/vm/a.img");
	assert_string_equal(d.v[0].option, "-drive");
	assert_true(d.v[0].uring);
	assert_true(d.v[0].direct);
	assert_string_equal(d.v[0].cache, "none");
	/* The defaults: aio=threads, cache=writeback (the page cache). */
	assert_false(d.v[1].uring);
	assert_false(d.v[1].direct);
	assert_string_equal(d.v[1].aio, "");
	assert_string_equal(d.v[1].cache, "");
	/* cache.direct=on after cache=writeback opens it O_DIRECT. */
	assert_true(d.v[2].direct);
	assert_false(d.v[2].uring);
	assert_string_equal(d.v[2].aio, "native");
	/* A relative file names the image from qemu's directory. */
	assert_ptr_equal(qemu_drive_of(&d, "/srv/vm/c.img"), &d.v[2]);
	assert_ptr_equal(qemu_drive_of(&d, "/var/lib/vm/a.img"), &d.v[0]);
	assert_null(qemu_drive_of(&d, "/srv/vm/xc.img"));
	assert_null(qemu_drive_of(&d, "/var/lib/vm/z.img"));
}

static void test_blockdev(void **state)
{
	(void)state;
	assert_int_equal(parse("qemu-system-x86_64\n-blockdev\n"
			       "{\"driver\":\"file\",\"filename\":\"/var/lib/libvirt/images/g.qcow2\","
			       "\"aio\":\"io_uring\",\"node-name\":\"libvirt-1-storage\","
			       "\"cache\":{\"direct\":true,\"no-flush\":false}}\n"
			       "-blockdev\n{\"node-name\":\"libvirt-1-format\",\"driver\":\"qcow2\","
			       "\"file\":\"libvirt-1-storage\"}\n"
			       "-blockdev\ndriver=file,node-name=d1,filename=/dev/vg/lv,aio=io_uring\n"
			       "-blockdev\ndriver=qcow2,node-name=f1,file=d1"), 0);
	/* The format nodes name another node, not a file: left out. */
	assert_int_equal(d.n, 2);
	assert_string_equal(d.v[0].file, "/var/lib/libvirt/images/g.qcow2");
	assert_string_equal(d.v[0].option, "-blockdev");
	assert_true(d.v[0].uring);
	assert_true(d.v[0].direct);
	assert_string_equal(d.v[1].file, "/dev/vg/lv");
	assert_true(d.v[1].uring);
	assert_false(d.v[1].direct);
}

static void test_odd(void **state)
{
	(void)state;
	/* A comma in a file name is written twice. */
	assert_int_equal(parse("qemu\n-drive\nfile=/vm/a,,b.img,aio=io_uring"), 0);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.v[0].file, "/vm/a,b.img");
	/* -drive=... in one argument. */
	assert_int_equal(parse("qemu\n-drive=file=/vm/x.img,cache=directsync"), 0);
	assert_int_equal(d.n, 1);
	assert_true(d.v[0].direct);
	/* A drive with no file (an empty CD), -drive last with nothing after, bad JSON. */
	assert_int_equal(parse("qemu\n-drive\nif=ide,media=cdrom\n-blockdev\n{\"driver\":\n-drive"), 0);
	assert_int_equal(d.n, 0);
	/* Not NUL-terminated at the end, and a value past every buffer. */
	{
		static char buf[9000];
		size_t n;

		memcpy(buf, "q\0-drive\0file=/", 15);
		memset(buf + 15, 'a', 8000);
		n = 15 + 8000;
		qemu_drives_free(&d);
		assert_int_equal(qemu_drives_parse(buf, n, &d), 0);
		assert_int_equal(d.n, 1);
		assert_true(strlen(d.v[0].file) < 4096);
	}
	qemu_drives_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drive),
		cmocka_unit_test(test_blockdev),
		cmocka_unit_test(test_odd),
	};

	return cmocka_run_group_tests_name("qemu_drive", tests, NULL, NULL);
}
