// SPDX-License-Identifier: GPL-2.0
/*
 * mgb-live: MGB's Alg. 3 with the front end's live view (ours).
 *
 * Alg. 3 weighs a device by the warps of the jobs placed on it, whether
 * they are in a kernel or in host time.  The event-driven front end
 * knows what each device is running or has queued right now
 * (edge_place_dev.live_warps): among the devices with the memory free
 * (still the hard limit), this takes the one with the fewest live warps,
 * and Alg. 3's count only to break ties.  A job in a host phase then
 * does not keep work off its device.
 */
#include "policy/policy.h"

static int live_pick(const struct edge_place_dev *devs, u32 n,
		     const struct edge_place_req *r)
{
	int target = -EBUSY;
	u32 i;

	for (i = 0; i < n; i++) {
		const struct edge_place_dev *d = &devs[i];

		if (!edge_place_mem_fits(d, r))
			continue;
		if (target < 0 || d->live_warps < devs[target].live_warps ||
		    (d->live_warps == devs[target].live_warps &&
		     d->warps_used < devs[target].warps_used))
			target = (int)i;
	}
	return target;
}

const struct edge_place_policy edge_place_live = {
	.name = "mgb-live",
	.pick = live_pick,
};
