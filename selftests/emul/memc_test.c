// SPDX-License-Identifier: GPL-2.0
/*
 * EDGE_FN_MEMC (emul/fn/fn_memc.c): SETs and GETs through the function
 * table as the front end runs them.  Every reply is compared whole with
 * one built here (checksums by ref_csum.h, not the model's); every
 * malformed request completes with its errno and leaves the entry and
 * the table as they were.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include "emul_test.h"
#include "ref_csum.h"
#include "fn/func.h"

#define PSIZE	256
#define DONE	((u32)EDGE_CQE_DONE)
#define ERROR	((u32)EDGE_CQE_ERROR)

static u8 raw[PSIZE], want[PSIZE], orig[PSIZE];

static struct edge_memc_param *mp(u8 *buf)
{
	return (struct edge_memc_param *)buf;
}

static void *table(void)
{
	void *state = NULL;

	if (edge_func_state_new(EDGE_FN_MEMC, NULL, 0, &state))
		return NULL;
	return state;
}

static u32 set_kv(void *state, const char *key, const void *val, u32 vlen,
		  u32 *res)
{
	struct edge_memc_set *s = (void *)mp(raw)->data;

	memset(raw, 0, sizeof(raw));
	mp(raw)->op = EDGE_MEMC_SET;
	s->key_len = (u8)strlen(key);
	s->value_len = (u16)vlen;
	memcpy(s->key, key, s->key_len);
	memcpy(s->value, val, vlen);
	return edge_func_run(EDGE_FN_MEMC, state, raw, PSIZE, res);
}

static void set_csum(u8 *field, const u8 *p, size_t n, uint32_t sum)
{
	uint16_t c;

	field[0] = field[1] = 0;
	c = htons(ref_csum(p, n, sum));
	memcpy(field, &c, 2);
}

/* UDP's: the pseudo header's words, then the datagram. */
static void set_udp_csum(u8 *ip, u32 udp_len)
{
	uint32_t sum = 17 + udp_len;
	uint16_t w;
	int i;

	for (i = 12; i < 20; i += 2) {
		memcpy(&w, ip + i, 2);
		sum += ntohs(w);
	}
	set_csum(ip + 26, ip + 20, udp_len, sum);
	if (!ip[26] && !ip[27])
		ip[26] = ip[27] = 0xff;
}

/*
 * A datagram 198.18.0.2:40000 -> 198.18.0.1:11211 at buf's data holding
 * the frame header (request id 0x1234, @seq, @count) and @text; returns
 * its length.
 */
static u32 make_dgram(u8 *buf, u16 seq, u16 count, const char *text)
{
	u8 *ip = mp(buf)->data, *udp = ip + 20, *fr = udp + 8;
	u32 n = strlen(text), tot = 36 + n;

	memset(buf, 0, PSIZE);
	mp(buf)->len = tot;
	mp(buf)->op = EDGE_MEMC_GET;
	ip[0] = 0x45;
	ip[2] = tot >> 8;
	ip[3] = tot & 0xff;
	ip[4] = 0x56;
	ip[5] = 0x78;
	ip[6] = 0x40;
	ip[8] = 63;
	ip[9] = 17;
	memcpy(ip + 12, "\xc6\x12\x00\x02\xc6\x12\x00\x01", 8);
	set_csum(ip + 10, ip, 20, 0);
	udp[0] = 40000 >> 8;
	udp[1] = 40000 & 0xff;
	udp[2] = 11211 >> 8;
	udp[3] = 11211 & 0xff;
	udp[4] = (tot - 20) >> 8;
	udp[5] = (tot - 20) & 0xff;
	fr[0] = 0x12;
	fr[1] = 0x34;
	fr[2] = seq >> 8;
	fr[3] = seq & 0xff;
	fr[4] = count >> 8;
	fr[5] = count & 0xff;
	memcpy(fr + 8, text, n);
	set_udp_csum(ip, tot - 20);
	return tot;
}

