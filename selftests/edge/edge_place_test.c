// SPDX-License-Identifier: GPL-2.0
/*
 * Device memory and placement (netlink "place", issue 14): four V100
 * devices (16 GB each) made at run time, 16 jobs placed through netlink
 * and run, each in its own process: it places itself (retrying on EBUSY,
 * a worker waiting for room), registers an event kernel holding its
 * memory on the device it was given, and runs events there.
 *
 *  - no device's memory in use ever exceeds its capacity (sampled all
 *    along, and the peaks), every device was used, and all of it is back
 *    (0 in use, no reservation) once the jobs' files and sockets closed;
 *  - a job killed with SIGKILL gives its memory back;
 *  - a request no device can hold gets EBUSY with a message;
 *  - a registration's memory is drawn from its process's reservation,
 *    not counted twice, and stays counted after the reservation ends;
 *  - bad attributes are EINVAL with the extack text, a registration that
 *    does not fit is ENOMEM and changes nothing (mem_oom counts it), a
 *    memory-blind policy (cg) that picks a full device is ENOMEM;
 *  - deleting a device drops its reservations cleanly.
 */
#define _GNU_SOURCE
#include "kselftest_harness.h"
#include "edge_selftest.h"
#include "edge_nl.h"

#define NDEV		4
#define NJOBS		16
#define GB		(1ULL << 30)
#define DEV_MEM		(16 * GB)	/* the v100 preset */

struct placed {
	uint32_t dev;
	uint64_t id;
	char policy[16];
};

/* The spec's nl-place-policy, by value. */
static const char *const place_names[] = {
	"sa", "cg", "mgb-alg2", "mgb-alg3", "mgb-live"
};
_Static_assert(ARRAY_SIZE(place_names) == EDGE_NL_PLACE_POLICY_MAX + 1,
	       "nl-place-policy");

static void place_cb(const struct enl_reply *r, void *arg)
{
	struct placed *p = arg;
	uint32_t v = enl_u32(r, EDGE_A_PLACE_POLICY);

	p->dev = enl_u32(r, EDGE_A_PLACE_DEV_INDEX);
	p->id = enl_u64(r, EDGE_A_PLACE_ID);
	snprintf(p->policy, sizeof(p->policy), "%s",
		 v < ARRAY_SIZE(place_names) ? place_names[v] : "?");
}

/* A policy's value by its name; one past the enum for another name. */
static uint32_t place_policy(const char *name)
{
	uint32_t i;

	for (i = 0; i < ARRAY_SIZE(place_names); i++)
		if (!strcmp(name, place_names[i]))
			break;
	return i;
}

/* 0 and *@p, or -errno (nl->ext holds the kernel's message). */
static int place(struct enl *nl, uint64_t mem, uint32_t threads,
		 uint32_t blocks, const char *policy, struct placed *p)
{
	struct enl_msg m;

	memset(p, 0, sizeof(*p));
	p->dev = ~0U;
	enl_msg(nl, &m, EDGE_CMD_PLACE, 0);
	enl_put_u64(&m, EDGE_A_PLACE_MEM, mem);
	enl_put_u32(&m, EDGE_A_PLACE_THREADS, threads);
	enl_put_u32(&m, EDGE_A_PLACE_BLOCKS, blocks);
	if (policy)
		enl_put_u32(&m, EDGE_A_PLACE_POLICY, place_policy(policy));
	return enl_do(nl, &m, place_cb, p);
}

static int unplace(struct enl *nl, uint64_t id)
{
	struct enl_msg m;

	enl_msg(nl, &m, EDGE_CMD_PLACE_RELEASE, 0);
	enl_put_u64(&m, EDGE_A_PLACE_ID, id);
	return enl_do(nl, &m, NULL, NULL);
}

static long long mem_used(int dev)
{
	return edge_sysfs_read(dev, "mem_used");
}

/* Wait up to @ms for device @dev's memory in use to reach @want. */
static long long mem_wait(int dev, long long want, unsigned int ms)
{
	uint64_t end = now_ns() + (uint64_t)ms * 1000000ULL;
	long long v;

	for (;;) {
		v = mem_used(dev);
		if (v == want || now_ns() > end)
			return v;
		sleep_ms(2);
	}
}

