// SPDX-License-Identifier: GPL-2.0
/*
 * The front end: one kernel thread per device that is the GPU's command
 * processor.  It polls doorbells while there is work, like io_uring's
 * SQPOLL thread, and after an idle window sleeps behind the NEED_WAKEUP
 * handshake.
 *
 * Batched event warps are gathered by the model (emul/model.c,
 * poll_batched()), which this thread steps: a partial warp's gather wait
 * is a model event like a completion, so the idle logic below sleeps
 * until it (real time) or jumps to it (virtual time), and a partial warp
 * does not count as a rung doorbell that keeps the thread awake.
 */
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/hrtimer.h>
#include <linux/sched/signal.h>
#include <linux/cpumask.h>
#include <linux/math64.h>

#include "edge_drv.h"

/* Model events per step: ~a few ms of work under TCG at most. */
#define EDGE_STEP_BUDGET	4096
/*
 * Idle steps between two looks at the clock for the idle window, and
 * between two drops of the model lock: under TCG the guest's clock is
 * an emulated HPET (microseconds a read), and an idle step that reads
 * nothing else takes well under a microsecond of model work.
 */
#define EDGE_IDLE_STEPS		16

/* Model time in real mode at ktime @kt.  Under ed->lock. */
static u64 frontend_model_time(struct edge_device *ed, u64 kt)
{
	u64 dt = kt - ed->ts_kt;

	if (ed->time_scale_pct == 100)
		return ed->ts_model + dt;
	return ed->ts_model + mul_u64_u32_div(dt, ed->time_scale_pct, 100);
}

/* Model time in real mode.  Under ed->lock. */
u64 edge_frontend_now(struct edge_device *ed)
{
	return frontend_model_time(ed, ktime_get_ns());
}

/*
 * Slow the model down (or speed it up) against the wall clock: under
 * TCG the host runs ~25x slower than the model's GPU would, and a scale
 * of 4 keeps their ratio.  Rebased at the current instant, so model time
 * stays monotonic.  Under ed->lock.
 */
void edge_frontend_set_scale(struct edge_device *ed, u32 pct)
{
	u64 now = edge_frontend_now(ed);

	ed->ts_kt = ktime_get_ns();
	ed->ts_model = now;
	ed->time_scale_pct = pct;
}

/*
 * Any context: wake_up() takes only the wait queue's irq-safe spinlock,
 * so a NIC's interrupt handler may ring and kick.
 */
void edge_frontend_kick(struct edge_device *ed)
{
	wake_up(&ed->wait);
}

/*
 * One step: dispatch what was rung and run what is due.  Real time moves
 * the model clock to ktime; virtual time jumps it to the next event, so a
 * run is as fast as the host and independent of it.  *@kt is set to the
 * step's ktime when the step read the clock (else left 0).
 */
static u32 frontend_step(struct edge_device *ed, u64 *kt)
{
	struct edge_model *m = &ed->model;
	u32 work = 0;

	if (!ed->virtual_time) {
		bool rung = edge_model_rung(m);

		/*
		 * Nothing rung and nothing timed: the model's time matters
		 * to nothing, so the clock is not read.  A doorbell rung
		 * since the look is taken at the next step.
		 */
		if (!rung && edge_model_next_time(m) == EDGE_TIME_NEVER)
			return 0;
		*kt = ktime_get_ns();
		edge_model_advance(m, frontend_model_time(ed, *kt));
		if (rung)
			work = edge_model_consume(m);
	} else {
		work = edge_model_consume(m);
	}
	/*
	 * Consumption and the scheduling pass apart, so that kernel queues
	 * are time-stamped when their entries were consumed (what a user
	 * producer sees as sq.head moving), not after the pass.  The pass
	 * and the run in one call: the events it starts may run in place.
	 * Bounded: the lock is dropped and the CPU yielded between steps.
	 */
	if (ed->virtual_time && READ_ONCE(ed->vt_hold)) {
		if (work) {
			edge_kapi_dispatched(ed);
			edge_model_schedule(m);
		}
	} else if (work) {
		edge_kapi_dispatched(ed);
		work += edge_model_schedule_run(m, ed->virtual_time,
						EDGE_STEP_BUDGET);
	} else if (ed->virtual_time) {
		work = edge_model_run_next(m, EDGE_STEP_BUDGET);
	} else {
		work = edge_model_run_budget(m, edge_model_now(m),
					     EDGE_STEP_BUDGET);
	}
	return work;
}

/*
 * Sleep until a doorbell is kicked, @timeout_ns passes (0: no timeout) or
 * the thread is stopped.  Called and returns with ed->lock held.
 *
 * The handshake is io_uring's: set NEED_WAKEUP in every ring, full
 * barrier, look at the doorbells once more, sleep.  A producer stores its
 * tail, issues a full barrier, then reads the flag: one of the two sides
 * always sees the other's store.
 */
