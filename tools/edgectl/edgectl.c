// SPDX-License-Identifier: GPL-2.0
/*
 * edgectl: the control plane of edge on its generic netlink family, in
 * the manner of devlink and iproute2.  Documentation/edgectl.rst.
 *
 *   edgectl [-j [-p]] [-s] dev show [[dev] edgeN]
 *   edgectl dev add [preset NAME] [virtual|real] [index N]
 *   edgectl dev del [dev] edgeN
 *   edgectl dev set [dev] edgeN [poll_idle_us N] [time_scale_pct N] [cpu N]
 *   edgectl [-j [-p]] ekt show dev edgeN
 *   edgectl [-j [-p]] job show dev edgeN
 *   edgectl [-j [-p]] stats [show] dev edgeN
 *   edgectl [-j [-p]] sched show dev edgeN
 *   edgectl sched set dev edgeN [policy P] [victim V] [queue Q] [KNOB N]...
 *   edgectl [-j [-p]] param show dev edgeN
 *   edgectl param set dev edgeN KNOB N [KNOB N]...
 *   edgectl [-j] monitor [-n COUNT]
 *   edgectl [-j] top [-n ITERATIONS] [dev edgeN]
 *   edgectl [-j] place mem SIZE threads N blocks N [policy NAME]
 *                [hold | -- CMD [ARG]...]
 *   edgectl -V | help | complete [WORD]...
 *
 * -j: one JSON array per command; monitor and top write JSON lines
 * instead, one object per line, flushed as it is written, so that a
 * reader of the stream (or of what a kill left) reads whole objects.
 * A KNOB is a policy's, by the name its descriptor gives it: edgectl
 * learns them from the kernel (sched-get's policy-param nests).  A
 * keyword edgectl does not know is named, with the nearest one it knows;
 * a value the kernel refuses prints its extack: the message, the
 * attribute (a knob's name, for one in a policy-param) and the policy's
 * limits.
 *
 * libnl 3.7 has no extack helper: NETLINK_EXT_ACK is set on the socket
 * and the error callback reads the errno and the kernel's message from
 * the NLMSG_ERROR itself (libnl's own error codes lose the errno).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <netlink/netlink.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/family.h>
#include <linux/netlink.h>
#include <linux/edge_netlink.h>
#include "edge_nearest.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif
#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

enum kind { K_U32, K_S32, K_U64, K_STR, K_FLAG, K_ENUM };

/*
 * What edgectl prints, one field each, in its output's order: version
 * 1's one attribute space.  Version 2 has one set per object; each
 * message's attributes are read into these fields by its set's map.
 */
enum field {
	F_PAD = 1,
	F_DEV_INDEX,
	F_DEV_NAME,
	F_PRESET,
	F_TIME_MODE,
	F_EKT_USED,
	F_POLL_IDLE_US,
	F_TIME_SCALE_PCT,
	F_CPU,
	F_SUBMITTED,
	F_COMPLETED,
	F_ERRORS,
	F_REJECTED,
	F_CANCELLED,
	F_LATE,
	F_INFLIGHT,
	F_JOBS_SUBMITTED,
	F_JOBS_DONE,
	F_JOBS_MET,
	F_JOBS_REJECTED,
	F_JOBS_CANCELLED,
	F_EKT_ID,
	F_EKT_OWNER_PID,
	F_EKT_FUNC,
	F_EKT_GRID_X,
	F_EKT_GRID_Y,
	F_EKT_GRID_Z,
	F_EKT_BLOCK_X,
	F_EKT_BLOCK_Y,
	F_EKT_BLOCK_Z,
	F_EKT_PRIORITY,
	F_EKT_DEADLINE_NS,
	F_EKT_RING_ENTRIES,
	F_EKT_SUBMITTED,
	F_EKT_COMPLETED,
	F_EKT_CANCELLED,
	F_EKT_INFLIGHT,
	F_EKT_KERNEL,
	F_SCHED_POLICY,
	F_SCHED_VICTIM,
	F_SCHED_FLUSH,
	F_SCHED_RESERVE_PCT,
	F_SCHED_DISPATCH_CYCLES,
	F_SCHED_WAIT_CYCLES,
	F_SCHED_CTX_BYTES_PER_CYCLE,
	F_SCHED_SKIP_EVENT_EXEC,
	F_SCHED_SEED,
	F_QUEUE_POLICY,
	F_CP_PARSE_NS,
	F_CP_HOST_NS,
	F_CP_PROFILE_NS,
	F_TB_POLICY,
	F_JOB_ID,
	F_JOB_OWNER_PID,
	F_JOB_QUEUE,
	F_JOB_STATE,
	F_JOB_DEADLINE_NS,
	F_JOB_AGE_NS,
	F_JOB_KERNELS,
	F_JOB_LAUNCHED,
	F_MEM_TOTAL,
	F_MEM_USED,
	F_MEM_PEAK,
	F_MEM_OOM,
	F_MEM_RESERVATIONS,
	F_PLACE_MEM,
	F_PLACE_THREADS,
	F_PLACE_BLOCKS,
	F_PLACE_POLICY,
	F_PLACE_ID,
	F_JOB_LATENCY_NS,
	F_PREEMPTIONS,
	F_TB_PREEMPTIONS,
	F_SUMMARY_NS,
	F_SUMMARY_PREEMPTIONS,
	F_SUMMARY_TB_PREEMPTIONS,
	F_EKT_DROPPED,
	F_EKT_LAT_HIST,
	F_POLICY_PARAM,
	F_END,
	F_MAX = F_END - 1
};

/* The family's attribute sets, one per object. */
enum aset { S_NONE, S_DEV, S_STATS, S_EKT, S_JOB, S_SCHED, S_PLACE, S_NR };

static const int set_max[S_NR] = {
	0, EDGE_A_DEV_MAX, EDGE_A_STATS_MAX, EDGE_A_EKT_MAX, EDGE_A_JOB_MAX,
	EDGE_A_SCHED_MAX, EDGE_A_PLACE_MAX };

/* The largest set, for one buffer any message parses into. */
#define SET_MAX	EDGE_A_STATS_MAX

/* Which field each set's attribute prints as (one not here: none). */
#define W(set, wire, field)	{ S_##set, EDGE_A_##set##_##wire, F_##field }
static const struct {
	unsigned char set, wire, field;
} wire_fields[] = {
	W(DEV, INDEX, DEV_INDEX),
	W(DEV, NAME, DEV_NAME),
	W(DEV, PRESET, PRESET),
	W(DEV, TIME_MODE, TIME_MODE),
	W(DEV, EKT_USED, EKT_USED),
	W(DEV, POLL_IDLE_US, POLL_IDLE_US),
	W(DEV, TIME_SCALE_PCT, TIME_SCALE_PCT),
	W(DEV, CPU, CPU),
	W(DEV, MEM_TOTAL, MEM_TOTAL),
	W(DEV, MEM_USED, MEM_USED),
	W(DEV, MEM_PEAK, MEM_PEAK),
	W(DEV, MEM_OOM, MEM_OOM),
	W(DEV, MEM_RESERVATIONS, MEM_RESERVATIONS),
	W(STATS, DEV_INDEX, DEV_INDEX),
	W(STATS, SUBMITTED, SUBMITTED),
	W(STATS, COMPLETED, COMPLETED),
	W(STATS, ERRORS, ERRORS),
	W(STATS, REJECTED, REJECTED),
	W(STATS, CANCELLED, CANCELLED),
	W(STATS, LATE, LATE),
	W(STATS, INFLIGHT, INFLIGHT),
	W(STATS, EKT_USED, EKT_USED),
	W(STATS, JOBS_SUBMITTED, JOBS_SUBMITTED),
	W(STATS, JOBS_DONE, JOBS_DONE),
	W(STATS, JOBS_MET, JOBS_MET),
	W(STATS, JOBS_REJECTED, JOBS_REJECTED),
	W(STATS, JOBS_CANCELLED, JOBS_CANCELLED),
	W(STATS, MEM_OOM, MEM_OOM),
	W(STATS, PREEMPTIONS, PREEMPTIONS),
	W(STATS, TB_PREEMPTIONS, TB_PREEMPTIONS),
	W(STATS, SUMMARY_NS, SUMMARY_NS),
	W(STATS, SUMMARY_PREEMPTIONS, SUMMARY_PREEMPTIONS),
	W(STATS, SUMMARY_TB_PREEMPTIONS, SUMMARY_TB_PREEMPTIONS),
	W(EKT, DEV_INDEX, DEV_INDEX),
	W(EKT, ID, EKT_ID),
	W(EKT, OWNER_PID, EKT_OWNER_PID),
	W(EKT, KERNEL, EKT_KERNEL),
	W(EKT, FUNC, EKT_FUNC),
	W(EKT, GRID_X, EKT_GRID_X),
	W(EKT, GRID_Y, EKT_GRID_Y),
	W(EKT, GRID_Z, EKT_GRID_Z),
	W(EKT, BLOCK_X, EKT_BLOCK_X),
	W(EKT, BLOCK_Y, EKT_BLOCK_Y),
	W(EKT, BLOCK_Z, EKT_BLOCK_Z),
	W(EKT, PRIORITY, EKT_PRIORITY),
	W(EKT, DEADLINE_NS, EKT_DEADLINE_NS),
	W(EKT, RING_ENTRIES, EKT_RING_ENTRIES),
	W(EKT, SUBMITTED, EKT_SUBMITTED),
	W(EKT, COMPLETED, EKT_COMPLETED),
	W(EKT, CANCELLED, EKT_CANCELLED),
	W(EKT, INFLIGHT, EKT_INFLIGHT),
	W(EKT, LAT_HIST, EKT_LAT_HIST),
	W(EKT, DROPPED, EKT_DROPPED),
	W(JOB, DEV_INDEX, DEV_INDEX),
	W(JOB, ID, JOB_ID),
	W(JOB, OWNER_PID, JOB_OWNER_PID),
	W(JOB, QUEUE, JOB_QUEUE),
	W(JOB, STATE, JOB_STATE),
	W(JOB, DEADLINE_NS, JOB_DEADLINE_NS),
	W(JOB, AGE_NS, JOB_AGE_NS),
	W(JOB, KERNELS, JOB_KERNELS),
	W(JOB, LAUNCHED, JOB_LAUNCHED),
	W(JOB, LATENCY_NS, JOB_LATENCY_NS),
	W(SCHED, DEV_INDEX, DEV_INDEX),
	W(SCHED, POLICY, SCHED_POLICY),
	W(SCHED, VICTIM, SCHED_VICTIM),
	W(SCHED, FLUSH, SCHED_FLUSH),
	W(SCHED, RESERVE_PCT, SCHED_RESERVE_PCT),
	W(SCHED, DISPATCH_CYCLES, SCHED_DISPATCH_CYCLES),
	W(SCHED, WAIT_CYCLES, SCHED_WAIT_CYCLES),
	W(SCHED, CTX_BYTES_PER_CYCLE, SCHED_CTX_BYTES_PER_CYCLE),
	W(SCHED, SKIP_EVENT_EXEC, SCHED_SKIP_EVENT_EXEC),
	W(SCHED, SEED, SCHED_SEED),
	W(SCHED, QUEUE_POLICY, QUEUE_POLICY),
	W(SCHED, CP_PARSE_NS, CP_PARSE_NS),
	W(SCHED, CP_HOST_NS, CP_HOST_NS),
	W(SCHED, CP_PROFILE_NS, CP_PROFILE_NS),
	W(SCHED, TB_POLICY, TB_POLICY),
	W(SCHED, POLICY_PARAM, POLICY_PARAM),
	W(PLACE, DEV_INDEX, DEV_INDEX),
	W(PLACE, DEV_NAME, DEV_NAME),
	W(PLACE, MEM, PLACE_MEM),
	W(PLACE, THREADS, PLACE_THREADS),
	W(PLACE, BLOCKS, PLACE_BLOCKS),
	W(PLACE, POLICY, PLACE_POLICY),
	W(PLACE, ID, PLACE_ID),
};
#undef W

