// SPDX-License-Identifier: GPL-2.0
/*
 * edge.ko: the raw ioctl and mmap ABI of /dev/edgeN (uapi/linux/edge.h).
 *
 * Every ioctl's happy path and every documented error: EINVAL, E2BIG
 * (sched_setattr()'s size rules), EBUSY, ENOENT, EFAULT, ENOTTY; mmap's
 * checks; fork() not inheriting doorbells or rings.
 *
 * Each test runs against a freshly loaded module ($EDGE_KO), so sysfs
 * counters start at zero and the event kernel table is empty.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <setjmp.h>
#include <pthread.h>
#include <linux/userfaultfd.h>

#include "kselftest_harness.h"
#include "edge_selftest.h"

#define PAGE		4096

/*
 * The kernel's struct sizes are those of the uapi header the module was
 * built with; a VER0 caller is older (or the same).
 */
#define KINFO		((uint32_t)sizeof(struct edge_info))
#define KREG		((uint32_t)sizeof(struct edge_register))
#define KUNREG		((uint32_t)sizeof(struct edge_unregister))
/* Where REGISTER's output fields (id .. cq) end. */
#define REG_OUT_END	(offsetof(struct edge_register, cq) + \
			 sizeof(struct edge_cq_offsets))

static void reg_default(struct edge_register *r)
{
	edge_register_init(r, EDGE_FN_ECHO, 64, 16, 2300);
}

/* A page-aligned anonymous area of @pages pages; MAP_FAILED on error. */
static void *area(size_t pages, int prot)
{
	return mmap(NULL, pages * PAGE, prot, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
}

/*
 * The ABI's layout: the VER0 sizes end where the VER0 fields end, the
 * sub-structs are fixed, and no struct has implicit tail padding that
 * would differ between 32- and 64-bit callers.
 */
TEST(uapi_layout)
{
	EXPECT_EQ(EDGE_INFO_SIZE_VER0, offsetof(struct edge_info, preset) + 16);
	EXPECT_EQ(EDGE_INFO_SIZE_VER1, offsetof(struct edge_info, resv) + 4);
	EXPECT_LE(EDGE_INFO_SIZE_VER0, KINFO);
	EXPECT_EQ(EDGE_REGISTER_SIZE_VER0, REG_OUT_END);
	EXPECT_LE(EDGE_REGISTER_SIZE_VER0, KREG);
	EXPECT_EQ(EDGE_UNREGISTER_SIZE_VER0,
		  offsetof(struct edge_unregister, pad) + 4);
	EXPECT_LE(EDGE_UNREGISTER_SIZE_VER0, KUNREG);
	EXPECT_EQ(32, sizeof(struct edge_sq_offsets));
	EXPECT_EQ(32, sizeof(struct edge_cq_offsets));
	EXPECT_EQ(8, sizeof(struct edge_cqe));
	EXPECT_EQ(0, KINFO % 8);
	EXPECT_EQ(0, KREG % 8);
	EXPECT_EQ(0, KUNREG % 8);
	EXPECT_EQ(0, offsetof(struct edge_info, doorbell_offset) % 8);
	EXPECT_EQ(0, offsetof(struct edge_register, warp_cycles) % 8);
	EXPECT_EQ(0, offsetof(struct edge_register, sq) % 8);
	EXPECT_EQ(0, offsetof(struct edge_register, cq) % 8);
	EXPECT_EQ(0, offsetof(struct edge_register, deadline_ns) % 8);
	EXPECT_EQ(EDGE_REGISTER_SIZE_VER3,
		  offsetof(struct edge_register, deadline_ns) + 8);
	EXPECT_EQ(EDGE_REGISTER_SIZE_VER4,
		  offsetof(struct edge_register, mem_bytes) + 8);
	EXPECT_EQ(EDGE_REGISTER_SIZE_VER5, sizeof(struct edge_register));
	EXPECT_EQ(EDGE_REGISTER_SIZE_VER4,
		  offsetof(struct edge_register, requests_per_warp));
	/* The command numbers carry no size (the struct's first field does). */
	EXPECT_EQ(0, _IOC_SIZE(EDGE_IOC_GET_INFO));
	EXPECT_EQ(0, _IOC_SIZE(EDGE_IOC_REGISTER_EVENT));
	EXPECT_EQ(0, _IOC_SIZE(EDGE_IOC_UNREGISTER_EVENT));
	EXPECT_EQ(0, _IOC_SIZE(EDGE_IOC_KICK));
}

/* ------------------------------------------------------------------ */

FIXTURE(abi) {
	struct edge_dev d;
	int fd;
};

FIXTURE_SETUP(abi)
{
	int ret;

	self->d.fd = -1;
	EDGE_SETUP_LOAD("");
	ret = edge_open(&self->d, EDGE_DEV0);
	ASSERT_EQ(0, ret) TH_LOG("open %s: %s", EDGE_DEV0, strerror(-ret));
	self->fd = self->d.fd;
}

FIXTURE_TEARDOWN(abi)
{
	edge_close(&self->d);
	EXPECT_EQ(0, edge_module_unload(3000));
}

/* GET_INFO reports the ABI version, the limits and the model. */
TEST_F(abi, get_info)
{
	struct edge_info info;

	memset(&info, 0xa5, sizeof(info));
	info.size = sizeof(info);
	ASSERT_EQ(0, edge_ioc(self->fd, EDGE_IOC_GET_INFO, &info));
	EXPECT_EQ(KINFO, info.size);
	EXPECT_EQ(EDGE_ABI_VERSION, info.abi_version);
	EXPECT_EQ(64, info.ekt_entries);
	EXPECT_EQ(4096, info.max_ring_entries);
	EXPECT_EQ(4096, info.max_param_size);
	EXPECT_EQ(4U << 20, info.max_ring_bytes);
	EXPECT_EQ(1024, info.max_block_threads);
	EXPECT_EQ(0x7fffffffU, info.max_grid_x);
	EXPECT_EQ(65535, info.max_grid_yz);
	EXPECT_EQ(255, info.max_regs_per_thread);
	EXPECT_EQ(48 * 1024, info.max_smem_per_block);
	EXPECT_EQ(EDGE_PRIO_MAX, info.prio_max);
	EXPECT_EQ(32, info.warp_size);
	EXPECT_EQ(16, info.num_cores);
	EXPECT_EQ(700000, info.clock_khz);
	EXPECT_EQ(EDGE_TIME_REAL, info.time_mode);
	EXPECT_EQ(1000, info.poll_idle_us);
	EXPECT_EQ((uint32_t)getpagesize(), info.doorbell_size);
	EXPECT_EQ(0, info.doorbell_offset);
	/* The summary word: after the 64 doorbell words, 8-byte aligned. */
	EXPECT_EQ(64 * 4, info.doorbell_summary);
	EXPECT_EQ(0, info.resv);
	EXPECT_STREQ("edge", (char *)info.preset);
	/* Every byte was written: the 0xa5 fill is gone from the name. */
	EXPECT_EQ(0, info.preset[sizeof(info.preset) - 1]);
}

/*
 * GET_INFO is an output struct: too small is EINVAL (as sched_getattr),
 * larger is fine and the kernel writes only its own size.
 */
TEST_F(abi, get_info_sizes)
{
	static const uint32_t bad[] = { 0, 4, EDGE_INFO_SIZE_VER0 - 4,
					EDGE_INFO_SIZE_VER0 - 1, PAGE + 1,
					0xffffffffU };
	union {
		struct edge_info info;
		uint8_t raw[PAGE + 64];
	} u;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		memset(&u, 0x5a, sizeof(u));
		u.info.size = bad[i];
		EXPECT_EQ(-EINVAL, edge_ioc(self->fd, EDGE_IOC_GET_INFO, &u))
			TH_LOG("size %u", bad[i]);
		/* Nothing written, not even the size. */
		EXPECT_EQ(bad[i], u.info.size);
		EXPECT_EQ(0x5a5a5a5aU, u.info.abi_version);
	}

	/* VER0 (an older caller, or exact): that much is written. */
	memset(&u, 0x5a, sizeof(u));
	u.info.size = EDGE_INFO_SIZE_VER0;
	ASSERT_EQ(0, edge_ioc(self->fd, EDGE_IOC_GET_INFO, &u));
	EXPECT_EQ(EDGE_INFO_SIZE_VER0, u.info.size);
	EXPECT_EQ(EDGE_ABI_VERSION, u.info.abi_version);
	for (i = EDGE_INFO_SIZE_VER0; i < EDGE_INFO_SIZE_VER0 + 8; i++) {
		EXPECT_EQ(0x5a, u.raw[i]) TH_LOG("byte %u written", i);
	}

	/* Exact size. */
	memset(&u, 0x5a, sizeof(u));
	u.info.size = KINFO;
	ASSERT_EQ(0, edge_ioc(self->fd, EDGE_IOC_GET_INFO, &u));
	EXPECT_EQ(KINFO, u.info.size);
	EXPECT_EQ(EDGE_ABI_VERSION, u.info.abi_version);

	/* A newer caller: size set to the kernel's, its tail untouched. */
	memset(&u, 0x5a, sizeof(u));
	u.info.size = KINFO + 8;
	ASSERT_EQ(0, edge_ioc(self->fd, EDGE_IOC_GET_INFO, &u));
	EXPECT_EQ(KINFO, u.info.size);
	EXPECT_EQ(EDGE_ABI_VERSION, u.info.abi_version);
	for (i = KINFO; i < KINFO + 8; i++) {
		EXPECT_EQ(0x5a, u.raw[i]) TH_LOG("byte %u written", i);
	}

	/* Up to a page is accepted. */
	memset(&u, 0, sizeof(u));
	u.info.size = PAGE;
	ASSERT_EQ(0, edge_ioc(self->fd, EDGE_IOC_GET_INFO, &u));
	EXPECT_EQ(KINFO, u.info.size);
}

