// SPDX-License-Identifier: GPL-2.0
/*
 * edge_netrx: real packets answered by an edge GPU, the second sample
 * driver of the in-kernel API (Documentation/driver-api.rst).
 *
 * It attaches to a network device as its rx_handler (the hook bridge,
 * macvlan and team use: one per device, called for every received frame
 * in the softirq that receives it, before the protocol handlers).  Frames
 * of the kinds it answers go to pre-registered event kernels instead of
 * the stack:
 *
 *  - an IPv4 ICMP echo request to an address of the device, to
 *    EDGE_FN_ICMP_ECHO;
 *  - an IPv4 UDP datagram to udp_port (7, echo), to EDGE_FN_UDP_PING;
 *  - an IPv4 UDP datagram to memc_port (11211, memcached) holding one
 *    well-formed single-key "get", to EDGE_FN_MEMC (the EDGE paper's
 *    MemC), whose table is filled by SETs written to sysfs memc_set.
 *
 * It answers only what the stack itself would answer: not from a martian
 * or broadcast source, not while icmp_echo_ignore_all is set, not to UDP
 * source ports below 1024 (echo to echo would loop, to chargen or DNS
 * would reflect), not a GSO skb, and nothing while a netfilter hook is
 * registered on the stack's path (nr_netfilter()).  The GPU verifies
 * the checksums and writes the reply into the parameter entry; the
 * completion callback puts it behind an Ethernet header with the
 * addresses swapped and transmits it on the same device.  Everything else goes to the stack
 * untouched (RX_HANDLER_PASS), counted by reason, and so does a frame
 * the GPU cannot take (ring full, device unplugged); what it took and
 * the GPU refused is dropped, counted by reason.  Every frame received
 * while attached ends as exactly one of answered, passed or dropped,
 * once nothing is in flight.
 *
 * Attach and detach at run time through /sys/kernel/edge_netrx/, with
 * traffic flowing: detaching unhooks the device (synchronize_net() waits
 * for receivers in progress), then destroys the queues, whose events in
 * flight end cancelled.
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/etherdevice.h>
#include <linux/if_ether.h>
#include <linux/if_vlan.h>
#include <linux/inetdevice.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <linux/icmp.h>
#include <linux/skbuff.h>
#include <linux/rtnetlink.h>
#include <linux/kobject.h>
#include <linux/sysfs.h>
#include <linux/slab.h>
#include <linux/log2.h>
#include <linux/atomic.h>
#include <linux/mutex.h>
#include <linux/delay.h>
#include <linux/list.h>
#include <linux/completion.h>
#include <linux/refcount.h>
#include <net/ip.h>
#include <net/route.h>
#include <net/checksum.h>

#include "../edge_kapi.h"
#include "../edge_netfilter.h"

static unsigned int dev;
module_param(dev, uint, 0444);
MODULE_PARM_DESC(dev, "edge device index (default 0)");

static char *ifname;
module_param(ifname, charp, 0444);
MODULE_PARM_DESC(ifname, "Network device to attach to at load (sysfs attach)");

static unsigned int udp_port = 7;
module_param(udp_port, uint, 0444);
MODULE_PARM_DESC(udp_port, "UDP port answered by the GPU, 0: none (default 7; sysfs)");

static unsigned int memc_port = 11211;
module_param(memc_port, uint, 0444);
MODULE_PARM_DESC(memc_port, "UDP port of the GPU's memcached GETs, 0: none (default 11211; sysfs)");

static unsigned int ring_entries = 256;
module_param(ring_entries, uint, 0444);
MODULE_PARM_DESC(ring_entries, "Parameter ring size, power of two (default 256)");

static unsigned int priority = 10;
module_param(priority, uint, 0444);
MODULE_PARM_DESC(priority, "Event kernels' priority (default 10)");

/* An entry holds a whole IPv4 packet of a 1500-byte MTU. */
#define NR_PARAM_SIZE	2048
#define NR_MAX_PKT	(NR_PARAM_SIZE - sizeof(struct edge_pkt_param))
#define NR_WARP_CYCLES	700	/* 1 us at the edge preset's clock */
/*
 * MemC: a GET is at most 58 bytes, its reply 136, a SET 96 with its
 * header; a warp of 32 GETs runs the EDGE paper's 23,000 cycles.
 */
#define NR_MEMC_PARAM_SIZE	256
#define NR_MEMC_WARP_CYCLES	23000
#define NR_MEMC_REQUESTS	32
/* The memcached UDP frame header, then "get " key "\r\n". */
#define NR_MEMC_FRAME	8
#define NR_MEMC_MIN	(NR_MEMC_FRAME + 4 + 1 + 2)
#define NR_MEMC_MAX	(NR_MEMC_FRAME + 4 + EDGE_MEMC_MAX_KEY + 2)

enum nr_kind { NR_ICMP, NR_UDP, NR_MEMC, NR_KINDS };

/* A SET written to sysfs memc_set, waiting for its event. */
struct nr_memc_wait {
	struct completion done;
	/* The writer's and the event's: either may go first. */
	refcount_t ref;
	int err;
};

/*
 * Where a reply goes: the request's Ethernet addresses, swapped; or,
 * for a SET on the MemC queue, who waits for it (@set; NULL: a frame).
 */
struct nr_slot {
	u8 dst[ETH_ALEN];
	u8 src[ETH_ALEN];
	struct nr_memc_wait *set;
};

/* One event kernel and its producer side. */
struct nr_queue {
	struct edge_kq *q;
	struct nr_attach *a;
	enum nr_kind kind;
	/* Receivers on several CPUs share the one producer. */
	spinlock_t lock;
	u32 next;		/* events submitted: the next one's number */
	struct nr_slot *slots;	/* by event number & mask */
};

