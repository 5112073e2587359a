// SPDX-License-Identifier: GPL-2.0
/*
 * edge_nicsim: a NIC that hands its packets to an edge GPU, the example
 * driver of the in-kernel API (Documentation/driver-api.rst).
 *
 * An hrtimer is the wire: every period it "receives" a batch of packets,
 * writes each into a free parameter entry of an event kernel it
 * registered, and rings the doorbell once for the batch, in hard- or
 * soft-interrupt context, the contexts a real NIC rings from.  The
 * completion callback checks every output against an answer computed
 * here with the kernel's own helpers (ip_fast_csum(), __crc32c_le(), a
 * linear route scan), so the GPU's functions are verified end to end.
 *
 * Every packet the source produced is accounted for: sent, or dropped
 * with a reason (ring full: no free parameter entry; overrun: more
 * arrived while the timer was late than the NIC's FIFO holds), which it
 * also reports to edge (edge_kq_dropped(), from the timer: edge's
 * monitor group hears of them).  Every packet sent completes, fails or
 * is cancelled.
 *
 * Statistics and controls: /sys/kernel/edge_nicsim/.
 */
#include <linux/module.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/kobject.h>
#include <linux/sysfs.h>
#include <linux/slab.h>
#include <linux/atomic.h>
#include <linux/crc32.h>
#include <linux/log2.h>
#include <linux/sort.h>
#include <net/checksum.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <linux/in.h>
#include <linux/delay.h>
#include <net/ip.h>

#include "../edge_kapi.h"

static unsigned int dev;
module_param(dev, uint, 0444);
MODULE_PARM_DESC(dev, "edge device index (default 0)");

static char *func = "ping";
module_param(func, charp, 0444);
MODULE_PARM_DESC(func, "Event kernel: ping, lpm or crc (default ping)");

static unsigned int rate = 10000;
module_param(rate, uint, 0444);
MODULE_PARM_DESC(rate, "Packets per second (default 10000; sysfs rate)");

static unsigned int batch = 8;
module_param(batch, uint, 0444);
MODULE_PARM_DESC(batch, "Packets per doorbell (default 8; sysfs batch)");

static unsigned int ring_entries = 256;
module_param(ring_entries, uint, 0444);
MODULE_PARM_DESC(ring_entries, "Parameter ring size, power of two (default 256)");

static bool softirq;
module_param(softirq, bool, 0444);
MODULE_PARM_DESC(softirq, "Ring from softirq (hrtimer soft mode), not hardirq");

static bool poll_reap;
module_param(poll_reap, bool, 0444);
MODULE_PARM_DESC(poll_reap,
		 "Reap completions by polling in the timer, not in the callback");

static bool start = true;
module_param(start, bool, 0444);
MODULE_PARM_DESC(start, "Start sending at load (default 1; sysfs running)");

#define NS_PAYLOAD	32		/* ping payload bytes */
#define NS_CRC_LEN	64		/* bytes checksummed per event */
#define NS_ROUTES	64
#define NS_PARAM_SIZE	128		/* fits every function's entry */
#define NS_WARP_CYCLES	700		/* 1 us at the edge preset's clock */

/* Log-linear latency histogram: 64 sub-buckets per power of two. */
#define LAT_SUB_BITS	6
#define LAT_BUCKETS	((64 - LAT_SUB_BITS) << LAT_SUB_BITS)

struct ns_hist {
	u32 b[LAT_BUCKETS];
	u64 n;
};

enum ns_fn { NS_PING, NS_LPM, NS_CRC };

