/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the edge.ko kselftests: loading and unloading the
 * module, reading its sysfs counters, time, and raw ioctl wrappers.
 *
 * Every suite loads edge.ko ($EDGE_KO, default /edge/edge.ko) in its
 * fixture set-up, with the parameters the fixture needs, and unloads it
 * in the tear-down, so each test starts from zeroed counters and an empty
 * event kernel table.  main() makes sure the module is gone at the end.
 *
 * Include after kselftest_harness.h.
 */
#ifndef _EDGE_SELFTEST_H
#define _EDGE_SELFTEST_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <linux/edge.h>
#include "libedge.h"

#define EDGE_DEV0		"/dev/edge0"
#define EDGE_SYSFS		"/sys/class/edge"

/* The "edge" preset's clock: 700 MHz, so 700 cycles a microsecond. */
#define CYCLES_PER_US		700ULL
#define CYCLES_MS(ms)		((uint64_t)(ms) * 1000 * CYCLES_PER_US)

/* Taint bits (Documentation/admin-guide/tainted-kernels.rst). */
#define TAINT_WARN_BIT		(1UL << 9)	/* W: 512 */
#define TAINT_DIE_BIT		(1UL << 7)	/* D: 128 */
#define TAINT_OOT_BIT		(1UL << 12)	/* O: 4096 */
#define TAINT_UNSIGNED_BIT	(1UL << 13)	/* E: 8192 */

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static inline void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * A bound the guest runner sets (tools/vm/guest.sh: shorter on the debug
 * kernel): @name's number, or @def when unset or empty.
 */
static inline unsigned int edge_env_uint(const char *name, unsigned int def)
{
	const char *v = getenv(name);

	return v && *v ? (unsigned int)strtoul(v, NULL, 0) : def;
}

static inline const char *edge_ko_path(void)
{
	const char *p = getenv("EDGE_KO");

	return p && *p ? p : "/edge/edge.ko";
}

static inline int edge_module_loaded(void)
{
	char line[256];
	FILE *f = fopen("/proc/modules", "r");
	int found = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "edge ", 5))
			found = 1;
	fclose(f);
	return found;
}

/*
 * rmmod edge.  One try: returns 0 or -errno (EAGAIN/EWOULDBLOCK while the
 * module is in use, ENOENT when it is not loaded).
 */
static inline int edge_module_unload_once(void)
{
	if (syscall(__NR_delete_module, "edge", O_NONBLOCK))
		return -errno;
	return 0;
}

/*
 * rmmod edge, waiting up to @ms for late references (a process that was
 * just killed) to go.  Not loaded counts as success.
 */
static inline int edge_module_unload(unsigned int ms)
{
	uint64_t end = now_ns() + (uint64_t)ms * 1000000ULL;
	int ret;

	for (;;) {
		ret = edge_module_unload_once();
		if (!ret || ret == -ENOENT)
			return 0;
		if (ret != -EAGAIN || now_ns() > end)
			return ret;
		sleep_ms(10);
	}
}

/* insmod $EDGE_KO @params, first unloading what a failed test left. */
static inline int edge_module_load(const char *params)
{
	int fd, ret;

	ret = edge_module_unload(3000);
	if (ret)
		return ret;
	fd = open(edge_ko_path(), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(__NR_finit_module, fd, params ? params : "", 0) ? -errno : 0;
	close(fd);
	return ret;
}

/* The number in the file at @path (a sysfs attribute); -1 on error. */
static inline long long edge_path_read(const char *path)
{
	char buf[64];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return strtoll(buf, NULL, 0);
}

/* sysfs attribute of /sys/class/edge/edge@dev; -1 on error. */
static inline long long edge_sysfs_read(int dev, const char *attr)
{
	char path[128];

	snprintf(path, sizeof(path), EDGE_SYSFS "/edge%d/%s", dev, attr);
	return edge_path_read(path);
}

/* Write @val to the file @path (one write): 0 or -errno. */
static inline int edge_path_write(const char *path, const char *val)
{
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* A file's text, its trailing newline dropped; -errno on error. */
static inline int edge_path_str(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = 0;
	return 0;
}

static inline int edge_sysfs_str(int dev, const char *attr, char *buf,
				 size_t len)
{
	char path[128];

	snprintf(path, sizeof(path), EDGE_SYSFS "/edge%d/%s", dev, attr);
	return edge_path_str(path, buf, len);
}

static inline int edge_sysfs_write(int dev, const char *attr, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), EDGE_SYSFS "/edge%d/%s", dev, attr);
	return edge_path_write(path, val);
}

