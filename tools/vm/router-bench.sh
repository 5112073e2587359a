#!/bin/sh
# edge_router's benchmark, run by guest.sh in bench mode: the same
# client path across a router namespace, forwarded two ways,
#   (a) by edge_router.ko, the route lookup an LPM4 event kernel;
#   (b) by the kernel's own IPv4 forwarding, edge_router detached;
# client (c0, 198.18.1.2) - router (r0, r1) - server (s0, 198.18.2.2),
# veth pairs, as selftests/edge/edge_router_test.sh makes them.
#
#   RTT:  netrx ping, one echo at a time, 2 ms apart, answered by the
#         server's kernel: p50/p99;
#   rate: netrx flood icmp, a sender pacing itself at each rate of a
#         ladder for FLOOD_SECS; the maximum is the most answers/s any
#         rate got (each answer crossed the router twice).
#
# Prints name=value lines, the headline ones last.  Under TCG the guest
# runs ~25x slower than native: compare within the run.
cd /edge || exit 1
RT=/sys/kernel/edge_router
SRV=198.18.2.2
N=${ROUTER_BENCH_N:-400}
FLOOD_SECS=${ROUTER_FLOOD_SECS:-2}
RATES=${ROUTER_RATES:-2000 5000 10000 20000}
fail=0
pidf=/tmp/router-bench.pids
: >$pidf

mkns() {
	unshare -n sleep 1000000 </dev/null >/dev/null 2>&1 &
	p=$!
	echo $p >>$pidf
	i=0
	while [ "$(readlink /proc/$p/ns/net)" = "$(readlink /proc/self/ns/net)" ]; do
		i=$((i + 1))
		[ $i -gt 500 ] && return 1
		sleep 0.01
	done
	echo $p
}
in_ns() { p=$1; shift; nsenter -t "$p" -n "$@"; }
# The client and the GPU's front end share CPU 0 (netrx-bench.sh: a
# halted vCPU's wake-up costs milliseconds under TCG).
cli() { taskset 1 nsenter -t "$C" -n "$@"; }
val() { sed -n "s/^$1=//p"; }

rtt() {
	out=$(cli ./netrx ping $SRV "$N" 56 2000)
	[ "$(echo "$out" | val bad)" = 0 ] || fail=1
	echo "$out" | sed -n "s/^\(sent\|received\|bad\|rtt_p50_ns\|rtt_p99_ns\)=/${1}_&/p"
}

ladder() {
	max=0 maxlost=0
	for r in $RATES; do
		out=$(cli ./netrx flood icmp $SRV 7 "$r" "$FLOOD_SECS" 56)
		pps=$(echo "$out" | val pps)
		lost=$(echo "$out" | val lost)
		echo "${1}_flood_r${r}_pps=$pps"
		echo "${1}_flood_r${r}_lost=$lost"
		if [ "$pps" -gt "$max" ]; then
			max=$pps maxlost=$lost
		fi
	done
	echo "${1}_max_pps_lost=$maxlost"
}

bench() {
	veth=./mod/$(uname -r)/veth.ko
	if [ -f "$veth" ] && ! grep -q '^veth ' /proc/modules; then
		insmod "$veth" || return 1
	fi
	insmod ./edge.ko || return 1
	insmod ./edge_router.ko || { rmmod edge; return 1; }
	echo 0 >/sys/class/edge/edge0/cpu
	C=$(mkns) && R=$(mkns) && S=$(mkns) || return 1
	in_ns $R ./netrx veth r0 c0 $C && in_ns $R ./netrx veth r1 s0 $S || return 1
	in_ns $C sh -c 'ip link set lo up && ip link set c0 up &&
		ip addr add 198.18.1.2/24 dev c0 &&
		ip route add default via 198.18.1.1' || return 1
	in_ns $S sh -c 'ip link set lo up && ip link set s0 up &&
		ip addr add 198.18.2.2/24 dev s0 &&
		ip route add default via 198.18.2.1' || return 1
	in_ns $R sh -c 'echo 1 >/proc/sys/net/ipv4/ip_forward &&
		ip link set lo up && ip link set r0 up && ip link set r1 up &&
		ip addr add 198.18.1.1/24 dev r0 &&
		ip addr add 198.18.2.1/24 dev r1' || return 1
	cli ping -c 2 $SRV >/dev/null	# ARP on both links

	# (b) the kernel's forwarding
	rtt kernel_fwd
	ladder kernel_fwd
	kernel_max=$max

	# (a) the GPU's lookup
	in_ns $R sh -c "echo r0 >$RT/attach && echo r1 >$RT/attach &&
		printf '198.18.1.0/24 dev r0\n198.18.2.0/24 dev r1\n' >$RT/routes4" ||
		fail=1
	f0=$(cat $RT/forwarded4)
	rtt router
	ladder router
	router_max=$max
	echo "router_forwarded=$(($(cat $RT/forwarded4) - f0))"
	echo "router_pass_ring_full=$(cat $RT/pass_ring_full)"
	echo "router_stats=\"$(cat $RT/stats)\""
	echo 1 >$RT/detach || fail=1
	for p in $(cat $pidf); do kill "$p" 2>/dev/null; done
	rmmod edge_router || fail=1
	rmmod edge || fail=1
	echo "router_flood_max_pps=$router_max"
	echo "kernel_fwd_flood_max_pps=$kernel_max"
	return $fail
}

out=/tmp/router-bench.out
bench | tee $out
fail=0
grep -q '^kernel_fwd_flood_max_pps=[0-9]' $out || fail=1
grep -q '_bad=[1-9]' $out && fail=1
# The headline, last.
for k in router_rtt_p50_ns kernel_fwd_rtt_p50_ns router_max_pps \
	kernel_fwd_max_pps; do
	case $k in
	*_max_pps) v=$(val "${k%_max_pps}_flood_max_pps" <$out) ;;
	*) v=$(val $k <$out | tail -n1) ;;
	esac
	[ -n "$v" ] || fail=1
	echo "$k=$v"
done
exit $fail