struct nr_attach {
	/*
	 * Cleared before the reference is dropped; the completion callback
	 * reads it under RCU (nr_reply()), and nr_release() waits for it.
	 */
	struct net_device __rcu *ndev;
	netdevice_tracker tracker;
	struct edge_device *ed;
	struct nr_queue nq[NR_KINDS];
	/* Set before the queues are destroyed: no more transmits. */
	bool detaching;
	/* On nr_parked while a queue refuses to go (nr_free()). */
	struct list_head park;
};

/* Counters; the reasons sum to their totals. */
struct nr_stats {
	atomic64_t received;
	atomic64_t answered_icmp;
	atomic64_t answered_udp;
	atomic64_t answered_memc;	/* hits and misses */
	atomic64_t pass_not_ipv4;	/* ARP, IPv6, ... */
	atomic64_t pass_vlan;		/* tagged: a VLAN device's */
	atomic64_t pass_not_host;	/* broadcast, multicast, other host */
	atomic64_t pass_not_ours;	/* other address, protocol, port, type */
	atomic64_t pass_options;	/* IP options: the stack's to answer */
	atomic64_t pass_fragment;
	atomic64_t pass_too_big;	/* larger than an entry */
	atomic64_t pass_malformed;	/* lengths that lie: the stack drops them */
	atomic64_t pass_tot_low;	/* a total length below its headers */
	atomic64_t pass_gso;		/* a GSO skb: the stack segments it */
	atomic64_t pass_martian;	/* a source the stack would not answer */
	atomic64_t pass_udp_sport;	/* UDP from a port below 1024 */
	atomic64_t pass_sysctl;		/* icmp_echo_ignore_all */
	atomic64_t pass_netfilter;	/* a hook the stack's path runs */
	atomic64_t pass_memc_frame;	/* not one frame: short, seq, count */
	/* Not exactly "get <key>\r\n" of a 1..16-byte key. */
	atomic64_t pass_memc_cmd;
	atomic64_t pass_ring_full;	/* no free parameter entry */
	atomic64_t pass_unplugged;	/* the GPU was removed */
	atomic64_t drop_malformed;	/* the GPU's EINVAL */
	atomic64_t drop_bad_csum;	/* the GPU's EBADMSG */
	atomic64_t drop_cancelled;	/* in flight at detach */
	atomic64_t drop_nomem;		/* no reply skb */
	atomic64_t drop_xmit;		/* the device refused the reply */
	atomic64_t inflight;
	atomic64_t attaches;
	atomic64_t detaches;
	atomic64_t parked;		/* detached with a queue still held */
	atomic64_t memc_hits;		/* of answered_memc */
	atomic64_t memc_sets;		/* SETs stored */
	atomic64_t memc_set_errors;	/* SETs refused or cancelled */
};

static struct nr_stats st;
static DEFINE_MUTEX(nr_lock);		/* attach/detach; outside rtnl */
static struct nr_attach *attached;	/* under nr_lock and rtnl */
static struct kobject *nr_kobj;
/* Detached, with a queue another driver still held (nr_free()). */
static LIST_HEAD(nr_parked);
static DEFINE_SPINLOCK(nr_park_lock);

static u32 nr_mask(void)
{
	return ring_entries - 1;
}

/* The device's own IPv4 addresses: only those are answered. */
static bool nr_is_local(struct net_device *ndev, __be32 daddr)
{
	struct in_device *in_dev = __in_dev_get_rcu(ndev);
	const struct in_ifaddr *ifa;

	if (!in_dev)
		return false;
	in_dev_for_each_ifa_rcu(ifa, in_dev)
		if (ifa->ifa_local == daddr)
			return true;
	return false;
}

/*
 * A source the stack would not answer: what ip_route_input_slow() calls
 * martian (limited broadcast, multicast, 0/8, loopback), an address of
 * this host on any of its devices (fib_validate_source()) or a broadcast
 * one (not unicast in the namespace's local table), or a broadcast or
 * multicast source MAC.  Softirq, under RCU.
 */
static bool nr_martian(const struct sk_buff *skb, __be32 saddr)
{
	if (is_multicast_ether_addr(eth_hdr(skb)->h_source))
		return true;
	if (ipv4_is_lbcast(saddr) || ipv4_is_multicast(saddr) ||
	    ipv4_is_zeronet(saddr) || ipv4_is_loopback(saddr))
		return true;
	return inet_addr_type(dev_net(skb->dev), saddr) != RTN_UNICAST;
}

/*
 * Rules are the stack's to evaluate, not the GPU's: while any netfilter
 * hook is registered in the frame's namespace on a hook the stack's path
 * would run (PRE_ROUTING and LOCAL_IN for the request, LOCAL_OUT and
 * POST_ROUTING for its reply), the frame is the stack's, whatever the
 * rules say (an LSM's hook aside: edge_nf_hooked()).  tc and netfilter
 * ingress ran before the rx_handler already.  Softirq, RCU.
 */
static bool nr_netfilter(const struct net *net)
{
#ifdef CONFIG_NETFILTER
	static const u8 hooks[] = {
		NF_INET_PRE_ROUTING, NF_INET_LOCAL_IN, NF_INET_LOCAL_OUT,
		NF_INET_POST_ROUTING,
	};

	return edge_nf_hooked(net->nf.hooks_ipv4, hooks, ARRAY_SIZE(hooks));
#else
	return false;
#endif
}

