// SPDX-License-Identifier: GPL-2.0
/*
 * Real-time mode: model time follows ktime scaled by the device's
 * time_scale_pct (model ns per 100 wall ns).  The knob's rules, and that
 * a slowed model really takes longer in wall time: a lower bound only,
 * never a performance figure.
 */
#define _GNU_SOURCE
#include "kselftest_harness.h"
#include "edge_selftest.h"

FIXTURE(rt) {
	int unused;
};

FIXTURE_SETUP(rt)
{
	EDGE_SETUP_LOAD("");
}

FIXTURE_TEARDOWN(rt)
{
	edge_module_unload(3000);
}

/* Wall ns one NOP event of @model_ms model time takes, or 0. */
static uint64_t one_event_ns(uint32_t model_ms)
{
	struct edge_register reg;
	struct edge_queue q;
	struct edge_dev d;
	struct edge_cqe c;
	uint64_t t0, t = 0;

	if (edge_open(&d, EDGE_DEV0))
		return 0;
	edge_register_init(&reg, EDGE_FN_NOP, 8, 4, CYCLES_MS(model_ms));
	if (edge_queue_create(&d, &reg, &q))
		goto out;
	t0 = now_ns();
	edge_queue_submit(&q, 1);
	if (!edge_queue_wait(&q, &c, 10000) &&
	    EDGE_CQE_CODE(c.status) == EDGE_CQE_DONE)
		t = now_ns() - t0;
	edge_queue_cqe_seen(&q);
	edge_queue_destroy(&q);
out:
	edge_close(&d);
	return t;
}

TEST_F(rt, knob_rules)
{
	EXPECT_EQ(100, edge_sysfs_read(0, "time_scale_pct"));
	EXPECT_EQ(-EINVAL, edge_sysfs_write(0, "time_scale_pct", "0"));
	EXPECT_EQ(-EINVAL, edge_sysfs_write(0, "time_scale_pct", "10001"));
	EXPECT_EQ(-EINVAL, edge_sysfs_write(0, "time_scale_pct", "x"));
	EXPECT_EQ(100, edge_sysfs_read(0, "time_scale_pct"));
	EXPECT_EQ(0, edge_sysfs_write(0, "time_scale_pct", "25"));
	EXPECT_EQ(25, edge_sysfs_read(0, "time_scale_pct"));
}

/* At 10 %, a 5 ms event takes at least 50 ms of wall time. */
TEST_F(rt, scaled_model_runs_slower)
{
	uint64_t t;

	ASSERT_EQ(0, edge_sysfs_write(0, "time_scale_pct", "10"));
	t = one_event_ns(5);
	ASSERT_NE(0, t);
	EXPECT_LE(50000000ULL, t) TH_LOG("took %llu ns",
					 (unsigned long long)t);
	/* Back to real time: the model clock did not jump backwards. */
	ASSERT_EQ(0, edge_sysfs_write(0, "time_scale_pct", "100"));
	t = one_event_ns(5);
	ASSERT_NE(0, t);
	EXPECT_LE(5000000ULL, t);
}

TEST(module_param_and_virtual_time)
{
	int r = edge_module_load("time_scale_pct=0");

	if (r == -EPERM && geteuid())
		SKIP(return, "loading edge.ko needs root");
	EXPECT_EQ(-EINVAL, r);
	ASSERT_EQ(0, edge_module_load("time_scale_pct=400"));
	EXPECT_EQ(400, edge_sysfs_read(0, "time_scale_pct"));
	ASSERT_EQ(0, edge_module_unload(3000));
	/* Virtual time has no wall clock to scale. */
	ASSERT_EQ(0, edge_module_load("virtual_time=1"));
	EXPECT_EQ(-EINVAL, edge_sysfs_write(0, "time_scale_pct", "50"));
	ASSERT_EQ(0, edge_module_unload(3000));
}

EDGE_FINAL_CHECKS

EDGE_SELFTEST_MAIN
