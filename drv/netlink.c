// SPDX-License-Identifier: GPL-2.0
/*
 * The "edge" generic netlink family: Documentation/netlink/specs/edge.yaml
 * is its definition, uapi/linux/edge_netlink.h its numbers.
 *
 * Every command runs under edge_devs_lock, so it sees a device table that
 * does not change under it.  Writes need CAP_SYS_ADMIN (checked in
 * pre_doit: GENL_ADMIN_PERM only asks for CAP_NET_ADMIN); reads are open.
 * Dumps keep their place in cb->args and are flagged NLM_F_DUMP_INTR when
 * the table changed between their messages.
 *
 * Notifications go to the "events" group.  One raised where we may not
 * sleep is built with GFP_ATOMIC and sent from a work item; one that
 * cannot be allocated tells the listeners to resync (genl_set_err()
 * with -ENOBUFS).  What can happen at interrupt rates (kernel-queue
 * drops) or at the model's pace (preemptions) is not a message each: it
 * is counted where it happens, and a per-device delayed work sends the
 * counts from process context, at most one round a second.
 */
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/skbuff.h>
#include <linux/workqueue.h>
#include <net/genetlink.h>
#include <linux/edge_netlink.h>

#include "edge_drv.h"
#include "edge_kcompat.h"
#include "netlink.h"
#include "policy/place.h"

#define EDGE_NL_WRITE	BIT(0)		/* ops->internal_flags */

static struct genl_family edge_nl_family;
static bool edge_nl_ready;
/*
 * Bumped by every add and del: dump consistency (NLM_F_DUMP_INTR).  Never
 * 0, which nl_dump_check_consistent() reads as "no round yet".
 */
static unsigned int edge_devs_gen = 1;

/* Beyond a policy's s16 bounds. */
static struct netlink_range_validation edge_nl_poll_range = {
	.max = 10 * USEC_PER_SEC,
};

static struct netlink_range_validation edge_nl_cycles_range = {
	.max = 1000000,
};

static struct netlink_range_validation edge_nl_ns_range = {
	.max = NSEC_PER_SEC,
};

/* The CP's profiling period: 1 us to 1 s (emul/cp/cp.c). */
static struct netlink_range_validation edge_nl_period_range = {
	.min = 1000,
	.max = NSEC_PER_SEC,
};

/* A job's blocks per launch: any positive int, as a CUDA grid's x. */
static struct netlink_range_validation edge_nl_blocks_range = {
	.min = 1,
	.max = S32_MAX,
};

/*
 * A policy's knob: its name and value here; its range is its
 * descriptor's (emul/policy/param.h), checked in the doit.
 */
static const struct nla_policy edge_nl_param_policy[EDGE_A_POLICY_PARAM_MAX + 1] = {
	[EDGE_A_POLICY_PARAM_NAME] = { .type = NLA_NUL_STRING, .len = 31 },
	[EDGE_A_POLICY_PARAM_VALUE] = { .type = NLA_U64 },
};

/*
 * One policy per op's request, in its object's attribute set, accepting
 * only the attributes the spec lists for it (operations: request:
 * attributes; tools/nlspec-check.py --policies holds the two to each
 * other).  Each spans its whole set: another of the set's attributes is
 * then an NLA_UNSPEC entry, which strict validation (every op:
 * resv_start_op) refuses with -EINVAL, "Unsupported attribute" and its
 * offset (NLMSGERR_ATTR_OFFS: YNL and edgectl print its name), on 6.1
 * as on 6.12; short policies would say "Unknown attribute type" of some.
 * A name is an enum (the spec's nl-* definitions): its policy's maximum
 * refuses an unknown one with the attribute and that limit.
 */

#define EDGE_NL_DEV_INDEX	NLA_POLICY_MAX(NLA_U32, EDGE_MAX_DEVICES - 1)

/* dev-get, dev-del. */
static const struct nla_policy edge_nl_dev_policy[EDGE_A_DEV_MAX + 1] = {
	[EDGE_A_DEV_INDEX] = EDGE_NL_DEV_INDEX,
};

static const struct nla_policy edge_nl_dev_add_policy[EDGE_A_DEV_MAX + 1] = {
	[EDGE_A_DEV_INDEX] = EDGE_NL_DEV_INDEX,
	[EDGE_A_DEV_PRESET] = NLA_POLICY_MAX(NLA_U32, EDGE_NL_PRESET_MAX),
	[EDGE_A_DEV_TIME_MODE] = NLA_POLICY_MAX(NLA_U32, EDGE_NL_TIME_VIRTUAL),
};

static const struct nla_policy edge_nl_dev_set_policy[EDGE_A_DEV_MAX + 1] = {
	[EDGE_A_DEV_INDEX] = EDGE_NL_DEV_INDEX,
	[EDGE_A_DEV_POLL_IDLE_US] = NLA_POLICY_FULL_RANGE(NLA_U32,
							  &edge_nl_poll_range),
	[EDGE_A_DEV_TIME_SCALE_PCT] = NLA_POLICY_RANGE(NLA_U32, 1, 10000),
	[EDGE_A_DEV_CPU] = NLA_POLICY_MIN(NLA_S32, -1),
};

static const struct nla_policy edge_nl_stats_policy[EDGE_A_STATS_MAX + 1] = {
	[EDGE_A_STATS_DEV_INDEX] = EDGE_NL_DEV_INDEX,
};

static const struct nla_policy edge_nl_ekt_policy[EDGE_A_EKT_MAX + 1] = {
	[EDGE_A_EKT_DEV_INDEX] = EDGE_NL_DEV_INDEX,
};

static const struct nla_policy edge_nl_job_policy[EDGE_A_JOB_MAX + 1] = {
	[EDGE_A_JOB_DEV_INDEX] = EDGE_NL_DEV_INDEX,
};

static const struct nla_policy edge_nl_sched_get_policy[EDGE_A_SCHED_MAX + 1] = {
	[EDGE_A_SCHED_DEV_INDEX] = EDGE_NL_DEV_INDEX,
};

static const struct nla_policy edge_nl_sched_set_policy[EDGE_A_SCHED_MAX + 1] = {
	[EDGE_A_SCHED_DEV_INDEX] = EDGE_NL_DEV_INDEX,
	[EDGE_A_SCHED_SEED] = { .type = NLA_U64 },
	[EDGE_A_SCHED_POLICY] = NLA_POLICY_MAX(NLA_U32, EDGE_NL_SIMT_MAX),
	[EDGE_A_SCHED_VICTIM] = NLA_POLICY_MAX(NLA_U32, EDGE_NL_VICTIM_MAX),
	[EDGE_A_SCHED_FLUSH] = NLA_POLICY_MAX(NLA_U32, EDGE_FLUSH_ALL),
	[EDGE_A_SCHED_RESERVE_PCT] = NLA_POLICY_MAX(NLA_U32, 100),
	[EDGE_A_SCHED_DISPATCH_CYCLES] = NLA_POLICY_FULL_RANGE(NLA_U32,
							       &edge_nl_cycles_range),
	[EDGE_A_SCHED_WAIT_CYCLES] = NLA_POLICY_FULL_RANGE(NLA_U32,
							   &edge_nl_cycles_range),
	[EDGE_A_SCHED_CTX_BYTES_PER_CYCLE] = NLA_POLICY_MIN(NLA_U32, 1),
	[EDGE_A_SCHED_SKIP_EVENT_EXEC] = NLA_POLICY_MAX(NLA_U32, 1),
	[EDGE_A_SCHED_QUEUE_POLICY] = NLA_POLICY_MAX(NLA_U32,
						     EDGE_NL_QUEUE_POLICY_MAX),
	[EDGE_A_SCHED_CP_PARSE_NS] = NLA_POLICY_FULL_RANGE(NLA_U32,
							   &edge_nl_ns_range),
	[EDGE_A_SCHED_CP_HOST_NS] = NLA_POLICY_FULL_RANGE(NLA_U32,
							  &edge_nl_ns_range),
	[EDGE_A_SCHED_CP_PROFILE_NS] = NLA_POLICY_FULL_RANGE(NLA_U32,
							     &edge_nl_period_range),
	[EDGE_A_SCHED_TB_POLICY] = NLA_POLICY_MAX(NLA_U32, EDGE_NL_TB_POLICY_MAX),
	[EDGE_A_SCHED_POLICY_PARAM] = NLA_POLICY_NESTED(edge_nl_param_policy),
};

static const struct nla_policy edge_nl_place_policy[EDGE_A_PLACE_MAX + 1] = {
	[EDGE_A_PLACE_MEM] = NLA_POLICY_MIN(NLA_U64, 1),
	[EDGE_A_PLACE_THREADS] = NLA_POLICY_RANGE(NLA_U32, 1, 1024),
	[EDGE_A_PLACE_BLOCKS] = NLA_POLICY_FULL_RANGE(NLA_U32,
						      &edge_nl_blocks_range),
	[EDGE_A_PLACE_POLICY] = NLA_POLICY_MAX(NLA_U32,
					       EDGE_NL_PLACE_POLICY_MAX),
};