/* Register an echo kernel holding @mem bytes on @d; 0 or -errno. */
static int reg_mem(struct edge_dev *d, struct edge_queue *q, uint64_t mem,
		   uint32_t threads)
{
	struct edge_register reg;

	edge_register_init(&reg, EDGE_FN_ECHO, 8, 16, 20000);
	reg.block_x = threads;
	reg.grid_x = 4;
	reg.mem_bytes = mem;
	return edge_queue_create(d, &reg, q);
}

FIXTURE(place) {
	struct enl nl;
};

FIXTURE_SETUP(place)
{
	int i;

	EDGE_SETUP_LOAD("nr_devices=0 virtual_time=1");
	ASSERT_EQ(0, enl_open(&self->nl));
	/* Made at run time, as a user-level scheduler's machine would be. */
	for (i = 0; i < NDEV; i++)
		ASSERT_EQ(0, enl_dev_add(&self->nl, i, EDGE_NL_PRESET_V100, 1))
			TH_LOG("dev add v100: %s", self->nl.ext);
	for (i = 0; i < NDEV; i++)
		ASSERT_EQ((long long)DEV_MEM, edge_sysfs_read(i, "mem_total"));
}

FIXTURE_TEARDOWN(place)
{
	enl_close(&self->nl);
	EXPECT_EQ(0, edge_module_unload(3000));
}

/*
 * One job: place (retrying while no device has room), register its
 * memory on the device it got, run @events events there, exit.  Exit
 * codes: 0 done, 10+ a step that failed.
 */
static int job(int n, uint64_t mem, const char *policy, int fd)
{
	struct edge_queue q;
	struct edge_dev d;
	struct placed p;
	struct enl nl;
	char path[32];
	uint32_t i;
	int ret, tries;

	if (enl_open(&nl))
		return 10;
	for (tries = 0; tries < 2000; tries++) {
		ret = place(&nl, mem, 256, 1024, policy, &p);
		if (ret != -EBUSY)
			break;
		sleep_ms(5);
	}
	if (ret)
		return 11;
	if (write(fd, &p.dev, sizeof(p.dev)) != sizeof(p.dev))
		return 12;
	snprintf(path, sizeof(path), "/dev/edge%u", p.dev);
	if (edge_open(&d, path))
		return 13;
	/* Drawn from the reservation: it fits whatever the others do. */
	if (reg_mem(&d, &q, mem, 256))
		return 14;
	for (i = 0; i < 32; i++) {
		struct edge_cqe c;
		void *prm;

		while (!(prm = edge_queue_param(&q)))
			sleep_ms(1);
		*(uint32_t *)prm = n * 1000 + i;
		edge_queue_submit(&q, 1);
		if (edge_queue_wait(&q, &c, 10000))
			return 15;
		if (EDGE_CQE_CODE(c.status) != EDGE_CQE_DONE ||
		    c.res != (uint32_t)(n * 1000 + i))
			return 16;
		edge_queue_cqe_seen(&q);
	}
	/* Its files and socket close at exit: that is what releases. */
	return 0;
}

/*
 * Sixteen jobs, large (7 GB) and small (3 GB) alternately: 80 GB for
 * 64 GB of devices, so some wait for others to end.  The parent samples
 * every device's memory while they run.
 */