/*
 * Each command's set (its replies', and a notification's: its object's),
 * and what monitor calls a notification.
 */
static const struct {
	uint8_t cmd;
	enum aset set;
	const char *ntf;
} cmds[] = {
	{ EDGE_CMD_DEV_GET, S_DEV, NULL },
	{ EDGE_CMD_DEV_ADD, S_DEV, NULL },
	{ EDGE_CMD_DEV_DEL, S_DEV, NULL },
	{ EDGE_CMD_DEV_SET, S_DEV, NULL },
	{ EDGE_CMD_STATS_GET, S_STATS, NULL },
	{ EDGE_CMD_EKT_GET, S_EKT, NULL },
	{ EDGE_CMD_SCHED_GET, S_SCHED, NULL },
	{ EDGE_CMD_SCHED_SET, S_SCHED, NULL },
	{ EDGE_CMD_JOB_GET, S_JOB, NULL },
	{ EDGE_CMD_PLACE, S_PLACE, NULL },
	{ EDGE_CMD_PLACE_RELEASE, S_PLACE, NULL },
	{ EDGE_CMD_DEV_ADD_NTF, S_DEV, "dev add" },
	{ EDGE_CMD_DEV_DEL_NTF, S_DEV, "dev del" },
	{ EDGE_CMD_EKT_REG_NTF, S_EKT, "ekt reg" },
	{ EDGE_CMD_EKT_UNREG_NTF, S_EKT, "ekt unreg" },
	{ EDGE_CMD_POLICY_NTF, S_SCHED, "policy" },
	{ EDGE_CMD_JOB_REJECT_NTF, S_JOB, "job rejected" },
	{ EDGE_CMD_JOB_LATE_NTF, S_JOB, "job late" },
	{ EDGE_CMD_JOB_DROP_NTF, S_JOB, "job dropped" },
	{ EDGE_CMD_PREEMPT_NTF, S_STATS, "preemptions" },
	{ EDGE_CMD_EKT_DROP_NTF, S_EKT, "ekt dropped" },
};

static unsigned int cmd_row(uint8_t cmd)
{
	unsigned int i;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (cmds[i].cmd == cmd)
			break;
	return i;
}

/* @cmd's attribute set; S_NONE for a command edgectl does not know. */
static enum aset cmd_set(uint8_t cmd)
{
	unsigned int i = cmd_row(cmd);

	return i < sizeof(cmds) / sizeof(cmds[0]) ? cmds[i].set : S_NONE;
}

/* The spec's enums (Documentation/netlink/specs/edge.yaml), by value. */
static const char * const time_names[] = { "real", "virtual", NULL };
static const char * const fn_names[] = {
	"invalid", "nop", "echo", "udp-ping", "lpm4", "crc32c", "icmp-echo",
	"lpm6", "memc", NULL
};
static const char * const job_names[] = {
	"queued", "parse", "held", "ready", "running", NULL
};
static const char * const preset_names[] = {
	"edge", "lax", "h100-like", "gtx480-pai", "rtx2080ti", "p100", "v100",
	"v100-32g", NULL
};
static const char * const simt_names[] = {
	"drain", "reserve", "preempt", NULL
};
static const char * const victim_names[] = {
	"oldest", "newest", "best", NULL
};
static const char * const queue_names[] = {
	"rr", "mlfq", "edf", "sjf", "ljf", "srf", "prema", "lax", "lax-sw",
	"lax-cpu", "bat", "bay", "pro", "lax-p", NULL
};
static const char * const tbp_names[] = {
	"default", "sjf-oracle", "mpmax", "srtf", "srtf-adaptive",
	"srtf-preempt", "even", "priority", "mps", "baymax", "claius",
	"claius-nb", "claius-nc", "claius-pre", "static-opt", "claius-scaled",
	NULL
};
static const char * const place_names[] = {
	"sa", "cg", "mgb-alg2", "mgb-alg3", "mgb-live", NULL
};

/* Each as long as its enum (each ends with its NULL). */
#define ENUM_LEN(n)	(sizeof(n) / sizeof((n)[0]) - 1)
_Static_assert(ENUM_LEN(preset_names) == EDGE_NL_PRESET_MAX + 1, "nl-preset");
_Static_assert(ENUM_LEN(simt_names) == EDGE_NL_SIMT_MAX + 1, "nl-simt");
_Static_assert(ENUM_LEN(victim_names) == EDGE_NL_VICTIM_MAX + 1, "nl-victim");
_Static_assert(ENUM_LEN(queue_names) == EDGE_NL_QUEUE_POLICY_MAX + 1,
	       "nl-queue-policy");
_Static_assert(ENUM_LEN(tbp_names) == EDGE_NL_TB_POLICY_MAX + 1,
	       "nl-tb-policy");
_Static_assert(ENUM_LEN(place_names) == EDGE_NL_PLACE_POLICY_MAX + 1,
	       "nl-place-policy");

/* How each attribute prints: its name in output, its type, its names. */
static const struct {
	const char *name;
	enum kind kind;
	const char * const *names;
} attrs[F_MAX + 1] = {
	[F_DEV_INDEX] = { "index", K_U32, NULL },
	[F_DEV_NAME] = { "dev", K_STR, NULL },
	[F_PRESET] = { "preset", K_ENUM, preset_names },
	[F_TIME_MODE] = { "time", K_ENUM, time_names },
	[F_EKT_USED] = { "ekt_used", K_U32, NULL },
	[F_POLL_IDLE_US] = { "poll_idle_us", K_U32, NULL },
	[F_TIME_SCALE_PCT] = { "time_scale_pct", K_U32, NULL },
	[F_CPU] = { "cpu", K_S32, NULL },
	[F_SUBMITTED] = { "submitted", K_U64, NULL },
	[F_COMPLETED] = { "completed", K_U64, NULL },
	[F_ERRORS] = { "errors", K_U64, NULL },
	[F_REJECTED] = { "rejected", K_U64, NULL },
	[F_CANCELLED] = { "cancelled", K_U64, NULL },
	[F_LATE] = { "late", K_U64, NULL },
	[F_INFLIGHT] = { "inflight", K_U32, NULL },
	[F_JOBS_SUBMITTED] = { "jobs_submitted", K_U64, NULL },
	[F_JOBS_DONE] = { "jobs_done", K_U64, NULL },
	[F_JOBS_MET] = { "jobs_met", K_U64, NULL },
	[F_JOBS_REJECTED] = { "jobs_rejected", K_U64, NULL },
	[F_JOBS_CANCELLED] = { "jobs_cancelled", K_U64, NULL },
	[F_EKT_ID] = { "id", K_U32, NULL },
	[F_EKT_OWNER_PID] = { "pid", K_U32, NULL },
	[F_EKT_FUNC] = { "func", K_ENUM, fn_names },
	[F_EKT_GRID_X] = { "grid_x", K_U32, NULL },
	[F_EKT_GRID_Y] = { "grid_y", K_U32, NULL },
	[F_EKT_GRID_Z] = { "grid_z", K_U32, NULL },
	[F_EKT_BLOCK_X] = { "block_x", K_U32, NULL },
	[F_EKT_BLOCK_Y] = { "block_y", K_U32, NULL },
	[F_EKT_BLOCK_Z] = { "block_z", K_U32, NULL },
	[F_EKT_PRIORITY] = { "prio", K_U32, NULL },
	[F_EKT_DEADLINE_NS] = { "deadline_ns", K_U64, NULL },
	[F_EKT_RING_ENTRIES] = { "ring", K_U32, NULL },
	[F_EKT_SUBMITTED] = { "submitted", K_U64, NULL },
	[F_EKT_COMPLETED] = { "completed", K_U64, NULL },
	[F_EKT_CANCELLED] = { "cancelled", K_U64, NULL },
	[F_EKT_INFLIGHT] = { "inflight", K_U32, NULL },
	[F_EKT_KERNEL] = { "kernel", K_FLAG, NULL },
	[F_SCHED_POLICY] = { "policy", K_ENUM, simt_names },
	[F_SCHED_VICTIM] = { "victim", K_ENUM, victim_names },
	[F_SCHED_FLUSH] = { "flush", K_U32, NULL },
	[F_SCHED_RESERVE_PCT] = { "reserve_pct", K_U32, NULL },
	[F_SCHED_DISPATCH_CYCLES] = { "dispatch_cycles", K_U32, NULL },
	[F_SCHED_WAIT_CYCLES] = { "sched_wait_cycles", K_U32, NULL },
	[F_SCHED_CTX_BYTES_PER_CYCLE] = { "ctx_bytes_per_cycle", K_U32, NULL },
	[F_SCHED_SKIP_EVENT_EXEC] = { "skip_event_exec", K_U32, NULL },
	[F_SCHED_SEED] = { "seed", K_U64, NULL },
	[F_QUEUE_POLICY] = { "queue", K_ENUM, queue_names },
	[F_CP_PARSE_NS] = { "parse_ns", K_U32, NULL },
	[F_CP_HOST_NS] = { "host_ns", K_U32, NULL },
	[F_CP_PROFILE_NS] = { "profile_ns", K_U32, NULL },
	[F_TB_POLICY] = { "tb_policy", K_ENUM, tbp_names },
	[F_JOB_ID] = { "job", K_U64, NULL },
	[F_JOB_OWNER_PID] = { "pid", K_U32, NULL },
	[F_JOB_QUEUE] = { "queue", K_U32, NULL },
	[F_JOB_STATE] = { "state", K_ENUM, job_names },
	[F_JOB_DEADLINE_NS] = { "deadline_ns", K_U64, NULL },
	[F_JOB_AGE_NS] = { "age_ns", K_U64, NULL },
	[F_JOB_KERNELS] = { "kernels", K_U32, NULL },
	[F_JOB_LAUNCHED] = { "launched", K_U32, NULL },
	[F_MEM_TOTAL] = { "mem_total", K_U64, NULL },
	[F_MEM_USED] = { "mem_used", K_U64, NULL },
	[F_MEM_PEAK] = { "mem_peak", K_U64, NULL },
	[F_MEM_OOM] = { "mem_oom", K_U64, NULL },
	[F_MEM_RESERVATIONS] = { "reservations", K_U32, NULL },
	[F_PLACE_MEM] = { "mem", K_U64, NULL },
	[F_PLACE_THREADS] = { "threads", K_U32, NULL },
	[F_PLACE_BLOCKS] = { "blocks", K_U32, NULL },
	[F_PLACE_POLICY] = { "policy", K_ENUM, place_names },
	[F_PLACE_ID] = { "place_id", K_U64, NULL },
	[F_JOB_LATENCY_NS] = { "latency_ns", K_U64, NULL },
	[F_PREEMPTIONS] = { "preemptions", K_U64, NULL },
	[F_TB_PREEMPTIONS] = { "tb_preemptions", K_U64, NULL },
	[F_SUMMARY_NS] = { "interval_ns", K_U64, NULL },
	[F_SUMMARY_PREEMPTIONS] = { "interval_preemptions", K_U64, NULL },
	[F_SUMMARY_TB_PREEMPTIONS] = { "interval_tb_preemptions", K_U64, NULL },
	[F_EKT_DROPPED] = { "dropped", K_U64, NULL },
	/* F_EKT_LAT_HIST: not printed; edgectl top reads it. */
};