/*
 * MemC takes only what it answers as memcached would: one frame of one
 * datagram (sequence 0, count 1) holding exactly "get <key>\r\n", a key
 * of 1..EDGE_MEMC_MAX_KEY bytes each printable and not a space.  "gets",
 * several keys, other commands, longer keys go to the stack (where a
 * memcached may listen).  @tot and @hlen are checked by the caller.
 */
static enum nr_kind nr_memc_classify(struct sk_buff *skb, unsigned int hlen,
				     unsigned int tot, atomic64_t **why)
{
	unsigned int plen = tot - hlen - sizeof(struct udphdr), klen, i;
	u8 buf[NR_MEMC_MAX];
	struct udphdr uh;

	/* The GPU takes the UDP length as the datagram's; the stack trims. */
	if (skb_copy_bits(skb, hlen, &uh, sizeof(uh)) ||
	    ntohs(uh.len) != tot - hlen) {
		*why = &st.pass_malformed;
		return NR_KINDS;
	}
	*why = &st.pass_memc_frame;
	if (plen < NR_MEMC_FRAME ||
	    skb_copy_bits(skb, hlen + sizeof(uh), buf,
			  min_t(unsigned int, plen, sizeof(buf))))
		return NR_KINDS;
	/* Sequence number 0 of a count of 1: the whole request. */
	if (buf[2] || buf[3] || buf[4] || buf[5] != 1)
		return NR_KINDS;
	*why = &st.pass_memc_cmd;
	if (plen < NR_MEMC_MIN || plen > NR_MEMC_MAX ||
	    memcmp(buf + NR_MEMC_FRAME, "get ", 4) ||
	    buf[plen - 2] != '\r' || buf[plen - 1] != '\n')
		return NR_KINDS;
	klen = plen - NR_MEMC_MIN + 1;
	for (i = 0; i < klen; i++) {
		u8 c = buf[NR_MEMC_FRAME + 4 + i];

		if (c < 0x21 || c > 0x7e)
			return NR_KINDS;
	}
	return NR_MEMC;
}

/*
 * What kind of frame this is: a kind we answer, or NR_KINDS with the
 * counter of why it goes to the stack (*why).  Pulls headers into the
 * linear part, which the stack would do anyway, and so may move the
 * head: read the headers again after it (ip_hdr(), eth_hdr()).
 */
static enum nr_kind nr_classify(struct sk_buff *skb, atomic64_t **why)
{
	enum nr_kind kind = NR_ICMP;
	const struct iphdr *iph;
	unsigned int hlen, tot;
	unsigned int port, mport;

	if (skb_vlan_tag_present(skb) || eth_type_vlan(skb->protocol)) {
		*why = &st.pass_vlan;
		return NR_KINDS;
	}
	if (skb->protocol != htons(ETH_P_IP)) {
		*why = &st.pass_not_ipv4;
		return NR_KINDS;
	}
	if (skb->pkt_type != PACKET_HOST) {
		*why = &st.pass_not_host;
		return NR_KINDS;
	}
	/* The stack segments these (or a bad sender's): never in place. */
	if (skb_is_gso(skb)) {
		*why = &st.pass_gso;
		return NR_KINDS;
	}
	*why = &st.pass_not_ours;
	if (!skb_mac_header_was_set(skb) || skb->mac_len != ETH_HLEN ||
	    !pskb_may_pull(skb, sizeof(*iph)))
		return NR_KINDS;
	iph = ip_hdr(skb);
	hlen = iph->ihl * 4;
	if (iph->version != 4 || hlen < sizeof(*iph) ||
	    !nr_is_local(skb->dev, iph->daddr))
		return NR_KINDS;
	if (iph->protocol == IPPROTO_ICMP) {
		struct icmphdr ih;

		if (skb_copy_bits(skb, hlen, &ih, sizeof(ih)) ||
		    ih.type != ICMP_ECHO || ih.code)
			return NR_KINDS;
	} else if (iph->protocol == IPPROTO_UDP) {
		struct udphdr uh;

		port = READ_ONCE(udp_port);
		mport = READ_ONCE(memc_port);
		if (skb_copy_bits(skb, hlen, &uh, sizeof(uh)))
			return NR_KINDS;
		if (port && uh.dest == htons(port))
			kind = NR_UDP;
		else if (mport && uh.dest == htons(mport))
			kind = NR_MEMC;
		else
			return NR_KINDS;
		/*
		 * Echo to a well-known port loops (7, another echo server)
		 * or reflects (19 chargen, 53 DNS): RFC 862 servers and
		 * the kernel's own users refuse these; a GET answered to
		 * a well-known port is a reflection too.
		 */
		if (ntohs(uh.source) < 1024 || uh.source == uh.dest) {
			*why = &st.pass_udp_sport;
			return NR_KINDS;
		}
	} else {
		return NR_KINDS;
	}
	/* Ours by its headers; now what the stack answers better. */
	if (hlen != sizeof(*iph)) {
		*why = &st.pass_options;
		return NR_KINDS;
	}
	if (ip_is_fragment(iph)) {
		*why = &st.pass_fragment;
		return NR_KINDS;
	}
	tot = ntohs(iph->tot_len);
	if (tot > NR_MAX_PKT) {
		*why = &st.pass_too_big;
		return NR_KINDS;
	}
	/* Truncated, or a length below its headers: the stack drops it. */
	if (tot > skb->len) {
		*why = &st.pass_malformed;
		return NR_KINDS;
	}
	if (tot < hlen + 8) {
		*why = &st.pass_tot_low;
		return NR_KINDS;
	}
	if (nr_martian(skb, iph->saddr)) {
		*why = &st.pass_martian;
		return NR_KINDS;
	}
	/* The stack would not answer it either (icmp_echo()). */
	if (iph->protocol == IPPROTO_ICMP &&
	    READ_ONCE(dev_net(skb->dev)->ipv4.sysctl_icmp_echo_ignore_all)) {
		*why = &st.pass_sysctl;
		return NR_KINDS;
	}
	if (kind == NR_MEMC)
		kind = nr_memc_classify(skb, hlen, tot, why);
	/* Last: only what the GPU would have taken counts here. */
	if (kind != NR_KINDS && nr_netfilter(dev_net(skb->dev))) {
		*why = &st.pass_netfilter;
		return NR_KINDS;
	}
	return kind;
}

