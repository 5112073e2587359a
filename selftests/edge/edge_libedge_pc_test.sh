#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# libedge as a user of the library gets it: the example of libedge(7),
# built on the host with `pkg-config --cflags --libs edge` against a
# libedge installed into a scratch prefix (tools/libedge/pc-test.sh),
# linked to libedge.so.1 and to libedge.a; both run here.
cd "$(dirname "$0")/.." || exit 1
d=./libedge-pc
n=0
fail=0
echo "TAP version 13"
echo "1..2"
if [ ! -x $d/example-shared ]; then
	echo "Bail out! $d is not in the payload (make libedge-pc)"
	exit 1
fi
rmmod edge_netrx 2>/dev/null
rmmod edge_nicsim 2>/dev/null
rmmod edge 2>/dev/null
insmod "$EDGE_KO" || { echo "Bail out! insmod edge.ko"; exit 1; }
for kind in shared static; do
	n=$((n + 1))
	if out=$($d/run-$kind 2>&1) && echo "$out" | grep -q 'status=done'; then
		echo "# $kind: $out"
		echo "ok $n libedge_pc.$kind"
	else
		echo "$out" | sed 's/^/# /'
		echo "not ok $n libedge_pc.$kind"
		fail=1
	fi
done
[ $fail = 0 ] && echo "libedge_pc=ok"
rmmod edge || fail=1
exit $fail