/* GET_INFO with bad pointers: NULL, low, unmapped, read-only. */
TEST_F(abi, get_info_efault)
{
	struct edge_info *ro, *gone;
	void *p;

	EXPECT_EQ(-EFAULT, edge_ioc(self->fd, EDGE_IOC_GET_INFO, NULL));
	EXPECT_EQ(-EFAULT, edge_ioc(self->fd, EDGE_IOC_GET_INFO, (void *)8));

	p = area(1, PROT_READ | PROT_WRITE);
	ASSERT_NE(MAP_FAILED, p);
	gone = p;
	gone->size = sizeof(*gone);
	ASSERT_EQ(0, munmap(p, PAGE));
	EXPECT_EQ(-EFAULT, edge_ioc(self->fd, EDGE_IOC_GET_INFO, gone));

	/* The size reads fine, the answer cannot be written. */
	p = area(1, PROT_READ | PROT_WRITE);
	ASSERT_NE(MAP_FAILED, p);
	ro = p;
	ro->size = sizeof(*ro);
	ASSERT_EQ(0, mprotect(p, PAGE, PROT_READ));
	EXPECT_EQ(-EFAULT, edge_ioc(self->fd, EDGE_IOC_GET_INFO, ro));
	EXPECT_EQ(sizeof(*ro), ro->size);
	EXPECT_EQ(0, ro->abi_version);
	munmap(p, PAGE);
}

static void check_sq_cq(struct __test_metadata *_metadata,
			const struct edge_register *r)
{
	uint32_t sq_need = r->sq.entries + r->ring_entries * r->param_size;
	uint32_t cq_need = r->cq.cqes + r->ring_entries * sizeof(struct edge_cqe);

	EXPECT_EQ(r->id * sizeof(uint32_t), r->doorbell);
	EXPECT_NE(0, r->sq.mmap_size);
	EXPECT_EQ(0, r->sq.mmap_size % PAGE);
	EXPECT_EQ(0, r->sq.mmap_offset % PAGE);
	EXPECT_LE(r->sq.head + 4, r->sq.mmap_size);
	EXPECT_LE(r->sq.flags + 4, r->sq.mmap_size);
	EXPECT_NE(r->sq.head, r->sq.flags);
	EXPECT_LE(sq_need, r->sq.mmap_size);
	EXPECT_EQ(0, r->sq.resv[0]);
	EXPECT_EQ(0, r->sq.resv[1]);
	EXPECT_NE(0, r->cq.mmap_size);
	EXPECT_EQ(0, r->cq.mmap_size % PAGE);
	EXPECT_EQ(0, r->cq.mmap_offset % PAGE);
	EXPECT_NE(r->sq.mmap_offset, r->cq.mmap_offset);
	EXPECT_NE(0, r->sq.mmap_offset);	/* 0 is the doorbell page */
	EXPECT_NE(0, r->cq.mmap_offset);
	EXPECT_LE(r->cq.head + 4, r->cq.mmap_size);
	EXPECT_LE(r->cq.tail + 4, r->cq.mmap_size);
	EXPECT_NE(r->cq.head, r->cq.tail);
	EXPECT_LE(cq_need, r->cq.mmap_size);
	EXPECT_EQ(0, r->cq.resv[0]);
	EXPECT_EQ(0, r->cq.resv[1]);
}

