// SPDX-License-Identifier: GPL-2.0
/*
 * edge: an emulated event-driven GPU front end.
 *
 * Module set-up: parameters, the "edge" class and /dev/edgeN devices, one
 * front-end thread each.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/ktime.h>

#include "edge_drv.h"

static unsigned int nr_devices = 1;
module_param(nr_devices, uint, 0444);
MODULE_PARM_DESC(nr_devices, "Number of /dev/edgeN devices (1-8, default 1)");

static char *preset = "edge";
module_param(preset, charp, 0444);
MODULE_PARM_DESC(preset, "Model preset: edge, lax or h100-like (default edge)");

static bool virtual_time;
module_param(virtual_time, bool, 0444);
MODULE_PARM_DESC(virtual_time,
		 "Model time jumps to the next event instead of following ktime");

static unsigned int poll_idle_us = 1000;
module_param(poll_idle_us, uint, 0444);
MODULE_PARM_DESC(poll_idle_us,
		 "Front end busy-polls this long after work, then sleeps (default 1000)");

static unsigned int time_scale_pct = 100;
module_param(time_scale_pct, uint, 0444);
MODULE_PARM_DESC(time_scale_pct,
		 "Real time: model ns per 100 wall ns (1-10000, default 100)");

static dev_t edge_devt;
static struct class *edge_class;
static struct edge_device *edge_devs[EDGE_MAX_DEVICES];

/* Every user may open the GPU; isolation is per open file. */
static char *edge_devnode(struct device *dev, umode_t *mode)
{
	if (mode)
		*mode = 0666;
	return NULL;
}

/* For the in-kernel API; devices only change at load and unload. */
struct edge_device *edge_device_at(unsigned int index)
{
	return index < EDGE_MAX_DEVICES ? edge_devs[index] : NULL;
}

static void edge_device_destroy(struct edge_device *ed)
{
	if (ed->dev)
		device_destroy(edge_class, ed->cdev.dev);
	cdev_del(&ed->cdev);
	edge_frontend_stop(ed);
	mutex_lock(&ed->lock);
	edge_kapi_device_fini(ed);
	edge_model_fini(&ed->model);
	mutex_unlock(&ed->lock);
	mutex_destroy(&ed->lock);
	kfree(ed->kdoorbells);
	kvfree(ed);
}

static int edge_device_create(int index, const struct edge_preset *p)
{
	struct edge_device *ed;
	int ret;

	ed = kvzalloc(sizeof(*ed), GFP_KERNEL);
	if (!ed)
		return -ENOMEM;
	ed->index = index;
	ed->virtual_time = virtual_time;
	ed->poll_idle_us = poll_idle_us;
	ed->cpu = -1;
	ed->ts_kt = ktime_get_ns();
	ed->time_scale_pct = time_scale_pct;
	mutex_init(&ed->lock);
	spin_lock_init(&ed->kq_lock);
	init_waitqueue_head(&ed->wait);
	ed->kdoorbells = kcalloc(EDGE_EKT_ENTRIES, sizeof(u32), GFP_KERNEL);
	ret = ed->kdoorbells ? edge_model_init(&ed->model, p, edge_notify) :
			       -ENOMEM;
	if (ret) {
		mutex_destroy(&ed->lock);
		kfree(ed->kdoorbells);
		kvfree(ed);
		return ret;
	}
	ed->model.job_notify = edge_job_notify;
	cdev_init(&ed->cdev, &edge_fops);
	ed->cdev.owner = THIS_MODULE;
	ret = edge_frontend_start(ed);
	if (ret)
		goto err;
	ret = cdev_add(&ed->cdev, MKDEV(MAJOR(edge_devt), index), 1);
	if (ret)
		goto err;
	ed->dev = device_create_with_groups(edge_class, NULL, ed->cdev.dev, ed,
					    edge_groups, "edge%d", index);
	if (IS_ERR(ed->dev)) {
		ret = PTR_ERR(ed->dev);
		ed->dev = NULL;
		goto err;
	}
	edge_devs[index] = ed;
	return 0;
err:
	edge_device_destroy(ed);
	return ret;
}

static void edge_destroy_all(void)
{
	int i;

	for (i = 0; i < EDGE_MAX_DEVICES; i++) {
		if (edge_devs[i])
			edge_device_destroy(edge_devs[i]);
		edge_devs[i] = NULL;
	}
}

static int __init edge_init(void)
{
	const struct edge_preset *p;
	unsigned int i;
	int ret;

	if (!nr_devices || nr_devices > EDGE_MAX_DEVICES)
		return -EINVAL;
	if (!time_scale_pct || time_scale_pct > 10000)
		return -EINVAL;
	p = edge_preset_find(preset);
	if (!p)
		return -EINVAL;
	ret = alloc_chrdev_region(&edge_devt, 0, nr_devices, "edge");
	if (ret)
		return ret;
	edge_class = class_create(THIS_MODULE, "edge");
	if (IS_ERR(edge_class)) {
		ret = PTR_ERR(edge_class);
		goto err_region;
	}
	edge_class->devnode = edge_devnode;
	for (i = 0; i < nr_devices; i++) {
		ret = edge_device_create(i, p);
		if (ret)
			goto err_devs;
	}
	ret = edge_kapi_init();
	if (ret)
		goto err_devs;
	pr_info("edge: %u device(s), preset %s, %s time\n", nr_devices,
		p->name, virtual_time ? "virtual" : "real");
	return 0;
err_devs:
	edge_destroy_all();
	class_destroy(edge_class);
err_region:
	unregister_chrdev_region(edge_devt, nr_devices);
	return ret;
}

static void __exit edge_exit(void)
{
	edge_kapi_exit();
	edge_destroy_all();
	class_destroy(edge_class);
	unregister_chrdev_region(edge_devt, nr_devices);
}

module_init(edge_init);
module_exit(edge_exit);

MODULE_DESCRIPTION("edge: emulated event-driven GPU front end");
MODULE_LICENSE("GPL");
