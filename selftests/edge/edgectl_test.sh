#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# edgectl in the guest: each command's happy path, the kernel's extack
# (message, attribute and limit) and a non-zero exit on error, a mistyped
# keyword named with the nearest one (exit 2, no usage), -V and help,
# monitor and top in batch mode, their -j as JSON lines flushed line by
# line (a killed monitor leaves whole lines).
# Its -j output goes to the results channel as "edgectl_json NAME BASE64"
# lines, which the host parses as JSON (tools/vm/check.sh).
cd "$(dirname "$0")/.." || exit 1
ctl=./edgectl
n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n edgectl.$1"; }
nok() { n=$((n + 1)); echo "not ok $n edgectl.$1"; fail=1; }
t() { name=$1; shift; if "$@" >/tmp/ctl.out 2>/tmp/ctl.err; then ok "$name"; else nok "$name"; cat /tmp/ctl.err >&2; fi; }
json() { name=$1; shift; echo "edgectl_json $name $("$ctl" "$@" | base64 | tr -d '\n')"; }
# Exits non-zero and prints @msg (the kernel's extack text).
err() {
	name=$1 msg=$2; shift 2
	if "$ctl" "$@" >/tmp/ctl.out 2>/tmp/ctl.err; then
		nok "$name"
	elif grep -q "$msg" /tmp/ctl.err; then
		ok "$name"
	else
		nok "$name"; cat /tmp/ctl.err >&2
	fi
}
# A mistyped keyword: exit 2, the word and @msg named, not the usage.
typo() {
	name=$1 msg=$2; shift 2
	"$ctl" "$@" >/tmp/ctl.out 2>/tmp/ctl.err
	if [ $? = 2 ] && grep -q "$msg" /tmp/ctl.err && ! grep -q usage: /tmp/ctl.err; then
		ok "$name"
	else
		nok "$name"; cat /tmp/ctl.err >&2
	fi
}

echo "TAP version 13"
echo "1..42"
rmmod edge_nicsim 2>/dev/null
rmmod edge 2>/dev/null
insmod "${EDGE_KO:-/edge/edge.ko}" virtual_time=1 || { echo "Bail out! insmod"; exit 1; }
t dev_show $ctl dev show
t version sh -c "$ctl -V | grep -q 'family, version [0-9]'"
t help sh -c "$ctl help | grep -q '^  dev show'"
# Bash completion's source (tools/edgectl/edgectl.bash): the words that
# may follow, from edgectl's own tables.
t complete sh -c "$ctl complete dev add | grep -qx preset && $ctl complete sched set | grep -qx prema_ns && $ctl complete | grep -qx monitor"
# param: an object, and its knobs the kernel's descriptors' (edge0's).
t complete_param sh -c "$ctl complete | grep -qx param && $ctl complete param set dev edge0 | grep -qx predict_ns"
typo typo_object 'unknown keyword "dve", did you mean "dev"?' dve show
typo typo_sched_word 'unknown keyword "prema", did you mean "prema_ns"?' sched set dev edge0 prema 3000
t dev_add $ctl dev add preset lax real index 5
t dev_show_one sh -c "$ctl dev show edge5 | grep -q 'preset lax time real'"
t dev_set $ctl dev set edge5 poll_idle_us 7 cpu 0
t dev_set_took sh -c "[ \$(cat /sys/class/edge/edge5/poll_idle_us) = 7 ]"
insmod "${EDGE_NICSIM_KO:-/edge/edge_nicsim.ko}" rate=1000 || nok nicsim
t ekt_show sh -c "$ctl ekt show dev edge0 | grep -q 'kernel'"
t stats sh -c "$ctl stats dev edge0 | grep -q submitted"
# top: two views, each with the device's preemptions and the entry's
# row; the second (the last second's events) with its p50 and p99.
t top_batch sh -c "$ctl top -n 2 dev edge0 >/tmp/top.out &&
	[ \$(grep -c '^edge0 ' /tmp/top.out) = 2 ] &&
	[ \$(grep -c '^edge0: preemptions' /tmp/top.out) = 2 ] &&
	grep -q 'p50 *p99\$' /tmp/top.out &&
	tail -n 1 /tmp/top.out | awk '{ exit !(\$4 > 0 && \$8 ~ /s\$/ && \$9 ~ /s\$/) }'"