static const struct nla_policy edge_nl_place_release_policy[EDGE_A_PLACE_MAX + 1] = {
	[EDGE_A_PLACE_ID] = { .type = NLA_U64 },
};

/* Build-time checks of the uapi's numbers against what we rely on. */
#define EDGE_NL_SAME(a, b)	static_assert((int)(a) == (int)(b))
#define EDGE_NL_FITS(a, b)	static_assert((int)(a) <= (int)(b))

/*
 * The largest set: non-parallel ops parse into the family's one buffer,
 * of the family's maxattr.
 */
#define EDGE_NL_MAXATTR	EDGE_A_STATS_MAX
EDGE_NL_FITS(EDGE_A_DEV_MAX, EDGE_NL_MAXATTR);
EDGE_NL_FITS(EDGE_A_EKT_MAX, EDGE_NL_MAXATTR);
EDGE_NL_FITS(EDGE_A_JOB_MAX, EDGE_NL_MAXATTR);
EDGE_NL_FITS(EDGE_A_SCHED_MAX, EDGE_NL_MAXATTR);
EDGE_NL_FITS(EDGE_A_PLACE_MAX, EDGE_NL_MAXATTR);

/*
 * Every set's pad is its second attribute (edge_nl_put_u64()), and the
 * dev-index of every per-device request its first (edge_nl_dev()).
 */
#define EDGE_NL_PAD		2
#define EDGE_NL_DEV		1
EDGE_NL_SAME(EDGE_A_DEV_PAD, EDGE_NL_PAD);
EDGE_NL_SAME(EDGE_A_STATS_PAD, EDGE_NL_PAD);
EDGE_NL_SAME(EDGE_A_EKT_PAD, EDGE_NL_PAD);
EDGE_NL_SAME(EDGE_A_JOB_PAD, EDGE_NL_PAD);
EDGE_NL_SAME(EDGE_A_SCHED_PAD, EDGE_NL_PAD);
EDGE_NL_SAME(EDGE_A_PLACE_PAD, EDGE_NL_PAD);
EDGE_NL_SAME(EDGE_A_DEV_INDEX, EDGE_NL_DEV);
EDGE_NL_SAME(EDGE_A_STATS_DEV_INDEX, EDGE_NL_DEV);
EDGE_NL_SAME(EDGE_A_EKT_DEV_INDEX, EDGE_NL_DEV);
EDGE_NL_SAME(EDGE_A_JOB_DEV_INDEX, EDGE_NL_DEV);
EDGE_NL_SAME(EDGE_A_SCHED_DEV_INDEX, EDGE_NL_DEV);

/*
 * The spec's name enums are the model's tables, entry for entry: a
 * value is the table's index.  Each entry is asserted by its name, so a
 * policy added, moved or renamed in one and not the other fails here.
 */
EDGE_NL_SAME(EDGE_NL_SIMT_MAX + 1, EDGE_SCHED_NR);
EDGE_NL_SAME(EDGE_NL_SIMT_DRAIN, EDGE_SCHED_DRAIN);
EDGE_NL_SAME(EDGE_NL_SIMT_RESERVE, EDGE_SCHED_RESERVE);
EDGE_NL_SAME(EDGE_NL_SIMT_PREEMPT, EDGE_SCHED_PREEMPT);
EDGE_NL_SAME(EDGE_NL_VICTIM_MAX + 1, EDGE_VICTIM_NR);
EDGE_NL_SAME(EDGE_NL_VICTIM_OLDEST, EDGE_VICTIM_OLDEST);
EDGE_NL_SAME(EDGE_NL_VICTIM_NEWEST, EDGE_VICTIM_NEWEST);
EDGE_NL_SAME(EDGE_NL_VICTIM_BEST, EDGE_VICTIM_BEST);
EDGE_NL_SAME(EDGE_NL_FLUSH_BOOST, EDGE_FLUSH_BOOST);
EDGE_NL_SAME(EDGE_NL_FLUSH_IBUF, EDGE_FLUSH_IBUF);
EDGE_NL_SAME(EDGE_NL_FLUSH_LOADS, EDGE_FLUSH_LOADS);
EDGE_NL_SAME(EDGE_NL_FLUSH_BARRIER, EDGE_FLUSH_BARRIER);
EDGE_NL_SAME(EDGE_NL_QUEUE_POLICY_MAX + 1, EDGE_POL_NR);
EDGE_NL_SAME(EDGE_NL_QUEUE_POLICY_RR, EDGE_POL_RR);
EDGE_NL_SAME(EDGE_NL_QUEUE_POLICY_MLFQ, EDGE_POL_MLFQ);
EDGE_NL_SAME(EDGE_NL_QUEUE_POLICY_EDF, EDGE_POL_EDF);
EDGE_NL_SAME(EDGE_NL_QUEUE_POLICY_SJF, EDGE_POL_SJF);
EDGE_NL_SAME(EDGE_NL_QUEUE_POLICY_LJF, EDGE_POL_LJF);
EDGE_NL_SAME(EDGE_NL_QUEUE_POLICY_SRF, EDGE_POL_SRF);
EDGE_NL_SAME(EDGE_NL_QUEUE_POLICY_PREMA, EDGE_POL_PREMA);
EDGE_NL_SAME(EDGE_NL_QUEUE_POLICY_LAX, EDGE_POL_LAX);
EDGE_NL_SAME(EDGE_NL_QUEUE_POLICY_LAX_SW, EDGE_POL_LAX_SW);
EDGE_NL_SAME(EDGE_NL_QUEUE_POLICY_LAX_CPU, EDGE_POL_LAX_CPU);
EDGE_NL_SAME(EDGE_NL_QUEUE_POLICY_BAT, EDGE_POL_BAT);
EDGE_NL_SAME(EDGE_NL_QUEUE_POLICY_BAY, EDGE_POL_BAY);
EDGE_NL_SAME(EDGE_NL_QUEUE_POLICY_PRO, EDGE_POL_PRO);
EDGE_NL_SAME(EDGE_NL_QUEUE_POLICY_LAX_P, EDGE_POL_LAXP);
EDGE_NL_SAME(EDGE_NL_TB_POLICY_MAX + 1, EDGE_TBP_NR);
EDGE_NL_SAME(EDGE_NL_TB_POLICY_DEFAULT, EDGE_TBP_DEFAULT);
EDGE_NL_SAME(EDGE_NL_TB_POLICY_SJF_ORACLE, EDGE_TBP_SJF_ORACLE);
EDGE_NL_SAME(EDGE_NL_TB_POLICY_MPMAX, EDGE_TBP_MPMAX);
EDGE_NL_SAME(EDGE_NL_TB_POLICY_SRTF, EDGE_TBP_SRTF);
EDGE_NL_SAME(EDGE_NL_TB_POLICY_SRTF_ADAPTIVE, EDGE_TBP_SRTF_ADAPTIVE);
EDGE_NL_SAME(EDGE_NL_TB_POLICY_SRTF_PREEMPT, EDGE_TBP_SRTF_PREEMPT);
EDGE_NL_SAME(EDGE_NL_TB_POLICY_EVEN, EDGE_TBP_EVEN);
EDGE_NL_SAME(EDGE_NL_TB_POLICY_PRIORITY, EDGE_TBP_PRIORITY);
EDGE_NL_SAME(EDGE_NL_TB_POLICY_MPS, EDGE_TBP_MPS);
EDGE_NL_SAME(EDGE_NL_TB_POLICY_BAYMAX, EDGE_TBP_BAYMAX);
EDGE_NL_SAME(EDGE_NL_TB_POLICY_CLAIUS, EDGE_TBP_CLAIUS);
EDGE_NL_SAME(EDGE_NL_TB_POLICY_CLAIUS_NB, EDGE_TBP_CLAIUS_NB);
EDGE_NL_SAME(EDGE_NL_TB_POLICY_CLAIUS_NC, EDGE_TBP_CLAIUS_NC);
EDGE_NL_SAME(EDGE_NL_TB_POLICY_CLAIUS_PRE, EDGE_TBP_CLAIUS_PRE);
EDGE_NL_SAME(EDGE_NL_TB_POLICY_STATIC_OPT, EDGE_TBP_STATIC);
EDGE_NL_SAME(EDGE_NL_TB_POLICY_CLAIUS_SCALED, EDGE_TBP_CLAIUS_SCALED);
EDGE_NL_SAME(EDGE_NL_PLACE_POLICY_MAX + 1, EDGE_PLACE_NR);
EDGE_NL_SAME(EDGE_NL_PLACE_POLICY_SA, EDGE_PLACE_SA);
EDGE_NL_SAME(EDGE_NL_PLACE_POLICY_CG, EDGE_PLACE_CG);
EDGE_NL_SAME(EDGE_NL_PLACE_POLICY_MGB_ALG2, EDGE_PLACE_ALG2);
EDGE_NL_SAME(EDGE_NL_PLACE_POLICY_MGB_ALG3, EDGE_PLACE_ALG3);
EDGE_NL_SAME(EDGE_NL_PLACE_POLICY_MGB_LIVE, EDGE_PLACE_LIVE);

