// SPDX-License-Identifier: GPL-2.0
/*
 * edge-bench: front-end latencies and throughput, measured in one run so
 * the numbers compare with each other (TCG timing moves between runs).
 *
 * The front end is measured twice: polling (a long idle window, so the
 * thread is spinning when the doorbell rings) and sleeping (idle window 0,
 * and each sample waits until the ring shows NEED_WAKEUP, so every
 * doorbell goes through the KICK and wake-up path).
 *
 * Throughput at depth 1 and 256 against a raw SPSC ring; at 256 both
 * unbatched (_unbatched) and as EDGE's batched event warps of 32
 * requests (the plain names, events_vs_raw_ring_ratio_depth_256).
 *
 * Then the cost of edge's tracepoints: the same throughput with every
 * event of tracefs' "edge" system enabled, against none, in turns.
 *
 * Last, the control plane: a netlink dev get (do) round trip.
 *
 * Prints name=value lines for scripts; all times in ns.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "libedge.h"
/* The kselftests' raw genetlink client: no library between us and it. */
#include "../../selftests/edge/edge_nl.h"

#define SAMPLES		2000
#define NULL_BATCH	1000
#define NULL_BATCHES	300
#define CLOCK_BATCHES	50
#define TPUT_EVENTS	200000
#define TPUT_RING	256

static const char *sysfs_idle = "/sys/class/edge/edge0/poll_idle_us";
static const char *sysfs_cpu = "/sys/class/edge/edge0/cpu";

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t pct(uint64_t *v, size_t n, unsigned int p)
{
	size_t i;

	qsort(v, n, sizeof(*v), cmp_u64);
	i = (n * p + 99) / 100;
	return v[i ? i - 1 : 0];
}

static void die(const char *what, int err)
{
	fprintf(stderr, "edge-bench: %s: %s\n", what, strerror(err));
	exit(1);
}

static void sysfs_write(const char *path, int v)
{
	FILE *f = fopen(path, "w");

	if (!f || fprintf(f, "%d\n", v) < 0 || fclose(f))
		die(path, errno);
}

static void set_idle(unsigned int us)
{
	sysfs_write(sysfs_idle, (int)us);
}