struct nicsim {
	struct edge_device *ed;
	struct edge_kq *q;
	enum ns_fn fn;
	struct hrtimer timer;
	bool running;
	u32 rate;
	u32 batch;
	/*
	 * Packets are numbered as they are sent, which is also their event
	 * number on the queue: the reaper rebuilds the expected answer from
	 * it.  Producer-only.
	 */
	u32 next_seq;
	struct edge_lpm_entry routes[NS_ROUTES];
	/* Source (timer) side. */
	atomic64_t generated;
	atomic64_t sent;
	atomic64_t drop_ring_full;
	atomic64_t drop_overrun;
	atomic64_t drop_unplugged;	/* the GPU was removed */
	atomic64_t doorbells;
	/* Completion side. */
	atomic64_t completed;		/* EDGE_CQE_DONE */
	atomic64_t verified;		/* ... with the right output */
	atomic64_t bad_output;		/* ... with a wrong one */
	atomic64_t errors;		/* ERROR or REJECTED */
	atomic64_t cancelled;
	/* Latencies, updated by the (single) reaper. */
	spinlock_t hist_lock;
	struct ns_hist lat_dispatch;
	struct ns_hist lat_complete;
	struct kobject *kobj;
};

static struct nicsim *ns;

/* The ABI's "network byte order" fields are plain __u32s. */
static u32 to_net32(u32 host)
{
	return (__force u32)htonl(host);
}

static u32 from_net32(u32 net)
{
	return ntohl((__force __be32)net);
}

static u32 lat_bucket(u64 v)
{
	u32 msb;

	if (v < (1U << LAT_SUB_BITS))
		return v;
	msb = ilog2(v);
	if (msb >= 63)
		return LAT_BUCKETS - 1;
	return ((msb - LAT_SUB_BITS + 1) << LAT_SUB_BITS) |
	       ((v >> (msb - LAT_SUB_BITS)) & ((1U << LAT_SUB_BITS) - 1));
}

/* The smallest value of bucket @i: what a percentile reports. */
static u64 lat_value(u32 i)
{
	u32 hi = i >> LAT_SUB_BITS, lo = i & ((1U << LAT_SUB_BITS) - 1);

	if (!hi)
		return lo;
	return (u64)((1U << LAT_SUB_BITS) | lo) << (hi - 1);
}

static u64 hist_pct(const struct ns_hist *h, u32 pct)
{
	u64 want, seen = 0;
	u32 i;

	if (!h->n)
		return 0;
	want = div_u64(h->n * pct + 99, 100);
	for (i = 0; i < LAT_BUCKETS; i++) {
		seen += h->b[i];
		if (seen >= want)
			return lat_value(i);
	}
	return lat_value(LAT_BUCKETS - 1);
}

static void hist_add(struct ns_hist *h, u64 v)
{
	h->b[lat_bucket(v)]++;
	h->n++;
}

/* Packet @seq: 10.1.x.y:port -> 10.0.0.1:7, payload from @seq. */
static void make_ping(u8 *p, u32 seq)
{
	struct edge_pkt_param *pp = (void *)p;
	struct iphdr *ip = (void *)pp->data;
	struct udphdr *uh = (void *)(ip + 1);
	u8 *pl = (u8 *)(uh + 1);
	u32 len = sizeof(*ip) + sizeof(*uh) + NS_PAYLOAD, i;

	pp->len = len;
	memset(ip, 0, sizeof(*ip));
	ip->version = 4;
	ip->ihl = 5;
	ip->tot_len = htons(len);
	ip->frag_off = htons(IP_DF);
	ip->ttl = 17;
	ip->protocol = IPPROTO_UDP;
	ip->saddr = htonl(0x0a010000 | (seq & 0xffff));
	ip->daddr = htonl(0x0a000001);
	ip->check = ip_fast_csum(ip, ip->ihl);
	uh->source = htons(1024 + (seq % 50000));
	uh->dest = htons(7);
	uh->len = htons(sizeof(*uh) + NS_PAYLOAD);
	uh->check = 0;
	for (i = 0; i < NS_PAYLOAD; i++)
		pl[i] = (u8)(seq * 31 + i);
	uh->check = csum_tcpudp_magic(ip->saddr, ip->daddr,
				      sizeof(*uh) + NS_PAYLOAD, IPPROTO_UDP,
				      csum_partial(uh, sizeof(*uh) + NS_PAYLOAD,
						   0));
	if (!uh->check)
		uh->check = CSUM_MANGLED_0;
}