static u32 get_req(const char *text, u16 seq, u16 count)
{
	return make_dgram(raw, seq, count, text);
}

/* The reply memcached sends, as a datagram back to the request's sender. */
static u32 make_reply(const char *key, const void *val, int vlen)
{
	char text[160];
	u8 *ip = mp(want)->data, *udp = ip + 20;
	u32 n, tot;

	if (vlen < 0) {
		n = snprintf(text, sizeof(text), "END\r\n");
	} else {
		n = snprintf(text, sizeof(text), "VALUE %s 0 %d\r\n", key, vlen);
		memcpy(text + n, val, vlen);
		n += vlen;
		n += snprintf(text + n, sizeof(text) - n, "\r\nEND\r\n");
	}
	tot = 36 + n;
	memset(want, 0, sizeof(want));
	ip[0] = 0x45;
	ip[2] = tot >> 8;
	ip[3] = tot & 0xff;
	ip[4] = 0x56;
	ip[5] = 0x78;
	ip[6] = 0x40;
	ip[8] = 64;
	ip[9] = 17;
	memcpy(ip + 12, "\xc6\x12\x00\x01\xc6\x12\x00\x02", 8);
	set_csum(ip + 10, ip, 20, 0);
	udp[0] = 11211 >> 8;
	udp[1] = 11211 & 0xff;
	udp[2] = 40000 >> 8;
	udp[3] = 40000 & 0xff;
	udp[4] = (tot - 20) >> 8;
	udp[5] = (tot - 20) & 0xff;
	udp[8] = 0x12;
	udp[9] = 0x34;
	udp[13] = 1;
	memcpy(udp + 16, text, n);
	set_udp_csum(ip, tot - 20);
	return tot;
}

/* GET @key; the reply must be @val's (@vlen < 0: a miss), whole. */
static int check_get(void *state, const char *key, const void *val, int vlen)
{
	char text[40];
	u32 res = 0, code, tot;

	snprintf(text, sizeof(text), "get %s\r\n", key);
	get_req(text, 0, 1);
	code = edge_func_run(EDGE_FN_MEMC, state, raw, PSIZE, &res);
	tot = make_reply(key, val, vlen);
	if (code != DONE || res != tot || mp(raw)->hit != (vlen >= 0) ||
	    memcmp(mp(raw)->data, mp(want)->data, tot)) {
		fprintf(stderr, "# get %s: code %u res %u (want %u) hit %u\n",
			key, code, res, tot, mp(raw)->hit);
		return -1;
	}
	return 0;
}

TEST(get_hit_and_miss)
{
	void *t = table();
	u32 res;

	ASSERT_NE(NULL, t);
	EXPECT_EQ(0, check_get(t, "foo", NULL, -1));
	ASSERT_EQ(DONE, set_kv(t, "foo", "hi", 2, &res));
	EXPECT_EQ(0U, res);
	EXPECT_EQ(0, check_get(t, "foo", "hi", 2));
	EXPECT_EQ(0, check_get(t, "fo", NULL, -1));
	EXPECT_EQ(0, check_get(t, "fooo", NULL, -1));
	/* The longest key, the longest value, an empty value. */
	ASSERT_EQ(DONE, set_kv(t, "0123456789abcdef", orig, EDGE_MEMC_MAX_VALUE,
			       &res));
	EXPECT_EQ(0, check_get(t, "0123456789abcdef", orig,
			       EDGE_MEMC_MAX_VALUE));
	ASSERT_EQ(DONE, set_kv(t, "~!", "", 0, &res));
	EXPECT_EQ(0, check_get(t, "~!", "", 0));
	edge_func_state_free(EDGE_FN_MEMC, t);
}

