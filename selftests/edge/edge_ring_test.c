// SPDX-License-Identifier: GPL-2.0
/*
 * edge.ko: the data path through libedge.  Doorbells, parameter and
 * completion rings, ordering and counting of completions, several entries
 * and processes at once, teardown with events in flight, poll(), the
 * NEED_WAKEUP handshake of a sleeping front end, and virtual time.
 *
 * Each test runs against a freshly loaded module ($EDGE_KO), so the sysfs
 * counters can be checked exactly.
 */
#define _GNU_SOURCE
#include <stddef.h>

#include "kselftest_harness.h"
#include "edge_selftest.h"

#define load_acquire(p)		__atomic_load_n(p, __ATOMIC_ACQUIRE)
#define store_release(p, v)	__atomic_store_n(p, v, __ATOMIC_RELEASE)

#define MAX_Q	4

FIXTURE(ring) {
	struct edge_dev d;
	struct edge_queue q[MAX_Q];
	pid_t pids[8];
};

static void cleanup_all(struct __test_metadata *_metadata,
			struct edge_dev *d, struct edge_queue *q,
			pid_t *pids, int npids)
{
	int i;

	for (i = 0; i < npids; i++)
		if (pids[i] > 0)
			edge_reap(pids[i], SIGKILL);
	for (i = 0; i < MAX_Q; i++)
		edge_queue_drop(&q[i]);
	if (d->fd >= 0 || d->doorbells)
		edge_close(d);
	EXPECT_EQ(0, edge_module_unload(3000));
}

FIXTURE_SETUP(ring)
{
	int ret;

	self->d.fd = -1;
	EDGE_SETUP_LOAD("");
	ret = edge_open(&self->d, EDGE_DEV0);
	ASSERT_EQ(0, ret) TH_LOG("open: %s", strerror(-ret));
}

FIXTURE_TEARDOWN(ring)
{
	cleanup_all(_metadata, &self->d, self->q, self->pids, 8);
}

/* Fill a parameter entry and submit it; the ring must have room. */
static int submit_echo(struct edge_queue *q, uint32_t val)
{
	uint32_t *p = edge_queue_param(q);

	if (!p)
		return -ENOSPC;
	p[0] = val;
	p[1] = ~val;
	edge_queue_submit(q, 1);
	return 0;
}

/*
 * 10,000 events through one entry: every completion arrives once, in
 * order, with its own number in the status word and as the result; the
 * kernel publishes exactly as many as were submitted, and the sysfs
 * counters agree.
 */
#define N_ECHO	10000

TEST_F_TIMEOUT(ring, echo_10000_in_order, 60)
{
	struct edge_queue *q = &self->q[0];
	struct edge_register reg;
	uint32_t sent = 0, reaped = 0;
	struct edge_cqe c;
	uint64_t t0;
	int ret;

	edge_register_init(&reg, EDGE_FN_ECHO, 16, 256, 2300);
	ASSERT_EQ(0, edge_queue_create(&self->d, &reg, q));
	t0 = now_ns();

	while (reaped < N_ECHO) {
		uint32_t n = 0, tail;
		uint32_t *p;

		while (sent + n < N_ECHO && (p = edge_queue_param(q))) {
			p[0] = sent + n;
			p[1] = 0xdead0000 | n;
			/* edge_queue_param() looks at q->tail: submit one by one */
			edge_queue_submit(q, 1);
			n++;
		}
		sent += n;

		tail = load_acquire(q->cq_tail);
		ASSERT_LE((int32_t)(tail - reaped), (int32_t)(sent - reaped))
			TH_LOG("kernel published %u, only %u submitted", tail, sent);
		if (tail == reaped) {
			ret = edge_queue_wait(q, &c, 5000);
			ASSERT_EQ(0, ret) TH_LOG("event %u: no completion (%s)",
						 reaped, strerror(-ret));
			continue;
		}
		while (reaped != tail) {
			c = edge_queue_raw_cqe(q, reaped);
			ASSERT_EQ(EDGE_CQE_DONE, EDGE_CQE_CODE(c.status))
				TH_LOG("event %u: status %#x", reaped, c.status);
			ASSERT_EQ(reaped & EDGE_CQE_SEQ_MASK,
				  EDGE_CQE_SEQ(c.status))
				TH_LOG("event %u: status %#x", reaped, c.status);
			ASSERT_EQ(reaped, c.res)
				TH_LOG("event %u completed out of order", reaped);
			edge_queue_cqe_seen(q);
			reaped++;
		}
	}
	TH_LOG("%u events in %llu ms", N_ECHO,
	       (unsigned long long)((now_ns() - t0) / 1000000));
	EXPECT_EQ(N_ECHO, sent);
	EXPECT_EQ(N_ECHO, reaped);
	EXPECT_EQ(N_ECHO, load_acquire(q->cq_tail));
	EXPECT_EQ(N_ECHO, edge_queue_dispatched(q));

	/* Nothing more arrives, once the front end has looked again. */
	ASSERT_EQ(0, edge_frontend_settle(0, 5000));
	EXPECT_EQ(N_ECHO, load_acquire(q->cq_tail));
	EXPECT_EQ(N_ECHO, edge_sysfs_read(0, "submitted"));
	EXPECT_EQ(N_ECHO, edge_sysfs_read(0, "completed"));
	EXPECT_EQ(0, edge_sysfs_read(0, "errors"));
	EXPECT_EQ(0, edge_sysfs_read(0, "rejected"));
	EXPECT_EQ(0, edge_sysfs_read(0, "cancelled"));
	EXPECT_EQ(0, edge_sysfs_read(0, "inflight"));
	EXPECT_EQ(0, edge_queue_destroy(q));
}