static bool check_ping(const u8 *p, u32 seq, u32 res)
{
	const struct edge_pkt_param *pp = (const void *)p;
	const struct iphdr *ip = (const void *)pp->data;
	const struct udphdr *uh = (const void *)(ip + 1);
	const u8 *pl = (const u8 *)(uh + 1);
	u32 ulen = sizeof(*uh) + NS_PAYLOAD, i;

	if (res != sizeof(*ip) + ulen || ip->ttl != 64 ||
	    ip->daddr != htonl(0x0a010000 | (seq & 0xffff)) ||
	    ip->saddr != htonl(0x0a000001) ||
	    uh->dest != htons(1024 + (seq % 50000)) || uh->source != htons(7))
		return false;
	for (i = 0; i < NS_PAYLOAD; i++)
		if (pl[i] != (u8)(seq * 31 + i))
			return false;
	/* The kernel's checksums, not the GPU's, say the reply is good. */
	return !ip_fast_csum(ip, ip->ihl) &&
	       !csum_tcpudp_magic(ip->saddr, ip->daddr, ulen, IPPROTO_UDP,
				  csum_partial(uh, ulen, 0));
}

static u32 lpm_addr(u32 seq)
{
	/* Mostly inside the routed 10/8, some outside it (misses). */
	return seq % 5 ? 0x0a000000 | (seq * 2654435761U >> 8) :
			 seq * 2654435761U;
}

static bool check_lpm(const u8 *p, u32 seq, u32 res)
{
	const struct edge_lpm_param *lp = (const void *)p;
	u32 addr = lpm_addr(seq), value = EDGE_LPM_MISS, i;
	int best = -1;

	for (i = 0; i < NS_ROUTES; i++) {
		const struct edge_lpm_entry *e = &ns->routes[i];
		u32 mask = e->prefix_len ? ~0U << (32 - e->prefix_len) : 0;

		if ((addr & mask) == from_net32(e->prefix) &&
		    (int)e->prefix_len > best) {
			best = e->prefix_len;
			value = e->value;
		}
	}
	return res == value && lp->value == value &&
	       lp->found == (best >= 0);
}

static void make_crc(u8 *p, u32 seq)
{
	struct edge_crc_param *cp = (void *)p;
	u32 i;

	cp->len = NS_CRC_LEN;
	cp->crc = 0;
	for (i = 0; i < NS_CRC_LEN; i++)
		cp->data[i] = (u8)(seq ^ (i * 13));
}

static bool check_crc(const u8 *p, u32 res)
{
	const struct edge_crc_param *cp = (const void *)p;
	u32 want = __crc32c_le(~0U, cp->data, NS_CRC_LEN) ^ ~0U;

	return res == want && cp->crc == want;
}

static void make_packet(void *p, u32 seq)
{
	switch (ns->fn) {
	case NS_PING:
		make_ping(p, seq);
		break;
	case NS_LPM:
		memset(p, 0, sizeof(struct edge_lpm_param));
		((struct edge_lpm_param *)p)->addr = to_net32(lpm_addr(seq));
		break;
	case NS_CRC:
		make_crc(p, seq);
		break;
	}
}

static bool check_output(const struct edge_kq_completion *c)
{
	switch (ns->fn) {
	case NS_PING:
		return check_ping(c->param, c->seq, c->cqe.res);
	case NS_LPM:
		return check_lpm(c->param, c->seq, c->cqe.res);
	case NS_CRC:
		return check_crc(c->param, c->cqe.res);
	}
	return false;
}