/*
 * A local sender's checksum may still be the NIC's to finish (veth
 * offers checksum offload): finish it in the entry's copy, as a wire
 * would have, as skb_checksum_help() does, but without writing the skb,
 * whose head a clone (an AF_PACKET tap) may share.
 */
static bool nr_finish_csum(const struct sk_buff *skb, u8 *pkt, u32 tot)
{
	int start = skb_checksum_start_offset(skb);
	u32 off = start + skb->csum_offset;
	__wsum csum;

	if (start < 0 || off + sizeof(__sum16) > tot)
		return false;
	csum = csum_partial(pkt + start, tot - start, 0);
	*(__sum16 *)(pkt + off) = csum_fold(csum) ?: CSUM_MANGLED_0;
	return true;
}

/*
 * Softirq: hand the packet to the GPU; never sleeps.  Returns NULL when
 * the GPU took it (the caller consumes the skb), or the counter of why
 * it goes to the stack untouched: nothing here writes the skb.
 */
static atomic64_t *nr_submit(struct nr_queue *nq, struct sk_buff *skb)
{
	/* Read after nr_classify()'s pulls, which may move the head. */
	unsigned int tot = ntohs(ip_hdr(skb)->tot_len);
	struct edge_pkt_param *pp;
	const struct ethhdr *eth;
	atomic64_t *pass = NULL;
	struct nr_slot *s;

	/* MemC's entry is a packet entry with an op: data at the same place. */
	BUILD_BUG_ON(offsetof(struct edge_memc_param, data) !=
		     offsetof(struct edge_pkt_param, data));
	spin_lock(&nq->lock);
	pp = edge_kq_param(nq->q, 0);
	if (!pp) {
		pass = edge_kq_unplugged(nq->q) ? &st.pass_unplugged :
						  &st.pass_ring_full;
		goto out;
	}
	if (skb_copy_bits(skb, 0, pp->data, tot) ||
	    (skb->ip_summed == CHECKSUM_PARTIAL &&
	     !nr_finish_csum(skb, pp->data, tot))) {
		pass = &st.pass_malformed;
		goto out;
	}
	pp->len = tot;
	if (nq->kind == NR_MEMC) {
		struct edge_memc_param *mp = (void *)pp;

		/* The entry may have held a SET: this one is a GET. */
		mp->op = EDGE_MEMC_GET;
		mp->hit = 0;
	}
	s = &nq->slots[nq->next & nr_mask()];
	s->set = NULL;
	eth = eth_hdr(skb);
	ether_addr_copy(s->dst, eth->h_source);
	ether_addr_copy(s->src, eth->h_dest);
	atomic64_inc(&st.inflight);
	if (edge_kq_submit(nq->q, 1)) {
		atomic64_dec(&st.inflight);
		pass = &st.pass_unplugged;
		goto out;
	}
	nq->next++;
out:
	spin_unlock(&nq->lock);
	return pass;
}

static rx_handler_result_t nr_rx(struct sk_buff **pskb)
{
	struct sk_buff *skb = *pskb;
	struct nr_attach *a = rcu_dereference(skb->dev->rx_handler_data);
	atomic64_t *why;
	enum nr_kind kind;

	atomic64_inc(&st.received);
	/*
	 * Another holder may still read this skb: pull (and consume) only
	 * our own.  A failed clone has freed it: nothing left to pass.
	 */
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb) {
		atomic64_inc(&st.drop_nomem);
		return RX_HANDLER_CONSUMED;
	}
	*pskb = skb;
	kind = nr_classify(skb, &why);
	if (kind != NR_KINDS)
		why = nr_submit(&a->nq[kind], skb);
	if (why) {
		atomic64_inc(why);
		return RX_HANDLER_PASS;
	}
	consume_skb(skb);
	return RX_HANDLER_CONSUMED;
}

static atomic64_t *const answered[NR_KINDS] = {
	[NR_ICMP] = &st.answered_icmp, [NR_UDP] = &st.answered_udp,
	[NR_MEMC] = &st.answered_memc,
};

/* The front-end thread, device mutex held: transmit one reply. */
static void nr_reply(struct nr_queue *nq, const struct edge_kq_completion *c)
{
	const struct edge_pkt_param *pp = c->param;
	const struct nr_slot *s = &nq->slots[c->seq & nr_mask()];
	u32 len = c->cqe.res;
	struct net_device *ndev;
	struct sk_buff *skb;
	struct ethhdr *eth;

	/* The function returns the packet's length, which fit the entry. */
	if (WARN_ON_ONCE(len > NR_MAX_PKT)) {
		atomic64_inc(&st.drop_malformed);
		return;
	}
	/* nr_release() clears it and waits for us before its netdev_put(). */
	rcu_read_lock();
	ndev = rcu_dereference(nq->a->ndev);
	if (!ndev) {
		rcu_read_unlock();
		atomic64_inc(&st.drop_cancelled);
		return;
	}
	skb = netdev_alloc_skb(ndev, ETH_HLEN + len);
	if (!skb) {
		rcu_read_unlock();
		atomic64_inc(&st.drop_nomem);
		return;
	}
	eth = skb_put(skb, ETH_HLEN);
	ether_addr_copy(eth->h_dest, s->dst);
	ether_addr_copy(eth->h_source, s->src);
	eth->h_proto = htons(ETH_P_IP);
	skb_put_data(skb, pp->data, len);
	skb_reset_mac_header(skb);
	skb_set_network_header(skb, ETH_HLEN);
	skb->protocol = htons(ETH_P_IP);
	skb->dev = ndev;
	if (dev_queue_xmit(skb) == NET_XMIT_SUCCESS) {
		atomic64_inc(answered[nq->kind]);
		if (nq->kind == NR_MEMC &&
		    ((const struct edge_memc_param *)pp)->hit)
			atomic64_inc(&st.memc_hits);
	} else {
		atomic64_inc(&st.drop_xmit);
	}
	rcu_read_unlock();
}

