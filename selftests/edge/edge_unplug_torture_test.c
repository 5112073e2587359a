// SPDX-License-Identifier: GPL-2.0
/*
 * The unplug torture (issue 23): root adds and deletes /dev/edge1 over
 * and over while everything that can hold on to a device uses it at once:
 *
 *  - file users, as root and as nobody (uid 65534), each a process of its
 *    own looping over open, register, mmap, submit, KICK, poll, reap,
 *    munmap and close, some closing with events in flight;
 *  - kernel-queue users: edge_nicsim.ko loaded on it and unloaded, and
 *    edge_netrx.ko attached and detached on a veth when the payload has
 *    the test network;
 *  - netlink readers (device, EKT and job dumps, as nobody) and a
 *    placer (place and place-release, as root);
 *  - and, every few rounds, an rmmod of edge.ko, refused while it is in
 *    use, loaded again when it went.
 *
 * Each deletion's last word (the monitor's dev-del notification) must
 * balance: submitted = completed + errors + rejected + cancelled, nothing
 * in flight.  Each user's reaped statuses are DONE or CANCELLED only, and
 * never more than it submitted.  The debug kernel's KASAN, lockdep and
 * kmemleak say the rest (tools/vm/check-debug.sh counts their reports).
 *
 * Bounded in count and time: EDGE_TORTURE_ROUNDS (default 200) and
 * EDGE_TORTURE_SECONDS (default 120; tools/vm/guest.sh gives the debug
 * kernel 15), whichever comes first; it prints
 * "unplug_torture_rounds=N", which make check sums over both kernels.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "edge_selftest.h"
#include "edge_nicsim.h"
#include "edge_netrx.h"
#include "edge_nl.h"

#define TDEV		1
#define TDEV_PATH	"/dev/edge1"
#define NOBODY		65534
#define FILE_USERS	4	/* half of them nobody */

/* What the workers tell the parent, in a shared mapping. */
struct tshared {
	volatile int stop;
	struct {
		uint64_t opens, regs, submitted, reaped, done, cancelled;
		uint64_t bad_status, over_reaped, closes_inflight;
	} fu[FILE_USERS];
	uint64_t dumps, places, nicsim_loads, netrx_attaches;
};

static struct tshared *sh;

static int drop_to_nobody(void)
{
	return setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY) ? -1 : 0;
}

static uint32_t rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static void reap(struct edge_queue *q, int w)
{
	struct edge_cqe c;

	while (edge_queue_peek(q, &c) == 1) {
		switch (EDGE_CQE_CODE(c.status)) {
		case EDGE_CQE_DONE:
			sh->fu[w].done++;
			break;
		case EDGE_CQE_CANCELLED:
			sh->fu[w].cancelled++;
			break;
		default:
			sh->fu[w].bad_status++;
		}
		sh->fu[w].reaped++;
		edge_queue_cqe_seen(q);
	}
	if (sh->fu[w].reaped > sh->fu[w].submitted)
		sh->fu[w].over_reaped++;
}

/* One file user: a process of its own, root or nobody. */
static void file_user(int w)
{
	uint32_t seed = 0x9e3779b9u * (w + 1);

	if ((w & 1) && drop_to_nobody())
		_exit(2);
	while (!sh->stop) {
		struct edge_register reg;
		struct edge_queue q;
		struct edge_dev d;
		uint32_t n, i, rounds;

		if (edge_open(&d, TDEV_PATH)) {
			usleep(500);
			continue;
		}
		sh->fu[w].opens++;
		edge_register_init(&reg, EDGE_FN_ECHO, 8, 16,
				   200 + rnd(&seed) % 4000);
		if (edge_queue_create(&d, &reg, &q)) {
			edge_close(&d);
			continue;
		}
		sh->fu[w].regs++;
		rounds = 1 + rnd(&seed) % 8;
		while (rounds-- && !sh->stop) {
			struct pollfd p = { .fd = d.fd, .events = POLLIN };

			n = rnd(&seed) % 8;
			for (i = 0; i < n; i++) {
				void *prm = edge_queue_param(&q);

				if (!prm)
					break;
				*(uint32_t *)prm = i;
				edge_queue_submit(&q, 1);
				sh->fu[w].submitted++;
			}
			edge_ioc_kick(d.fd, 0);
			poll(&p, 1, 2);
			reap(&q, w);
		}
		/* Half the time: go with events in flight, mapped or not. */
		if (rnd(&seed) & 1) {
			if (edge_queue_inflight(&q))
				sh->fu[w].closes_inflight++;
			if (rnd(&seed) & 1) {
				edge_close(&d);
				edge_queue_drop(&q);
				continue;
			}
		} else {
			for (i = 0; i < 200 && edge_queue_inflight(&q); i++) {
				struct pollfd p = { .fd = d.fd,
						    .events = POLLIN };

				poll(&p, 1, 1);
				reap(&q, w);
			}
		}
		edge_queue_drop(&q);
		edge_close(&d);
	}
	_exit(0);
}