/*
 * REGISTER then UNREGISTER: ids are the lowest free EKT index, the
 * kernel writes every output field (whatever the caller left in them).
 */
TEST_F(abi, register_unregister)
{
	struct edge_register r0, r1, r2;

	reg_default(&r0);
	/* Output fields are the kernel's: garbage in them is ignored. */
	memset((char *)&r0 + offsetof(struct edge_register, id), 0xee,
	       REG_OUT_END - offsetof(struct edge_register, id));
	ASSERT_EQ(0, edge_ioc(self->fd, EDGE_IOC_REGISTER_EVENT, &r0));
	EXPECT_EQ(KREG, r0.size);
	EXPECT_EQ(0, r0.id);
	check_sq_cq(_metadata, &r0);
	EXPECT_EQ(1, edge_sysfs_read(0, "registered"));

	reg_default(&r1);
	r1.func = EDGE_FN_NOP;
	r1.priority = EDGE_PRIO_MAX;
	ASSERT_EQ(0, edge_ioc(self->fd, EDGE_IOC_REGISTER_EVENT, &r1));
	EXPECT_EQ(1, r1.id);
	check_sq_cq(_metadata, &r1);
	EXPECT_NE(r0.sq.mmap_offset, r1.sq.mmap_offset);
	EXPECT_NE(r0.cq.mmap_offset, r1.cq.mmap_offset);
	EXPECT_EQ(2, edge_sysfs_read(0, "registered"));

	EXPECT_EQ(0, edge_unregister_id(self->fd, r0.id));
	EXPECT_EQ(1, edge_sysfs_read(0, "registered"));
	/* The freed index is handed out again first. */
	reg_default(&r2);
	ASSERT_EQ(0, edge_ioc(self->fd, EDGE_IOC_REGISTER_EVENT, &r2));
	EXPECT_EQ(0, r2.id);

	EXPECT_EQ(0, edge_unregister_id(self->fd, r1.id));
	EXPECT_EQ(0, edge_unregister_id(self->fd, r2.id));
	EXPECT_EQ(0, edge_sysfs_read(0, "registered"));
	/* Nothing ran. */
	EXPECT_EQ(0, edge_sysfs_read(0, "submitted"));
}

/*
 * REGISTER's size follows sched_setattr(): below VER0 or above a page is
 * E2BIG with the kernel's size written back; a larger struct is fine if
 * its tail is zero and E2BIG (size written back) if not.
 */
TEST_F(abi, register_sizes)
{
	static const uint32_t small[] = { 0, 4, 8, EDGE_REGISTER_SIZE_VER0 - 8,
					  EDGE_REGISTER_SIZE_VER0 - 1,
					  PAGE + 1, 0x7fffffffU };
	union {
		struct edge_register r;
		uint8_t raw[PAGE + 64];
	} u;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(small); i++) {
		memset(&u, 0, sizeof(u));
		reg_default(&u.r);
		u.r.size = small[i];
		EXPECT_EQ(-E2BIG, edge_ioc(self->fd, EDGE_IOC_REGISTER_EVENT,
					   &u))
			TH_LOG("size %u", small[i]);
		EXPECT_EQ(KREG, u.r.size)
			TH_LOG("size %u: kernel's size not written back",
			       small[i]);
		EXPECT_EQ(0, u.r.id);
		EXPECT_EQ(0, u.r.sq.mmap_size);
	}
	EXPECT_EQ(0, edge_sysfs_read(0, "registered"));

	/* size + 8 with a non-zero tail: E2BIG, size written back. */
	for (i = 0; i < 8; i++) {
		memset(&u, 0, sizeof(u));
		reg_default(&u.r);
		u.r.size = KREG + 8;
		u.raw[KREG + i] = 1;
		EXPECT_EQ(-E2BIG, edge_ioc(self->fd, EDGE_IOC_REGISTER_EVENT,
					   &u))
			TH_LOG("tail byte %u set", i);
		EXPECT_EQ(KREG, u.r.size);
		EXPECT_EQ(0, u.r.sq.mmap_size);
	}
	/* A non-zero byte at the very end of a page-sized struct. */
	memset(&u, 0, sizeof(u));
	reg_default(&u.r);
	u.r.size = PAGE;
	u.raw[PAGE - 1] = 0x80;
	EXPECT_EQ(-E2BIG, edge_ioc(self->fd, EDGE_IOC_REGISTER_EVENT, &u));
	EXPECT_EQ(KREG, u.r.size);
	EXPECT_EQ(0, edge_sysfs_read(0, "registered"));

	/* size + 8 with a zero tail: success; the tail stays zero. */
	memset(&u, 0, sizeof(u));
	reg_default(&u.r);
	u.r.size = KREG + 8;
	ASSERT_EQ(0, edge_ioc(self->fd, EDGE_IOC_REGISTER_EVENT, &u));
	EXPECT_EQ(KREG, u.r.size);
	EXPECT_EQ(0, u.r.id);
	EXPECT_NE(0, u.r.sq.mmap_size);
	for (i = KREG; i < KREG + 8; i++) {
		EXPECT_EQ(0, u.raw[i]);
	}
	EXPECT_EQ(1, edge_sysfs_read(0, "registered"));

	/* A whole page of zero tail. */
	memset(&u, 0, sizeof(u));
	reg_default(&u.r);
	u.r.size = PAGE;
	ASSERT_EQ(0, edge_ioc(self->fd, EDGE_IOC_REGISTER_EVENT, &u));
	EXPECT_EQ(1, u.r.id);

	/* Exact size. */
	memset(&u, 0, sizeof(u));
	reg_default(&u.r);
	ASSERT_EQ(KREG, u.r.size);
	ASSERT_EQ(0, edge_ioc(self->fd, EDGE_IOC_REGISTER_EVENT, &u));
	EXPECT_EQ(KREG, u.r.size);
	EXPECT_EQ(2, u.r.id);

	/* A VER0 caller gets VER0's worth, nothing past it. */
	memset(&u, 0xcc, sizeof(u));
	memset(&u, 0, EDGE_REGISTER_SIZE_VER0);
	reg_default(&u.r);
	memset(u.raw + EDGE_REGISTER_SIZE_VER0, 0xcc,
	       sizeof(u) - EDGE_REGISTER_SIZE_VER0);
	u.r.size = EDGE_REGISTER_SIZE_VER0;
	ASSERT_EQ(0, edge_ioc(self->fd, EDGE_IOC_REGISTER_EVENT, &u));
	EXPECT_EQ(EDGE_REGISTER_SIZE_VER0, u.r.size);
	EXPECT_EQ(3, u.r.id);
	EXPECT_NE(0, u.r.cq.mmap_size);
	EXPECT_EQ(0xcc, u.raw[EDGE_REGISTER_SIZE_VER0]);
	EXPECT_EQ(4, edge_sysfs_read(0, "registered"));
}

