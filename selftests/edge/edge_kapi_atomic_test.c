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
 * warning.  Under a debug kernel (DEBUG_ATOMIC_SLEEP, lockdep) a sleep
 * or an irq-unsafe lock on these paths is such a warning.
 */
#define _GNU_SOURCE
#include "kselftest_harness.h"
#include "edge_selftest.h"
#include "edge_nicsim.h"

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

EDGE_FINAL_CHECKS

EDGE_SELFTEST_MAIN