static void nr_memc_wait_put(struct nr_memc_wait *w)
{
	if (refcount_dec_and_test(&w->ref))
		kfree(w);
}

/* A SET's completion: its errno to the writer waiting for it. */
static void nr_memc_set_done(struct nr_slot *s,
			     const struct edge_kq_completion *c)
{
	struct nr_memc_wait *w = s->set;

	s->set = NULL;
	switch (EDGE_CQE_CODE(c->cqe.status)) {
	case EDGE_CQE_DONE:
		w->err = 0;
		break;
	case EDGE_CQE_ERROR:	/* EINVAL, ENOSPC: the table's refusal */
		w->err = -(int)c->cqe.res;
		break;
	default:		/* CANCELLED (detach, unplug), REJECTED */
		w->err = -ECANCELED;
		break;
	}
	atomic64_inc(w->err ? &st.memc_set_errors : &st.memc_sets);
	complete(&w->done);
	nr_memc_wait_put(w);
}

static void nr_notify(struct edge_kq *q, void *ctx)
{
	struct nr_queue *nq = ctx;
	struct edge_kq_completion c;

	while (edge_kq_peek(q, &c)) {
		struct nr_slot *s = &nq->slots[c.seq & nr_mask()];

		/* Not a frame: counted apart from them, never inflight. */
		if (s->set) {
			nr_memc_set_done(s, &c);
			edge_kq_seen(q);
			continue;
		}
		switch (EDGE_CQE_CODE(c.cqe.status)) {
		case EDGE_CQE_DONE:
			if (READ_ONCE(nq->a->detaching))
				atomic64_inc(&st.drop_cancelled);
			else
				nr_reply(nq, &c);
			break;
		case EDGE_CQE_ERROR:
			atomic64_inc(c.cqe.res == EBADMSG ? &st.drop_bad_csum :
							    &st.drop_malformed);
			break;
		default:		/* CANCELLED, REJECTED */
			atomic64_inc(&st.drop_cancelled);
			break;
		}
		atomic64_dec(&st.inflight);
		edge_kq_seen(q);
	}
}

/*
 * Destroy the queues, then free what their callbacks use.  A queue that
 * another driver holds (edge_kq_lookup()) refuses with -EBUSY and stays
 * registered, and its callback may still run: wait for the holder a
 * while, as a holder's reference is short by the API's rules; if it is
 * still held, park the state instead of freeing it under the callback,
 * and try again at module exit.  Returns true when freed.
 */
static bool nr_free_try(struct nr_attach *a, unsigned int wait_ms)
{
	unsigned int ms = 0;
	int k;

	WRITE_ONCE(a->detaching, true);
	for (k = 0; k < NR_KINDS; k++) {
		if (IS_ERR_OR_NULL(a->nq[k].q))
			continue;
		while (edge_kq_destroy(a->nq[k].q) == -EBUSY) {
			if (ms >= wait_ms)
				return false;
			msleep(20);
			ms += 20;
		}
		a->nq[k].q = NULL;
	}
	for (k = 0; k < NR_KINDS; k++)
		kvfree(a->nq[k].slots);
	if (a->ed)
		edge_device_release(a->ed);
	kfree(a);
	return true;
}

static void nr_free(struct nr_attach *a)
{
	if (nr_free_try(a, 2000))
		return;
	pr_warn("edge_netrx: a queue is held by another driver; freed when it is released\n");
	atomic64_inc(&st.parked);
	spin_lock(&nr_park_lock);
	list_add_tail(&a->park, &nr_parked);
	spin_unlock(&nr_park_lock);
}

/* Process context, nr_lock held, not rtnl (registration takes the GPU's). */
static struct nr_attach *nr_alloc(void)
{
	static const u32 funcs[NR_KINDS] = {
		[NR_ICMP] = EDGE_FN_ICMP_ECHO, [NR_UDP] = EDGE_FN_UDP_PING,
		[NR_MEMC] = EDGE_FN_MEMC,
	};
	struct nr_attach *a;
	int k, ret;

	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (!a)
		return ERR_PTR(-ENOMEM);
	a->ed = edge_device_find(dev);
	if (!a->ed) {
		ret = -ENODEV;
		goto err;
	}
	for (k = 0; k < NR_KINDS; k++) {
		struct nr_queue *nq = &a->nq[k];
		struct edge_register reg = {
			.size = sizeof(reg), .func = funcs[k],
			.priority = priority,
			.grid_x = 1, .grid_y = 1, .grid_z = 1,
			.block_x = 32, .block_y = 1, .block_z = 1,
			.regs_per_thread = 16, .param_size = NR_PARAM_SIZE,
			.ring_entries = ring_entries,
			.warp_cycles = NR_WARP_CYCLES,
		};

		/* MemC: EDGE's batched event warps of 32 GETs. */
		if (k == NR_MEMC) {
			reg.param_size = NR_MEMC_PARAM_SIZE;
			reg.warp_cycles = NR_MEMC_WARP_CYCLES;
			reg.flags = EDGE_REGISTER_WARP_BATCH;
			reg.requests_per_warp = NR_MEMC_REQUESTS;
		}

		nq->a = a;
		nq->kind = k;
		spin_lock_init(&nq->lock);
		nq->slots = kvcalloc(ring_entries, sizeof(*nq->slots),
				     GFP_KERNEL);
		if (!nq->slots) {
			ret = -ENOMEM;
			goto err;
		}
		nq->q = edge_kq_register(a->ed, &reg, nr_notify, nq);
		if (IS_ERR(nq->q)) {
			ret = PTR_ERR(nq->q);
			goto err;
		}
	}
	return a;
err:
	nr_free(a);
	return ERR_PTR(ret);
}

