// SPDX-License-Identifier: GPL-2.0
/*
 * EDGE_FN_ICMP_ECHO (emul/fn/fn_icmp.c): every reply is compared whole
 * with one built here independently (host-order words through ntohs, as
 * RFC 1071 defines the sum), over odd and even payloads, the checksum
 * corner cases (a reply checksum of 0x0000 and of 0xffff, a request
 * checksum of either form of zero, sums that carry many times), frames
 * with Ethernet padding after the packet, and every refusal leaves the
 * entry as it was.
 */
#include <arpa/inet.h>
#include "emul_test.h"
#include "ref_csum.h"
#include "fn/func.h"

#define PSIZE	2048
#define DONE	((u32)EDGE_CQE_DONE)
#define ERROR	((u32)EDGE_CQE_ERROR)

static u8 raw[PSIZE], want[PSIZE], orig[PSIZE];

static u32 run(u32 size, u32 *res)
{
	return edge_func_run(EDGE_FN_ICMP_ECHO, NULL, raw, size, res);
}

static void set_csum(u8 *field, const u8 *p, size_t n)
{
	uint16_t c;

	field[0] = field[1] = 0;
	c = htons(ref_csum(p, n, 0));
	memcpy(field, &c, 2);
}

static u8 *pkt(u8 *buf)
{
	return ((struct edge_pkt_param *)buf)->data;
}

/*
 * 198.18.0.2 -> 198.18.0.1, echo id/seq, @n payload bytes from @fill
 * (NULL: random), @pad bytes of padding after it (an Ethernet frame's).
 * Returns the packet's length.
 */
static u32 make_echo(u32 n, u32 pad, u16 id, u16 seq, const u8 *fill,
		     struct emul_rng *rng)
{
	u8 *ip = pkt(raw), *icmp = ip + 20;
	u32 tot = 28 + n, i;

	memset(raw, 0, sizeof(raw));
	((struct edge_pkt_param *)raw)->len = tot + pad;
	ip[0] = 0x45;
	ip[2] = tot >> 8;
	ip[3] = tot & 0xff;
	ip[4] = 0x12;
	ip[5] = 0x34;
	ip[6] = 0x40;
	ip[8] = 63;
	ip[9] = 1;
	memcpy(ip + 12, "\xc6\x12\x00\x02\xc6\x12\x00\x01", 8);
	set_csum(ip + 10, ip, 20);
	icmp[0] = 8;
	icmp[4] = id >> 8;
	icmp[5] = id & 0xff;
	icmp[6] = seq >> 8;
	icmp[7] = seq & 0xff;
	for (i = 0; i < n; i++)
		icmp[8 + i] = fill ? fill[i] : (u8)emul_rand(rng);
	for (i = 0; i < pad; i++)
		icmp[8 + n + i] = 0xa5;
	set_csum(icmp + 2, icmp, 8 + n);
	return tot;
}

/* The reply the stack would send, built from the request in raw[]. */
static void make_want(u32 tot)
{
	u8 *ip = pkt(want), *icmp = ip + 20;

	memcpy(want, raw, sizeof(want));
	memcpy(ip + 12, pkt(raw) + 16, 4);
	memcpy(ip + 16, pkt(raw) + 12, 4);
	ip[8] = 64;
	set_csum(ip + 10, ip, 20);
	icmp[0] = 0;
	set_csum(icmp + 2, icmp, tot - 20);
}

static void expect_refused(struct __test_metadata *_metadata, u32 size,
			   u32 err)
{
	u32 res = 0;

	memcpy(orig, raw, sizeof(orig));
	EXPECT_EQ(ERROR, run(size, &res));
	EXPECT_EQ(err, res);
	EXPECT_EQ(0, memcmp(raw, orig, sizeof(raw)));
}

