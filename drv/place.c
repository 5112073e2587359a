// SPDX-License-Identifier: GPL-2.0
/*
 * Device memory and job placement: the user-level scheduler's probe.
 *
 * Each device has its preset's memory.  Two things hold it:
 *  - a registration's mem_bytes (struct edge_register VER4), for as
 *    long as the entry is registered: what the job allocated;
 *  - a reservation made by the netlink "place" command: the memory a job
 *    was placed with (MGB's task_begin), before it allocates.  It belongs
 *    to the requesting netlink socket and ends with "place-release", when
 *    that socket closes (NETLINK_URELEASE: the process exited or was
 *    killed) or with its device.
 * A registration by the process that placed the job (the same struct
 * pid, held by the reservation, so a reused PID is not the same process)
 * and user, on the device it was given, draws on that reservation
 * instead of being counted again;
 * what it drew stays counted while it is registered, even after the
 * reservation ends.  Anything that does not fit fails with ENOMEM and
 * changes nothing, so a device's memory in use never exceeds it.
 *
 * Users are charged alongside (limits.c): a reservation's bytes and a
 * registration's not drawn from one count to the user, and an
 * unprivileged one stops at max_user_mem_mb (-EDQUOT) and short of the
 * device's mem_reserved_pct (-ENOMEM, as a full device).
 *
 * Everything here is under edge_mem_lock, a leaf lock: never held while
 * taking another.  The placement reads each device's live load under its
 * model lock first (the front end steps the model only under it), then
 * chooses and reserves in one edge_mem_lock section: two placements, or a
 * placement and a registration, never both take the same free memory.
 */
#include <linux/list.h>
#include <linux/netlink.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <net/net_namespace.h>

#include "edge_drv.h"
#include "policy/place.h"

/* Reservations at once, all devices: past it, place is -ENOSPC. */
#define EDGE_RESV_MAX	4096
/* ... of which unprivileged users never take the last ones. */
#define EDGE_RESV_PRIV	512

struct edge_resv {
	struct list_head node;		/* in edge_resvs */
	/* Plugged: unplug drops the device's reservations first. */
	struct edge_device *ed;
	u64 id;
	u64 bytes;
	u64 drawn;			/* by registrations of @tgid on @ed */
	u32 portid;			/* the requesting socket */
	/* The requesting process: a reference, never a reused PID's. */
	struct pid *tgid;
	struct edge_user *user;		/* charged @bytes and one resv */
	u32 warps;			/* booked on @ed */
	u32 tbs;
};

static DEFINE_SPINLOCK(edge_mem_lock);
static LIST_HEAD(edge_resvs);
static u32 edge_nr_resvs;
static u64 edge_resv_next = 1;		/* ids are never reused */

void edge_mem_init(struct edge_device *ed)
{
	ed->mem_total = ed->model.preset->mem_bytes;
	edge_limits_init(ed);
}

/*
 * Would @bytes more fit on @ed for this caller?  An unprivileged one
 * sees the device without its mem_reserved_pct.  Under edge_mem_lock.
 */
static bool edge_mem_fits(struct edge_device *ed, u64 bytes, bool priv)
{
	u64 total = ed->mem_total;

	if (!priv)
		total -= min(total, edge_limit_mem_kept(ed));
	return ed->mem_used <= total && bytes <= total - ed->mem_used;
}

/* May @u hold @bytes more?  Under edge_mem_lock. */
static bool edge_user_mem_fits(const struct edge_user *u, u64 bytes,
			       bool priv)
{
	u64 cap = (u64)READ_ONCE(edge_max_user_mem_mb) << 20;

	return priv || !u || (u->mem <= cap && bytes <= cap - u->mem);
}

/* Under edge_mem_lock; @bytes fits. */
static void edge_mem_add(struct edge_device *ed, u64 bytes)
{
	ed->mem_used += bytes;
	if (ed->mem_used > ed->mem_peak)
		ed->mem_peak = ed->mem_used;
}

static void edge_mem_sub(struct edge_device *ed, u64 bytes)
{
	if (WARN_ON_ONCE(bytes > ed->mem_used))
		bytes = ed->mem_used;
	ed->mem_used -= bytes;
}