static int nr_attach(const char *name)
{
	struct net_device *ndev;
	struct nr_attach *a;
	int ret;

	mutex_lock(&nr_lock);
	if (attached) {
		ret = -EBUSY;
		goto out;
	}
	a = nr_alloc();
	if (IS_ERR(a)) {
		ret = PTR_ERR(a);
		goto out;
	}
	rtnl_lock();
	ndev = __dev_get_by_name(current->nsproxy->net_ns, name);
	if (!ndev || ndev->type != ARPHRD_ETHER) {
		ret = ndev ? -EOPNOTSUPP : -ENODEV;
		goto err_unlock;
	}
	RCU_INIT_POINTER(a->ndev, ndev);
	ret = netdev_rx_handler_register(ndev, nr_rx, a);
	if (ret) {
		RCU_INIT_POINTER(a->ndev, NULL);
		goto err_unlock;
	}
	netdev_hold(ndev, &a->tracker, GFP_KERNEL);
	attached = a;
	rtnl_unlock();
	atomic64_inc(&st.attaches);
	netdev_info(ndev, "edge_netrx: attached, EKT ids %u (icmp) %u (udp) %u (memc)\n",
		    edge_kq_id(a->nq[NR_ICMP].q), edge_kq_id(a->nq[NR_UDP].q),
		    edge_kq_id(a->nq[NR_MEMC].q));
	goto out;
err_unlock:
	rtnl_unlock();
	nr_free(a);
out:
	mutex_unlock(&nr_lock);
	return ret;
}

/*
 * rtnl held.  Unhook the device; receivers already inside nr_rx() finish
 * (synchronize_net()) before the caller frees anything they use.
 */
static struct nr_attach *nr_unhook(void)
{
	struct nr_attach *a = attached;

	if (!a)
		return NULL;
	netdev_rx_handler_unregister(rtnl_dereference(a->ndev));
	attached = NULL;
	return a;
}

/*
 * After nr_unhook(): the device's reference goes only after no
 * completion can use it (nr_reply() reads it under RCU, and finds it
 * cleared once synchronize_net() returns); then cancel what is in
 * flight and free.  The one caller that unhooked @a owns it.
 */
static void nr_release(struct nr_attach *a)
{
	struct net_device *ndev = rcu_dereference_protected(a->ndev, true);

	WRITE_ONCE(a->detaching, true);
	RCU_INIT_POINTER(a->ndev, NULL);
	/* Receivers in nr_rx() and senders in nr_reply() are done. */
	synchronize_net();
	netdev_put(ndev, &a->tracker);
	nr_free(a);
	atomic64_inc(&st.detaches);
}

static int nr_detach(void)
{
	struct nr_attach *a;

	mutex_lock(&nr_lock);
	rtnl_lock();
	a = nr_unhook();
	rtnl_unlock();
	if (a)
		nr_release(a);
	mutex_unlock(&nr_lock);
	return a ? 0 : -ENODEV;
}

/*
 * The device goes away (deleted, its namespace destroyed): unhook it
 * under rtnl, and drop our reference before unregister waits for it.
 * The queues' callbacks may still transmit until nr_release(); a
 * "detaching" device drops what they send.
 */
static int nr_netdev_event(struct notifier_block *nb, unsigned long event,
			   void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct nr_attach *a;

	if (event != NETDEV_UNREGISTER)
		return NOTIFY_DONE;
	a = attached;
	if (!a || rtnl_dereference(a->ndev) != ndev)
		return NOTIFY_DONE;
	nr_unhook();
	/*
	 * nr_lock may be held by an attach waiting for rtnl: release in
	 * this context, which holds rtnl but never nr_lock.  The queues'
	 * destroy takes only the GPU's lock, which never waits for rtnl.
	 */
	nr_release(a);
	return NOTIFY_OK;
}

static struct notifier_block nr_notifier = {
	.notifier_call = nr_netdev_event,
};

/* sysfs: /sys/kernel/edge_netrx/ */

struct nr_counter_attr {
	struct kobj_attribute attr;
	atomic64_t *v;
};

static ssize_t nr_counter_show(struct kobject *k, struct kobj_attribute *at,
			       char *buf)
{
	struct nr_counter_attr *ca = container_of(at, struct nr_counter_attr,
						  attr);

	return sysfs_emit(buf, "%lld\n", atomic64_read(ca->v));
}

#define NR_COUNTER(name, field) {					\
	.attr = __ATTR(name, 0444, nr_counter_show, NULL),		\
	.v = &st.field,							\
}

