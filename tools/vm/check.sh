#!/bin/bash
# `make check`: lint, host unit tests of emul/, the libFuzzer targets,
# every reproduction (make repro-*) compared with its committed results,
# then the kselftests in
# a guest on each stock kernel (Debian's 6.1 and 6.12, each with its own
# module build, tools/vm/kmod.sh) and again on the debug kernel (built
# into .cache/ when absent; fault injection and kmemleak there,
# tools/vm/check-debug.sh).  Each stock kernel's count is a line
# "kselftests_SERIES=N passed, N failed".
# Ends with one line "N passed, N failed" (tools/vm/tap-summary.sh); exits
# non-zero on any failed test, a failed or silent suite, a stage that
# exits non-zero, a skip not on tools/vm/skip-allow.txt, a guest panic,
# oops, WARN or time-out, or any report of the debug kernel
# (debug_kernel_reports=N > 0).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$top/build
vm=$top/tools/vm
# What make check's guests and host stages run (make's CHECK_PREREQS:
# the tools, the selftests, edge-sim, libedge), made here.
prereq_targets=${CHECK_PREREQS:-ynl tools selftests sim libedge libedge-pc}
prereqs() {
	# shellcheck disable=SC2086 # a list of make targets
	make -s -C "$top" $prereq_targets
}
# make check T=NAME: that one kselftest suite on the stock guest, nothing
# else (tools/vm/check-suite.sh).
if [[ -n ${T:-} ]]; then
	prereqs || exit 1
	exec "$vm/check-suite.sh" "$T"
