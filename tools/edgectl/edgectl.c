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
 *   edgectl [-j] monitor [-n COUNT]
 *   edgectl top [-n ITERATIONS] [dev edgeN]
 *   edgectl [-j] place mem SIZE threads N blocks N [policy NAME]
 *                [hold | -- CMD [ARG]...]
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
#include <linux/netlink.h>
#include <linux/edge_netlink.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif
#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

enum kind { K_U32, K_S32, K_U64, K_STR, K_FLAG };

/* How each attribute prints: its name in output, its type. */
static const struct {
	const char *name;
	enum kind kind;
} attrs[EDGE_A_MAX + 1] = {
	[EDGE_A_DEV_INDEX] = { "index", K_U32 },
	[EDGE_A_DEV_NAME] = { "dev", K_STR },
	[EDGE_A_PRESET] = { "preset", K_STR },
	[EDGE_A_TIME_MODE] = { "time", K_U32 },
	[EDGE_A_EKT_USED] = { "ekt_used", K_U32 },
	[EDGE_A_POLL_IDLE_US] = { "poll_idle_us", K_U32 },
	[EDGE_A_TIME_SCALE_PCT] = { "time_scale_pct", K_U32 },
	[EDGE_A_CPU] = { "cpu", K_S32 },
	[EDGE_A_SUBMITTED] = { "submitted", K_U64 },
	[EDGE_A_COMPLETED] = { "completed", K_U64 },
	[EDGE_A_ERRORS] = { "errors", K_U64 },
	[EDGE_A_REJECTED] = { "rejected", K_U64 },
	[EDGE_A_CANCELLED] = { "cancelled", K_U64 },
	[EDGE_A_LATE] = { "late", K_U64 },
	[EDGE_A_INFLIGHT] = { "inflight", K_U32 },
	[EDGE_A_JOBS_SUBMITTED] = { "jobs_submitted", K_U64 },
	[EDGE_A_JOBS_DONE] = { "jobs_done", K_U64 },
	[EDGE_A_JOBS_MET] = { "jobs_met", K_U64 },
	[EDGE_A_JOBS_REJECTED] = { "jobs_rejected", K_U64 },
	[EDGE_A_JOBS_CANCELLED] = { "jobs_cancelled", K_U64 },
	[EDGE_A_EKT_ID] = { "id", K_U32 },
	[EDGE_A_EKT_OWNER_PID] = { "pid", K_U32 },
	[EDGE_A_EKT_FUNC] = { "func", K_U32 },
	[EDGE_A_EKT_GRID_X] = { "grid_x", K_U32 },
	[EDGE_A_EKT_GRID_Y] = { "grid_y", K_U32 },
	[EDGE_A_EKT_GRID_Z] = { "grid_z", K_U32 },
	[EDGE_A_EKT_BLOCK_X] = { "block_x", K_U32 },
	[EDGE_A_EKT_BLOCK_Y] = { "block_y", K_U32 },
	[EDGE_A_EKT_BLOCK_Z] = { "block_z", K_U32 },
	[EDGE_A_EKT_PRIORITY] = { "prio", K_U32 },
	[EDGE_A_EKT_DEADLINE_NS] = { "deadline_ns", K_U64 },
	[EDGE_A_EKT_RING_ENTRIES] = { "ring", K_U32 },
	[EDGE_A_EKT_SUBMITTED] = { "submitted", K_U64 },
	[EDGE_A_EKT_COMPLETED] = { "completed", K_U64 },
	[EDGE_A_EKT_CANCELLED] = { "cancelled", K_U64 },
	[EDGE_A_EKT_INFLIGHT] = { "inflight", K_U32 },
	[EDGE_A_EKT_KERNEL] = { "kernel", K_FLAG },
	[EDGE_A_SCHED_POLICY] = { "policy", K_STR },
	[EDGE_A_SCHED_VICTIM] = { "victim", K_STR },
	[EDGE_A_SCHED_FLUSH] = { "flush", K_U32 },
	[EDGE_A_SCHED_RESERVE_PCT] = { "reserve_pct", K_U32 },
	[EDGE_A_SCHED_DISPATCH_CYCLES] = { "dispatch_cycles", K_U32 },
	[EDGE_A_SCHED_WAIT_CYCLES] = { "sched_wait_cycles", K_U32 },
	[EDGE_A_SCHED_CTX_BYTES_PER_CYCLE] = { "ctx_bytes_per_cycle", K_U32 },
	[EDGE_A_SCHED_SKIP_EVENT_EXEC] = { "skip_event_exec", K_U32 },
	[EDGE_A_SCHED_SEED] = { "seed", K_U64 },
	[EDGE_A_QUEUE_POLICY] = { "queue", K_STR },
	[EDGE_A_CP_PARSE_NS] = { "parse_ns", K_U32 },
	[EDGE_A_CP_HOST_NS] = { "host_ns", K_U32 },
	[EDGE_A_CP_PROFILE_NS] = { "profile_ns", K_U32 },
	[EDGE_A_TB_POLICY] = { "tb_policy", K_STR },
	[EDGE_A_JOB_ID] = { "job", K_U64 },
	[EDGE_A_JOB_OWNER_PID] = { "pid", K_U32 },
	[EDGE_A_JOB_QUEUE] = { "queue", K_U32 },
	[EDGE_A_JOB_STATE] = { "state", K_U32 },
	[EDGE_A_JOB_DEADLINE_NS] = { "deadline_ns", K_U64 },
	[EDGE_A_JOB_AGE_NS] = { "age_ns", K_U64 },
	[EDGE_A_JOB_KERNELS] = { "kernels", K_U32 },
	[EDGE_A_JOB_LAUNCHED] = { "launched", K_U32 },
	[EDGE_A_MEM_TOTAL] = { "mem_total", K_U64 },
	[EDGE_A_MEM_USED] = { "mem_used", K_U64 },
	[EDGE_A_MEM_PEAK] = { "mem_peak", K_U64 },
	[EDGE_A_MEM_OOM] = { "mem_oom", K_U64 },
	[EDGE_A_MEM_RESERVATIONS] = { "reservations", K_U32 },
	[EDGE_A_PLACE_MEM] = { "mem", K_U64 },
	[EDGE_A_PLACE_THREADS] = { "threads", K_U32 },
	[EDGE_A_PLACE_BLOCKS] = { "blocks", K_U32 },
	[EDGE_A_PLACE_POLICY] = { "policy", K_STR },
	[EDGE_A_PLACE_ID] = { "place_id", K_U64 },
	[EDGE_A_JOB_LATENCY_NS] = { "latency_ns", K_U64 },
	[EDGE_A_PREEMPTIONS] = { "preemptions", K_U64 },
	[EDGE_A_TB_PREEMPTIONS] = { "tb_preemptions", K_U64 },
	[EDGE_A_SUMMARY_NS] = { "interval_ns", K_U64 },
	[EDGE_A_SUMMARY_PREEMPTIONS] = { "interval_preemptions", K_U64 },
	[EDGE_A_SUMMARY_TB_PREEMPTIONS] = { "interval_tb_preemptions", K_U64 },
	[EDGE_A_EKT_DROPPED] = { "dropped", K_U64 },
	/* EDGE_A_EKT_LAT_HIST: not printed; edgectl top reads it. */
};

