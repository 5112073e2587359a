// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/class/edge/edgeN/cp/: the command processor's costs and periods
 * (emul/cp/cp.c, Documentation/lax.rst).  The policy itself is
 * sched/queue_policy.  Admin only; each write is checked and applied
 * under the model lock, whole or not at all.
 */
#include <linux/device.h>
#include <linux/capability.h>
#include <linux/kstrtox.h>

#include "edge_drv.h"
#include "netlink.h"

struct edge_cp_attr {
	struct device_attribute attr;
	size_t off;		/* a u32 of struct edge_cp_cfg */
};

static u32 *cp_field(struct edge_cp_cfg *cfg, struct device_attribute *attr)
{
	struct edge_cp_attr *ca = container_of(attr, struct edge_cp_attr, attr);

	return (u32 *)((u8 *)cfg + ca->off);
}

static ssize_t cp_show(struct device *dev, struct device_attribute *attr,
		       char *buf)
{
	struct edge_device *ed = dev_get_drvdata(dev);
	struct edge_cp_cfg cfg;

	mutex_lock(&ed->lock);
	cfg = edge_model_cp_cfg(&ed->model);
	mutex_unlock(&ed->lock);
	return sysfs_emit(buf, "%u\n", *cp_field(&cfg, attr));
}

static ssize_t cp_store(struct device *dev, struct device_attribute *attr,
			const char *buf, size_t count)
{
	struct edge_device *ed = dev_get_drvdata(dev);
	struct edge_cp_cfg cfg;
	u32 v;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	ret = kstrtou32(buf, 0, &v);
	if (ret)
		return ret;
	mutex_lock(&ed->lock);
	cfg = edge_model_cp_cfg(&ed->model);
	*cp_field(&cfg, attr) = v;
	ret = edge_model_set_cp_timing(&ed->model, &cfg);
	mutex_unlock(&ed->lock);
	if (!ret)
		edge_nl_policy_notify(ed);
	return ret ? ret : count;
}

#define EDGE_CP_ATTR(name, field) {					\
	.attr = __ATTR(name, 0644, cp_show, cp_store),			\
	.off = offsetof(struct edge_cp_cfg, field),			\
}

static struct edge_cp_attr edge_cp_attrs[] = {
	EDGE_CP_ATTR(parse_ns, parse_ns),
	EDGE_CP_ATTR(host_ns, host_ns),
	EDGE_CP_ATTR(predict_ns, predict_ns),
	EDGE_CP_ATTR(profile_ns, profile_ns),
	EDGE_CP_ATTR(prema_ns, period_ns),
};

/* Listed by index below: an attribute added above goes there too. */
static_assert(ARRAY_SIZE(edge_cp_attrs) == 5);

static struct attribute *edge_cp_group_attrs[] = {
	&edge_cp_attrs[0].attr.attr,
	&edge_cp_attrs[1].attr.attr,
	&edge_cp_attrs[2].attr.attr,
	&edge_cp_attrs[3].attr.attr,
	&edge_cp_attrs[4].attr.attr,
	NULL,
};

const struct attribute_group edge_cp_group = {
	.name = "cp",
	.attrs = edge_cp_group_attrs,
};
