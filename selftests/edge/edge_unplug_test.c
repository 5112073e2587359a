// SPDX-License-Identifier: GPL-2.0
/*
 * dev del of a device under load: 16 producer threads on their own
 * entries of /dev/edge0 and edge_nicsim's kernel queue ringing from
 * hardirq.  Removal is a hot-unplug, so every event ends with exactly
 * one status and nothing is lost:
 *
 *  - the device's final counters (the monitor's dev-del notification)
 *    balance: submitted = completed + errors + rejected + cancelled;
 *  - those outcomes are exactly the statuses the producers reaped from
 *    their mapped rings plus those nicsim's callback counted;
 *  - nicsim's books balance too (generated = sent + drops, sent =
 *    completed + errors + cancelled), its post-unplug packets counted as
 *    drop_unplugged, and it unloads through the API's usual path.
 */
#define _GNU_SOURCE
#include <pthread.h>

#include "kselftest_harness.h"
#include "edge_selftest.h"
#include "edge_nicsim.h"
#include "edge_nl.h"

#define PRODUCERS	16

struct producer {
	pthread_t t;
	volatile int *stop;
	volatile int ready;	/* registered and producing */
	int err;
	uint64_t tail;		/* submitted */
	uint64_t reaped;	/* with a status */
	uint64_t done, cancelled, other;
};

static void reap_all(struct edge_queue *q, struct producer *p)
{
	struct edge_cqe c;

	while (edge_queue_peek(q, &c) == 1) {
		switch (EDGE_CQE_CODE(c.status)) {
		case EDGE_CQE_DONE:
			__atomic_add_fetch(&p->done, 1, __ATOMIC_RELAXED);
			break;
		case EDGE_CQE_CANCELLED:
			p->cancelled++;
			break;
		default:
			p->other++;
		}
		p->reaped++;
		edge_queue_cqe_seen(q);
	}
}

static void *produce(void *arg)
{
	struct producer *p = arg;
	struct edge_register reg;
	struct edge_queue q;
	struct edge_dev d;
	uint32_t n = 0;
	void *prm;

	p->err = edge_open(&d, EDGE_DEV0);
	if (p->err)
		return NULL;
	edge_register_init(&reg, EDGE_FN_ECHO, 8, 64, 2000);
	p->err = edge_queue_create(&d, &reg, &q);
	if (p->err) {
		edge_close(&d);
		return NULL;
	}
	p->ready = 1;
	while (!*p->stop) {
		while ((prm = edge_queue_param(&q))) {
			*(uint32_t *)prm = n++;
			edge_queue_submit(&q, 1);
		}
		reap_all(&q, p);
	}
	/* Gone: what is in the ring is all there will be. */
	reap_all(&q, p);
	p->tail = q.tail;
	edge_queue_drop(&q);
	edge_close(&d);
	return NULL;
}

FIXTURE(unplug) {
	struct enl nl, mon;
};

FIXTURE_SETUP(unplug)
{
	nicsim_unload();
	ASSERT_EQ(0, edge_module_load("nr_devices=1"));
	ASSERT_EQ(0, enl_open(&self->nl));
	ASSERT_EQ(0, enl_open(&self->mon));
	ASSERT_EQ(0, enl_subscribe(&self->mon));
}

FIXTURE_TEARDOWN(unplug)
{
	enl_close(&self->mon);
	enl_close(&self->nl);
	nicsim_unload();
	EXPECT_EQ(0, edge_module_unload(3000));
}

