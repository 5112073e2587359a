// SPDX-License-Identifier: GPL-2.0
/*
 * Jobs with deadlines through /dev/edge0 (EDGE_IOC_SUBMIT_JOB and
 * EDGE_IOC_REAP_JOBS): admission by the command processor, the queue
 * policy switched at run time, bad input, and teardown with jobs in
 * flight.  Virtual time, with time held while a burst is submitted, so
 * every job arrives at one model instant and a run is deterministic.
 */
#include "kselftest_harness.h"
#include "edge_selftest.h"
#include <pthread.h>

/* 128 TBs of 256 threads fill the "edge" preset's 16 cores. */
#define FILL_TBS	128

static long long jobs_stat(const char *name)
{
	return edge_sysfs_read(0, name);
}

/* Register a TB kernel (a job's kernel): @tbs TBs of @threads, @us each. */
static int reg_tb(int fd, uint32_t tbs, uint32_t threads, uint32_t us,
		  uint32_t *id)
{
	struct edge_register r;
	int ret;

	edge_register_init(&r, EDGE_FN_NOP, 8, 4, us * CYCLES_PER_US);
	r.grid_x = tbs;
	r.block_x = threads;
	ret = edge_ioc(fd, EDGE_IOC_REGISTER_EVENT, &r);
	if (!ret)
		*id = r.id;
	return ret;
}

static int submit(int fd, uint32_t queue, uint64_t deadline_ns,
		  const uint32_t *kern, uint32_t n, uint64_t user_data,
		  uint64_t *id)
{
	struct edge_job j = {
		.size = sizeof(j),
		.queue = queue,
		.nr_kernels = n,
		.deadline_ns = deadline_ns,
		.kernels = (uintptr_t)kern,
		.user_data = user_data,
	};
	int ret = edge_ioc(fd, EDGE_IOC_SUBMIT_JOB, &j);

	if (!ret && id)
		*id = j.id;
	return ret;
}

/* One REAP_JOBS call: the number copied, or -errno. */
static int reap(int fd, struct edge_job_cqe *c, uint32_t nr)
{
	struct edge_reap_jobs r = {
		.size = sizeof(r),
		.nr = nr,
		.cqes = (uintptr_t)c,
	};
	int ret = edge_ioc(fd, EDGE_IOC_REAP_JOBS, &r);

	return ret ? ret : (int)r.nr;
}

/* Reap until @want completions came, waiting in poll(); the count. */
static int reap_n(int fd, struct edge_job_cqe *c, uint32_t want,
		  unsigned int ms)
{
	uint64_t end = now_ns() + (uint64_t)ms * 1000000ULL;
	uint32_t got = 0;

	while (got < want && now_ns() < end) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		uint32_t room = want - got;
		int n;

		if (room > EDGE_JOB_CQ_ENTRIES)
			room = EDGE_JOB_CQ_ENTRIES;
		n = reap(fd, c + got, room);
		if (n < 0)
			return n;
		got += n;
		if (!n)
			poll(&pfd, 1, 20);
	}
	return got;
}

static bool readable(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLIN);
}

struct tally {
	int done, met, rejected, cancelled;
};

static struct tally count(const struct edge_job_cqe *c, int n)
{
	struct tally t = {};
	int i;

	for (i = 0; i < n; i++) {
		t.done += c[i].status == EDGE_CQE_DONE;
		t.met += c[i].met != 0;
		t.rejected += c[i].status == EDGE_CQE_REJECTED;
		t.cancelled += c[i].status == EDGE_CQE_CANCELLED;
	}
	return t;
}

/* The job ABI: sizes, natural alignment, no implicit padding. */
TEST(job_uapi_layout)
{
	EXPECT_EQ(EDGE_JOB_SIZE_VER0, sizeof(struct edge_job));
	EXPECT_EQ(EDGE_JOB_SIZE_VER0, offsetof(struct edge_job, id) + 8);
	EXPECT_EQ(0, offsetof(struct edge_job, deadline_ns) % 8);
	EXPECT_EQ(0, offsetof(struct edge_job, kernels) % 8);
	EXPECT_EQ(32, sizeof(struct edge_job_cqe));
	EXPECT_EQ(24, offsetof(struct edge_job_cqe, latency_ns));
	EXPECT_EQ(EDGE_REAP_JOBS_SIZE_VER0, sizeof(struct edge_reap_jobs));
	EXPECT_EQ(16, offsetof(struct edge_reap_jobs, cqes));
	EXPECT_EQ(0, _IOC_SIZE(EDGE_IOC_SUBMIT_JOB));
	EXPECT_EQ(0, _IOC_SIZE(EDGE_IOC_REAP_JOBS));
	EXPECT_NE(EDGE_IOC_SUBMIT_JOB, EDGE_IOC_KICK);
}

FIXTURE(vjobs) {
	int fd;
	uint32_t k;
	struct edge_job_cqe c[1024];
};

