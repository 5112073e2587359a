// SPDX-License-Identifier: GPL-2.0
/*
 * edge_router: an IPv4 and IPv6 router whose route lookups run on an edge
 * GPU (EDGE_FN_LPM4, EDGE_FN_LPM6), a sample driver of the in-kernel API
 * (Documentation/driver-api.rst) beside edge_netrx.
 *
 * It attaches to two or more Ethernet devices of one namespace as their
 * rx_handler.  A frame the stack would forward the same way (the checks
 * of rt_classify4() and rt_classify6()) is taken: its destination goes
 * to the lookup's parameter entry, the skb waits in a slot of the event
 * number.  On completion the route's next hop decides: TTL or hop limit
 * decremented (ip_decrease_ttl() updates the checksum), and neigh_xmit()
 * on the out device, which resolves the neighbour (queueing while ARP or
 * ND run) and builds the Ethernet header, as MPLS does.
 *
 * Everything else goes to the stack untouched (RX_HANDLER_PASS), counted
 * by reason.  A frame the GPU finds no route for, or a route the table
 * says is the stack's, is already taken: it is re-injected with
 * netif_rx(), marked in its control block, and the rx_handler passes the
 * marked frame the second time.  The alternative, a CPU route lookup
 * before taking the frame, would do the GPU's work twice for every
 * frame; a miss is the rare case.  The stack then answers as it would
 * (ICMP unreachable, or its own route).
 *
 * Routes are written to /sys/kernel/edge_router/routes4 and routes6 as
 * lines "PREFIX/LEN dev NAME [via GATEWAY]" or "PREFIX/LEN stack" (what
 * tools make from `ip route`); a table is registered as a new event
 * kernel and swapped in, the old one destroyed once no receiver can
 * submit to it.  A bad line: EINVAL, the old table kept.
 *
 * Every frame received while attached ends as exactly one of forwarded,
 * passed or dropped, once nothing is in flight (the stats file).
 *
 * Teardown order (rt_unhook(), then rt_release()): under rtnl unhook
 * every device, take the tables out, clear the ports and start a new
 * session; synchronize_net() so no receiver can submit and no completion
 * holds a device; destroy the tables' queues (their events in flight end
 * cancelled, their skbs freed); only then drop the devices' references,
 * which the waiting skbs' skb->dev needed.  Whoever unhooks under rtnl
 * (detach, the device's removal) owns the release.
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/etherdevice.h>
#include <linux/if_ether.h>
#include <linux/if_vlan.h>
#include <linux/inetdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <linux/rtnetlink.h>
#include <linux/kobject.h>
#include <linux/sysfs.h>
#include <linux/slab.h>
#include <linux/random.h>
#include <linux/inet.h>
#include <linux/log2.h>
#include <linux/atomic.h>
#include <linux/mutex.h>
#include <linux/delay.h>
#include <linux/list.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/addrconf.h>
#include <net/neighbour.h>
#include <net/route.h>

#include "../edge_kapi.h"
#include "../edge_netfilter.h"

static unsigned int dev;
module_param(dev, uint, 0444);
MODULE_PARM_DESC(dev, "edge device index (default 0)");

static unsigned int ring_entries = 256;
module_param(ring_entries, uint, 0444);
MODULE_PARM_DESC(ring_entries, "Lookup ring size, power of two (default 256)");

static unsigned int priority = 10;
module_param(priority, uint, 0444);
MODULE_PARM_DESC(priority, "Event kernels' priority (default 10)");

#define RT_MAX_PORTS	4
#define RT_NH_STACK	0xff	/* rt_nh.port: the route is the stack's */
#define RT_WARP_CYCLES	700	/* 1 us at the edge preset's clock */

enum { RT_V4, RT_V6, RT_FAMS };

/* A device the router forwards between: rx_handler data is its port. */
struct rt_port {
	struct net_device __rcu *dev;
	netdevice_tracker tracker;
};

/* A route's value indexes these. */
struct rt_nh {
	u8 port;		/* in ports[], or RT_NH_STACK */
	bool via;		/* else the destination is the neighbour */
	union {
		__be32 gw4;
		struct in6_addr gw6;
	};
};

struct rt_slot {
	struct sk_buff *skb;
	u8 in_port;
};

/* One loaded table: its event kernel, the frames waiting on it. */
struct rt_table {
	struct edge_kq *q;
	struct edge_device *ed;
	int fam;
	u32 gen;		/* the session it was loaded in */
	u32 n_routes;
	/* Receivers on several CPUs share the one producer. */
	spinlock_t lock;
	u32 next;
	struct rt_slot *slots;	/* by event number & mask */
	bool dying;		/* set before its queue is destroyed */
	struct list_head park;
	u32 n_nh;
	struct rt_nh nh[];
};