/* REGISTER with bad pointers: nothing gets registered. */
TEST_F(abi, register_efault)
{
	struct edge_register *r;
	uint8_t *p;

	EXPECT_EQ(-EFAULT, edge_ioc(self->fd, EDGE_IOC_REGISTER_EVENT, NULL));
	EXPECT_EQ(-EFAULT,
		  edge_ioc(self->fd, EDGE_IOC_REGISTER_EVENT, (void *)8));

	/* Unmapped memory. */
	p = area(1, PROT_READ | PROT_WRITE);
	ASSERT_NE(MAP_FAILED, p);
	reg_default((struct edge_register *)p);
	ASSERT_EQ(0, munmap(p, PAGE));
	EXPECT_EQ(-EFAULT, edge_ioc(self->fd, EDGE_IOC_REGISTER_EVENT, p));

	/* The size is readable, the rest runs into an inaccessible page. */
	p = area(2, PROT_READ | PROT_WRITE);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, mprotect(p + PAGE, PAGE, PROT_NONE));
	r = (struct edge_register *)(p + PAGE - 64);
	memset(r, 0, 64);
	r->size = EDGE_REGISTER_SIZE_VER0;
	EXPECT_EQ(-EFAULT, edge_ioc(self->fd, EDGE_IOC_REGISTER_EVENT, r));
	munmap(p, 2 * PAGE);

	EXPECT_EQ(0, edge_sysfs_read(0, "registered"));
}

/*
 * REGISTER into a read-only struct: the request reads fine and would be
 * registered, but the answer cannot be copied out.  An error changes
 * nothing: the registration is taken back.
 */
TEST_F(abi, register_readonly_efault)
{
	struct edge_register *r, copy, ok;
	void *p;

	p = area(1, PROT_READ | PROT_WRITE);
	ASSERT_NE(MAP_FAILED, p);
	r = p;
	reg_default(r);
	copy = *r;
	ASSERT_EQ(0, mprotect(p, PAGE, PROT_READ));
	EXPECT_EQ(-EFAULT, edge_ioc(self->fd, EDGE_IOC_REGISTER_EVENT, r));
	EXPECT_EQ(0, memcmp(&copy, r, sizeof(copy)));
	EXPECT_EQ(0, edge_sysfs_read(0, "registered"));
	EXPECT_EQ(0, edge_sysfs_read(0, "cancelled"));
	/* The would-be id 0 is free: nothing to unregister. */
	EXPECT_EQ(-ENOENT, edge_unregister_id(self->fd, 0));
	munmap(p, PAGE);

	/* The slot is handed out to the next caller. */
	reg_default(&ok);
	ASSERT_EQ(0, edge_ioc(self->fd, EDGE_IOC_REGISTER_EVENT, &ok));
	EXPECT_EQ(0, ok.id);
	EXPECT_EQ(1, edge_sysfs_read(0, "registered"));
}

struct reg_thread {
	int fd;
	struct edge_register *r;
	int ret;
};

static void *register_thread(void *p)
{
	struct reg_thread *a = p;

	a->ret = edge_ioc(a->fd, EDGE_IOC_REGISTER_EVENT, a->r);
	return NULL;
}

/*
 * The EFAULT undo must take back this call's registration and nothing
 * else.  A thread's REGISTER is held (userfaultfd write-protect) in its
 * copy-out; meanwhile another thread of the process unregisters that id
 * and a second file registers and gets the same id; then the copy-out
 * fails.  The second file's entry must survive.
 */
TEST_F_TIMEOUT(abi, register_efault_undo_spares_other_file, 20)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register ureg = {};
	struct uffdio_writeprotect wp = {};
	struct uffdio_range wake;
	struct pollfd pfd;
	struct reg_thread a;
	struct edge_register r2;
	struct uffd_msg msg;
	pthread_t t;
	int uffd, fd2;
	void *page;

	page = area(1, PROT_READ | PROT_WRITE);
	ASSERT_NE(MAP_FAILED, page);
	reg_default(page);
	/*
	 * Both kernels of make check have CONFIG_USERFAULTFD: a skip here is
	 * a failure there (tools/vm/skip-allow.txt), and names this test,
	 * as the harness's skip line does not.
	 */
	uffd = syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (uffd < 0)
		SKIP(return, "%s.%s: userfaultfd: %s", _metadata->fixture->name,
		     _metadata->name, strerror(errno));
	if (ioctl(uffd, UFFDIO_API, &api))
		SKIP(return, "%s.%s: UFFDIO_API: %s", _metadata->fixture->name,
		     _metadata->name, strerror(errno));
	ureg.range.start = (uintptr_t)page;
	ureg.range.len = PAGE;
	ureg.mode = UFFDIO_REGISTER_MODE_WP;
	if (ioctl(uffd, UFFDIO_REGISTER, &ureg))
		SKIP(return, "%s.%s: userfaultfd write-protect: %s",
		     _metadata->fixture->name, _metadata->name,
		     strerror(errno));
	wp.range = ureg.range;
	wp.mode = UFFDIO_WRITEPROTECT_MODE_WP;
	ASSERT_EQ(0, ioctl(uffd, UFFDIO_WRITEPROTECT, &wp));

	a.fd = self->fd;
	a.r = page;
	a.ret = 1;
	ASSERT_EQ(0, pthread_create(&t, NULL, register_thread, &a));
	/* The thread registered id 0 and now waits in its copy-out. */
	pfd.fd = uffd;
	pfd.events = POLLIN;
	ASSERT_EQ(1, poll(&pfd, 1, 5000));
	ASSERT_EQ(sizeof(msg), read(uffd, &msg, sizeof(msg)));
	ASSERT_EQ(UFFD_EVENT_PAGEFAULT, msg.event);
	ASSERT_EQ(1, a.ret);
	ASSERT_EQ(1, edge_sysfs_read(0, "registered"));

	ASSERT_EQ(0, edge_unregister_id(self->fd, 0));
	fd2 = open(EDGE_DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd2);
	reg_default(&r2);
	ASSERT_EQ(0, edge_ioc(fd2, EDGE_IOC_REGISTER_EVENT, &r2));
	ASSERT_EQ(0, r2.id);

	/* Make the copy-out fail: the page goes, the fault retries. */
	ASSERT_EQ(0, munmap(page, PAGE));
	wake = ureg.range;
	ioctl(uffd, UFFDIO_WAKE, &wake);
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(-EFAULT, a.ret);

	/* fd2's entry is still registered, and still fd2's. */
	EXPECT_EQ(1, edge_sysfs_read(0, "registered"));
	EXPECT_EQ(-ENOENT, edge_unregister_id(self->fd, 0));
	EXPECT_EQ(0, edge_unregister_id(fd2, 0));
	EXPECT_EQ(0, edge_sysfs_read(0, "registered"));
	close(fd2);
	close(uffd);
}

