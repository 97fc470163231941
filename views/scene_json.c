// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The JSON of a scene: what was measured, and for each part that was not,
 * null with an "_error" key beside it saying why (never a zero).
 */
#include <math.h>

#include "output.h"
#include "scene_json.h"

static struct json_object *num(double v)
{
	/* Two decimals are what iostat prints; a rate past that is noise. */
	return json_object_new_double(round(v * 100) / 100);
}

/* key: obj when e holds nothing, else null and KEY_error: the reason. */
static void add_or_why(struct json_object *o, const char *key, const char *ekey,
		       const struct fact_err *e, struct json_object *obj)
{
	if (fact_ok(e)) {
		json_object_object_add(o, key, obj);
		return;
	}
	json_object_put(obj);
	json_object_object_add(o, key, NULL);
	json_object_object_add(o, ekey, json_bytes_string(e->why));
}

static struct json_object *dev_json(const struct scene_dev *d, bool windowed)
{
	struct json_object *o = json_object_new_object();

	json_add_bytes(o, "name", d->name);
	json_object_object_add(o, "major", json_object_new_int((int)d->major));
	json_object_object_add(o, "minor", json_object_new_int((int)d->minor));
	json_object_object_add(o, "role", json_object_new_string(scene_dev_role_name(d->role)));
	json_object_object_add(o, "in_flight", d->in_flight >= 0 ?
				json_object_new_int(d->in_flight) : NULL);
	if (!fact_ok(&d->e))
		json_object_object_add(o, "error", json_bytes_string(d->e.why));
	if (!windowed || !d->has_delta)
		return o;
	json_object_object_add(o, "r_s", num(d->io.r_s));
	json_object_object_add(o, "w_s", num(d->io.w_s));
	json_object_object_add(o, "rkb_s", num(d->io.rkb_s));
	json_object_object_add(o, "wkb_s", num(d->io.wkb_s));
	json_object_object_add(o, "r_await_ms", num(d->io.r_await));
	json_object_object_add(o, "w_await_ms", num(d->io.w_await));
	json_object_object_add(o, "aqu_sz", num(d->io.aqu_sz));
	json_object_object_add(o, "util_pct", num(d->io.util));
	json_object_object_add(o, "rareq_sz_kb", num(d->io.rareq_sz));
	json_object_object_add(o, "wareq_sz_kb", num(d->io.wareq_sz));
	json_object_object_add(o, "areq_sz_kb", num(d->io.areq_sz));
	return o;
}

static struct json_object *cpus_json(const struct scene *s)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();
	size_t i;

	json_object_object_add(o, "all", json_object_new_boolean(s->cpus_all));
	for (i = 0; i < s->ncpus; i++) {
		const struct scene_cpu *c = &s->cpus[i];
		struct json_object *x = json_object_new_object();

		json_object_object_add(x, "cpu", json_object_new_int(c->id));
		if (!fact_ok(&c->e)) {
			json_object_object_add(x, "error", json_bytes_string(c->e.why));
		} else {
			json_object_object_add(x, "us", num(c->us));
			json_object_object_add(x, "sy", num(c->sy));
			json_object_object_add(x, "id", num(c->id_pct));
			json_object_object_add(x, "wa", num(c->wa));
			json_object_object_add(x, "hi", num(c->hi));
			json_object_object_add(x, "si", num(c->si));
			json_object_object_add(x, "st", num(c->st));
		}
		json_object_array_add(a, x);
	}
	json_object_object_add(o, "list", a);
	return o;
}

static void host_json(struct json_object *o, const struct scene *s)
{
	struct json_object *load = json_object_new_array(), *mem = json_object_new_object();
	size_t i;

	for (i = 0; i < 3; i++)
		json_object_array_add(load, num(s->load[i]));
	add_or_why(o, "load", "load_error", &s->load_e, load);
	json_object_object_add(mem, "dirty_kb", json_object_new_int64((int64_t)s->dirty_kb));
	json_object_object_add(mem, "writeback_kb",
			       json_object_new_int64((int64_t)s->writeback_kb));
	json_object_object_add(mem, "dirty_threshold_kb",
			       json_object_new_int64((int64_t)s->dirty_thresh_kb));
	json_object_object_add(mem, "dirty_background_threshold_kb",
			       json_object_new_int64((int64_t)s->dirty_bg_thresh_kb));
	add_or_why(o, "memory", "memory_error", &s->mem_e, mem);
	add_or_why(o, "pgmajfault_per_s", "pgmajfault_error", &s->majflt_e,
		   num(s->pgmajfault_s));
}

struct json_object *scene_json(const struct scene *s)
{
	struct json_object *o = json_object_new_object(), *devs, *iowq;
	size_t i;

	json_object_object_add(o, "measured", json_object_new_boolean(fact_ok(&s->e)));
	if (!fact_ok(&s->e)) {
		json_object_object_add(o, "skip", json_bytes_string(s->e.why));
		return o;
	}
	json_object_object_add(o, "seconds", s->windowed ? num(s->seconds) : NULL);
	host_json(o, s);
	devs = json_object_new_array();
	for (i = 0; i < s->ndevs; i++)
		json_object_array_add(devs, dev_json(&s->devs[i], s->windowed));
	json_object_object_add(o, "devices", devs);
	json_object_object_add(o, "devices_left_out",
			       json_object_new_int64((int64_t)s->devs_left_out));
	add_or_why(o, "cpus", "cpus_error", &s->cpus_e, cpus_json(s));
	iowq = json_object_new_object();
	json_object_object_add(iowq, "cpu", num(s->iowq_cpu));
	json_object_object_add(iowq, "workers", json_object_new_int64(s->iowq_workers));
	json_object_object_add(iowq, "gone", json_object_new_int64(s->iowq_gone));
	json_object_object_add(iowq, "samples", json_object_new_int64(s->iowq_samples));
	json_object_object_add(iowq, "in_d_samples", json_object_new_int64(s->iowq_d_samples));
	json_object_object_add(iowq, "in_d_max", json_object_new_int64(s->iowq_d_max));
	add_or_why(o, "iowq", "iowq_error", &s->iowq_e, iowq);
	return o;
}