static void frontend_sleep(struct edge_device *ed, u64 timeout_ns)
{
	DEFINE_WAIT(wait);
	bool woken = false;

	prepare_to_wait(&ed->wait, &wait, TASK_INTERRUPTIBLE);
	edge_model_set_sq_flags(&ed->model, EDGE_SQ_NEED_WAKEUP);
	/* Flag store before doorbell loads; pairs with libedge's fence. */
	smp_mb();
	if (!edge_model_doorbell_pending(&ed->model) &&
	    !kthread_should_stop()) {
		ed->sleeps++;
		mutex_unlock(&ed->lock);
		if (timeout_ns) {
			ktime_t to = ns_to_ktime(timeout_ns);

			woken = schedule_hrtimeout(&to, HRTIMER_MODE_REL);
		} else {
			schedule();
			woken = true;
		}
		mutex_lock(&ed->lock);
		if (woken)
			ed->wakeups++;
	}
	finish_wait(&ed->wait, &wait);
	edge_model_set_sq_flags(&ed->model, 0);
	/*
	 * Woken by a KICK, or kept awake by a doorbell: its producer may set
	 * no summary bit (uapi "Doorbell summary"), so poll them all.
	 */
	edge_model_rescan(&ed->model);
}

/*
 * An idle step at ktime @now: sleep once the idle window, counted from
 * *@idle_since, has passed.  Returns whether it slept (a new window
 * starts then).
 */
static bool frontend_idle(struct edge_device *ed, u64 now, u64 idle_since)
{
	u64 idle_ns = (u64)READ_ONCE(ed->poll_idle_us) * NSEC_PER_USEC;
	u64 next = edge_model_next_time(&ed->model);

	/* Held virtual time has nothing to run: idle. */
	if (ed->virtual_time && READ_ONCE(ed->vt_hold))
		next = EDGE_TIME_NEVER;
	if (next == EDGE_TIME_NEVER) {
		if (now - idle_since >= idle_ns) {
			frontend_sleep(ed, 0);
			return true;
		}
	} else if (!ed->virtual_time) {
		u64 wait = next - edge_model_now(&ed->model);

		/* Model ns to wall ns at the current scale. */
		if (ed->time_scale_pct != 100)
			wait = mul_u64_u32_div(wait, 100, ed->time_scale_pct);

		/* A far completion is no reason to spin. */
		if (wait > idle_ns && now - idle_since >= idle_ns) {
			frontend_sleep(ed, wait);
			return true;
		}
	}
	return false;
}

/*
 * The loop reads the clock at most once a step, and not at all in most
 * idle steps: a step that found work restarts the idle window, which is
 * looked at on the first idle step after work and then every
 * EDGE_IDLE_STEPS idle steps (at once when poll_idle_us is 0).  The
 * model lock is dropped, and the CPU offered, after every step that did
 * work and every EDGE_IDLE_STEPS idle ones, or when the scheduler asks.
 */
static int frontend_thread(void *data)
{
	struct edge_device *ed = data;
	u64 idle_since = 0;	/* ktime of the window's start; 0: none */
	u32 idle_steps = 0;

	mutex_lock(&ed->lock);
	while (!kthread_should_stop()) {
		u64 kt = 0;
		bool drop;
		u32 work = frontend_step(ed, &kt);

		/* The step's trace runs go out before anyone else steps. */
		edge_trace_flush(ed);
		if (work) {
			idle_since = 0;
			idle_steps = 0;
			drop = true;
		} else {
			drop = ++idle_steps >= EDGE_IDLE_STEPS;
			if (!idle_since || drop || !READ_ONCE(ed->poll_idle_us)) {
				if (!kt)
					kt = ktime_get_ns();
				if (!idle_since)
					idle_since = kt;
				if (frontend_idle(ed, kt, idle_since))
					idle_since = 0;
			}
			if (drop)
				idle_steps = 0;
		}
		/* Let ioctls take the model between steps. */
		if (drop || need_resched()) {
			mutex_unlock(&ed->lock);
			cond_resched();
			mutex_lock(&ed->lock);
		}
	}
	mutex_unlock(&ed->lock);
	return 0;
}

/*
 * Pin the front end, as SQPOLL's sq_thread_cpu does: a polling thread
 * that shares a CPU with its producer costs the producer its time slice.
 */
int edge_frontend_set_cpu(struct edge_device *ed, int cpu)
{
	const struct cpumask *mask;
	int ret;

	if (cpu < -1 || cpu >= (int)nr_cpu_ids || (cpu >= 0 && !cpu_online(cpu)))
		return -EINVAL;
	mask = cpu < 0 ? cpu_possible_mask : cpumask_of(cpu);
	ret = set_cpus_allowed_ptr(ed->thread, mask);
	if (!ret)
		WRITE_ONCE(ed->cpu, cpu);
	return ret;
}

int edge_frontend_start(struct edge_device *ed)
{
	struct task_struct *t;

	t = kthread_run(frontend_thread, ed, "edge%d-fe", ed->index);
	if (IS_ERR(t))
		return PTR_ERR(t);
	ed->thread = t;
	return 0;
}

void edge_frontend_stop(struct edge_device *ed)
{
	if (ed->thread)
		kthread_stop(ed->thread);
	ed->thread = NULL;
}