TEST(echo_reply_is_the_stacks)
{
	struct emul_rng rng;
	u32 n, pad, res;

	emul_rng_seed(&rng, 15);
	for (pad = 0; pad <= 17; pad += 17) {
		for (n = 0; n <= 1472; n += n < 80 ? 1 : 97) {
			u32 tot = make_echo(n, pad, (u16)emul_rand(&rng),
					    (u16)n, NULL, &rng);

			make_want(tot);
			ASSERT_EQ(DONE, run(PSIZE, &res)) TH_LOG("n=%u", n);
			ASSERT_EQ(tot, res);
			ASSERT_EQ(0, memcmp(raw, want, sizeof(raw)))
				TH_LOG("payload %u pad %u", n, pad);
			/* Both verify as a receiver checks them. */
			ASSERT_EQ(0, ref_csum(pkt(raw), 20, 0));
			ASSERT_EQ(0, ref_csum(pkt(raw) + 20, tot - 20, 0));
		}
	}
}

TEST(echo_checksum_corners)
{
	static u8 ones[1500];
	u8 *icmp = pkt(raw) + 20;
	u32 tot, res;

	memset(ones, 0xff, sizeof(ones));
	/* All zero: the reply's sum is 0, its checksum 0xffff. */
	tot = make_echo(8, 0, 0, 0, (const u8 *)"\0\0\0\0\0\0\0\0", NULL);
	make_want(tot);
	ASSERT_EQ(DONE, run(PSIZE, &res));
	EXPECT_EQ(0, memcmp(raw, want, sizeof(raw)));
	EXPECT_EQ(0xff, icmp[2]);
	EXPECT_EQ(0xff, icmp[3]);
	/* id 0xffff: the reply's sum is 0xffff, its checksum 0x0000. */
	tot = make_echo(8, 0, 0xffff, 0, (const u8 *)"\0\0\0\0\0\0\0\0", NULL);
	make_want(tot);
	ASSERT_EQ(DONE, run(PSIZE, &res));
	EXPECT_EQ(0, memcmp(raw, want, sizeof(raw)));
	EXPECT_EQ(0, icmp[2] | icmp[3]);
	/*
	 * A request whose other words sum to 0xffff: its checksum is 0x0000,
	 * and 0xffff (the other zero of one's complement) verifies too.
	 */
	tot = make_echo(0, 0, 0xf7ff, 0, NULL, NULL);
	EXPECT_EQ(0, icmp[2] | icmp[3]);
	make_want(tot);
	ASSERT_EQ(DONE, run(PSIZE, &res));
	EXPECT_EQ(0, memcmp(raw, want, sizeof(raw)));
	make_echo(0, 0, 0xf7ff, 0, NULL, NULL);
	icmp[2] = icmp[3] = 0xff;
	ASSERT_EQ(DONE, run(PSIZE, &res));
	/* Sums that carry on every word, odd length: the last byte counts. */
	tot = make_echo(1471, 0, 0xffff, 0xffff, ones, NULL);
	make_want(tot);
	ASSERT_EQ(DONE, run(PSIZE, &res));
	EXPECT_EQ(0, memcmp(raw, want, sizeof(raw)));
	tot = make_echo(1471, 0, 0xffff, 0xffff, ones, NULL);
	icmp[8 + 1470] = 0xfe;
	expect_refused(_metadata, PSIZE, EBADMSG);
}

