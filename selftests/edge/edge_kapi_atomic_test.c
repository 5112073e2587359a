// SPDX-License-Identifier: GPL-2.0
/*
 * The in-kernel API from atomic context: edge_nicsim rings doorbells from
 * an hrtimer in hard-interrupt mode and in soft-interrupt mode, and reaps
 * either in edge's completion callback or by polling the completion ring
 * from the timer.  edge.ko runs with poll_idle_us=0, so the front end
 * sleeps between batches and nearly every doorbell also wakes it from
 * interrupt context (the NEED_WAKEUP path).
 *
 * What is asserted is behaviour: every packet sent completes and
 * verifies, the books balance, and the kernel is not tainted by a
 * warning.  The packets nicsim drops it reports from its timer
 * (edge_kq_dropped()): the events group hears of every one of them,
 * from process context, in a message a second at most.  Under a debug kernel (DEBUG_ATOMIC_SLEEP, lockdep) a sleep
 * or an irq-unsafe lock on these paths is such a warning.
 */
#define _GNU_SOURCE
#include "kselftest_harness.h"
#include "edge_selftest.h"
#include "edge_nicsim.h"
#include "edge_nl.h"

FIXTURE(atomic) {
	int unused;
};

FIXTURE_VARIANT(atomic) {
	const char *params;
};

FIXTURE_VARIANT_ADD(atomic, hardirq_callback) {
	.params = "softirq=0 poll_reap=0",
};
FIXTURE_VARIANT_ADD(atomic, softirq_callback) {
	.params = "softirq=1 poll_reap=0",
};
FIXTURE_VARIANT_ADD(atomic, hardirq_poll) {
	.params = "softirq=0 poll_reap=1",
};
FIXTURE_VARIANT_ADD(atomic, softirq_poll) {
	.params = "softirq=1 poll_reap=1",
};

FIXTURE_SETUP(atomic)
{
	NICSIM_SETUP("poll_idle_us=0");
}

FIXTURE_TEARDOWN(atomic)
{
	NICSIM_TEARDOWN();
}

TEST_F(atomic, ring_and_reap)
{
	long taint0 = edge_taint();
	struct nicsim_counts c;
	char params[160];
	int ret;

	ASSERT_LE(0, taint0);
	snprintf(params, sizeof(params),
		 "func=crc rate=20000 batch=16 ring_entries=1024 %s",
		 variant->params);
	ASSERT_EQ(0, nicsim_load(params));
	sleep_ms(1000);
	/* Change the source's pace under way: read by the timer. */
	ASSERT_EQ(0, nicsim_write("rate", "5000"));
	ASSERT_EQ(0, nicsim_write("batch", "1"));
	EXPECT_EQ(-EINVAL, nicsim_write("batch", "0"));
	EXPECT_EQ(-EINVAL, nicsim_write("rate", "0"));
	sleep_ms(500);
	/* Polling mode: stopping reaps what is left from process context. */
	ret = nicsim_stop_drain(10000);
	nicsim_counts(&c);
	ASSERT_EQ(0, ret) TH_LOG("nicsim: inflight %lld sent %lld completed %lld; edge: submitted %lld completed %lld inflight %lld",
				 nicsim_read("inflight"), c.sent, c.completed,
				 edge_sysfs_read(0, "submitted"),
				 edge_sysfs_read(0, "completed"),
				 edge_sysfs_read(0, "inflight"));
	TH_LOG("sent %lld verified %lld dropped %lld+%lld, front end slept %lld times",
	       c.sent, c.verified, c.drop_ring_full, c.drop_overrun,
	       edge_sysfs_read(0, "sleeps"));
	EXPECT_LT(0, c.sent);
	EXPECT_EQ(c.generated, c.sent + c.drop_ring_full + c.drop_overrun);
	EXPECT_EQ(c.sent, c.completed);
	EXPECT_EQ(c.completed, c.verified);
	EXPECT_EQ(0, c.errors);
	/* The front end did sleep, so doorbells did wake it. */
	EXPECT_LT(0, edge_sysfs_read(0, "sleeps"));
	EXPECT_EQ(0, nicsim_unload());
	EXPECT_EQ(taint0 & TAINT_WARN_BIT, edge_taint() & TAINT_WARN_BIT);
}

/*
 * Drops counted in hard-interrupt context reach the events group: the
 * ekt-drop-ntf counts add up to nicsim's own drop counters, exactly, in
 * few messages (at most one a second per device), and nothing sleeps or
 * warns on the way (the debug kernel's DEBUG_ATOMIC_SLEEP).
 */
TEST(drops_reach_the_monitor)
{
	long long taint0 = edge_taint(), dropped = 0;
	struct nicsim_counts c;
	struct enl_reply r;
	struct enl mon;
	int msgs = 0, ret;
	uint32_t id = ~0U;
	uint64_t end, t0;

	if (geteuid())
		SKIP(return, "insmod needs root");
	NICSIM_SETUP("poll_idle_us=0");
	ASSERT_EQ(0, enl_open(&mon));
	ASSERT_EQ(0, enl_subscribe(&mon));
	/* More than the GPU takes: a full ring, and overruns when late. */
	t0 = now_ns();
	ASSERT_EQ(0, nicsim_load("func=crc rate=400000 batch=32 ring_entries=32 softirq=0"));
	sleep_ms(1500);
	ret = nicsim_stop_drain(10000);
	ASSERT_EQ(0, ret);
	/* The last drop came before this. */
	t0 = (now_ns() - t0) / 1000000000ULL;
	nicsim_counts(&c);
	TH_LOG("sent %lld, dropped %lld (ring full) + %lld (overrun)",
	       c.sent, c.drop_ring_full, c.drop_overrun);
	ASSERT_LT(0, c.drop_ring_full + c.drop_overrun);
	end = now_ns() + 5000000000ULL;
	while (dropped < c.drop_ring_full + c.drop_overrun && now_ns() < end) {
		ASSERT_EQ(0, enl_next_ntf(&mon, &r, 3000));
		if (r.cmd == EDGE_CMD_EKT_REG_NTF) {
			id = enl_u32(&r, EDGE_A_EKT_ID);
			continue;
		}
		ASSERT_EQ(EDGE_CMD_EKT_DROP_NTF, r.cmd);
		EXPECT_EQ(0, enl_u32(&r, EDGE_A_DEV_INDEX));
		EXPECT_EQ(id, enl_u32(&r, EDGE_A_EKT_ID));
		dropped += enl_u64(&r, EDGE_A_EKT_DROPPED);
		msgs++;
	}
	TH_LOG("%lld drops in %d messages over %llu s", dropped, msgs,
	       (unsigned long long)t0);
	EXPECT_EQ(c.drop_ring_full + c.drop_overrun, dropped);
	/* A message at once, then one a second at most. */
	EXPECT_GE(t0 + 2, msgs);
	EXPECT_EQ(0, nicsim_unload());
	ASSERT_EQ(0, enl_next_ntf(&mon, &r, 3000));
	EXPECT_EQ(EDGE_CMD_EKT_UNREG_NTF, r.cmd);
	EXPECT_EQ(-EAGAIN, enl_next_ntf(&mon, &r, 1500));
	enl_close(&mon);
	NICSIM_TEARDOWN();
	EXPECT_EQ(taint0 & TAINT_WARN_BIT, edge_taint() & TAINT_WARN_BIT);
}

EDGE_FINAL_CHECKS

EDGE_SELFTEST_MAIN
