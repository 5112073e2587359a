/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sample drivers' netfilter check (edge_netrx, edge_router): their
 * rx_handler runs before netfilter, so while a hook the stack's path for
 * a frame would run is registered, the frame is the stack's, which
 * applies the rules (Documentation/driver-api.rst).  The rules are not
 * evaluated here; their presence is enough.
 */
#ifndef _EDGE_NETFILTER_H
#define _EDGE_NETFILTER_H

#include <linux/netfilter.h>
#include <linux/netfilter_ipv4.h>

#ifdef CONFIG_NETFILTER
/*
 * Does any hook of @hooks (a namespace's hooks_ipv4 or hooks_ipv6) at
 * @which[0..@n) hold an entry that is not an LSM's?  Debian's kernels
 * enable AppArmor, whose POST_ROUTING hook is registered in every
 * namespace: the LSMs register at the priorities netfilter reserves for
 * them (NF_IP_PRI_SELINUX_FIRST, _LAST; IPv6's are the same values),
 * and accept what no secmark or peer label says otherwise (a secmark
 * needs a table's rule, which registers a hook of its own).  Softirq,
 * under RCU.
 */
static inline bool edge_nf_hooked(struct nf_hook_entries __rcu *const *hooks,
				  const u8 *which, unsigned int n)
{
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		const struct nf_hook_entries *e = rcu_dereference(hooks[which[i]]);
		struct nf_hook_ops **ops;

		if (!e)
			continue;
		ops = nf_hook_entries_get_hook_ops(e);
		for (j = 0; j < e->num_hook_entries; j++)
			if (ops[j]->priority != NF_IP_PRI_SELINUX_FIRST &&
			    ops[j]->priority != NF_IP_PRI_SELINUX_LAST)
				return true;
	}
	return false;
}
#endif

#endif /* _EDGE_NETFILTER_H */
