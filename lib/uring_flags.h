/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_URING_FLAGS_H
#define URINGLINT_URING_FLAGS_H

#include <stddef.h>
#include <stdint.h>

/*
 * io_uring_setup()'s flags (include/uapi/linux/io_uring.h). liburing 2.3's
 * headers stop at DEFER_TASKRUN, so the bits are spelled out here; a bit
 * past the table is named by its number.
 */
#define URING_SETUP_SQPOLL (1u << 1)
#define URING_SETUP_ATTACH_WQ (1u << 5)
#define URING_SETUP_COOP_TASKRUN (1u << 8)
#define URING_SETUP_SINGLE_ISSUER (1u << 12)
#define URING_SETUP_DEFER_TASKRUN (1u << 13)

/* The name of bit b ("SQPOLL"), or NULL past the table. */
const char *uring_setup_flag_name(unsigned int b);
/* "SQPOLL|SQ_AFF|bit 30", or "no setup flags"; cut at n, never overrun. */
void uring_setup_flags_format(uint32_t flags, char *buf, size_t n);

#endif