static_assert(EDGE_EKT_LAT_BUCKETS == EDGE_LAT_HIST_BUCKETS);

static int edge_nl_put_u64(struct sk_buff *skb, int type, u64 v)
{
	return nla_put_u64_64bit(skb, type, v, EDGE_NL_PAD);
}

/* A preset's enum value: its index in the model's table. */
static u32 edge_nl_preset(const struct edge_preset *p)
{
	u32 i;

	for (i = 0; edge_preset_at(i); i++)
		if (edge_preset_at(i) == p)
			return i;
	return 0;
}

/* The model's counters; under ed->lock (or once it is ours alone). */
static int edge_nl_put_stats(struct sk_buff *skb, struct edge_device *ed)
{
	const struct edge_model_stats *st = &ed->model.st;

	if (edge_nl_put_u64(skb, EDGE_A_STATS_SUBMITTED, st->submitted) ||
	    edge_nl_put_u64(skb, EDGE_A_STATS_COMPLETED, st->completed) ||
	    edge_nl_put_u64(skb, EDGE_A_STATS_ERRORS, st->errors) ||
	    edge_nl_put_u64(skb, EDGE_A_STATS_REJECTED, st->rejected) ||
	    edge_nl_put_u64(skb, EDGE_A_STATS_CANCELLED, st->cancelled) ||
	    edge_nl_put_u64(skb, EDGE_A_STATS_LATE, st->late) ||
	    nla_put_u32(skb, EDGE_A_STATS_INFLIGHT, ed->model.inflight) ||
	    edge_nl_put_u64(skb, EDGE_A_STATS_JOBS_SUBMITTED, st->jobs_submitted) ||
	    edge_nl_put_u64(skb, EDGE_A_STATS_JOBS_DONE, st->jobs_done) ||
	    edge_nl_put_u64(skb, EDGE_A_STATS_JOBS_MET, st->jobs_met) ||
	    edge_nl_put_u64(skb, EDGE_A_STATS_JOBS_REJECTED, st->jobs_rejected) ||
	    edge_nl_put_u64(skb, EDGE_A_STATS_JOBS_CANCELLED, st->jobs_cancelled))
		return -EMSGSIZE;
	return 0;
}

/* The device's memory (place.c), one snapshot. */
static int edge_nl_put_mem(struct sk_buff *skb, struct edge_device *ed)
{
	struct edge_mem_view v;

	edge_mem_view(ed, &v);
	if (edge_nl_put_u64(skb, EDGE_A_DEV_MEM_TOTAL, v.total) ||
	    edge_nl_put_u64(skb, EDGE_A_DEV_MEM_USED, v.used) ||
	    edge_nl_put_u64(skb, EDGE_A_DEV_MEM_PEAK, v.peak) ||
	    edge_nl_put_u64(skb, EDGE_A_DEV_MEM_OOM, v.oom) ||
	    nla_put_u32(skb, EDGE_A_DEV_MEM_RESERVATIONS, v.resv))
		return -EMSGSIZE;
	return 0;
}

/* The SIMT model's preemption counters; under ed->lock. */
static int edge_nl_put_preempts(struct sk_buff *skb, struct edge_device *ed)
{
	const struct edge_simt_stats *st = &ed->model.simt.st;

	if (edge_nl_put_u64(skb, EDGE_A_STATS_PREEMPTIONS, st->preemptions) ||
	    edge_nl_put_u64(skb, EDGE_A_STATS_TB_PREEMPTIONS, st->tb_preemptions))
		return -EMSGSIZE;
	return 0;
}

static int edge_nl_put_dev(struct sk_buff *skb, struct edge_device *ed)
{
	char name[16];

	snprintf(name, sizeof(name), "edge%d", ed->index);
	if (nla_put_u32(skb, EDGE_A_DEV_INDEX, ed->index) ||
	    nla_put_string(skb, EDGE_A_DEV_NAME, name) ||
	    nla_put_u32(skb, EDGE_A_DEV_PRESET,
			edge_nl_preset(ed->model.preset)) ||
	    nla_put_u32(skb, EDGE_A_DEV_TIME_MODE, ed->virtual_time ?
			EDGE_NL_TIME_VIRTUAL : EDGE_NL_TIME_REAL) ||
	    nla_put_u32(skb, EDGE_A_DEV_EKT_USED, ed->model.ekt.used) ||
	    nla_put_u32(skb, EDGE_A_DEV_POLL_IDLE_US,
			READ_ONCE(ed->poll_idle_us)) ||
	    nla_put_u32(skb, EDGE_A_DEV_TIME_SCALE_PCT, ed->time_scale_pct) ||
	    nla_put_s32(skb, EDGE_A_DEV_CPU, READ_ONCE(ed->cpu)) ||
	    edge_nl_put_mem(skb, ed))
		return -EMSGSIZE;
	return 0;
}

