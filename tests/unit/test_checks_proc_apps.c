// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Process checks on hand-built facts, the applications' own settings: the
 * table matched once per process; QEMU's drives, qemu-nbd's and qemu-io's
 * options, Samba's smb.conf and MariaDB's option files read as the cause
 * and quoted in the fix, which the table prints only when a test applied it.
 */
#include "proc_fixture.h"

/* The application is matched once per process, and a context not set for it matches anew. */
static void test_app_once(void **state)
{
	struct check_ctx ctx = { .host = &hf, .plan = &plan };

	setup(state);
	snprintf(pf.comm, sizeof(pf.comm), "mariadbd");
	files[1].path = (char *)"/var/lib/mysql/ibdata1";
	check_ctx_set_proc(&ctx, &pf);
	assert_non_null(check_ctx_app(&ctx));
	assert_ptr_equal(check_ctx_app(&ctx), proc_app(&pf));
	assert_non_null(proc_data_file(&ctx, &files[1]));
	assert_false(proc_unjudged_file(&ctx, &files[1]));
	/* Set by hand, as a test may: the process's own match, not another's. */
	ctx.proc = NULL;
	assert_null(check_ctx_app(&ctx));
	ctx.proc = &pf;
	ctx.app_of = NULL;
	assert_ptr_equal(check_ctx_app(&ctx), proc_app(&pf));
	check_ctx_set_proc(&ctx, NULL);
	assert_null(ctx.proc);
	assert_null(ctx.app);
}

/* argv as proc/PID/cmdline holds it: '\n' for each NUL. */
static void qemu_cmdline(const char *args)
{
	char buf[1024];
	size_t n = cmdline_of(buf, sizeof(buf), args);

	qemu_drives_free(&pf.qemu);
	assert_int_equal(qemu_drives_parse(buf, n, &pf.qemu), 0);
}

/*
 * An application's own settings. A QEMU system emulator: the fix quotes the
 * -drive of the image it is about, with its cache mode, and says nothing of
 * a drive opened O_DIRECT; with no ring, uring-fallback names the drives'
 * engine as the cause. A Samba server: its smb.conf's shares.
 */
/*
 * MariaDB: the flush method from the option file that set it, on the data
 * files InnoDB drives through io_uring, not on its redo log; native AIO off
 * as the cause of no ring.
 */