/*
 * The keywords, for the "did you mean" of a mistyped one and for bash
 * completion (edgectl complete, tools/edgectl/edgectl.bash): each
 * context's words, NULL-terminated.  The policies' knobs are not here:
 * the kernel's descriptors name them (knobs_get()).
 */
static const char * const objects[] = {
	"dev", "ekt", "job", "stats", "sched", "param", "monitor", "top",
	"place", "help", NULL
};
static const char * const dev_cmds[] = { "show", "add", "del", "set", NULL };
static const char * const show_cmds[] = { "show", NULL };
static const char * const sched_cmds[] = { "show", "set", NULL };
static const char * const dev_add_words[] = {
	"preset", "virtual", "real", "index", NULL
};
static const char * const dev_set_words[] = {
	"poll_idle_us", "time_scale_pct", "cpu", NULL
};
static const char * const place_words[] = {
	"mem", "threads", "blocks", "policy", "hold", "--", NULL
};
static const char * const monitor_words[] = { "-n", NULL };
static const char * const top_words[] = { "-n", "dev", NULL };

/*
 * sched set's knobs: each is set by its name in sched show's output
 * (attrs[]); a string attribute takes a name, the others a number.
 */
static const int sched_attrs[] = {
	F_SCHED_POLICY, F_SCHED_VICTIM, F_QUEUE_POLICY,
	F_TB_POLICY, F_SCHED_FLUSH, F_SCHED_RESERVE_PCT,
	F_SCHED_DISPATCH_CYCLES, F_SCHED_WAIT_CYCLES,
	F_SCHED_CTX_BYTES_PER_CYCLE, F_SCHED_SKIP_EVENT_EXEC,
	F_CP_PARSE_NS, F_CP_HOST_NS, F_CP_PROFILE_NS,
};

#define N_SCHED	(sizeof(sched_attrs) / sizeof(sched_attrs[0]))

static bool json, pretty, show_stats;
/* -j for monitor and top: JSON lines, one object a line, no array. */
static bool json_lines;
static struct nlmsghdr *cur_msg;	/* the message print_obj() prints */
static int nobjs;		/* objects printed in the JSON array */

struct ctx {
	struct nl_sock *sk;
	int family;
	int err;		/* the kernel's errno, negative */
	char msg[256];		/* and its extack message */
	/* What a callback collects (top): one message's attributes. */
	struct nlattr *tb[F_MAX + 1];
	void (*each)(struct ctx *c, uint8_t cmd, struct nlattr **tb);
	void *arg;
	struct nlmsghdr *cur;	/* the message @each is called for */
	bool done;		/* the ack, the dump's end or an error came */
	/* The request in flight, for the extack's attribute offset. */
	struct nlmsghdr *sent;
	int bad_attr;		/* the attribute the kernel named, or 0 */
	char bad_knob[32];	/* or the knob, for one in a policy-param */
	/* The policy's limits for it (NLMSGERR_ATTR_POLICY), when sent. */
	bool has_min, has_max;
	int64_t min;
	uint64_t max;
};

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "edgectl: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(1);
}

static const char usage_text[] =
	"usage: edgectl [-j [-p]] [-s] OBJECT COMMAND [ARGS]\n"
	      "  dev show [[dev] edgeN]\n"
	      "  dev add [preset NAME] [virtual|real] [index N]\n"
	      "  dev del [dev] edgeN\n"
	      "  dev set [dev] edgeN [poll_idle_us N] [time_scale_pct N] [cpu N]\n"
	      "  ekt show dev edgeN\n"
	      "  job show dev edgeN\n"
	      "  stats [show] dev edgeN\n"
	      "  sched show dev edgeN\n"
	      "  sched set dev edgeN [policy drain|reserve|preempt] [victim V]\n"
	      "            [queue NAME] [flush MASK] [reserve_pct N] [KNOB N] ...\n"
	      "            (KNOB: a policy's, as sched show lists them)\n"
	      "  param show dev edgeN   (each knob: range, default, help)\n"
	      "  param set dev edgeN KNOB N [KNOB N]...\n"
	      "  monitor [-n COUNT]\n"
	      "  top [-n ITERATIONS] [dev edgeN]\n"
	      "  place mem SIZE[K|M|G] threads N blocks N [policy sa|cg|mgb-alg2|mgb-alg3]\n"
	      "        [hold | -- CMD [ARG]...]\n"
	      "  help\n"
	      "edgectl -V: its version.  Documentation/edgectl.rst, man edgectl.\n";

static void usage(void)
{
	fputs(usage_text, stderr);
	exit(2);
}

/*
 * @got is not one of @known, or lacks its value: name it and the
 * nearest known word, not the whole usage; exit 2 as usage() does.
 */
static void bad_word(const char *got, const char * const *known)
{
	const char *best = edge_nearest(got, known);
	int i;

	for (i = 0; known[i]; i++) {
		if (!strcmp(got, known[i])) {
			fprintf(stderr, "edgectl: \"%s\" needs a value\n", got);
			exit(2);
		}
	}
	fprintf(stderr, "edgectl: unknown keyword \"%s\"", got);
	if (best)
		fprintf(stderr, ", did you mean \"%s\"?\n", best);
	else
		fprintf(stderr, " (edgectl help)\n");
	exit(2);
}

/* JSON strings: our own attribute values are plain, but be safe. */
static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

/* Value @v of an enum by its name in @n. */
static void enum_print(uint32_t v, const char * const *n)
{
	uint32_t i;

	for (i = 0; n[i] && i < v; i++)
		;
	/* A value newer than edgectl: its number. */
	if (!n[i])
		printf("%" PRIu32, v);
	else if (json)
		json_str(n[i]);
	else
		fputs(n[i], stdout);
}

static void print_value(int t, struct nlattr *a)
{
	switch (attrs[t].kind) {
	case K_ENUM:
		enum_print(nla_get_u32(a), attrs[t].names);
		break;
	case K_U32:
		printf("%" PRIu32, nla_get_u32(a));
		break;
	case K_S32:
		printf("%" PRId32, (int32_t)nla_get_u32(a));
		break;
	case K_U64:
		printf("%" PRIu64, (uint64_t)nla_get_u64(a));
		break;
	case K_STR:
		if (json)
			json_str(nla_get_string(a));
		else
			fputs(nla_get_string(a), stdout);
		break;
	case K_FLAG:
		fputs(json ? "true" : "", stdout);
		break;
	}
}

/*
 * The policies' knobs (policy-param, one nest each): printed as the
 * other knobs are, by the name the kernel's descriptor gives.
 */
static void print_params(bool first)
{
	struct nlattr *a, *tb[EDGE_A_POLICY_PARAM_MAX + 1];
	int rem;

	if (!cur_msg)
		return;
	nlmsg_for_each_attr(a, cur_msg, GENL_HDRLEN, rem) {
		if (nla_type(a) != EDGE_A_SCHED_POLICY_PARAM ||
		    nla_parse_nested(tb, EDGE_A_POLICY_PARAM_MAX, a, NULL) ||
		    !tb[EDGE_A_POLICY_PARAM_NAME] ||
		    !tb[EDGE_A_POLICY_PARAM_VALUE])
			continue;
		if (json) {
			printf("%s%s", first ? "" : ",", pretty ? "\n    " : "");
			json_str(nla_get_string(tb[EDGE_A_POLICY_PARAM_NAME]));
			putchar(':');
		} else {
			printf(" %s ", nla_get_string(tb[EDGE_A_POLICY_PARAM_NAME]));
		}
		printf("%" PRIu64,
		       (uint64_t)nla_get_u64(tb[EDGE_A_POLICY_PARAM_VALUE]));
		first = false;
	}
}

