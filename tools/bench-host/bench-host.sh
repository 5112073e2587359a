#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The host benchmark of the front end's fast path (bench-host.c): callgrind
# instructions per event (also per request of a batched event warp), the
# same path's ns per event on the wall clock (bench-host time: make bench
# runs it in the guest too), the two-thread comparison with a raw SPSC
# ring (at depth 256 batched, 32 requests a warp, and unbatched), and the
# cost of cancelling a GPU-filling kernel.  Prints name=value lines.
#
#   bench-host.sh                    the whole benchmark
#   bench-host.sh --check CEILING    TAP: each instruction count against
#                                    its ceiling in CEILING (name=value);
#                                    fewer events, same per-event figure
#   bench-host.sh --ceiling          print a ceiling file: measured + 10 %
#
# Instruction counts come from callgrind (deterministic: the same binary
# gives the same count on any load); without valgrind, from perf stat
# (noisier, and it counts the warm-up too).
set -u
bin=${BENCH_HOST:?BENCH_HOST=path to bench-host}
mode=${1:-run}
ceiling=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

events=20000
[ "$mode" = --check ] && events=4000

# insn NAME ARGS...: instructions per event of one configuration.
insn() {
	local out=$tmp/cg.out total n
	if command -v valgrind >/dev/null; then
		valgrind --tool=callgrind --toggle-collect=bench_step \
			--callgrind-out-file="$out" "$bin" model --events "$events" \
			"$@" >"$tmp/stdout" 2>"$tmp/stderr" || {
			cat "$tmp/stderr" >&2
			echo 0
			return
		}
		total=$(sed -n 's/^summary: //p' "$out")
	else
		total=$(perf stat -x, -e instructions:u "$bin" model \
			--events "$events" "$@" 2>&1 >"$tmp/stdout" |
			awk -F, '/instructions/ { print $1 }')
	fi
	n=$(sed -n 's/^events=\([0-9]*\).*/\1/p' "$tmp/stdout")
	echo $(( (total + n / 2) / n ))
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b ? a / b : 0 }'; }

if [ "$mode" = --check ] && ! command -v valgrind >/dev/null; then
	# perf counts differ (the warm-up, the noise): no ceiling for them.
	echo "TAP version 13"
	echo "1..1"
	echo "ok 1 - bench-host instruction ceilings # SKIP valgrind missing"
	exit 0
fi

declare -A v
v[model_insn_per_event_idle]=$(insn)
v[model_insn_per_event_busy]=$(insn --busy)
v[model_insn_per_event_busy_h100]=$(insn --busy --preset h100-like)
v[model_insn_per_event_1_entry]=${v[model_insn_per_event_idle]}
for e in 8 32 64; do
	v[model_insn_per_event_${e}_entries]=$(insn --entries $e)
done
v[model_insn_per_event_1_inflight]=${v[model_insn_per_event_idle]}
for d in 16 256 1024; do
	v[model_insn_per_event_${d}_inflight]=$(insn --inflight $d)
done
# Batched event warps of 32 requests: per request, at depth (full warps)
# and alone (each waits out its gather wait).
v[model_insn_per_event_batched_256_inflight]=$(insn --inflight 256 --rpw 32)
v[model_insn_per_event_batched_1_inflight]=$(insn --rpw 32)
names="model_insn_per_event_idle model_insn_per_event_busy
	model_insn_per_event_busy_h100 model_insn_per_event_1_entry
	model_insn_per_event_8_entries model_insn_per_event_32_entries
	model_insn_per_event_64_entries model_insn_per_event_1_inflight
	model_insn_per_event_16_inflight model_insn_per_event_256_inflight
	model_insn_per_event_1024_inflight
	model_insn_per_event_batched_256_inflight
	model_insn_per_event_batched_1_inflight"

if [ "$mode" = --ceiling ]; then
	echo "# bench-host instruction ceilings: measured + 10 %."
	echo "# Raise one only for a change that is meant to cost more."
	for k in $names; do
		echo "$k=$(( v[$k] * 11 / 10 ))"
	done
	exit 0
fi

if [ "$mode" = --check ]; then
	i=0 fail=0
	nr=$(echo $names | wc -w)
	echo "TAP version 13"
	echo "1..$nr"
	for k in $names; do
		i=$((i + 1))
		c=$(sed -n "s/^$k=//p" "$ceiling")
		if [ -n "$c" ] && [ "${v[$k]}" -gt 0 ] && [ "${v[$k]}" -le "$c" ]; then
			echo "ok $i - $k ${v[$k]} <= $c"
		else
			echo "not ok $i - $k ${v[$k]} > ceiling ${c:-missing}"
			fail=1
		fi
	done
	exit $fail
fi

for k in $names; do
	echo "$k=${v[$k]}"
done
echo "entries_cost_ratio=$(ratio "${v[model_insn_per_event_64_entries]}" \
	"${v[model_insn_per_event_1_entry]}")"
echo "inflight_cost_ratio=$(ratio "${v[model_insn_per_event_1024_inflight]}" \
	"${v[model_insn_per_event_16_inflight]}")"

# One thread, wall clock: ns per event of the path and of its consume.
"$bin" time --cpu 0 --events 200000
"$bin" time --busy --cpu 0 --events 200000
# Two threads, wall clock: ratios within one run only.  At depth 256 the
# plain names are batched event warps of 32 requests (EDGE's), the
# unbatched run beside them with _unbatched.
for d in 1 16 256; do
	"$bin" twothread --depth $d --ms 400 >"$tmp/tt.$d"
	if [ $d = 256 ]; then
		sed 's/^\([a-z_]*_depth_256\)=/\1_unbatched=/' "$tmp/tt.$d"
	else
		cat "$tmp/tt.$d"
	fi
done
"$bin" twothread --depth 256 --rpw 32 --ms 400
echo "requests_per_warp_depth_256=32"
# Unsuffixed: one user entry at depth 1, as edge-bench's events_per_s.
sed -n 's/^\(events_per_s\|raw_ring_events_per_s\|events_vs_raw_ring_ratio\)_depth_1=/\1=/p' \
	"$tmp/tt.1"
"$bin" cancel --preset h100-like | grep '^cancel_fill_h100_ms='
"$bin" cancel --preset edge | grep '^cancel_fill_edge_ms='
