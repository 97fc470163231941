// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A tracepoint's format file, then the same bytes read as a raw record
 * with the fields it declared: offsets and __data_loc strings must never
 * reach outside the record.
 */
#include "fuzz.h"
#include "tracefs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), buf[24];
	struct tp_format fmt = { 0 };
	unsigned int i;
	uint64_t v;

	tp_format_parse(text, &fmt);
	for (i = 0; i < fmt.nfields; i++) {
		tp_field_u64(&fmt.fields[i], data, (uint32_t)size, &v);
		tp_field_str(&fmt.fields[i], data, (uint32_t)size, buf, sizeof(buf));
	}
	free(text);
	return 0;
}