/* One object: @what its kind ("dev", "ekt", "stats", an event name). */
static void print_obj(const char *what, struct nlattr **tb, bool stats)
{
	bool first = true;
	int t;

	if (json) {
		if (json_lines)
			putchar('{');
		else
			printf("%s%s{", nobjs++ ? "," : "", pretty ? "\n  " : "");
		if (what) {
			printf("\"event\":");
			json_str(what);
			first = false;
		}
	} else if (what) {
		printf("[%s] ", what);
	}
	for (t = 1; t <= F_MAX; t++) {
		if (!tb[t] || !attrs[t].name)
			continue;
		if (!stats && t >= F_SUBMITTED && t <= F_JOBS_CANCELLED)
			continue;
		if (json) {
			printf("%s%s\"%s\":", first ? "" : ",",
			       pretty ? "\n    " : "", attrs[t].name);
			print_value(t, tb[t]);
		} else if (t == F_DEV_NAME) {
			print_value(t, tb[t]);
			putchar(':');
		} else if (t != F_DEV_INDEX || !tb[F_DEV_NAME]) {
			printf(" %s", attrs[t].name);
			if (attrs[t].kind != K_FLAG) {
				putchar(' ');
				print_value(t, tb[t]);
			}
		}
		first = false;
	}
	if (tb[F_POLICY_PARAM])
		print_params(first);
	if (json_lines)
		puts("}");
	else if (json)
		printf("%s}", pretty ? "\n  " : "");
	else
		putchar('\n');
	fflush(stdout);
}

/* @w, attributes of set @s, as fields in @tb. */
static void to_fields(enum aset s, struct nlattr **w, struct nlattr **tb)
{
	unsigned int i;

	for (i = 0; i < sizeof(wire_fields) / sizeof(wire_fields[0]); i++)
		if (wire_fields[i].set == s && w[wire_fields[i].wire])
			tb[wire_fields[i].field] = w[wire_fields[i].wire];
}

/*
 * Message @h's attributes as fields, by its command's set; a removed
 * device's final counters (dev-del-ntf's stats nest) with them.
 */
static int parse_fields(struct nlmsghdr *h, struct nlattr **tb)
{
	struct genlmsghdr *g = nlmsg_data(h);
	enum aset s = cmd_set(g->cmd);
	struct nlattr *w[SET_MAX + 1], *st[EDGE_A_STATS_MAX + 1];

	memset(tb, 0, sizeof(*tb) * (F_MAX + 1));
	if (!s || nla_parse(w, set_max[s], genlmsg_attrdata(g, 0),
			    genlmsg_attrlen(g, 0), NULL))
		return -1;
	to_fields(s, w, tb);
	if (s == S_DEV && w[EDGE_A_DEV_STATS] &&
	    !nla_parse_nested(st, EDGE_A_STATS_MAX, w[EDGE_A_DEV_STATS], NULL))
		to_fields(S_STATS, st, tb);
	return 0;
}

/* The attribute of set @s that prints as @field, or 0. */
static int wire_of(enum aset s, int field)
{
	unsigned int i;

	for (i = 0; i < sizeof(wire_fields) / sizeof(wire_fields[0]); i++)
		if (wire_fields[i].set == s && wire_fields[i].field == field)
			return wire_fields[i].wire;
	return 0;
}

/* @word's value in the spec's enum @names, or exit naming @what. */
static uint32_t enum_arg(const char *word, const char * const *names,
			 const char *what)
{
	uint32_t i;

	for (i = 0; names[i]; i++)
		if (!strcmp(word, names[i]))
			return i;
	fprintf(stderr, "edgectl: unknown %s \"%s\" (", what, word);
	for (i = 0; names[i]; i++)
		fprintf(stderr, "%s%s", i ? ", " : "", names[i]);
	fputs(")\n", stderr);
	exit(1);
}

static int parse(struct nl_msg *msg, struct nlattr **tb, uint8_t *cmd)
{
	struct genlmsghdr *g = nlmsg_data(nlmsg_hdr(msg));

	*cmd = g->cmd;
	cur_msg = nlmsg_hdr(msg);
	return parse_fields(nlmsg_hdr(msg), tb);
}

static int valid_cb(struct nl_msg *msg, void *arg)
{
	struct ctx *c = arg;
	uint8_t cmd;

	if (parse(msg, c->tb, &cmd))
		return NL_SKIP;
	c->cur = nlmsg_hdr(msg);
	c->each(c, cmd, c->tb);
	return NL_OK;
}

/* The policy's limits of a refused attribute (NLMSGERR_ATTR_POLICY). */
static void ext_policy(struct ctx *c, struct nlattr *nest)
{
	struct nlattr *a;
	int len = nla_len(nest);

	for (a = nla_data(nest); nla_ok(a, len); a = nla_next(a, &len)) {
		switch (nla_type(a)) {
		case NL_POLICY_TYPE_ATTR_MIN_VALUE_S:
			c->has_min = true;
			c->min = (int64_t)nla_get_u64(a);
			break;
		case NL_POLICY_TYPE_ATTR_MIN_VALUE_U:
			c->has_min = true;
			c->min = (int64_t)nla_get_u64(a);
			break;
		case NL_POLICY_TYPE_ATTR_MAX_VALUE_S:
		case NL_POLICY_TYPE_ATTR_MAX_VALUE_U:
			c->has_max = true;
			c->max = nla_get_u64(a);
			break;
		}
	}
}

/*
 * The attribute at @off in our request: the top-level one holding it
 * (nla_type() of a nested one would be read as the wrong set's), and
 * for one inside a policy-param nest, the knob that nest names.
 */
static void ext_offset(struct ctx *c, uint32_t off)
{
	struct nlattr *a, *pt[EDGE_A_POLICY_PARAM_MAX + 1];
	uint32_t at;
	int rem;

	if (!c->sent)
		return;
	nlmsg_for_each_attr(a, c->sent, GENL_HDRLEN, rem) {
		at = (char *)a - (char *)c->sent;
		if (off < at || off >= at + NLA_ALIGN(a->nla_len))
			continue;
		c->bad_attr = nla_type(a);
		if (off != at && c->bad_attr == EDGE_A_SCHED_POLICY_PARAM &&
		    !nla_parse_nested(pt, EDGE_A_POLICY_PARAM_MAX, a, NULL) &&
		    pt[EDGE_A_POLICY_PARAM_NAME])
			snprintf(c->bad_knob, sizeof(c->bad_knob), "%s",
				 nla_get_string(pt[EDGE_A_POLICY_PARAM_NAME]));
		return;
	}
}

/*
 * An error's errno and its extack, from the TLVs at @a (@h's end): the
 * message, the attribute at fault (its offset in our request, whose type
 * names it) and its policy's limits.
 */
static int ext_ack(struct ctx *c, int err, struct nlmsghdr *h,
		   struct nlattr *a)
{
	int len = (char *)h + h->nlmsg_len - (char *)a;

	c->err = err;
	c->msg[0] = 0;
	c->bad_attr = 0;
	c->bad_knob[0] = 0;
	c->has_min = c->has_max = false;
	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
		return NL_STOP;
	for (; nla_ok(a, len); a = nla_next(a, &len)) {
		switch (nla_type(a)) {
		case NLMSGERR_ATTR_MSG:
			snprintf(c->msg, sizeof(c->msg), "%s",
				 (char *)nla_data(a));
			break;
		case NLMSGERR_ATTR_OFFS:
			ext_offset(c, nla_get_u32(a));
			break;
		case NLMSGERR_ATTR_POLICY:
			ext_policy(c, a);
			break;
		case NLMSGERR_ATTR_MISS_TYPE:	/* a missing one */
			c->bad_attr = nla_get_u32(a);
			break;
		}
	}
	return NL_STOP;
}

/* The errno and extack of an NLMSG_ERROR. */
static int error_cb(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct nlmsghdr *h = (struct nlmsghdr *)e - 1;
	struct ctx *c = arg;

	c->done = true;
	return ext_ack(c, e->error, h, (struct nlattr *)((char *)e + sizeof(*e) +
		       ((h->nlmsg_flags & NLM_F_CAPPED) ? 0 :
			NLMSG_ALIGN(e->msg.nlmsg_len - NLMSG_HDRLEN))));
}

/*
 * A do's ack (a reply comes before it) or a dump's NLMSG_DONE.  A dump
 * that failed says so here, not in an NLMSG_ERROR: the errno is the
 * DONE's payload, the extack attributes follow it.
 */
static int end_cb(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *h = nlmsg_hdr(msg);
	struct ctx *c = arg;
	int err;

	c->done = true;
	if (h->nlmsg_type != NLMSG_DONE ||
	    h->nlmsg_len < NLMSG_HDRLEN + sizeof(int))
		return NL_STOP;
	memcpy(&err, nlmsg_data(h), sizeof(err));
	if (err >= 0)
		return NL_STOP;
	return ext_ack(c, err, h, (struct nlattr *)((char *)nlmsg_data(h) +
					NLMSG_ALIGN(sizeof(int))));
}

/*
 * The family's id, when the kernel's is the version edgectl speaks:
 * another one numbers its commands and attributes otherwise, so a
 * mismatch is refused here, naming both, before any request.
 */
static const char *family_resolve(struct ctx *c)
{
	static char why[128];
	struct nl_cache *cache;
	struct genl_family *f;
	int v;

	if (genl_ctrl_alloc_cache(c->sk, &cache))
		return "cannot read the generic netlink families";
	f = genl_ctrl_search_by_name(cache, EDGE_FAMILY_NAME);
	if (!f) {
		nl_cache_free(cache);
		return "no \"edge\" netlink family: is edge.ko loaded?";
	}
	c->family = genl_family_get_id(f);
	v = genl_family_get_version(f);
	genl_family_put(f);
	nl_cache_free(cache);
	if (v == EDGE_FAMILY_VERSION)
		return NULL;
	snprintf(why, sizeof(why),
		 "the kernel's \"edge\" family is version %d, this edgectl speaks version %d",
		 v, EDGE_FAMILY_VERSION);
	return why;
}

