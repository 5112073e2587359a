// SPDX-License-Identifier: GPL-2.0
/*
 * The computing builtin functions (emul/fn/fn_*.c): CRC32C against the
 * published vectors, the UDP ping against an independent checksum, LPM
 * against a brute-force scan, and the registration rules of the table.
 */
#include <arpa/inet.h>
#include "emul_test.h"
#include "ref_csum.h"
#include "fn/func.h"
#include "model.h"
#include "validate.h"
#include "limits.h"

#define PSIZE	256
#define DONE	((u32)EDGE_CQE_DONE)
#define ERROR	((u32)EDGE_CQE_ERROR)

static u32 run(u32 func, void *state, void *param, u32 *res)
{
	return edge_func_run(func, state, param, PSIZE, res);
}

/* Bit-serial CRC32C, the definition itself. */
static u32 ref_crc32c(const u8 *p, size_t n)
{
	u32 c = ~0U;
	int k;

	while (n--) {
		c ^= *p++;
		for (k = 0; k < 8; k++)
			c = (c >> 1) ^ (c & 1 ? 0x82f63b78U : 0);
	}
	return ~c;
}

TEST(crc32c_vectors)
{
	static const struct { const char *s; u32 crc; } v[] = {
		{ "123456789", 0xe3069283 },	/* the check value */
		{ "", 0x00000000 },
		{ "a", 0xc1d04330 },
	};
	u8 buf[32];
	u32 i;

	for (i = 0; i < ARRAY_SIZE(v); i++)
		EXPECT_EQ(v[i].crc, edge_crc32c(~0U, (const u8 *)v[i].s,
					       strlen(v[i].s)) ^ ~0U);
	/* RFC 3720 B.4 */
	memset(buf, 0, sizeof(buf));
	EXPECT_EQ(0x8a9136aaU, edge_crc32c(~0U, buf, 32) ^ ~0U);
	memset(buf, 0xff, sizeof(buf));
	EXPECT_EQ(0x62a8ab43U, edge_crc32c(~0U, buf, 32) ^ ~0U);
	for (i = 0; i < 32; i++)
		buf[i] = i;
	EXPECT_EQ(0x46dd794eU, edge_crc32c(~0U, buf, 32) ^ ~0U);
}

TEST(crc32c_function)
{
	u8 raw[PSIZE];
	struct edge_crc_param *cp = (void *)raw;
	struct emul_rng rng;
	u32 res, len, i;

	emul_rng_seed(&rng, 5);
	for (len = 0; len <= PSIZE - sizeof(*cp); len += 13) {
		memset(raw, 0, sizeof(raw));
		cp->len = len;
		for (i = 0; i < len; i++)
			cp->data[i] = (u8)emul_rand(&rng);
		ASSERT_EQ(DONE, run(EDGE_FN_CRC32C, NULL, raw, &res));
		EXPECT_EQ(ref_crc32c(cp->data, len), res);
		EXPECT_EQ(res, cp->crc);
	}
	/* A length past the entry is refused, nothing written. */
	cp->len = PSIZE - sizeof(*cp) + 1;
	cp->crc = 7;
	EXPECT_EQ(ERROR, run(EDGE_FN_CRC32C, NULL, raw, &res));
	EXPECT_EQ((u32)EINVAL, res);
	EXPECT_EQ(7U, cp->crc);
}

static uint16_t ref_udp_csum(const u8 *ip, const u8 *udp, size_t udp_len)
{
	u8 pseudo[12];

	memcpy(pseudo, ip + 12, 8);
	pseudo[8] = 0;
	pseudo[9] = 17;
	pseudo[10] = udp_len >> 8;
	pseudo[11] = udp_len & 0xff;
	return ref_csum(udp, udp_len,
			(uint16_t)~ref_csum(pseudo, sizeof(pseudo), 0));
}

