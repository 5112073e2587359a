// SPDX-License-Identifier: GPL-2.0
/*
 * The "edge" generic netlink family and devices made at run time:
 * every command's happy path and errors (errno and extack text), EPERM
 * for an unprivileged writer, dumps that span several messages and come
 * back whole and once, the events group's notifications in order, the
 * 64-device limit, and dev del as a hot-unplug of a device that is in use
 * (cancelled completions, ENODEV, mappings still safe, names reused).
 */
#define _GNU_SOURCE
#include <grp.h>

#include <linux/capability.h>
#include <sys/syscall.h>

#include "kselftest_harness.h"
#include "edge_selftest.h"
#include "edge_nl.h"

#define NOBODY		65534
#define EDGE_NL_MAX_SEEN	64
#define EDGE_EKT_ENTRIES	64	/* EDGE_INFO.ekt_entries */

FIXTURE(nl) {
	struct enl nl;
};

FIXTURE_SETUP(nl)
{
	ASSERT_EQ(0, edge_module_load("nr_devices=1 virtual_time=1"));
	ASSERT_EQ(0, enl_open(&self->nl));
}

FIXTURE_TEARDOWN(nl)
{
	enl_close(&self->nl);
	EXPECT_EQ(0, edge_module_unload(3000));
}

struct devs {
	int n;
	int seen[EDGE_NL_MAX_SEEN];
	struct enl_reply last;
};

static void count_dev(const struct enl_reply *r, void *arg)
{
	struct devs *d = arg;
	uint32_t i = enl_u32(r, EDGE_A_DEV_INDEX);

	if (i < EDGE_NL_MAX_SEEN)
		d->seen[i]++;
	/* Each set numbers its own: an EKT id only in ekt-get's replies. */
	if (r->cmd == EDGE_CMD_EKT_GET && r->a[EDGE_A_EKT_ID] &&
	    enl_u32(r, EDGE_A_EKT_ID) < EDGE_NL_MAX_SEEN)
		d->seen[enl_u32(r, EDGE_A_EKT_ID)] += 1000;
	d->n++;
	enl_reply_copy(&d->last, r);
}

static int dev_get(struct enl *nl, uint32_t index, struct devs *d)
{
	struct enl_msg m;

	memset(d, 0, sizeof(*d));
	enl_msg(nl, &m, EDGE_CMD_DEV_GET, 0);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, index);
	return enl_do(nl, &m, count_dev, d);
}

static int path_exists(const char *p)
{
	return !access(p, F_OK);
}

/* devtmpfs removes a node asynchronously: wait for it. */
static int wait_path(const char *p, int present, int ms)
{
	while (path_exists(p) != present && ms-- > 0)
		sleep_ms(1);
	return path_exists(p) == present;
}

TEST_F(nl, dev_get_do_and_dump)
{
	struct enl_msg m;
	struct devs d;

	ASSERT_EQ(0, dev_get(&self->nl, 0, &d));
	ASSERT_EQ(1, d.n);
	EXPECT_STREQ("edge0", enl_str(&d.last, EDGE_A_DEV_NAME));
	EXPECT_EQ(EDGE_NL_PRESET_EDGE, enl_u32(&d.last, EDGE_A_DEV_PRESET));
	EXPECT_EQ(EDGE_NL_TIME_VIRTUAL, enl_u32(&d.last, EDGE_A_DEV_TIME_MODE));
	EXPECT_EQ(edge_sysfs_read(0, "poll_idle_us"),
		  enl_u32(&d.last, EDGE_A_DEV_POLL_IDLE_US));

	memset(&d, 0, sizeof(d));
	enl_msg(&self->nl, &m, EDGE_CMD_DEV_GET, NLM_F_DUMP);
	ASSERT_EQ(0, enl_do(&self->nl, &m, count_dev, &d));
	EXPECT_EQ(1, d.n);
	EXPECT_EQ(1, d.seen[0]);
}

/*
 * One ECHO event through the device node @path: the completion's code, or
 * -errno when the device cannot be opened or the entry made or waited for.
 */
static int echo_on(const char *path)
{
	struct edge_register reg;
	struct edge_queue q;
	struct edge_dev dev;
	struct edge_cqe c;
	int ret;

	ret = edge_open(&dev, path);
	if (ret)
		return ret;
	edge_register_init(&reg, EDGE_FN_ECHO, 8, 4, 700);
	ret = edge_queue_create(&dev, &reg, &q);
	if (ret)
		goto out;
	*(uint32_t *)edge_queue_param(&q) = 7;
	edge_queue_submit(&q, 1);
	ret = edge_queue_wait(&q, &c, 5000);
	if (!ret) {
		ret = EDGE_CQE_CODE(c.status);
		edge_queue_cqe_seen(&q);
	}
	if (edge_queue_destroy(&q) && ret >= 0)
		ret = -EIO;
out:
	edge_close(&dev);
	return ret;
}

TEST_F(nl, dev_add_del)
{
	struct enl_msg m;
	struct devs d;
	char buf[64];

	ASSERT_EQ(0, enl_dev_add(&self->nl, -1, EDGE_NL_PRESET_H100_LIKE, EDGE_NL_TIME_REAL));
	ASSERT_TRUE(wait_path("/dev/edge1", 1, 2000));
	ASSERT_EQ(0, edge_sysfs_str(1, "preset", buf, sizeof(buf)));
	EXPECT_STREQ("h100-like", buf);
	ASSERT_EQ(0, edge_sysfs_str(1, "time_mode", buf, sizeof(buf)));
	EXPECT_STREQ("real", buf);
	ASSERT_EQ(0, dev_get(&self->nl, 1, &d));
	EXPECT_EQ(EDGE_NL_PRESET_H100_LIKE, enl_u32(&d.last, EDGE_A_DEV_PRESET));
	/* A device made at run time runs events like one made at load. */
	EXPECT_EQ(EDGE_CQE_DONE, echo_on("/dev/edge1"));
	ASSERT_EQ(0, enl_dev_del(&self->nl, 1));
	EXPECT_TRUE(wait_path("/dev/edge1", 0, 2000));
	EXPECT_FALSE(path_exists(EDGE_SYSFS "/edge1"));
	EXPECT_EQ(-ENODEV, dev_get(&self->nl, 1, &d));
	EXPECT_STREQ("no such device", self->nl.ext);
	EXPECT_EQ(-ENODEV, enl_dev_del(&self->nl, 1));
	/* The name and minor are free again. */
	ASSERT_EQ(0, enl_dev_add(&self->nl, 1, -1, -1));
	ASSERT_TRUE(wait_path("/dev/edge1", 1, 2000));
	ASSERT_EQ(0, edge_sysfs_str(1, "preset", buf, sizeof(buf)));
	EXPECT_STREQ("edge", buf);	/* the module's default */
	EXPECT_EQ(0, edge_sysfs_read(1, "submitted"));
	/*
	 * Each reply carries its request's command id: generic netlink
	 * clients (the kernel's YNL) match a reply to its request by it.
	 */
	ASSERT_EQ(0, dev_get(&self->nl, 1, &d));
	EXPECT_EQ(EDGE_CMD_DEV_GET, d.last.cmd);
	memset(&d, 0, sizeof(d));
	enl_msg(&self->nl, &m, EDGE_CMD_DEV_ADD, 0);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 2);
	ASSERT_EQ(0, enl_do(&self->nl, &m, count_dev, &d));
	EXPECT_EQ(1, d.n);
	EXPECT_EQ(EDGE_CMD_DEV_ADD, d.last.cmd);
	EXPECT_EQ(2, enl_u32(&d.last, EDGE_A_DEV_INDEX));
	ASSERT_EQ(0, enl_dev_del(&self->nl, 2));
}