TEST(echo_bad_checksums_are_refused)
{
	struct emul_rng rng;
	u8 *ip = pkt(raw), *icmp = ip + 20;
	u32 bit;

	emul_rng_seed(&rng, 3);
	/* Any one bit flipped in the headers or the payload. */
	for (bit = 0; bit < (28 + 33) * 8; bit += 5) {
		make_echo(33, 0, 7, 9, NULL, &rng);
		ip[bit / 8] ^= 1 << (bit % 8);
		memcpy(orig, raw, sizeof(orig));
		{
			u32 res = 0, code = run(PSIZE, &res);

			ASSERT_EQ(ERROR, code) TH_LOG("bit %u", bit);
			EXPECT_TRUE(res == EBADMSG || res == EINVAL);
			EXPECT_EQ(0, memcmp(raw, orig, sizeof(raw)));
		}
	}
	/* A wrong IP header checksum, a wrong ICMP checksum. */
	make_echo(16, 0, 1, 1, NULL, &rng);
	ip[11] ^= 0x80;
	expect_refused(_metadata, PSIZE, EBADMSG);
	make_echo(16, 0, 1, 1, NULL, &rng);
	ip[8] = 1;		/* TTL changed, checksum not */
	expect_refused(_metadata, PSIZE, EBADMSG);
	make_echo(16, 0, 1, 1, NULL, &rng);
	icmp[3] ^= 1;
	expect_refused(_metadata, PSIZE, EBADMSG);
	make_echo(16, 0, 1, 1, NULL, &rng);
	icmp[8 + 15] ^= 0x40;
	expect_refused(_metadata, PSIZE, EBADMSG);
	/* Padding is not the packet's: it may hold anything. */
	make_echo(16, 4, 1, 1, NULL, &rng);
	icmp[8 + 16] = 0x11;
	memcpy(orig, raw, sizeof(orig));
	{
		u32 res;

		EXPECT_EQ(DONE, run(PSIZE, &res));
		EXPECT_EQ(44U, res);
	}
}

TEST(echo_not_ours_is_refused)
{
	struct edge_pkt_param *pp = (void *)raw;
	u8 *ip = pkt(raw), *icmp = ip + 20;
	struct emul_rng rng;

	emul_rng_seed(&rng, 4);
	/* Options (header of 24 bytes), checksummed as such. */
	make_echo(16, 0, 1, 1, NULL, &rng);
	ip[0] = 0x46;
	set_csum(ip + 10, ip, 24);
	expect_refused(_metadata, PSIZE, EINVAL);
	/* Fragments: MF, an offset. */
	make_echo(16, 0, 1, 1, NULL, &rng);
	ip[6] = 0x20;
	set_csum(ip + 10, ip, 20);
	expect_refused(_metadata, PSIZE, EINVAL);
	make_echo(16, 0, 1, 1, NULL, &rng);
	ip[6] = 0;
	ip[7] = 1;
	set_csum(ip + 10, ip, 20);
	expect_refused(_metadata, PSIZE, EINVAL);
	/* Not an echo request: a reply, a timestamp request, code 1. */
	make_echo(16, 0, 1, 1, NULL, &rng);
	icmp[0] = 0;
	set_csum(icmp + 2, icmp, 24);
	expect_refused(_metadata, PSIZE, EINVAL);
	make_echo(16, 0, 1, 1, NULL, &rng);
	icmp[0] = 13;
	set_csum(icmp + 2, icmp, 24);
	expect_refused(_metadata, PSIZE, EINVAL);
	make_echo(16, 0, 1, 1, NULL, &rng);
	icmp[1] = 1;
	set_csum(icmp + 2, icmp, 24);
	expect_refused(_metadata, PSIZE, EINVAL);
	/* Not ICMP, not IPv4. */
	make_echo(16, 0, 1, 1, NULL, &rng);
	ip[9] = 17;
	set_csum(ip + 10, ip, 20);
	expect_refused(_metadata, PSIZE, EINVAL);
	make_echo(16, 0, 1, 1, NULL, &rng);
	ip[0] = 0x65;
	expect_refused(_metadata, PSIZE, EINVAL);
	/* Lengths that lie: total past len, below the headers, len past
	 * the entry, len below the headers.
	 */
	make_echo(16, 0, 1, 1, NULL, &rng);
	pp->len = 43;
	expect_refused(_metadata, PSIZE, EINVAL);
	make_echo(16, 0, 1, 1, NULL, &rng);
	ip[2] = 0;
	ip[3] = 27;
	set_csum(ip + 10, ip, 20);
	expect_refused(_metadata, PSIZE, EINVAL);
	make_echo(16, 0, 1, 1, NULL, &rng);
	expect_refused(_metadata, 8 + 43, EINVAL);
	pp->len = 27;
	expect_refused(_metadata, PSIZE, EINVAL);
	expect_refused(_metadata, 4, EINVAL);
}

TEST_HARNESS_MAIN
