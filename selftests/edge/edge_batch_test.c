// SPDX-License-Identifier: GPL-2.0
/*
 * edge.ko: batched event warps (REGISTER version 5,
 * EDGE_REGISTER_WARP_BATCH).  The struct's size rules (an older caller
 * registers unbatched, an unknown non-zero tail is E2BIG), the field
 * checks (EINVAL, nothing registered), batched completions (each request
 * its own CQE with its own status and result, ceil(N / 32) warps in
 * sysfs batch_warps, a lone request launched by its gather wait), and a
 * teardown with a warp in flight and a partial one gathering: every
 * request cancelled, none lost.
 */
#define _GNU_SOURCE
#include <stddef.h>

#include "kselftest_harness.h"
#include "edge_selftest.h"

#define PAGE	4096
#define KREG	((uint32_t)sizeof(struct edge_register))
#define RPW	32
#define RING	128
#define PSZ	16	/* struct edge_crc_param and 8 bytes of data */

FIXTURE(batch) {
	struct edge_dev d;
	struct edge_queue q;
};

FIXTURE_SETUP(batch)
{
	int ret;

	self->d.fd = -1;
	EDGE_SETUP_LOAD("");
	ret = edge_open(&self->d, EDGE_DEV0);
	ASSERT_EQ(0, ret) TH_LOG("open: %s", strerror(-ret));
}

FIXTURE_TEARDOWN(batch)
{
	edge_queue_drop(&self->q);
	if (self->d.fd >= 0 || self->d.doorbells)
		edge_close(&self->d);
	EXPECT_EQ(0, edge_module_unload(3000));
}

/* A CRC32C warp, batched by @rpw requests (0: the flag unset). */
static void reg_batch(struct edge_register *r, uint32_t rpw, uint32_t gather)
{
	edge_register_init(r, EDGE_FN_CRC32C, PSZ, RING, 2300);
	if (rpw) {
		r->flags = EDGE_REGISTER_WARP_BATCH;
		r->requests_per_warp = rpw;
		r->gather_ns = gather;
	}
}

/* Version 5's field is where version 4 ended. */
TEST(layout)
{
	EXPECT_EQ(EDGE_REGISTER_SIZE_VER5, KREG);
	EXPECT_EQ(EDGE_REGISTER_SIZE_VER4,
		  offsetof(struct edge_register, requests_per_warp));
	EXPECT_EQ(EDGE_REGISTER_SIZE_VER4 + 4,
		  offsetof(struct edge_register, gather_ns));
}

/*
 * sched_setattr()'s rules: a version-4 caller registers (unbatched: it
 * cannot name the fields), a larger struct with a non-zero tail is E2BIG
 * with the kernel's size written back, and nothing registers.
 */
TEST_F(batch, sizes)
{
	union {
		struct edge_register r;
		uint8_t raw[PAGE];
	} u;
	unsigned int i;

	memset(&u, 0, sizeof(u));
	reg_batch(&u.r, 0, 0);
	u.r.size = EDGE_REGISTER_SIZE_VER4;
	ASSERT_EQ(0, edge_ioc(self->d.fd, EDGE_IOC_REGISTER_EVENT, &u));
	EXPECT_EQ(EDGE_REGISTER_SIZE_VER4, u.r.size);
	EXPECT_EQ(0, edge_unregister_id(self->d.fd, u.r.id));
	/* A version-4 struct cannot carry the flag's fields: EINVAL. */
	memset(&u, 0, sizeof(u));
	reg_batch(&u.r, RPW, 0);
	u.r.size = EDGE_REGISTER_SIZE_VER4;
	EXPECT_EQ(-EINVAL, edge_ioc(self->d.fd, EDGE_IOC_REGISTER_EVENT, &u));
	for (i = 0; i < 8; i++) {
		memset(&u, 0, sizeof(u));
		reg_batch(&u.r, RPW, 0);
		u.r.size = KREG + 8;
		u.raw[KREG + i] = 0x5a;
		EXPECT_EQ(-E2BIG, edge_ioc(self->d.fd,
					   EDGE_IOC_REGISTER_EVENT, &u))
			TH_LOG("tail byte %u", i);
		EXPECT_EQ(KREG, u.r.size);
	}
	EXPECT_EQ(0, edge_sysfs_read(0, "registered"));
	/* The same with a zero tail registers, batched. */
	memset(&u, 0, sizeof(u));
	reg_batch(&u.r, RPW, 0);
	u.r.size = KREG + 8;
	ASSERT_EQ(0, edge_ioc(self->d.fd, EDGE_IOC_REGISTER_EVENT, &u));
	EXPECT_EQ(KREG, u.r.size);
	EXPECT_EQ(1, edge_sysfs_read(0, "registered"));
}