/**
 * edge_mem_charge_user() - hold @bytes of @ed's memory for a registration
 * @ed: device
 * @bytes: struct edge_register.mem_bytes; 0 holds nothing
 * @tgid: the registering process (task_tgid()), NULL for none
 * @u: the registering user, charged what is not drawn from a reservation
 *     (NULL: a kernel queue's)
 * @priv: CAP_SYS_ADMIN or the kernel: the whole device, no user cap
 * @resv_id: out: the reservation it drew on, or 0 (for uncharge)
 *
 * Return: 0, -ENOMEM (counted in mem_oom) when it does not fit (for an
 * unprivileged caller: in the device less its mem_reserved_pct), or
 * -EDQUOT past @u's max_user_mem_mb.
 */
int edge_mem_charge_user(struct edge_device *ed, u64 bytes, struct pid *tgid,
			 struct edge_user *u, bool priv, u64 *resv_id)
{
	struct edge_resv *r;
	int ret = 0;

	*resv_id = 0;
	if (!bytes)
		return 0;
	spin_lock(&edge_mem_lock);
	list_for_each_entry(r, &edge_resvs, node) {
		/* The same user: uncharge then gives back what place took. */
		if (r->ed == ed && tgid && r->tgid == tgid && r->user == u &&
		    r->bytes - r->drawn >= bytes) {
			r->drawn += bytes;
			*resv_id = r->id;
			goto out;
		}
	}
	if (!edge_mem_fits(ed, bytes, priv)) {
		ed->mem_oom++;
		ret = -ENOMEM;
		goto out;
	}
	if (!edge_user_mem_fits(u, bytes, priv)) {
		ret = -EDQUOT;
		goto out;
	}
	edge_mem_add(ed, bytes);
	if (u)
		u->mem += bytes;
out:
	spin_unlock(&edge_mem_lock);
	return ret;
}

/**
 * edge_mem_charge() - hold @bytes of @ed's memory for a kernel queue
 * @ed: device
 * @bytes: struct edge_register.mem_bytes; 0 holds nothing
 * @tgid: 0: the kernel has no placement to draw on
 * @resv_id: out: 0
 *
 * A kernel user takes the device's whole memory, its reserved share too.
 *
 * Return: 0, or -ENOMEM (counted in mem_oom) when it does not fit.
 */
int edge_mem_charge(struct edge_device *ed, u64 bytes, u32 tgid, u64 *resv_id)
{
	WARN_ON_ONCE(tgid);
	return edge_mem_charge_user(ed, bytes, NULL, NULL, true, resv_id);
}

/**
 * edge_mem_uncharge_user() - give back what edge_mem_charge_user() held
 * @ed: device
 * @bytes: as charged
 * @resv_id: as edge_mem_charge_user() returned it
 * @u: as charged
 *
 * Drawn from a reservation that still exists: back into it; otherwise
 * (none, or it ended and left the draw counted, to the same user) off
 * the device and the user.
 */
void edge_mem_uncharge_user(struct edge_device *ed, u64 bytes, u64 resv_id,
			    struct edge_user *u)
{
	struct edge_resv *r;

	if (!bytes)
		return;
	spin_lock(&edge_mem_lock);
	if (resv_id) {
		list_for_each_entry(r, &edge_resvs, node) {
			if (r->id != resv_id)
				continue;
			WARN_ON_ONCE(r->ed != ed || r->drawn < bytes);
			r->drawn -= min(bytes, r->drawn);
			goto out;
		}
	}
	edge_mem_sub(ed, bytes);
	if (u && !WARN_ON_ONCE(u->mem < bytes))
		u->mem -= bytes;
out:
	spin_unlock(&edge_mem_lock);
}

/* A kernel queue's (edge_mem_charge()). */
void edge_mem_uncharge(struct edge_device *ed, u64 bytes, u64 resv_id)
{
	edge_mem_uncharge_user(ed, bytes, resv_id, NULL);
}

/* Freed after edge_mem_lock: the references it holds. */
static void edge_resv_free(struct edge_resv *r)
{
	put_pid(r->tgid);
	edge_user_put(r->user);
	kfree(r);
}

/*
 * End @r: its undrawn memory goes back, what registrations drew from it
 * stays counted until they go.  Under edge_mem_lock; the caller frees.
 */
static void edge_resv_end(struct edge_resv *r)
{
	struct edge_device *ed = r->ed;

	edge_mem_sub(ed, r->bytes - r->drawn);
	/* What was drawn stays the user's until the registrations go. */
	r->user->mem -= r->bytes - r->drawn;
	r->user->resvs--;
	ed->mem_resv--;
	ed->resv_warps -= r->warps;
	ed->resv_tbs -= r->tbs;
	list_del(&r->node);
	edge_nr_resvs--;
}

