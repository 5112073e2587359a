// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: EDGE_FN_MEMC, the memcached GET event kernel, on
 * whatever a NIC or a producer could hand it.  edge_netrx.ko checks a
 * GET's frame before it submits it, but a user-space producer writes
 * its entries as it likes, SETs included.
 *
 * Input: byte 0 picks the op (bit 0: SET, else GET) and the entry's size
 * (bits 1..3), byte 1 how the length field lies, the rest is the entry's
 * data (a datagram, or a struct edge_memc_set).  One table lives across
 * inputs, as a registration's does, so GETs meet earlier SETs.  The
 * oracle:
 *  - no access outside the entry (ASan: the entry is exactly its size);
 *  - ERROR leaves the entry unchanged, and so does a SET;
 *  - a GET's DONE: res is the reply's IP total length and fits the
 *    entry; both checksums verify (checked here, RFC 1071); addresses
 *    and ports are swapped; the frame is sequence 0 of 1 with the
 *    request's id; the text is "VALUE <the request's key> 0 <n>\r\n"
 *    with n bytes, "\r\nEND\r\n" (hit 1), or "END\r\n" alone (hit 0).
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

static void check_reply(const uint8_t *ip, const uint8_t *req, uint32_t res,
			uint32_t room, uint16_t hit)
{
	const uint8_t *txt = ip + 36, *key = req + 36 + 4;
	uint32_t tot = (uint32_t)ip[2] << 8 | ip[3], n, klen, vlen = 0;

	FZ_ASSERT(res == tot && tot <= room && tot >= 36 + 5, "tot %u", tot);
	FZ_ASSERT(ip[0] == 0x45 && verifies(sum16(ip, 20, 0)), "ip");
	FZ_ASSERT((uint32_t)(ip[24] << 8 | ip[25]) == tot - 20, "udp len");
	FZ_ASSERT(verifies(sum16(ip + 20, tot - 20,
				 sum16(ip + 12, 8, 17 + tot - 20))), "udp sum");
	FZ_ASSERT(!memcmp(ip + 12, req + 16, 4) && !memcmp(ip + 16, req + 12, 4),
		  "addresses");
	FZ_ASSERT(!memcmp(ip + 20, req + 22, 2) && !memcmp(ip + 22, req + 20, 2),
		  "ports");
	FZ_ASSERT(!memcmp(ip + 28, req + 28, 2) && !ip[30] && !ip[31] &&
		  !ip[32] && ip[33] == 1 && !ip[34] && !ip[35], "frame");
	n = tot - 36;
	FZ_ASSERT(!memcmp(txt + n - 5, "END\r\n", 5), "END");
	if (!hit) {
		FZ_ASSERT(n == 5, "miss");
		return;
	}
	/* The request's key: what "get " is followed by, up to "\r\n". */
	klen = ((uint32_t)req[2] << 8 | req[3]) - 36 - 6;
	FZ_ASSERT(n > 6 + klen + 3 && !memcmp(txt, "VALUE ", 6) &&
		  !memcmp(txt + 6, key, klen) &&
		  !memcmp(txt + 6 + klen, " 0 ", 3), "VALUE");
	txt += 6 + klen + 3;
	while (*txt >= '0' && *txt <= '9')
		vlen = vlen * 10 + *txt++ - '0';
	FZ_ASSERT(vlen <= EDGE_MEMC_MAX_VALUE && txt[0] == '\r' &&
		  txt[1] == '\n', "bytes");
	FZ_ASSERT(ip + tot == txt + 2 + vlen + 7 &&
		  !memcmp(txt + 2 + vlen, "\r\nEND\r\n", 7), "value");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t sizes[] = { 8, 16, 64, 96, 128, 256, 2048, 2048 };
	static void *table;
	uint32_t psize, len, res, code, op;
	struct edge_memc_param *mp;
	uint8_t *entry, *orig;

	if (size < 2)
		return 0;
	if (!table)
		FZ_ASSERT(!edge_func_state_new(EDGE_FN_MEMC, NULL, 0, &table),
			  "table");
	op = data[0] & 1 ? EDGE_MEMC_SET : EDGE_MEMC_GET;
	psize = sizes[(data[0] >> 1) & 7];
	entry = malloc(psize);
	orig = malloc(psize);
	FZ_ASSERT(entry && orig, "op %u", op);
	memset(entry, 0, psize);
	if (psize >= sizeof(*mp)) {
		mp = (void *)entry;
		mp->op = op;
		len = size - 2;
		if (len > psize - sizeof(*mp))
			len = psize - sizeof(*mp);
		memcpy(mp->data, data + 2, len);
		switch (data[1] & 3) {
		case 0: mp->len = len; break;
		case 1: mp->len = len + data[1]; break;
		case 2: mp->len = len > data[1] ? len - data[1] : 0; break;
		default: mp->len = 0xffffff00u | data[1]; break;
		}
	}
	memcpy(orig, entry, psize);
	code = edge_func_run(EDGE_FN_MEMC, table, entry, psize, &res);
	if (code != EDGE_CQE_DONE || op == EDGE_MEMC_SET) {
		FZ_ASSERT(code == EDGE_CQE_ERROR || (code == EDGE_CQE_DONE && !res),
			  "op %u code %u", op, code);
		FZ_ASSERT(!memcmp(entry, orig, psize), "op %u", op);
		goto out;
	}
	mp = (void *)entry;
	FZ_ASSERT(mp->hit <= 1, "hit");
	check_reply(mp->data, orig + sizeof(*mp), res, psize - sizeof(*mp),
		    mp->hit);
out:
	free(entry);
	free(orig);
	return 0;
}
