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
	/* An explicit cache.direct=off wins over cache=none, whatever the order; off is none. */
	assert_int_equal(parse("qemu\n-drive\nfile=/vm/a.img,cache.direct=off,cache=none\n"
			       "-drive\nfile=/vm/b.img,cache=off"), 0);
	assert_false(d.v[0].direct);
	assert_true(d.v[0].direct_set);
	assert_true(d.v[1].direct);
	/* qemu-storage-daemon's --blockdev=VALUE, and a protocol's URL left out. */
	assert_int_equal(parse("qemu-storage-daemon\n--blockdev=driver=file,node-name=f,filename=/q.img,"
			       "aio=io_uring\n-drive\nfile=https://u:pw@h/x.img\n-drive\nfile=nbd:h:10809"), 0);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.v[0].file, "/q.img");
	assert_true(d.v[0].uring);
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

/* qemu-nbd's and qemu-io's argv, one argument a line. */
static int tool(const char *prog, const char *args)
{
	static char buf[4096];
	size_t n = cmdline_of(buf, sizeof(buf), args);

	qemu_drives_free(&d);
	return qemu_tool_parse(prog, buf, n, &d);
}

static void test_tools(void **state)
{
	(void)state;
	/* As the e2e suites start it: options after the image too (getopt permutes). */
	assert_int_equal(tool("qemu-nbd", "qemu-nbd\n--fork\n--persistent\n-f\nraw\n--aio=threads\n"
				  "--cache=writeback\n-k\n/run/q.sock\n/srv/img/a.img\n-t"), 0);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.v[0].option, "qemu-nbd");
	assert_string_equal(d.v[0].file, "/srv/img/a.img");
	assert_string_equal(d.v[0].aio, "threads");
	assert_false(d.v[0].uring);
	assert_false(d.v[0].direct);
	/* The defaults: no --aio (threads), no --cache (writeback); -n is cache=none. */
	assert_int_equal(tool("qemu-nbd", "qemu-nbd\n-x\nexp\n-n\nimg.raw"), 0);
	assert_string_equal(d.v[0].file, "img.raw");
	assert_string_equal(d.v[0].aio, "");
	assert_true(d.v[0].direct);
	/* Separate arguments, and short letters run together: -rc's /dev/nbd0 is -c's, not the image. */
	assert_int_equal(tool("qemu-nbd", "qemu-nbd\n--aio\nio_uring\n/srv/x.img\n-rc\n/dev/nbd0\n"
				  "--cache\ndirectsync"), 0);
	assert_string_equal(d.v[0].file, "/srv/x.img");
	assert_true(d.v[0].uring);
	assert_true(d.v[0].direct);
	/* After "--" an image whose name starts with '-'. */
	assert_int_equal(tool("qemu-nbd", "qemu-nbd\n--aio\nio_uring\n--cache\ndirectsync\n--\n-odd.img"), 0);
	assert_string_equal(d.v[0].file, "-odd.img");
	assert_true(d.v[0].uring);
	assert_true(d.v[0].direct);
	/* --image-opts: the file node's own options. */
	assert_int_equal(tool("qemu-nbd", "qemu-nbd\n--image-opts\n--aio=threads\n"
				  "driver=raw,file.driver=file,file.filename=/vm/b.img,file.aio=io_uring"), 0);
	assert_string_equal(d.v[0].file, "/vm/b.img");
	assert_true(d.v[0].uring);
	/* qemu-io: -i is the engine, -t the cache, -k native AIO, -c a command (not the file). */
	assert_int_equal(tool("qemu-io", "qemu-io\n-f\nraw\n-c\nwrite 0 4k\n-t\nnone\n-k\n/x/q.img"), 0);
	assert_string_equal(d.v[0].file, "/x/q.img");
	assert_string_equal(d.v[0].aio, "native");
	assert_true(d.v[0].direct);
	assert_int_equal(tool("qemu-io", "qemu-io\n-iio_uring\n/x/q.img"), 0);
	assert_true(d.v[0].uring);
	/*
	 * As QEMU takes them: a unique prefix of a long option (--ai, --cach),
	 * "off" for "none", qemu-io's -k over any -i, and qemu-io's own default.
	 */
	assert_int_equal(tool("qemu-nbd", "qemu-nbd\n--ai\nthreads\n--cach=off\n/srv/p.img"), 0);
	assert_string_equal(d.v[0].file, "/srv/p.img");
	assert_string_equal(d.v[0].aio, "threads");
	assert_true(d.v[0].direct);
	assert_string_equal(d.v[0].default_cache, "writeback");
	/* "--s" is --socket, --snapshot or --shared: no option, and its value no image. */
	assert_int_equal(tool("qemu-nbd", "qemu-nbd\n/srv/p.img\n--s"), 0);
	assert_string_equal(d.v[0].file, "/srv/p.img");
	assert_int_equal(tool("qemu-io", "qemu-io\n-k\n-i\nio_uring\n/x/q.img"), 0);
	assert_string_equal(d.v[0].aio, "native");
	assert_false(d.v[0].uring);
	assert_string_equal(d.v[0].default_cache, "writethrough");
	/* An image that is no local file (a URL may carry a password): not kept. */
	assert_int_equal(tool("qemu-nbd", "qemu-nbd\niscsi://user%secret@10.0.0.1/iqn.x/0"), 0);
	assert_int_equal(d.n, 0);
	/* No image (still parsing options when it exited), a value cut short, another program. */
	assert_int_equal(tool("qemu-nbd", "qemu-nbd\n--aio"), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(tool("qemu-img", "qemu-img\nx.img"), -EINVAL);
	qemu_drives_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drive),
		cmocka_unit_test(test_blockdev),
		cmocka_unit_test(test_odd),
		cmocka_unit_test(test_tools),
	};

	return cmocka_run_group_tests_name("qemu_drive", tests, NULL, NULL);
}
