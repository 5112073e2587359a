// SPDX-License-Identifier: GPL-2.0
/*
 * The tracepoints of edge.ko (drv/edge_trace.h), enabled through tracefs:
 * a run with events, warp-level preemptions, TB kernels and a burst of
 * jobs that LAX partly rejects, and the number of each trace event equal
 * to the module's own counters in sysfs (event dispatches and completions
 * come in runs: their n fields add up, each run where it belongs).  Virtual time, so the run is
 * the same at every boot.  SKIPs when the kernel has no tracefs, or
 * edge.ko was built without its tracepoints (EDGE_NO_TRACEPOINTS=1: only
 * edge_fault_test's fail-nth insmod uses such a build).
 */
#include "kselftest_harness.h"
#include "edge_selftest.h"
#include <sys/mount.h>

#define BG_TBS		(16 * 8)	/* 8 TBs of 256 threads fill a core */
#define NR_EVENTS	16
#define NR_JOBS		100

static char tdir[64];

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* tracefs, mounted if it is not; false when the kernel has none. */
static bool find_tracefs(void)
{
	if (is_dir("/sys/kernel/tracing/events") ||
	    (is_dir("/sys/kernel/tracing") &&
	     !mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) &&
	     is_dir("/sys/kernel/tracing/events"))) {
		strcpy(tdir, "/sys/kernel/tracing");
		return true;
	}
	if (is_dir("/sys/kernel/debug/tracing/events") ||
	    (is_dir("/sys/kernel/debug") &&
	     !mount("nodev", "/sys/kernel/debug", "debugfs", 0, NULL) &&
	     is_dir("/sys/kernel/debug/tracing/events"))) {
		strcpy(tdir, "/sys/kernel/debug/tracing");
		return true;
	}
	return false;
}

/* Write @val to the tracefs file @name: 0 or -errno. */
static int tfs_write(const char *name, const char *val)
{
	char path[160];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", tdir, name);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		ret = -errno;
	close(fd);
	return ret;
}

struct counts {
	long long doorbell, doorbell_n, dispatch, complete, complete_done;
	long long tb_place, preempt, preempt_ewarp, preempt_tb;
	long long admit, reject, done, met, policy, other_dev, lines;
	/* Trace entries of event runs, and runs that break the rules. */
	long long dispatch_runs, complete_runs, gaps, twice;
};

#define SEQS	4096		/* sequences tracked per entry: plenty */
#define EKTS	64		/* EKT ids (emul/limits.h) */

/*
 * The runs of entry @ekt's events (edge_trace.c): dispatch runs follow
 * each other in ring order (a run at 0 starts a new registration), and
 * no event completes twice.
 */
static long long next_seq[EKTS];
static uint8_t done[EKTS][SEQS / 8];

static void check_run(struct counts *c, bool dispatch, long long ekt,
		      long long seq, long long n)
{
	long long i;

	if (ekt < 0 || ekt >= EKTS || seq < 0 || n < 1 ||
	    seq + n > SEQS) {
		c->gaps++;
		return;
	}
	if (dispatch) {
		if (!seq) {
			memset(done[ekt], 0, sizeof(done[ekt]));
			next_seq[ekt] = 0;
		}
		c->gaps += seq != next_seq[ekt];
		next_seq[ekt] = seq + n;
		return;
	}
	for (i = seq; i < seq + n; i++) {
		c->twice += !!(done[ekt][i / 8] & (1 << (i % 8)));
		done[ekt][i / 8] |= 1 << (i % 8);
	}
}

/* Count the edge events in the trace buffer. */
static int count_trace(struct counts *c)
{
	char path[160], line[512];
	FILE *f;

	memset(c, 0, sizeof(*c));
	memset(next_seq, 0, sizeof(next_seq));
	memset(done, 0, sizeof(done));
	snprintf(path, sizeof(path), "%s/trace", tdir);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, ": edge_");
		const char *a;
		long long n;

		if (line[0] == '#' || !p)
			continue;
		c->lines++;
		a = strstr(p, "dev=");
		if (!a || strncmp(a, "dev=0 ", 6))
			c->other_dev++;
		if (!strncmp(p, ": edge_doorbell:", 16)) {
			c->doorbell++;
			c->doorbell_n += stat_value(p, "n");
		} else if (!strncmp(p, ": edge_event_dispatch:", 22)) {
			n = stat_value(p, "n");
			c->dispatch_runs++;
			c->dispatch += n;
			check_run(c, true, stat_value(p, "ekt"),
				  stat_value(p, "seq"), n);
		} else if (!strncmp(p, ": edge_event_complete:", 22)) {
			n = stat_value(p, "n");
			c->complete_runs++;
			c->complete += n;
			if (stat_value(p, "status") == EDGE_CQE_DONE)
				c->complete_done += n;
			check_run(c, false, stat_value(p, "ekt"),
				  stat_value(p, "seq"), n);
		} else if (!strncmp(p, ": edge_tb_place:", 16)) {
			c->tb_place++;
		} else if (!strncmp(p, ": edge_preempt:", 15)) {
			c->preempt++;
			c->preempt_ewarp += !!strstr(p, "reason=ewarp ");
			c->preempt_tb += !!strstr(p, "reason=tb ");
		} else if (!strncmp(p, ": edge_job_admit:", 17)) {
			c->admit++;
		} else if (!strncmp(p, ": edge_job_reject:", 18)) {
			c->reject++;
		} else if (!strncmp(p, ": edge_job_done:", 16)) {
			c->done++;
			c->met += !!strstr(p, " met ");
		} else if (!strncmp(p, ": edge_policy:", 14)) {
			c->policy++;
		}
	}
	fclose(f);
	return 0;
}

