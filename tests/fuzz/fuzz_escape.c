// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The escaping rule and the JSON form of untrusted names: whatever the
 * bytes, the escaped text is UTF-8 with no control character and within
 * its bound, and the JSON string is UTF-8. The first input byte picks the
 * flags and the bound.
 */
#include "output.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int flags = size ? data[0] & 3 : 0;
	size_t max = size && (data[0] & 4) ? 4 + (data[0] >> 3) : 0;
	char *text = fuzz_text(size ? data + 1 : data, size ? size - 1 : 0), *esc;
	struct json_object *o = json_object_new_object();
	size_t i;

	esc = escape_text(text, max, flags);
	if (!utf8_valid(esc) || (max && strlen(esc) > max))
		abort();
	for (i = 0; esc[i]; i++)
		if ((unsigned char)esc[i] < 0x20 || esc[i] == 0x7f)
			abort();
	json_add_bytes(o, "path", text);
	if (!utf8_valid(json_object_to_json_string(o)))
		abort();
	if (utf8_valid(text) != !json_object_object_get_ex(o, "path_base64", NULL))
		abort();
	json_object_put(o);
	free(esc);
	free(text);
	return 0;
}