TEST(set_overwrites)
{
	void *t = table();
	u32 res;

	ASSERT_NE(NULL, t);
	ASSERT_EQ(DONE, set_kv(t, "k", "one", 3, &res));
	ASSERT_EQ(DONE, set_kv(t, "k", "three", 5, &res));
	EXPECT_EQ(0, check_get(t, "k", "three", 5));
	ASSERT_EQ(DONE, set_kv(t, "k", "2", 1, &res));
	EXPECT_EQ(0, check_get(t, "k", "2", 1));
	edge_func_state_free(EDGE_FN_MEMC, t);
}

static void key_of(char *k, u32 i)
{
	snprintf(k, 17, "key:%u", i);
}

/*
 * The paper's warm-up (8k SETs) fits; more keys until the table refuses
 * one with ENOSPC, which then misses, while every stored key keeps its
 * value and can still be overwritten.
 */
TEST(table_full)
{
	static u8 stored[20000];
	void *t = table();
	u32 i, n = 0, full = 0, res, code;
	char k[17];
	u16 v;

	ASSERT_NE(NULL, t);
	for (i = 0; i < 20000; i++) {
		key_of(k, i);
		v = (u16)i;
		code = set_kv(t, k, &v, 2, &res);
		if (code == DONE) {
			stored[i] = 1;
			n++;
			continue;
		}
		ASSERT_EQ(ERROR, code);
		ASSERT_EQ((u32)ENOSPC, res);
		ASSERT_LE(8192U, i);
		if (!full)
			full = i;
	}
	EXPECT_NE(0U, full);
	EXPECT_LE(n, (u32)EDGE_MEMC_ENTRIES);
	for (i = 0; i < 20000; i++) {
		key_of(k, i);
		v = (u16)i;
		ASSERT_EQ(0, check_get(t, k, &v, stored[i] ? 2 : -1));
	}
	for (i = 0; i < 20000; i++) {
		if (!stored[i])
			continue;
		key_of(k, i);
		ASSERT_EQ(DONE, set_kv(t, k, "x", 1, &res));
	}
	key_of(k, full);
	EXPECT_EQ(ERROR, set_kv(t, k, "x", 1, &res));
	EXPECT_EQ((u32)ENOSPC, res);
	key_of(k, 0);
	EXPECT_EQ(0, check_get(t, k, "x", 1));
	edge_func_state_free(EDGE_FN_MEMC, t);
}

/* @text's GET must fail with @err and leave the entry as it was. */
static int bad_get(void *t, u32 len, u32 err)
{
	u32 res = 0, code;

	memcpy(orig, raw, PSIZE);
	code = edge_func_run(EDGE_FN_MEMC, t, raw, PSIZE, &res);
	(void)len;
	if (code != ERROR || res != err || memcmp(orig, raw, PSIZE)) {
		fprintf(stderr, "# code %u res %u, want ERROR %u\n", code, res,
			err);
		return -1;
	}
	return 0;
}