/* Counters; the reasons sum to their totals (stats_show()). */
struct rt_stats {
	atomic64_t received;
	atomic64_t forwarded4;
	atomic64_t forwarded6;
	atomic64_t pass_not_ip;		/* ARP, ... */
	atomic64_t pass_vlan;
	atomic64_t pass_not_host;	/* broadcast, multicast, other MAC */
	atomic64_t pass_gso;		/* never in place: the stack's */
	atomic64_t pass_malformed;	/* lengths, version, checksum */
	atomic64_t pass_options;	/* IPv4 options, IPv6 hop-by-hop */
	atomic64_t pass_fragment;
	atomic64_t pass_ttl;		/* TTL/hop limit <= 1: time exceeded */
	atomic64_t pass_too_big;	/* above an attached device's MTU */
	atomic64_t pass_sysctl;		/* forwarding off, rp_filter on */
	atomic64_t pass_local;		/* to this host, broadcast, multicast */
	atomic64_t pass_martian;	/* a source the stack refuses */
	atomic64_t pass_netfilter;	/* a hook the stack's path runs */
	atomic64_t pass_no_table;	/* no routes loaded */
	atomic64_t pass_ring_full;
	atomic64_t pass_unplugged;
	atomic64_t pass_nomem;		/* could not trim the padding */
	atomic64_t pass_no_route;	/* the GPU's miss: re-injected */
	atomic64_t pass_stack_route;	/* a "stack" route: re-injected */
	atomic64_t drop_gpu_error;	/* the lookup's ERROR */
	atomic64_t drop_cancelled;	/* in flight at detach or swap */
	atomic64_t drop_nomem;
	atomic64_t drop_xmit;		/* neigh_xmit() refused it */
	atomic64_t inflight;
	atomic64_t reinjected;		/* passed a second time, not counted */
	atomic64_t tables;		/* tables loaded */
	atomic64_t parked;
};

static struct rt_stats st;
static DEFINE_MUTEX(rt_lock);		/* attach, detach, routes; before rtnl */
static struct rt_port ports[RT_MAX_PORTS];
static unsigned int nports;		/* under rtnl */
static struct rt_table __rcu *tables[RT_FAMS];	/* written under rtnl */
static u32 rt_gen;			/* the session: bumped at each unhook */
static unsigned long rt_cookie;		/* the re-injection mark's secret */
static struct kobject *rt_kobj;
static LIST_HEAD(rt_parked);
static DEFINE_SPINLOCK(rt_park_lock);

static u32 rt_mask(void)
{
	return ring_entries - 1;
}

/*
 * The re-injection mark, in the last word of skb->cb: IPCB and the
 * qdisc/tc control block use the front, and the IP layer clears its own
 * part on receive.  The secret and the skb's address make a stale or
 * foreign value match only by chance.
 */
static unsigned long *rt_mark(struct sk_buff *skb)
{
	return (unsigned long *)(skb->cb + sizeof(skb->cb) -
				 sizeof(unsigned long));
}

static unsigned long rt_mark_value(const struct sk_buff *skb)
{
	return rt_cookie ^ (unsigned long)skb;
}

/* Frames larger than the smallest attached MTU are the stack's. */
static unsigned int rt_min_mtu(void)
{
	unsigned int i, mtu = UINT_MAX, n = READ_ONCE(nports);

	for (i = 0; i < n && i < RT_MAX_PORTS; i++) {
		struct net_device *d = rcu_dereference(ports[i].dev);

		if (d)
			mtu = min(mtu, READ_ONCE(d->mtu));
	}
	return mtu;
}

/* Softirq, RCU: a source ip_route_input_slow() or the FIB refuses. */
static bool rt_martian4(struct net *net, __be32 saddr)
{
	if (ipv4_is_lbcast(saddr) || ipv4_is_multicast(saddr) ||
	    ipv4_is_zeronet(saddr) || ipv4_is_loopback(saddr))
		return true;
	/* One of ours, or a broadcast address. */
	return inet_addr_type(net, saddr) != RTN_UNICAST;
}

/*
 * IPv4: what ip_rcv_core() accepts and ip_forward() forwards without
 * options, fragments or ICMP of its own.  NULL: take it.
 */
static atomic64_t *rt_classify4(struct sk_buff *skb)
{
	struct net_device *ndev = skb->dev;
	struct in_device *in_dev;
	const struct iphdr *iph;
	unsigned int tot;

	if (!pskb_may_pull(skb, sizeof(*iph)))
		return &st.pass_malformed;
	iph = ip_hdr(skb);
	if (iph->version != 4 || iph->ihl < 5)
		return &st.pass_malformed;
	if (iph->ihl != 5)
		return &st.pass_options;
	if (ip_fast_csum(iph, iph->ihl))
		return &st.pass_malformed;
	tot = ntohs(iph->tot_len);
	if (tot < sizeof(*iph) || tot > skb->len)
		return &st.pass_malformed;
	if (ip_is_fragment(iph))
		return &st.pass_fragment;
	if (iph->ttl <= 1)
		return &st.pass_ttl;
	if (tot > rt_min_mtu())
		return &st.pass_too_big;
	in_dev = __in_dev_get_rcu(ndev);
	if (!in_dev || !IN_DEV_FORWARD(in_dev) || IN_DEV_RPFILTER(in_dev))
		return &st.pass_sysctl;
	if (ipv4_is_multicast(iph->daddr) || ipv4_is_lbcast(iph->daddr) ||
	    ipv4_is_zeronet(iph->daddr) || ipv4_is_loopback(iph->daddr) ||
	    inet_addr_type(dev_net(ndev), iph->daddr) != RTN_UNICAST)
		return &st.pass_local;
	if (rt_martian4(dev_net(ndev), iph->saddr))
		return &st.pass_martian;
	/* Ethernet padding: the stack trims it too (ip_rcv_core()). */
	if (pskb_trim_rcsum(skb, tot))
		return &st.pass_nomem;
	return NULL;
}

#if IS_ENABLED(CONFIG_IPV6)
/* IPv6 addresses a router never forwards to or from. */
static bool rt_unroutable6(const struct in6_addr *a)
{
	int t = ipv6_addr_type(a);

	return t == IPV6_ADDR_ANY || (t & (IPV6_ADDR_MULTICAST |
		IPV6_ADDR_LINKLOCAL | IPV6_ADDR_LOOPBACK | IPV6_ADDR_MAPPED));
}