/* The reaper: one context at a time (callback, or the timer). */
static void nicsim_reap(struct edge_kq *q)
{
	struct edge_kq_completion c;
	unsigned long flags;
	u64 now = ktime_get_ns();

	while (edge_kq_peek(q, &c)) {
		switch (EDGE_CQE_CODE(c.cqe.status)) {
		case EDGE_CQE_DONE:
			atomic64_inc(&ns->completed);
			if (check_output(&c))
				atomic64_inc(&ns->verified);
			else
				atomic64_inc(&ns->bad_output);
			spin_lock_irqsave(&ns->hist_lock, flags);
			hist_add(&ns->lat_dispatch,
				 c.dispatch_ns - c.submit_ns);
			hist_add(&ns->lat_complete, now - c.submit_ns);
			spin_unlock_irqrestore(&ns->hist_lock, flags);
			break;
		case EDGE_CQE_CANCELLED:
			atomic64_inc(&ns->cancelled);
			break;
		default:
			atomic64_inc(&ns->errors);
			break;
		}
		edge_kq_seen(q);
	}
}

static void nicsim_notify(struct edge_kq *q, void *ctx)
{
	nicsim_reap(q);
}

static ktime_t nicsim_period(void)
{
	u32 r = max_t(u32, READ_ONCE(ns->rate), 1);
	u32 b = max_t(u32, READ_ONCE(ns->batch), 1);

	return ns_to_ktime(max_t(u64, div_u64((u64)b * NSEC_PER_SEC, r),
				 1000));
}

/*
 * The wire: hard- or soft-interrupt context, never sleeps.
 *
 * Packets arrive at @rate whether or not the timer fires on time (under
 * TCG, or on a tick-based kernel, it is often late): a late tick takes
 * every packet that arrived since the last one, as a NIC's interrupt
 * finds a full RX FIFO.  The FIFO holds ring_entries packets; what
 * arrived beyond that is an overrun drop, what finds no free parameter
 * entry a ring-full drop.
 */
static enum hrtimer_restart nicsim_tick(struct hrtimer *t)
{
	u32 b = max_t(u32, READ_ONCE(ns->batch), 1), i;
	u64 due, lost = 0;

	if (poll_reap)
		nicsim_reap(ns->q);
	if (!READ_ONCE(ns->running))
		return HRTIMER_NORESTART;
	due = hrtimer_forward_now(t, nicsim_period()) * b;
	/* The GPU is gone: the wire still delivers, nothing takes it. */
	if (edge_kq_unplugged(ns->q)) {
		atomic64_add(due, &ns->generated);
		atomic64_add(due, &ns->drop_unplugged);
		return HRTIMER_RESTART;
	}
	if (due > ring_entries) {
		lost = due - ring_entries;
		due = ring_entries;
	}
	for (i = 0; i < due; i++) {
		void *p = edge_kq_param(ns->q, i);

		if (!p)
			break;
		make_packet(p, ns->next_seq + i);
	}
	atomic64_add(due + lost, &ns->generated);
	atomic64_add(due - i, &ns->drop_ring_full);
	atomic64_add(lost, &ns->drop_overrun);
	/* Counted for the monitor group, from this very context. */
	edge_kq_dropped(ns->q, due - i + lost);
	/* Unplugged between the check above and here: not sent. */
	if (i && edge_kq_submit(ns->q, i)) {
		atomic64_add(i, &ns->drop_unplugged);
		return HRTIMER_RESTART;
	}
	ns->next_seq += i;
	atomic64_add(i, &ns->sent);
	if (i)
		atomic64_inc(&ns->doorbells);
	return HRTIMER_RESTART;
}

static void nicsim_start(void)
{
	WRITE_ONCE(ns->running, true);
	hrtimer_start(&ns->timer, nicsim_period(),
		      softirq ? HRTIMER_MODE_REL_SOFT : HRTIMER_MODE_REL_HARD);
}

