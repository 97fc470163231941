// SPDX-License-Identifier: GPL-2.0-or-later
#include "kernel_version.h"
#include "uring_sizes.h"

#define RINGS_HEADER 64	/* struct io_rings up to the cache-aligned cqes[] */
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

uint64_t uring_ring_bytes(uint32_t sq_entries, uint32_t cq_entries, uint64_t page_size)
{
	uint64_t rings, sqes;

	sq_entries = uring_roundup_entries(sq_entries);
	cq_entries = uring_roundup_entries(cq_entries);
	rings = RINGS_HEADER + (uint64_t)cq_entries * CQE_BYTES;
	rings = (rings + 63) / 64 * 64 + (uint64_t)sq_entries * 4;
	sqes = (uint64_t)sq_entries * SQE_BYTES;
	return page_align(rings, page_size) + page_align(sqes, page_size);
}

bool uring_rings_charged_to_memlock(uint32_t kernel_code)
{
	return kernel_code < KV(5, 12, 0) || kernel_code >= KV(6, 14, 0);
}