# The spec's enum by name: the nicsim's function.
t ekt_func_name sh -c "$ctl ekt show dev edge0 | grep -Eq 'func (udp-ping|lpm4|crc32c|icmp-echo) '"
# top -j: one JSON object a view, a line each.
t top_json_lines sh -c "[ \$($ctl -j top -n 2 dev edge0 | wc -l) = 2 ]"
json top -j top -n 2 dev edge0
# monitor: two notifications, then exit.
( $ctl -j monitor -n 2 >/tmp/mon.json 2>/tmp/mon.err ) &
mon=$!
sleep 1
$ctl dev add index 9 >/dev/null && $ctl dev del edge9
wait $mon
t monitor sh -c "grep -q '\"event\":\"dev add\"' /tmp/mon.json && grep -q '\"event\":\"dev del\"' /tmp/mon.json"
echo "edgectl_json monitor $(base64 </tmp/mon.json | tr -d '\n')"
# Killed mid-stream: every object it printed is a whole line in the file
# (flushed as written; the host parses the lines as JSON).
$ctl -j monitor >/tmp/monk.json 2>/dev/null &
monk=$!
sleep 1
$ctl dev add index 9 >/dev/null && $ctl dev del edge9
sleep 1
kill -9 $monk
wait $monk
t monitor_killed_lines sh -c "[ \$(wc -l </tmp/monk.json) -ge 2 ]"
echo "edgectl_json monitor_killed $(base64 </tmp/monk.json | tr -d '\n')"
json dev_show -j dev show
json dev_show_stats -j -s dev show
json dev_show_pretty -j -p -s dev show
json ekt_show -j ekt show dev edge0
json stats -j -p stats dev edge0
# The job table: empty here (edge_netlink_test fills it); no -j line,
# as edgectl-json.py wants a non-empty array.
t job_show_empty sh -c "$ctl job show dev edge0 >/tmp/jobs.out && [ ! -s /tmp/jobs.out ]"
err job_no_device "no such device" job show dev edge7
t sched_show sh -c "$ctl sched show dev edge0 | grep -q 'queue rr'"
t sched_set $ctl sched set dev edge0 policy preempt queue lax prema_ns 3000
t sched_took sh -c "[ \$(cat /sys/class/edge/edge0/sched/queue_policy) = lax ] && [ \$(cat /sys/class/edge/edge0/cp/prema_ns) = 3000 ]"
json sched_show -j sched show dev edge0
t param_set $ctl param set dev edge0 predict_ns 7000
t param_took sh -c "[ \$(cat /sys/class/edge/edge0/cp/predict_ns) = 7000 ] && $ctl param show dev edge0 | grep -q 'predict_ns 7000'"
err param_range "prema_ns: from 1000 to 1000000000" param set dev edge0 prema_ns 999
# The extack's offset is inside the policy-param nest: the knob is named.
err param_range_attr "1000000000: prema_ns\$" param set dev edge0 prema_ns 999
typo param_typo 'unknown keyword "prema_nsx", did you mean "prema_ns"?' param set dev edge0 prema_nsx 5
t param_reset $ctl param set dev edge0 predict_ns 50000 prema_ns 250000
# param show: a knob a line, with its descriptor's range, default and
# policy, its help on the next line; -j: the same as fields.
t param_show_range sh -c "$ctl param show dev edge0 | grep -q '^edge0: prema_ns 250000 range_min 1000 range_max 1000000000 default 250000 policy [a-z]'"
t param_show_help sh -c "[ \$($ctl param show dev edge0 | grep -c '^    [^ ]') = \$($ctl param show dev edge0 | grep -c '^edge0: ') ]"
json param_show -j param show dev edge0
rmmod edge_nicsim || nok nicsim_unload
err bad_preset "unknown preset" dev add preset bogus
err no_device "no such device" dev del edge7
err range "integer out of range: index (max 63)" dev add index 64
err range_min_max "threads (1..1024)" place mem 1M threads 2000 blocks 1
# EPERM as uid 65534 is edge_netlink_test's (busybox has no setuid tool).
t dev_del $ctl dev del edge5
# place: the reservation is counted while edgectl (or the command it
# became) lives, and goes with it, even when it is killed.  edge0 alone:
# the edge preset's 1.5 GB.
used() { cat /sys/class/edge/edge0/mem_used; }
t place_probe sh -c "$ctl place mem 512M threads 256 blocks 64 | grep -q '^edge0: .*place_id'"
json place -j place mem 1M threads 32 blocks 1 policy sa
t place_cmd sh -c "[ \$($ctl place mem 1G threads 256 blocks 64 -- sh -c 'cat /sys/class/edge/\${EDGE_DEV#/dev/}/mem_used' | tail -n 1) = 1073741824 ]"
$ctl place mem 1G threads 256 blocks 64 hold >/tmp/hold.out 2>&1 &
hold=$!
sleep 1
t place_hold sh -c "[ $(used) = 1073741824 ]"
kill -9 $hold
wait $hold
sleep 1
t place_killed_released sh -c "[ $(used) = 0 ]"
err place_ebusy "no device has room" place mem 64G threads 256 blocks 64
err place_bad_policy "unknown placement policy" place mem 1G threads 32 blocks 1 policy bogus
rmmod edge || nok unload
exit $fail