/* UNREGISTER's own checks: E2BIG sizes, EINVAL flags/pad, ENOENT ids. */
TEST_F(abi, unregister_errors)
{
	union {
		struct edge_unregister u;
		uint8_t raw[64];
	} b;
	struct edge_register r;

	reg_default(&r);
	ASSERT_EQ(0, edge_ioc(self->fd, EDGE_IOC_REGISTER_EVENT, &r));
	ASSERT_EQ(0, r.id);

	/* Too small: E2BIG, the kernel's size written back. */
	memset(&b, 0, sizeof(b));
	b.u.size = EDGE_UNREGISTER_SIZE_VER0 - 4;
	EXPECT_EQ(-E2BIG, edge_ioc(self->fd, EDGE_IOC_UNREGISTER_EVENT, &b));
	EXPECT_EQ(KUNREG, b.u.size);
	/* Larger with a non-zero tail: E2BIG. */
	memset(&b, 0, sizeof(b));
	b.u.size = KUNREG + 8;
	b.raw[KUNREG + 3] = 1;
	EXPECT_EQ(-E2BIG, edge_ioc(self->fd, EDGE_IOC_UNREGISTER_EVENT, &b));
	EXPECT_EQ(KUNREG, b.u.size);

	/* Reserved fields. */
	memset(&b, 0, sizeof(b));
	b.u.size = sizeof(b.u);
	b.u.flags = 1;
	EXPECT_EQ(-EINVAL, edge_ioc(self->fd, EDGE_IOC_UNREGISTER_EVENT, &b));
	b.u.flags = 0;
	b.u.pad = 0x100;
	EXPECT_EQ(-EINVAL, edge_ioc(self->fd, EDGE_IOC_UNREGISTER_EVENT, &b));
	EXPECT_EQ(1, edge_sysfs_read(0, "registered"));

	/* Ids never registered, or out of the table. */
	EXPECT_EQ(-ENOENT, edge_unregister_id(self->fd, 1));
	EXPECT_EQ(-ENOENT, edge_unregister_id(self->fd, 63));
	EXPECT_EQ(-ENOENT, edge_unregister_id(self->fd, 64));
	EXPECT_EQ(-ENOENT, edge_unregister_id(self->fd, 0xffffffffU));

	/* Bad pointers. */
	EXPECT_EQ(-EFAULT, edge_ioc(self->fd, EDGE_IOC_UNREGISTER_EVENT, NULL));
	EXPECT_EQ(-EFAULT,
		  edge_ioc(self->fd, EDGE_IOC_UNREGISTER_EVENT, (void *)8));
	EXPECT_EQ(1, edge_sysfs_read(0, "registered"));

	/* Larger with a zero tail: success. */
	memset(&b, 0, sizeof(b));
	b.u.size = KUNREG + 8;
	b.u.id = 0;
	EXPECT_EQ(0, edge_ioc(self->fd, EDGE_IOC_UNREGISTER_EVENT, &b));
	EXPECT_EQ(0, edge_sysfs_read(0, "registered"));
	/* Twice: gone. */
	EXPECT_EQ(-ENOENT, edge_unregister_id(self->fd, 0));
}

/* An entry belongs to the file that registered it. */
TEST_F(abi, unregister_other_fd_enoent)
{
	struct edge_register r;
	int fd2;

	fd2 = open(EDGE_DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd2);
	reg_default(&r);
	ASSERT_EQ(0, edge_ioc(fd2, EDGE_IOC_REGISTER_EVENT, &r));
	EXPECT_EQ(-ENOENT, edge_unregister_id(self->fd, r.id));
	EXPECT_EQ(1, edge_sysfs_read(0, "registered"));
	/* Nor can another file map its rings. */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, r.sq.mmap_size, PROT_READ | PROT_WRITE,
				   MAP_SHARED, self->fd, r.sq.mmap_offset));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, edge_unregister_id(fd2, r.id));
	EXPECT_EQ(0, edge_sysfs_read(0, "registered"));
	close(fd2);
}

/* KICK takes no argument. */
TEST_F(abi, kick)
{
	uint64_t w0 = edge_sysfs_read(0, "wakeups");

	EXPECT_EQ(0, edge_ioc_kick(self->fd, 0));
	EXPECT_EQ(-EINVAL, edge_ioc_kick(self->fd, 1));
	EXPECT_EQ(-EINVAL, edge_ioc_kick(self->fd, 0x80000000UL));
	EXPECT_EQ(-EINVAL, edge_ioc_kick(self->fd, (unsigned long)&w0));
	EXPECT_EQ(-EINVAL, edge_ioc_kick(self->fd, ~0UL));
	EXPECT_EQ(0, edge_ioc_kick(self->fd, 0));
}

/* Commands that are not edge's. */
TEST_F(abi, unknown_ioctl_enotty)
{
	struct edge_info info = { .size = sizeof(info) };
	static const unsigned long cmds[] = {
		_IO(EDGE_IOC_MAGIC, 0x00),
		_IO(EDGE_IOC_MAGIC, 0x07),
		_IO(EDGE_IOC_MAGIC, 0xff),
		_IO(EDGE_IOC_MAGIC + 1, 0x01),
		/* The numbers encode no size: a sized variant is another. */
		_IOWR(EDGE_IOC_MAGIC, 0x01, struct edge_info),
		_IOW(EDGE_IOC_MAGIC, 0x02, struct edge_register),
		TCGETS,
		FIONREAD,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		EXPECT_EQ(-ENOTTY, edge_ioc(self->fd, cmds[i], &info))
			TH_LOG("cmd %#lx", cmds[i]);
	}
	EXPECT_EQ(0, edge_sysfs_read(0, "registered"));
}