/* Each bad field: EINVAL, nothing registered; the limits register. */
TEST_F(batch, fields)
{
	struct edge_register r;
	uint32_t id;

	reg_batch(&r, 0, 0);
	r.flags = EDGE_REGISTER_WARP_BATCH;	/* requests_per_warp 0 */
	EXPECT_EQ(-EINVAL, edge_ioc(self->d.fd, EDGE_IOC_REGISTER_EVENT, &r));
	reg_batch(&r, EDGE_MAX_REQUESTS_PER_WARP + 1, 0);
	EXPECT_EQ(-EINVAL, edge_ioc(self->d.fd, EDGE_IOC_REGISTER_EVENT, &r));
	reg_batch(&r, 0, 0);
	r.requests_per_warp = 1;		/* without the flag */
	EXPECT_EQ(-EINVAL, edge_ioc(self->d.fd, EDGE_IOC_REGISTER_EVENT, &r));
	reg_batch(&r, 0, 0);
	r.gather_ns = 1;			/* without the flag */
	EXPECT_EQ(-EINVAL, edge_ioc(self->d.fd, EDGE_IOC_REGISTER_EVENT, &r));
	reg_batch(&r, RPW, EDGE_MAX_GATHER_NS + 1);
	EXPECT_EQ(-EINVAL, edge_ioc(self->d.fd, EDGE_IOC_REGISTER_EVENT, &r));
	reg_batch(&r, RPW, 0);
	r.flags |= 2;				/* unknown flag */
	EXPECT_EQ(-EINVAL, edge_ioc(self->d.fd, EDGE_IOC_REGISTER_EVENT, &r));
	reg_batch(&r, RPW, 0);
	r.grid_x = 2;				/* not an event warp */
	EXPECT_EQ(-EINVAL, edge_ioc(self->d.fd, EDGE_IOC_REGISTER_EVENT, &r));
	EXPECT_EQ(0, edge_sysfs_read(0, "registered"));

	reg_batch(&r, EDGE_MAX_REQUESTS_PER_WARP, EDGE_MAX_GATHER_NS);
	ASSERT_EQ(0, edge_ioc(self->d.fd, EDGE_IOC_REGISTER_EVENT, &r));
	id = r.id;
	reg_batch(&r, 1, 0);
	ASSERT_EQ(0, edge_ioc(self->d.fd, EDGE_IOC_REGISTER_EVENT, &r));
	EXPECT_EQ(2, edge_sysfs_read(0, "registered"));
	EXPECT_EQ(0, edge_unregister_id(self->d.fd, id));
}

/* Request @n: a CRC of its number, or (every third) a length too long. */
static void fill(struct edge_crc_param *p, uint32_t n)
{
	p->len = n % 3 == 2 ? 9 : 4;
	p->crc = 0;
	memcpy(p->data, &n, 4);
}

/* The reference CRC32C (Castagnoli, reflected), bit by bit. */
static uint32_t crc32c(const uint8_t *p, uint32_t len)
{
	uint32_t crc = ~0U, i, b;

	for (i = 0; i < len; i++) {
		crc ^= p[i];
		for (b = 0; b < 8; b++)
			crc = crc & 1 ? (crc >> 1) ^ 0x82f63b78U : crc >> 1;
	}
	return ~crc;
}

/* Submit @n requests numbered from @from with one doorbell. */
static void submit_n(struct __test_metadata *_metadata, struct edge_queue *q,
		     uint32_t from, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		struct edge_crc_param *p = edge_queue_param_ahead(q, i);

		ASSERT_NE(NULL, p);
		fill(p, from + i);
	}
	edge_queue_submit(q, n);
}

/* Reap @n completions: each its own status and result, in ring order. */
static void reap_n(struct __test_metadata *_metadata, struct edge_queue *q,
		   uint32_t from, uint32_t n)
{
	struct edge_cqe c;
	uint32_t i;

	for (i = 0; i < n; i++) {
		uint32_t v = from + i;

		ASSERT_EQ(0, edge_queue_wait(q, &c, 10000)) TH_LOG("request %u", v);
		EXPECT_EQ(v & EDGE_CQE_SEQ_MASK, EDGE_CQE_SEQ(c.status));
		if (v % 3 == 2) {
			EXPECT_EQ(EDGE_CQE_ERROR, EDGE_CQE_CODE(c.status))
				TH_LOG("request %u", v);
			EXPECT_EQ(EINVAL, c.res);
		} else {
			EXPECT_EQ(EDGE_CQE_DONE, EDGE_CQE_CODE(c.status))
				TH_LOG("request %u", v);
			EXPECT_EQ(crc32c((const uint8_t *)&v, 4), c.res)
				TH_LOG("request %u", v);
		}
		edge_queue_cqe_seen(q);
	}
}

