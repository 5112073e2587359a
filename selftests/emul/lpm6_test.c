// SPDX-License-Identifier: GPL-2.0
/*
 * EDGE_FN_LPM6 (emul/fn/fn_lpm6.c): the longest prefix wins, /0 is the
 * default, /128 a host, a miss says so; a random table against a
 * brute-force scan; and the table's rules at registration.
 */
#include <arpa/inet.h>
#include "emul_test.h"
#include "fn/func.h"
#include "validate.h"

#define DONE	((u32)EDGE_CQE_DONE)
#define ERROR	((u32)EDGE_CQE_ERROR)

static struct edge_lpm6_entry route6(const char *p, u32 len, u32 value)
{
	struct edge_lpm6_entry e = { .prefix_len = len, .value = value };

	if (inet_pton(AF_INET6, p, e.prefix) != 1)
		abort();
	return e;
}

/* Run one lookup of @a; the entry's outputs, checked against res. */
static u32 look(void *state, const char *a, u32 *plen, u32 *found)
{
	struct edge_lpm6_param lp;
	u32 res;

	memset(&lp, 0xa5, sizeof(lp));
	if (inet_pton(AF_INET6, a, lp.addr) != 1)
		abort();
	if (edge_func_run(EDGE_FN_LPM6, state, &lp, sizeof(lp), &res) != DONE)
		return 0xdead;
	*plen = lp.prefix_len;
	*found = lp.found;
	if (res != lp.value)
		return 0xbad;
	return res;
}

TEST(lpm6_longest_prefix_wins)
{
	struct edge_lpm6_entry t[5];
	u32 plen, found;
	void *state;

	t[0] = route6("2001:db8::", 32, 1);
	t[1] = route6("2001:db8:1::", 48, 2);
	t[2] = route6("2001:db8:1::5", 128, 3);
	t[3] = route6("fd00::", 8, 4);
	t[4] = route6("2001:db8:1:2::", 64, 5);
	ASSERT_EQ(0, edge_func_state_new(EDGE_FN_LPM6, t, sizeof(t), &state));
	EXPECT_EQ(2U, look(state, "2001:db8:1::4", &plen, &found));
	EXPECT_EQ(48U, plen);
	EXPECT_EQ(1U, found);
	/* The host route, and its neighbours on either side. */
	EXPECT_EQ(3U, look(state, "2001:db8:1::5", &plen, &found));
	EXPECT_EQ(128U, plen);
	EXPECT_EQ(2U, look(state, "2001:db8:1::6", &plen, &found));
	EXPECT_EQ(5U, look(state, "2001:db8:1:2:ffff::1", &plen, &found));
	EXPECT_EQ(64U, plen);
	EXPECT_EQ(1U, look(state, "2001:db8:ffff::", &plen, &found));
	EXPECT_EQ(4U, look(state, "fdff::1", &plen, &found));
	/* No route: the miss value, found 0. */
	EXPECT_EQ(EDGE_LPM_MISS, look(state, "2001:db9::1", &plen, &found));
	EXPECT_EQ(0U, found);
	edge_func_state_free(EDGE_FN_LPM6, state);

	/* /0 alone: the default, for every address. */
	t[0] = route6("::", 0, 9);
	ASSERT_EQ(0, edge_func_state_new(EDGE_FN_LPM6, t, sizeof(t[0]),
					 &state));
	EXPECT_EQ(9U, look(state, "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
			   &plen, &found));
	EXPECT_EQ(0U, plen);
	EXPECT_EQ(1U, found);
	EXPECT_EQ(9U, look(state, "::", &plen, &found));
	edge_func_state_free(EDGE_FN_LPM6, state);
	EXPECT_NO_LEAKS();
}

static bool ref_match(const struct edge_lpm6_entry *e, const u8 *a)
{
	u32 b;

	for (b = 0; b < e->prefix_len; b++)
		if (((e->prefix[b / 8] ^ a[b / 8]) >> (7 - b % 8)) & 1)
			return false;
	return true;
}