/* 10.0.0.1:4242 -> 10.0.0.2:7, TTL 3, @n bytes of payload. */
static u32 make_ping(u8 *raw, u32 n, bool udp_csum)
{
	struct edge_pkt_param *pp = (void *)raw;
	u8 *ip = pp->data, *udp = ip + 20;
	u32 tot = 28 + n, i;
	uint16_t c;

	memset(raw, 0, PSIZE);
	pp->len = tot;
	ip[0] = 0x45;
	ip[2] = tot >> 8;
	ip[3] = tot & 0xff;
	ip[6] = 0x40;		/* DF */
	ip[8] = 3;
	ip[9] = 17;
	memcpy(ip + 12, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8);
	c = htons(ref_csum(ip, 20, 0));
	memcpy(ip + 10, &c, 2);
	udp[0] = 4242 >> 8;
	udp[1] = 4242 & 0xff;
	udp[3] = 7;
	udp[4] = (8 + n) >> 8;
	udp[5] = (8 + n) & 0xff;
	for (i = 0; i < n; i++)
		udp[8 + i] = (u8)(i * 7 + 1);
	if (udp_csum) {
		c = ref_udp_csum(ip, udp, 8 + n);
		c = htons(c ? c : 0xffff);
		memcpy(udp + 6, &c, 2);
	}
	return tot;
}

TEST(udp_ping_answers)
{
	u8 raw[PSIZE], orig[PSIZE];
	struct edge_pkt_param *pp = (void *)raw;
	u8 *ip = pp->data, *udp = ip + 20;
	u32 res, n;
	int csum;

	for (csum = 0; csum < 2; csum++) {
		for (n = 0; n <= 64; n += 7) {
			u32 tot = make_ping(raw, n, csum);

			memcpy(orig, raw, PSIZE);
			ASSERT_EQ(DONE,
				  run(EDGE_FN_UDP_PING, NULL, raw, &res));
			EXPECT_EQ(tot, res);
			/* Addresses and ports swapped, TTL reset. */
			EXPECT_EQ(0, memcmp(ip + 12, orig + 8 + 16, 4));
			EXPECT_EQ(0, memcmp(ip + 16, orig + 8 + 12, 4));
			EXPECT_EQ(0, memcmp(udp, orig + 8 + 22, 2));
			EXPECT_EQ(0, memcmp(udp + 2, orig + 8 + 20, 2));
			EXPECT_EQ(64, ip[8]);
			/* Both checksums verify independently. */
			EXPECT_EQ(0, ref_csum(ip, 20, 0));
			if (csum) {
				EXPECT_EQ(0, ref_udp_csum(ip, udp, 8 + n));
			} else {
				EXPECT_EQ(0, udp[6] | udp[7]);
			}
			/* Payload untouched. */
			EXPECT_EQ(0, memcmp(udp + 8, orig + 8 + 28, n));
		}
	}
}

/*
 * RFC 768: a checksum that computes to 0 is sent as 0xffff (0 means
 * "none").  Swapping addresses and ports leaves the sum as it was, so a
 * request whose sum computes to 0 makes a reply whose sum does too: a
 * payload word chosen to make it so (1 datagram in 65536 on the wire).
 */
TEST(udp_ping_checksum_zero_sent_as_ones)
{
	u8 raw[PSIZE];
	struct edge_pkt_param *pp = (void *)raw;
	u8 *ip = pp->data, *udp = ip + 20;
	uint16_t c;
	u32 res;

	make_ping(raw, 2, false);
	udp[8] = 0;
	udp[9] = 0;
	/* The word that brings the one's-complement sum to all ones. */
	c = ref_udp_csum(ip, udp, 10);
	udp[8] = c >> 8;
	udp[9] = c & 0xff;
	ASSERT_EQ(0, ref_udp_csum(ip, udp, 10));
	udp[6] = 0xff;
	udp[7] = 0xff;
	ASSERT_EQ(DONE, run(EDGE_FN_UDP_PING, NULL, raw, &res));
	EXPECT_EQ(0xff, udp[6]);
	EXPECT_EQ(0xff, udp[7]);
}

