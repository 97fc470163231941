// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mem-write PID: what a process could do to PID's memory, tried from inside
 * a sandbox (tests/fleet/unit.sh runs it as the uringlint service's
 * ExecStart=). Each way writes back the 8 bytes it read from PID's first
 * writable mapping, so a way that works changes nothing, and prints one
 * line, "WAY ok" or "WAY ERRNO-NAME":
 *   mem          open("/proc/PID/mem", O_RDWR), then pwrite
 *   root-mem     the same through PID's own root, /proc/PID/root/proc/PID/mem
 *   vm-writev    process_vm_writev
 *   vm-readv     process_vm_readv
 * and "maps ok" when it could read PID's maps (the address). The bytes
 * vm-writev writes back come from vm-readv or a read-only open of the mem
 * file; when neither can read them it writes nothing ("vm-writev untried").
 * Exits 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

static void say(const char *way, int err)
{
	printf("%s %s\n", way, err ? strerrorname_np(err) : "ok");
}

/* 0 when the 8 bytes at addr went back unchanged through path, or errno. */
static int through_file(const char *path, unsigned long addr)
{
	char b[8];
	int fd = open(path, O_RDWR | O_CLOEXEC), err = 0;

	if (fd < 0)
		return errno;
	if (pread(fd, b, sizeof(b), (off_t)addr) != sizeof(b) ||
	    pwrite(fd, b, sizeof(b), (off_t)addr) != sizeof(b))
		err = errno ? errno : EIO;
	close(fd);
	return err;
}

int main(int argc, char **argv)
{
	unsigned long addr = 0, end;
	char path[96], line[512], perms[8], b[8];
	struct iovec local = { b, sizeof(b) }, remote;
	pid_t pid;
	FILE *maps;

	if (argc != 2) {
		fprintf(stderr, "usage: mem-write PID\n");
		return 2;
	}
	pid = atoi(argv[1]);
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	maps = fopen(path, "re");
	if (!maps) {
		say("maps", errno);
		return 0;
	}
	while (fgets(line, sizeof(line), maps))
		if (sscanf(line, "%lx-%lx %7s", &addr, &end, perms) == 3 && !strncmp(perms, "rw", 2))
			break;
	fclose(maps);
	say("maps", addr ? 0 : ENOENT);
	if (!addr)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	say("mem", through_file(path, addr));
	snprintf(path, sizeof(path), "/proc/%d/root/proc/%d/mem", pid, pid);
	say("root-mem", through_file(path, addr));
	remote = (struct iovec){ (void *)addr, sizeof(b) };
	say("vm-readv", process_vm_readv(pid, &local, 1, &remote, 1, 0) == sizeof(b) ? 0 : errno);
	/* The bytes to write back, read as the filter and the mount allow, else no write. */
	if (process_vm_readv(pid, &local, 1, &remote, 1, 0) != sizeof(b)) {
		int fd;

		snprintf(path, sizeof(path), "/proc/%d/mem", pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);

		if (fd < 0 || pread(fd, b, sizeof(b), (off_t)addr) != sizeof(b)) {
			printf("vm-writev untried: its bytes unread\n");
			addr = 0;
		}
		if (fd >= 0)
			close(fd);
	}
	if (addr)
		say("vm-writev", process_vm_writev(pid, &local, 1, &remote, 1, 0) == sizeof(b) ? 0 : errno);
	fflush(stdout);
	return 0;
}