TEST_F(nl, errors_carry_extack)
{
	struct enl_msg m;

	/* A name past its enum: the attribute and the enum's last value. */
	EXPECT_EQ(-ERANGE, enl_dev_add(&self->nl, -1, EDGE_NL_PRESET_MAX + 1, -1));
	EXPECT_STREQ("integer out of range", self->nl.ext);
	EXPECT_TRUE(self->nl.pol & ENL_POL_MAX);
	EXPECT_EQ(EDGE_NL_PRESET_MAX, self->nl.pol_max);
	EXPECT_EQ(-EEXIST, enl_dev_add(&self->nl, 0, -1, -1));
	EXPECT_STREQ("device index in use", self->nl.ext);
	/* Policy ranges: the core's errno and message. */
	EXPECT_EQ(-ERANGE, enl_dev_add(&self->nl, 64, -1, -1));
	EXPECT_STREQ("integer out of range", self->nl.ext);
	EXPECT_EQ(-ERANGE, enl_dev_add(&self->nl, -1, -1, 2));
	EXPECT_STREQ("integer out of range", self->nl.ext);
	/* An attribute the family does not know; a reply-only one. */
	enl_msg(&self->nl, &m, EDGE_CMD_DEV_ADD, 0);
	enl_put_u32(&m, EDGE_A_DEV_MAX + 1, 1);
	EXPECT_EQ(-EINVAL, enl_do(&self->nl, &m, NULL, NULL));
	enl_msg(&self->nl, &m, EDGE_CMD_DEV_ADD, 0);
	enl_put_u32(&m, EDGE_A_DEV_MEM_USED, 1);
	EXPECT_EQ(-EINVAL, enl_do(&self->nl, &m, NULL, NULL));
	/* A wrong length. */
	enl_msg(&self->nl, &m, EDGE_CMD_DEV_GET, 0);
	enl_put(&m, EDGE_A_DEV_INDEX, "\0", 1);
	EXPECT_EQ(-EINVAL, enl_do(&self->nl, &m, NULL, NULL));
	/* A missing attribute. */
	enl_msg(&self->nl, &m, EDGE_CMD_DEV_DEL, 0);
	EXPECT_EQ(-EINVAL, enl_do(&self->nl, &m, NULL, NULL));
	/* Knobs: ranges and combinations, nothing changed on error. */
	enl_msg(&self->nl, &m, EDGE_CMD_DEV_SET, 0);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
	enl_put_u32(&m, EDGE_A_DEV_POLL_IDLE_US, 5);
	enl_put_u32(&m, EDGE_A_DEV_TIME_SCALE_PCT, 50);
	EXPECT_EQ(-EINVAL, enl_do(&self->nl, &m, NULL, NULL));
	EXPECT_STREQ("a virtual-time device has no time scale", self->nl.ext);
	EXPECT_EQ(1000, edge_sysfs_read(0, "poll_idle_us"));
	enl_msg(&self->nl, &m, EDGE_CMD_DEV_SET, 0);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
	enl_put_u32(&m, EDGE_A_DEV_CPU, 4096);
	EXPECT_EQ(-EINVAL, enl_do(&self->nl, &m, NULL, NULL));
	EXPECT_STREQ("CPU is not online", self->nl.ext);
	enl_msg(&self->nl, &m, EDGE_CMD_DEV_SET, 0);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
	enl_put_u32(&m, EDGE_A_DEV_POLL_IDLE_US, 10000001);
	EXPECT_EQ(-ERANGE, enl_do(&self->nl, &m, NULL, NULL));
	/* An unknown command. */
	enl_msg(&self->nl, &m, EDGE_CMD_MAX + 1, 0);
	EXPECT_EQ(-EOPNOTSUPP, enl_do(&self->nl, &m, NULL, NULL));
	/* A notification id is not a command. */
	enl_msg(&self->nl, &m, EDGE_CMD_DEV_ADD_NTF, 0);
	EXPECT_EQ(-EOPNOTSUPP, enl_do(&self->nl, &m, NULL, NULL));
	/* Happy path of the knobs. */
	enl_msg(&self->nl, &m, EDGE_CMD_DEV_SET, 0);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
	enl_put_u32(&m, EDGE_A_DEV_POLL_IDLE_US, 5);
	enl_put_u32(&m, EDGE_A_DEV_CPU, 0);
	EXPECT_EQ(0, enl_do(&self->nl, &m, NULL, NULL));
	EXPECT_EQ(5, edge_sysfs_read(0, "poll_idle_us"));
	EXPECT_EQ(0, edge_sysfs_read(0, "cpu"));
}

/*
 * Version 2 (issue 26): the family says so, and nothing of version 1
 * reaches it.  Version 1 numbered its commands 1 to 21 (dev-get, dev-add,
 * ..., ekt-drop-ntf) under one flat attribute space and named its group
 * "monitor": an old program's request must find no op (EOPNOTSUPP), not
 * be read under version 2's sets, and an old monitor must find no group.
 * A request's header version is not what tells them apart: the kernel's
 * YNL always sends 1, and version 2's commands work under it.
 */
#define V1_CMD_LAST	21	/* version 1's ekt-drop-ntf */

TEST_F(nl, version_2_refuses_version_1)
{
	static const uint8_t v1_dumps[] = { 1, 6, 14 };	/* dev, ekt, job get */
	struct genlmsghdr *g;
	struct enl_msg m;
	struct devs d;
	struct enl old;
	unsigned int i;
	uint8_t cmd;

	EXPECT_EQ(2, EDGE_FAMILY_VERSION);
	EXPECT_EQ(EDGE_FAMILY_VERSION, self->nl.version);
	/* Past version 1's: no command number means two things. */
	EXPECT_LT(V1_CMD_LAST, EDGE_CMD_DEV_GET);
	for (cmd = 1; cmd <= V1_CMD_LAST; cmd++) {
		/* Version 1's dev-index was 2 (after pad): device 0. */
		enl_init(&self->nl, &m, self->nl.family, cmd, 0);
		g = NLMSG_DATA(&m.nlh);
		g->version = 1;
		enl_put_u32(&m, 2, 0);
		EXPECT_EQ(-EOPNOTSUPP, enl_do(&self->nl, &m, NULL, NULL))
			TH_LOG("version 1's command %u", cmd);
	}
	for (i = 0; i < ARRAY_SIZE(v1_dumps); i++) {
		enl_init(&self->nl, &m, self->nl.family, v1_dumps[i],
			 NLM_F_DUMP);
		enl_put_u32(&m, 2, 0);
		EXPECT_EQ(-EOPNOTSUPP, enl_do(&self->nl, &m, NULL, NULL))
			TH_LOG("version 1's dump %u", v1_dumps[i]);
	}
	/* Nothing was made or removed by them. */
	EXPECT_TRUE(path_exists("/dev/edge0"));
	ASSERT_EQ(0, dev_get(&self->nl, 0, &d));
	/* Version 2's commands under header version 1 (YNL's) and 2. */
	for (i = 1; i <= 2; i++) {
		memset(&d, 0, sizeof(d));
		enl_msg(&self->nl, &m, EDGE_CMD_DEV_GET, 0);
		g = NLMSG_DATA(&m.nlh);
		g->version = i;
		enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
		EXPECT_EQ(0, enl_do(&self->nl, &m, count_dev, &d))
			TH_LOG("header version %u", i);
		EXPECT_EQ(1, d.n);
		EXPECT_EQ(EDGE_CMD_DEV_GET, d.last.cmd);
	}
	/* The old group's name resolves to nothing; the new one does. */
	ASSERT_EQ(0, enl_open(&old));
	ASSERT_EQ(0, enl_resolve_grp(&old, "monitor"));
	EXPECT_EQ(0, old.mcgrp);
	ASSERT_EQ(0, enl_resolve_grp(&old, EDGE_MCGRP_EVENTS));
	EXPECT_NE(0, old.mcgrp);
	EXPECT_STRNE("monitor", EDGE_MCGRP_EVENTS);
	enl_close(&old);
}

/* @m with a u32 @type appended; where it went (an extack offset). */
static uint32_t put_u32_at(struct enl_msg *m, uint16_t type, uint32_t v)
{
	uint32_t off = NLMSG_ALIGN(m->nlh.nlmsg_len);

	enl_put_u32(m, type, v);
	return off;
}

/*
 * Each op takes only its own request's attributes (the spec's lists): one
 * of another op is refused whole, EINVAL, with the core's strict-
 * validation message and its offset (which YNL and edgectl print as its
 * name).  A range error names its attribute by offset and its limits by
 * the policy (NLMSGERR_ATTR_POLICY).
 */
TEST_F(nl, per_op_policy)
{
	static const struct { uint8_t cmd; uint16_t flags, type; } foreign[] = {
		{ EDGE_CMD_DEV_GET, 0, EDGE_A_DEV_PRESET },
		{ EDGE_CMD_DEV_SET, 0, EDGE_A_DEV_PRESET },
		{ EDGE_CMD_DEV_DEL, 0, EDGE_A_DEV_POLL_IDLE_US },
		{ EDGE_CMD_STATS_GET, 0, EDGE_A_STATS_SUBMITTED },
		{ EDGE_CMD_SCHED_GET, 0, EDGE_A_SCHED_RESERVE_PCT },
		{ EDGE_CMD_PLACE_RELEASE, 0, EDGE_A_PLACE_DEV_INDEX },
		{ EDGE_CMD_EKT_GET, NLM_F_DUMP, EDGE_A_EKT_ID },
		{ EDGE_CMD_JOB_GET, NLM_F_DUMP, EDGE_A_JOB_QUEUE },
	};
	struct enl_msg m;
	uint32_t off;
	unsigned int i;

	for (i = 0; i < sizeof(foreign) / sizeof(foreign[0]); i++) {
		enl_msg(&self->nl, &m, foreign[i].cmd, foreign[i].flags);
		if (foreign[i].cmd != EDGE_CMD_PLACE_RELEASE)
			enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
		off = put_u32_at(&m, foreign[i].type, 1);
		EXPECT_EQ(-EINVAL, enl_do(&self->nl, &m, NULL, NULL))
			TH_LOG("command %u, attribute %u", foreign[i].cmd,
			       foreign[i].type);
		EXPECT_STREQ("Unsupported attribute", self->nl.ext);
		EXPECT_EQ(off, self->nl.bad_off);
		EXPECT_EQ(foreign[i].type, enl_bad_attr(&self->nl, &m));
	}
	/* Refused whole: the device is still there, its knob unchanged. */
	EXPECT_TRUE(path_exists("/dev/edge0"));
	EXPECT_EQ(1000, edge_sysfs_read(0, "poll_idle_us"));
	/* A range: the attribute by offset, both limits by the policy. */
	enl_msg(&self->nl, &m, EDGE_CMD_DEV_SET, 0);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
	off = put_u32_at(&m, EDGE_A_DEV_TIME_SCALE_PCT, 10001);
	EXPECT_EQ(-ERANGE, enl_do(&self->nl, &m, NULL, NULL));
	EXPECT_STREQ("integer out of range", self->nl.ext);
	EXPECT_EQ(EDGE_A_DEV_TIME_SCALE_PCT, enl_bad_attr(&self->nl, &m));
	EXPECT_EQ(ENL_POL_MIN | ENL_POL_MAX, self->nl.pol);
	EXPECT_EQ(1, self->nl.pol_min);
	EXPECT_EQ(10000, self->nl.pol_max);
	enl_msg(&self->nl, &m, EDGE_CMD_DEV_GET, 0);
	off = put_u32_at(&m, EDGE_A_DEV_INDEX, 64);
	EXPECT_EQ(-ERANGE, enl_do(&self->nl, &m, NULL, NULL));
	EXPECT_EQ(off, self->nl.bad_off);
	EXPECT_TRUE(self->nl.pol & ENL_POL_MAX);
	EXPECT_EQ(63, self->nl.pol_max);
	/* place's own attributes still work there, and only there. */
	enl_msg(&self->nl, &m, EDGE_CMD_PLACE, 0);
	enl_put_u64(&m, EDGE_A_PLACE_MEM, 4096);
	enl_put_u32(&m, EDGE_A_PLACE_THREADS, 1025);
	EXPECT_EQ(-ERANGE, enl_do(&self->nl, &m, NULL, NULL));
	EXPECT_EQ(EDGE_A_PLACE_THREADS, enl_bad_attr(&self->nl, &m));
	EXPECT_EQ(1024, self->nl.pol_max);
}