TEST_F(place, sixteen_jobs_never_exceed_memory)
{
	pid_t pids[NJOBS];
	long long peak_seen[NDEV] = { 0 };
	int used_dev[NDEV] = { 0 };
	int pfd[2], i, d, left = NJOBS, samples = 0;
	uint32_t dev;

	ASSERT_EQ(0, pipe(pfd));
	for (i = 0; i < NJOBS; i++) {
		pids[i] = fork();
		ASSERT_LE(0, pids[i]);
		if (!pids[i]) {
			close(pfd[0]);
			_exit(job(i, (i % 2 ? 3 : 7) * GB, NULL, pfd[1]));
		}
	}
	close(pfd[1]);
	while (left) {
		int st;
		pid_t w = waitpid(-1, &st, WNOHANG);

		if (w > 0) {
			EXPECT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st))
				TH_LOG("job exit status %d", WEXITSTATUS(st));
			left--;
			continue;
		}
		for (d = 0; d < NDEV; d++) {
			long long u = mem_used(d);

			ASSERT_LE(0, u);
			ASSERT_LE(u, (long long)DEV_MEM)
				TH_LOG("edge%d holds %lld bytes", d, u);
			if (u > peak_seen[d])
				peak_seen[d] = u;
		}
		samples++;
		sleep_ms(1);
	}
	while (read(pfd[0], &dev, sizeof(dev)) == sizeof(dev)) {
		ASSERT_GT(NDEV, dev);
		used_dev[dev]++;
	}
	close(pfd[0]);
	for (d = 0; d < NDEV; d++) {
		long long peak = edge_sysfs_read(d, "mem_peak");

		/* Alg. 3 spreads: every device took work. */
		EXPECT_LT(0, used_dev[d]) TH_LOG("edge%d got no job", d);
		EXPECT_LE(peak, (long long)DEV_MEM);
		EXPECT_LE(peak_seen[d], peak);
		EXPECT_EQ(0, mem_wait(d, 0, 2000)) TH_LOG("edge%d", d);
		EXPECT_EQ(0, edge_sysfs_read(d, "mem_reservations"));
		EXPECT_EQ(0, edge_sysfs_read(d, "mem_oom"));
		EXPECT_EQ(0, edge_sysfs_read(d, "registered"));
		TH_LOG("edge%d: %d jobs, peak %lld GB", d, used_dev[d],
		       peak >> 30);
	}
	TH_LOG("%d samples", samples);
}

