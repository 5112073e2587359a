#!/bin/sh
# The in-kernel path's benchmark, run by guest.sh in bench mode after
# edge-bench (same boot, so the numbers sit beside the user-space mmap
# path and the null ioctl).  edge_nicsim drives edge through
# drivers/edge_kapi.h from its hrtimer and reports latency percentiles
# from the submit, dispatch and reap time stamps of every event.
#
#   latency:    one event per doorbell at several rates (1000/s three
#               more times: the headline is their median), the front end
#               busy-polling (poll_idle_us=1000000) or sleeping between
#               doorbells (poll_idle_us=0, every doorbell kicks it);
#   throughput: offered far above what the guest sustains, batches of
#               64: completed events per second.
#
# As edge-bench does, the front end is pinned to CPU 0 and the producer
# (nicsim's hrtimer, started by insmod on CPU 1 with timer migration off)
# to CPU 1, so the two never share a CPU.
#
# Prints name=value lines on stdout.  Under TCG the guest runs about 25x
# slower than native: compare the paths, not the absolute values.
NS=/sys/kernel/edge_nicsim
SECS=${KAPI_BENCH_SECS:-2}

# Uptime in centiseconds.
cs() {
	awk '{ printf "%d\n", $1 * 100 }' /proc/uptime
}

# run MODE RATE BATCH RING [CPUMASK]: load, warm up, measure for $SECS,
# unload.  CPUMASK: where the timer runs (default 2: CPU 1).
# Sets lat (n dp50 dp99 cp50 cp99), done_per_s, drops.
run() {
	if [ "$1" = poll ]; then idle=1000000; else idle=0; fi
	insmod "$EDGE_KO" poll_idle_us=$idle || return 1
	echo 0 >/sys/class/edge/edge0/cpu
	if ! taskset "${5:-2}" insmod "$EDGE_NICSIM_KO" func=ping rate="$2" \
		batch="$3" ring_entries="$4"; then
		rmmod edge
		return 1
	fi
	sleep 0.5
	echo 1 >$NS/latency_ns
	c0=$(cat $NS/completed)
	d0=$(($(cat $NS/drop_ring_full) + $(cat $NS/drop_overrun)))
	t0=$(cs)
	sleep "$SECS"
	c1=$(cat $NS/completed)
	t1=$(cs)
	d1=$(($(cat $NS/drop_ring_full) + $(cat $NS/drop_overrun)))
	lat=$(cat $NS/latency_ns)
	echo 0 >$NS/running
	bad=$(cat $NS/bad_output)
	rmmod edge_nicsim && rmmod edge || return 1
	[ "$bad" = 0 ] || { echo "kapi-bench: $bad bad outputs" >&2; return 1; }
	done_per_s=$(((c1 - c0) * 100 / (t1 - t0)))
	drops=$((d1 - d0))
	return 0
}

# field N of "n N dispatch P50 P99 complete P50 P99"
fld() {
	echo "$lat" | awk -v f="$1" '{ print $f }'
}

fail=0
# An hrtimer stays on the CPU that started it.
echo 0 >/proc/sys/kernel/timer_migration 2>/dev/null

# Median of three numbers.
med3() {
	echo "$1 $2 $3" | tr ' ' '\n' | sort -n | sed -n 2p
}

for mode in poll sleep; do
	for rate in 1000 10000 50000; do
		run $mode $rate 1 1024 || { fail=1; continue; }
		p=kapi_r${rate}_$mode
		echo "${p}_events=$(fld 2)"
		echo "${p}_drops=$drops"
		echo "kapi_doorbell_dispatch_${mode}_r${rate}_p50_ns=$(fld 4)"
		echo "kapi_doorbell_dispatch_${mode}_r${rate}_p99_ns=$(fld 5)"
		echo "kapi_doorbell_complete_${mode}_r${rate}_p50_ns=$(fld 7)"
		echo "kapi_doorbell_complete_${mode}_r${rate}_p99_ns=$(fld 8)"
	done
	# The headline: 1000 doorbells/s, no queueing; the host's noise
	# moves one run's p50 several-fold, so the median of three runs.
	d50="" d99="" c50="" c99=""
	for rep in 1 2 3; do
		run $mode 1000 1 1024 || { fail=1; continue; }
		echo "kapi_doorbell_dispatch_${mode}_rep${rep}_p50_ns=$(fld 4)"
		d50="$d50 $(fld 4)" d99="$d99 $(fld 5)"
		c50="$c50 $(fld 7)" c99="$c99 $(fld 8)"
	done
	# shellcheck disable=SC2086
	{
		echo "kapi_doorbell_dispatch_${mode}_p50_ns=$(med3 $d50)"
		echo "kapi_doorbell_dispatch_${mode}_p99_ns=$(med3 $d99)"
		echo "kapi_doorbell_complete_${mode}_p50_ns=$(med3 $c50)"
		echo "kapi_doorbell_complete_${mode}_p99_ns=$(med3 $c99)"
	}
done

# The timer on the front end's own CPU: the doorbell interrupts the
# polling thread instead of reaching it from another CPU.
if run poll 1000 1 1024 1; then
	echo "kapi_doorbell_dispatch_poll_samecpu_p50_ns=$(fld 4)"
	echo "kapi_doorbell_dispatch_poll_samecpu_p99_ns=$(fld 5)"
	echo "kapi_doorbell_complete_poll_samecpu_p50_ns=$(fld 7)"
	echo "kapi_doorbell_complete_poll_samecpu_p99_ns=$(fld 8)"
else
	fail=1
fi

max=0
for mode in poll sleep; do
	run $mode 5000000 64 1024 || { fail=1; continue; }
	echo "kapi_max_events_per_s_$mode=$done_per_s"
	echo "kapi_max_${mode}_drops=$drops"
	[ "$done_per_s" -gt "$max" ] && max=$done_per_s
done
echo "kapi_max_events_per_s=$max"
exit $fail
