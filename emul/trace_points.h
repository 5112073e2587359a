/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model's trace points: what EDGE_TRACE() (edge_compat.h) reports.
 * In edge.ko each becomes a tracepoint of drv/edge_trace.h; in user space
 * edge_trace_hook, when set, sees them (edge-sim's timeline).  The three
 * u64 arguments mean, per point:
 */
#ifndef _EDGE_TRACE_POINTS_H
#define _EDGE_TRACE_POINTS_H

enum edge_tp {
	EDGE_TP_DOORBELL,	/* EKT id, events taken from its ring, 0 */
	EDGE_TP_DISPATCH,	/* EKT id, ring sequence, due time ns (0: none) */
	EDGE_TP_COMPLETE,	/* EKT id << 32 | sequence, status, latency ns */
	EDGE_TP_TB_PLACE,	/* launcher's cookie, core, TB index */
	EDGE_TP_PREEMPT,	/* reason << 32 | core, victim TB, flush cycles */
	EDGE_TP_JOB_ADMIT,	/* CP job slot, queue, rank */
	EDGE_TP_JOB_REJECT,	/* job id, 0, 0 */
	EDGE_TP_JOB_DONE,	/* job id, met (1) or late (0), latency ns */
	EDGE_TP_POLICY,		/* new queue policy, old one, 0 */
	/* User space only (EDGE_TRACE_SIM): nothing in edge.ko. */
	EDGE_TP_TB_END,		/* launcher's cookie, core, TB index: it left */
	EDGE_TP_NR
};

/* Why a TB was preempted (EDGE_TP_PREEMPT). */
#define EDGE_TP_PREEMPT_EWARP	0	/* an event warp takes its warps */
#define EDGE_TP_PREEMPT_TB	1	/* a better-ranked kernel's TB */

#endif /* _EDGE_TRACE_POINTS_H */