/* A job killed while it holds its reservation and its registration. */
TEST_F(place, killed_job_gives_memory_back)
{
	struct placed p = { 0 };
	int pfd[2], st;
	pid_t pid;
	uint32_t dev;

	ASSERT_EQ(0, pipe(pfd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct edge_queue q;
		struct edge_dev d;
		struct enl nl;
		char path[32];

		close(pfd[0]);
		if (enl_open(&nl) || place(&nl, 5 * GB, 256, 64, NULL, &p))
			_exit(1);
		snprintf(path, sizeof(path), "/dev/edge%u", p.dev);
		/* 5 GB drawn from the reservation, 1 GB more of its own. */
		if (edge_open(&d, path) || reg_mem(&d, &q, 5 * GB, 64) ||
		    reg_mem(&d, &q, 1 * GB, 64))
			_exit(2);
		if (write(pfd[1], &p.dev, sizeof(p.dev)) != sizeof(p.dev))
			_exit(3);
		for (;;)
			pause();
	}
	close(pfd[1]);
	ASSERT_EQ(sizeof(dev), read(pfd[0], &dev, sizeof(dev)));
	close(pfd[0]);
	ASSERT_GT(NDEV, dev);
	EXPECT_EQ((long long)(6 * GB), mem_used(dev));
	EXPECT_EQ(1, edge_sysfs_read(dev, "mem_reservations"));
	st = edge_reap(pid, SIGKILL);
	ASSERT_TRUE(WIFSIGNALED(st));
	EXPECT_EQ(0, mem_wait(dev, 0, 2000));
	EXPECT_EQ(0, edge_sysfs_read(dev, "mem_reservations"));
	EXPECT_EQ((long long)(6 * GB), edge_sysfs_read(dev, "mem_peak"));
}

/* The socket closing ends its reservations; place-release ends one. */
TEST_F(place, socket_close_and_release)
{
	struct placed a, b, c;
	struct enl other;

	ASSERT_EQ(0, enl_open(&other));
	ASSERT_EQ(0, place(&other, 4 * GB, 128, 16, NULL, &a));
	ASSERT_EQ(0, place(&other, 4 * GB, 128, 16, NULL, &b));
	ASSERT_EQ(0, place(&self->nl, 2 * GB, 128, 16, "mgb-alg3", &c));
	EXPECT_STREQ("mgb-alg3", c.policy);
	/* Alg. 3: the fewest warps, so three different devices. */
	EXPECT_NE(a.dev, b.dev);
	EXPECT_NE(a.dev, c.dev);
	EXPECT_NE(b.dev, c.dev);
	EXPECT_EQ((long long)(4 * GB), mem_used(a.dev));
	/* Not this socket's: refused, and nothing changes. */
	EXPECT_EQ(-ENOENT, unplace(&self->nl, a.id));
	EXPECT_NE(NULL, strstr(self->nl.ext, "no such reservation"))
		TH_LOG("extack: %s", self->nl.ext);
	EXPECT_EQ((long long)(4 * GB), mem_used(a.dev));
	EXPECT_EQ(0, unplace(&other, a.id));
	EXPECT_EQ(0, mem_used(a.dev));
	EXPECT_EQ(-ENOENT, unplace(&other, a.id));
	enl_close(&other);
	EXPECT_EQ(0, mem_wait(b.dev, 0, 2000));
	EXPECT_EQ((long long)(2 * GB), mem_used(c.dev));
	EXPECT_EQ(0, unplace(&self->nl, c.id));
	EXPECT_EQ(0, mem_used(c.dev));
}

/* A registration draws on its process's reservation, once. */
TEST_F(place, registration_draws_on_reservation)
{
	struct edge_queue q1, q2;
	struct edge_dev d;
	struct placed p;
	char path[32];

	ASSERT_EQ(0, place(&self->nl, 6 * GB, 256, 1024, NULL, &p));
	ASSERT_GT(NDEV, p.dev);
	snprintf(path, sizeof(path), "/dev/edge%u", p.dev);
	ASSERT_EQ(0, edge_open(&d, path));
	EXPECT_EQ((long long)(6 * GB), mem_used(p.dev));
	ASSERT_EQ(0, reg_mem(&d, &q1, 6 * GB, 256));
	EXPECT_EQ((long long)(6 * GB), mem_used(p.dev));
	/* Beyond the reservation: the device's own memory. */
	ASSERT_EQ(0, reg_mem(&d, &q2, 1 * GB, 256));
	EXPECT_EQ((long long)(7 * GB), mem_used(p.dev));
	/* The job ends its reservation: what it drew stays counted. */
	EXPECT_EQ(0, unplace(&self->nl, p.id));
	EXPECT_EQ((long long)(7 * GB), mem_used(p.dev));
	EXPECT_EQ(0, edge_queue_destroy(&q1));
	EXPECT_EQ((long long)(1 * GB), mem_used(p.dev));
	/* The file goes with its last mapping. */
	edge_queue_drop(&q2);
	edge_close(&d);
	EXPECT_EQ(0, mem_used(p.dev));
	EXPECT_EQ((long long)(7 * GB), edge_sysfs_read(p.dev, "mem_peak"));
}

/* Larger than any device, or than what is left: EBUSY, with a message. */
TEST_F(place, over_size_is_ebusy)
{
	struct placed p[NDEV], x;
	int i;

	EXPECT_EQ(-EBUSY, place(&self->nl, DEV_MEM + 1, 256, 1024, NULL, &x));
	EXPECT_NE(NULL, strstr(self->nl.ext, "no device has room"))
		TH_LOG("extack: %s", self->nl.ext);
	for (i = 0; i < NDEV; i++)
		ASSERT_EQ(0, place(&self->nl, DEV_MEM, 256, 1024, NULL, &p[i]));
	for (i = 0; i < NDEV; i++)
		EXPECT_EQ((long long)DEV_MEM, mem_used(i));
	EXPECT_EQ(-EBUSY, place(&self->nl, 1, 32, 1, NULL, &x));
	EXPECT_EQ(-EBUSY, place(&self->nl, 1, 32, 1, "sa", &x));
	EXPECT_EQ(-EBUSY, place(&self->nl, 1, 32, 1, "mgb-alg2", &x));
	for (i = 0; i < NDEV; i++)
		EXPECT_EQ(0, edge_sysfs_read(i, "mem_oom"));
}

/* CG is blind to memory: the device it picks may not hold the job. */
TEST_F(place, cg_oom_is_counted)
{
	struct placed p, x;
	long long oom = 0;
	int i;

	for (i = 0; i < NDEV; i++)
		ASSERT_EQ(0, place(&self->nl, 10 * GB, 256, 64, "cg", &p));
	EXPECT_EQ(-ENOMEM, place(&self->nl, 10 * GB, 256, 64, "cg", &x));
	EXPECT_NE(NULL, strstr(self->nl.ext, "OOM"))
		TH_LOG("extack: %s", self->nl.ext);
	for (i = 0; i < NDEV; i++) {
		oom += edge_sysfs_read(i, "mem_oom");
		EXPECT_EQ((long long)(10 * GB), mem_used(i));
	}
	EXPECT_EQ(1, oom);
	/* Alg. 3 says so before anything is tried. */
	EXPECT_EQ(-EBUSY, place(&self->nl, 10 * GB, 256, 64, NULL, &x));
}

/*
 * Bad attributes: the extack text, nothing reserved.  A value out of its
 * range (a policy's name past its enum too) is the strict policy's
 * ERANGE, anything else EINVAL.
 */
TEST_F(place, bad_attributes)
{
	static const struct {
		uint64_t mem;
		uint32_t threads, blocks;
		const char *policy, *msg;
		int err;
	} bad[] = {
		{ 0, 256, 64, NULL, "out of range", ERANGE },
		{ GB, 0, 64, NULL, "out of range", ERANGE },
		{ GB, 2048, 64, NULL, "out of range", ERANGE },
		{ GB, 256, 0, NULL, "out of range", ERANGE },
		/* A name past the enum: the policy's limit. */
		{ GB, 256, 64, "bogus", "out of range", ERANGE },
	};
	struct enl_msg m;
	struct placed x;
	int i, d;

	for (i = 0; i < (int)(sizeof(bad) / sizeof(bad[0])); i++) {
		EXPECT_EQ(-bad[i].err, place(&self->nl, bad[i].mem,
					     bad[i].threads, bad[i].blocks,
					     bad[i].policy, &x));
		EXPECT_NE(NULL, strstr(self->nl.ext, bad[i].msg))
			TH_LOG("case %d extack: %s", i, self->nl.ext);
	}
	/* Each required attribute missing. */
	enl_msg(&self->nl, &m, EDGE_CMD_PLACE, 0);
	enl_put_u32(&m, EDGE_A_PLACE_THREADS, 32);
	enl_put_u32(&m, EDGE_A_PLACE_BLOCKS, 1);
	EXPECT_EQ(-EINVAL, enl_do(&self->nl, &m, NULL, NULL));
	EXPECT_NE(NULL, strstr(self->nl.ext, "place needs"))
		TH_LOG("extack: %s", self->nl.ext);
	enl_msg(&self->nl, &m, EDGE_CMD_PLACE_RELEASE, 0);
	EXPECT_EQ(-EINVAL, enl_do(&self->nl, &m, NULL, NULL));
	for (d = 0; d < NDEV; d++) {
		EXPECT_EQ(0, mem_used(d));
		EXPECT_EQ(0, edge_sysfs_read(d, "mem_reservations"));
	}
}

/* A registration that does not fit: ENOMEM, nothing registered. */
TEST_F(place, registration_enomem)
{
	struct edge_queue q, q2;
	struct edge_dev d;

	ASSERT_EQ(0, edge_open(&d, "/dev/edge0"));
	EXPECT_EQ(-ENOMEM, reg_mem(&d, &q, DEV_MEM + 1, 32));
	EXPECT_EQ(0, mem_used(0));
	EXPECT_EQ(1, edge_sysfs_read(0, "mem_oom"));
	EXPECT_EQ(0, edge_sysfs_read(0, "registered"));
	ASSERT_EQ(0, reg_mem(&d, &q, 10 * GB, 32));
	EXPECT_EQ(-ENOMEM, reg_mem(&d, &q2, 10 * GB, 32));
	EXPECT_EQ((long long)(10 * GB), mem_used(0));
	EXPECT_EQ(2, edge_sysfs_read(0, "mem_oom"));
	EXPECT_EQ(1, edge_sysfs_read(0, "registered"));
	/* Exactly what is left fits. */
	ASSERT_EQ(0, reg_mem(&d, &q2, 6 * GB, 32));
	EXPECT_EQ((long long)DEV_MEM, mem_used(0));
	edge_queue_drop(&q);
	edge_queue_drop(&q2);
	edge_close(&d);
	EXPECT_EQ(0, mem_used(0));
	EXPECT_EQ((long long)DEV_MEM, edge_sysfs_read(0, "mem_peak"));
}

/* dev del drops the device's reservations; its files let go later. */
TEST_F(place, dev_del_drops_reservations)
{
	struct placed p, other;
	struct edge_queue q;
	struct edge_dev d;
	char path[32];
	int i;

	ASSERT_EQ(0, place(&self->nl, 8 * GB, 256, 64, NULL, &p));
	ASSERT_EQ(0, place(&self->nl, 8 * GB, 256, 64, NULL, &other));
	ASSERT_NE(p.dev, other.dev);
	snprintf(path, sizeof(path), "/dev/edge%u", p.dev);
	ASSERT_EQ(0, edge_open(&d, path));
	ASSERT_EQ(0, reg_mem(&d, &q, 4 * GB, 64));
	ASSERT_EQ(0, enl_dev_del(&self->nl, p.dev));
	EXPECT_EQ(-ENOENT, unplace(&self->nl, p.id));
	/* The other device's reservation is untouched. */
	EXPECT_EQ((long long)(8 * GB), mem_used(other.dev));
	edge_queue_drop(&q);
	edge_close(&d);
	/* A new device in its place starts empty. */
	ASSERT_EQ(0, enl_dev_add(&self->nl, p.dev, EDGE_NL_PRESET_V100, 1));
	EXPECT_EQ(0, mem_used(p.dev));
	EXPECT_EQ(0, unplace(&self->nl, other.id));
	for (i = 0; i < NDEV; i++)
		EXPECT_EQ(0, mem_used(i));
}

/*
 * Load nobody placed counts: edge0, remade in real time, runs a kernel
 * that fills its cores; with nothing placed anywhere, Alg. 3 must see
 * its warps (the model's, read under its lock) and go elsewhere.
 */
TEST_F(place, live_load_counts)
{
	struct edge_register reg;
	struct edge_queue q;
	struct edge_dev d;
	struct placed p;
	int i;

	ASSERT_EQ(0, enl_dev_del(&self->nl, 0));
	ASSERT_EQ(0, enl_dev_add(&self->nl, 0, EDGE_NL_PRESET_V100, 0));
	ASSERT_EQ(0, edge_open(&d, "/dev/edge0"));
	/* 640 TBs of 8 warps: all 80 cores full, for ~2 s of model time. */
	edge_register_init(&reg, EDGE_FN_NOP, 8, 4, 3000000000ULL);
	reg.block_x = 256;
	reg.grid_x = 640;
	ASSERT_EQ(0, edge_queue_create(&d, &reg, &q));
	ASSERT_NE(NULL, edge_queue_param(&q));
	edge_queue_submit(&q, 1);
	ASSERT_EQ(1, edge_sysfs_wait_ge(0, "inflight", 1, 2000));
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, place(&self->nl, GB, 256, 64, "mgb-alg3", &p));
		EXPECT_NE(0, p.dev) TH_LOG("placement %d on the busy edge0", i);
	}
	edge_queue_drop(&q);
	edge_close(&d);
}