static struct nr_counter_attr nr_counters[] = {
	NR_COUNTER(received, received),
	NR_COUNTER(answered_icmp, answered_icmp),
	NR_COUNTER(answered_udp, answered_udp),
	NR_COUNTER(answered_memc, answered_memc),
	NR_COUNTER(pass_not_ipv4, pass_not_ipv4),
	NR_COUNTER(pass_vlan, pass_vlan),
	NR_COUNTER(pass_not_host, pass_not_host),
	NR_COUNTER(pass_not_ours, pass_not_ours),
	NR_COUNTER(pass_options, pass_options),
	NR_COUNTER(pass_fragment, pass_fragment),
	NR_COUNTER(pass_too_big, pass_too_big),
	NR_COUNTER(pass_malformed, pass_malformed),
	NR_COUNTER(pass_tot_low, pass_tot_low),
	NR_COUNTER(pass_gso, pass_gso),
	NR_COUNTER(pass_martian, pass_martian),
	NR_COUNTER(pass_udp_sport, pass_udp_sport),
	NR_COUNTER(pass_sysctl, pass_sysctl),
	NR_COUNTER(pass_netfilter, pass_netfilter),
	NR_COUNTER(pass_memc_frame, pass_memc_frame),
	NR_COUNTER(pass_memc_cmd, pass_memc_cmd),
	NR_COUNTER(pass_ring_full, pass_ring_full),
	NR_COUNTER(pass_unplugged, pass_unplugged),
	NR_COUNTER(drop_malformed, drop_malformed),
	NR_COUNTER(drop_bad_csum, drop_bad_csum),
	NR_COUNTER(drop_cancelled, drop_cancelled),
	NR_COUNTER(drop_nomem, drop_nomem),
	NR_COUNTER(drop_xmit, drop_xmit),
	NR_COUNTER(inflight, inflight),
	NR_COUNTER(attaches, attaches),
	NR_COUNTER(detaches, detaches),
	NR_COUNTER(parked, parked),
	NR_COUNTER(memc_hits, memc_hits),
	NR_COUNTER(memc_sets, memc_sets),
	NR_COUNTER(memc_set_errors, memc_set_errors),
};

/* A run of struct nr_stats' counters, @from to @to: one reason's kind. */
static s64 nr_sum(atomic64_t *from, atomic64_t *to)
{
	s64 s = 0;

	for (; from <= to; from++)
		s += atomic64_read(from);
	return s;
}

/* The totals: received = answered + passed + dropped + inflight. */
static ssize_t stats_show(struct kobject *k, struct kobj_attribute *at,
			  char *buf)
{
	int n = sysfs_emit(buf, "received %lld answered %lld passed %lld ",
			   atomic64_read(&st.received),
			   nr_sum(&st.answered_icmp, &st.answered_memc),
			   nr_sum(&st.pass_not_ipv4, &st.pass_unplugged));

	return n + sysfs_emit_at(buf, n, "dropped %lld inflight %lld\n",
				 nr_sum(&st.drop_malformed, &st.drop_xmit),
				 atomic64_read(&st.inflight));
}

static struct kobj_attribute stats_attr = __ATTR_RO(stats);

/* Read: the attached device's name, or nothing.  Write: attach to one. */
static ssize_t attach_show(struct kobject *k, struct kobj_attribute *at,
			   char *buf)
{
	ssize_t n;

	/* rtnl: the device's removal detaches under it (nr_netdev_event). */
	rtnl_lock();
	n = attached ? sysfs_emit(buf, "%s\n",
				  rtnl_dereference(attached->ndev)->name) :
		       sysfs_emit(buf, "\n");
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
	ret = nr_attach(name);
	return ret ? ret : count;
}

static struct kobj_attribute attach_attr = __ATTR_RW(attach);

/* Any write: detach; ENODEV when not attached. */
static ssize_t detach_store(struct kobject *k, struct kobj_attribute *at,
			    const char *buf, size_t count)
{
	int ret = nr_detach();

	return ret ? ret : count;
}

static struct kobj_attribute detach_attr = __ATTR_WO(detach);

static ssize_t udp_port_show(struct kobject *k, struct kobj_attribute *at,
			     char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(udp_port));
}

static ssize_t udp_port_store(struct kobject *k, struct kobj_attribute *at,
			      const char *buf, size_t count)
{
	u16 v;
	int ret = kstrtou16(buf, 0, &v);

	if (ret)
		return ret;
	/* One port, one service: the echo would shadow MemC's GETs. */
	if (v && v == READ_ONCE(memc_port))
		return -EINVAL;
	WRITE_ONCE(udp_port, v);
	return count;
}

static struct kobj_attribute udp_port_attr = __ATTR_RW(udp_port);

static ssize_t memc_port_show(struct kobject *k, struct kobj_attribute *at,
			      char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(memc_port));
}

static ssize_t memc_port_store(struct kobject *k, struct kobj_attribute *at,
			       const char *buf, size_t count)
{
	u16 v;
	int ret = kstrtou16(buf, 0, &v);

	if (ret)
		return ret;
	if (v && v == READ_ONCE(udp_port))
		return -EINVAL;
	WRITE_ONCE(memc_port, v);
	return count;
}

static struct kobj_attribute memc_port_attr = __ATTR_RW(memc_port);

/*
 * Submit a SET on the MemC queue and wait for its completion.  rtnl
 * keeps the attachment while we submit: detach unhooks under it, and
 * the device's removal releases under it.  Once submitted, a detach
 * or unplug cancels the event, so it always completes; the wait state
 * is shared with the completion (a reference each), so a writer killed
 * while waiting leaves nothing the completion could write to.
 */