/* sched set's words: attribute, and whether it takes a name. */
static const struct {
	const char *word;
	int attr;
	bool str;
} sched_words[] = {
	{ "policy", EDGE_A_SCHED_POLICY, true },
	{ "victim", EDGE_A_SCHED_VICTIM, true },
	{ "queue", EDGE_A_QUEUE_POLICY, true },
	{ "tb", EDGE_A_TB_POLICY, true },
	{ "flush", EDGE_A_SCHED_FLUSH, false },
	{ "reserve_pct", EDGE_A_SCHED_RESERVE_PCT, false },
	{ "dispatch_cycles", EDGE_A_SCHED_DISPATCH_CYCLES, false },
	{ "sched_wait_cycles", EDGE_A_SCHED_WAIT_CYCLES, false },
	{ "ctx_bytes_per_cycle", EDGE_A_SCHED_CTX_BYTES_PER_CYCLE, false },
	{ "skip_event_exec", EDGE_A_SCHED_SKIP_EVENT_EXEC, false },
	{ "parse_ns", EDGE_A_CP_PARSE_NS, false },
	{ "host_ns", EDGE_A_CP_HOST_NS, false },
	{ "profile_ns", EDGE_A_CP_PROFILE_NS, false },
};

static const char * const ntf_names[] = {
	[EDGE_CMD_DEV_ADD_NTF] = "dev add",
	[EDGE_CMD_DEV_DEL_NTF] = "dev del",
	[EDGE_CMD_EKT_REG_NTF] = "ekt reg",
	[EDGE_CMD_EKT_UNREG_NTF] = "ekt unreg",
	[EDGE_CMD_POLICY_NTF] = "policy",
	[EDGE_CMD_JOB_REJECT_NTF] = "job rejected",
	[EDGE_CMD_JOB_LATE_NTF] = "job late",
	[EDGE_CMD_JOB_DROP_NTF] = "job dropped",
	[EDGE_CMD_PREEMPT_NTF] = "preemptions",
	[EDGE_CMD_EKT_DROP_NTF] = "ekt dropped",
};

