// SPDX-License-Identifier: GPL-2.0
/*
 * edge.ko under an unprivileged user who takes everything it can (issue
 * 23, defects 8, 9 and the reused-PID item of 11).  As nobody (uid 65534,
 * set after fork) a child grabs EKT entries, device memory, placements,
 * the events group and a 2^63-block grid, and holds what it got while
 * root, and a kernel user (edge_nicsim.ko), still register and place.
 * Admin-guide "Limits for unprivileged users" names each knob.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "kselftest_harness.h"
#include "edge_selftest.h"
#include "edge_nicsim.h"
#include "edge_nl.h"

#define NOBODY		65534
#define MB		(1ULL << 20)
#define PARAMS		"/sys/module/edge/parameters/"
#define CGROOT		"/sys/fs/cgroup"
#define CG		CGROOT "/edge_limits"

/* Defaults (admin-guide): a test that changes one says so. */
#define USER_ENTRIES	32
#define EKT_RESERVED	8
#define USER_RESVS	64
#define RESV_MAX	4096
#define RESV_PRIV	512
#define MEM_KEPT_PCT	10

/* What a nobody child got, in memory shared with the parent. */
struct hog {
	int (*grab)(struct hog *h);
	long long arg;
	int n, err;		/* successes, then the refusal's errno */
	int n2, err2;		/* a second round, where a grab has one */
	long long v;		/* a measured value */
	char cgroup[64];	/* join this cgroup first (as root) */
};

struct hog_run {
	pid_t pid;
	int go;			/* closing it lets the child exit */
};

static void become_nobody(void)
{
	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
		_exit(100);
	if (!geteuid() || !setuid(0))
		_exit(101);
}