/* As nobody: reads work, every write is EPERM with a message. */
static int nobody_writes(void)
{
	struct enl nl;
	struct enl_msg m;
	struct devs d;

	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
		return 100;
	if (enl_open(&nl))
		return 101;
	if (dev_get(&nl, 0, &d) || d.n != 1)
		return 102;
	if (enl_dev_add(&nl, -1, -1, -1) != -EPERM ||
	    strcmp(nl.ext, "changing a device needs CAP_SYS_ADMIN"))
		return 103;
	if (enl_dev_del(&nl, 0) != -EPERM)
		return 104;
	enl_msg(&nl, &m, EDGE_CMD_DEV_SET, 0);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
	enl_put_u32(&m, EDGE_A_DEV_POLL_IDLE_US, 5);
	if (enl_do(&nl, &m, NULL, NULL) != -EPERM)
		return 105;
	enl_msg(&nl, &m, EDGE_CMD_STATS_GET, 0);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
	if (enl_do(&nl, &m, NULL, NULL))
		return 106;
	enl_msg(&nl, &m, EDGE_CMD_SCHED_SET, 0);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
	enl_put_u32(&m, EDGE_A_SCHED_QUEUE_POLICY, EDGE_NL_QUEUE_POLICY_EDF);
	if (enl_do(&nl, &m, NULL, NULL) != -EPERM)
		return 107;
	enl_msg(&nl, &m, EDGE_CMD_SCHED_GET, 0);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
	if (enl_do(&nl, &m, NULL, NULL))
		return 108;
	return 0;
}

TEST_F(nl, eperm_as_nobody)
{
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (!pid)
		_exit(nobody_writes());
	EXPECT_EQ(0, WEXITSTATUS(edge_reap(pid, 0)));
	EXPECT_TRUE(path_exists("/dev/edge0"));
	EXPECT_FALSE(path_exists("/dev/edge1"));
}

/*
 * Root with CAP_NET_ADMIN but not CAP_SYS_ADMIN (a network daemon's
 * capabilities): still EPERM.  GENL_ADMIN_PERM alone would let it in,
 * and the test as nobody, who has neither, could not tell the two apart.
 */
static int net_admin_writes(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct c[2] = {};
	struct enl nl;

	c[0].effective = c[0].permitted = 1U << CAP_NET_ADMIN;
	if (syscall(__NR_capset, &h, c))
		return 100;
	/* The socket's opener and the sender both lack CAP_SYS_ADMIN. */
	if (enl_open(&nl))
		return 101;
	if (enl_dev_add(&nl, -1, -1, -1) != -EPERM ||
	    strcmp(nl.ext, "changing a device needs CAP_SYS_ADMIN"))
		return 102;
	if (enl_dev_del(&nl, 0) != -EPERM)
		return 103;
	return 0;
}

TEST_F(nl, eperm_with_cap_net_admin_only)
{
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (!pid)
		_exit(net_admin_writes());
	EXPECT_EQ(0, WEXITSTATUS(edge_reap(pid, 0)));
	EXPECT_TRUE(path_exists("/dev/edge0"));
	EXPECT_FALSE(path_exists("/dev/edge1"));
}

/* 64 devices, then ENOSPC; the dump of 64 spans several messages. */
TEST_F(nl, limit_and_multi_message_dump)
{
	struct enl_msg m;
	struct enl small;
	struct devs d;
	int i, chunks = 0;

	/* Its reads are all 4 KiB: the kernel fills no bigger messages. */
	ASSERT_EQ(0, enl_open(&small));
	for (i = 1; i < 64; i++)
		ASSERT_EQ(0, enl_dev_add(&self->nl, -1, EDGE_NL_PRESET_LAX, -1));
	EXPECT_EQ(-ENOSPC, enl_dev_add(&self->nl, -1, -1, -1));
	EXPECT_STREQ("device limit (64) reached", self->nl.ext);
	memset(&d, 0, sizeof(d));
	enl_msg(&small, &m, EDGE_CMD_DEV_GET, NLM_F_DUMP);
	ASSERT_EQ(0, enl_xfer(&small, &m, count_dev, &d, 4096, &chunks));
	enl_close(&small);
	EXPECT_EQ(64, d.n);
	for (i = 0; i < 64; i++)
		EXPECT_EQ(1, d.seen[i]);
	TH_LOG("64 devices in %d reads", chunks);
	EXPECT_LT(2, chunks);
	/* Free one in the middle: the next add takes it. */
	ASSERT_EQ(0, enl_dev_del(&self->nl, 17));
	ASSERT_EQ(0, dev_get(&self->nl, 0, &d));
	ASSERT_EQ(0, enl_dev_add(&self->nl, -1, -1, -1));
	ASSERT_EQ(0, dev_get(&self->nl, 17, &d));
	EXPECT_EQ(1, d.n);
}

/* A full EKT (64 entries) dumped through a small buffer: each id once. */
TEST_F(nl, ekt_dump_whole_and_once)
{
	struct edge_register reg;
	struct enl_msg m;
	struct enl small;
	struct devs d;
	int fd, i, chunks = 0;

	ASSERT_EQ(0, enl_open(&small));
	fd = open(EDGE_DEV0, O_RDWR);
	ASSERT_LE(0, fd);
	for (i = 0; i < EDGE_EKT_ENTRIES; i++) {
		edge_register_init(&reg, EDGE_FN_ECHO, 8, 4, 700);
		reg.priority = i % 4;
		ASSERT_EQ(0, edge_ioc(fd, EDGE_IOC_REGISTER_EVENT, &reg));
	}
	memset(&d, 0, sizeof(d));
	enl_msg(&small, &m, EDGE_CMD_EKT_GET, NLM_F_DUMP);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
	ASSERT_EQ(0, enl_xfer(&small, &m, count_dev, &d, 4096, &chunks));
	enl_close(&small);
	EXPECT_EQ(EDGE_EKT_ENTRIES, d.n);
	/* Each id once (+1000), every message device 0's (+1). */
	EXPECT_EQ(1000 + EDGE_EKT_ENTRIES, d.seen[0]);
	for (i = 1; i < EDGE_EKT_ENTRIES; i++)
		EXPECT_EQ(1000, d.seen[i]);
	EXPECT_EQ((uint32_t)getpid(), enl_u32(&d.last, EDGE_A_EKT_OWNER_PID));
	EXPECT_EQ(EDGE_FN_ECHO, enl_u32(&d.last, EDGE_A_EKT_FUNC));
	EXPECT_EQ(4, enl_u32(&d.last, EDGE_A_EKT_RING_ENTRIES));
	EXPECT_EQ(3, enl_u32(&d.last, EDGE_A_EKT_PRIORITY));
	EXPECT_EQ(NULL, d.last.a[EDGE_A_EKT_KERNEL]);
	TH_LOG("64 entries in %d reads", chunks);
	EXPECT_LT(2, chunks);
	/* Errors: no device, no index. */
	enl_msg(&self->nl, &m, EDGE_CMD_EKT_GET, NLM_F_DUMP);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 9);
	EXPECT_EQ(-ENODEV, enl_do(&self->nl, &m, NULL, NULL));
	enl_msg(&self->nl, &m, EDGE_CMD_EKT_GET, NLM_F_DUMP);
	EXPECT_EQ(-EINVAL, enl_do(&self->nl, &m, NULL, NULL));
	close(fd);
}

struct jobs_seen {
	int n;
	int seen[EDGE_NL_MAX_SEEN + 1];
	int other;
	struct enl_reply last;
};

static void count_job(const struct enl_reply *r, void *arg)
{
	struct jobs_seen *j = arg;
	uint64_t id = enl_u64(r, EDGE_A_JOB_ID);

	if (id && id <= EDGE_NL_MAX_SEEN && !enl_u32(r, EDGE_A_DEV_INDEX))
		j->seen[id]++;
	else
		j->other++;
	j->n++;
	enl_reply_copy(&j->last, r);
}

/*
 * The job table: 64 jobs held at one model instant come back through a
 * small buffer in several reads, each once, with what was submitted;
 * once they ended the table is empty.
 */