FIXTURE_SETUP(vjobs)
{
	self->fd = -1;
	EDGE_SETUP_LOAD("virtual_time=1");
	self->fd = open(EDGE_DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	/* Two GPU fills of 10 us TBs: ~20 us a kernel. */
	ASSERT_EQ(0, reg_tb(self->fd, 2 * FILL_TBS, 256, 10, &self->k));
}

FIXTURE_TEARDOWN(vjobs)
{
	if (self->fd >= 0)
		close(self->fd);
	EXPECT_EQ(0, edge_module_unload(3000));
}

/*
 * (a) LAX admission: once the CP has measured the kernel, 100 jobs of
 * two kernels on a 200 us deadline, arriving at one instant, are more
 * than the GPU can finish: most come back REJECTED, and every job is
 * accounted for, by the completions and by sysfs.
 */
TEST_F(vjobs, lax_rejects_burst)
{
	uint32_t kern[10];
	struct tally t;
	uint64_t id;
	int i, n;

	for (i = 0; i < 10; i++)
		kern[i] = self->k;
	ASSERT_EQ(0, sched_write("sched/queue_policy", "lax"));
	/*
	 * Warm-up, so that LAX's estimates come from a measured kernel.
	 * Ten kernels of ~20 us span the CP's 100 us profiling ticks, so
	 * the kernel is measured while the job runs, whenever the tick
	 * after its end comes.
	 */
	ASSERT_EQ(0, submit(self->fd, 0, 1000000000, kern, 10, 1000, &id));
	ASSERT_EQ(1, reap_n(self->fd, self->c, 1, 10000));
	EXPECT_EQ(EDGE_CQE_DONE, self->c[0].status);
	EXPECT_EQ(1000, self->c[0].user_data);
	EXPECT_EQ(id, self->c[0].id);
	EXPECT_LE(200000, self->c[0].latency_ns);
	EXPECT_FALSE(readable(self->fd));

	ASSERT_EQ(0, sched_write("sched/vt_hold", "1"));
	for (i = 0; i < 100; i++)
		ASSERT_EQ(0, submit(self->fd, i, 200000, kern, 2, i, NULL));
	ASSERT_EQ(0, sched_write("sched/vt_hold", "0"));
	n = reap_n(self->fd, self->c, 100, 20000);
	ASSERT_EQ(100, n);
	EXPECT_FALSE(readable(self->fd));
	t = count(self->c, n);
	ksft_print_msg("lax burst: %d done (%d met), %d rejected, %d cancelled\n",
		       t.done, t.met, t.rejected, t.cancelled);
	EXPECT_GT(t.rejected, 50);
	EXPECT_GT(t.done, 0);
	EXPECT_EQ(0, t.cancelled);
	EXPECT_EQ(100, t.done + t.rejected + t.cancelled);
	for (i = 0; i < n; i++)
		if (self->c[i].status == EDGE_CQE_REJECTED)
			EXPECT_EQ(0, self->c[i].met);
	/* sysfs: the warm-up job as well. */
	EXPECT_EQ(101, jobs_stat("jobs_submitted"));
	EXPECT_EQ(t.done + 1, jobs_stat("jobs_done"));
	EXPECT_EQ(t.met + 1, jobs_stat("jobs_met"));
	EXPECT_EQ(t.rejected, jobs_stat("jobs_rejected"));
	EXPECT_EQ(0, jobs_stat("jobs_cancelled"));
	EXPECT_EQ(jobs_stat("jobs_submitted"),
		  jobs_stat("jobs_done") + jobs_stat("jobs_rejected") +
		  jobs_stat("jobs_cancelled"));
}

/*
 * One batch at one instant: four jobs of a long kernel, then four of a
 * short one (each kernel fills the GPU); the sum of the short jobs'
 * positions in completion order: 4+5+6+7 when they end last.
 */
static int short_positions(struct __test_metadata *_metadata, int fd,
			   uint32_t kl, uint32_t ks, struct edge_job_cqe *c)
{
	int i, pos = 0;

	EXPECT_EQ(0, sched_write("sched/vt_hold", "1"));
	for (i = 0; i < 4; i++)
		EXPECT_EQ(0, submit(fd, i, 1000000000, &kl, 1, 1, NULL));
	for (i = 0; i < 4; i++)
		EXPECT_EQ(0, submit(fd, 4 + i, 1000000000, &ks, 1, 0, NULL));
	EXPECT_EQ(0, sched_write("sched/vt_hold", "0"));
	EXPECT_EQ(8, reap_n(fd, c, 8, 10000));
	for (i = 0; i < 8; i++) {
		EXPECT_EQ(EDGE_CQE_DONE, c[i].status);
		if (!c[i].user_data)
			pos += i;
	}
	return pos;
}

/* (b) The queue policy switched at run time orders the next jobs. */
TEST_F(vjobs, policy_switch_takes_effect)
{
	int rr, sjf, edf, rr2;
	uint32_t kl, ks;
	char buf[32];

	ASSERT_EQ(0, reg_tb(self->fd, FILL_TBS, 256, 40, &kl));
	ASSERT_EQ(0, reg_tb(self->fd, FILL_TBS, 256, 5, &ks));
	ASSERT_EQ(0, edge_sysfs_str(0, "sched/queue_policy", buf, sizeof(buf)));
	EXPECT_STREQ("rr", buf);
	rr = short_positions(_metadata, self->fd, kl, ks, self->c);
	ASSERT_EQ(0, sched_write("sched/queue_policy", "sjf"));
	ASSERT_EQ(0, edge_sysfs_str(0, "sched/queue_policy", buf, sizeof(buf)));
	EXPECT_STREQ("sjf", buf);
	sjf = short_positions(_metadata, self->fd, kl, ks, self->c);
	/* Same deadlines: EDF keeps arrival order, as round robin. */
	ASSERT_EQ(0, sched_write("sched/queue_policy", "edf"));
	edf = short_positions(_metadata, self->fd, kl, ks, self->c);
	ASSERT_EQ(0, sched_write("sched/queue_policy", "rr"));
	rr2 = short_positions(_metadata, self->fd, kl, ks, self->c);
	ksft_print_msg("short jobs' completion positions: rr %d sjf %d edf %d rr %d\n",
		       rr, sjf, edf, rr2);
	/* In turn: the longs, launched first, end first. */
	EXPECT_EQ(4 + 5 + 6 + 7, rr);
	/* Shortest first: only the long already on the GPU ends before. */
	EXPECT_GE(1 + 2 + 3 + 4, sjf);
	EXPECT_EQ(rr, edf);
	EXPECT_EQ(rr, rr2);
	EXPECT_EQ(32, jobs_stat("jobs_done"));
	EXPECT_EQ(32, jobs_stat("jobs_met"));
}

/* EDF against round robin: later jobs with earlier deadlines go first. */
TEST_F(vjobs, edf_orders_by_deadline)
{
	int policy, i, pos[2] = { 0, 0 };
	const char *names[2] = { "rr", "edf" };
	uint32_t k;

	ASSERT_EQ(0, reg_tb(self->fd, FILL_TBS, 256, 20, &k));
	for (policy = 0; policy < 2; policy++) {
		ASSERT_EQ(0, sched_write("sched/queue_policy", names[policy]));
		ASSERT_EQ(0, sched_write("sched/vt_hold", "1"));
		/* Late deadlines first, then early ones. */
		for (i = 0; i < 8; i++)
			ASSERT_EQ(0, submit(self->fd, i,
					    i < 4 ? 1000000000 : 10000000,
					    &k, 1, i < 4, NULL));
		ASSERT_EQ(0, sched_write("sched/vt_hold", "0"));
		ASSERT_EQ(8, reap_n(self->fd, self->c, 8, 10000));
		for (i = 0; i < 8; i++)
			if (!self->c[i].user_data)
				pos[policy] += i;
	}
	ksft_print_msg("early-deadline jobs' positions: rr %d edf %d\n",
		       pos[0], pos[1]);
	EXPECT_EQ(4 + 5 + 6 + 7, pos[0]);
	EXPECT_GE(1 + 2 + 3 + 4, pos[1]);
}

/*
 * Two deadline classes in one stream, per SUBMIT_JOB: four jobs with a
 * 1 s deadline and four with 5 us, shorter than their kernel's ~20 us
 * alone.  LAX refuses the tight class (infeasible by its kernel's offline
 * profile) and meets the loose one; EDF admits everything, runs the
 * tight jobs first (earliest deadline), and they end late.
 */
TEST_F(vjobs, lax_refuses_infeasible_class)
{
	const char *pol[2] = { "lax", "edf" };
	struct tally t;
	int p, i, n;

	for (p = 0; p < 2; p++) {
		int tight_rej = 0, tight_late = 0, loose_met = 0;

		ASSERT_EQ(0, sched_write("sched/queue_policy", pol[p]));
		ASSERT_EQ(0, sched_write("sched/vt_hold", "1"));
		for (i = 0; i < 8; i++)
			ASSERT_EQ(0, submit(self->fd, i, i % 2 ? 5000 : 1000000000,
					    &self->k, 1, i % 2, NULL));
		ASSERT_EQ(0, sched_write("sched/vt_hold", "0"));
		n = reap_n(self->fd, self->c, 8, 10000);
		ASSERT_EQ(8, n);
		t = count(self->c, n);
		EXPECT_EQ(8, t.done + t.rejected);
		for (i = 0; i < n; i++) {
			if (!self->c[i].user_data) {
				loose_met += self->c[i].met != 0;
				continue;
			}
			tight_rej += self->c[i].status == EDGE_CQE_REJECTED;
			tight_late += self->c[i].status == EDGE_CQE_DONE &&
				      !self->c[i].met;
		}
		ksft_print_msg("%s: tight refused %d, tight late %d, loose met %d\n",
			       pol[p], tight_rej, tight_late, loose_met);
		EXPECT_EQ(4, loose_met);
		EXPECT_EQ(p == 0 ? 4 : 0, tight_rej);
		EXPECT_EQ(p == 0 ? 0 : 4, tight_late);
	}
}

/* Counters of the job path, to check that a failed call changed none. */
static void expect_untouched(struct __test_metadata *_metadata, int fd,
			     long long submitted)
{
	struct edge_job_cqe c;

	EXPECT_EQ(submitted, jobs_stat("jobs_submitted"));
	EXPECT_EQ(0, reap(fd, &c, 1));
	EXPECT_FALSE(readable(fd));
}

/*
 * The CP's costs and periods (cp/): defaults as documented, range
 * checked (a bad write is EINVAL and changes nothing), and the parse cost
 * takes effect: with 20 us per stream action a job's first kernel cannot
 * end before 40 us.
 */
TEST_F(vjobs, cp_knobs)
{
	static const char *const name[] = {
		"cp/parse_ns", "cp/host_ns", "cp/predict_ns", "cp/profile_ns",
		"cp/prema_ns",
	};
	static const long long def[] = { 500, 4000, 50000, 100000, 250000 };
	struct edge_job_cqe c;
	uint32_t kern = self->k;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(name); i++)
		EXPECT_EQ(def[i], edge_sysfs_read(0, name[i])) TH_LOG("knob %u", i);
	EXPECT_EQ(-EINVAL, edge_sysfs_write(0, "cp/profile_ns", "999"));
	EXPECT_EQ(-EINVAL, edge_sysfs_write(0, "cp/prema_ns", "0"));
	EXPECT_EQ(-EINVAL, edge_sysfs_write(0, "cp/host_ns", "1000000001"));
	EXPECT_EQ(-EINVAL, edge_sysfs_write(0, "cp/parse_ns", "-1"));
	EXPECT_EQ(-EINVAL, edge_sysfs_write(0, "cp/parse_ns", "x"));
	for (i = 0; i < ARRAY_SIZE(name); i++)
		EXPECT_EQ(def[i], edge_sysfs_read(0, name[i])) TH_LOG("knob %u", i);
	ASSERT_EQ(0, edge_sysfs_write(0, "cp/parse_ns", "20000"));
	EXPECT_EQ(20000, edge_sysfs_read(0, "cp/parse_ns"));
	ASSERT_EQ(0, submit(self->fd, 0, 100000000ULL, &kern, 1, 7, NULL));
	ASSERT_EQ(1, reap_n(self->fd, &c, 1, 5000));
	EXPECT_EQ(EDGE_CQE_DONE, c.status);
	EXPECT_GE(c.latency_ns, 40000ULL);
	ASSERT_EQ(0, edge_sysfs_write(0, "cp/parse_ns", "500"));
}

