// SPDX-License-Identifier: GPL-2.0
/*
 * edge.ko under load:
 *  - 16 producer threads ring doorbells of 16 event kernels of four kinds
 *    at once, some of them closing their file with events in flight;
 *    every event is accounted for exactly, per status, in the CQEs and
 *    in the sysfs counters: a quitter reads (without reaping) the CQEs
 *    it leaves behind, so the only events in flight at its release are
 *    its slow ones, and the counters must match to the event;
 *  - 100 module load/unload cycles with open files and events in flight:
 *    rmmod is refused while a file or a mapping is alive and succeeds
 *    once they are gone, the in-flight events cancelled;
 *  - removal under load: there is no per-device removal (devices live
 *    as long as the module, see Documentation/testing.rst), so removal
 *    is close + rmmod: rmmod is refused again and again while producer
 *    processes stream, does not disturb them, and succeeds right after
 *    they are killed.
 */
#define _GNU_SOURCE
#include <pthread.h>

#include "kselftest_harness.h"
#include "edge_selftest.h"

#define NTHREADS	16
#define QUITTERS	4	/* the last ones close with events in flight */
#define EVENTS		3000	/* per producer */
#define SLOW		4	/* a quitter's long events, cancelled */

struct producer {
	pthread_t t;
	int idx;
	int err;			/* first inconsistency, 0 if none */
	char what[96];
	uint32_t submitted;
	uint32_t seen;			/* CQEs reaped */
	uint32_t done, errors, rejected, cancelled;
	/* A quitter's completions left unreaped, read from its CQ. */
	uint32_t left, left_done, left_errors, left_rejected, left_cancelled;
};

/*
 * A quitter's unreaped events: wait (30 s at most) until the kernel has
 * written each one's CQE, and count them by status without reaping, so
 * that they are known exactly and none is in flight when the file goes.
 */
static void count_unreaped(struct producer *p, struct edge_queue *q)
{
	uint64_t end = now_ns() + 30000000000ULL;
	uint32_t seq;

	for (seq = q->head; seq != q->tail; seq++) {
		struct edge_cqe c = edge_queue_raw_cqe(q, seq);

		while (EDGE_CQE_CODE(c.status) == EDGE_CQE_PENDING ||
		       EDGE_CQE_SEQ(c.status) != (seq & EDGE_CQE_SEQ_MASK)) {
			if (now_ns() > end) {
				p->err = -ETIME;
				snprintf(p->what, sizeof(p->what),
					 "unreaped cqe %u: status %#x", seq,
					 c.status);
				return;
			}
			sleep_ms(1);
			c = edge_queue_raw_cqe(q, seq);
		}
		switch (EDGE_CQE_CODE(c.status)) {
		case EDGE_CQE_DONE:
			p->left_done++;
			break;
		case EDGE_CQE_ERROR:
			p->left_errors++;
			break;
		case EDGE_CQE_REJECTED:
			p->left_rejected++;
			break;
		case EDGE_CQE_CANCELLED:
			p->left_cancelled++;
			break;
		default:
			p->err = -EIO;
			snprintf(p->what, sizeof(p->what),
				 "unreaped cqe %u: code %#x", seq, c.status);
		}
		p->left++;
	}
}