/* A random table against the definition: scan every route. */
TEST(lpm6_random_against_scan)
{
	static struct edge_lpm6_entry t[EDGE_LPM6_MAX_ENTRIES];
	u32 n = 0, i, q, seed = 12345;
	void *state;

	while (n < EDGE_LPM6_MAX_ENTRIES) {
		struct edge_lpm6_entry e = { .value = n };
		bool dup = false;
		u32 b;

		seed = seed * 1103515245 + 12345;
		e.prefix_len = (seed >> 8) % 129;
		for (b = 0; b < 16; b++) {
			seed = seed * 1103515245 + 12345;
			/* Share the top so that prefixes nest. */
			e.prefix[b] = b < 4 ? 0x20 + b : seed >> 16;
		}
		for (b = e.prefix_len; b < 128; b++)
			e.prefix[b / 8] &= ~(0x80 >> (b % 8));
		for (i = 0; i < n; i++)
			if (t[i].prefix_len == e.prefix_len &&
			    !memcmp(t[i].prefix, e.prefix, 16))
				dup = true;
		if (!dup)
			t[n++] = e;
	}
	ASSERT_EQ(0, edge_func_state_new(EDGE_FN_LPM6, t, sizeof(t), &state));
	for (q = 0; q < 4000; q++) {
		struct edge_lpm6_param lp;
		u32 want = EDGE_LPM_MISS, wlen = 0, res, b;
		bool any = false;

		for (b = 0; b < 16; b++) {
			seed = seed * 1103515245 + 12345;
			lp.addr[b] = seed >> 16;
		}
		/* Half the queries inside a route's prefix. */
		if (q % 2) {
			const struct edge_lpm6_entry *e = &t[q % n];

			for (b = 0; b < e->prefix_len; b++) {
				u8 m = 0x80 >> (b % 8);

				lp.addr[b / 8] = (lp.addr[b / 8] & ~m) |
						 (e->prefix[b / 8] & m);
			}
		}
		for (i = 0; i < n; i++)
			if (ref_match(&t[i], lp.addr) &&
			    (!any || t[i].prefix_len > wlen)) {
				any = true;
				want = t[i].value;
				wlen = t[i].prefix_len;
			}
		ASSERT_EQ(DONE, edge_func_run(EDGE_FN_LPM6, state, &lp,
					      sizeof(lp), &res));
		ASSERT_EQ(want, res);
		ASSERT_EQ((u32)any, lp.found);
		if (any) {
			ASSERT_EQ(wlen, lp.prefix_len);
		}
	}
	edge_func_state_free(EDGE_FN_LPM6, state);
	EXPECT_NO_LEAKS();
}

TEST(lpm6_table_rules)
{
	struct edge_lpm6_entry t[2];
	void *state;

	t[0] = route6("2001:db8::", 32, 1);
	/* Longer than 128. */
	t[1] = route6("2001:db9::", 129, 2);
	EXPECT_EQ(-EINVAL, edge_func_state_new(EDGE_FN_LPM6, t, sizeof(t),
					       &state));
	/* Host bits, in the last byte and past the length's byte. */
	t[1] = route6("2001:db9::1", 64, 2);
	EXPECT_EQ(-EINVAL, edge_func_state_new(EDGE_FN_LPM6, t, sizeof(t),
					       &state));
	t[1] = route6("2001:db9:8000::", 32, 2);
	EXPECT_EQ(-EINVAL, edge_func_state_new(EDGE_FN_LPM6, t, sizeof(t),
					       &state));
	/* The same prefix twice. */
	t[1] = route6("2001:db8::", 32, 2);
	EXPECT_EQ(-EINVAL, edge_func_state_new(EDGE_FN_LPM6, t, sizeof(t),
					       &state));
	/* A reserved field. */
	t[1] = route6("2001:db9::", 32, 2);
	t[1].resv[1] = 1;
	EXPECT_EQ(-EINVAL, edge_func_state_new(EDGE_FN_LPM6, t, sizeof(t),
					       &state));
	/* 33 bits with the 33rd set, and /128: both fine. */
	t[0] = route6("2001:db9:8000::", 33, 1);
	t[1] = route6("2001:db9::1", 128, 2);
	ASSERT_EQ(0, edge_func_state_new(EDGE_FN_LPM6, t, sizeof(t), &state));
	edge_func_state_free(EDGE_FN_LPM6, state);
	EXPECT_NO_LEAKS();
}

/* A parameter entry smaller than the function's: EINVAL, nothing read. */
TEST(lpm6_short_entry)
{
	struct edge_lpm6_entry t = route6("::", 0, 1);
	struct edge_lpm6_param lp = { 0 };
	void *state;
	u32 res;

	ASSERT_EQ(0, edge_func_state_new(EDGE_FN_LPM6, &t, sizeof(t), &state));
	EXPECT_EQ(ERROR, edge_func_run(EDGE_FN_LPM6, state, &lp,
				       sizeof(lp) - 1, &res));
	EXPECT_EQ((u32)EINVAL, res);
	edge_func_state_free(EDGE_FN_LPM6, state);
	EXPECT_NO_LEAKS();
}

/* Registration: a table of whole entries, not empty, at most 1024. */
TEST(lpm6_register_table)
{
	struct edge_register r = emul_reg_one_warp();
	struct edge_validate_err err;
	struct edge_kdesc k;

	r.func = EDGE_FN_LPM6;
	r.param_size = 32;
	memset(&err, 0, sizeof(err));
	EXPECT_EQ(-EINVAL, edge_validate_register_why(edge_p(), &r, &k, &err));
	EXPECT_STREQ("table_len", err.field);
	r.table_ptr = 0x1000;
	r.table_len = 31;
	EXPECT_EQ(-EINVAL, edge_validate_register(edge_p(), &r, &k));
	r.table_len = 16;
	EXPECT_EQ(-EINVAL, edge_validate_register(edge_p(), &r, &k));
	r.table_len = (EDGE_LPM6_MAX_ENTRIES + 1) * 32;
	EXPECT_EQ(-EINVAL, edge_validate_register(edge_p(), &r, &k));
	r.table_len = EDGE_LPM6_MAX_ENTRIES * 32;
	EXPECT_EQ(0, edge_validate_register(edge_p(), &r, &k));
	EXPECT_EQ(r.table_len, k.table_len);
}

TEST_HARNESS_MAIN
