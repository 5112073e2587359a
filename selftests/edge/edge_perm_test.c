// SPDX-License-Identifier: GPL-2.0
/*
 * edge.ko: who may do what.  The device node is 0666, so an unprivileged
 * user (uid/gid 65534, set after fork) opens it and runs events; but it
 * cannot change the device's policy knobs in sysfs, load or unload the
 * module, map another file's rings (offsets are per file) or unregister
 * another file's entry.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <grp.h>

#include "kselftest_harness.h"
#include "edge_selftest.h"

#define NOBODY		65534

/* In a child: become nobody (no capabilities left) or exit 100. */
static void become_nobody(void)
{
	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
		_exit(100);
	if (!geteuid() || !setuid(0))
		_exit(101);
}

/* Run @fn(@arg) as nobody in a child; returns its exit code (or 200+sig). */
static int as_nobody(int (*fn)(void *), void *arg)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -1;
	if (!pid) {
		become_nobody();
		_exit(fn(arg));
	}
	st = edge_reap(pid, 0);
	if (WIFSIGNALED(st))
		return 200 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

/* One ECHO event through a fresh entry of /dev/edge0; 0 when it came back. */
static int one_event(void *unused)
{
	struct edge_register reg;
	struct edge_queue q;
	struct edge_dev d;
	struct edge_cqe c;
	uint32_t *p;
	int ret;

	ret = edge_open(&d, EDGE_DEV0);
	if (ret)
		return 1;
	edge_register_init(&reg, EDGE_FN_ECHO, 8, 4, 700);
	if (edge_queue_create(&d, &reg, &q))
		return 2;
	p = edge_queue_param(&q);
	p[0] = 0x600d;
	edge_queue_submit(&q, 1);
	ret = edge_queue_wait(&q, &c, 5000);
	if (ret || c.res != 0x600d ||
	    c.status != EDGE_CQE_STATUS(EDGE_CQE_DONE, 0))
		return 3;
	edge_queue_cqe_seen(&q);
	if (edge_queue_destroy(&q))
		return 4;
	edge_close(&d);
	return 0;
}

FIXTURE(perm) {
	int unused;
};

FIXTURE_SETUP(perm)
{
	if (geteuid())
		SKIP(_exit(255), "needs root to become another user");
	EDGE_SETUP_LOAD("");
}

FIXTURE_TEARDOWN(perm)
{
	EXPECT_EQ(0, edge_module_unload(3000));
}

TEST_F(perm, nobody_opens_and_runs_events)
{
	struct stat st;

	ASSERT_EQ(0, stat(EDGE_DEV0, &st));
	EXPECT_EQ(0666, st.st_mode & 0777);
	EXPECT_EQ(0, st.st_uid);
	EXPECT_EQ(0, as_nobody(one_event, NULL));
	EXPECT_EQ(1, edge_sysfs_read(0, "completed"));
	EXPECT_EQ(0, edge_sysfs_read(0, "registered"));
}

/* Every writable attribute of edge0 and edge0/sched refuses nobody. */
static int knobs_refused(void *dirp)
{
	const char *dir = dirp;
	char path[512], before[256], after[256];
	struct dirent *de;
	int n = 0, fd, e;
	struct stat st;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return 10;
	while ((de = readdir(d))) {
		ssize_t r;

		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode) ||
		    !(st.st_mode & 0222))
			continue;
		/* Writable by its owner (root) only. */
		if (st.st_mode & 0022)
			return 11;
		fd = open(path, O_RDONLY);
		r = fd < 0 ? -1 : read(fd, before, sizeof(before) - 1);
		if (fd >= 0)
			close(fd);
		fd = open(path, O_WRONLY);
		e = errno;
		if (fd >= 0) {
			/* Opened anyway: the store itself must refuse. */
			if (write(fd, "1", 1) >= 0 || (errno != EPERM &&
						       errno != EACCES))
				return 12;
			close(fd);
		} else if (e != EACCES && e != EPERM) {
			return 13;
		}
		fd = open(path, O_RDONLY);
		if (r >= 0 && fd >= 0 &&
		    (read(fd, after, sizeof(after) - 1) != r ||
		     memcmp(before, after, r)))
			return 14;
		if (fd >= 0)
			close(fd);
		n++;
	}
	closedir(d);
	/* poll_idle_us, cpu and the sched/ knobs exist. */
	return n >= 2 ? 0 : 15;
}

TEST_F(perm, nobody_cannot_change_knobs)
{
	char cpu[16];

	EXPECT_EQ(0, as_nobody(knobs_refused, EDGE_SYSFS "/edge0"));
	EXPECT_EQ(0, as_nobody(knobs_refused, EDGE_SYSFS "/edge0/sched"));
	EXPECT_EQ(1000, edge_sysfs_read(0, "poll_idle_us"));
	ASSERT_EQ(0, edge_sysfs_str(0, "cpu", cpu, sizeof(cpu)));
	EXPECT_STREQ("-1", cpu);
	/* Root still can. */
	EXPECT_EQ(0, edge_sysfs_write(0, "poll_idle_us", "500"));
	EXPECT_EQ(500, edge_sysfs_read(0, "poll_idle_us"));
}