/*
 * The EKT has 64 entries, shared by every file: the 65th registration is
 * EBUSY and changes nothing.
 */
TEST_F(abi, ekt_full_ebusy)
{
	struct edge_register r;
	uint64_t seen = 0;
	int fd2, i;

	fd2 = open(EDGE_DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd2);
	for (i = 0; i < 64; i++) {
		edge_register_init(&r, EDGE_FN_NOP, 8, 1, 1);
		ASSERT_EQ(0, edge_ioc(i & 1 ? fd2 : self->fd,
				      EDGE_IOC_REGISTER_EVENT, &r))
			TH_LOG("registration %d", i);
		ASSERT_GT(64, r.id);
		EXPECT_FALSE(seen & (1ULL << r.id));
		seen |= 1ULL << r.id;
	}
	EXPECT_EQ(~0ULL, seen);
	EXPECT_EQ(64, edge_sysfs_read(0, "registered"));

	edge_register_init(&r, EDGE_FN_NOP, 8, 1, 1);
	EXPECT_EQ(-EBUSY, edge_ioc(self->fd, EDGE_IOC_REGISTER_EVENT, &r));
	EXPECT_EQ(-EBUSY, edge_ioc(fd2, EDGE_IOC_REGISTER_EVENT, &r));
	EXPECT_EQ(0, r.sq.mmap_size);
	EXPECT_EQ(64, edge_sysfs_read(0, "registered"));

	/* One freed: one more fits, in that slot. */
	ASSERT_EQ(0, edge_unregister_id(fd2, 17));
	EXPECT_EQ(63, edge_sysfs_read(0, "registered"));
	ASSERT_EQ(0, edge_ioc(self->fd, EDGE_IOC_REGISTER_EVENT, &r));
	EXPECT_EQ(17, r.id);
	EXPECT_EQ(-EBUSY, edge_ioc(self->fd, EDGE_IOC_REGISTER_EVENT, &r));
	EXPECT_EQ(64, edge_sysfs_read(0, "registered"));

	/* Closing a file frees its half. */
	close(fd2);
	EXPECT_EQ(33, edge_sysfs_read(0, "registered"));
}

/* ------------------------------------------------------------------ */
/* REGISTER's field checks, one field (or pair) per variant.           */

FIXTURE(reg_fields) {
	int fd;
};

FIXTURE_VARIANT(reg_fields) {
	size_t off;
	size_t width;
	uint64_t val;
	size_t off2;		/* second field, when width2 != 0 */
	size_t width2;
	uint64_t val2;
	int err;		/* 0: the (limit) value is accepted */
};

#define F(field)	.off = offsetof(struct edge_register, field), \
			.width = sizeof(((struct edge_register *)0)->field)
#define F2(field)	.off2 = offsetof(struct edge_register, field), \
			.width2 = sizeof(((struct edge_register *)0)->field)

#define BAD(name, field, v)						\
	FIXTURE_VARIANT_ADD(reg_fields, name) { F(field), .val = (v),	\
						 .err = EINVAL }
#define BAD2(name, field, v, field2, v2)				\
	FIXTURE_VARIANT_ADD(reg_fields, name) { F(field), .val = (v),	\
						 F2(field2), .val2 = (v2), \
						 .err = EINVAL }
#define GOOD(name, field, v)						\
	FIXTURE_VARIANT_ADD(reg_fields, name) { F(field), .val = (v) }
#define GOOD2(name, field, v, field2, v2)				\
	FIXTURE_VARIANT_ADD(reg_fields, name) { F(field), .val = (v),	\
						 F2(field2), .val2 = (v2) }

BAD(flags_1, flags, 1);
BAD(flags_top, flags, 0x80000000U);
BAD(func_invalid, func, EDGE_FN_INVALID);
BAD(func_unknown, func, EDGE_FN_MAX + 1);
BAD(func_huge, func, 0xffffffffU);
BAD(priority_16, priority, EDGE_PRIO_MAX + 1);
BAD(grid_x_0, grid_x, 0);
BAD(grid_y_0, grid_y, 0);
BAD(grid_z_0, grid_z, 0);
BAD(grid_x_big, grid_x, 0x80000000U);
BAD(grid_y_big, grid_y, 65536);
BAD(grid_z_big, grid_z, 65536);
BAD(block_x_0, block_x, 0);
BAD(block_y_0, block_y, 0);
BAD(block_z_0, block_z, 0);
BAD(block_1025_threads, block_x, 1025);
BAD2(block_product_big, block_x, 64, block_y, 17);
BAD2(block_product_wraps, block_y, 0x10000, block_z, 0x10000);
BAD(regs_0, regs_per_thread, 0);
BAD(regs_256, regs_per_thread, 256);
BAD2(regs_per_core, block_x, 1024, regs_per_thread, 65);
BAD(smem_big, smem_per_block, 48 * 1024 + 1);
BAD(param_0, param_size, 0);
BAD(param_4, param_size, 4);
BAD(param_12, param_size, 12);
BAD(param_4104, param_size, 4104);
BAD(ring_0, ring_entries, 0);
BAD(ring_3, ring_entries, 3);
BAD(ring_8192, ring_entries, 8192);
BAD2(ring_bytes, param_size, 4096, ring_entries, 2048);
BAD(warp_cycles_0, warp_cycles, 0);
BAD(warp_cycles_big, warp_cycles, (1ULL << 40) + 1);
BAD(deadline_big, deadline_ns, 1000000000000ULL + 1);
/* The limits themselves are accepted (so the checks are not too strict). */
GOOD(limit_priority_15, priority, EDGE_PRIO_MAX);
GOOD(limit_grid_x, grid_x, 0x7fffffffU);
GOOD2(limit_grid_yz, grid_y, 65535, grid_z, 65535);
GOOD2(limit_block_regs, block_x, 1024, regs_per_thread, 64);
GOOD(limit_regs_255, regs_per_thread, 255);
GOOD(limit_smem, smem_per_block, 48 * 1024);
GOOD2(limit_ring_bytes, param_size, 4096, ring_entries, 1024);
GOOD2(limit_ring_entries, param_size, 8, ring_entries, 4096);
GOOD(limit_warp_cycles, warp_cycles, 1ULL << 40);
GOOD(limit_deadline, deadline_ns, 1000000000000ULL);

