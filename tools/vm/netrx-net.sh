#!/bin/sh
# The guest's test network of edge_netrx.ko: a veth pair between the
# initial network namespace (the "server": nr0, 198.18.0.1, where
# edge_netrx attaches) and a client namespace (nr1, 198.18.0.2) held by
# a sleeping process.  198.18.0.0/15 is the range RFC 2544 sets aside for
# benchmarks; nothing leaves the guest anyway (QEMU runs it with -nic none).
#
#   netrx-net.sh up      make it (loads Debian's veth.ko if this kernel
#                        is the one it came with; the debug kernel has
#                        veth built in)
#   netrx-net.sh cli CMD ARGS...   run CMD in the client namespace
#   netrx-net.sh down    remove it
#
# IPv6 is off on both ends, so that the only frames on the link are the
# test's and ARP's.
pidf=/tmp/netrx-cli.pid
here=$(cd "$(dirname "$0")" && pwd)

cli_pid() {
	cat $pidf 2>/dev/null
}

case "$1" in
up)
	mod=$here/mod/$(uname -r)/veth.ko
	if [ -f "$mod" ] && ! grep -q '^veth ' /proc/modules; then
		insmod "$mod" || exit 1
	fi
	for f in /proc/sys/net/ipv6/conf/all/disable_ipv6 \
		/proc/sys/net/ipv6/conf/default/disable_ipv6; do
		[ -w $f ] && echo 1 >$f
	done
	unshare -n sh -c 'for f in /proc/sys/net/ipv6/conf/all/disable_ipv6 \
		/proc/sys/net/ipv6/conf/default/disable_ipv6; do
			[ -w $f ] && echo 1 >$f
		done; exec sleep 1000000' </dev/null >/dev/null 2>&1 &
	# (No stdio of ours: a caller reading our output through a pipe
	# would otherwise wait for the sleeper.)
	pid=$!
	echo $pid >$pidf
	# unshare() has run once the process's namespace is not ours.
	n=0
	while [ "$(readlink /proc/$pid/ns/net)" = "$(readlink /proc/self/ns/net)" ]; do
		n=$((n + 1))
		[ $n -gt 500 ] && { echo "netrx-net: no client namespace" >&2; exit 1; }
		sleep 0.01
	done
	"$here/netrx" veth nr0 nr1 $pid || exit 1
	ip link set lo up
	ip addr add 198.18.0.1/24 dev nr0 || exit 1
	ip link set nr0 up || exit 1
	nsenter -t $pid -n sh -c 'ip link set lo up &&
		ip addr add 198.18.0.2/24 dev nr1 && ip link set nr1 up' || exit 1
	;;
cli)
	shift
	exec nsenter -t "$(cli_pid)" -n "$@"
	;;
down)
	ip link del nr0 2>/dev/null
	pid=$(cli_pid)
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -f $pidf
	;;
*)
	echo "usage: netrx-net.sh up|cli CMD...|down" >&2
	exit 2
	;;
esac
