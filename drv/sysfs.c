// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs attributes of /sys/class/edge/edgeN: counters (snapshots taken
 * under the model lock) and the front end's poll window.
 */
#include <linux/device.h>
#include <linux/capability.h>
#include <linux/kstrtox.h>

#include "edge_drv.h"

/*
 * A counter of the device, named by its offset in struct edge_device and
 * read as one snapshot under the model lock.
 */
struct edge_stat_attr {
	struct device_attribute attr;
	size_t off;
	bool wide;		/* u64, else u32 */
};

static ssize_t edge_stat_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct edge_device *ed = dev_get_drvdata(dev);
	struct edge_stat_attr *sa = container_of(attr, struct edge_stat_attr,
						 attr);
	u8 *p = (u8 *)ed + sa->off;
	u64 v;

	mutex_lock(&ed->lock);
	v = sa->wide ? *(u64 *)p : *(u32 *)p;
	mutex_unlock(&ed->lock);
	return sysfs_emit(buf, "%llu\n", v);
}

#define EDGE_STAT(name, field, is_wide) {				\
	.attr = __ATTR(name, 0444, edge_stat_show, NULL),		\
	.off = offsetof(struct edge_device, field),			\
	.wide = is_wide,						\
}

static struct edge_stat_attr edge_stat_attrs[] = {
	EDGE_STAT(submitted, model.st.submitted, true),
	EDGE_STAT(completed, model.st.completed, true),
	EDGE_STAT(errors, model.st.errors, true),
	EDGE_STAT(rejected, model.st.rejected, true),
	EDGE_STAT(cancelled, model.st.cancelled, true),
	EDGE_STAT(late, model.st.late, true),
	EDGE_STAT(batch_warps, model.st.batch_warps, true),
	EDGE_STAT(inflight, model.inflight, false),
	EDGE_STAT(registered, model.ekt.used, false),
	EDGE_STAT(sleeps, sleeps, true),
	EDGE_STAT(wakeups, wakeups, true),
	EDGE_STAT(jobs_submitted, model.st.jobs_submitted, true),
	EDGE_STAT(jobs_done, model.st.jobs_done, true),
	EDGE_STAT(jobs_met, model.st.jobs_met, true),
	EDGE_STAT(jobs_rejected, model.st.jobs_rejected, true),
	EDGE_STAT(jobs_cancelled, model.st.jobs_cancelled, true),
};

static ssize_t preset_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct edge_device *ed = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%s\n", ed->model.preset->name);
}
static DEVICE_ATTR_RO(preset);

static ssize_t time_mode_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct edge_device *ed = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%s\n", ed->virtual_time ? "virtual" : "real");
}
static DEVICE_ATTR_RO(time_mode);

static ssize_t poll_idle_us_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct edge_device *ed = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", READ_ONCE(ed->poll_idle_us));
}

/* Changing how the device behaves for everyone is an admin's call. */
static ssize_t poll_idle_us_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t count)
{
	struct edge_device *ed = dev_get_drvdata(dev);
	u32 v;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	ret = kstrtou32(buf, 0, &v);
	if (ret)
		return ret;
	if (v > USEC_PER_SEC * 10)
		return -EINVAL;
	WRITE_ONCE(ed->poll_idle_us, v);
	edge_frontend_kick(ed);
	return count;
}
static DEVICE_ATTR_RW(poll_idle_us);

static ssize_t time_scale_pct_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct edge_device *ed = dev_get_drvdata(dev);
	u32 v;

	mutex_lock(&ed->lock);
	v = ed->time_scale_pct;
	mutex_unlock(&ed->lock);
	return sysfs_emit(buf, "%u\n", v);
}

/* Model ns per 100 wall ns; real time only (virtual time has no wall). */
static ssize_t time_scale_pct_store(struct device *dev,
				    struct device_attribute *attr,
				    const char *buf, size_t count)
{
	struct edge_device *ed = dev_get_drvdata(dev);
	u32 v;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	ret = kstrtou32(buf, 0, &v);
	if (ret)
		return ret;
	if (!v || v > 10000 || ed->virtual_time)
		return -EINVAL;
	mutex_lock(&ed->lock);
	edge_frontend_set_scale(ed, v);
	mutex_unlock(&ed->lock);
	/* A sleeping front end's timeout was computed with the old scale. */
	edge_frontend_kick(ed);
	return count;
}
static DEVICE_ATTR_RW(time_scale_pct);

static ssize_t cpu_show(struct device *dev, struct device_attribute *attr,
			char *buf)
{
	struct edge_device *ed = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%d\n", READ_ONCE(ed->cpu));
}

static ssize_t cpu_store(struct device *dev, struct device_attribute *attr,
			 const char *buf, size_t count)
{
	struct edge_device *ed = dev_get_drvdata(dev);
	int cpu, ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	ret = kstrtoint(buf, 0, &cpu);
	if (ret)
		return ret;
	ret = edge_frontend_set_cpu(ed, cpu);
	return ret ? ret : count;
}
static DEVICE_ATTR_RW(cpu);

/* Device memory (place.c): one snapshot under its own lock. */
enum {
	EDGE_MEM_TOTAL,
	EDGE_MEM_USED,
	EDGE_MEM_PEAK,
	EDGE_MEM_OOM,
	EDGE_MEM_RESV,
};