/* (c) Bad input fails, with the ABI's errno, and changes nothing. */
TEST_F(vjobs, bad_input_changes_nothing)
{
	static uint32_t many[EDGE_JOB_MAX_KERNELS + 1];
	struct {
		struct edge_job j;
		uint8_t tail[8];
	} big;
	struct edge_reap_jobs rj;
	struct edge_job_cqe c;
	struct edge_job j;
	uint32_t kern[1] = { self->k }, other, unused = 40, i;
	int fd2;
	void *unmapped;

	fd2 = open(EDGE_DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, reg_tb(fd2, 8, 64, 1, &other));
	unmapped = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, unmapped);
	munmap(unmapped, 4096);

	/* Struct sizes, as every input struct of the ABI. */
	memset(&j, 0, sizeof(j));
	j.size = EDGE_JOB_SIZE_VER0 - 8;
	j.nr_kernels = 1;
	j.deadline_ns = 1000000;
	j.kernels = (uintptr_t)kern;
	EXPECT_EQ(-E2BIG, edge_ioc(self->fd, EDGE_IOC_SUBMIT_JOB, &j));
	EXPECT_EQ(sizeof(struct edge_job), j.size);
	memset(&big, 0, sizeof(big));
	big.j.size = sizeof(big);
	big.j.nr_kernels = 1;
	big.j.deadline_ns = 1000000;
	big.j.kernels = (uintptr_t)kern;
	big.tail[3] = 1;
	EXPECT_EQ(-E2BIG, edge_ioc(self->fd, EDGE_IOC_SUBMIT_JOB, &big));
	EXPECT_EQ(sizeof(struct edge_job), big.j.size);
	EXPECT_EQ(-EFAULT, edge_ioc(self->fd, EDGE_IOC_SUBMIT_JOB, unmapped));
	expect_untouched(_metadata, self->fd, 0);

	/* Fields. */
	j.size = sizeof(j);
	j.flags = 1;
	EXPECT_EQ(-EINVAL, edge_ioc(self->fd, EDGE_IOC_SUBMIT_JOB, &j));
	j.flags = 0;
	j.queue = EDGE_JOB_QUEUES;
	EXPECT_EQ(-EINVAL, edge_ioc(self->fd, EDGE_IOC_SUBMIT_JOB, &j));
	EXPECT_EQ(-EINVAL, submit(self->fd, 0, 0, kern, 1, 0, NULL));
	EXPECT_EQ(-EINVAL, submit(self->fd, 0, 1000000, kern, 0, 0, NULL));
	for (i = 0; i <= EDGE_JOB_MAX_KERNELS; i++)
		many[i] = self->k;
	EXPECT_EQ(-EINVAL, submit(self->fd, 0, 1000000, many,
				  EDGE_JOB_MAX_KERNELS + 1, 0, NULL));
	/* Another file's entry, an unused id, ids past the table. */
	EXPECT_EQ(-EINVAL, submit(self->fd, 0, 1000000, &other, 1, 0, NULL));
	EXPECT_EQ(-EINVAL, submit(self->fd, 0, 1000000, &unused, 1, 0, NULL));
	unused = 64;
	EXPECT_EQ(-EINVAL, submit(self->fd, 0, 1000000, &unused, 1, 0, NULL));
	unused = ~0U;
	EXPECT_EQ(-EINVAL, submit(self->fd, 0, 1000000, &unused, 1, 0, NULL));
	/* The kernel list, or the id, where nothing is mapped. */
	EXPECT_EQ(-EFAULT, submit(self->fd, 0, 1000000, unmapped, 1, 0, NULL));
	EXPECT_EQ(-EFAULT, submit(self->fd, 0, 1000000,
				  (uint32_t *)(uintptr_t)1, 1, 0, NULL));
	expect_untouched(_metadata, self->fd, 0);

	/* REAP_JOBS' own rules. */
	memset(&rj, 0, sizeof(rj));
	rj.size = sizeof(rj);
	rj.nr = 1;
	rj.cqes = (uintptr_t)&c;
	rj.flags = 1;
	EXPECT_EQ(-EINVAL, edge_ioc(self->fd, EDGE_IOC_REAP_JOBS, &rj));
	rj.flags = 0;
	rj.pad = 1;
	EXPECT_EQ(-EINVAL, edge_ioc(self->fd, EDGE_IOC_REAP_JOBS, &rj));
	rj.pad = 0;
	rj.nr = EDGE_JOB_CQ_ENTRIES + 1;
	EXPECT_EQ(-EINVAL, edge_ioc(self->fd, EDGE_IOC_REAP_JOBS, &rj));
	rj.size = EDGE_REAP_JOBS_SIZE_VER0 - 4;
	EXPECT_EQ(-E2BIG, edge_ioc(self->fd, EDGE_IOC_REAP_JOBS, &rj));

	/* A completion that cannot be copied out stays for the next reap. */
	ASSERT_EQ(0, submit(self->fd, 0, 1000000000, kern, 1, 7, NULL));
	ASSERT_EQ(1, jobs_stat("jobs_submitted"));
	ASSERT_EQ(1, edge_sysfs_wait_ge(0, "jobs_done", 1, 10000));
	EXPECT_TRUE(readable(self->fd));
	EXPECT_EQ(-EFAULT, reap(self->fd, unmapped, 1));
	EXPECT_TRUE(readable(self->fd));
	ASSERT_EQ(1, reap(self->fd, &c, 4));
	EXPECT_EQ(7, c.user_data);
	EXPECT_EQ(EDGE_CQE_DONE, c.status);
	expect_untouched(_metadata, self->fd, 1);

	/* An entry a job names cannot go while the job is unfinished. */
	ASSERT_EQ(0, sched_write("sched/vt_hold", "1"));
	ASSERT_EQ(0, submit(self->fd, 0, 1000000000, kern, 1, 8, NULL));
	EXPECT_EQ(-EBUSY, edge_unregister_id(self->fd, self->k));
	ASSERT_EQ(0, sched_write("sched/vt_hold", "0"));
	ASSERT_EQ(1, reap_n(self->fd, &c, 1, 10000));
	EXPECT_EQ(8, c.user_data);
	EXPECT_EQ(0, edge_unregister_id(fd2, other));
	close(fd2);
}