/* A knob of device 0's sysfs directory, as the tests write them. */
static inline int sched_write(const char *attr, const char *val)
{
	return edge_sysfs_write(0, attr, val);
}

/* NAME's value in a buffer of "name=value" words; -1 when absent. */
static inline long long stat_value(const char *buf, const char *name)
{
	char key[64];
	const char *p;

	snprintf(key, sizeof(key), "%s=", name);
	for (p = buf; (p = strstr(p, key)); p++)
		if (p == buf || p[-1] == ' ' || p[-1] == '\n')
			return strtoll(p + strlen(key), NULL, 0);
	return -1;
}

#ifdef __KSELFTEST_HARNESS_H	/* the waits assert, as tests do */
/* Wait (5 s at most) until queue @q has had @n events dispatched. */
static inline void wait_dispatched(struct __test_metadata *_metadata,
				   struct edge_queue *q, uint32_t n)
{
	uint64_t end = now_ns() + 5000000000ULL;

	while (edge_queue_dispatched(q) != n) {
		ASSERT_LT(now_ns(), end) TH_LOG("queue %u: %u of %u dispatched",
						q->id, edge_queue_dispatched(q), n);
		sleep_ms(1);
	}
}

/*
 * Wait (5 s at most) until device 0 has placed a thread block: the
 * background's TBs are on the cores.  Its parameter entry being consumed
 * is not enough: the front end polls every entry before it places
 * anything, so events rung meanwhile can join the same pass and, with
 * their higher priority, be placed first on an empty GPU (seen on the
 * slower debug kernel).
 */
static inline void wait_placed(struct __test_metadata *_metadata)
{
	uint64_t end = now_ns() + 5000000000ULL;
	char buf[2048];

	for (;;) {
		ASSERT_EQ(0, edge_sysfs_str(0, "sched/stats", buf, sizeof(buf)));
		if (stat_value(buf, "tbs_dispatched") > 0)
			return;
		ASSERT_LT(now_ns(), end) TH_LOG("background never placed");
		sleep_ms(1);
	}
}
#endif

/* Poll a sysfs counter until it reaches @want (>=); returns the last value. */
static inline long long edge_sysfs_wait_ge(int dev, const char *attr,
					   long long want, unsigned int ms)
{
	uint64_t end = now_ns() + (uint64_t)ms * 1000000ULL;
	long long v;

	for (;;) {
		v = edge_sysfs_read(dev, attr);
		if (v >= want || now_ns() > end)
			return v;
		sleep_ms(1);
	}
}

/*
 * Wait (@ms at most) until the front end of device @dev has looked at
 * every doorbell after this call began, and found nothing left to do:
 * the condition a test waits on before asserting that nothing happened.
 * The front end goes to sleep only after a last look at every registered
 * entry's doorbell (frontend_sleep(): NEED_WAKEUP, a full barrier, then
 * edge_model_doorbell_pending()), and counts the sleep ("sleeps", read
 * under the device lock, so an increase seen here was counted after the
 * first read).  A store to poll_idle_us of its own value wakes a sleeping
 * front end (a time-less sleep would never end by itself): it rescans
 * every doorbell, steps, and sleeps again.  Returns 0, or -ETIME.
 */
static inline int edge_frontend_settle(int dev, unsigned int ms)
{
	long long s0 = edge_sysfs_read(dev, "sleeps");
	long long idle = edge_sysfs_read(dev, "poll_idle_us");
	char v[24];
	int ret;

	if (s0 < 0 || idle < 0)
		return -ENOENT;
	snprintf(v, sizeof(v), "%lld", idle);
	ret = edge_sysfs_write(dev, "poll_idle_us", v);
	if (ret)
		return ret;
	return edge_sysfs_wait_ge(dev, "sleeps", s0 + 1, ms) > s0 ? 0 : -ETIME;
}

static inline long edge_taint(void)
{
	char buf[32] = "";
	FILE *f = fopen("/proc/sys/kernel/tainted", "r");

	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return strtol(buf, NULL, 0);
}

/*
 * Load edge.ko in a fixture set-up.  Without privilege the test is
 * skipped: the 6.1 harness runs the test body after a SKIP in set-up, so
 * leave the test process straight away (exit 255 is its skip code).
 */
