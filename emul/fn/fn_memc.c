// SPDX-License-Identifier: GPL-2.0
/*
 * EDGE_FN_MEMC: the EDGE paper's MemC event kernel, a memcached GET
 * service over UDP (after MemcachedGPU, one GET request a thread of an
 * event warp), with a linear-probing key/value table.
 *
 * The table is the registration's state and only events change it: a
 * SET is an event on the same entry as the GETs, so only the device's
 * front-end thread, which runs every function, ever reads or writes it.
 * Nothing is evicted or deleted: a SET of a new key that finds no free
 * slot within EDGE_MEMC_PROBE of its hash's fails with ENOSPC.
 *
 * A GET's datagram is in shared memory: it is copied out once (a
 * single-key get is at most MEMC_MAX_REQ bytes), checked and parsed in
 * the copy, and the reply is built locally and stored back whole.
 */
#include "fn/func.h"

#define IP_HLEN		20
#define UDP_HLEN	8
#define FRAME_HLEN	8	/* memcached's UDP frame header */
#define IPPROTO_UDP_NR	17
#define MEMC_TTL	64
/* "get " key "\r\n" */
#define GET_MIN		(4 + 1 + 2)
#define GET_MAX		(4 + EDGE_MEMC_MAX_KEY + 2)
#define MEMC_HDRS	(IP_HLEN + UDP_HLEN + FRAME_HLEN)
#define MEMC_MIN_REQ	(MEMC_HDRS + GET_MIN)
#define MEMC_MAX_REQ	(MEMC_HDRS + GET_MAX)
/* "VALUE " key " 0 " digits "\r\n" value "\r\nEND\r\n" */
#define MEMC_MAX_TEXT	(6 + EDGE_MEMC_MAX_KEY + 3 + 2 + 2 + \
			 EDGE_MEMC_MAX_VALUE + 2 + 5)
#define MEMC_MAX_REPLY	(MEMC_HDRS + MEMC_MAX_TEXT)

struct memc_item {
	u8 key_len;		/* 0: a free way */
	u8 value_len;
	u8 key[EDGE_MEMC_MAX_KEY];
	u8 value[EDGE_MEMC_MAX_VALUE];
};

struct edge_memc {
	struct memc_item item[EDGE_MEMC_ENTRIES];
};

static u32 get16(const u8 *p)
{
	return (u32)p[0] << 8 | p[1];
}

static void put16(u8 *p, u32 v)
{
	p[0] = (u8)(v >> 8);
	p[1] = (u8)v;
}

/* What memcached's text protocol takes in a key: no space, no control. */
static bool key_ok(const u8 *key, u32 len)
{
	u32 i;

	if (!len || len > EDGE_MEMC_MAX_KEY)
		return false;
	for (i = 0; i < len; i++)
		if (key[i] < 0x21 || key[i] > 0x7e)
			return false;
	return true;
}

/* FNV-1a: the key's home slot; keys are set by the administrator only. */
static u32 key_home(const u8 *key, u32 len)
{
	u32 h = 2166136261U, i;

	for (i = 0; i < len; i++)
		h = (h ^ key[i]) * 16777619U;
	return (h ^ h >> 16) & (EDGE_MEMC_ENTRIES - 1);
}

/*
 * The key's item, or NULL and the first free slot of its probe window
 * (@free; NULL when there is none).  Nothing is ever deleted, so a key
 * is never stored past a free slot of its window: the walk stops there.
 */
static struct memc_item *memc_find(struct edge_memc *mc, const u8 *key,
				   u32 len, struct memc_item **free)
{
	u32 h = key_home(key, len), p;

	*free = NULL;
	for (p = 0; p < EDGE_MEMC_PROBE; p++) {
		struct memc_item *it =
			&mc->item[(h + p) & (EDGE_MEMC_ENTRIES - 1)];

		if (!it->key_len) {
			*free = it;
			return NULL;
		}
		if (it->key_len == len && !memcmp(it->key, key, len))
			return it;
	}
	return NULL;
}