/* Loads, stalls and barriers enough that a flush is not free. */
static void background(struct edge_register *r)
{
	edge_register_init(r, EDGE_FN_NOP, 8, 2, 40000);
	r->grid_x = BG_TBS;
	r->block_x = 256;
	r->regs_per_thread = 32;
	r->ws.p_load = 700;
	r->ws.load_cycles = 1500;
}

/* Events on a full GPU, preempting with event warps (edge_simt_test). */
static void run_events(struct __test_metadata *_metadata, struct edge_dev *d)
{
	struct edge_register bg_reg, ev_reg;
	struct edge_queue bg, ev;
	struct edge_cqe cqe;
	unsigned int i;

	ASSERT_EQ(0, sched_write("sched/seed", "7"));
	ASSERT_EQ(0, sched_write("sched/policy", "preempt"));
	ASSERT_EQ(0, sched_write("sched/vt_hold", "1"));
	background(&bg_reg);
	ASSERT_EQ(0, edge_queue_create(d, &bg_reg, &bg));
	edge_register_init(&ev_reg, EDGE_FN_ECHO, 8, NR_EVENTS, 2300);
	ev_reg.regs_per_thread = 16;
	ev_reg.priority = 10;
	ASSERT_EQ(0, edge_queue_create(d, &ev_reg, &ev));
	*(uint32_t *)edge_queue_param(&bg) = 0;
	edge_queue_submit(&bg, 1);
	wait_dispatched(_metadata, &bg, 1);
	wait_placed(_metadata);
	for (i = 0; i < NR_EVENTS; i++)
		*(uint32_t *)edge_queue_param_ahead(&ev, i) = i;
	edge_queue_submit(&ev, NR_EVENTS);
	wait_dispatched(_metadata, &ev, NR_EVENTS);
	ASSERT_EQ(0, sched_write("sched/vt_hold", "0"));
	for (i = 0; i < NR_EVENTS; i++) {
		ASSERT_EQ(0, edge_queue_wait(&ev, &cqe, 10000));
		EXPECT_EQ(EDGE_CQE_DONE, EDGE_CQE_CODE(cqe.status));
		edge_queue_cqe_seen(&ev);
	}
	ASSERT_EQ(0, edge_queue_wait(&bg, &cqe, 10000));
	edge_queue_cqe_seen(&bg);
	ASSERT_EQ(0, edge_queue_destroy(&ev));
	ASSERT_EQ(0, edge_queue_destroy(&bg));
}

static int submit(int fd, uint32_t queue, uint64_t deadline_ns,
		  const uint32_t *kern, uint32_t n)
{
	struct edge_job j = {
		.size = sizeof(j),
		.queue = queue,
		.nr_kernels = n,
		.deadline_ns = deadline_ns,
		.kernels = (uintptr_t)kern,
	};

	return edge_ioc(fd, EDGE_IOC_SUBMIT_JOB, &j);
}

/* Reap @want job completions; the number reaped. */
static int reap_jobs(int fd, uint32_t want)
{
	uint64_t end = now_ns() + 20000000000ULL;
	struct edge_job_cqe c[64];
	uint32_t got = 0;

	while (got < want && now_ns() < end) {
		struct edge_reap_jobs r = {
			.size = sizeof(r),
			.nr = 64,
			.cqes = (uintptr_t)c,
		};

		if (edge_ioc(fd, EDGE_IOC_REAP_JOBS, &r))
			return -1;
		got += r.nr;
		if (!r.nr)
			sleep_ms(2);
	}
	return got;
}

