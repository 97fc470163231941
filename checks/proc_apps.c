// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Findings in the application's own words: which known application a
 * process is (lib/apps/app_fixes.tbl), which of its files it drives through
 * io_uring, and its setting that fixes a finding, next to the
 * syscall-level fix.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps.h"
#include "proc_container.h"
#include "output.h"
#include "checks.h"

static const struct app_fixes *table(void)
{
	static struct app_fixes t;
	static int err = 1;

	/* Parsed once: the table is compiled in and the same for every process. */
	if (err > 0)
		err = app_fixes_builtin(&t);
	return err ? NULL : &t;
}

const struct app_entry *proc_app(const struct proc_facts *pf)
{
	const struct app_fixes *t = table();

	if (!t)
		return NULL;
	return app_fixes_match(t, pf->comm, pf->exe[0] ? pf->exe : NULL,
			       (const char *const *)pf->maps.libs, pf->maps.nlibs);
}

void check_ctx_set_proc(struct check_ctx *ctx, const struct proc_facts *pf)
{
	ctx->proc = pf;
	ctx->app_of = pf;
	ctx->app = pf ? proc_app(pf) : NULL;
}

const struct app_entry *check_ctx_app(const struct check_ctx *ctx)
{
	if (!ctx->proc)
		return NULL;
	return ctx->app_of == ctx->proc ? ctx->app : proc_app(ctx->proc);
}

/* How a QEMU drive opens its image, for the finding's fix and evidence. */
static void qemu_drive_evidence(struct finding *fi, const struct qemu_drive *dr)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return;
	json_object_object_add(o, "option", json_object_new_string(dr->option));
	json_object_object_add(o, "file", json_object_new_string(dr->file));
	json_object_object_add(o, "aio", dr->aio[0] ? json_object_new_string(dr->aio) : NULL);
	json_object_object_add(o, "cache", dr->cache[0] ? json_object_new_string(dr->cache) : NULL);
	json_object_object_add(o, "direct", json_object_new_boolean(dr->direct));
	json_object_object_add(o, "io_uring", json_object_new_boolean(dr->uring));
	json_object_object_add(fi->evidence, "qemu_drive", o);
}

/*
 * The option of a QEMU drive that decides a kind of finding, as its command
 * line gave it: the cache mode for a buffered image, the engine when it is
 * not on io_uring. "" when the drive's options are not what the finding is about.
 */
static void qemu_drive_says(const struct qemu_drive *dr, enum app_fix_kind kind, char *out,
			    size_t outsz)
{
	bool tool = dr->option[0] != '-';	/* qemu-nbd, qemu-io: FILENAME, --aio, --cache */

	out[0] = '\0';
	if (tool && kind == APP_FIX_BUFFERED && !dr->direct)
		snprintf(out, outsz, "%s opens %s with %s%s%s", dr->option, dr->file,
			 dr->cache[0] ? "--cache=" : "no --cache (", dr->cache[0] ? dr->cache :
			 dr->default_cache ? dr->default_cache : "writeback",
			 dr->cache[0] ? "" : ", the default)");
	else if (tool && kind == APP_FIX_NO_URING && !dr->uring)
		snprintf(out, outsz, "%s opens %s with %s%s", dr->option, dr->file,
			 dr->aio[0] ? "--aio=" : "no --aio (", dr->aio[0] ? dr->aio :
			 "threads, the default)");
	else if (tool)
		return;
	/* -blockdev says it with cache.direct (off by default), -drive with cache=. */
	else if (kind == APP_FIX_BUFFERED && !dr->direct && !strcmp(dr->option, "-blockdev"))
		snprintf(out, outsz, "this image is -blockdev filename=%s with %s", dr->file,
			 dr->direct_set ? "cache.direct=off" : "no cache.direct (off, the default)");
	else if (kind == APP_FIX_BUFFERED && !dr->direct && dr->direct_set)
		snprintf(out, outsz, "this image is %s file=%s with cache.direct=off", dr->option,
			 dr->file);
	else if (kind == APP_FIX_BUFFERED && !dr->direct)
		snprintf(out, outsz, "this image is %s file=%s with %s%s", dr->option, dr->file,
			 dr->cache[0] ? "cache=" : "no cache= (", dr->cache[0] ? dr->cache :
			 "writeback, the default)");
	else if (kind == APP_FIX_NO_URING && !dr->uring)
		snprintf(out, outsz, "%s %s=%s has %s%s", dr->option,
			 strcmp(dr->option, "-blockdev") ? "file" : "filename", dr->file,
			 dr->aio[0] ? "aio=" : "no aio= (", dr->aio[0] ? dr->aio : "threads, the default)");
}

