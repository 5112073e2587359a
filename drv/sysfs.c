// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs attributes of /sys/class/edge/edgeN: counters (snapshots taken
 * under the model lock) and the front end's poll window.
 */
#include <linux/device.h>
#include <linux/capability.h>
#include <linux/kstrtox.h>

#include "edge_drv.h"

/* A counter of struct edge_model_stats, named by its offset. */
struct edge_stat_attr {
	struct device_attribute attr;
	size_t off;
};

static ssize_t edge_stat_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct edge_device *ed = dev_get_drvdata(dev);
	size_t off = container_of(attr, struct edge_stat_attr, attr)->off;
	u64 v;

	mutex_lock(&ed->lock);
	v = *(u64 *)((u8 *)&ed->model.st + off);
	mutex_unlock(&ed->lock);
	return sysfs_emit(buf, "%llu\n", v);
}

#define EDGE_STAT_OFF(field)	offsetof(struct edge_model_stats, field)

static struct edge_stat_attr edge_stat_attrs[] = {
	{ __ATTR(submitted, 0444, edge_stat_show, NULL), EDGE_STAT_OFF(submitted) },
	{ __ATTR(completed, 0444, edge_stat_show, NULL), EDGE_STAT_OFF(completed) },
	{ __ATTR(errors, 0444, edge_stat_show, NULL), EDGE_STAT_OFF(errors) },
	{ __ATTR(rejected, 0444, edge_stat_show, NULL), EDGE_STAT_OFF(rejected) },
	{ __ATTR(cancelled, 0444, edge_stat_show, NULL), EDGE_STAT_OFF(cancelled) },
};

static ssize_t inflight_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct edge_device *ed = dev_get_drvdata(dev);
	u32 v;

	mutex_lock(&ed->lock);
	v = ed->model.inflight;
	mutex_unlock(&ed->lock);
	return sysfs_emit(buf, "%u\n", v);
}
static DEVICE_ATTR_RO(inflight);

static ssize_t registered_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct edge_device *ed = dev_get_drvdata(dev);
	u32 v;

	mutex_lock(&ed->lock);
	v = ed->model.ekt.used;
	mutex_unlock(&ed->lock);
	return sysfs_emit(buf, "%u\n", v);
}
static DEVICE_ATTR_RO(registered);

static ssize_t sleeps_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct edge_device *ed = dev_get_drvdata(dev);
	u64 v;

	mutex_lock(&ed->lock);
	v = ed->sleeps;
	mutex_unlock(&ed->lock);
	return sysfs_emit(buf, "%llu\n", v);
}
static DEVICE_ATTR_RO(sleeps);

static ssize_t wakeups_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct edge_device *ed = dev_get_drvdata(dev);
	u64 v;

	mutex_lock(&ed->lock);
	v = ed->wakeups;
	mutex_unlock(&ed->lock);
	return sysfs_emit(buf, "%llu\n", v);
}
static DEVICE_ATTR_RO(wakeups);

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

static struct attribute *edge_attrs[] = {
	&edge_stat_attrs[0].attr.attr,
	&edge_stat_attrs[1].attr.attr,
	&edge_stat_attrs[2].attr.attr,
	&edge_stat_attrs[3].attr.attr,
	&edge_stat_attrs[4].attr.attr,
	&dev_attr_inflight.attr,
	&dev_attr_registered.attr,
	&dev_attr_sleeps.attr,
	&dev_attr_wakeups.attr,
	&dev_attr_preset.attr,
	&dev_attr_time_mode.attr,
	&dev_attr_poll_idle_us.attr,
	&dev_attr_cpu.attr,
	NULL,
};

static const struct attribute_group edge_attr_group = {
	.attrs = edge_attrs,
};

const struct attribute_group *edge_groups[] = {
	&edge_attr_group,
	&edge_sched_group,
	NULL,
};
