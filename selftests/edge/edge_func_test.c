// SPDX-License-Identifier: GPL-2.0
/*
 * The computing event kernels through the user ABI: UDP ping, IPv4 LPM
 * with a table given at registration (struct edge_register VER2), CRC32C.
 * Outputs are read from the parameter entry after the completion status
 * (acquire), as Documentation/uapi.rst promises; bad tables are refused
 * with a clear errno and leave nothing registered.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include "kselftest_harness.h"
#include "edge_selftest.h"

FIXTURE(fn) {
	struct edge_dev d;
};

FIXTURE_SETUP(fn)
{
	EDGE_SETUP_LOAD("");
	ASSERT_EQ(0, edge_open(&self->d, EDGE_DEV0));
}

FIXTURE_TEARDOWN(fn)
{
	edge_close(&self->d);
	edge_module_unload(3000);
}

static uint16_t csum(const void *p, size_t n, uint32_t sum)
{
	const uint8_t *b = p;

	for (; n > 1; n -= 2, b += 2)
		sum += (uint32_t)b[0] << 8 | b[1];
	if (n)
		sum += (uint32_t)b[0] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* One event through @q with @param; returns its CQE (waits 5 s). */
static struct edge_cqe one(struct edge_queue *q, const void *param,
			   size_t len, void *out)
{
	struct edge_cqe c = { 0, 0 };
	void *p = edge_queue_param(q);

	memcpy(p, param, len);
	edge_queue_submit(q, 1);
	if (edge_queue_wait(q, &c, 5000))
		c.status = ~0U;
	memcpy(out, p, len);
	edge_queue_cqe_seen(q);
	return c;
}

TEST_F(fn, udp_ping)
{
	uint8_t pkt[8 + 28 + 16] = {}, out[sizeof(pkt)];
	uint8_t *ip = pkt + 8, *udp = ip + 20;
	struct edge_register reg;
	struct edge_queue q;
	struct edge_cqe c;
	uint32_t len = 28 + 16;
	uint16_t s;

	memcpy(pkt, &len, 4);
	ip[0] = 0x45;
	ip[3] = len;
	ip[8] = 5;
	ip[9] = 17;
	memcpy(ip + 12, "\xc0\xa8\x00\x01\xc0\xa8\x00\x02", 8);
	s = csum(ip, 20, 0);
	ip[10] = s >> 8;
	ip[11] = s;
	udp[0] = 0x30;
	udp[3] = 7;
	udp[5] = 24;
	memset(udp + 8, 0x5a, 16);
	edge_register_init(&reg, EDGE_FN_UDP_PING, 64, 4, 700);
	ASSERT_EQ(0, edge_queue_create(&self->d, &reg, &q));
	c = one(&q, pkt, sizeof(pkt), out);
	EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, 0), c.status);
	EXPECT_EQ(len, c.res);
	ip = out + 8;
	udp = ip + 20;
	EXPECT_EQ(0, memcmp(ip + 12, "\xc0\xa8\x00\x02\xc0\xa8\x00\x01", 8));
	EXPECT_EQ(7, udp[1]);
	EXPECT_EQ(0x30, udp[2]);
	EXPECT_EQ(64, ip[8]);
	EXPECT_EQ(0, csum(ip, 20, 0));
	/* The sender did not checksum UDP: neither does the reply. */
	EXPECT_EQ(0, udp[6] | udp[7]);
	/* A corrupted header fails with EBADMSG. */
	pkt[8 + 8] = 6;
	c = one(&q, pkt, sizeof(pkt), out);
	EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_ERROR, 1), c.status);
	EXPECT_EQ(EBADMSG, c.res);
	EXPECT_EQ(0, edge_queue_destroy(&q));
}

TEST_F(fn, crc32c)
{
	uint8_t e[8 + 9] = {}, out[sizeof(e)];
	struct edge_register reg;
	struct edge_queue q;
	struct edge_cqe c;
	uint32_t len = 9, crc;

	memcpy(e, &len, 4);
	memcpy(e + 8, "123456789", 9);
	edge_register_init(&reg, EDGE_FN_CRC32C, 24, 4, 700);
	ASSERT_EQ(0, edge_queue_create(&self->d, &reg, &q));
	c = one(&q, e, sizeof(e), out);
	EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, 0), c.status);
	EXPECT_EQ(0xe3069283U, c.res);
	memcpy(&crc, out + 4, 4);
	EXPECT_EQ(0xe3069283U, crc);
	EXPECT_EQ(0, edge_queue_destroy(&q));
}