/*
 * What smb.conf says against io_uring, for a process whose ring is idle or
 * missing: the shares on vfs_io_uring with an aio size of 0, or no share on it.
 */
static void smb_conf_says(const struct proc_facts *pf, char *says, size_t sayssz)
{
	size_t i, on = 0;

	for (i = 0; i < pf->smb.n; i++) {
		const struct smb_share *sh = &pf->smb.v[i];

		if (!sh->uring)
			continue;
		on++;
		if (!sh->aio_read_size || !sh->aio_write_size)
			catf(says, sayssz, "%s[%s] aio read size = %ld, aio write size = %ld",
			     says[0] ? "; " : "", sh->name, sh->aio_read_size, sh->aio_write_size);
	}
	if (!on && pf->smb.n && !pf->smb.includes)
		catf(says, sayssz, "no share has vfs objects = io_uring");
}

/*
 * What a MariaDB server's option files or command line say against a kind
 * of finding: the setting that opens InnoDB's data files without O_DIRECT,
 * or keeps it off io_uring; from: where it was set. path, when given, is a
 * file io_uring drives: the redo log is not what the flush method decides.
 */
static bool mariadb_says(const struct my_cnf *c, const struct app_entry *app,
			 enum app_fix_kind kind, const char *path, char *says, size_t sayssz,
			 const char **from)
{
	const struct my_cnf_value *v = NULL;

	if (kind == APP_FIX_BUFFERED && (!path || app_entry_uses_uring(app, path)))
		my_cnf_buffered(c, &v);
	else if (kind == APP_FIX_NO_URING)
		my_cnf_no_uring(c, &v);
	if (!v)
		return false;
	snprintf(says, sayssz, "%s = %s", my_cnf_name(c, v), v->value);
	*from = v->from;
	return true;
}

/* A file's path, marked when it is a container's (read in its root). */
static void from_file(const struct proc_facts *pf, const char *path, char from[APP_FROM_MAX])
{
	snprintf(from, APP_FROM_MAX, "%s%s", path, proc_container_where(pf));
}

/* The QEMU programs whose images and options pf->qemu holds. */
static bool app_is_qemu(const struct app_entry *app)
{
	static const char *const ids[] = { "qemu-system", "qemu-storage-daemon", "qemu-nbd",
					   "qemu-io" };
	size_t i;

	for (i = 0; app && i < sizeof(ids) / sizeof(ids[0]); i++)
		if (!strcmp(app->id, ids[i]))
			return true;
	return false;
}

