// SPDX-License-Identifier: GPL-2.0
/*
 * Spatial QoS in the module (C-Laius, Zhang et al.), in virtual time on
 * the rtx2080ti preset, through the ABI as it is: a service is an event
 * kernel registered with a deadline (REGISTER VER3), its QoS target; a
 * batch kernel is one registered without.  The memory traffic of a TB
 * comes from ws.mem_pct (emul/gpu/appprof.c: Little's law) and C-Laius
 * predicts the service's time per quota from its shape.  The policy,
 * and with it the quotas, is chosen at run time in sched/tb_policy.
 *
 * One query (272 TBs of 256 threads, 10 us each, 80 % memory-bound,
 * deadline 25 us) arrives beside a batch kernel already running: TBs 90
 * % memory-bound that hold two of every SM's four 256-thread slots for
 * 100 us.  Under C-Laius the query gets the just-enough 50 % of the SMs
 * to itself and the batch only as much of the rest as the bandwidth left
 * allows: ~22 us, in time.  Under even allocation (200 % / 2 = 100 %
 * each) the query shares every SM with the batch, gets two slots a SM
 * and a memory system asked for 1.5 x its peak: ~31 us, late.  Beside a
 * compute-bound batch of the same shape even allocation is in time
 * (~21 us): the memory contention is what makes it late.  (The same
 * set-up on the host: selftests/emul/appprof_test.c.)
 */
#include "kselftest_harness.h"
#include "edge_selftest.h"

#define SVC_DEADLINE_NS	25000ULL
#define RTX_CYCLES_US	1545ULL		/* rtx2080ti: 1545 MHz */

FIXTURE(qos) {
	struct edge_dev d;
};

FIXTURE_SETUP(qos)
{
	EDGE_SETUP_LOAD("virtual_time=1 preset=rtx2080ti");
	ASSERT_EQ(0, edge_open(&self->d, EDGE_DEV0));
}

FIXTURE_TEARDOWN(qos)
{
	edge_close(&self->d);
	EXPECT_EQ(0, edge_module_unload(3000));
}

/*
 * One query beside one batch kernel under @policy; returns how many of
 * the device's events completed after their deadline (the query's).
 */
static long long one_query(struct __test_metadata *_metadata,
			   struct edge_dev *d, const char *policy,
			   uint32_t batch_mem_pct)
{
	struct edge_register br, sr;
	struct edge_queue b, v;
	struct edge_cqe cqe;
	long long late0;
	char buf[32];

	ASSERT_EQ(0, sched_write("sched/tb_policy", policy)) return -1;
	ASSERT_EQ(0, edge_sysfs_str(0, "sched/tb_policy", buf, sizeof(buf)))
		return -1;
	EXPECT_STREQ(policy, buf);
	late0 = edge_sysfs_read(0, "late");
	ASSERT_EQ(0, sched_write("sched/vt_hold", "1")) return -1;

	edge_register_init(&br, EDGE_FN_NOP, 8, 4, 100 * RTX_CYCLES_US);
	br.grid_x = 68 * 2 * 4;
	br.block_x = 256;
	br.smem_per_block = 24 * 1024;	/* two a SM */
	br.ws.mem_pct = batch_mem_pct;
	ASSERT_EQ(0, edge_queue_create(d, &br, &b)) return -1;

	edge_register_init(&sr, EDGE_FN_NOP, 8, 4, 10 * RTX_CYCLES_US);
	sr.grid_x = 68 * 4;
	sr.block_x = 256;
	sr.ws.mem_pct = 80;
	sr.deadline_ns = SVC_DEADLINE_NS;
	ASSERT_EQ(0, edge_queue_create(d, &sr, &v)) return -1;

	*(uint32_t *)edge_queue_param(&b) = 0;
	edge_queue_submit(&b, 1);
	wait_dispatched(_metadata, &b, 1);
	wait_placed(_metadata);
	*(uint32_t *)edge_queue_param(&v) = 0;
	edge_queue_submit(&v, 1);
	wait_dispatched(_metadata, &v, 1);
	ASSERT_EQ(0, sched_write("sched/vt_hold", "0")) return -1;

	ASSERT_EQ(0, edge_queue_wait(&v, &cqe, 10000)) return -1;
	EXPECT_EQ(EDGE_CQE_DONE, EDGE_CQE_CODE(cqe.status));
	edge_queue_cqe_seen(&v);
	ASSERT_EQ(0, edge_queue_wait(&b, &cqe, 10000)) return -1;
	EXPECT_EQ(EDGE_CQE_DONE, EDGE_CQE_CODE(cqe.status));
	edge_queue_cqe_seen(&b);
	EXPECT_EQ(0, edge_queue_destroy(&v));
	EXPECT_EQ(0, edge_queue_destroy(&b));
	return edge_sysfs_read(0, "late") - late0;
}

TEST_F(qos, claius_meets_target_even_allocation_misses)
{
	long long claius, even, even_compute;

	claius = one_query(_metadata, &self->d, "claius", 90);
	even = one_query(_metadata, &self->d, "even", 90);
	even_compute = one_query(_metadata, &self->d, "even", 0);
	ksft_print_msg("late queries beside a memory-heavy batch kernel: claius %lld, even %lld; beside a compute-bound one: even %lld\n",
		       claius, even, even_compute);
	EXPECT_EQ(0, claius);
	EXPECT_EQ(1, even);
	EXPECT_EQ(0, even_compute);
	EXPECT_EQ(0, sched_write("sched/tb_policy", "default"));
}

EDGE_SELFTEST_MAIN