/* A LAX burst most of which is rejected (edge_jobs_test), and back. */
static void run_jobs(struct __test_metadata *_metadata, int fd)
{
	struct edge_register r;
	uint32_t kern[10];
	char old[32];
	int i;

	edge_register_init(&r, EDGE_FN_NOP, 8, 4, 10 * CYCLES_PER_US);
	r.grid_x = 2 * BG_TBS;
	r.block_x = 256;
	ASSERT_EQ(0, edge_ioc(fd, EDGE_IOC_REGISTER_EVENT, &r));
	for (i = 0; i < 10; i++)
		kern[i] = r.id;
	ASSERT_EQ(0, edge_sysfs_str(0, "sched/queue_policy", old, sizeof(old)));
	old[strcspn(old, "\n")] = 0;
	ASSERT_STRNE("lax", old);
	ASSERT_EQ(0, sched_write("sched/queue_policy", "lax"));
	ASSERT_EQ(0, submit(fd, 0, 1000000000, kern, 10));
	ASSERT_EQ(1, reap_jobs(fd, 1));
	ASSERT_EQ(0, sched_write("sched/vt_hold", "1"));
	for (i = 0; i < NR_JOBS; i++)
		ASSERT_EQ(0, submit(fd, i, 200000, kern, 2));
	ASSERT_EQ(0, sched_write("sched/vt_hold", "0"));
	ASSERT_EQ(NR_JOBS, reap_jobs(fd, NR_JOBS));
	ASSERT_EQ(0, sched_write("sched/queue_policy", old));
}

TEST(tracepoints_count_as_sysfs)
{
	long long preemptions, tb_preemptions, tbs, events;
	char stats[4096], path[160];
	struct edge_dev d;
	struct counts c;

	if (geteuid())
		SKIP(return, "tracefs and insmod need root");
	if (!find_tracefs())
		SKIP(return, "no tracefs in this kernel (CONFIG_TRACING off): edge's tracepoints cannot be enabled");
	EDGE_SETUP_LOAD("virtual_time=1");
	if (is_dir("/sys/module/edge/sections") &&
	    access("/sys/module/edge/sections/_ftrace_events", F_OK)) {
		EXPECT_EQ(0, edge_module_unload(3000));
		SKIP(return, "edge.ko built without tracepoints (EDGE_NO_TRACEPOINTS=1: Kbuild says why)");
	}
	snprintf(path, sizeof(path), "%s/events/edge", tdir);
	ASSERT_TRUE(is_dir(path)) TH_LOG("%s: edge.ko has no trace events", path);
	ASSERT_EQ(0, tfs_write("tracing_on", "0"));
	ASSERT_EQ(0, tfs_write("buffer_size_kb", "8192"));
	ASSERT_EQ(0, tfs_write("trace", ""));
	ASSERT_EQ(0, tfs_write("events/edge/enable", "1"));
	ASSERT_EQ(0, tfs_write("tracing_on", "1"));

	ASSERT_EQ(0, edge_open(&d, EDGE_DEV0));
	run_events(_metadata, &d);
	/*
	 * The front end emits a step's runs of events before it lets go
	 * of the model lock, which this read takes: every event so far is
	 * in the trace now, with nothing else traced after it yet.
	 */
	events = edge_sysfs_read(0, "completed");
	ASSERT_EQ(0, count_trace(&c));
	EXPECT_EQ(NR_EVENTS + 1, events);
	EXPECT_EQ(events, c.complete);
	EXPECT_EQ(events, c.dispatch);
	run_jobs(_metadata, d.fd);
	edge_close(&d);

	ASSERT_EQ(0, tfs_write("tracing_on", "0"));
	ASSERT_EQ(0, tfs_write("events/edge/enable", "0"));
	ASSERT_EQ(0, count_trace(&c));
	ASSERT_EQ(0, edge_sysfs_str(0, "sched/stats", stats, sizeof(stats)));
	preemptions = stat_value(stats, "preemptions");
	tb_preemptions = stat_value(stats, "tb_preemptions");
	tbs = stat_value(stats, "tbs_dispatched");
	ksft_print_msg("%lld edge trace lines: %lld doorbells, %lld dispatched in %lld runs, %lld completed in %lld runs, %lld TBs, %lld preemptions, jobs %lld admitted %lld rejected %lld done (%lld met), %lld policy changes\n",
		       c.lines, c.doorbell, c.dispatch, c.dispatch_runs,
		       c.complete, c.complete_runs, c.tb_place, c.preempt,
		       c.admit, c.reject, c.done, c.met, c.policy);

	/* Each kind happened, so each equality below says something. */
	EXPECT_GT(c.doorbell, 0);
	EXPECT_GT(c.preempt_ewarp, 0);
	EXPECT_GT(c.reject, 0);
	EXPECT_GT(c.met, 0);
	EXPECT_EQ(0, c.other_dev);
	/*
	 * Runs: the 16 events of one doorbell were dispatched at one
	 * instant, so fewer entries than events; every run in ring order,
	 * no event completed twice (and the sums below: none missing).
	 */
	EXPECT_LT(c.dispatch_runs, c.dispatch);
	EXPECT_EQ(0, c.gaps);
	EXPECT_EQ(0, c.twice);
	EXPECT_EQ(edge_sysfs_read(0, "submitted"), c.dispatch);
	EXPECT_EQ(edge_sysfs_read(0, "submitted"), c.doorbell_n);
	EXPECT_EQ(edge_sysfs_read(0, "completed") +
		  edge_sysfs_read(0, "errors"), c.complete);
	EXPECT_EQ(edge_sysfs_read(0, "completed"), c.complete_done);
	EXPECT_EQ(tbs, c.tb_place);
	EXPECT_EQ(preemptions + tb_preemptions, c.preempt);
	EXPECT_EQ(preemptions, c.preempt_ewarp);
	EXPECT_EQ(tb_preemptions, c.preempt_tb);
	EXPECT_EQ(edge_sysfs_read(0, "jobs_rejected"), c.reject);
	EXPECT_EQ(edge_sysfs_read(0, "jobs_done"), c.done);
	EXPECT_EQ(edge_sysfs_read(0, "jobs_met"), c.met);
	/* No job was cancelled or dropped: every admitted one is done. */
	EXPECT_EQ(0, edge_sysfs_read(0, "jobs_cancelled"));
	EXPECT_EQ(edge_sysfs_read(0, "jobs_done"), c.admit);
	/* To LAX and back. */
	EXPECT_EQ(2, c.policy);

	ASSERT_EQ(0, tfs_write("trace", ""));
	EXPECT_EQ(0, edge_module_unload(3000));
}