/*
 * 70 requests rung at once go as two full warps and one of 6 (which its
 * gather wait launches); then a lone one, alone in its warp.  Every
 * request completes in its own CQE with its own status.
 */
TEST_F_TIMEOUT(batch, completions, 60)
{
	struct edge_register r;

	reg_batch(&r, RPW, 0);
	ASSERT_EQ(0, edge_queue_create(&self->d, &r, &self->q));
	submit_n(_metadata, &self->q, 0, 70);
	reap_n(_metadata, &self->q, 0, 70);
	EXPECT_EQ(3, edge_sysfs_read(0, "batch_warps"));
	submit_n(_metadata, &self->q, 70, 1);
	reap_n(_metadata, &self->q, 70, 1);
	EXPECT_EQ(4, edge_sysfs_read(0, "batch_warps"));
	EXPECT_EQ(71, edge_sysfs_read(0, "submitted"));
	EXPECT_EQ(48, edge_sysfs_read(0, "completed"));
	EXPECT_EQ(23, edge_sysfs_read(0, "errors"));
	EXPECT_EQ(0, edge_sysfs_read(0, "inflight"));
}

/* Unbatched (the default): no batched warp at all. */
TEST_F_TIMEOUT(batch, unbatched, 60)
{
	struct edge_register r;

	reg_batch(&r, 0, 0);
	ASSERT_EQ(0, edge_queue_create(&self->d, &r, &self->q));
	submit_n(_metadata, &self->q, 0, 40);
	reap_n(_metadata, &self->q, 0, 40);
	EXPECT_EQ(0, edge_sysfs_read(0, "batch_warps"));
}

FIXTURE(vbatch) {
	struct edge_dev d;
	struct edge_queue q;
};

FIXTURE_SETUP(vbatch)
{
	int ret;

	self->d.fd = -1;
	EDGE_SETUP_LOAD("virtual_time=1");
	ret = edge_open(&self->d, EDGE_DEV0);
	ASSERT_EQ(0, ret) TH_LOG("open: %s", strerror(-ret));
}

FIXTURE_TEARDOWN(vbatch)
{
	sched_write("sched/vt_hold", "0");
	edge_queue_drop(&self->q);
	if (self->d.fd >= 0 || self->d.doorbells)
		edge_close(&self->d);
	EXPECT_EQ(0, edge_module_unload(3000));
}

/*
 * Teardown mid-gather: virtual time held, so a full warp is launched and
 * stays in flight and 8 more requests stay gathered (the gather wait
 * never ends).  Unregister refuses; the file's release cancels all 40,
 * each with a status.
 */
TEST_F_TIMEOUT(vbatch, teardown_mid_gather, 30)
{
	struct edge_register r;
	uint32_t i;

	reg_batch(&r, RPW, 0);
	ASSERT_EQ(0, edge_queue_create(&self->d, &r, &self->q));
	ASSERT_EQ(0, sched_write("sched/vt_hold", "1"));
	submit_n(_metadata, &self->q, 0, RPW + 8);
	wait_dispatched(_metadata, &self->q, RPW);
	ASSERT_EQ(0, edge_frontend_settle(0, 5000));
	EXPECT_EQ(RPW, edge_queue_dispatched(&self->q));
	EXPECT_EQ(RPW, edge_sysfs_read(0, "inflight"));
	EXPECT_EQ(1, edge_sysfs_read(0, "batch_warps"));
	EXPECT_EQ(-EBUSY, edge_unregister_id(self->d.fd, self->q.id));
	for (i = 0; i < RPW + 8; i++)
		EXPECT_EQ(EDGE_CQE_PENDING,
			  EDGE_CQE_CODE(edge_queue_raw_cqe(&self->q, i).status));
	edge_queue_drop(&self->q);
	edge_close(&self->d);
	EXPECT_EQ(RPW + 8, edge_sysfs_read(0, "cancelled"));
	EXPECT_EQ(RPW + 8, edge_sysfs_read(0, "submitted"));
	EXPECT_EQ(0, edge_sysfs_read(0, "completed"));
	EXPECT_EQ(0, edge_sysfs_read(0, "inflight"));
	EXPECT_EQ(0, edge_sysfs_read(0, "registered"));
}

EDGE_FINAL_CHECKS

EDGE_SELFTEST_MAIN