TEST_F(unplug, del_under_16_producers_and_nicsim)
{
	struct producer p[PRODUCERS] = {};
	volatile int stop = 0;
	struct nicsim_counts c;
	struct enl_reply r, st;
	long long unpl;
	uint64_t sub, outcomes, users = 0, udone = 0, ucanc = 0;
	int i;

	ASSERT_EQ(0, nicsim_load("dev=0 rate=20000 batch=8"));
	for (i = 0; i < PRODUCERS; i++) {
		p[i].stop = &stop;
		ASSERT_EQ(0, pthread_create(&p[i].t, NULL, produce, &p[i]));
	}
	/* All of them at work (threads start slowly under KASAN). */
	for (i = 0; i < PRODUCERS; i++) {
		uint64_t end = now_ns() + 10000000000ULL;

		while (!p[i].ready && !p[i].err && now_ns() < end)
			sleep_ms(1);
	}
	/* ... and events completing (TCG, and KASAN, are slow). */
	for (i = 0; i < 10000; i++) {
		uint64_t sum = 0;
		int j;

		for (j = 0; j < PRODUCERS; j++)
			sum += __atomic_load_n(&p[j].done, __ATOMIC_RELAXED);
		if (sum >= PRODUCERS)
			break;
		sleep_ms(1);
	}
	sleep_ms(50);
	ASSERT_EQ(0, enl_dev_del(&self->nl, 0));
	stop = 1;
	for (i = 0; i < PRODUCERS; i++) {
		pthread_join(p[i].t, NULL);
		EXPECT_EQ(0, p[i].err);
		EXPECT_EQ(0, p[i].other);
		EXPECT_LE(p[i].reaped, p[i].tail);
		users += p[i].reaped;
		udone += p[i].done;
		ucanc += p[i].cancelled;
	}
	/* The wire goes on a little: drops, not sends. */
	sleep_ms(20);
	ASSERT_EQ(0, nicsim_write("running", "0"));
	nicsim_counts(&c);
	unpl = nicsim_read("drop_unplugged");

	/* The device's last word: its final counters. */
	do {
		ASSERT_EQ(0, enl_next_ntf(&self->mon, &r, 2000));
	} while (r.cmd != EDGE_CMD_DEV_DEL_NTF);
	enl_final(&r, &st);	/* its stats nest */
	sub = enl_u64(&st, EDGE_A_STATS_SUBMITTED);
	outcomes = enl_u64(&st, EDGE_A_STATS_COMPLETED) +
		   enl_u64(&st, EDGE_A_STATS_ERRORS) +
		   enl_u64(&st, EDGE_A_STATS_REJECTED) +
		   enl_u64(&st, EDGE_A_STATS_CANCELLED);
	TH_LOG("device: submitted %llu completed %llu cancelled %llu; users reaped %llu (done %llu cancelled %llu); nicsim sent %lld completed %lld cancelled %lld drop_unplugged %lld",
	       (unsigned long long)sub,
	       (unsigned long long)enl_u64(&st, EDGE_A_STATS_COMPLETED),
	       (unsigned long long)enl_u64(&st, EDGE_A_STATS_CANCELLED),
	       (unsigned long long)users, (unsigned long long)udone,
	       (unsigned long long)ucanc, c.sent, c.completed, c.cancelled,
	       unpl);
	EXPECT_EQ(sub, outcomes);
	EXPECT_EQ(0, enl_u32(&st, EDGE_A_STATS_INFLIGHT));
	EXPECT_EQ(outcomes, users + c.completed + c.errors + c.cancelled);
	EXPECT_EQ(enl_u64(&st, EDGE_A_STATS_CANCELLED),
		  ucanc + (uint64_t)c.cancelled);
	/* nicsim: every packet one outcome, none wrong. */
	EXPECT_EQ(c.sent, c.completed + c.errors + c.cancelled);
	EXPECT_EQ(c.generated, c.sent + c.drop_ring_full + c.drop_overrun + unpl);
	EXPECT_EQ(c.completed, c.verified);
	EXPECT_EQ(0, c.bad_output);
	EXPECT_LT(0, c.sent);
	EXPECT_LT(0, udone);
	/* The API's teardown path: destroy, release, unload. */
	EXPECT_EQ(0, nicsim_unload());
	EXPECT_NE(0, access(EDGE_DEV0, F_OK));
}

EDGE_FINAL_CHECKS

EDGE_SELFTEST_MAIN