#define EDGE_SETUP_LOAD(params) do {					\
	int __r = edge_module_load(params);				\
	if (__r == -EPERM && geteuid())					\
		SKIP(_exit(255), "loading edge.ko needs root");		\
	ASSERT_EQ(0, __r) TH_LOG("insmod %s %s: %s", edge_ko_path(),	\
				 (params), strerror(-__r));	\
} while (0)

/* Raw ioctls: 0 or -errno. */
static inline int edge_ioc(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? -errno : 0;
}

static inline int edge_ioc_kick(int fd, unsigned long arg)
{
	return ioctl(fd, EDGE_IOC_KICK, arg) ? -errno : 0;
}

static inline int edge_unregister_id(int fd, uint32_t id)
{
	struct edge_unregister u = { .size = sizeof(u), .id = id };

	return edge_ioc(fd, EDGE_IOC_UNREGISTER_EVENT, &u);
}

/* Unmap a queue's rings without unregistering (the file's release will). */
static inline void edge_queue_drop(struct edge_queue *q)
{
	if (q->sq_map)
		munmap(q->sq_map, q->sq_len);
	if (q->cq_map)
		munmap(q->cq_map, q->cq_len);
	memset(q, 0, sizeof(*q));
}

/* Wait for the kernel's completion count of @q to reach @n. */
static inline int edge_queue_wait_tail(struct edge_queue *q, uint32_t n,
				       unsigned int ms)
{
	uint64_t end = now_ns() + (uint64_t)ms * 1000000ULL;

	while ((int32_t)(__atomic_load_n(q->cq_tail, __ATOMIC_ACQUIRE) - n) < 0) {
		struct pollfd pfd = { .fd = q->dev->fd, .events = POLLIN };

		if (now_ns() > end)
			return -ETIME;
		/* Readable while anything is unreaped: just nap then. */
		if (poll(&pfd, 1, 10) > 0)
			sleep_ms(1);
	}
	return 0;
}

/* The completion entry of event @seq as it is now (no libedge checks). */
static inline struct edge_cqe edge_queue_raw_cqe(const struct edge_queue *q,
						 uint32_t seq)
{
	struct edge_cqe c;
	const struct edge_cqe *p = &q->cqes[seq & (q->entries - 1)];

	c.status = __atomic_load_n(&p->status, __ATOMIC_ACQUIRE);
	c.res = __atomic_load_n(&p->res, __ATOMIC_RELAXED);
	return c;
}

/* kill and reap a child; returns its wait status. */
static inline int edge_reap(pid_t pid, int sig)
{
	int st = 0;

	if (pid <= 0)
		return 0;
	if (sig)
		kill(pid, sig);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return st;
}

/*
 * main() for the suites: run the harness, then make sure edge.ko is not
 * left loaded (the tear-downs unload it; a test killed on time-out may
 * not have).  A module that cannot be unloaded fails the suite.
 */
static void edge_selftest_atexit(void)
{
	if (!edge_module_loaded())
		return;
	if (edge_module_unload(5000)) {
		printf("# edge.ko left loaded and cannot be unloaded\n");
		fflush(stdout);
		_exit(KSFT_FAIL);
	}
}

/*
 * The last fixture of a suite (fixtures run in declaration order, after
 * the plain TEST()s): no test warned or oopsed, and the module was left
 * unloaded.  The taint bits O and E are what an unsigned out-of-tree
 * module sets by itself, so they are masked.
 */
#define EDGE_FINAL_CHECKS						\
FIXTURE(final) {							\
	int unused;							\
};									\
FIXTURE_SETUP(final) {}							\
FIXTURE_TEARDOWN(final) {}						\
TEST_F(final, module_unloaded)						\
{									\
	EXPECT_FALSE(edge_module_loaded());				\
}									\
TEST_F(final, kernel_not_tainted)					\
{									\
	long t = edge_taint();						\
									\
	ASSERT_LE(0, t);						\
	EXPECT_EQ(0, t & (TAINT_WARN_BIT | TAINT_DIE_BIT))		\
		TH_LOG("tainted %ld (W=512, D=128; O|E=12288 masked)", t); \
}

#define EDGE_SELFTEST_MAIN					\
	int main(int argc, char **argv)				\
	{							\
		atexit(edge_selftest_atexit);			\
		return test_harness_run(argc, argv);		\
	}

#endif /* _EDGE_SELFTEST_H */