/* NOP runs and returns 0. */
TEST_F(ring, nop_result_zero)
{
	struct edge_queue *q = &self->q[0];
	struct edge_register reg;
	struct edge_cqe c;
	uint32_t i;

	edge_register_init(&reg, EDGE_FN_NOP, 8, 8, 700);
	ASSERT_EQ(0, edge_queue_create(&self->d, &reg, q));
	for (i = 0; i < 8; i++) {
		ASSERT_EQ(0, submit_echo(q, 1000 + i));
	}
	for (i = 0; i < 8; i++) {
		ASSERT_EQ(0, edge_queue_wait(q, &c, 5000));
		EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, i), c.status);
		EXPECT_EQ(0, c.res);
		edge_queue_cqe_seen(q);
	}
	EXPECT_EQ(8, edge_sysfs_read(0, "completed"));
}

/*
 * The status word carries the event number: on a 4-entry ring, the slot
 * an event will complete into still holds the previous lap's status
 * (number n - 4) until the new one is written, and libedge does not take
 * it for the new event.
 */
TEST_F(ring, cqe_seq_distinguishes_laps)
{
	struct edge_queue *q = &self->q[0];
	struct edge_register reg;
	struct edge_cqe c;
	uint32_t i, checked = 0;

	/* 20 ms each: the old status is seen long before the new lands. */
	edge_register_init(&reg, EDGE_FN_ECHO, 8, 4, CYCLES_MS(20));
	ASSERT_EQ(0, edge_queue_create(&self->d, &reg, q));
	for (i = 0; i < 16; i++) {
		uint64_t t0 = now_ns(), t1;
		int seen;

		ASSERT_EQ(0, submit_echo(q, i * 7 + 1));
		seen = edge_queue_peek(q, &c);
		t1 = now_ns();
		if (i >= 4 && t1 - t0 < 10000000) {
			/* Still the previous lap's completion. */
			struct edge_cqe old = edge_queue_raw_cqe(q, i);

			EXPECT_EQ(0, seen);
			if (EDGE_CQE_SEQ(old.status) == i) {
				TH_LOG("event %u complete within %llu ns", i,
				       (unsigned long long)(t1 - t0));
			} else {
				EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, i - 4),
					  old.status);
				EXPECT_EQ((i - 4) * 7 + 1, old.res);
				checked++;
			}
		}
		ASSERT_EQ(0, edge_queue_wait(q, &c, 5000));
		EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, i), c.status);
		EXPECT_EQ(i * 7 + 1, c.res);
		c = edge_queue_raw_cqe(q, i);
		EXPECT_EQ(i, EDGE_CQE_SEQ(c.status));
		edge_queue_cqe_seen(q);
	}
	/* The check above ran for most laps (it is skipped only if slow). */
	EXPECT_LE(6, checked);
	EXPECT_EQ(16, load_acquire(q->cq_tail));
}

/*
 * Several processes, each with two entries, all at once: every process
 * sees exactly its own completions, in order; the device counts all.
 */
#define MP_PROCS	4
#define MP_QUEUES	2
#define MP_EVENTS	2000

