#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# edge_router.ko between two namespaces: client (c0, 198.18.1.2,
# 2001:db8:1::2) - router (r0, r1) - server (s0, 198.18.2.2,
# 2001:db8:2::2), veth pairs, each end's namespace held by a sleeper.
# The router namespace's `ip route` is loaded into the module as it is;
# ping, ping6, traceroute and a UDP stream must work as through the
# kernel's own forwarding, and the counters must say the GPU forwarded
# them; what it must not forward (TTL 1, no route, forwarding off, a
# netfilter hook registered) the stack answers.  IPv6 stays on (netrx-net.sh turns it off).
cd "$(dirname "$0")/.." || exit 1
n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n router.$1"; }
nok() { n=$((n + 1)); echo "not ok $n router.$1"; fail=1; }
t() { name=$1; shift; if "$@"; then ok "$name"; else nok "$name"; fi; }
# The debug kernel is built without IPv6 (tools/vm/debug-kernel/config):
# there the IPv6 half skips, by a reason tools/vm/skip-allow.txt lists.
have6=1
[ -d /proc/sys/net/ipv6 ] || have6=0
t6() {
	if [ $have6 = 1 ]; then
		t "$@"
	else
		n=$((n + 1))
		echo "ok $n router.$1 # SKIP no IPv6 in this kernel"
	fi
}
sys=/sys/kernel/edge_router
cnt() { cat $sys/"$1"; }
pidf=/tmp/edge_router_test.pids
: >$pidf

echo "TAP version 13"
echo "1..23"

# A namespace held by a sleeper (no stdio of ours: see netrx-net.sh).
mkns() {
	unshare -n sleep 1000000 </dev/null >/dev/null 2>&1 &
	p=$!
	echo $p >>$pidf
	i=0
	while [ "$(readlink /proc/$p/ns/net)" = "$(readlink /proc/self/ns/net)" ]; do
		i=$((i + 1))
		[ $i -gt 500 ] && { echo "Bail out! no namespace"; exit 1; }
		sleep 0.01
	done
	echo $p
}
in_ns() { p=$1; shift; nsenter -t "$p" -n "$@"; }

cleanup() {
	[ -d $sys ] && echo 1 >$sys/detach 2>/dev/null
	rmmod edge_nfhook 2>/dev/null
	rmmod edge_router 2>/dev/null
	rmmod edge 2>/dev/null
	for p in $(cat $pidf); do kill "$p" 2>/dev/null; done
}
trap cleanup EXIT