TEST(udp_ping_refuses)
{
	u8 raw[PSIZE], orig[PSIZE];
	struct edge_pkt_param *pp = (void *)raw;
	u8 *ip = pp->data;
	u32 res;

	/* Corrupted payload: the UDP checksum fails, nothing is written. */
	make_ping(raw, 16, true);
	ip[30] ^= 1;
	memcpy(orig, raw, PSIZE);
	EXPECT_EQ(ERROR, run(EDGE_FN_UDP_PING, NULL, raw, &res));
	EXPECT_EQ((u32)EBADMSG, res);
	EXPECT_EQ(0, memcmp(raw, orig, PSIZE));
	/* Corrupted IP header. */
	make_ping(raw, 16, true);
	ip[8] = 9;
	EXPECT_EQ(ERROR, run(EDGE_FN_UDP_PING, NULL, raw, &res));
	EXPECT_EQ((u32)EBADMSG, res);
	/* Not UDP, a fragment, IPv6, lengths that lie. */
	make_ping(raw, 16, false);
	ip[9] = 6;
	EXPECT_EQ(ERROR, run(EDGE_FN_UDP_PING, NULL, raw, &res));
	EXPECT_EQ((u32)EINVAL, res);
	make_ping(raw, 16, false);
	ip[6] = 0x20;
	EXPECT_EQ(ERROR, run(EDGE_FN_UDP_PING, NULL, raw, &res));
	EXPECT_EQ((u32)EINVAL, res);
	make_ping(raw, 16, false);
	ip[0] = 0x65;
	EXPECT_EQ(ERROR, run(EDGE_FN_UDP_PING, NULL, raw, &res));
	make_ping(raw, 16, false);
	pp->len = 20;
	EXPECT_EQ(ERROR, run(EDGE_FN_UDP_PING, NULL, raw, &res));
	make_ping(raw, 16, false);
	pp->len = PSIZE;
	EXPECT_EQ(ERROR, run(EDGE_FN_UDP_PING, NULL, raw, &res));
	make_ping(raw, 16, false);
	ip[2] = 0x10;		/* total length beyond len */
	EXPECT_EQ(ERROR, run(EDGE_FN_UDP_PING, NULL, raw, &res));
	make_ping(raw, 16, false);
	ip[20 + 5] += 1;	/* UDP length disagrees */
	EXPECT_EQ(ERROR, run(EDGE_FN_UDP_PING, NULL, raw, &res));
	EXPECT_EQ((u32)EINVAL, res);
}

static struct edge_lpm_entry route(u32 prefix, u32 len, u32 value)
{
	struct edge_lpm_entry e = { htonl(prefix), len, value, 0 };

	return e;
}

/* The longest covering prefix by scanning every route. */
static bool ref_lpm(const struct edge_lpm_entry *t, u32 n, u32 addr,
		    u32 *value, u32 *plen)
{
	int best = -1;
	u32 i;

	for (i = 0; i < n; i++) {
		u32 len = t[i].prefix_len;
		u32 mask = len ? ~0U << (32 - len) : 0;

		if ((addr & mask) == ntohl(t[i].prefix) && (int)len > best) {
			best = len;
			*value = t[i].value;
		}
	}
	*plen = best;
	return best >= 0;
}