static int mp_child(int go_fd, int proc)
{
	struct edge_queue q[MP_QUEUES];
	struct edge_register reg;
	uint32_t sent[MP_QUEUES] = {}, done[MP_QUEUES] = {};
	struct edge_dev d;
	struct edge_cqe c;
	char go;
	int i, ret;

	ret = edge_open(&d, EDGE_DEV0);
	if (ret) {
		fprintf(stderr, "# proc %d: open: %s\n", proc, strerror(-ret));
		return 10;
	}
	for (i = 0; i < MP_QUEUES; i++) {
		edge_register_init(&reg, EDGE_FN_ECHO, 16, 32, 2300 * (i + 1));
		ret = edge_queue_create(&d, &reg, &q[i]);
		if (ret) {
			fprintf(stderr, "# proc %d: register: %s\n", proc,
				strerror(-ret));
			return 11;
		}
	}
	/* Start together. */
	if (read(go_fd, &go, 1) != 1)
		return 12;

	for (;;) {
		int busy = 0, progress = 0;

		for (i = 0; i < MP_QUEUES; i++) {
			uint32_t tag = (uint32_t)proc << 28 | (uint32_t)i << 24;
			uint32_t n = 0;
			uint32_t *p;

			while (sent[i] < MP_EVENTS && (p = edge_queue_param(&q[i]))) {
				p[0] = tag | sent[i];
				p[1] = proc;
				sent[i]++;
				q[i].tail++;
				n++;
			}
			if (n) {
				/* One doorbell store for the batch. */
				q[i].tail -= n;
				edge_queue_submit(&q[i], n);
			}
			while (edge_queue_peek(&q[i], &c)) {
				if (EDGE_CQE_CODE(c.status) != EDGE_CQE_DONE ||
				    c.res != (tag | done[i])) {
					fprintf(stderr,
						"# proc %d q %d event %u: status %#x res %#x\n",
						proc, i, done[i], c.status, c.res);
					return 13;
				}
				edge_queue_cqe_seen(&q[i]);
				done[i]++;
				progress = 1;
			}
			if (done[i] < MP_EVENTS)
				busy = 1;
		}
		if (!busy)
			break;
		if (!progress) {
			/* Block on whichever queue has events in flight. */
			for (i = 0; i < MP_QUEUES; i++)
				if (edge_queue_inflight(&q[i]))
					break;
			if (i == MP_QUEUES)
				return 17;
			ret = edge_queue_wait(&q[i], &c, 10000);
			if (ret) {
				fprintf(stderr, "# proc %d q %d event %u: %s\n",
					proc, i, done[i], strerror(-ret));
				return 14;
			}
		}
	}
	for (i = 0; i < MP_QUEUES; i++) {
		if (load_acquire(q[i].cq_tail) != MP_EVENTS)
			return 15;
		if (edge_queue_destroy(&q[i]))
			return 16;
	}
	edge_close(&d);
	return 0;
}

TEST_F_TIMEOUT(ring, multi_process_multi_entry, 120)
{
	int go[2], i;
	uint64_t t0;

	ASSERT_EQ(0, pipe(go));
	for (i = 0; i < MP_PROCS; i++) {
		pid_t pid = fork();

		ASSERT_LE(0, pid);
		if (!pid) {
			close(go[1]);
			_exit(mp_child(go[0], i));
		}
		self->pids[i] = pid;
	}
	close(go[0]);
	/* Everyone registered before anyone starts. */
	ASSERT_EQ(MP_PROCS * MP_QUEUES,
		  edge_sysfs_wait_ge(0, "registered", MP_PROCS * MP_QUEUES,
				     10000));
	t0 = now_ns();
	ASSERT_EQ(MP_PROCS, write(go[1], "gggggggg", MP_PROCS));
	close(go[1]);
	for (i = 0; i < MP_PROCS; i++) {
		int st = edge_reap(self->pids[i], 0);

		self->pids[i] = 0;
		EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0)
			TH_LOG("process %d: status %#x", i, st);
	}
	TH_LOG("%d x %d x %d events in %llu ms", MP_PROCS, MP_QUEUES,
	       MP_EVENTS, (unsigned long long)((now_ns() - t0) / 1000000));
	EXPECT_EQ(MP_PROCS * MP_QUEUES * MP_EVENTS,
		  edge_sysfs_read(0, "submitted"));
	EXPECT_EQ(MP_PROCS * MP_QUEUES * MP_EVENTS,
		  edge_sysfs_read(0, "completed"));
	EXPECT_EQ(0, edge_sysfs_read(0, "cancelled"));
	EXPECT_EQ(0, edge_sysfs_read(0, "errors"));
	EXPECT_EQ(0, edge_sysfs_read(0, "inflight"));
	EXPECT_EQ(0, edge_sysfs_read(0, "registered"));
}

/*
 * Close with events in flight: the file is released only when the fd and
 * every mapping are gone; then each event in flight is cancelled, exactly
 * once, and the device is idle again.  Nothing waits for the events.
 */