static ssize_t edge_mem_show(struct device *dev, char *buf, int which)
{
	struct edge_device *ed = dev_get_drvdata(dev);
	struct edge_mem_view v;
	u64 x;

	edge_mem_view(ed, &v);
	switch (which) {
	case EDGE_MEM_TOTAL:
		x = v.total;
		break;
	case EDGE_MEM_USED:
		x = v.used;
		break;
	case EDGE_MEM_PEAK:
		x = v.peak;
		break;
	case EDGE_MEM_OOM:
		x = v.oom;
		break;
	default:
		x = v.resv;
		break;
	}
	return sysfs_emit(buf, "%llu\n", x);
}

#define EDGE_MEM_ATTR(name, which)					\
static ssize_t name##_show(struct device *dev,				\
			   struct device_attribute *attr, char *buf)	\
{									\
	return edge_mem_show(dev, buf, which);				\
}									\
static DEVICE_ATTR_RO(name)

EDGE_MEM_ATTR(mem_total, EDGE_MEM_TOTAL);
EDGE_MEM_ATTR(mem_used, EDGE_MEM_USED);
EDGE_MEM_ATTR(mem_peak, EDGE_MEM_PEAK);
EDGE_MEM_ATTR(mem_oom, EDGE_MEM_OOM);
EDGE_MEM_ATTR(mem_reservations, EDGE_MEM_RESV);

/*
 * The limits (limits.c): read by anyone, written by CAP_SYS_ADMIN, read
 * without a lock by the calls they limit; a change applies to the next
 * registration or placement and takes nothing back.
 */
/*
 * A limit root sets (limits.c): CAP_SYS_ADMIN, a number in [@min, @max],
 * EINVAL outside it.
 */
static int edge_admin_u64(const char *buf, u64 min, u64 max, u64 *v)
{
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	ret = kstrtou64(buf, 0, v);
	if (ret)
		return ret;
	return *v < min || *v > max ? -EINVAL : 0;
}

static ssize_t ekt_reserved_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct edge_device *ed = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", READ_ONCE(ed->ekt_reserved));
}

static ssize_t ekt_reserved_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t count)
{
	struct edge_device *ed = dev_get_drvdata(dev);
	int ret;
	u64 v;

	ret = edge_admin_u64(buf, 0, EDGE_EKT_ENTRIES, &v);
	if (ret)
		return ret;
	WRITE_ONCE(ed->ekt_reserved, v);
	return count;
}
static DEVICE_ATTR_RW(ekt_reserved);

static ssize_t mem_reserved_pct_show(struct device *dev,
				     struct device_attribute *attr, char *buf)
{
	struct edge_device *ed = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", READ_ONCE(ed->mem_reserved_pct));
}

static ssize_t mem_reserved_pct_store(struct device *dev,
				      struct device_attribute *attr,
				      const char *buf, size_t count)
{
	struct edge_device *ed = dev_get_drvdata(dev);
	int ret;
	u64 v;

	ret = edge_admin_u64(buf, 0, 100, &v);
	if (ret)
		return ret;
	WRITE_ONCE(ed->mem_reserved_pct, v);
	return count;
}
static DEVICE_ATTR_RW(mem_reserved_pct);

static ssize_t max_event_warps_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	struct edge_device *ed = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%llu\n", READ_ONCE(ed->max_event_warps));
}

static ssize_t max_event_warps_store(struct device *dev,
				     struct device_attribute *attr,
				     const char *buf, size_t count)
{
	struct edge_device *ed = dev_get_drvdata(dev);
	int ret;
	u64 v;

	/* Every event kernel takes a warp at least. */
	ret = edge_admin_u64(buf, 1, U64_MAX, &v);
	if (ret)
		return ret;
	WRITE_ONCE(ed->max_event_warps, v);
	return count;
}
static DEVICE_ATTR_RW(max_event_warps);

/* Listed by index below: a counter added above must be added there too. */
static_assert(ARRAY_SIZE(edge_stat_attrs) == 16);

static struct attribute *edge_attrs[] = {
	&edge_stat_attrs[0].attr.attr,
	&edge_stat_attrs[1].attr.attr,
	&edge_stat_attrs[2].attr.attr,
	&edge_stat_attrs[3].attr.attr,
	&edge_stat_attrs[4].attr.attr,
	&edge_stat_attrs[5].attr.attr,
	&edge_stat_attrs[6].attr.attr,
	&edge_stat_attrs[7].attr.attr,
	&edge_stat_attrs[8].attr.attr,
	&edge_stat_attrs[9].attr.attr,
	&edge_stat_attrs[10].attr.attr,
	&edge_stat_attrs[11].attr.attr,
	&edge_stat_attrs[12].attr.attr,
	&edge_stat_attrs[13].attr.attr,
	&edge_stat_attrs[14].attr.attr,
	&edge_stat_attrs[15].attr.attr,
	&dev_attr_preset.attr,
	&dev_attr_time_mode.attr,
	&dev_attr_poll_idle_us.attr,
	&dev_attr_cpu.attr,
	&dev_attr_time_scale_pct.attr,
	&dev_attr_mem_total.attr,
	&dev_attr_mem_used.attr,
	&dev_attr_mem_peak.attr,
	&dev_attr_mem_oom.attr,
	&dev_attr_mem_reservations.attr,
	&dev_attr_ekt_reserved.attr,
	&dev_attr_mem_reserved_pct.attr,
	&dev_attr_max_event_warps.attr,
	NULL,
};

static const struct attribute_group edge_attr_group = {
	.attrs = edge_attrs,
};

const struct attribute_group *edge_groups[] = {
	&edge_attr_group,
	&edge_sched_group,
	&edge_cp_group,
	NULL,
};