static void test_app_config_mariadb(void)
{
	static char ibdata[] = "/var/lib/mysql/ibdata1", redo[] = "/var/lib/mysql/ib_logfile0";
	struct my_cnf cnf = { 0 };
	const struct finding *f;
	struct report r;

	snprintf(pf.comm, sizeof(pf.comm), "mariadbd");
	pf.mariadb = &cnf;
	my_cnf_parse("[mysqld]\ninnodb_flush_method = fsync\n", "/etc/mysql/mariadb.conf.d/50-server.cnf",
		     &cnf, NULL, NULL);
	pf.nrings = 1;
	files[0].path = ibdata;
	files[0].gen.flags = O_RDWR;
	f = run("fd-o-direct", &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(finding_fix(f), "innodb_flush_method=O_DIRECT");	/* the table's */
	assert_contains(finding_fix(f), "(/etc/mysql/mariadb.conf.d/50-server.cnf: "
					"innodb_flush_method = fsync)");
	assert_string_equal(json_object_get_string(json_object_object_get(f->evidence,
		"application_config")), "innodb_flush_method = fsync");
	report_free(&r);
	/* The redo log is no file of the flush method's. */
	files[0].path = redo;
	f = run("fd-o-direct", &r);
	assert_null(f->fix ? strstr(finding_fix(f), "50-server.cnf") : NULL);
	report_free(&r);
	/* O_DIRECT set there: no cause claimed. */
	files[0].path = ibdata;
	memset(&cnf, 0, sizeof(cnf));
	my_cnf_parse("[mysqld]\ninnodb_flush_method = O_DIRECT\n", "/etc/my.cnf", &cnf, NULL, NULL);
	f = run("fd-o-direct", &r);
	assert_null(strstr(finding_fix(f), "/etc/my.cnf"));
	report_free(&r);
	/* No ring, native AIO off on the command line: the cause of the fallback. */
	pf.nrings = 0;
	snprintf(pf.maps.runtime, sizeof(pf.maps.runtime), "/usr/lib/x86_64-linux-gnu/liburing.so.2.3");
	strcpy(cnf.native_aio.value, "OFF");
	strcpy(cnf.native_aio.from, "its command line");
	f = run("uring-fallback", &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(f->message, "Cause, from its command line: innodb_use_native_aio = OFF");
	assert_null(strstr(finding_fix(f), "image"));	/* a database's fix in its own words */
	assert_contains(finding_fix(f), "innodb_use_native_aio");
	/* Its own setting is the cause: no limits or sysctls to change. */
	assert_null(strstr(finding_fix(f), "RLIMIT_MEMLOCK"));
	assert_null(strstr(finding_fix(f), "io_uring_disabled"));
	report_free(&r);
	pf.mariadb = NULL;
	files[0].path = table_path;
}

/*
 * uring-fallback fails with the cause its command line or files give and the
 * application's own setting in the fix, never a failed io_uring_setup()'s
 * limits.
 */
static void fallback_says(const char *cause, const char *fix)
{
	const struct finding *f;
	struct report r;

	f = run("uring-fallback", &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(f->message, cause);
	assert_contains(finding_fix(f), fix);
	assert_null(strstr(finding_fix(f), "RLIMIT_MEMLOCK"));
	report_free(&r);
}

static void test_app_config(void **state)
{
	const struct finding *f;
	struct report r;

	setup(state);
	snprintf(pf.comm, sizeof(pf.comm), "qemu-system-x86");
	files[0].gen.flags = O_RDWR;
	qemu_cmdline("qemu-system-x86_64\n-drive\nfile=/srv/db/table.dat,if=virtio,aio=io_uring");
	f = run("fd-o-direct", &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(finding_fix(f), "-drive cache=none");	/* the table's setting, applied by a test */
	assert_contains(json_object_get_string(json_object_object_get(f->evidence,
			"application_fix_tested")), "vm_disk.sh: fix applied: qemu-system buffered");
	assert_contains(finding_fix(f), "(its command line: this image is -drive "
					"file=/srv/db/table.dat with no cache= (writeback, the default))");
	assert_true(json_object_get_boolean(json_object_object_get(
		json_object_object_get(f->evidence, "qemu_drive"), "io_uring")));
	report_free(&r);
	/*
	 * qemu-io's buffered setting (-t none) is applied by no test: named in the
	 * evidence as untested, never printed as the fix.
	 */
	snprintf(pf.comm, sizeof(pf.comm), "qemu-io");
	f = run("fd-o-direct", &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_null(strstr(finding_fix(f), "-t none"));
	assert_contains(json_object_get_string(json_object_object_get(f->evidence,
			"application_setting_untested")), "-t none");
	report_free(&r);
	snprintf(pf.comm, sizeof(pf.comm), "qemu-system-x86");
	/* Another image's drive says nothing of this one. */
	qemu_cmdline("qemu-system-x86_64\n-drive\nfile=/srv/other.img,cache=writeback");
	f = run("fd-o-direct", &r);
	assert_null(strstr(finding_fix(f), "its command line"));
	assert_null(json_object_object_get(f->evidence, "qemu_drive"));
	report_free(&r);

	/* No ring, liburing mapped, every image on the thread pool. */
	pf.nrings = 0;
	snprintf(pf.maps.runtime, sizeof(pf.maps.runtime), "/usr/lib/x86_64-linux-gnu/liburing.so.2.3");
	qemu_cmdline("qemu-system-x86_64\n-drive\nfile=/vm/a.img,cache=none\n-drive\n"
		     "file=/vm/b.img,aio=native,cache=none");
	fallback_says("Cause, from its command line: -drive file=/vm/a.img has no aio= (threads, the "
		      "default); -drive file=/vm/b.img has aio=native", "-drive aio=io_uring");
	/*
	 * qemu-nbd: its --aio read from its command line as the cause, its own
	 * option the fix (applied by tests/e2e/fixes.sh), no limits or sysctls.
	 */
	snprintf(pf.comm, sizeof(pf.comm), "qemu-nbd");
	qemu_drives_free(&pf.qemu);
	{
		char buf[256];
		size_t n = cmdline_of(buf, sizeof(buf), "qemu-nbd\n--persistent\n-f\nraw\n"
				      "--aio=threads\n/srv/nbd/a.img");

		assert_int_equal(qemu_tool_parse("qemu-nbd", buf, n, &pf.qemu), 0);
	}
	fallback_says("Cause, from its command line: qemu-nbd opens /srv/nbd/a.img with --aio=threads",
		      "--aio=io_uring");
	f = run("uring-fallback", &r);
	assert_null(strstr(finding_fix(f), "each image"));	/* a VM monitor's words */
	report_free(&r);
	/*
	 * qemu-storage-daemon (comm cut to 15 bytes): its --blockdev is
	 * qemu-system's, said in -blockdev's words (filename=, cache.direct).
	 */
	snprintf(pf.comm, sizeof(pf.comm), "qemu-storage-da");
	qemu_cmdline("qemu-storage-daemon\n--blockdev\ndriver=file,node-name=f0,filename=/srv/q.img,"
		     "aio=threads,cache.direct=on\n--nbd-server\naddr.type=unix,addr.path=/run/q.sock");
	fallback_says("Cause, from its command line: -blockdev filename=/srv/q.img has aio=threads",
		      "aio=io_uring in the image's --blockdev driver=file");
	pf.nrings = 1;
	files[0].path = (char *)"/srv/q.img";
	qemu_cmdline("qemu-storage-daemon\n--blockdev\ndriver=file,node-name=f0,filename=/srv/q.img,"
		     "aio=io_uring");
	f = run("fd-o-direct", &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(finding_fix(f), "cache.direct=on in the image's --blockdev");
	assert_contains(finding_fix(f), "(its command line: this image is -blockdev filename=/srv/q.img "
					"with no cache.direct (off, the default))");
	report_free(&r);
	files[0].path = table_path;
	pf.nrings = 0;
	snprintf(pf.comm, sizeof(pf.comm), "qemu-system-x86");
	/* One image on io_uring, whose ring is not there: the drives are no cause. */
	qemu_cmdline("qemu-system-x86_64\n-drive\nfile=/vm/a.img,aio=io_uring");
	f = run("uring-fallback", &r);
	assert_null(strstr(f->message, "from its command line"));
	report_free(&r);
	qemu_drives_free(&pf.qemu);

	/* Samba, no ring: its smb.conf names the cause; a share on io_uring with aio sizes 0 too. */
	snprintf(pf.comm, sizeof(pf.comm), "smbd");
	snprintf(pf.smb_conf_path, sizeof(pf.smb_conf_path), "/etc/samba/smb.conf");
	assert_int_equal(smb_conf_parse("[global]\n[share]\npath = /srv\n", &pf.smb), 0);
	f = run("uring-fallback", &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(f->message, "Cause, from /etc/samba/smb.conf: no share has vfs objects = io_uring");
	assert_contains(finding_fix(f), "vfs objects = io_uring in the share");
	assert_null(strstr(finding_fix(f), "image"));	/* no VM monitor's words for a file server */
	report_free(&r);
	smb_conf_free(&pf.smb);
	assert_int_equal(smb_conf_parse("[share]\nvfs objects = io_uring\naio read size = 0\n"
					"aio write size = 0\n", &pf.smb), 0);
	f = run("uring-fallback", &r);
	assert_contains(f->message, "Cause, from /etc/samba/smb.conf: [share] aio read size = 0, aio "
				    "write size = 0");
	report_free(&r);
	/*
	 * In a container its cgroup did not name (nspawn without machined): the
	 * path is the container's, and the fix is run inside it.
	 */
	pf.owner.o.container.runtime = "systemd-nspawn";
	pf.owner.ns.other_pid = pf.owner.ns.named_by_ns = true;
	pf.owner.ns.other_mnt = 1;
	pf.owner.ns.nspid = 1;
	f = run("uring-fallback", &r);
	assert_contains(f->message, "Cause, from /etc/samba/smb.conf (a path in the container's "
				    "root): [share] aio read size = 0");
	assert_contains(finding_fix(f), "; inside its systemd-nspawn container, not on the host: "
					"nsenter -t 42 -m -u -i -n -p");
	report_free(&r);
	/* The same namespace for mounts (unshare --pid alone): the path is the host's. */
	pf.owner.o.container.runtime = "namespaces";
	pf.owner.ns.other_mnt = 0;
	f = run("uring-fallback", &r);
	assert_contains(f->message, "Cause, from /etc/samba/smb.conf: [share]");
	assert_contains(finding_fix(f), "inside its own namespaces, not on the host: nsenter -t 42");
	report_free(&r);
	memset(&pf.owner.ns, 0, sizeof(pf.owner.ns));
	pf.owner.o.container.runtime = NULL;
	smb_conf_free(&pf.smb);
	/* Read nothing (not root's, or no file): no cause claimed. */
	pf.smb_conf_path[0] = '\0';
	f = run("uring-fallback", &r);
	assert_null(strstr(f->message, "Cause, from"));
	report_free(&r);
	test_app_config_mariadb();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_app_once),
		cmocka_unit_test(test_app_config),
	};

	return cmocka_run_group_tests_name("checks_proc_apps", tests, NULL, NULL);
}