TEST_F_TIMEOUT(ring, close_with_events_in_flight, 20)
{
	struct edge_queue *q = &self->q[0];
	struct edge_register reg;
	uint64_t t0, dt;
	uint32_t i;

	/* 10 s each: they cannot complete during the test. */
	edge_register_init(&reg, EDGE_FN_ECHO, 8, 32, CYCLES_MS(10000));
	ASSERT_EQ(0, edge_queue_create(&self->d, &reg, q));
	for (i = 0; i < 16; i++) {
		ASSERT_EQ(0, submit_echo(q, i));
	}
	ASSERT_EQ(16, edge_sysfs_wait_ge(0, "inflight", 16, 5000));
	EXPECT_EQ(16, edge_queue_dispatched(q));
	EXPECT_EQ(16, edge_sysfs_read(0, "submitted"));

	/* fd closed, mappings kept: the file lives on, nothing cancelled. */
	ASSERT_EQ(0, close(self->d.fd));
	self->d.fd = -1;
	ASSERT_EQ(0, edge_frontend_settle(0, 5000));
	EXPECT_EQ(0, edge_sysfs_read(0, "cancelled"));
	EXPECT_EQ(16, edge_sysfs_read(0, "inflight"));
	EXPECT_EQ(1, edge_sysfs_read(0, "registered"));
	/* ... and still with only the rings mapped. */
	munmap(self->d.doorbells, self->d.info.doorbell_size);
	self->d.doorbells = NULL;
	munmap(q->cq_map, q->cq_len);
	q->cq_map = NULL;
	ASSERT_EQ(0, edge_frontend_settle(0, 5000));
	EXPECT_EQ(0, edge_sysfs_read(0, "cancelled"));
	EXPECT_EQ(16, edge_sysfs_read(0, "inflight"));

	/* The last mapping goes: released, cancelled, promptly. */
	t0 = now_ns();
	munmap(q->sq_map, q->sq_len);
	q->sq_map = NULL;
	dt = now_ns() - t0;
	edge_queue_drop(q);
	EXPECT_GT(500000000ULL, dt) TH_LOG("release took %llu ns",
					   (unsigned long long)dt);
	EXPECT_EQ(16, edge_sysfs_read(0, "cancelled"));
	EXPECT_EQ(0, edge_sysfs_read(0, "inflight"));
	EXPECT_EQ(0, edge_sysfs_read(0, "registered"));
	EXPECT_EQ(16, edge_sysfs_read(0, "submitted"));
	EXPECT_EQ(0, edge_sysfs_read(0, "completed"));
	/* The module is free to go. */
	EXPECT_EQ(0, edge_module_unload_once());
}

/* The plain order: munmap everything, then close. */
TEST_F_TIMEOUT(ring, munmap_close_cancels, 20)
{
	struct edge_queue *q = &self->q[0];
	struct edge_register reg;
	uint32_t i;

	edge_register_init(&reg, EDGE_FN_NOP, 8, 8, CYCLES_MS(1000));
	ASSERT_EQ(0, edge_queue_create(&self->d, &reg, q));
	for (i = 0; i < 5; i++) {
		ASSERT_EQ(0, submit_echo(q, i));
	}
	ASSERT_EQ(5, edge_sysfs_wait_ge(0, "inflight", 5, 5000));
	edge_queue_drop(q);
	EXPECT_EQ(0, edge_sysfs_read(0, "cancelled"));
	edge_close(&self->d);
	EXPECT_EQ(5, edge_sysfs_read(0, "cancelled"));
	EXPECT_EQ(0, edge_sysfs_read(0, "inflight"));
	EXPECT_EQ(0, edge_sysfs_read(0, "completed"));
}

/* UNREGISTER while an event is in flight: EBUSY, then fine once reaped. */
TEST_F(ring, unregister_busy_in_flight)
{
	struct edge_queue *q = &self->q[0];
	struct edge_register reg;
	struct edge_cqe c;

	/*
	 * 100 ms of model time at 1 %: 10 s of wall time, so the event is
	 * still in flight when looked at, however slow the guest (at 100 %
	 * it once completed before the first look, on the debug kernel).
	 */
	ASSERT_EQ(0, edge_sysfs_write(0, "time_scale_pct", "1"));
	edge_register_init(&reg, EDGE_FN_ECHO, 8, 8, CYCLES_MS(100));
	ASSERT_EQ(0, edge_queue_create(&self->d, &reg, q));
	ASSERT_EQ(0, submit_echo(q, 77));
	/* Rung (not yet consumed) or in flight: both are busy. */
	EXPECT_EQ(-EBUSY, edge_unregister_id(self->d.fd, q->id));
	ASSERT_EQ(1, edge_sysfs_wait_ge(0, "inflight", 1, 5000));
	EXPECT_EQ(-EBUSY, edge_unregister_id(self->d.fd, q->id));
	EXPECT_EQ(-EBUSY, edge_queue_destroy(q));
	EXPECT_EQ(1, edge_sysfs_read(0, "registered"));

	/* Then 100 times faster: the rest takes a millisecond or so. */
	ASSERT_EQ(0, edge_sysfs_write(0, "time_scale_pct", "10000"));
	ASSERT_EQ(0, edge_queue_wait(q, &c, 5000));
	EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, 0), c.status);
	EXPECT_EQ(77, c.res);
	edge_queue_cqe_seen(q);
	/* Completed: not busy any more (reaping is not required). */
	EXPECT_EQ(0, edge_queue_destroy(q));
	EXPECT_EQ(0, edge_sysfs_read(0, "registered"));
	EXPECT_EQ(0, edge_sysfs_read(0, "cancelled"));
	EXPECT_EQ(1, edge_sysfs_read(0, "completed"));
}