TEST_F(nl, job_dump_whole_and_once)
{
	struct edge_register reg;
	struct edge_reap_jobs rj;
	struct edge_job_cqe c[64];
	struct jobs_seen js;
	struct enl_msg m;
	struct enl small;
	uint32_t kern[2];
	int fd, i, chunks = 0, got = 0;
	uint64_t end;

	fd = open(EDGE_DEV0, O_RDWR);
	ASSERT_LE(0, fd);
	edge_register_init(&reg, EDGE_FN_NOP, 8, 4, 700);
	reg.grid_x = 4;
	reg.block_x = 64;
	ASSERT_EQ(0, edge_ioc(fd, EDGE_IOC_REGISTER_EVENT, &reg));
	kern[0] = reg.id;
	kern[1] = reg.id;
	ASSERT_EQ(0, edge_sysfs_write(0, "sched/vt_hold", "1"));
	for (i = 0; i < 64; i++) {
		struct edge_job j = {
			.size = sizeof(j),
			.queue = i % 8,
			.nr_kernels = 2,
			.deadline_ns = 1000000 + i,
			.kernels = (uintptr_t)kern,
		};

		ASSERT_EQ(0, edge_ioc(fd, EDGE_IOC_SUBMIT_JOB, &j));
		ASSERT_EQ(i + 1, j.id);
	}
	ASSERT_EQ(0, enl_open(&small));
	memset(&js, 0, sizeof(js));
	enl_msg(&small, &m, EDGE_CMD_JOB_GET, NLM_F_DUMP);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
	ASSERT_EQ(0, enl_xfer(&small, &m, count_job, &js, 4096, &chunks));
	enl_close(&small);
	EXPECT_EQ(64, js.n);
	EXPECT_EQ(0, js.other);
	for (i = 1; i <= 64; i++)
		EXPECT_EQ(1, js.seen[i]) TH_LOG("job %d", i);
	TH_LOG("64 jobs in %d reads", chunks);
	EXPECT_LT(2, chunks);
	EXPECT_EQ((uint32_t)getpid(), enl_u32(&js.last, EDGE_A_JOB_OWNER_PID));
	EXPECT_EQ(2, enl_u32(&js.last, EDGE_A_JOB_KERNELS));
	EXPECT_EQ(0, enl_u32(&js.last, EDGE_A_JOB_LAUNCHED));
	EXPECT_GE(EDGE_NL_JOB_PARSE, enl_u32(&js.last, EDGE_A_JOB_STATE));
	EXPECT_EQ(1000000 + enl_u64(&js.last, EDGE_A_JOB_ID) - 1,
		  enl_u64(&js.last, EDGE_A_JOB_DEADLINE_NS));
	EXPECT_EQ((enl_u64(&js.last, EDGE_A_JOB_ID) - 1) % 8,
		  enl_u32(&js.last, EDGE_A_JOB_QUEUE));

	/* Time on: every job ends and leaves the table. */
	ASSERT_EQ(0, edge_sysfs_write(0, "sched/vt_hold", "0"));
	end = now_ns() + 10000000000ULL;
	while (got < 64 && now_ns() < end) {
		memset(&rj, 0, sizeof(rj));
		rj.size = sizeof(rj);
		rj.nr = 64;
		rj.cqes = (uintptr_t)c;
		ASSERT_EQ(0, edge_ioc(fd, EDGE_IOC_REAP_JOBS, &rj));
		got += rj.nr;
		if (!rj.nr)
			sleep_ms(2);
	}
	EXPECT_EQ(64, got);
	memset(&js, 0, sizeof(js));
	enl_msg(&self->nl, &m, EDGE_CMD_JOB_GET, NLM_F_DUMP);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
	EXPECT_EQ(0, enl_do(&self->nl, &m, count_job, &js));
	EXPECT_EQ(0, js.n);
	/* Errors: no device, no index. */
	enl_msg(&self->nl, &m, EDGE_CMD_JOB_GET, NLM_F_DUMP);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 9);
	EXPECT_EQ(-ENODEV, enl_do(&self->nl, &m, NULL, NULL));
	enl_msg(&self->nl, &m, EDGE_CMD_JOB_GET, NLM_F_DUMP);
	EXPECT_EQ(-EINVAL, enl_do(&self->nl, &m, NULL, NULL));
	close(fd);
}

TEST_F(nl, stats_match_sysfs)
{
	static const struct { int attr; const char *name; } st[] = {
		{ EDGE_A_STATS_SUBMITTED, "submitted" },
		{ EDGE_A_STATS_COMPLETED, "completed" },
		{ EDGE_A_STATS_CANCELLED, "cancelled" },
		{ EDGE_A_STATS_JOBS_SUBMITTED, "jobs_submitted" },
	};
	struct edge_register reg;
	struct edge_queue q;
	struct edge_dev dev;
	struct edge_cqe c;
	struct enl_msg m;
	struct devs d;
	unsigned int i;

	ASSERT_EQ(0, edge_open(&dev, EDGE_DEV0));
	edge_register_init(&reg, EDGE_FN_ECHO, 8, 4, 700);
	ASSERT_EQ(0, edge_queue_create(&dev, &reg, &q));
	for (i = 0; i < 3; i++) {
		*(uint32_t *)edge_queue_param(&q) = i;
		edge_queue_submit(&q, 1);
		ASSERT_EQ(0, edge_queue_wait(&q, &c, 5000));
		edge_queue_cqe_seen(&q);
	}
	memset(&d, 0, sizeof(d));
	enl_msg(&self->nl, &m, EDGE_CMD_STATS_GET, 0);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
	ASSERT_EQ(0, enl_do(&self->nl, &m, count_dev, &d));
	ASSERT_EQ(1, d.n);
	EXPECT_EQ(3, enl_u64(&d.last, EDGE_A_STATS_COMPLETED));
	for (i = 0; i < sizeof(st) / sizeof(st[0]); i++)
		EXPECT_EQ(edge_sysfs_read(0, st[i].name),
			  (long long)enl_u64(&d.last, st[i].attr));
	EXPECT_EQ(1, enl_u32(&d.last, EDGE_A_STATS_EKT_USED));
	edge_queue_destroy(&q);
	edge_close(&dev);
}

/* The spec's enums' names (nl-simt, nl-queue-policy), as sysfs has them. */
static const char * const simt_names[] = { "drain", "reserve", "preempt" };
static const char * const queue_names[] = {
	"rr", "mlfq", "edf", "sjf", "ljf", "srf", "prema", "lax", "lax-sw",
	"lax-cpu", "bat", "bay", "pro", "lax-p"
};

_Static_assert(ARRAY_SIZE(simt_names) == EDGE_NL_SIMT_MAX + 1, "nl-simt");
_Static_assert(ARRAY_SIZE(queue_names) == EDGE_NL_QUEUE_POLICY_MAX + 1,
	       "nl-queue-policy");

static const char *enum_name(const char * const *names, unsigned int n,
			     uint32_t v)
{
	return v < n ? names[v] : "?";
}

static int sched_str(const char *attr, char *buf, size_t len)
{
	return edge_sysfs_str(0, attr, buf, len);
}

/*
 * A policy's knob by name (policy-param): set and read back through its
 * descriptor; a value out of its range is refused with the knob and its
 * limits in the extack, an unknown name with its own, and a refused
 * request changes nothing.
 */
TEST_F(nl, policy_param)
{
	struct enl_msg m;
	struct devs d;
	char buf[64];

	enl_msg(&self->nl, &m, EDGE_CMD_SCHED_SET, 0);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
	enl_put_param(&m, "prema_ns", 7000);
	enl_put_param(&m, "predict_ns", 0);
	ASSERT_EQ(0, enl_do(&self->nl, &m, NULL, NULL));
	EXPECT_EQ(7000, edge_sysfs_read(0, "cp/prema_ns"));
	EXPECT_EQ(0, edge_sysfs_read(0, "cp/predict_ns"));

	memset(&d, 0, sizeof(d));
	enl_msg(&self->nl, &m, EDGE_CMD_SCHED_GET, 0);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
	ASSERT_EQ(0, enl_do(&self->nl, &m, count_dev, &d));
	ASSERT_EQ(1, d.n);
	ASSERT_NE(NULL, d.last.a[EDGE_A_SCHED_POLICY_PARAM]);
	EXPECT_EQ(7000ULL, enl_param(&d.last, "prema_ns",
				     EDGE_A_POLICY_PARAM_VALUE));
	EXPECT_EQ(1000ULL, enl_param(&d.last, "prema_ns",
				     EDGE_A_POLICY_PARAM_RANGE_MIN));
	EXPECT_EQ(1000000000ULL, enl_param(&d.last, "prema_ns",
					   EDGE_A_POLICY_PARAM_RANGE_MAX));
	EXPECT_EQ(250000ULL, enl_param(&d.last, "prema_ns",
				       EDGE_A_POLICY_PARAM_DEFAULT));
	EXPECT_EQ(0ULL, enl_param(&d.last, "predict_ns",
				  EDGE_A_POLICY_PARAM_VALUE));

	/* Below its least, with a queue policy that would be taken. */
	enl_msg(&self->nl, &m, EDGE_CMD_SCHED_SET, 0);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
	enl_put_u32(&m, EDGE_A_SCHED_QUEUE_POLICY, EDGE_NL_QUEUE_POLICY_EDF);
	enl_put_param(&m, "prema_ns", 999);
	EXPECT_EQ(-EINVAL, enl_do(&self->nl, &m, NULL, NULL));
	EXPECT_STREQ("prema_ns: from 1000 to 1000000000", self->nl.ext);
	EXPECT_EQ(7000, edge_sysfs_read(0, "cp/prema_ns"));
	ASSERT_EQ(0, sched_str("sched/queue_policy", buf, sizeof(buf)));
	EXPECT_STRNE("edf", buf);

	enl_msg(&self->nl, &m, EDGE_CMD_SCHED_SET, 0);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
	enl_put_param(&m, "predict_ns", 1000000001ULL);
	EXPECT_EQ(-EINVAL, enl_do(&self->nl, &m, NULL, NULL));
	EXPECT_STREQ("predict_ns: from 0 to 1000000000", self->nl.ext);

	enl_msg(&self->nl, &m, EDGE_CMD_SCHED_SET, 0);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
	enl_put_param(&m, "prema_ns", 5000);
	enl_put_param(&m, "prema_nsx", 5000);
	EXPECT_EQ(-EINVAL, enl_do(&self->nl, &m, NULL, NULL));
	EXPECT_STREQ("no policy has a knob of this name", self->nl.ext);
	EXPECT_EQ(7000, edge_sysfs_read(0, "cp/prema_ns"));

	/* Its limits themselves are taken. */
	enl_msg(&self->nl, &m, EDGE_CMD_SCHED_SET, 0);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
	enl_put_param(&m, "prema_ns", 1000);
	enl_put_param(&m, "predict_ns", 1000000000);
	ASSERT_EQ(0, enl_do(&self->nl, &m, NULL, NULL));
	EXPECT_EQ(1000, edge_sysfs_read(0, "cp/prema_ns"));
	enl_msg(&self->nl, &m, EDGE_CMD_SCHED_SET, 0);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
	enl_put_param(&m, "prema_ns", 1000000000);
	ASSERT_EQ(0, enl_do(&self->nl, &m, NULL, NULL));
	EXPECT_EQ(1000000000, edge_sysfs_read(0, "cp/prema_ns"));

	/* sysfs: the same knob, the same limits. */
	EXPECT_EQ(-EINVAL, edge_sysfs_write(0, "cp/prema_ns", "999"));
	EXPECT_EQ(0, edge_sysfs_write(0, "cp/prema_ns", "250000"));
	EXPECT_EQ(0, edge_sysfs_write(0, "cp/predict_ns", "50000"));
}