/*
 * The file's completion FIFO bounds its jobs: submission fails with
 * EBUSY while unfinished jobs and unreaped completions could overflow it,
 * so no completion is ever dropped.
 */
TEST_F(vjobs, fifo_full_is_ebusy)
{
	uint32_t k, i;
	int n;

	ASSERT_EQ(0, reg_tb(self->fd, 8, 64, 1, &k));
	ASSERT_EQ(0, sched_write("sched/vt_hold", "1"));
	for (i = 0; i < EDGE_JOB_CQ_ENTRIES; i++)
		ASSERT_EQ(0, submit(self->fd, i % EDGE_JOB_QUEUES, 1000000000,
				    &k, 1, i, NULL));
	EXPECT_EQ(-EBUSY, submit(self->fd, 0, 1000000000, &k, 1, 0, NULL));
	ASSERT_EQ(0, sched_write("sched/vt_hold", "0"));
	ASSERT_EQ(EDGE_JOB_CQ_ENTRIES,
		  edge_sysfs_wait_ge(0, "jobs_done", EDGE_JOB_CQ_ENTRIES,
				     20000));
	/* All ended, none reaped: still full. */
	EXPECT_EQ(-EBUSY, submit(self->fd, 0, 1000000000, &k, 1, 0, NULL));
	n = reap(self->fd, self->c, 10);
	EXPECT_EQ(10, n);
	for (i = 0; i < 10; i++)
		ASSERT_EQ(0, submit(self->fd, 0, 1000000000, &k, 1, i, NULL));
	EXPECT_EQ(-EBUSY, submit(self->fd, 0, 1000000000, &k, 1, 0, NULL));
	n = reap_n(self->fd, self->c, EDGE_JOB_CQ_ENTRIES, 20000);
	EXPECT_EQ(EDGE_JOB_CQ_ENTRIES, n);
	EXPECT_EQ(EDGE_JOB_CQ_ENTRIES + 10, jobs_stat("jobs_submitted"));
	EXPECT_EQ(EDGE_JOB_CQ_ENTRIES + 10, jobs_stat("jobs_done"));
}

