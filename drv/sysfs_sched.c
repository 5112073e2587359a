// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/class/edge/edgeN/sched/: how the SIMT model gets event warps onto
 * a full GPU (knobs, CAP_SYS_ADMIN to change) and what it measured.
 */
#include <linux/device.h>
#include <linux/capability.h>
#include <linux/kstrtox.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/mm.h>

#include "edge_drv.h"
#include "netlink.h"

static const char * const stall_names[EDGE_STALL_NR] = {
	[EDGE_STALL_PIPELINE] = "pipeline",
	[EDGE_STALL_SCOREBOARD] = "scoreboard",
	[EDGE_STALL_LOAD] = "load",
	[EDGE_STALL_ICACHE] = "icache",
	[EDGE_STALL_BARRIER] = "barrier",
	[EDGE_STALL_MEMBAR] = "membar",
};

static struct edge_device *to_edev(struct device *dev)
{
	return dev_get_drvdata(dev);
}

/*
 * Every knob is written the same way: parse into a copy of the config,
 * under the model lock, and apply it whole or not at all.
 */
typedef int (*edge_cfg_parse_fn)(struct edge_simt_cfg *cfg,
				 struct device_attribute *attr,
				 const char *buf);

static ssize_t edge_cfg_update(struct device *dev,
			       struct device_attribute *attr, const char *buf,
			       size_t count, edge_cfg_parse_fn parse)
{
	struct edge_device *ed = to_edev(dev);
	struct edge_simt_cfg cfg;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	mutex_lock(&ed->lock);
	cfg = ed->model.simt.cfg;
	ret = parse(&cfg, attr, buf);
	if (!ret)
		ret = edge_model_set_cfg(&ed->model, &cfg);
	mutex_unlock(&ed->lock);
	if (!ret)
		edge_nl_policy_notify(ed);
	return ret ? ret : count;
}

static struct edge_simt_cfg edge_cfg_get(struct edge_device *ed)
{
	struct edge_simt_cfg cfg;

	mutex_lock(&ed->lock);
	cfg = ed->model.simt.cfg;
	mutex_unlock(&ed->lock);
	return cfg;
}

/* A knob of struct edge_simt_cfg that takes one of a table's names. */
struct edge_enum_attr {
	struct device_attribute attr;
	const struct edge_name *names;
	size_t n;
	size_t off;
};

static ssize_t cfg_enum_show(struct device *dev,
			     struct device_attribute *attr, char *buf)
{
	struct edge_enum_attr *ea = container_of(attr, struct edge_enum_attr,
						 attr);
	struct edge_simt_cfg cfg = edge_cfg_get(to_edev(dev));
	u32 v = *(u32 *)((u8 *)&cfg + ea->off);

	return sysfs_emit(buf, "%s\n", edge_name_of(ea->names, ea->n, v));
}

static int parse_enum(struct edge_simt_cfg *cfg, struct device_attribute *attr,
		      const char *buf)
{
	struct edge_enum_attr *ea = container_of(attr, struct edge_enum_attr,
						 attr);
	char tmp[16];
	int i;

	if (strscpy(tmp, buf, sizeof(tmp)) < 0)
		return -EINVAL;
	i = edge_name_find(ea->names, ea->n, strim(tmp));
	if (i < 0)
		return -EINVAL;
	*(u32 *)((u8 *)cfg + ea->off) = i;
	return 0;
}

static ssize_t cfg_enum_store(struct device *dev,
			      struct device_attribute *attr, const char *buf,
			      size_t count)
{
	return edge_cfg_update(dev, attr, buf, count, parse_enum);
}

#define EDGE_ENUM(name, table, nr, field) {				\
	.attr = __ATTR(name, 0644, cfg_enum_show, cfg_enum_store),	\
	.names = table,							\
	.n = nr,							\
	.off = offsetof(struct edge_simt_cfg, field),			\
}

static struct edge_enum_attr edge_enum_attrs[] = {
	EDGE_ENUM(policy, edge_sched_table, EDGE_SCHED_NR, sched),
	EDGE_ENUM(victim, edge_victim_table, EDGE_VICTIM_NR, victim),
};