static void *produce(void *arg)
{
	struct producer *p = arg;
	/* Four kinds: short and long ECHO, NOP, a high-priority ECHO. */
	static const uint64_t cycles[] = { 700, 7000, 2300, 35000 };
	static const uint32_t prio[] = { 0, 3, 7, 15 };
	bool quitter = p->idx >= NTHREADS - QUITTERS;
	int kind = p->idx % 4;
	struct edge_register reg;
	struct edge_queue q;
	struct edge_dev d;
	struct edge_cqe c;
	uint32_t *param;
	int ret;

	ret = edge_open(&d, EDGE_DEV0);
	if (ret) {
		p->err = ret;
		snprintf(p->what, sizeof(p->what), "open");
		return NULL;
	}
	edge_register_init(&reg, kind == 2 ? EDGE_FN_NOP : EDGE_FN_ECHO, 8,
			   32, cycles[kind]);
	reg.priority = prio[kind];
	ret = edge_queue_create(&d, &reg, &q);
	if (ret) {
		p->err = ret;
		snprintf(p->what, sizeof(p->what), "register");
		edge_close(&d);
		return NULL;
	}
	while (p->seen < EVENTS) {
		uint32_t k = 0;

		/* A batch: as much of the ring as is free, up to 8. */
		while (k < 8 && p->submitted + k < EVENTS &&
		       (param = edge_queue_param_ahead(&q, k))) {
			param[0] = (p->idx << 24) | (p->submitted + k);
			k++;
		}
		edge_queue_submit(&q, k);
		p->submitted += k;
		/* A quitter leaves in the middle, with its ring full. */
		if (quitter && p->submitted >= EVENTS / 2 &&
		    edge_queue_inflight(&q) >= 8)
			break;
		if (edge_queue_wait(&q, &c, 10000)) {
			p->err = -ETIME;
			snprintf(p->what, sizeof(p->what), "wait at %u", q.head);
			break;
		}
		while (edge_queue_peek(&q, &c)) {
			uint32_t seq = q.head;

			if (EDGE_CQE_SEQ(c.status) != (seq & EDGE_CQE_SEQ_MASK)) {
				p->err = -EIO;
				snprintf(p->what, sizeof(p->what),
					 "cqe %u: status %#x", seq, c.status);
			}
			switch (EDGE_CQE_CODE(c.status)) {
			case EDGE_CQE_DONE:
				p->done++;
				if (kind != 2 && c.res != ((p->idx << 24) | seq)) {
					p->err = -EIO;
					snprintf(p->what, sizeof(p->what),
						 "cqe %u: res %#x", seq, c.res);
				}
				break;
			case EDGE_CQE_ERROR:
				p->errors++;
				break;
			case EDGE_CQE_REJECTED:
				p->rejected++;
				break;
			case EDGE_CQE_CANCELLED:
				p->cancelled++;
				break;
			default:
				p->err = -EIO;
				snprintf(p->what, sizeof(p->what),
					 "cqe %u: code %#x", seq, c.status);
			}
			p->seen++;
			edge_queue_cqe_seen(&q);
		}
	}
	if (quitter && !p->err)
		count_unreaped(p, &q);
	if (quitter && !p->err) {
		struct edge_queue slow;

		/* Events that cannot have completed when the file goes. */
		edge_register_init(&reg, EDGE_FN_NOP, 8, 4, CYCLES_MS(10000));
		ret = edge_queue_create(&d, &reg, &slow);
		if (ret) {
			p->err = ret;
			snprintf(p->what, sizeof(p->what), "register slow");
		} else {
			edge_queue_param_ahead(&slow, 3);
			edge_queue_submit(&slow, SLOW);
			p->submitted += SLOW;
			edge_queue_drop(&slow);
		}
	}
	if (quitter || p->err) {
		/* Leave: the file's release cancels what is in flight. */
		edge_queue_drop(&q);
	} else {
		ret = edge_queue_destroy(&q);
		if (ret && !p->err) {
			p->err = ret;
			snprintf(p->what, sizeof(p->what), "unregister");
		}
	}
	edge_close(&d);
	return NULL;
}

FIXTURE(stress) {
	int unused;
};

FIXTURE_SETUP(stress)
{
	EDGE_SETUP_LOAD("");
}

FIXTURE_TEARDOWN(stress)
{
	EXPECT_EQ(0, edge_module_unload(3000));
}

