#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The kernel's own generic netlink client against edge: linux-source-6.12's
# tools/net/ynl/cli.py, unmodified, reading Documentation/netlink/specs/
# edge.yaml, run by Debian's python3 (tools/vm/payload-ynl.sh brings both).
# A do (dev-add: its reply decoded, no "Unexpected message"), a dump
# (ekt-get: its function by name and its latency histogram as numbers)
# and a subscription (the events group's dev-add-ntf and dev-del-ntf,
# of edgectl's dev add and del).  cli.py sends genetlink header version
# 1 and the family is version 2: it works because version 2 tells itself
# apart by its command numbers, which cli.py reads from the spec.  The extack's attribute and limit are
# edgectl_test.sh's (the same NLMSGERR_ATTR_OFFS and _POLICY YNL reads).  The spec itself passes the kernel's schema
# on the host (make lint): here cli.py runs with --no-schema, so the
# guest needs no jsonschema.
cd "$(dirname "$0")/.." || exit 1
n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n ynl.$1"; }
nok() { n=$((n + 1)); echo "not ok $n ynl.$1"; fail=1; }
ynl() { ./py/python3 ynl/cli.py --spec ynl/edge.yaml --no-schema --output-json "$@"; }
# check NAME FILE PATTERN...: FILE has every (grep -E) PATTERN and no
# "Unexpected" (YNL's word for a reply it could not match to its request).
check() {
	name=$1 f=$2; shift 2
	for p in "$@"; do
		if ! grep -q -E -e "$p" "$f"; then
			nok "$name"; echo "# no '$p' in:"; sed 's/^/# /' "$f"; return
		fi
	done
	if grep -q Unexpected "$f"; then
		nok "$name"; sed 's/^/# /' "$f"; return
	fi
	ok "$name"
}

echo "TAP version 13"
echo "1..4"
if [ ! -x py/python3 ] || [ ! -f ynl/cli.py ]; then
	echo "Bail out! no YNL in the payload (tools/vm/payload-ynl.sh)"
	exit 1
fi
rmmod edge_nicsim 2>/dev/null
rmmod edge 2>/dev/null
insmod "${EDGE_KO:-/edge/edge.ko}" virtual_time=1 || { echo "Bail out! insmod"; exit 1; }
insmod "${EDGE_NICSIM_KO:-/edge/edge_nicsim.ko}" rate=1000 || nok nicsim

# Three cli.py at once (each takes seconds to start under TCG): a
# subscriber, a do and a dump.  Not a do and a subscription in one
# cli.py: 6.12's YNL fails a request whose reply comes after a
# notification on the same socket (op is None in _ops()).
ngroups() { awk '$2 == 16 && $4 != "00000000"' /proc/net/netlink | wc -l; }
before=$(ngroups)
# The subscriber collects for 5 s once it has joined the group, then
# prints what came.
ynl --subscribe events --sleep 5 >/tmp/ynl.ntf 2>&1 &
sub=$!
# The do: dev-add's reply carries dev-add's own command id, so YNL
# decodes it as the reply (not "Unexpected message").
ynl --do dev-add --json '{"index": 8, "preset": "lax", "time-mode": "real"}' \
	>/tmp/ynl.add 2>&1 &
add=$!
# The dump: the nicsim's kernel queue on edge0, its function by its enum
# name, its latency histogram as lat-hist-buckets numbers, not bytes.
ynl --dump ekt-get --json '{"dev-index": 0}' >/tmp/ynl.ekt 2>&1 &
dump=$!
# Joined: a generic netlink socket more has a group (the groups field
# shows the first 32; edge's is among them on these kernels).
i=0
while [ "$(ngroups)" -le "$before" ] && [ $i -lt 120 ]; do
	sleep 1
	i=$((i + 1))
done
[ $i -lt 120 ] || echo "# no subscriber in /proc/net/netlink's groups after 120 s"
./edgectl dev add index 7 preset lax real >/dev/null
./edgectl dev del edge7
wait $add
check do_dev_add /tmp/ynl.add '^\{.*"index": 8' '"preset": "lax"' \
	'"time-mode": "real"'
wait $dump
check dump_ekt_get /tmp/ynl.ekt '"func": "(udp-ping|lpm4|crc32c|icmp-echo)"' \
	'"lat-hist": \[[0-9]+(, [0-9]+){31}\]'
wait $sub
check subscribe_dev_add_ntf /tmp/ynl.ntf \
	'"name": "dev-add-ntf", "msg": \{"index": 7, [^}]*"preset": "lax", [^}]*"time-mode": "real"'
# Its final counters nested (dev-stats, the stats set's numbers).
check subscribe_dev_del_ntf /tmp/ynl.ntf '"name": "dev-del-ntf", "msg": \{"index": 7' \
	'"stats": \{[^}]*"submitted": 0'
./edgectl dev del edge8
rmmod edge_nicsim
rmmod edge
# make check's line (tools/vm/check.sh: ok on every stock kernel).
[ $fail = 0 ] && echo "ynl_interop=ok"
exit $fail