FIXTURE_SETUP(reg_fields)
{
	self->fd = -1;
	EDGE_SETUP_LOAD("");
	/*
	 * The field limits alone: the device's bound on one event's work
	 * (max_event_warps, 2^20 by default) would refuse the largest
	 * grids; edge_limits_test checks it.
	 */
	ASSERT_EQ(0, edge_sysfs_write(0, "max_event_warps",
				      "18446744073709551615"));
	self->fd = open(EDGE_DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(reg_fields)
{
	if (self->fd >= 0)
		close(self->fd);
	EXPECT_EQ(0, edge_module_unload(3000));
}

static void set_field(struct edge_register *r, size_t off, size_t width,
		      uint64_t v)
{
	uint32_t v32 = (uint32_t)v;

	if (width == 8)
		memcpy((char *)r + off, &v, 8);
	else
		memcpy((char *)r + off, &v32, 4);
}

TEST_F(reg_fields, register)
{
	struct edge_register r;
	int ret;

	reg_default(&r);
	set_field(&r, variant->off, variant->width, variant->val);
	if (variant->width2)
		set_field(&r, variant->off2, variant->width2, variant->val2);
	r.id = 0xdeadbeef;
	ret = edge_ioc(self->fd, EDGE_IOC_REGISTER_EVENT, &r);
	if (variant->err) {
		EXPECT_EQ(-variant->err, ret);
		/* On failure nothing is written, nothing registered. */
		EXPECT_EQ(0xdeadbeef, r.id);
		EXPECT_EQ(0, edge_sysfs_read(0, "registered"));
	} else {
		EXPECT_EQ(0, ret) TH_LOG("limit rejected: %s", strerror(-ret));
		EXPECT_EQ(0, r.id);
		EXPECT_EQ(1, edge_sysfs_read(0, "registered"));
		EXPECT_EQ(0, edge_unregister_id(self->fd, r.id));
	}
}

/* ------------------------------------------------------------------ */
/* mmap of doorbells and rings.                                        */

FIXTURE(map) {
	int fd;
	struct edge_register r;
};

FIXTURE_SETUP(map)
{
	self->fd = -1;
	EDGE_SETUP_LOAD("");
	self->fd = open(EDGE_DEV0, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	/* 512 x 64 B: a multi-page parameter ring and a 2-page CQ. */
	edge_register_init(&self->r, EDGE_FN_ECHO, 64, 512, 2300);
	ASSERT_EQ(0, edge_ioc(self->fd, EDGE_IOC_REGISTER_EVENT, &self->r));
	ASSERT_LT(PAGE, self->r.sq.mmap_size);
	ASSERT_LT(PAGE, self->r.cq.mmap_size);
}

FIXTURE_TEARDOWN(map)
{
	if (self->fd >= 0)
		close(self->fd);
	EXPECT_EQ(0, edge_module_unload(3000));
}

static int try_map(int fd, size_t len, int prot, int flags, uint64_t off)
{
	void *p = mmap(NULL, len, prot, flags, fd, (off_t)off);

	if (p == MAP_FAILED)
		return -errno;
	munmap(p, len);
	return 0;
}

#define RW	(PROT_READ | PROT_WRITE)

/* The offsets the kernel reported map, with their exact sizes. */
TEST_F(map, good_offsets)
{
	EXPECT_EQ(0, try_map(self->fd, PAGE, RW, MAP_SHARED, 0));
	EXPECT_EQ(0, try_map(self->fd, PAGE, PROT_READ, MAP_SHARED, 0));
	EXPECT_EQ(0, try_map(self->fd, self->r.sq.mmap_size, RW, MAP_SHARED,
			     self->r.sq.mmap_offset));
	EXPECT_EQ(0, try_map(self->fd, self->r.cq.mmap_size, RW, MAP_SHARED,
			     self->r.cq.mmap_offset));
}

TEST_F(map, bad_offset)
{
	const struct edge_register *r = &self->r;
	uint64_t bad[] = {
		PAGE,				/* inside nothing */
		r->sq.mmap_offset + PAGE,	/* inside a ring */
		r->cq.mmap_offset + PAGE,
		r->sq.mmap_offset | (64ULL << 24),	/* id 64 */
		3ULL << 32,			/* unknown kind */
		(1ULL << 32) | (1ULL << 40),
		1ULL << 44,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, try_map(self->fd, PAGE, RW, MAP_SHARED,
					   bad[i]))
			TH_LOG("offset %#llx", (unsigned long long)bad[i]);
	}
}

TEST_F(map, bad_size)
{
	const struct edge_register *r = &self->r;

	/* Doorbell page: bigger. */
	EXPECT_EQ(-EINVAL, try_map(self->fd, 2 * PAGE, RW, MAP_SHARED, 0));
	/* Rings: bigger and smaller. */
	EXPECT_EQ(-EINVAL, try_map(self->fd, r->sq.mmap_size + PAGE, RW,
				   MAP_SHARED, r->sq.mmap_offset));
	EXPECT_EQ(-EINVAL, try_map(self->fd, r->sq.mmap_size - PAGE, RW,
				   MAP_SHARED, r->sq.mmap_offset));
	EXPECT_EQ(-EINVAL, try_map(self->fd, PAGE, RW, MAP_SHARED,
				   r->sq.mmap_offset));
	EXPECT_EQ(-EINVAL, try_map(self->fd, r->cq.mmap_size + PAGE, RW,
				   MAP_SHARED, r->cq.mmap_offset));
	EXPECT_EQ(-EINVAL, try_map(self->fd, r->cq.mmap_size - PAGE, RW,
				   MAP_SHARED, r->cq.mmap_offset));
}

TEST_F(map, private_einval)
{
	const struct edge_register *r = &self->r;

	EXPECT_EQ(-EINVAL, try_map(self->fd, PAGE, RW, MAP_PRIVATE, 0));
	EXPECT_EQ(-EINVAL, try_map(self->fd, PAGE, PROT_READ, MAP_PRIVATE, 0));
	EXPECT_EQ(-EINVAL, try_map(self->fd, r->sq.mmap_size, RW, MAP_PRIVATE,
				   r->sq.mmap_offset));
	EXPECT_EQ(-EINVAL, try_map(self->fd, r->cq.mmap_size, RW, MAP_PRIVATE,
				   r->cq.mmap_offset));
}

TEST_F(map, exec_eperm)
{
	const struct edge_register *r = &self->r;
	void *p;

	EXPECT_EQ(-EPERM, try_map(self->fd, PAGE, RW | PROT_EXEC, MAP_SHARED,
				  0));
	EXPECT_EQ(-EPERM, try_map(self->fd, r->sq.mmap_size,
				  PROT_READ | PROT_EXEC, MAP_SHARED,
				  r->sq.mmap_offset));
	EXPECT_EQ(-EPERM, try_map(self->fd, r->cq.mmap_size, RW | PROT_EXEC,
				  MAP_SHARED, r->cq.mmap_offset));

	/* Nor can a mapping become executable later. */
	p = mmap(NULL, PAGE, RW, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(-1, mprotect(p, PAGE, PROT_READ | PROT_EXEC));
	EXPECT_EQ(EACCES, errno);
	/* Nor grow. */
	EXPECT_EQ(MAP_FAILED, mremap(p, PAGE, 2 * PAGE, MREMAP_MAYMOVE));
	munmap(p, PAGE);
}

/* Rings of an id that is not (or no longer) registered by this file. */
TEST_F(map, unregistered_id)
{
	const struct edge_register *r = &self->r;
	struct edge_register r1;

	/* An id once registered, then unregistered. */
	edge_register_init(&r1, EDGE_FN_NOP, 8, 1, 1);
	ASSERT_EQ(0, edge_ioc(self->fd, EDGE_IOC_REGISTER_EVENT, &r1));
	ASSERT_EQ(1, r1.id);
	ASSERT_EQ(0, try_map(self->fd, r1.sq.mmap_size, RW, MAP_SHARED,
			     r1.sq.mmap_offset));
	ASSERT_EQ(0, edge_unregister_id(self->fd, r1.id));
	EXPECT_EQ(-EINVAL, try_map(self->fd, r1.sq.mmap_size, RW, MAP_SHARED,
				   r1.sq.mmap_offset));
	EXPECT_EQ(-EINVAL, try_map(self->fd, r1.cq.mmap_size, RW, MAP_SHARED,
				   r1.cq.mmap_offset));

	/*
	 * Ids never registered.  This needs the driver's private offset
	 * encoding (drv/mmap.c: kind << 32 | id << 24).
	 */
	EXPECT_EQ(-EINVAL, try_map(self->fd, PAGE, RW, MAP_SHARED,
				   r->sq.mmap_offset + (2ULL << 24)));
	EXPECT_EQ(-EINVAL, try_map(self->fd, PAGE, RW, MAP_SHARED,
				   r->cq.mmap_offset + (63ULL << 24)));

	ASSERT_EQ(0, edge_unregister_id(self->fd, r->id));
	EXPECT_EQ(-EINVAL, try_map(self->fd, r->sq.mmap_size, RW, MAP_SHARED,
				   r->sq.mmap_offset));
	EXPECT_EQ(-EINVAL, try_map(self->fd, r->cq.mmap_size, RW, MAP_SHARED,
				   r->cq.mmap_offset));
	/* The doorbell page is the file's, not an entry's. */
	EXPECT_EQ(0, try_map(self->fd, PAGE, RW, MAP_SHARED, 0));
}

/* Mappings survive an unregister (the pages stay referenced). */
TEST_F(map, mapping_outlives_unregister)
{
	const struct edge_register *r = &self->r;
	volatile uint32_t *sq, *cq;

	sq = mmap(NULL, r->sq.mmap_size, RW, MAP_SHARED, self->fd,
		  r->sq.mmap_offset);
	ASSERT_NE(MAP_FAILED, sq);
	cq = mmap(NULL, r->cq.mmap_size, RW, MAP_SHARED, self->fd,
		  r->cq.mmap_offset);
	ASSERT_NE(MAP_FAILED, cq);
	ASSERT_EQ(0, edge_unregister_id(self->fd, r->id));
	sq[r->sq.entries / 4] = 42;
	cq[r->cq.head / 4] = 7;
	EXPECT_EQ(42, sq[r->sq.entries / 4]);
	EXPECT_EQ(0, sq[r->sq.head / 4]);
	munmap((void *)sq, r->sq.mmap_size);
	munmap((void *)cq, r->cq.mmap_size);
}

/*
 * fork(): the child gets neither the doorbell page nor the rings (it must
 * not ring its parent's doorbells); the parent's mappings keep working.
 */
TEST_F_TIMEOUT(map, fork_does_not_inherit, 20)
{
	const struct edge_register *r = &self->r;
	volatile uint32_t *db, *sq, *cq, *addr[3];
	struct edge_cqe *cqes;
	unsigned int i;
	uint64_t end;

	db = mmap(NULL, PAGE, RW, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, db);
	sq = mmap(NULL, r->sq.mmap_size, RW, MAP_SHARED, self->fd,
		  r->sq.mmap_offset);
	ASSERT_NE(MAP_FAILED, sq);
	cq = mmap(NULL, r->cq.mmap_size, RW, MAP_SHARED, self->fd,
		  r->cq.mmap_offset);
	ASSERT_NE(MAP_FAILED, cq);
	addr[0] = db;
	addr[1] = sq;
	addr[2] = cq;

	for (i = 0; i < 3; i++) {
		pid_t pid = fork();
		int st;

		ASSERT_LE(0, pid);
		if (!pid) {
			/* Read, then write: either faults if unmapped. */
			uint32_t v = addr[i][0];

			addr[i][0] = v + 1000;
			_exit(0);
		}
		st = edge_reap(pid, 0);
		EXPECT_TRUE(WIFSIGNALED(st)) TH_LOG("mapping %u inherited", i);
		if (WIFSIGNALED(st)) {
			EXPECT_EQ(SIGSEGV, WTERMSIG(st));
		}
	}

	/* The parent's doorbell, rings and model still work. */
	EXPECT_EQ(0, db[0]);
	EXPECT_EQ(0, sq[r->sq.head / 4]);
	sq[r->sq.entries / 4] = 0x1234;
	__atomic_store_n(&db[r->doorbell / 4], 1, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	ASSERT_EQ(0, edge_ioc_kick(self->fd, 0));
	end = now_ns() + 5000000000ULL;
	while (__atomic_load_n(&cq[r->cq.tail / 4], __ATOMIC_ACQUIRE) != 1 &&
	       now_ns() < end)
		sleep_ms(1);
	ASSERT_EQ(1, cq[r->cq.tail / 4]);
	cqes = (struct edge_cqe *)((char *)cq + r->cq.cqes);
	EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, 0), cqes[0].status);
	EXPECT_EQ(0x1234, cqes[0].res);
	EXPECT_EQ(1, edge_sysfs_read(0, "completed"));
	munmap((void *)db, PAGE);
	munmap((void *)sq, r->sq.mmap_size);
	munmap((void *)cq, r->cq.mmap_size);
}

/* ------------------------------------------------------------------ */

EDGE_FINAL_CHECKS

EDGE_SELFTEST_MAIN
