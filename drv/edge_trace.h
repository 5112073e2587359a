/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of edge.ko: the model's (emul/trace_points.h, reported
 * through EDGE_TRACE() and drv/edge_trace.c).  @dev is the device's
 * index: /dev/edge<dev>.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM edge

#if !defined(_EDGE_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _EDGE_TRACE_H

#include <linux/tracepoint.h>

DECLARE_EVENT_CLASS(edge_ekt_class,
		    TP_PROTO(int dev, u32 ekt, u64 n),
		    TP_ARGS(dev, ekt, n),
		    TP_STRUCT__entry(__field(int, dev)
				     __field(u32, ekt)
				     __field(u64, n)),
		    TP_fast_assign(__entry->dev = dev;
				   __entry->ekt = ekt;
				   __entry->n = n;),
		    TP_printk("dev=%d ekt=%u n=%llu", __entry->dev, __entry->ekt,
			      __entry->n));

/* A producer rang: @n events taken from entry @ekt's ring. */
DEFINE_EVENT(edge_ekt_class, edge_doorbell,
	     TP_PROTO(int dev, u32 ekt, u64 n),
	     TP_ARGS(dev, ekt, n));

/*
 * Events @seq .. @seq + @n - 1 of entry @ekt into the SIMT queues, all
 * due at @due_ns: a run of one doorbell's batch is one trace entry
 * (edge_trace.c says when events form a run).
 */
TRACE_EVENT(edge_event_dispatch,
	    TP_PROTO(int dev, u32 ekt, u32 seq, u32 n, u64 due_ns),
	    TP_ARGS(dev, ekt, seq, n, due_ns),
	    TP_STRUCT__entry(__field(int, dev)
			     __field(u32, ekt)
			     __field(u32, seq)
			     __field(u32, n)
			     __field(u64, due_ns)),
	    TP_fast_assign(__entry->dev = dev;
			   __entry->ekt = ekt;
			   __entry->seq = seq;
			   __entry->n = n;
			   __entry->due_ns = due_ns;),
	    TP_printk("dev=%d ekt=%u seq=%u n=%u due_ns=%llu", __entry->dev,
		      __entry->ekt, __entry->seq, __entry->n,
		      __entry->due_ns));

/*
 * Events @seq .. @seq + @n - 1 of entry @ekt ended, each with CQE status
 * @status, each @lat_ns after its dispatch.
 */
TRACE_EVENT(edge_event_complete,
	    TP_PROTO(int dev, u32 ekt, u32 seq, u32 n, u32 status,
		     u64 lat_ns),
	    TP_ARGS(dev, ekt, seq, n, status, lat_ns),
	    TP_STRUCT__entry(__field(int, dev)
			     __field(u32, ekt)
			     __field(u32, seq)
			     __field(u32, n)
			     __field(u32, status)
			     __field(u64, lat_ns)),
	    TP_fast_assign(__entry->dev = dev;
			   __entry->ekt = ekt;
			   __entry->seq = seq;
			   __entry->n = n;
			   __entry->status = status;
			   __entry->lat_ns = lat_ns;),
	    TP_printk("dev=%d ekt=%u seq=%u n=%u status=%u lat_ns=%llu",
		      __entry->dev, __entry->ekt, __entry->seq, __entry->n,
		      __entry->status, __entry->lat_ns));

/* A TB of the kernel @cookie placed on @core: one per TB, so costly. */
TRACE_EVENT(edge_tb_place,
	    TP_PROTO(int dev, u64 cookie, u32 core, u32 tb),
	    TP_ARGS(dev, cookie, core, tb),
	    TP_STRUCT__entry(__field(int, dev)
			     __field(u32, core)
			     __field(u64, cookie)
			     __field(u32, tb)),
	    TP_fast_assign(__entry->dev = dev;
			   __entry->cookie = cookie;
			   __entry->core = core;
			   __entry->tb = tb;),
	    TP_printk("dev=%d cookie=0x%llx core=%u tb=%u", __entry->dev,
		      __entry->cookie, __entry->core, __entry->tb));

/* TB @victim on @core preempted (@reason: "ewarp" or "tb"). */
TRACE_EVENT(edge_preempt,
	    TP_PROTO(int dev, u32 reason, u32 core, u32 victim, u64 flush_cycles),
	    TP_ARGS(dev, reason, core, victim, flush_cycles),
	    TP_STRUCT__entry(__field(int, dev)
			     __field(u32, reason)
			     __field(u32, core)
			     __field(u32, victim)
			     __field(u64, flush_cycles)),
	    TP_fast_assign(__entry->dev = dev;
			   __entry->reason = reason;
			   __entry->core = core;
			   __entry->victim = victim;
			   __entry->flush_cycles = flush_cycles;),
	    TP_printk("dev=%d reason=%s core=%u victim=%u flush_cycles=%llu",
		      __entry->dev, __entry->reason ? "tb" : "ewarp",
		      __entry->core, __entry->victim, __entry->flush_cycles));

/* The CP admitted its job slot @slot of queue @queue, with @rank. */
TRACE_EVENT(edge_job_admit,
	    TP_PROTO(int dev, u32 slot, u32 queue, u64 rank),
	    TP_ARGS(dev, slot, queue, rank),
	    TP_STRUCT__entry(__field(int, dev)
			     __field(u32, slot)
			     __field(u32, queue)
			     __field(u64, rank)),
	    TP_fast_assign(__entry->dev = dev;
			   __entry->slot = slot;
			   __entry->queue = queue;
			   __entry->rank = rank;),
	    TP_printk("dev=%d slot=%u queue=%u rank=%llu", __entry->dev,
		      __entry->slot, __entry->queue, __entry->rank));

/* Job @id refused by admission. */
TRACE_EVENT(edge_job_reject,
	    TP_PROTO(int dev, u64 id),
	    TP_ARGS(dev, id),
	    TP_STRUCT__entry(__field(int, dev)
			     __field(u64, id)),
	    TP_fast_assign(__entry->dev = dev;
			   __entry->id = id;),
	    TP_printk("dev=%d id=%llu", __entry->dev, __entry->id));

/* Job @id done, its deadline met or late, @lat_ns after submission. */
TRACE_EVENT(edge_job_done,
	    TP_PROTO(int dev, u64 id, bool met, u64 lat_ns),
	    TP_ARGS(dev, id, met, lat_ns),
	    TP_STRUCT__entry(__field(int, dev)
			     __field(bool, met)
			     __field(u64, id)
			     __field(u64, lat_ns)),
	    TP_fast_assign(__entry->dev = dev;
			   __entry->id = id;
			   __entry->met = met;
			   __entry->lat_ns = lat_ns;),
	    TP_printk("dev=%d id=%llu %s lat_ns=%llu", __entry->dev, __entry->id,
		      __entry->met ? "met" : "late", __entry->lat_ns));

/* The queue policy changed from @old to @policy (EDGE_CP_* ids). */
TRACE_EVENT(edge_policy,
	    TP_PROTO(int dev, u32 policy, u32 old),
	    TP_ARGS(dev, policy, old),
	    TP_STRUCT__entry(__field(int, dev)
			     __field(u32, policy)
			     __field(u32, old)),
	    TP_fast_assign(__entry->dev = dev;
			   __entry->policy = policy;
			   __entry->old = old;),
	    TP_printk("dev=%d policy=%u old=%u", __entry->dev, __entry->policy,
		      __entry->old));

#endif /* _EDGE_TRACE_H */

/* This part must be outside the include guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE edge_trace
#include <trace/define_trace.h>
