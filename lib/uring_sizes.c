// SPDX-License-Identifier: GPL-2.0-or-later
#include "procfs.h"
#include "uring_sizes.h"

#define RINGS_HEADER 64		/* struct io_rings up to the cache-aligned cqes[] */
#define RINGS_HEADER_5_11 320	/* 5.10, 5.11: head and tail each on a cache line */
#define CQE_BYTES 16
#define SQE_BYTES 64

uint32_t uring_roundup_entries(uint32_t entries)
{
	uint32_t v = 1;

	while (v < entries && v < (1u << 31))
		v <<= 1;
	return v;
}

static uint64_t page_align(uint64_t v, uint64_t page)
{
	return (v + page - 1) / page * page;
}

/* The kernel's get_order(): the power of two of pages that holds v. */
static uint64_t pow2_pages(uint64_t v, uint64_t page)
{
	uint64_t n = page;

	while (n < v)
		n <<= 1;
	return n;
}

/* rings_size(): the CQ ring, cache-line aligned, then the SQ index array. */
static uint64_t rings_region(uint64_t header, uint32_t sq_entries, uint32_t cq_entries)
{
	uint64_t rings = header + (uint64_t)cq_entries * CQE_BYTES;

	return (rings + 63) / 64 * 64 + (uint64_t)sq_entries * 4;
}

uint64_t uring_ring_bytes(uint32_t sq_entries, uint32_t cq_entries, uint64_t page_size)
{
	if (!page_size)
		page_size = 4096;	/* unknown: x86-64's */
	sq_entries = uring_roundup_entries(sq_entries);
	cq_entries = uring_roundup_entries(cq_entries);
	return page_align(rings_region(RINGS_HEADER, sq_entries, cq_entries), page_size) +
	       page_align((uint64_t)sq_entries * SQE_BYTES, page_size);
}

bool uring_rings_charged_to_memlock(uint32_t kernel_code)
{
	return kernel_code < KV(5, 12, 0) || kernel_code >= KV(6, 14, 0);
}

uint64_t uring_ring_charge(uint32_t kernel_code, uint32_t sq_entries, uint32_t cq_entries,
			   uint64_t page_size)
{
	if (!uring_rings_charged_to_memlock(kernel_code))
		return 0;
	if (kernel_code >= KV(6, 14, 0))
		return uring_ring_bytes(sq_entries, cq_entries, page_size);
	if (!page_size)
		page_size = 4096;
	sq_entries = uring_roundup_entries(sq_entries);
	cq_entries = uring_roundup_entries(cq_entries);
	return pow2_pages(rings_region(RINGS_HEADER_5_11, sq_entries, cq_entries), page_size) +
	       pow2_pages((uint64_t)sq_entries * SQE_BYTES, page_size);
}
