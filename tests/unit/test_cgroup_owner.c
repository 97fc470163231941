// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The unit and container of a process from /proc/PID/cgroup, with the
 * paths systemd, Docker, Podman, containerd and CRI-O under Kubernetes,
 * LXC and systemd-nspawn make; and text a directory name could forge.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "procfs.h"

static struct cgroup_owner o;

static int parse(const char *text)
{
	return cgroup_owner_parse(text, &o);
}

static void test_system_and_user_units(void **state)
{
	char w[600];

	(void)state;
	assert_int_equal(parse("0::/system.slice/fio.service\n"), 0);
	assert_int_equal(o.unit.kind, UNIT_SYSTEM);
	assert_string_equal(o.unit.name, "fio.service");
	assert_string_equal(o.unit.slice, "system.slice");
	assert_int_equal(o.unit.uid, -1);
	assert_null(o.container.runtime);
	assert_string_equal(o.how, "cgroup v2 path /system.slice/fio.service");
	cgroup_owner_words(&o, w, sizeof(w));
	assert_string_equal(w, "fio.service");

	/* A service's own sub-cgroups (delegation) are still the service. */
	assert_int_equal(parse("0::/system.slice/mariadb.service/workers\n"), 0);
	assert_string_equal(o.unit.name, "mariadb.service");

	assert_int_equal(parse("0::/user.slice/user-1000.slice/user@1000.service/app.slice/"
			       "x.service\n"), 0);
	assert_int_equal(o.unit.kind, UNIT_USER);
	assert_string_equal(o.unit.name, "x.service");
	assert_string_equal(o.unit.slice, "app.slice");
	assert_int_equal(o.unit.uid, 1000);
	cgroup_owner_words(&o, w, sizeof(w));
	assert_string_equal(w, "user 1000's unit x.service");

	/* The user's manager itself is a system unit. */
	assert_int_equal(parse("0::/user.slice/user-1000.slice/user@1000.service/init.scope\n"), 0);
	assert_int_equal(o.unit.kind, UNIT_USER);
	assert_string_equal(o.unit.name, "init.scope");
	assert_int_equal(parse("0::/user.slice/user-1000.slice/user@1000.service\n"), 0);
	assert_int_equal(o.unit.kind, UNIT_SYSTEM);
	assert_string_equal(o.unit.name, "user@1000.service");

	assert_int_equal(parse("0::/user.slice/user-1000.slice/session-3.scope\n"), 0);
	assert_int_equal(o.unit.kind, UNIT_SESSION);
	assert_string_equal(o.unit.name, "session-3.scope");
	assert_int_equal(o.unit.uid, 1000);
	assert_string_equal(o.unit.slice, "user-1000.slice");

	assert_int_equal(parse("0::/init.scope\n"), 0);
	assert_string_equal(o.unit.name, "init.scope");
}

static void test_none(void **state)
{
	char w[64];

	(void)state;
	/* The root cgroup, a cgroup namespace's root, and directories no manager names. */
	assert_int_equal(parse("0::/\n"), 0);
	assert_int_equal(o.unit.kind, UNIT_NONE);
	assert_null(o.container.runtime);
	cgroup_owner_words(&o, w, sizeof(w));
	assert_string_equal(w, "");
	assert_int_equal(parse("0::/process_api/73a94ec5\n"), 0);
	assert_int_equal(o.unit.kind, UNIT_NONE);
	assert_null(o.container.runtime);
	/* A hybrid host: the unified path is "/", systemd's own hierarchy names none. */
	assert_int_equal(parse("9:name=systemd:/\n4:memory:/process_api/73a94ec5\n0::/\n"), 0);
	assert_int_equal(o.unit.kind, UNIT_NONE);
	assert_null(o.container.runtime);
}