/* One device message; the model lock makes it a snapshot. */
static int edge_nl_fill_dev(struct sk_buff *skb, struct edge_device *ed,
			    u32 portid, u32 seq, int flags, u8 cmd)
{
	void *hdr;
	int ret;

	hdr = genlmsg_put(skb, portid, seq, &edge_nl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	mutex_lock(&ed->lock);
	ret = edge_nl_put_dev(skb, ed);
	mutex_unlock(&ed->lock);
	if (ret) {
		genlmsg_cancel(skb, hdr);
		return ret;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int edge_nl_put_ekt(struct sk_buff *skb, struct edge_device *ed,
			   const struct edge_ekt_entry *e)
{
	const struct edge_owner *o = e->owner;
	const struct edge_kdesc *k = &e->k;

	if (nla_put_u32(skb, EDGE_A_EKT_DEV_INDEX, ed->index) ||
	    nla_put_u32(skb, EDGE_A_EKT_ID, e->id) ||
	    nla_put_u32(skb, EDGE_A_EKT_OWNER_PID, o ? o->pid : 0) ||
	    (o && o->kernel && nla_put_flag(skb, EDGE_A_EKT_KERNEL)) ||
	    nla_put_u32(skb, EDGE_A_EKT_FUNC, k->func) ||
	    nla_put_u32(skb, EDGE_A_EKT_GRID_X, k->grid[0]) ||
	    nla_put_u32(skb, EDGE_A_EKT_GRID_Y, k->grid[1]) ||
	    nla_put_u32(skb, EDGE_A_EKT_GRID_Z, k->grid[2]) ||
	    nla_put_u32(skb, EDGE_A_EKT_BLOCK_X, k->block[0]) ||
	    nla_put_u32(skb, EDGE_A_EKT_BLOCK_Y, k->block[1]) ||
	    nla_put_u32(skb, EDGE_A_EKT_BLOCK_Z, k->block[2]) ||
	    nla_put_u32(skb, EDGE_A_EKT_PRIORITY, k->priority) ||
	    edge_nl_put_u64(skb, EDGE_A_EKT_DEADLINE_NS, k->deadline_ns) ||
	    nla_put_u32(skb, EDGE_A_EKT_RING_ENTRIES, k->ring_entries) ||
	    edge_nl_put_u64(skb, EDGE_A_EKT_SUBMITTED, e->submitted) ||
	    edge_nl_put_u64(skb, EDGE_A_EKT_COMPLETED, e->completed) ||
	    edge_nl_put_u64(skb, EDGE_A_EKT_CANCELLED, e->cancelled) ||
	    nla_put_u32(skb, EDGE_A_EKT_INFLIGHT, e->inflight) ||
	    nla_put(skb, EDGE_A_EKT_LAT_HIST, sizeof(e->lat_hist),
		    e->lat_hist))
		return -EMSGSIZE;
	return 0;
}

/* Every queue-level policy's knobs, one nest each, from the descriptors. */
static int edge_nl_put_params(struct sk_buff *skb, struct edge_device *ed)
{
	u32 pol, i;
	u64 v;

	for (pol = 0; pol < EDGE_POL_NR; pol++) {
		const struct edge_cp_policy *cpp = edge_cp_policies[pol];

		for (i = 0; i < cpp->nr_params; i++) {
			const struct edge_param *p = &cpp->params[i];
			struct nlattr *nest;

			if (edge_model_param_get(&ed->model, p->name, &v))
				continue;
			nest = nla_nest_start(skb, EDGE_A_SCHED_POLICY_PARAM);
			if (!nest ||
			    nla_put_string(skb, EDGE_A_POLICY_PARAM_NAME, p->name) ||
			    nla_put_u64_64bit(skb, EDGE_A_POLICY_PARAM_VALUE, v,
					      EDGE_A_POLICY_PARAM_PAD) ||
			    nla_put_u64_64bit(skb, EDGE_A_POLICY_PARAM_RANGE_MIN, p->min,
					      EDGE_A_POLICY_PARAM_PAD) ||
			    nla_put_u64_64bit(skb, EDGE_A_POLICY_PARAM_RANGE_MAX, p->max,
					      EDGE_A_POLICY_PARAM_PAD) ||
			    nla_put_u64_64bit(skb, EDGE_A_POLICY_PARAM_DEFAULT,
					      p->def, EDGE_A_POLICY_PARAM_PAD) ||
			    nla_put_u32(skb, EDGE_A_POLICY_PARAM_POLICY, pol) ||
			    nla_put_string(skb, EDGE_A_POLICY_PARAM_HELP, p->help))
				return -EMSGSIZE;
			nla_nest_end(skb, nest);
		}
	}
	return 0;
}

/* The scheduling configuration; under ed->lock. */
static int edge_nl_put_sched(struct sk_buff *skb, struct edge_device *ed)
{
	const struct edge_simt_cfg *c = &ed->model.simt.cfg;
	struct edge_cp_cfg cp = edge_model_cp_cfg(&ed->model);

	/* In no set order: a message's attributes are found by type. */
	if (nla_put_u32(skb, EDGE_A_SCHED_DEV_INDEX, ed->index) ||
	    nla_put_u32(skb, EDGE_A_SCHED_POLICY, c->sched) ||
	    nla_put_u32(skb, EDGE_A_SCHED_VICTIM, c->victim) ||
	    nla_put_u32(skb, EDGE_A_SCHED_QUEUE_POLICY,
			edge_model_policy(&ed->model)) ||
	    nla_put_u32(skb, EDGE_A_SCHED_FLUSH, c->flush) ||
	    nla_put_u32(skb, EDGE_A_SCHED_RESERVE_PCT, c->reserve_pct) ||
	    nla_put_u32(skb, EDGE_A_SCHED_CP_PARSE_NS, cp.parse_ns) ||
	    nla_put_u32(skb, EDGE_A_SCHED_DISPATCH_CYCLES, c->dispatch_cycles) ||
	    nla_put_u32(skb, EDGE_A_SCHED_WAIT_CYCLES, c->sched_wait_cycles) ||
	    nla_put_u32(skb, EDGE_A_SCHED_CP_HOST_NS, cp.host_ns) ||
	    nla_put_u32(skb, EDGE_A_SCHED_CTX_BYTES_PER_CYCLE,
			c->ctx_bytes_per_cycle) ||
	    nla_put_u32(skb, EDGE_A_SCHED_SKIP_EVENT_EXEC, c->skip_event_exec) ||
	    nla_put_u32(skb, EDGE_A_SCHED_CP_PROFILE_NS, cp.profile_ns) ||
	    edge_nl_put_u64(skb, EDGE_A_SCHED_SEED, c->seed) ||
	    nla_put_u32(skb, EDGE_A_SCHED_TB_POLICY, c->tb_policy))
		return -EMSGSIZE;
	return edge_nl_put_params(skb, ed);
}

/* Notifications */

static struct sk_buff_head edge_nl_deferred;
static atomic_t edge_nl_lost;

static void edge_nl_flush(struct work_struct *w)
{
	struct sk_buff *skb;

	while ((skb = skb_dequeue(&edge_nl_deferred)))
		genlmsg_multicast(&edge_nl_family, skb, 0, 0, GFP_KERNEL);
	if (atomic_xchg(&edge_nl_lost, 0))
		genl_set_err(&edge_nl_family, &init_net, 0, 0, -ENOBUFS);
}

static DECLARE_WORK(edge_nl_work, edge_nl_flush);

static bool edge_nl_atomic(void)
{
	return !in_task() || irqs_disabled();
}

/* A monitor message, or NULL (and the listeners told) if none can be. */
static struct sk_buff *edge_nl_ntf_new(u8 cmd, void **hdr)
{
	bool atomic = edge_nl_atomic();
	struct sk_buff *skb;

	if (!READ_ONCE(edge_nl_ready) ||
	    !genl_has_listeners(&edge_nl_family, &init_net, 0))
		return NULL;
	skb = genlmsg_new(NLMSG_GOODSIZE, atomic ? GFP_ATOMIC : GFP_KERNEL);
	if (skb) {
		*hdr = genlmsg_put(skb, 0, 0, &edge_nl_family, 0, cmd);
		if (*hdr)
			return skb;
		nlmsg_free(skb);
	}
	if (atomic) {
		atomic_set(&edge_nl_lost, 1);
		schedule_work(&edge_nl_work);
	} else {
		genl_set_err(&edge_nl_family, &init_net, 0, 0, -ENOBUFS);
	}
	return NULL;
}

/**
 * edge_nl_xmit() - send a monitor message built earlier
 * @skb: from edge_nl_ekt_msg(), or NULL (nothing to send)
 *
 * Any context: in atomic context the message waits for a work item.
 */
void edge_nl_xmit(struct sk_buff *skb)
{
	if (!skb)
		return;
	if (edge_nl_atomic()) {
		skb_queue_tail(&edge_nl_deferred, skb);
		schedule_work(&edge_nl_work);
		return;
	}
	genlmsg_multicast(&edge_nl_family, skb, 0, 0, GFP_KERNEL);
}

static void edge_nl_ntf_send(struct sk_buff *skb, void *hdr)
{
	genlmsg_end(skb, hdr);
	edge_nl_xmit(skb);
}

static void edge_nl_ntf_abort(struct sk_buff *skb)
{
	nlmsg_free(skb);
	genl_set_err(&edge_nl_family, &init_net, 0, 0, -ENOBUFS);
}

/* A removed device's counters, nested in its dev-del-ntf. */
static int edge_nl_put_final(struct sk_buff *skb, struct edge_device *ed)
{
	struct nlattr *nest = nla_nest_start(skb, EDGE_A_DEV_STATS);

	if (!nest || edge_nl_put_stats(skb, ed))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* A device was added or removed.  Under edge_devs_lock. */
void edge_nl_dev_notify(struct edge_device *ed, bool added)
{
	struct sk_buff *skb;
	void *hdr;

	if (!++edge_devs_gen)
		edge_devs_gen = 1;
	skb = edge_nl_ntf_new(added ? EDGE_CMD_DEV_ADD_NTF :
				      EDGE_CMD_DEV_DEL_NTF, &hdr);
	if (!skb)
		return;
	/* Removed: the counts are final, everything having ended. */
	mutex_lock(&ed->lock);
	if (edge_nl_put_dev(skb, ed) ||
	    (!added && edge_nl_put_final(skb, ed))) {
		mutex_unlock(&ed->lock);
		edge_nl_ntf_abort(skb);
		return;
	}
	mutex_unlock(&ed->lock);
	edge_nl_ntf_send(skb, hdr);
}

/**
 * edge_nl_ekt_msg() - the monitor message for entry @ent
 * @ed: its device
 * @ent: the entry, or NULL
 * @reg: registered (else unregistered)
 *
 * Built while @ent is valid, under ed->lock; sent with edge_nl_xmit() or
 * dropped with nlmsg_free() once the caller knows whether it happened.
 *
 * Return: the message, or NULL (no listener, @ent NULL, or no memory:
 * then the listeners were told to resync).
 */
struct sk_buff *edge_nl_ekt_msg(struct edge_device *ed,
				const struct edge_ekt_entry *ent, bool reg)
{
	struct sk_buff *skb;
	void *hdr;

	if (!ent)
		return NULL;
	skb = edge_nl_ntf_new(reg ? EDGE_CMD_EKT_REG_NTF :
				    EDGE_CMD_EKT_UNREG_NTF, &hdr);
	if (!skb)
		return NULL;
	if (edge_nl_put_ekt(skb, ed, ent)) {
		edge_nl_ntf_abort(skb);
		return NULL;
	}
	genlmsg_end(skb, hdr);
	return skb;
}

/* Entry @ent was registered, or is about to go.  Under ed->lock. */
void edge_nl_ekt_notify(struct edge_device *ed,
			const struct edge_ekt_entry *ent, bool reg)
{
	edge_nl_xmit(edge_nl_ekt_msg(ed, ent, reg));
}

/**
 * edge_nl_policy_notify() - the scheduling configuration of @ed changed
 * @ed: device
 *
 * Process context, without ed->lock (sysfs and sched-set call it).
 */
void edge_nl_policy_notify(struct edge_device *ed)
{
	struct sk_buff *skb;
	void *hdr;
	int ret;

	skb = edge_nl_ntf_new(EDGE_CMD_POLICY_NTF, &hdr);
	if (!skb)
		return;
	mutex_lock(&ed->lock);
	ret = edge_nl_put_sched(skb, ed);
	mutex_unlock(&ed->lock);
	if (ret) {
		edge_nl_ntf_abort(skb);
		return;
	}
	edge_nl_ntf_send(skb, hdr);
}

/**
 * edge_nl_job_notify() - a job of @pid ended: tell the monitors if it
 *	was rejected, late or dropped
 * @ed: its device
 * @pid: its submitter's tgid
 * @e: how it ended
 *
 * Called where the model ends jobs (its thread, an ioctl, an unplug),
 * under ed->lock.
 */
void edge_nl_job_notify(struct edge_device *ed, u32 pid,
			const struct edge_job_end *e)
{
	struct sk_buff *skb;
	void *hdr;
	u8 cmd;

	if (e->status == EDGE_CQE_REJECTED)
		cmd = EDGE_CMD_JOB_REJECT_NTF;
	else if (e->dropped)
		cmd = EDGE_CMD_JOB_DROP_NTF;
	else if (e->status == EDGE_CQE_DONE && !e->met)
		cmd = EDGE_CMD_JOB_LATE_NTF;
	else
		return;
	skb = edge_nl_ntf_new(cmd, &hdr);
	if (!skb)
		return;
	if (nla_put_u32(skb, EDGE_A_JOB_DEV_INDEX, ed->index) ||
	    edge_nl_put_u64(skb, EDGE_A_JOB_ID, e->id) ||
	    nla_put_u32(skb, EDGE_A_JOB_OWNER_PID, pid) ||
	    edge_nl_put_u64(skb, EDGE_A_JOB_LATENCY_NS, e->latency_ns)) {
		edge_nl_ntf_abort(skb);
		return;
	}
	edge_nl_ntf_send(skb, hdr);
}

/**
 * edge_nl_ekt_drop_notify() - @n events of entry @id were dropped
 * @ed: device
 * @id: EKT id of a kernel queue
 * @n: events its producer dropped since the entry's last such message
 *
 * Process context, under ed->lock: edge_kapi_flush_drops() sends what
 * edge_kq_dropped() counted in any context.
 */
void edge_nl_ekt_drop_notify(struct edge_device *ed, u32 id, u64 n)
{
	struct sk_buff *skb;
	void *hdr;

	skb = edge_nl_ntf_new(EDGE_CMD_EKT_DROP_NTF, &hdr);
	if (!skb)
		return;
	if (nla_put_u32(skb, EDGE_A_EKT_DEV_INDEX, ed->index) ||
	    nla_put_u32(skb, EDGE_A_EKT_ID, id) ||
	    edge_nl_put_u64(skb, EDGE_A_EKT_DROPPED, n)) {
		edge_nl_ntf_abort(skb);
		return;
	}
	edge_nl_ntf_send(skb, hdr);
}

/* The preemption summary, if any happened since the last.  Under ed->lock. */
static void edge_nl_preempt_summary(struct edge_device *ed, u64 now)
{
	const struct edge_simt_stats *st = &ed->model.simt.st;
	u64 p = st->preemptions, t = st->tb_preemptions;
	struct sk_buff *skb;
	void *hdr;

	if (p == ed->ntf_preempts && t == ed->ntf_tb_preempts)
		return;
	skb = edge_nl_ntf_new(EDGE_CMD_PREEMPT_NTF, &hdr);
	if (skb) {
		if (nla_put_u32(skb, EDGE_A_STATS_DEV_INDEX, ed->index) ||
		    edge_nl_put_u64(skb, EDGE_A_STATS_SUMMARY_NS, now - ed->ntf_ns) ||
		    edge_nl_put_u64(skb, EDGE_A_STATS_SUMMARY_PREEMPTIONS,
				    p - ed->ntf_preempts) ||
		    edge_nl_put_u64(skb, EDGE_A_STATS_SUMMARY_TB_PREEMPTIONS,
				    t - ed->ntf_tb_preempts) ||
		    edge_nl_put_preempts(skb, ed))
			edge_nl_ntf_abort(skb);
		else
			edge_nl_ntf_send(skb, hdr);
	}
	ed->ntf_preempts = p;
	ed->ntf_tb_preempts = t;
}

/* One round of summaries: kernel-queue drops, then preemptions. */
static void edge_nl_summary_round(struct edge_device *ed)
{
	u64 now = ktime_get_ns();

	mutex_lock(&ed->lock);
	/*
	 * This round's time before the flag: what happens from here on
	 * arms the next round, a second after this one.  The counts are
	 * read after the flag is cleared, so nothing falls between.
	 */
	WRITE_ONCE(ed->ntf_last, jiffies);
	clear_bit(0, &ed->ntf_armed);
	/* The clear before the counts' reads: pairs with the arming RMW. */
	smp_mb__after_atomic();
	edge_kapi_flush_drops(ed);
	edge_nl_preempt_summary(ed, now);
	ed->ntf_ns = now;
	mutex_unlock(&ed->lock);
}

static void edge_nl_summary_work(struct work_struct *w)
{
	edge_nl_summary_round(container_of(to_delayed_work(w),
					   struct edge_device, ntf_work));
}

/**
 * edge_nl_summary_init() - a new device's summaries start now
 * @ed: device, not yet running
 */
void edge_nl_summary_init(struct edge_device *ed)
{
	INIT_DELAYED_WORK(&ed->ntf_work, edge_nl_summary_work);
	ed->ntf_ns = ktime_get_ns();
	ed->ntf_last = jiffies - HZ;
}

/**
 * edge_nl_summary_arm() - something to summarise happened on @ed
 * @ed: device
 *
 * Any context, hard interrupts included: takes no lock and allocates
 * nothing.  The round runs a second after the previous one at the
 * earliest, so a storm costs one message per device and second.
 */
void edge_nl_summary_arm(struct edge_device *ed)
{
	long delay;

	if (READ_ONCE(ed->ntf_armed) || test_and_set_bit(0, &ed->ntf_armed))
		return;
	delay = (long)(READ_ONCE(ed->ntf_last) + HZ - jiffies);
	schedule_delayed_work(&ed->ntf_work, clamp_t(long, delay, 0, HZ));
}

/**
 * edge_nl_summary_flush() - the last round of an unplugged device
 * @ed: device whose front end stopped and whose kernel queues can no
 *	longer count drops, so that nothing arms a round again
 *
 * Before its dev-del-ntf: a monitor sees every count, then the removal.
 */
void edge_nl_summary_flush(struct edge_device *ed)
{
	cancel_delayed_work_sync(&ed->ntf_work);
	edge_nl_summary_round(ed);
}

/* Commands */

static int edge_nl_pre_doit(const struct genl_split_ops *ops,
			    struct sk_buff *skb, struct genl_info *info)
{
	if ((ops->internal_flags & EDGE_NL_WRITE) &&
	    !netlink_capable(skb, CAP_SYS_ADMIN)) {
		GENL_SET_ERR_MSG(info, "changing a device needs CAP_SYS_ADMIN");
		return -EPERM;
	}
	mutex_lock(&edge_devs_lock);
	return 0;
}

static void edge_nl_post_doit(const struct genl_split_ops *ops,
			      struct sk_buff *skb, struct genl_info *info)
{
	mutex_unlock(&edge_devs_lock);
}

/*
 * The device the request names (its set's dev-index, or dev's index:
 * EDGE_NL_DEV in each); -EINVAL or -ENODEV with a message.
 */
static struct edge_device *edge_nl_dev(struct genl_info *info)
{
	struct edge_device *ed;

	if (GENL_REQ_ATTR_CHECK(info, EDGE_NL_DEV))
		return ERR_PTR(-EINVAL);
	ed = edge_dev_at_locked(nla_get_u32(info->attrs[EDGE_NL_DEV]));
	if (!ed) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[EDGE_NL_DEV],
				    "no such device");
		return ERR_PTR(-ENODEV);
	}
	return ed;
}

/*
 * The reply to dev-get or dev-add: the device's attributes under the
 * request's own command id, as generic netlink clients (YNL) match a
 * reply to its request.
 */
static int edge_nl_reply_dev(struct genl_info *info, struct edge_device *ed,
			     struct sk_buff *msg)
{
	int ret;

	ret = edge_nl_fill_dev(msg, ed, info->snd_portid, info->snd_seq, 0,
			       info->genlhdr->cmd);
	if (ret) {
		nlmsg_free(msg);
		return ret;
	}
	return genlmsg_reply(msg, info);
}

static int edge_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct edge_device *ed = edge_nl_dev(info);
	struct sk_buff *msg;

	if (IS_ERR(ed))
		return PTR_ERR(ed);
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	return edge_nl_reply_dev(info, ed, msg);
}

static int edge_nl_dev_get_dumpit(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	unsigned int i;
	int ret = 0;

	mutex_lock(&edge_devs_lock);
	cb->seq = edge_devs_gen;
	for (i = cb->args[0]; i < EDGE_MAX_DEVICES; i++) {
		struct edge_device *ed = edge_dev_at_locked(i);

		if (!ed)
			continue;
		ret = edge_nl_fill_dev(skb, ed, NETLINK_CB(cb->skb).portid,
				       cb->nlh->nlmsg_seq, NLM_F_MULTI,
				       EDGE_CMD_DEV_GET);
		if (ret)
			break;
		nl_dump_check_consistent(cb, nlmsg_hdr(skb));
	}
	mutex_unlock(&edge_devs_lock);
	cb->args[0] = i;
	/* Not even one fits: an error, not an endless dump. */
	if (ret && !skb->len)
		return ret;
	return skb->len;
}

static int edge_nl_dev_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	const struct edge_preset *p = NULL;	/* NULL: the module's */
	struct nlattr **a = info->attrs;
	struct edge_device *ed;
	struct sk_buff *msg;
	int vt = -1, index = -1, ret;

	/* Within the table: edge_nl_init() checked its length. */
	if (a[EDGE_A_DEV_PRESET])
		p = edge_preset_at(nla_get_u32(a[EDGE_A_DEV_PRESET]));
	if (a[EDGE_A_DEV_TIME_MODE])
		vt = nla_get_u32(a[EDGE_A_DEV_TIME_MODE]) == EDGE_NL_TIME_VIRTUAL;
	if (a[EDGE_A_DEV_INDEX]) {
		index = nla_get_u32(a[EDGE_A_DEV_INDEX]);
		if (edge_dev_at_locked(index)) {
			NL_SET_ERR_MSG_ATTR(info->extack, a[EDGE_A_DEV_INDEX],
					    "device index in use");
			return -EEXIST;
		}
	}
	/* Allocated first: a device made is never an error reported. */
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	ret = edge_dev_add(p, vt, index, &ed);
	if (ret < 0) {
		nlmsg_free(msg);
		if (ret == -ENOSPC)
			GENL_SET_ERR_MSG(info, "device limit (64) reached");
		return ret;
	}
	return edge_nl_reply_dev(info, ed, msg);
}