/* IPv6: what ip6_rcv_core() accepts and ip6_forward() forwards. */
static atomic64_t *rt_classify6(struct sk_buff *skb)
{
	struct net_device *ndev = skb->dev;
	struct net *net = dev_net(ndev);
	const struct ipv6hdr *ip6h;
	struct inet6_dev *idev;
	unsigned int tot;

	if (!pskb_may_pull(skb, sizeof(*ip6h)))
		return &st.pass_malformed;
	ip6h = ipv6_hdr(skb);
	tot = sizeof(*ip6h) + ntohs(ip6h->payload_len);
	/* A zero payload length is a jumbogram's: hop-by-hop. */
	if (ip6h->version != 6 || !ip6h->payload_len || tot > skb->len)
		return &st.pass_malformed;
	if (ip6h->nexthdr == NEXTHDR_HOP)
		return &st.pass_options;
	if (ip6h->hop_limit <= 1)
		return &st.pass_ttl;
	if (tot > rt_min_mtu())
		return &st.pass_too_big;
	idev = __in6_dev_get(ndev);
	if (!idev || READ_ONCE(idev->cnf.disable_ipv6) ||
	    !READ_ONCE(idev->cnf.forwarding) ||
	    !READ_ONCE(net->ipv6.devconf_all->forwarding))
		return &st.pass_sysctl;
	/*
	 * A subnet-router anycast address (a /64's, interface identifier
	 * zero) is this router's when it forwards; ipv6_chk_acast_addr()
	 * is not exported, so every such destination is the stack's.
	 */
	if (rt_unroutable6(&ip6h->daddr) ||
	    ipv6_chk_addr(net, &ip6h->daddr, NULL, 0) ||
	    (!ip6h->daddr.s6_addr32[2] && !ip6h->daddr.s6_addr32[3]))
		return &st.pass_local;
	if (rt_unroutable6(&ip6h->saddr) ||
	    ipv6_chk_addr(net, &ip6h->saddr, NULL, 0))
		return &st.pass_martian;
	if (pskb_trim_rcsum(skb, tot))
		return &st.pass_nomem;
	return NULL;
}
#else
/* A kernel without IPv6 (the debug kernel's config): the stack's. */
static atomic64_t *rt_classify6(struct sk_buff *skb)
{
	return &st.pass_not_ip;
}
#endif

/*
 * Rules are the stack's to evaluate, not the GPU's: while any netfilter
 * hook is registered in the frame's namespace on a hook the forwarding
 * path runs (PRE_ROUTING, FORWARD, POST_ROUTING of its family), the
 * frame is the stack's, whatever the rules say (an LSM's hook aside:
 * edge_nf_hooked()).  struct netns_nf holds hooks_ipv6 whether or not
 * IPv6 is built (6.1 and 6.12); an IPv6 frame gets here only when it
 * is.  Softirq, RCU.
 */
static bool rt_netfilter(const struct net *net, int fam)
{
#ifdef CONFIG_NETFILTER
	static const u8 hooks[] = {
		NF_INET_PRE_ROUTING, NF_INET_FORWARD, NF_INET_POST_ROUTING,
	};
	struct nf_hook_entries __rcu *const *h = fam == RT_V4 ?
		net->nf.hooks_ipv4 : net->nf.hooks_ipv6;

	return edge_nf_hooked(h, hooks, ARRAY_SIZE(hooks));
#else
	return false;
#endif
}

/*
 * Which family's table takes the frame (*fam), or the counter of why
 * the stack gets it.  Pulls headers, which may move the head: whoever
 * reads them after this reads them again.
 */
static atomic64_t *rt_classify(struct sk_buff *skb, int *fam)
{
	atomic64_t *why;

	if (skb_vlan_tag_present(skb) || eth_type_vlan(skb->protocol))
		return &st.pass_vlan;
	if (skb->protocol != htons(ETH_P_IP) &&
	    skb->protocol != htons(ETH_P_IPV6))
		return &st.pass_not_ip;
	if (skb->pkt_type != PACKET_HOST)
		return &st.pass_not_host;
	if (skb_is_gso(skb))
		return &st.pass_gso;
	if (!skb_mac_header_was_set(skb) || skb->mac_len != ETH_HLEN ||
	    skb_network_offset(skb))
		return &st.pass_malformed;
	if (is_multicast_ether_addr(eth_hdr(skb)->h_source))
		return &st.pass_martian;
	*fam = skb->protocol == htons(ETH_P_IP) ? RT_V4 : RT_V6;
	why = *fam == RT_V4 ? rt_classify4(skb) : rt_classify6(skb);
	/* Last: only what the GPU would have taken counts here. */
	if (!why && rt_netfilter(dev_net(skb->dev), *fam))
		why = &st.pass_netfilter;
	return why;
}

/*
 * Softirq, RCU: hand the destination to the GPU.  NULL: the table holds
 * the skb now; else the counter of why it goes to the stack untouched.
 */
static atomic64_t *rt_submit(int fam, unsigned int in_port,
			     struct sk_buff *skb)
{
	struct rt_table *t = rcu_dereference(tables[fam]);
	atomic64_t *pass = NULL;
	struct rt_slot *s;
	void *p;

	if (!t)
		return &st.pass_no_table;
	spin_lock(&t->lock);
	p = edge_kq_param(t->q, 0);
	if (!p) {
		pass = edge_kq_unplugged(t->q) ? &st.pass_unplugged :
						 &st.pass_ring_full;
		goto out;
	}
	/* Re-read: rt_classify()'s pulls may have moved the head. */
	if (fam == RT_V4) {
		struct edge_lpm_param *lp = p;

		lp->addr = (__force u32)ip_hdr(skb)->daddr;
	} else {
		struct edge_lpm6_param *lp = p;

		memcpy(lp->addr, &ipv6_hdr(skb)->daddr, sizeof(lp->addr));
	}
	s = &t->slots[t->next & rt_mask()];
	s->skb = skb;
	s->in_port = in_port;
	atomic64_inc(&st.inflight);
	if (edge_kq_submit(t->q, 1)) {
		s->skb = NULL;
		atomic64_dec(&st.inflight);
		pass = &st.pass_unplugged;
		goto out;
	}
	t->next++;
out:
	spin_unlock(&t->lock);
	return pass;
}

