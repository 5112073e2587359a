// SPDX-License-Identifier: GPL-2.0
/*
 * EDGE_FN_UDP_PING: the EDGE paper's GPU ping (§III-D), an event kernel
 * that answers a UDP datagram where the NIC left it.
 *
 * The datagram is in shared memory: its headers are copied out once,
 * checked and rewritten locally, and stored back whole; the payload is
 * only read, once, for the checksums.  Byte order is handled byte by
 * byte, so the code is the same on every host.
 */
#include "fn/func.h"

#define IP_MIN_HLEN	20
#define IP_MAX_HLEN	60
#define UDP_HLEN	8
#define IPPROTO_UDP_NR	17
#define PING_TTL	64

/* One's-complement sum of big-endian 16-bit words (RFC 1071). */
u64 edge_csum_add(u64 sum, const u8 *p, u32 len)
{
	u32 i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (u32)edge_read_once(p[i]) << 8 | edge_read_once(p[i + 1]);
	if (len & 1)
		sum += (u32)edge_read_once(p[len - 1]) << 8;
	return sum;
}

/* Fold to 16 bits and complement: 0 when a checksummed sum verifies. */
u16 edge_csum_fold(u64 sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (u16)~sum;
}

static u32 get16(const u8 *p)
{
	return (u32)p[0] << 8 | p[1];
}

static void put16(u8 *p, u32 v)
{
	p[0] = (u8)(v >> 8);
	p[1] = (u8)v;
}

static void swap_bytes(u8 *a, u8 *b, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		u8 t = a[i];

		a[i] = b[i];
		b[i] = t;
	}
}

/* UDP's pseudo header: addresses, protocol, UDP length. */
static u64 pseudo_sum(const u8 *ip, u32 udp_len)
{
	u64 sum = edge_csum_add(0, ip + 12, 8);

	return sum + IPPROTO_UDP_NR + udp_len;
}

u32 edge_fn_udp_ping(void *param, u32 param_size, u32 *res)
{
	struct edge_pkt_param *pp = param;
	u8 ip[IP_MAX_HLEN], udp[UDP_HLEN];
	u32 len, hlen, tot, udp_len, csum;
	u64 payload;
	u8 *pkt;

	*res = EINVAL;
	if (param_size < sizeof(*pp))
		return EDGE_CQE_ERROR;
	len = edge_read_once(pp->len);
	if (len > param_size - sizeof(*pp) || len < IP_MIN_HLEN + UDP_HLEN)
		return EDGE_CQE_ERROR;
	pkt = pp->data;

	memcpy(ip, pkt, IP_MIN_HLEN);
	hlen = (ip[0] & 15) * 4;
	if (ip[0] >> 4 != 4 || hlen < IP_MIN_HLEN || hlen + UDP_HLEN > len)
		return EDGE_CQE_ERROR;
	memcpy(ip + IP_MIN_HLEN, pkt + IP_MIN_HLEN, hlen - IP_MIN_HLEN);
	memcpy(udp, pkt + hlen, UDP_HLEN);
	tot = get16(ip + 2);
	/* Fragments carry no UDP header of their own: MF set or an offset. */
	if (tot < hlen + UDP_HLEN || tot > len || (ip[6] & 0x3f) || ip[7] ||
	    ip[9] != IPPROTO_UDP_NR)
		return EDGE_CQE_ERROR;
	udp_len = get16(udp + 4);
	if (udp_len != tot - hlen)
		return EDGE_CQE_ERROR;

	*res = EBADMSG;
	if (edge_csum_fold(edge_csum_add(0, ip, hlen)))
		return EDGE_CQE_ERROR;
	payload = edge_csum_add(0, pkt + hlen + UDP_HLEN, udp_len - UDP_HLEN);
	csum = get16(udp + 6);
	/* Zero: the sender did not checksum (RFC 768); nor will we. */
	if (csum && edge_csum_fold(pseudo_sum(ip, udp_len) +
				   edge_csum_add(payload, udp, UDP_HLEN)))
		return EDGE_CQE_ERROR;

	/* The reply: back to the sender, from the port it wrote to. */
	swap_bytes(ip + 12, ip + 16, 4);
	ip[8] = PING_TTL;
	put16(ip + 10, 0);
	put16(ip + 10, edge_csum_fold(edge_csum_add(0, ip, hlen)));
	swap_bytes(udp, udp + 2, 2);
	if (csum) {
		put16(udp + 6, 0);
		csum = edge_csum_fold(pseudo_sum(ip, udp_len) +
				      edge_csum_add(payload, udp, UDP_HLEN));
		/* A computed 0 is sent as all ones (RFC 768). */
		put16(udp + 6, csum ? csum : 0xffff);
	}
	memcpy(pkt, ip, hlen);
	memcpy(pkt + hlen, udp, UDP_HLEN);
	*res = tot;
	return EDGE_CQE_DONE;
}