/* sched get agrees with sysfs; set changes all it names, or nothing. */
TEST_F(nl, sched_get_set)
{
	struct enl_reply r;
	struct enl_msg m;
	struct devs d;
	struct enl mon;
	char buf[64];

	ASSERT_EQ(0, enl_open(&mon));
	ASSERT_EQ(0, enl_subscribe(&mon));
	memset(&d, 0, sizeof(d));
	enl_msg(&self->nl, &m, EDGE_CMD_SCHED_GET, 0);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
	ASSERT_EQ(0, enl_do(&self->nl, &m, count_dev, &d));
	ASSERT_EQ(0, sched_str("sched/policy", buf, sizeof(buf)));
	EXPECT_STREQ(buf, enum_name(simt_names, ARRAY_SIZE(simt_names),
				    enl_u32(&d.last, EDGE_A_SCHED_POLICY)));
	ASSERT_EQ(0, sched_str("sched/queue_policy", buf, sizeof(buf)));
	EXPECT_STREQ(buf, enum_name(queue_names, ARRAY_SIZE(queue_names),
				    enl_u32(&d.last,
					    EDGE_A_SCHED_QUEUE_POLICY)));
	EXPECT_EQ(edge_sysfs_read(0, "cp/prema_ns"),
		  enl_param(&d.last, "prema_ns", EDGE_A_POLICY_PARAM_VALUE));
	EXPECT_EQ(edge_sysfs_read(0, "sched/reserve_pct"),
		  enl_u32(&d.last, EDGE_A_SCHED_RESERVE_PCT));

	enl_msg(&self->nl, &m, EDGE_CMD_SCHED_SET, 0);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
	enl_put_u32(&m, EDGE_A_SCHED_POLICY, EDGE_NL_SIMT_PREEMPT);
	enl_put_u32(&m, EDGE_A_SCHED_VICTIM, EDGE_NL_VICTIM_NEWEST);
	enl_put_u32(&m, EDGE_A_SCHED_QUEUE_POLICY, EDGE_NL_QUEUE_POLICY_LAX);
	enl_put_u32(&m, EDGE_A_SCHED_TB_POLICY, EDGE_NL_TB_POLICY_SRTF);
	enl_put_param(&m, "prema_ns", 2000);
	enl_put_u32(&m, EDGE_A_SCHED_FLUSH, 5);
	ASSERT_EQ(0, enl_do(&self->nl, &m, NULL, NULL));
	ASSERT_EQ(0, sched_str("sched/policy", buf, sizeof(buf)));
	EXPECT_STREQ("preempt", buf);
	ASSERT_EQ(0, sched_str("sched/victim", buf, sizeof(buf)));
	EXPECT_STREQ("newest", buf);
	ASSERT_EQ(0, sched_str("sched/queue_policy", buf, sizeof(buf)));
	EXPECT_STREQ("lax", buf);
	ASSERT_EQ(0, sched_str("sched/tb_policy", buf, sizeof(buf)));
	EXPECT_STREQ("srtf", buf);
	EXPECT_EQ(2000, edge_sysfs_read(0, "cp/prema_ns"));
	ASSERT_EQ(0, sched_str("sched/flush", buf, sizeof(buf)));
	EXPECT_STREQ("boost+loads", buf);
	ASSERT_EQ(0, enl_next_ntf(&mon, &r, 2000));
	EXPECT_EQ(EDGE_CMD_POLICY_NTF, r.cmd);
	EXPECT_EQ(EDGE_NL_QUEUE_POLICY_LAX, enl_u32(&r, EDGE_A_SCHED_QUEUE_POLICY));
	EXPECT_EQ(EDGE_NL_SIMT_PREEMPT, enl_u32(&r, EDGE_A_SCHED_POLICY));

	/* Errors change nothing, each with its message. */
	enl_msg(&self->nl, &m, EDGE_CMD_SCHED_SET, 0);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
	enl_put_u32(&m, EDGE_A_SCHED_POLICY, EDGE_NL_SIMT_DRAIN);
	enl_put_u32(&m, EDGE_A_SCHED_QUEUE_POLICY, EDGE_NL_QUEUE_POLICY_MAX + 1);
	EXPECT_EQ(-ERANGE, enl_do(&self->nl, &m, NULL, NULL));
	EXPECT_STREQ("integer out of range", self->nl.ext);
	EXPECT_EQ(EDGE_A_SCHED_QUEUE_POLICY, enl_bad_attr(&self->nl, &m));
	EXPECT_EQ(EDGE_NL_QUEUE_POLICY_MAX, self->nl.pol_max);
	enl_msg(&self->nl, &m, EDGE_CMD_SCHED_SET, 0);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
	enl_put_u32(&m, EDGE_A_SCHED_POLICY, EDGE_NL_SIMT_DRAIN);
	enl_put_u32(&m, EDGE_A_SCHED_TB_POLICY, EDGE_NL_TB_POLICY_MAX + 1);
	EXPECT_EQ(-ERANGE, enl_do(&self->nl, &m, NULL, NULL));
	EXPECT_EQ(EDGE_A_SCHED_TB_POLICY, enl_bad_attr(&self->nl, &m));
	EXPECT_EQ(EDGE_NL_TB_POLICY_MAX, self->nl.pol_max);
	ASSERT_EQ(0, sched_str("sched/tb_policy", buf, sizeof(buf)));
	EXPECT_STREQ("srtf", buf);
	enl_msg(&self->nl, &m, EDGE_CMD_SCHED_SET, 0);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
	enl_put_u32(&m, EDGE_A_SCHED_POLICY, EDGE_NL_SIMT_MAX + 1);
	EXPECT_EQ(-ERANGE, enl_do(&self->nl, &m, NULL, NULL));
	EXPECT_EQ(EDGE_A_SCHED_POLICY, enl_bad_attr(&self->nl, &m));
	EXPECT_EQ(EDGE_NL_SIMT_MAX, self->nl.pol_max);
	enl_msg(&self->nl, &m, EDGE_CMD_SCHED_SET, 0);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
	enl_put_u32(&m, EDGE_A_SCHED_POLICY, EDGE_NL_SIMT_DRAIN);
	enl_put_u32(&m, EDGE_A_SCHED_CP_PROFILE_NS, 10);
	EXPECT_EQ(-ERANGE, enl_do(&self->nl, &m, NULL, NULL));
	enl_msg(&self->nl, &m, EDGE_CMD_SCHED_SET, 0);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
	enl_put_u32(&m, EDGE_A_SCHED_POLICY, EDGE_NL_SIMT_DRAIN);
	enl_put_u32(&m, EDGE_A_SCHED_FLUSH, 16);
	EXPECT_EQ(-ERANGE, enl_do(&self->nl, &m, NULL, NULL));
	ASSERT_EQ(0, sched_str("sched/policy", buf, sizeof(buf)));
	EXPECT_STREQ("preempt", buf);
	ASSERT_EQ(0, sched_str("sched/queue_policy", buf, sizeof(buf)));
	EXPECT_STREQ("lax", buf);
	/* No notification for what did not happen; one for sysfs. */
	EXPECT_EQ(-EAGAIN, enl_next_ntf(&mon, &r, 100));
	ASSERT_EQ(0, edge_sysfs_write(0, "sched/queue_policy", "edf"));
	ASSERT_EQ(0, enl_next_ntf(&mon, &r, 2000));
	EXPECT_EQ(EDGE_CMD_POLICY_NTF, r.cmd);
	EXPECT_EQ(EDGE_NL_QUEUE_POLICY_EDF, enl_u32(&r, EDGE_A_SCHED_QUEUE_POLICY));
	enl_close(&mon);
}

/* Each kind of notification, in the order things happened. */
/* A TB kernel for jobs: @tbs TBs of 256 threads, @us each. */
static uint32_t reg_tb(struct __test_metadata *_metadata, int fd,
		       uint32_t tbs, uint32_t us)
{
	struct edge_register r;

	edge_register_init(&r, EDGE_FN_NOP, 8, 4, us * CYCLES_PER_US);
	r.grid_x = tbs;
	r.block_x = 256;
	EXPECT_EQ(0, edge_ioc(fd, EDGE_IOC_REGISTER_EVENT, &r));
	return r.id;
}

static long long preemptions(void)
{
	char buf[2048];

	if (edge_sysfs_str(0, "sched/stats", buf, sizeof(buf)))
		return -1;
	return stat_value(buf, "preemptions");
}

static uint64_t submit_job(struct __test_metadata *_metadata, int fd,
			   uint32_t k, uint64_t deadline_ns)
{
	struct edge_job j = {
		.size = sizeof(j),
		.nr_kernels = 1,
		.deadline_ns = deadline_ns,
		.kernels = (uintptr_t)&k,
	};

	EXPECT_EQ(0, edge_ioc(fd, EDGE_IOC_SUBMIT_JOB, &j));
	return j.id;
}

static struct edge_job_cqe reap_job(struct __test_metadata *_metadata, int fd)
{
	struct edge_job_cqe c = { 0 };
	struct edge_reap_jobs rj = {
		.size = sizeof(rj),
		.nr = 1,
		.cqes = (uintptr_t)&c,
	};
	uint64_t end = now_ns() + 10000000000ULL;