/*
 * The trace of one entry's events: each event's due time from its
 * dispatch run (its arrival + the entry's deadline), and each completion
 * run's sequence numbers and latency, in order.
 */
#define LAT_SEQS	64
#define LAT_DEADLINE	10000000000ULL	/* the entry's deadline, ns */

struct lat_trace {
	uint64_t due[LAT_SEQS];
	int runs;
	long long seq[LAT_SEQS], n[LAT_SEQS];
	uint64_t lat[LAT_SEQS];
};

static int read_lat_trace(long long ekt, struct lat_trace *t)
{
	char path[160], line[512];
	FILE *f;

	memset(t, 0, sizeof(*t));
	snprintf(path, sizeof(path), "%s/trace", tdir);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		const char *d = strstr(line, ": edge_event_dispatch:");
		const char *c = strstr(line, ": edge_event_complete:");
		const char *p = d ? d : c;
		long long seq, n, i;

		if (line[0] == '#' || !p || stat_value(p, "ekt") != ekt)
			continue;
		seq = stat_value(p, "seq");
		n = stat_value(p, "n");
		if (seq < 0 || n < 1 || seq + n > LAT_SEQS)
			continue;
		if (d) {
			for (i = seq; i < seq + n; i++)
				t->due[i] = stat_value(p, "due_ns");
		} else if (t->runs < LAT_SEQS) {
			t->seq[t->runs] = seq;
			t->n[t->runs] = n;
			t->lat[t->runs++] = stat_value(p, "lat_ns");
		}
	}
	fclose(f);
	return 0;
}

/*
 * A completion run says one latency for its n events, so they must have
 * arrived together (they complete together, in one step).  Two doorbells
 * of one entry, rung at different model times, wait behind a background
 * of higher priority and complete at one instant: an event of each ends
 * in the same step, with different latencies, consecutive in the ring,
 * and their completions must stay two runs.  The arrivals come from the
 * dispatch trace (due = arrival + the entry's deadline), so a run that
 * merged them shows events of different due times.  Real time: virtual
 * time runs the whole background before a second doorbell can be rung
 * (seen), while in real time the background takes 0.5 s (100 waves of
 * 5 ms TBs) and the second doorbell rings once the second wave started.
 */