/* Front end on CPU 0, this producer on CPU 1: neither steals the other's. */
static void pin(void)
{
	cpu_set_t set;

	sysfs_write(sysfs_cpu, 0);
	CPU_ZERO(&set);
	CPU_SET(1, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity", errno);
}

static void wait_asleep(struct edge_queue *q)
{
	uint64_t end = now_ns() + 2000000000ULL;

	while (!(__atomic_load_n(q->sq_flags, __ATOMIC_ACQUIRE) &
		 EDGE_SQ_NEED_WAKEUP))
		if (now_ns() > end)
			die("front end never slept", ETIME);
}

/*
 * One event at a time: time from the doorbell store to the kernel's
 * consumer count passing it (dispatch), and to its completion status.
 */
static void latency(struct edge_queue *q, bool sleeping, uint64_t *disp,
		    uint64_t *done)
{
	struct edge_cqe cqe;
	unsigned int i;

	for (i = 0; i < SAMPLES; i++) {
		uint32_t *p = edge_queue_param(q);
		uint32_t want = q->tail + 1;
		uint64_t t0;

		if (sleeping)
			wait_asleep(q);
		p[0] = i;
		t0 = now_ns();
		edge_queue_submit(q, 1);
		while ((int32_t)(edge_queue_dispatched(q) - want) < 0)
			;
		disp[i] = now_ns() - t0;
		while (!edge_queue_peek(q, &cqe))
			;
		done[i] = now_ns() - t0;
		if (EDGE_CQE_CODE(cqe.status) != EDGE_CQE_DONE || cqe.res != i)
			die("wrong completion", EIO);
		edge_queue_cqe_seen(q);
	}
}

struct lat {
	uint64_t disp_p50, disp_p99, done_p50, done_p99;
};

static void report_latency(const char *mode, struct edge_queue *q,
			   bool sleeping, struct lat *l)
{
	static uint64_t disp[SAMPLES], done[SAMPLES];

	latency(q, sleeping, disp, done);
	l->disp_p50 = pct(disp, SAMPLES, 50);
	l->disp_p99 = pct(disp, SAMPLES, 99);
	l->done_p50 = pct(done, SAMPLES, 50);
	l->done_p99 = pct(done, SAMPLES, 99);
	printf("doorbell_dispatch_%s_p50_ns=%llu\n", mode,
	       (unsigned long long)l->disp_p50);
	printf("doorbell_dispatch_%s_p99_ns=%llu\n", mode,
	       (unsigned long long)l->disp_p99);
	printf("doorbell_complete_%s_p50_ns=%llu\n", mode,
	       (unsigned long long)l->done_p50);
	printf("doorbell_complete_%s_p99_ns=%llu\n", mode,
	       (unsigned long long)l->done_p99);
}

/* An unknown command: the syscall and the driver's dispatch, nothing else. */
static void null_ioctl(struct edge_dev *d)
{
	static uint64_t per_call[NULL_BATCHES];
	unsigned int b, i;

	for (b = 0; b < NULL_BATCHES; b++) {
		uint64_t t0 = now_ns();

		for (i = 0; i < NULL_BATCH; i++)
			if (ioctl(d->fd, _IO(EDGE_IOC_MAGIC, 0x7f), 0) != -1 ||
			    errno != ENOTTY)
				die("null ioctl", errno);
		per_call[b] = (now_ns() - t0) / NULL_BATCH;
	}
	printf("null_ioctl_p50_ns=%llu\n",
	       (unsigned long long)pct(per_call, NULL_BATCHES, 50));
	printf("null_ioctl_p99_ns=%llu\n",
	       (unsigned long long)pct(per_call, NULL_BATCHES, 99));
}

/*
 * What one now_ns() costs (each latency sample holds one): under TCG
 * the guest's clocksource may be an emulated HPET, read by a system call
 * (the vDSO cannot), and the front end reads the same clock.  The
 * clocksource's name goes out as a comment line.
 */
static void clock_read(void)
{
	static uint64_t per_call[CLOCK_BATCHES];
	char cs[32] = "";
	unsigned int b, i;
	FILE *f;

	f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		  "r");
	if (f) {
		if (!fgets(cs, sizeof(cs), f))
			cs[0] = 0;
		fclose(f);
	}
	printf("# clocksource %s%s", cs, strchr(cs, '\n') ? "" : "\n");
	for (b = 0; b < CLOCK_BATCHES; b++) {
		uint64_t t0 = now_ns(), x = 0;

		for (i = 0; i < NULL_BATCH; i++)
			x += now_ns();
		per_call[b] = (now_ns() - t0) / NULL_BATCH;
		if (!x)
			die("clock", EIO);
	}
	printf("clock_read_p50_ns=%llu\n",
	       (unsigned long long)pct(per_call, CLOCK_BATCHES, 50));
}

/* Requests per event warp of the batched depth-TPUT_RING run (EDGE's). */
#define TPUT_RPW	32

/*
 * Events/s through one entry, front end polling, with at most @depth
 * events in flight (TPUT_RING: the ring kept full; 1: ping-pong), @rpw
 * requests an event warp (1: unbatched).
 */
static double throughput_of(struct edge_dev *d, uint32_t events,
			    uint32_t depth, uint32_t rpw)
{
	struct edge_register reg;
	struct edge_queue q;
	struct edge_cqe cqe;
	uint32_t sent = 0, got = 0;
	uint64_t t0, t;
	int ret;

	edge_register_init(&reg, EDGE_FN_ECHO, 8, TPUT_RING, 1);
	if (rpw > 1) {
		reg.flags = EDGE_REGISTER_WARP_BATCH;
		reg.requests_per_warp = rpw;
	}
	ret = edge_queue_create(d, &reg, &q);
	if (ret)
		die("register", -ret);
	t0 = now_ns();
	while (got < events) {
		uint32_t n = 0, *p;

		while (sent + n < events && sent + n - got < depth &&
		       (p = edge_queue_param_ahead(&q, n))) {
			p[0] = sent + n;
			n++;
		}
		if (n) {
			edge_queue_submit(&q, n);
			sent += n;
		}
		while (edge_queue_peek(&q, &cqe)) {
			if (cqe.res != got)
				die("throughput order", EIO);
			edge_queue_cqe_seen(&q);
			got++;
		}
	}
	t = now_ns() - t0;
	edge_queue_destroy(&q);
	return events * 1e9 / t;
}

/* Unbatched at depth TPUT_RING is named so; the plain name is batched. */
static double throughput(struct edge_dev *d, uint32_t depth, uint32_t rpw)
{
	double r = throughput_of(d, TPUT_EVENTS, depth, rpw);

	printf("events_per_s_depth_%u%s=%.0f\n", depth,
	       depth == TPUT_RING && rpw == 1 ? "_unbatched" : "", r);
	return r;
}