static rx_handler_result_t rt_rx(struct sk_buff **pskb)
{
	struct sk_buff *skb = *pskb;
	struct rt_port *port = rcu_dereference(skb->dev->rx_handler_data);
	atomic64_t *why;
	int fam;

	/* Ours, back from rt_reinject(): the stack's, counted already. */
	if (*rt_mark(skb) == rt_mark_value(skb)) {
		*rt_mark(skb) = 0;
		atomic64_inc(&st.reinjected);
		return RX_HANDLER_PASS;
	}
	atomic64_inc(&st.received);
	/* Another holder may still read it: write only our own. */
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb) {
		atomic64_inc(&st.drop_nomem);
		return RX_HANDLER_CONSUMED;
	}
	*pskb = skb;
	why = rt_classify(skb, &fam);
	if (!why)
		why = rt_submit(fam, port - ports, skb);
	if (why) {
		atomic64_inc(why);
		return RX_HANDLER_PASS;
	}
	return RX_HANDLER_CONSUMED;
}

/*
 * Give a taken frame back to the stack, as received: skb->dev is still
 * the in device (its port's reference holds it), the data still starts
 * at the network header.  The mark makes rt_rx() pass it.
 */
static void rt_reinject(struct sk_buff *skb, atomic64_t *why)
{
	*rt_mark(skb) = rt_mark_value(skb);
	atomic64_inc(why);
	/* Any context since 5.18; it runs the backlog with BHs off. */
	netif_rx(skb);
}

/* Process context, RCU: forward on @out to the route's neighbour. */
static void rt_forward(const struct rt_nh *nh, struct net_device *out,
		       struct sk_buff *skb, int fam)
{
	int err;

	/* The head may be a clone's (a tap): write our own copy. */
	if (skb_cow(skb, LL_RESERVED_SPACE(out))) {
		kfree_skb(skb);
		atomic64_inc(&st.drop_nomem);
		return;
	}
	skb->dev = out;
	skb_forward_csum(skb);
	/* The receive time is no departure time for an EDT qdisc. */
	skb_clear_tstamp(skb);
	local_bh_disable();
	if (fam == RT_V4) {
		struct iphdr *iph = ip_hdr(skb);
		__be32 via = nh->via ? nh->gw4 : iph->daddr;

		ip_decrease_ttl(iph);
		err = neigh_xmit(NEIGH_ARP_TABLE, out, &via, skb);
	} else {
		struct ipv6hdr *ip6h = ipv6_hdr(skb);
		struct in6_addr via = nh->via ? nh->gw6 : ip6h->daddr;

		ip6h->hop_limit--;
		err = neigh_xmit(NEIGH_ND_TABLE, out, &via, skb);
	}
	local_bh_enable();
	if (err)
		atomic64_inc(&st.drop_xmit);
	else
		atomic64_inc(fam == RT_V4 ? &st.forwarded4 : &st.forwarded6);
}

/* The front-end thread, or the task destroying the queue. */
static void rt_complete(struct rt_table *t, struct sk_buff *skb, u8 in_port,
			const struct edge_kq_completion *c)
{
	struct net_device *in, *out;
	const struct rt_nh *nh;
	u32 v = c->cqe.res;

	switch (EDGE_CQE_CODE(c->cqe.status)) {
	case EDGE_CQE_DONE:
		break;
	case EDGE_CQE_ERROR:
		kfree_skb(skb);
		atomic64_inc(&st.drop_gpu_error);
		return;
	default:		/* CANCELLED, REJECTED */
		kfree_skb(skb);
		atomic64_inc(&st.drop_cancelled);
		return;
	}
	/* rt_release() waits for us (synchronize_net()) before netdev_put. */
	rcu_read_lock();
	in = rcu_dereference(ports[in_port].dev);
	if (READ_ONCE(t->dying) || t->gen != READ_ONCE(rt_gen) || !in) {
		kfree_skb(skb);
		atomic64_inc(&st.drop_cancelled);
		goto out;
	}
	if (v == EDGE_LPM_MISS || v >= t->n_nh) {
		rt_reinject(skb, &st.pass_no_route);
		goto out;
	}
	nh = &t->nh[v];
	out = nh->port < RT_MAX_PORTS ? rcu_dereference(ports[nh->port].dev) :
					NULL;
	if (!out) {
		rt_reinject(skb, &st.pass_stack_route);
		goto out;
	}
	/* The MTU may have changed since rt_classify() checked it. */
	if (skb->len > READ_ONCE(out->mtu)) {
		rt_reinject(skb, &st.pass_too_big);
		goto out;
	}
	rt_forward(nh, out, skb, t->fam);
out:
	rcu_read_unlock();
}

static void rt_notify(struct edge_kq *q, void *ctx)
{
	struct rt_table *t = ctx;
	struct edge_kq_completion c;

	while (edge_kq_peek(q, &c)) {
		struct rt_slot *s = &t->slots[c.seq & rt_mask()];
		struct sk_buff *skb = s->skb;

		s->skb = NULL;
		if (!WARN_ON_ONCE(!skb))
			rt_complete(t, skb, s->in_port, &c);
		atomic64_dec(&st.inflight);
		edge_kq_seen(q);
	}
}

