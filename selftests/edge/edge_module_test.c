// SPDX-License-Identifier: GPL-2.0
/*
 * edge.ko: the module's life cycle.  Parameters (presets, devices, time
 * mode, poll window), sysfs, rmmod while the device is in use, a process
 * killed in the middle of a stream, and devices that do not share state.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <linux/capability.h>

#include "kselftest_harness.h"
#include "edge_selftest.h"

#define load_acquire(p)		__atomic_load_n(p, __ATOMIC_ACQUIRE)

static int dev_path(char *buf, size_t len, int dev)
{
	return snprintf(buf, len, "/dev/edge%d", dev);
}

static int path_exists(const char *p)
{
	struct stat st;

	return !stat(p, &st);
}

/* One ECHO event through a fresh entry of @path; 0 when it came back. */
static int one_event(const char *path, uint32_t val)
{
	struct edge_register reg;
	struct edge_queue q;
	struct edge_dev d;
	struct edge_cqe c;
	uint32_t *p;
	int ret;

	ret = edge_open(&d, path);
	if (ret)
		return ret;
	edge_register_init(&reg, EDGE_FN_ECHO, 8, 4, 700);
	ret = edge_queue_create(&d, &reg, &q);
	if (ret)
		goto out;
	p = edge_queue_param(&q);
	p[0] = val;
	edge_queue_submit(&q, 1);
	ret = edge_queue_wait(&q, &c, 5000);
	if (!ret && (c.status != EDGE_CQE_STATUS(EDGE_CQE_DONE, 0) ||
		     c.res != val))
		ret = -EIO;
	edge_queue_cqe_seen(&q);
	if (!ret)
		ret = edge_queue_destroy(&q);
	else
		edge_queue_drop(&q);
out:
	edge_close(&d);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Load-time parameters: good ones show in GET_INFO and sysfs.          */

FIXTURE(params) {
	int unused;
};

FIXTURE_VARIANT(params) {
	const char *params;
	int err;		/* insmod fails with this */
	int nr_devices;
	const char *preset;
	uint32_t warp_size, num_cores, clock_khz, smem;
	uint32_t time_mode;
	uint32_t poll_idle_us;
};

#define EDGE_PRESET	.preset = "edge", .warp_size = 32, .num_cores = 16, \
			.clock_khz = 700000, .smem = 48 * 1024

FIXTURE_VARIANT_ADD(params, defaults) {
	.params = "", .nr_devices = 1, EDGE_PRESET, .poll_idle_us = 1000,
};

FIXTURE_VARIANT_ADD(params, preset_lax) {
	.params = "preset=lax", .nr_devices = 1, .preset = "lax",
	.warp_size = 64, .num_cores = 8, .clock_khz = 1500000,
	.smem = 64 * 1024, .poll_idle_us = 1000,
};

FIXTURE_VARIANT_ADD(params, preset_h100) {
	.params = "preset=h100-like", .nr_devices = 1, .preset = "h100-like",
	.warp_size = 32, .num_cores = 132, .clock_khz = 1980000,
	.smem = 228 * 1024, .poll_idle_us = 1000,
};

FIXTURE_VARIANT_ADD(params, two_devices) {
	.params = "nr_devices=2", .nr_devices = 2, EDGE_PRESET,
	.poll_idle_us = 1000,
};

FIXTURE_VARIANT_ADD(params, eight_devices) {
	.params = "nr_devices=8 poll_idle_us=50", .nr_devices = 8, EDGE_PRESET,
	.poll_idle_us = 50,
};

FIXTURE_VARIANT_ADD(params, virtual_time) {
	.params = "virtual_time=1", .nr_devices = 1, EDGE_PRESET,
	.time_mode = EDGE_TIME_VIRTUAL, .poll_idle_us = 1000,
};

FIXTURE_VARIANT_ADD(params, poll_idle_0) {
	.params = "poll_idle_us=0", .nr_devices = 1, EDGE_PRESET,
	.poll_idle_us = 0,
};

FIXTURE_VARIANT_ADD(params, bad_preset) {
	.params = "preset=bogus", .err = EINVAL,
};

/* None at load: netlink's dev add makes them (edge_netlink_test.c). */
FIXTURE_VARIANT_ADD(params, zero_devices) {
	.params = "nr_devices=0", .nr_devices = 0, EDGE_PRESET,
	.poll_idle_us = 1000,
};

FIXTURE_VARIANT_ADD(params, too_many_devices) {
	.params = "nr_devices=65", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(params, bad_number) {
	.params = "poll_idle_us=lots", .err = EINVAL,
};

FIXTURE_SETUP(params)
{
	int ret = edge_module_unload(3000);

	ASSERT_EQ(0, ret) TH_LOG("rmmod: %s", strerror(-ret));
}

FIXTURE_TEARDOWN(params)
{
	EXPECT_EQ(0, edge_module_unload(3000));
}

TEST_F(params, load)
{
	char path[64], s[64];
	struct edge_dev d;
	int i, ret;

	ret = edge_module_load(variant->params);
	if (ret == -EPERM && geteuid())
		SKIP(return, "loading edge.ko needs root");
	if (variant->err) {
		EXPECT_EQ(-variant->err, ret);
		EXPECT_FALSE(edge_module_loaded());
		EXPECT_FALSE(path_exists(EDGE_DEV0));
		EXPECT_FALSE(path_exists(EDGE_SYSFS));
		return;
	}
	ASSERT_EQ(0, ret) TH_LOG("insmod %s: %s", variant->params,
				 strerror(-ret));
	for (i = 0; i < variant->nr_devices; i++) {
		dev_path(path, sizeof(path), i);
		ret = edge_open(&d, path);
		ASSERT_EQ(0, ret) TH_LOG("open %s: %s", path, strerror(-ret));
		EXPECT_STREQ(variant->preset, (char *)d.info.preset);
		EXPECT_EQ(variant->warp_size, d.info.warp_size);
		EXPECT_EQ(variant->num_cores, d.info.num_cores);
		EXPECT_EQ(variant->clock_khz, d.info.clock_khz);
		EXPECT_EQ(variant->smem, d.info.max_smem_per_block);
		EXPECT_EQ(variant->time_mode, d.info.time_mode);
		EXPECT_EQ(variant->poll_idle_us, d.info.poll_idle_us);
		edge_close(&d);

		ASSERT_EQ(0, edge_sysfs_str(i, "preset", s, sizeof(s)));
		EXPECT_STREQ(variant->preset, s);
		ASSERT_EQ(0, edge_sysfs_str(i, "time_mode", s, sizeof(s)));
		EXPECT_STREQ(variant->time_mode ? "virtual" : "real", s);
		EXPECT_EQ(variant->poll_idle_us,
			  edge_sysfs_read(i, "poll_idle_us"));

		/* Every device runs events. */
		ret = one_event(path, 0xabc0 + i);
		EXPECT_EQ(0, ret) TH_LOG("%s: event: %s", path, strerror(-ret));
		EXPECT_EQ(1, edge_sysfs_read(i, "completed"));
	}
	dev_path(path, sizeof(path), variant->nr_devices);
	EXPECT_FALSE(path_exists(path));
}

/* ------------------------------------------------------------------ */

FIXTURE(module) {
	int unused;
};

FIXTURE_SETUP(module)
{
	EDGE_SETUP_LOAD("");
}

FIXTURE_TEARDOWN(module)
{
	EXPECT_EQ(0, edge_module_unload(3000));
}

/* Every attribute is there, counters start at zero, poll_idle_us writes. */
TEST_F(module, sysfs_attributes)
{
	static const char *const counters[] = {
		"submitted", "completed", "errors", "rejected", "cancelled",
		"inflight", "registered", "sleeps", "wakeups", "late",
	};
	struct edge_info info = { .size = sizeof(info) };
	char path[128];
	struct stat st;
	unsigned int i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(counters); i++) {
		snprintf(path, sizeof(path), EDGE_SYSFS "/edge0/%s",
			 counters[i]);
		ASSERT_EQ(0, stat(path, &st)) TH_LOG("%s", path);
		EXPECT_EQ(0444, st.st_mode & 0777) TH_LOG("%s", path);
		/* sleeps may already count: the front end naps when idle. */
		if (strcmp(counters[i], "sleeps")) {
			EXPECT_EQ(0, edge_sysfs_read(0, counters[i]))
				TH_LOG("%s", counters[i]);
		} else {
			EXPECT_LE(0, edge_sysfs_read(0, counters[i]));
		}
		/* Read-only. */
		EXPECT_NE(0, edge_sysfs_write(0, counters[i], "5"));
	}
	ASSERT_EQ(0, stat(EDGE_SYSFS "/edge0/poll_idle_us", &st));
	EXPECT_EQ(0644, st.st_mode & 0777);

	/* Anyone may open the device. */
	ASSERT_EQ(0, stat(EDGE_DEV0, &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(0666, st.st_mode & 0777);

	EXPECT_EQ(1000, edge_sysfs_read(0, "poll_idle_us"));
	EXPECT_EQ(0, edge_sysfs_write(0, "poll_idle_us", "250"));
	EXPECT_EQ(250, edge_sysfs_read(0, "poll_idle_us"));
	fd = open(EDGE_DEV0, O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, edge_ioc(fd, EDGE_IOC_GET_INFO, &info));
	EXPECT_EQ(250, info.poll_idle_us);
	close(fd);

	EXPECT_EQ(-EINVAL, edge_sysfs_write(0, "poll_idle_us", "lots"));
	EXPECT_EQ(-EINVAL, edge_sysfs_write(0, "poll_idle_us", "-1"));
	EXPECT_EQ(-EINVAL, edge_sysfs_write(0, "poll_idle_us", "10000001"));
	EXPECT_EQ(250, edge_sysfs_read(0, "poll_idle_us"));
	EXPECT_EQ(0, edge_sysfs_write(0, "poll_idle_us", "10000000"));
	EXPECT_EQ(10000000, edge_sysfs_read(0, "poll_idle_us"));
	EXPECT_EQ(0, edge_sysfs_write(0, "poll_idle_us", "0x10"));
	EXPECT_EQ(16, edge_sysfs_read(0, "poll_idle_us"));
}

/*
 * Changing the device for everyone needs CAP_SYS_ADMIN: root without it
 * (it can still open the file) is refused by the store itself.
 */
TEST_F(module, sysfs_write_needs_admin)
{
	pid_t pid;
	int st;

	if (geteuid())
		SKIP(return, "needs root to drop a capability");
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct __user_cap_header_struct h = {
			.version = _LINUX_CAPABILITY_VERSION_3,
		};
		struct __user_cap_data_struct c[2];

		if (syscall(__NR_capget, &h, c))
			_exit(2);
		c[CAP_SYS_ADMIN / 32].effective &= ~(1U << (CAP_SYS_ADMIN % 32));
		c[CAP_SYS_ADMIN / 32].permitted &= ~(1U << (CAP_SYS_ADMIN % 32));
		if (syscall(__NR_capset, &h, c))
			_exit(3);
		_exit(edge_sysfs_write(0, "poll_idle_us", "7") == -EPERM ? 0 : 1);
	}
	st = edge_reap(pid, 0);
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0)
		TH_LOG("status %#x", st);
	EXPECT_EQ(1000, edge_sysfs_read(0, "poll_idle_us"));
	/* With it, fine. */
	EXPECT_EQ(0, edge_sysfs_write(0, "poll_idle_us", "7"));
	EXPECT_EQ(7, edge_sysfs_read(0, "poll_idle_us"));
}

/* An open file pins the module; its close releases it. */
TEST_F(module, rmmod_busy_while_open)
{
	struct edge_info info = { .size = sizeof(info) };
	int fd;

	fd = open(EDGE_DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-EWOULDBLOCK, edge_module_unload_once());
	EXPECT_TRUE(edge_module_loaded());
	/* Still fully working. */
	EXPECT_EQ(0, edge_ioc(fd, EDGE_IOC_GET_INFO, &info));
	EXPECT_EQ(EDGE_ABI_VERSION, info.abi_version);
	EXPECT_EQ(0, one_event(EDGE_DEV0, 99));

	close(fd);
	EXPECT_EQ(0, edge_module_unload_once());
	EXPECT_FALSE(edge_module_loaded());
	EXPECT_FALSE(path_exists(EDGE_DEV0));
	EXPECT_FALSE(path_exists(EDGE_SYSFS "/edge0"));
}

/* A mapping alone (fd closed) pins it too, with events in flight. */
TEST_F(module, rmmod_busy_while_mapped)
{
	struct edge_register reg;
	struct edge_queue q;
	struct edge_dev d;
	uint32_t *p;

	ASSERT_EQ(0, edge_open(&d, EDGE_DEV0));
	edge_register_init(&reg, EDGE_FN_ECHO, 8, 4, CYCLES_MS(10000));
	ASSERT_EQ(0, edge_queue_create(&d, &reg, &q));
	p = edge_queue_param(&q);
	p[0] = 1;
	edge_queue_submit(&q, 1);
	ASSERT_EQ(1, edge_sysfs_wait_ge(0, "inflight", 1, 5000));

	close(d.fd);
	d.fd = -1;
	EXPECT_EQ(-EWOULDBLOCK, edge_module_unload_once());
	munmap(d.doorbells, d.info.doorbell_size);
	d.doorbells = NULL;
	EXPECT_EQ(-EWOULDBLOCK, edge_module_unload_once());
	EXPECT_EQ(1, edge_sysfs_read(0, "inflight"));
	edge_queue_drop(&q);
	EXPECT_EQ(1, edge_sysfs_read(0, "cancelled"));
	EXPECT_EQ(0, edge_sysfs_read(0, "inflight"));
	EXPECT_EQ(0, edge_module_unload_once());
	EXPECT_FALSE(edge_module_loaded());
}

/*
 * A process streaming events is SIGKILLed: its file goes with it, every
 * event is accounted for (completed or cancelled), and rmmod succeeds at
 * once.
 */
static void stream_child(int ready_fd)
{
	struct edge_queue fast, slow;
	struct edge_register reg;
	struct edge_dev d;
	struct edge_cqe c;
	uint32_t n = 0, *p;
	int i;

	if (edge_open(&d, EDGE_DEV0))
		_exit(10);
	/* A slow entry with events that are in flight when we die. */
	edge_register_init(&reg, EDGE_FN_NOP, 8, 4, CYCLES_MS(10000));
	if (edge_queue_create(&d, &reg, &slow))
		_exit(11);
	for (i = 0; i < 4; i++) {
		p = edge_queue_param(&slow);
		p[0] = i;
		edge_queue_submit(&slow, 1);
	}
	edge_register_init(&reg, EDGE_FN_ECHO, 8, 64, 2300);
	if (edge_queue_create(&d, &reg, &fast))
		_exit(12);
	if (write(ready_fd, "r", 1) != 1)
		_exit(13);
	for (;;) {
		while ((p = edge_queue_param(&fast))) {
			p[0] = n++;
			edge_queue_submit(&fast, 1);
		}
		if (edge_queue_wait(&fast, &c, 5000))
			_exit(14);
		while (edge_queue_peek(&fast, &c)) {
			if (c.res != fast.head)
				_exit(15);
			edge_queue_cqe_seen(&fast);
		}
	}
}

TEST_F_TIMEOUT(module, sigkill_mid_stream, 30)
{
	long long sub, done, canc, s1;
	int rd[2], st;
	pid_t pid;
	char r;

	ASSERT_EQ(0, pipe(rd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(rd[0]);
		stream_child(rd[1]);
		_exit(1);
	}
	close(rd[1]);
	ASSERT_EQ(1, read(rd[0], &r, 1));
	close(rd[0]);
	/* Mid-stream: well under way and still going. */
	s1 = edge_sysfs_wait_ge(0, "submitted", 500, 10000);
	EXPECT_LE(500, s1);
	EXPECT_LT(s1, edge_sysfs_wait_ge(0, "submitted", s1 + 1, 5000));
	EXPECT_EQ(2, edge_sysfs_read(0, "registered"));
	EXPECT_LE(4, edge_sysfs_read(0, "inflight"));

	st = edge_reap(pid, SIGKILL);
	ASSERT_TRUE(WIFSIGNALED(st)) TH_LOG("child exited: %#x", st);
	EXPECT_EQ(SIGKILL, WTERMSIG(st));

	EXPECT_EQ(0, edge_sysfs_read(0, "inflight"));
	EXPECT_EQ(0, edge_sysfs_read(0, "registered"));
	sub = edge_sysfs_read(0, "submitted");
	done = edge_sysfs_read(0, "completed");
	canc = edge_sysfs_read(0, "cancelled");
	TH_LOG("submitted %lld completed %lld cancelled %lld", sub, done, canc);
	EXPECT_EQ(sub, done + canc);
	EXPECT_LE(4, canc);
	EXPECT_EQ(0, edge_sysfs_read(0, "errors"));
	/* Nothing left to run after the kill. */
	sleep_ms(20);
	EXPECT_EQ(sub, edge_sysfs_read(0, "submitted"));
	EXPECT_EQ(done, edge_sysfs_read(0, "completed"));

	EXPECT_EQ(0, edge_module_unload_once());
	EXPECT_FALSE(edge_module_loaded());
}

/* ------------------------------------------------------------------ */
/* Two devices: separate tables, counters and front ends.             */

FIXTURE(twodev) {
	int fd[2];
};

FIXTURE_SETUP(twodev)
{
	self->fd[0] = -1;
	self->fd[1] = -1;
	EDGE_SETUP_LOAD("nr_devices=2");
	self->fd[0] = open("/dev/edge0", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd[0]);
	self->fd[1] = open("/dev/edge1", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd[1]);
}

FIXTURE_TEARDOWN(twodev)
{
	if (self->fd[0] >= 0)
		close(self->fd[0]);
	if (self->fd[1] >= 0)
		close(self->fd[1]);
	EXPECT_EQ(0, edge_module_unload(3000));
}

TEST_F(twodev, independent_tables)
{
	struct edge_register r;
	int i;

	for (i = 0; i < 64; i++) {
		edge_register_init(&r, EDGE_FN_NOP, 8, 1, 1);
		ASSERT_EQ(0, edge_ioc(self->fd[0], EDGE_IOC_REGISTER_EVENT, &r));
	}
	EXPECT_EQ(-EBUSY, edge_ioc(self->fd[0], EDGE_IOC_REGISTER_EVENT, &r));
	EXPECT_EQ(64, edge_sysfs_read(0, "registered"));
	EXPECT_EQ(0, edge_sysfs_read(1, "registered"));

	/* edge1's table is its own: its ids start at 0 too. */
	ASSERT_EQ(0, edge_ioc(self->fd[1], EDGE_IOC_REGISTER_EVENT, &r));
	EXPECT_EQ(0, r.id);
	EXPECT_EQ(1, edge_sysfs_read(1, "registered"));
	/* An id of edge1 is not edge0's to unregister, nor the reverse. */
	EXPECT_EQ(0, edge_unregister_id(self->fd[0], 5));
	EXPECT_EQ(-ENOENT, edge_unregister_id(self->fd[1], 5));
	EXPECT_EQ(0, edge_unregister_id(self->fd[1], 0));
	EXPECT_EQ(63, edge_sysfs_read(0, "registered"));
	EXPECT_EQ(0, edge_sysfs_read(1, "registered"));
}

TEST_F(twodev, independent_counters)
{
	EXPECT_EQ(0, one_event("/dev/edge1", 11));
	EXPECT_EQ(0, one_event("/dev/edge1", 12));
	EXPECT_EQ(0, one_event("/dev/edge0", 13));
	EXPECT_EQ(1, edge_sysfs_read(0, "completed"));
	EXPECT_EQ(1, edge_sysfs_read(0, "submitted"));
	EXPECT_EQ(2, edge_sysfs_read(1, "completed"));
	EXPECT_EQ(2, edge_sysfs_read(1, "submitted"));

	/* A per-device knob. */
	EXPECT_EQ(0, edge_sysfs_write(1, "poll_idle_us", "0"));
	EXPECT_EQ(0, edge_sysfs_read(1, "poll_idle_us"));
	EXPECT_EQ(1000, edge_sysfs_read(0, "poll_idle_us"));
}

/* ------------------------------------------------------------------ */

EDGE_FINAL_CHECKS

EDGE_SELFTEST_MAIN