static struct edge_lpm_entry route(uint32_t prefix, uint32_t len,
				   uint32_t value)
{
	struct edge_lpm_entry r = { htonl(prefix), len, value, 0 };

	return r;
}

TEST_F(fn, lpm_table)
{
	struct edge_lpm_entry t[3] = {
		route(0x0a000000, 8, 1),
		route(0x0a010000, 16, 2),
		route(0, 0, 3),
	};
	struct edge_lpm_param lp = {}, out;
	struct edge_register reg;
	struct edge_queue q;
	struct edge_cqe c;

	edge_register_init(&reg, EDGE_FN_LPM4, 16, 4, 700);
	reg.table_ptr = (uintptr_t)t;
	reg.table_len = sizeof(t);
	ASSERT_EQ(0, edge_queue_create(&self->d, &reg, &q));
	/* The kernel copied the table: ours may change now. */
	memset(t, 0, sizeof(t));
	lp.addr = htonl(0x0a010203);
	c = one(&q, &lp, sizeof(lp), &out);
	EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, 0), c.status);
	EXPECT_EQ(2U, c.res);
	EXPECT_EQ(2U, out.value);
	EXPECT_EQ(16U, out.prefix_len);
	EXPECT_EQ(1U, out.found);
	lp.addr = htonl(0x0b000001);
	c = one(&q, &lp, sizeof(lp), &out);
	EXPECT_EQ(3U, c.res);
	EXPECT_EQ(0U, out.prefix_len);
	EXPECT_EQ(0, edge_queue_destroy(&q));
}

TEST_F(fn, bad_tables_register_nothing)
{
	struct edge_lpm_entry t[2] = {
		route(0x0a000000, 8, 1),
		route(0x0a000000, 8, 2),	/* the same prefix twice */
	};
	struct edge_register reg;

	edge_register_init(&reg, EDGE_FN_LPM4, 16, 4, 700);
	reg.table_ptr = (uintptr_t)t;
	reg.table_len = sizeof(t);
	EXPECT_EQ(-EINVAL, edge_ioc(self->d.fd, EDGE_IOC_REGISTER_EVENT, &reg));
	t[1] = route(0x0a000001, 8, 2);		/* host bits */
	EXPECT_EQ(-EINVAL, edge_ioc(self->d.fd, EDGE_IOC_REGISTER_EVENT, &reg));
	t[1] = route(0x0b000000, 8, 2);
	reg.table_len = 24;			/* not whole entries */
	EXPECT_EQ(-EINVAL, edge_ioc(self->d.fd, EDGE_IOC_REGISTER_EVENT, &reg));
	reg.table_len = 0;			/* LPM needs a table */
	EXPECT_EQ(-EINVAL, edge_ioc(self->d.fd, EDGE_IOC_REGISTER_EVENT, &reg));
	reg.table_len = sizeof(t);
	reg.table_ptr = 8;			/* unmapped */
	EXPECT_EQ(-EFAULT, edge_ioc(self->d.fd, EDGE_IOC_REGISTER_EVENT, &reg));
	reg.table_ptr = (uintptr_t)t;
	reg.pad = 1;
	EXPECT_EQ(-EINVAL, edge_ioc(self->d.fd, EDGE_IOC_REGISTER_EVENT, &reg));
	/* A table for a function that takes none. */
	edge_register_init(&reg, EDGE_FN_ECHO, 16, 4, 700);
	reg.table_ptr = (uintptr_t)t;
	reg.table_len = sizeof(t);
	EXPECT_EQ(-EINVAL, edge_ioc(self->d.fd, EDGE_IOC_REGISTER_EVENT, &reg));
	EXPECT_EQ(0, edge_sysfs_read(0, "registered"));
	/* A VER1 caller of LPM has no table: EINVAL, not a crash. */
	edge_register_init(&reg, EDGE_FN_LPM4, 16, 4, 700);
	reg.size = EDGE_REGISTER_SIZE_VER1;
	reg.table_ptr = (uintptr_t)t;
	reg.table_len = sizeof(t);
	EXPECT_EQ(-EINVAL, edge_ioc(self->d.fd, EDGE_IOC_REGISTER_EVENT, &reg));
	EXPECT_EQ(0, edge_sysfs_read(0, "registered"));
}