/*
 * Destroy the table's queue, then free what its callback uses.  A queue
 * another driver holds (edge_kq_lookup()) refuses with -EBUSY: wait a
 * while, then park the table rather than free it under the callback
 * (as edge_netrx).  Returns true when freed.
 */
static bool rt_table_free_try(struct rt_table *t, unsigned int wait_ms)
{
	unsigned int ms = 0;
	u32 i;

	WRITE_ONCE(t->dying, true);
	if (!IS_ERR_OR_NULL(t->q)) {
		while (edge_kq_destroy(t->q) == -EBUSY) {
			if (ms >= wait_ms)
				return false;
			msleep(20);
			ms += 20;
		}
	}
	/* The destroy cancelled and completed every event: none waits. */
	if (t->slots) {
		for (i = 0; i < ring_entries; i++)
			if (WARN_ON_ONCE(t->slots[i].skb))
				kfree_skb(t->slots[i].skb);
		kvfree(t->slots);
	}
	if (t->ed)
		edge_device_release(t->ed);
	kvfree(t);
	return true;
}

static void rt_table_free(struct rt_table *t)
{
	if (!t || rt_table_free_try(t, 2000))
		return;
	pr_warn("edge_router: a queue is held by another driver; freed when it is released\n");
	atomic64_inc(&st.parked);
	spin_lock(&rt_park_lock);
	list_add_tail(&t->park, &rt_parked);
	spin_unlock(&rt_park_lock);
}

/*
 * A table whose old events may still be in flight: give them a moment
 * to complete (a swap loses nothing then), and destroy the queue.
 */
static void rt_table_retire(struct rt_table *t)
{
	unsigned int ms;

	for (ms = 0; ms < 500 && edge_kq_inflight(t->q); ms += 20)
		msleep(20);
	rt_table_free(t);
}

/*
 * Process context, rt_lock held, not rtnl (registration takes the
 * GPU's lock and may sleep).  @ent: @n entries of the family's LPM
 * table, copied by the registration.
 */
static struct rt_table *rt_table_new(int fam, const void *ent, u32 n,
				     const struct rt_nh *nh, u32 gen)
{
	struct edge_register reg = {
		.size = sizeof(reg),
		.func = fam == RT_V4 ? EDGE_FN_LPM4 : EDGE_FN_LPM6,
		.priority = priority,
		.grid_x = 1, .grid_y = 1, .grid_z = 1,
		.block_x = 32, .block_y = 1, .block_z = 1,
		.regs_per_thread = 16,
		.param_size = fam == RT_V4 ? sizeof(struct edge_lpm_param) :
					     sizeof(struct edge_lpm6_param),
		.ring_entries = ring_entries,
		.warp_cycles = RT_WARP_CYCLES,
		.table_ptr = (uintptr_t)ent,
		.table_len = n * (fam == RT_V4 ?
				  sizeof(struct edge_lpm_entry) :
				  sizeof(struct edge_lpm6_entry)),
	};
	struct rt_table *t;
	int ret;

	t = kvzalloc(struct_size(t, nh, n), GFP_KERNEL);
	if (!t)
		return ERR_PTR(-ENOMEM);
	t->fam = fam;
	t->gen = gen;
	t->n_routes = n;
	t->n_nh = n;
	memcpy(t->nh, nh, n * sizeof(*nh));
	spin_lock_init(&t->lock);
	t->slots = kvcalloc(ring_entries, sizeof(*t->slots), GFP_KERNEL);
	t->ed = edge_device_find(dev);
	if (!t->slots || !t->ed) {
		ret = t->slots ? -ENODEV : -ENOMEM;
		goto err;
	}
	t->q = edge_kq_register(t->ed, &reg, rt_notify, t);
	if (IS_ERR(t->q)) {
		ret = PTR_ERR(t->q);
		t->q = NULL;
		goto err;
	}
	return t;
err:
	rt_table_free(t);
	return ERR_PTR(ret);
}

/* rtnl: the port of the attached device called @name, or -1. */
static int rt_port_by_name(const char *name)
{
	unsigned int i;

	for (i = 0; i < nports; i++) {
		struct net_device *d = rtnl_dereference(ports[i].dev);

		if (d && !strcmp(d->name, name))
			return i;
	}
	return -1;
}

/* "a.b.c.d/len" or "x::y/len" (or "default"): prefix and length. */
static int rt_parse_prefix(int fam, char *s, u8 *addr, u32 *len)
{
	char *slash = strchr(s, '/');
	u32 max = fam == RT_V4 ? 32 : 128;
	int ok;

	memset(addr, 0, 16);
	if (!strcmp(s, "default")) {
		*len = 0;
		return 0;
	}
	if (slash) {
		*slash = 0;
		if (kstrtou32(slash + 1, 10, len) || *len > max)
			return -EINVAL;
	} else {
		*len = max;
	}
	ok = fam == RT_V4 ? in4_pton(s, -1, addr, -1, NULL) :
			    in6_pton(s, -1, addr, -1, NULL);
	return ok ? 0 : -EINVAL;
}

/*
 * rtnl held: one line into a route (@e, an LPM4 or LPM6 entry) and its
 * next hop (@nh, value @i).  Tokens: PREFIX, then "dev NAME" and
 * optionally "via GW", or "stack".  A device that is not attached makes
 * it a stack route: the stack forwards what the router cannot.
 */
static int rt_parse_line(int fam, char *line, u32 i, void *e,
			 struct rt_nh *nh)
{
	char *tok, *pfx = strsep(&line, " \t");
	u8 addr[16], gw[16];
	bool have_dev = false, stack = false;
	u32 len;
	int port = -1;