static void test_containers(void **state)
{
	char w[600];

	(void)state;
	assert_int_equal(parse("0::/system.slice/docker-0123456789abcdef0123.scope\n"), 0);
	assert_string_equal(o.container.runtime, "docker");
	assert_string_equal(o.container.id, "0123456789abcdef0123");
	/* The container's scope is not its unit. */
	assert_int_equal(o.unit.kind, UNIT_NONE);
	cgroup_owner_words(&o, w, sizeof(w));
	assert_string_equal(w, "docker container 0123456789ab");

	assert_int_equal(parse("12:pids:/docker/abcdef\n1:name=systemd:/docker/abcdef\n0::/\n"), 0);
	assert_string_equal(o.container.runtime, "docker");
	assert_string_equal(o.container.id, "abcdef");
	assert_string_equal(o.how, "cgroup v1 name=systemd path /docker/abcdef");

	/* A v1 controller line only: the container still shows. */
	assert_int_equal(parse("4:memory:/docker/feed\n0::/\n"), 0);
	assert_string_equal(o.container.runtime, "docker");
	assert_string_equal(o.how, "cgroup v1 path /docker/feed");

	/*
	 * Under a user's manager a container is rootless, that user's: a user can
	 * name a scope of its own docker-ID.scope, so the uid is kept and said.
	 */
	assert_int_equal(parse("0::/user.slice/user-1000.slice/user@1000.service/user.slice/"
			       "libpod-abcdef0123456789.scope\n"), 0);
	assert_string_equal(o.container.runtime, "podman");
	assert_int_equal(o.container.uid, 1000);
	cgroup_container_words(&o, w, sizeof(w));
	assert_string_equal(w, "podman container abcdef012345 (rootless, user 1000)");
	assert_int_equal(parse("0::/system.slice/docker-abcdef0123456789.scope\n"), 0);
	assert_int_equal(o.container.uid, -1);
	assert_int_equal(parse("0::/machine.slice/libpod-5555.scope/container\n"), 0);
	assert_string_equal(o.container.runtime, "podman");
	assert_string_equal(o.container.id, "5555");
	/* Podman's monitor is not the container. */
	assert_int_equal(parse("0::/machine.slice/libpod-conmon-5555.scope\n"), 0);
	assert_null(o.container.runtime);
	assert_string_equal(o.unit.name, "libpod-conmon-5555.scope");

	assert_int_equal(parse("0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-"
			       "pod1b2c3d4e_aaaa_bbbb_cccc_0123456789ab.slice/cri-containerd-"
			       "feedfacefeedfacefeed.scope\n"), 0);
	assert_string_equal(o.container.runtime, "containerd");
	assert_string_equal(o.container.id, "feedfacefeedfacefeed");
	assert_string_equal(o.container.pod_uid, "1b2c3d4e-aaaa-bbbb-cccc-0123456789ab");
	cgroup_owner_words(&o, w, sizeof(w));
	assert_string_equal(w, "containerd container feedfacefeed of pod "
			       "1b2c3d4e-aaaa-bbbb-cccc-0123456789ab");

	assert_int_equal(parse("0::/kubepods.slice/kubepods-pod11_22.slice/crio-abc.scope\n"), 0);
	assert_string_equal(o.container.runtime, "cri-o");
	assert_string_equal(o.container.pod_uid, "11-22");

	assert_int_equal(parse("0::/kubepods/besteffort/pod11-22/0123abcd\n"), 0);
	assert_string_equal(o.container.runtime, "kubernetes");
	assert_string_equal(o.container.id, "0123abcd");
	assert_string_equal(o.container.pod_uid, "11-22");

	assert_int_equal(parse("0::/lxc.payload.web/system.slice/nginx.service\n"), 0);
	assert_string_equal(o.container.runtime, "lxc");
	assert_string_equal(o.container.name, "web");
	assert_string_equal(o.unit.name, "nginx.service");
	assert_int_equal(parse("0::/lxc.monitor.web\n"), 0);
	assert_null(o.container.runtime);
	assert_int_equal(parse("0::/lxc/old\n"), 0);
	assert_string_equal(o.container.runtime, "lxc");
	assert_string_equal(o.container.name, "old");

	/* nspawn: the container's service is not the unit; the one inside it is. */
	assert_int_equal(parse("0::/machine.slice/systemd-nspawn@guest.service/payload/system.slice/"
			       "writer.service\n"), 0);
	assert_string_equal(o.container.runtime, "systemd-nspawn");
	assert_string_equal(o.container.name, "guest");
	assert_int_equal(o.unit.kind, UNIT_SYSTEM);
	assert_string_equal(o.unit.name, "writer.service");
	cgroup_owner_words(&o, w, sizeof(w));
	assert_string_equal(w, "writer.service in systemd-nspawn guest");
	assert_int_equal(parse("0::/machine.slice/systemd-nspawn@guest.service/payload\n"), 0);
	assert_int_equal(o.unit.kind, UNIT_NONE);

	/* libvirt's guests, by machined's scope, with systemd's escape for '-'. */
	assert_int_equal(parse("0::/machine.slice/machine-qemu\\x2d1\\x2dvm1.scope/libvirt/emulator\n"),
			 0);
	assert_string_equal(o.container.runtime, "machine");
	assert_string_equal(o.container.name, "qemu-1-vm1");

	/*
	 * Named from its namespaces (proc_container.c) with no manager's id or
	 * name: the words say what was seen, never "container " and nothing.
	 */
	assert_int_equal(parse("0::/user.slice\n"), 0);
	o.container.runtime = "namespaces";
	cgroup_owner_words(&o, w, sizeof(w));
	assert_string_equal(w, "namespaces of its own");
	o.container.runtime = "systemd-nspawn";
	cgroup_owner_words(&o, w, sizeof(w));
	assert_string_equal(w, "a systemd-nspawn container");
	snprintf(o.container.id, sizeof(o.container.id), "0123456789abcdef0123");
	cgroup_owner_words(&o, w, sizeof(w));
	assert_string_equal(w, "systemd-nspawn container 0123456789ab");
	snprintf(o.container.id, sizeof(o.container.id), "f3f46823-b1f0-4f4e-9d6c-1b2a3c4d5e6f");
	cgroup_owner_words(&o, w, sizeof(w));
	assert_string_equal(w, "systemd-nspawn container f3f46823-b1f0-4f4e-9d6c-1b2a3c4d5e6f");
}