TEST(lpm_matches_brute_force)
{
	static struct edge_lpm_entry t[EDGE_LPM_MAX_ENTRIES];
	struct edge_lpm_param lp;
	struct emul_rng rng;
	void *state;
	u32 n = 0, i, q;

	emul_rng_seed(&rng, 11);
	/* Nested prefixes around a few hot addresses, plus random ones. */
	while (n < EDGE_LPM_MAX_ENTRIES) {
		u32 len = emul_rand_below(&rng, 33);
		u32 base = emul_rand_below(&rng, 4) ? (u32)emul_rand(&rng) :
			   0x0a000000 |
			   (emul_rand_below(&rng, 4) << 8);
		u32 mask = len ? ~0U << (32 - len) : 0;
		bool dup = false;

		for (i = 0; i < n; i++)
			if (t[i].prefix_len == len &&
			    ntohl(t[i].prefix) == (base & mask))
				dup = true;
		if (dup)
			continue;
		t[n] = route(base & mask, len, n * 3 + 1);
		n++;
	}
	ASSERT_EQ(0, edge_func_state_new(EDGE_FN_LPM4, t, sizeof(t), &state));
	for (q = 0; q < 20000; q++) {
		u32 addr = q % 2 ? (u32)emul_rand(&rng) :
			   0x0a000000 | emul_rand_below(&rng, 1024);
		u32 want_v = EDGE_LPM_MISS, want_l = 0, res;
		bool want;

		want = ref_lpm(t, n, addr, &want_v, &want_l);
		memset(&lp, 0xa5, sizeof(lp));
		lp.addr = htonl(addr);
		ASSERT_EQ(DONE, edge_func_run(EDGE_FN_LPM4, state, &lp,
						       sizeof(lp), &res));
		ASSERT_EQ((u32)want, lp.found);
		ASSERT_EQ(want_v, lp.value);
		ASSERT_EQ(want_v, res);
		if (want) {
			ASSERT_EQ(want_l, lp.prefix_len);
		}
	}
	edge_func_state_free(EDGE_FN_LPM4, state);
	EXPECT_NO_LEAKS();
}

TEST(lpm_table_rules)
{
	struct edge_lpm_entry t[2];
	struct edge_lpm_param lp = { .addr = htonl(0x0a010203) };
	void *state;
	u32 res;

	t[0] = route(0x0a000000, 8, 1);
	t[1] = route(0x0a010000, 16, 2);
	ASSERT_EQ(0, edge_func_state_new(EDGE_FN_LPM4, t, sizeof(t), &state));
	EXPECT_EQ(DONE, edge_func_run(EDGE_FN_LPM4, state, &lp,
					       sizeof(lp), &res));
	EXPECT_EQ(2U, res);
	EXPECT_EQ(16U, lp.prefix_len);
	lp.addr = htonl(0x0b000000);
	EXPECT_EQ(DONE, edge_func_run(EDGE_FN_LPM4, state, &lp,
					       sizeof(lp), &res));
	EXPECT_EQ(EDGE_LPM_MISS, res);
	EXPECT_EQ(0U, lp.found);
	edge_func_state_free(EDGE_FN_LPM4, state);

	/* Duplicate prefix, host bits, long prefix, reserved field. */
	t[1] = route(0x0a000000, 8, 3);
	EXPECT_EQ(-EINVAL, edge_func_state_new(EDGE_FN_LPM4, t, sizeof(t),
					       &state));
	t[1] = route(0x0a000001, 24, 3);
	EXPECT_EQ(-EINVAL, edge_func_state_new(EDGE_FN_LPM4, t, sizeof(t),
					       &state));
	t[1] = route(0x0a000000, 33, 3);
	EXPECT_EQ(-EINVAL, edge_func_state_new(EDGE_FN_LPM4, t, sizeof(t),
					       &state));
	t[1] = route(0x0b000000, 8, 3);
	t[1].resv = 1;
	EXPECT_EQ(-EINVAL, edge_func_state_new(EDGE_FN_LPM4, t, sizeof(t),
					       &state));
	/* The default route alone matches everything. */
	t[0] = route(0, 0, 9);
	ASSERT_EQ(0, edge_func_state_new(EDGE_FN_LPM4, t, sizeof(t[0]),
					 &state));
	lp.addr = htonl(0xffffffff);
	EXPECT_EQ(DONE, edge_func_run(EDGE_FN_LPM4, state, &lp,
					       sizeof(lp), &res));
	EXPECT_EQ(9U, res);
	edge_func_state_free(EDGE_FN_LPM4, state);
	EXPECT_NO_LEAKS();
}

