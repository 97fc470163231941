// SPDX-License-Identifier: GPL-2.0-or-later
/* uringlint's own capabilities (see caps.h). */
#include <errno.h>
#include <linux/capability.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "caps.h"

/* The two 32-bit words of each set (version 3), 0 or -errno. */
static int caps_get(struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3])
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };

	memset(data, 0, sizeof(*data) * _LINUX_CAPABILITY_U32S_3);
	return syscall(SYS_capget, &hdr, data) ? -errno : 0;
}

bool cap_effective(unsigned int cap)
{
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (cap >= 32 * _LINUX_CAPABILITY_U32S_3 || caps_get(data))
		return false;
	return data[cap / 32].effective & (1u << (cap % 32));
}

bool cap_any_effective(void)
{
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	return !caps_get(data) && (data[0].effective || data[1].effective);
}

int cap_drop_all(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = { 0 };

	return syscall(SYS_capset, &hdr, data) ? -errno : 0;
}

bool may_trace(void)
{
	return geteuid() == 0 || cap_effective(CAP_PERFMON) || cap_effective(CAP_SYS_ADMIN);
}