TEST(malformed_gets)
{
	static const char * const bad_text[] = {
		"gets foo\r\n",		/* gets: CAS, not ours */
		"get foo bar\r\n",	/* two keys */
		"get foo\n",		/* no \r */
		"get foo\r",		/* no \n */
		"get foo\rX",		/* not \n */
		"get foo",		/* neither */
		"get foo\r\nx",		/* after the end */
		"get \r\n",		/* no key */
		"get  foo\r\n",		/* a space in the key */
		"get 0123456789abcdefg\r\n",	/* 17 bytes */
		"GET foo\r\n",		/* commands are lower case */
		"set foo 0 0 1\r\n",
		"get fo\to\r\n",	/* a control byte */
		"get fo\x7fo\r\n",
	};
	void *t = table();
	u32 i, tot, res;
	u8 *ip;

	ASSERT_NE(NULL, t);
	ASSERT_EQ(DONE, set_kv(t, "foo", "hi", 2, &res));
	for (i = 0; i < ARRAY_SIZE(bad_text); i++) {
		tot = get_req(bad_text[i], 0, 1);
		EXPECT_EQ(0, bad_get(t, tot, EINVAL)) {
			TH_LOG("request %u", i);
		}
	}
	/* The frame header: sequence 0 of 1, nothing else. */
	tot = get_req("get foo\r\n", 1, 1);
	EXPECT_EQ(0, bad_get(t, tot, EINVAL));
	tot = get_req("get foo\r\n", 0, 2);
	EXPECT_EQ(0, bad_get(t, tot, EINVAL));
	tot = get_req("get foo\r\n", 0, 0);
	EXPECT_EQ(0, bad_get(t, tot, EINVAL));
	/* Short: a frame header and no command; part of a frame header. */
	tot = get_req("", 0, 1);
	EXPECT_EQ(0, bad_get(t, tot, EINVAL));
	tot = get_req("get foo\r\n", 0, 1);
	ip = mp(raw)->data;
	ip[3] = 20 + 8 + 4;
	ip[25] = 12;
	set_csum(ip + 10, ip, 20, 0);
	set_udp_csum(ip, 12);
	mp(raw)->len = 32;
	EXPECT_EQ(0, bad_get(t, 32, EINVAL));
	/* ... in an entry padded past it, as a short Ethernet frame is. */
	mp(raw)->len = 64;
	EXPECT_EQ(0, bad_get(t, 64, EINVAL));
	/* Checksums: the IP header's, the UDP datagram's. */
	tot = get_req("get foo\r\n", 0, 1);
	mp(raw)->data[10] ^= 1;
	EXPECT_EQ(0, bad_get(t, tot, EBADMSG));
	tot = get_req("get foo\r\n", 0, 1);
	mp(raw)->data[27] ^= 1;
	EXPECT_EQ(0, bad_get(t, tot, EBADMSG));
	tot = get_req("get foo\r\n", 0, 1);
	mp(raw)->data[tot - 3] = 'x';	/* payload changed after the sum */
	EXPECT_EQ(0, bad_get(t, tot, EBADMSG));
	/* Headers: options, a fragment, not UDP, lengths that lie. */
	tot = get_req("get foo\r\n", 0, 1);
	mp(raw)->data[0] = 0x46;
	EXPECT_EQ(0, bad_get(t, tot, EINVAL));
	tot = get_req("get foo\r\n", 0, 1);
	mp(raw)->data[6] |= 0x20;
	set_csum(mp(raw)->data + 10, mp(raw)->data, 20, 0);
	EXPECT_EQ(0, bad_get(t, tot, EINVAL));
	tot = get_req("get foo\r\n", 0, 1);
	mp(raw)->data[9] = 6;
	set_csum(mp(raw)->data + 10, mp(raw)->data, 20, 0);
	EXPECT_EQ(0, bad_get(t, tot, EINVAL));
	tot = get_req("get foo\r\n", 0, 1);
	mp(raw)->data[25]++;
	EXPECT_EQ(0, bad_get(t, tot, EINVAL));
	tot = get_req("get foo\r\n", 0, 1);
	mp(raw)->len = tot - 1;
	EXPECT_EQ(0, bad_get(t, tot, EINVAL));
	mp(raw)->len = PSIZE;			/* past the entry */
	EXPECT_EQ(0, bad_get(t, tot, EINVAL));
	/* Neither GET nor SET. */
	tot = get_req("get foo\r\n", 0, 1);
	mp(raw)->op = 2;
	EXPECT_EQ(0, bad_get(t, tot, EINVAL));
	/* Still there, unchanged: nothing above wrote the table. */
	EXPECT_EQ(0, check_get(t, "foo", "hi", 2));
	edge_func_state_free(EDGE_FN_MEMC, t);
}

/* A request without a UDP checksum (RFC 768's 0) is answered. */
TEST(no_udp_checksum)
{
	void *t = table();
	u32 res, tot;

	ASSERT_NE(NULL, t);
	ASSERT_EQ(DONE, set_kv(t, "foo", "hi", 2, &res));
	get_req("get foo\r\n", 0, 1);
	mp(raw)->data[26] = mp(raw)->data[27] = 0;
	ASSERT_EQ(DONE, edge_func_run(EDGE_FN_MEMC, t, raw, PSIZE, &res));
	tot = make_reply("foo", "hi", 2);
	EXPECT_EQ(tot, res);
	EXPECT_EQ(0, memcmp(mp(raw)->data, mp(want)->data, tot));
	edge_func_state_free(EDGE_FN_MEMC, t);
}