/* End every reservation that @match()es; they are freed after the lock. */
static u32 edge_resv_end_all(bool (*match)(const struct edge_resv *r,
					   const void *arg), const void *arg)
{
	struct edge_resv *r, *tmp;
	LIST_HEAD(gone);
	u32 n = 0;

	spin_lock(&edge_mem_lock);
	list_for_each_entry_safe(r, tmp, &edge_resvs, node) {
		if (!match(r, arg))
			continue;
		edge_resv_end(r);
		list_add(&r->node, &gone);
		n++;
	}
	spin_unlock(&edge_mem_lock);
	list_for_each_entry_safe(r, tmp, &gone, node)
		edge_resv_free(r);
	return n;
}

static bool edge_resv_of_dev(const struct edge_resv *r, const void *ed)
{
	return r->ed == ed;
}

/**
 * edge_mem_unplug() - drop the reservations on a device going away
 * @ed: device, unplugged (no registration enters its model after it)
 *
 * Its registrations' memory goes as their files and queues let go.
 */
void edge_mem_unplug(struct edge_device *ed)
{
	edge_resv_end_all(edge_resv_of_dev, ed);
}

/* A snapshot of @ed's memory, for sysfs and netlink. */
void edge_mem_view(struct edge_device *ed, struct edge_mem_view *v)
{
	spin_lock(&edge_mem_lock);
	v->total = ed->mem_total;
	v->used = ed->mem_used;
	v->peak = ed->mem_peak;
	v->oom = ed->mem_oom;
	v->resv = ed->mem_resv;
	spin_unlock(&edge_mem_lock);
}

/**
 * edge_place() - choose a device for a job and reserve its memory there
 * @policy: placement policy id (edge_place_policy_find())
 * @mem: bytes the job needs
 * @threads: threads per block
 * @blocks: blocks per launch
 * @who: the requesting socket (the reservation's owner), process (its
 *       registrations draw on it) and user (charged); references are
 *       taken
 * @out: the chosen device (valid under edge_devs_lock)
 * @id: the reservation's id, for place-release
 *
 * Each device is seen as policy/place.h counts it (edge-sim alike): its
 * memory in use, and the warps and blocks its reservations booked
 * (edge_place_warps(), edge_place_tbs()).  Those in use are at least what
 * its cores hold now, read from the model under its lock: load nobody
 * placed (event kernels, jobs not placed) counts too.  The model's live
 * warps are also live_warps.  Under edge_devs_lock.
 *
 * Return: 0; -EBUSY when the policy finds no device; -ENOMEM (counted
 * in the device's mem_oom, *@out set) when a memory-blind policy chose
 * one without room: the job would have crashed; -ENOSPC past
 * EDGE_RESV_MAX (unprivileged: EDGE_RESV_MAX - EDGE_RESV_PRIV); -EDQUOT
 * past the user's max_user_reservations or max_user_mem_mb.  An
 * unprivileged caller's policy sees each device without its
 * mem_reserved_pct.
 */
