// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * proc_cgroup_alone on trees shaped as the kernel writes them: a process
 * alone in its cgroup is found there, under the cgroup2 mount wherever it
 * is; another process in it or below, a threaded cgroup, no cgroup2 mount
 * and a cgroup outside the namespace are each refused with their error.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "proc_cgroup.h"
#include "testutil.h"

#define MOUNTS_V2 "30 25 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw\n"
/* A hybrid host: v1 controllers, and cgroup2 on "unified". */
#define MOUNTS_HYBRID                                                              \
	"31 25 0:27 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"         \
	"32 25 0:28 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n"
/* Inside a container: its cgroup is the mount's root. */
#define MOUNTS_CONTAINER "40 35 0:26 /machine.slice/c1 /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n"

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "we");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/uringlint-cgroup-XXXXXX");
	assert_non_null(mkdtemp(root));
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

static int alone(pid_t pid, struct proc_cgroup *c)
{
	struct sysroot sr;
	int err;

	assert_int_equal(sysroot_open(&sr, root), 0);
	err = proc_cgroup_alone(&sr, pid, c);
	sysroot_close(&sr);
	return err;
}

static void test_service_alone(void **state)
{
	struct proc_cgroup c;

	(void)state;
	put("proc/self/mountinfo", MOUNTS_V2);
	put("proc/42/cgroup", "0::/system.slice/db.service\n");
	put("sys/fs/cgroup/system.slice/db.service/cgroup.procs", "42\n");
	put("sys/fs/cgroup/system.slice/db.service/cgroup.type", "domain\n");
	put("sys/fs/cgroup/system.slice/db.service/empty/cgroup.events", "populated 0\nfrozen 0\n");
	assert_int_equal(alone(42, &c), 0);
	assert_string_equal(c.path, "/system.slice/db.service");
	assert_string_equal(c.rel, "sys/fs/cgroup/system.slice/db.service");
	/* Another process beside it, or in a cgroup below it: not alone. */
	put("sys/fs/cgroup/system.slice/db.service/cgroup.procs", "42\n43\n");
	assert_int_equal(alone(42, &c), -EBUSY);
	put("sys/fs/cgroup/system.slice/db.service/cgroup.procs", "42\n");
	put("sys/fs/cgroup/system.slice/db.service/helper/cgroup.events", "populated 1\nfrozen 0\n");
	assert_int_equal(alone(42, &c), -EBUSY);
	put("sys/fs/cgroup/system.slice/db.service/helper/cgroup.events", "populated 0\nfrozen 0\n");
	assert_int_equal(alone(42, &c), 0);
	/* Not there at all (it moved, or exited): said apart from another process there. */
	put("sys/fs/cgroup/system.slice/db.service/cgroup.procs", "");
	assert_int_equal(alone(42, &c), -ESRCH);
	put("sys/fs/cgroup/system.slice/db.service/cgroup.procs", "43\n");
	assert_int_equal(alone(42, &c), -EBUSY);
	put("sys/fs/cgroup/system.slice/db.service/cgroup.procs", "42\n");
	/* A threaded cgroup: the process's other threads may be in its siblings. */
	put("sys/fs/cgroup/system.slice/db.service/cgroup.type", "threaded\n");
	assert_int_equal(alone(42, &c), -EMEDIUMTYPE);
}

static void test_where_mounted(void **state)
{
	struct proc_cgroup c;

	(void)state;
	put("proc/self/mountinfo", MOUNTS_HYBRID);
	put("proc/7/cgroup", "4:memory:/x\n0::/ul\n");
	put("sys/fs/cgroup/unified/ul/cgroup.procs", "7\n");
	assert_int_equal(alone(7, &c), 0);
	assert_string_equal(c.rel, "sys/fs/cgroup/unified/ul");
	put("proc/self/mountinfo", MOUNTS_CONTAINER);
	put("proc/7/cgroup", "0::/machine.slice/c1/app\n");
	put("sys/fs/cgroup/app/cgroup.procs", "7\n");
	assert_int_equal(alone(7, &c), 0);
	assert_string_equal(c.rel, "sys/fs/cgroup/app");
	/* Outside the mount's root, or the namespace: no directory to name. */
	put("proc/7/cgroup", "0::/machine.slice/c10/app\n");
	assert_int_equal(alone(7, &c), -ENOENT);
	put("proc/7/cgroup", "0::/../other\n");
	assert_int_equal(alone(7, &c), -ENOENT);
	/* v1 only: no cgroup v2 line, or no cgroup2 mount. */
	put("proc/7/cgroup", "4:memory:/x\n");
	assert_int_equal(alone(7, &c), -ENOENT);
	put("proc/7/cgroup", "0::/ul\n");
	put("proc/self/mountinfo", "31 25 0:27 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n");
	assert_int_equal(alone(7, &c), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_service_alone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_where_mounted, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
