/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_URING_SIZES_H
#define URINGLINT_URING_SIZES_H

#include <stdbool.h>
#include <stdint.h>

/* Round up to the power of two the kernel uses for ring sizes. */
uint32_t uring_roundup_entries(uint32_t entries);

/*
 * Bytes of ring memory one io_uring_setup() allocates on 6.14 and later
 * (io_allocate_scq_urings): the rings region (64-byte struct io_rings
 * header, cq_entries CQEs of 16 bytes, cache-line aligned, then the u32 SQ
 * index array) plus the SQE array (64 bytes each), each rounded up to
 * pages. This is liburing's default layout: no SQE128, CQE32 or NO_SQARRAY.
 */
uint64_t uring_ring_bytes(uint32_t sq_entries, uint32_t cq_entries, uint64_t page_size);

/*
 * Whether io_uring_setup() charges ring memory to the owner's
 * RLIMIT_MEMLOCK: up to 5.11 (io_account_mem), not from 5.12 (memcg), and
 * again from 6.14 (io_create_region). Registered buffers are charged on every
 * kernel. Callers with CAP_IPC_LOCK are never charged.
 */
bool uring_rings_charged_to_memlock(uint32_t kernel_code);

/*
 * What one io_uring_setup() charges to RLIMIT_MEMLOCK on kernel
 * kernel_code for a caller without CAP_IPC_LOCK, in bytes: 0 on 5.12 to
 * 6.13. 6.14 and later charge each region's pages (uring_ring_bytes());
 * 5.10 and 5.11 charged ring_pages(): each region rounded up to a power of
 * two of pages (get_order), with the larger header of that time (head and
 * tail on cache lines of their own: 320 bytes up to the CQEs).
 */
uint64_t uring_ring_charge(uint32_t kernel_code, uint32_t sq_entries, uint32_t cq_entries,
			   uint64_t page_size);

#endif
