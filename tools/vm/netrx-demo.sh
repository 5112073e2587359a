#!/bin/sh
# The second half of `make run` (tools/vm/guest.sh, demo mode): busybox
# ping and nc -u in a client network namespace, answered by event kernels
# through edge_netrx.ko; then the same ping while a background kernel
# fills every core of the GPU, under drain and then under preempt.
#
# Nothing listens on UDP port 7, and while netrx is attached the pings
# it answers never reach the stack: every answer below is the GPU's
# (stats counts them) until it is detached; then the stack answers.
cd /edge || exit 1
fail=0
NR=/sys/kernel/edge_netrx
# The background: one TB per core filling its registers, each running
# ~0.5 s (350M cycles at 700 MHz): an event that waits for one to drain
# waits tens of milliseconds.
BUSY_CYCLES=${BUSY_CYCLES:-350000000}

say() {
	echo "\$ $*"
}

insmod ./edge.ko || exit 1
insmod ./edge_netrx.ko || { rmmod edge; exit 1; }
# The front end and the client share CPU 0 (see netrx-bench.sh).
echo 0 >/sys/class/edge/edge0/cpu
./netrx-net.sh up || fail=1
echo 0 >/proc/sys/net/ipv4/icmp_echo_ignore_all
say "echo nr0 > $NR/attach"
echo nr0 >$NR/attach || fail=1
echo "event kernels: $(cat $NR/ekt_ids)"
say "ping -c 20 -i 0.1 198.18.0.1      # in the client namespace"
taskset 1 ./netrx-net.sh cli ping -c 20 -i 0.1 198.18.0.1 || fail=1
say "echo hello, GPU | nc -u -w1 198.18.0.1 7"
echo "hello, GPU" | ./netrx-net.sh cli ./nc/nc -u -w1 198.18.0.1 7 || fail=1
say "cat $NR/stats"
cat $NR/stats

for policy in drain preempt; do
	echo $policy >/sys/class/edge/edge0/sched/policy || fail=1
	say "echo $policy > /sys/class/edge/edge0/sched/policy;" \
		"netrx busy 6 $BUSY_CYCLES &   # 16 TBs x 1024 threads x 64 regs: every core's registers"
	taskset 2 ./netrx busy 6 "$BUSY_CYCLES" >/tmp/busy.out &
	bpid=$!
	sleep 0.5
	say "ping -c 20 -i 0.1 198.18.0.1"
	taskset 1 ./netrx-net.sh cli ping -c 20 -i 0.1 198.18.0.1 || fail=1
	wait $bpid
	echo "preemptions so far: $(tr " " "\n" </sys/class/edge/edge0/sched/stats | grep "^preemptions=")"
done
echo drain >/sys/class/edge/edge0/sched/policy

say "echo 1 > $NR/detach; ping -c 3 198.18.0.1   # the GPU detached: the stack answers"
echo 1 >$NR/detach || fail=1
./netrx-net.sh cli ping -c 3 -W 1 198.18.0.1 || fail=1
say "cat $NR/stats"
cat $NR/stats
./netrx-net.sh down
rmmod edge_netrx || fail=1
rmmod edge || fail=1
exit $fail