	if (!pfx || rt_parse_prefix(fam, pfx, addr, &len))
		return -EINVAL;
	memset(nh, 0, sizeof(*nh));
	while ((tok = strsep(&line, " \t"))) {
		if (!*tok)
			continue;
		if (!strcmp(tok, "stack")) {
			stack = true;
		} else if (!strcmp(tok, "dev")) {
			tok = strsep(&line, " \t");
			if (!tok || !*tok || strlen(tok) >= IFNAMSIZ)
				return -EINVAL;
			have_dev = true;
			port = rt_port_by_name(tok);
		} else if (!strcmp(tok, "via")) {
			tok = strsep(&line, " \t");
			if (!tok || !(fam == RT_V4 ?
				      in4_pton(tok, -1, gw, -1, NULL) :
				      in6_pton(tok, -1, gw, -1, NULL)))
				return -EINVAL;
			nh->via = true;
			if (fam == RT_V4)
				memcpy(&nh->gw4, gw, 4);
			else
				memcpy(&nh->gw6, gw, 16);
		} else {
			return -EINVAL;
		}
	}
	if (stack == have_dev)
		return -EINVAL;
	nh->port = port < 0 ? RT_NH_STACK : port;
	if (fam == RT_V4) {
		struct edge_lpm_entry *l = e;

		memcpy(&l->prefix, addr, 4);
		l->prefix_len = len;
		l->value = i;
	} else {
		struct edge_lpm6_entry *l = e;

		memcpy(l->prefix, addr, 16);
		l->prefix_len = len;
		l->value = i;
	}
	return 0;
}

/*
 * Load a table: parse every line (a bad one: -EINVAL, nothing changes),
 * register it, swap it in, retire the old one once no receiver can
 * submit to it.  An empty write removes the table: everything of the
 * family goes to the stack.
 */
static int rt_load(int fam, const char *buf, size_t count)
{
	size_t esz = fam == RT_V4 ? sizeof(struct edge_lpm_entry) :
				    sizeof(struct edge_lpm6_entry);
	struct rt_table *t = NULL, *old;
	char *text, *cur, *line;
	struct rt_nh *nh = NULL;
	u32 n = 0, max = 0, gen;
	void *ent = NULL;
	int ret = 0;

	text = kmemdup_nul(buf, count, GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	/* A line a route at most (a sysfs write is one page). */
	for (cur = text; *cur; cur++)
		max += *cur == '\n';
	max++;
	ent = kvcalloc(max, esz, GFP_KERNEL);
	nh = kvcalloc(max, sizeof(*nh), GFP_KERNEL);
	if (!ent || !nh) {
		ret = -ENOMEM;
		goto out_free;
	}
	mutex_lock(&rt_lock);
	rtnl_lock();
	gen = rt_gen;
	if (!nports)
		ret = -ENODEV;
	cur = text;
	while (!ret && (line = strsep(&cur, "\n"))) {
		line = strim(line);
		if (!*line)
			continue;
		if (n >= EDGE_LPM_MAX_ENTRIES)
			ret = -E2BIG;
		else
			ret = rt_parse_line(fam, line, n, ent + n * esz,
					    &nh[n]);
		n++;
	}
	rtnl_unlock();
	if (ret)
		goto out_unlock;
	if (n) {
		/* The LPM refuses host bits and a prefix twice: -EINVAL. */
		t = rt_table_new(fam, ent, n, nh, gen);
		if (IS_ERR(t)) {
			ret = PTR_ERR(t);
			goto out_unlock;
		}
	}
	rtnl_lock();
	/* The devices went away meanwhile (rt_netdev_event()). */
	if (!nports || gen != rt_gen) {
		rtnl_unlock();
		rt_table_free(t);
		ret = -ENODEV;
		goto out_unlock;
	}
	old = rtnl_dereference(tables[fam]);
	rcu_assign_pointer(tables[fam], t);
	rtnl_unlock();
	atomic64_inc(&st.tables);
	if (old) {
		/* Receivers that found the old table are done with it. */
		synchronize_net();
		rt_table_retire(old);
	}
out_unlock:
	mutex_unlock(&rt_lock);
out_free:
	kvfree(nh);
	kvfree(ent);
	kfree(text);
	return ret;
}

static int rt_attach(const char *name)
{
	struct net_device *ndev, *first;
	unsigned int i;
	int ret = 0;

	mutex_lock(&rt_lock);
	rtnl_lock();
	ndev = __dev_get_by_name(current->nsproxy->net_ns, name);
	if (!ndev) {
		ret = -ENODEV;
		goto out;
	}
	if (ndev->type != ARPHRD_ETHER) {
		ret = -EOPNOTSUPP;
		goto out;
	}
	for (i = 0; i < nports; i++)
		if (rtnl_dereference(ports[i].dev) == ndev)
			ret = -EBUSY;
	if (ret)
		goto out;
	if (nports == RT_MAX_PORTS) {
		ret = -ENOSPC;
		goto out;
	}
	/* A router forwards within its namespace. */
	first = nports ? rtnl_dereference(ports[0].dev) : NULL;
	if (first && !net_eq(dev_net(first), dev_net(ndev))) {
		ret = -EXDEV;
		goto out;
	}
	i = nports;
	/* Before the hook: a receiver and a completion read it. */
	rcu_assign_pointer(ports[i].dev, ndev);
	ret = netdev_rx_handler_register(ndev, rt_rx, &ports[i]);
	if (ret) {
		RCU_INIT_POINTER(ports[i].dev, NULL);
		goto out;
	}
	netdev_hold(ndev, &ports[i].tracker, GFP_KERNEL);
	WRITE_ONCE(nports, i + 1);
	netdev_info(ndev, "edge_router: attached, port %u\n", i);
out:
	rtnl_unlock();
	mutex_unlock(&rt_lock);
	return ret;
}

/* What rt_unhook() took, for rt_release(). */
struct rt_gone {
	struct net_device *dev[RT_MAX_PORTS];
	struct rt_table *t[RT_FAMS];
	unsigned int n;
};

/*
 * rtnl held: unhook every device, take the tables out, clear the ports
 * and start a new session, so that no receiver or completion can reach
 * what rt_release() frees.  The caller owns @g.
 */
static void rt_unhook(struct rt_gone *g)
{
	unsigned int i;
	int f;

	g->n = nports;
	for (i = 0; i < g->n; i++) {
		g->dev[i] = rtnl_dereference(ports[i].dev);
		netdev_rx_handler_unregister(g->dev[i]);
		RCU_INIT_POINTER(ports[i].dev, NULL);
	}
	for (f = 0; f < RT_FAMS; f++) {
		g->t[f] = rtnl_dereference(tables[f]);
		RCU_INIT_POINTER(tables[f], NULL);
	}
	WRITE_ONCE(rt_gen, rt_gen + 1);
	WRITE_ONCE(nports, 0);
}

/* After rt_unhook(), with or without rtnl (it takes only the GPU's). */
static void rt_release(struct rt_gone *g)
{
	unsigned int i;
	int f;

	for (f = 0; f < RT_FAMS; f++)
		if (g->t[f])
			WRITE_ONCE(g->t[f]->dying, true);
	/* Receivers in rt_rx(), completions under RCU: done. */
	synchronize_net();
	/* In flight: cancelled, their skbs freed while devices are held. */
	for (f = 0; f < RT_FAMS; f++)
		rt_table_free(g->t[f]);
	for (i = 0; i < g->n; i++)
		netdev_put(g->dev[i], &ports[i].tracker);
}

static int rt_detach(void)
{
	struct rt_gone g;

	mutex_lock(&rt_lock);
	rtnl_lock();
	rt_unhook(&g);
	rtnl_unlock();
	rt_release(&g);
	mutex_unlock(&rt_lock);
	return g.n ? 0 : -ENODEV;
}

/*
 * An attached device goes away (deleted, its namespace destroyed, moved
 * out): detach everything under rtnl, and drop our references before
 * unregister waits for them.  rt_lock may be held by a writer waiting
 * for rtnl: never taken here.
 */
static int rt_netdev_event(struct notifier_block *nb, unsigned long event,
			   void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct rt_gone g;
	unsigned int i;

	if (event != NETDEV_UNREGISTER)
		return NOTIFY_DONE;
	for (i = 0; i < nports; i++)
		if (rtnl_dereference(ports[i].dev) == ndev)
			break;
	if (i == nports)
		return NOTIFY_DONE;
	rt_unhook(&g);
	rt_release(&g);
	return NOTIFY_OK;
}

static struct notifier_block rt_notifier = {
	.notifier_call = rt_netdev_event,
};

/* sysfs: /sys/kernel/edge_router/ */

struct rt_counter_attr {
	struct kobj_attribute attr;
	atomic64_t *v;
};

static ssize_t rt_counter_show(struct kobject *k, struct kobj_attribute *at,
			       char *buf)
{
	struct rt_counter_attr *ca = container_of(at, struct rt_counter_attr,
						  attr);

	return sysfs_emit(buf, "%lld\n", atomic64_read(ca->v));
}

#define RT_COUNTER(name, field) {					\
	.attr = __ATTR(name, 0444, rt_counter_show, NULL),		\
	.v = &st.field,							\
}

