// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uringlint report merge FILE...: JSON reports from many hosts (collected by
 * Ansible, Salt or ssh) become one fleet report: per check, how many hosts
 * pass, warn or fail, and which hosts fail. Any format can render it.
 */
#include <json-c/json.h>
#include <stdlib.h>

#include "cmd.h"
#include "output.h"
#include "merge.h"
#include "xalloc.h"

struct tally {
	unsigned int hosts[STATUS__COUNT];
	struct json_object *failing, *warning;
};

static int add_host(const char *file, struct tally *t, unsigned int *unknown)
{
	struct json_object *doc;
	const char *hostname;
	char *host = NULL;
	size_t i;
	int *worst, ret;

	ret = strict_json_read(file, &doc);
	if (ret)
		return ret;
	worst = xcalloc(check_table_len, sizeof(*worst));
	ret = merge_read_host(file, doc, worst, &hostname, unknown);
	if (!ret)
		host = text_cut(hostname, REPORT_ECHO_HOSTNAME);
	for (i = 0; !ret && i < check_table_len; i++) {
		if (worst[i] < 0)
			continue;
		t[i].hosts[worst[i]]++;
		if (worst[i] == STATUS_FAIL || worst[i] == STATUS_ERROR)
			json_object_array_add(t[i].failing, json_bytes_string(host));
		else if (worst[i] == STATUS_WARN)
			json_object_array_add(t[i].warning, json_bytes_string(host));
	}
	free(host);
	free(worst);
	json_object_put(doc);
	return ret;
}

static void hosts_list(struct json_object *arr, char *buf, size_t bufsz)
{
	size_t i, n = json_object_array_length(arr), used = 0;

	buf[0] = '\0';
	for (i = 0; i < n && used + 8 < bufsz; i++) {
		int w = snprintf(buf + used, bufsz - used, "%s%s", i ? ", " : "",
				 json_object_get_string(json_object_array_get_idx(arr, i)));

		if (w < 0 || (size_t)w >= bufsz - used) {
			snprintf(buf + bufsz - 5, 5, "...");
			break;
		}
		used += (size_t)w;
	}
}

int cmd_report_merge(int argc, char **argv, struct global_opts *g)
{
	struct tally *t = xcalloc(check_table_len, sizeof(*t));
	unsigned int unknown = 0, nhosts = 0;
	struct report r;
	char fail[1024], warn[1024];
	size_t i;
	int c, ret = 0;

	while ((c = cmd_getopt(argc, argv, g, &ret)) != -1)
		;	/* report merge has no options of its own */
	if (ret)
		goto out;
	if (optind >= argc) {
		ret = usage_error("report merge needs JSON reports (uringlint --format json ...)");
		goto out;
	}
	for (i = 0; i < check_table_len; i++) {
		t[i].failing = json_object_new_array();
		t[i].warning = json_object_new_array();
	}
	for (; optind < argc; optind++, nhosts++) {
		ret = add_host(argv[optind], t, &unknown);
		if (ret)
			goto out_tally;
	}
	report_init(&r, "merge");
	snprintf(r.host.hostname, sizeof(r.host.hostname), "fleet of %u host%s", nhosts,
		 nhosts == 1 ? "" : "s");
	r.host.live = false;
	if (unknown)
		report_note(&r, "%u findings of checks this uringlint does not know were left out",
			    unknown);
	for (i = 0; i < check_table_len; i++) {
		const struct tally *x = &t[i];
		unsigned int seen = 0, s;
		enum check_status worst = STATUS_PASS;
		struct finding *f;

		for (s = 0; s < STATUS__COUNT; s++) {
			seen += x->hosts[s];
			if (x->hosts[s] && s > worst)
				worst = (enum check_status)s;
		}
		if (!seen)
			continue;
		/* A check skipped everywhere is a skip; skipped on some hosts only, it is not. */
		if (worst == STATUS_SKIP && (x->hosts[STATUS_PASS] || x->hosts[STATUS_INFO]))
			worst = x->hosts[STATUS_INFO] ? STATUS_INFO : STATUS_PASS;
		hosts_list(x->failing, fail, sizeof(fail));
		hosts_list(x->warning, warn, sizeof(warn));
		f = report_add(&r, &check_table[i].info, worst, "fleet",
			       "%u host%s: %u pass, %u warn, %u fail, %u skip, %u error%s%s%s%s%s",
			       seen, seen == 1 ? "" : "s", x->hosts[STATUS_PASS], x->hosts[STATUS_WARN],
			       x->hosts[STATUS_FAIL], x->hosts[STATUS_SKIP], x->hosts[STATUS_ERROR],
			       fail[0] ? "; failing: " : "", fail, warn[0] ? "; warning: " : "", warn,
			       "");
		for (s = 0; s < STATUS__COUNT; s++)
			finding_ev_int(f, status_name((enum check_status)s), x->hosts[s]);
		json_object_object_add(f->evidence, "failing_hosts", json_object_get(x->failing));
		json_object_object_add(f->evidence, "warning_hosts", json_object_get(x->warning));
	}
	ret = cmd_emit_report(g, &r);
	report_free(&r);
out_tally:
	for (i = 0; i < check_table_len; i++) {
		json_object_put(t[i].failing);
		json_object_put(t[i].warning);
	}
out:
	free(t);
	return ret;
}
