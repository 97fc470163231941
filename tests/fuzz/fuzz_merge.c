// SPDX-License-Identifier: GPL-2.0-or-later
/* A JSON report as `report merge` reads it from another host. */
#include <json-c/json.h>

#include "fuzz.h"
#include "checks.h"
#include "merge.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct json_object *doc = json_tokener_parse(text);
	int *worst = calloc(check_table_len, sizeof(*worst));
	const char *hostname;
	unsigned int unknown = 0;

	if (!worst)
		abort();
	if (doc)
		merge_read_host("fuzz.json", doc, worst, &hostname, &unknown);
	json_object_put(doc);
	free(worst);
	free(text);
	return 0;
}
