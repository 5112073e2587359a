// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the packet functions, EDGE_FN_ICMP_ECHO and
 * EDGE_FN_UDP_PING, on whatever a NIC could hand them.  edge_netrx.ko
 * copies any frame that looks like its kind into an entry, so the
 * functions see hostile packets; and a user-space producer writes its
 * entries as it likes.
 *
 * Input: byte 0 picks the function and the entry's size, byte 1 how
 * the length field lies, the rest is the packet.  The oracle:
 *  - no access outside the entry (ASan: the entry is exactly its size);
 *  - ERROR leaves the entry unchanged;
 *  - DONE: res is the IP total length, within len; both checksums of the
 *    reply verify (checked here byte by byte, RFC 1071); the addresses
 *    are swapped; every byte past the headers is the request's.
 */
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "fuzz_common.h"
#include "fn/func.h"

static uint32_t sum16(const uint8_t *p, size_t n, uint32_t s)
{
	for (; n > 1; n -= 2, p += 2)
		s += (uint32_t)p[0] << 8 | p[1];
	if (n)
		s += (uint32_t)p[0] << 8;
	return s;
}

static int verifies(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return s == 0xffff;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t sizes[] = { 8, 16, 64, 256, 2048 };
	uint32_t func, psize, len, res, code, hlen, tot;
	struct edge_pkt_param *pp;
	uint8_t *entry, *orig, *ip;

	if (size < 2)
		return 0;
	func = data[0] & 1 ? EDGE_FN_ICMP_ECHO : EDGE_FN_UDP_PING;
	psize = sizes[(data[0] >> 1) % 5];
	entry = malloc(psize);
	orig = malloc(psize);
	FZ_ASSERT(entry && orig, "func %u", func);
	memset(entry, 0, psize);
	if (psize >= sizeof(*pp)) {
		pp = (void *)entry;
		len = size - 2;
		if (len > psize - sizeof(*pp))
			len = psize - sizeof(*pp);
		memcpy(pp->data, data + 2, len);
		/* The length field: true, or a lie around it. */
		switch (data[1] & 3) {
		case 0: pp->len = len; break;
		case 1: pp->len = len + data[1]; break;
		case 2: pp->len = len > data[1] ? len - data[1] : 0; break;
		default: pp->len = 0xffffff00u | data[1]; break;
		}
	}
	memcpy(orig, entry, psize);
	code = edge_func_run(func, NULL, entry, psize, &res);
	if (code != EDGE_CQE_DONE) {
		FZ_ASSERT(code == EDGE_CQE_ERROR, "func %u", func);
		FZ_ASSERT(!memcmp(entry, orig, psize), "func %u", func);
		goto out;
	}
	pp = (void *)entry;
	ip = pp->data;
	hlen = (ip[0] & 15) * 4;
	tot = (uint32_t)ip[2] << 8 | ip[3];
	FZ_ASSERT(res == tot && tot <= pp->len &&
		  tot <= psize - sizeof(*pp) && hlen + 8 <= tot, "func %u", func);
	FZ_ASSERT(verifies(sum16(ip, hlen, 0)), "func %u", func);
	FZ_ASSERT(!memcmp(ip + 12, orig + 8 + 16, 4) &&
		  !memcmp(ip + 16, orig + 8 + 12, 4), "func %u", func);
	FZ_ASSERT(!memcmp(ip + hlen + 8, orig + 8 + hlen + 8, tot - hlen - 8), "func %u", func);
	if (func == EDGE_FN_ICMP_ECHO) {
		FZ_ASSERT(hlen == 20 && ip[20] == 0 && ip[21] == 0, "func %u", func);
		FZ_ASSERT(verifies(sum16(ip + 20, tot - 20, 0)), "func %u", func);
		FZ_ASSERT(!memcmp(ip + 24, orig + 8 + 24, 4), "func %u", func);	/* id, seq */
	} else if (ip[hlen + 6] | ip[hlen + 7]) {
		uint32_t s = sum16(ip + 12, 8, 17 + tot - hlen);

		FZ_ASSERT(verifies(sum16(ip + hlen, tot - hlen, s)), "func %u", func);
	}
out:
	free(entry);
	free(orig);
	return 0;
}