static struct rt_counter_attr rt_counters[] = {
	RT_COUNTER(received, received),
	RT_COUNTER(forwarded4, forwarded4),
	RT_COUNTER(forwarded6, forwarded6),
	RT_COUNTER(pass_not_ip, pass_not_ip),
	RT_COUNTER(pass_vlan, pass_vlan),
	RT_COUNTER(pass_not_host, pass_not_host),
	RT_COUNTER(pass_gso, pass_gso),
	RT_COUNTER(pass_malformed, pass_malformed),
	RT_COUNTER(pass_options, pass_options),
	RT_COUNTER(pass_fragment, pass_fragment),
	RT_COUNTER(pass_ttl, pass_ttl),
	RT_COUNTER(pass_too_big, pass_too_big),
	RT_COUNTER(pass_sysctl, pass_sysctl),
	RT_COUNTER(pass_local, pass_local),
	RT_COUNTER(pass_martian, pass_martian),
	RT_COUNTER(pass_netfilter, pass_netfilter),
	RT_COUNTER(pass_no_table, pass_no_table),
	RT_COUNTER(pass_ring_full, pass_ring_full),
	RT_COUNTER(pass_unplugged, pass_unplugged),
	RT_COUNTER(pass_nomem, pass_nomem),
	RT_COUNTER(pass_no_route, pass_no_route),
	RT_COUNTER(pass_stack_route, pass_stack_route),
	RT_COUNTER(drop_gpu_error, drop_gpu_error),
	RT_COUNTER(drop_cancelled, drop_cancelled),
	RT_COUNTER(drop_nomem, drop_nomem),
	RT_COUNTER(drop_xmit, drop_xmit),
	RT_COUNTER(inflight, inflight),
	RT_COUNTER(reinjected, reinjected),
	RT_COUNTER(tables, tables),
	RT_COUNTER(parked, parked),
};