static int edge_nl_dev_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct edge_device *ed = edge_nl_dev(info);

	if (IS_ERR(ed))
		return PTR_ERR(ed);
	return edge_dev_del(ed->index);
}

/* The sysfs knobs, checked whole before any is changed. */
static int edge_nl_dev_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct edge_device *ed = edge_nl_dev(info);
	struct nlattr **a = info->attrs;
	int ret;

	if (IS_ERR(ed))
		return PTR_ERR(ed);
	if (a[EDGE_A_DEV_TIME_SCALE_PCT] && ed->virtual_time) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[EDGE_A_DEV_TIME_SCALE_PCT],
				    "a virtual-time device has no time scale");
		return -EINVAL;
	}
	if (a[EDGE_A_DEV_CPU]) {
		int cpu = nla_get_s32(a[EDGE_A_DEV_CPU]);

		if (cpu >= (int)nr_cpu_ids || (cpu >= 0 && !cpu_online(cpu))) {
			NL_SET_ERR_MSG_ATTR(info->extack, a[EDGE_A_DEV_CPU],
					    "CPU is not online");
			return -EINVAL;
		}
		/* The only change that can fail: first. */
		ret = edge_frontend_set_cpu(ed, cpu);
		if (ret)
			return ret;
	}
	if (a[EDGE_A_DEV_POLL_IDLE_US])
		WRITE_ONCE(ed->poll_idle_us,
			   nla_get_u32(a[EDGE_A_DEV_POLL_IDLE_US]));
	if (a[EDGE_A_DEV_TIME_SCALE_PCT]) {
		mutex_lock(&ed->lock);
		edge_frontend_set_scale(ed,
					nla_get_u32(a[EDGE_A_DEV_TIME_SCALE_PCT]));
		mutex_unlock(&ed->lock);
	}
	edge_frontend_kick(ed);
	return 0;
}

