// SPDX-License-Identifier: GPL-2.0
/*
 * EDGE_FN_ICMP_ECHO: answer an IPv4 ICMP echo request where the NIC left
 * it, as the kernel's icmp_echo() would, so that a real ping client
 * cannot tell the GPU's reply from the stack's.
 *
 * The packet is in shared memory (the driver may be handed a hostile
 * frame, and a user-space producer owns its ring): the two headers are
 * copied out once, checked and rewritten locally and stored back whole;
 * the payload is only read, once, for the checksums, so a reply's
 * payload is the request's byte for byte.  Both checksums are verified
 * on the request and recomputed in full on the reply (no incremental
 * update: RFC 1624's corner cases cannot arise).
 */
#include "fn/func.h"

#define IP_HLEN		20
#define ICMP_HLEN	8
#define IPPROTO_ICMP_NR	1
#define ICMP_ECHOREPLY_T 0
#define ICMP_ECHO_T	8
#define ECHO_TTL	64

static u32 get16(const u8 *p)
{
	return (u32)p[0] << 8 | p[1];
}

static void put16(u8 *p, u32 v)
{
	p[0] = (u8)(v >> 8);
	p[1] = (u8)v;
}

/*
 * The header must be exactly 20 bytes: options (record route,
 * timestamps, source routes) change what a correct reply holds, so a
 * request with options is refused, and a driver leaves it to the stack.
 */
u32 edge_fn_icmp_echo(void *param, u32 param_size, u32 *res)
{
	struct edge_pkt_param *pp = param;
	u8 ip[IP_HLEN], icmp[ICMP_HLEN], t;
	u32 len, tot, i;
	u64 payload;
	u8 *pkt;

	*res = EINVAL;
	if (param_size < sizeof(*pp))
		return EDGE_CQE_ERROR;
	len = edge_read_once(pp->len);
	if (len > param_size - sizeof(*pp) || len < IP_HLEN + ICMP_HLEN)
		return EDGE_CQE_ERROR;
	pkt = pp->data;

	memcpy(ip, pkt, IP_HLEN);
	memcpy(icmp, pkt + IP_HLEN, ICMP_HLEN);
	tot = get16(ip + 2);
	/* Fragments: MF set or an offset; the stack reassembles them. */
	if (ip[0] != 0x45 || tot < IP_HLEN + ICMP_HLEN || tot > len ||
	    (ip[6] & 0x3f) || ip[7] || ip[9] != IPPROTO_ICMP_NR ||
	    icmp[0] != ICMP_ECHO_T || icmp[1])
		return EDGE_CQE_ERROR;

	*res = EBADMSG;
	if (edge_csum_fold(edge_csum_add(0, ip, IP_HLEN)))
		return EDGE_CQE_ERROR;
	payload = edge_csum_add(0, pkt + IP_HLEN + ICMP_HLEN,
				tot - IP_HLEN - ICMP_HLEN);
	/*
	 * The payload's sum was taken from a 16-bit boundary (offset 28), so
	 * it adds to the header's as is; an odd tail was padded with zero.
	 */
	if (edge_csum_fold(edge_csum_add(payload, icmp, ICMP_HLEN)))
		return EDGE_CQE_ERROR;

	/* The reply: back to the sender, TTL reset, type 0. */
	for (i = 0; i < 4; i++) {
		t = ip[12 + i];
		ip[12 + i] = ip[16 + i];
		ip[16 + i] = t;
	}
	ip[8] = ECHO_TTL;
	put16(ip + 10, 0);
	put16(ip + 10, edge_csum_fold(edge_csum_add(0, ip, IP_HLEN)));
	icmp[0] = ICMP_ECHOREPLY_T;
	put16(icmp + 2, 0);
	put16(icmp + 2, edge_csum_fold(edge_csum_add(payload, icmp,
						     ICMP_HLEN)));
	memcpy(pkt, ip, IP_HLEN);
	memcpy(pkt + IP_HLEN, icmp, ICMP_HLEN);
	*res = tot;
	return EDGE_CQE_DONE;
}