TEST(malformed_sets)
{
	struct edge_memc_set *s = (void *)mp(raw)->data;
	void *t = table();
	u32 res;

	ASSERT_NE(NULL, t);
	EXPECT_EQ(ERROR, set_kv(t, "", "x", 1, &res));
	EXPECT_EQ((u32)EINVAL, res);
	EXPECT_EQ(ERROR, set_kv(t, "a b", "x", 1, &res));
	EXPECT_EQ((u32)EINVAL, res);
	EXPECT_EQ(ERROR, set_kv(t, "a\r", "x", 1, &res));
	EXPECT_EQ((u32)EINVAL, res);
	EXPECT_EQ(ERROR, set_kv(t, "k", orig, EDGE_MEMC_MAX_VALUE + 1, &res));
	EXPECT_EQ((u32)EINVAL, res);
	/* The entry of the SET above, each field bad in turn. */
	s->value_len = 1;
	memset(s->key, 'a', sizeof(s->key));
	s->value[0] = 'a';	/* a 17th key byte, were it read */
	s->key_len = EDGE_MEMC_MAX_KEY + 1;
	EXPECT_EQ(ERROR, edge_func_run(EDGE_FN_MEMC, t, raw, PSIZE, &res));
	EXPECT_EQ((u32)EINVAL, res);
	s->key_len = 1;
	s->resv = 1;
	EXPECT_EQ(ERROR, edge_func_run(EDGE_FN_MEMC, t, raw, PSIZE, &res));
	EXPECT_EQ((u32)EINVAL, res);
	s->resv = 0;
	s->resv2 = 1;
	EXPECT_EQ(ERROR, edge_func_run(EDGE_FN_MEMC, t, raw, PSIZE, &res));
	EXPECT_EQ((u32)EINVAL, res);
	s->resv2 = 0;
	/* An entry too small for a SET. */
	EXPECT_EQ(ERROR, edge_func_run(EDGE_FN_MEMC, t, raw,
				       sizeof(struct edge_memc_param) +
				       sizeof(*s) - 8, &res));
	EXPECT_EQ((u32)EINVAL, res);
	/* None of those stored anything. */
	EXPECT_EQ(0, check_get(t, "k", NULL, -1));
	EXPECT_EQ(0, check_get(t, "a", NULL, -1));
	edge_func_state_free(EDGE_FN_MEMC, t);
}

/* A reply larger than the entry: EMSGSIZE, and the entry untouched. */
TEST(reply_too_big)
{
	void *t = table();
	u32 res, tot, size;

	ASSERT_NE(NULL, t);
	ASSERT_EQ(DONE, set_kv(t, "k", orig, EDGE_MEMC_MAX_VALUE, &res));
	tot = get_req("get k\r\n", 0, 1);
	size = (sizeof(struct edge_memc_param) + tot + 7) & ~7U;
	memcpy(orig, raw, PSIZE);
	EXPECT_EQ(ERROR, edge_func_run(EDGE_FN_MEMC, t, raw, size, &res));
	EXPECT_EQ((u32)EMSGSIZE, res);
	EXPECT_EQ(0, memcmp(orig, raw, PSIZE));
	edge_func_state_free(EDGE_FN_MEMC, t);
}

/* A registration without its table never runs (edge_func_run()). */
TEST(needs_state)
{
	u32 res;

	get_req("get k\r\n", 0, 1);
	EXPECT_EQ(ERROR, edge_func_run(EDGE_FN_MEMC, NULL, raw, PSIZE, &res));
	EXPECT_EQ((u32)EINVAL, res);
}

TEST_HARNESS_MAIN