static bool json, pretty, show_stats;
static struct nlmsghdr *cur_msg;	/* the message print_obj() prints */
static int nobjs;		/* objects printed in the JSON array */

struct ctx {
	struct nl_sock *sk;
	int family;
	int err;		/* the kernel's errno, negative */
	char msg[256];		/* and its extack message */
	/* What a callback collects (top): one message's attributes. */
	struct nlattr *tb[EDGE_A_MAX + 1];
	void (*each)(struct ctx *c, uint8_t cmd, struct nlattr **tb);
	void *arg;
	struct nlmsghdr *cur;	/* the message @each is called for */
	bool done;		/* the ack, the dump's end or an error came */
};

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "edgectl: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(1);
}

static void usage(void)
{
	fputs("usage: edgectl [-j [-p]] [-s] OBJECT COMMAND [ARGS]\n"
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
	      "  param set dev edgeN KNOB N [KNOB N]...   (param show: sched show)\n"
	      "  monitor [-n COUNT]\n"
	      "  top [-n ITERATIONS] [dev edgeN]\n"
	      "  place mem SIZE[K|M|G] threads N blocks N [policy sa|cg|mgb-alg2|mgb-alg3]\n"
	      "        [hold | -- CMD [ARG]...]\n", stderr);
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

static void print_value(int t, struct nlattr *a)
{
	switch (attrs[t].kind) {
	case K_U32:
		if (t == EDGE_A_TIME_MODE) {
			const char *m = nla_get_u32(a) == EDGE_NL_TIME_VIRTUAL ?
					"virtual" : "real";

			if (json)
				json_str(m);
			else
				fputs(m, stdout);
			break;
		}
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
		if (nla_type(a) != EDGE_A_POLICY_PARAM ||
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
		printf("%s%s{", nobjs++ ? "," : "", pretty ? "\n  " : "");
		if (what) {
			printf("\"event\":");
			json_str(what);
			first = false;
		}
	} else if (what) {
		printf("[%s] ", what);
	}
	for (t = 1; t <= EDGE_A_MAX; t++) {
		if (!tb[t] || !attrs[t].name)
			continue;
		if (!stats && t >= EDGE_A_SUBMITTED && t <= EDGE_A_JOBS_CANCELLED)
			continue;
		if (json) {
			printf("%s%s\"%s\":", first ? "" : ",",
			       pretty ? "\n    " : "", attrs[t].name);
			print_value(t, tb[t]);
		} else if (t == EDGE_A_DEV_NAME) {
			print_value(t, tb[t]);
			putchar(':');
		} else if (t != EDGE_A_DEV_INDEX || !tb[EDGE_A_DEV_NAME]) {
			printf(" %s", attrs[t].name);
			if (attrs[t].kind != K_FLAG) {
				putchar(' ');
				print_value(t, tb[t]);
			}
		}
		first = false;
	}
	if (tb[EDGE_A_POLICY_PARAM])
		print_params(first);
	if (json)
		printf("%s}", pretty ? "\n  " : "");
	else
		putchar('\n');
	fflush(stdout);
}

static int parse(struct nl_msg *msg, struct nlattr **tb, uint8_t *cmd)
{
	struct genlmsghdr *g = nlmsg_data(nlmsg_hdr(msg));

	*cmd = g->cmd;
	cur_msg = nlmsg_hdr(msg);
	return nla_parse(tb, EDGE_A_MAX, genlmsg_attrdata(g, 0),
			 genlmsg_attrlen(g, 0), NULL);
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

/* The errno and extack message of an NLMSG_ERROR. */
static int error_cb(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct nlmsghdr *h = (struct nlmsghdr *)e - 1;
	struct ctx *c = arg;
	struct nlattr *a;
	int len;

	c->err = e->error;
	c->msg[0] = 0;
	c->done = true;
	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
		return NL_STOP;
	a = (struct nlattr *)((char *)e + sizeof(*e) +
			      ((h->nlmsg_flags & NLM_F_CAPPED) ? 0 :
			       NLMSG_ALIGN(e->msg.nlmsg_len - NLMSG_HDRLEN)));
	len = (char *)h + h->nlmsg_len - (char *)a;
	for (; nla_ok(a, len); a = nla_next(a, &len))
		if (nla_type(a) == NLMSGERR_ATTR_MSG)
			snprintf(c->msg, sizeof(c->msg), "%s",
				 (char *)nla_data(a));
	return NL_STOP;
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
	struct nlattr *a;
	int len, err;

	c->done = true;
	if (h->nlmsg_type != NLMSG_DONE ||
	    h->nlmsg_len < NLMSG_HDRLEN + sizeof(int))
		return NL_STOP;
	memcpy(&err, nlmsg_data(h), sizeof(err));
	if (err >= 0)
		return NL_STOP;
	c->err = err;
	c->msg[0] = 0;
	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
		return NL_STOP;
	a = (struct nlattr *)((char *)nlmsg_data(h) + NLMSG_ALIGN(sizeof(int)));
	len = (char *)h + h->nlmsg_len - (char *)a;
	for (; nla_ok(a, len); a = nla_next(a, &len))
		if (nla_type(a) == NLMSGERR_ATTR_MSG)
			snprintf(c->msg, sizeof(c->msg), "%s",
				 (char *)nla_data(a));
	return NL_STOP;
}

static void ctx_open(struct ctx *c)
{
	int one = 1;

	memset(c, 0, sizeof(*c));
	c->sk = nl_socket_alloc();
	if (!c->sk || genl_connect(c->sk))
		die("%s", "cannot open a generic netlink socket");
	setsockopt(nl_socket_get_fd(c->sk), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	c->family = genl_ctrl_resolve(c->sk, EDGE_FAMILY_NAME);
	if (c->family < 0)
		die("%s", "no \"edge\" netlink family: is edge.ko loaded?");
	nl_socket_modify_cb(c->sk, NL_CB_VALID, NL_CB_CUSTOM, valid_cb, c);
	nl_socket_modify_cb(c->sk, NL_CB_ACK, NL_CB_CUSTOM, end_cb, c);
	nl_socket_modify_cb(c->sk, NL_CB_FINISH, NL_CB_CUSTOM, end_cb, c);
	nl_socket_modify_err_cb(c->sk, NL_CB_CUSTOM, error_cb, c);
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

static int xfer(struct ctx *c, struct nl_msg *m)
{
	int ret;

	c->err = 0;
	c->done = false;
	/* nl_send_auto() asks for an ack: a do ends with it. */
	ret = nl_send_auto(c->sk, m);
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
		fprintf(stderr, "edgectl: %s%s%s\n", strerror(-c->err),
			c->msg[0] ? ": " : "", c->msg);
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
	struct genlmsghdr *g = nlmsg_data(h);

	if (nla_parse(tb, EDGE_A_MAX, genlmsg_attrdata(g, 0),
		      genlmsg_attrlen(g, 0), NULL))
		memset(tb, 0, sizeof(*tb) * (EDGE_A_MAX + 1));
}

/* -s: each device with its counters, as one object. */
static void dev_show_stats(struct ctx *c, struct coll *devs)
{
	struct nlattr *tb[EDGE_A_MAX + 1], *st[EDGE_A_MAX + 1];
	struct coll stats;
	int i, t;

	for (i = 0; i < devs->n; i++) {
		struct nl_msg *m;

		parse_hdr(devs->h[i], tb);
		memset(&stats, 0, sizeof(stats));
		c->arg = &stats;
		m = req(c, EDGE_CMD_STATS_GET, 0);
		nla_put_u32(m, EDGE_A_DEV_INDEX,
			    nla_get_u32(tb[EDGE_A_DEV_INDEX]));
		xfer(c, m);
		if (stats.n) {
			parse_hdr(stats.h[0], st);
			for (t = EDGE_A_SUBMITTED; t <= EDGE_A_JOBS_CANCELLED; t++)
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
				struct nlattr *tb[EDGE_A_MAX + 1];

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
				nla_put_u32(m, EDGE_A_TIME_MODE,
					    argv[0][0] == 'v' ?
					    EDGE_NL_TIME_VIRTUAL : EDGE_NL_TIME_REAL);
				argc--;
				argv++;
			} else if (argc >= 2 && !strcmp(argv[0], "preset")) {
				nla_put_string(m, EDGE_A_PRESET, argv[1]);
				argc -= 2;
				argv += 2;
			} else if (argc >= 2 && !strcmp(argv[0], "index")) {
				nla_put_u32(m, EDGE_A_DEV_INDEX, dev_index(argv[1]));
				argc -= 2;
				argv += 2;
			} else {
				usage();
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
				nla_put_u32(m, EDGE_A_POLL_IDLE_US, number(argv[1]));
			else if (!strcmp(argv[0], "time_scale_pct"))
				nla_put_u32(m, EDGE_A_TIME_SCALE_PCT, number(argv[1]));
			else if (!strcmp(argv[0], "cpu"))
				nla_put_u32(m, EDGE_A_CPU, (uint32_t)atoi(argv[1]));
			else
				usage();
		}
		if (argc)
			usage();
		return xfer(c, m);
	}
	usage();
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
	nla_put_u32(m, EDGE_A_DEV_INDEX, dev_arg(&argc, &argv));
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

static int cmd_sched(struct ctx *c, int argc, char **argv)
{
	const char *sub = argc ? argv[0] : "show";
	struct nl_msg *m;
	unsigned int i;

	if (argc) {
		argc--;
		argv++;
	}
	if (!strcmp(sub, "show"))
		return show_dev(c, argc, argv, EDGE_CMD_SCHED_GET, 0);
	if (strcmp(sub, "set"))
		usage();
	m = req(c, EDGE_CMD_SCHED_SET, 0);
	nla_put_u32(m, EDGE_A_DEV_INDEX, dev_arg(&argc, &argv));
	if (!argc)
		usage();
	for (; argc >= 2; argc -= 2, argv += 2) {
		for (i = 0; i < sizeof(sched_words) / sizeof(sched_words[0]); i++)
			if (!strcmp(argv[0], sched_words[i].word))
				break;
		if (i == sizeof(sched_words) / sizeof(sched_words[0])) {
			/* Not the SIMT's nor the CP's: a policy's knob. */
			struct nlattr *n = nla_nest_start(m, EDGE_A_POLICY_PARAM |
							  NLA_F_NESTED);

			nla_put_string(m, EDGE_A_POLICY_PARAM_NAME, argv[0]);
			nla_put_u64(m, EDGE_A_POLICY_PARAM_VALUE, number64(argv[1]));
			nla_nest_end(m, n);
			continue;
		}
		if (sched_words[i].str)
			nla_put_string(m, sched_words[i].attr, argv[1]);
		else
			nla_put_u32(m, sched_words[i].attr, number(argv[1]));
	}
	if (argc)
		usage();
	return xfer(c, m);
}

static int monitor_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[EDGE_A_MAX + 1];
	long *left = arg;
	uint8_t cmd;

	if (parse(msg, tb, &cmd))
		return NL_SKIP;
	print_obj(cmd < sizeof(ntf_names) / sizeof(ntf_names[0]) &&
		  ntf_names[cmd] ? ntf_names[cmd] : "unknown", tb,
		  cmd == EDGE_CMD_DEV_DEL_NTF);
	if (*left > 0 && !--*left)
		return NL_STOP;
	return NL_OK;
}

static int cmd_monitor(struct ctx *c, long count)
{
	int grp = genl_ctrl_resolve_grp(c->sk, EDGE_FAMILY_NAME,
					EDGE_MCGRP_MONITOR);
	int ret;

	if (grp < 0)
		die("%s", "no monitor group");
	nl_socket_disable_seq_check(c->sk);
	nl_socket_modify_cb(c->sk, NL_CB_VALID, NL_CB_CUSTOM, monitor_cb,
			    &count);
	if (nl_socket_add_membership(c->sk, grp))
		die("%s", "cannot join the monitor group");
	json_begin();
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
	json_end();
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

	if (s->n >= TOP_MAX || !tb[EDGE_A_EKT_ID])
		return;
	r = &s->now[s->n++];
	r->used = true;
	r->dev = nla_get_u32(tb[EDGE_A_DEV_INDEX]);
	r->id = nla_get_u32(tb[EDGE_A_EKT_ID]);
	r->submitted = nla_get_u64(tb[EDGE_A_EKT_SUBMITTED]);
	r->completed = nla_get_u64(tb[EDGE_A_EKT_COMPLETED]);
	r->cancelled = nla_get_u64(tb[EDGE_A_EKT_CANCELLED]);
	r->inflight = nla_get_u32(tb[EDGE_A_EKT_INFLIGHT]);
	r->pid = tb[EDGE_A_EKT_OWNER_PID] ?
		 nla_get_u32(tb[EDGE_A_EKT_OWNER_PID]) : 0;
	/* An older module has no histogram: no percentiles then. */
	if (tb[EDGE_A_EKT_LAT_HIST] &&
	    nla_len(tb[EDGE_A_EKT_LAT_HIST]) == sizeof(r->hist))
		memcpy(r->hist, nla_data(tb[EDGE_A_EKT_LAT_HIST]),
		       sizeof(r->hist));
}

static void top_stats_each(struct ctx *c, uint8_t cmd, struct nlattr **tb)
{
	struct top_state *s = c->arg;
	uint32_t d;

	if (!tb[EDGE_A_DEV_INDEX] || !tb[EDGE_A_PREEMPTIONS])
		return;
	d = nla_get_u32(tb[EDGE_A_DEV_INDEX]);
	if (d >= 64)
		return;
	s->dnow[d].preempt = nla_get_u64(tb[EDGE_A_PREEMPTIONS]);
	s->dnow[d].tb_preempt = nla_get_u64(tb[EDGE_A_TB_PREEMPTIONS]);
	s->dnow[d].seen = true;
}

static void devs_each(struct ctx *c, uint8_t cmd, struct nlattr **tb)
{
	uint32_t *list = c->arg;

	if (tb[EDGE_A_DEV_INDEX] && list[0] < 64)
		list[1 + list[0]++] = nla_get_u32(tb[EDGE_A_DEV_INDEX]);
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
			nla_put_u32(m, EDGE_A_DEV_INDEX, devs[1 + d]);
			xfer(c, m);
			c->each = top_stats_each;
			m = req(c, EDGE_CMD_STATS_GET, 0);
			nla_put_u32(m, EDGE_A_DEV_INDEX, devs[1 + d]);
			xfer(c, m);
		}
		if (iters < 0)
			printf("\033[H\033[J");
		printf("edgectl top: %u device(s), %d entries%s\n", devs[0], s.n,
		       it ? ", last second" : ", since registration");
		for (d = 0; d < (int)devs[0]; d++)
			top_print_dev(&s, devs[1 + d], it > 0);
		printf("%-7s %4s %7s %10s %12s %10s %8s %8s %8s\n", "dev", "id",
		       "pid", "events/s", "completed", "cancelled", "inflight",
		       "p50", "p99");
		for (i = 0; i < s.n; i++)
			top_print_row(&s, &s.now[i], it > 0);
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

	if (!tb[EDGE_A_DEV_INDEX] || !tb[EDGE_A_PLACE_ID])
		return;
	p->index = nla_get_u32(tb[EDGE_A_DEV_INDEX]);
	p->id = nla_get_u64(tb[EDGE_A_PLACE_ID]);
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
			usage();
		if (!strcmp(argv[0], "mem"))
			nla_put_u64(m, EDGE_A_PLACE_MEM, size_arg(argv[1]));
		else if (!strcmp(argv[0], "threads"))
			nla_put_u32(m, EDGE_A_PLACE_THREADS, number(argv[1]));
		else if (!strcmp(argv[0], "blocks"))
			nla_put_u32(m, EDGE_A_PLACE_BLOCKS, number(argv[1]));
		else if (!strcmp(argv[0], "policy"))
			nla_put_string(m, EDGE_A_PLACE_POLICY, argv[1]);
		else
			usage();
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

int main(int argc, char **argv)
{
	struct ctx c;
	long count = -1;
	int opt;

	while ((opt = getopt(argc, argv, "+jpsh")) != -1) {
		switch (opt) {
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
	ctx_open(&c);
	if (!strcmp(argv[0], "dev"))
		return cmd_dev(&c, argc - 1, argv + 1);
	if (!strcmp(argv[0], "ekt"))
		return cmd_ekt(&c, argc - 1, argv + 1);
	if (!strcmp(argv[0], "stats"))
		return cmd_stats(&c, argc - 1, argv + 1);
	if (!strcmp(argv[0], "job"))
		return cmd_job(&c, argc - 1, argv + 1);
	/* param: the policies' knobs, sent and shown as sched's are. */
	if (!strcmp(argv[0], "sched") || !strcmp(argv[0], "param"))
		return cmd_sched(&c, argc - 1, argv + 1);
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
				usage();
			}
		}
		return top ? cmd_top(&c, count, onedev) : cmd_monitor(&c, count);
	}
	usage();
	return 2;
}