/* stats-get's reply: one snapshot, so the counters agree with each other. */
static int edge_nl_put_stats_reply(struct sk_buff *msg, struct edge_device *ed)
{
	struct edge_mem_view v;

	edge_mem_view(ed, &v);
	return nla_put_u32(msg, EDGE_A_STATS_DEV_INDEX, ed->index) ||
	       nla_put_u32(msg, EDGE_A_STATS_EKT_USED, ed->model.ekt.used) ||
	       edge_nl_put_stats(msg, ed) ||
	       edge_nl_put_u64(msg, EDGE_A_STATS_MEM_OOM, v.oom) ||
	       edge_nl_put_preempts(msg, ed);
}

/*
 * A do's reply about the device of dev-index: one message under the
 * request's own command id, filled by @fill under the device's lock.
 */
static int edge_nl_reply_locked(struct genl_info *info,
				int (*fill)(struct sk_buff *msg,
					    struct edge_device *ed))
{
	struct edge_device *ed = edge_nl_dev(info);
	struct sk_buff *msg;
	void *hdr;
	int ret;

	if (IS_ERR(ed))
		return PTR_ERR(ed);
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &edge_nl_family, 0,
				info->genlhdr->cmd);
	if (!hdr) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	mutex_lock(&ed->lock);
	ret = fill(msg, ed);
	mutex_unlock(&ed->lock);
	if (ret) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

static int edge_nl_stats_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return edge_nl_reply_locked(info, edge_nl_put_stats_reply);
}

/*
 * A per-device dump's start: the device of its dev-index, with
 * edge_devs_lock and the device's lock held, so that it cannot go away
 * or change between two of the dump's messages of one round.
 */
static struct edge_device *edge_nl_dump_lock(struct netlink_callback *cb)
{
	struct nlattr *ia = genl_info_dump(cb)->attrs[EDGE_NL_DEV];
	struct edge_device *ed;

	if (!ia) {
		NL_SET_ERR_MSG(cb->extack, "dev-index is required");
		return ERR_PTR(-EINVAL);
	}
	mutex_lock(&edge_devs_lock);
	ed = edge_dev_at_locked(nla_get_u32(ia));
	if (!ed) {
		mutex_unlock(&edge_devs_lock);
		NL_SET_ERR_MSG_ATTR(cb->extack, ia, "no such device");
		return ERR_PTR(-ENODEV);
	}
	mutex_lock(&ed->lock);
	/*
	 * A device deleted and added again at the same index between two
	 * rounds is another device: its rows are flagged NLM_F_DUMP_INTR.
	 */
	cb->seq = edge_devs_gen;
	return ed;
}

/*
 * Its end: what the round put, or @ret when it could put nothing (a row
 * larger than a whole message); a round that filled the buffer is
 * resumed from its cursor in cb->args[0].
 */
static int edge_nl_dump_unlock(struct sk_buff *skb, struct edge_device *ed,
			       int ret)
{
	mutex_unlock(&ed->lock);
	mutex_unlock(&edge_devs_lock);
	if (ret && !skb->len)
		return ret;
	return skb->len;
}

/*
 * A per-device table's dump: one @cmd message per row below @nr that
 * @put fills (-ENOENT: no such row), from the row in cb->args[0] on, so
 * that a full table through a small buffer comes back whole, each row
 * once.
 */
static int edge_nl_dump_rows(struct sk_buff *skb, struct netlink_callback *cb,
			     u8 cmd, u32 nr,
			     int (*put)(struct sk_buff *skb,
					struct edge_device *ed, u32 row))
{
	struct edge_device *ed = edge_nl_dump_lock(cb);
	u32 row;
	int ret = 0;

	if (IS_ERR(ed))
		return PTR_ERR(ed);
	for (row = cb->args[0]; row < nr; row++) {
		void *hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
					cb->nlh->nlmsg_seq, &edge_nl_family,
					NLM_F_MULTI, cmd);

		if (!hdr) {
			ret = -EMSGSIZE;
			break;
		}
		ret = put(skb, ed, row);
		if (ret) {
			genlmsg_cancel(skb, hdr);
			if (ret != -ENOENT)
				break;
			ret = 0;
			continue;
		}
		nl_dump_check_consistent(cb, nlmsg_hdr(skb));
		genlmsg_end(skb, hdr);
	}
	cb->args[0] = row;
	return edge_nl_dump_unlock(skb, ed, ret);
}

/* A registered entry, by its id. */
static int edge_nl_ekt_row(struct sk_buff *skb, struct edge_device *ed,
			   u32 id)
{
	const struct edge_ekt_entry *e = edge_ekt_get(&ed->model.ekt, id);

	return e ? edge_nl_put_ekt(skb, ed, e) : -ENOENT;
}

static int edge_nl_ekt_get_dumpit(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	return edge_nl_dump_rows(skb, cb, EDGE_CMD_EKT_GET, EDGE_EKT_ENTRIES,
				 edge_nl_ekt_row);
}