	do {
		rj.nr = 1;
		EXPECT_EQ(0, edge_ioc(fd, EDGE_IOC_REAP_JOBS, &rj));
		if (!rj.nr)
			sleep_ms(2);
	} while (!rj.nr && now_ns() < end);
	EXPECT_EQ(1, rj.nr);
	return c;
}

/* One job of kernel @k on device 0; its completion. */
static struct edge_job_cqe one_job(struct __test_metadata *_metadata, int fd,
				   uint32_t k, uint64_t deadline_ns,
				   uint64_t *id)
{
	*id = submit_job(_metadata, fd, k, deadline_ns);
	return reap_job(_metadata, fd);
}

/* The next notification must be @cmd, about device 0 (and job @id). */
static void expect_ntf(struct __test_metadata *_metadata, struct enl *mon,
		       struct enl_reply *r, uint8_t cmd, uint64_t id)
{
	ASSERT_EQ(0, enl_next_ntf(mon, r, 3000)) TH_LOG("waiting for %u", cmd);
	ASSERT_EQ(cmd, r->cmd);
	EXPECT_EQ(0, enl_u32(r, EDGE_A_DEV_INDEX));
	if (!id)
		return;
	EXPECT_EQ(id, enl_u64(r, EDGE_A_JOB_ID));
	EXPECT_EQ((uint32_t)getpid(), enl_u32(r, EDGE_A_JOB_OWNER_PID));
}

/*
 * A job LAX-P drops: admitted (its kernel alone makes the deadline),
 * then stuck behind an event kernel that fills the GPU for ~300 us, which
 * admission does not see; dropped at the CP's first tick past its
 * deadline.  Returns its id.
 */
static uint64_t dropped_job(struct __test_metadata *_metadata,
			    struct enl *mon, int fd, uint32_t k)
{
	struct edge_register bg_reg;
	struct edge_job_cqe c;
	struct edge_queue bg;
	struct enl_reply r;
	struct edge_cqe cqe;
	struct edge_dev d;
	uint64_t id, end = now_ns() + 5000000000ULL;

	EXPECT_EQ(0, edge_open(&d, EDGE_DEV0));
	EXPECT_EQ(0, sched_write("sched/vt_hold", "1"));
	edge_register_init(&bg_reg, EDGE_FN_NOP, 8, 2, 300 * CYCLES_PER_US);
	bg_reg.grid_x = 16 * 8;
	bg_reg.block_x = 256;
	EXPECT_EQ(0, edge_queue_create(&d, &bg_reg, &bg));
	expect_ntf(_metadata, mon, &r, EDGE_CMD_EKT_REG_NTF, 0);
	*(uint32_t *)edge_queue_param(&bg) = 0;
	edge_queue_submit(&bg, 1);
	while (edge_queue_dispatched(&bg) != 1 && now_ns() < end)
		sleep_ms(1);
	id = submit_job(_metadata, fd, k, 60000);
	EXPECT_EQ(0, sched_write("sched/vt_hold", "0"));
	c = reap_job(_metadata, fd);
	TH_LOG("lax-p: status %u met %u latency %llu", c.status, c.met,
	       (unsigned long long)c.latency_ns);
	EXPECT_EQ(EDGE_CQE_CANCELLED, c.status);
	EXPECT_EQ(0, edge_queue_wait(&bg, &cqe, 10000));
	edge_queue_cqe_seen(&bg);
	EXPECT_EQ(0, edge_queue_destroy(&bg));
	edge_close(&d);
	return id;
}

/*
 * Warp-level preemptions (edge_trace_test's run): a GPU full of a
 * background kernel's TBs, and 16 events of a higher priority.
 */
static void preempting_run(struct __test_metadata *_metadata)
{
	struct edge_register bg_reg, ev_reg;
	struct edge_queue bg, ev;
	struct edge_cqe cqe;
	struct edge_dev d;
	uint64_t end;
	unsigned int i;

	ASSERT_EQ(0, edge_open(&d, EDGE_DEV0));
	ASSERT_EQ(0, sched_write("sched/policy", "preempt"));
	ASSERT_EQ(0, sched_write("sched/vt_hold", "1"));
	edge_register_init(&bg_reg, EDGE_FN_NOP, 8, 2, 40000);
	bg_reg.grid_x = 16 * 8;
	bg_reg.block_x = 256;
	bg_reg.regs_per_thread = 32;
	ASSERT_EQ(0, edge_queue_create(&d, &bg_reg, &bg));
	edge_register_init(&ev_reg, EDGE_FN_ECHO, 8, 16, 2300);
	ev_reg.regs_per_thread = 16;
	ev_reg.priority = 10;
	ASSERT_EQ(0, edge_queue_create(&d, &ev_reg, &ev));
	*(uint32_t *)edge_queue_param(&bg) = 0;
	edge_queue_submit(&bg, 1);
	end = now_ns() + 5000000000ULL;
	while (edge_queue_dispatched(&bg) != 1 && now_ns() < end)
		sleep_ms(1);
	/* One step later its TBs are on the cores. */
	sleep_ms(50);
	for (i = 0; i < 16; i++)
		*(uint32_t *)edge_queue_param_ahead(&ev, i) = i;
	edge_queue_submit(&ev, 16);
	while (edge_queue_dispatched(&ev) != 16 && now_ns() < end)
		sleep_ms(1);
	ASSERT_EQ(0, sched_write("sched/vt_hold", "0"));
	for (i = 0; i < 16; i++) {
		ASSERT_EQ(0, edge_queue_wait(&ev, &cqe, 10000));
		edge_queue_cqe_seen(&ev);
	}
	ASSERT_EQ(0, edge_queue_wait(&bg, &cqe, 10000));
	edge_queue_cqe_seen(&bg);
	ASSERT_EQ(0, edge_queue_destroy(&ev));
	ASSERT_EQ(0, edge_queue_destroy(&bg));
	edge_close(&d);
}

TEST_F(nl, monitor_in_order)
{
	struct edge_register reg;
	struct edge_job_cqe c;
	struct enl_reply r;
	long long preempts = 0;
	struct enl mon;
	uint32_t k;
	int fd, ntfs = 0;
	uint64_t id;

	ASSERT_EQ(0, enl_open(&mon));
	ASSERT_EQ(0, enl_subscribe(&mon));
	ASSERT_EQ(0, enl_dev_add(&self->nl, 3, EDGE_NL_PRESET_LAX, -1));
	fd = open("/dev/edge3", O_RDWR);
	ASSERT_LE(0, fd);
	edge_register_init(&reg, EDGE_FN_ECHO, 8, 4, 700);
	ASSERT_EQ(0, edge_ioc(fd, EDGE_IOC_REGISTER_EVENT, &reg));
	ASSERT_EQ(0, edge_unregister_id(fd, reg.id));
	ASSERT_EQ(0, edge_ioc(fd, EDGE_IOC_REGISTER_EVENT, &reg));
	close(fd);	/* unregisters what is left */
	ASSERT_EQ(0, enl_dev_del(&self->nl, 3));

	ASSERT_EQ(0, enl_next_ntf(&mon, &r, 2000));
	EXPECT_EQ(EDGE_CMD_DEV_ADD_NTF, r.cmd);
	EXPECT_EQ(3, enl_u32(&r, EDGE_A_DEV_INDEX));
	EXPECT_EQ(EDGE_NL_PRESET_LAX, enl_u32(&r, EDGE_A_DEV_PRESET));
	ASSERT_EQ(0, enl_next_ntf(&mon, &r, 2000));
	EXPECT_EQ(EDGE_CMD_EKT_REG_NTF, r.cmd);
	EXPECT_EQ(3, enl_u32(&r, EDGE_A_EKT_DEV_INDEX));
	EXPECT_EQ((uint32_t)getpid(), enl_u32(&r, EDGE_A_EKT_OWNER_PID));
	ASSERT_EQ(0, enl_next_ntf(&mon, &r, 2000));
	EXPECT_EQ(EDGE_CMD_EKT_UNREG_NTF, r.cmd);
	ASSERT_EQ(0, enl_next_ntf(&mon, &r, 2000));
	EXPECT_EQ(EDGE_CMD_EKT_REG_NTF, r.cmd);
	ASSERT_EQ(0, enl_next_ntf(&mon, &r, 2000));
	EXPECT_EQ(EDGE_CMD_EKT_UNREG_NTF, r.cmd);
	ASSERT_EQ(0, enl_next_ntf(&mon, &r, 2000));
	EXPECT_EQ(EDGE_CMD_DEV_DEL_NTF, r.cmd);
	EXPECT_EQ(3, enl_u32(&r, EDGE_A_DEV_INDEX));
	EXPECT_EQ(-EAGAIN, enl_next_ntf(&mon, &r, 100));

	/*
	 * Jobs on device 0, each policy after its policy-ntf: LAX rejects
	 * a job its kernel cannot meet (5 us against ~20 us), EDF runs it
	 * late, LAX-P drops one stuck behind the background kernel.
	 */
	fd = open(EDGE_DEV0, O_RDWR);
	ASSERT_LE(0, fd);
	k = reg_tb(_metadata, fd, 2 * 128, 10);
	expect_ntf(_metadata, &mon, &r, EDGE_CMD_EKT_REG_NTF, 0);
	ASSERT_EQ(0, sched_write("sched/queue_policy", "lax"));
	expect_ntf(_metadata, &mon, &r, EDGE_CMD_POLICY_NTF, 0);
	EXPECT_EQ(EDGE_NL_QUEUE_POLICY_LAX, enl_u32(&r, EDGE_A_SCHED_QUEUE_POLICY));
	c = one_job(_metadata, fd, k, 5000, &id);
	EXPECT_EQ(EDGE_CQE_REJECTED, c.status);
	expect_ntf(_metadata, &mon, &r, EDGE_CMD_JOB_REJECT_NTF, id);
	ASSERT_EQ(0, sched_write("sched/queue_policy", "edf"));
	expect_ntf(_metadata, &mon, &r, EDGE_CMD_POLICY_NTF, 0);
	c = one_job(_metadata, fd, k, 5000, &id);
	EXPECT_EQ(EDGE_CQE_DONE, c.status);
	EXPECT_EQ(0, c.met);
	expect_ntf(_metadata, &mon, &r, EDGE_CMD_JOB_LATE_NTF, id);
	EXPECT_EQ(c.latency_ns, enl_u64(&r, EDGE_A_JOB_LATENCY_NS));
	/* Met: no notification. */
	c = one_job(_metadata, fd, k, 1000000000, &id);
	EXPECT_EQ(1, c.met);
	ASSERT_EQ(0, sched_write("sched/queue_policy", "lax-p"));
	expect_ntf(_metadata, &mon, &r, EDGE_CMD_POLICY_NTF, 0);
	id = dropped_job(_metadata, &mon, fd, k);
	expect_ntf(_metadata, &mon, &r, EDGE_CMD_JOB_DROP_NTF, id);
	expect_ntf(_metadata, &mon, &r, EDGE_CMD_EKT_UNREG_NTF, 0);
	close(fd);
	expect_ntf(_metadata, &mon, &r, EDGE_CMD_EKT_UNREG_NTF, 0);

	/*
	 * Preemptions, in two runs 300 ms apart: summaries whose counts
	 * add up to the model's, the first at once, the next a second after
	 * it (a storm is not a message each).  Queues come and go between.
	 */
	preempting_run(_metadata);
	sleep_ms(300);
	preempting_run(_metadata);
	while (!enl_next_ntf(&mon, &r, 2000)) {
		if (r.cmd == EDGE_CMD_EKT_REG_NTF ||
		    r.cmd == EDGE_CMD_EKT_UNREG_NTF ||
		    r.cmd == EDGE_CMD_POLICY_NTF)
			continue;
		ASSERT_EQ(EDGE_CMD_PREEMPT_NTF, r.cmd);
		EXPECT_EQ(0, enl_u32(&r, EDGE_A_DEV_INDEX));
		preempts += enl_u64(&r, EDGE_A_STATS_SUMMARY_PREEMPTIONS);
		EXPECT_EQ(preempts, enl_u64(&r, EDGE_A_STATS_PREEMPTIONS));
		if (ntfs++)
			EXPECT_LE(900000000ULL, enl_u64(&r, EDGE_A_STATS_SUMMARY_NS));
	}
	TH_LOG("%lld preemptions in %d summaries", preempts, ntfs);
	EXPECT_LT(0, preempts);
	EXPECT_LE(2, ntfs);
	EXPECT_EQ(preemptions(), preempts);
	enl_close(&mon);
}