/*
 * poll() blocks until a completion is published and reports POLLIN; it
 * is readable while completions are unreaped, and not after.
 */
TEST_F(ring, poll_wakes_on_completion)
{
	struct edge_queue *q = &self->q[0];
	struct pollfd pfd = { .fd = self->d.fd, .events = POLLIN };
	struct edge_register reg;
	uint64_t t0, t1, t2;
	struct edge_cqe c;
	int ret;

	/* 50 ms. */
	edge_register_init(&reg, EDGE_FN_ECHO, 8, 8, CYCLES_MS(50));
	ASSERT_EQ(0, edge_queue_create(&self->d, &reg, q));
	EXPECT_EQ(0, poll(&pfd, 1, 0));

	t0 = now_ns();
	ASSERT_EQ(0, submit_echo(q, 4242));
	t1 = now_ns();
	ret = poll(&pfd, 1, 5000);
	t2 = now_ns();
	ASSERT_EQ(1, ret);
	EXPECT_TRUE(pfd.revents & POLLIN);
	EXPECT_FALSE(pfd.revents & (POLLERR | POLLHUP | POLLNVAL));
	/* It blocked: the event takes 50 ms of model (= real) time. */
	EXPECT_LE(45000000ULL, t2 - t0) TH_LOG("poll returned after %llu ns",
					       (unsigned long long)(t2 - t0));
	EXPECT_LT(t1 - t0 + 1000000, t2 - t0);
	c = edge_queue_raw_cqe(q, 0);
	EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, 0), c.status);
	EXPECT_EQ(4242, c.res);
	EXPECT_EQ(1, load_acquire(q->cq_tail));

	/* Unreaped: readable at once, again. */
	pfd.revents = 0;
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_TRUE(pfd.revents & POLLIN);
	/* Reaped: not readable. */
	edge_queue_cqe_seen(q);
	pfd.revents = 0;
	EXPECT_EQ(0, poll(&pfd, 1, 0));
}

/* Nothing pending, or only events still running: poll() times out. */
TEST_F(ring, poll_times_out)
{
	struct edge_queue *q = &self->q[0];
	struct pollfd pfd = { .fd = self->d.fd, .events = POLLIN };
	struct edge_register reg;
	uint64_t t0, dt;

	t0 = now_ns();
	EXPECT_EQ(0, poll(&pfd, 1, 100));
	dt = now_ns() - t0;
	EXPECT_LE(95000000ULL, dt);
	EXPECT_EQ(0, pfd.revents);

	edge_register_init(&reg, EDGE_FN_ECHO, 8, 8, CYCLES_MS(5000));
	ASSERT_EQ(0, edge_queue_create(&self->d, &reg, q));
	ASSERT_EQ(0, submit_echo(q, 1));
	ASSERT_EQ(1, edge_sysfs_wait_ge(0, "inflight", 1, 5000));
	t0 = now_ns();
	EXPECT_EQ(0, poll(&pfd, 1, 100));
	dt = now_ns() - t0;
	EXPECT_LE(95000000ULL, dt);
	EXPECT_EQ(0, pfd.revents);
	EXPECT_EQ(0, load_acquire(q->cq_tail));
}

/*
 * Doorbells are per file: a second file writing the word at the first
 * file's entry's offset in its own page rings nothing.
 */
TEST_F(ring, doorbells_are_per_file)
{
	struct edge_queue *qa = &self->q[0], *qb = &self->q[1];
	struct edge_register reg;
	struct edge_dev d2;
	struct edge_cqe c;

	edge_register_init(&reg, EDGE_FN_ECHO, 8, 8, 700);
	ASSERT_EQ(0, edge_queue_create(&self->d, &reg, qa));
	ASSERT_EQ(0, edge_open(&d2, EDGE_DEV0));
	ASSERT_EQ(0, edge_queue_create(&d2, &reg, qb));
	ASSERT_NE(qa->id, qb->id);

	/* d2's page, qa's word: then kick. */
	store_release(&d2.doorbells[qa->id], 3);
	ASSERT_EQ(0, edge_ioc_kick(d2.fd, 0));
	ASSERT_EQ(0, edge_frontend_settle(0, 5000));
	EXPECT_EQ(0, edge_queue_dispatched(qa));
	EXPECT_EQ(0, load_acquire(qa->cq_tail));
	EXPECT_EQ(0, edge_sysfs_read(0, "submitted"));
	store_release(&d2.doorbells[qa->id], 0);

	/* Each file's own doorbells work. */
	ASSERT_EQ(0, submit_echo(qb, 5));
	ASSERT_EQ(0, submit_echo(qa, 6));
	ASSERT_EQ(0, edge_queue_wait(qb, &c, 5000));
	EXPECT_EQ(5, c.res);
	ASSERT_EQ(0, edge_queue_wait(qa, &c, 5000));
	EXPECT_EQ(6, c.res);
	EXPECT_EQ(2, edge_sysfs_read(0, "completed"));
	edge_queue_drop(qb);
	edge_close(&d2);
	EXPECT_EQ(1, edge_sysfs_read(0, "registered"));
}