static ssize_t flush_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	char tmp[64];

	edge_flush_format(edge_cfg_get(to_edev(dev)).flush, tmp, sizeof(tmp));
	return sysfs_emit(buf, "%s\n", tmp);
}

/* "none", "all", or optimisation names joined by '+', as edge-sim's. */
static int parse_flush(struct edge_simt_cfg *cfg,
		       struct device_attribute *attr, const char *buf)
{
	char tmp[64];

	if (strscpy(tmp, buf, sizeof(tmp)) < 0)
		return -EINVAL;
	return edge_flush_parse(strim(tmp), &cfg->flush, NULL);
}

static ssize_t flush_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	return edge_cfg_update(dev, attr, buf, count, parse_flush);
}
static DEVICE_ATTR_RW(flush);

/* Numeric knobs of struct edge_simt_cfg, by offset. */
struct edge_cfg_attr {
	struct device_attribute attr;
	size_t off;
	bool wide;
};

static ssize_t cfg_num_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct edge_cfg_attr *ca = container_of(attr, struct edge_cfg_attr, attr);
	struct edge_simt_cfg cfg = edge_cfg_get(to_edev(dev));
	u8 *p = (u8 *)&cfg + ca->off;

	if (ca->wide)
		return sysfs_emit(buf, "%llu\n", *(u64 *)p);
	return sysfs_emit(buf, "%u\n", *(u32 *)p);
}

static int parse_num(struct edge_simt_cfg *cfg, struct device_attribute *attr,
		     const char *buf)
{
	struct edge_cfg_attr *ca = container_of(attr, struct edge_cfg_attr, attr);
	u64 v;
	int ret;

	ret = kstrtou64(buf, 0, &v);
	if (ret)
		return ret;
	if (ca->wide) {
		*(u64 *)((u8 *)cfg + ca->off) = v;
		return 0;
	}
	if (v > U32_MAX)
		return -EINVAL;
	*(u32 *)((u8 *)cfg + ca->off) = (u32)v;
	return 0;
}

static ssize_t cfg_num_store(struct device *dev, struct device_attribute *attr,
			     const char *buf, size_t count)
{
	return edge_cfg_update(dev, attr, buf, count, parse_num);
}

#define EDGE_CFG_OFF(f)	offsetof(struct edge_simt_cfg, f)

static struct edge_cfg_attr edge_cfg_attrs[] = {
	{ __ATTR(reserve_pct, 0644, cfg_num_show, cfg_num_store),
	  EDGE_CFG_OFF(reserve_pct), false },
	{ __ATTR(dispatch_cycles, 0644, cfg_num_show, cfg_num_store),
	  EDGE_CFG_OFF(dispatch_cycles), false },
	{ __ATTR(sched_wait_cycles, 0644, cfg_num_show, cfg_num_store),
	  EDGE_CFG_OFF(sched_wait_cycles), false },
	{ __ATTR(ctx_bytes_per_cycle, 0644, cfg_num_show, cfg_num_store),
	  EDGE_CFG_OFF(ctx_bytes_per_cycle), false },
	{ __ATTR(skip_event_exec, 0644, cfg_num_show, cfg_num_store),
	  EDGE_CFG_OFF(skip_event_exec), false },
	{ __ATTR(seed, 0644, cfg_num_show, cfg_num_store),
	  EDGE_CFG_OFF(seed), true },
};

/*
 * The CP's queue scheduling policy.  Not a knob of the SIMT config, but
 * written the same way: admin only, parsed whole, applied under the
 * model lock.  Jobs in flight keep their state; the new policy ranks
 * them from the CP's next tick and decides admission of the next job.
 */
static ssize_t queue_policy_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct edge_device *ed = to_edev(dev);
	u32 pol;

	mutex_lock(&ed->lock);
	pol = edge_model_policy(&ed->model);
	mutex_unlock(&ed->lock);
	return sysfs_emit(buf, "%s\n", edge_cp_policy_name(pol));
}