/*
 * dev del of a device in use: events in flight (virtual time held) and
 * a job end CANCELLED in the mapped ring and the job FIFO; every later
 * call is ENODEV but REAP_JOBS; the mappings stay readable and writable;
 * poll says HUP; the name comes back as a new, empty device.
 */
TEST_F(nl, del_is_hot_unplug)
{
	struct edge_register reg;
	struct edge_job_cqe jc[4];
	struct edge_reap_jobs rj = { .size = sizeof(rj), .nr = 4 };
	struct edge_queue q;
	struct edge_dev dev;
	struct pollfd pfd;
	uint32_t kern, i;
	struct edge_job job = {
		.size = sizeof(job), .nr_kernels = 1,
		.deadline_ns = 1000000000ULL,
	};

	ASSERT_EQ(0, enl_dev_add(&self->nl, 2, -1, EDGE_NL_TIME_VIRTUAL));
	ASSERT_TRUE(wait_path("/dev/edge2", 1, 2000));
	ASSERT_EQ(0, edge_sysfs_write(2, "sched/vt_hold", "1"));
	ASSERT_EQ(0, edge_open(&dev, "/dev/edge2"));
	edge_register_init(&reg, EDGE_FN_ECHO, 8, 16, 7000);
	ASSERT_EQ(0, edge_queue_create(&dev, &reg, &q));
	for (i = 0; i < 8; i++)
		*(uint32_t *)edge_queue_param_ahead(&q, i) = i;
	edge_queue_submit(&q, 8);
	kern = q.id;
	job.kernels = (uintptr_t)&kern;
	ASSERT_EQ(0, edge_ioc(dev.fd, EDGE_IOC_SUBMIT_JOB, &job));
	ASSERT_LE(8, edge_sysfs_wait_ge(2, "submitted", 8, 3000));

	ASSERT_EQ(0, enl_dev_del(&self->nl, 2));
	/* Every event has its status, in the mapping. */
	for (i = 0; i < 8; i++) {
		struct edge_cqe c;

		ASSERT_EQ(1, edge_queue_peek(&q, &c));
		EXPECT_EQ(EDGE_CQE_CANCELLED, EDGE_CQE_CODE(c.status));
		edge_queue_cqe_seen(&q);
	}
	/* The job's too, through the one call that still works. */
	rj.cqes = (uintptr_t)jc;
	ASSERT_EQ(0, edge_ioc(dev.fd, EDGE_IOC_REAP_JOBS, &rj));
	ASSERT_EQ(1, rj.nr);
	EXPECT_EQ(EDGE_CQE_CANCELLED, jc[0].status);
	/* Everything else: ENODEV. */
	EXPECT_EQ(-ENODEV, edge_ioc(dev.fd, EDGE_IOC_SUBMIT_JOB, &job));
	EXPECT_EQ(-ENODEV, edge_ioc(dev.fd, EDGE_IOC_REGISTER_EVENT, &reg));
	EXPECT_EQ(-ENODEV, edge_ioc_kick(dev.fd, 0));
	EXPECT_EQ(-ENODEV, edge_unregister_id(dev.fd, q.id));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 4096, PROT_READ, MAP_SHARED, dev.fd, 0));
	EXPECT_EQ(ENODEV, errno);
	pfd.fd = dev.fd;
	pfd.events = POLLIN;
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_TRUE(pfd.revents & POLLHUP);
	/* The mappings: still there, still ours. */
	*(uint32_t *)edge_queue_param(&q) = 42;
	edge_queue_submit(&q, 1);
	EXPECT_EQ(0, edge_queue_peek(&q, &(struct edge_cqe){}));
	EXPECT_FALSE(path_exists(EDGE_SYSFS "/edge2"));
	/* A new edge2 while the old one's file is open. */
	ASSERT_EQ(0, enl_dev_add(&self->nl, 2, EDGE_NL_PRESET_LAX, -1));
	ASSERT_TRUE(wait_path(EDGE_SYSFS "/edge2", 1, 2000));
	EXPECT_EQ(0, edge_sysfs_read(2, "registered"));
	EXPECT_EQ(-ENODEV, edge_ioc_kick(dev.fd, 0));
	edge_queue_drop(&q);
	edge_close(&dev);
	/* The new one works. */
	ASSERT_EQ(0, edge_open(&dev, "/dev/edge2"));
	EXPECT_EQ(0, edge_ioc_kick(dev.fd, 0));
	edge_close(&dev);
}

/*
 * Every knob of dev set, sched set and place at 0, at its limits and one
 * beyond them.  A refusal carries its errno (ERANGE from the policy's
 * range, EINVAL from the handler's own check), an extack that names the
 * attribute (NLMSGERR_ATTR_OFFS points at it) and changes nothing: the
 * device's and the scheduler's replies are byte for byte as before.  A
 * value at a limit is taken, and read back.  Time scale 0 would divide
 * by zero in the front end (frontend.c), so it must never get there.
 */
struct knob {
	uint8_t cmd;
	uint16_t attr;
	uint32_t v;
	int err;
};

#define KNOB_FLUSH_ALL	0xf	/* emul/gpu/simt.h EDGE_FLUSH_ALL */