/*
 * (d) Closing the file with jobs in flight cancels them: every submitted
 * job is accounted for, nothing leaks (kmemleak in the debug kernel), and
 * the module unloads.  Time is held, so none of the 40 can end first.
 */
TEST_F(vjobs, close_with_jobs_in_flight)
{
	uint32_t kern[3] = { self->k, self->k, self->k };
	int i;

	/* Two that end before, and are not cancelled by the close. */
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, submit(self->fd, i, 1000000000, kern, 3, i, NULL));
	ASSERT_EQ(2, reap_n(self->fd, self->c, 2, 10000));
	/* 40 jobs on 8 queues: five behind each that is inspected. */
	ASSERT_EQ(0, sched_write("sched/vt_hold", "1"));
	for (i = 0; i < 40; i++)
		ASSERT_EQ(0, submit(self->fd, i % 8, 1000000000, kern, 3, i,
				    NULL));
	EXPECT_EQ(-EBUSY, edge_unregister_id(self->fd, self->k));
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(42, jobs_stat("jobs_submitted"));
	EXPECT_EQ(2, jobs_stat("jobs_done"));
	EXPECT_EQ(40, jobs_stat("jobs_cancelled"));
	EXPECT_EQ(0, jobs_stat("jobs_rejected"));
	EXPECT_EQ(0, jobs_stat("registered"));
	ASSERT_EQ(0, sched_write("sched/vt_hold", "0"));
}

#define MT_THREADS	4
#define MT_JOBS		300	/* per thread */

struct mt_shared {
	int fd;
	uint32_t k;
	pthread_mutex_t lock;
	uint8_t seen[MT_THREADS * MT_JOBS + 1];
	int reaped, dup, bad, errors;
};

/* Submit MT_JOBS jobs and reap whatever completions come, any thread's. */
static void *mt_worker(void *arg)
{
	struct mt_shared *sh = arg;
	struct edge_job_cqe c[16];
	int sent = 0, i, n, tries = 0;

	while (sent < MT_JOBS && tries < 1000000) {
		int ret = submit(sh->fd, sent % EDGE_JOB_QUEUES, 1000000000,
				 &sh->k, 1, 0, NULL);

		tries++;
		if (!ret)
			sent++;
		else if (ret != -EBUSY)
			__atomic_add_fetch(&sh->errors, 1, __ATOMIC_RELAXED);
		n = reap(sh->fd, c, 16);
		if (n < 0) {
			__atomic_add_fetch(&sh->errors, 1, __ATOMIC_RELAXED);
			continue;
		}
		pthread_mutex_lock(&sh->lock);
		for (i = 0; i < n; i++) {
			if (c[i].id == 0 || c[i].id > MT_THREADS * MT_JOBS ||
			    c[i].status != EDGE_CQE_DONE)
				sh->bad++;
			else if (sh->seen[c[i].id]++)
				sh->dup++;
		}
		sh->reaped += n;
		pthread_mutex_unlock(&sh->lock);
	}
	return NULL;
}

