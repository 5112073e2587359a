/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The "edge" generic netlink family (netlink.c): control plane and the
 * events group's notifications.
 */
#ifndef _EDGE_NETLINK_H
#define _EDGE_NETLINK_H

#include <linux/types.h>

struct edge_device;
struct edge_ekt_entry;
struct sk_buff;
struct edge_job_end;

int edge_nl_init(void);
void edge_nl_exit(void);
void edge_nl_dev_notify(struct edge_device *ed, bool added);
void edge_nl_ekt_notify(struct edge_device *ed,
			const struct edge_ekt_entry *ent, bool reg);
struct sk_buff *edge_nl_ekt_msg(struct edge_device *ed,
				const struct edge_ekt_entry *ent, bool reg);
void edge_nl_xmit(struct sk_buff *skb);
void edge_nl_policy_notify(struct edge_device *ed);
void edge_nl_job_notify(struct edge_device *ed, u32 pid,
			const struct edge_job_end *e);
void edge_nl_ekt_drop_notify(struct edge_device *ed, u32 id, u64 n);
void edge_nl_summary_init(struct edge_device *ed);
void edge_nl_summary_arm(struct edge_device *ed);
void edge_nl_summary_flush(struct edge_device *ed);

#endif /* _EDGE_NETLINK_H */