static ssize_t queue_policy_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t count)
{
	struct edge_device *ed = to_edev(dev);
	char tmp[16];
	int pol, ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (strscpy(tmp, buf, sizeof(tmp)) < 0)
		return -EINVAL;
	pol = edge_cp_policy_find(strim(tmp));
	if (pol < 0)
		return pol;
	mutex_lock(&ed->lock);
	ret = edge_model_set_policy(&ed->model, pol);
	mutex_unlock(&ed->lock);
	if (!ret)
		edge_nl_policy_notify(ed);
	return ret ? ret : count;
}
static DEVICE_ATTR_RW(queue_policy);

/* The thread-block policy, a SIMT knob named from the policy table. */
static ssize_t tb_policy_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	u32 pol = edge_cfg_get(to_edev(dev)).tb_policy;

	return sysfs_emit(buf, "%s\n", edge_tb_policy_name(pol));
}

static int parse_tb_policy(struct edge_simt_cfg *cfg,
			   struct device_attribute *attr, const char *buf)
{
	char tmp[16];
	int pol;

	if (strscpy(tmp, buf, sizeof(tmp)) < 0)
		return -EINVAL;
	pol = edge_tb_policy_find(strim(tmp));
	if (pol < 0)
		return pol;
	cfg->tb_policy = pol;
	return 0;
}

static ssize_t tb_policy_store(struct device *dev,
			       struct device_attribute *attr, const char *buf,
			       size_t count)
{
	return edge_cfg_update(dev, attr, buf, count, parse_tb_policy);
}
static DEVICE_ATTR_RW(tb_policy);

/* The names each policy knob takes, from the policy tables. */
static ssize_t names_emit(char *buf, u32 nr, const char *(*name)(u32))
{
	int len = 0;
	u32 i;

	for (i = 0; i < nr; i++)
		len += sysfs_emit_at(buf, len, "%s%s", i ? " " : "", name(i));
	return len + sysfs_emit_at(buf, len, "\n");
}

static ssize_t queue_policies_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return names_emit(buf, EDGE_POL_NR, edge_cp_policy_name);
}
static DEVICE_ATTR_RO(queue_policies);

static ssize_t tb_policies_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return names_emit(buf, EDGE_TBP_NR, edge_tb_policy_name);
}
static DEVICE_ATTR_RO(tb_policies);

static void lat_emit(char *buf, int *len, const char *name,
		     const struct edge_lat *l)
{
	*len += sysfs_emit_at(buf, *len,
			      "%s_n=%llu %s_min=%llu %s_avg=%llu %s_p99=%llu %s_max=%llu\n",
			      name, l->n, name, l->n ? l->min : 0, name,
			      edge_lat_avg(l), name, edge_lat_pct(l, 99), name,
			      l->max);
}

/*
 * One snapshot of the SIMT statistics, as name=value lines (cycles):
 * scheduling and preemption latency, stall reasons, ANTT and STP.
 */