static int module_ops_refused(void *unused)
{
	int fd = open(edge_ko_path(), O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 20;
	if (!syscall(__NR_finit_module, fd, "", 0) || errno != EPERM)
		return 21;
	close(fd);
	if (edge_module_unload_once() != -EPERM)
		return 22;
	return 0;
}

TEST_F(perm, nobody_cannot_load_or_unload)
{
	EXPECT_EQ(0, as_nobody(module_ops_refused, NULL));
	EXPECT_TRUE(edge_module_loaded());
}

/*
 * Root's file registers an entry and shares its offsets; nobody's own
 * file cannot map them (per-file offsets), cannot reach root's file
 * through /proc, and cannot unregister the entry.
 */
struct victim {
	pid_t pid;
	int fd;
	struct edge_register reg;
};

static int attack(void *arg)
{
	struct victim *v = arg;
	struct edge_register mine;
	char path[64];
	void *p;
	int fd, pfd;

	fd = open(EDGE_DEV0, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return 30;
	/* Root's offsets on nobody's file: no such ring here. */
	p = mmap(NULL, v->reg.sq.mmap_size, PROT_READ | PROT_WRITE,
		 MAP_SHARED, fd, v->reg.sq.mmap_offset);
	if (p != MAP_FAILED || errno != EINVAL)
		return 31;
	p = mmap(NULL, v->reg.cq.mmap_size, PROT_READ | PROT_WRITE,
		 MAP_SHARED, fd, v->reg.cq.mmap_offset);
	if (p != MAP_FAILED || errno != EINVAL)
		return 32;
	/* Nor is the entry nobody's to unregister. */
	if (edge_unregister_id(fd, v->reg.id) != -ENOENT)
		return 33;
	/* Root's open file is out of reach through /proc. */
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", v->pid, v->fd);
	pfd = open(path, O_RDWR);
	if (pfd >= 0 || (errno != EACCES && errno != EPERM))
		return 34;
	/* An entry of its own maps at its own offsets. */
	edge_register_init(&mine, EDGE_FN_NOP, 8, 4, 700);
	if (edge_ioc(fd, EDGE_IOC_REGISTER_EVENT, &mine))
		return 35;
	if (mine.id == v->reg.id)
		return 36;
	p = mmap(NULL, mine.sq.mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 fd, mine.sq.mmap_offset);
	if (p == MAP_FAILED)
		return 37;
	munmap(p, mine.sq.mmap_size);
	close(fd);
	return 0;
}

TEST_F(perm, nobody_cannot_touch_another_files_rings)
{
	struct edge_queue q;
	struct edge_dev d;
	struct edge_cqe c;
	struct victim v;
	uint32_t *p;

	ASSERT_EQ(0, edge_open(&d, EDGE_DEV0));
	edge_register_init(&v.reg, EDGE_FN_ECHO, 8, 4, 700);
	ASSERT_EQ(0, edge_queue_create(&d, &v.reg, &q));
	v.pid = getpid();
	v.fd = d.fd;
	EXPECT_EQ(0, as_nobody(attack, &v));
	/* Root's entry is intact and works. */
	EXPECT_EQ(1, edge_sysfs_read(0, "registered"));
	p = edge_queue_param(&q);
	ASSERT_NE(NULL, p);
	p[0] = 77;
	edge_queue_submit(&q, 1);
	ASSERT_EQ(0, edge_queue_wait(&q, &c, 5000));
	EXPECT_EQ(77, c.res);
	edge_queue_cqe_seen(&q);
	EXPECT_EQ(0, edge_queue_destroy(&q));
	edge_close(&d);
}

/* Root too: another open file's offsets and entries are not its own. */
TEST_F(perm, offsets_are_per_file)
{
	struct edge_register reg;
	int a, b;
	void *p;

	a = open(EDGE_DEV0, O_RDWR | O_CLOEXEC);
	b = open(EDGE_DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	edge_register_init(&reg, EDGE_FN_NOP, 8, 4, 700);
	ASSERT_EQ(0, edge_ioc(a, EDGE_IOC_REGISTER_EVENT, &reg));
	p = mmap(NULL, reg.sq.mmap_size, PROT_READ, MAP_SHARED, b,
		 reg.sq.mmap_offset);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-ENOENT, edge_unregister_id(b, reg.id));
	EXPECT_EQ(1, edge_sysfs_read(0, "registered"));
	EXPECT_EQ(0, edge_unregister_id(a, reg.id));
	close(a);
	close(b);
}

EDGE_FINAL_CHECKS

EDGE_SELFTEST_MAIN