/* The socket and the family; NULL, or why not. */
static const char *ctx_try_open(struct ctx *c)
{
	const char *why;
	int one = 1;

	memset(c, 0, sizeof(*c));
	c->sk = nl_socket_alloc();
	if (!c->sk || genl_connect(c->sk))
		return "cannot open a generic netlink socket";
	setsockopt(nl_socket_get_fd(c->sk), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	why = family_resolve(c);
	if (why)
		return why;
	nl_socket_modify_cb(c->sk, NL_CB_VALID, NL_CB_CUSTOM, valid_cb, c);
	nl_socket_modify_cb(c->sk, NL_CB_ACK, NL_CB_CUSTOM, end_cb, c);
	nl_socket_modify_cb(c->sk, NL_CB_FINISH, NL_CB_CUSTOM, end_cb, c);
	nl_socket_modify_err_cb(c->sk, NL_CB_CUSTOM, error_cb, c);
	return NULL;
}

static void ctx_open(struct ctx *c)
{
	const char *why = ctx_try_open(c);

	if (why)
		die("%s", why);
}

/* A request, sent and answered; exits with the kernel's message on error. */
static struct nl_msg *req(struct ctx *c, uint8_t cmd, int flags)
{
	struct nl_msg *m = nlmsg_alloc();

	if (!m || !genlmsg_put(m, NL_AUTO_PORT, NL_AUTO_SEQ, c->family, 0,
			       flags, cmd, EDGE_FAMILY_VERSION))
		die("%s", "out of memory");
	return m;
}

/* The field the kernel's bad attribute prints as, in our request's set. */
static int bad_field(struct ctx *c)
{
	enum aset s;
	unsigned int i;

	if (!c->sent || c->bad_attr <= 0)
		return 0;
	s = cmd_set(((struct genlmsghdr *)nlmsg_data(c->sent))->cmd);
	for (i = 0; i < sizeof(wire_fields) / sizeof(wire_fields[0]); i++)
		if (wire_fields[i].set == s &&
		    wire_fields[i].wire == c->bad_attr &&
		    attrs[wire_fields[i].field].name)
			return wire_fields[i].field;
	return 0;
}

static int xfer(struct ctx *c, struct nl_msg *m)
{
	int ret;

	c->err = 0;
	c->done = false;
	/* nl_send_auto() asks for an ack: a do ends with it. */
	ret = nl_send_auto(c->sk, m);
	free(c->sent);
	c->sent = malloc(nlmsg_hdr(m)->nlmsg_len);
	if (c->sent)
		memcpy(c->sent, nlmsg_hdr(m), nlmsg_hdr(m)->nlmsg_len);
	nlmsg_free(m);
	if (ret < 0)
		die("send: %s", nl_geterror(ret));
	while (!c->done) {
		ret = nl_recvmsgs_default(c->sk);
		/* Not the kernel's error: libnl's own, or a lost reply. */
		if (ret < 0 && !c->err)
			die("receive: %s", nl_geterror(ret));
	}
	if (c->err) {
		fprintf(stderr, "edgectl: %s%s%s", strerror(-c->err),
			c->msg[0] ? ": " : "", c->msg);
		if (c->bad_knob[0])
			fprintf(stderr, ": %s", c->bad_knob);
		else if (bad_field(c))
			fprintf(stderr, ": %s", attrs[bad_field(c)].name);
		/* An unsigned policy's 0 is no news: "max N" then. */
		if (c->has_min && c->min && c->has_max)
			fprintf(stderr, " (%" PRId64 "..%" PRIu64 ")", c->min,
				c->max);
		else if (c->has_min && !c->has_max)
			fprintf(stderr, " (min %" PRId64 ")", c->min);
		else if (c->has_max)
			fprintf(stderr, " (max %" PRIu64 ")", c->max);
		fputc('\n', stderr);
		exit(1);
	}
	return 0;
}

static uint32_t dev_index(const char *s)
{
	char *end;
	unsigned long v;

	if (!strncmp(s, "edge", 4))
		s += 4;
	v = strtoul(s, &end, 10);
	if (!*s || *end || v > 0xffffffffUL)
		die("bad device \"%s\" (edgeN)", s);
	return v;
}

static uint32_t number(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	if (!*s || *end || v > 0xffffffffUL)
		die("bad number \"%s\"", s);
	return v;
}

static uint64_t number64(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (!*s || *end || *s == '-' || errno)
		die("bad number \"%s\"", s);
	return v;
}

static void json_begin(void)
{
	if (json)
		putchar('[');
}

static void json_end(void)
{
	if (json)
		printf("%s]\n", pretty ? "\n" : "");
}

static void show_each(struct ctx *c, uint8_t cmd, struct nlattr **tb)
{
	print_obj(NULL, tb, show_stats || cmd == EDGE_CMD_STATS_GET);
}

/* One field of a param show object: "name": value, or name value. */
static void param_field(bool *first, const char *name)
{
	if (json)
		printf("%s%s\"%s\":", *first ? "" : ",", pretty ? "\n    " : "",
		       name);
	else
		printf(" %s ", name);
	*first = false;
}

/*
 * param show: one object per knob of sched-get's reply, with what its
 * descriptor says of it (emul/policy/param.h): the policy it belongs
 * to, its range, default and help, as the kernel sent them.
 */
static void param_each(struct ctx *c, uint8_t cmd, struct nlattr **tb)
{
	struct nlattr *a, *p[EDGE_A_POLICY_PARAM_MAX + 1];
	static const struct { int t; const char *name; } u64s[] = {
		{ EDGE_A_POLICY_PARAM_VALUE, "value" },
		{ EDGE_A_POLICY_PARAM_RANGE_MIN, "range_min" },
		{ EDGE_A_POLICY_PARAM_RANGE_MAX, "range_max" },
		{ EDGE_A_POLICY_PARAM_DEFAULT, "default" },
	};
	uint32_t dev = tb[F_DEV_INDEX] ?
		       nla_get_u32(tb[F_DEV_INDEX]) : 0;
	unsigned int i;
	int rem;

	nlmsg_for_each_attr(a, c->cur, GENL_HDRLEN, rem) {
		bool first = true;

		if (nla_type(a) != EDGE_A_SCHED_POLICY_PARAM ||
		    nla_parse_nested(p, EDGE_A_POLICY_PARAM_MAX, a, NULL) ||
		    !p[EDGE_A_POLICY_PARAM_NAME])
			continue;
		if (json) {
			printf("%s%s{", nobjs++ ? "," : "", pretty ? "\n  " : "");
			param_field(&first, "dev");
			printf("\"edge%" PRIu32 "\"", dev);
			param_field(&first, "name");
			json_str(nla_get_string(p[EDGE_A_POLICY_PARAM_NAME]));
		} else {
			printf("edge%" PRIu32 ": %s", dev,
			       nla_get_string(p[EDGE_A_POLICY_PARAM_NAME]));
			first = false;
		}
		for (i = 0; i < sizeof(u64s) / sizeof(u64s[0]); i++) {
			if (!p[u64s[i].t])
				continue;
			/* The value right after the name, as sched show has it. */
			if (u64s[i].t == EDGE_A_POLICY_PARAM_VALUE && !json)
				putchar(' ');
			else
				param_field(&first, u64s[i].name);
			printf("%" PRIu64, (uint64_t)nla_get_u64(p[u64s[i].t]));
		}
		if (p[EDGE_A_POLICY_PARAM_POLICY]) {
			uint32_t v = nla_get_u32(p[EDGE_A_POLICY_PARAM_POLICY]);

			param_field(&first, "policy");
			enum_print(v, queue_names);
		}
		if (p[EDGE_A_POLICY_PARAM_HELP]) {
			if (json) {
				param_field(&first, "help");
				json_str(nla_get_string(p[EDGE_A_POLICY_PARAM_HELP]));
			} else {
				/* Free text: last, on a line of its own. */
				printf("\n    %s",
				       nla_get_string(p[EDGE_A_POLICY_PARAM_HELP]));
			}
		}
		if (json)
			printf("%s}", pretty ? "\n  " : "");
		else
			putchar('\n');
	}
	fflush(stdout);
}

/* The device named by "[dev] edgeN" at argv[0], consuming it. */
static uint32_t dev_arg(int *argc, char ***argv)
{
	if (*argc && !strcmp((*argv)[0], "dev")) {
		(*argc)--;
		(*argv)++;
	}
	if (!*argc)
		usage();
	(*argc)--;
	return dev_index(*(*argv)++);
}

/* Messages kept for later (dev show -s asks for stats per device). */
struct coll {
	int n;
	struct nlmsghdr *h[64];
};

static void collect_each(struct ctx *c, uint8_t cmd, struct nlattr **tb)
{
	struct coll *k = c->arg;
	struct nlmsghdr *h = c->cur;

	if (k->n < 64) {
		k->h[k->n] = malloc(h->nlmsg_len);
		if (!k->h[k->n])
			die("%s", "out of memory");
		memcpy(k->h[k->n++], h, h->nlmsg_len);
	}
}

static void parse_hdr(struct nlmsghdr *h, struct nlattr **tb)
{
	parse_fields(h, tb);
}

/* -s: each device with its counters, as one object. */
static void dev_show_stats(struct ctx *c, struct coll *devs)
{
	struct nlattr *tb[F_MAX + 1], *st[F_MAX + 1];
	struct coll stats;
	int i, t;

	for (i = 0; i < devs->n; i++) {
		struct nl_msg *m;

		parse_hdr(devs->h[i], tb);
		memset(&stats, 0, sizeof(stats));
		c->arg = &stats;
		m = req(c, EDGE_CMD_STATS_GET, 0);
		nla_put_u32(m, EDGE_A_STATS_DEV_INDEX,
			    nla_get_u32(tb[F_DEV_INDEX]));
		xfer(c, m);
		if (stats.n) {
			parse_hdr(stats.h[0], st);
			for (t = F_SUBMITTED; t <= F_JOBS_CANCELLED; t++)
				if (st[t])
					tb[t] = st[t];
		}
		print_obj(NULL, tb, true);
		if (stats.n)
			free(stats.h[0]);
	}
}

static int cmd_dev(struct ctx *c, int argc, char **argv)
{
	const char *sub = argc ? argv[0] : "show";
	struct nl_msg *m;

	if (argc) {
		argc--;
		argv++;
	}
	if (!strcmp(sub, "show") || !strcmp(sub, "list")) {
		struct coll devs = { 0 };
		int i;

		if (argc) {
			m = req(c, EDGE_CMD_DEV_GET, 0);
			nla_put_u32(m, EDGE_A_DEV_INDEX, dev_arg(&argc, &argv));
		} else {
			m = req(c, EDGE_CMD_DEV_GET, NLM_F_DUMP);
		}
		c->each = collect_each;
		c->arg = &devs;
		xfer(c, m);
		json_begin();
		if (show_stats) {
			dev_show_stats(c, &devs);
		} else {
			for (i = 0; i < devs.n; i++) {
				struct nlattr *tb[F_MAX + 1];

				parse_hdr(devs.h[i], tb);
				print_obj(NULL, tb, false);
			}
		}
		json_end();
		for (i = 0; i < devs.n; i++)
			free(devs.h[i]);
		return 0;
	}
	if (!strcmp(sub, "add")) {
		m = req(c, EDGE_CMD_DEV_ADD, 0);
		while (argc) {
			if (!strcmp(argv[0], "virtual") || !strcmp(argv[0], "real")) {
				nla_put_u32(m, EDGE_A_DEV_TIME_MODE,
					    argv[0][0] == 'v' ?
					    EDGE_NL_TIME_VIRTUAL : EDGE_NL_TIME_REAL);
				argc--;
				argv++;
			} else if (argc >= 2 && !strcmp(argv[0], "preset")) {
				nla_put_u32(m, EDGE_A_DEV_PRESET,
					    enum_arg(argv[1], preset_names,
						     "preset"));
				argc -= 2;
				argv += 2;
			} else if (argc >= 2 && !strcmp(argv[0], "index")) {
				nla_put_u32(m, EDGE_A_DEV_INDEX, dev_index(argv[1]));
				argc -= 2;
				argv += 2;
			} else {
				bad_word(argv[0], dev_add_words);
			}
		}
		c->each = show_each;
		json_begin();
		xfer(c, m);
		json_end();
		return 0;
	}
	if (!strcmp(sub, "del")) {
		m = req(c, EDGE_CMD_DEV_DEL, 0);
		nla_put_u32(m, EDGE_A_DEV_INDEX, dev_arg(&argc, &argv));
		return xfer(c, m);
	}
	if (!strcmp(sub, "set")) {
		m = req(c, EDGE_CMD_DEV_SET, 0);
		nla_put_u32(m, EDGE_A_DEV_INDEX, dev_arg(&argc, &argv));
		if (!argc)
			usage();
		for (; argc >= 2; argc -= 2, argv += 2) {
			if (!strcmp(argv[0], "poll_idle_us"))
				nla_put_u32(m, EDGE_A_DEV_POLL_IDLE_US,
					    number(argv[1]));
			else if (!strcmp(argv[0], "time_scale_pct"))
				nla_put_u32(m, EDGE_A_DEV_TIME_SCALE_PCT,
					    number(argv[1]));
			else if (!strcmp(argv[0], "cpu"))
				nla_put_u32(m, EDGE_A_DEV_CPU,
					    (uint32_t)atoi(argv[1]));
			else
				bad_word(argv[0], dev_set_words);
		}
		if (argc)
			bad_word(argv[0], dev_set_words);
		return xfer(c, m);
	}
	bad_word(sub, dev_cmds);
	return 2;
}

/*
 * "[show] dev DEV": one device's @cmd (a dump when @flags has
 * NLM_F_DUMP), every reply printed by show_each(); a kernel error ends
 * edgectl in xfer().
 */
static int show_dev(struct ctx *c, int argc, char **argv, uint8_t cmd,
		    int flags)
{
	struct nl_msg *m;

	if (argc && !strcmp(argv[0], "show")) {
		argc--;
		argv++;
	}
	m = req(c, cmd, flags);
	/* Each per-device request's dev-index: its set's first attribute. */
	nla_put_u32(m, wire_of(cmd_set(cmd), F_DEV_INDEX),
		    dev_arg(&argc, &argv));
	c->each = show_each;
	json_begin();
	xfer(c, m);
	json_end();
	return 0;
}

static int cmd_ekt(struct ctx *c, int argc, char **argv)
{
	return show_dev(c, argc, argv, EDGE_CMD_EKT_GET, NLM_F_DUMP);
}

/* The job table: jobs not yet ended (EDGE_NL_JOB_* states). */
static int cmd_job(struct ctx *c, int argc, char **argv)
{
	return show_dev(c, argc, argv, EDGE_CMD_JOB_GET, NLM_F_DUMP);
}

static int cmd_stats(struct ctx *c, int argc, char **argv)
{
	return show_dev(c, argc, argv, EDGE_CMD_STATS_GET, 0);
}

/*
 * The policies' knobs, by the names the kernel's descriptors give them
 * (sched-get's policy-param nests, emul/policy/param.h): edgectl names
 * none, so a knob a policy gains needs nothing here.
 */
#define KNOBS_MAX	64

struct knobs {
	bool got;
	int n;
	char name[KNOBS_MAX][32];
};

static void knobs_each(struct ctx *c, uint8_t cmd, struct nlattr **tb)
{
	struct nlattr *a, *pt[EDGE_A_POLICY_PARAM_MAX + 1];
	struct knobs *k = c->arg;
	int rem;

	nlmsg_for_each_attr(a, c->cur, GENL_HDRLEN, rem) {
		if (nla_type(a) != EDGE_A_SCHED_POLICY_PARAM || k->n == KNOBS_MAX ||
		    nla_parse_nested(pt, EDGE_A_POLICY_PARAM_MAX, a, NULL) ||
		    !pt[EDGE_A_POLICY_PARAM_NAME])
			continue;
		snprintf(k->name[k->n++], sizeof(k->name[0]), "%s",
			 nla_get_string(pt[EDGE_A_POLICY_PARAM_NAME]));
	}
}

/* Device @dev's knobs, asked once (a missing device ends edgectl). */
static void knobs_get(struct ctx *c, uint32_t dev, struct knobs *k)
{
	struct nl_msg *m;

	if (k->got)
		return;
	m = req(c, EDGE_CMD_SCHED_GET, 0);
	nla_put_u32(m, EDGE_A_SCHED_DEV_INDEX, dev);
	k->got = true;
	k->n = 0;
	c->each = knobs_each;
	c->arg = k;
	xfer(c, m);
}

static bool knob_known(const struct knobs *k, const char *word)
{
	int i;

	for (i = 0; i < k->n; i++)
		if (!strcmp(word, k->name[i]))
			return true;
	return false;
}

/* bad_word() over sched set's words and the device's knobs. */
static void sched_bad_word(struct ctx *c, uint32_t dev, struct knobs *k,
			   const char *got)
{
	const char *w[N_SCHED + KNOBS_MAX + 1];
	unsigned int i, n = 0;

	knobs_get(c, dev, k);
	for (i = 0; i < N_SCHED; i++)
		w[n++] = attrs[sched_attrs[i]].name;
	for (i = 0; i < (unsigned int)k->n; i++)
		w[n++] = k->name[i];
	w[n] = NULL;
	bad_word(got, w);
}

/*
 * sched and param (the same commands: param names the policies' knobs,
 * which sched set and show carry too).  A word that is not one of sched
 * set's attributes is a knob when the device's policies have one of
 * that name, sent as a policy-param; else a mistyped keyword.
 */
static int cmd_sched(struct ctx *c, int argc, char **argv, bool param)
{
	const char *sub = argc ? argv[0] : "show";
	struct knobs knobs = { 0 };
	struct nl_msg *m;
	unsigned int i;
	uint32_t dev;

	if (argc) {
		argc--;
		argv++;
	}
	if (!strcmp(sub, "show") && param) {
		m = req(c, EDGE_CMD_SCHED_GET, 0);
		nla_put_u32(m, EDGE_A_SCHED_DEV_INDEX, dev_arg(&argc, &argv));
		c->each = param_each;
		json_begin();
		xfer(c, m);
		json_end();
		return 0;
	}
	if (!strcmp(sub, "show"))
		return show_dev(c, argc, argv, EDGE_CMD_SCHED_GET, 0);
	if (strcmp(sub, "set"))
		bad_word(sub, sched_cmds);
	m = req(c, EDGE_CMD_SCHED_SET, 0);
	dev = dev_arg(&argc, &argv);
	nla_put_u32(m, EDGE_A_SCHED_DEV_INDEX, dev);
	if (!argc)
		usage();
	for (; argc >= 2; argc -= 2, argv += 2) {
		/* "tb", tb_policy's short name from before. */
		const char *w = strcmp(argv[0], "tb") ? argv[0] : "tb_policy";
		struct nlattr *n;
		int a;

		for (i = 0; i < N_SCHED; i++)
			if (!strcmp(w, attrs[sched_attrs[i]].name))
				break;
		if (i < N_SCHED) {
			a = sched_attrs[i];
			if (attrs[a].kind == K_ENUM)
				nla_put_u32(m, wire_of(S_SCHED, a),
					    enum_arg(argv[1], attrs[a].names,
						     attrs[a].name));
			else
				nla_put_u32(m, wire_of(S_SCHED, a),
					    number(argv[1]));
			continue;
		}
		knobs_get(c, dev, &knobs);
		if (!knob_known(&knobs, argv[0]))
			sched_bad_word(c, dev, &knobs, argv[0]);
		n = nla_nest_start(m, EDGE_A_SCHED_POLICY_PARAM | NLA_F_NESTED);
		nla_put_string(m, EDGE_A_POLICY_PARAM_NAME, argv[0]);
		nla_put_u64(m, EDGE_A_POLICY_PARAM_VALUE, number64(argv[1]));
		nla_nest_end(m, n);
	}
	if (argc)
		sched_bad_word(c, dev, &knobs, argv[0]);
	return xfer(c, m);
}

static int monitor_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[F_MAX + 1];
	long *left = arg;
	unsigned int i;
	uint8_t cmd;

	if (parse(msg, tb, &cmd))
		return NL_SKIP;
	i = cmd_row(cmd);
	print_obj(i < sizeof(cmds) / sizeof(cmds[0]) && cmds[i].ntf ?
		  cmds[i].ntf : "unknown", tb,
		  cmd == EDGE_CMD_DEV_DEL_NTF);
	if (*left > 0 && !--*left)
		return NL_STOP;
	return NL_OK;
}

