// SPDX-License-Identifier: GPL-2.0-or-later
/* A JSON report as `report merge` and `report diff` read it from another host. */
#include <json-c/json.h>

#include "fuzz.h"
#include "checks.h"
#include "diff.h"
#include "merge.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct json_object *doc;
	int *worst = calloc(check_table_len, sizeof(*worst));
	const char *hostname;
	unsigned int unknown = 0;

	if (!worst)
		abort();
	if (!strict_json_parse("fuzz.json", text, strlen(text), &doc)) {
		struct diff_side a = { 0 }, b = { 0 };
		struct diff_counts counts;
		struct report r;

		merge_read_host("fuzz.json", doc, worst, &hostname, &unknown);
		/* report diff of the report against itself: each side holds a reference. */
		if (!diff_side_init(&a, "a.json", json_object_get(doc)) &&
		    !diff_side_init(&b, "b.json", json_object_get(doc))) {
			diff_sides(&a, &b, STATUS_WARN, &r, &counts);
			report_free(&r);
		}
		diff_side_free(&a);
		diff_side_free(&b);
	}
	json_object_put(doc);
	free(worst);
	free(text);
	return 0;
}