/* The CP's job states, as the uapi names those of a job not ended. */
static const u8 edge_nl_job_states[] = {
	[EDGE_JOB_QUEUED] = EDGE_NL_JOB_QUEUED,
	[EDGE_JOB_PARSE] = EDGE_NL_JOB_PARSE,
	[EDGE_JOB_HELD] = EDGE_NL_JOB_HELD,
	[EDGE_JOB_READY] = EDGE_NL_JOB_READY,
	[EDGE_JOB_RUNNING] = EDGE_NL_JOB_RUNNING,
};

static int edge_nl_put_job(struct sk_buff *skb, struct edge_device *ed,
			   const struct edge_model_job *mj,
			   const struct edge_cp_job *j)
{
	const struct edge_owner *o = mj->owner;

	if (nla_put_u32(skb, EDGE_A_JOB_DEV_INDEX, ed->index) ||
	    edge_nl_put_u64(skb, EDGE_A_JOB_ID, mj->id) ||
	    nla_put_u32(skb, EDGE_A_JOB_OWNER_PID, o ? o->pid : 0) ||
	    nla_put_u32(skb, EDGE_A_JOB_QUEUE, j->queue) ||
	    nla_put_u32(skb, EDGE_A_JOB_STATE,
			edge_nl_job_states[j->state]) ||
	    edge_nl_put_u64(skb, EDGE_A_JOB_DEADLINE_NS, j->deadline) ||
	    edge_nl_put_u64(skb, EDGE_A_JOB_AGE_NS,
			    edge_model_now(&ed->model) - mj->submitted) ||
	    nla_put_u32(skb, EDGE_A_JOB_KERNELS, j->nr_kern) ||
	    nla_put_u32(skb, EDGE_A_JOB_LAUNCHED, j->next))
		return -EMSGSIZE;
	return 0;
}

/* A job not yet ended, by its slot in the model. */
static int edge_nl_job_row(struct sk_buff *skb, struct edge_device *ed,
			   u32 slot)
{
	const struct edge_cp_job *j = edge_model_job_cp(&ed->model, slot);

	if (!j || j->state >= ARRAY_SIZE(edge_nl_job_states) ||
	    j->state == EDGE_JOB_FREE)
		return -ENOENT;
	return edge_nl_put_job(skb, ed, &ed->model.jobs[slot], j);
}

static int edge_nl_job_get_dumpit(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	return edge_nl_dump_rows(skb, cb, EDGE_CMD_JOB_GET, EDGE_CP_JOBS,
				 edge_nl_job_row);
}

static int edge_nl_sched_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return edge_nl_reply_locked(info, edge_nl_put_sched);
}

static void edge_nl_u32(struct nlattr **a, int type, u32 *v)
{
	if (a[type])
		*v = nla_get_u32(a[type]);
}

/* A policy's knob to set, checked against its descriptor. */
struct edge_nl_param {
	const struct edge_param *p;
	u64 v;
};

/*
 * The request's policy-param nests: each must name a knob and give a
 * value within its range; the extack says which and the limits.
 * Returns how many, or a negative errno (nothing is set here).
 */
static int edge_nl_params(struct genl_info *info, struct edge_nl_param *out)
{
	struct nlattr *tb[EDGE_A_POLICY_PARAM_MAX + 1], *nla;
	int rem, n = 0, ret;

	nlmsg_for_each_attr(nla, info->nlhdr, GENL_HDRLEN, rem) {
		const struct edge_param *p;
		u64 v;

		if (nla_type(nla) != EDGE_A_SCHED_POLICY_PARAM)
			continue;
		ret = nla_parse_nested(tb, EDGE_A_POLICY_PARAM_MAX, nla,
				       edge_nl_param_policy, info->extack);
		if (ret)
			return ret;
		if (!tb[EDGE_A_POLICY_PARAM_NAME] ||
		    !tb[EDGE_A_POLICY_PARAM_VALUE]) {
			NL_SET_ERR_MSG_ATTR(info->extack, nla,
					    "policy-param needs a name and a value");
			return -EINVAL;
		}
		p = edge_cp_param_find(nla_data(tb[EDGE_A_POLICY_PARAM_NAME]),
				       NULL);
		if (!p) {
			NL_SET_ERR_MSG_ATTR(info->extack,
					    tb[EDGE_A_POLICY_PARAM_NAME],
					    "no policy has a knob of this name");
			return -EINVAL;
		}
		v = nla_get_u64(tb[EDGE_A_POLICY_PARAM_VALUE]);
		if (edge_param_check(p, v)) {
			/* The descriptor's message: the knob and its limits. */
			NL_SET_BAD_ATTR(info->extack,
					tb[EDGE_A_POLICY_PARAM_VALUE]);
			if (info->extack)
				info->extack->_msg = p->range;
			return -EINVAL;
		}
		if (n == EDGE_CP_PARAMS_MAX) {
			NL_SET_ERR_MSG_ATTR(info->extack, nla,
					    "too many policy-param");
			return -E2BIG;
		}
		out[n].p = p;
		out[n++].v = v;
	}
	return n;
}

/*
 * Everything is checked (names, ranges, the model's own rules) before
 * anything changes; what the model refuses after the SIMT config was
 * set puts the old one back, so that a refusal changes nothing.
 */
static int edge_nl_sched_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct edge_device *ed = edge_nl_dev(info);
	struct nlattr **a = info->attrs;
	struct edge_simt_cfg cfg, old;
	struct edge_cp_cfg cp, old_cp;
	struct edge_nl_param prm[EDGE_CP_PARAMS_MAX];
	int qpol = -1, nprm, ret, i;

	if (IS_ERR(ed))
		return PTR_ERR(ed);
	nprm = edge_nl_params(info, prm);
	if (nprm < 0)
		return nprm;
	/* The names are enums, each within its table (the policy's max). */
	if (a[EDGE_A_SCHED_QUEUE_POLICY])
		qpol = nla_get_u32(a[EDGE_A_SCHED_QUEUE_POLICY]);
	mutex_lock(&ed->lock);
	old = ed->model.simt.cfg;
	cfg = old;
	old_cp = edge_model_cp_cfg(&ed->model);
	cp = old_cp;
	edge_nl_u32(a, EDGE_A_SCHED_POLICY, &cfg.sched);
	edge_nl_u32(a, EDGE_A_SCHED_VICTIM, &cfg.victim);
	edge_nl_u32(a, EDGE_A_SCHED_TB_POLICY, &cfg.tb_policy);
	edge_nl_u32(a, EDGE_A_SCHED_FLUSH, &cfg.flush);
	edge_nl_u32(a, EDGE_A_SCHED_RESERVE_PCT, &cfg.reserve_pct);
	edge_nl_u32(a, EDGE_A_SCHED_DISPATCH_CYCLES, &cfg.dispatch_cycles);
	edge_nl_u32(a, EDGE_A_SCHED_WAIT_CYCLES, &cfg.sched_wait_cycles);
	edge_nl_u32(a, EDGE_A_SCHED_CTX_BYTES_PER_CYCLE,
		    &cfg.ctx_bytes_per_cycle);
	edge_nl_u32(a, EDGE_A_SCHED_SKIP_EVENT_EXEC, &cfg.skip_event_exec);
	if (a[EDGE_A_SCHED_SEED])
		cfg.seed = nla_get_u64(a[EDGE_A_SCHED_SEED]);
	edge_nl_u32(a, EDGE_A_SCHED_CP_PARSE_NS, &cp.parse_ns);
	edge_nl_u32(a, EDGE_A_SCHED_CP_HOST_NS, &cp.host_ns);
	edge_nl_u32(a, EDGE_A_SCHED_CP_PROFILE_NS, &cp.profile_ns);
	ret = edge_model_set_cfg(&ed->model, &cfg);
	if (ret) {
		GENL_SET_ERR_MSG(info, "the SIMT model refused the configuration");
		goto out;
	}
	ret = edge_model_set_cp_timing(&ed->model, &cp);
	if (ret) {
		GENL_SET_ERR_MSG(info, "the command processor refused its timing");
		edge_model_set_cfg(&ed->model, &old);
		goto out;
	}
	if (qpol >= 0) {
		ret = edge_model_set_policy(&ed->model, qpol);
		if (ret) {
			GENL_SET_ERR_MSG(info, "queue policy refused");
			edge_model_set_cp_timing(&ed->model, &old_cp);
			edge_model_set_cfg(&ed->model, &old);
			goto out;
		}
	}
	/* Checked above: each is in its range, and nothing fails now. */
	for (i = 0; i < nprm; i++)
		WARN_ON_ONCE(edge_model_param_set(&ed->model, prm[i].p->name,
						  prm[i].v, NULL));
out:
	mutex_unlock(&ed->lock);
	if (!ret)
		edge_nl_policy_notify(ed);
	return ret;
}

