// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * net-busy-poll: io_uring's NAPI busy polling as each ring registered it
 * (fdinfo of 6.12+), judged with the devices' interrupt deferral: a ring
 * that polls for 0 ns polls nothing, and prefer_busy_poll without
 * napi_defer_hard_irqs and gro_flush_timeout keeps the interrupts it means
 * to replace. Loopback traffic carries no NAPI id: nothing to poll.
 */
#include <stdio.h>
#include <string.h>

#include "checks.h"

static bool loopback_addr(const struct proc_socket *s)
{
	static const uint8_t v6_loop[16] = { [15] = 1 };
	static const uint8_t v4_mapped[12] = { [10] = 0xff, [11] = 0xff };

	if (!net_proto_v6(s->proto))
		return s->in.local[0] == 127;
	return !memcmp(s->in.local, v6_loop, 16) ||
	       (!memcmp(s->in.local, v4_mapped, 12) && s->in.local[12] == 127);
}

/*
 * Whether the process's traffic can only be on loopback: it has inet
 * sockets, all bound to a loopback address, and none that the tables do
 * not identify. Otherwise which device carries it cannot be told here.
 */
static bool loopback_only(const struct proc_sockets *ps)
{
	size_t i, inet = 0;

	for (i = 0; i < ps->n; i++) {
		const struct proc_socket *s = &ps->v[i];

		if (s->proto == NET_UNIX)
			continue;
		if (s->proto == NET_OTHER || !loopback_addr(s))
			return false;
		inet++;
	}
	return inet > 0;
}

/* The busy-poll sysctls in words: global, shown only in the initial network namespace. */
static void busy_sysctls(const struct host_facts *hf, char *buf, size_t n)
{
	if (fact_ok(&hf->busy_read.e) && fact_ok(&hf->busy_poll.e))
		snprintf(buf, n, "net.core.busy_read %lld and busy_poll %lld (socket busy polling "
			 "of blocking reads and poll/select; io_uring's own polling does not use "
			 "them)", (long long)hf->busy_read.value, (long long)hf->busy_poll.value);
	else
		snprintf(buf, n, "net.core.busy_read and busy_poll not read (%s; they are global "
			 "and only the initial network namespace shows them)",
			 fact_ok(&hf->busy_read.e) ? hf->busy_poll.e.why : hf->busy_read.e.why);
}

struct dev_view {
	char text[512];
	size_t used;
	unsigned int considered, readable, deferred;
	const char *why;	/* a device's knobs could not be read */
};

/* The non-loopback devices, each with its two knobs; which of them defer interrupts. */
static void devices(const struct net_devs *d, struct dev_view *v)
{
	size_t i;
	int w;

	for (i = 0; i < d->n; i++) {
		const struct net_dev_napi *nd = &d->v[i];
		bool deferred;

		if (nd->loopback)
			continue;
		v->considered++;
		if (!fact_ok(&nd->e)) {
			v->why = nd->e.why;
			continue;
		}
		v->readable++;
		deferred = nd->defer_hard_irqs > 0 && nd->gro_flush_timeout > 0;
		v->deferred += deferred;
		w = snprintf(v->text + v->used, sizeof(v->text) - v->used,
			     "%s%s napi_defer_hard_irqs %lld gro_flush_timeout %lld", v->used ? ", " : "",
			     nd->name, (long long)nd->defer_hard_irqs, (long long)nd->gro_flush_timeout);
		if (w > 0 && (size_t)w < sizeof(v->text) - v->used)
			v->used += (size_t)w;
	}
	if (d->left_out && v->used < sizeof(v->text))
		snprintf(v->text + v->used, sizeof(v->text) - v->used, " and %zu more not read",
			 d->left_out);
}