TEST_F_TIMEOUT(stress, producers_16_exact_accounting, 240)
{
	struct producer p[NTHREADS];
	uint64_t sub = 0, seen = 0, done = 0, errs = 0, rej = 0, canc = 0;
	uint64_t l_done = 0, l_errs = 0, l_rej = 0, l_canc = 0;
	long long s_sub, s_done, s_err, s_rej, s_canc;
	uint64_t t0 = now_ns();
	int i;

	memset(p, 0, sizeof(p));
	for (i = 0; i < NTHREADS; i++) {
		p[i].idx = i;
		ASSERT_EQ(0, pthread_create(&p[i].t, NULL, produce, &p[i]));
	}
	for (i = 0; i < NTHREADS; i++) {
		pthread_join(p[i].t, NULL);
		EXPECT_EQ(0, p[i].err) TH_LOG("producer %d: %s: %s", i,
					     p[i].what, strerror(-p[i].err));
		sub += p[i].submitted;
		seen += p[i].seen;
		done += p[i].done;
		errs += p[i].errors;
		rej += p[i].rejected;
		canc += p[i].cancelled;
		l_done += p[i].left_done;
		l_errs += p[i].left_errors;
		l_rej += p[i].left_rejected;
		l_canc += p[i].left_cancelled;
		if (i < NTHREADS - QUITTERS) {
			/* Stayed to the end: reaped every one of its events. */
			EXPECT_EQ(EVENTS, p[i].submitted);
			EXPECT_EQ(EVENTS, p[i].seen);
			EXPECT_EQ(0, p[i].left);
		} else {
			/*
			 * Left with 8 or more unreaped, each with its CQE
			 * written by the kernel, plus the SLOW in flight:
			 * every event it submitted, exactly once.
			 */
			EXPECT_LE(8, p[i].left);
			EXPECT_EQ(p[i].submitted,
				  p[i].seen + p[i].left + SLOW);
		}
	}
	/* Every file is closed: nothing registered or in flight. */
	EXPECT_EQ(0, edge_sysfs_read(0, "registered"));
	EXPECT_EQ(0, edge_sysfs_read(0, "inflight"));
	s_sub = edge_sysfs_read(0, "submitted");
	s_done = edge_sysfs_read(0, "completed");
	s_err = edge_sysfs_read(0, "errors");
	s_rej = edge_sysfs_read(0, "rejected");
	s_canc = edge_sysfs_read(0, "cancelled");
	TH_LOG("%d producers, %llu ms: submitted %lld = completed %lld + errors %lld + rejected %lld + cancelled %lld; CQEs reaped %llu (done %llu)",
	       NTHREADS, (unsigned long long)(now_ns() - t0) / 1000000,
	       s_sub, s_done, s_err, s_rej, s_canc,
	       (unsigned long long)seen, (unsigned long long)done);
	/* The rings and the counters agree, exactly. */
	EXPECT_EQ(sub, s_sub);
	EXPECT_EQ(s_sub, s_done + s_err + s_rej + s_canc);
	EXPECT_EQ(seen, done + errs + rej + canc);
	/* Each counter is the CQEs of its status, reaped or left ... */
	EXPECT_EQ(s_done, done + l_done);
	EXPECT_EQ(s_err, errs + l_errs);
	EXPECT_EQ(s_rej, rej + l_rej);
	/* ... and only the quitters' slow events were cancelled. */
	EXPECT_EQ(0, canc);
	EXPECT_EQ(0, l_canc);
	EXPECT_EQ(QUITTERS * SLOW, s_canc);
	EXPECT_EQ(sub - seen, (uint64_t)((s_done - done) + (s_err - errs) +
					 (s_rej - rej) + s_canc));
	/* Nothing moves afterwards, once the front end has looked again. */
	ASSERT_EQ(0, edge_frontend_settle(0, 5000));
	EXPECT_EQ(s_sub, edge_sysfs_read(0, "submitted"));
	EXPECT_EQ(s_done, edge_sysfs_read(0, "completed"));
}

/* One load/unload cycle with files, mappings and events in flight. */
static int cycle(struct __test_metadata *_metadata, int n)
{
	struct edge_register reg;
	struct edge_queue q;
	struct edge_dev d;
	uint32_t i, inflight = 1 + n % 4;
	int fd2, ret;

	ret = edge_module_load("");
	if (ret)
		return ret;
	ret = edge_open(&d, EDGE_DEV0);
	if (ret)
		return ret;
	fd2 = open(EDGE_DEV0, O_RDWR | O_CLOEXEC);
	if (fd2 < 0)
		return -errno;
	edge_register_init(&reg, EDGE_FN_ECHO, 8, 4, CYCLES_MS(10000));
	ret = edge_queue_create(&d, &reg, &q);
	if (ret)
		return ret;
	for (i = 0; i < inflight; i++)
		*(uint32_t *)edge_queue_param_ahead(&q, i) = i;
	edge_queue_submit(&q, inflight);
	if (edge_sysfs_wait_ge(0, "inflight", inflight, 5000) != inflight)
		return -ETIME;

	/* Two files, then one file's mappings alone, keep it loaded. */
	if (edge_module_unload_once() != -EWOULDBLOCK)
		return -EBADE;
	close(fd2);
	if (edge_module_unload_once() != -EWOULDBLOCK)
		return -EBADE;
	close(d.fd);
	d.fd = -1;
	if (edge_module_unload_once() != -EWOULDBLOCK)
		return -EBADE;
	if (edge_sysfs_read(0, "cancelled") != 0)
		return -EBADE;
	/* The last mapping goes: the events are cancelled, rmmod works. */
	edge_close(&d);
	edge_queue_drop(&q);
	if (edge_sysfs_read(0, "cancelled") != inflight ||
	    edge_sysfs_read(0, "inflight") != 0 ||
	    edge_sysfs_read(0, "submitted") != inflight)
		return -EBADE;
	ret = edge_module_unload_once();
	if (ret)
		return ret;
	return edge_module_loaded() ? -EEXIST : 0;
}

