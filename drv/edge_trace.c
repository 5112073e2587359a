// SPDX-License-Identifier: GPL-2.0
/*
 * The model's trace points (EDGE_TRACE() in emul/edge_compat.h) as
 * tracepoints of edge.ko: the model names its device by its engine,
 * which lives in the device's struct.  A preemption also arms the
 * monitor's summary (netlink.c), with or without the tracepoints.
 */
#include "edge_drv.h"
#include "netlink.h"

/* EDGE_NO_TRACEPOINTS (Kbuild): the hook without the tracepoints. */
#ifndef EDGE_NO_TRACEPOINTS
#define CREATE_TRACE_POINTS
#include "edge_trace.h"
#endif

#ifndef EDGE_NO_TRACEPOINTS
static bool trace_runs = true;
module_param(trace_runs, bool, 0644);
MODULE_PARM_DESC(trace_runs,
		 "Coalesce alike consecutive events into one trace entry (default 1; 0: one entry per event)");

static void edge_tracepoint(int dev, u32 tp, u64 a, u64 b, u64 c)
{
	switch (tp) {
	case EDGE_TP_DOORBELL:
		trace_edge_doorbell(dev, a, b);
		break;
	case EDGE_TP_TB_PLACE:
		trace_edge_tb_place(dev, a, b, c);
		break;
	case EDGE_TP_PREEMPT:
		trace_edge_preempt(dev, a >> 32, (u32)a, b, c);
		break;
	case EDGE_TP_JOB_ADMIT:
		trace_edge_job_admit(dev, a, b, c);
		break;
	case EDGE_TP_JOB_REJECT:
		trace_edge_job_reject(dev, a);
		break;
	case EDGE_TP_JOB_DONE:
		trace_edge_job_done(dev, a, b, c);
		break;
	case EDGE_TP_POLICY:
		trace_edge_policy(dev, a, b);
		break;
	}
}

static void edge_trace_emit_run(struct edge_device *ed,
				struct edge_trace_run *r)
{
	if (r->tp == EDGE_TP_DISPATCH)
		trace_edge_event_dispatch(ed->index, r->ekt, r->seq, r->n,
					  r->b);
	else
		trace_edge_event_complete(ed->index, r->ekt, r->seq, r->n,
					  r->b, r->c);
	r->n = 0;
}

/*
 * An event's dispatch (@b: its due time) or completion (@b: status, @c:
 * latency), as part of a run when it can be.  The front end's thread
 * extends its pending run with the next event of the same kind and entry
 * whose sequence number follows and whose @b and @c are the run's, and
 * emits the run when anything else comes and after every step: n events
 * that one entry describes whole cost one ring-buffer entry, not n, and
 * the trace says all that n entries would (a batch of one doorbell is
 * dispatched at one instant; events that ran alike complete alike).  Any
 * other thread emits at once, so nothing waits for a step, and so does
 * everyone with trace_runs=0 (one entry an event, for simpler tools).
 */
static void edge_trace_event(struct edge_device *ed, u32 tp, u32 ekt,
			     u32 seq, u64 b, u64 c)
{
	struct edge_trace_run *r = &ed->trace_run;

	if (tp == EDGE_TP_DISPATCH ? !trace_edge_event_dispatch_enabled() :
	    !trace_edge_event_complete_enabled())
		return;
	if (r->n && r->tp == tp && r->ekt == ekt && r->seq + r->n == seq &&
	    r->b == b && r->c == c && r->n != U32_MAX) {
		r->n++;
		return;
	}
	if (r->n)
		edge_trace_emit_run(ed, r);
	*r = (struct edge_trace_run){ .tp = tp, .ekt = ekt, .seq = seq,
				      .n = 1, .b = b, .c = c };
	if (current != ed->thread || !READ_ONCE(trace_runs))
		edge_trace_emit_run(ed, r);
}
#endif

/**
 * edge_trace_flush() - emit the front end's pending run of event traces
 * @ed: the device
 *
 * Called with @ed->lock held by the front-end thread after each step,
 * so that no run outlives the step that made it (edge_trace_event()).
 */
void edge_trace_flush(struct edge_device *ed)
{
#ifndef EDGE_NO_TRACEPOINTS
	if (ed->trace_run.n)
		edge_trace_emit_run(ed, &ed->trace_run);
#endif
}

/**
 * edge_trace() - report one of the model's trace points
 * @eng: the engine of the model that reports it: names the device
 * @tp: which (enum edge_tp)
 * @a: its first argument, per emul/trace_points.h
 * @b: its second
 * @c: its third
 *
 * Called from the model's thread with the device's lock held, or from
 * a process changing the policy or cancelling events under it.  Event
 * dispatches and completions of the front end's thread are coalesced
 * into runs (edge_trace_event()).  Each tracepoint costs a
 * static branch when disabled; this call itself is the price of keeping
 * emul/ free of Linux headers.
 */
void edge_trace(const struct edge_engine *eng, u32 tp, u64 a, u64 b, u64 c)
{
	struct edge_device *ed = container_of(eng, struct edge_device,
					      model.eng);

	if (tp == EDGE_TP_PREEMPT)
		edge_nl_summary_arm(ed);
#ifndef EDGE_NO_TRACEPOINTS
	if (tp == EDGE_TP_DISPATCH) {
		edge_trace_event(ed, tp, a, b, c, 0);
		return;
	}
	if (tp == EDGE_TP_COMPLETE) {
		edge_trace_event(ed, tp, a >> 32, (u32)a, b, c);
		return;
	}
	/* The trace keeps the model's order: a pending run goes first. */
	edge_trace_flush(ed);
	edge_tracepoint(ed->index, tp, a, b, c);
#endif
}