TEST(complete_runs_keep_each_latency)
{
	struct edge_register bg_reg, ev_reg;
	long long i, r, ekt, mixed = 0, split = 0;
	struct edge_queue bg, ev;
	struct lat_trace t;
	struct edge_cqe cqe;
	struct edge_dev d;
	char buf[2048];
	uint64_t end;

	if (geteuid())
		SKIP(return, "tracefs and insmod need root");
	if (!find_tracefs())
		SKIP(return, "no tracefs in this kernel (CONFIG_TRACING off): edge's tracepoints cannot be enabled");
	EDGE_SETUP_LOAD("virtual_time=0");
	ASSERT_EQ(0, tfs_write("tracing_on", "0"));
	ASSERT_EQ(0, tfs_write("trace", ""));
	ASSERT_EQ(0, tfs_write("events/edge/edge_event_dispatch/enable", "1"));
	ASSERT_EQ(0, tfs_write("events/edge/edge_event_complete/enable", "1"));
	ASSERT_EQ(0, tfs_write("tracing_on", "1"));
	ASSERT_EQ(0, edge_open(&d, EDGE_DEV0));
	ASSERT_EQ(0, sched_write("sched/policy", "drain"));
	/* 100 waves of TBs that fill the GPU, above the events' priority. */
	edge_register_init(&bg_reg, EDGE_FN_NOP, 8, 2, 5 * 1000 * CYCLES_PER_US);
	bg_reg.grid_x = 100 * BG_TBS;
	bg_reg.block_x = 256;
	bg_reg.priority = 5;
	ASSERT_EQ(0, edge_queue_create(&d, &bg_reg, &bg));
	edge_register_init(&ev_reg, EDGE_FN_ECHO, 8, 16, 2300);
	ev_reg.deadline_ns = LAT_DEADLINE;
	ASSERT_EQ(0, edge_queue_create(&d, &ev_reg, &ev));
	ekt = ev.id;
	*(uint32_t *)edge_queue_param(&bg) = 0;
	edge_queue_submit(&bg, 1);
	wait_dispatched(_metadata, &bg, 1);
	wait_placed(_metadata);
	for (i = 0; i < 16; i++)
		*(uint32_t *)edge_queue_param_ahead(&ev, i) = i;
	edge_queue_submit(&ev, 8);
	wait_dispatched(_metadata, &ev, 8);
	/* Model time moves: until the background's second wave starts. */
	end = now_ns() + 10000000000ULL;
	do {
		ASSERT_EQ(0, edge_sysfs_str(0, "sched/stats", buf, sizeof(buf)));
		ASSERT_LT(now_ns(), end);
		sleep_ms(1);
	} while (stat_value(buf, "tbs_dispatched") <= BG_TBS);
	edge_queue_submit(&ev, 8);
	wait_dispatched(_metadata, &ev, 16);
	for (i = 0; i < 16; i++) {
		ASSERT_EQ(0, edge_queue_wait(&ev, &cqe, 20000));
		EXPECT_EQ(EDGE_CQE_DONE, EDGE_CQE_CODE(cqe.status));
		edge_queue_cqe_seen(&ev);
	}
	ASSERT_EQ(0, edge_queue_wait(&bg, &cqe, 20000));
	edge_queue_cqe_seen(&bg);
	ASSERT_EQ(0, edge_queue_destroy(&ev));
	ASSERT_EQ(0, edge_queue_destroy(&bg));
	edge_close(&d);
	ASSERT_EQ(0, tfs_write("tracing_on", "0"));
	ASSERT_EQ(0, tfs_write("events/edge/enable", "0"));
	ASSERT_EQ(0, read_lat_trace(ekt, &t));
	ASSERT_EQ(0, tfs_write("trace", ""));

	for (r = 0; r < t.runs; r++) {
		for (i = t.seq[r] + 1; i < t.seq[r] + t.n[r]; i++)
			mixed += t.due[i] != t.due[t.seq[r]];
		ksft_print_msg("run %lld: seq %lld n %lld lat %llu due %llu\n",
			       r, t.seq[r], t.n[r], (unsigned long long)t.lat[r],
			       (unsigned long long)t.due[t.seq[r]]);
		/*
		 * The case that matters: this run and the one before it end
		 * at one instant (arrival + latency) from different arrivals.
		 */
		if (r && t.due[t.seq[r]] != t.due[t.seq[r - 1]] &&
		    t.due[t.seq[r]] + t.lat[r] ==
		    t.due[t.seq[r - 1]] + t.lat[r - 1])
			split++;
	}
	/* Every event completed, once, in the runs. */
	for (i = 0, r = 0; r < t.runs; r++)
		i += t.n[r];
	EXPECT_EQ(16, i);
	EXPECT_EQ(0, mixed);
	EXPECT_LT(0, split);
	EXPECT_EQ(0, edge_module_unload(3000));
}

EDGE_FINAL_CHECKS

EDGE_SELFTEST_MAIN