static char tdir[64];

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* tracefs, mounted if need be; false when the kernel has none. */
static bool find_tracefs(void)
{
	if (is_dir("/sys/kernel/tracing") &&
	    (is_dir("/sys/kernel/tracing/events") ||
	     !mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL))) {
		strcpy(tdir, "/sys/kernel/tracing");
		return is_dir("/sys/kernel/tracing/events/edge");
	}
	return false;
}

static void tfs_write(const char *name, const char *val)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tdir, name);
	f = fopen(path, "we");
	if (!f || fputs(val, f) < 0 || fclose(f))
		die(path, errno);
}

#define TRACE_RUNS	"/sys/module/edge/parameters/trace_runs"

/* Write @val to the file @path: 0, or -1 when it cannot. */
static int sys_write(const char *path, const char *val)
{
	FILE *f = fopen(path, "we");

	if (!f)
		return -1;
	if (fputs(val, f) < 0) {
		fclose(f);
		return -1;
	}
	return fclose(f) ? -1 : 0;
}

/* Events the ring buffer took since the last clear, on every CPU. */
static unsigned long long trace_entries(void)
{
	unsigned long long sum = 0, v;
	char path[128], line[128];
	int cpu;

	for (cpu = 0; cpu < 64; cpu++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/stats", tdir, cpu);
		f = fopen(path, "re");
		if (!f)
			break;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "entries: %llu", &v) == 1 ||
			    sscanf(line, "overrun: %llu", &v) == 1)
				sum += v;
		fclose(f);
	}
	return sum;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

#define TRACE_TURNS	15
#define TRACE_EVENTS	20000

/*
 * Throughput with the events under @enable (a tracefs path under
 * events/edge/) on, against all off, in TRACE_TURNS adjacent pairs: the
 * median of the pairs' ratios (TCG's pace drifts within a run, and a
 * shared host's load more so; adjacent turns see the same).  *@per_event:
 * ring-buffer entries per event with them on.  Returns on/off.
 */
static double trace_ratio(struct edge_dev *d, const char *enable,
			  double *off_eps, double *per_event)
{
	double ratio[TRACE_TURNS], off, on;
	char path[128];
	int i;

	snprintf(path, sizeof(path), "events/edge/%s", enable);
	*off_eps = 0;
	for (i = 0; i < TRACE_TURNS; i++) {
		tfs_write("events/edge/enable", "0");
		off = throughput_of(d, TRACE_EVENTS, TPUT_RING, 1);
		tfs_write("trace", "");
		tfs_write(path, "1");
		on = throughput_of(d, TRACE_EVENTS, TPUT_RING, 1);
		tfs_write("events/edge/enable", "0");
		*per_event = (double)trace_entries() / TRACE_EVENTS;
		ratio[i] = on / off;
		*off_eps += off / TRACE_TURNS;
	}
	tfs_write("trace", "");
	qsort(ratio, TRACE_TURNS, sizeof(ratio[0]), cmp_double);
	return ratio[TRACE_TURNS / 2];
}

/*
 * What the tracepoints cost: the overhead with every event of the "edge"
 * system enabled, as edge.ko writes them by default (alike consecutive
 * events coalesced into runs), then with one entry an event, and what
 * bounds that, the cost of one ring-buffer entry against the front end's
 * cost of one event.  Each event of the path alone says where the total
 * goes.
 */