static void test_garbage(void **state)
{
	char big[400];

	(void)state;
	/* Empty: no hierarchy mounted (the kernel hides cgroup2 until its first mount). */
	assert_int_equal(parse(""), 0);
	assert_null(o.container.runtime);
	assert_int_equal(o.unit.kind, UNIT_NONE);
	assert_string_equal(o.how, "no cgroup hierarchy mounted (an empty cgroup file)");
	assert_int_equal(parse("\n"), -EBADMSG);
	assert_int_equal(parse("hello\n"), -EBADMSG);
	assert_int_equal(parse("0::relative\n"), -EBADMSG);
	assert_int_equal(parse("x::/a\n"), -EBADMSG);
	assert_int_equal(parse("0::/a\n\n0::/b\n"), -EBADMSG);
	/* The kernel prints the v2 line last: a v1 line after it was not the kernel's. */
	assert_int_equal(parse("0::/a\n1:name=systemd:/system.slice/sshd.service\n"), -EBADMSG);
	assert_int_equal(parse("1:name=systemd:/b\n0::/a\n"), 0);
	/*
	 * A directory named with a newline and a whole line: the kernel prints
	 * the path raw, so the forged line is a second line of hierarchy 0.
	 */
	assert_int_equal(parse("0::/user.slice/user-1000.slice/session-3.scope/x\n"
			       "0::/system.slice/sshd.service\n"), -EBADMSG);
	/* A name past every buffer is cut, never overrun. */
	memset(big, 'a', sizeof(big));
	memcpy(big, "0::/", 4);
	memcpy(big + sizeof(big) - 10, ".service\n", 10);
	assert_int_equal(parse(big), 0);
	assert_int_equal(o.unit.kind, UNIT_SYSTEM);
	assert_int_equal(strlen(o.unit.name), CGROUP_NAME_MAX - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_system_and_user_units),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_containers),
		cmocka_unit_test(test_garbage),
	};

	return cmocka_run_group_tests_name("cgroup_owner", tests, NULL, NULL);
}
