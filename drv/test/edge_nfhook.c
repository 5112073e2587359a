// SPDX-License-Identifier: GPL-2.0
/*
 * edge_nfhook: a netfilter hook for the tests of edge_netrx and
 * edge_router, which must hand a frame to the stack while any hook the
 * stack's path would run is registered (Documentation/driver-api.rst).
 *
 * It registers one hook, family pf (2 IPv4, 10 IPv6) and hooknum (0
 * PRE_ROUTING, 1 LOCAL_IN, 2 FORWARD, 3 LOCAL_OUT, 4 POST_ROUTING), in
 * the network namespace of the process that loads it (`nsenter -t PID
 * -n insmod edge_nfhook.ko ...` picks one), until it is unloaded.  With
 * drop=1 its verdict is NF_DROP for echo requests (ICMP, ICMPv6), as a
 * firewall rule refusing pings would be; else NF_ACCEPT: being
 * registered is what the drivers look at.  dropped counts its drops.
 * Built only on a kernel with netfilter (Kbuild).
 */
#include <linux/module.h>
#include <linux/netfilter.h>
#include <linux/netfilter_ipv4.h>
#include <linux/netfilter_ipv6.h>
#include <linux/skbuff.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/nsproxy.h>
#include <linux/sched.h>
#include <net/net_namespace.h>

static int pf = NFPROTO_IPV4;
module_param(pf, int, 0444);
MODULE_PARM_DESC(pf, "family: 2 IPv4, 10 IPv6");
static int hooknum = NF_INET_LOCAL_IN;
module_param(hooknum, int, 0444);
MODULE_PARM_DESC(hooknum, "NF_INET_* hook: 0 PRE_ROUTING .. 4 POST_ROUTING");
static bool drop;
module_param(drop, bool, 0444);
MODULE_PARM_DESC(drop, "NF_DROP echo requests (else NF_ACCEPT all)");
static atomic_t dropped = ATOMIC_INIT(0);
module_param_named(dropped, dropped.counter, int, 0444);
MODULE_PARM_DESC(dropped, "echo requests dropped");

static struct net *nf_net;

/* An ICMP or ICMPv6 echo request, headers read without writing the skb. */
static bool nfh_echo_request(const struct sk_buff *skb)
{
	unsigned int off = skb_network_offset(skb);
	u8 type;

	if (pf == NFPROTO_IPV4) {
		struct iphdr iph;

		if (skb_copy_bits(skb, off, &iph, sizeof(iph)) ||
		    iph.protocol != IPPROTO_ICMP ||
		    skb_copy_bits(skb, off + iph.ihl * 4, &type, 1))
			return false;
		return type == ICMP_ECHO;
	}
	{
		struct ipv6hdr ip6h;

		if (skb_copy_bits(skb, off, &ip6h, sizeof(ip6h)) ||
		    ip6h.nexthdr != IPPROTO_ICMPV6 ||
		    skb_copy_bits(skb, off + sizeof(ip6h), &type, 1))
			return false;
		return type == ICMPV6_ECHO_REQUEST;
	}
}

static unsigned int nfh_hook(void *priv, struct sk_buff *skb,
			     const struct nf_hook_state *state)
{
	if (drop && nfh_echo_request(skb)) {
		atomic_inc(&dropped);
		return NF_DROP;
	}
	return NF_ACCEPT;
}

static struct nf_hook_ops nfh_ops = {
	.hook = nfh_hook,
	.priority = 0,
};

static int __init nfh_init(void)
{
	int ret;

	if ((pf != NFPROTO_IPV4 && pf != NFPROTO_IPV6) || hooknum < 0 ||
	    hooknum >= NF_INET_NUMHOOKS)
		return -EINVAL;
	nfh_ops.pf = pf;
	nfh_ops.hooknum = hooknum;
	nf_net = get_net(current->nsproxy->net_ns);
	ret = nf_register_net_hook(nf_net, &nfh_ops);
	if (ret)
		put_net(nf_net);
	return ret;
}

static void __exit nfh_exit(void)
{
	nf_unregister_net_hook(nf_net, &nfh_ops);
	put_net(nf_net);
}

module_init(nfh_init);
module_exit(nfh_exit);
MODULE_DESCRIPTION("edge: a netfilter hook for the drivers' tests");
MODULE_LICENSE("GPL");