/*
 * MemC through the user ABI: its table is built at registration (none
 * given), a SET event fills it, a GET datagram is answered in place, an
 * id past the last function is no function.
 */
TEST_F(fn, memc_set_then_get)
{
	static const char want[] = "VALUE k 0 2\r\nab\r\nEND\r\n";
	uint8_t e[128] = {}, out[sizeof(e)];
	struct edge_memc_param *mp = (void *)e;
	struct edge_memc_set *set = (void *)mp->data;
	uint8_t *ip = mp->data, *udp = ip + 20;
	uint32_t tot = 20 + 8 + 8 + 7;
	struct edge_register reg;
	struct edge_queue q;
	struct edge_cqe c;
	uint16_t s;

	edge_register_init(&reg, EDGE_FN_MAX + 1, 128, 4, 700);
	EXPECT_EQ(-EINVAL, edge_ioc(self->d.fd, EDGE_IOC_REGISTER_EVENT, &reg));
	edge_register_init(&reg, EDGE_FN_MEMC, 128, 4, 23000);
	reg.table_ptr = (uintptr_t)e;		/* MemC takes no table */
	reg.table_len = 16;
	EXPECT_EQ(-EINVAL, edge_ioc(self->d.fd, EDGE_IOC_REGISTER_EVENT, &reg));
	reg.table_ptr = 0;
	reg.table_len = 0;
	ASSERT_EQ(0, edge_queue_create(&self->d, &reg, &q));
	mp->op = EDGE_MEMC_SET;
	set->key_len = 1;
	set->key[0] = 'k';
	set->value_len = 2;
	memcpy(set->value, "ab", 2);
	c = one(&q, e, sizeof(e), out);
	EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, 0), c.status);
	EXPECT_EQ(0U, c.res);
	memset(e, 0, sizeof(e));
	mp->len = tot;
	mp->op = EDGE_MEMC_GET;
	ip[0] = 0x45;
	ip[3] = tot;
	ip[8] = 5;
	ip[9] = 17;
	memcpy(ip + 12, "\xc0\xa8\x00\x01\xc0\xa8\x00\x02", 8);
	s = csum(ip, 20, 0);
	ip[10] = s >> 8;
	ip[11] = s;
	udp[0] = 0x9c;				/* 40000 */
	udp[1] = 0x40;
	udp[2] = 0x2b;				/* 11211 */
	udp[3] = 0xcb;
	udp[5] = tot - 20;
	udp[8] = 0x12;				/* request id */
	udp[13] = 1;				/* count 1 */
	memcpy(udp + 16, "get k\r\n", 7);
	c = one(&q, e, sizeof(e), out);
	EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, 1), c.status);
	EXPECT_EQ(36 + sizeof(want) - 1, c.res);
	mp = (void *)out;
	EXPECT_EQ(1, mp->hit);
	ip = mp->data;
	udp = ip + 20;
	EXPECT_EQ(0, memcmp(ip + 12, "\xc0\xa8\x00\x02\xc0\xa8\x00\x01", 8));
	EXPECT_EQ(0, csum(ip, 20, 0));
	EXPECT_EQ(0x12, udp[8]);
	EXPECT_EQ(1, udp[13]);
	EXPECT_EQ(0, memcmp(udp + 16, want, sizeof(want) - 1));
	/* Not "get <key>": EINVAL, the entry as it was. */
	e[8 + 36 + 3] = 's';
	c = one(&q, e, sizeof(e), out);
	EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_ERROR, 2), c.status);
	EXPECT_EQ(EINVAL, c.res);
	EXPECT_EQ(0, memcmp(e, out, sizeof(e)));
	EXPECT_EQ(0, edge_queue_destroy(&q));
}

EDGE_FINAL_CHECKS

EDGE_SELFTEST_MAIN
