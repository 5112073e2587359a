// SPDX-License-Identifier: GPL-2.0
/*
 * Limits for unprivileged users, in the style of the kernel's own
 * (inotify's max_user_*, pipe-user-pages-*, RLIMIT_MEMLOCK):
 *
 *  - per user (kuid), across every file, socket and device: EKT entries
 *    (max_user_entries), placements (max_user_reservations) and device
 *    memory held by registrations and placements (max_user_mem_mb).
 *    Past a cap the call fails with -EDQUOT and changes nothing;
 *  - per device, a share that only CAP_SYS_ADMIN and kernel users take:
 *    the last ekt_reserved entries of the EKT and mem_reserved_pct of its
 *    memory (sysfs), and of the reservations of all devices the last
 *    EDGE_RESV_PRIV.  An unprivileged caller finds the device full there
 *    (-EBUSY, -ENOMEM, -ENOSPC, as when it really is);
 *  - per device, one event's modelled work: its thread blocks times
 *    their warps, at most max_event_warps (sysfs), else -EINVAL at
 *    registration, for everyone: the front end's CPU time is per warp.
 *
 * CAP_SYS_ADMIN (of the file's opener, of the netlink socket's sender)
 * is exempt from the per-user caps, as it is from pipe-user-pages-soft;
 * its use is counted all the same.
 */
#include <linux/capability.h>
#include <linux/hashtable.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uidgid.h>

#include "edge_drv.h"

static unsigned int max_user_entries = 32;
module_param(max_user_entries, uint, 0644);
MODULE_PARM_DESC(max_user_entries,
		 "EKT entries one unprivileged user holds, all devices (default 32)");

unsigned int edge_max_user_resvs = 64;
module_param_named(max_user_reservations, edge_max_user_resvs, uint, 0644);
MODULE_PARM_DESC(max_user_reservations,
		 "Placements one unprivileged user holds, all devices (default 64)");

unsigned long edge_max_user_mem_mb = 16384;
module_param_named(max_user_mem_mb, edge_max_user_mem_mb, ulong, 0644);
MODULE_PARM_DESC(max_user_mem_mb,
		 "Device memory (MiB) one unprivileged user holds, all devices (default 16384)");

/* Users with anything counted, by kuid; a leaf lock. */
static DEFINE_HASHTABLE(edge_users, 4);
static DEFINE_SPINLOCK(edge_users_lock);

/**
 * edge_user_get() - the counters of user @uid, with a reference
 * @uid: the user
 *
 * Return: the user, or NULL when it could not be allocated.
 */
struct edge_user *edge_user_get(kuid_t uid)
{
	struct edge_user *u, *nu;

	/* Shared by the user's every process: charged to none of them. */
	nu = kzalloc(sizeof(*nu), GFP_KERNEL);
	spin_lock(&edge_users_lock);
	hash_for_each_possible(edge_users, u, node, __kuid_val(uid)) {
		if (uid_eq(u->uid, uid)) {
			u->refs++;
			goto out;
		}
	}
	u = nu;
	nu = NULL;
	if (u) {
		u->uid = uid;
		u->refs = 1;
		hash_add(edge_users, &u->node, __kuid_val(uid));
	}
out:
	spin_unlock(&edge_users_lock);
	kfree(nu);
	return u;
}

/* One more reference to @u, which the caller holds one of. */
void edge_user_hold(struct edge_user *u)
{
	spin_lock(&edge_users_lock);
	u->refs++;
	spin_unlock(&edge_users_lock);
}

/* Drop edge_user_get()'s reference; the last one frees @u (NULL is fine). */
void edge_user_put(struct edge_user *u)
{
	if (!u)
		return;
	spin_lock(&edge_users_lock);
	if (--u->refs) {
		u = NULL;
	} else {
		/* Every charge holds a reference: nothing is counted now. */
		WARN_ON_ONCE(u->entries || u->mem || u->resvs);
		hash_del(&u->node);
	}
	spin_unlock(&edge_users_lock);
	kfree(u);
}

/**
 * edge_user_charge_entry() - count an EKT entry of @u
 * @u: the registering user
 * @priv: CAP_SYS_ADMIN: not capped
 *
 * Return: 0, or -EDQUOT when @u holds max_user_entries already.
 */
int edge_user_charge_entry(struct edge_user *u, bool priv)
{
	int ret = 0;

	spin_lock(&edge_users_lock);
	if (!priv && u->entries >= READ_ONCE(max_user_entries))
		ret = -EDQUOT;
	else
		u->entries++;
	spin_unlock(&edge_users_lock);
	return ret;
}

void edge_user_uncharge_entry(struct edge_user *u)
{
	spin_lock(&edge_users_lock);
	if (!WARN_ON_ONCE(!u->entries))
		u->entries--;
	spin_unlock(&edge_users_lock);
}

/**
 * edge_limit_event() - is one event of @k within @ed's max_event_warps?
 * @ed: device
 * @k: a validated registration
 *
 * Every thread block's every warp is a step of the front end, so a grid
 * of 2^63 blocks is a CPU taken for good: bounded here for everyone (the
 * administrator raises the knob), kernel users too.
 *
 * Return: 0, or -EINVAL beyond the limit.
 */
int edge_limit_event(struct edge_device *ed, const struct edge_kdesc *k)
{
	u64 warps;

	/* num_tbs < 2^63 and warps_per_tb <= 64: no u64 wrap with the check. */
	if (check_mul_overflow(k->num_tbs, (u64)k->warps_per_tb, &warps))
		return -EINVAL;
	return warps > READ_ONCE(ed->max_event_warps) ? -EINVAL : 0;
}

/*
 * EKT entries an unprivileged registration may not take: the device's
 * ekt_reserved.  Under @ed->lock, with the table's use.
 */
int edge_limit_ekt_room(struct edge_device *ed, bool priv)
{
	u32 keep = READ_ONCE(ed->ekt_reserved);

	lockdep_assert_held(&ed->lock);
	if (priv)
		return 0;
	return ed->model.ekt.used + keep >= EDGE_EKT_ENTRIES ? -EBUSY : 0;
}

/* Bytes of @ed's memory kept for privileged users (mem_reserved_pct). */
u64 edge_limit_mem_kept(struct edge_device *ed)
{
	return div_u64(ed->mem_total, 100) * READ_ONCE(ed->mem_reserved_pct);
}

/* Defaults of a new device's knobs. */
void edge_limits_init(struct edge_device *ed)
{
	ed->ekt_reserved = EDGE_EKT_RESERVED_DEFAULT;
	ed->mem_reserved_pct = EDGE_MEM_RESERVED_PCT_DEFAULT;
	ed->max_event_warps = EDGE_MAX_EVENT_WARPS_DEFAULT;
}