static void nicsim_stop(void)
{
	u64 end = ktime_get_ns() + 5 * NSEC_PER_SEC;

	WRITE_ONCE(ns->running, false);
	hrtimer_cancel(&ns->timer);
	/*
	 * Polling mode reaped in the timer, now stopped: reap here until
	 * the GPU has answered everything (the timer is the only other
	 * reaper, so this stays single-threaded).
	 */
	while (poll_reap && edge_kq_inflight(ns->q) &&
	       ktime_get_ns() < end) {
		nicsim_reap(ns->q);
		usleep_range(50, 100);
	}
}

/* sysfs: /sys/kernel/edge_nicsim/ */

/* A counter, named by its offset in struct nicsim. */
struct ns_counter_attr {
	struct kobj_attribute attr;
	size_t off;
};

static ssize_t ns_counter_show(struct kobject *k, struct kobj_attribute *a,
			       char *buf)
{
	struct ns_counter_attr *ca = container_of(a, struct ns_counter_attr,
						  attr);
	atomic64_t *v = (atomic64_t *)((u8 *)ns + ca->off);

	return sysfs_emit(buf, "%lld\n", atomic64_read(v));
}

#define NS_COUNTER(name, field) {					\
	.attr = __ATTR(name, 0444, ns_counter_show, NULL),		\
	.off = offsetof(struct nicsim, field),				\
}

static struct ns_counter_attr ns_counters[] = {
	NS_COUNTER(generated, generated),
	NS_COUNTER(sent, sent),
	NS_COUNTER(drop_ring_full, drop_ring_full),
	NS_COUNTER(drop_overrun, drop_overrun),
	NS_COUNTER(drop_unplugged, drop_unplugged),
	NS_COUNTER(doorbells, doorbells),
	NS_COUNTER(completed, completed),
	NS_COUNTER(verified, verified),
	NS_COUNTER(bad_output, bad_output),
	NS_COUNTER(errors, errors),
	NS_COUNTER(cancelled, cancelled),
};

static ssize_t inflight_show(struct kobject *k, struct kobj_attribute *a,
			     char *buf)
{
	return sysfs_emit(buf, "%u\n", edge_kq_inflight(ns->q));
}

static struct kobj_attribute inflight_attr = __ATTR_RO(inflight);

static ssize_t ekt_id_show(struct kobject *k, struct kobj_attribute *a,
			   char *buf)
{
	return sysfs_emit(buf, "%u\n", edge_kq_id(ns->q));
}

static struct kobj_attribute ekt_id_attr = __ATTR_RO(ekt_id);

/* p50 and p99 of both latencies, ns: "dispatch P50 P99 complete P50 P99" */
static ssize_t latency_ns_show(struct kobject *k, struct kobj_attribute *a,
			       char *buf)
{
	u64 d50, d99, c50, c99, n;

	spin_lock_irq(&ns->hist_lock);
	d50 = hist_pct(&ns->lat_dispatch, 50);
	d99 = hist_pct(&ns->lat_dispatch, 99);
	c50 = hist_pct(&ns->lat_complete, 50);
	c99 = hist_pct(&ns->lat_complete, 99);
	n = ns->lat_complete.n;
	spin_unlock_irq(&ns->hist_lock);
	return sysfs_emit(buf, "n %llu dispatch %llu %llu complete %llu %llu\n",
			  n, d50, d99, c50, c99);
}

/* Any write: forget the latencies (a benchmark's warm-up). */
static ssize_t latency_ns_store(struct kobject *k, struct kobj_attribute *a,
				const char *buf, size_t count)
{
	spin_lock_irq(&ns->hist_lock);
	memset(&ns->lat_dispatch, 0, sizeof(ns->lat_dispatch));
	memset(&ns->lat_complete, 0, sizeof(ns->lat_complete));
	spin_unlock_irq(&ns->hist_lock);
	return count;
}

static struct kobj_attribute latency_ns_attr = __ATTR_RW(latency_ns);

static ssize_t running_show(struct kobject *k, struct kobj_attribute *a,
			    char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(ns->running));
}