static void nl_reader(void)
{
	struct enl nl;
	struct enl_msg m;
	static const uint8_t cmds[] = { EDGE_CMD_DEV_GET, EDGE_CMD_EKT_GET,
					EDGE_CMD_JOB_GET };
	unsigned int i = 0;

	if (drop_to_nobody() || enl_open(&nl))
		_exit(2);
	while (!sh->stop) {
		uint8_t cmd = cmds[i++ % 3];

		enl_msg(&nl, &m, cmd, NLM_F_DUMP);
		if (cmd != EDGE_CMD_DEV_GET)
			enl_put_u32(&m, EDGE_A_DEV_INDEX, TDEV);
		enl_do(&nl, &m, NULL, NULL);
		sh->dumps++;
		usleep(200);
	}
	enl_close(&nl);
	_exit(0);
}

static void placed_cb(const struct enl_reply *r, void *arg)
{
	*(uint64_t *)arg = enl_u64(r, EDGE_A_PLACE_ID);
}

static void placer(void)
{
	struct enl nl;

	if (enl_open(&nl))
		_exit(2);
	while (!sh->stop) {
		struct enl_msg m;
		uint64_t id = 0;

		enl_msg(&nl, &m, EDGE_CMD_PLACE, 0);
		enl_put(&m, EDGE_A_PLACE_MEM, &(uint64_t){ 1 << 20 }, 8);
		enl_put_u32(&m, EDGE_A_PLACE_THREADS, 64);
		enl_put_u32(&m, EDGE_A_PLACE_BLOCKS, 4);
		if (!enl_do(&nl, &m, placed_cb, &id)) {
			sh->places++;
			enl_msg(&nl, &m, EDGE_CMD_PLACE_RELEASE, 0);
			enl_put(&m, EDGE_A_PLACE_ID, &id, 8);
			enl_do(&nl, &m, NULL, NULL);
		}
		usleep(1000);
	}
	enl_close(&nl);
	_exit(0);
}

/* edge_nicsim.ko on the torture device: load, let it ring, unload. */
static void kq_user(void)
{
	while (!sh->stop) {
		if (!nicsim_load("dev=1 rate=20000 batch=4")) {
			sh->nicsim_loads++;
			usleep(10000);
			nicsim_unload();
		} else {
			usleep(2000);
		}
	}
	nicsim_unload();
	_exit(0);
}

/*
 * edge_netrx.ko loaded on edge1, attached to the test veth and detached
 * a few times, unloaded (so that an rmmod of edge.ko can get through).
 */
static void netrx_user(void)
{
	int i;

	while (!sh->stop) {
		/* Fails while edge.ko is away (its symbols): try again. */
		if (netrx_load("dev=1")) {
			usleep(2000);
			continue;
		}
		for (i = 0; i < 3 && !sh->stop; i++) {
			if (!nr_write("attach", "nr0")) {
				sh->netrx_attaches++;
				usleep(3000);
				nr_write("detach", "1");
			}
		}
		if (netrx_unload())
			_exit(3);
	}
	_exit(0);
}

static pid_t spawn(void (*fn)(void))
{
	pid_t p = fork();

	if (!p)
		fn();
	return p;
}

static pid_t spawn_fu(int w)
{
	pid_t p = fork();

	if (!p)
		file_user(w);
	return p;
}

/* The test network of edge_netrx_test (tools/vm/netrx-net.sh). */
static int netrx_up(void)
{
	if (access(netrx_ko(), R_OK) || access(NET, X_OK))
		return -1;
	return system(NET " up >&2") ? -1 : 0;
}

static void netrx_down(void)
{
	if (system(NET " down >&2"))
		fprintf(stderr, "# netrx-net.sh down failed\n");
}

FIXTURE(torture) {
	int unused;
};

FIXTURE_SETUP(torture) {}
FIXTURE_TEARDOWN(torture) {}