fi
cache=${CACHE:-$top/.cache}
# shellcheck source=tools/vm/kernel-env.sh
. "$vm/kernel-env.sh"
mkdir -p "$build"
status=0
taps=()
# Only this run's results are summed: no TAP file of an earlier run is
# left to be read when a stage stops before writing its own, and
# tap-summary.sh refuses any file older than the stamp.
stamp=$build/.run-start
rm -f "$build"/*.tap "$build/debug.out" "$stamp"
touch "$stamp"
# A stage that exits non-zero is a failure in the last line too, whatever
# its TAP says (a dead binary, a failed build).
failed_stages=()
stage_failed() {
	status=1
	failed_stages+=(--failed-stage "$1")
}

# Where the time goes (Documentation/testing.rst): each stage's wall
# seconds and the CPU seconds of the processes it ran (this shell's
# children's user+sys, from /proc), printed as it ends:
# "# stage_seconds: NAME wall=W cpu=C".  The debug lane prints its own.
stage_name='' stage_w0=0 stage_c0=0
child_cpu() {
	local s
	read -r s </proc/$$/stat
	s=${s##*) }
	# shellcheck disable=SC2086 # the fields, split
	set -- $s
	echo $((${14} + ${15}))
}
stage() {
	local c now=$SECONDS tck
	tck=$(getconf CLK_TCK)
	if [[ -n $stage_name ]]; then
		c=$(child_cpu)
		echo "# stage_seconds: $stage_name wall=$((now - stage_w0)) cpu=$(((c - stage_c0) / tck))"
	fi
	stage_name=$1 stage_w0=$now stage_c0=$(child_cpu)
	[[ -n $1 ]] && echo "== $2"
}

# The debug kernel's part runs beside the rest, from the start: its build
# (tools/vm/debug-kernel/build.sh: ~12 min of both cores from a fresh
# clone), edge.ko built against it and the guest run
# (tools/vm/check-debug.sh), while the host stages and the stock guests
# run here.  It is the longest part of make check, and each side fills
# the CPU the other leaves idle (single-threaded host stages, guests
# sleeping in a test).  Its stdout is build/debug.out, read at the end;
# its stderr build/debug-lane.log.
# It starts before the tools are made (below): its guest waits for them
# (build/.prereqs.rc, written when they are).
rm -f "$build/debug.tap" "$build/debug-reports.tap" "$build/.prereqs.rc"
# Debian's iperf3 for edge_router_test.sh, once, before either lane makes
# a payload (both would otherwise fetch it at once).
"$vm/fetch-iperf3.sh" "$cache" || exit 1
(
	t0=$SECONDS
	"$vm/debug-kernel/build.sh" "$cache" || exit 1
	echo "debug lane: kernel ready after $((SECONDS - t0)) s; CPU (user, sys) so far:" >&2
	times >&2
	while [[ ! -f $build/.prereqs.rc ]]; do
		sleep 2
	done
	if [[ $(<"$build/.prereqs.rc") != 0 ]]; then
		echo "debug lane: the tools and selftests did not build" >&2
		exit 1
	fi
	"$vm/check-debug.sh" "$build"
	rc=$?
	echo "debug lane: done after $((SECONDS - t0)) s; CPU (user, sys) of the lane:" >&2
	times >&2
	exit $rc
) >"$build/debug.out" 2>"$build/debug-lane.log" &
debug_lane=$!

stage "prereqs" "host: the tools, selftests, edge-sim and libedge (make)"
rc=0
prereqs || rc=$?
echo "$rc" >"$build/.prereqs.rc"
if ((rc)); then
	stage_failed "make $prereq_targets"
fi

# Per-run counts become comments: the totals are printed once, at the end.
percount() { sed -E 's/^(guest_fuzz_calls|packet_torture_frames|faults_injected|debug_kernel_reports|unplug_torture_rounds|ynl_interop)=/# per run: &/' "$@"; }

# The kselftests on one stock kernel: its module build (build/kmod-SERIES),
# its guest modules, a payload (build/payload-SERIES), the guest run
# (build/check-SERIES.tap, .console.log), edgectl -j's JSON.  Prints
# kselftests_SERIES=N passed, N failed (the run's TAP alone) and the
# stage's seconds.
stock_taps=()
stock_counts=()
stock_guest() {
	local k=$1 t0=$SECONDS out=$build/check-$1 counts skipped sparse=
	stage "stock-$k" "guest: kselftests on Debian's $k"
	rm -f "$out.tap" "$build/edgectl-json-$k.tap"
	taps+=("$out.tap" "$build/edgectl-json-$k.tap")
	stock_taps+=("$out.tap")
	# A fresh folder is built with sparse, which tools/lint.sh (below)
	# then trusts (kmod.sh's .sparse-clean) instead of a second pass.
	[[ -e $build/kmod-$k/src ]] || sparse=1
	if ! KMOD_SPARSE=$sparse "$vm/kmod.sh" "$k" "$build/kmod-$k" ||
		! kernel_env "$cache" "$k" ||
		! "$vm/fetch-netmods.sh" "$cache" "$k"; then
		stage_failed "module build for $k (see build/kmod-$k/build.log)"
		stock_counts+=("kselftests_$k=0 passed, 1 failed")
		return
	fi
	echo "# kernel $KV"
	"$vm/payload.sh" "$build/payload-$k" "$build" "$build/kmod-$k/src" ||
		stage_failed "payload $k"
	# The guest itself failing (panic, WARN, time-out) counts as a failed test.
	if ! "$vm/run-guest.sh" --kernel "$VMLINUX" --payload "$build/payload-$k" \
		--mode check --timeout "${GUEST_TIMEOUT:-900}" --out "$out"; then
		stage_failed "guest run on $k (see build/check-$k.console.log)"
	fi
	percount "$out.tap"

	stage "edgectl-json-$k" "host: edgectl -j output from the $k guest parses as JSON"
	"$vm/edgectl-json.py" "$out.tap" >"$build/edgectl-json-$k.tap" ||
		stage_failed "edgectl-json $k"
	cat "$build/edgectl-json-$k.tap"
	# "N passed, N failed" exactly; the allowed skips on a line of their own.
	counts=$("$vm/tap-summary.sh" --since "$stamp" "$out.tap" 2>&1 | tail -n 1)
	stock_counts+=("kselftests_$k=${counts%, [0-9]* skipped}")
	echo "kselftests_$k=${counts%, [0-9]* skipped}"
	skipped=$(sed -n 's/.*, \([0-9]*\) skipped$/\1/p' <<<"$counts")
	echo "kselftests_${k}_skipped=${skipped:-0}"
	echo "kselftests_${k}_seconds=$((SECONDS - t0))"
}
for k in "${KERNELS[@]}"; do
	stock_guest "$k"
done

stage "shell-test" "guest: make shell CMD=... (one short boot; issue 28)"
# On the newest kernel, with the modules its stock run built.
if ! "$vm/shell-test.sh" CACHE="$cache" KERNEL="${KERNELS[-1]}" \
	SHELL_KO="$build/kmod-${KERNELS[-1]}/src" >"$build/shell-test.tap" 2>&1; then
	stage_failed shell-test
fi
cat "$build/shell-test.tap"
taps+=("$build/shell-test.tap")

# The host stages below are CPU work that waits for nothing: they run at
# nice 5, so that while the debug kernel builds, the build has most of
# both cores (the stock guests above, mostly waiting in their tests,
# left it room), and afterwards they fill the core the debug guest
# leaves idle rather than competing with it.  Before this order the
# stock guests ran last, beside the debug guest, and one core sat idle
# through the debug lane's last two minutes.
renice -n 5 -p $BASHPID >/dev/null

stage "tap-summary-test" "host: tap-summary.sh's self-test (what must fail does)"
if ! "$vm/tap-summary-test.sh" >"$build/tap-summary-test.tap" 2>&1; then
	stage_failed tap-summary-test
fi
cat "$build/tap-summary-test.tap"
taps+=("$build/tap-summary-test.tap")

stage "lint" "lint: checkpatch --strict, sparse"
if ! "$top/tools/lint.sh" >"$build/lint.tap" 2>&1; then
	stage_failed lint
fi
cat "$build/lint.tap"
taps+=("$build/lint.tap")

stage "nlspec" "host: the netlink spec and its uapi header agree"
{
	echo "TAP version 13"
	echo "1..1"
	python3 "$top/tools/nlspec-check.py" \
		"$top/Documentation/netlink/specs/edge.yaml" \
		"$top/uapi/linux/edge_netlink.h"
} >"$build/nlspec.tap" 2>&1 || stage_failed nlspec
cat "$build/nlspec.tap"
taps+=("$build/nlspec.tap")

stage "simtrace" "host: edge-sim's timeline (-T) parses and matches its run"
if ! make -s -C "$top/tools/edge-sim" O="$build/host" trace-check \
	>"$build/simtrace.tap" 2>&1; then
	stage_failed simtrace
fi
cat "$build/simtrace.tap"
taps+=("$build/simtrace.tap")

stage "siminput" "host: edge-sim refuses a bad value of every input key (exit 2, key named)"
# tools/edge-sim/input-check.sh: 148 cases, ~8 s of CPU; TAP, its plan last.
if ! make -s -C "$top/tools/edge-sim" O="$build/host" input-check \
	>"$build/siminput.tap" 2>&1; then
	stage_failed siminput
fi
cat "$build/siminput.tap"
taps+=("$build/siminput.tap")

stage "host-tests" "host: emul/ unit tests (ASan+UBSan)"
if ! make -s -C "$top" host-tests >"$build/host.tap" 2>"$build/host.err"; then
	stage_failed host-tests
fi
cat "$build/host.tap"
taps+=("$build/host.tap")

stage "fuzz" "host: libFuzzer targets (validators, ring consumer, model knobs, CP), fixed runs"
if ! make -s -C "$top/selftests/fuzz" O="$build/host/fuzz" run \
	>"$build/fuzz.tap" 2>"$build/fuzz.err"; then
	stage_failed fuzz
fi
cat "$build/fuzz.tap"
taps+=("$build/fuzz.tap")

stage "repro" "host: every make repro-* in full, its CSVs and headline against the committed ones"
# tools/vm/repro-check.sh: byte-identical, or within its REPRO_TOL (one
# unit of a fraction's last digit); prints repro_csv_identical=N/M.
if ! "$vm/repro-check.sh" "$build" >"$build/repro.tap" 2>&1; then
	stage_failed repro
fi
cat "$build/repro.tap"
taps+=("$build/repro.tap")

stage "bench-host" "host: fast-path instruction ceilings (callgrind, tools/bench-host)"
# A change that makes the front end's path slower fails here until
# tools/bench-host/ceiling.txt is consciously raised.
if ! make -s -C "$top/tools/bench-host" O="$build/host" check \
	>"$build/bench-host.tap" 2>"$build/bench-host.err"; then
	stage_failed bench-host
fi
cat "$build/bench-host.tap"
taps+=("$build/bench-host.tap")

stage "debug-wait" "guest: kselftests on the debug kernel (KASAN, lockdep, kmemleak, fault injection)"
# Started at the top, beside everything else: wait for it here.
if ! wait "$debug_lane"; then
	stage_failed "check-debug (see build/debug-lane.log)"
	tail -n 30 "$build/debug-lane.log" >&2
fi
stage "" ""
percount "$build/debug.out"
taps+=("$build/debug.tap" "$build/debug-reports.tap")

# Summary lines: the fuzzers' calls and the torture's frames (the host's libFuzzer total is
# fuzz_calls= above), the faults injected, the debug kernel's reports.
sumval() { sed -n "s/^$1=\([0-9]*\)$/\1/p" "${@:2}" 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'; }
echo "guest_fuzz_calls=$(sumval guest_fuzz_calls "${stock_taps[@]}" "$build/debug.tap")"
# edge_netrx_torture_test's hostile frames, all kernels.
echo "packet_torture_frames=$(sumval packet_torture_frames "${stock_taps[@]}" "$build/debug.tap")"
echo "faults_injected=$(sumval faults_injected "$build/debug.tap")"
# The unplug torture's dev add/del rounds, all kernels (issue 23: >= 200).
echo "unplug_torture_rounds=$(sumval unplug_torture_rounds "${stock_taps[@]}" "$build/debug.tap")"
echo "debug_kernel_reports=$(sumval debug_kernel_reports "$build/debug.out")"
# The kernel's YNL client against edge (edge_ynl_test.sh): a do, a dump
# and a subscription, ok on every stock kernel.
ynl_interop=ok
for t in "${stock_taps[@]}"; do
	grep -q '^ynl_interop=ok$' "$t" 2>/dev/null || ynl_interop=failed
done
echo "ynl_interop=$ynl_interop"
# Each stock kernel's kselftests again, beside the totals.
printf '%s\n' "${stock_counts[@]}"

# A step that replaces /dev/null with a file (seen once on a development
# machine: compiler probes that read it then fail at random, a Kconfig
# option silently lost) is a failure of the run, not a mystery later.
if [[ ! -c /dev/null ]]; then
	echo "check: /dev/null is no longer a character device" >&2
	stage_failed "/dev/null replaced by a file"
fi

# Each TAP file must be this run's; each failed stage is one more failure.
"$vm/tap-summary.sh" --since "$stamp" "${failed_stages[@]}" "${taps[@]}"
sum_status=$?
[[ $status == 0 && $sum_status == 0 ]]