# `ip route` of the router namespace as edge_router's lines: PREFIX
# [dev D] [via G]; a route of another type (unreachable, blackhole, ...)
# or of several next hops is the stack's; link-local prefixes are never
# forwarded, and the first route of a prefix is the one kept.
routes_of() {
	awk -v fam="$1" '
	$1 ~ /^(unreachable|blackhole|prohibit|throw|local|broadcast|multicast|anycast|nat)$/ {
		if (!seen[$2]++) print $2, "stack"; next }
	$1 ~ /^fe80:/ || $1 ~ /^ff00:/ || $1 == "" { next }
	{
		p = $1; dev = ""; via = ""
		if (p !~ /\// && p != "default") p = p (fam == 4 ? "/32" : "/128")
		for (i = 2; i < NF; i++) {
			if ($i == "dev") dev = $(i + 1)
			if ($i == "via") via = $(i + 1)
			if ($i == "nexthop") dev = ""
		}
		if (seen[p]++) next
		if (dev == "") print p, "stack"
		else if (via != "") print p, "dev", dev, "via", via
		else print p, "dev", dev
	}'
}

rmmod edge_router 2>/dev/null
rmmod edge_netrx 2>/dev/null
rmmod edge_nicsim 2>/dev/null
rmmod edge 2>/dev/null
veth=./mod/$(uname -r)/veth.ko
if [ -f "$veth" ] && ! grep -q '^veth ' /proc/modules; then
	insmod "$veth" || { echo "Bail out! veth.ko"; exit 1; }
fi
insmod "${EDGE_KO:-./edge.ko}" || { echo "Bail out! insmod edge.ko"; exit 1; }
insmod ./edge_router.ko || { echo "Bail out! insmod edge_router.ko"; exit 1; }

C=$(mkns) && R=$(mkns) && S=$(mkns) || { echo "Bail out! namespaces"; exit 1; }
# The veth pairs, made inside the router namespace.
in_ns $R ./netrx veth r0 c0 $C && in_ns $R ./netrx veth r1 s0 $S ||
	{ echo "Bail out! veth"; exit 1; }
# No DAD (on the devices too: they were made before): the addresses work
# at once.
setup() {
	p=$1 v4=$2 v6=$3
	[ $have6 = 0 ] || in_ns "$p" sh -c "
		for f in /proc/sys/net/ipv6/conf/*/accept_dad; do echo 0 >\$f; done
		for f in /proc/sys/net/ipv6/conf/all/disable_ipv6 \
			/proc/sys/net/ipv6/conf/default/disable_ipv6; do echo 0 >\$f; done"
	in_ns "$p" sh -c "ip link set lo up && $v4" || return 1
	[ $have6 = 0 ] || in_ns "$p" sh -c "$v6"
}
setup $C 'ip link set c0 up && ip addr add 198.18.1.2/24 dev c0 &&
	ip route add default via 198.18.1.1' \
	'ip -6 addr add 2001:db8:1::2/64 dev c0 &&
	ip -6 route add default via 2001:db8:1::1' &&
setup $S 'ip link set s0 up && ip addr add 198.18.2.2/24 dev s0 &&
	ip route add default via 198.18.2.1' \
	'ip -6 addr add 2001:db8:2::2/64 dev s0 &&
	ip -6 route add default via 2001:db8:2::1' &&
setup $R 'echo 1 >/proc/sys/net/ipv4/ip_forward &&
	ip link set r0 up && ip link set r1 up &&
	ip addr add 198.18.1.1/24 dev r0 && ip addr add 198.18.2.1/24 dev r1' \
	'echo 1 >/proc/sys/net/ipv6/conf/all/forwarding &&
	ip -6 addr add 2001:db8:1::1/64 dev r0 &&
	ip -6 addr add 2001:db8:2::1/64 dev r1' ||
	{ echo "Bail out! addresses"; exit 1; }

# Attach and load from the router namespace (sysfs resolves names there).
t attach in_ns $R sh -c "echo r0 >$sys/attach && echo r1 >$sys/attach"
in_ns $R ip -4 route | routes_of 4 >/tmp/rt4
sed 's/^/# routes4: /' /tmp/rt4
t load_routes in_ns $R sh -c "cat /tmp/rt4 >$sys/routes4"
if [ $have6 = 1 ]; then
	in_ns $R ip -6 route | routes_of 6 >/tmp/rt6
	sed 's/^/# routes6: /' /tmp/rt6
fi
t6 routes6_load in_ns $R sh -c "cat /tmp/rt6 >$sys/routes6"
t routes_loaded grep -q '^routes 2 ekt' $sys/routes4
# A bad line: EINVAL, the table in place stays (its EKT id too).
before=$(cat $sys/routes4)
if in_ns $R sh -c "echo '198.18.0.0/33 dev r0' >$sys/routes4" 2>/dev/null ||
		[ "$(cat $sys/routes4)" != "$before" ]; then
	nok bad_line_refused_table_kept
else
	ok bad_line_refused_table_kept
fi

# ping across: answered, and each request and reply forwarded by the GPU.
answered3_ttl63() {
	grep -q '^3 packets transmitted, 3 packets received' /tmp/ping &&
		grep -q 'ttl=63 ' /tmp/ping && return 0
	sed 's/^/# /' /tmp/ping
	return 1
}
# The replies' TTL and hop limit say one router decremented them
# (the server's 64, less 1): and the IPv4 checksum it updated verified.
f4=$(cnt forwarded4)
in_ns $C ping -c 3 -A -W 3 198.18.2.2 >/tmp/ping 2>&1
t ping4_across_ttl63 answered3_ttl63
t ping4_gpu_forwarded test $(($(cnt forwarded4) - f4)) -ge 6
f6=$(cnt forwarded6)
[ $have6 = 0 ] || in_ns $C ping6 -c 3 -A -W 3 2001:db8:2::2 >/tmp/ping 2>&1
t6 ping6_across_hlim63 answered3_ttl63
t6 ping6_gpu_forwarded test $(($(cnt forwarded6) - f6)) -ge 6

# traceroute: hop 1 is the router's time exceeded (TTL 1: the stack's),
# hop 2 the server, reached through the GPU.
ttl=$(cnt pass_ttl)
in_ns $C traceroute -n -q 1 -w 2 -m 3 198.18.2.2 >/tmp/tr 2>&1
sed 's/^/# /' /tmp/tr
t traceroute_hops sh -c "grep -q '^ 1  *198.18.1.1 ' /tmp/tr && grep -q '^ 2  *198.18.2.2 ' /tmp/tr"
t traceroute_ttl1_to_stack test $(($(cnt pass_ttl) - ttl)) -ge 1

# A UDP stream, every datagram's echo checked (netrx udp against a user
# space echo server on the server): 200 of 1000 bytes, 1 ms apart.
in_ns $S ./netrx udpecho 7007 8 >/dev/null 2>&1 &
echo_pid=$!
sleep 0.3
# The table is swapped five times meanwhile: the old one retired once
# its events complete, none lost.
f4=$(cnt forwarded4)
tb=$(cnt tables)
in_ns $R sh -c "for i in 1 2 3 4 5; do cat /tmp/rt4 >$sys/routes4; sleep 0.05; done" &
swap_pid=$!
in_ns $C ./netrx udp 198.18.2.2 7007 200 1000 1000 >/tmp/udp 2>&1
rc=$?
wait $swap_pid
sed 's/^/# /' /tmp/udp
t udp_stream_intact_across_swaps sh -c "[ $rc = 0 ] && grep -q '^received=200$' /tmp/udp &&
	grep -q '^bad=0$' /tmp/udp && [ $(($(cnt tables) - tb)) = 5 ]"
t udp_gpu_forwarded test $(($(cnt forwarded4) - f4)) -ge 400
kill $echo_pid 2>/dev/null

# Debian's iperf3, a bounded UDP stream (1 s at up to 20 Mbit/s of
# 1000-byte datagrams; its TCP control connection's GSO segments go
# through the stack): the router drops none, and of what its receiver's
# report says was lost, at most 2 % is not the server's own socket
# overflowing (Udp RcvbufErrors: the debug kernel's receiver, ~10x
# slower, loses some so).  At least 200 datagrams (~450 on a loaded
# debug kernel, ~2500 on a stock one), each forwarded by
# the GPU.
ip3=./iperf3/iperf3.sh
# The Udp RcvbufErrors of a /proc/net/snmp.
udp_rcvbuf() {
	awk '$1 == "Udp:" && !h { for (i = 2; i <= NF; i++) if ($i == "RcvbufErrors") c = i; h = 1; next }
		$1 == "Udp:" { print $c }'
}
if [ -x $ip3 ]; then
	in_ns $S $ip3 -s -1 -p 5201 >/tmp/ip3s 2>&1 &
	i=0
	until in_ns $S grep -q ':1451 00000000:0000 0A' /proc/net/tcp6 /proc/net/tcp ||
		[ $i -gt 50 ]; do
		i=$((i + 1))
		sleep 0.1
	done
	f4=$(cnt forwarded4)
	gso=$(cnt pass_gso)
	d0=$(cat $sys/stats | awk '{ print $8 }')
	rb0=$(in_ns $S cat /proc/net/snmp | udp_rcvbuf)
	in_ns $C $ip3 -c 198.18.2.2 -p 5201 -u -b 20M -l 1000 -t 1 >/tmp/ip3 2>&1
	rc=$?
	grep -E 'sender|receiver|error' /tmp/ip3 | sed 's/^/# /'
	# "LOST/TOTAL" of the receiver's line.
	set -- $(awk '/receiver/ { for (i = 1; i <= NF; i++)
		if ($i ~ /^[0-9]+\/[0-9]+$/) { split($i, a, "/"); print a[1], a[2] } }' /tmp/ip3)
	lost=${1:-1} total=${2:-0}
	fwd=$(($(cnt forwarded4) - f4))
	rb=$(($(in_ns $S cat /proc/net/snmp | udp_rcvbuf) - rb0))
	echo "# iperf3: lost $lost of $total (server's RcvbufErrors +$rb)," \
		"forwarded4 +$fwd pass_gso +$(($(cnt pass_gso) - gso))"
	t iperf3_udp_received sh -c "[ $rc = 0 ] && [ $total -ge 200 ] &&
		[ $(((lost - rb) * 50)) -le $total ] &&
		[ $(cat $sys/stats | awk '{ print $8 }') = $d0 ]"
	t iperf3_gpu_forwarded test $fwd -ge "$total"
else
	echo "# $ip3 is not in the payload (tools/vm/fetch-iperf3.sh)"
	nok iperf3_udp_received
	nok iperf3_gpu_forwarded
fi

# No route in the router: the GPU's miss goes back to the stack, which
# answers net unreachable (traceroute's !N).  TTL 2, so that the GPU
# looks it up (at TTL 1 the stack would have it first).
nr=$(cnt pass_no_route)
in_ns $C traceroute -n -q 1 -w 2 -f 2 -m 2 198.18.9.9 >/tmp/tr 2>&1
sed 's/^/# /' /tmp/tr
t no_route_unreachable_from_stack sh -c "grep -q '198.18.1.1 .*!N' /tmp/tr && [ $(($(cnt pass_no_route) - nr)) -ge 1 ]"

# Forwarding off: the GPU forwards nothing either, the stack refuses.
in_ns $R sh -c 'echo 0 >/proc/sys/net/ipv4/ip_forward'
f4=$(cnt forwarded4)
sc=$(cnt pass_sysctl)
in_ns $C ping -c 1 -W 1 198.18.2.2 >/dev/null 2>&1
t forwarding_off_not_forwarded sh -c "[ $(cnt forwarded4) = $f4 ] && [ $(($(cnt pass_sysctl) - sc)) -ge 1 ]"
in_ns $R sh -c 'echo 1 >/proc/sys/net/ipv4/ip_forward'
f6=$(cnt forwarded6)
sc=$(cnt pass_sysctl)
if [ $have6 = 1 ]; then
	in_ns $R sh -c 'echo 0 >/proc/sys/net/ipv6/conf/all/forwarding'
	in_ns $C ping6 -c 1 -W 1 2001:db8:2::2 >/dev/null 2>&1
fi
t6 forwarding6_off_not_forwarded sh -c "[ $(cnt forwarded6) = $f6 ] && [ $(($(cnt pass_sysctl) - sc)) -ge 1 ]"

# A netfilter FORWARD hook in the router namespace (./edge_nfhook.ko,
# NF_DROP of echo requests, a firewall's FORWARD rule): its rules are the
# stack's to apply, so the GPU forwards nothing (pass_netfilter) and the
# stack refuses the pings; unloaded, the GPU forwards again.
if [ -f ./edge_nfhook.ko ]; then
	f4=$(cnt forwarded4)
	pn=$(cnt pass_netfilter)
	in_ns $R insmod ./edge_nfhook.ko pf=2 hooknum=2 drop=1
	in_ns $C ping -c 2 -W 1 198.18.2.2 >/tmp/ping 2>&1
	rc=$?
	t netfilter_forward_hook_refused sh -c "[ $rc != 0 ] && [ $(cnt forwarded4) = $f4 ] &&
		[ $(($(cnt pass_netfilter) - pn)) -ge 2 ] &&
		[ $(cat /sys/module/edge_nfhook/parameters/dropped 2>/dev/null) = 2 ]"
	rmmod edge_nfhook
	f4=$(cnt forwarded4)
	in_ns $C ping -c 2 -W 3 198.18.2.2 >/tmp/ping 2>&1
	rc=$?
	t netfilter_unhooked_gpu_forwards sh -c "[ $rc = 0 ] && [ $(($(cnt forwarded4) - f4)) -ge 4 ]"
else
	for w in netfilter_forward_hook_refused netfilter_unhooked_gpu_forwards; do
		n=$((n + 1))
		echo "ok $n router.$w # SKIP no netfilter in this kernel"
	done
fi

# Detach with a flood in flight: every frame still ends as one outcome
# (those in flight cancelled), and nothing is left in flight.
in_ns $C ./netrx flood icmp 198.18.2.2 7 3000 1 56 >/dev/null 2>&1 &
flood_pid=$!
sleep 0.5
t detach sh -c "echo 1 >$sys/detach && [ -z \"\$(cat $sys/attach)\" ]"
wait $flood_pid
cat $sys/stats | sed 's/^/# /'
echo "# drop_cancelled $(cnt drop_cancelled)"
t stats_add_up sh -c "cat $sys/stats | awk '{ exit !(\$2 == \$4 + \$6 + \$8 + \$10 && \$10 == 0) }'"
t unload rmmod edge_router
exit $fail