/*
 * 100 cycles; EDGE_STRESS_CYCLES=N fewer on the debug kernel
 * (tools/vm/guest.sh), where kmemleak sees a leak of one cycle and each
 * cycle costs ten times the stock kernel's.
 */
TEST_F_TIMEOUT(stress, load_unload_100_busy, 300)
{
	int n, ret, cycles = edge_env_uint("EDGE_STRESS_CYCLES", 100);
	uint64_t t0 = now_ns();

	ASSERT_LT(0, cycles);
	ASSERT_EQ(0, edge_module_unload(3000));
	for (n = 0; n < cycles; n++) {
		ret = cycle(_metadata, n);
		ASSERT_EQ(0, ret) TH_LOG("cycle %d: %s", n, strerror(-ret));
	}
	TH_LOG("%d cycles in %llu ms", cycles,
	       (unsigned long long)(now_ns() - t0) / 1000000);
	EXPECT_FALSE(edge_module_loaded());
}

/* A producer process: streams ECHO events and checks each until killed. */
static void stream(int idx, int ready)
{
	struct edge_register reg;
	struct edge_queue q;
	struct edge_dev d;
	struct edge_cqe c;
	uint32_t *p, n = 0;

	if (edge_open(&d, EDGE_DEV0))
		_exit(10);
	edge_register_init(&reg, EDGE_FN_ECHO, 8, 16, 700 * (1 + idx));
	if (edge_queue_create(&d, &reg, &q))
		_exit(11);
	if (write(ready, "r", 1) != 1)
		_exit(12);
	for (;;) {
		while ((p = edge_queue_param(&q))) {
			p[0] = n++;
			edge_queue_submit(&q, 1);
		}
		if (edge_queue_wait(&q, &c, 10000))
			_exit(13);
		while (edge_queue_peek(&q, &c)) {
			if (c.res != q.head ||
			    EDGE_CQE_CODE(c.status) != EDGE_CQE_DONE)
				_exit(14);
			edge_queue_cqe_seen(&q);
		}
	}
}

TEST_F_TIMEOUT(stress, rmmod_under_load, 120)
{
	long long s0, sub, done, canc;
	int i, refused = 0, rd[2], st;
	pid_t pid[4];
	uint64_t end;
	char r;

	ASSERT_EQ(0, pipe(rd));
	for (i = 0; i < 4; i++) {
		pid[i] = fork();
		ASSERT_LE(0, pid[i]);
		if (!pid[i]) {
			close(rd[0]);
			stream(i, rd[1]);
		}
	}
	close(rd[1]);
	for (i = 0; i < 4; i++)
		ASSERT_EQ(1, read(rd[0], &r, 1));
	close(rd[0]);

	/* rmmod again and again while they stream: refused, harmless. */
	s0 = edge_sysfs_read(0, "completed");
	end = now_ns() + 1000000000ULL;
	while (now_ns() < end) {
		ASSERT_EQ(-EWOULDBLOCK, edge_module_unload_once());
		refused++;
		sleep_ms(5);
	}
	EXPECT_LT(s0 + 100, edge_sysfs_read(0, "completed"));
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, waitpid(pid[i], &st, WNOHANG))
			TH_LOG("producer %d stopped: %#x", i, st);
	}

	/* Kill them mid-stream; then the device goes at once. */
	for (i = 0; i < 4; i++) {
		st = edge_reap(pid[i], SIGKILL);
		EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
			TH_LOG("producer %d: %#x", i, st);
	}
	EXPECT_EQ(0, edge_sysfs_read(0, "registered"));
	EXPECT_EQ(0, edge_sysfs_read(0, "inflight"));
	sub = edge_sysfs_read(0, "submitted");
	done = edge_sysfs_read(0, "completed");
	canc = edge_sysfs_read(0, "cancelled");
	TH_LOG("%d refused rmmods; submitted %lld completed %lld cancelled %lld",
	       refused, sub, done, canc);
	EXPECT_EQ(sub, done + canc + edge_sysfs_read(0, "errors") +
		  edge_sysfs_read(0, "rejected"));
	EXPECT_EQ(0, edge_module_unload_once());
	EXPECT_FALSE(edge_module_loaded());
}

EDGE_FINAL_CHECKS

EDGE_SELFTEST_MAIN