static ssize_t running_store(struct kobject *k, struct kobj_attribute *a,
			     const char *buf, size_t count)
{
	bool on;
	int ret = kstrtobool(buf, &on);

	if (ret)
		return ret;
	if (on && !READ_ONCE(ns->running))
		nicsim_start();
	else if (!on && READ_ONCE(ns->running))
		nicsim_stop();
	return count;
}

static struct kobj_attribute running_attr = __ATTR_RW(running);

/* rate and batch: read by the timer at its next period. */
static ssize_t rate_show(struct kobject *k, struct kobj_attribute *a,
			 char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(ns->rate));
}

static ssize_t rate_store(struct kobject *k, struct kobj_attribute *a,
			  const char *buf, size_t count)
{
	u32 v;
	int ret = kstrtou32(buf, 0, &v);

	if (ret)
		return ret;
	if (!v || v > 100000000)
		return -EINVAL;
	WRITE_ONCE(ns->rate, v);
	return count;
}

static struct kobj_attribute rate_attr = __ATTR_RW(rate);

static ssize_t batch_show(struct kobject *k, struct kobj_attribute *a,
			  char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(ns->batch));
}

static ssize_t batch_store(struct kobject *k, struct kobj_attribute *a,
			   const char *buf, size_t count)
{
	u32 v;
	int ret = kstrtou32(buf, 0, &v);

	if (ret)
		return ret;
	if (!v || v > ring_entries)
		return -EINVAL;
	WRITE_ONCE(ns->batch, v);
	return count;
}

static struct kobj_attribute batch_attr = __ATTR_RW(batch);

/* The counters first; filled in at init from ns_counters[]. */
static struct attribute *nicsim_attrs[ARRAY_SIZE(ns_counters) + 7] = {
	[ARRAY_SIZE(ns_counters)] = &inflight_attr.attr,
	&ekt_id_attr.attr, &latency_ns_attr.attr, &running_attr.attr,
	&rate_attr.attr, &batch_attr.attr, NULL,
};

static const struct attribute_group nicsim_group = {
	.attrs = nicsim_attrs,
};

static bool route_taken(u32 n, u32 prefix, u32 len)
{
	u32 j;

	for (j = 0; j < n; j++)
		if (ns->routes[j].prefix == to_net32(prefix) &&
		    ns->routes[j].prefix_len == len)
			return true;
	return false;
}

/*
 * 64 distinct routes, /8 to /24, mostly inside 10/8 so that they nest:
 * the longest match matters.  The GPU refuses a prefix given twice.
 */
static void make_routes(void)
{
	u32 i, h = 1;

	for (i = 0; i < NS_ROUTES; i++) {
		u32 len, prefix;

		do {
			h = h * 2654435761U + 0x9e3779b9U;
			len = 8 + (h >> 27) % 17;
			prefix = (h & 3 ? 0x0a000000 | (h >> 8) : h) &
				 (~0U << (32 - len));
		} while (route_taken(i, prefix, len));
		ns->routes[i].prefix = to_net32(prefix);
		ns->routes[i].prefix_len = len;
		ns->routes[i].value = 1000 + i;
	}
}

/*
 * The API's reference rules, checked once at load: a looked-up queue is
 * the registered one and cannot be unregistered while referenced.
 */
static int nicsim_check_refs(void)
{
	struct edge_kq *q = edge_kq_lookup(ns->ed, edge_kq_id(ns->q));
	int ret = 0;

	if (q != ns->q)
		ret = -EIO;
	else if (edge_kq_unregister(ns->q) != -EBUSY)
		ret = -EIO;
	if (q)
		edge_kq_put(q);
	return ret;
}

