// SPDX-License-Identifier: GPL-2.0
/*
 * edge: an emulated event-driven GPU front end.
 *
 * Module set-up and the device table: /dev/edgeN devices made at load
 * (nr_devices) and at run time (netlink.c), one front-end thread each,
 * and their removal, which is a hot-unplug (drm_dev_unplug()'s model):
 * open files, mappings and kernel queues outlive the device, every call
 * after it gets -ENODEV, and whatever was in flight ends cancelled.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/ktime.h>
#include <linux/poll.h>

#include "edge_drv.h"
#include "edge_kcompat.h"
#include "netlink.h"

static unsigned int nr_devices = 1;
module_param(nr_devices, uint, 0444);
MODULE_PARM_DESC(nr_devices, "Number of /dev/edgeN devices at load (0-64, default 1)");

static char *preset = "edge";
module_param(preset, charp, 0444);
MODULE_PARM_DESC(preset, "Model preset: " EDGE_PRESET_NAMES " (default edge)");

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
/*
 * Plugged devices by index (= minor).  The lock is held across a whole
 * add or del, so a name and minor are reused only once the old device's
 * node and sysfs directory are gone.
 */
static struct edge_device *edge_devs[EDGE_MAX_DEVICES];
DEFINE_MUTEX(edge_devs_lock);	/* the table above, add and del whole */

/* Every user may open the GPU; isolation is per open file. */
static char *edge_devnode(EDGE_DEVNODE_ARG *dev, umode_t *mode)
{
	if (mode)
		*mode = 0666;
	return NULL;
}

/* Under edge_devs_lock: a plugged device, no reference taken. */
struct edge_device *edge_dev_at_locked(unsigned int index)
{
	lockdep_assert_held(&edge_devs_lock);
	return index < EDGE_MAX_DEVICES ? edge_devs[index] : NULL;
}

/* A plugged device by index, with a reference (edge_device_put()). */
struct edge_device *edge_device_get_index(unsigned int index)
{
	struct edge_device *ed;

	mutex_lock(&edge_devs_lock);
	ed = edge_dev_at_locked(index);
	if (ed)
		kref_get(&ed->ref);
	mutex_unlock(&edge_devs_lock);
	return ed;
}

static void edge_device_free(struct edge_device *ed)
{
	/* Every registration and reservation gave its memory back. */
	WARN_ON_ONCE(ed->mem_used);
	edge_model_fini(&ed->model);
	mutex_destroy(&ed->lock);
	kfree(ed->kdoorbells);
	kvfree(ed);
}

static void edge_device_release(struct kref *ref)
{
	edge_device_free(container_of(ref, struct edge_device, ref));
}

/* Process context: the last reference frees the model. */
void edge_device_put(struct edge_device *ed)
{
	kref_put(&ed->ref, edge_device_release);
}

/*
 * Unplug, in the order Documentation/design.rst ("Lifetimes") gives:
 *
 *  1. out of the table (under edge_devs_lock): no new open, lookup,
 *     placement or netlink call finds it;
 *  2. @unplugged set under @lock: every call that changes the model
 *     checks it under the same lock, so none adds an entry or a job
 *     after this;
 *  3. its reservations end, and kernel-queue doorbells rung before the
 *     flag are all in (RCU: edge_kq_submit() reads it inside one);
 *  4. node and sysfs go (device_destroy() waits for callbacks inside);
 *  5. the front end stops: nothing steps the model after this;
 *  6. under @lock, every entry still in the model is cancelled, into
 *     rings that are still alive: an owner frees its ring only after its
 *     entry left the model, under @lock, and only while @cancelled is
 *     clear; then @cancelled is set and the owners free on their own;
 *  7. the table's reference goes.
 *
 * Nothing here waits for a call that may block in a user copy: a call
 * holds no SRCU or reference of the unplug's, only @lock, never across
 * a copy.  Under edge_devs_lock (and genl_mutex, from netlink).
 */