/*
 * Threads of one file submit and reap at once: every job's completion is
 * reaped exactly once, by one of them, and EBUSY only ever means "reap
 * first".
 */
TEST_F(vjobs, threads_submit_and_reap)
{
	static struct mt_shared sh;
	pthread_t t[MT_THREADS];
	struct edge_job_cqe c[64];
	int i, n;

	memset(&sh, 0, sizeof(sh));
	sh.fd = self->fd;
	pthread_mutex_init(&sh.lock, NULL);
	ASSERT_EQ(0, reg_tb(self->fd, 8, 64, 1, &sh.k));
	for (i = 0; i < MT_THREADS; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, mt_worker, &sh));
	for (i = 0; i < MT_THREADS; i++)
		pthread_join(t[i], NULL);
	/* What is still in flight when the workers stop. */
	while (sh.reaped < MT_THREADS * MT_JOBS) {
		n = reap_n(self->fd, c, 1, 10000);
		ASSERT_EQ(1, n);
		ASSERT_LT(0, c[0].id);
		ASSERT_GE(MT_THREADS * MT_JOBS, c[0].id);
		EXPECT_EQ(0, sh.seen[c[0].id]++);
		sh.reaped++;
	}
	EXPECT_EQ(0, sh.errors);
	EXPECT_EQ(0, sh.dup);
	EXPECT_EQ(0, sh.bad);
	EXPECT_EQ(MT_THREADS * MT_JOBS, sh.reaped);
	EXPECT_EQ(MT_THREADS * MT_JOBS, jobs_stat("jobs_submitted"));
	EXPECT_EQ(MT_THREADS * MT_JOBS, jobs_stat("jobs_done"));
	EXPECT_EQ(0, reap(self->fd, c, 64));
	pthread_mutex_destroy(&sh.lock);
}

/* One name=value of sched/stats; -1 when missing. */
static long long sched_stat(const char *name)
{
	char buf[4096], key[64];
	const char *p;

	if (edge_sysfs_str(0, "sched/stats", buf, sizeof(buf)))
		return -1;
	snprintf(key, sizeof(key), "%s=", name);
	for (p = buf; (p = strstr(p, key)); p++)
		if (p == buf || p[-1] == ' ' || p[-1] == '\n')
			return strtoll(p + strlen(key), NULL, 0);
	return -1;
}

/*
 * Jobs in real time; then a process that exits while its jobs' kernels
 * run on the GPU (TBs of 1 s): all of them end CANCELLED.
 */
TEST(real_time_jobs)
{
	struct edge_job_cqe c[16];
	long long tbs;
	struct tally t;
	uint32_t k;
	pid_t pid;
	int fd, i, st;

	EDGE_SETUP_LOAD("");
	fd = open(EDGE_DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, reg_tb(fd, FILL_TBS, 256, 100, &k));
	for (i = 0; i < 16; i++)
		ASSERT_EQ(0, submit(fd, i, 10000000000ULL, &k, 1, i, NULL));
	ASSERT_EQ(16, reap_n(fd, c, 16, 30000));
	t = count(c, 16);
	EXPECT_EQ(16, t.done);
	EXPECT_EQ(16, t.met);
	/* 16 GPU fills of 100 us, one after the other. */
	for (i = 0; i < 16; i++)
		EXPECT_LE(100000ULL, c[i].latency_ns);
	close(fd);
	tbs = sched_stat("tbs_dispatched");
	EXPECT_EQ(16 * FILL_TBS, tbs);

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		uint32_t kk;

		fd = open(EDGE_DEV0, O_RDWR | O_CLOEXEC);
		if (fd < 0 || reg_tb(fd, FILL_TBS, 256, 1000000, &kk))
			_exit(1);
		for (i = 0; i < 32; i++)
			if (submit(fd, i, 10000000000ULL, &kk, 1, i, NULL))
				_exit(2);
		/* Until the first kernel is on the GPU, then exit. */
		for (i = 0; i < 5000; i++) {
			if (sched_stat("tbs_dispatched") > tbs)
				_exit(0);
			sleep_ms(1);
		}
		_exit(3);
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	ASSERT_TRUE(WIFEXITED(st));
	ASSERT_EQ(0, WEXITSTATUS(st));
	EXPECT_EQ(48, jobs_stat("jobs_submitted"));
	EXPECT_EQ(16, jobs_stat("jobs_done"));
	EXPECT_EQ(32, jobs_stat("jobs_cancelled"));
	EXPECT_LT(tbs, sched_stat("tbs_dispatched"));
	EXPECT_EQ(0, edge_module_unload(3000));
}

/*
 * Each queue policy, switched to on a fresh module, and one order its
 * defining rule decides, through SUBMIT_JOB: every job of a scenario
 * arrives at one model instant (vt_hold), so the result is the same at
 * every run (selftests/emul computes the same scenarios on the host).
 * Kernels: L fills the GPU with 40 us TBs, S with 5 us ones, M with
 * 20 us ones, H is sixteen fills of L.  The scenarios:
 *
 *   A: 4 jobs of L, then 4 of S, 1 s deadlines;
 *   B: 4 jobs of M with 1 s deadlines, then 4 with 10 ms;
 *   C: 4 jobs of S, then 4 of L;
 *   E: 8 jobs of M, the odd ones with a 5 us deadline (infeasible);
 *   H: one job of H, then 4 of S;
 *   N: 5 jobs of 8 kernels of M, the first with a 900 us deadline.
 */
enum { KL, KS, KM, KH, NR_K };

struct qscen {
	int n;
	uint8_t kern[8];
	uint64_t deadline[8];
	uint32_t nk;		/* kernels a job (each its kern[]); 0: 1 */
};