/* Device get carries the memory, as sysfs does. */
static void dev_cb(const struct enl_reply *r, void *arg)
{
	uint64_t *v = arg;

	v[0] = enl_u64(r, EDGE_A_DEV_MEM_TOTAL);
	v[1] = enl_u64(r, EDGE_A_DEV_MEM_USED);
	v[2] = enl_u64(r, EDGE_A_DEV_MEM_PEAK);
	v[3] = enl_u32(r, EDGE_A_DEV_MEM_RESERVATIONS);
}

TEST_F(place, dev_get_shows_memory)
{
	struct enl_msg m;
	struct placed p;
	uint64_t v[4] = { 0 };

	ASSERT_EQ(0, place(&self->nl, 3 * GB, 64, 8, NULL, &p));
	enl_msg(&self->nl, &m, EDGE_CMD_DEV_GET, 0);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, p.dev);
	ASSERT_EQ(0, enl_do(&self->nl, &m, dev_cb, v));
	EXPECT_EQ(DEV_MEM, v[0]);
	EXPECT_EQ(3 * GB, v[1]);
	EXPECT_EQ(3 * GB, v[2]);
	EXPECT_EQ(1, v[3]);
	EXPECT_EQ((long long)v[2], edge_sysfs_read(p.dev, "mem_peak"));
}

EDGE_FINAL_CHECKS
EDGE_SELFTEST_MAIN