/*
 * A hostile doorbell (far ahead, or behind the kernel's head) is clamped
 * to the ring: never more than ring_entries in flight, and teardown still
 * leaves the device idle with every submitted event accounted for.
 */
TEST_F(ring, hostile_doorbell_clamped)
{
	struct edge_queue *q = &self->q[0];
	struct edge_register reg;
	long long sub, done, canc;

	edge_register_init(&reg, EDGE_FN_NOP, 8, 8, CYCLES_MS(5000));
	ASSERT_EQ(0, edge_queue_create(&self->d, &reg, q));
	store_release(q->doorbell, 1000);
	ASSERT_EQ(0, edge_ioc_kick(self->d.fd, 0));
	ASSERT_EQ(8, edge_sysfs_wait_ge(0, "inflight", 8, 5000));
	ASSERT_EQ(0, edge_frontend_settle(0, 5000));
	EXPECT_EQ(8, edge_sysfs_read(0, "inflight"));
	EXPECT_EQ(8, edge_sysfs_read(0, "submitted"));
	EXPECT_EQ(8, edge_queue_dispatched(q));
	/* Behind head: as far ahead as it gets; still clamped. */
	store_release(q->doorbell, 7);
	ASSERT_EQ(0, edge_ioc_kick(self->d.fd, 0));
	ASSERT_EQ(0, edge_frontend_settle(0, 5000));
	EXPECT_EQ(8, edge_sysfs_read(0, "inflight"));
	EXPECT_EQ(-EBUSY, edge_unregister_id(self->d.fd, q->id));

	edge_queue_drop(q);
	edge_close(&self->d);
	sub = edge_sysfs_read(0, "submitted");
	done = edge_sysfs_read(0, "completed");
	canc = edge_sysfs_read(0, "cancelled");
	EXPECT_EQ(0, edge_sysfs_read(0, "inflight"));
	EXPECT_EQ(0, edge_sysfs_read(0, "registered"));
	EXPECT_EQ(0, done);
	EXPECT_LE(8, canc);
	EXPECT_EQ(sub, done + canc);
	EXPECT_GE(16, sub);
}

/* ------------------------------------------------------------------ */
/*
 * The NEED_WAKEUP handshake, with a front end that sleeps as soon as it
 * is idle (poll_idle_us=0, as a module parameter or through sysfs).
 */

FIXTURE(wakeup) {
	struct edge_dev d;
	struct edge_queue q[MAX_Q];
	pid_t pids[1];
};

FIXTURE_VARIANT(wakeup) {
	const char *params;
	int via_sysfs;
};

FIXTURE_VARIANT_ADD(wakeup, param) {
	.params = "poll_idle_us=0",
};

FIXTURE_VARIANT_ADD(wakeup, sysfs) {
	.params = "",
	.via_sysfs = 1,
};

FIXTURE_SETUP(wakeup)
{
	int ret;

	self->d.fd = -1;
	EDGE_SETUP_LOAD(variant->params);
	if (variant->via_sysfs) {
		EXPECT_EQ(1000, edge_sysfs_read(0, "poll_idle_us"));
		ASSERT_EQ(0, edge_sysfs_write(0, "poll_idle_us", "0"));
	}
	ASSERT_EQ(0, edge_sysfs_read(0, "poll_idle_us"));
	ret = edge_open(&self->d, EDGE_DEV0);
	ASSERT_EQ(0, ret) TH_LOG("open: %s", strerror(-ret));
	ASSERT_EQ(0, self->d.info.poll_idle_us);
}

FIXTURE_TEARDOWN(wakeup)
{
	cleanup_all(_metadata, &self->d, self->q, self->pids, 1);
}

/*
 * Wait for the front end to sleep with NEED_WAKEUP shown in @q's ring,
 * and to stay asleep: a kick still on its way (the sysfs store kicks)
 * would wake it without our doorbell having anything to do with it, so
 * the flag must be up and sleeps and wakeups unchanged over 50 ms.
 */