#define DL_LOOSE	1000000000ULL
static const struct qscen scen_a = { 8, { KL, KL, KL, KL, KS, KS, KS, KS },
	{ DL_LOOSE, DL_LOOSE, DL_LOOSE, DL_LOOSE, DL_LOOSE, DL_LOOSE, DL_LOOSE, DL_LOOSE } };
static const struct qscen scen_b = { 8, { KM, KM, KM, KM, KM, KM, KM, KM },
	{ DL_LOOSE, DL_LOOSE, DL_LOOSE, DL_LOOSE, 10000000, 10000000, 10000000, 10000000 } };
static const struct qscen scen_c = { 8, { KS, KS, KS, KS, KL, KL, KL, KL },
	{ DL_LOOSE, DL_LOOSE, DL_LOOSE, DL_LOOSE, DL_LOOSE, DL_LOOSE, DL_LOOSE, DL_LOOSE } };
static const struct qscen scen_e = { 8, { KM, KM, KM, KM, KM, KM, KM, KM },
	{ DL_LOOSE, 5000, DL_LOOSE, 5000, DL_LOOSE, 5000, DL_LOOSE, 5000 } };
static const struct qscen scen_h = { 5, { KH, KS, KS, KS, KS },
	{ DL_LOOSE, DL_LOOSE, DL_LOOSE, DL_LOOSE, DL_LOOSE } };
static const struct qscen scen_n = { 5, { KM, KM, KM, KM, KM },
	{ 900000, DL_LOOSE, DL_LOOSE, DL_LOOSE, DL_LOOSE }, 8 };

/* The ends of @sc under @policy: c[i] is the i-th job to end. */
static void qrun(struct __test_metadata *_metadata, const char *policy,
		 const struct qscen *sc, struct edge_job_cqe *c)
{
	uint32_t k[NR_K], kern[8];
	char buf[32], line[256];
	int fd, i, o = 0;

	EDGE_SETUP_LOAD("virtual_time=1");
	fd = open(EDGE_DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, reg_tb(fd, FILL_TBS, 256, 40, &k[KL]));
	ASSERT_EQ(0, reg_tb(fd, FILL_TBS, 256, 5, &k[KS]));
	ASSERT_EQ(0, reg_tb(fd, FILL_TBS, 256, 20, &k[KM]));
	ASSERT_EQ(0, reg_tb(fd, 16 * FILL_TBS, 256, 40, &k[KH]));
	ASSERT_EQ(0, sched_write("sched/queue_policy", policy));
	ASSERT_EQ(0, edge_sysfs_str(0, "sched/queue_policy", buf, sizeof(buf)));
	ASSERT_STREQ(policy, buf);
	ASSERT_EQ(0, sched_write("sched/vt_hold", "1"));
	for (i = 0; i < sc->n; i++) {
		uint32_t j, nk = sc->nk ? sc->nk : 1;

		for (j = 0; j < nk; j++)
			kern[j] = k[sc->kern[i]];
		ASSERT_EQ(0, submit(fd, i, sc->deadline[i], kern, nk, i, NULL));
	}
	ASSERT_EQ(0, sched_write("sched/vt_hold", "0"));
	ASSERT_EQ(sc->n, reap_n(fd, c, sc->n, 20000));
	EXPECT_FALSE(readable(fd));
	/* The ends, as selftests/emul prints them: R refused, @ latency in us. */
	for (i = 0; i < sc->n; i++)
		o += snprintf(line + o, sizeof(line) - o, " %s%llu@%llu",
			      c[i].status == EDGE_CQE_REJECTED ? "R" : "",
			      (unsigned long long)c[i].user_data,
			      (unsigned long long)c[i].latency_ns / 1000);
	ksft_print_msg("%s:%s\n", policy, line);
	close(fd);
	EXPECT_EQ(0, edge_module_unload(3000));
}

/* Where job @ud ended (0: first), or -1. */
static int qpos(const struct edge_job_cqe *c, int n, uint64_t ud)
{
	int i;

	for (i = 0; i < n; i++)
		if (c[i].user_data == ud)
			return i;
	return -1;
}

/* The sum of the positions of jobs @from to @to. */
static int qpos_sum(const struct edge_job_cqe *c, int n, int from, int to)
{
	int s = 0, i;

	for (i = from; i <= to; i++)
		s += qpos(c, n, i);
	return s;
}

/* E: the infeasible (odd) jobs refused, the others done in time. */
static void expect_odd_refused(struct __test_metadata *_metadata,
			       const struct edge_job_cqe *c)
{
	int i;

	for (i = 0; i < 8; i++)
		EXPECT_EQ(c[i].user_data & 1 ? EDGE_CQE_REJECTED : EDGE_CQE_DONE,
			  c[i].status) TH_LOG("job %llu", (unsigned long long)c[i].user_data);
	for (i = 0; i < 8; i++)
		if (!(c[i].user_data & 1))
			EXPECT_TRUE(c[i].met);
}