/* One ring that registered NAPI. */
static void judge_ring(const struct check *c, struct check_ctx *ctx, const struct proc_ring *r,
		       const char *sysctls)
{
	const struct host_facts *hf = ctx->host;
	const struct uring_fdinfo *u = &r->u;
	struct dev_view v = { .used = 0 };
	char subject[64], setting[160];
	struct finding *fi;

	snprintf(subject, sizeof(subject), "pid %d ring fd %d", (int)ctx->proc->pid, r->fd);
	if (!u->has_napi_dt || !u->has_napi_prefer) {
		proc_add(c, ctx, STATUS_SKIP, subject, "NAPI enabled, but fdinfo printed no "
			 "napi_busy_poll_dt or napi_prefer_busy_poll line: its settings are not known");
		return;
	}
	snprintf(setting, sizeof(setting), "NAPI registered%s%s%s, busy-poll time %llu ns, "
		 "prefer_busy_poll %s", u->napi_tracking[0] ? " (tracking " : "", u->napi_tracking,
		 u->napi_tracking[0] ? ")" : "", (unsigned long long)u->napi_busy_poll_dt_ns,
		 u->napi_prefer_busy_poll ? "on" : "off");
	if (!u->napi_busy_poll_dt_ns) {
		fi = proc_add(c, ctx, STATUS_FAIL, subject,
			      "%s: a busy-poll time of 0 polls nothing, so the registration "
			      "(IORING_REGISTER_NAPI with busy_poll_to 0) is a misconfiguration; %s",
			      setting, sysctls);
		finding_set_fix(fi, "register NAPI with the time to poll in busy_poll_to (microseconds, "
				"tens to a few hundred), or do not register it");
		goto evidence;
	}
	if (loopback_only(&ctx->proc->sockets)) {
		fi = proc_add(c, ctx, STATUS_WARN, subject,
			      "%s, but every socket of the process is on loopback, whose traffic "
			      "carries no NAPI id: nothing is busy-polled; %s", setting, sysctls);
		finding_set_fix(fi, "busy polling helps only traffic of a NIC's NAPI instances; on "
				"loopback, do not register NAPI");
		goto evidence;
	}
	if (!fact_ok(&hf->netdevs.e)) {
		proc_add(c, ctx, STATUS_SKIP, subject, "%s; the devices could not be listed (%s): "
			 "whether they defer interrupts is not known", setting, hf->netdevs.e.why);
		return;
	}
	devices(&hf->netdevs, &v);
	if (!v.considered) {
		fi = proc_add(c, ctx, STATUS_WARN, subject,
			      "%s, but this network namespace has no device but loopback, whose "
			      "traffic carries no NAPI id: nothing is busy-polled; %s", setting, sysctls);
		finding_set_fix(fi, "busy polling helps only traffic of a NIC's NAPI instances");
		goto evidence;
	}
	if (!v.readable) {
		proc_add(c, ctx, STATUS_SKIP, subject, "%s; no device's interrupt deferral could be "
			 "read (%s)", setting, v.why ? v.why : "none");
		return;
	}
	if (u->napi_prefer_busy_poll && !v.deferred) {
		fi = proc_add(c, ctx, STATUS_WARN, subject,
			      "%s, but with napi_defer_hard_irqs and gro_flush_timeout 0 on every "
			      "device (which one carries its traffic cannot be told here: %s), "
			      "prefer_busy_poll does nothing: the device interrupts are not deferred, "
			      "so the busy poll competes with them; %s", setting, v.text, sysctls);
		finding_set_fix(fi, "on the service's NIC: echo 2 > "
				"/sys/class/net/DEV/napi_defer_hard_irqs and echo 200000 > "
				"/sys/class/net/DEV/gro_flush_timeout (or the per-NAPI settings of "
				"netdev-genl), then measure; or register without prefer_busy_poll");
		goto evidence;
	}
	fi = proc_add(c, ctx, STATUS_PASS, subject, "%s; devices: %s%s; %s", setting, v.text,
		      u->napi_prefer_busy_poll
			      ? " (interrupts deferred on at least one, which prefer_busy_poll needs)"
			      : " (without prefer_busy_poll the interrupts stay on, and the busy "
				"poll runs alongside them)", sysctls);
evidence:
	finding_ev_int(fi, "busy_poll_dt_ns", (int64_t)u->napi_busy_poll_dt_ns);
	finding_ev_bool(fi, "prefer_busy_poll", u->napi_prefer_busy_poll);
}

void check_net_busy_poll(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	const struct host_facts *hf = ctx->host;
	unsigned int on = 0, off = 0, nolines = 0, unread = 0;
	char subject[64], sysctls[480];
	size_t i;

	if (!proc_usable(c, ctx, true))
		return;
	snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
	busy_sysctls(hf, sysctls, sizeof(sysctls));
	for (i = 0; i < pf->nrings; i++) {
		const struct proc_ring *r = &pf->rings[i];

		if (r->busy || !fact_ok(&r->e))
			unread++;
		else if (!r->u.has_napi)
			nolines++;
		else if (!r->u.napi_on)
			off++;
		else
			on++;
	}
	for (i = 0; on && i < pf->nrings; i++) {
		const struct proc_ring *r = &pf->rings[i];

		if (!r->busy && fact_ok(&r->e) && r->u.has_napi && r->u.napi_on)
			judge_ring(c, ctx, r, sysctls);
	}
	if (on)
		return;
	if (nolines && fact_ok(&hf->kernel.e) &&
	    kernel_version_code(&hf->kernel.v) < KV(6, 12, 0)) {
		proc_add(c, ctx, STATUS_SKIP, subject, "kernels before 6.12 print no NAPI lines in "
			 "a ring's fdinfo (this one is %s): whether a ring registered NAPI busy "
			 "polling is not visible", hf->kernel.v.release);
		return;
	}
	if (nolines) {
		proc_add(c, ctx, STATUS_SKIP, subject, "%u ring%s printed no NAPI line: a kernel "
			 "before 6.12, or one built without CONFIG_NET_RX_BUSY_POLL (then io_uring "
			 "cannot busy poll); not judged", nolines, nolines == 1 ? "" : "s");
		return;
	}
	if (unread) {
		proc_add(c, ctx, STATUS_SKIP, subject, "%u ring%s without NAPI registered, and the "
			 "fdinfo of %u could not be read (its lock busy, or garbage): whether %s "
			 "busy-polls is not known", off, off == 1 ? "" : "s", unread,
			 unread == 1 ? "it" : "they");
		return;
	}
	proc_add(c, ctx, STATUS_SKIP, subject, "no ring of the process registered NAPI busy "
		 "polling (fdinfo says NAPI: disabled on %u ring%s): nothing to judge; %s",
		 off, off == 1 ? "" : "s", sysctls);
}