static void edge_device_unplug(struct edge_device *ed)
{
	struct edge_file *ef;
	u32 i;

	lockdep_assert_held(&edge_devs_lock);
	edge_devs[ed->index] = NULL;
	mutex_lock(&ed->lock);
	WRITE_ONCE(ed->unplugged, true);
	mutex_unlock(&ed->lock);
	/* Placements on it end here; what registrations drew stays. */
	edge_mem_unplug(ed);
	/* Kernel queues' doorbells rung before the flag are all in. */
	synchronize_rcu();
	/* Waits for sysfs callbacks in progress; none start after it. */
	device_destroy(edge_class, MKDEV(MAJOR(edge_devt), ed->index));
	cdev_del(ed->cdev);
	edge_frontend_stop(ed);
	/* Nothing counts drops or preemptions now: the last summaries. */
	edge_nl_summary_flush(ed);
	mutex_lock(&ed->lock);
	/*
	 * Each entry's jobs and events end CANCELLED, in its ring (a
	 * file's mapping, a kernel queue's memory) and through its owner's
	 * callback; the entries leave the model.  An owner that let go
	 * since step 2 took its own entries out already.
	 */
	for (i = 0; i < EDGE_EKT_ENTRIES; i++)
		edge_model_cancel(&ed->model, i);
	ed->cancelled = true;
	list_for_each_entry(ef, &ed->files, node)
		wake_up_poll(&ef->cq_wait, EPOLLIN | EPOLLERR | EPOLLHUP);
	mutex_unlock(&ed->lock);
	edge_nl_dev_notify(ed, false);
	edge_device_put(ed);
}

/**
 * edge_dev_add() - make a device
 * @p: its preset, or NULL for the module's
 * @vt: 1 for virtual time, 0 for real, -1 for the module's default
 * @index: its index, or -1 for the lowest free one
 * @out: the device (no reference; valid under edge_devs_lock), or NULL
 *
 * Return: its index, or -ENOSPC (table full), -EEXIST (@index taken),
 * -ENOMEM and the errors of the char-device and kthread calls.
 */
int edge_dev_add(const struct edge_preset *p, int vt, int index,
		 struct edge_device **out)
{
	struct edge_device *ed;
	int ret;

	lockdep_assert_held(&edge_devs_lock);
	if (!p)
		p = edge_preset_find(preset);	/* checked at load */
	if (index < 0) {
		for (index = 0; index < EDGE_MAX_DEVICES; index++)
			if (!edge_devs[index])
				break;
		if (index == EDGE_MAX_DEVICES)
			return -ENOSPC;
	} else if (index >= EDGE_MAX_DEVICES) {
		return -ENOSPC;
	} else if (edge_devs[index]) {
		return -EEXIST;
	}

	ed = kvzalloc(sizeof(*ed), GFP_KERNEL);
	if (!ed)
		return -ENOMEM;
	ed->index = index;
	ed->virtual_time = vt < 0 ? virtual_time : vt;
	ed->poll_idle_us = poll_idle_us;
	ed->cpu = -1;
	ed->ts_kt = ktime_get_ns();
	ed->time_scale_pct = time_scale_pct;
	kref_init(&ed->ref);
	INIT_LIST_HEAD(&ed->files);
	mutex_init(&ed->lock);
	spin_lock_init(&ed->kq_lock);
	init_waitqueue_head(&ed->wait);
	edge_nl_summary_init(ed);
	ed->kdoorbells = kzalloc(EDGE_DB_PAGE_BYTES, GFP_KERNEL);
	ret = ed->kdoorbells ? edge_model_init(&ed->model, p, edge_notify) :
			       -ENOMEM;
	if (ret) {
		mutex_destroy(&ed->lock);
		kfree(ed->kdoorbells);
		kvfree(ed);
		return ret;
	}
	ed->model.job_notify = edge_job_notify;
	edge_mem_init(ed);
	ed->cdev = cdev_alloc();
	if (!ed->cdev) {
		ret = -ENOMEM;
		goto err_model;
	}
	ed->cdev->ops = &edge_fops;
	ed->cdev->owner = THIS_MODULE;
	ret = edge_frontend_start(ed);
	if (ret)
		goto err_cdev;
	ret = cdev_add(ed->cdev, MKDEV(MAJOR(edge_devt), index), 1);
	if (ret) {
		edge_frontend_stop(ed);
		goto err_cdev;
	}
	ed->dev = device_create_with_groups(edge_class, NULL, ed->cdev->dev,
					    ed, edge_groups, "edge%d", index);
	if (IS_ERR(ed->dev)) {
		ret = PTR_ERR(ed->dev);
		edge_frontend_stop(ed);
		cdev_del(ed->cdev);
		goto err_model;
	}
	edge_devs[index] = ed;
	if (out)
		*out = ed;
	edge_nl_dev_notify(ed, true);
	return index;
err_cdev:
	kobject_put(&ed->cdev->kobj);	/* not added: frees it */
err_model:
	edge_device_free(ed);
	return ret;
}