static ssize_t stats_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct edge_device *ed = to_edev(dev);
	struct edge_simt_stats *st;
	struct edge_model_stats ms;
	struct edge_lat *jlat;
	int len = 0, i;

	st = kvmalloc(sizeof(*st), GFP_KERNEL);
	jlat = kvmalloc(sizeof(*jlat), GFP_KERNEL);
	if (!st || !jlat) {
		kvfree(st);
		kvfree(jlat);
		return -ENOMEM;
	}
	mutex_lock(&ed->lock);
	*st = ed->model.simt.st;
	ms = ed->model.st;
	*jlat = ed->model.cp->st.lat;
	len += sysfs_emit_at(buf, len, "antt_milli=%llu stp_milli=%llu\n",
			     edge_simt_antt_milli(&ed->model.simt),
			     edge_simt_stp_milli(&ed->model.simt));
	mutex_unlock(&ed->lock);
	lat_emit(buf, &len, "sched", &st->sched);
	lat_emit(buf, &len, "preempt", &st->preempt);
	len += sysfs_emit_at(buf, len,
			     "preemptions=%llu ewarps_free=%llu ewarps_waited=%llu tbs_dispatched=%llu tbs_done=%llu kernels_done=%llu\n",
			     st->preemptions, st->ewarps_free, st->ewarps_waited,
			     st->tbs_dispatched, st->tbs_done, st->kernels_done);
	len += sysfs_emit_at(buf, len, "tb_preemptions=%llu tb_ctx_cycles=%llu\n",
			     st->tb_preemptions, st->tb_ctx_cycles);
	for (i = 0; i < EDGE_STALL_NR; i++)
		len += sysfs_emit_at(buf, len, "stall_%s_cycles=%llu stall_%s_count=%llu\n",
				     stall_names[i], st->stall_cycles[i],
				     stall_names[i], st->stall_count[i]);
	len += sysfs_emit_at(buf, len,
			     "jobs_submitted=%llu jobs_done=%llu jobs_met=%llu jobs_rejected=%llu jobs_cancelled=%llu\n",
			     ms.jobs_submitted, ms.jobs_done, ms.jobs_met,
			     ms.jobs_rejected, ms.jobs_cancelled);
	lat_emit(buf, &len, "job_us", jlat);
	kvfree(jlat);
	kvfree(st);
	return len;
}
static DEVICE_ATTR_RO(stats);

/* Zero the statistics (between experiments). */
static ssize_t stats_reset_store(struct device *dev,
				 struct device_attribute *attr,
				 const char *buf, size_t count)
{
	struct edge_device *ed = to_edev(dev);

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	mutex_lock(&ed->lock);
	memset(&ed->model.simt.st, 0, sizeof(ed->model.simt.st));
	mutex_unlock(&ed->lock);
	return count;
}
static DEVICE_ATTR_WO(stats_reset);

/*
 * Virtual time only: while held, the front end consumes doorbells but
 * does not advance the model, so work rung in several stores arrives at
 * one model instant, as a test needs for a deterministic run.
 */
static ssize_t vt_hold_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(to_edev(dev)->vt_hold));
}

static ssize_t vt_hold_store(struct device *dev, struct device_attribute *attr,
			     const char *buf, size_t count)
{
	struct edge_device *ed = to_edev(dev);
	bool v;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	ret = kstrtobool(buf, &v);
	if (ret)
		return ret;
	if (v && !ed->virtual_time)
		return -EINVAL;
	/*
	 * Under the model's lock: the front end reads vt_hold with it held
	 * and keeps it until it is on its wait queue (frontend_sleep()).
	 * A release stored between that read and the queueing was a kick
	 * that woke nobody, and held work slept until the next kick (seen
	 * once on the debug kernel: edge_jobs_test reaped nothing in 10 s).
	 */
	mutex_lock(&ed->lock);
	WRITE_ONCE(ed->vt_hold, v);
	mutex_unlock(&ed->lock);
	edge_frontend_kick(ed);
	return count;
}
static DEVICE_ATTR_RW(vt_hold);

static struct attribute *edge_sched_attrs[] = {
	&edge_enum_attrs[0].attr.attr,
	&edge_enum_attrs[1].attr.attr,
	&dev_attr_flush.attr,
	&edge_cfg_attrs[0].attr.attr,
	&edge_cfg_attrs[1].attr.attr,
	&edge_cfg_attrs[2].attr.attr,
	&edge_cfg_attrs[3].attr.attr,
	&edge_cfg_attrs[4].attr.attr,
	&edge_cfg_attrs[5].attr.attr,
	&dev_attr_stats.attr,
	&dev_attr_stats_reset.attr,
	&dev_attr_vt_hold.attr,
	&dev_attr_queue_policy.attr,
	&dev_attr_queue_policies.attr,
	&dev_attr_tb_policy.attr,
	&dev_attr_tb_policies.attr,
	NULL,
};

const struct attribute_group edge_sched_group = {
	.name = "sched",
	.attrs = edge_sched_attrs,
};