static int wait_asleep(struct edge_queue *q, long long min_sleeps)
{
	uint64_t end = now_ns() + 3000000000ULL;

	while (now_ns() < end) {
		long long s = edge_sysfs_read(0, "sleeps");
		long long w = edge_sysfs_read(0, "wakeups");

		if (s < min_sleeps ||
		    !(load_acquire(q->sq_flags) & EDGE_SQ_NEED_WAKEUP)) {
			sleep_ms(1);
			continue;
		}
		sleep_ms(50);
		if (edge_sysfs_read(0, "sleeps") == s &&
		    edge_sysfs_read(0, "wakeups") == w &&
		    (load_acquire(q->sq_flags) & EDGE_SQ_NEED_WAKEUP))
			return 0;
	}
	return -ETIME;
}

TEST_F(wakeup, need_wakeup_handshake)
{
	struct edge_queue *q = &self->q[0];
	struct edge_register reg;
	long long s0, w0;
	struct edge_cqe c;
	uint32_t *p;

	edge_register_init(&reg, EDGE_FN_ECHO, 8, 8, 2300);
	ASSERT_EQ(0, edge_queue_create(&self->d, &reg, q));
	/* Asleep; a ring registered meanwhile shows the flag from birth. */
	ASSERT_EQ(0, wait_asleep(q, 1))
		TH_LOG("front end not asleep: sleeps %lld flags %#x",
		       edge_sysfs_read(0, "sleeps"), *q->sq_flags);
	s0 = edge_sysfs_read(0, "sleeps");
	w0 = edge_sysfs_read(0, "wakeups");

	/* Ring without KICK: nobody looks. */
	p = edge_queue_param(q);
	ASSERT_NE(NULL, p);
	p[0] = 31337;
	q->tail++;
	store_release(q->doorbell, q->tail);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	sleep_ms(100);
	EXPECT_EQ(0, edge_queue_dispatched(q));
	EXPECT_EQ(0, load_acquire(q->cq_tail));
	EXPECT_EQ(0, edge_sysfs_read(0, "submitted"));
	EXPECT_TRUE(load_acquire(q->sq_flags) & EDGE_SQ_NEED_WAKEUP);
	EXPECT_EQ(s0, edge_sysfs_read(0, "sleeps"));
	/* Rung and not consumed counts as busy. */
	EXPECT_EQ(-EBUSY, edge_unregister_id(self->d.fd, q->id));

	/* KICK: consumed and completed. */
	ASSERT_EQ(0, edge_ioc_kick(self->d.fd, 0));
	ASSERT_EQ(0, edge_queue_wait(q, &c, 5000));
	EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, 0), c.status);
	EXPECT_EQ(31337, c.res);
	edge_queue_cqe_seen(q);
	EXPECT_EQ(1, edge_queue_dispatched(q));
	EXPECT_LT(w0, edge_sysfs_read(0, "wakeups"));
	EXPECT_EQ(1, edge_sysfs_read(0, "completed"));

	/* And back to sleep, flag raised again. */
	EXPECT_EQ(0, wait_asleep(q, s0 + 1));
}

/* libedge kicks by itself when it sees NEED_WAKEUP. */
TEST_F_TIMEOUT(wakeup, libedge_kicks_1000, 60)
{
	struct edge_queue *q = &self->q[0];
	struct edge_register reg;
	struct edge_cqe c;
	uint32_t i;
	int ret;

	edge_register_init(&reg, EDGE_FN_ECHO, 8, 16, 2300);
	ASSERT_EQ(0, edge_queue_create(&self->d, &reg, q));
	ASSERT_EQ(0, wait_asleep(q, 1));
	for (i = 0; i < 1000; i++) {
		ASSERT_EQ(0, submit_echo(q, i ^ 0x5555));
		ret = edge_queue_wait(q, &c, 5000);
		ASSERT_EQ(0, ret) TH_LOG("event %u: %s (kicks %llu)", i,
					 strerror(-ret),
					 (unsigned long long)q->kicks);
		ASSERT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, i), c.status);
		ASSERT_EQ(i ^ 0x5555, c.res);
		edge_queue_cqe_seen(q);
	}
	TH_LOG("1000 events, %llu kicks, %lld sleeps, %lld wakeups",
	       (unsigned long long)q->kicks, edge_sysfs_read(0, "sleeps"),
	       edge_sysfs_read(0, "wakeups"));
	EXPECT_LE(1, q->kicks);
	EXPECT_GE(1000, q->kicks);
	EXPECT_LE(1, edge_sysfs_read(0, "wakeups"));
	EXPECT_EQ(1000, edge_sysfs_read(0, "completed"));
	EXPECT_EQ(1000, edge_sysfs_read(0, "submitted"));
	EXPECT_EQ(0, edge_queue_destroy(q));
}