bool proc_app_config_says(const struct check_ctx *ctx, enum app_fix_kind kind, const char *path,
			  char *says, size_t sayssz, const struct qemu_drive **drive,
			  char from[APP_FROM_MAX])
{
	const struct proc_facts *pf = ctx->proc;
	const struct app_entry *app = check_ctx_app(ctx);
	const struct qemu_drive *dr;
	const char *file;
	size_t i;

	says[0] = '\0';
	*drive = NULL;
	snprintf(from, APP_FROM_MAX, "its command line");
	if (!app || !pf)
		return false;
	if (!strcmp(app->id, "samba") && kind == APP_FIX_NO_URING && pf->smb_conf_path[0]) {
		from_file(pf, pf->smb_conf_path, from);
		smb_conf_says(pf, says, sayssz);
		return says[0];
	}
	if (!strcmp(app->id, "mariadb") && pf->mariadb) {
		file = NULL;
		if (!mariadb_says(pf->mariadb, app, kind, path, says, sayssz, &file))
			return false;
		/* A setting on the command line names no file. */
		if (file && strcmp(file, "its command line"))
			from_file(pf, file, from);
		else if (file)
			snprintf(from, APP_FROM_MAX, "%s", file);
		return true;
	}
	if (!app_is_qemu(app) || !pf->qemu.n)
		return false;
	if (path) {
		dr = qemu_drive_of(&pf->qemu, path);
		if (dr)
			qemu_drive_says(dr, kind, says, sayssz);
		*drive = says[0] ? dr : NULL;
		return says[0];
	}
	/* Not one file: every drive the finding is about. */
	for (i = 0; i < pf->qemu.n; i++) {
		char one[512];

		qemu_drive_says(&pf->qemu.v[i], kind, one, sizeof(one));
		if (one[0])
			catf(says, sayssz, "%s%s", says[0] ? "; " : "", one);
	}
	return says[0];
}

void proc_app_fix_file(const struct check_ctx *ctx, struct finding *fi, enum app_fix_kind kind,
		       const char *path)
{
	const struct qemu_drive *dr;
	char says[1024], from[APP_FROM_MAX];
	char *old;

	proc_app_fix(ctx, fi, kind);
	if (!proc_app_config_says(ctx, kind, path, says, sizeof(says), &dr, from))
		return;
	if (dr)
		qemu_drive_evidence(fi, dr);
	old = finding_fix(fi) ? strdup(finding_fix(fi)) : NULL;
	finding_set_fix(fi, "%s%s(%s: %s)", old ? old : "", old ? " " : "", from, says);
	free(old);
	finding_ev_str(fi, "application_config", says);
}

void proc_app_fix(const struct check_ctx *ctx, struct finding *fi, enum app_fix_kind kind)
{
	const struct app_entry *app = check_ctx_app(ctx);
	const struct app_fix *fix;
	char *old, where[480];

	if (!app || !(fix = app_fixes_find(table(), app, kind)))
		return;
	finding_ev_str(fi, "application", app->id);
	/*
	 * A fix is printed only when a test applied it and saw the finding go
	 * (the table's Tested): the others are in the evidence, said untested.
	 */
	if (!fix->tested) {
		finding_ev_str(fi, "application_setting_untested", fix->setting);
		return;
	}
	old = finding_fix(fi) ? strdup(finding_fix(fi)) : NULL;
	proc_container_run(ctx->proc, where, sizeof(where));
	finding_set_fix(fi, "%s%sin %s: %s (%s)%s", old ? old : "", old ? "; " : "", app->name,
			fix->setting, fix->reference, where);
	free(old);
	finding_ev_str(fi, "application_setting", fix->setting);
	finding_ev_str(fi, "application_fix_tested", fix->tested);
}

void proc_container_run(const struct proc_facts *pf, char *buf, size_t n)
{
	const char *rt = pf->owner.o.container.runtime;
	char how[CGROUP_NAME_MAX + 32];

	buf[0] = '\0';
	if (!fact_ok(&pf->owner.e) || !rt)
		return;
	/* The runtime's own way in where it has one and the container's name or id is known. */
	proc_container_enter(pf, how, sizeof(how));
	/* Whatever the runtime: its namespaces entered through the process, as root on the host. */
	snprintf(buf, n, "; inside its %s%s, not on the host: %s%snsenter -t %d -m -u -i -n -p",
		 strcmp(rt, "namespaces") ? rt : "own namespaces",
		 strcmp(rt, "namespaces") ? " container" : "", how, how[0] ? ", or " : "", (int)pf->pid);
}