/* The harness's 30 s is too short: the run bounds itself. */
TEST_F_TIMEOUT(torture, unplug, 900)
{
	unsigned int max_rounds = edge_env_uint("EDGE_TORTURE_ROUNDS", 200);
	unsigned int secs = edge_env_uint("EDGE_TORTURE_SECONDS", 120);
	uint64_t end = now_ns() + (uint64_t)secs * 1000000000ULL;
	uint64_t dsub = 0, dcanc = 0, udone = 0, ucanc = 0, usub = 0;
	unsigned int rounds = 0, unbalanced = 0, rmmods = 0, refused = 0;
	pid_t pids[FILE_USERS + 4];
	int npids = 0, i, netrx, st;
	struct enl nl, mon;
	uint32_t seed = 12345;

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, sh);
	nicsim_unload();
	ASSERT_EQ(0, edge_module_load("nr_devices=1"));
	ASSERT_EQ(0, enl_open(&nl));
	ASSERT_EQ(0, enl_open(&mon));
	ASSERT_EQ(0, enl_subscribe(&mon));
	ASSERT_EQ(0, enl_dev_add(&nl, TDEV, EDGE_NL_PRESET_EDGE, 0));
	netrx = !netrx_up();
	if (!netrx)
		TH_LOG("no test network: edge_netrx.ko not in the torture");

	for (i = 0; i < FILE_USERS; i++)
		pids[npids++] = spawn_fu(i);
	pids[npids++] = spawn(nl_reader);
	pids[npids++] = spawn(placer);
	pids[npids++] = spawn(kq_user);
	if (netrx)
		pids[npids++] = spawn(netrx_user);

	while (rounds < max_rounds && now_ns() < end) {
		struct enl_reply r, st;
		int ret;

		/* Let the users find it and get going. */
		usleep(2000 + rnd(&seed) % 20000);
		ret = enl_dev_del(&nl, TDEV);
		ASSERT_EQ(0, ret);
		do {
			ret = enl_next_ntf(&mon, &r, 5000);
			ASSERT_EQ(0, ret);
		} while (r.cmd != EDGE_CMD_DEV_DEL_NTF ||
			 enl_u32(&r, EDGE_A_DEV_INDEX) != TDEV);
		enl_final(&r, &st);	/* its final counters */
		if (enl_u64(&st, EDGE_A_STATS_SUBMITTED) !=
		    enl_u64(&st, EDGE_A_STATS_COMPLETED) +
		    enl_u64(&st, EDGE_A_STATS_ERRORS) +
		    enl_u64(&st, EDGE_A_STATS_REJECTED) +
		    enl_u64(&st, EDGE_A_STATS_CANCELLED) ||
		    enl_u32(&st, EDGE_A_STATS_INFLIGHT))
			unbalanced++;
		dsub += enl_u64(&st, EDGE_A_STATS_SUBMITTED);
		dcanc += enl_u64(&st, EDGE_A_STATS_CANCELLED);
		rounds++;
		/* Every few rounds: rmmod under load, refused while in use. */
		if (!(rounds % 16)) {
			if (edge_module_unload_once()) {
				refused++;
			} else {
				rmmods++;
				ASSERT_EQ(0, edge_module_load("nr_devices=1"));
				/* The old sockets' family went with it. */
				enl_close(&nl);
				enl_close(&mon);
				ASSERT_EQ(0, enl_open(&nl));
				ASSERT_EQ(0, enl_open(&mon));
				ASSERT_EQ(0, enl_subscribe(&mon));
			}
		}
		ret = enl_dev_add(&nl, TDEV, rnd(&seed) & 1 ? EDGE_NL_PRESET_EDGE : EDGE_NL_PRESET_H100_LIKE,
				  0);
		ASSERT_EQ(0, ret);
	}

	sh->stop = 1;
	for (i = 0; i < npids; i++) {
		ASSERT_EQ(pids[i], waitpid(pids[i], &st, 0));
		EXPECT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st))
			TH_LOG("worker %d: status %#x", i, st);
	}
	for (i = 0; i < FILE_USERS; i++) {
		EXPECT_EQ(0, sh->fu[i].bad_status);
		EXPECT_EQ(0, sh->fu[i].over_reaped);
		usub += sh->fu[i].submitted;
		udone += sh->fu[i].done;
		ucanc += sh->fu[i].cancelled;
	}
	TH_LOG("%u rounds (%u rmmod, %u refused); devices: %llu submitted, %llu cancelled; users: %llu submitted, %llu done, %llu cancelled reaped; %llu dumps, %llu places, %llu nicsim loads, %llu netrx attaches",
	       rounds, rmmods, refused, (unsigned long long)dsub,
	       (unsigned long long)dcanc, (unsigned long long)usub,
	       (unsigned long long)udone, (unsigned long long)ucanc,
	       (unsigned long long)sh->dumps, (unsigned long long)sh->places,
	       (unsigned long long)sh->nicsim_loads,
	       (unsigned long long)sh->netrx_attaches);
	EXPECT_EQ(0, unbalanced);
	/* It was a torture: users got in, and devices went under them. */
	EXPECT_LT(0, udone);
	EXPECT_LT(0, dcanc);
	EXPECT_LT(0, sh->nicsim_loads);
	printf("unplug_torture_rounds=%u\n", rounds);
	fflush(stdout);
	if (netrx)
		netrx_down();
	enl_close(&mon);
	enl_close(&nl);
	nicsim_unload();
	EXPECT_EQ(0, edge_module_unload(5000));
}

EDGE_FINAL_CHECKS

EDGE_SELFTEST_MAIN