/*
 * Events rung but never consumed (no KICK to a sleeping front end) are
 * cancelled at release too, and counted as submitted.
 */
TEST_F(wakeup, release_cancels_unconsumed)
{
	struct edge_queue *q = &self->q[0];
	struct edge_register reg;
	uint32_t i;

	edge_register_init(&reg, EDGE_FN_ECHO, 8, 8, 2300);
	ASSERT_EQ(0, edge_queue_create(&self->d, &reg, q));
	ASSERT_EQ(0, wait_asleep(q, 1));
	for (i = 0; i < 3; i++) {
		((uint32_t *)edge_queue_param(q))[0] = i;
		q->tail++;	/* filled, not rung */
	}
	store_release(q->doorbell, q->tail);
	sleep_ms(20);
	ASSERT_EQ(0, edge_queue_dispatched(q));
	edge_queue_drop(q);
	edge_close(&self->d);
	EXPECT_EQ(3, edge_sysfs_read(0, "cancelled"));
	EXPECT_EQ(3, edge_sysfs_read(0, "submitted"));
	EXPECT_EQ(0, edge_sysfs_read(0, "completed"));
	EXPECT_EQ(0, edge_sysfs_read(0, "inflight"));
	EXPECT_EQ(0, edge_sysfs_read(0, "registered"));
}

/* ------------------------------------------------------------------ */
/* Model time: real (follows ktime) and virtual (jumps to the next event). */

FIXTURE(timing) {
	struct edge_dev d;
	struct edge_queue q[MAX_Q];
	pid_t pids[1];
};

FIXTURE_VARIANT(timing) {
	const char *params;
	const char *mode;
	uint32_t time_mode;
	uint64_t cycles;	/* per event */
	uint32_t events;
	uint64_t min_ms, max_ms;	/* wall time for all of them */
};

/* 1 s modelled takes a second. */
FIXTURE_VARIANT_ADD(timing, real) {
	.params = "",
	.mode = "real",
	.time_mode = EDGE_TIME_REAL,
	.cycles = CYCLES_MS(1000),
	.events = 4,
	.min_ms = 990,
	.max_ms = 10000,
};

/* 10 s modelled take no time. */
FIXTURE_VARIANT_ADD(timing, virtual) {
	.params = "virtual_time=1",
	.mode = "virtual",
	.time_mode = EDGE_TIME_VIRTUAL,
	.cycles = CYCLES_MS(10000),
	.events = 8,
	.min_ms = 0,
	.max_ms = 2000,
};

FIXTURE_SETUP(timing)
{
	self->d.fd = -1;
	EDGE_SETUP_LOAD(variant->params);
	ASSERT_EQ(0, edge_open(&self->d, EDGE_DEV0));
}

FIXTURE_TEARDOWN(timing)
{
	cleanup_all(_metadata, &self->d, self->q, self->pids, 1);
}

TEST_F_TIMEOUT(timing, long_events, 20)
{
	struct edge_queue *q = &self->q[0];
	struct edge_register reg;
	char mode[32];
	uint64_t t0, ms;
	struct edge_cqe c;
	uint32_t i;

	EXPECT_EQ(variant->time_mode, self->d.info.time_mode);
	ASSERT_EQ(0, edge_sysfs_str(0, "time_mode", mode, sizeof(mode)));
	EXPECT_STREQ(variant->mode, mode);

	edge_register_init(&reg, EDGE_FN_ECHO, 8, 16, variant->cycles);
	ASSERT_EQ(0, edge_queue_create(&self->d, &reg, q));
	t0 = now_ns();
	for (i = 0; i < variant->events; i++) {
		ASSERT_EQ(0, submit_echo(q, 100 + i));
	}
	for (i = 0; i < variant->events; i++) {
		ASSERT_EQ(0, edge_queue_wait(q, &c, variant->max_ms + 1000));
		EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, i), c.status);
		EXPECT_EQ(100 + i, c.res);
		edge_queue_cqe_seen(q);
	}
	ms = (now_ns() - t0) / 1000000;
	TH_LOG("%u events of %llu cycles: %llu ms", variant->events,
	       (unsigned long long)variant->cycles, (unsigned long long)ms);
	EXPECT_LE(variant->min_ms, ms);
	EXPECT_GT(variant->max_ms, ms);
	EXPECT_EQ(variant->events, load_acquire(q->cq_tail));
	EXPECT_EQ(variant->events, edge_sysfs_read(0, "completed"));
	EXPECT_EQ(0, edge_sysfs_read(0, "inflight"));
}

/* ------------------------------------------------------------------ */

EDGE_FINAL_CHECKS

EDGE_SELFTEST_MAIN
