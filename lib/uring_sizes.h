/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_URING_SIZES_H
#define URINGLINT_URING_SIZES_H

#include <stdbool.h>
#include <stdint.h>

/* Round up to the power of two the kernel uses for ring sizes. */
uint32_t uring_roundup_entries(uint32_t entries);

/*
 * Bytes of ring memory one io_uring_setup() pins: the rings region (64-byte
 * header, cq_entries CQEs of 16 bytes, cache-line aligned, then the u32 SQ
 * index array) plus the SQE array (64 bytes each), each rounded to pages.
 * This is what the kernel charges to RLIMIT_MEMLOCK when it charges rings.
 */
uint64_t uring_ring_bytes(uint32_t sq_entries, uint32_t cq_entries, uint64_t page_size);

/*
 * Whether io_uring_setup() charges ring memory to the owner's
 * RLIMIT_MEMLOCK: up to 5.11 (io_account_mem), not from 5.12 (memcg), and
 * again from 6.14 (io_create_region). Registered buffers are charged on every
 * kernel. Callers with CAP_IPC_LOCK are never charged.
 */
bool uring_rings_charged_to_memlock(uint32_t kernel_code);

#endif