/*
 * The user-level scheduler's probe (place.c): a device for the job, and
 * its memory reserved there for this socket.  The reply is allocated
 * first, so a reservation made is never an error reported.
 */
static int edge_nl_place_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct edge_device *ed = NULL;
	struct edge_place_who who;
	struct sk_buff *msg;
	char name[16];
	u64 mem, id = 0;
	u32 pol = EDGE_PLACE_ALG3;
	int ret;
	void *hdr;

	if (GENL_REQ_ATTR_CHECK(info, EDGE_A_PLACE_MEM) ||
	    GENL_REQ_ATTR_CHECK(info, EDGE_A_PLACE_THREADS) ||
	    GENL_REQ_ATTR_CHECK(info, EDGE_A_PLACE_BLOCKS)) {
		GENL_SET_ERR_MSG(info,
				 "place needs place-mem, place-threads and place-blocks");
		return -EINVAL;
	}
	if (a[EDGE_A_PLACE_POLICY])
		pol = nla_get_u32(a[EDGE_A_PLACE_POLICY]);
	mem = nla_get_u64(a[EDGE_A_PLACE_MEM]);
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	/*
	 * doit runs in the sender's sendmsg(): current is who asked, and
	 * netlink_capable() wants the socket's opener privileged as well.
	 */
	who.portid = info->snd_portid;
	who.tgid = task_tgid(current);
	who.priv = netlink_capable(skb, CAP_SYS_ADMIN);
	who.user = edge_user_get(current_uid());
	if (!who.user) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	ret = edge_place(pol, mem, nla_get_u32(a[EDGE_A_PLACE_THREADS]),
			 nla_get_u32(a[EDGE_A_PLACE_BLOCKS]), &who, &ed, &id);
	edge_user_put(who.user);
	if (ret == -EBUSY)
		GENL_SET_ERR_MSG(info, "no device has room for the job");
	else if (ret == -ENOMEM && ed)
		GENL_SET_ERR_MSG(info,
				 "policy chose a device without the memory: OOM");
	else if (ret == -ENOSPC)
		GENL_SET_ERR_MSG(info, "too many reservations");
	else if (ret == -EDQUOT)
		GENL_SET_ERR_MSG(info,
				 "max_user_reservations or max_user_mem_mb reached");
	if (ret)
		goto err;
	hdr = genlmsg_put_reply(msg, info, &edge_nl_family, 0, EDGE_CMD_PLACE);
	snprintf(name, sizeof(name), "edge%d", ed->index);
	if (!hdr || nla_put_u32(msg, EDGE_A_PLACE_DEV_INDEX, ed->index) ||
	    nla_put_string(msg, EDGE_A_PLACE_DEV_NAME, name) ||
	    edge_nl_put_u64(msg, EDGE_A_PLACE_ID, id) ||
	    edge_nl_put_u64(msg, EDGE_A_PLACE_MEM, mem) ||
	    nla_put_u32(msg, EDGE_A_PLACE_POLICY, pol)) {
		edge_place_release(info->snd_portid, id);
		ret = -EMSGSIZE;
		goto err;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
err:
	nlmsg_free(msg);
	return ret;
}

static int edge_nl_place_release_doit(struct sk_buff *skb,
				      struct genl_info *info)
{
	struct nlattr *ia = info->attrs[EDGE_A_PLACE_ID];
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, EDGE_A_PLACE_ID)) {
		GENL_SET_ERR_MSG(info, "place-release needs place-id");
		return -EINVAL;
	}
	ret = edge_place_release(info->snd_portid, nla_get_u64(ia));
	if (ret)
		NL_SET_ERR_MSG_ATTR(info->extack, ia,
				    "this socket holds no such reservation");
	return ret;
}

static const struct genl_ops edge_nl_ops[] = {
	{
		.cmd = EDGE_CMD_DEV_GET,
		.policy = edge_nl_dev_policy,
		.maxattr = EDGE_A_DEV_MAX,
		.doit = edge_nl_dev_get_doit,
		.dumpit = edge_nl_dev_get_dumpit,
	},
	{
		.cmd = EDGE_CMD_DEV_ADD,
		.policy = edge_nl_dev_add_policy,
		.maxattr = EDGE_A_DEV_MAX,
		.doit = edge_nl_dev_add_doit,
		.internal_flags = EDGE_NL_WRITE,
	},
	{
		.cmd = EDGE_CMD_DEV_DEL,
		.policy = edge_nl_dev_policy,
		.maxattr = EDGE_A_DEV_MAX,
		.doit = edge_nl_dev_del_doit,
		.internal_flags = EDGE_NL_WRITE,
	},
	{
		.cmd = EDGE_CMD_DEV_SET,
		.policy = edge_nl_dev_set_policy,
		.maxattr = EDGE_A_DEV_MAX,
		.doit = edge_nl_dev_set_doit,
		.internal_flags = EDGE_NL_WRITE,
	},
	{
		.cmd = EDGE_CMD_STATS_GET,
		.policy = edge_nl_stats_policy,
		.maxattr = EDGE_A_STATS_MAX,
		.doit = edge_nl_stats_get_doit,
	},
	{
		.cmd = EDGE_CMD_EKT_GET,
		.policy = edge_nl_ekt_policy,
		.maxattr = EDGE_A_EKT_MAX,
		.dumpit = edge_nl_ekt_get_dumpit,
	},
	{
		.cmd = EDGE_CMD_SCHED_GET,
		.policy = edge_nl_sched_get_policy,
		.maxattr = EDGE_A_SCHED_MAX,
		.doit = edge_nl_sched_get_doit,
	},
	{
		.cmd = EDGE_CMD_JOB_GET,
		.policy = edge_nl_job_policy,
		.maxattr = EDGE_A_JOB_MAX,
		.dumpit = edge_nl_job_get_dumpit,
	},
	{
		.cmd = EDGE_CMD_SCHED_SET,
		.policy = edge_nl_sched_set_policy,
		.maxattr = EDGE_A_SCHED_MAX,
		.doit = edge_nl_sched_set_doit,
		.internal_flags = EDGE_NL_WRITE,
	},
	/* Open to all, as /dev/edgeN is: memory a job would register. */
	{
		.cmd = EDGE_CMD_PLACE,
		.policy = edge_nl_place_policy,
		.maxattr = EDGE_A_PLACE_MAX,
		.doit = edge_nl_place_doit,
	},
	{
		.cmd = EDGE_CMD_PLACE_RELEASE,
		.policy = edge_nl_place_release_policy,
		.maxattr = EDGE_A_PLACE_MAX,
		.doit = edge_nl_place_release_doit,
	},
};

/*
 * The monitor tells every user's PIDs, registrations and job results:
 * root's only.  genl_bind() checks the flag (edge_kcompat.h insists on it).
 */
static const struct genl_multicast_group edge_nl_mcgrps[] = {
	{ .name = EDGE_MCGRP_EVENTS, .flags = GENL_MCAST_CAP_SYS_ADMIN, },
};

static struct genl_family edge_nl_family __ro_after_init = {
	.name = EDGE_FAMILY_NAME,
	/*
	 * Version 2 (CTRL_ATTR_VERSION), which tools check when they
	 * resolve the family.  A request's own header version is not
	 * checked (genetlink does not either): the kernel's YNL client
	 * always sends 1 (tools/net/ynl/lib/ynl.py), and what keeps a
	 * version-1 program from being misread is the commands' numbers,
	 * from 32 (version 1's ended at 21: it gets -EOPNOTSUPP), and the
	 * group's new name (version 1's "monitor" does not resolve).
	 */
	.version = EDGE_FAMILY_VERSION,
	/* The ops' policies' span: non-parallel ops parse into one buffer. */
	.maxattr = EDGE_NL_MAXATTR,
	.netnsok = false,
	.pre_doit = edge_nl_pre_doit,
	.post_doit = edge_nl_post_doit,
	.module = THIS_MODULE,
	.ops = edge_nl_ops,
	.n_ops = ARRAY_SIZE(edge_nl_ops),
	/* Strict validation for every command: no legacy users. */
	.resv_start_op = EDGE_CMD_MAX + 1,
	.mcgrps = edge_nl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(edge_nl_mcgrps),
};

int edge_nl_init(void)
{
	int ret;

	/* The preset enum is the preset table, entry for entry. */
	if (WARN_ON(!edge_preset_at(EDGE_NL_PRESET_MAX) ||
		    edge_preset_at(EDGE_NL_PRESET_MAX + 1)))
		return -EINVAL;
	skb_queue_head_init(&edge_nl_deferred);
	ret = genl_register_family(&edge_nl_family);
	if (!ret)
		WRITE_ONCE(edge_nl_ready, true);
	return ret;
}

void edge_nl_exit(void)
{
	WRITE_ONCE(edge_nl_ready, false);
	cancel_work_sync(&edge_nl_work);
	skb_queue_purge(&edge_nl_deferred);
	genl_unregister_family(&edge_nl_family);
}