static int cmd_monitor(struct ctx *c, long count)
{
	int grp = genl_ctrl_resolve_grp(c->sk, EDGE_FAMILY_NAME,
					EDGE_MCGRP_EVENTS);
	int ret;

	if (grp < 0)
		die("%s", "no \"" EDGE_MCGRP_EVENTS "\" group");
	nl_socket_disable_seq_check(c->sk);
	nl_socket_modify_cb(c->sk, NL_CB_VALID, NL_CB_CUSTOM, monitor_cb,
			    &count);
	if (nl_socket_add_membership(c->sk, grp))
		die("%s", "cannot join the \"" EDGE_MCGRP_EVENTS "\" group");
	while (count) {
		ret = nl_recvmsgs_default(c->sk);
		/* genl_set_err(-ENOBUFS): the kernel lost one for us. */
		if (ret == -NLE_NOMEM) {
			fprintf(stderr, "edgectl: notifications lost, resync\n");
			continue;
		}
		if (ret < 0)
			die("receive: %s", nl_geterror(ret));
	}
	return 0;
}

/*
 * top: per device and per entry, over the last second: events/s, the
 * latency percentiles of the events done in it (from the entries'
 * log2 histograms: a percentile is its bucket's upper bound) and the
 * device's preemptions.
 */
struct top_row {
	uint32_t dev, id;
	uint64_t submitted, completed, cancelled;
	uint64_t hist[EDGE_LAT_HIST_BUCKETS];
	uint32_t inflight, pid;
	bool used;
};