/**
 * edge_dev_del() - unplug a device
 * @index: its index
 *
 * Return: 0, or -ENODEV when there is no such device.
 */
int edge_dev_del(unsigned int index)
{
	struct edge_device *ed;

	lockdep_assert_held(&edge_devs_lock);
	ed = edge_dev_at_locked(index);
	if (!ed)
		return -ENODEV;
	edge_device_unplug(ed);
	return 0;
}

static void edge_del_all(void)
{
	int i;

	mutex_lock(&edge_devs_lock);
	for (i = 0; i < EDGE_MAX_DEVICES; i++)
		if (edge_devs[i])
			edge_device_unplug(edge_devs[i]);
	mutex_unlock(&edge_devs_lock);
}

static int __init edge_init(void)
{
	const struct edge_preset *p;
	unsigned int i;
	int ret;

	if (nr_devices > EDGE_MAX_DEVICES)
		return -EINVAL;
	if (!time_scale_pct || time_scale_pct > 10000)
		return -EINVAL;
	p = edge_preset_find(preset);
	if (!p)
		return -EINVAL;
	edge_sysfs_cp_init();
	ret = alloc_chrdev_region(&edge_devt, 0, EDGE_MAX_DEVICES, "edge");
	if (ret)
		return ret;
	edge_class = class_create("edge");
	if (IS_ERR(edge_class)) {
		ret = PTR_ERR(edge_class);
		goto err_region;
	}
	edge_class->devnode = edge_devnode;
	mutex_lock(&edge_devs_lock);
	for (i = 0; i < nr_devices; i++) {
		ret = edge_dev_add(p, -1, i, NULL);
		if (ret < 0)
			break;
	}
	mutex_unlock(&edge_devs_lock);
	if (ret < 0)
		goto err_devs;
	ret = edge_kapi_init();
	if (ret)
		goto err_devs;
	ret = edge_place_init();
	if (ret)
		goto err_kapi;
	ret = edge_nl_init();
	if (ret)
		goto err_place;
	pr_info("edge: %u device(s), preset %s, %s time\n", nr_devices,
		p->name, virtual_time ? "virtual" : "real");
	return 0;
err_place:
	/* No family, so no reservation yet. */
	edge_place_exit();
err_kapi:
	edge_kapi_exit();
err_devs:
	edge_del_all();
	class_destroy(edge_class);
err_region:
	unregister_chrdev_region(edge_devt, EDGE_MAX_DEVICES);
	return ret;
}

/*
 * No file is open (each holds the module) and no kernel queue is left
 * (their modules link against us), so every device goes with the table's
 * reference.
 */
static void __exit edge_exit(void)
{
	edge_nl_exit();
	edge_kapi_exit();
	edge_del_all();
	edge_place_exit();
	class_destroy(edge_class);
	unregister_chrdev_region(edge_devt, EDGE_MAX_DEVICES);
}

module_init(edge_init);
module_exit(edge_exit);

MODULE_DESCRIPTION("edge: emulated event-driven GPU front end");
MODULE_LICENSE("GPL");