int edge_place(u32 policy, u64 mem, u32 threads, u32 blocks,
	       const struct edge_place_who *who, struct edge_device **out,
	       u64 *id)
{
	struct edge_place_req req = {
		.mem = mem, .threads = threads, .blocks = blocks,
	};
	struct edge_device **eds, *ed;
	struct edge_place_dev *v;
	struct edge_resv *r;
	u32 i, n = 0;
	int ret, pick;

	lockdep_assert_held(&edge_devs_lock);
	r = kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);
	v = kcalloc(EDGE_MAX_DEVICES, sizeof(*v), GFP_KERNEL);
	eds = kcalloc(EDGE_MAX_DEVICES, sizeof(*eds), GFP_KERNEL);
	ret = -ENOMEM;
	if (!r || !v || !eds)
		goto out;
	/* The reservation's, dropped below unless it is made. */
	edge_user_hold(who->user);
	for (i = 0; i < EDGE_MAX_DEVICES; i++) {
		ed = edge_dev_at_locked(i);
		if (!ed)
			continue;
		edge_place_dev_init(&v[n], ed->model.preset);
		/* The model lock: the front end is between two steps. */
		mutex_lock(&ed->lock);
		edge_simt_load(&ed->model.simt, &v[n].live_warps,
			       &v[n].tbs_used);
		mutex_unlock(&ed->lock);
		eds[n++] = ed;
	}
	spin_lock(&edge_mem_lock);
	if (edge_nr_resvs >= EDGE_RESV_MAX ||
	    (!who->priv && edge_nr_resvs >= EDGE_RESV_MAX - EDGE_RESV_PRIV)) {
		ret = -ENOSPC;
		goto unlock;
	}
	if (!who->priv &&
	    (who->user->resvs >= READ_ONCE(edge_max_user_resvs) ||
	     !edge_user_mem_fits(who->user, mem, false))) {
		ret = -EDQUOT;
		goto unlock;
	}
	for (i = 0; i < n; i++) {
		ed = eds[i];
		v[i].mem_total = ed->mem_total;
		/* Unprivileged: the device as if its kept share were not. */
		if (!who->priv)
			v[i].mem_total -= min(v[i].mem_total,
					      edge_limit_mem_kept(ed));
		v[i].mem_used = min(ed->mem_used, v[i].mem_total);
		v[i].warps_used = max(v[i].live_warps, ed->resv_warps);
		v[i].tbs_used = max(v[i].tbs_used, ed->resv_tbs);
		v[i].jobs = ed->mem_resv;
	}
	pick = n ? edge_place_pick(policy, v, n, &req) : -EBUSY;
	if (pick < 0 || pick >= n) {
		ret = pick < 0 ? pick : -EBUSY;
		goto unlock;
	}
	ed = eds[pick];
	*out = ed;
	/* Whatever the policy believed, memory is never overcommitted. */
	if (!edge_place_mem_fits(&v[pick], &req)) {
		ed->mem_oom++;
		ret = -ENOMEM;
		goto unlock;
	}
	r->ed = ed;
	r->id = edge_resv_next++;
	r->bytes = mem;
	r->portid = who->portid;
	r->tgid = get_pid(who->tgid);
	r->user = who->user;
	who->user->mem += mem;
	who->user->resvs++;
	r->warps = edge_place_warps(&v[pick], &req);
	r->tbs = edge_place_tbs(&v[pick], &req);
	edge_mem_add(ed, mem);
	ed->mem_resv++;
	ed->resv_warps += r->warps;
	ed->resv_tbs += r->tbs;
	list_add_tail(&r->node, &edge_resvs);
	edge_nr_resvs++;
	*id = r->id;
	r = NULL;
	ret = 0;
unlock:
	spin_unlock(&edge_mem_lock);
	if (r)
		edge_user_put(who->user);
out:
	kfree(eds);
	kfree(v);
	kfree(r);
	return ret;
}

struct edge_resv_key {
	u32 portid;
	u64 id;				/* 0: all of @portid's */
};

static bool edge_resv_of_key(const struct edge_resv *r, const void *arg)
{
	const struct edge_resv_key *k = arg;

	return r->portid == k->portid && (!k->id || r->id == k->id);
}

/**
 * edge_place_release() - end a reservation of socket @portid
 * @portid: the socket that made it
 * @id: its id
 *
 * Return: 0, or -ENOENT when @portid holds no reservation @id.
 */
int edge_place_release(u32 portid, u64 id)
{
	struct edge_resv_key k = { .portid = portid, .id = id };

	if (!id)
		return -ENOENT;
	return edge_resv_end_all(edge_resv_of_key, &k) ? 0 : -ENOENT;
}

/*
 * A generic netlink socket closed (its owner exited, or was killed):
 * its reservations end, as a file's registrations do at release.
 */
static int edge_place_urelease(struct notifier_block *nb,
			       unsigned long event, void *ptr)
{
	struct netlink_notify *n = ptr;
	struct edge_resv_key k = { .portid = n->portid };

	if (event != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC ||
	    !net_eq(n->net, &init_net))
		return NOTIFY_DONE;
	edge_resv_end_all(edge_resv_of_key, &k);
	return NOTIFY_DONE;
}

static struct notifier_block edge_place_nb = {
	.notifier_call = edge_place_urelease,
};

int edge_place_init(void)
{
	return netlink_register_notifier(&edge_place_nb);
}

/* After every device went: no reservation is left. */
void edge_place_exit(void)
{
	netlink_unregister_notifier(&edge_place_nb);
	WARN_ON_ONCE(!list_empty(&edge_resvs));
}