#define TOP_MAX	(64 * 64)

struct top_dev {
	uint64_t preempt, tb_preempt;
	bool seen;
};

struct top_state {
	struct top_row now[TOP_MAX], prev[TOP_MAX];
	struct top_dev dnow[64], dprev[64];
	int n;
};

static void top_each(struct ctx *c, uint8_t cmd, struct nlattr **tb)
{
	struct top_state *s = c->arg;
	struct top_row *r;

	if (s->n >= TOP_MAX || !tb[F_EKT_ID])
		return;
	r = &s->now[s->n++];
	r->used = true;
	r->dev = nla_get_u32(tb[F_DEV_INDEX]);
	r->id = nla_get_u32(tb[F_EKT_ID]);
	r->submitted = nla_get_u64(tb[F_EKT_SUBMITTED]);
	r->completed = nla_get_u64(tb[F_EKT_COMPLETED]);
	r->cancelled = nla_get_u64(tb[F_EKT_CANCELLED]);
	r->inflight = nla_get_u32(tb[F_EKT_INFLIGHT]);
	r->pid = tb[F_EKT_OWNER_PID] ?
		 nla_get_u32(tb[F_EKT_OWNER_PID]) : 0;
	/* An older module has no histogram: no percentiles then. */
	if (tb[F_EKT_LAT_HIST] &&
	    nla_len(tb[F_EKT_LAT_HIST]) == sizeof(r->hist))
		memcpy(r->hist, nla_data(tb[F_EKT_LAT_HIST]),
		       sizeof(r->hist));
}

static void top_stats_each(struct ctx *c, uint8_t cmd, struct nlattr **tb)
{
	struct top_state *s = c->arg;
	uint32_t d;

	if (!tb[F_DEV_INDEX] || !tb[F_PREEMPTIONS])
		return;
	d = nla_get_u32(tb[F_DEV_INDEX]);
	if (d >= 64)
		return;
	s->dnow[d].preempt = nla_get_u64(tb[F_PREEMPTIONS]);
	s->dnow[d].tb_preempt = nla_get_u64(tb[F_TB_PREEMPTIONS]);
	s->dnow[d].seen = true;
}

static void devs_each(struct ctx *c, uint8_t cmd, struct nlattr **tb)
{
	uint32_t *list = c->arg;

	if (tb[F_DEV_INDEX] && list[0] < 64)
		list[1 + list[0]++] = nla_get_u32(tb[F_DEV_INDEX]);
}

/* The upper bound of the bucket holding the @pct-th percentile, as text. */
static const char *top_pct(const uint64_t *h, unsigned int pct, char *buf,
			   size_t len)
{
	uint64_t total = 0, sum = 0, bound;
	int i;

	for (i = 0; i < EDGE_LAT_HIST_BUCKETS; i++)
		total += h[i];
	if (!total)
		return "-";
	for (i = 0; i < EDGE_LAT_HIST_BUCKETS - 1; i++) {
		sum += h[i];
		/* sum / total >= pct / 100, in integers */
		if (sum * 100 >= total * pct)
			break;
	}
	bound = i ? (uint64_t)1 << i : 0;
	if (i == EDGE_LAT_HIST_BUCKETS - 1)
		snprintf(buf, len, ">%" PRIu64 "ms", ((uint64_t)1 << (i - 1)) / 1000000);
	else if (bound < 10000)
		snprintf(buf, len, "%" PRIu64 "ns", bound);
	else if (bound < 10000000)
		snprintf(buf, len, "%" PRIu64 "us", bound / 1000);
	else
		snprintf(buf, len, "%" PRIu64 "ms", bound / 1000000);
	return buf;
}

static void top_print_dev(const struct top_state *s, uint32_t d, bool delta)
{
	const struct top_dev *n = &s->dnow[d], *p = &s->dprev[d];

	if (!n->seen)
		return;
	if (json_lines) {
		printf("%s{\"dev\":\"edge%u\",\"preemptions\":%" PRIu64
		       ",\"tb_preemptions\":%" PRIu64, nobjs++ ? "," : "", d,
		       n->preempt, n->tb_preempt);
		if (delta && p->seen)
			printf(",\"preemptions_per_s\":%" PRIu64
			       ",\"tb_preemptions_per_s\":%" PRIu64,
			       n->preempt - p->preempt,
			       n->tb_preempt - p->tb_preempt);
		putchar('}');
		return;
	}
	if (delta && p->seen)
		printf("edge%u: preemptions/s %" PRIu64 " (warp) %" PRIu64
		       " (tb), in all %" PRIu64 " %" PRIu64 "\n", d,
		       n->preempt - p->preempt, n->tb_preempt - p->tb_preempt,
		       n->preempt, n->tb_preempt);
	else
		printf("edge%u: preemptions in all %" PRIu64 " (warp) %" PRIu64
		       " (tb)\n", d, n->preempt, n->tb_preempt);
}

static void top_print_row(const struct top_state *s, const struct top_row *r,
			  bool delta)
{
	const struct top_row *p = NULL;
	uint64_t h[EDGE_LAT_HIST_BUCKETS], rate = 0;
	char b50[16], b99[16];
	int j;

	for (j = 0; delta && j < TOP_MAX && s->prev[j].used; j++)
		if (s->prev[j].dev == r->dev && s->prev[j].id == r->id)
			p = &s->prev[j];
	/* The last second's events; the first view, all since registration. */
	for (j = 0; j < EDGE_LAT_HIST_BUCKETS; j++)
		h[j] = r->hist[j] - (p && p->hist[j] <= r->hist[j] ?
				     p->hist[j] : 0);
	if (p && p->completed <= r->completed)
		rate = r->completed - p->completed;
	if (json_lines) {
		printf("%s{\"dev\":\"edge%u\",\"id\":%u,\"pid\":%u,"
		       "\"events_per_s\":%" PRIu64 ",\"completed\":%" PRIu64
		       ",\"cancelled\":%" PRIu64 ",\"inflight\":%u,"
		       "\"p50\":\"%s\",\"p99\":\"%s\"}", nobjs++ ? "," : "",
		       r->dev, r->id, r->pid, rate, r->completed, r->cancelled,
		       r->inflight, top_pct(h, 50, b50, sizeof(b50)),
		       top_pct(h, 99, b99, sizeof(b99)));
		return;
	}
	printf("edge%-3u %4u %7u %10" PRIu64 " %12" PRIu64 " %10" PRIu64
	       " %8u %8s %8s\n", r->dev, r->id, r->pid, rate, r->completed,
	       r->cancelled, r->inflight, top_pct(h, 50, b50, sizeof(b50)),
	       top_pct(h, 99, b99, sizeof(b99)));
}

static int cmd_top(struct ctx *c, long iters, int onedev)
{
	static struct top_state s;
	uint32_t devs[65];
	long it;
	int i, d;

	for (it = 0; iters < 0 || it < iters; it++) {
		struct nl_msg *m;

		memcpy(s.prev, s.now, sizeof(s.now));
		memset(s.now, 0, sizeof(s.now));
		memcpy(s.dprev, s.dnow, sizeof(s.dnow));
		memset(s.dnow, 0, sizeof(s.dnow));
		s.n = 0;
		devs[0] = 0;
		if (onedev >= 0) {
			devs[devs[0]++ + 1] = onedev;
		} else {
			c->each = devs_each;
			c->arg = devs;
			xfer(c, req(c, EDGE_CMD_DEV_GET, NLM_F_DUMP));
		}
		c->arg = &s;
		for (d = 0; d < (int)devs[0]; d++) {
			c->each = top_each;
			m = req(c, EDGE_CMD_EKT_GET, NLM_F_DUMP);
			nla_put_u32(m, EDGE_A_EKT_DEV_INDEX, devs[1 + d]);
			xfer(c, m);
			c->each = top_stats_each;
			m = req(c, EDGE_CMD_STATS_GET, 0);
			nla_put_u32(m, EDGE_A_STATS_DEV_INDEX, devs[1 + d]);
			xfer(c, m);
		}
		if (json_lines) {
			/* One view a line: {"view", "devices", "entries"}. */
			printf("{\"view\":\"%s\",\"devices\":[",
			       it ? "last second" : "since registration");
			nobjs = 0;
			for (d = 0; d < (int)devs[0]; d++)
				top_print_dev(&s, devs[1 + d], it > 0);
			printf("],\"entries\":[");
			nobjs = 0;
			for (i = 0; i < s.n; i++)
				top_print_row(&s, &s.now[i], it > 0);
			puts("]}");
		} else {
			if (iters < 0)
				printf("\033[H\033[J");
			printf("edgectl top: %u device(s), %d entries%s\n",
			       devs[0], s.n,
			       it ? ", last second" : ", since registration");
			for (d = 0; d < (int)devs[0]; d++)
				top_print_dev(&s, devs[1 + d], it > 0);
			printf("%-7s %4s %7s %10s %12s %10s %8s %8s %8s\n",
			       "dev", "id", "pid", "events/s", "completed",
			       "cancelled", "inflight", "p50", "p99");
			for (i = 0; i < s.n; i++)
				top_print_row(&s, &s.now[i], it > 0);
		}
		fflush(stdout);
		if (iters < 0 || it + 1 < iters)
			sleep(1);
	}
	return 0;
}