static const struct knob knobs[] = {
	{ EDGE_CMD_DEV_SET, EDGE_A_DEV_POLL_IDLE_US, 0, 0 },
	{ EDGE_CMD_DEV_SET, EDGE_A_DEV_POLL_IDLE_US, 10000000, 0 },
	{ EDGE_CMD_DEV_SET, EDGE_A_DEV_POLL_IDLE_US, 10000001, -ERANGE },
	{ EDGE_CMD_DEV_SET, EDGE_A_DEV_POLL_IDLE_US, UINT32_MAX, -ERANGE },
	{ EDGE_CMD_DEV_SET, EDGE_A_DEV_POLL_IDLE_US, 1000, 0 },
	{ EDGE_CMD_DEV_SET, EDGE_A_DEV_TIME_SCALE_PCT, 1, 0 },
	{ EDGE_CMD_DEV_SET, EDGE_A_DEV_TIME_SCALE_PCT, 10000, 0 },
	{ EDGE_CMD_DEV_SET, EDGE_A_DEV_TIME_SCALE_PCT, 10001, -ERANGE },
	{ EDGE_CMD_DEV_SET, EDGE_A_DEV_TIME_SCALE_PCT, UINT32_MAX, -ERANGE },
	{ EDGE_CMD_DEV_SET, EDGE_A_DEV_TIME_SCALE_PCT, 100, 0 },
	{ EDGE_CMD_DEV_SET, EDGE_A_DEV_CPU, 0, 0 },
	{ EDGE_CMD_DEV_SET, EDGE_A_DEV_CPU, (uint32_t)-1, 0 },
	{ EDGE_CMD_DEV_SET, EDGE_A_DEV_CPU, (uint32_t)-2, -ERANGE },
	{ EDGE_CMD_DEV_SET, EDGE_A_DEV_CPU, 4096, -EINVAL },
	{ EDGE_CMD_DEV_SET, EDGE_A_DEV_CPU, INT32_MAX, -EINVAL },
	{ EDGE_CMD_SCHED_SET, EDGE_A_SCHED_FLUSH, 0, 0 },
	{ EDGE_CMD_SCHED_SET, EDGE_A_SCHED_FLUSH, KNOB_FLUSH_ALL, 0 },
	{ EDGE_CMD_SCHED_SET, EDGE_A_SCHED_FLUSH, KNOB_FLUSH_ALL + 1, -ERANGE },
	{ EDGE_CMD_SCHED_SET, EDGE_A_SCHED_RESERVE_PCT, 0, 0 },
	{ EDGE_CMD_SCHED_SET, EDGE_A_SCHED_RESERVE_PCT, 100, 0 },
	{ EDGE_CMD_SCHED_SET, EDGE_A_SCHED_RESERVE_PCT, 101, -ERANGE },
	{ EDGE_CMD_SCHED_SET, EDGE_A_SCHED_DISPATCH_CYCLES, 0, 0 },
	{ EDGE_CMD_SCHED_SET, EDGE_A_SCHED_DISPATCH_CYCLES, 1000000, 0 },
	{ EDGE_CMD_SCHED_SET, EDGE_A_SCHED_DISPATCH_CYCLES, 1000001, -ERANGE },
	{ EDGE_CMD_SCHED_SET, EDGE_A_SCHED_WAIT_CYCLES, 0, 0 },
	{ EDGE_CMD_SCHED_SET, EDGE_A_SCHED_WAIT_CYCLES, 1000000, 0 },
	{ EDGE_CMD_SCHED_SET, EDGE_A_SCHED_WAIT_CYCLES, 1000001, -ERANGE },
	{ EDGE_CMD_SCHED_SET, EDGE_A_SCHED_CTX_BYTES_PER_CYCLE, 0, -ERANGE },
	{ EDGE_CMD_SCHED_SET, EDGE_A_SCHED_CTX_BYTES_PER_CYCLE, 1, 0 },
	{ EDGE_CMD_SCHED_SET, EDGE_A_SCHED_CTX_BYTES_PER_CYCLE, UINT32_MAX, 0 },
	{ EDGE_CMD_SCHED_SET, EDGE_A_SCHED_SKIP_EVENT_EXEC, 0, 0 },
	{ EDGE_CMD_SCHED_SET, EDGE_A_SCHED_SKIP_EVENT_EXEC, 1, 0 },
	{ EDGE_CMD_SCHED_SET, EDGE_A_SCHED_SKIP_EVENT_EXEC, 2, -ERANGE },
	{ EDGE_CMD_SCHED_SET, EDGE_A_SCHED_CP_PARSE_NS, 0, 0 },
	{ EDGE_CMD_SCHED_SET, EDGE_A_SCHED_CP_PARSE_NS, 1000000000, 0 },
	{ EDGE_CMD_SCHED_SET, EDGE_A_SCHED_CP_PARSE_NS, 1000000001, -ERANGE },
	{ EDGE_CMD_SCHED_SET, EDGE_A_SCHED_CP_HOST_NS, 0, 0 },
	{ EDGE_CMD_SCHED_SET, EDGE_A_SCHED_CP_HOST_NS, 1000000000, 0 },
	{ EDGE_CMD_SCHED_SET, EDGE_A_SCHED_CP_HOST_NS, 1000000001, -ERANGE },
	{ EDGE_CMD_SCHED_SET, EDGE_A_SCHED_CP_PROFILE_NS, 0, -ERANGE },
	{ EDGE_CMD_SCHED_SET, EDGE_A_SCHED_CP_PROFILE_NS, 999, -ERANGE },
	{ EDGE_CMD_SCHED_SET, EDGE_A_SCHED_CP_PROFILE_NS, 1000, 0 },
	{ EDGE_CMD_SCHED_SET, EDGE_A_SCHED_CP_PROFILE_NS, 1000000000, 0 },
	{ EDGE_CMD_SCHED_SET, EDGE_A_SCHED_CP_PROFILE_NS, 1000000001, -ERANGE },
	{ EDGE_CMD_PLACE, EDGE_A_PLACE_THREADS, 0, -ERANGE },
	{ EDGE_CMD_PLACE, EDGE_A_PLACE_THREADS, 1025, -ERANGE },
	{ EDGE_CMD_PLACE, EDGE_A_PLACE_BLOCKS, 0, -ERANGE },
	{ EDGE_CMD_PLACE, EDGE_A_PLACE_BLOCKS, (uint32_t)INT32_MAX + 1, -ERANGE },
	{ EDGE_CMD_PLACE, EDGE_A_PLACE_MEM, 0, -ERANGE },
	/* Last: were it taken, the front end would divide by it. */
	{ EDGE_CMD_DEV_SET, EDGE_A_DEV_TIME_SCALE_PCT, 0, -ERANGE },
};

/* A reply's attributes, whole, in one buffer: for memcmp(). */
struct knob_state {
	uint8_t a[2][ENL_A_MAX + 1][16];
	struct enl_reply last;
};

static void keep_reply(const struct enl_reply *r, void *arg)
{
	enl_reply_copy(&((struct knob_state *)arg)->last, r);
}

static int knob_snapshot(struct enl *nl, uint32_t dev, struct knob_state *s)
{
	static const uint8_t cmd[2] = { EDGE_CMD_DEV_GET, EDGE_CMD_SCHED_GET };
	struct enl_msg m;
	int i, t, ret;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < 2; i++) {
		enl_msg(nl, &m, cmd[i], 0);
		enl_put_u32(&m, EDGE_A_DEV_INDEX, dev);
		memset(&s->last, 0, sizeof(s->last));
		ret = enl_do(nl, &m, keep_reply, s);
		if (ret)
			return ret;
		for (t = 0; t <= ENL_A_MAX; t++) {
			const struct nlattr *a = s->last.a[t];
			size_t len;

			if (!a)
				continue;
			len = a->nla_len - NLA_HDRLEN;
			memcpy(s->a[i][t], (const char *)a + NLA_HDRLEN,
			       len < 15 ? len : 15);
			s->a[i][t][15] = 1;	/* present */
		}
	}
	return 0;
}

static int knob_send(struct enl *nl, uint32_t dev, const struct knob *k,
		     struct enl_msg *m)
{
	enl_msg(nl, m, k->cmd, 0);
	if (k->cmd != EDGE_CMD_PLACE)
		enl_put_u32(m, EDGE_A_DEV_INDEX, dev);
	if (k->cmd == EDGE_CMD_PLACE) {
		uint64_t mem = k->attr == EDGE_A_PLACE_MEM ? k->v : 1 << 20;

		enl_put(m, EDGE_A_PLACE_MEM, &mem, sizeof(mem));
		enl_put_u32(m, EDGE_A_PLACE_THREADS,
			    k->attr == EDGE_A_PLACE_THREADS ? k->v : 32);
		enl_put_u32(m, EDGE_A_PLACE_BLOCKS,
			    k->attr == EDGE_A_PLACE_BLOCKS ? k->v : 1);
	} else {
		enl_put_u32(m, k->attr, k->v);
	}
	return enl_do(nl, m, NULL, NULL);
}

TEST_F(nl, knobs_at_zero_limits_and_beyond)
{
	struct knob_state before, after;
	struct enl_msg m;
	char ext[256];
	unsigned int i;
	int ret, bad;

	/* A real-time device: it has a time scale. */
	ASSERT_EQ(0, enl_dev_add(&self->nl, 1, -1, EDGE_NL_TIME_REAL));
	for (i = 0; i < ARRAY_SIZE(knobs); i++) {
		const struct knob *k = &knobs[i];

		ASSERT_EQ(0, knob_snapshot(&self->nl, 1, &before));
		ret = knob_send(&self->nl, 1, k, &m);
		/* The error's extack, before the next request clears it. */
		bad = enl_bad_attr(&self->nl, &m);
		snprintf(ext, sizeof(ext), "%s", self->nl.ext);
		ASSERT_EQ(0, knob_snapshot(&self->nl, 1, &after));
		EXPECT_EQ(k->err, ret)
			TH_LOG("cmd %u attr %u value %u: %d (%s)", k->cmd,
			       k->attr, k->v, ret, ext);
		if (k->err) {
			/* The extack names the attribute, and says why. */
			EXPECT_EQ(k->attr, bad)
				TH_LOG("cmd %u attr %u value %u", k->cmd,
				       k->attr, k->v);
			EXPECT_STREQ(k->err == -ERANGE ? "integer out of range" :
				     "CPU is not online", ext);
			EXPECT_EQ(0, memcmp(&before.a, &after.a,
					    sizeof(before.a)))
				TH_LOG("cmd %u attr %u value %u changed state",
				       k->cmd, k->attr, k->v);
		} else {
			/* Taken, and read back as written. */
			EXPECT_EQ(0, memcmp(after.a[k->cmd == EDGE_CMD_SCHED_SET][k->attr],
					    &k->v, sizeof(k->v)))
				TH_LOG("cmd %u attr %u value %u not read back",
				       k->cmd, k->attr, k->v);
		}
	}
	/* The device still runs its events at the scale left (100 %). */
	{
		struct edge_register reg;
		struct edge_queue q;
		struct edge_dev dev;
		struct edge_cqe c;

		ASSERT_EQ(0, edge_open(&dev, "/dev/edge1"));
		edge_register_init(&reg, EDGE_FN_ECHO, 8, 4, 700);
		ASSERT_EQ(0, edge_queue_create(&dev, &reg, &q));
		*(uint32_t *)edge_queue_param(&q) = 7;
		edge_queue_submit(&q, 1);
		ASSERT_EQ(0, edge_queue_wait(&q, &c, 5000));
		EXPECT_EQ(EDGE_CQE_DONE, EDGE_CQE_CODE(c.status));
		edge_queue_cqe_seen(&q);
		EXPECT_EQ(0, edge_queue_destroy(&q));
		edge_close(&dev);
	}
	ASSERT_EQ(0, enl_dev_del(&self->nl, 1));
}

EDGE_FINAL_CHECKS

EDGE_SELFTEST_MAIN
