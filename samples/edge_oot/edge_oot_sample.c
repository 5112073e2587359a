// SPDX-License-Identifier: GPL-2.0
/*
 * edge_oot_sample: the smallest out-of-tree driver of an edge device, the
 * recipe of Documentation/driver-api.rst ("An out-of-tree driver").
 *
 * At load it finds edge device @dev, registers an EDGE_FN_ECHO event
 * kernel through edge_kapi.h, rings its doorbell once for @events events
 * and polls their completions: each must be DONE with the value its
 * parameter entry held.  The load fails (-EIO, -ETIMEDOUT ...) when one
 * is not; on success @completed reads the number checked, and the queue
 * is already gone: nothing is left to unload but the module.
 */
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/module.h>

#include "edge_kapi.h"

static unsigned int dev;
module_param(dev, uint, 0444);
MODULE_PARM_DESC(dev, "edge device index (default 0)");

static unsigned int events = 8;
module_param(events, uint, 0444);
MODULE_PARM_DESC(events, "Events to ring, 1-16 (default 8)");

static unsigned int completed;
module_param(completed, uint, 0444);
MODULE_PARM_DESC(completed, "Events completed and checked at load");

#define OOT_RING	16	/* entries: all the events in one doorbell */
#define OOT_MAGIC	0x0e0e0000U

/* Reap what completed; -EIO on a wrong status or result. */
static int oot_reap(struct edge_kq *q)
{
	struct edge_kq_completion c;

	while (edge_kq_peek(q, &c)) {
		u32 want = OOT_MAGIC + c.seq;

		if (EDGE_CQE_CODE(c.cqe.status) != EDGE_CQE_DONE ||
		    c.cqe.res != want) {
			pr_err("edge_oot_sample: event %u: status %u res %#x, want DONE %#x\n",
			       c.seq, EDGE_CQE_CODE(c.cqe.status), c.cqe.res, want);
			edge_kq_seen(q);
			return -EIO;
		}
		edge_kq_seen(q);
		completed++;
	}
	return 0;
}

static int oot_run(struct edge_device *ed)
{
	struct edge_register reg = {
		.size = sizeof(reg),
		.func = EDGE_FN_ECHO,	/* cqe.res = the entry's first __u32 */
		.grid_x = 1, .grid_y = 1, .grid_z = 1,
		.block_x = 32, .block_y = 1, .block_z = 1,
		.regs_per_thread = 32,
		.param_size = 8,
		.ring_entries = OOT_RING,
		.warp_cycles = 1000,
	};
	unsigned long end;
	struct edge_kq *q;
	int ret = 0;
	u32 i;

	/* No callback: this driver polls, as one would from NAPI. */
	q = edge_kq_register(ed, &reg, NULL, NULL);
	if (IS_ERR(q))
		return PTR_ERR(q);
	for (i = 0; i < events; i++) {
		u32 *p = edge_kq_param(q, i);	/* NULL: no free entry */

		if (!p) {
			edge_kq_destroy(q);
			return -ENOSPC;
		}
		*p = OOT_MAGIC + i;
	}
	ret = edge_kq_submit(q, events);	/* one doorbell for all */
	end = jiffies + 5 * HZ;
	while (!ret && completed < events && time_before(jiffies, end)) {
		ret = oot_reap(q);
		if (!ret && completed < events)
			usleep_range(500, 1000);
	}
	if (!ret && completed < events)
		ret = -ETIMEDOUT;
	/* Cancels what did not complete: every rung event has an outcome. */
	edge_kq_destroy(q);
	return ret;
}

static int __init oot_init(void)
{
	struct edge_device *ed;
	int ret;

	if (!events || events > OOT_RING)
		return -EINVAL;
	ed = edge_device_find(dev);
	if (!ed)
		return -ENODEV;
	ret = oot_run(ed);
	edge_device_release(ed);
	if (ret)
		return ret;
	pr_info("edge_oot_sample: ok events=%u\n", completed);
	return 0;
}

static void __exit oot_exit(void)
{
}

module_init(oot_init);
module_exit(oot_exit);
MODULE_DESCRIPTION("edge: an out-of-tree event kernel driver sample");
MODULE_LICENSE("GPL");