static void trace_overhead(struct edge_dev *d)
{
	static const char * const one[] = {
		"edge_doorbell", "edge_event_dispatch", "edge_tb_place",
		"edge_event_complete",
	};
	double r, off, k, ns_event;
	unsigned int i;
	char path[96];

	if (!find_tracefs()) {
		printf("# trace_overhead: no tracefs or no edge events\n");
		return;
	}
	r = trace_ratio(d, "enable", &off, &k);
	printf("trace_overhead_pct=%.1f\n", (1 - r) * 100);
	printf("trace_entries_per_event=%.2f\n", k);
	/*
	 * The same with one entry an event (edge.ko trace_runs=0): what a
	 * stream costs whose consecutive events never share a run, and
	 * what one entry costs, (1/on - 1/off) per entry.
	 */
	if (!sys_write(TRACE_RUNS, "0")) {
		r = trace_ratio(d, "enable", &off, &k);
		sys_write(TRACE_RUNS, "1");
		ns_event = 1e9 / off;
		printf("trace_overhead_per_event_pct=%.1f\n", (1 - r) * 100);
		printf("trace_per_event_entries_per_event=%.2f\n", k);
		printf("trace_off_ns_per_event=%.0f\n", ns_event);
		printf("trace_ns_per_trace_entry=%.0f\n",
		       (ns_event / r - ns_event) / k);
	}
	for (i = 0; i < sizeof(one) / sizeof(one[0]); i++) {
		snprintf(path, sizeof(path), "%s/enable", one[i]);
		r = trace_ratio(d, path, &off, &k);
		printf("trace_%s_overhead_pct=%.1f\n", one[i] + 5, (1 - r) * 100);
	}
	/* A control: an event that never fires here; the method's noise. */
	r = trace_ratio(d, "edge_policy/enable", &off, &k);
	printf("trace_control_overhead_pct=%.1f\n", (1 - r) * 100);
	/*
	 * What the ring buffer's timestamp costs: the same with trace_clock
	 * "counter" (an atomic increment, no clock read).  Under TCG the
	 * default clock is a clock read per entry; this line tells it apart
	 * from the rest of an entry's cost.  A diagnostic, not the headline:
	 * the default clock is what a tracer gets.
	 */
	tfs_write("trace_clock", "counter");
	r = trace_ratio(d, "enable", &off, &k);
	tfs_write("trace_clock", "local");
	printf("trace_overhead_counter_clock_pct=%.1f\n", (1 - r) * 100);
}

/*
 * The physical limit of throughput(): the same producer loop (as deep,
 * TPUT_EVENTS events, in-order completions checked) through a plain
 * shared-memory SPSC ring whose consumer thread, on the front end's CPU,
 * copies each parameter to a completion ring.  No kernel involved.  At
 * depth 1 the two threads ping-pong: the latency of a cache line's trip
 * between the vCPUs and back bounds both this and the front end.
 */
struct raw_ring {
	uint64_t sq[TPUT_RING];
	uint64_t cq[TPUT_RING];
	uint32_t sq_tail __attribute__((aligned(64)));
	uint32_t cq_tail __attribute__((aligned(64)));
	uint32_t stop __attribute__((aligned(64)));
};

static void *raw_consumer(void *arg)
{
	struct raw_ring *r = arg;
	uint32_t head = 0;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) {
		uint32_t tail = __atomic_load_n(&r->sq_tail, __ATOMIC_ACQUIRE);

		if (head == tail)
			continue;
		while (head != tail) {
			r->cq[head % TPUT_RING] = r->sq[head % TPUT_RING];
			head++;
		}
		__atomic_store_n(&r->cq_tail, head, __ATOMIC_RELEASE);
	}
	return NULL;
}