static u32 memc_set(struct edge_memc *mc, struct edge_memc_param *mp,
		    u32 param_size, u32 *res)
{
	struct memc_item *it, *free;
	struct edge_memc_set s;

	*res = EINVAL;
	if (param_size < sizeof(*mp) + sizeof(s))
		return EDGE_CQE_ERROR;
	/* Read once: every check and the store use this copy. */
	memcpy(&s, mp->data, sizeof(s));
	if (s.resv || s.resv2 || s.value_len > EDGE_MEMC_MAX_VALUE ||
	    !key_ok(s.key, s.key_len))
		return EDGE_CQE_ERROR;
	it = memc_find(mc, s.key, s.key_len, &free);
	if (!it) {
		*res = ENOSPC;
		if (!free)
			return EDGE_CQE_ERROR;
		it = free;
		memcpy(it->key, s.key, s.key_len);
		it->key_len = s.key_len;
	}
	memcpy(it->value, s.value, s.value_len);
	it->value_len = (u8)s.value_len;
	*res = 0;
	return EDGE_CQE_DONE;
}

/* One's-complement sum of UDP's pseudo header and datagram (@ip's). */
static u64 udp_sum(const u8 *ip, u32 udp_len)
{
	u64 sum = edge_csum_add(0, ip + 12, 8);

	return edge_csum_add(sum + IPPROTO_UDP_NR + udp_len, ip + IP_HLEN,
			     udp_len);
}

static u32 put_str(u8 *p, const char *s)
{
	u32 n = 0;

	while (s[n]) {
		p[n] = (u8)s[n];
		n++;
	}
	return n;
}

static u32 put_dec(u8 *p, u32 v)
{
	u8 d[10];
	u32 n = 0, i;

	do {
		d[n++] = (u8)('0' + v % 10);
		v /= 10;
	} while (v);
	for (i = 0; i < n; i++)
		p[i] = d[n - 1 - i];
	return n;
}

/*
 * The request, copied to @req (tot bytes): the key's offset and length
 * in it, or a CQE error code with *res set.
 */
static u32 memc_parse(const u8 *req, u32 copied, u32 *key_off, u32 *key_len,
		      u32 *res)
{
	u32 tot, udp_len, csum, klen;
	const u8 *cmd;

	*res = EINVAL;
	/* A 20-byte header, unfragmented UDP, not longer than one get. */
	if (req[0] != 0x45)
		return EDGE_CQE_ERROR;
	tot = get16(req + 2);
	if (tot < MEMC_MIN_REQ || tot > copied || (req[6] & 0x3f) || req[7] ||
	    req[9] != IPPROTO_UDP_NR)
		return EDGE_CQE_ERROR;
	udp_len = get16(req + IP_HLEN + 4);
	if (udp_len != tot - IP_HLEN)
		return EDGE_CQE_ERROR;

	*res = EBADMSG;
	if (edge_csum_fold(edge_csum_add(0, req, IP_HLEN)))
		return EDGE_CQE_ERROR;
	csum = get16(req + IP_HLEN + 6);
	/* Zero: the sender did not checksum (RFC 768). */
	if (csum && edge_csum_fold(udp_sum(req, udp_len)))
		return EDGE_CQE_ERROR;

	/* One frame of one datagram: sequence 0 of a count of 1. */
	*res = EINVAL;
	if (get16(req + IP_HLEN + UDP_HLEN + 2) ||
	    get16(req + IP_HLEN + UDP_HLEN + 4) != 1)
		return EDGE_CQE_ERROR;
	/* Exactly "get <key>\r\n": one key ("gets", two keys: no). */
	cmd = req + MEMC_HDRS;
	klen = tot - MEMC_HDRS - 6;
	if (memcmp(cmd, "get ", 4) || cmd[4 + klen] != '\r' ||
	    cmd[5 + klen] != '\n' || !key_ok(cmd + 4, klen))
		return EDGE_CQE_ERROR;
	*key_off = MEMC_HDRS + 4;
	*key_len = klen;
	return EDGE_CQE_DONE;
}

