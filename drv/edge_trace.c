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
static void edge_tracepoint(int dev, u32 tp, u64 a, u64 b, u64 c)
{
	switch (tp) {
	case EDGE_TP_DOORBELL:
		trace_edge_doorbell(dev, a, b);
		break;
	case EDGE_TP_DISPATCH:
		trace_edge_event_dispatch(dev, a, b, c);
		break;
	case EDGE_TP_COMPLETE:
		trace_edge_event_complete(dev, a >> 32, (u32)a, b, c);
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
#endif

/**
 * edge_trace() - report one of the model's trace points
 * @eng: the engine of the model that reports it: names the device
 * @tp: which (enum edge_tp)
 * @a: its first argument, per emul/trace_points.h
 * @b: its second
 * @c: its third
 *
 * Called from the model's thread with the device's lock held, or from
 * a process changing the policy under it.  Each tracepoint costs a
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
	edge_tracepoint(ed->index, tp, a, b, c);
#endif
}