static int nr_memc_set(const struct edge_memc_set *set)
{
	struct edge_memc_param *mp;
	struct nr_memc_wait *w;
	struct nr_queue *nq;
	struct nr_slot *s;
	int ret;

	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	init_completion(&w->done);
	refcount_set(&w->ref, 2);
	rtnl_lock();
	if (!attached) {
		ret = -ENODEV;
		goto err;
	}
	nq = &attached->nq[NR_MEMC];
	/* Receivers take the lock in softirq: keep them off this CPU. */
	spin_lock_bh(&nq->lock);
	mp = edge_kq_param(nq->q, 0);
	if (!mp) {
		spin_unlock_bh(&nq->lock);
		ret = edge_kq_unplugged(nq->q) ? -ENODEV : -EBUSY;
		goto err;
	}
	mp->len = 0;
	mp->op = EDGE_MEMC_SET;
	mp->hit = 0;
	memcpy(mp->data, set, sizeof(*set));
	s = &nq->slots[nq->next & nr_mask()];
	s->set = w;
	if (edge_kq_submit(nq->q, 1)) {
		s->set = NULL;
		spin_unlock_bh(&nq->lock);
		ret = -ENODEV;
		goto err;
	}
	nq->next++;
	spin_unlock_bh(&nq->lock);
	rtnl_unlock();
	ret = wait_for_completion_killable(&w->done);
	if (!ret)
		ret = w->err;
	nr_memc_wait_put(w);
	return ret;
err:
	rtnl_unlock();
	atomic64_inc(&st.memc_set_errors);
	kfree(w);
	return ret;
}

/* "key value\n": a key as a GET names it, a value to the end of line. */
static ssize_t memc_set_store(struct kobject *k, struct kobj_attribute *at,
			      const char *buf, size_t count)
{
	struct edge_memc_set set = {};
	size_t n = strcspn(buf, "\n"), klen, i;
	const char *v = strnchr(buf, n, ' ');
	int ret;

	/* Nothing may follow the line's end; a space ends the key. */
	if (n + 1 < count || !v)
		return -EINVAL;
	klen = v - buf;
	if (!klen || klen > EDGE_MEMC_MAX_KEY)
		return -EINVAL;
	for (i = 0; i < klen; i++)
		if (buf[i] < 0x21 || buf[i] > 0x7e)
			return -EINVAL;
	v++;
	if (n - klen - 1 > EDGE_MEMC_MAX_VALUE)
		return -EINVAL;
	set.key_len = klen;
	memcpy(set.key, buf, klen);
	set.value_len = n - klen - 1;
	memcpy(set.value, v, set.value_len);
	ret = nr_memc_set(&set);
	return ret ? ret : count;
}

static struct kobj_attribute memc_set_attr = __ATTR_WO(memc_set);

/* "icmp ID udp ID memc ID" while attached: the event kernels' EKT ids. */
static ssize_t ekt_ids_show(struct kobject *k, struct kobj_attribute *at,
			    char *buf)
{
	ssize_t n;

	rtnl_lock();
	n = attached ? sysfs_emit(buf, "icmp %u udp %u memc %u\n",
				  edge_kq_id(attached->nq[NR_ICMP].q),
				  edge_kq_id(attached->nq[NR_UDP].q),
				  edge_kq_id(attached->nq[NR_MEMC].q)) :
		       sysfs_emit(buf, "\n");
	rtnl_unlock();
	return n;
}

static struct kobj_attribute ekt_ids_attr = __ATTR_RO(ekt_ids);

static struct attribute *nr_attrs[ARRAY_SIZE(nr_counters) + 8] = {
	[ARRAY_SIZE(nr_counters)] = &stats_attr.attr,
	&attach_attr.attr, &detach_attr.attr, &udp_port_attr.attr,
	&ekt_ids_attr.attr, &memc_port_attr.attr, &memc_set_attr.attr, NULL,
};

static const struct attribute_group nr_group = {
	.attrs = nr_attrs,
};

static int __init nr_init(void)
{
	unsigned int i;
	int ret;

	if (!is_power_of_2(ring_entries) || udp_port > U16_MAX ||
	    memc_port > U16_MAX || (udp_port && udp_port == memc_port))
		return -EINVAL;
	ret = register_netdevice_notifier(&nr_notifier);
	if (ret)
		return ret;
	nr_kobj = kobject_create_and_add("edge_netrx", kernel_kobj);
	if (!nr_kobj) {
		ret = -ENOMEM;
		goto err_notifier;
	}
	for (i = 0; i < ARRAY_SIZE(nr_counters); i++)
		nr_attrs[i] = &nr_counters[i].attr.attr;
	ret = sysfs_create_group(nr_kobj, &nr_group);
	if (ret)
		goto err_kobj;
	if (ifname && *ifname) {
		ret = nr_attach(ifname);
		if (ret)
			goto err_group;
	}
	return 0;
err_group:
	sysfs_remove_group(nr_kobj, &nr_group);
err_kobj:
	kobject_put(nr_kobj);
err_notifier:
	unregister_netdevice_notifier(&nr_notifier);
	return ret;
}

/* sysfs first, so no attach can start; then detach what is attached. */
static void __exit nr_exit(void)
{
	struct nr_attach *a, *n;
	LIST_HEAD(parked);

	sysfs_remove_group(nr_kobj, &nr_group);
	kobject_put(nr_kobj);
	nr_detach();
	unregister_netdevice_notifier(&nr_notifier);
	/* Parked states: their holders must let go before we are gone. */
	spin_lock(&nr_park_lock);
	list_splice_init(&nr_parked, &parked);
	spin_unlock(&nr_park_lock);
	list_for_each_entry_safe(a, n, &parked, park)
		nr_free_try(a, UINT_MAX);
}

module_init(nr_init);
module_exit(nr_exit);

MODULE_DESCRIPTION("edge_netrx: real packets answered by edge event kernels");
MODULE_LICENSE("GPL");