/* Bytes: a number with an optional K, M or G (powers of 1024). */
static uint64_t size_arg(const char *s)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (!*s || *s == '-' || errno)
		die("bad size \"%s\"", s);
	switch (*end) {
	case 'k': case 'K':
		v <<= 10, end++;
		break;
	case 'm': case 'M':
		v <<= 20, end++;
		break;
	case 'g': case 'G':
		v <<= 30, end++;
		break;
	}
	if (*end)
		die("bad size \"%s\"", s);
	return v;
}

struct placed {
	uint32_t index;
	uint64_t id;
	bool got;
};

static void place_each(struct ctx *c, uint8_t cmd, struct nlattr **tb)
{
	struct placed *p = c->arg;

	if (!tb[F_DEV_INDEX] || !tb[F_PLACE_ID])
		return;
	p->index = nla_get_u32(tb[F_DEV_INDEX]);
	p->id = nla_get_u64(tb[F_PLACE_ID]);
	p->got = true;
	print_obj(NULL, tb, false);
}

static volatile sig_atomic_t place_stop;

static void place_signal(int sig)
{
	place_stop = 1;
}

/*
 * The user-level scheduler's probe.  The reservation belongs to this
 * netlink socket: it ends when the socket closes.  "hold" keeps it until
 * SIGINT/SIGTERM (then place-release) or SIGKILL (the socket closes);
 * "-- CMD" execs CMD in this very process with the socket left open, so
 * the reservation lives exactly as long as CMD does, and CMD (the same
 * process) draws on it when it registers with mem_bytes on $EDGE_DEV.
 */
static int cmd_place(struct ctx *c, int argc, char **argv)
{
	struct placed p = { 0 };
	struct sigaction sa = { .sa_handler = place_signal };
	struct nl_msg *m = req(c, EDGE_CMD_PLACE, 0);
	char **cmd = NULL, buf[32];
	bool hold = false;
	int fd;

	while (argc) {
		if (!strcmp(argv[0], "--")) {
			cmd = argv + 1;
			if (!*cmd)
				usage();
			break;
		}
		if (!strcmp(argv[0], "hold")) {
			hold = true;
			argc--;
			argv++;
			continue;
		}
		if (argc < 2)
			bad_word(argv[0], place_words);
		if (!strcmp(argv[0], "mem"))
			nla_put_u64(m, EDGE_A_PLACE_MEM, size_arg(argv[1]));
		else if (!strcmp(argv[0], "threads"))
			nla_put_u32(m, EDGE_A_PLACE_THREADS, number(argv[1]));
		else if (!strcmp(argv[0], "blocks"))
			nla_put_u32(m, EDGE_A_PLACE_BLOCKS, number(argv[1]));
		else if (!strcmp(argv[0], "policy"))
			nla_put_u32(m, EDGE_A_PLACE_POLICY,
				    enum_arg(argv[1], place_names,
					     "placement policy"));
		else
			bad_word(argv[0], place_words);
		argc -= 2;
		argv += 2;
	}
	c->each = place_each;
	c->arg = &p;
	json_begin();
	xfer(c, m);
	json_end();
	if (!p.got)
		die("%s", "no placement in the kernel's answer");
	fflush(stdout);
	if (cmd) {
		snprintf(buf, sizeof(buf), "/dev/edge%u", p.index);
		setenv("EDGE_DEV", buf, 1);
		snprintf(buf, sizeof(buf), "%" PRIu64, p.id);
		setenv("EDGE_PLACE_ID", buf, 1);
		/* Kept open across exec: it owns the reservation. */
		fd = nl_socket_get_fd(c->sk);
		fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) & ~FD_CLOEXEC);
		execvp(cmd[0], cmd);
		die("cannot run %s", cmd[0]);
	}
	if (hold) {
		sigset_t block, old;

		sigemptyset(&block);
		sigaddset(&block, SIGINT);
		sigaddset(&block, SIGTERM);
		sigprocmask(SIG_BLOCK, &block, &old);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		while (!place_stop)
			sigsuspend(&old);
		m = req(c, EDGE_CMD_PLACE_RELEASE, 0);
		nla_put_u64(m, EDGE_A_PLACE_ID, p.id);
		xfer(c, m);
	}
	return 0;
}

/*
 * Completion's knobs: the kernel's (knobs_get()), of the device named
 * after "dev" in @argv or else the first one; none when edge.ko is not
 * loaded or there is no device.
 */
static void complete_knobs(int argc, char **argv)
{
	static struct knobs k;
	uint32_t devs[65] = { 0 }, want = ~0U, dev;
	struct ctx c;
	int i;

	for (i = 0; i + 1 < argc; i++) {
		const char *d = argv[i + 1];
		char *end;

		if (strcmp(argv[i], "dev"))
			continue;
		if (!strncmp(d, "edge", 4))
			d += 4;
		want = strtoul(d, &end, 10);
		if (!*d || *end)
			want = ~0U;
	}
	if (ctx_try_open(&c))
		return;
	c.each = devs_each;
	c.arg = devs;
	xfer(&c, req(&c, EDGE_CMD_DEV_GET, NLM_F_DUMP));
	if (!devs[0])
		return;
	dev = devs[1];
	for (i = 0; i < (int)devs[0]; i++)
		if (devs[1 + i] == want)
			dev = want;
	knobs_get(&c, dev, &k);
	for (i = 0; i < k.n; i++)
		puts(k.name[i]);
}

/*
 * Bash completion (tools/edgectl/edgectl.bash): the words that may
 * follow @argv, from the keyword tables above and, after sched set or
 * param set, the kernel's knobs; one a line.
 */
static int complete(int argc, char **argv)
{
	const char * const *w = objects;
	const char *obj = argc ? argv[0] : "";
	const char *sub = argc > 1 ? argv[1] : "";
	bool sched = !strcmp(obj, "sched") || !strcmp(obj, "param");
	unsigned int i;

	if (argc >= 1) {
		w = NULL;
		if (!strcmp(obj, "dev"))
			w = argc == 1 ? dev_cmds :
			    !strcmp(sub, "add") ? dev_add_words :
			    !strcmp(sub, "set") ? dev_set_words : NULL;
		else if (!strcmp(obj, "ekt") || !strcmp(obj, "job") ||
			 !strcmp(obj, "stats"))
			w = argc == 1 ? show_cmds : NULL;
		else if (sched && argc == 1)
			w = sched_cmds;
		else if (!strcmp(obj, "place"))
			w = place_words;
		else if (!strcmp(obj, "monitor"))
			w = monitor_words;
		else if (!strcmp(obj, "top"))
			w = top_words;
		if (sched && !strcmp(sub, "set")) {
			for (i = 0; i < N_SCHED; i++)
				puts(attrs[sched_attrs[i]].name);
			fflush(stdout);
			complete_knobs(argc, argv);
			return 0;
		}
	}
	for (; w && *w; w++)
		puts(*w);
	return 0;
}

int main(int argc, char **argv)
{
	struct ctx c;
	long count = -1;
	int opt, i;

	while ((opt = getopt(argc, argv, "+jpshV")) != -1) {
		switch (opt) {
		case 'V':
			printf("edgectl: the edge generic netlink family, version %d\n",
			       EDGE_FAMILY_VERSION);
			return 0;
		case 'j':
			json = true;
			break;
		case 'p':
			pretty = true;
			break;
		case 's':
			show_stats = true;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (!argc)
		usage();
	if (!strcmp(argv[0], "help")) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (!strcmp(argv[0], "complete"))
		return complete(argc - 1, argv + 1);
	for (i = 0; objects[i] && strcmp(argv[0], objects[i]); i++)
		;
	if (!objects[i])
		bad_word(argv[0], objects);
	/* monitor and top are streams: JSON lines, never pretty. */
	if (json && (!strcmp(argv[0], "monitor") || !strcmp(argv[0], "top"))) {
		json_lines = true;
		pretty = false;
	}
	ctx_open(&c);
	if (!strcmp(argv[0], "dev"))
		return cmd_dev(&c, argc - 1, argv + 1);
	if (!strcmp(argv[0], "ekt"))
		return cmd_ekt(&c, argc - 1, argv + 1);
	if (!strcmp(argv[0], "stats"))
		return cmd_stats(&c, argc - 1, argv + 1);
	if (!strcmp(argv[0], "job"))
		return cmd_job(&c, argc - 1, argv + 1);
	/*
	 * param: the policies' knobs, sent as sched's are; shown one a
	 * line with their descriptors' ranges, defaults and help.
	 */
	if (!strcmp(argv[0], "sched") || !strcmp(argv[0], "param"))
		return cmd_sched(&c, argc - 1, argv + 1, argv[0][0] == 'p');
	if (!strcmp(argv[0], "place"))
		return cmd_place(&c, argc - 1, argv + 1);
	if (!strcmp(argv[0], "monitor") || !strcmp(argv[0], "top")) {
		bool top = argv[0][0] == 't';
		int onedev = -1;

		argc--;
		argv++;
		while (argc) {
			if (argc >= 2 && !strcmp(argv[0], "-n")) {
				count = number(argv[1]);
				argc -= 2;
				argv += 2;
			} else if (top && argc >= 2 && !strcmp(argv[0], "dev")) {
				onedev = dev_index(argv[1]);
				argc -= 2;
				argv += 2;
			} else {
				bad_word(argv[0], top ? top_words : monitor_words);
			}
		}
		return top ? cmd_top(&c, count, onedev) : cmd_monitor(&c, count);
	}
	bad_word(argv[0], objects);
	return 2;
}