static struct hog *hog_new(int (*grab)(struct hog *h), long long arg)
{
	struct hog *h = mmap(NULL, sizeof(*h), PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (h == MAP_FAILED)
		return NULL;
	memset(h, 0, sizeof(*h));
	h->grab = grab;
	h->arg = arg;
	return h;
}

/*
 * Fork a child that becomes nobody, runs h->grab and then holds what it
 * got (its files and sockets) until hog_end().  0 once it has grabbed.
 */
static int hog_start(struct hog *h, struct hog_run *run)
{
	int ready[2], go[2];
	char c;

	if (pipe(ready) || pipe(go))
		return -1;
	run->pid = fork();
	if (run->pid < 0)
		return -1;
	if (!run->pid) {
		int rc;

		close(ready[0]);
		close(go[1]);
		if (h->cgroup[0]) {
			char path[128];

			snprintf(path, sizeof(path), "%s/cgroup.procs",
				 h->cgroup);
			if (edge_path_write(path, "0"))
				_exit(102);
		}
		become_nobody();
		rc = h->grab(h);
		if (write(ready[1], "r", 1) != 1)
			_exit(103);
		/* Hold everything until the parent is done looking. */
		if (read(go[0], &c, 1) < 0)
			_exit(104);
		_exit(rc);
	}
	close(ready[1]);
	close(go[0]);
	run->go = go[1];
	/* 0 bytes: the child died before it was ready. */
	if (read(ready[0], &c, 1) != 1) {
		close(ready[0]);
		return -1;
	}
	close(ready[0]);
	return 0;
}

/* Let the child go; its exit code (0: its own checks passed). */
static int hog_end(struct hog_run *run)
{
	int st;

	close(run->go);
	st = edge_reap(run->pid, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 200 + WTERMSIG(st);
}

static int reg_nop(int fd, uint64_t mem_bytes)
{
	struct edge_register reg;

	edge_register_init(&reg, EDGE_FN_NOP, 8, 4, 700);
	reg.mem_bytes = mem_bytes;
	return edge_ioc(fd, EDGE_IOC_REGISTER_EVENT, &reg);
}

/* Entries, from two files in turn, until refused. */
static int grab_entries(struct hog *h)
{
	int fd[2], ret;

	fd[0] = open(EDGE_DEV0, O_RDWR | O_CLOEXEC);
	fd[1] = open(EDGE_DEV0, O_RDWR | O_CLOEXEC);
	if (fd[0] < 0 || fd[1] < 0)
		return 1;
	while (!(ret = reg_nop(fd[h->n % 2], 0)))
		h->n++;
	h->err = -ret;
	return 0;
}

/*
 * Device memory (arg: mem_total): all of it is refused; what is not the
 * kept share is granted; one byte more is refused.
 */
static int grab_memory(struct hog *h)
{
	uint64_t total = h->arg, open_share;
	int fd, ret;

	open_share = total - total / 100 * MEM_KEPT_PCT;
	fd = open(EDGE_DEV0, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return 1;
	h->err = -reg_nop(fd, total);
	ret = reg_nop(fd, open_share);
	if (!ret)
		h->n++;
	h->err2 = -reg_nop(fd, 1);
	return 0;
}

/* Memory under max_user_mem_mb (arg, MiB): half per file, then 1 MiB. */
static int grab_quota(struct hog *h)
{
	int a = open(EDGE_DEV0, O_RDWR | O_CLOEXEC);
	int b = open(EDGE_DEV0, O_RDWR | O_CLOEXEC);

	if (a < 0 || b < 0)
		return 1;
	h->n += !reg_nop(a, h->arg / 2 * MB);
	h->n += !reg_nop(b, h->arg / 2 * MB);
	h->err = -reg_nop(b, MB);
	return 0;
}

static int place1(struct enl *nl, uint64_t mem)
{
	struct enl_msg m;

	enl_msg(nl, &m, EDGE_CMD_PLACE, 0);
	enl_put_u64(&m, EDGE_A_PLACE_MEM, mem);
	enl_put_u32(&m, EDGE_A_PLACE_THREADS, 32);
	enl_put_u32(&m, EDGE_A_PLACE_BLOCKS, 1);
	return enl_do(nl, &m, NULL, NULL);
}

/* Placements of one byte on one socket until refused. */
static int grab_places(struct hog *h)
{
	static struct enl nl;
	int ret;

	if (enl_open(&nl))
		return 1;
	while (!(ret = place1(&nl, 1)))
		h->n++;
	h->err = -ret;
	return 0;
}

static int grab_monitor(struct hog *h)
{
	struct enl nl;

	if (enl_open(&nl))
		return 1;
	h->err = -enl_subscribe(&nl);
	enl_close(&nl);
	return 0;
}

/* A grid of 2^31-1 x 65535 x 65535 blocks, and another of arg blocks. */
static int grab_grid(struct hog *h)
{
	struct edge_register reg;
	int fd = open(EDGE_DEV0, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return 1;
	edge_register_init(&reg, EDGE_FN_NOP, 8, 4, 700);
	reg.grid_x = 0x7fffffff;
	reg.grid_y = reg.grid_z = 65535;
	h->err = -edge_ioc(fd, EDGE_IOC_REGISTER_EVENT, &reg);
	edge_register_init(&reg, EDGE_FN_NOP, 8, 4, 700);
	reg.grid_x = h->arg;
	h->err2 = -edge_ioc(fd, EDGE_IOC_REGISTER_EVENT, &reg);
	close(fd);
	return 0;
}

static long long cg_current(const char *cg)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/memory.current", cg);
	return edge_path_read(path);
}

/* Eight entries with 4 MiB rings (arg of them); v: memory.current's rise. */
static int grab_rings(struct hog *h)
{
	struct edge_register reg;
	long long before, after;
	int fd, i;

	fd = open(EDGE_DEV0, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return 1;
	before = cg_current(h->cgroup);
	for (i = 0; i < h->arg; i++) {
		edge_register_init(&reg, EDGE_FN_NOP, 4096, 1024, 700);
		if (edge_ioc(fd, EDGE_IOC_REGISTER_EVENT, &reg))
			break;
		h->n++;
	}
	after = cg_current(h->cgroup);
	if (before < 0 || after < 0)
		return 2;
	h->v = after - before;
	return 0;
}

static int param_write(const char *name, long long v)
{
	char path[128], val[32];

	snprintf(path, sizeof(path), PARAMS "%s", name);
	snprintf(val, sizeof(val), "%lld", v);
	return edge_path_write(path, val);
}

FIXTURE(limits) {
	struct hog *h;
	struct hog_run run;
	bool running;
};

FIXTURE_SETUP(limits)
{
	if (geteuid())
		SKIP(_exit(255), "needs root to become another user");
	EDGE_SETUP_LOAD("");
	self->running = false;
}

FIXTURE_TEARDOWN(limits)
{
	if (self->running)
		hog_end(&self->run);
	if (nicsim_loaded())
		EXPECT_EQ(0, nicsim_unload());
	EXPECT_EQ(0, edge_module_unload(3000));
}

/* Run @grab as nobody; the child holds what it took until teardown. */
#define HOG(grab, arg) do {						\
	self->h = hog_new(grab, arg);					\
	ASSERT_NE(NULL, self->h);					\
	ASSERT_EQ(0, hog_start(self->h, &self->run));			\
	self->running = true;						\
} while (0)

#define HOG_END() do {							\
	self->running = false;						\
	EXPECT_EQ(0, hog_end(&self->run));				\
} while (0)

/*
 * max_user_entries across files: nobody stops at 32 (EDQUOT) where it
 * used to take all 64; root and a kernel user still register.
 */
TEST_F(limits, nobody_entries_capped_per_user)
{
	int fd;

	HOG(grab_entries, 0);
	EXPECT_EQ(USER_ENTRIES, self->h->n);
	EXPECT_EQ(EDQUOT, self->h->err);
	EXPECT_EQ(USER_ENTRIES, edge_sysfs_read(0, "registered"));
	fd = open(EDGE_DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, reg_nop(fd, 0));
	ASSERT_EQ(0, nicsim_load("rate=1000"));
	EXPECT_EQ(USER_ENTRIES + 2, edge_sysfs_read(0, "registered"));
	close(fd);
	HOG_END();
	EXPECT_EQ(1, edge_sysfs_read(0, "registered"));
}

/*
 * With the per-user cap lifted, nobody still leaves ekt_reserved entries:
 * EBUSY at 56, and root and the kernel user fill the last 8.
 */
TEST_F(limits, nobody_leaves_the_reserved_entries)
{
	int fd, i;

	ASSERT_EQ(0, param_write("max_user_entries", 64));
	HOG(grab_entries, 0);
	EXPECT_EQ(64 - EKT_RESERVED, self->h->n);
	EXPECT_EQ(EBUSY, self->h->err);
	ASSERT_EQ(0, nicsim_load("rate=1000"));
	fd = open(EDGE_DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	for (i = 0; i < EKT_RESERVED - 1; i++)
		EXPECT_EQ(0, reg_nop(fd, 0));
	EXPECT_EQ(64, edge_sysfs_read(0, "registered"));
	EXPECT_EQ(-EBUSY, reg_nop(fd, 0));
	/* The knob: 0 keeps nothing back (for the next registration). */
	close(fd);
	HOG_END();
	ASSERT_EQ(0, edge_sysfs_write(0, "ekt_reserved", "0"));
	HOG(grab_entries, 0);
	EXPECT_EQ(63, self->h->n);	/* all but nicsim's */
	EXPECT_EQ(EBUSY, self->h->err);
	HOG_END();
}

/*
 * Device memory: nobody gets all but mem_reserved_pct (ENOMEM beyond,
 * counted in mem_oom), root gets the rest.
 */
TEST_F(limits, nobody_leaves_the_reserved_memory)
{
	long long total = edge_sysfs_read(0, "mem_total");
	long long kept = total / 100 * MEM_KEPT_PCT;
	int fd;

	ASSERT_LT(0, total);
	HOG(grab_memory, total);
	EXPECT_EQ(ENOMEM, self->h->err);
	EXPECT_EQ(1, self->h->n);
	EXPECT_EQ(ENOMEM, self->h->err2);
	EXPECT_EQ(total - kept, edge_sysfs_read(0, "mem_used"));
	EXPECT_EQ(2, edge_sysfs_read(0, "mem_oom"));
	fd = open(EDGE_DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-ENOMEM, reg_nop(fd, kept + 1));
	EXPECT_EQ(0, reg_nop(fd, kept));
	EXPECT_EQ(total, edge_sysfs_read(0, "mem_used"));
	close(fd);
	HOG_END();
	EXPECT_EQ(0, edge_sysfs_read(0, "mem_used"));
}

/* max_user_mem_mb: counted across the user's files; EDQUOT past it. */
TEST_F(limits, nobody_memory_quota)
{
	ASSERT_EQ(0, param_write("max_user_mem_mb", 256));
	HOG(grab_quota, 256);
	EXPECT_EQ(2, self->h->n);
	EXPECT_EQ(EDQUOT, self->h->err);
	EXPECT_EQ(256 * MB, edge_sysfs_read(0, "mem_used"));
	/* A refusal for quota is not a device out of memory. */
	EXPECT_EQ(0, edge_sysfs_read(0, "mem_oom"));
	HOG_END();
	EXPECT_EQ(0, edge_sysfs_read(0, "mem_used"));
}

/*
 * Placements: nobody stops at max_user_reservations (EDQUOT); with the
 * cap lifted, at the global limit less the privileged share (ENOSPC);
 * root still places either way.
 */
TEST_F_TIMEOUT(limits, nobody_reservations, 300)
{
	struct enl nl;

	ASSERT_EQ(0, enl_open(&nl));
	HOG(grab_places, 0);
	EXPECT_EQ(USER_RESVS, self->h->n);
	EXPECT_EQ(EDQUOT, self->h->err);
	EXPECT_EQ(0, place1(&nl, 1));
	EXPECT_EQ(USER_RESVS + 1, edge_sysfs_read(0, "mem_reservations"));
	HOG_END();

	ASSERT_EQ(0, param_write("max_user_reservations", RESV_MAX));
	HOG(grab_places, 0);
	/* Root's one counts: nobody reaches the unprivileged share's end. */
	EXPECT_EQ(RESV_MAX - RESV_PRIV - 1, self->h->n);
	EXPECT_EQ(ENOSPC, self->h->err);
	EXPECT_EQ(0, place1(&nl, 1));
	EXPECT_EQ(RESV_MAX - RESV_PRIV + 1,
		  edge_sysfs_read(0, "mem_reservations"));
	HOG_END();
	enl_close(&nl);
	EXPECT_EQ(0, edge_sysfs_read(0, "mem_reservations"));
}

/* Defect 9: the events group is root's; nobody's join is refused. */
TEST_F(limits, monitor_join_refused_to_nobody)
{
	struct enl nl;

	HOG(grab_monitor, 0);
	EXPECT_EQ(EPERM, self->h->err);
	HOG_END();
	ASSERT_EQ(0, enl_open(&nl));
	EXPECT_EQ(0, enl_subscribe(&nl));
	enl_close(&nl);
}

/*
 * One event's work: the 2^63-block grid is refused (EINVAL) for nobody
 * and root alike; max_event_warps bounds it exactly; nothing changes on
 * refusal.
 */
TEST_F(limits, event_work_limit)
{
	struct edge_register reg;
	int fd;

	HOG(grab_grid, 1024);
	EXPECT_EQ(EINVAL, self->h->err);
	EXPECT_EQ(0, self->h->err2);
	HOG_END();
	EXPECT_EQ(1 << 20, edge_sysfs_read(0, "max_event_warps"));
	ASSERT_EQ(0, edge_sysfs_write(0, "max_event_warps", "64"));
	EXPECT_EQ(-EINVAL, edge_sysfs_write(0, "max_event_warps", "0"));
	fd = open(EDGE_DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	edge_register_init(&reg, EDGE_FN_NOP, 8, 4, 700);
	reg.grid_x = 64;		/* 64 blocks of one warp */
	EXPECT_EQ(0, edge_ioc(fd, EDGE_IOC_REGISTER_EVENT, &reg));
	reg.grid_x = 65;
	EXPECT_EQ(-EINVAL, edge_ioc(fd, EDGE_IOC_REGISTER_EVENT, &reg));
	reg.block_x = 64;		/* two warps a block */
	reg.grid_x = 32;
	EXPECT_EQ(0, edge_ioc(fd, EDGE_IOC_REGISTER_EVENT, &reg));
	reg.grid_x = 33;
	EXPECT_EQ(-EINVAL, edge_ioc(fd, EDGE_IOC_REGISTER_EVENT, &reg));
	EXPECT_EQ(2, edge_sysfs_read(0, "registered"));
	close(fd);
	/* A kernel user is bounded too: nicsim's single warp fits. */
	ASSERT_EQ(0, edge_sysfs_write(0, "max_event_warps", "1"));
	EXPECT_EQ(0, nicsim_load("rate=1000"));
}

/*
 * Rings are charged to the registering task's memory cgroup: eight
 * entries with 4 MiB rings raise nobody's memory.current by >= 29 MiB.
 */
TEST_F(limits, nobody_rings_in_its_memcg)
{
	char ctl[256] = "";
	bool mounted = false;
	long long want = 8 * 4 * MB * 9 / 10;

	if (access(CGROOT "/cgroup.controllers", F_OK)) {
		mkdir(CGROOT, 0755);
		if (mount("cgroup2", CGROOT, "cgroup2", 0, NULL))
			SKIP(return, "cgroup2 unavailable: %s", strerror(errno));
		mounted = true;
	}
	if (edge_path_str(CGROOT "/cgroup.controllers", ctl, sizeof(ctl)) ||
	    !strstr(ctl, "memory")) {
		if (mounted)
			umount(CGROOT);
		SKIP(return, "no memory controller (CONFIG_MEMCG): '%s'", ctl);
	}
	ASSERT_EQ(0, edge_path_write(CGROOT "/cgroup.subtree_control",
				     "+memory"));
	ASSERT_TRUE(!mkdir(CG, 0755) || errno == EEXIST);
	self->h = hog_new(grab_rings, 8);
	ASSERT_NE(NULL, self->h);
	snprintf(self->h->cgroup, sizeof(self->h->cgroup), "%s", CG);
	ASSERT_EQ(0, hog_start(self->h, &self->run));
	self->running = true;
	EXPECT_EQ(8, self->h->n);
	TH_LOG("memory.current rose %lld bytes for 8 x 4 MiB rings",
	       self->h->v);
	EXPECT_LE(want, self->h->v);
	HOG_END();
	EXPECT_EQ(0, rmdir(CG));
	if (mounted)
		umount(CGROOT);
}

/*
 * Item 11: a reservation belongs to its process, not to a PID.  A
 * child places on a socket its parent keeps and exits; a new process
 * given the same PID (clone3 set_tid) registers: counted anew, not
 * drawn from the dead process's reservation.  The placing process's own
 * registration still draws on it.
 */
struct clone_args_v1 {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal;
	uint64_t stack, stack_size, tls, set_tid, set_tid_size;
};

static int place_and_draw(struct enl *nl, uint64_t mem)
{
	int fd;

	if (place1(nl, mem))
		return 1;
	fd = open(EDGE_DEV0, O_RDWR | O_CLOEXEC);
	if (fd < 0 || reg_nop(fd, mem / 2))
		return 2;
	/* Drawn: the device holds the reservation only. */
	if (edge_sysfs_read(0, "mem_used") != (long long)mem)
		return 3;
	close(fd);
	return 0;
}

TEST_F(limits, reused_pid_does_not_draw)
{
	const uint64_t mem = 256 * MB;
	struct clone_args_v1 ca = { .exit_signal = SIGCHLD };
	struct enl nl;
	pid_t a, b;
	int st, fd;

	ASSERT_EQ(0, enl_open(&nl));
	a = fork();
	ASSERT_LE(0, a);
	if (!a)
		_exit(place_and_draw(&nl, mem));
	st = edge_reap(a, 0);
	ASSERT_TRUE(WIFEXITED(st));
	ASSERT_EQ(0, WEXITSTATUS(st));
	/* The socket lives on here: so does the reservation. */
	ASSERT_EQ((long long)mem, edge_sysfs_read(0, "mem_used"));
	ca.set_tid = (uintptr_t)&a;
	ca.set_tid_size = 1;
	b = syscall(__NR_clone3, &ca, sizeof(ca));
	if (b < 0 && (errno == ENOSYS || errno == EINVAL))
		SKIP(return, "clone3 set_tid: %s", strerror(errno));
	ASSERT_LE(0, b) TH_LOG("clone3 set_tid %d: %s", a, strerror(errno));
	if (!b) {
		fd = open(EDGE_DEV0, O_RDWR | O_CLOEXEC);
		if (fd < 0 || reg_nop(fd, mem / 2))
			_exit(1);
		/* Counted on its own: the reservation plus this. */
		_exit(edge_sysfs_read(0, "mem_used") == (long long)(mem + mem / 2) ?
		      0 : 2);
	}
	EXPECT_EQ(a, b);
	st = edge_reap(b, 0);
	ASSERT_TRUE(WIFEXITED(st));
	EXPECT_EQ(0, WEXITSTATUS(st));
	EXPECT_EQ((long long)mem, edge_sysfs_read(0, "mem_used"));
	enl_close(&nl);
	EXPECT_EQ(0, edge_sysfs_read(0, "mem_used"));
}

EDGE_FINAL_CHECKS

EDGE_SELFTEST_MAIN