static int __init nicsim_init(void)
{
	struct edge_register reg = {};
	u32 i;
	int ret;

	if (!is_power_of_2(ring_entries) || !batch || batch > ring_entries ||
	    !rate)
		return -EINVAL;
	ns = kzalloc(sizeof(*ns), GFP_KERNEL);
	if (!ns)
		return -ENOMEM;
	if (!strcmp(func, "ping")) {
		ns->fn = NS_PING;
		reg.func = EDGE_FN_UDP_PING;
	} else if (!strcmp(func, "lpm")) {
		ns->fn = NS_LPM;
		reg.func = EDGE_FN_LPM4;
		make_routes();
		reg.table_ptr = (uintptr_t)ns->routes;
		reg.table_len = sizeof(ns->routes);
	} else if (!strcmp(func, "crc")) {
		ns->fn = NS_CRC;
		reg.func = EDGE_FN_CRC32C;
	} else {
		ret = -EINVAL;
		goto err_free;
	}
	ns->rate = rate;
	ns->batch = batch;
	spin_lock_init(&ns->hist_lock);
	ns->ed = edge_device_find(dev);
	if (!ns->ed) {
		ret = -ENODEV;
		goto err_free;
	}
	/* One single-warp event kernel per packet, as the EDGE ping. */
	reg.size = sizeof(reg);
	reg.grid_x = 1;
	reg.grid_y = 1;
	reg.grid_z = 1;
	reg.block_x = 32;
	reg.block_y = 1;
	reg.block_z = 1;
	reg.regs_per_thread = 32;
	reg.param_size = NS_PARAM_SIZE;
	reg.ring_entries = ring_entries;
	reg.warp_cycles = NS_WARP_CYCLES;
	ns->q = edge_kq_register(ns->ed, &reg, poll_reap ? NULL : nicsim_notify,
				 ns);
	if (IS_ERR(ns->q)) {
		ret = PTR_ERR(ns->q);
		goto err_free;
	}
	ret = nicsim_check_refs();
	if (ret)
		goto err_kq;
	hrtimer_init(&ns->timer, CLOCK_MONOTONIC,
		     softirq ? HRTIMER_MODE_REL_SOFT : HRTIMER_MODE_REL_HARD);
	ns->timer.function = nicsim_tick;
	ns->kobj = kobject_create_and_add("edge_nicsim", kernel_kobj);
	if (!ns->kobj) {
		ret = -ENOMEM;
		goto err_kq;
	}
	for (i = 0; i < ARRAY_SIZE(ns_counters); i++)
		nicsim_attrs[i] = &ns_counters[i].attr.attr;
	ret = sysfs_create_group(ns->kobj, &nicsim_group);
	if (ret)
		goto err_kobj;
	if (start)
		nicsim_start();
	pr_info("edge_nicsim: %s on edge%u, EKT id %u, %u pkt/s, batch %u, %s\n",
		func, dev, edge_kq_id(ns->q), rate, batch,
		softirq ? "softirq" : "hardirq");
	return 0;
err_kobj:
	kobject_put(ns->kobj);
err_kq:
	edge_kq_destroy(ns->q);
err_free:
	if (!IS_ERR_OR_NULL(ns->ed))
		edge_device_release(ns->ed);
	kfree(ns);
	return ret;
}

/*
 * Stop the wire, then destroy the queue: what is still in flight
 * completes as cancelled (the callback counts it) before it is freed.
 */
static void __exit nicsim_exit(void)
{
	nicsim_stop();
	sysfs_remove_group(ns->kobj, &nicsim_group);
	kobject_put(ns->kobj);
	WARN_ON(edge_kq_destroy(ns->q));
	edge_device_release(ns->ed);
	pr_info("edge_nicsim: sent %lld completed %lld verified %lld cancelled %lld dropped %lld+%lld\n",
		atomic64_read(&ns->sent), atomic64_read(&ns->completed),
		atomic64_read(&ns->verified), atomic64_read(&ns->cancelled),
		atomic64_read(&ns->drop_ring_full),
		atomic64_read(&ns->drop_overrun));
	kfree(ns);
}

module_init(nicsim_init);
module_exit(nicsim_exit);

MODULE_DESCRIPTION("edge_nicsim: sample NIC driver of the edge in-kernel API");
MODULE_LICENSE("GPL");