/* A run of struct rt_stats' counters, @from to @to: one outcome's. */
static s64 rt_sum(atomic64_t *from, atomic64_t *to)
{
	s64 s = 0;

	for (; from <= to; from++)
		s += atomic64_read(from);
	return s;
}

/* received = forwarded + passed + dropped + inflight. */
static ssize_t stats_show(struct kobject *k, struct kobj_attribute *at,
			  char *buf)
{
	int n = sysfs_emit(buf, "received %lld forwarded %lld passed %lld ",
			   atomic64_read(&st.received),
			   rt_sum(&st.forwarded4, &st.forwarded6),
			   rt_sum(&st.pass_not_ip, &st.pass_stack_route));

	return n + sysfs_emit_at(buf, n, "dropped %lld inflight %lld\n",
				 rt_sum(&st.drop_gpu_error, &st.drop_xmit),
				 atomic64_read(&st.inflight));
}

static struct kobj_attribute stats_attr = __ATTR_RO(stats);

/* Read: the attached devices, a line each.  Write: attach one more. */
static ssize_t attach_show(struct kobject *k, struct kobj_attribute *at,
			   char *buf)
{
	unsigned int i;
	int n = 0;

	rtnl_lock();
	for (i = 0; i < nports; i++)
		n += sysfs_emit_at(buf, n, "%s\n",
				   rtnl_dereference(ports[i].dev)->name);
	rtnl_unlock();
	return n;
}

static ssize_t attach_store(struct kobject *k, struct kobj_attribute *at,
			    const char *buf, size_t count)
{
	char name[IFNAMSIZ];
	size_t n = strcspn(buf, "\n");
	int ret;

	if (!n || n >= IFNAMSIZ)
		return -EINVAL;
	memcpy(name, buf, n);
	name[n] = 0;
	ret = rt_attach(name);
	return ret ? ret : count;
}

static struct kobj_attribute attach_attr = __ATTR_RW(attach);

/* Any write: detach every device, drop the tables; ENODEV when none. */
static ssize_t detach_store(struct kobject *k, struct kobj_attribute *at,
			    const char *buf, size_t count)
{
	int ret = rt_detach();

	return ret ? ret : count;
}

static struct kobj_attribute detach_attr = __ATTR_WO(detach);

/* "routes N ekt ID", or "routes 0" without a table. */
static ssize_t rt_routes_show(int fam, char *buf)
{
	struct rt_table *t;
	ssize_t n;

	rtnl_lock();
	t = rtnl_dereference(tables[fam]);
	n = t ? sysfs_emit(buf, "routes %u ekt %u\n", t->n_routes,
			   edge_kq_id(t->q)) :
		sysfs_emit(buf, "routes 0\n");
	rtnl_unlock();
	return n;
}

static ssize_t routes4_show(struct kobject *k, struct kobj_attribute *at,
			    char *buf)
{
	return rt_routes_show(RT_V4, buf);
}

static ssize_t routes4_store(struct kobject *k, struct kobj_attribute *at,
			     const char *buf, size_t count)
{
	int ret = rt_load(RT_V4, buf, count);

	return ret ? ret : count;
}

static struct kobj_attribute routes4_attr = __ATTR_RW(routes4);

static ssize_t routes6_show(struct kobject *k, struct kobj_attribute *at,
			    char *buf)
{
	return rt_routes_show(RT_V6, buf);
}

static ssize_t routes6_store(struct kobject *k, struct kobj_attribute *at,
			     const char *buf, size_t count)
{
	int ret = rt_load(RT_V6, buf, count);

	return ret ? ret : count;
}

static struct kobj_attribute routes6_attr = __ATTR_RW(routes6);

static struct attribute *rt_attrs[ARRAY_SIZE(rt_counters) + 6] = {
	[ARRAY_SIZE(rt_counters)] = &stats_attr.attr,
	&attach_attr.attr, &detach_attr.attr, &routes4_attr.attr,
	&routes6_attr.attr, NULL,
};

static const struct attribute_group rt_group = {
	.attrs = rt_attrs,
};

static int __init rt_init(void)
{
	unsigned int i;
	int ret;

	if (!is_power_of_2(ring_entries))
		return -EINVAL;
	rt_cookie = get_random_long() | 1;
	ret = register_netdevice_notifier(&rt_notifier);
	if (ret)
		return ret;
	rt_kobj = kobject_create_and_add("edge_router", kernel_kobj);
	if (!rt_kobj) {
		ret = -ENOMEM;
		goto err_notifier;
	}
	for (i = 0; i < ARRAY_SIZE(rt_counters); i++)
		rt_attrs[i] = &rt_counters[i].attr.attr;
	ret = sysfs_create_group(rt_kobj, &rt_group);
	if (ret)
		goto err_kobj;
	return 0;
err_kobj:
	kobject_put(rt_kobj);
err_notifier:
	unregister_netdevice_notifier(&rt_notifier);
	return ret;
}

/* sysfs first, so no attach can start; then detach what is attached. */
static void __exit rt_exit(void)
{
	struct rt_table *t, *n;
	LIST_HEAD(parked);

	sysfs_remove_group(rt_kobj, &rt_group);
	kobject_put(rt_kobj);
	rt_detach();
	unregister_netdevice_notifier(&rt_notifier);
	spin_lock(&rt_park_lock);
	list_splice_init(&rt_parked, &parked);
	spin_unlock(&rt_park_lock);
	list_for_each_entry_safe(t, n, &parked, park)
		rt_table_free_try(t, UINT_MAX);
}

module_init(rt_init);
module_exit(rt_exit);

MODULE_DESCRIPTION("edge_router: IPv4/IPv6 forwarding with route lookups on edge event kernels");
MODULE_LICENSE("GPL");