TEST(queue_policies_by_their_order)
{
	struct edge_job_cqe c[8];
	int i;

	if (geteuid())
		SKIP(return, "insmod needs root");
	/* RR: in turn, so in arrival order. */
	qrun(_metadata, "rr", &scen_a, c);
	for (i = 0; i < 8; i++)
		EXPECT_EQ(i, c[i].user_data);
	qrun(_metadata, "rr", &scen_n, c);
	EXPECT_EQ(0, qpos(c, 5, 0));
	/*
	 * MLFQ: the first job, demoted from a third to two thirds of its
	 * deadline (300-600 us), loses its turns then, and ends last (in
	 * time: 900 us).
	 */
	qrun(_metadata, "mlfq", &scen_n, c);
	EXPECT_EQ(4, qpos(c, 5, 0));
	EXPECT_TRUE(c[4].met);
	/* SJF: the shorts first (only the long launched first ends before). */
	qrun(_metadata, "sjf", &scen_a, c);
	EXPECT_GE(1 + 2 + 3 + 4, qpos_sum(c, 8, 4, 7));
	/* LJF: the longs first, though they came last. */
	qrun(_metadata, "ljf", &scen_c, c);
	EXPECT_LE(4 + 5 + 6 + 7 - 4, qpos_sum(c, 8, 0, 3));
	/* EDF: the 10 ms deadlines before the 1 s ones submitted first. */
	qrun(_metadata, "edf", &scen_b, c);
	EXPECT_GE(1 + 2 + 3 + 4, qpos_sum(c, 8, 4, 7));
	/* SRF: by measured remaining work, the last long waits for the shorts. */
	qrun(_metadata, "srf", &scen_a, c);
	EXPECT_EQ(7, qpos(c, 8, 3));
	/*
	 * PREMA: the short jobs, slowed most by waiting, earn their tokens
	 * first and go before the big job's remaining TBs (RR ends the big
	 * one first).  Its preemption itself changes no order here.
	 */
	qrun(_metadata, "prema", &scen_h, c);
	EXPECT_EQ(4, qpos(c, 5, 0));
	/* LAX, LAX-CPU: the infeasible deadlines refused at admission. */
	qrun(_metadata, "lax", &scen_e, c);
	expect_odd_refused(_metadata, c);
	qrun(_metadata, "lax-cpu", &scen_e, c);
	expect_odd_refused(_metadata, c);
	/*
	 * LAX-SW: the static rank, laxity at admission: the last admitted,
	 * behind the most queued work, has the least, and goes first.
	 */
	qrun(_metadata, "lax-sw", &scen_b, c);
	for (i = 0; i < 8; i++)
		EXPECT_EQ(7 - i, c[i].user_data);
	/* LAX-P: LAX's steps, then the shortest remaining: as SRF here. */
	qrun(_metadata, "lax-p", &scen_a, c);
	EXPECT_EQ(7, qpos(c, 8, 3));
	/* BatchMaker: the jobs of one kernel run it as one batch. */
	qrun(_metadata, "bat", &scen_a, c);
	for (i = 0; i < 8; i++)
		EXPECT_EQ(c[i & 4].latency_ns, c[i].latency_ns) TH_LOG("end %d", i);
	EXPECT_NE(c[0].latency_ns, c[4].latency_ns);
	/* Baymax: least QoS headroom first: the 10 ms jobs after the first. */
	qrun(_metadata, "bay", &scen_b, c);
	EXPECT_GE(1 + 2 + 3 + 4, qpos_sum(c, 8, 4, 7));
	/* Prophet: refuses what it predicts late. */
	qrun(_metadata, "pro", &scen_e, c);
	expect_odd_refused(_metadata, c);
}

EDGE_FINAL_CHECKS

/*
 * The thread-block policy per device at run time (Pai et al.'s SRTF):
 * a long kernel (40 GPU fills of 10 us TBs, ~400 us) then a short one
 * (64 TBs of 64 threads and 2 us: four cores' worth) at one model
 * instant.  Under FIFO (the default) the short one waits until every
 * long TB is placed: ~400 us.  SRTF samples it on core 0 (at once when
 * both reach the dispatcher in one pass, else when a long TB ends there),
 * finds it shorter, and takes the other cores as their long TBs end
 * (10 us): an order of magnitude less (20 us seen).  Preempting the long
 * TBs (srtf-preempt) shortens it again (7.5 us seen).
 */
static uint64_t short_latency(struct __test_metadata *_metadata, int fd,
			      const char *tb_policy, uint32_t kl, uint32_t ks)
{
	struct edge_job_cqe c[2];
	char buf[32];
	int i;

	EXPECT_EQ(0, sched_write("sched/tb_policy", tb_policy));
	EXPECT_EQ(0, edge_sysfs_str(0, "sched/tb_policy", buf, sizeof(buf)));
	EXPECT_STREQ(tb_policy, buf);
	EXPECT_EQ(0, sched_write("sched/vt_hold", "1"));
	EXPECT_EQ(0, submit(fd, 0, 1000000000, &kl, 1, 0, NULL));
	EXPECT_EQ(0, submit(fd, 1, 1000000000, &ks, 1, 1, NULL));
	EXPECT_EQ(0, sched_write("sched/vt_hold", "0"));
	EXPECT_EQ(2, reap_n(fd, c, 2, 20000));
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(EDGE_CQE_DONE, c[i].status);
		if (c[i].user_data == 1)
			return c[i].latency_ns;
	}
	return 0;
}

TEST_F(vjobs, srtf_short_kernel_turnaround)
{
	uint64_t fifo, srtf, ours;
	uint32_t kl, ks;

	ASSERT_EQ(0, reg_tb(self->fd, 40 * FILL_TBS, 256, 10, &kl));
	ASSERT_EQ(0, reg_tb(self->fd, 64, 64, 2, &ks));
	fifo = short_latency(_metadata, self->fd, "default", kl, ks);
	srtf = short_latency(_metadata, self->fd, "srtf", kl, ks);
	ours = short_latency(_metadata, self->fd, "srtf-preempt", kl, ks);
	ksft_print_msg("short kernel's turnaround: fifo %llu ns, srtf %llu ns, srtf-preempt %llu ns\n",
		       (unsigned long long)fifo, (unsigned long long)srtf,
		       (unsigned long long)ours);
	EXPECT_LE(380000ULL, fifo);
	EXPECT_LT(0ULL, srtf);
	EXPECT_GE(fifo, 10 * srtf);
	EXPECT_LE(10000ULL, srtf);	/* a sample needs a long TB's end */
	EXPECT_LT(ours, srtf);
	EXPECT_EQ(0, sched_write("sched/tb_policy", "default"));
	EXPECT_EQ(6, jobs_stat("jobs_done"));
}

EDGE_SELFTEST_MAIN