TEST(register_table_fields)
{
	struct edge_register r = emul_reg_one_warp();
	struct edge_kdesc k;

	EXPECT_EQ((size_t)EDGE_REGISTER_SIZE_VER5, sizeof(r));
	EXPECT_EQ((size_t)EDGE_REGISTER_SIZE_VER1,
		  offsetof(struct edge_register, table_ptr));
	/* No table for a function without one. */
	r.table_len = 16;
	EXPECT_EQ(-EINVAL, edge_validate_register(edge_p(), &r, &k));
	r = emul_reg_one_warp();
	r.table_ptr = 1;
	EXPECT_EQ(-EINVAL, edge_validate_register(edge_p(), &r, &k));
	r = emul_reg_one_warp();
	r.pad = 1;
	EXPECT_EQ(-EINVAL, edge_validate_register(edge_p(), &r, &k));
	/* LPM needs one, of whole entries, within the limit. */
	r = emul_reg_one_warp();
	r.func = EDGE_FN_LPM4;
	r.param_size = 16;
	EXPECT_EQ(-EINVAL, edge_validate_register(edge_p(), &r, &k));
	r.table_ptr = 0x1000;
	r.table_len = 15;
	EXPECT_EQ(-EINVAL, edge_validate_register(edge_p(), &r, &k));
	r.table_len = (EDGE_LPM_MAX_ENTRIES + 1) * 16;
	EXPECT_EQ(-EINVAL, edge_validate_register(edge_p(), &r, &k));
	r.table_len = EDGE_LPM_MAX_ENTRIES * 16;
	EXPECT_EQ(0, edge_validate_register(edge_p(), &r, &k));
	EXPECT_EQ(r.table_len, k.table_len);
	EXPECT_EQ(NULL, k.table);
}

/* Through the model: the output is in the entry when the status is. */
TEST(model_runs_lpm_with_its_table)
{
	struct edge_lpm_entry t[1];
	struct edge_register r = emul_reg_one_warp();
	struct edge_ring_layout l;
	struct edge_ring_mem mem;
	struct edge_model m;
	struct edge_kdesc k;
	struct edge_lpm_param *lp;
	struct edge_cqe *cqe;
	u32 db[EDGE_EKT_ENTRIES] = {}, id;
	void *sq, *cq;

	t[0] = route(0xc0a80000, 16, 77);
	r.func = EDGE_FN_LPM4;
	r.param_size = 16;
	r.ring_entries = 4;
	r.table_ptr = 1;
	r.table_len = sizeof(t);
	ASSERT_EQ(0, edge_validate_register(edge_p(), &r, &k));
	k.table = t;
	edge_ring_layout(4, 16, 4096, &l);
	sq = calloc(1, l.sq_size);
	cq = calloc(1, l.cq_size);
	memset(&mem, 0, sizeof(mem));	/* no doorbell summary */
	mem.doorbells = db;
	mem.sq = sq;
	mem.cq = cq;
	mem.layout = l;
	ASSERT_EQ(0, edge_model_init(&m, edge_p(), NULL));
	/* A bad table is refused and nothing is registered. */
	t[0].resv = 1;
	EXPECT_EQ(-EINVAL, edge_model_register(&m, &k, &mem, &m, &id));
	EXPECT_EQ(0U, m.ekt.used);
	t[0].resv = 0;
	ASSERT_EQ(0, edge_model_register(&m, &k, &mem, &m, &id));
	/* The model kept its own trie: the caller's table may go. */
	memset(t, 0xff, sizeof(t));
	lp = (void *)((u8 *)sq + l.sq_entries);
	lp->addr = htonl(0xc0a80101);
	__atomic_store_n(&db[id], 1, __ATOMIC_RELEASE);
	EXPECT_EQ(1U, edge_model_poll(&m));
	edge_model_run_until(&m, EDGE_TIME_NEVER - 1);
	cqe = (void *)((u8 *)cq + l.cq_cqes);
	EXPECT_EQ(EDGE_CQE_STATUS(DONE, 0), cqe->status);
	EXPECT_EQ(77U, cqe->res);
	EXPECT_EQ(77U, lp->value);
	EXPECT_EQ(16U, lp->prefix_len);
	EXPECT_EQ(0, edge_model_unregister(&m, id, &m));
	edge_model_fini(&m);
	free(sq);
	free(cq);
	EXPECT_NO_LEAKS();
}

TEST_HARNESS_MAIN