static double raw_ring_events_per_s(uint32_t depth)
{
	static struct raw_ring r;
	uint32_t sent = 0, got = 0;
	pthread_t th;
	uint64_t t0, t;

	memset(&r, 0, sizeof(r));
	if (pthread_create(&th, NULL, raw_consumer, &r))
		die("pthread_create", EAGAIN);
	t0 = now_ns();
	while (got < TPUT_EVENTS) {
		uint32_t ct;

		while (sent < TPUT_EVENTS && sent - got < depth) {
			r.sq[sent % TPUT_RING] = sent;
			sent++;
		}
		__atomic_store_n(&r.sq_tail, sent, __ATOMIC_RELEASE);
		ct = __atomic_load_n(&r.cq_tail, __ATOMIC_ACQUIRE);
		while (got != ct) {
			if (r.cq[got % TPUT_RING] != got)
				die("raw ring order", EIO);
			got++;
		}
	}
	t = now_ns() - t0;
	__atomic_store_n(&r.stop, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	return TPUT_EVENTS * 1e9 / t;
}

/*
 * What a doorbell's dispatch costs before the front end does anything:
 * a store seen by a thread spinning on the other vCPU and its answer
 * seen back, timed as latency() times a dispatch (one clock read in the
 * sample).  The raw ring's consumer, one event in flight, SAMPLES times.
 */
static void raw_ring_rtt(void)
{
	static uint64_t t[SAMPLES];
	static struct raw_ring r;
	pthread_t th;
	uint32_t i;

	memset(&r, 0, sizeof(r));
	if (pthread_create(&th, NULL, raw_consumer, &r))
		die("pthread_create", EAGAIN);
	for (i = 0; i < SAMPLES; i++) {
		uint64_t t0 = now_ns();

		r.sq[i % TPUT_RING] = i;
		__atomic_store_n(&r.sq_tail, i + 1, __ATOMIC_RELEASE);
		while (__atomic_load_n(&r.cq_tail, __ATOMIC_ACQUIRE) != i + 1)
			;
		t[i] = now_ns() - t0;
	}
	__atomic_store_n(&r.stop, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	printf("raw_ring_rtt_p50_ns=%llu\n",
	       (unsigned long long)pct(t, SAMPLES, 50));
	printf("raw_ring_rtt_p99_ns=%llu\n",
	       (unsigned long long)pct(t, SAMPLES, 99));
}

/* One dev get of edge0 through the "edge" family, SAMPLES times. */
static void netlink_dev_get(void)
{
	static uint64_t t[SAMPLES];
	struct enl_msg m;
	struct enl nl;
	int i, ret;

	ret = enl_open(&nl);
	if (ret) {
		if (nl.ext[0])
			fprintf(stderr, "edge-bench: %s\n", nl.ext);
		die("netlink", -ret);
	}
	for (i = 0; i < SAMPLES; i++) {
		uint64_t t0 = now_ns();

		enl_msg(&nl, &m, EDGE_CMD_DEV_GET, 0);
		enl_put_u32(&m, EDGE_A_DEV_INDEX, 0);
		ret = enl_do(&nl, &m, NULL, NULL);
		if (ret)
			die("netlink dev get", -ret);
		t[i] = now_ns() - t0;
	}
	enl_close(&nl);
	printf("netlink_dev_get_p50_ns=%llu\n",
	       (unsigned long long)pct(t, SAMPLES, 50));
	printf("netlink_dev_get_p99_ns=%llu\n",
	       (unsigned long long)pct(t, SAMPLES, 99));
}

int main(void)
{
	struct edge_register reg;
	struct lat poll, sleep;
	struct edge_queue q;
	struct edge_dev d;
	static const uint32_t depth[] = { 1, TPUT_RING };
	double tput[2], batched, raw;
	unsigned int i;
	int ret;

	ret = edge_open(&d, "/dev/edge0");
	if (ret)
		die("open /dev/edge0", -ret);
	pin();
	/* One model cycle: the front end's own cost dominates. */
	edge_register_init(&reg, EDGE_FN_ECHO, 8, 64, 1);
	ret = edge_queue_create(&d, &reg, &q);
	if (ret)
		die("register", -ret);

	set_idle(1000000);
	report_latency("poll", &q, false, &poll);
	set_idle(0);
	report_latency("sleep", &q, true, &sleep);
	printf("sleep_kicks=%llu\n", (unsigned long long)q.kicks);
	printf("dispatch_sleep_vs_poll_p50_ratio=%.2f\n",
	       (double)sleep.disp_p50 / poll.disp_p50);
	printf("complete_sleep_vs_poll_p50_ratio=%.2f\n",
	       (double)sleep.done_p50 / poll.done_p50);
	set_idle(1000000);
	null_ioctl(&d);
	clock_read();
	for (i = 0; i < 2; i++)
		tput[i] = throughput(&d, depth[i], 1);
	batched = throughput(&d, TPUT_RING, TPUT_RPW);
	printf("requests_per_warp_depth_%u=%u\n", TPUT_RING, TPUT_RPW);
	trace_overhead(&d);
	set_idle(1000);
	/* The front end asleep (1 ms idle), its CPU to the raw consumer. */
	usleep(50000);
	for (i = 0; i < 2; i++) {
		raw = raw_ring_events_per_s(depth[i]);
		printf("raw_ring_events_per_s_depth_%u=%.0f\n", depth[i], raw);
		/* Depth TPUT_RING: batched as EDGE's, unbatched beside it. */
		if (i) {
			printf("events_vs_raw_ring_ratio_depth_%u_unbatched=%.4f\n",
			       depth[i], tput[i] / raw);
			printf("events_vs_raw_ring_ratio_depth_%u=%.4f\n",
			       depth[i], batched / raw);
		} else {
			printf("events_vs_raw_ring_ratio_depth_%u=%.4f\n",
			       depth[i], tput[i] / raw);
		}
		/* Unsuffixed: depth 1, as make bench-host's headline. */
		if (i)
			continue;
		printf("events_per_s=%.0f\n", tput[i]);
		printf("raw_ring_events_per_s=%.0f\n", raw);
		printf("events_vs_raw_ring_ratio=%.4f\n", tput[i] / raw);
	}
	raw_ring_rtt();
	sysfs_write(sysfs_cpu, -1);
	edge_queue_destroy(&q);
	edge_close(&d);
	netlink_dev_get();
	return 0;
}