static u32 memc_get(struct edge_memc *mc, struct edge_memc_param *mp,
		    u32 param_size, u32 *res)
{
	u8 req[MEMC_MAX_REQ], out[MEMC_MAX_REPLY];
	const struct memc_item *it;
	struct memc_item *free;
	u32 len, copied, koff, klen, n, csum, code;

	*res = EINVAL;
	len = edge_read_once(mp->len);
	if (len > param_size - sizeof(*mp) || len < MEMC_MIN_REQ)
		return EDGE_CQE_ERROR;
	/* Read once: a longer datagram is no single get, and fails. */
	copied = len < MEMC_MAX_REQ ? len : MEMC_MAX_REQ;
	memcpy(req, mp->data, copied);
	code = memc_parse(req, copied, &koff, &klen, res);
	if (code != EDGE_CQE_DONE)
		return code;
	it = memc_find(mc, req + koff, klen, &free);

	/* IP: back to the sender, new length and TTL; id, TOS, DF kept. */
	memcpy(out, req, IP_HLEN);
	memcpy(out + 12, req + 16, 4);
	memcpy(out + 16, req + 12, 4);
	out[8] = MEMC_TTL;
	/* UDP: from the port it wrote to; frame: its request id. */
	memcpy(out + IP_HLEN, req + IP_HLEN + 2, 2);
	memcpy(out + IP_HLEN + 2, req + IP_HLEN, 2);
	memcpy(out + IP_HLEN + UDP_HLEN, req + IP_HLEN + UDP_HLEN, 2);
	put16(out + IP_HLEN + UDP_HLEN + 2, 0);
	put16(out + IP_HLEN + UDP_HLEN + 4, 1);
	put16(out + IP_HLEN + UDP_HLEN + 6, 0);
	n = MEMC_HDRS;
	if (it) {
		n += put_str(out + n, "VALUE ");
		memcpy(out + n, it->key, it->key_len);
		n += it->key_len;
		n += put_str(out + n, " 0 ");
		n += put_dec(out + n, it->value_len);
		n += put_str(out + n, "\r\n");
		memcpy(out + n, it->value, it->value_len);
		n += it->value_len;
		n += put_str(out + n, "\r\n");
	}
	n += put_str(out + n, "END\r\n");
	if (n > param_size - sizeof(*mp)) {
		*res = EMSGSIZE;
		return EDGE_CQE_ERROR;
	}
	put16(out + 2, n);
	put16(out + 10, 0);
	put16(out + 10, edge_csum_fold(edge_csum_add(0, out, IP_HLEN)));
	put16(out + IP_HLEN + 4, n - IP_HLEN);
	put16(out + IP_HLEN + 6, 0);
	csum = edge_csum_fold(udp_sum(out, n - IP_HLEN));
	/* A computed 0 is sent as all ones (RFC 768). */
	put16(out + IP_HLEN + 6, csum ? csum : 0xffff);

	memcpy(mp->data, out, n);
	edge_write_once(mp->hit, (u16)!!it);
	*res = n;
	return EDGE_CQE_DONE;
}

u32 edge_fn_memc_run(void *state, void *param, u32 param_size, u32 *res)
{
	struct edge_memc_param *mp = param;
	u32 op;

	*res = EINVAL;
	if (param_size < sizeof(*mp))
		return EDGE_CQE_ERROR;
	op = edge_read_once(mp->op);
	if (op == EDGE_MEMC_SET)
		return memc_set(state, mp, param_size, res);
	if (op == EDGE_MEMC_GET)
		return memc_get(state, mp, param_size, res);
	return EDGE_CQE_ERROR;
}

/* An empty table: MemC's registration takes none (SETs fill it). */
int edge_fn_memc_state_new(const void *table, u32 table_len, void **state)
{
	struct edge_memc *mc;

	(void)table;
	(void)table_len;
	mc = edge_zalloc(sizeof(*mc));
	if (!mc)
		return -ENOMEM;
	*state = mc;
	return 0;
}

void edge_fn_memc_state_free(void *state)
{
	edge_free(state);
}
