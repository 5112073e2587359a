// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/class/edge/edgeN/cp/: the command processor's costs and period
 * (emul/cp/cp.c, Documentation/lax.rst), and one file per knob of every
 * queue-level policy, named and checked by the policy's descriptor
 * (emul/policy/param.h): this file names no policy and no knob of one.
 * The policy itself is sched/queue_policy.  Admin only; each write is
 * checked and applied under the model lock, whole or not at all.
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
	EDGE_CP_ATTR(profile_ns, profile_ns),
};

/* A policy's knob: the file's name is the knob's. */
static ssize_t param_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct edge_device *ed = dev_get_drvdata(dev);
	u64 v;
	int ret;

	mutex_lock(&ed->lock);
	ret = edge_model_param_get(&ed->model, attr->attr.name, &v);
	mutex_unlock(&ed->lock);
	return ret ? ret : sysfs_emit(buf, "%llu\n", v);
}

/* Out of the knob's range: -EINVAL, as every other knob of sysfs. */
static ssize_t param_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	struct edge_device *ed = dev_get_drvdata(dev);
	u64 v;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	ret = kstrtou64(buf, 0, &v);
	if (ret)
		return ret;
	mutex_lock(&ed->lock);
	ret = edge_model_param_set(&ed->model, attr->attr.name, v, NULL);
	mutex_unlock(&ed->lock);
	if (ret)
		return -EINVAL;
	edge_nl_policy_notify(ed);
	return count;
}

static struct device_attribute edge_param_attrs[EDGE_CP_PARAMS_MAX];

static struct attribute *edge_cp_group_attrs[ARRAY_SIZE(edge_cp_attrs) +
					     EDGE_CP_PARAMS_MAX + 1];

/**
 * edge_sysfs_cp_init() - the cp/ group's files, from the descriptors
 *
 * Called once at module load, before any device exists: the costs'
 * files, then one per queue-level policy knob.  Cannot fail: the host
 * tests check that the knobs fit EDGE_CP_PARAMS_MAX.
 */
void edge_sysfs_cp_init(void)
{
	u32 n = 0, k = 0, pol, i;

	for (i = 0; i < ARRAY_SIZE(edge_cp_attrs); i++)
		edge_cp_group_attrs[n++] = &edge_cp_attrs[i].attr.attr;
	for (pol = 0; pol < EDGE_POL_NR; pol++) {
		const struct edge_cp_policy *cpp = edge_cp_policies[pol];

		for (i = 0; i < cpp->nr_params; i++) {
			struct device_attribute *da = &edge_param_attrs[k];

			if (WARN_ON_ONCE(k == EDGE_CP_PARAMS_MAX))
				return;
			sysfs_attr_init(&da->attr);
			da->attr.name = cpp->params[i].name;
			da->attr.mode = 0644;
			da->show = param_show;
			da->store = param_store;
			edge_cp_group_attrs[n++] = &da->attr;
			k++;
		}
	}
}

const struct attribute_group edge_cp_group = {
	.name = "cp",
	.attrs = edge_cp_group_attrs,
};
